//! The chaos run: the load generator's games across several `checkers serve` nodes on one
//! PostgreSQL database while a random node is killed with SIGKILL every so often and started
//! again on the same address; then every game in the database is checked against what the
//! clients were told.
//!
//! ```text
//! cargo build --release -p checkers    # the nodes' binary (`--examples` alone would not rebuild it)
//! cargo run --release -p checkers-server --example chaos -- --db postgres://USER:PASSWORD@HOST/DB \
//!     --games 200 --think-ms 1000 --kill-every 30 --minutes 5
//! ```
//!
//! It starts `--nodes` (3) nodes of the `checkers` binary beside it in the target directory,
//! on free loopback ports, in a schema of their own it makes in the database (and drops at the
//! end if all went well). `--games` slots each play games one after another for `--minutes`
//! (the load generator's games, `examples/loadtest`: Black on one node, White on the
//! next, `--watchers` a spectator on the third; clients of a dead node reconnect to another),
//! while every `--kill-every` seconds (0: never) a random node is killed and restarted at
//! once; the games under way at the end are played out. Then it checks that every game
//! finished (the side to move resigns at `--plies`), that no confirmed move is missing,
//! different or doubled in the `moves` table, and that no game holds moves no client knew
//! were committed; it prints the figures and exits non-zero on any loss.
//!
//! Without `--db`, one node runs on a SQLite file in a temporary directory. `--idle N` first
//! opens N idle WebSockets to node 1 and prints its resident memory with and without them.
//! The nodes' memory is sampled every second (on Linux) and each one's peak printed with the
//! games in play then. The nodes' logs go to a temporary directory, kept if the run fails.

#[path = "../loadtest/check.rs"]
mod check;
mod nodes;
#[path = "../loadtest/play.rs"]
mod play;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_server::Store;
use tokio::sync::Semaphore;

use check::{print_failover, print_figures, Check};
use nodes::{checkers_binary, histogram, Cluster, Database, Node};
use play::{one_game, Nodes, Play, Played, Rng, Stats};

struct Options {
    db: Option<String>,
    nodes: Option<usize>,
    games: u64,
    play: Play,
    minutes: f64,
    kill_every: u64,
    idle: usize,
    seed: u64,
}

fn options() -> anyhow::Result<Options> {
    let play = Play { plies: 40, think_ms: 1000, rated: false, timed: false, watchers: false };
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_nanos() as u64;
    let mut o =
        Options { db: None, nodes: None, games: 200, play, minutes: 5.0, kill_every: 30, idle: 0, seed };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--db" => o.db = Some(value()?),
            "--nodes" => o.nodes = Some(value()?.parse().context("--nodes")?),
            "--games" => o.games = value()?.parse().context("--games")?,
            "--plies" => o.play.plies = value()?.parse().context("--plies")?,
            "--think-ms" => o.play.think_ms = value()?.parse().context("--think-ms")?,
            "--watchers" => o.play.watchers = true,
            "--minutes" => o.minutes = value()?.parse().context("--minutes")?,
            "--kill-every" => o.kill_every = value()?.parse().context("--kill-every")?,
            "--idle" => o.idle = value()?.parse().context("--idle")?,
            "--seed" => o.seed = value()?.parse().context("--seed")?,
            other => bail!(
                "unknown option {other} ([--db postgres://...] [--nodes N] --games N --plies N --think-ms MS \
                 [--watchers] --minutes M --kill-every S [--idle N] [--seed S])"
            ),
        }
    }
    if o.db.as_deref().is_some_and(|db| !db.starts_with("postgres")) {
        bail!("--db is a postgres:// URL (without it, one node runs on a SQLite file of its own)");
    }
    if o.db.is_none() && o.nodes.unwrap_or(1) != 1 {
        bail!("several nodes need PostgreSQL: give --db postgres://...");
    }
    Ok(o)
}

/// The games being played, and what they came to.
struct Games {
    nodes: Arc<Nodes>,
    play: Arc<Play>,
    connecting: Arc<Semaphore>,
    stats: Arc<Mutex<Stats>>,
    slots: u64,
    until: Instant,
    in_play: AtomicUsize,
}

type Outcome = anyhow::Result<Option<(String, Played)>>;

/// One slot: a game after another until the run's time is up.
async fn slot(games: Arc<Games>, slot: u64) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let mut round = 0;
    while Instant::now() < games.until {
        let index = round * games.slots + slot;
        games.in_play.fetch_add(1, Ordering::Relaxed);
        let game = one_game(
            games.nodes.clone(),
            games.play.clone(),
            index,
            None,
            games.connecting.clone(),
            games.stats.clone(),
        );
        outcomes.push(game.await);
        games.in_play.fetch_sub(1, Ordering::Relaxed);
        round += 1;
    }
    outcomes
}

