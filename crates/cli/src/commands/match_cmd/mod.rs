//! `checkers match`: two players against each other over an opening set, each opening twice
//! with the colours reversed, several games at once; prints the score, the Elo difference
//! with its 95% error bar (also from the opening pairs alone) and, with `--sprt`, stops as
//! soon as the test, whose samples are the complete pairs, decides. Any variant is played (its
//! games and records through `contest.rs`). Games end by the rules
//! (the variant's game and referee), by a forfeit (an illegal move), or as a draw when they reach
//! the ply cap. All games can be written to a PDN file, which is rewritten as each game ends,
//! so a long match that is stopped keeps what it played. Ctrl-C stops it gently: no new game
//! starts, the games under way finish and count, and the score is printed (a second Ctrl-C
//! quits at once). Each chosen move's thinking time is written beside it in the PDN file,
//! and the report gives each player's time per move.

mod contest;
mod openings;
mod players;
mod resume;
mod stats;
mod thinking;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use checkers_rules::{with_board_variant, Color, PdnResult};
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{VariantArg, VariantChoice};
use contest::{Boards, Checkers, Contest, MatchRecord};
use openings::Opening;
use players::{PlayerError, PlayerSetup, PlayerSpec};
pub use stats::{Pairs, Sprt, SprtVerdict, Tally};
use thinking::Thinking;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first player: level:1-9, depth:N, nodes:N, movetime:MS, or hub:COMMAND (an engine
    /// speaking Hub, e.g. `hub:/path/to/scan hub`). Scores are given for this player.
    first: PlayerSpec,
    /// The second player, in the same form.
    second: PlayerSpec,
    /// Rules to play by; also picks the opening set (English three-move ballot, the Russian
    /// and Brazilian 150, Italian eleven-man ballots, or the variant's set of level lines).
    #[arg(long, value_enum, default_value_t = VariantArg::English)]
    variant: VariantArg,
    /// Play only the first N openings of the set (each twice, colours reversed).
    #[arg(long)]
    openings: Option<usize>,
    /// Leave out the first N games of the schedule (game numbers, openings and seeds stay
    /// those of the whole schedule, so the games are the same). To finish a stopped match
    /// from its PDN file, whatever order its games finished in, use `--resume`.
    #[arg(long, default_value_t = 0)]
    skip_games: usize,
    /// Continue the match in the `--pdn` file: the finished games it holds (known by their
    /// number, the PDN Round tag) count and are kept, and only the others are played, so a
    /// match stopped with games finished out of order completes exactly. The file must hold
    /// games of these players over this opening set; a missing file starts the match.
    #[arg(long, requires = "pdn", conflicts_with = "skip_games")]
    resume: bool,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game to this PDN file, each chosen move with its thinking time as a
    /// comment (`{0.427s}`).
    #[arg(long, alias = "pgn")]
    pdn: Option<PathBuf>,
    /// Stop early by a sequential probability ratio test, `elo0,elo1,alpha,beta`, e.g.
    /// `0,10,0.05,0.05`. Its samples are the complete opening pairs (both games of an
    /// opening), as fishtest's pentanomial test.
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Plies after the opening before a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Transposition table of each of our engines, in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The `level` sent to Hub engines before each move (Hub syntax).
    #[arg(long, default_value = "move-time=0.1")]
    hub_level: String,
    /// Seconds a Hub engine may take over a move before the match gives up on it.
    #[arg(long, default_value_t = 120)]
    hub_patience: u64,
    /// Seed for our levels' choices (each game adds its number).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// One game of the schedule: an opening and who plays the side that moves first.
#[derive(Clone, Copy, Debug)]
struct Pairing {
    number: usize,
    opening: usize,
    first_player_starts: bool,
}

impl Pairing {
    /// Game `number` (from 1) of the schedule: openings in turn, each played first with the
    /// first player moving first, then with the colours reversed.
    fn numbered(number: usize) -> Pairing {
        Pairing { number, opening: (number - 1) / 2, first_player_starts: number % 2 == 1 }
    }

    /// The colour the first player has in this game of a variant whose openings leave
    /// `starter` to move.
    fn first_color(self, starter: Color) -> Color {
        if self.first_player_starts {
            starter
        } else {
            starter.opponent()
        }
    }
}

/// The first player's points for a game's result: 1 for a win, 0 a loss, 0.5 a draw; `None`
/// for no result (an unfinished game, a double forfeit).
fn first_player_points(result: PdnResult, first_color: Color) -> Option<f64> {
    match result {
        PdnResult::Win(color) => Some(if color == first_color { 1.0 } else { 0.0 }),
        PdnResult::Draw => Some(0.5),
        PdnResult::DoubleForfeit | PdnResult::Unknown => None,
    }
}

/// A finished game, from the first player's point of view.
struct Played<C: Contest> {
    number: usize,
    /// The opening's index in the set: its two games make a pair.
    opening: usize,
    record: C::Record,
    /// 1 for a win of the first player, 0.5 a draw, 0 a loss.
    points: f64,
    /// The first and the second player's thinking, from the moves' time comments.
    thinking: [Thinking; 2],
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=256).contains(&args.concurrency) {
        bail!("--concurrency must be between 1 and 256");
    }
    crate::common::check_hash_mb(args.hash)?;
    if args.max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    match args.variant.choice() {
        VariantChoice::Board(variant) => with_board_variant!(variant, V => {
            run_match(&args, Boards::<V>::new(), openings::board_openings::<V>()?)
        }),
        VariantChoice::Checkers(variant) => {
            run_match(&args, Checkers(variant), openings::checkers_openings(variant)?)
        }
    }
}

