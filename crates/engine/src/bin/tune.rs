//! The evaluation tuner (built only with `--features tune`):
//!
//! - `checkers-tune VARIANT GAMES PASSES [SEED]`: generates self-play games at level 5, fits
//!   the evaluation weights to their results (Texel's method) and prints the tuned `Weights`;
//! - `checkers-tune generate VARIANT GAMES NODES SEED`: plays self-play games with the full
//!   engine at NODES nodes a move and prints each quiet position as `FEN;RESULT;SCORE` (the
//!   result for White: 1, 0.5 or 0; the search's score for White), one per line, for
//!   `fit-squares` (which also reads `FEN;RESULT` lines);
//! - `checkers-tune rescore VARIANT NODES PART PARTS FILE`: searches the positions of such a
//!   file again at NODES nodes each and prints them with the new scores (the same format);
//!   PART of PARTS (counting from 0) takes every PARTS-th block of 1000 lines, so that
//!   processes can share a file;
//! - `checkers-tune fit-squares VARIANT EPOCHS DIR [--keep-weights] [--patterns-only] FILE...`:
//!   fits the tables (kings by square, men by formation and by pattern) and the weights on
//!   such samples (a tenth held out to check the fit) and writes them into DIR
//!   (`crates/engine/src/eval`) as the Rust source `VARIANT.rs` and, when there are pattern
//!   values, `VARIANT-patterns.bin`. `--keep-weights` fits the tables alone,
//!   `--patterns-only` leaves the square and formation tables as they are;
//! - `checkers-tune board-samples VARIANT GAMES NODES SEED`: the same self-play samples for a
//!   variant played on the rules library's boards (international, frisian, ...), `FEN;RESULT;
//!   SCORE` lines;
//! - `checkers-tune fit-board VARIANT EPOCHS FILE...`: fits that variant's evaluation weights
//!   (`eval/boards.rs`) to such samples and prints them as the Rust constant for
//!   `crates/engine/src/eval/board_weights.rs`, with the held-out loss before and after.

use std::io::Write;

use checkers_engine::board_tune::{
    board_weights_source, fit_board_weights, generate_board_samples, BoardSample,
};
use checkers_engine::tune::{
    fit_scale, fit_tables, formations_of_men, generate, loss, loss_with_tables, parse_samples, rescore,
    split_held_out, tune, FitScope, Fitted, Sample, SelfPlay,
};
use checkers_engine::{
    BoardEngine, Formations, Level, Weights, FORMATION_PAIRS, PATTERN_BYTES, PATTERN_STATES,
};
use checkers_rules::board::{BoardVariant, RuleSet};
use checkers_rules::{to_fen, with_board_variant, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("generate") => generate_samples(&args[2..]),
        Some("rescore") => rescore_samples(&args[2..]),
        Some("fit-squares") => fit_squares(&args[2..]),
        Some("board-samples") => board_samples(&args[2..]),
        Some("fit-board") => fit_board(&args[2..]),
        _ => tune_weights(&args),
    }
}

fn board_samples(args: &[String]) {
    let usage = "checkers-tune board-samples VARIANT GAMES NODES SEED";
    let (Some(variant), Some(games), Some(nodes), Some(seed)) = (
        args.first().and_then(|v| v.parse::<BoardVariant>().ok()),
        args.get(1).and_then(|g| g.parse::<usize>().ok()),
        args.get(2).and_then(|n| n.parse::<u64>().ok()),
        args.get(3).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        fail(usage)
    };
    with_board_variant!(variant, V => {
        let mut out = std::io::stdout().lock();
        for g in 0..games {
            // One game at a time, so an interrupted run keeps what it has written.
            let game_seed = seed.wrapping_mul(1_000_003) + g as u64;
            let samples = generate_board_samples::<V>(1, nodes, game_seed, &mut |_, _| {});
            for s in &samples {
                if writeln!(out, "{}", s.to_line()).is_err() {
                    return;
                }
            }
            let _ = out.flush();
            if (g + 1) % 20 == 0 {
                eprintln!("{} games", g + 1);
            }
        }
    })
}

