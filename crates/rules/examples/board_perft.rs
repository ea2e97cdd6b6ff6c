//! Perft from the start of a variant on the boards of any size, one thread, timed: the figure
//! docs/benchmarks.md compares with other libraries.
//!
//! `cargo run --release -p checkers-rules --example board_perft -- international 9`
//! prints the variant, the depth, the leaves, the wall time and leaves a second.

use std::process::ExitCode;
use std::time::Instant;

use checkers_rules::board::{Board, BoardPerft, Brazilian, Canadian, International, RuleSet, Turkish};

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
        (Some("turkish"), Some(depth)) => run::<Turkish>(depth),
        _ => {
            eprintln!("usage: board_perft international|brazilian|canadian|turkish DEPTH");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
