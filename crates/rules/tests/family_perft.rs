//! Brazilian and Canadian perft from the data files `data/perft-brazilian.txt` (the published
//! figures) and `data/perft-canadian.txt` (no published figures exist: see that file), and
//! Turkish perft from `data/perft-turkish.txt` (none published either: see that file).
//!
//! The cheap depths run always; the deeper ones with
//! `cargo test -p checkers-rules --test family_perft -- --ignored`. The simple reference
//! generator of `international_reference/`, which shares no code with the library, counts the
//! first depths too, on the 8x8 and 12x12 boards: for Canadian draughts, whose figures are
//! published nowhere, that is the independent check.

mod board_support;
mod international_reference;

use board_support::read_perft_cases;
use checkers_rules::board::{Board, BoardPerft, Brazilian, Canadian, RuleSet, Turkish};
use international_reference::RefBoard;

fn brazilian() -> Vec<(usize, Board<Brazilian>, Vec<u64>)> {
    read_perft_cases("perft-brazilian.txt", include_str!("data/perft-brazilian.txt"))
}

fn canadian() -> Vec<(usize, Board<Canadian>, Vec<u64>)> {
    read_perft_cases("perft-canadian.txt", include_str!("data/perft-canadian.txt"))
}

fn turkish() -> Vec<(usize, Board<Turkish>, Vec<u64>)> {
    read_perft_cases("perft-turkish.txt", include_str!("data/perft-turkish.txt"))
}

fn check<V: RuleSet>(cases: &[(usize, Board<V>, Vec<u64>)], depths: std::ops::RangeInclusive<u32>) {
    assert!(!cases.is_empty());
    for (line, board, counts) in cases {
        let mut perft = BoardPerft::new();
        for depth in depths.clone() {
            let expected = counts[depth as usize - 1];
            assert_eq!(perft.count(board, depth), expected, "{} line {line}, depth {depth}", V::NAME);
        }
    }
}

#[test]
fn published_brazilian_perft_depths_1_to_7() {
    check(&brazilian(), 1..=7);
}

#[test]
#[ignore = "up to 105 million leaves; run with --ignored"]
fn published_brazilian_perft_depths_8_to_11() {
    check(&brazilian(), 8..=11);
}

#[test]
fn canadian_perft_depths_1_to_5() {
    check(&canadian(), 1..=5);
}

#[test]
#[ignore = "tens of millions of leaves; run with --ignored"]
fn canadian_perft_deeper() {
    let cases = canadian();
    let deepest = cases.iter().map(|(_, _, counts)| counts.len()).min().unwrap_or(0) as u32;
    check(&cases, 6..=deepest);
}

/// The reference generator gives the data files' first figures from the start, and the
/// library's count on a 12x12 position full of kings.
#[test]
fn the_reference_generator_agrees() {
    let (_, start, counts) = &brazilian()[0];
    for depth in 1..=6 {
        assert_eq!(
            RefBoard::from_board(start).perft(depth),
            counts[depth as usize - 1],
            "brazilian depth {depth}"
        );
    }
    let (_, start, counts) = &canadian()[0];
    for depth in 1..=6 {
        assert_eq!(
            RefBoard::from_board(start).perft(depth),
            counts[depth as usize - 1],
            "canadian depth {depth}"
        );
    }
    for fen in ["W:WK67,K72,49,50,55,56:BK1,K6,24,25,30", "B:WK40,K41,54,60:BK20,K33,14,29,31"] {
        let board = Board::<Canadian>::from_fen(fen).unwrap();
        for depth in 1..=4 {
            let ours = BoardPerft::new().count(&board, depth);
            assert_eq!(RefBoard::from_board(&board).perft(depth), ours, "{fen} depth {depth}");
        }
    }
}

/// Canadian depth 7 (4,369,366 leaves) by the reference generator: seconds, so on demand.
#[test]
#[ignore = "the slow reference generator over four million leaves; run with --ignored"]
fn the_reference_generator_agrees_on_canadian_depth_7() {
    let (_, start, counts) = &canadian()[0];
    assert_eq!(RefBoard::from_board(start).perft(7), counts[6]);
}

/// Each data file starts with the variant's start position; Brazilian holds the eleven
/// published figures.
#[test]
fn data_files_start_from_the_start() {
    let cases = brazilian();
    assert_eq!(cases[0].1, Board::<Brazilian>::start());
    assert_eq!(cases[0].2.len(), 11);
    assert_eq!(cases[0].2[10], 105_491_257);
    let cases = canadian();
    assert_eq!(cases[0].1, Board::<Canadian>::start());
    assert_eq!(&cases[0].2[..2], [11, 121], "worked out by hand in board_geometries.rs");
}

/// The start positions: Brazilian's twelve men a side on 1-12 and 21-32, Canadian's thirty on
/// 1-30 and 43-72, White to move; the names are the ones the issue fixes.
#[test]
fn start_positions_and_names() {
    assert_eq!(Board::<Brazilian>::from_fen("W:W21-32:B1-12"), Ok(Board::<Brazilian>::start()));
    assert_eq!(Board::<Canadian>::from_fen("W:W43-72:B1-30"), Ok(Board::<Canadian>::start()));
    assert_eq!((Brazilian::NAME, Canadian::NAME), ("brazilian", "canadian"));
    assert!(Board::<Brazilian>::from_fen("W:W33:B1").is_err(), "8x8 has 32 squares");
    assert!(Board::<Canadian>::from_fen("W:W21-51:B1-20").is_err(), "more than 30 men");
}

#[test]
fn turkish_perft_depths_1_to_6() {
    let cases = turkish();
    assert_eq!(cases[0].1, Board::<Turkish>::start());
    check(&cases, 1..=6);
}

#[test]
#[ignore = "up to 1.5 billion leaves (about 30 s in a release build); run with --ignored"]
fn turkish_perft_depths_7_to_9() {
    check(&turkish(), 7..=9);
}
