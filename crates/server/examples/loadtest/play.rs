//! The load generator's games, shared with the chaos run (`examples/chaos`): two clients a
//! game play a friend game over WebSockets, timing each move's round trip; with several nodes
//! the two players (and a spectator) are on different nodes, and a client whose node dies
//! connects to another and carries on.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// How the games are played.
pub struct Play {
    pub plies: u64,
    pub think_ms: u64,
    pub rated: bool,
    pub timed: bool,
    /// One spectator a game, on the node neither player uses (with three nodes or more).
    pub watchers: bool,
}

/// Where the clients connect. With `failover`, a client whose connection drops connects to
/// the next node that answers, follows its game again with its seat token and carries on; a
/// move refused `unavailable` or `storage` ("nothing changed, try again") is sent again after
/// [`RETRY`]; a client that hears nothing for a while asks for its game's state again, and
/// one whose game has not moved on for minutes gives it up (the game fails). Without it (one
/// server), a dropped connection ends the client.
pub struct Nodes {
    pub addrs: Vec<SocketAddr>,
    pub failover: bool,
}

/// The pause before a message refused `unavailable` or `storage` (a game changing owner, the
/// database slow) is sent again.
const RETRY: Duration = Duration::from_millis(200);
/// How long a client keeps trying to reach some node.
const RECONNECT_PATIENCE: Duration = Duration::from_secs(120);
/// How long a client waits for the answer to `create`, `join` or `resign` while setting up.
const REQUEST_PATIENCE: Duration = Duration::from_secs(30);
/// Attempts at creating and joining a game before it is given up (nodes dying meanwhile).
const SETUP_ATTEMPTS: usize = 20;

impl Nodes {
    /// How long a client with failover hears nothing before it asks for its game again.
    fn stall(&self, play: &Play) -> Option<Duration> {
        self.failover.then(|| Duration::from_millis((play.think_ms * 10).max(15_000)))
    }