/// Every second: notes the nodes' memory, and kills a random node when its time comes
/// (until `games.until`). Runs until `stop`.
fn conduct(
    cluster: Arc<Mutex<Cluster>>,
    games: Arc<Games>,
    o: &Options,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<anyhow::Result<()>> {
    let (every, seed) = (Duration::from_secs(o.kill_every), o.seed);
    std::thread::spawn(move || {
        let started = Instant::now();
        let mut rng = Rng(seed | 1);
        let mut next_kill = started + every;
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_secs(1));
            let mut cluster = cluster.lock().unwrap_or_else(|e| e.into_inner());
            cluster.sample(games.in_play.load(Ordering::Relaxed));
            let now = Instant::now();
            if !every.is_zero() && now >= next_kill && now < games.until {
                let node = (rng.next() % cluster.nodes.len() as u64) as usize;
                cluster.kill_and_restart(node, started)?;
                let kill = cluster.kills.last().expect("a kill");
                eprintln!(
                    "chaos: node {} killed at {:.1} s, listening again {} ms later",
                    node + 1,
                    kill.at.as_secs_f64(),
                    kill.restarted_in.as_millis()
                );
                next_kill += every;
            }
        }
        Ok(())
    })
}

/// Node 1's resident memory (KiB) without and with `count` idle WebSockets open to it.
async fn idle_memory(node: &Node, count: usize) -> anyhow::Result<(u64, u64)> {
    let before = node.rss_kib().context("the node's memory (read from /proc, on Linux)")?;
    let mut sockets = Vec::with_capacity(count);
    for i in 0..count {
        sockets.push(play::connect(node.addr, i as u64, None).await?);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let with = node.rss_kib().context("the node's memory")?;
    drop(sockets);
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok((before, with))
}

/// Games in the database the clients do not account for.
#[derive(Default)]
struct Scan {
    games: usize,
    /// Made, but their creator never heard so (its node died first): waiting, no move.
    unheard: usize,
    /// Anything else no client knew of, or given up with moves or not ended.
    unexplained: Vec<String>,
}

async fn scan(
    db: &Database,
    told: &HashMap<String, Played>,
    given_up: &HashSet<String>,
) -> anyhow::Result<Scan> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.sqlx_url()).await?;
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT g.id, g.status, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) FROM games g",
    )
    .fetch_all(&pool)
    .await?;
    pool.close().await;
    let mut s = Scan { games: rows.len(), ..Scan::default() };
    for (id, status, moves) in rows {
        if told.contains_key(&id) {
            continue; // checked move by move
        }
        if given_up.contains(&id) && status == "finished" && moves == 0 {
            continue;
        }
        if !given_up.contains(&id) && status == "waiting" && moves == 0 {
            s.unheard += 1;
            continue;
        }
        s.unexplained.push(format!("{id} ({status}, {moves} moves)"));
    }
    Ok(s)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// What the games came to: what the clients know of each game, how many failed, and how many
/// of those never started (could not be set up).
async fn play_out(games: &Arc<Games>) -> anyhow::Result<(HashMap<String, Played>, usize, usize)> {
    let slots: Vec<_> = (0..games.slots).map(|i| tokio::spawn(slot(games.clone(), i))).collect();
    let mut told = HashMap::new();
    let (mut failed, mut unseated) = (0, 0);
    for slot in slots {
        for outcome in slot.await? {
            let failure = match outcome {
                Ok(Some((game, played))) => {
                    let failure = played.failure.as_ref().map(|f| format!("game {game} failed: {f}"));
                    told.insert(game, played);
                    failure
                }
                Ok(None) => None,
                Err(e) => {
                    unseated += 1;
                    Some(format!("a game failed: {e:#}"))
                }
            };
            if let Some(failure) = failure {
                failed += 1;
                if failed <= 10 {
                    eprintln!("chaos: {failure}");
                }
            }
        }
    }
    Ok((told, failed, unseated))
}

