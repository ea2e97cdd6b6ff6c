//! Differential testing of International draughts: the library's generator against the
//! simple reference in `international_reference/`, on positions of random games, random
//! placements with kings of both sides, and hand-built positions. Each position also checks
//! the counting doors, that every move's text reads back as the same move, and that playing
//! a move gives the board the reference gives.

mod board_support;
mod international_reference;

use std::collections::BTreeSet;

use board_support::{random_board, random_games, Rng};
use checkers_rules::board::{board_perft, Board, BoardMoveTextError, International};
use international_reference::{coord_of, RefBoard, RefMove};

type Intl = Board<International>;

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
    let seen = random_games(0x9e37_79b9_7f4a_7c15, 150, check);
    assert!(seen.positions > 10_000 && seen.captures > 2_000 && seen.king_positions > 1_000);
}

#[test]
fn random_placements_with_kings_agree_with_the_reference() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut longest = 0;
    for i in 0..20_000 {
        let board: Intl = random_board(&mut rng, if i % 2 == 0 { 8 } else { 20 });
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
