//! `checkers-tune VARIANT GAMES PASSES [SEED]`: generates self-play games, fits the
//! evaluation weights to their results (Texel's method) and prints the tuned `Weights`.
//! Built only with `--features tune`.

use checkers_engine::tune::{fit_scale, generate, loss, tune};
use checkers_engine::{Level, Weights};
use checkers_rules::Variant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: checkers-tune english|russian GAMES PASSES [SEED]";
    let (Some(variant), Some(games), Some(passes)) = (
        args.get(1).and_then(|v| v.parse::<Variant>().ok()),
        args.get(2).and_then(|g| g.parse::<usize>().ok()),
        args.get(3).and_then(|p| p.parse::<usize>().ok()),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let seed = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let level = Level::new(5).unwrap_or(Level::MAX);
    let samples = generate(variant, games, level, seed, &mut |g, n| {
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
