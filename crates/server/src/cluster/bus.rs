//! Messages between nodes over PostgreSQL's `LISTEN`/`NOTIFY`: one channel a node (calls,
//! answers, states of games it follows) and one for all (notices). A message for one node
//! goes over its direct link once there is one (`link`), else through its channel. Outgoing
//! `NOTIFY` messages go through one task, in order, several to a statement; a message longer
//! than a `NOTIFY` payload may be is kept in `cluster_mail` and its id sent instead. Incoming
//! payloads are parsed into [`Envelope`]; a payload that is not one is logged and dropped.
//!
//! Channels are named after the database schema (hashed), so clusters on separate schemas of
//! one database never hear each other.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::{mpsc, oneshot};

use super::calls::GameCall;
use super::link::Links;
use super::pairing::{ChallengeCall, ChallengeNotice};
use super::Cluster;
use crate::error::ErrorCode;
use crate::live::{parse_color, ClockSpec};
use crate::protocol::LobbyEntry;
use crate::registry::lock;

/// Longest payload sent as it is (PostgreSQL refuses 8000 bytes and more).
const MAX_PAYLOAD: usize = 7000;
/// Most messages sent in one statement.
const BATCH: usize = 256;
/// How long a call waits for its answer.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// What travels between nodes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Envelope {
    /// A request to the node that owns what it names; answered by `Answer` with the same
    /// `call` on the channel of `from`.
    Call {
        from: String,
        call: u64,
        request: Request,
    },
    Answer {
        call: u64,
        answer: Answer,
    },
    /// A new state of a game the receiving node follows (its `state` message, as sent to
    /// clients).
    State {
        game: String,
        text: String,
    },
    Notice {
        notice: Notice,
    },
    /// A game was started for the seek of the receiving node's connection `conn` (see
    /// [`super::pairing`]): its seat's colour.
    Seated {
        conn: u64,
        game: String,
        color: String,
    },
    /// Sent through `NOTIFY` after everything before it: the link `from` opened (named by the
    /// receiving node's nonce) may carry `from`'s messages now (see [`super::link`]).
    Linked {
        from: String,
        link: String,
    },
}

/// A request for the node that owns a game.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "r", rename_all = "snake_case")]
pub enum Request {
    Game {
        game: String,
        call: GameCall,
    },
    /// An answer to a challenge the receiving node holds.
    Challenge {
        call: ChallengeCall,
    },
}

/// The answer to a call.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Answer {
    Done {
        value: serde_json::Value,
    },
    Refused {
        code: ErrorCode,
        message: String,
    },
    /// The node does not run what the call names (any more): ask who does.
    NotOwner,
}

/// What every node hears.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "n", rename_all = "snake_case")]
pub enum Notice {
    /// A node has died or drained: its games are to be taken over.
    NodeGone { node: String },
    /// A game's place in the lobby changed: its entry while it waits open, else none;
    /// `waiting` while it waits for an opponent at all.
    Lobby { game: String, entry: Option<LobbyWire>, waiting: bool },
    /// Games changed on `node`: the list of games is to be read again.
    GamesChanged { node: String },
    /// A challenge made on a node, for the challenged account's connections on every node.
    Challenge(ChallengeNotice),
}

/// A lobby entry as it travels between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LobbyWire {
    pub variant: String,
    pub clock: Option<(i64, i64)>,
    pub name: Option<String>,
    pub creator_color: String,
    pub created_ms: i64,
    pub rated: bool,
    pub rating: Option<i64>,
    pub provisional: Option<bool>,
}

impl LobbyWire {
    pub fn of(entry: &LobbyEntry) -> LobbyWire {
        LobbyWire {
            variant: entry.variant.to_string(),
            clock: entry.clock.map(|c| (c.base_ms, c.increment_ms)),
            name: entry.name.clone(),
            creator_color: entry.creator_color.to_string(),
            created_ms: entry.created_ms,
            rated: entry.rated,
            rating: entry.rating,
            provisional: entry.provisional,
        }
    }

    /// The entry of game `id`, if the variant and colour are ones this node knows.
    pub fn entry(&self, id: &str) -> Option<LobbyEntry> {
        let variant: crate::variant::GameVariant = self.variant.parse().ok()?;
        let color = parse_color(&self.creator_color)?;
        Some(LobbyEntry {
            id: id.to_string(),
            variant: variant.name(),
            clock: self.clock.map(|(base_ms, increment_ms)| ClockSpec { base_ms, increment_ms }),
            name: self.name.clone(),
            creator_color: crate::live::color_name(color),
            created_ms: self.created_ms,
            rated: self.rated,
            rating: self.rating,
            provisional: self.provisional,
        })
    }
}

