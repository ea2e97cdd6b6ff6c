//! `checkers review`: the games of a PDN file with every move judged by the engine. Each move
//! gets a comment with the position's score after it, for the side that played it (in men:
//! `+0.25`), and a move that gives much away is called a mistake or a blunder, with the move
//! the engine would have played: `{-1.40, a blunder: 15-18 kept +0.32}`. The reviewed games
//! go to standard output (or `--output`) as PDN; a count of each side's mistakes and blunders
//! goes to standard error. A game that cannot be read is reported and left out.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Context};
use checkers_engine::review::{review_game, tally, MoveReview};
use checkers_engine::{BoardEngine, Engine, EngineOptions, Limits};
use checkers_rules::board::{Board, BoardMove, RuleSet};
use checkers_rules::{read_any_pdn_each, with_board_variant, AnyPdnGame, BoardPdnGame, Color, PdnGame};
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{customary_notation, side_tag};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PDN file of games to review (`-` for standard input), such as the terminal game's
    /// `gamerec.txt`.
    file: PathBuf,
    /// Review only this game of the file (counted from 1).
    #[arg(long)]
    game: Option<usize>,
    /// Nodes searched in each position: about a tenth of a second each at the default. With
    /// the same file, nodes and table size, the review is the same on any machine.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Write the reviewed games to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Transposition table size in MB (of each job's engine).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Games reviewed at once, each on its own core (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if args.jobs == Some(0) {
        bail!("--jobs must be at least 1");
    }
    crate::common::check_hash_mb(args.hash)?;
    let shown = args.file.display().to_string();
    let bytes = if shown == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
        bytes
    } else {
        std::fs::read(&args.file).with_context(|| format!("cannot read {shown}"))?
    };
    if bytes.contains(&0) {
        bail!("{shown} is not a text file (it holds NUL bytes); review reads PDN text");
    }
    let text = String::from_utf8_lossy(&bytes);
    let games = read_any_pdn_each(&text);
    let chosen: Vec<usize> = match args.game {
        None => (0..games.len()).collect(),
        Some(n) if (1..=games.len()).contains(&n) => vec![n - 1],
        Some(n) => bail!("there is no game {n} in {shown}: it holds {} games", games.len()),
    };
    if chosen.is_empty() {
        bail!("{shown} holds no games");
    }

    let mut readable = Vec::new();
    for &i in &chosen {
        match &games[i] {
            Ok(game) => readable.push((i + 1, game)),
            Err(e) => eprintln!("left out: {e}"),
        }
    }
    let unreadable = chosen.len() - readable.len();
    let positions: usize = readable.iter().map(|(_, g)| g.move_count() + 1).sum();
    let bar = progress_bar(positions);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, readable.len().max(1));
    let limits = Limits::nodes(args.nodes);
    let next = AtomicUsize::new(0);
    let (done, finished) = mpsc::channel();
    let mut reviewed = Vec::with_capacity(readable.len());
    std::thread::scope(|scope| {
        // Each worker takes the next game with its own engine; a game's review does not depend
        // on which worker makes it (each starts afresh).
        for _ in 0..jobs {
            let (done, bar, next, readable, limits) = (done.clone(), &bar, &next, &readable, &limits);
            scope.spawn(move || {
                let options = EngineOptions { hash_mb: args.hash, threads: 1 };
                let mut engine = Engine::new(options);
                while let Some(&(number, game)) = readable.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (summary, text) = match game {
                        AnyPdnGame::Checkers(game) => {
                            let reviews =
                                review_game(&mut engine, &game.start(), game.moves(), limits, &mut |_| {
                                    bar.inc(1)
                                });
                            (summary_line(number, game, &reviews), annotated(game, &reviews))
                        }
                        // Another board's engine for each such game (its table is the game's own).
                        AnyPdnGame::Board(board) => with_board_variant!(board.variant(), V => {
                            let game = board.get::<V>().expect("the game of its own variant");
                            review_board(number, game, options, limits, &|| bar.inc(1))
                        }),
                    };
                    if done.send((number, summary, text)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        // Told in the file's order as soon as each game and those before it are done.
        let mut waiting = BTreeMap::new();
        let mut order = readable.iter().map(|(number, _)| *number);
        let mut expected = order.next();
        for (number, summary, text) in finished {
            waiting.insert(number, (summary, text));
            while let Some((summary, text)) = expected.and_then(|n| waiting.remove(&n)) {
                bar.suspend(|| eprintln!("{summary}"));
                reviewed.push(text);
                expected = order.next();
            }
        }
    });
    bar.finish_and_clear();
    if reviewed.is_empty() {
        bail!("no game of {shown} could be read ({unreadable} left out)");
    }
    let text = reviewed.join("\n");
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(())
}

fn progress_bar(positions: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(
        ProgressStyle::with_template("review {wide_bar} {pos}/{len} positions, {elapsed}, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The game with a comment after each reviewed move (before any comment it had).
fn annotated(game: &PdnGame, reviews: &[MoveReview]) -> String {
    let mut game = game.clone();
    let positions = game.positions();
    let notation = customary_notation(game.variant());
    for (i, review) in reviews.iter().enumerate() {
        let mut text = review.comment(&positions[i], notation);
        if let Some(earlier) = game.comment(i) {
            text = format!("{text}; {earlier}");
        }
        game.set_comment(i, &text);
    }
    game.to_pdn_with(notation)
}

/// `game 2 (tester - checkers level 3): Black: 1 mistake, 2 blunders, 0.42 a move lost on
/// average; White: no mistakes, 0.05 a move lost on average`.
fn summary_line(number: usize, game: &PdnGame, reviews: &[MoveReview]) -> String {
    summary(number, game.variant().first_to_move(), |side| game.tag(side), reviews)
}

fn summary<'a, M>(
    number: usize,
    first: Color,
    tag: impl Fn(&str) -> Option<&'a str>,
    reviews: &[MoveReview<M>],
) -> String {
    let sides: Vec<String> =
        [first, first.opponent()].iter().map(|&c| tally(reviews, c).describe(side_tag(c))).collect();
    let names = match (tag(side_tag(first)), tag(side_tag(first.opponent()))) {
        (Some(first), Some(second)) => format!(" ({first} - {second})"),
        _ => String::new(),
    };
    format!("game {number}{names}: {}", sides.join("; "))
}

/// A game of a board variant reviewed: its summary line and its annotated text.
fn review_board<V: BoardEngine>(
    number: usize,
    game: &BoardPdnGame<V>,
    options: EngineOptions,
    limits: &Limits,
    tick: &dyn Fn(),
) -> (String, String) {
    let mut engine = Engine::<Board<V>>::new(options);
    let reviews = review_game(&mut engine, &game.start(), game.moves(), limits, &mut |_| tick());
    let summary = summary(number, <V as RuleSet>::FIRST, |side| game.tag(side), &reviews);
    let mut annotated = game.clone();
    let positions = annotated.positions();
    for (i, review) in reviews.iter().enumerate() {
        let best: &BoardMove<V> = &review.best;
        let mut text = review.comment_with(&best.to_pdn(&positions[i]));
        if let Some(earlier) = annotated.comment(i) {
            text = format!("{text}; {earlier}");
        }
        annotated.set_comment(i, &text);
    }
    (summary, annotated.to_pdn())
}
