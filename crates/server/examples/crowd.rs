//! The computer opponents under a crowd: many clients, each from its own loopback address,
//! play level 9 as fast as the server's message limit lets them, while a probe client plays level 1 and times each of the
//! computer's replies and another plays level 9 on a 10-second clock.
//!
//! ```text
//! cargo run --release -p checkers-server --example crowd -- --clients 31 --games 4 --seconds 30
//! ```
//!
//! By default it starts a server in this process on a fresh SQLite file (its engine threads:
//! the number of CPUs); `--addr HOST:PORT` drives a server started elsewhere (`checkers
//! serve`). The crowd and the timed game play White, so the computer moves first; the probe
//! plays Black and moves first. Crowd client N connects from 127.0.0.(10+N) and keeps `--games` games going (a
//! refused game is counted and asked for again a second later); the probe (127.0.0.2) and the
//! timed game (127.0.0.3) start after `--warmup` seconds. `--offers N` adds N clients
//! (127.0.1.1 and on) offering the computer a draw over and over all along. It prints the level-1 reply times,
//! how each timed game ended and the crowd's own reply times and refusals.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_server::{start, Config};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

struct Options {
    clients: u8,
    games: usize,
    seconds: u64,
    warmup: u64,
    level: u8,
    offers: u8,
    addr: Option<String>,
}

fn options() -> anyhow::Result<Options> {
    let mut o = Options { clients: 31, games: 4, seconds: 30, warmup: 5, level: 9, offers: 0, addr: None };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--clients" => o.clients = value()?.parse().context("--clients (at most 200)")?,
            "--games" => o.games = value()?.parse().context("--games")?,
            "--seconds" => o.seconds = value()?.parse().context("--seconds")?,
            "--warmup" => o.warmup = value()?.parse().context("--warmup")?,
            "--level" => o.level = value()?.parse().context("--level")?,
            "--offers" => o.offers = value()?.parse().context("--offers")?,
            "--addr" => o.addr = Some(value()?),
            other => bail!(
                "unknown option {other} (--clients N --games N --seconds S --warmup S --level L --offers N [--addr A])"
            ),
        }
    }
    if o.clients > 200 {
        bail!("--clients: at most 200 (addresses 127.0.0.10 to 127.0.0.209)");
    }
    Ok(o)
}

/// Offers a draw to the computer over and over, as fast as the server's message limit lets
/// it, in a game where it declines (the start: too early); returns the offers answered.
async fn offer_draws(addr: SocketAddr, from: Ipv4Addr, until: Instant) -> anyhow::Result<u64> {
    let mut peer = Peer::connect(addr, from).await?;
    let request = json!({"t": "create", "opponent": "computer", "level": 9, "color": "black"});
    let Ok((game, token)) = peer.create(request).await? else { bail!("the draw offerer's game was refused") };
    let mut answered = 0;
    while Instant::now() < until {
        let sent = Instant::now();
        let id = peer.send(json!({"t": "draw", "game": game, "token": token, "action": "offer"})).await?;
        loop {
            let Ok(Ok(reply)) = tokio::time::timeout_at(until.into(), peer.next()).await else {
                return Ok(answered);
            };
            if reply["re"] == json!(id) || reply["t"] == "error" && reply["re"].is_null() {
                break;
            }
        }
        answered += 1;
        tokio::time::sleep_until((sent + MOVE_GAP).into()).await;
    }
    Ok(answered)
}

/// The least time between one player's moves: the server takes 20 messages a second.
const MOVE_GAP: Duration = Duration::from_millis(60);

/// A small deterministic generator for the players' move choices.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One WebSocket connection from a loopback address of its own.
struct Peer {
    ws: WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>,
    next_id: u64,
    rng: Rng,
}

