//! Perft from the data file `data/perft.txt`: every published figure is there; this test
//! checks each one whose leaf count is at most a budget (100 million leaves by default, a few
//! seconds with the test profile's optimisation).
//!
//! Deeper figures are checked by hand with the command line, for example
//! `cargo run --release -- perft --variant english --depth 12` (388617999) or
//! `cargo run --release -- perft --variant english --depth 12 --paths` (388623673), or by
//! raising the budget: `PERFT_MAX_LEAVES=600000000 cargo test -p checkers-rules --test perft`.

use checkers_rules::{Perft, PerftMode, Position, Variant};

const DEFAULT_MAX_LEAVES: u64 = 100_000_000;

struct Case {
    line: usize,
    variant: Variant,
    mode: PerftMode,
    position: Position,
    counts: Vec<u64>,
}

fn read_cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(fields.len() >= 4, "perft.txt line {line_no}: expected variant, mode, FEN and counts");
        let variant: Variant = fields[0].parse().unwrap_or_else(|e| panic!("perft.txt line {line_no}: {e}"));
        let mode = match fields[1] {
            "moves" => PerftMode::Moves,
            "paths" => PerftMode::Paths,
            other => panic!("perft.txt line {line_no}: mode `{other}` is neither `moves` nor `paths`"),
        };
        let position = Position::from_fen(variant, fields[2])
            .unwrap_or_else(|e| panic!("perft.txt line {line_no}: {e}"));
        let counts = fields[3..]
            .iter()
            .map(|n| n.parse().unwrap_or_else(|e| panic!("perft.txt line {line_no}: count `{n}`: {e}")))
            .collect();
        cases.push(Case { line: line_no, variant, mode, position, counts });
    }
    cases
}

fn max_leaves() -> u64 {
    match std::env::var("PERFT_MAX_LEAVES") {
        Ok(text) => text.parse().unwrap_or_else(|e| panic!("PERFT_MAX_LEAVES=`{text}`: {e}")),
        Err(_) => DEFAULT_MAX_LEAVES,
    }
}

#[test]
fn published_perft_figures_from_the_data_file() {
    let cases = read_cases();
    assert_eq!(cases.len(), 3, "english paths, english moves and russian moves");
    let budget = max_leaves();
    // One thread per line: the lines are independent and CI has two cores.
    let reports: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|case| {
                scope.spawn(move || {
                    let mut perft = Perft::new(case.mode);
                    let mut checked = 0;
                    for (depth, &expected) in (1u32..).zip(&case.counts) {
                        if expected > budget {
                            break;
                        }
                        let got = perft.count(&case.position, depth);
                        assert_eq!(
                            got, expected,
                            "perft.txt line {}: {} {:?} depth {depth}",
                            case.line, case.variant, case.mode
                        );
                        checked = depth;
                    }
                    format!(
                        "line {}: {} {:?} checked through depth {checked}",
                        case.line, case.variant, case.mode
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    for report in reports {
        eprintln!("{report}");
    }
}

/// The data file holds every published figure docs/rules.md gives for our variants.
#[test]
fn data_file_holds_every_published_figure() {
    let cases = read_cases();
    let depths: Vec<(Variant, PerftMode, usize)> =
        cases.iter().map(|c| (c.variant, c.mode, c.counts.len())).collect();
    assert_eq!(
        depths,
        [
            (Variant::English, PerftMode::Paths, 15),
            (Variant::English, PerftMode::Moves, 13),
            (Variant::Russian, PerftMode::Moves, 13)
        ]
    );
    // English moves and paths agree through depth 11 and first differ at 12.
    assert_eq!(cases[0].counts[..11], cases[1].counts[..11]);
    assert_ne!(cases[0].counts[11], cases[1].counts[11]);
    for case in &cases {
        assert_eq!(case.position, Position::start(case.variant), "line {}", case.line);
    }
}
