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
//! doubled.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_server::{start, Config, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    games: usize,
    plies: u64,
    think_ms: u64,
    addr: Option<String>,
    db: Option<String>,
    rated: bool,
    timed: bool,
}

fn options() -> anyhow::Result<Options> {
    let mut o =
        Options { games: 1000, plies: 40, think_ms: 1000, addr: None, db: None, rated: false, timed: false };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => o.games = value()?.parse().context("--games")?,
            "--plies" => o.plies = value()?.parse().context("--plies")?,
            "--think-ms" => o.think_ms = value()?.parse().context("--think-ms")?,
            "--addr" => o.addr = Some(value()?),
            "--db" => o.db = Some(value()?),
            "--rated" => o.rated = true,
            "--timed" => o.timed = true,
            other => bail!(
                "unknown option {other} (--games N --plies N --think-ms MS [--timed | --rated] [--addr A --db URL])"
            ),
        }
    }
    if o.addr.is_some() != o.db.is_some() {
        bail!("--addr and --db go together (the database of that server is checked)");
    }
    Ok(o)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to the server, from the loopback address of game `index` if the server is on
/// loopback, with a small read buffer (the default 128 KiB is zeroed on every read) and no
/// Nagle delay, as a browser has.
async fn connect(addr: SocketAddr, index: u64, cookie: Option<&str>) -> anyhow::Result<Socket> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    if addr.ip().is_loopback() {
        let own = Ipv4Addr::from(u32::from(Ipv4Addr::new(127, 1, 0, 0)) + index as u32);
        socket.bind(SocketAddr::from((own, 0)))?;
    }
    let tcp = socket.connect(addr).await?;
    tcp.set_nodelay(true)?;
    let config = Some(WebSocketConfig::default().read_buffer_size(16 * 1024));
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
    let mut request = format!("ws://{addr}/ws").into_client_request()?;
    if let Some(cookie) = cookie {
        request.headers_mut().insert("cookie", cookie.parse()?);
    }
    Ok(tokio_tungstenite::client_async_with_config(request, stream, config).await?.0)
}

async fn request(ws: &mut Socket, message: Value) -> anyhow::Result<Value> {
    ws.send(Message::Text(message.to_string().into())).await?;
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(t.as_str())?;
                if v["t"] == "seated" || v["t"] == "error" {
                    return Ok(v);
                }
            }
            Some(Ok(_)) => {}
            _ => bail!("connection closed"),
        }
    }
}

/// A small deterministic generator for think times and move choice.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

struct Stats {
    round_trips_us: Vec<u64>,
    /// Round trips of the resignations that end the games.
    ends_us: Vec<u64>,
    errors: u64,
}

