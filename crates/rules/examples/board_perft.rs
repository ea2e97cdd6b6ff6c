//! Perft from the start of a variant on the boards of any size, one thread, timed: the figure
//! docs/benchmarks.md compares with other libraries.
//!
//! `cargo run --release -p checkers-rules --example board_perft -- international 9`
//! prints the variant, the depth, the leaves, the wall time and leaves a second.

use std::process::ExitCode;
use std::time::Instant;

use checkers_rules::board::{
    Antidraughts, Board, BoardPerft, Brazilian, Breakthrough, Canadian, Czech, Frisian, Frysk, International,
    Italian, Pool, Portuguese, RuleSet, Spanish, Thai, Turkish,
};

fn run<V: RuleSet>(depth: u32) {
    let start = Board::<V>::start();
    let clock = Instant::now();
    let leaves = BoardPerft::new().count(&start, depth);
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "{} depth {depth}: {leaves} leaves, {seconds:.3} s, {:.0} M/s",
        V::NAME,
        leaves as f64 / seconds / 1e6
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.get(1).and_then(|d| d.parse().ok());
    match (args.first().map(String::as_str), depth) {
        (Some("international"), Some(depth)) => run::<International>(depth),
        (Some("brazilian"), Some(depth)) => run::<Brazilian>(depth),
        (Some("canadian"), Some(depth)) => run::<Canadian>(depth),
        (Some("italian"), Some(depth)) => run::<Italian>(depth),
        (Some("spanish"), Some(depth)) => run::<Spanish>(depth),
        (Some("portuguese"), Some(depth)) => run::<Portuguese>(depth),
        (Some("czech"), Some(depth)) => run::<Czech>(depth),
        (Some("pool"), Some(depth)) => run::<Pool>(depth),
        (Some("thai"), Some(depth)) => run::<Thai>(depth),
        (Some("frisian"), Some(depth)) => run::<Frisian>(depth),
        (Some("frysk"), Some(depth)) => run::<Frysk>(depth),
        (Some("antidraughts"), Some(depth)) => run::<Antidraughts>(depth),
        (Some("breakthrough"), Some(depth)) => run::<Breakthrough>(depth),
        (Some("turkish"), Some(depth)) => run::<Turkish>(depth),
        _ => {
            eprintln!(
                "usage: board_perft VARIANT DEPTH (international, brazilian, canadian, frisian, frysk, \
                 antidraughts, breakthrough, italian, spanish, portuguese, czech, pool, thai, turkish)"
            );
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