/// A message to send through `NOTIFY`: its channel and payload.
pub(super) struct Outgoing {
    pub channel: String,
    pub payload: String,
    /// Answered once sent (for a flush).
    pub sent: Option<oneshot::Sender<()>>,
}

/// A call from another node: who asks, the call's number there, and what it asks.
type IncomingCall = (String, u64, Request);

/// The sending half of the bus, and the calls waiting for answers.
pub struct Bus {
    prefix: String,
    direct: String,
    outbox: mpsc::UnboundedSender<Outgoing>,
    links: Arc<Links>,
    /// Calls from other nodes, for `calls::answer_all`, in the order they came.
    calls: mpsc::UnboundedSender<IncomingCall>,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    next_call: AtomicU64,
}

/// The channels a new bus listens on and its queue of calls, handed to [`listen`].
pub struct Inbox {
    channels: [String; 2],
    calls: mpsc::UnboundedReceiver<IncomingCall>,
}

/// A short, stable name for a schema, fit for a channel name.
fn schema_tag(schema: &str) -> String {
    let hash = schema
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("ck{:08x}", hash as u32)
}

impl Bus {
    pub fn new(pool: &PgPool, schema: &str, node: &str) -> (Bus, Inbox) {
        let prefix = schema_tag(schema);
        let direct = format!("{prefix}n{node}");
        let (outbox, queue) = mpsc::unbounded_channel();
        tokio::spawn(send_all(pool.clone(), queue));
        let links = Links::new(node, &prefix, pool, outbox.clone());
        let (calls, call_queue) = mpsc::unbounded_channel();
        let inbox = Inbox { channels: [direct.clone(), format!("{prefix}all")], calls: call_queue };
        let bus = Bus {
            prefix,
            direct,
            outbox,
            links,
            calls,
            waiting: Mutex::new(HashMap::new()),
            next_call: AtomicU64::new(1),
        };
        (bus, inbox)
    }

    /// This node's links to the others.
    pub fn links(&self) -> &Arc<Links> {
        &self.links
    }

    /// Sends to one node: over its link, or through `NOTIFY`.
    pub fn send(&self, node: &str, envelope: &Envelope) {
        match serde_json::to_string(envelope) {
            Ok(payload) => self.links.send(node, payload),
            Err(e) => tracing::warn!("cannot write a cluster message: {e}"),
        }
    }

    /// Sends to every node, this one included, through `NOTIFY`.
    pub fn broadcast(&self, notice: &Notice) {
        match serde_json::to_string(&Envelope::Notice { notice: notice.clone() }) {
            Ok(payload) => {
                let channel = format!("{}all", self.prefix);
                let _ = self.outbox.send(Outgoing { channel, payload, sent: None });
            }
            Err(e) => tracing::warn!("cannot write a cluster message: {e}"),
        }
    }

    /// Waits until everything posted before is sent.
    pub async fn flush(&self) {
        let (sent, done) = oneshot::channel();
        let marker = Outgoing { channel: String::new(), payload: String::new(), sent: Some(sent) };
        if self.outbox.send(marker).is_ok() {
            let _ = done.await;
        }
    }

    /// Calls `node` and waits up to [`CALL_TIMEOUT`] for its answer.
    pub async fn call(&self, node: &str, from: &str, request: Request) -> Option<Answer> {
        let call = self.next_call.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        lock(&self.waiting).insert(call, reply);
        self.send(node, &Envelope::Call { from: from.to_string(), call, request });
        let answer = tokio::time::timeout(CALL_TIMEOUT, answer).await;
        lock(&self.waiting).remove(&call);
        answer.ok()?.ok()
    }

    /// Answers a call of another node.
    pub fn answer(&self, node: &str, call: u64, answer: Answer) {
        self.send(node, &Envelope::Answer { call, answer });
    }

    fn answered(&self, call: u64, answer: Answer) {
        if let Some(reply) = lock(&self.waiting).remove(&call) {
            let _ = reply.send(answer);
        }
    }

    pub fn is_direct(&self, channel: &str) -> bool {
        channel == self.direct
    }
}