/// One player: moves when it is its turn until the game reaches `plies`; returns the moves the
/// server confirmed to it (ply, text).
async fn player(
    mut ws: Socket,
    game: String,
    token: String,
    color: String,
    o: Arc<Options>,
    seed: u64,
    stats: Arc<Mutex<Stats>>,
) -> anyhow::Result<Vec<(u64, String)>> {
    let mut rng = Rng(seed | 1);
    let mut confirmed = Vec::new();
    let mut pending: Option<(u64, u64, String, Instant)> = None; // id, ply, text, sent
    let mut next_id = 1u64;
    let mut moved_at_ply: Option<u64> = None;
    let mut round_trips = Vec::new();
    let mut ends = Vec::new();
    let mut resigned: Option<(u64, Instant)> = None;
    let mut errors = 0;
    loop {
        let Some(message) = ws.next().await else { break };
        let Message::Text(text) = message? else { continue };
        let v: Value = serde_json::from_str(text.as_str())?;
        match v["t"].as_str() {
            Some("state") => {
                let g = &v["game"];
                let ply = g["ply"].as_u64().unwrap_or(0);
                if g["status"] == "waiting" {
                    continue;
                }
                let to_move = g["turn"] == json!(color);
                if g["status"] == "playing"
                    && ply >= o.plies
                    && to_move
                    && pending.is_none()
                    && resigned.is_none()
                {
                    let id = next_id;
                    next_id += 1;
                    resigned = Some((id, Instant::now()));
                    let message = json!({"t": "resign", "id": id, "game": game, "token": token});
                    ws.send(Message::Text(message.to_string().into())).await?;
                    continue;
                }
                if g["status"] != "playing" || ply >= o.plies {
                    if pending.is_none() && resigned.is_none() {
                        break;
                    }
                    continue;
                }
                if g["turn"] != json!(color) || pending.is_some() || moved_at_ply == Some(ply) {
                    continue;
                }
                let legal = g["legal"].as_array().cloned().unwrap_or_default();
                if legal.is_empty() {
                    continue;
                }
                let choice = &legal[(rng.next() % legal.len() as u64) as usize];
                let think = o.think_ms / 2 + rng.next() % (o.think_ms + 1);
                tokio::time::sleep(Duration::from_millis(think)).await;
                let id = next_id;
                next_id += 1;
                let message = json!({"t": "move", "id": id, "game": game, "token": token, "from": choice["from"],
                                     "to": choice["to"], "captured": choice["captured"], "ply": ply});
                pending = Some((id, ply, choice["text"].as_str().unwrap_or("").to_string(), Instant::now()));
                moved_at_ply = Some(ply);
                ws.send(Message::Text(message.to_string().into())).await?;
            }
            Some("ok") if resigned.is_some_and(|(id, _)| v["re"] == json!(id)) => {
                if let Some((_, sent)) = resigned {
                    ends.push(sent.elapsed().as_micros() as u64);
                }
                break;
            }
            Some("ok") => {
                if let Some((id, ply, text, sent)) = pending.take() {
                    if v["re"] == json!(id) {
                        round_trips.push(sent.elapsed().as_micros() as u64);
                        confirmed.push((ply, text));
                    } else {
                        pending = Some((id, ply, text, sent));
                    }
                }
            }
            Some("error") => {
                errors += 1;
                if pending.as_ref().is_some_and(|p| v["re"] == json!(p.0)) {
                    pending = None;
                }
                if resigned.is_some_and(|(id, _)| v["re"] == json!(id)) {
                    break;
                }
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
    s.round_trips_us.extend(round_trips);
    s.ends_us.extend(ends);
    s.errors += errors;
    Ok(confirmed)
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

async fn one_game(
    addr: SocketAddr,
    o: Arc<Options>,
    index: u64,
    cookies: Option<[String; 2]>,
    connecting: Arc<Semaphore>,
    stats: Arc<Mutex<Stats>>,
) -> anyhow::Result<(String, Vec<(u64, String)>)> {
    let cookie = |i: usize| cookies.as_ref().map(|c| c[i].as_str());
    let (mut a, mut b) = {
        let _permit = connecting.acquire().await?;
        (connect(addr, index, cookie(0)).await?, connect(addr, index, cookie(1)).await?)
    };
    let mut create =
        json!({"t": "create", "opponent": "friend", "color": "black", "name": format!("load {index}")});
    if o.rated || o.timed {
        create["clock"] = json!({"base": 600, "increment": 5});
    }
    if o.rated {
        create["rated"] = json!(true);
    }
    let created = request(&mut a, create).await?;
    let game = created["game"].as_str().context("create failed")?.to_string();
    let invite = created["invite"].as_str().context("a friend game's invitation")?;
    let joined = request(&mut b, json!({"t": "join", "game": game, "invite": invite})).await?;
    if joined["t"] != "seated" {
        bail!("join failed: {joined}");
    }
    let black = tokio::spawn(player(
        a,
        game.clone(),
        created["token"].as_str().unwrap_or("").into(),
        "black".into(),
        o.clone(),
        index * 2 + 1,
        stats.clone(),
    ));
    let white = tokio::spawn(player(
        b,
        game.clone(),
        joined["token"].as_str().unwrap_or("").into(),
        "white".into(),
        o.clone(),
        index * 2 + 2,
        stats,
    ));
    let mut moves = black.await??;
    moves.extend(white.await??);
    moves.sort();
    Ok((game, moves))
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = Arc::new(options()?);
    let dir = tempfile::tempdir()?;
    let (addr, db, running) = match (&o.addr, &o.db) {
        (Some(addr), Some(db)) => (addr.parse::<SocketAddr>().context("--addr")?, db.clone(), None),
        _ => {
            let db = dir.path().join("load.db").display().to_string();
            let running = start(&Config {
                addr: "127.0.0.1:0".into(),
                db: db.clone(),
                engine_threads: Some(1),
                ..Default::default()
            })
            .await?;
            (running.addr, db, Some(running))
        }
    };
    eprintln!("loadtest: {} games of {} plies, think {} ms, server {addr}", o.games, o.plies, o.think_ms);
    let mut cookies = Vec::new();
    if o.rated {
        let store = Store::open(&db).await?;
        for i in 0..o.games as u64 {
            cookies.push(Some(make_accounts(&store, i).await?));
        }
        store.close().await;
    }
    cookies.resize(o.games, None);
    let stats = Arc::new(Mutex::new(Stats { round_trips_us: Vec::new(), ends_us: Vec::new(), errors: 0 }));
    let connecting = Arc::new(Semaphore::new(64));
    let started = Instant::now();
    let tasks: Vec<_> = (0..o.games as u64)
        .zip(cookies)
        .map(|(i, cookies)| {
            tokio::spawn(one_game(addr, o.clone(), i, cookies, connecting.clone(), stats.clone()))
        })
        .collect();
    let mut told: HashMap<String, Vec<(u64, String)>> = HashMap::new();
    let mut failed = 0;
    for task in tasks {
        match task.await? {
            Ok((game, moves)) => {
                told.insert(game, moves);
            }
            Err(e) => {
                failed += 1;
                eprintln!("loadtest: a game failed: {e:#}");
            }
        }
    }
    let elapsed = started.elapsed();

    // Every game in the database against what its clients were told.
    let store = Store::open(&db).await?;
    let (mut lost, mut doubled, mut extra, mut checked) = (0usize, 0usize, 0usize, 0usize);
    for (game, moves) in &told {
        let stored = store.move_records(game).await?;
        checked += 1;
        for (ply, text) in moves {
            match stored.iter().filter(|r| u64::from(r.ply) == *ply).count() {
                0 => lost += 1,
                1 => {}
                _ => doubled += 1,
            }
            if stored.iter().any(|r| u64::from(r.ply) == *ply && &r.pdn != text) {
                lost += 1;
            }
        }
        // Moves stored that nobody was told of (possible only if a reply was lost in transit).
        extra += stored.len().saturating_sub(moves.len());
    }
    if let Some(running) = running {
        running.stop().await?;
    }
    let s = stats.lock().unwrap_or_else(|e| e.into_inner());
    let mut rtt = s.round_trips_us.clone();
    rtt.sort_unstable();
    let total_moves = rtt.len();
    println!("games {} (failed {failed}), moves confirmed {total_moves}, errors {}", o.games, s.errors);
    println!(
        "elapsed {:.1} s, {:.0} moves/s",
        elapsed.as_secs_f64(),
        total_moves as f64 / elapsed.as_secs_f64().max(0.001)
    );
    println!(
        "move round trip ms: p50 {:.2}  p90 {:.2}  p95 {:.2}  p99 {:.2}  max {:.2}",
        percentile(&rtt, 50.0),
        percentile(&rtt, 90.0),
        percentile(&rtt, 95.0),
        percentile(&rtt, 99.0),
        percentile(&rtt, 100.0)
    );
    let mut ends = s.ends_us.clone();
    ends.sort_unstable();
    println!(
        "game end ({}, {} games) round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        if o.rated {
            "rated"
        } else if o.timed {
            "timed"
        } else {
            "untimed"
        },
        ends.len(),
        percentile(&ends, 50.0),
        percentile(&ends, 90.0),
        percentile(&ends, 99.0),
        percentile(&ends, 100.0)
    );
    println!("database check: {checked} games, {lost} moves lost or different, {doubled} doubled, {extra} unconfirmed extra");
    if lost > 0 || doubled > 0 || failed > 0 {
        bail!("the database does not match what the clients were told");
    }
    Ok(())
}
