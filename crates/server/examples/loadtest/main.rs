//! Load generator: many concurrent human-against-human games over WebSockets on loopback, then
//! a check of every game in the database against what the clients were told.
//!
//! ```text
//! cargo run --release -p checkers-server --example loadtest -- --games 1000 --plies 40 --think-ms 1000
//! ```
//!
//! By default it starts a server in this process on a fresh SQLite file; `--addr HOST:PORT
//! --db URL` drives a server started elsewhere (`checkers serve`) and checks its database.
//! Each game has two clients, who play a friend game (joined with its invitation); the side to
//! move waits `--think-ms` (varied ±50%), sends a legal move and times the round trip until the
//! server confirms it (after the commit). On a loopback server each game's clients connect
//! from an address of their own (127.1.x.y), as players on many machines would: the server's
//! quotas and limits count per address.
//! Once a game has its `--plies` moves, the side to move resigns, and the round trip of that
//! resignation (the game's end) is timed apart. With `--rated` both players are accounts
//! (made in the database beforehand, logged in by their session cookies) and the game is rated
//! on a 10+5 clock, so its end commits both players' new ratings with the result; `--timed`
//! plays the same games on the same clock, unrated, to compare with.
//! It prints the move and game-end round-trip percentiles and the number of moves lost or
//! doubled. `--first I` numbers the games from I (their addresses and names follow the
//! number), so several load generators can drive one server apart: a process holds at most
//! as many sockets as its open-file limit allows.
//!
//! **Several nodes.** `--nodes A1,A2,A3 --db postgres://...` drives the `checkers serve` nodes
//! of one cluster: game N's Black is on node N, its White on node N+1, so every move crosses
//! nodes, and `--watchers` adds a spectator on node N+2 (the node neither player uses, with
//! three nodes) and times how long after the mover's confirmation it sees each move (the
//! "watch latency"). A client whose connection drops (its node died) connects to the next
//! node that answers, follows its game again with its seat token and carries on: a move in
//! flight is sent again if the game shows it was not committed, and counted as recovered if
//! it was. A move refused `unavailable` or `storage` (its game changing owner) is sent again
//! after a short pause, and a move's round trip runs from its first sending to its
//! confirmation; a game that does not move on for minutes fails. On top of the figures above
//! it prints the reconnections and the other failover counts, the watch latency, and the
//! games not finished in the database (it fails on any).

mod check;
mod play;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context};
use checkers_server::{start, Config, Store};
use tokio::sync::Semaphore;

use check::{print_failover, print_figures, Check};
use play::{one_game, Nodes, Play, Stats};

struct Options {
    games: usize,
    /// The first game's index (its clients' addresses and names follow it).
    first: u64,
    play: Play,
    addr: Option<String>,
    nodes: Option<Vec<String>>,
    db: Option<String>,
}

fn options() -> anyhow::Result<Options> {
    let play = Play { plies: 40, think_ms: 1000, rated: false, timed: false, watchers: false };
    let mut o = Options { games: 1000, first: 0, play, addr: None, nodes: None, db: None };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => o.games = value()?.parse().context("--games")?,
            "--first" => o.first = value()?.parse().context("--first")?,
            "--plies" => o.play.plies = value()?.parse().context("--plies")?,
            "--think-ms" => o.play.think_ms = value()?.parse().context("--think-ms")?,
            "--addr" => o.addr = Some(value()?),
            "--nodes" => o.nodes = Some(value()?.split(',').map(str::to_string).collect()),
            "--db" => o.db = Some(value()?),
            "--rated" => o.play.rated = true,
            "--timed" => o.play.timed = true,
            "--watchers" => o.play.watchers = true,
            other => bail!(
                "unknown option {other} (--games N [--first I] --plies N --think-ms MS [--timed | --rated] [--watchers] \
                 [--addr A --db URL | --nodes A1,A2,A3 --db URL])"
            ),
        }
    }
    if o.addr.is_some() && o.nodes.is_some() {
        bail!("--addr is one server, --nodes several: not both");
    }
    if (o.addr.is_some() || o.nodes.is_some()) != o.db.is_some() {
        bail!("--addr (or --nodes) and --db go together (the database of that server is checked)");
    }
    Ok(o)
}

