//! Direct links between nodes: a node sends another its calls, answers and game states over a
//! WebSocket it opens to that node's `/cluster/link` (on the address the node registered in
//! `nodes`), instead of through `NOTIFY`. A message through `NOTIFY` costs a transaction on
//! the database, which then wakes every node's listener; a cross-node move took three such
//! messages and two states. The link is one-way (each node opens its own to send) and ordered.
//!
//! - **Who may send**: each node registers a random link key with its address; only someone
//!   who can read `nodes` can prove it. The accepting node sends its id and a fresh nonce;
//!   the connecting node answers with its own id and SHA-256(key ":" nonce ":" id), and checks
//!   the id (an address may be another node's after a restart). A link that does not prove it
//!   is closed and nothing it sent is read; a call over a link must come from its node.
//! - **Order**: messages to a node go through `NOTIFY` until its link is up. When the
//!   connection is made, the sender posts a marker (`Linked`) through `NOTIFY` after
//!   everything before it, and keeps what it sends next until the other node has read the
//!   marker and says `ready` on the link: every message sent through `NOTIFY` is then handled
//!   before the first one sent over the link.
//! - **Failure**: a node that cannot be reached (no address yet, an older node, a firewall, a
//!   link that broke) gets its messages through `NOTIFY` again, what waited for the link
//!   first; the link is tried again after [`RETRY`]. Messages written to a link that broke
//!   may be lost, as a `NOTIFY` to a node that died is (calls are tried again, states come
//!   with the next change), and if the other node still lives, the first messages through
//!   `NOTIFY` may reach it before the last ones it read from the link: a link breaks
//!   between live nodes only when the network between them fails.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use sqlx::postgres::PgPool;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite;

use super::bus::{Envelope, Outgoing};
use super::Cluster;
use crate::registry::{lock, Registry};

/// How long an unreachable node's messages go through `NOTIFY` before its link is tried again.
pub const RETRY: Duration = Duration::from_secs(5);
/// How long a connection, its handshake, or the other node's `ready` may take.
const HANDSHAKE: Duration = Duration::from_secs(5);
/// Largest message read from a link: a state carries the game's moves, a few KiB at most.
pub const MAX_MESSAGE: usize = 1024 * 1024;
/// How much a link reads at a time (the buffer is zeroed for every read: the default 128 KiB
/// cost more than the messages).
const READ_BUFFER: usize = 16 * 1024;
/// Most messages written to a link before it is flushed.
const BATCH: usize = 256;

/// What the accepting node says first.
#[derive(Serialize, Deserialize)]
struct Hello {
    node: String,
    nonce: String,
}

/// The connecting node's answer.
#[derive(Serialize, Deserialize)]
struct Proof {
    from: String,
    proof: String,
}

/// The accepting node has read the marker: messages may come over the link now.
const READY: &str = "ready";

fn proof(key: &str, nonce: &str, from: &str) -> String {
    crate::token::hash_token(&format!("{key}:{nonce}:{from}"))
}

/// How messages reach one node.
enum Path {
    /// Being connected: through `NOTIFY` meanwhile.
    Connecting,
    /// The marker went through `NOTIFY`: messages wait here for `ready`.
    Waiting(Vec<String>),
    Up(mpsc::UnboundedSender<String>),
    /// Through `NOTIFY` until `retry`.
    Down {
        retry: Instant,
    },
}

struct Peer {
    path: Path,
    /// Which connecting task the path is for (a forgotten node's task may still run).
    attempt: u64,
}

/// This node's links: its own key, the paths to the other nodes, and the links accepted from
/// them that wait for their marker.
pub struct Links {
    node: String,
    key: String,
    prefix: String,
    pool: PgPool,
    outbox: mpsc::UnboundedSender<Outgoing>,
    peers: Mutex<HashMap<String, Peer>>,
    attempts: Mutex<u64>,
    /// Accepted links waiting for their marker, by nonce.
    accepted: Mutex<HashMap<String, Accepted>>,
}

/// A link accepted from another node that waits for its marker (which may come through
/// `NOTIFY` before the link's proof is read).
struct Accepted {
    /// The node the link proved to come from.
    from: Option<String>,
    /// The node whose marker named the link.
    marked_by: Option<String>,
    ready: Option<oneshot::Sender<()>>,
}

