//! What the tests of the boards of any size share: seeded random number generators, random
//! valid placements and random games of any variant, the Python interpreter that has
//! pydraughts, and the reader of the perft data files.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use checkers_rules::board::{Board, BoardSetup, Geometry, RuleSet};
use checkers_rules::{Color, Role};

/// A small deterministic generator (xorshift64*), so a failure names a reproducible case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// An index below `n` (the same draw as [`Rng::below`]).
    pub fn index(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// splitmix64, the generator the pydraughts agreement of the lidraughts variants was seeded
/// with (kept so that its seeds give the same games).
pub struct SplitMix(pub u64);

impl SplitMix {
    /// An index below `n`.
    pub fn index(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Python interpreter that can import pydraughts, if there is one: `CHECKERS_TEST_PYTHON`,
/// or the venv `scripts/setup-test-deps.sh` makes.
pub fn python() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("CHECKERS_TEST_PYTHON").map(PathBuf::from),
        Some(workspace().join("target/test-deps/pydraughts-venv/bin/python")),
    ];
    candidates.into_iter().flatten().find(|python| {
        Command::new(python).args(["-c", "import draughts"]).output().is_ok_and(|out| out.status.success())
    })
}

/// The FEN and the counts (depth 1 first) of each line of a perft data file (`#` starts a
/// comment line), with the line's number.
pub fn read_perft_cases<V: RuleSet>(name: &str, text: &str) -> Vec<(usize, Board<V>, Vec<u64>)> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let fen = fields.next().expect("a FEN");
        let board = Board::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{name} line {line_no}: {e}"));
        let counts = fields
            .map(|n| n.parse().unwrap_or_else(|e| panic!("{name} line {line_no}: `{n}`: {e}")))
            .collect();
        cases.push((line_no, board, counts));
    }
    assert!(!cases.is_empty(), "{name} has no case");
    cases
}

/// A random valid placement: up to `most` pieces a side, a third of them kings and every
/// piece on its crowning row a king.
pub fn random_board<V: RuleSet>(rng: &mut Rng, most: u64) -> Board<V> {
    let squares = <V::Geometry as Geometry>::SQUARES;
    let top = <V::Geometry as Geometry>::SIDE - 1;
    let mut setup = BoardSetup {
        turn: Some(if rng.below(2) == 0 { Color::White } else { Color::Black }),
        ..BoardSetup::default()
    };
    let mut used = BTreeSet::new();
    for color in [Color::White, Color::Black] {
        for _ in 0..1 + rng.below(most) {
            let square = 1 + rng.below(u64::from(squares)) as u32;
            if !used.insert(square) {
                continue;
            }
            let rank = <V::Geometry as Geometry>::coords(square).1;
            let crowning_row = if color == Color::White { rank == top } else { rank == 0 };
            let king = crowning_row || rng.below(3) == 0;
            let list = match (color, king) {
                (Color::White, false) => &mut setup.white_men,
                (Color::White, true) => &mut setup.white_kings,
                (Color::Black, false) => &mut setup.black_men,
                (Color::Black, true) => &mut setup.black_kings,
            };
            list.push(square);
        }
    }
    Board::from_setup(&setup).expect("the placement is valid")
}

/// What [`random_games`] saw: positions, those with a capture to play, those with a king.
#[derive(Debug, Default)]
pub struct Seen {
    pub positions: usize,
    pub captures: usize,
    pub king_positions: usize,
}

/// Plays `games` random games of at most 200 plies from the start, seeded by `seed`, calling
/// `check` on every position (it returns the number of legal moves there).
pub fn random_games<V: RuleSet>(seed: u64, games: usize, mut check: impl FnMut(&Board<V>) -> usize) -> Seen {
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    let squares = <V::Geometry as Geometry>::SQUARES;
    for _ in 0..games {
        let mut board = Board::<V>::start();
        for _ in 0..200 {
            let n = check(&board);
            seen.positions += 1;
            if n == 0 {
                break;
            }
            seen.captures += usize::from(board.has_capture());
            seen.king_positions +=
                usize::from((1..=squares).any(|s| board.piece_at(s).is_some_and(|p| p.role == Role::King)));
            let moves = board.legal_moves();
            board = board.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    eprintln!(
        "{} positions, {} with captures, {} with kings",
        seen.positions, seen.captures, seen.king_positions
    );
    seen
}
