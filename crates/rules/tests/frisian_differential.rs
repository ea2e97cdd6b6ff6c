//! Differential testing of Frisian draughts and Frysk!: the library's generator against the
//! simple reference in `frisian_reference/`, on positions of random games (where runs of king
//! moves arise by play) and random placements with kings of both sides and random runs. Each
//! position also checks the counting doors, that every route of every capture reads back as
//! its move, and that playing a move gives the pieces and the runs the reference gives.

mod frisian_reference;

use std::collections::BTreeSet;

use checkers_rules::board::{Board, BoardSetup, Frisian, FrisianFamily, Frysk, KingMoves};
use checkers_rules::{Color, Role};
use frisian_reference::{coord_of, RefBoard, RefMove};

/// xorshift64*: a fixed seed gives the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Compares everything the library says about `board` with the reference; returns the legal
/// moves.
fn check<V: FrisianFamily>(board: &Board<V>) -> Vec<RefMove> {
    let context = || format!("{}\n{}", board.to_frisian_fen(), board.diagram());
    let legal = board.legal_moves();
    let library: Vec<RefMove> = legal.iter().map(RefMove::of).collect();
    let library_set: BTreeSet<RefMove> = library.iter().cloned().collect();
    assert_eq!(library_set.len(), library.len(), "a move listed twice in {}", context());
    let reference = RefBoard::from_board(board);
    let expected = reference.generate();
    if library_set != expected.moves {
        let missing: Vec<String> = expected.moves.difference(&library_set).map(RefMove::hub).collect();
        let extra: Vec<String> = library_set.difference(&expected.moves).map(RefMove::hub).collect();
        panic!("move lists differ: the library misses {missing:?} and adds {extra:?} in {}", context());
    }
    assert_eq!(board.has_capture(), legal.iter().any(|m| m.is_capture()), "has_capture in {}", context());
    assert_eq!(board.has_legal_move(), !legal.is_empty(), "has_legal_move in {}", context());
    assert_eq!(board.count_legal_moves(), legal.len() as u64, "count_legal_moves in {}", context());
    for mv in legal.iter() {
        let key = RefMove::of(mv);
        if mv.is_capture() {
            let text = mv.to_pdn(board);
            let routes = &expected.routes[&key];
            let long: Vec<u32> = text.split('x').map(|n| n.parse().unwrap()).collect();
            assert!(routes.contains(&long), "{text} is no route of {} in {}", key.hub(), context());
            for route in routes {
                let route_text = route.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
                assert_eq!(board.parse_move(&route_text), Ok(*mv), "route {route_text} in {}", context());
            }
        }
        let after = board.play_unchecked(mv);
        let expected_after = reference.play(&key);
        assert_eq!(RefBoard::from_board(&after), expected_after, "after {} in {}", key.hub(), context());
    }
    library
}

/// What the random games went through, so a test can require that the special rules arose.
#[derive(Default)]
struct Seen {
    positions: usize,
    /// Positions whose side to move had a king barred from quiet moves.
    blocked_kings: usize,
    /// Captures that jump along a file or a rank.
    orthogonal_captures: usize,
}

/// A random game from `start`, checking every position.
fn random_game<V: FrisianFamily>(start: Board<V>, plies: usize, rng: &mut Rng, seen: &mut Seen) {
    let mut board = start;
    for _ in 0..plies {
        let moves = check(&board);
        seen.positions += 1;
        if moves.is_empty() {
            return;
        }
        seen.blocked_kings += usize::from(board.king_moves(board.turn()).count == 3);
        let legal = board.legal_moves();
        for mv in legal.iter().filter(|m| m.is_capture()) {
            let route: Vec<(i32, i32)> =
                mv.to_pdn(&board).split('x').map(|n| coord_of(n.parse().unwrap())).collect();
            let along_a_line = route.windows(2).any(|w| w[0].0 == w[1].0 || w[0].1 == w[1].1);
            seen.orthogonal_captures += usize::from(along_a_line);
        }
        // Mostly go on with the king of the mover's run, so runs reach the limit.
        let runner = board.king_moves(board.turn()).king;
        let going_on: Vec<_> = legal.iter().filter(|m| Some(m.from()) == runner && !m.is_capture()).collect();
        let mv = if !going_on.is_empty() && rng.below(4) != 0 {
            *going_on[rng.below(going_on.len() as u64) as usize]
        } else {
            legal[rng.below(legal.len() as u64) as usize]
        };
        board = board.play_unchecked(&mv);
    }
}