impl Accepted {
    /// Says `ready` once the link is proven and its own node's marker has come.
    fn check(&mut self) {
        if self.from.is_some() && self.from == self.marked_by {
            if let Some(ready) = self.ready.take() {
                let _ = ready.send(());
            }
        }
    }
}

impl Links {
    pub fn new(
        node: &str,
        prefix: &str,
        pool: &PgPool,
        outbox: mpsc::UnboundedSender<Outgoing>,
    ) -> Arc<Links> {
        Arc::new(Links {
            node: node.to_string(),
            key: crate::token::new_session_token(),
            prefix: prefix.to_string(),
            pool: pool.clone(),
            outbox,
            peers: Mutex::new(HashMap::new()),
            attempts: Mutex::new(0),
            accepted: Mutex::new(HashMap::new()),
        })
    }

    /// The key another node proves it knows (registered with the address).
    pub fn key(&self) -> &str {
        &self.key
    }

    fn notify(&self, node: &str, payload: String) {
        crate::metrics::METRICS.cluster_messages.with_label_values(&["notify"]).inc();
        let channel = format!("{}n{node}", self.prefix);
        let _ = self.outbox.send(Outgoing { channel, payload, sent: None });
    }

    /// Sends a message to `node`: over its link when it is up, else through `NOTIFY` (and
    /// starts connecting if it is time to).
    pub fn send(self: &Arc<Self>, node: &str, payload: String) {
        let mut peers = lock(&self.peers);
        let connect = match peers.get_mut(node).map(|p| &mut p.path) {
            Some(Path::Up(link)) => match link.send(payload) {
                Ok(()) => {
                    crate::metrics::METRICS.cluster_messages.with_label_values(&["link"]).inc();
                    return;
                }
                // The link's task has ended and will say so: through NOTIFY meanwhile.
                Err(mpsc::error::SendError(payload)) => {
                    self.notify(node, payload);
                    return;
                }
            },
            Some(Path::Waiting(waiting)) => {
                waiting.push(payload);
                return;
            }
            Some(Path::Connecting) => false,
            Some(Path::Down { retry }) => *retry <= Instant::now(),
            None => true,
        };
        if connect {
            let attempt = {
                let mut attempts = lock(&self.attempts);
                *attempts += 1;
                *attempts
            };
            peers.insert(node.to_string(), Peer { path: Path::Connecting, attempt });
            tokio::spawn(connect_to(Arc::downgrade(self), node.to_string(), attempt));
        }
        // Under the lock: a path changing now waits until this is in the outbox.
        self.notify(node, payload);
    }

    /// Forgets a node that is gone: its link is closed.
    pub fn forget(&self, node: &str) {
        lock(&self.peers).remove(node);
    }

    /// The connection is made and proven: the marker goes through `NOTIFY` (after everything
    /// sent before), and what is sent next waits for `ready`.
    fn mark(&self, node: &str, attempt: u64, nonce: &str) -> bool {
        let mut peers = lock(&self.peers);
        let Some(peer) = peers.get_mut(node).filter(|p| p.attempt == attempt) else { return false };
        let marker = Envelope::Linked { from: self.node.clone(), link: nonce.to_string() };
        match serde_json::to_string(&marker) {
            Ok(payload) => self.notify(node, payload),
            Err(_) => return false,
        }
        peer.path = Path::Waiting(Vec::new());
        true
    }

    /// The other node read the marker: what waited goes over the link, and all that follows.
    fn up(&self, node: &str, attempt: u64) -> Option<mpsc::UnboundedReceiver<String>> {
        let mut peers = lock(&self.peers);
        let peer = peers.get_mut(node).filter(|p| p.attempt == attempt)?;
        let (link, messages) = mpsc::unbounded_channel();
        if let Path::Waiting(waiting) = std::mem::replace(&mut peer.path, Path::Connecting) {
            crate::metrics::METRICS
                .cluster_messages
                .with_label_values(&["link"])
                .inc_by(waiting.len() as u64);
            for payload in waiting {
                let _ = link.send(payload);
            }
        }
        peer.path = Path::Up(link);
        Some(messages)
    }

