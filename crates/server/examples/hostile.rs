//! Hostile clients: replays, against a running server, every attack that once broke it, and
//! prints for each what held, with figures.
//!
//! ```text
//! checkers serve --addr 127.0.0.1:8080 --db /tmp/hostile.db &
//! ulimit -n 4096   # the slowloris attack holds hundreds of connections
//! cargo run --release -p checkers-server --example hostile -- 127.0.0.1:8080 --pid $!
//! ```
//!
//! The attacks, numbered as the server's hardening issue lists them: (1) a crowd of level-9
//! computer games while another client plays level 1 on a 10-second clock; (2) a stranger
//! reading the lists for a friend game and taking its seat; (3) one address creating games as
//! fast as it can; (4) slowloris and silent connections; (5) twenty clients asking for a
//! finished game's lines in a loop while another asks for six; (6) draw offers to the
//! computer in a loop; (7) twenty clients reading `/api/games` in a loop; (8) the protocol's
//! small print (ids echoed in refusals, close codes, strict move text, large ids, `nosniff`,
//! other sites' pages). Against a server on this machine's IPv4 loopback each attacker and each
//! bystander connects from a loopback address of its own (127.0.0.N), as distinct clients
//! would; against another address they all share this machine's.
//!
//! Options: `--only 1,4,8` runs some attacks; `--seconds S` (10) is how long the loops run;
//! `--crowd N` (100) level-9 games; `--flood N` (10,000) games at most; `--slow N` (300) slow
//! connections and `--slow-wait S` (15) how long they are watched; `--pid PID` reports the
//! server's memory (on Linux, from /proc). A server that was attacked keeps the games made: use
//! a database of its own.

#[path = "../tests/raw/mod.rs"]
mod raw;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// How long any one answer is waited for.
const PATIENCE: Duration = Duration::from_secs(60);

struct Options {
    addr: SocketAddr,
    only: Option<Vec<u32>>,
    seconds: u64,
    crowd: usize,
    flood: usize,
    slow: usize,
    slow_wait: u64,
    pid: Option<u32>,
}

