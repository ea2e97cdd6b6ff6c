//! `checkers perft`: counts leaves, per root move with `--divide`, and reports the speed.
//!
//! The count is the last line of standard output, a bare integer; timing goes to standard
//! error so scripts can read the count alone. The tree is cut a few plies down into subtrees
//! that the threads take in turn (one thread by default), sharing one hash table if asked;
//! a progress bar counts them on long runs when standard error is a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use checkers_rules::{Move, Perft, PerftMode, PerftTable, Position, SquareNotation};
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::PositionArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count: at most 28, the deepest count ever published; from 16 on a run takes
    /// hours or longer, and a warning says so.
    #[arg(long)]
    depth: u32,
    /// First print each root move with the leaves below it.
    #[arg(long)]
    divide: bool,
    /// Count every distinct jump route instead of every move (OEIS A133046 for English).
    #[arg(long)]
    paths: bool,
    /// Threads to share the subtrees between.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB, shared by all threads (0: none).
    #[arg(long, default_value_t = 0)]
    hash: usize,
}

/// The tree is cut where it has at least this many subtrees (or at `MAX_SPLIT_PLIES`): enough
/// for threads to share evenly and for a progress bar to move, few enough to cost nothing.
const MIN_SUBTREES: usize = 256;
const MAX_SPLIT_PLIES: u32 = 3;
/// Runs this deep (and deeper) show a progress bar.
const PROGRESS_DEPTH: u32 = 11;
/// The deepest count accepted: 28, the deepest ever published (Aart Bik's perft of English
/// checkers from the start, every jump route counted, computed on a cluster of machines). It
/// also nearly fills the 64-bit count (about 1.6e19 of 1.8e19), which a deeper one overflows.
const MAX_DEPTH: u32 = 28;
/// Counts this deep and deeper get a warning first: from the English start perft(16) is 1.7e11
/// leaves (a minute or so with `--hash`, half an hour without), and each ply more takes about
/// four to five times as long, so depth 20 is days and 28 beyond any one machine.
const SLOW_DEPTH: u32 = 16;

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.depth > MAX_DEPTH {
        bail!(
            "--depth {} is beyond reach: perft grows about fivefold a ply, and {MAX_DEPTH} is the deepest count \
             ever published (from the English start, on a cluster of machines)",
            args.depth
        );
    }
    if args.threads == 0 || args.threads > 256 {
        bail!("--threads must be between 1 and 256");
    }
    if args.hash > 65536 {
        bail!("--hash is in MB and at most 65536");
    }
    if let Some(variant) = args.position.variant.board() {
        return board_perft(variant, &args);
    }
    let position = args.position.position()?;
    let mode = if args.paths { PerftMode::Paths } else { PerftMode::Moves };
    let table = PerftTable::new(args.hash)
        .map_err(|_| anyhow!("--hash {}: cannot allocate that much memory", args.hash))?
        .map(Arc::new);
    if args.depth >= SLOW_DEPTH {
        eprintln!(
            "warning: perft to depth {} can take hours or far longer: each ply takes four to five times as \
             long as the one before (depth 14 from the English start: about a minute, 5 s with --hash); \
             Ctrl-C stops it",
            args.depth
        );
    }
    let started = Instant::now();
    let (total, divide) =
        if args.depth == 0 { (1, Vec::new()) } else { count_in_subtrees(&position, &args, mode, table) };
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

/// `perft` on a board of any size: the same output, the root moves shared between threads.
fn board_perft(variant: checkers_rules::board::BoardVariant, args: &Args) -> anyhow::Result<()> {
    super::boards::check_perft_options(variant, args.paths, args.hash)?;
    let request = super::boards::PerftRequest {
        position: &args.position,
        depth: args.depth,
        divide: args.divide,
        threads: args.threads,
    };
    let (total, mut divide) = super::boards::perft(variant, &request)?;
    divide.sort();
    for (text, n) in divide {
        println!("{text} {n}");
    }
    println!("{total}");
    Ok(())
}

/// One piece of work: a position `split` plies down and the root move it descends from.
struct Subtree {
    root: usize,
    position: Position,
}

/// The positions at most `max_plies` plies below `position`, stopping at the first ply with
/// [`MIN_SUBTREES`] of them: one per move sequence (so transpositions repeat and the sum stays
/// exact), each tagged with its root move. Returns them with the number of plies descended.
fn subtrees(position: &Position, max_plies: u32, mode: PerftMode, roots: &[Move]) -> (Vec<Subtree>, u32) {
    let mut level: Vec<Subtree> = roots
        .iter()
        .enumerate()
        .map(|(root, mv)| Subtree { root, position: position.play_unchecked(mv) })
        .collect();
    let mut plies = 1;
    while plies < max_plies && level.len() < MIN_SUBTREES {
        level = level
            .iter()
            .flat_map(|s| {
                Perft::root_moves(&s.position, mode)
                    .into_iter()
                    .map(|mv| Subtree { root: s.root, position: s.position.play_unchecked(&mv) })
            })
            .collect();
        plies += 1;
    }
    (level, plies)
}

/// Counts the leaves below each subtree, the threads taking subtrees in turn, and adds them
/// up per root move.
fn count_in_subtrees(
    position: &Position,
    args: &Args,
    mode: PerftMode,
    table: Option<Arc<PerftTable>>,
) -> (u64, Vec<(Move, u64)>) {
    let roots = Perft::root_moves(position, mode);
    let (work, split) = subtrees(position, MAX_SPLIT_PLIES.min(args.depth), mode, &roots);
    let remaining_depth = args.depth - split;
    let next = AtomicUsize::new(0);
    let leaves = AtomicU64::new(0);
    let per_root = Mutex::new(vec![0u64; roots.len()]);
    let bar = progress_bar(args.depth, work.len());
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut perft = Perft::new(mode);
                if let Some(table) = &table {
                    perft = perft.with_shared_hash(Arc::clone(table));
                }
                while let Some(subtree) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let n = perft.count(&subtree.position, remaining_depth);
                    if let Ok(mut totals) = per_root.lock() {
                        totals[subtree.root] += n;
                    }
                    let so_far = leaves.fetch_add(n, Ordering::Relaxed) + n;
                    bar.set_message(format!("{:.0} M leaves", so_far as f64 / 1e6));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let totals = per_root.into_inner().unwrap_or_default();
    let divide: Vec<(Move, u64)> = roots.into_iter().zip(totals).collect();
    (divide.iter().map(|(_, n)| n).sum(), divide)
}

/// A bar counting subtrees, on long runs with a terminal to draw on; hidden otherwise.
fn progress_bar(depth: u32, subtrees: usize) -> ProgressBar {
    if depth < PROGRESS_DEPTH || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(subtrees as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} {wide_bar} {pos}/{len} subtrees, {msg}, {elapsed}, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(format!("perft({depth})"));
    bar.set_message("0 M leaves");
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