    /// The link could not be made, or broke: what waited for it, or was not written to it
    /// yet, goes through `NOTIFY`, and so does all that follows until [`RETRY`] has passed.
    fn down(&self, node: &str, attempt: u64, unsent: Option<mpsc::UnboundedReceiver<String>>) {
        let mut peers = lock(&self.peers);
        let Some(peer) = peers.get_mut(node).filter(|p| p.attempt == attempt) else { return };
        let before = std::mem::replace(&mut peer.path, Path::Down { retry: Instant::now() + RETRY });
        if let Path::Waiting(waiting) = before {
            for payload in waiting {
                self.notify(node, payload);
            }
        }
        if let Some(mut unsent) = unsent {
            unsent.close();
            while let Ok(payload) = unsent.try_recv() {
                self.notify(node, payload);
            }
        }
    }

    /// A marker read through `NOTIFY`: the link it names may carry messages now.
    pub fn marked(&self, from: &str, nonce: &str) {
        if let Some(link) = lock(&self.accepted).get_mut(nonce) {
            link.marked_by = Some(from.to_string());
            link.check();
        }
    }
}

/// Where another node reaches this one: the address it listens on, or if that is every
/// address of the machine, the one the database sees it connect from.
pub async fn advertised(pool: &PgPool, listening: SocketAddr) -> SocketAddr {
    if !listening.ip().is_unspecified() {
        return listening;
    }
    let seen: Result<(Option<String>,), _> =
        sqlx::query_as("SELECT host(inet_client_addr())").fetch_one(pool).await;
    let ip = match seen.ok().and_then(|(host,)| host?.parse::<IpAddr>().ok()) {
        Some(ip) => ip,
        None if listening.is_ipv4() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        None => IpAddr::V6(Ipv6Addr::LOCALHOST),
    };
    SocketAddr::new(ip, listening.port())
}

type Stream = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Opens the link to `node` and writes to it until it breaks or the node is forgotten.
async fn connect_to(links: Weak<Links>, node: String, attempt: u64) {
    let mut unsent = None;
    if let Err(e) = link_to(&links, &node, attempt, &mut unsent).await {
        match unsent {
            Some(_) => {
                tracing::warn!("the link to node {node} broke ({e}): through NOTIFY until it is made again")
            }
            None => tracing::debug!("no link to node {node} ({e}): through NOTIFY for now"),
        }
    }
    if let Some(links) = links.upgrade() {
        links.down(&node, attempt, unsent);
    }
}

async fn link_to(
    links: &Weak<Links>,
    node: &str,
    attempt: u64,
    unsent: &mut Option<mpsc::UnboundedReceiver<String>>,
) -> anyhow::Result<()> {
    let (pool, me) = match links.upgrade() {
        Some(links) => (links.pool.clone(), links.node.clone()),
        None => return Ok(()),
    };
    let row: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT link_addr, link_key FROM nodes WHERE id = $1")
            .bind(node)
            .fetch_optional(&pool)
            .await?;
    let Some((Some(addr), Some(key))) = row else { anyhow::bail!("no address registered") };
    let mut ws = tokio::time::timeout(HANDSHAKE, open(&addr)).await??;
    let hello: Hello = match tokio::time::timeout(HANDSHAKE, ws.next()).await? {
        Some(Ok(tungstenite::Message::Text(text))) => serde_json::from_str(&text)?,
        other => anyhow::bail!("no greeting: {other:?}"),
    };
    anyhow::ensure!(hello.node == node, "{addr} is node {} now", hello.node);
    let answer = Proof { proof: proof(&key, &hello.nonce, &me), from: me };
    ws.send(tungstenite::Message::text(serde_json::to_string(&answer)?)).await?;
    match links.upgrade() {
        Some(l) if l.mark(node, attempt, &hello.nonce) => {}
        _ => return Ok(()),
    }
    loop {
        match tokio::time::timeout(HANDSHAKE, ws.next()).await? {
            Some(Ok(tungstenite::Message::Text(text))) if text.as_str() == READY => break,
            Some(Ok(tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_))) => {}
            other => anyhow::bail!("not ready: {other:?}"),
        }
    }
    let messages = match links.upgrade().and_then(|l| l.up(node, attempt)) {
        Some(messages) => unsent.insert(messages),
        None => return Ok(()),
    };
    tracing::info!("linked to node {node} at {addr}");
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        tokio::select! {
            n = messages.recv_many(&mut batch, BATCH) => {
                if n == 0 {
                    // Forgotten: the node is gone.
                    let _ = ws.close(None).await;
                    return Ok(());
                }
                for payload in batch.drain(..) {
                    ws.feed(tungstenite::Message::text(payload)).await?;
                }
                ws.flush().await?;
            }
            read = ws.next() => match read {
                Some(Ok(tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_))) => {}
                other => anyhow::bail!("the link ended: {other:?}"),
            }
        }
    }
}

