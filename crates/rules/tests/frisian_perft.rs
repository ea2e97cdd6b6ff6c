//! Frisian and Frysk! perft from the data files `data/perft-frisian.txt` and
//! `data/perft-frysk.txt` (no published figures count moves as we do: see those files for
//! where the figures come from). The cheap depths run always, the deeper ones with
//! `cargo test -p checkers-rules --test frisian_perft -- --ignored`. The reference generator
//! of `frisian_reference/`, which shares no code with the library, counts the first depths.

mod board_support;
mod frisian_reference;

use board_support::read_perft_cases;
use checkers_rules::board::{Board, BoardPerft, Frisian, FrisianFamily, Frysk};
use frisian_reference::RefBoard;

fn frisian() -> Vec<(usize, Board<Frisian>, Vec<u64>)> {
    read_perft_cases("perft-frisian.txt", include_str!("data/perft-frisian.txt"))
}

fn frysk() -> Vec<(usize, Board<Frysk>, Vec<u64>)> {
    read_perft_cases("perft-frysk.txt", include_str!("data/perft-frysk.txt"))
}

fn check<V: FrisianFamily>(cases: &[(usize, Board<V>, Vec<u64>)], depths: std::ops::RangeInclusive<u32>) {
    for (line, board, counts) in cases {
        let mut perft = BoardPerft::new();
        for depth in depths.clone() {
            let expected = counts[depth as usize - 1];
            assert_eq!(perft.count(board, depth), expected, "{} line {line}, depth {depth}", V::NAME);
        }
    }
}

#[test]
fn frisian_perft_depths_1_to_6() {
    check(&frisian(), 1..=6);
}

#[test]
#[ignore = "millions of leaves; run with --ignored"]
fn frisian_perft_depths_7_and_8() {
    check(&frisian(), 7..=8);
}

#[test]
fn frysk_perft_depths_1_to_7() {
    check(&frysk(), 1..=7);
}

#[test]
#[ignore = "up to 158 million leaves; run with --ignored"]
fn frysk_perft_depths_8_and_9() {
    check(&frysk(), 8..=9);
}

/// The reference generator gives the data files' first figures.
#[test]
fn the_reference_counts_the_first_depths() {
    for (_, board, counts) in frisian() {
        for depth in 1..=4 {
            assert_eq!(
                RefBoard::from_board(&board).perft(depth),
                counts[depth as usize - 1],
                "frisian {depth}"
            );
        }
    }
    for (_, board, counts) in frysk() {
        for depth in 1..=4 {
            assert_eq!(
                RefBoard::from_board(&board).perft(depth),
                counts[depth as usize - 1],
                "frysk {depth}"
            );
        }
    }
}
