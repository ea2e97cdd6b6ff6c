//! International draughts perft from the data file `data/perft-international.txt`, which
//! holds the published figures from the start position.
//!
//! Depths 1-6 run always (167,140 leaves, well under a second). Depths 7-9 (up to 41 million
//! leaves) run with `cargo test -p checkers-rules --test international_perft -- --ignored`;
//! `cargo bench -p checkers-rules --bench international` times depth 9.

use checkers_rules::board::{board_perft_divide, Board, BoardPerft, International};

/// The FEN and the published counts (depth 1 first) of each line of the data file.
fn read_cases() -> Vec<(usize, Board<International>, Vec<u64>)> {
    let text = include_str!("data/perft-international.txt");
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let fen = fields.next().expect("a FEN");
        let board = Board::<International>::from_fen(fen)
            .unwrap_or_else(|e| panic!("perft-international.txt line {line_no}: {e}"));
        let counts = fields
            .map(|n| {
                n.parse().unwrap_or_else(|e| panic!("perft-international.txt line {line_no}: `{n}`: {e}"))
            })
            .collect();
        cases.push((line_no, board, counts));
    }
    cases
}

fn check_depths(depths: std::ops::RangeInclusive<u32>) {
    let cases = read_cases();
    assert!(!cases.is_empty());
    for (line, board, counts) in &cases {
        let mut perft = BoardPerft::new();
        for depth in depths.clone() {
            let expected = counts[depth as usize - 1];
            assert_eq!(perft.count(board, depth), expected, "line {line}, depth {depth}");
        }
    }
}

#[test]
fn published_international_perft_depths_1_to_6() {
    check_depths(1..=6);
}

#[test]
#[ignore = "41 million leaves: a few seconds in release; run with --ignored"]
fn published_international_perft_depths_7_to_9() {
    check_depths(7..=9);
}

/// The data file is the start position with the published figures through depth 11.
#[test]
fn data_file_holds_the_start_and_eleven_figures() {
    let cases = read_cases();
    assert_eq!(cases.len(), 1);
    let (_, board, counts) = &cases[0];
    assert_eq!(*board, Board::<International>::start());
    assert_eq!(counts.len(), 11);
    assert_eq!(counts[8], 41_022_423);
}

/// Perft divided by root move sums to perft, and each root move's count is perft below it.
#[test]
fn divide_sums_to_perft() {
    let start = Board::<International>::start();
    let divide = board_perft_divide(&start, 4);
    assert_eq!(divide.len(), 9);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 4265);
    for (mv, n) in divide {
        assert_eq!(BoardPerft::new().count(&start.play_unchecked(&mv), 3), n, "{mv:?}");
    }
}