fn fit_board(args: &[String]) {
    let usage = "checkers-tune fit-board VARIANT EPOCHS FILE...";
    let (Some(variant), Some(epochs)) = (
        args.first().and_then(|v| v.parse::<BoardVariant>().ok()),
        args.get(1).and_then(|e| e.parse::<usize>().ok()),
    ) else {
        fail(usage)
    };
    if args.len() < 3 {
        fail(usage);
    }
    with_board_variant!(variant, V => {
        let mut samples = Vec::new();
        for path in &args[2..] {
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
                eprintln!("cannot read {path}: {e}");
                std::process::exit(2)
            });
            samples.extend(text.lines().filter_map(BoardSample::<V>::from_line));
        }
        eprintln!("{} samples", samples.len());
        let fit = fit_board_weights::<V>(&samples, V::WEIGHTS, epochs, &mut |epoch, loss| {
            eprintln!("epoch {epoch}: training loss {loss:.6}");
        });
        eprintln!(
            "scale {:.3}; held-out loss {:.6} before, {:.6} after",
            fit.scale, fit.held_out_before, fit.held_out_after
        );
        println!("/// Fitted by `checkers-tune fit-board {} {epochs}` on {} samples (held-out loss {:.6}, was {:.6}).",
            V::NAME, samples.len(), fit.held_out_after, fit.held_out_before);
        print!("{}", board_weights_source(&V::NAME.to_uppercase(), &fit.weights));
    })
}

fn fail(usage: &str) -> ! {
    eprintln!("usage: {usage}");
    std::process::exit(2);
}

fn generate_samples(args: &[String]) {
    let usage = "checkers-tune generate english|russian GAMES NODES SEED";
    let (Some(variant), Some(games), Some(nodes), Some(seed)) = (
        args.first().and_then(|v| v.parse::<Variant>().ok()),
        args.get(1).and_then(|g| g.parse::<usize>().ok()),
        args.get(2).and_then(|n| n.parse::<u64>().ok()),
        args.get(3).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        fail(usage)
    };
    let mut out = std::io::stdout().lock();
    for g in 0..games {
        // One game at a time, so an interrupted run keeps what it has written.
        let samples = generate(
            variant,
            1,
            SelfPlay::Nodes(nodes),
            seed.wrapping_mul(1_000_003) + g as u64,
            &mut |_, _| {},
        );
        for s in &samples {
            if write_sample(&mut out, s).is_err() {
                return;
            }
        }
        let _ = out.flush();
        if (g + 1) % 50 == 0 {
            eprintln!("{} games", g + 1);
        }
    }
}

fn rescore_samples(args: &[String]) {
    let usage = "checkers-tune rescore english|russian NODES PART PARTS FILE";
    let (Some(variant), Some(nodes), Some(part), Some(parts), Some(path)) = (
        args.first().and_then(|v| v.parse::<Variant>().ok()),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
        args.get(2).and_then(|p| p.parse::<usize>().ok()),
        args.get(3).and_then(|p| p.parse::<usize>().ok()).filter(|&p| p > 0),
        args.get(4),
    ) else {
        fail(usage)
    };
    if part >= parts {
        fail(usage)
    }
    let samples: Vec<Sample> = read_samples(variant, path)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (i / 1000) % parts == part)
        .map(|(_, s)| s)
        .collect();
    let mut out = std::io::stdout().lock();
    let mut done = 0;
    rescore(&samples, nodes, &mut |s| {
        done += 1;
        if done % 1000 == 0 {
            eprintln!("{done} of {} positions", samples.len());
        }
        write_sample(&mut out, &s).and_then(|()| out.flush()).is_ok()
    });
}

/// One sample as a line of a sample file: `FEN;RESULT;SCORE`, or `FEN;RESULT` without a score.
fn write_sample(out: &mut impl Write, s: &Sample) -> std::io::Result<()> {
    match s.search {
        Some(score) => writeln!(out, "{};{};{score}", to_fen(&s.position), s.result),
        None => writeln!(out, "{};{}", to_fen(&s.position), s.result),
    }
}

fn tune_weights(args: &[String]) {
    let usage = "checkers-tune english|russian GAMES PASSES [SEED]";
    let (Some(variant), Some(games), Some(passes)) = (
        args.get(1).and_then(|v| v.parse::<Variant>().ok()),
        args.get(2).and_then(|g| g.parse::<usize>().ok()),
        args.get(3).and_then(|p| p.parse::<usize>().ok()),
    ) else {
        fail(usage)
    };
    let seed = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let level = Level::new(5).unwrap_or(Level::MAX);
    let samples = generate(variant, games, SelfPlay::Level(level), seed, &mut |g, n| {
        if g % 10 == 0 {
            eprintln!("{g} games, {n} positions");
        }
    });
    let start = *Weights::of(variant);
    let scale = fit_scale(&samples, &start);
    eprintln!("scale {scale:.3}, loss {:.6}", loss(&samples, &start, scale));
    let tuned = tune(&samples, start, scale, passes, &mut |pass, l, _| eprintln!("pass {pass}: loss {l:.6}"));
    println!("{tuned:#?}");
}

