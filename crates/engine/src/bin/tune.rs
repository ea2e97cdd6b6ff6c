//! The evaluation tuner (built only with `--features tune`):
//!
//! - `checkers-tune VARIANT GAMES PASSES [SEED]`: generates self-play games at level 5, fits
//!   the evaluation weights to their results (Texel's method) and prints the tuned `Weights`;
//! - `checkers-tune generate VARIANT GAMES NODES SEED`: plays self-play games with the full
//!   engine at NODES nodes a move and prints each quiet position as `FEN;RESULT;SCORE` (the
//!   result for White: 1, 0.5 or 0; the search's score for White), one per line, for
//!   `fit-squares` (which also reads `FEN;RESULT` lines);
//! - `checkers-tune fit-squares VARIANT EPOCHS FILE...`: fits the square values and the
//!   weights on such samples (a tenth held out to check the fit) and prints them.

use std::io::Write;

use checkers_engine::tune::{
    fit_scale, fit_square_tables, generate, loss, loss_with_tables, tune, Sample, SelfPlay,
};
use checkers_engine::{Level, Weights};
use checkers_rules::{to_fen, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("generate") => generate_samples(&args[2..]),
        Some("fit-squares") => fit_squares(&args[2..]),
        _ => tune_weights(&args),
    }
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
            let written = match s.search {
                Some(score) => writeln!(out, "{};{};{score}", to_fen(&s.position), s.result),
                None => writeln!(out, "{};{}", to_fen(&s.position), s.result),
            };
            if written.is_err() {
                return;
            }
        }
        let _ = out.flush();
        if (g + 1) % 50 == 0 {
            eprintln!("{} games", g + 1);
        }
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
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(';');
            let position = Position::from_fen(variant, fields.next()?).ok()?;
            let result = fields.next()?.trim().parse().ok()?;
            let search = fields.next().and_then(|score| score.trim().parse().ok());
            Some(Sample { position, result, search })
        })
        .collect()
}

fn fit_squares(args: &[String]) {
    let usage = "checkers-tune fit-squares english|russian EPOCHS FILE...";
    let (Some(variant), Some(epochs)) = (
        args.first().and_then(|v| v.parse::<Variant>().ok()),
        args.get(1).and_then(|e| e.parse::<usize>().ok()),
    ) else {
        fail(usage)
    };
    let mut samples: Vec<Sample> = args[2..].iter().flat_map(|path| read_samples(variant, path)).collect();
    // Hold out every tenth block of 1000 positions (whole stretches of games) to check the fit.
    let mut held = Vec::new();
    let mut train = Vec::new();
    for (i, s) in samples.drain(..).enumerate() {
        if (i / 1000) % 10 == 9 {
            held.push(s)
        } else {
            train.push(s)
        }
    }
    let weights = *Weights::of(variant);
    let scale = fit_scale(&train, &weights);
    eprintln!("{} training positions, {} held out; scale {scale:.3}", train.len(), held.len());
    eprintln!("before: train {:.6} held {:.6}", loss(&train, &weights, scale), loss(&held, &weights, scale));
    let (tables, fitted) = fit_square_tables(&train, &weights, scale, epochs, &mut |e, l| {
        if e % 50 == 0 {
            eprintln!("epoch {e}: train {l:.6}");
        }
    });
    eprintln!(
        "squares alone: train {:.6} held {:.6}",
        loss_with_tables(&train, &weights, &tables, scale),
        loss_with_tables(&held, &weights, &tables, scale)
    );
    eprintln!(
        "with the weights: train {:.6} held {:.6}",
        loss_with_tables(&train, &fitted, &tables, scale),
        loss_with_tables(&held, &fitted, &tables, scale)
    );
    println!("{fitted:#?}");
    println!("SquareValues {{");
    // Counted from the owner's side, with the current values added (the fit is on top of them).
    for ((name, fitted), (_, current)) in tables.named().into_iter().zip(weights.square_values().named()) {
        let values: Vec<String> =
            (0..64).map(|i| (fitted[i].round() as i64 + i64::from(current[i])).to_string()).collect();
        println!("    {name}: [{}],", values.join(", "));
    }
    println!("}}");
    for (name, t) in tables.named() {
        eprintln!("{name} (fitted change, White's side, rank 8 at the top):");
        for rank in (0..8).rev() {
            let row: Vec<String> = (0..8)
                .map(|f| {
                    let sq = rank * 8 + f;
                    if (0xAA55_AA55_AA55_AA55u64 >> sq) & 1 == 1 {
                        format!("{:5.0}", t[sq])
                    } else {
                        "    .".to_string()
                    }
                })
                .collect();
            eprintln!("{}", row.join(""));
        }
    }
}
