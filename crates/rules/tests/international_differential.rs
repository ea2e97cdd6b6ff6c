//! Differential testing of International draughts: the library's generator against the
//! simple reference in `international_reference/`, on positions of random games, random
//! placements with kings of both sides, and hand-built positions. Each position also checks
//! the counting doors, that every move's text reads back as the same move, and that playing
//! a move gives the board the reference gives.

mod international_reference;

use std::collections::BTreeSet;

use checkers_rules::board::{board_perft, Board, BoardMoveTextError, BoardSetup, International};
use checkers_rules::{Color, Role};
use international_reference::{coord_of, RefBoard, RefMove};

type Intl = Board<International>;

/// A small deterministic generator (xorshift64*), so a failure names a reproducible case.
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

/// Compares everything the library says about `board` with the reference; returns the
/// number of legal moves.
fn check(board: &Intl) -> usize {
    let context = || format!("{}\n{}", board.to_fen(), board.diagram());
    let legal = board.legal_moves();
    let library: Vec<RefMove> = legal.iter().map(RefMove::of).collect();
    let library_set: BTreeSet<RefMove> = library.iter().cloned().collect();
    assert_eq!(library_set.len(), library.len(), "the library lists a move twice in {}", context());
    let reference = RefBoard::from_board(board);
    let expected = reference.generate();
    if library_set != expected.moves {
        let missing: Vec<String> = expected.moves.difference(&library_set).map(RefMove::hub).collect();
        let extra: Vec<String> = library_set.difference(&expected.moves).map(RefMove::hub).collect();
        panic!("move lists differ: the library misses {missing:?} and adds {extra:?} in {}", context());
    }
    let any_capture = legal.iter().any(|m| m.is_capture());
    assert_eq!(board.has_capture(), any_capture, "has_capture in {}", context());
    assert_eq!(board.has_legal_move(), !legal.is_empty(), "has_legal_move in {}", context());
    assert_eq!(board.count_legal_moves(), legal.len() as u64, "count_legal_moves in {}", context());
    assert_eq!(board_perft(board, 1), legal.len() as u64, "perft 1 in {}", context());

    for mv in legal.iter() {
        let key = RefMove::of(mv);
        let text = mv.to_pdn(board);
        if mv.is_capture() {
            let routes = &expected.capture_texts[&key];
            assert!(
                routes.contains(&text),
                "long form {text} is no route of {} ({routes:?}) in {}",
                key.hub(),
                context()
            );
            // Every route of the move reads as the move.
            for route in routes {
                assert_eq!(board.parse_move(route), Ok(*mv), "route {route} in {}", context());
            }
        } else {
            assert_eq!(text, format!("{}-{}", key.from, key.to), "quiet move text in {}", context());
        }
        assert_eq!(board.parse_move(&text), Ok(*mv), "{text} reads back in {}", context());
        let short = mv.to_short();
        let same_ends = legal.iter().filter(|m| m.from() == mv.from() && m.to() == mv.to()).count();
        match board.parse_move(&short) {
            Ok(found) => assert!(same_ends == 1 && found == *mv, "{short} in {}", context()),
            Err(BoardMoveTextError::Ambiguous { .. }) => assert!(same_ends > 1, "{short} in {}", context()),
            Err(e) => panic!("{short}: {e} in {}", context()),
        }
        let after = board.play_unchecked(mv);
        assert_eq!(
            RefBoard::from_board(&after),
            reference.play(&key),
            "after {} in {}",
            key.hub(),
            context()
        );
        assert_eq!(board.try_play(mv).ok(), Some(after));
    }
    legal.len()
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut captures, mut king_positions) = (0, 0, 0);
    for _ in 0..150 {
        let mut board = Intl::start();
        for _ in 0..200 {
            let n = check(&board);
            positions += 1;
            if n == 0 {
                break;
            }
            captures += usize::from(board.has_capture());
            king_positions +=
                usize::from((1..=50).any(|s| board.piece_at(s).is_some_and(|p| p.role == Role::King)));
            let moves = board.legal_moves();
            board = board.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    eprintln!("{positions} positions, {captures} with captures, {king_positions} with kings");
    assert!(positions > 10_000 && captures > 2_000 && king_positions > 1_000);
}

/// A random valid placement: up to `most` pieces a side, kings often, no man on its
/// crowning row.
fn random_board(rng: &mut Rng, most: u64) -> Intl {
    let mut setup = BoardSetup {
        turn: Some(if rng.below(2) == 0 { Color::White } else { Color::Black }),
        ..BoardSetup::default()
    };
    let mut used = BTreeSet::new();
    for color in [Color::White, Color::Black] {
        for _ in 0..1 + rng.below(most) {
            let square = 1 + rng.below(50) as u32;
            if !used.insert(square) {
                continue;
            }
            let crowning_row = if color == Color::White { square <= 5 } else { square > 45 };
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
    Intl::from_setup(&setup).expect("the placement is valid")
}

#[test]
fn random_placements_with_kings_agree_with_the_reference() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut longest = 0;
    for i in 0..20_000 {
        let board = random_board(&mut rng, if i % 2 == 0 { 8 } else { 20 });
        check(&board);
        longest = longest.max(board.legal_moves().iter().map(|m| m.captured_count()).max().unwrap_or(0));
    }
    assert!(longest >= 4, "the placements reach long captures (longest {longest})");
}

/// Hand-built positions: flying kings with many landing squares, long multi-captures, loops
/// that come back to the start square, majority with kings, crowning passed during a capture.
const HAND_BUILT: &[&str] = &[
    "W:WK46:B18,32",
    "W:WK46:B23,37",
    "W:W32:B17,18,27,28",
    "W:W12:B8,9",
    "W:W12:B8",
    "W:W34,36:B18,29,K21,K31",
    "W:W32,34:B18,29,K27",
    "W:WK32:B23,41",
    "W:WK28,K33:B9,12,13,19,22,24,27,29,38,40",
    "B:WK3,12,13,18,23,28,37,39,42:BK46,K50,7,8",
    "W:WK1,K50:B7,8,9,12,13,17,18,19,22,23,24,28,29,33,34,38,39,43,44",
    "B:W33,34,38,39,43,44:B22,K49",
    "W:W26,27,28,29,30:BK1,11,12,13,14,16,17,18,19,20,21,22,23,24,25",
    "W:WK47,31,32,33,36,38,39,42,44:BK4,6,11,13,14,16,17,19,20",
];

#[test]
fn hand_built_positions_agree_with_the_reference() {
    for fen in HAND_BUILT {
        let board = Intl::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check(&board);
    }
}

/// Perft from positions full of kings against perft by the reference's list-and-play.
#[test]
fn perft_with_kings_agrees_with_the_reference() {
    for fen in [
        "W:WK28,K33:B9,12,13,19,22,24,27,29,38,40",
        "B:WK3,12,13,18,23,28,37,39,42:BK46,K50,7,8",
        "W:WK47,31,32,33,36,38,39,42,44:BK4,6,11,13,14,16,17,19,20",
    ] {
        let board = Intl::from_fen(fen).unwrap();
        let reference = RefBoard::from_board(&board);
        for depth in 1..=3 {
            assert_eq!(board_perft(&board, depth), reference.perft(depth), "{fen} depth {depth}");
        }
    }
}

#[test]
fn the_reference_reads_squares_as_the_numbered_board() {
    assert_eq!(coord_of(1), (1, 9));
    assert_eq!(coord_of(5), (9, 9));
    assert_eq!(coord_of(6), (0, 8));
    assert_eq!(coord_of(46), (0, 0));
    assert_eq!(coord_of(50), (8, 0));
    for n in 1..=50 {
        assert_eq!(international_reference::number_of(coord_of(n)), n);
    }
}