fn read_samples(variant: Variant, path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    });
    parse_samples(variant, &text)
}

fn fit_squares(args: &[String]) {
    let usage =
        "checkers-tune fit-squares english|russian EPOCHS DIR [--keep-weights] [--patterns-only] FILE...";
    let (Some(variant), Some(epochs), Some(dir)) = (
        args.first().and_then(|v| v.parse::<Variant>().ok()),
        args.get(1).and_then(|e| e.parse::<usize>().ok()),
        args.get(2).map(std::path::Path::new).filter(|d| d.is_dir()),
    ) else {
        fail(usage)
    };
    let flag = |name: &str| args[3..].iter().any(|a| a == name);
    let scope = FitScope { keep_weights: flag("--keep-weights"), patterns_only: flag("--patterns-only") };
    let known = ["--keep-weights", "--patterns-only"];
    if let Some(unknown) = args[3..].iter().find(|a| a.starts_with("--") && !known.contains(&a.as_str())) {
        eprintln!("unknown option {unknown}");
        fail(usage)
    }
    let files = args[3..].iter().filter(|a| !a.starts_with("--"));
    let (train, held) = split_held_out(files.flat_map(|path| read_samples(variant, path)).collect());
    let weights = *Weights::of(variant);
    let scale = fit_scale(&train, &weights);
    eprintln!("{} training positions, {} held out; scale {scale:.3}", train.len(), held.len());
    eprintln!("before: train {:.6} held {:.6}", loss(&train, &weights, scale), loss(&held, &weights, scale));
    let fit = fit_tables(&train, &weights, scale, epochs, scope, &mut |e, l| {
        if e % 50 == 0 {
            eprintln!("epoch {e}: train {l:.6}");
        }
    });
    eprintln!(
        "tables alone: train {:.6} held {:.6}",
        loss_with_tables(&train, &weights, &fit, scale),
        loss_with_tables(&held, &weights, &fit, scale)
    );
    eprintln!(
        "with the weights: train {:.6} held {:.6}",
        loss_with_tables(&train, &fit.weights, &fit, scale),
        loss_with_tables(&held, &fit.weights, &fit, scale)
    );
    let name = variant.name();
    let write = |file: String, bytes: &[u8]| {
        let path = dir.join(file);
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
        eprintln!("wrote {}", path.display());
    };
    if let Some(bytes) = fitted_patterns(&weights, &fit) {
        write(format!("{name}-patterns.bin"), &bytes);
    }
    write(format!("{name}.rs"), fitted_source(variant, &weights, &fit).as_bytes());
}

/// Whether the fitted evaluation has pattern values: it had them, or the fit gave some.
fn has_patterns(current: &Weights, fit: &Fitted) -> bool {
    current.patterns.is_some() || fit.patterns.iter().flatten().any(|c| c.round() != 0.0)
}

/// The pattern values of `current` with the fit's changes added, as the bytes of a pattern
/// file ([`PATTERN_BYTES`]); none if there are none.
fn fitted_patterns(current: &Weights, fit: &Fitted) -> Option<Vec<u8>> {
    if !has_patterns(current, fit) {
        return None;
    }
    let mut bytes = Vec::with_capacity(PATTERN_BYTES);
    for (entry, change) in fit.patterns.iter().enumerate() {
        let was =
            current.patterns.map_or((0, 0), |p| p.values(entry / PATTERN_STATES, entry % PATTERN_STATES));
        for (was, change) in [was.0, was.1].into_iter().zip(change) {
            let value = (f64::from(was) + change.round()).clamp(f64::from(i16::MIN), f64::from(i16::MAX));
            bytes.extend_from_slice(&(value as i16).to_le_bytes());
        }
    }
    Some(bytes)
}

