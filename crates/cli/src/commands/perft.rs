//! `checkers perft`: counts leaves, per root move with `--divide`, and reports the speed.
//!
//! The count is the last line of standard output, a bare integer; timing goes to standard
//! error so scripts can read the count alone.

use std::time::Instant;

use anyhow::bail;
use checkers_rules::{Move, Perft, PerftMode, Position, SquareNotation};
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::PositionArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// First print each root move with the leaves below it.
    #[arg(long)]
    divide: bool,
    /// Count every distinct jump route instead of every move (OEIS A133046 for English).
    #[arg(long)]
    paths: bool,
    /// Threads to share the root moves between.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size per thread, in MB (0: none).
    #[arg(long, default_value_t = 0)]
    hash: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.depth > 30 {
        bail!("--depth {} is beyond reach; perft grows about fivefold a ply", args.depth);
    }
    if args.threads == 0 || args.threads > 256 {
        bail!("--threads must be between 1 and 256");
    }
    if args.hash > 65536 {
        bail!("--hash is in MB and at most 65536");
    }
    let position = args.position.position()?;
    let mode = if args.paths { PerftMode::Paths } else { PerftMode::Moves };
    let started = Instant::now();
    let (total, divide) =
        if args.depth == 0 { (1, Vec::new()) } else { count_by_root_move(&position, &args, mode) };
    let seconds = started.elapsed().as_secs_f64();
    if args.divide {
        let mut lines: Vec<(String, u64)> =
            divide.iter().map(|(m, n)| (m.to_pdn(&position, SquareNotation::Numeric), *n)).collect();
        lines.sort();
        for (text, n) in lines {
            println!("{text} {n}");
        }
    }
    println!("{total}");
    eprintln!(
        "perft({}) = {total} in {seconds:.3} s, {:.1} M leaves/s",
        args.depth,
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

/// Splits the root moves between threads; each thread keeps its own lists and table.
fn count_by_root_move(position: &Position, args: &Args, mode: PerftMode) -> (u64, Vec<(Move, u64)>) {
    let mut roots: Vec<Move> = Perft::root_moves(position, mode);
    roots.reverse(); // popped from the back: keep generator order
    let work = std::sync::Mutex::new(roots);
    let results = std::sync::Mutex::new(Vec::new());
    let long_run = args.depth >= 11;
    let bar = if long_run {
        let n = work.lock().map(|w| w.len()).unwrap_or(0) as u64;
        let bar = ProgressBar::new(n);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} perft {pos}/{len} root moves [{elapsed_precise}] {wide_bar}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut perft = Perft::new(mode).with_hash(args.hash);
                loop {
                    let next = work.lock().ok().and_then(|mut w| w.pop());
                    let Some(mv) = next else { break };
                    let n = perft.count(&position.play_unchecked(&mv), args.depth - 1);
                    if let Ok(mut r) = results.lock() {
                        r.push((mv, n));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_default();
    (results.iter().map(|(_, n)| n).sum(), results)
}