impl Peer {
    async fn connect(addr: SocketAddr, from: Ipv4Addr) -> anyhow::Result<Peer> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::from((from, 0))).context("bind to a loopback address")?;
        let tcp = socket.connect(addr).await.context("connect")?;
        let _ = tcp.set_nodelay(true);
        let (ws, _) =
            tokio_tungstenite::client_async(format!("ws://{addr}/ws"), MaybeTlsStream::Plain(tcp)).await?;
        Ok(Peer { ws, next_id: 1, rng: Rng((u64::from(u32::from(from)) * 0x9E37_79B9_7F4A_7C15) | 1) })
    }

    async fn send(&mut self, mut message: Value) -> anyhow::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        message["id"] = json!(id);
        self.ws.send(Message::Text(message.to_string().into())).await?;
        Ok(id)
    }

    async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(text.as_str())?),
                Some(Ok(_)) => continue,
                _ => bail!("connection closed"),
            }
        }
    }

    /// Creates a game against the computer; returns the game and token, or the refusal's code.
    async fn create(&mut self, request: Value) -> anyhow::Result<Result<(String, String), String>> {
        let id = self.send(request).await?;
        loop {
            let reply = self.next().await?;
            // A refusal for sending too fast names no request.
            if reply["re"] == json!(id) || (reply["t"] == "error" && reply["re"].is_null()) {
                if reply["t"] == "seated" {
                    return Ok(Ok((
                        reply["game"].as_str().unwrap_or("").into(),
                        reply["token"].as_str().unwrap_or("").into(),
                    )));
                }
                return Ok(Err(reply["code"].as_str().unwrap_or("?").to_string()));
            }
        }
    }

    /// Plays a random legal move in `state`.
    async fn play(&mut self, game: &str, token: &str, state: &Value) -> anyhow::Result<()> {
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return Ok(());
        }
        let choice = &legal[self.rng.below(legal.len())];
        let ply = state["ply"].clone();
        self.send(
            json!({"t": "move", "game": game, "token": token, "from": choice["from"], "to": choice["to"],
                         "captured": choice["captured"], "ply": ply}),
        )
        .await?;
        Ok(())
    }
}

#[derive(Default)]
struct Tally {
    /// How long the computer took to answer each move (from sending it to the answer's state).
    replies_ms: Vec<u64>,
    /// Moves still unanswered when the run ended, and how long they had waited.
    unanswered_ms: Vec<u64>,
    refusals: Vec<String>,
    /// How each timed game ended (or stood at the end).
    endings: Vec<String>,
}