/// The match of `args` in `contest`'s variant over `openings`.
fn run_match<C: Contest>(
    args: &Args,
    contest: C,
    mut openings: Vec<Opening<C::Position>>,
) -> anyhow::Result<()> {
    let variant = contest.name();
    if let Some(n) = args.openings {
        if n == 0 || n > openings.len() {
            bail!("--openings must be between 1 and {} for {variant}", openings.len());
        }
        openings.truncate(n);
    }
    let setup = PlayerSetup {
        contest,
        hash_mb: args.hash,
        hub_level: args.hub_level.clone(),
        hub_patience: Duration::from_secs(args.hub_patience.max(1)),
    };
    if args.skip_games >= openings.len() * 2 {
        bail!("--skip-games must leave at least one of the {} games", openings.len() * 2);
    }
    let (first_name, second_name) = (args.first.to_string(), args.second.to_string());
    let earlier = match (&args.pdn, args.resume) {
        (Some(path), true) => resume::earlier_games(path, contest, &openings, (&first_name, &second_name))?,
        _ => Vec::new(),
    };
    let schedule: Vec<Pairing> = (args.skip_games..openings.len() * 2)
        .filter(|i| !earlier.iter().any(|g| g.number == i + 1))
        .map(|i| Pairing::numbered(i + 1))
        .collect();
    let part = if args.skip_games > 0 {
        format!(" (numbers {} to {})", args.skip_games + 1, openings.len() * 2)
    } else if !earlier.is_empty() {
        format!(" (besides the {} finished in the PDN file)", earlier.len())
    } else {
        String::new()
    };
    println!(
        "{first_name} vs {second_name}: {} games{part} over {} openings ({}), {} at once",
        schedule.len(),
        openings.len(),
        openings::set_name(variant),
        args.concurrency
    );

    let openings = Arc::new(openings);
    let schedule = Arc::new(schedule);
    // A resumed match whose earlier games already decide the test plays no more.
    let decided = args.sprt.is_some_and(|sprt| sprt.verdict(&pairs_of(&earlier)) != SprtVerdict::Continue);
    let halt = Arc::new(AtomicBool::new(decided));
    let (results, inbox) = mpsc::channel::<anyhow::Result<Played<C>>>();
    let workers = start_workers(args, &setup, &openings, &schedule, &halt, &results);
    drop(results);
    let interrupted = stop_gently_on_interrupt(halt.clone());

    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(schedule.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} eta {eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut tally = Tally::default();
    for game in &earlier {
        tally.count(game.points);
    }
    let earlier_count = earlier.len();
    let mut games: Vec<Played<C>> = earlier;
    let mut failure = None;
    for result in inbox {
        match result {
            Err(e) => {
                // No new game starts; the games under way in other workers finish and are
                // kept, so a stopped match loses only the game that failed.
                halt.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
            }
            Ok(played) => {
                tally.count(played.points);
                games.push(played);
                if let Some(path) = &args.pdn {
                    write_games(path, &mut games)?;
                }
                bar.inc(1);
                let mut message = summary_line(&tally);
                if let Some(sprt) = &args.sprt {
                    let pairs = pairs_of(&games);
                    message.push_str(&format!(" llr {:.2}", sprt.llr(&pairs)));
                    if sprt.verdict(&pairs) != SprtVerdict::Continue {
                        // Games under way finish and count; no new ones start.
                        halt.store(true, Ordering::SeqCst);
                    }
                }
                bar.set_message(message);
            }
        }
    }
    bar.finish_and_clear();
    for worker in workers {
        let _ = worker.join();
    }
    let ending = Ending {
        played_now: games.len() - earlier_count,
        interrupted: interrupted.load(Ordering::SeqCst),
        failed: failure.is_some(),
    };
    print_ending(args, (&first_name, &second_name), &schedule, &games, &tally, ending);
    match failure {
        Some(e) => Err(e.context("the match stopped")),
        None => Ok(()),
    }
}

/// Starts the threads that play the schedule's games in turn, each with its own pair of
/// players, sending each finished game (or what stopped the thread) to `results`.
fn start_workers<C: Contest>(
    args: &Args,
    setup: &PlayerSetup<C>,
    openings: &Arc<Vec<Opening<C::Position>>>,
    schedule: &Arc<Vec<Pairing>>,
    halt: &Arc<AtomicBool>,
    results: &mpsc::Sender<anyhow::Result<Played<C>>>,
) -> Vec<std::thread::JoinHandle<()>> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..args.concurrency.min(schedule.len()) {
        let (openings, schedule, next, halt, results) =
            (openings.clone(), schedule.clone(), next.clone(), halt.clone(), results.clone());
        let (first, second, setup) = (args.first.clone(), args.second.clone(), setup.clone());
        let (max_plies, seed) = (args.max_plies, args.seed);
        workers.push(std::thread::spawn(move || {
            let worker = || -> anyhow::Result<()> {
                let mut first_player = players::build(&first, &setup)?;
                let mut second_player = players::build(&second, &setup)?;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= schedule.len() || halt.load(Ordering::SeqCst) {
                        return Ok(());
                    }
                    let pairing = schedule[i];
                    let names = (first.to_string(), second.to_string());
                    let played = play_game(
                        setup.contest,
                        &openings[pairing.opening],
                        pairing,
                        (first_player.as_mut(), second_player.as_mut()),
                        &names,
                        max_plies,
                        seed.wrapping_add(pairing.number as u64),
                    )?;
                    if results.send(Ok(played)).is_err() {
                        return Ok(());
                    }
                }
            };
            if let Err(e) = worker() {
                let _ = results.send(Err(e));
            }
        }));
    }
    workers
}