/// A random placement of 1-12 pieces a side, many of them kings, with random runs.
fn random_position<V: FrisianFamily>(rng: &mut Rng) -> Board<V> {
    loop {
        let mut setup = BoardSetup {
            turn: Some(if rng.below(2) == 0 { Color::White } else { Color::Black }),
            ..BoardSetup::default()
        };
        let mut used = BTreeSet::new();
        for color in [Color::White, Color::Black] {
            let most = Board::<V>::MAX_PIECES.min(12) as u64;
            for _ in 0..1 + rng.below(most) {
                let square = 1 + rng.below(50) as u32;
                if !used.insert(square) {
                    continue;
                }
                let king = rng.below(5) < 2;
                let (_, rank) = coord_of(square);
                let crowning = if color == Color::White { 9 } else { 0 };
                let list = match (color, king || rank == crowning) {
                    (Color::White, false) => &mut setup.white_men,
                    (Color::White, true) => &mut setup.white_kings,
                    (Color::Black, false) => &mut setup.black_men,
                    (Color::Black, true) => &mut setup.black_kings,
                };
                list.push(square);
            }
        }
        let Ok(mut board) = Board::<V>::from_setup(&setup) else { continue };
        for color in [Color::White, Color::Black] {
            let kings: Vec<u32> = (1..=50)
                .filter(|&n| board.piece_at(n).is_some_and(|p| p.color == color && p.role == Role::King))
                .collect();
            if !kings.is_empty() && rng.below(2) == 0 {
                let king = kings[rng.below(kings.len() as u64) as usize];
                let run = KingMoves { count: 1 + rng.below(3) as u32, king: Some(king) };
                board = board.with_king_moves(color, run).expect("a run of a king of that side");
            }
        }
        return board;
    }
}

#[test]
fn frisian_random_games_agree_with_the_reference() {
    let (mut rng, mut seen) = (Rng(0x0f21_51a4), Seen::default());
    for _ in 0..40 {
        random_game(Board::<Frisian>::start(), 160, &mut rng, &mut seen);
    }
    assert!(seen.positions > 2000, "only {} positions", seen.positions);
    assert!(seen.blocked_kings >= 3, "only {} positions with a blocked king", seen.blocked_kings);
    assert!(seen.orthogonal_captures > 100, "only {} orthogonal captures", seen.orthogonal_captures);
}

#[test]
fn frysk_random_games_agree_with_the_reference() {
    let (mut rng, mut seen) = (Rng(0x000f_475c), Seen::default());
    for _ in 0..60 {
        random_game(Board::<Frysk>::start(), 120, &mut rng, &mut seen);
    }
    assert!(seen.positions > 1000, "only {} positions", seen.positions);
    assert!(seen.blocked_kings >= 3, "only {} positions with a blocked king", seen.blocked_kings);
}

#[test]
fn random_placements_with_kings_and_runs_agree_with_the_reference() {
    let (mut rng, mut seen) = (Rng(0x00c0_ffee), Seen::default());
    for _ in 0..400 {
        let board = random_position::<Frisian>(&mut rng);
        random_game(board, 12, &mut rng, &mut seen);
    }
    for _ in 0..100 {
        let board = random_position::<Frysk>(&mut rng);
        random_game(board, 12, &mut rng, &mut seen);
    }
    assert!(seen.blocked_kings > 100, "only {} positions with a blocked king", seen.blocked_kings);
    assert!(seen.orthogonal_captures > 100, "only {} orthogonal captures", seen.orthogonal_captures);
}

/// The reference counts the first depths from the start as the library does.
#[test]
fn reference_perft_from_the_start() {
    let frisian = Board::<Frisian>::start();
    let frysk = Board::<Frysk>::start();
    for depth in 1..=3 {
        let ours = checkers_rules::board::board_perft(&frisian, depth);
        assert_eq!(RefBoard::from_board(&frisian).perft(depth), ours, "frisian depth {depth}");
        let ours = checkers_rules::board::board_perft(&frysk, depth);
        assert_eq!(RefBoard::from_board(&frysk).perft(depth), ours, "frysk depth {depth}");
    }
}