/// The Rust source of the evaluation's fitted values for `variant` (the file
/// `crates/engine/src/eval/VARIANT.rs`): the current values with the fit's changes added, the
/// men's square values moved into their formations.
fn fitted_source(variant: Variant, current: &Weights, fit: &Fitted) -> String {
    let squares = current.square_values();
    let moved = formations_of_men(&squares);
    let formations = current.formations.map_or(Formations::ZERO, |f| f.values);
    let mut weights = fit.weights;
    let weight_lines: String = Weights::NAMES
        .iter()
        .zip(weights.values_mut())
        .map(|(n, v)| format!("        {n}: {v},\n"))
        .collect();
    let square_tables: String = fit
        .squares
        .named()
        .into_iter()
        .zip(squares.named())
        .map(|((table, change), (_, was))| {
            let men = table.starts_with("men");
            let values =
                (0..64).map(|sq| if men { 0 } else { i64::from(was[sq]) + change[sq].round() as i64 });
            format!("    {table}: [\n{}    ],\n", rows(values, 8, 8))
        })
        .collect();
    let formation_tables: String = [
        ("full", &fit.formations.full, &formations.full, &moved.full),
        ("empty", &fit.formations.empty, &formations.empty, &moved.empty),
    ]
    .into_iter()
    .map(|(table, change, was, men)| {
        let pairs: String = (0..FORMATION_PAIRS)
            .map(|p| {
                let values =
                    (0..256).map(|i| i64::from(was[p][i]) + (men[p][i] + change[p][i]).round() as i64);
                format!("        [\n{}        ],\n", rows(values, 16, 12))
            })
            .collect();
        format!("    {table}: [\n{pairs}    ],\n")
    })
    .collect();
    let (patterns, pattern_source, uses) = if has_patterns(current, fit) {
        (
            "Some(&PATTERNS)",
            format!(
                "\n/// Men of both sides by pattern: written by the tuner beside this file, read in place.\n\
                 const PATTERNS: Patterns = Patterns::new(include_bytes!(\"{}-patterns.bin\"));\n",
                variant.name()
            ),
            "BlendedFormations, BlendedSquares, Formations, Patterns, SquareValues, Weights",
        )
    } else {
        ("None", String::new(), "BlendedFormations, BlendedSquares, Formations, SquareValues, Weights")
    };
    let (variant, name) = (variant.name(), variant.name().to_uppercase());
    format!(
        r#"//! The {variant} evaluation's fitted values, written by `checkers-tune fit-squares` (the
//! man is the unit: 100). Tables count squares from the owner's side: rank 1 first, file a
//! on the left. Regenerate rather than edit by hand.

use super::{{{uses}}};

impl Weights {{
    pub const {name}: Weights = Weights {{
{weight_lines}        squares: Some(&SQUARES_BLENDED),
        formations: Some(&FORMATIONS_BLENDED),
        patterns: {patterns},
    }};
}}

const SQUARES_BLENDED: BlendedSquares = SQUARES.blend();
const FORMATIONS_BLENDED: BlendedFormations = FORMATIONS.blend();

/// Kings by square (the men are valued by formation).
#[rustfmt::skip]
const SQUARES: SquareValues = SquareValues {{
{square_tables}}};

/// Men by formation: per pair of ranks (1-2, 2-3, ... 7-8), 16 rows of 16 formations.
#[rustfmt::skip]
const FORMATIONS: Formations = Formations {{
{formation_tables}}};
{pattern_source}"#
    )
}

/// `values` as lines of `per_row`, indented by `indent` spaces, each ending in a comma.
fn rows(values: impl Iterator<Item = i64>, per_row: usize, indent: usize) -> String {
    let values: Vec<String> = values.map(|v| v.to_string()).collect();
    values.chunks(per_row).map(|row| format!("{:indent$}{},\n", "", row.join(", "))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_values_are_what_the_tuner_writes() {
        // A fit that changes nothing writes the evaluation's own files back, byte for byte.
        let committed = [
            (Variant::English, include_str!("../eval/english.rs")),
            (Variant::Russian, include_str!("../eval/russian.rs")),
        ];
        for (variant, source) in committed {
            let weights = Weights::of(variant);
            let nothing = Fitted::unchanged(*weights);
            assert_eq!(fitted_source(variant, weights, &nothing), source, "{variant:?}");
            let patterns = fitted_patterns(weights, &nothing);
            assert_eq!(patterns.is_some(), weights.patterns.is_some());
            if let Some(bytes) = patterns {
                let path = format!("{}/src/eval/{}-patterns.bin", env!("CARGO_MANIFEST_DIR"), variant.name());
                assert!(std::fs::read(&path).is_ok_and(|file| file == bytes), "{path}");
            }
        }
    }
}