/// How the match went, for its last lines.
struct Ending {
    /// Games played in this run (not those resumed from the file).
    played_now: usize,
    interrupted: bool,
    failed: bool,
}

/// The last lines: why the match stopped (and which games it has, when it did), the score,
/// each player's time per move, and where the games are.
fn print_ending<C: Contest>(
    args: &Args,
    (first_name, second_name): (&str, &str),
    schedule: &[Pairing],
    games: &[Played<C>],
    tally: &Tally,
    ending: Ending,
) {
    if ending.interrupted {
        println!("Stopped by Ctrl-C after {} of {} games.", ending.played_now, schedule.len());
    }
    // Games run side by side finish out of order: a stopped match says which ones it has.
    let stopped = ending.failed || ending.interrupted;
    if stopped && ending.played_now < schedule.len() {
        let finished: std::collections::BTreeSet<usize> = games.iter().map(|g| g.number).collect();
        let missing: Vec<usize> =
            schedule.iter().map(|p| p.number).filter(|n| !finished.contains(n)).collect();
        let resume = if args.pdn.is_some() && args.skip_games == 0 { " (`--resume` plays them)" } else { "" };
        println!(
            "Games finished: {}; not played: {}{resume}.",
            number_ranges(finished.iter().copied()),
            number_ranges(missing.into_iter())
        );
    }
    println!("{}", report(first_name, second_name, tally, &pairs_of(games), args.sprt.as_ref()));
    let mut thinking = [Thinking::default(); 2];
    for game in games {
        thinking[0].add(game.thinking[0]);
        thinking[1].add(game.thinking[1]);
    }
    // Files of builds before the time comments may time nothing.
    if thinking.iter().any(|t| t.moves + t.forced > 0) {
        println!("Time of {first_name}: {}", thinking[0].describe());
        println!("Time of {second_name}: {}", thinking[1].describe());
    }
    if let Some(path) = &args.pdn {
        println!("PDN: {} games in {}", games.len(), path.display());
    }
}