/// Sends the outgoing messages in order, as many as wait (up to [`BATCH`]) in one statement.
async fn send_all(pool: PgPool, mut queue: mpsc::UnboundedReceiver<Outgoing>) {
    let mut batch = Vec::with_capacity(BATCH);
    while queue.recv_many(&mut batch, BATCH).await > 0 {
        let (mut channels, mut payloads, mut flushed) = (Vec::new(), Vec::new(), Vec::new());
        for out in batch.drain(..) {
            if let Some(sent) = out.sent {
                flushed.push(sent);
                continue;
            }
            let payload = if out.payload.len() > MAX_PAYLOAD {
                match keep_long(&pool, &out.payload).await {
                    Ok(id) => format!("@{id}"),
                    Err(e) => {
                        tracing::warn!("cannot keep a long cluster message: {e}");
                        continue;
                    }
                }
            } else {
                out.payload
            };
            channels.push(out.channel);
            payloads.push(payload);
        }
        if !channels.is_empty() {
            let sent = sqlx::query("SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS m(c, p)")
                .bind(&channels)
                .bind(&payloads)
                .execute(&pool)
                .await;
            if let Err(e) = sent {
                tracing::warn!("cannot send {} cluster messages: {e}", channels.len());
            }
        }
        for sent in flushed {
            let _ = sent.send(());
        }
    }
}

async fn keep_long(pool: &PgPool, body: &str) -> Result<String, sqlx::Error> {
    let id = crate::token::new_seat_token();
    sqlx::query(&format!(
        "INSERT INTO cluster_mail (id, body, created_ms) VALUES ($1, $2, {})",
        super::DB_NOW_MS
    ))
    .bind(&id)
    .bind(body)
    .execute(pool)
    .await?;
    Ok(id)
}

/// Starts listening on the node's channels; incoming messages are handled in order.
pub async fn listen(cluster: &Arc<Cluster>, inbox: Inbox) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(cluster.pool()).await?;
    listener.listen_all(inbox.channels.iter().map(String::as_str)).await?;
    tokio::spawn(super::calls::answer_all(Arc::downgrade(cluster), inbox.calls));
    let weak = Arc::downgrade(cluster);
    tokio::spawn(async move {
        loop {
            let notification = match listener.recv().await {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!("cluster listener: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            };
            let Some(cluster) = weak.upgrade() else { return };
            let direct = cluster.bus.is_direct(notification.channel());
            let payload = notification.payload();
            let text = match payload.strip_prefix('@') {
                Some(id) => match read_long(cluster.pool(), id).await {
                    Some(body) => body,
                    None => continue,
                },
                None => payload.to_string(),
            };
            match serde_json::from_str(&text) {
                Ok(envelope) => cluster.take_in(envelope, direct),
                Err(e) => tracing::warn!("dropping a cluster message that is not one: {e}"),
            }
        }
    });
    Ok(())
}

async fn read_long(pool: &PgPool, id: &str) -> Option<String> {
    let body: Result<Option<(String,)>, _> =
        sqlx::query_as("SELECT body FROM cluster_mail WHERE id = $1").bind(id).fetch_optional(pool).await;
    match body {
        Ok(body) => body.map(|(b,)| b),
        Err(e) => {
            tracing::warn!("reading a long cluster message: {e}");
            None
        }
    }
}

impl Cluster {
    /// Takes in a message from another node: `direct` if it came on this node's own channel
    /// or link, else on the channel for all.
    pub(super) fn take_in(&self, envelope: Envelope, direct: bool) {
        match envelope {
            Envelope::Call { from, call, request } if direct => {
                let _ = self.bus.calls.send((from, call, request));
            }
            Envelope::Answer { call, answer } if direct => self.bus.answered(call, answer),
            Envelope::State { game, text } if direct => {
                if let Some(registry) = self.registry() {
                    registry.remote_state(&game, text);
                }
            }
            Envelope::Notice { notice } if !direct => self.heard(notice),
            Envelope::Seated { conn, game, color } if direct => self.seated(conn, game, color),
            Envelope::Linked { from, link } if direct => self.bus.links.marked(&from, &link),
            _ => tracing::warn!("dropping a cluster message on the wrong channel"),
        }
    }

    /// Takes in a notice from any node.
    fn heard(&self, notice: Notice) {
        match notice {
            Notice::NodeGone { node } => self.node_gone(node),
            Notice::Lobby { game, entry, waiting } => {
                if let Some(registry) = self.registry() {
                    registry.remote_lobby(&game, entry.and_then(|e| e.entry(&game)), waiting);
                }
            }
            Notice::GamesChanged { node } => {
                if node == self.node {
                    return;
                }
                if let Some(registry) = self.registry() {
                    registry.games_changed_elsewhere();
                }
            }
            Notice::Challenge(challenge) => self.challenged(challenge),
        }
    }
}
