//! Differential testing of Turkish draughts: the library's generator against the simple
//! reference in `turkish_reference/`, on positions of random games, random placements with
//! kings of both sides, and hand-built positions. Each position also checks the counting
//! doors, that every move's text reads back as the same move, and that playing a move gives
//! the board the reference gives. Perft from the start and from positions with kings is
//! counted by both.

mod board_support;
mod turkish_reference;

use std::collections::BTreeSet;

use board_support::{random_board, random_games, Rng};
use checkers_rules::board::{board_perft, Board, BoardMoveTextError, Turkish};
use turkish_reference::{coord_of, name, RefBoard, RefMove};

type Tk = Board<Turkish>;

/// Compares the library's move list and counting doors with the reference.
fn check_moves(board: &Tk, expected: &turkish_reference::Generated) {
    let context = || format!("{}\n{}", board.to_fen(), board.diagram());
    let legal = board.legal_moves();
    let library: Vec<RefMove> = legal.iter().map(RefMove::of).collect();
    let library_set: BTreeSet<RefMove> = library.iter().cloned().collect();
    assert_eq!(library_set.len(), library.len(), "the library lists a move twice in {}", context());
    if library_set != expected.moves {
        let missing: Vec<String> = expected.moves.difference(&library_set).map(RefMove::hub).collect();
        let extra: Vec<String> = library_set.difference(&expected.moves).map(RefMove::hub).collect();
        panic!("move lists differ: the library misses {missing:?} and adds {extra:?} in {}", context());
    }
    let any_capture = legal.iter().any(|m| m.is_capture());
    assert_eq!(board.has_capture(), any_capture, "has_capture in {}", context());
    assert_eq!(board.has_legal_move(), !legal.is_empty(), "has_legal_move in {}", context());
    assert_eq!(board.count_legal_moves(), legal.len() as u64, "count_legal_moves in {}", context());
}

/// Compares everything the library says about `board` with the reference; returns the
/// number of legal moves.
fn check(board: &Tk) -> usize {
    let context = || format!("{}\n{}", board.to_fen(), board.diagram());
    let reference = RefBoard::from_board(board);
    let expected = reference.generate();
    check_moves(board, &expected);
    let legal = board.legal_moves();
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
            for route in routes {
                assert_eq!(board.parse_move(route), Ok(*mv), "route {route} in {}", context());
            }
        } else {
            let quiet = format!("{}-{}", name(coord_of(key.from)), name(coord_of(key.to)));
            assert_eq!(text, quiet, "quiet move text in {}", context());
        }
        assert_eq!(board.parse_move(&text), Ok(*mv), "{text} reads back in {}", context());
        assert_eq!(mv.to_hub(), key.hub(), "hub form in {}", context());
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
    assert_eq!(Tk::from_fen(&board.to_fen()).as_ref(), Ok(board), "FEN round trip of {}", context());
    legal.len()
}

#[test]
fn random_games_agree_with_the_reference() {
    let seen = random_games(0x7e4b_15a1_d00d_2024, 100, check);
    assert!(seen.positions > 5_000 && seen.captures > 1_000 && seen.king_positions > 2_000);
}

#[test]
fn random_placements_with_kings_agree_with_the_reference() {
    let mut rng = Rng(0x51ed_2701_a5a5_0042);
    let mut longest = 0;
    for i in 0..6_000 {
        let board: Tk = random_board(&mut rng, if i % 2 == 0 { 6 } else { 16 });
        check(&board);
        longest = longest.max(board.legal_moves().iter().map(|m| m.captured_count()).max().unwrap_or(0));
    }
    assert!(longest >= 5, "the placements reach long captures (longest {longest})");
}

/// Hand-built positions: a king's loop back over its start square and over a square emptied
/// earlier in the same capture, kings taking along one line twice, crowning during a capture.
const HAND_BUILT: &[&str] = &[
    "W:WKe1:Be3,c5,a4,g3",
    "W:WKa1:BKc1,Ke1,Kg1,d3,b4,a2",
    "W:WKd3:Bd2,d5",
    "W:WKb2:Bb4,d6,f4,d2",
    "W:WKa1:Ba3,a6,c7,e7",
    "W:WKd4:Bd6,b4,f4,d2,Kb6,Kf6,Kb2,Kf2",
    "W:Wc6:Bc7,d8,e4",
    "W:Wd4,g2:BKd5,Kd7,g3,g5,f6",
    "B:WKa1,Kh1,a5,h5,d4,e4:Bd5,e5,a7,h7,Kd8",
    "W:WKa1,Kh8:Ba3,a5,a7,c8,e8,g8,h6,h4,h2,Kf1,Kd1,Kb1",
];

#[test]
fn hand_built_positions_agree_with_the_reference() {
    for fen in HAND_BUILT {
        let board = Tk::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check(&board);
    }
}

#[test]
fn perft_from_the_start_agrees_with_the_reference() {
    let start = Tk::start();
    let reference = RefBoard::from_board(&start);
    for depth in 1..=4 {
        assert_eq!(board_perft(&start, depth), reference.perft(depth), "depth {depth}");
    }
}

/// Perft from positions full of kings against perft by the reference's list-and-play.
#[test]
fn perft_with_kings_agrees_with_the_reference() {
    for fen in ["W:WKa1,Kh8,c3,f3:Bb6,Kg6,d5,e5,Kc7", "B:WKd4,Ke5,b3,g3:BKa8,Kh1,c6,f6,c5,f5"] {
        let board = Tk::from_fen(fen).unwrap();
        let reference = RefBoard::from_board(&board);
        for depth in 1..=3 {
            assert_eq!(board_perft(&board, depth), reference.perft(depth), "{fen} depth {depth}");
        }
    }
}

#[test]
fn the_reference_reads_squares_as_the_documented_numbers() {
    assert_eq!(coord_of(1), (0, 7), "1 is a8");
    assert_eq!(coord_of(8), (7, 7), "8 is h8");
    assert_eq!(coord_of(57), (0, 0), "57 is a1");
    assert_eq!(coord_of(64), (7, 0), "64 is h1");
    for n in 1..=64 {
        assert_eq!(turkish_reference::number_of(coord_of(n)), n);
        assert_eq!(Tk::start().piece_at(n).is_some(), matches!(coord_of(n).1, 1 | 2 | 5 | 6));
    }
}