/// Ascending game numbers as ranges: `1-11, 13, 15-40` (`none` for none).
fn number_ranges(numbers: impl Iterator<Item = usize>) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for n in numbers {
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => ranges.push((n, n)),
        }
    }
    if ranges.is_empty() {
        return "none".to_string();
    }
    let text: Vec<String> =
        ranges.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    text.join(", ")
}

/// Writes the games so far, in schedule order, to `path` (through a temporary file and a
/// rename, so the file always holds a whole PDN).
fn write_games<C: Contest>(path: &std::path::Path, games: &mut [Played<C>]) -> anyhow::Result<()> {
    games.sort_by_key(|g| g.number);
    let records: Vec<C::Record> = games.iter().map(|g| g.record.clone()).collect();
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, C::write_records(&records))
        .and_then(|()| std::fs::rename(&temporary, path))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The first Ctrl-C halts the match (the games under way finish and count); the second
/// quits at once. Returns the flag the first one sets.
fn stop_gently_on_interrupt(halt: Arc<AtomicBool>) -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        halt.store(true, Ordering::SeqCst);
        eprintln!("\nStopping: the games under way finish and count (Ctrl-C again to quit now).");
    });
    interrupted
}

/// The score line shown on the progress bar.
fn summary_line(tally: &Tally) -> String {
    match (tally.score(), tally.elo(), tally.elo_interval().map(|(low, high)| (high - low) / 2.0)) {
        // Early in a match one side may have every point: no finite Elo to show yet.
        (Some(score), Some(elo), _) if elo.is_infinite() => {
            format!("+{} -{} ={} score {score:.3}", tally.wins, tally.losses, tally.draws)
        }
        (Some(score), Some(elo), Some(margin)) if margin.is_finite() => {
            format!(
                "+{} -{} ={} score {:.3} elo {elo:+.1} ± {margin:.1}",
                tally.wins, tally.losses, tally.draws, score
            )
        }
        (Some(score), Some(elo), _) => {
            format!("+{} -{} ={} score {:.3} elo {elo:+.1}", tally.wins, tally.losses, tally.draws, score)
        }
        _ => String::new(),
    }
}

/// The complete pairs by points and the Elo difference with their error bar; `None` before
/// any pair is complete.
fn pairs_line(pairs: &Pairs) -> Option<String> {
    let elo = pairs.elo()?;
    let [zero, half, one, one_half, two] = pairs.counts;
    let counts = format!(
        "Opening pairs scoring 0 / 0.5 / 1 / 1.5 / 2: {zero} / {half} / {one} / {one_half} / {two} of {}",
        pairs.count()
    );
    Some(match pairs.elo_interval() {
        Some(interval) if elo.is_finite() => {
            format!("{counts}; Elo difference by pairs: {}", elo_with_error_bar(elo, interval))
        }
        _ => counts,
    })
}

/// `34.9 +/- 25.8 (95%)`, the half width of the interval as cutechess-cli gives it; when one
/// end of the interval is unbounded (a score of 0 or 1 is inside it, as early in a lopsided
/// match), only the other end: `653.4, at least 462.6 (95%)`.
fn elo_with_error_bar(elo: f64, (low, high): (f64, f64)) -> String {
    if low.is_finite() && high.is_finite() {
        format!("{elo:.1} +/- {:.1} (95%)", (high - low) / 2.0)
    } else if low.is_finite() {
        format!("{elo:.1}, at least {low:.1} (95%)")
    } else if high.is_finite() {
        format!("{elo:.1}, at most {high:.1} (95%)")
    } else {
        format!("{elo:.1}, unbounded either way (95%)")
    }
}

/// The complete opening pairs among the finished games.
fn pairs_of<C: Contest>(games: &[Played<C>]) -> Pairs {
    Pairs::of_games(games.iter().map(|g| (g.opening, g.points)))
}

