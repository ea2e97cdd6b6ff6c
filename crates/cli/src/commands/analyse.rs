//! `checkers analyse`: searches a position and prints the engine's thinking, one line per
//! finished iteration (`info depth D score S nodes N nps X pv ...`), then `bestmove M`.
//! Moves are in PDN long form. With `--multipv N` each iteration prints its N best moves,
//! best first, each line tagged `multipv K` after the depth.

use std::time::Duration;

use anyhow::bail;
use checkers_engine::{
    Engine, EngineOptions, Level, Limits, MoveBuffer, SearchInfo, SearchPosition, StopHandle, MAX_DEPTH,
    MAX_THREADS,
};
use checkers_rules::board::Board;
use checkers_rules::{with_board_variant, SquareNotation};

use crate::common::PositionArgs;

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime", "level"])))]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Search this many plies deep.
    #[arg(long)]
    depth: Option<u32>,
    /// Search this many nodes: with one thread, the same position gives the same lines and
    /// move on any machine.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search this many milliseconds (the default, 1000, when no limit is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search as this playing level would (1-9) and print the move it plays.
    #[arg(long)]
    level: Option<u32>,
    /// Seed for the level's choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Rank this many best moves at every depth, each with its score and line (each line
    /// is a search of its own, so more lines take longer to reach a depth).
    #[arg(long, default_value_t = 1, conflicts_with = "level")]
    multipv: usize,
}

/// More lines than a position has moves are simply the moves it has; this bounds the work.
const MAX_LINES: usize = 64;

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.depth.is_some_and(|d| !(1..=MAX_DEPTH).contains(&d)) {
        bail!("--depth must be between 1 and {MAX_DEPTH}");
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    if args.movetime == Some(0) {
        bail!("--movetime must be at least 1 (milliseconds)");
    }
    crate::common::check_hash_mb(args.hash)?;
    if !(1..=MAX_THREADS).contains(&args.threads) {
        bail!("--threads must be between 1 and {MAX_THREADS}");
    }
    if !(1..=MAX_LINES).contains(&args.multipv) {
        bail!("--multipv must be between 1 and {MAX_LINES}");
    }
    let level = match args.level {
        None => None,
        Some(n) => match Level::new(n) {
            Some(level) => Some(level),
            None => bail!("--level must be between {} and {}, found {n}", Level::MIN, Level::MAX),
        },
    };
    if let Some(variant) = args.position.variant.board() {
        return with_board_variant!(variant, V => {
            let history = super::boards::positions::<V>(&args.position)?;
            analyse(&args, level, history, |board: &Board<V>, mv| mv.to_pdn(board))
        });
    }
    let history = args.position.positions()?;
    analyse(&args, level, history, |position, mv| mv.to_pdn(position, SquareNotation::Numeric))
}

/// Searches the last of `history` (the others are its game's earlier positions) and prints
/// the lines, each move written by `text`.
fn analyse<P: SearchPosition>(
    args: &Args,
    level: Option<Level>,
    mut history: Vec<P>,
    text: impl Fn(&P, &P::Move) -> String,
) -> anyhow::Result<()> {
    let position = history.pop().expect("at least the starting position");
    let mut engine = Engine::<P>::new(EngineOptions { hash_mb: args.hash, threads: args.threads });
    let stop = StopHandle::new();
    let ranked = |info: &SearchInfo<P::Move>| {
        if args.multipv > 1 {
            format!(" multipv {}", info.line)
        } else {
            String::new()
        }
    };
    let mut print_info = |info: &SearchInfo<P::Move>| {
        println!(
            "info depth {}{} score {} nodes {} nps {} pv {}",
            info.depth,
            ranked(info),
            info.score,
            info.nodes,
            info.nps(),
            line(&position, &info.pv, &text)
        );
    };
    let result = match level {
        Some(level) => level.search(&mut engine, &position, &history, args.seed, &stop, &mut print_info),
        None => {
            let limits = match (args.depth, args.nodes) {
                (Some(d), _) => Limits::depth(d),
                (None, Some(n)) => Limits::nodes(n),
                (None, None) => Limits::movetime(Duration::from_millis(args.movetime.unwrap_or(1000))),
            };
            engine.search_lines(&position, &history, &limits, &stop, args.multipv, &mut print_info)
        }
    };
    match result.best_move {
        Some(mv) => {
            if result.depth == 0 {
                // Played without an iteration (a forced move): still say what it is worth.
                println!(
                    "info depth 0 score {} nodes {} nps {} pv {}",
                    result.score,
                    result.nodes,
                    result.nps(),
                    text(&position, &mv)
                );
            }
            println!("bestmove {}", text(&position, &mv));
        }
        None => println!("bestmove (none)"),
    }
    Ok(())
}

/// A line of moves played from `position`, separated by spaces (it stops at the first move
/// that is not legal where it falls).
fn line<P: SearchPosition>(position: &P, moves: &[P::Move], text: impl Fn(&P, &P::Move) -> String) -> String {
    let mut current = *position;
    let mut words = Vec::with_capacity(moves.len());
    for mv in moves {
        if !current.legal_moves().as_slice().contains(mv) {
            break;
        }
        words.push(text(&current, mv));
        current = current.play_unchecked(mv);
    }
    words.join(" ")
}