    /// How long a client with failover waits for its game to move on before it gives it up
    /// as stuck (an error: the game counts as failed).
    fn patience(&self, play: &Play) -> Option<Duration> {
        self.failover.then(|| Duration::from_millis((play.think_ms * 60).max(180_000)))
    }
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to the server, from the loopback address of game `index` if the server is on
/// loopback, with a small read buffer (the default 128 KiB is zeroed on every read) and no
/// Nagle delay, as a browser has.
pub async fn connect(addr: SocketAddr, index: u64, cookie: Option<&str>) -> anyhow::Result<Socket> {
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
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What the clients measured and counted.
#[derive(Default)]
pub struct Stats {
    /// From a move's first sending to its confirmation, resendings included (or, for a move
    /// found committed after its confirmation was lost, to the state that showed it).
    pub round_trips_us: Vec<u64>,
    /// Round trips of the resignations that end the games.
    pub ends_us: Vec<u64>,
    pub errors: u64,
    /// How long after the mover's confirmation a spectator on another node saw the move.
    pub watch_us: Vec<u64>,
    /// Moves a spectator saw before the mover's confirmation came (counted as 0 above).
    pub watched_early: u64,
    pub failover: Failover,
    /// Games made but given up before their first move (withdrawn or resigned).
    pub given_up: Vec<String>,
}

/// What clients did to ride out nodes dying.
#[derive(Default, Clone, Copy)]
pub struct Failover {
    /// Connections made again on another node after one dropped.
    pub reconnections: u64,
    /// Moves, resignations and watches refused `unavailable` or `storage` and sent again.
    pub unavailable: u64,
    /// Moves in flight when their connection dropped, sent again (the game had not moved).
    pub resent: u64,
    /// Moves in flight when their connection dropped (or answered `stale`), found committed
    /// in the game's state: their confirmation was lost, not the move.
    pub recovered: u64,
    /// A move in flight whose ply the game shows holding another move.
    pub replaced: u64,
    /// Times a client heard nothing for a long while and asked for its game again.
    pub silences: u64,
    /// Attempts at creating or joining a game made again after a node failed them.
    pub setup_retries: u64,
    /// Games given up before their first move (a node died while they were set up): resigned.
    pub abandoned: u64,
}

impl Failover {
    fn add(&mut self, other: &Failover) {
        self.reconnections += other.reconnections;
        self.unavailable += other.unavailable;
        self.resent += other.resent;
        self.recovered += other.recovered;
        self.replaced += other.replaced;
        self.silences += other.silences;
        self.setup_retries += other.setup_retries;
        self.abandoned += other.abandoned;
    }
}

/// What the clients know was committed in one game: the moves (ply, text) the server
/// confirmed to them, and those in flight when a node died that they found in the game
/// afterwards; and why the game failed, if it did (its moves so far are checked all the same).
#[derive(Default)]
pub struct Played {
    pub confirmed: Vec<(u64, String)>,
    pub recovered: Vec<(u64, String)>,
    pub failure: Option<String>,
}

/// When each ply was confirmed to its mover and seen by the game's spectator.
#[derive(Default)]
struct WatchTimes {
    confirmed: HashMap<u64, Instant>,
    seen: HashMap<u64, Instant>,
}

enum Incoming {
    Message(Value),
    Closed,
    Silent,
}

/// A client's connection, and what it needs to make it again on another node.
struct Link {
    ws: Socket,
    nodes: Arc<Nodes>,
    node: usize,
    index: u64,
    cookie: Option<String>,
    stall: Option<Duration>,
    patience: Option<Duration>,
    /// When the game last moved on (or the client started following it).
    progress: Instant,
    rng: Rng,
}

impl Link {
    async fn open(
        nodes: &Arc<Nodes>,
        node: usize,
        index: u64,
        cookie: Option<String>,
        play: &Play,
    ) -> anyhow::Result<Link> {
        let (node, ws) = match connect(nodes.addrs[node], index, cookie.as_deref()).await {
            Ok(ws) => (node, ws),
            Err(e) if !nodes.failover => return Err(e),
            // The node is down (killed a moment ago): the next one that answers.
            Err(_) => Self::any_node(nodes, node, index, cookie.as_deref()).await?,
        };
        let (stall, patience) = (nodes.stall(play), nodes.patience(play));
        let progress = Instant::now();
        Ok(Link {
            ws,
            nodes: nodes.clone(),
            node,
            index,
            cookie,
            stall,
            patience,
            progress,
            rng: Rng(index * 7 + 3),
        })
    }

    /// The first node after `node` that takes a connection, trying them in turn for a while.
    async fn any_node(
        nodes: &Nodes,
        node: usize,
        index: u64,
        cookie: Option<&str>,
    ) -> anyhow::Result<(usize, Socket)> {
        let n = nodes.addrs.len();
        for attempt in 1..=4 * n {
            let next = (node + attempt) % n;
            if let Ok(ws) = connect(nodes.addrs[next], index, cookie).await {
                return Ok((next, ws));
            }
            if attempt % n == 0 {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
        bail!("no node took a connection")
    }

    /// The game moved on.
    fn progressed(&mut self) {
        self.progress = Instant::now();
    }

    /// The next text message; with failover a failed connection is `Closed`, not an error.
    async fn next(&mut self) -> anyhow::Result<Incoming> {
        loop {
            if let Some(patience) = self.patience.filter(|p| self.progress.elapsed() > *p) {
                bail!("stuck: the game has not moved on for {} s", patience.as_secs());
            }
            let item = match self.stall {
                Some(stall) => match tokio::time::timeout(stall, self.ws.next()).await {
                    Ok(item) => item,
                    Err(_) => return Ok(Incoming::Silent),
                },
                None => self.ws.next().await,
            };
            match item {
                None => return Ok(Incoming::Closed),
                Some(Err(_)) if self.nodes.failover => return Ok(Incoming::Closed),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(text))) => {
                    return Ok(Incoming::Message(serde_json::from_str(text.as_str())?))
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Sends; with failover a connection that failed is noticed by the next read instead.
    async fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        let sent = self.ws.send(Message::Text(message.to_string().into())).await;
        if sent.is_err() && self.nodes.failover {
            return Ok(());
        }
        Ok(sent?)
    }

    /// Connects to the next node that answers, after a short random wait (as the page does,
    /// so that the clients of a dead node do not all come at once), trying the nodes in turn.
    async fn reconnect(&mut self) -> anyhow::Result<()> {
        let n = self.nodes.addrs.len();
        tokio::time::sleep(Duration::from_millis(self.rng.next() % 500)).await;
        let deadline = Instant::now() + RECONNECT_PATIENCE;
        let mut wait = Duration::from_millis(500);
        loop {
            for _ in 0..n {
                self.node = (self.node + 1) % n;
                let attempt = connect(self.nodes.addrs[self.node], self.index, self.cookie.as_deref());
                if let Ok(Ok(ws)) = tokio::time::timeout(Duration::from_secs(5), attempt).await {
                    self.ws = ws;
                    return Ok(());
                }
            }
            if Instant::now() > deadline {
                bail!("no node answered for {} s", RECONNECT_PATIENCE.as_secs());
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(8));
        }
    }

    async fn close(&mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A move or resignation sent and not yet answered.
struct InFlight {
    id: u64,
    ply: u64,
    text: String,
    /// The message without its id.
    message: Value,
    first_sent: Instant,
    /// Its connection dropped (or it was answered `stale`): the game's next state tells
    /// whether it was committed.
    in_doubt: bool,
}

enum Step {
    Continue,
    Done,
}

/// One player: moves when it is its turn until the game reaches `plies`, then the side to
/// move resigns.
struct Player {
    link: Link,
    game: String,
    token: String,
    color: String,
    play: Arc<Play>,
    rng: Rng,
    next_id: u64,
    pending: Option<InFlight>,
    resigned: Option<InFlight>,
    moved_at_ply: Option<u64>,
    /// The last `watch` sent (after a reconnection or a silence).
    watch_id: Option<u64>,
    /// The ply of the last state seen.
    last_ply: Option<u64>,
    played: Played,
    round_trips: Vec<u64>,
    ends: Vec<u64>,
    errors: u64,
    failover: Failover,
    times: Arc<Mutex<WatchTimes>>,
}

impl Player {
    /// Plays the game out; what was measured and confirmed counts even if the game fails.
    async fn run(mut self, stats: Arc<Mutex<Stats>>) -> Played {
        match self.turns().await {
            Ok(()) => self.link.close().await,
            Err(e) => self.played.failure = Some(format!("{e:#}")),
        }
        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
        s.round_trips_us.extend(self.round_trips);
        s.ends_us.extend(self.ends);
        s.errors += self.errors;
        s.failover.add(&self.failover);
        self.played
    }

    async fn turns(&mut self) -> anyhow::Result<()> {
        loop {
            let step = match self.link.next().await? {
                Incoming::Message(v) => match v["t"].as_str() {
                    Some("state") => self.on_state(&v["game"]).await?,
                    Some("ok") => self.on_ok(&v),
                    Some("error") => self.on_error(&v).await?,
                    _ => Step::Continue,
                },
                Incoming::Closed if self.link.nodes.failover => {
                    self.failover.reconnections += 1;
                    self.link.reconnect().await?;
                    self.follow_again().await?;
                    Step::Continue
                }
                Incoming::Closed => Step::Done,
                Incoming::Silent => {
                    self.failover.silences += 1;
                    self.follow_again().await?;
                    Step::Continue
                }
            };
            if let Step::Done = step {
                return Ok(());
            }
        }
    }

    /// Follows the game again (a new connection, or one that went silent): what is in flight
    /// is in doubt until the state that comes with it.
    async fn follow_again(&mut self) -> anyhow::Result<()> {
        for in_flight in [&mut self.pending, &mut self.resigned].into_iter().flatten() {
            in_flight.in_doubt = true;
        }
        let id = self.new_id();
        self.watch_id = Some(id);
        let watch = json!({"t": "watch", "id": id, "game": self.game, "token": self.token});
        self.link.send(&watch).await
    }

    fn new_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Sends a message in flight (again) under a new id.
    async fn send_in_flight(&mut self, resign: bool) -> anyhow::Result<()> {
        let id = self.new_id();
        let slot = if resign { &mut self.resigned } else { &mut self.pending };
        let Some(in_flight) = slot.as_mut() else { return Ok(()) };
        in_flight.id = id;
        in_flight.in_doubt = false;
        let mut message = in_flight.message.clone();
        message["id"] = json!(id);
        self.link.send(&message).await
    }

    /// Whether the move in doubt is to be sent again; if the state shows it committed, it
    /// is recorded so.
    fn settle_move(&mut self, g: &Value, ply: u64, to_move: bool) -> bool {
        let Some(p) = self.pending.as_ref().filter(|p| p.in_doubt) else { return false };
        if ply <= p.ply {
            return ply == p.ply && to_move && g["status"] == "playing";
        }
        let p = self.pending.take().expect("in flight");
        if g["moves"][p.ply as usize] == json!(p.text) {
            // Its round trip runs until the client learns it was committed.
            self.round_trips.push(p.first_sent.elapsed().as_micros() as u64);
            self.failover.recovered += 1;
            self.played.recovered.push((p.ply, p.text));
        } else {
            self.failover.replaced += 1;
        }
        false
    }

    async fn on_state(&mut self, g: &Value) -> anyhow::Result<Step> {
        let ply = g["ply"].as_u64().unwrap_or(0);
        if g["status"] == "waiting" {
            return Ok(Step::Continue);
        }
        if self.last_ply.replace(ply) != Some(ply) {
            self.link.progressed();
        }
        let to_move = g["turn"] == json!(self.color);
        if self.settle_move(g, ply, to_move) {
            self.failover.resent += 1;
            self.send_in_flight(false).await?;
            return Ok(Step::Continue);
        }
        if self.resigned.as_ref().is_some_and(|r| r.in_doubt) {
            if g["status"] != "playing" {
                return Ok(Step::Done);
            }
            self.send_in_flight(true).await?;
            return Ok(Step::Continue);
        }
        if g["status"] == "playing"
            && ply >= self.play.plies
            && to_move
            && self.pending.is_none()
            && self.resigned.is_none()
        {
            let id = self.new_id();
            let message = json!({"t": "resign", "game": self.game, "token": self.token});
            let in_flight = InFlight {
                id,
                ply,
                text: String::new(),
                message,
                first_sent: Instant::now(),
                in_doubt: false,
            };
            self.resigned = Some(in_flight);
            let message = json!({"t": "resign", "id": id, "game": self.game, "token": self.token});
            self.link.send(&message).await?;
            return Ok(Step::Continue);
        }
        if g["status"] != "playing" || ply >= self.play.plies {
            if self.pending.is_none() && self.resigned.is_none() {
                return Ok(Step::Done);
            }
            return Ok(Step::Continue);
        }
        if !to_move || self.pending.is_some() || self.moved_at_ply == Some(ply) {
            return Ok(Step::Continue);
        }
        let legal = g["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return Ok(Step::Continue);
        }
        let choice = &legal[(self.rng.next() % legal.len() as u64) as usize];
        let think = self.play.think_ms / 2 + self.rng.next() % (self.play.think_ms + 1);
        tokio::time::sleep(Duration::from_millis(think)).await;
        let id = self.new_id();
        let message = json!({"t": "move", "game": self.game, "token": self.token, "from": choice["from"],
                             "to": choice["to"], "captured": choice["captured"], "ply": ply});
        let mut sent = message.clone();
        sent["id"] = json!(id);
        let text = choice["text"].as_str().unwrap_or("").to_string();
        self.pending = Some(InFlight { id, ply, text, message, first_sent: Instant::now(), in_doubt: false });
        self.moved_at_ply = Some(ply);
        self.link.send(&sent).await?;
        Ok(Step::Continue)
    }

    fn on_ok(&mut self, v: &Value) -> Step {
        if let Some(resigned) = self.resigned.as_ref().filter(|r| v["re"] == json!(r.id)) {
            self.ends.push(resigned.first_sent.elapsed().as_micros() as u64);
            return Step::Done;
        }
        if let Some(p) = self.pending.take() {
            if v["re"] == json!(p.id) {
                self.round_trips.push(p.first_sent.elapsed().as_micros() as u64);
                self.times
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .confirmed
                    .insert(p.ply + 1, Instant::now());
                self.played.confirmed.push((p.ply, p.text));
            } else {
                self.pending = Some(p);
            }
        }
        Step::Continue
    }

    async fn on_error(&mut self, v: &Value) -> anyhow::Result<Step> {
        self.errors += 1;
        let about_move = self.pending.as_ref().is_some_and(|p| v["re"] == json!(p.id));
        let about_resign = self.resigned.as_ref().is_some_and(|r| v["re"] == json!(r.id));
        let about_watch = self.watch_id.is_some_and(|id| v["re"] == json!(id));
        let try_again = v["code"] == "unavailable" || v["code"] == "storage";
        if self.link.nodes.failover && (about_move || about_resign || about_watch) {
            match v["code"].as_str() {
                _ if try_again => {
                    self.failover.unavailable += 1;
                    tokio::time::sleep(RETRY).await;
                    match about_watch {
                        true => self.follow_again().await?,
                        false => self.send_in_flight(about_resign).await?,
                    }
                    return Ok(Step::Continue);
                }
                // The game moved on: was it this move, committed before its node died?
                Some("stale") if about_move => {
                    self.follow_again().await?;
                    return Ok(Step::Continue);
                }
                // Refused otherwise: the player follows the game again and plays from its
                // state.
                _ if about_move => {
                    (self.pending, self.moved_at_ply) = (None, None);
                    self.follow_again().await?;
                    return Ok(Step::Continue);
                }
                _ => {}
            }
        }
        if about_move {
            self.pending = None;
        }
        Ok(if about_resign { Step::Done } else { Step::Continue })
    }
}

/// A spectator: follows the game until it ends, noting when it sees each move.
async fn spectate(mut link: Link, game: String, times: Arc<Mutex<WatchTimes>>) -> anyhow::Result<Failover> {
    let mut failover = Failover::default();
    let watch = json!({"t": "watch", "id": 1, "game": game});
    link.send(&watch).await?;
    // The ply of the last state seen on this connection: only a state that follows it is a
    // move seen as it was made.
    let mut last: Option<u64> = None;
    let mut furthest = 0;
    loop {
        match link.next().await? {
            Incoming::Message(v) if v["t"] == "state" => {
                let g = &v["game"];
                let ply = g["ply"].as_u64().unwrap_or(0);
                if last.is_some_and(|last| last + 1 == ply) {
                    times.lock().unwrap_or_else(|e| e.into_inner()).seen.insert(ply, Instant::now());
                }
                last = Some(ply);
                if ply > furthest {
                    furthest = ply;
                    link.progressed();
                }
                if g["status"] == "finished" {
                    break;
                }
            }
            // The watch refused (`unavailable`, `storage`): asked again.
            Incoming::Message(v) if v["t"] == "error" && v["re"] == json!(1) && link.nodes.failover => {
                failover.unavailable += 1;
                tokio::time::sleep(RETRY).await;
                link.send(&watch).await?;
            }
            Incoming::Message(_) => {}
            Incoming::Closed if link.nodes.failover => {
                failover.reconnections += 1;
                link.reconnect().await?;
                last = None;
                link.send(&watch).await?;
            }
            Incoming::Closed => bail!("the spectator's connection closed"),
            Incoming::Silent => {
                failover.silences += 1;
                last = None;
                link.send(&watch).await?;
            }
        }
    }
    link.close().await;
    Ok(failover)
}

/// A game's two seats, once created and joined.
struct Seated {
    game: String,
    black: (Link, String),
    white: (Link, String),
}

/// Creates game `index`'s friend game on its first node and joins it on the second.
async fn seat(
    nodes: &Arc<Nodes>,
    play: &Play,
    index: u64,
    cookies: &Option<[String; 2]>,
    connecting: &Semaphore,
    first: usize,
    second: usize,
) -> anyhow::Result<(Seated, Value)> {
    let cookie = |i: usize| cookies.as_ref().map(|c| c[i].clone());
    let (mut a, mut b) = {
        let _permit = connecting.acquire().await?;
        (
            Link::open(nodes, first, index, cookie(0), play).await?,
            Link::open(nodes, second, index, cookie(1), play).await?,
        )
    };
    let mut create =
        json!({"t": "create", "opponent": "friend", "color": "black", "name": format!("load {index}")});
    if play.rated || play.timed {
        create["clock"] = json!({"base": 600, "increment": 5});
    }
    if play.rated {
        create["rated"] = json!(true);
    }
    let created = within(nodes, request(&mut a.ws, create)).await?;
    let game = created["game"].as_str().context("create failed")?.to_string();
    let invite = created["invite"].as_str().context("a friend game's invitation")?;
    let black_token = created["token"].as_str().unwrap_or("").to_string();
    let joined =
        within(nodes, request(&mut b.ws, json!({"t": "join", "game": game, "invite": invite}))).await;
    let seated = Seated { game: game.clone(), black: (a, black_token), white: (b, String::new()) };
    let joined = match joined {
        Ok(joined) if joined["t"] == "seated" => joined,
        Ok(joined) if !nodes.failover => bail!("join failed: {joined}"),
        Ok(joined) => return Ok((seated, joined)),
        Err(e) if !nodes.failover => return Err(e),
        Err(e) => {
            return Ok((seated, json!({"t": "error", "code": "unavailable", "message": e.to_string()})))
        }
    };
    let white_token = joined["token"].as_str().unwrap_or("").to_string();
    Ok((Seated { white: (seated.white.0, white_token), ..seated }, joined))
}

/// The answer within [`REQUEST_PATIENCE`] when nodes may die; else as it comes.
async fn within<T>(
    nodes: &Nodes,
    answer: impl std::future::Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    if !nodes.failover {
        return answer.await;
    }
    tokio::time::timeout(REQUEST_PATIENCE, answer).await.context("no answer in time")?
}

/// Seats game `index`'s players, on nodes `index` and `index + 1`; with failover, tries again
/// on the next nodes while nodes fail it. A game created but not joined is resigned (which
/// withdraws it) and `None` returned.
async fn seat_with_failover(
    nodes: &Arc<Nodes>,
    play: &Play,
    index: u64,
    cookies: &Option<[String; 2]>,
    connecting: &Semaphore,
    stats: &Mutex<Stats>,
) -> anyhow::Result<Option<Seated>> {
    let n = nodes.addrs.len();
    let mut attempt = 0;
    loop {
        let first = (index as usize + attempt) % n;
        let second = (first + 1) % n;
        let retry = match seat(nodes, play, index, cookies, connecting, first, second).await {
            Ok((seated, joined)) if joined["t"] == "seated" => return Ok(Some(seated)),
            Ok((seated, joined)) if joined["code"] == "unavailable" || joined["code"] == "not_found" => {
                // Not joined: the game is withdrawn, and a new one made.
                give_up(seated.black.0, &seated.game, &seated.black.1).await?;
                stats.lock().unwrap_or_else(|e| e.into_inner()).given_up.push(seated.game);
                format!("{joined}")
            }
            Ok((seated, joined)) => {
                // Joined perhaps, its answer lost: the game is resigned before its first move.
                give_up(seated.black.0, &seated.game, &seated.black.1).await?;
                eprintln!("loadtest: game {} given up: {joined}", seated.game);
                let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                s.failover.abandoned += 1;
                s.given_up.push(seated.game);
                return Ok(None);
            }
            Err(e) if nodes.failover => format!("{e:#}"),
            Err(e) => return Err(e),
        };
        stats.lock().unwrap_or_else(|e| e.into_inner()).failover.setup_retries += 1;
        attempt += 1;
        if attempt >= SETUP_ATTEMPTS {
            bail!("game {index} could not be set up: {retry}");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Resigns (or withdraws) a game that could not be set up, on any node that answers.
async fn give_up(mut link: Link, game: &str, token: &str) -> anyhow::Result<()> {
    for _ in 0..SETUP_ATTEMPTS {
        let resign = json!({"t": "resign", "id": 1, "game": game, "token": token});
        link.send(&resign).await?;
        let answer = within(&link.nodes.clone(), async {
            loop {
                match link.next().await? {
                    Incoming::Message(v) if v["re"] == json!(1) => return Ok(Some(v)),
                    Incoming::Message(_) => {}
                    Incoming::Closed | Incoming::Silent => return Ok(None),
                }
            }
        })
        .await;
        match answer {
            Ok(Some(v)) if v["t"] == "ok" || v["code"] == "game_over" || v["code"] == "not_found" => {
                link.close().await;
                return Ok(());
            }
            Ok(Some(v)) if v["code"] != "unavailable" => bail!("game {game} could not be given up: {v}"),
            _ => {}
        }
        tokio::time::sleep(RETRY).await;
        link.reconnect().await?;
    }
    bail!("game {game} could not be given up")
}

/// Plays game `index` to its end: its id and what its clients know was committed (`None` if
/// it was given up before its first move). An error means it could not be set up.
pub async fn one_game(
    nodes: Arc<Nodes>,
    play: Arc<Play>,
    index: u64,
    cookies: Option<[String; 2]>,
    connecting: Arc<Semaphore>,
    stats: Arc<Mutex<Stats>>,
) -> anyhow::Result<Option<(String, Played)>> {
    let Some(seated) = seat_with_failover(&nodes, &play, index, &cookies, &connecting, &stats).await? else {
        return Ok(None);
    };
    let times = Arc::new(Mutex::new(WatchTimes::default()));
    let spectator = match play.watchers {
        true => {
            let node = (seated.black.0.node + 2) % nodes.addrs.len();
            let link = {
                let _permit = connecting.acquire().await?;
                Link::open(&nodes, node, index, None, &play).await?
            };
            Some(tokio::spawn(spectate(link, seated.game.clone(), times.clone())))
        }
        false => None,
    };
    let game = seated.game.clone();
    let player = |(link, token): (Link, String), color: &str, seed: u64| Player {
        link,
        game: game.clone(),
        token,
        color: color.into(),
        play: play.clone(),
        rng: Rng(seed | 1),
        next_id: 1,
        pending: None,
        resigned: None,
        moved_at_ply: None,
        watch_id: None,
        last_ply: None,
        played: Played::default(),
        round_trips: Vec::new(),
        ends: Vec::new(),
        errors: 0,
        failover: Failover::default(),
        times: times.clone(),
    };
    let black = tokio::spawn(player(seated.black, "black", index * 2 + 1).run(stats.clone()));
    let white = tokio::spawn(player(seated.white, "white", index * 2 + 2).run(stats.clone()));
    let mut played = black.await?;
    let more = white.await?;
    played.confirmed.extend(more.confirmed);
    played.confirmed.sort();
    played.recovered.extend(more.recovered);
    played.recovered.sort();
    played.failure = played.failure.or(more.failure);
    if let Some(spectator) = spectator {
        if played.failure.is_some() {
            spectator.abort();
            return Ok(Some((game, played)));
        }
        let failover = match spectator.await? {
            Ok(failover) => failover,
            Err(e) => {
                played.failure = Some(format!("the spectator: {e:#}"));
                return Ok(Some((game, played)));
            }
        };
        let times = times.lock().unwrap_or_else(|e| e.into_inner());
        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
        s.failover.add(&failover);
        for (ply, seen) in &times.seen {
            if let Some(confirmed) = times.confirmed.get(ply) {
                match seen.checked_duration_since(*confirmed) {
                    Some(after) => s.watch_us.push(after.as_micros() as u64),
                    None => {
                        s.watched_early += 1;
                        s.watch_us.push(0);
                    }
                }
            }
        }
    }
    Ok(Some((game, played)))
}

pub fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}