/// The final report: score, Elo with error bar, the complete pairs with theirs, SPRT state.
pub fn report(first: &str, second: &str, tally: &Tally, pairs: &Pairs, sprt: Option<&Sprt>) -> String {
    let mut out = format!(
        "Score of {first} vs {second}: {} - {} - {} [{:.3}] {}\n",
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score().unwrap_or(0.5),
        tally.games()
    );
    match (tally.elo(), tally.elo_interval()) {
        // A clean sweep has no finite estimate, but its games still bound the difference.
        (Some(elo), _) if elo.is_infinite() => {
            let bound = stats::sweep_lower_bound(tally.games());
            out.push_str(&if elo > 0.0 {
                format!("Elo difference: unbounded, every game won; at least {bound:.1} (95%)")
            } else {
                format!("Elo difference: unbounded, every game lost; at most {:.1} (95%)", -bound)
            });
        }
        (Some(elo), Some(interval)) => {
            out.push_str(&format!("Elo difference: {}", elo_with_error_bar(elo, interval)));
        }
        _ => out.push_str("Elo difference: none (no games)"),
    }
    if let Some(line) = pairs_line(pairs) {
        out.push('\n');
        out.push_str(&line);
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let state = match sprt.verdict(pairs) {
            SprtVerdict::Continue => "no decision yet",
            SprtVerdict::AcceptH1 => "H1 was accepted",
            SprtVerdict::AcceptH0 => "H0 was accepted",
        };
        out.push_str(&format!(
            "\nSPRT: llr {:.3} [{lower:.3}, {upper:.3}] over {} opening pair{}, elo0 {} elo1 {} alpha {} beta {}: {state}",
            sprt.llr(pairs),
            pairs.count(),
            if pairs.count() == 1 { "" } else { "s" },
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta
        ));
    }
    out
}

/// Plays one game of the schedule.
fn play_game<C: Contest>(
    contest: C,
    opening: &Opening<C::Position>,
    pairing: Pairing,
    (first, second): (&mut dyn players::Player<C>, &mut dyn players::Player<C>),
    (first_name, second_name): &(String, String),
    max_plies: usize,
    seed: u64,
) -> anyhow::Result<Played<C>> {
    use checkers_engine::SearchPosition;
    first.new_game()?;
    second.new_game()?;
    let first_color = pairing.first_color(opening.start.turn());
    let mut game = contest.new_game(opening.start);
    for mv in &opening.moves {
        if !C::play(&mut game, *mv) {
            bail!("opening {}: a move is not legal", opening.name);
        }
    }
    let mut forfeit: Option<(Color, String)> = None;
    let mut plies = 0;
    let mut times = Vec::new();
    let current = |game: &C::Game| *C::positions(game).last().expect("a game has a start");
    while C::outcome(&game).is_none() && plies < max_plies {
        let mover = current(&game).turn();
        let asked = Instant::now();
        let choice =
            if mover == first_color { first.choose(&game, seed) } else { second.choose(&game, seed) };
        let time = asked.elapsed();
        match choice {
            Ok(mv) => {
                if !C::play(&mut game, mv) {
                    forfeit = Some((mover, "an illegal move".to_string()));
                    break;
                }
                times.push(time);
            }
            Err(PlayerError::Illegal(why)) => {
                forfeit = Some((mover, format!("an illegal move ({why})")));
                break;
            }
            Err(PlayerError::Broken(e)) => return Err(e),
        }
        plies += 1;
    }
    let (result, termination) = match (C::outcome(&game), &forfeit) {
        (_, Some((loser, why))) => {
            (PdnResult::Win(loser.opponent()), format!("{} forfeits by {why}", loser.name()))
        }
        (Some((result, why)), None) => (result, why),
        (None, None) => (PdnResult::Draw, format!("adjudicated a draw after {max_plies} plies")),
    };
    // Every game played here ends in a win or a draw.
    let points = first_player_points(result, first_color).unwrap_or(0.5);

    let mut record = contest.record(&game, result)?;
    let (black, white) =
        if first_color == Color::Black { (first_name, second_name) } else { (second_name, first_name) };
    let tags = [
        ("Event", "checkers match".to_string()),
        ("Date", today()),
        ("Round", pairing.number.to_string()),
        ("Black", black.clone()),
        ("White", white.clone()),
        ("Opening", opening.name.clone()),
        ("Termination", termination),
    ];
    for (name, value) in tags {
        record.set_tag(name, &value).context("a PDN tag")?;
    }
    if !opening.moves.is_empty() {
        record.set_comment(opening.moves.len() - 1, &format!("end of opening {}", opening.name));
    }
    for (k, &time) in times.iter().enumerate() {
        record.set_comment(opening.moves.len() + k, &thinking::move_comment(time));
    }
    let thinking = thinking::of_record(&record, opening.moves.len(), first_color);
    Ok(Played { number: pairing.number, opening: pairing.opening, record, points, thinking })
}