fn options() -> anyhow::Result<Options> {
    let mut args = std::env::args().skip(1);
    let usage = "hostile ADDR [--only 1,4,8] [--seconds S] [--crowd N] [--flood N] [--slow N] [--slow-wait S] [--pid PID]";
    let addr = args.next().context(usage)?.parse().context("ADDR is HOST:PORT, e.g. 127.0.0.1:8080")?;
    let mut o = Options {
        addr,
        only: None,
        seconds: 10,
        crowd: 100,
        flood: 10_000,
        slow: 300,
        slow_wait: 15,
        pid: None,
    };
    while let Some(flag) = args.next() {
        let value = args.next().with_context(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().with_context(|| format!("{flag} {value}"));
        match flag.as_str() {
            "--only" => o.only = Some(value.split(',').map(|n| n.trim().parse()).collect::<Result<_, _>>()?),
            "--seconds" => o.seconds = number()?,
            "--crowd" => o.crowd = number()? as usize,
            "--flood" => o.flood = number()? as usize,
            "--slow" => o.slow = number()? as usize,
            "--slow-wait" => o.slow_wait = number()?,
            "--pid" => o.pid = Some(number()? as u32),
            _ => bail!("unknown option {flag}: {usage}"),
        }
    }
    Ok(o)
}

/// Where client `n` connects from: 127.0.0.`n` when the server is on the IPv4 loopback.
fn source(addr: SocketAddr, n: u8) -> Option<[u8; 4]> {
    (addr.ip().is_loopback() && addr.is_ipv4()).then_some([127, 0, 0, n])
}

/// Counts of outcomes by name.
#[derive(Default)]
struct Tally(Mutex<BTreeMap<String, usize>>);

impl Tally {
    fn add(&self, what: impl Into<String>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()).entry(what.into()).or_default() += 1;
    }
    fn get(&self, what: &str) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).get(what).copied().unwrap_or(0)
    }
    fn show(&self) -> String {
        let counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let parts: Vec<String> = counts.iter().map(|(what, n)| format!("{what} {n}")).collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Durations as `p50 X ms, max Y ms (N)`.
fn spread(durations: &[Duration]) -> String {
    if durations.is_empty() {
        return "none".into();
    }
    let mut ms: Vec<f64> = durations.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((p * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1];
    format!("p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms ({})", at(0.5), at(0.95), at(1.0), ms.len())
}

/// A WebSocket client that reports failures instead of panicking: refusals are results here.
struct Ws {
    ws: WebSocketStream<TcpStream>,
    next_id: u64,
}

impl Ws {
    async fn connect(addr: SocketAddr, from: Option<[u8; 4]>) -> anyhow::Result<Ws> {
        let tcp = raw::connect_from(addr, from).await?;
        tcp.set_nodelay(true)?;
        let (ws, _) =
            tokio::time::timeout(PATIENCE, tokio_tungstenite::client_async(format!("ws://{addr}/ws"), tcp))
                .await??;
        Ok(Ws { ws, next_id: 1 })
    }

    async fn send(&mut self, text: String) -> anyhow::Result<()> {
        Ok(self.ws.send(Message::Text(text.into())).await?)
    }

    /// The next JSON message.
    async fn next(&mut self) -> anyhow::Result<Value> {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await.context("no message in time")? {
                Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(text.as_str())?),
                Some(Ok(Message::Close(_))) | None => bail!("the server closed the connection"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// Sends `message` with a fresh id and returns the reply naming it (or a `rate_limited`
    /// refusal naming none, as servers that do not echo ids there answer).
    async fn request(&mut self, mut message: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        message["id"] = json!(id);
        self.send(message.to_string()).await?;
        loop {
            let reply = self.next().await?;
            if reply["re"] == json!(id) || (reply["code"] == "rate_limited" && reply["re"].is_null()) {
                return Ok(reply);
            }
        }
    }

    async fn state_where(&mut self, done: impl Fn(&Value) -> bool) -> anyhow::Result<Value> {
        loop {
            let message = self.next().await?;
            if message["t"] == "state" && done(&message["game"]) {
                return Ok(message["game"].clone());
            }
        }
    }
}

/// A seat in a game: its id and token, and its latest state.
struct Seat {
    game: String,
    token: String,
    state: Value,
}

/// A new game against the computer at `level`, the client playing Black (first in English),
/// on a `base`-second clock if given.
async fn computer_game(ws: &mut Ws, level: u8, base: Option<u32>) -> anyhow::Result<Seat> {
    let mut create = json!({"t": "create", "opponent": "computer", "level": level, "color": "black"});
    if let Some(base) = base {
        create["clock"] = json!({"base": base});
    }
    let seated = ws.request(create).await?;
    if seated["t"] != "seated" {
        bail!("{}", seated["code"].as_str().unwrap_or("refused"));
    }
    let state = ws.state_where(|_| true).await?;
    Ok(Seat {
        game: seated["game"].as_str().unwrap_or("").into(),
        token: seated["token"].as_str().unwrap_or("").into(),
        state,
    })
}

/// Plays the first legal move and waits for the computer's answer; returns how long it took.
async fn move_and_wait(ws: &mut Ws, seat: &mut Seat) -> anyhow::Result<Duration> {
    let ply = seat.state["ply"].as_u64().unwrap_or(0);
    let legal = &seat.state["legal"][0];
    let started = Instant::now();
    let reply = ws
        .request(json!({"t": "move", "game": seat.game, "token": seat.token, "from": legal["from"],
                        "to": legal["to"], "captured": legal["captured"], "ply": ply}))
        .await?;
    if reply["t"] != "ok" {
        bail!("move refused: {reply}");
    }
    seat.state = ws.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] != "playing").await?;
    Ok(started.elapsed())
}

/// A level-1 game played by a bystander for up to `moves` of its moves: the computer's answer
/// times, and how the game ended if it did.
struct Probe {
    answers: Vec<Duration>,
    ended: Option<String>,
}

impl Probe {
    fn lost_on_time(&self) -> bool {
        self.ended.as_deref() == Some("white lost on time")
    }
    fn show(&self) -> String {
        let ended = self.ended.as_deref().map(|e| format!("; the game ended: {e}")).unwrap_or_default();
        format!("level-1 answers {}{ended}", spread(&self.answers))
    }
}

async fn probe(
    addr: SocketAddr,
    from: Option<[u8; 4]>,
    moves: usize,
    base: Option<u32>,
) -> anyhow::Result<Probe> {
    let mut ws = Ws::connect(addr, from).await?;
    let mut seat = computer_game(&mut ws, 1, base).await?;
    let mut probe = Probe { answers: Vec::new(), ended: None };
    while probe.answers.len() < moves && seat.state["status"] == "playing" {
        probe.answers.push(move_and_wait(&mut ws, &mut seat).await?);
    }
    if seat.state["status"] == "playing" {
        let _ = ws.request(json!({"t": "resign", "game": seat.game, "token": seat.token})).await;
    } else {
        let loser = if seat.state["winner"] == "black" { "white" } else { "black" };
        probe.ended = Some(match seat.state["reason"].as_str() {
            Some("time") => format!("{loser} lost on time"),
            other => other.unwrap_or("?").to_string(),
        });
    }
    Ok(probe)
}

/// One of a crowd: plays games against the computer at `level` until `stop`.
async fn crowd_member(
    addr: SocketAddr,
    from: Option<[u8; 4]>,
    level: u8,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) {
    let Ok(mut ws) = Ws::connect(addr, from).await else { return tally.add("connections refused") };
    tally.add("connected");
    while !stop.load(Ordering::Relaxed) {
        let mut seat = match computer_game(&mut ws, level, None).await {
            Ok(seat) => seat,
            Err(e) => return tally.add(format!("create refused ({e})")),
        };
        tally.add("games started");
        while !stop.load(Ordering::Relaxed) && seat.state["status"] == "playing" {
            if move_and_wait(&mut ws, &mut seat).await.is_err() {
                return;
            }
        }
    }
}

/// What an attack found: whether the server held, and the figures.
struct Finding {
    held: bool,
    figures: String,
}

async fn engine_crowd(o: &Options) -> anyhow::Result<Finding> {
    let before = probe(o.addr, source(o.addr, 11), 5, None).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let crowd: Vec<_> = (0..o.crowd)
        .map(|_| tokio::spawn(crowd_member(o.addr, source(o.addr, 10), 9, stop.clone(), tally.clone())))
        .collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let during = probe(o.addr, source(o.addr, 12), 6, Some(10)).await;
    stop.store(true, Ordering::Relaxed);
    for member in crowd {
        member.abort();
    }
    let during = during?;
    let worst = during.answers.iter().max().copied().unwrap_or_default();
    Ok(Finding {
        held: worst < Duration::from_secs(2) && !during.lost_on_time(),
        figures: format!(
            "alone: {}; beside {} level-9 games from one address ({}): on a 10 s clock, {}",
            before.show(),
            o.crowd,
            tally.show(),
            during.show()
        ),
    })
}

/// A new friend game, its creator playing Black: the game, the creator's seat token, and the
/// invitation the link carries if the server gives one.
async fn friend_game(ws: &mut Ws) -> anyhow::Result<(String, String, Option<String>)> {
    let seated = ws.request(json!({"t": "create", "opponent": "friend", "color": "black"})).await?;
    let game = seated["game"].as_str().with_context(|| format!("friend game refused: {seated}"))?.to_string();
    let token = seated["token"].as_str().unwrap_or("").to_string();
    Ok((game, token, seated["invite"].as_str().map(str::to_string)))
}

/// Whether `game` appears in a list message or body.
fn lists(list: &Value, game: &str) -> bool {
    list["games"].as_array().is_some_and(|games| games.iter().any(|g| g["id"] == game))
}

async fn friend_snooping(o: &Options) -> anyhow::Result<Finding> {
    let mut host = Ws::connect(o.addr, source(o.addr, 20)).await?;
    let (game, _, invite) = friend_game(&mut host).await?;
    tokio::time::sleep(Duration::from_millis(1500)).await; // the games list is pushed once a second
    let mut stranger = Ws::connect(o.addr, source(o.addr, 21)).await?;
    let api = raw::get(o.addr, source(o.addr, 21), "/api/games", "").await;
    let in_api = serde_json::from_str(&api.body).is_ok_and(|body: Value| lists(&body, &game));
    let in_games = lists(&stranger.request(json!({"t": "games"})).await?, &game);
    let in_lobby = lists(&stranger.request(json!({"t": "lobby"})).await?, &game);
    let taken = stranger.request(json!({"t": "join", "game": game})).await?;
    let guessed = stranger.request(json!({"t": "join", "game": game, "invite": "0".repeat(32)})).await?;
    let mut friend = Ws::connect(o.addr, source(o.addr, 22)).await?;
    let joined = friend.request(json!({"t": "join", "game": game, "invite": invite})).await?;
    let answer =
        |reply: &Value| reply["code"].as_str().unwrap_or(reply["t"].as_str().unwrap_or("?")).to_string();
    let seen = [in_api, in_games, in_lobby].iter().filter(|&&seen| seen).count();
    Ok(Finding {
        held: seen == 0 && taken["t"] != "seated" && guessed["t"] != "seated" && joined["t"] == "seated",
        figures: format!(
            "listed in /api/games {in_api}, the games list {in_games}, the lobby {in_lobby}; the stranger's join by \
             id: {}, with a guessed invitation: {}; the invited friend's join: {}",
            answer(&taken),
            answer(&guessed),
            answer(&joined)
        ),
    })
}

/// The server's resident memory in MB, from /proc (Linux), if its process id was given.
fn rss_mb(pid: Option<u32>) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// Connections creating games at once in the flood.
const FLOODERS: usize = 50;

async fn game_flood(o: &Options) -> anyhow::Result<Finding> {
    let rss_before = rss_mb(o.pid);
    let made = Arc::new(AtomicU64::new(0));
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(o.seconds * 2);
    let flooders: Vec<_> = (0..FLOODERS)
        .map(|_| {
            let (made, tally, o_addr, flood) = (made.clone(), tally.clone(), o.addr, o.flood as u64);
            tokio::spawn(async move {
                let Ok(mut ws) = Ws::connect(o_addr, source(o_addr, 30)).await else {
                    return tally.add("connections refused");
                };
                while made.load(Ordering::Relaxed) < flood && Instant::now() < deadline {
                    match ws.request(json!({"t": "create", "opponent": "open", "name": "flood"})).await {
                        Ok(reply) if reply["t"] == "seated" => {
                            made.fetch_add(1, Ordering::Relaxed);
                            // Within the allowance of messages a second (the games are the point).
                            tokio::time::sleep(Duration::from_millis(60)).await;
                        }
                        Ok(reply) => {
                            tally.add(format!("refused {}", reply["code"].as_str().unwrap_or("?")));
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Err(_) => return tally.add("disconnected"),
                    }
                }
            })
        })
        .collect();
    for flooder in flooders {
        let _ = flooder.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let made = made.load(Ordering::Relaxed);
    let memory = match (rss_before, rss_mb(o.pid)) {
        (Some(before), Some(after)) => format!("; server memory {before:.0} -> {after:.0} MB"),
        _ => String::new(),
    };
    Ok(Finding {
        held: (made as usize) < o.flood
            && tally.0.lock().unwrap_or_else(|e| e.into_inner()).keys().any(|k| k.starts_with("refused")),
        figures: format!(
            "{made} games made by one address in {elapsed:.1} s ({:.0}/s); refusals: {}{memory}",
            made as f64 / elapsed.max(0.001),
            tally.show()
        ),
    })
}

async fn slowloris(o: &Options) -> anyhow::Result<Finding> {
    let wait = Duration::from_secs(o.slow_wait);
    let mut watchers = Vec::new();
    let opened = Instant::now();
    for i in 0..o.slow {
        let Ok(mut tcp) = raw::connect_from(o.addr, source(o.addr, 40)).await else { continue };
        // Half send the start of a request and stop; half send nothing at all.
        if i % 2 == 0 {
            let _ = tcp.write_all(b"GET / HTTP/1.1\r\nHost: slow\r\nX-Slow: ").await;
        }
        watchers.push(tokio::spawn(async move { raw::closed_within(&mut tcp, wait).await }));
    }
    let opening = opened.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let asked = Instant::now();
    let bystander = raw::get(o.addr, source(o.addr, 41), "/healthz", "").await;
    let bystander_ms = asked.elapsed().as_millis();
    let mut at_once = 0;
    let mut later = Vec::new();
    let mut open = 0;
    for watcher in watchers {
        match watcher.await? {
            Some(after) if after < Duration::from_secs(1) => at_once += 1,
            Some(after) => later.push(after),
            None => open += 1,
        }
    }
    let slowest = later.iter().max().map_or("-".to_string(), |d| format!("{:.1} s", d.as_secs_f64()));
    Ok(Finding {
        held: open == 0 && bystander.status == 200,
        figures: format!(
            "{} slow or silent connections from one address (opened in {:.1} s): {at_once} closed at once, {} closed \
             later (the last after {slowest}), {open} still open after {} s; another address's request: status {} in \
             {bystander_ms} ms",
            o.slow,
            opening.as_secs_f64(),
            later.len(),
            o.slow_wait,
            bystander.status
        ),
    })
}

/// A finished game: a friend game played from two connections of `from`, each side its first
/// legal move, for up to `plies` moves, then resigned. Its id and its number of moves.
async fn finished_game(addr: SocketAddr, from: Option<[u8; 4]>, plies: u64) -> anyhow::Result<(String, u64)> {
    let mut black = Ws::connect(addr, from).await?;
    let mut white = Ws::connect(addr, from).await?;
    let (game, token, invite) = friend_game(&mut black).await?;
    let joined = white.request(json!({"t": "join", "game": game, "invite": invite})).await?;
    let tokens = [token, joined["token"].as_str().unwrap_or("").to_string()];
    let mut state = black.state_where(|g| g["status"] == "playing").await?;
    while state["status"] == "playing" && state["ply"].as_u64() < Some(plies) {
        let ply = state["ply"].as_u64().unwrap_or(0);
        let mover = if ply % 2 == 0 { &mut black } else { &mut white };
        let legal = &state["legal"][0];
        let token = &tokens[(ply % 2) as usize];
        mover
            .request(
                json!({"t": "move", "game": game, "token": token, "from": legal["from"], "to": legal["to"],
                            "captured": legal["captured"], "ply": ply}),
            )
            .await?;
        state = mover.state_where(|g| g["ply"].as_u64() > Some(ply) || g["status"] != "playing").await?;
        // Stay within the allowance of messages a second.
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    if state["status"] == "playing" {
        black.request(json!({"t": "resign", "game": game, "token": tokens[0]})).await?;
    }
    Ok((game, state["ply"].as_u64().unwrap_or(0)))
}

/// Clients asking in a loop: their tasks, the statuses of the answers and the times of the
/// served ones.
struct Loopers {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    tally: Arc<Tally>,
    times: Arc<Mutex<Vec<Duration>>>,
}

/// `clients` tasks from `from` each asking for one path after another (`path(i)` for the i-th
/// request of all of them) until `until`.
fn loop_requests(
    addr: SocketAddr,
    from: Option<[u8; 4]>,
    clients: usize,
    until: Instant,
    path: Arc<dyn Fn(u64) -> String + Send + Sync>,
) -> Loopers {
    let tally = Arc::new(Tally::default());
    let times = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicU64::new(0));
    let tasks = (0..clients)
        .map(|_| {
            let (tally, times, next, path) = (tally.clone(), times.clone(), next.clone(), path.clone());
            tokio::spawn(async move {
                while Instant::now() < until {
                    let asked = Instant::now();
                    let reply = raw::get(addr, from, &path(next.fetch_add(1, Ordering::Relaxed)), "").await;
                    tally.add(reply.status.to_string());
                    if reply.status == 200 {
                        times.lock().unwrap_or_else(|e| e.into_inner()).push(asked.elapsed());
                    }
                }
            })
        })
        .collect();
    Loopers { tasks, tally, times }
}

/// A bystander's requests, one after the other: how many failed (with their statuses) and
/// how long they took.
async fn bystander(
    addr: SocketAddr,
    from: Option<[u8; 4]>,
    paths: &[String],
    pause: Duration,
) -> (Vec<u16>, Vec<Duration>) {
    let mut failed = Vec::new();
    let mut times = Vec::new();
    for path in paths {
        let asked = Instant::now();
        let reply = raw::get(addr, from, path, "").await;
        times.push(asked.elapsed());
        if reply.status != 200 {
            failed.push(reply.status);
        }
        tokio::time::sleep(pause).await;
    }
    (failed, times)
}

async fn lines_loop(o: &Options) -> anyhow::Result<Finding> {
    let mut looped = Vec::new();
    for _ in 0..3 {
        looped.push(finished_game(o.addr, source(o.addr, 50), 40).await?);
    }
    let (mine, _) = finished_game(o.addr, source(o.addr, 51), 12).await?;
    let positions: Vec<(String, u64)> =
        looped.iter().flat_map(|(game, plies)| (0..=*plies).map(move |ply| (game.clone(), ply))).collect();
    let path = Arc::new(move |i: u64| {
        let (game, ply) = &positions[i as usize % positions.len()];
        format!("/games/{game}/lines?ply={ply}")
    });
    let until = Instant::now() + Duration::from_secs(o.seconds);
    let Loopers { tasks, tally, .. } = loop_requests(o.addr, source(o.addr, 52), 20, until, path);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let paths: Vec<String> = (0..6).map(|ply| format!("/games/{mine}/lines?ply={ply}")).collect();
    let (failed, times) = bystander(o.addr, source(o.addr, 53), &paths, Duration::ZERO).await;
    for task in tasks {
        let _ = task.await;
    }
    Ok(Finding {
        held: failed.is_empty(),
        figures: format!(
            "20 clients of one address asking for lines in a loop for {} s: {}; another address's 6 requests: {} \
             failed {failed:?}, {}",
            o.seconds,
            tally.show(),
            failed.len(),
            spread(&times)
        ),
    })
}

async fn draw_loop(o: &Options) -> anyhow::Result<Finding> {
    let before = probe(o.addr, source(o.addr, 61), 5, None).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let offerers: Vec<_> = (0..10)
        .map(|_| {
            let (stop, tally, addr) = (stop.clone(), tally.clone(), o.addr);
            tokio::spawn(async move {
                let Ok(mut ws) = Ws::connect(addr, source(addr, 60)).await else {
                    return tally.add("connections refused");
                };
                let Ok(seat) = computer_game(&mut ws, 1, None).await else {
                    return tally.add("create refused");
                };
                while !stop.load(Ordering::Relaxed) {
                    match ws
                        .request(
                            json!({"t": "draw", "game": seat.game, "token": seat.token, "action": "offer"}),
                        )
                        .await
                    {
                        Ok(reply) => tally.add(
                            reply["code"].as_str().unwrap_or(reply["t"].as_str().unwrap_or("?")).to_string(),
                        ),
                        Err(_) => return tally.add("disconnected"),
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let during = probe(o.addr, source(o.addr, 62), 6, None).await;
    stop.store(true, Ordering::Relaxed);
    for offerer in offerers {
        offerer.abort();
    }
    let during = during?;
    let worst = during.answers.iter().max().copied().unwrap_or_default();
    let alone = before.answers.iter().max().copied().unwrap_or_default();
    Ok(Finding {
        held: worst < (alone * 10).max(Duration::from_millis(100)),
        figures: format!(
            "alone: {}; beside 10 connections offering draws in a loop ({}): {}",
            before.show(),
            tally.show(),
            during.show()
        ),
    })
}

async fn list_loop(o: &Options) -> anyhow::Result<Finding> {
    let until = Instant::now() + Duration::from_secs(o.seconds);
    let Loopers { tasks, tally, times } =
        loop_requests(o.addr, source(o.addr, 70), 20, until, Arc::new(|_| "/api/games".to_string()));
    tokio::time::sleep(Duration::from_secs(1)).await;
    let paths = vec!["/api/games".to_string(); 5];
    let (failed, mine) = bystander(o.addr, source(o.addr, 71), &paths, Duration::from_secs(1)).await;
    for task in tasks {
        let _ = task.await;
    }
    let times = times.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let worst = mine.iter().max().copied().unwrap_or_default();
    Ok(Finding {
        held: failed.is_empty() && worst < Duration::from_millis(500) && tally.get("429") > 0,
        figures: format!(
            "20 clients of one address reading /api/games in a loop for {} s: {}, served in {}; another address's 5 \
             requests: failed {failed:?}, {}",
            o.seconds,
            tally.show(),
            spread(&times),
            spread(&mine)
        ),
    })
}

/// The code of the close frame the server answers `frame` with, on a new WebSocket.
async fn close_code_for(addr: SocketAddr, from: Option<[u8; 4]>, frame: Vec<u8>) -> Option<u16> {
    let mut tcp = raw::connect_from(addr, from).await.ok()?;
    if raw::ws_handshake(&mut tcp, addr, "").await.status != 101 {
        return None;
    }
    tcp.write_all(&frame).await.ok()?;
    raw::close_code(&mut tcp).await
}

/// The protocol's small print: each check, and whether it held.
async fn protocol_details(o: &Options) -> anyhow::Result<Finding> {
    let (addr, from) = (o.addr, source(o.addr, 80));
    let mut checks: Vec<(String, bool)> = Vec::new();
    let mut ws = Ws::connect(addr, from).await?;
    ws.send(format!("{{\"id\":\"big\",\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000))).await?;
    let reply = ws.next().await?;
    checks.push((format!("too_large echoes the id: re {}", reply["re"]), reply["re"] == "big"));
    for n in 0..60 {
        ws.send(format!("{{\"id\":{n},\"t\":\"ping\"}}")).await?;
    }
    let mut limited = None;
    for _ in 0..60 {
        let reply = ws.next().await?;
        if reply["code"] == "rate_limited" {
            limited = Some(reply["re"].clone());
        }
    }
    let echoed = limited.as_ref().is_some_and(Value::is_number);
    checks.push((format!("rate_limited echoes the id: re {}", limited.unwrap_or(Value::Null)), echoed));
    tokio::time::sleep(Duration::from_secs(1)).await;
    ws.send("{\"id\":12345678901234567890123,\"t\":\"ping\"}".into()).await?;
    let reply = ws.next().await?;
    let answered = reply["t"] == "pong";
    checks.push((format!("a 23-digit id is refused, not echoed rounded: re {}", reply["re"]), !answered));
    let code = close_code_for(addr, from, raw::frame(0x81, &[0x7b, 0xff, 0xfe, 0x7d])).await;
    checks.push((format!("invalid UTF-8 gets close 1007: {code:?}"), code == Some(1007)));
    let code = close_code_for(addr, from, raw::frame(0x83, b"{}")).await;
    checks.push((format!("a reserved opcode gets close 1002: {code:?}"), code == Some(1002)));
    let mut ws = Ws::connect(addr, from).await?;
    let seat = computer_game(&mut ws, 1, None).await?;
    let reply =
        ws.request(json!({"t": "move", "game": seat.game, "token": seat.token, "text": "-11-15"})).await?;
    let refused = reply["t"] == "error";
    checks.push((format!("-11-15 is not 11-15: {}", reply["code"].as_str().unwrap_or("ok")), refused));
    let _ = ws.request(json!({"t": "resign", "game": seat.game, "token": seat.token})).await;
    let missing = raw::get(addr, from, "/games/zzzzzzzzzz.pdn", "").await;
    let nosniff = missing.header("x-content-type-options") == Some("nosniff");
    checks.push((format!("a 404 says nosniff: {}", missing.status), nosniff));
    let mut tcp = raw::connect_from(addr, from).await?;
    let upgrade = raw::ws_handshake(&mut tcp, addr, "Origin: http://evil.example\r\n").await;
    checks.push((
        format!("another site's page is refused the WebSocket: {}", upgrade.status),
        upgrade.status == 403,
    ));
    let held = checks.iter().all(|(_, ok)| *ok);
    let figures: Vec<String> = checks
        .into_iter()
        .map(|(what, ok)| format!("{} {what}", if ok { "held:" } else { "BROKEN:" }))
        .collect();
    Ok(Finding { held, figures: figures.join("; ") })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let o = options()?;
    let from = if source(o.addr, 1).is_some() {
        "clients from 127.0.0.N"
    } else {
        "every client from this machine's address"
    };
    println!("hostile: attacking {} ({from})", o.addr);
    let attacks: [(u32, &str); 8] = [
        (1, "engine crowd"),
        (2, "friend-game snooping and joining"),
        (3, "game flood"),
        (4, "slowloris and silent connections"),
        (5, "lines loop"),
        (6, "draw-offer loop"),
        (7, "list loop"),
        (8, "protocol details"),
    ];
    let mut broken = 0;
    for (number, name) in attacks {
        if o.only.as_ref().is_some_and(|only| !only.contains(&number)) {
            continue;
        }
        let started = Instant::now();
        let finding = match number {
            1 => engine_crowd(&o).await,
            2 => friend_snooping(&o).await,
            3 => game_flood(&o).await,
            4 => slowloris(&o).await,
            5 => lines_loop(&o).await,
            6 => draw_loop(&o).await,
            7 => list_loop(&o).await,
            _ => protocol_details(&o).await,
        };
        let (verdict, figures) = match finding {
            Ok(f) => (if f.held { "held" } else { "BROKEN" }, f.figures),
            Err(e) => ("BROKEN", format!("the attack could not be carried out: {e:#}")),
        };
        if verdict != "held" {
            broken += 1;
        }
        println!("{number}. {name}: {verdict} ({:.0} s)\n   {figures}", started.elapsed().as_secs_f64());
    }
    println!("hostile: {broken} broken");
    Ok(())
}
