//! The engine's bench without the command-line program, which takes minutes to build with
//! its server and link-time optimisation; this builds in seconds, for timing changes to the
//! search and the evaluation:
//!
//! ```sh
//! cargo run --release -p checkers-engine --example bench -- [depth] [runs] [english|russian]
//! ```
//!
//! It prints the node total (the signature, the same as `checkers bench` at that depth, or
//! `checkers bench --variant V` with a variant) and the best speed of the runs (the least
//! disturbed by whatever else the machine is doing).

use checkers_engine::{bench, BENCH_DEPTH};
use checkers_rules::Variant;

const USAGE: &str = "usage: bench [depth 1-30] [runs] [english|russian]";

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = match args.next().map(|a| a.parse::<u32>()) {
        Some(Ok(d)) if (1..=30).contains(&d) => d,
        None => BENCH_DEPTH,
        _ => return eprintln!("{USAGE}"),
    };
    let runs = match args.next().map(|a| a.parse::<u32>()) {
        Some(Ok(r)) if r >= 1 => r,
        None => 3,
        _ => return eprintln!("{USAGE}"),
    };
    let only = match args.next().map(|a| a.parse::<Variant>()) {
        Some(Ok(v)) => Some(v),
        None => None,
        Some(Err(_)) => return eprintln!("{USAGE}"),
    };
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let summary = bench(depth, only, &mut |_| {});
        best = best.min(summary.elapsed.as_secs_f64());
        nodes = summary.nodes;
    }
    println!("nodes {nodes} best of {runs}: {best:.3} s, {:.2} M nodes/s", nodes as f64 / best / 1e6);
}