/// Today's date as PDN writes it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0) as i64;
    checkers_rules::pdn_date(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_numbers_read_as_ranges() {
        assert_eq!(number_ranges([1, 2, 3, 5, 7, 8].into_iter()), "1-3, 5, 7-8");
        assert_eq!(number_ranges([12].into_iter()), "12");
        assert_eq!(number_ranges(std::iter::empty()), "none");
    }

    #[test]
    fn report_reads_like_cutechess() {
        let tally = Tally { wins: 60, losses: 40, draws: 100 };
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let pairs = Pairs { counts: [2, 6, 70, 14, 8] };
        assert_eq!(
            report("level:5", "level:4", &tally, &pairs, Some(&sprt)),
            "Score of level:5 vs level:4: 60 - 40 - 100 [0.550] 200\n\
             Elo difference: 34.9 +/- 34.2 (95%)\n\
             Opening pairs scoring 0 / 0.5 / 1 / 1.5 / 2: 2 / 6 / 70 / 14 / 8 of 100; \
             Elo difference by pairs: 34.9 +/- 25.8 (95%)\n\
             SPRT: llr 1.661 [-2.944, 2.944] over 100 opening pairs, elo0 0 elo1 10 alpha 0.05 beta 0.05: \
             no decision yet"
        );
        // Before a pair is complete there is no pairs line, and the test has no sample yet.
        assert_eq!(
            report("a", "b", &Tally { wins: 1, losses: 0, draws: 1 }, &Pairs::default(), Some(&sprt)),
            "Score of a vs b: 1 - 0 - 1 [0.750] 2\n\
             Elo difference: 190.8, at least -67.9 (95%)\n\
             SPRT: llr 0.000 [-2.944, 2.944] over 0 opening pairs, elo0 0 elo1 10 alpha 0.05 beta 0.05: \
             no decision yet"
        );
    }

    #[test]
    fn a_clean_sweep_reports_a_bound_not_infinity() {
        let won = report("a", "b", &Tally { wins: 20, losses: 0, draws: 0 }, &Pairs::default(), None);
        assert_eq!(won, "Score of a vs b: 20 - 0 - 0 [1.000] 20\nElo difference: unbounded, every game won; at least 277.4 (95%)");
        assert_eq!(summary_line(&Tally { wins: 2, losses: 0, draws: 0 }), "+2 -0 =0 score 1.000");
        let lost = report("a", "b", &Tally { wins: 0, losses: 1, draws: 0 }, &Pairs::default(), None);
        assert!(lost.ends_with("Elo difference: unbounded, every game lost; at most 636.4 (95%)"), "{lost}");
    }

    #[test]
    fn pairs_are_reported_with_their_own_error_bar() {
        assert_eq!(pairs_line(&Pairs::default()), None);
        assert_eq!(
            pairs_line(&Pairs { counts: [0, 0, 40, 10, 0] }).unwrap(),
            "Opening pairs scoring 0 / 0.5 / 1 / 1.5 / 2: 0 / 0 / 40 / 10 / 0 of 50; \
             Elo difference by pairs: 34.9 +/- 19.5 (95%)"
        );
        // Early in a lopsided match the interval reaches a score of 1: only its lower end.
        assert_eq!(
            pairs_line(&Pairs { counts: [0, 0, 0, 1, 10] }).unwrap(),
            "Opening pairs scoring 0 / 0.5 / 1 / 1.5 / 2: 0 / 0 / 0 / 1 / 10 of 11; \
             Elo difference by pairs: 653.4, at least 462.6 (95%)"
        );
        assert_eq!(
            pairs_line(&Pairs { counts: [0, 0, 0, 0, 2] }).unwrap(),
            "Opening pairs scoring 0 / 0.5 / 1 / 1.5 / 2: 0 / 0 / 0 / 0 / 2 of 2"
        );
    }

    #[test]
    fn dates_are_civil() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"), "{date}");
    }
}