/// The session cookies of game `index`'s two players (Black, White) in a rated run: accounts
/// made straight in the database (their password is no concern here).
async fn make_accounts(store: &Store, index: u64) -> anyhow::Result<[String; 2]> {
    use checkers_server::store::{SessionRow, StoredAccount};
    use checkers_server::token::{hash_token, new_account_id, new_session_token};
    let now = checkers_server::store::now_ms();
    let mut cookies = Vec::new();
    for side in ["b", "w"] {
        let name = format!("load_{index}_{side}");
        let id = new_account_id();
        let token = new_session_token();
        let account = StoredAccount { id, name: name.clone(), password_hash: "-".into(), created_ms: now };
        let session = SessionRow {
            token_hash: hash_token(&token),
            account: id,
            created_ms: now,
            expires_ms: now + 86_400_000,
        };
        store.create_account(account, name.to_ascii_lowercase(), session).await?;
        cookies.push(format!("checkers_session={token}"));
    }
    Ok([cookies[0].clone(), cookies[1].clone()])
}

/// The servers to drive and their database: those given, or one started in this process on
/// a fresh SQLite file in `dir`.
async fn servers(
    o: &Options,
    dir: &tempfile::TempDir,
) -> anyhow::Result<(Nodes, String, Option<checkers_server::Running>)> {
    let parse = |a: &String| a.parse::<SocketAddr>().with_context(|| format!("the address {a}"));
    match (&o.addr, &o.nodes, &o.db) {
        (Some(addr), None, Some(db)) => {
            Ok((Nodes { addrs: vec![parse(addr)?], failover: false }, db.clone(), None))
        }
        (None, Some(nodes), Some(db)) => {
            let addrs = nodes.iter().map(parse).collect::<anyhow::Result<_>>()?;
            Ok((Nodes { addrs, failover: true }, db.clone(), None))
        }
        _ => {
            let db = dir.path().join("load.db").display().to_string();
            let running = start(&Config {
                addr: "127.0.0.1:0".into(),
                db: db.clone(),
                engine_threads: Some(1),
                ..Default::default()
            })
            .await?;
            Ok((Nodes { addrs: vec![running.addr], failover: false }, db, Some(running)))
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = options()?;
    let dir = tempfile::tempdir()?;
    let (nodes, db, running) = servers(&o, &dir).await?;
    let servers = nodes.addrs.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ");
    let p = &o.play;
    let noun = if nodes.failover { "nodes" } else { "server" };
    eprintln!("loadtest: {} games of {} plies, think {} ms, {noun} {servers}", o.games, p.plies, p.think_ms);
    let mut cookies = Vec::new();
    if p.rated {
        let store = Store::open(&db).await?;
        for i in o.first..o.first + o.games as u64 {
            cookies.push(Some(make_accounts(&store, i).await?));
        }
        store.close().await;
    }
    cookies.resize(o.games, None);
    let (nodes, play) = (Arc::new(nodes), Arc::new(o.play));
    let stats = Arc::new(Mutex::new(Stats::default()));
    let connecting = Arc::new(Semaphore::new(64));
    let started = Instant::now();
    let tasks: Vec<_> = (o.first..o.first + o.games as u64)
        .zip(cookies)
        .map(|(i, cookies)| {
            let game = one_game(nodes.clone(), play.clone(), i, cookies, connecting.clone(), stats.clone());
            tokio::spawn(game)
        })
        .collect();
    let mut told = HashMap::new();
    let mut failed = 0;
    for task in tasks {
        match task.await? {
            Ok(Some((game, played))) => {
                if let Some(failure) = &played.failure {
                    failed += 1;
                    eprintln!("loadtest: game {game} failed: {failure}");
                }
                told.insert(game, played);
            }
            Ok(None) => {}
            Err(e) => {
                failed += 1;
                eprintln!("loadtest: a game failed: {e:#}");
            }
        }
    }
    let elapsed = started.elapsed();

    // Every game in the database against what its clients were told.
    let store = Store::open(&db).await?;
    let check = Check::run(&store, &told, nodes.failover).await?;
    store.close().await;
    if let Some(running) = running {
        running.stop().await?;
    }
    let s = stats.lock().unwrap_or_else(|e| e.into_inner());
    let kind = if play.rated {
        "rated"
    } else if play.timed {
        "timed"
    } else {
        "untimed"
    };
    print_figures(&s, o.games, failed, elapsed, kind);
    if nodes.failover || play.watchers {
        print_failover(&s, play.watchers);
    }
    check.print();
    if nodes.failover {
        println!("games not finished in the database: {}", check.unfinished);
    }
    if !check.sound() || failed > 0 || check.unfinished > 0 {
        bail!("the database does not match what the clients were told");
    }
    Ok(())
}
