//! Agreement with pydraughts (PyPI), a draughts library nobody here wrote, on legal moves and
//! game ends: seeded random games of International draughts (pydraughts' `standard`),
//! Brazilian and Italian draughts, from the start and from random positions with few pieces,
//! replayed by `tests/pydraughts/agree.py`, which compares at every position pydraughts' legal moves
//! (start, end and captured squares) with ours, and that the side with no legal move has lost.
//! pydraughts has no Canadian draughts. Turkish draughts is compared the same way, less one
//! pydraughts bug that `agree.py` sets aside and counts (a Turkish king's quiet move passing
//! over pieces); pydraughts waits two moves before its one-piece-each draw and we don't, so
//! Turkish draws are checked by `turkish_rules.rs`.
//!
//! Only moves and the loss without a legal move are compared: pydraughts counts its draw rules
//! differently from the FMJD text (it restarts the 16- and 5-move counts on every man move),
//! so draws are checked by our own tests (`international_game.rs`).
//!
//! The Python environment comes from `scripts/setup-test-deps.sh` (a venv in
//! `target/test-deps/pydraughts-venv`); `CHECKERS_TEST_PYTHON` names another interpreter
//! that has pydraughts. Without one the test is skipped locally but fails when `CI=true`.

mod board_support;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use board_support::{python, Rng};
use checkers_rules::board::{
    Board, BoardMove, BoardSetup, Brazilian, Geometry, International, Italian, RuleSet, Turkish,
};
use checkers_rules::{Color, Piece, Role};

/// A variant as pydraughts knows it: its name there and its square numbers.
trait Theirs: RuleSet {
    const PYDRAUGHTS: &'static str;
    /// pydraughts' number of our square.
    fn theirs(square: u32) -> u32;
}

impl Theirs for International {
    const PYDRAUGHTS: &'static str = "standard";
    fn theirs(square: u32) -> u32 {
        square
    }
}

impl Theirs for Brazilian {
    const PYDRAUGHTS: &'static str = "brazilian";
    /// pydraughts numbers the 8x8 board from White's side: its square 1 is a1 (our 29), its
    /// 32 is h8 (our 4); rows still run from the a file side.
    fn theirs(square: u32) -> u32 {
        let (row, col) = ((square - 1) / 4, (square - 1) % 4);
        (7 - row) * 4 + col + 1
    }
}

impl Theirs for Italian {
    const PYDRAUGHTS: &'static str = "italian";
    /// pydraughts numbers the Italian board as the FID does, as we do.
    fn theirs(square: u32) -> u32 {
        square
    }
}

impl Theirs for Turkish {
    const PYDRAUGHTS: &'static str = "turkish";
    /// pydraughts numbers Turkish squares rank by rank from White's side: a1 is 1, h1 is 8,
    /// h8 is 64 (ours run from a8).
    fn theirs(square: u32) -> u32 {
        let (file, rank) = <Self as RuleSet>::Geometry::coords(square);
        rank * 8 + file + 1
    }
}

fn fen_for_them<V: Theirs>(board: &Board<V>) -> String {
    let mut out = String::from(if board.turn() == Color::White { "W" } else { "B" });
    for color in [Color::White, Color::Black] {
        let items: Vec<String> = (1..=<V::Geometry as Geometry>::SQUARES)
            .filter_map(|n| match board.piece_at(n) {
                Some(Piece { color: c, role }) if c == color => {
                    let king = if role == Role::King { "K" } else { "" };
                    Some(format!("{king}{}", V::theirs(n)))
                }
                _ => None,
            })
            .collect();
        let _ = write!(out, ":{}{}", if color == Color::White { "W" } else { "B" }, items.join(","));
    }
    out
}

fn key<V: Theirs>(mv: &BoardMove<V>) -> String {
    let mut captured: Vec<u32> = mv.captured().into_iter().map(V::theirs).collect();
    captured.sort_unstable();
    let mut squares = vec![V::theirs(mv.from()), V::theirs(mv.to())];
    squares.extend(captured);
    squares.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// A random valid position with 1-6 pieces a side, a third of them kings.
fn random_position<V: Theirs>(rng: &mut Rng) -> Board<V> {
    loop {
        let squares = <V::Geometry as Geometry>::SQUARES;
        let mut setup = BoardSetup {
            turn: Some(if rng.index(2) == 0 { Color::White } else { Color::Black }),
            ..BoardSetup::default()
        };
        let mut used = Vec::new();
        for color in [Color::White, Color::Black] {
            for _ in 0..1 + rng.index(6) {
                let square = 1 + rng.index(squares as usize) as u32;
                if used.contains(&square) {
                    continue;
                }
                used.push(square);
                let king = rng.index(3) == 0;
                let list = match (color, king) {
                    (Color::White, false) => &mut setup.white_men,
                    (Color::White, true) => &mut setup.white_kings,
                    (Color::Black, false) => &mut setup.black_men,
                    (Color::Black, true) => &mut setup.black_kings,
                };
                list.push(square);
            }
        }
        if let Ok(board) = Board::<V>::from_setup(&setup) {
            return board;
        }
    }
}

/// Plays a random game of at most `plies` plies, writing it for the script.
fn write_game<V: Theirs>(start: Board<V>, plies: usize, rng: &mut Rng, out: &mut String) {
    let _ = writeln!(out, "game {} {}", V::PYDRAUGHTS, fen_for_them(&start));
    let mut board = start;
    for _ in 0..=plies {
        let moves = board.legal_moves();
        let keys: Vec<String> = moves.iter().map(key).collect();
        let _ = writeln!(out, "expect {}", keys.join(" "));
        if moves.is_empty() {
            return;
        }
        let mv = moves[rng.index(moves.len())];
        let _ = writeln!(out, "play {}", key(&mv));
        board = board.play_unchecked(&mv);
    }
}

fn games<V: Theirs>(seed: u64, from_start: usize, from_random: usize, out: &mut String) {
    let mut rng = Rng(seed);
    for _ in 0..from_start {
        write_game(Board::<V>::start(), 80, &mut rng, out);
    }
    for _ in 0..from_random {
        let start = random_position::<V>(&mut rng);
        write_game(start, 40, &mut rng, out);
    }
}

#[test]
fn legal_moves_and_game_ends_agree_with_pydraughts() {
    let Some(python) = python() else {
        let message =
            "no Python with pydraughts: run scripts/setup-test-deps.sh (or set CHECKERS_TEST_PYTHON)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
        return;
    };
    let mut input = String::new();
    games::<International>(0x1d_2024, 4, 40, &mut input);
    games::<Brazilian>(0xb7_2024, 4, 40, &mut input);
    games::<Italian>(0x17_2024, 4, 40, &mut input);
    games::<Turkish>(0x7e_2024, 4, 40, &mut input);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/agree.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pydraughts script starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("the script reads its input");
    let out = child.wait_with_output().expect("the pydraughts script runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pydraughts disagrees:\n{stdout}\n{stderr}");
    eprintln!("pydraughts: {}", stdout.trim());
    let expected_games = input.lines().filter(|line| line.starts_with("game ")).count();
    assert!(stdout.contains(&format!("checked {expected_games} games")), "{stdout}\n{stderr}");
    assert!(stdout.contains(" 0 disagreements"), "{stdout}");
    // Some random games must end in a loss without a legal move, or the ends are untested.
    let ends = input.lines().filter(|line| *line == "expect ").count();
    assert!(ends >= 10, "only {ends} games ended without a legal move");
}
