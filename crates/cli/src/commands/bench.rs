//! `checkers bench`: searches the engine's fixed bench positions to a fixed depth (one
//! thread, fixed table) and prints a line per position, then `nodes N nps X`. N is the
//! search signature: it changes only when the search's behaviour does. `--variant` keeps
//! one variant's positions (for its speed; the signature is the whole set's).

use anyhow::bail;
use checkers_engine::{bench, BenchLine, BENCH_DEPTH, BENCH_MAX_DEPTH};
use checkers_rules::SquareNotation;

use crate::common::{VariantArg, VariantChoice};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth in plies.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: u32,
    /// Only this variant's positions (english or russian); all of them when left out.
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=BENCH_MAX_DEPTH).contains(&args.depth) {
        bail!("--depth must be between 1 and {BENCH_MAX_DEPTH}");
    }
    let only = match args.variant.map(VariantArg::choice) {
        None => None,
        Some(VariantChoice::Checkers(variant)) => Some(variant),
        Some(VariantChoice::Board(board)) => bail!(
            "--variant {board}: the bench positions (the search's signature) are English and Russian; \
             time {board} with `checkers analyse --variant {board} --nodes N`"
        ),
    };
    let mut n = 0;
    let summary = bench(args.depth, only, &mut |line: &BenchLine| {
        n += 1;
        let best = line
            .best_move
            .map_or_else(|| "(none)".to_string(), |m| m.to_pdn(&line.position, SquareNotation::Numeric));
        println!(
            "position {n} {} {} bestmove {best} score {} nodes {} ms {}",
            line.variant,
            line.fen,
            line.score,
            line.nodes,
            line.elapsed.as_millis()
        );
    });
    println!("nodes {} nps {}", summary.nodes, summary.nps());
    Ok(())
}