/// Plays games against the computer as `create` asks until `until`, as fast as it may; each
/// game's end goes to `endings` when `describe` says how it went.
async fn play_games(
    addr: SocketAddr,
    from: Ipv4Addr,
    create: Value,
    until: Instant,
    tally: Arc<Mutex<Tally>>,
    describe: Option<fn(&Value) -> String>,
) -> anyhow::Result<()> {
    let mut peer = Peer::connect(addr, from).await?;
    while Instant::now() < until {
        let Ok(created) = tokio::time::timeout_at(until.into(), peer.create(create.clone())).await else {
            break;
        };
        let (game, token) = match created? {
            Ok(seated) => seated,
            Err(code) => {
                tally.lock().unwrap_or_else(|e| e.into_inner()).refusals.push(code);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let mut sent: Option<(u64, Instant)> = None;
        let mut last = Value::Null;
        let mut last_move = Instant::now() - MOVE_GAP;
        while Instant::now() < until {
            let Ok(Ok(message)) = tokio::time::timeout_at(until.into(), peer.next()).await else { break };
            if message["t"] == "error" {
                // A refused move (too many messages, say): the same turn is played again.
                sent = None;
                tokio::time::sleep(Duration::from_millis(200)).await;
            } else if message["t"] == "state" {
                let state = &message["game"];
                let ply = state["ply"].as_u64().unwrap_or(0);
                if let Some((moved_at, at)) = sent {
                    if ply > moved_at + 1 || state["status"] == "finished" {
                        let took = at.elapsed().as_millis() as u64;
                        tally.lock().unwrap_or_else(|e| e.into_inner()).replies_ms.push(took);
                        sent = None;
                    }
                }
                last = state.clone();
            } else {
                continue;
            }
            if last["status"] == "finished" {
                break;
            }
            if last["turn"] == create["color"] && sent.is_none() {
                // Within the server's limit of messages a second.
                tokio::time::sleep_until((last_move + MOVE_GAP).into()).await;
                peer.play(&game, &token, &last).await?;
                last_move = Instant::now();
                sent = Some((last["ply"].as_u64().unwrap_or(0), last_move));
            }
        }
        if let Some((_, at)) = sent {
            tally
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .unanswered_ms
                .push(at.elapsed().as_millis() as u64);
        }
        if let Some(describe) = describe {
            tally.lock().unwrap_or_else(|e| e.into_inner()).endings.push(describe(&last));
        }
    }
    let _ = peer.ws.close(None).await;
    Ok(())
}

fn timed_ending(state: &Value) -> String {
    let clock = &state["clock"];
    format!(
        "{} at ply {} ({}{}), computer's clock {} ms",
        state["status"].as_str().unwrap_or("?"),
        state["ply"],
        state["result"].as_str().unwrap_or("no result"),
        state["reason"].as_str().map(|r| format!(", {r}")).unwrap_or_default(),
        clock["black_ms"]
    )
}

fn percentiles(name: &str, tally: &Tally) {
    let mut ms = tally.replies_ms.clone();
    let unanswered = match tally.unanswered_ms.iter().max() {
        Some(longest) => {
            format!("; {} unanswered at the end, after up to {longest} ms", tally.unanswered_ms.len())
        }
        None => String::new(),
    };
    if ms.is_empty() {
        println!("{name}: no replies{unanswered}");
        return;
    }
    ms.sort_unstable();
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name}: {} replies, p50 {} ms, p90 {} ms, max {} ms{unanswered}",
        ms.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = options()?;
    let dir = tempfile::tempdir()?;
    let (addr, running) = match &o.addr {
        Some(addr) => (addr.parse().context("--addr")?, None),
        None => {
            let db = dir.path().join("crowd.db").display().to_string();
            let running =
                start(&Config { addr: "127.0.0.1:0".into(), db, engine_threads: None, ..Default::default() })
                    .await?;
            (running.addr, Some(running))
        }
    };
    let begun = Instant::now();
    let until = begun + Duration::from_secs(o.seconds);
    let crowd = Arc::new(Mutex::new(Tally::default()));
    let mut tasks = Vec::new();
    for client in 0..o.clients {
        for _ in 0..o.games {
            let request = json!({"t": "create", "opponent": "computer", "level": o.level, "color": "white"});
            let from = Ipv4Addr::new(127, 0, 0, 10 + client);
            tasks.push(tokio::spawn(play_games(addr, from, request, until, crowd.clone(), None)));
        }
    }
    let offerers: Vec<_> =
        (1..=o.offers).map(|n| tokio::spawn(offer_draws(addr, Ipv4Addr::new(127, 0, 1, n), until))).collect();
    tokio::time::sleep(Duration::from_secs(o.warmup)).await;
    let probe = Arc::new(Mutex::new(Tally::default()));
    // The probe moves first (English: Black), so every computer move it sees is a reply.
    let level1 = json!({"t": "create", "opponent": "computer", "level": 1, "color": "black"});
    let from = Ipv4Addr::new(127, 0, 0, 2);
    tasks.push(tokio::spawn(play_games(addr, from, level1, until, probe.clone(), None)));
    let timed = Arc::new(Mutex::new(Tally::default()));
    // The timed game's computer moves first: its clock runs from the start.
    let clocked = json!({"t": "create", "opponent": "computer", "level": 9, "color": "white", "clock": {"base": 10, "increment": 0}});
    let from = Ipv4Addr::new(127, 0, 0, 3);
    tasks.push(tokio::spawn(play_games(addr, from, clocked, until, timed.clone(), Some(timed_ending))));
    for task in tasks {
        if let Err(e) = task.await? {
            eprintln!("a player stopped: {e:#}");
        }
    }
    let mut offers = 0;
    for offerer in offerers {
        match offerer.await? {
            Ok(answered) => offers += answered,
            Err(e) => eprintln!("a draw offerer stopped: {e:#}"),
        }
    }
    let take = |t: &Arc<Mutex<Tally>>| std::mem::take(&mut *t.lock().unwrap_or_else(|e| e.into_inner()));
    let (crowd, probe, timed) = (take(&crowd), take(&probe), take(&timed));
    println!(
        "{} crowd clients x {} games at level {}, {} s (probe and timed game after {} s)",
        o.clients, o.games, o.level, o.seconds, o.warmup
    );
    percentiles("level 1 (probe)", &probe);
    percentiles("level 9 on a 10 s clock", &timed);
    for ending in timed.endings {
        println!("  timed game: {ending}");
    }
    percentiles(&format!("crowd (level {})", o.level), &crowd);
    let mut codes = crowd.refusals.clone();
    codes.dedup();
    println!("crowd refusals: {} {:?}", crowd.refusals.len(), codes);
    if o.offers > 0 {
        println!("draw offers answered: {offers} from {} clients", o.offers);
    }
    if let Some(running) = running {
        running.stop().await?;
    }
    Ok(())
}
