//! Perft of the national 8x8 games from the data files `data/perft-<variant>.txt` (published
//! figures; see each file for its source). The cheap depths run always; the deeper ones with
//! `cargo test -p checkers-rules --test national_perft -- --ignored`.
//!
//! Portuguese draughts has no published figures; its moves are Spanish draughts' moves on the
//! same board, so its perft from the start must give the Spanish figures. Thai draughts'
//! published figures are from the twelve-men start, which Thai's own board (eight men a side)
//! cannot hold: they are counted with Thai's rules on a twelve-men rule set defined here.

use checkers_rules::board::{
    Board, BoardPerft, CaptureChoice, Czech, Dark8, Italian, NationalMoves, NationalReferee, NationalVariant,
    Pool, Portuguese, RuleSet, Spanish, Thai,
};

/// Thai's rules on the twelve-men start of the other 8x8 games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct ThaiTwelve;

impl RuleSet for ThaiTwelve {
    type Geometry = Dark8;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "thai-twelve";
    const START_ROWS: u32 = 3;
}

impl NationalVariant for ThaiTwelve {
    const MEN_CAPTURE_BACKWARDS: bool = Thai::MEN_CAPTURE_BACKWARDS;
    const FLYING_KINGS: bool = Thai::FLYING_KINGS;
    const KING_LANDS_BEHIND: bool = Thai::KING_LANDS_BEHIND;
    const MEN_TAKE_KINGS: bool = Thai::MEN_TAKE_KINGS;
    const REMOVE_AT_ONCE: bool = Thai::REMOVE_AT_ONCE;
    const CROWN_ENDS_CAPTURE: bool = Thai::CROWN_ENDS_CAPTURE;
    const CHOICE: CaptureChoice = Thai::CHOICE;
    const REPETITIONS: usize = Thai::REPETITIONS;
    const KING_MOVE_PLIES: Option<usize> = Thai::KING_MOVE_PLIES;
}

/// The FEN and the counts (depth 1 first) of each line of a data file.
fn read_cases<V: RuleSet>(name: &str, text: &str) -> Vec<(usize, Board<V>, Vec<u64>)> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let fen = fields.next().expect("a FEN");
        let board = Board::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{name} line {}: {e}", index + 1));
        let counts = fields.map(|n| n.parse().unwrap_or_else(|e| panic!("{name}: `{n}`: {e}"))).collect();
        cases.push((index + 1, board, counts));
    }
    assert!(!cases.is_empty(), "{name} has no case");
    cases
}

fn check<V: RuleSet>(name: &str, text: &str, depths: std::ops::RangeInclusive<u32>) {
    for (line, board, counts) in read_cases::<V>(name, text) {
        let mut perft = BoardPerft::new();
        for depth in depths.clone() {
            let expected = counts[depth as usize - 1];
            assert_eq!(
                perft.count(&board, depth),
                expected,
                "{} ({name} line {line}), depth {depth}",
                V::NAME
            );
        }
    }
}

const ITALIAN: &str = include_str!("data/perft-italian.txt");
const SPANISH: &str = include_str!("data/perft-spanish.txt");
const CZECH: &str = include_str!("data/perft-czech.txt");
const POOL: &str = include_str!("data/perft-pool.txt");
const THAI: &str = include_str!("data/perft-thai.txt");

#[test]
fn published_perft_depths_1_to_7() {
    check::<Italian>("perft-italian.txt", ITALIAN, 1..=7);
    check::<Spanish>("perft-spanish.txt", SPANISH, 1..=7);
    check::<Portuguese>("perft-spanish.txt", SPANISH, 1..=7);
    check::<Czech>("perft-czech.txt", CZECH, 1..=7);
    check::<Pool>("perft-pool.txt", POOL, 1..=7);
    check::<ThaiTwelve>("perft-thai.txt", THAI, 1..=7);
}

#[test]
fn the_start_positions_are_the_data_files() {
    let first =
        |text: &str| text.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap().to_string();
    let fen = |line: String| line.split_whitespace().next().unwrap().to_string();
    assert_eq!(Board::<Italian>::start(), Board::from_fen(&fen(first(ITALIAN))).unwrap());
    assert_eq!(Board::<Spanish>::start(), Board::from_fen(&fen(first(SPANISH))).unwrap());
    assert_eq!(Board::<Portuguese>::start(), Board::from_fen(&fen(first(SPANISH))).unwrap());
    assert_eq!(Board::<Czech>::start(), Board::from_fen(&fen(first(CZECH))).unwrap());
    assert_eq!(Board::<Pool>::start(), Board::from_fen(&fen(first(POOL))).unwrap());
    assert_eq!(Board::<ThaiTwelve>::start(), Board::from_fen(&fen(first(THAI))).unwrap());
    assert_eq!(Board::<Thai>::start().to_fen(), "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8");
}

#[test]
#[ignore = "up to 110 million leaves a variant; run with --ignored"]
fn published_perft_depths_8_to_11() {
    check::<Italian>("perft-italian.txt", ITALIAN, 8..=11);
    check::<Spanish>("perft-spanish.txt", SPANISH, 8..=11);
    check::<Portuguese>("perft-spanish.txt", SPANISH, 8..=11);
    check::<Czech>("perft-czech.txt", CZECH, 8..=11);
    check::<Pool>("perft-pool.txt", POOL, 8..=11);
    check::<ThaiTwelve>("perft-thai.txt", THAI, 8..=11);
}