async fn open(addr: &str) -> anyhow::Result<Stream> {
    let tcp = tokio::net::TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/cluster/link"), tcp).await?;
    Ok(ws)
}

/// `GET /cluster/link`: a link another node opens to this one (not found on a node in no
/// cluster).
pub async fn route(State(registry): State<Arc<Registry>>, upgrade: WebSocketUpgrade) -> Response {
    let Some(cluster) = registry.cluster() else { return StatusCode::NOT_FOUND.into_response() };
    let cluster = Arc::downgrade(cluster);
    upgrade
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| accept(cluster, socket))
}

/// A link another node opened to this one: greets it, reads its proof, says `ready` once its
/// marker came through `NOTIFY`, and hands each message it sends to the cluster.
pub async fn accept(cluster: Weak<Cluster>, mut socket: WebSocket) {
    let Some(links) = cluster.upgrade().map(|c| c.bus.links().clone()) else { return };
    let nonce = crate::token::new_seat_token();
    let (ready, mut marked) = oneshot::channel();
    let waiting = Accepted { from: None, marked_by: None, ready: Some(ready) };
    lock(&links.accepted).insert(nonce.clone(), waiting);
    serve_link(&cluster, &links, &nonce, &mut socket, &mut marked).await;
    lock(&links.accepted).remove(&nonce);
}

async fn serve_link(
    cluster: &Weak<Cluster>,
    links: &Links,
    nonce: &str,
    socket: &mut WebSocket,
    marked: &mut oneshot::Receiver<()>,
) {
    let hello = Hello { node: links.node.clone(), nonce: nonce.to_string() };
    let Ok(hello) = serde_json::to_string(&hello) else { return };
    if socket.send(Message::text(hello)).await.is_err() {
        return;
    }
    let from = match tokio::time::timeout(HANDSHAKE, socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<Proof>(&text) {
            Ok(p) if p.proof == proof(&links.key, nonce, &p.from) => p.from,
            _ => {
                tracing::warn!("refusing a cluster link that does not prove its node");
                return;
            }
        },
        _ => return,
    };
    if let Some(link) = lock(&links.accepted).get_mut(nonce) {
        link.from = Some(from.clone());
        link.check();
    }
    let mut waiting = true;
    loop {
        tokio::select! {
            m = &mut *marked, if waiting => {
                waiting = false;
                if m.is_err() || socket.send(Message::text(READY)).await.is_err() {
                    return;
                }
            }
            read = socket.recv() => {
                let text = match read {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    _ => return,
                };
                let Some(cluster) = cluster.upgrade() else { return };
                match serde_json::from_str::<Envelope>(&text) {
                    Ok(Envelope::Call { from: caller, .. }) if caller != from => {
                        tracing::warn!("dropping a call from node {caller} over node {from}'s link");
                    }
                    // A marker counts only through `NOTIFY`, behind what came that way.
                    Ok(Envelope::Linked { .. }) => tracing::warn!("dropping a link marker sent over a link"),
                    Ok(envelope) => cluster.take_in(envelope, true),
                    Err(e) => tracing::warn!("dropping a cluster message that is not one: {e}"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_binds_the_key_the_nonce_and_the_sender() {
        let p = proof("key", "nonce", "a");
        assert_eq!(p, proof("key", "nonce", "a"));
        assert_ne!(p, proof("other", "nonce", "a"));
        assert_ne!(p, proof("key", "other", "a"));
        assert_ne!(p, proof("key", "nonce", "b"));
    }
}