/// The kills, the nodes' memory and latencies (from `metrics`, their last processes') and, if
/// measured, an idle connection's memory.
fn print_nodes(cluster: &Cluster, metrics: &[String], idle: Option<(usize, u64, u64)>) {
    let kills: Vec<_> = cluster
        .kills
        .iter()
        .map(|k| {
            let (node, at, ms) = (k.node + 1, k.at.as_secs_f64(), k.restarted_in.as_millis());
            format!("node {node} at {at:.0} s ({ms} ms to listen again)")
        })
        .collect();
    println!("kills: {}{}{}", kills.len(), if kills.is_empty() { "" } else { ": " }, kills.join(", "));
    for (i, peak) in cluster.peak.iter().enumerate() {
        println!(
            "node {} peak RSS {:.1} MiB, with {} live games and {} WebSockets on it ({} games in play in all)",
            i + 1,
            mib(peak.rss_kib),
            peak.live_games,
            peak.connections,
            peak.games_in_play
        );
    }
    for (i, text) in metrics.iter().enumerate() {
        let commits = histogram(text, "checkers_db_commit_seconds");
        let moves = histogram(text, "checkers_move_round_trip_seconds");
        if let (Some((commits, c50, c99)), Some((moves, m50, m99))) = (commits, moves) {
            println!(
                "node {} (its last process): {commits} commits, p50 <= {c50} ms, p99 <= {c99} ms; \
                 {moves} moves read to confirmed, p50 <= {m50} ms, p99 <= {m99} ms",
                i + 1
            );
        }
    }
    if let Some((count, before, with)) = idle {
        let each = with.saturating_sub(before) as f64 / count as f64;
        println!(
            "idle connections: {count} to node 1: RSS {:.1} MiB without, {:.1} MiB with, {each:.1} KiB each",
            mib(before),
            mib(with)
        );
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = options()?;
    let dir = tempfile::tempdir()?;
    let db = Database::new(o.db.as_deref(), dir.path()).await?;
    let count = o.nodes.unwrap_or(if o.db.is_some() { 3 } else { 1 });
    let cluster = Cluster::start(count, &checkers_binary()?, &db.url, dir.path())?;
    let addrs: Vec<_> = cluster.nodes.iter().map(|n| n.addr).collect();
    eprintln!(
        "chaos: {count} node{} ({}) on {}, {} games at a time for {} min, {}, seed {}; load average {}",
        if count == 1 { "" } else { "s" },
        addrs.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
        db.schema().map_or("SQLite".to_string(), |s| format!("PostgreSQL, schema {s}")),
        o.games,
        o.minutes,
        match o.kill_every {
            0 => "no node killed".to_string(),
            s => format!("a node killed every {s} s"),
        },
        o.seed,
        load_average()
    );
    let idle = match o.idle {
        0 => None,
        n => Some(idle_memory(&cluster.nodes[0], n).await.map(|(before, with)| (n, before, with))?),
    };
    let cluster = Arc::new(Mutex::new(cluster));
    let games = Arc::new(Games {
        nodes: Arc::new(Nodes { addrs, failover: true }),
        play: Arc::new(Play { ..o.play }),
        connecting: Arc::new(Semaphore::new(64)),
        stats: Arc::new(Mutex::new(Stats::default())),
        slots: o.games,
        until: Instant::now() + Duration::from_secs_f64(o.minutes * 60.0),
        in_play: AtomicUsize::new(0),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let conductor = conduct(cluster.clone(), games.clone(), &o, stop.clone());
    let started = Instant::now();
    let (told, failed, unseated) = play_out(&games).await?;
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let conducted = conductor.join().map_err(|_| anyhow::anyhow!("the conductor panicked"))?;
    let mut cluster =
        std::mem::replace(&mut *cluster.lock().unwrap_or_else(|e| e.into_inner()), Cluster::none());
    let metrics = cluster.metrics();
    cluster.stop_all();
    let own_cpu = nodes::cpu_seconds("self").unwrap_or(0.0);

    let store = Store::open(&db.url).await?;
    let check = Check::run(&store, &told, true).await?;
    store.close().await;
    let stats = std::mem::take(&mut *games.stats.lock().unwrap_or_else(|e| e.into_inner()));
    let given_up: HashSet<String> = stats.given_up.iter().cloned().collect();
    let scan = scan(&db, &told, &given_up).await?;
    print_figures(&stats, told.len() + unseated, failed, elapsed, "untimed");
    print_failover(&stats, o.play.watchers);
    print_nodes(&cluster, &metrics, idle);
    let cpu: Vec<_> =
        cluster.cpu.iter().enumerate().map(|(i, s)| format!("node {} {s:.0} s", i + 1)).collect();
    println!(
        "CPU time: {}, the load generator {own_cpu:.0} s, in {:.0} s of {} cores",
        cpu.join(", "),
        elapsed.as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    check.print();
    println!(
        "database: {} games; {} finished games checked, {} not finished; {} made but never answered (waiting, no move); \
         {} unexplained",
        scan.games,
        check.checked - check.unfinished,
        check.unfinished,
        scan.unheard,
        scan.unexplained.len()
    );
    for game in scan.unexplained.iter().take(10) {
        println!("  unexplained: {game}");
    }
    println!("load average at the end: {}", load_average());
    let sound = check.sound() && check.extra == 0 && check.unfinished == 0 && failed == 0;
    if let Err(e) = conducted {
        eprintln!("chaos: killing and restarting nodes failed: {e:#}");
    } else if sound && scan.unexplained.is_empty() {
        db.drop_schema().await?;
        println!("chaos: every game finished, no confirmed move lost or doubled");
        return Ok(());
    }
    let logs = dir.keep();
    bail!("the database does not match what the clients were told (nodes' logs in {})", logs.display())
}
