//! Several nodes on one PostgreSQL database: any number of `checkers serve` processes share the
//! games, each live game run by one node at a time (its owner), the others passing it their
//! clients' messages and relaying its states. SQLite has no cluster: one node holds everything.
//!
//! - **Nodes** name themselves at start (a random id) and keep a lease in the table `nodes`,
//!   renewed every [`RENEW`] for [`LEASE`] on the database's clock. A node whose lease ran out
//!   is dead: the first node to see it deletes it, forgets which games it owned and tells
//!   every node (`Notice::NodeGone`); the games that must run (a clock, the computer to
//!   move) are then taken by whichever node claims them first, within [`LEASE`] + [`RENEW`] of
//!   the death plus a load. A node that finds its own lease gone (it was paused, cut off)
//!   drops every game it held: another may run them now.
//! - **Owners** are rows of `game_owners`. A node that needs a game no live node owns claims it
//!   ([`Cluster::claim`]) and runs it as before (`actor`); a game another node owns is
//!   followed through a `remote` stand-in, which passes commands on as calls and feeds the
//!   owner's states to this node's subscribers.
//! - **Messages** go by `LISTEN`/`NOTIFY` (`bus`): one channel a node, one for all; a message
//!   for one node goes over a direct link to it instead once there is one (`link`: a
//!   WebSocket to the address it registered, proven with its key). Every message is parsed
//!   into a typed `bus::Envelope`; anything else is dropped, and a call naming a game this
//!   node does not own is refused without touching it.
//! - **Matchmaking** (`pairing`): the quick-pairing pools and who is online are rows shared
//!   by the nodes, each pairing round run by one node; challenges reach every node, and an
//!   answer given on another node than the challenger's is passed to it as a call.
//!
//! Must not depend on the web layer (`web`, `ws`): it moves commands and states, not sockets.

mod bus;
mod calls;
mod lease;
mod link;
mod pairing;
mod remote;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use tokio::sync::watch;

pub(crate) use bus::{LobbyWire, Notice, Request};
pub(crate) use link::route as link_route;
pub(crate) use pairing::{ChallengeCall, Challenged, SharedPairing, SharedSeek};
pub(crate) use remote::RemoteGame;

use crate::registry::{lock, Registry};
use crate::store::StoreError;

/// How long a node's lease lasts once renewed: a node silent this long is dead.
pub const LEASE: Duration = Duration::from_secs(3);
/// How often a node renews its lease and looks for dead ones.
pub const RENEW: Duration = Duration::from_secs(1);
/// How often a node looks for games that must run and that no live node runs (a missed
/// notice only delays their takeover by this long).
const ORPHAN_SWEEP: Duration = Duration::from_secs(5);

/// The database's clock in milliseconds: leases are counted on it, so the machines' clocks
/// need not agree.
const DB_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// Who runs a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    ThisNode,
    Node(String),
}

/// This node's part in the cluster.
pub struct Cluster {
    node: String,
    pool: PgPool,
    bus: bus::Bus,
    registry: Weak<Registry>,
    /// Nodes known to be gone; bumped when one goes, so stand-ins of their games look again.
    gone: watch::Sender<u64>,
    gone_nodes: Mutex<HashSet<String>>,
    /// The node is draining: it takes no game and hands over those it has.
    draining: AtomicBool,
    /// Where the other nodes open their links to this one, once it listens.
    link_addr: Mutex<Option<String>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster").field("node", &self.node).finish_non_exhaustive()
    }
}

impl Cluster {
    /// Joins the cluster of the PostgreSQL database at `url` (its schema brought up to date
    /// by [`crate::Store::open`]) for `registry`: registers the node, listens for messages and
    /// starts renewing the lease.
    pub async fn join(url: &str, registry: &Arc<Registry>) -> Result<Arc<Cluster>, StoreError> {
        let pool = PgPoolOptions::new().max_connections(6).connect(url).await?;
        let node = crate::token::new_game_id();
        let schema: (String,) = sqlx::query_as("SELECT current_schema()").fetch_one(&pool).await?;
        let (bus, inbox) = bus::Bus::new(&pool, &schema.0, &node);
        let cluster = Arc::new(Cluster {
            node,
            pool,
            bus,
            registry: Arc::downgrade(registry),
            gone: watch::Sender::new(0),
            gone_nodes: Mutex::new(HashSet::new()),
            draining: AtomicBool::new(false),
            link_addr: Mutex::new(None),
        });
        cluster.register().await?;
        bus::listen(&cluster, inbox).await?;
        lease::keep(&cluster).map_err(sqlx::Error::Io)?;
        tokio::spawn(watch_nodes(Arc::downgrade(&cluster)));
        tracing::info!("node {} joined the cluster", cluster.node);
        Ok(cluster)
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    pub(crate) fn pool(&self) -> &PgPool {
        &self.pool
    }

    fn registry(&self) -> Option<Arc<Registry>> {
        self.registry.upgrade()
    }

    async fn register(&self) -> Result<(), sqlx::Error> {
        sqlx::query(&lease::register_statement())
            .bind(&self.node)
            .bind(LEASE.as_millis() as i64)
            .bind(self.link_addr())
            .bind(self.bus.links().key())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Where the other nodes reach this one, once it listens.
    fn link_addr(&self) -> Option<String> {
        lock(&self.link_addr).clone()
    }

    /// The node listens on `addr`: registers where the other nodes open their links to it.
    pub async fn listening(&self, addr: SocketAddr) -> Result<(), sqlx::Error> {
        let advertised = link::advertised(&self.pool, addr).await.to_string();
        *lock(&self.link_addr) = Some(advertised.clone());
        sqlx::query("UPDATE nodes SET link_addr = $2 WHERE id = $1")
            .bind(&self.node)
            .bind(&advertised)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records a game just created here as this node's.
    pub async fn own(&self, game: &str) -> Result<(), sqlx::Error> {
        sqlx::query(&format!(
            "INSERT INTO game_owners (game_id, node, since_ms) VALUES ($1, $2, {DB_NOW_MS}) \
             ON CONFLICT (game_id) DO UPDATE SET node = EXCLUDED.node, since_ms = EXCLUDED.since_ms"
        ))
        .bind(game)
        .bind(&self.node)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes a game nobody alive runs (or that this node runs already); else names its owner.
    /// A draining node takes nothing.
    pub async fn claim(&self, game: &str) -> Result<Owner, sqlx::Error> {
        for _ in 0..3 {
            if !self.draining.load(Ordering::Acquire) {
                let taken: Option<(String,)> = sqlx::query_as(&format!(
                    "INSERT INTO game_owners (game_id, node, since_ms) VALUES ($1, $2, {DB_NOW_MS}) \
                     ON CONFLICT (game_id) DO UPDATE SET node = EXCLUDED.node, since_ms = EXCLUDED.since_ms \
                     WHERE game_owners.node = EXCLUDED.node OR NOT EXISTS (SELECT 1 FROM nodes n \
                       WHERE n.id = game_owners.node AND n.alive_until_ms > {DB_NOW_MS}) \
                     RETURNING node"
                ))
                .bind(game)
                .bind(&self.node)
                .fetch_optional(&self.pool)
                .await?;
                if taken.is_some() {
                    return Ok(Owner::ThisNode);
                }
            }
            if let Some(owner) = self.owner_of(game).await? {
                return Ok(if owner == self.node { Owner::ThisNode } else { Owner::Node(owner) });
            }
            if self.draining.load(Ordering::Acquire) {
                break;
            }
        }
        Err(sqlx::Error::RowNotFound)
    }

    /// The node the database names as a game's owner, if any.
    pub async fn owner_of(&self, game: &str) -> Result<Option<String>, sqlx::Error> {
        let owner: Option<(String,)> = sqlx::query_as("SELECT node FROM game_owners WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        Ok(owner.map(|(node,)| node))
    }

    /// Lets a game go (it left memory here): the next node that needs it claims it.
    pub async fn release(&self, game: &str) {
        let released = sqlx::query("DELETE FROM game_owners WHERE game_id = $1 AND node = $2")
            .bind(game)
            .bind(&self.node)
            .execute(&self.pool)
            .await;
        if let Err(e) = released {
            tracing::warn!("releasing game {game}: {e}");
        }
    }

    /// Whether the node drains (takes no game).
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Hands every game over and leaves the cluster: called by a draining node once its own
    /// actors have stopped. The other nodes take the games that must run at once.
    pub async fn leave(&self) -> Result<(), sqlx::Error> {
        self.draining.store(true, Ordering::Release);
        sqlx::query("DELETE FROM game_owners WHERE node = $1").bind(&self.node).execute(&self.pool).await?;
        self.drop_matchmaking_rows(&self.node).await?;
        sqlx::query("DELETE FROM nodes WHERE id = $1").bind(&self.node).execute(&self.pool).await?;
        self.bus.broadcast(&Notice::NodeGone { node: self.node.clone() });
        self.bus.flush().await;
        Ok(())
    }

    /// Stops taking games (the start of a drain).
    pub fn stop_taking(&self) {
        self.draining.store(true, Ordering::Release);
    }

    /// Tells every node.
    pub fn broadcast(&self, notice: &Notice) {
        self.bus.broadcast(notice);
    }

    /// Sends a game's new state to a node that follows it.
    pub fn send_state(&self, node: &str, game: &str, text: &str) {
        self.bus.send(node, &bus::Envelope::State { game: game.to_string(), text: text.to_string() });
    }

    /// Asks `node` and waits for its answer (`None` if none came in time).
    pub async fn call(&self, node: &str, request: Request) -> Option<bus::Answer> {
        self.bus.call(node, &self.node, request).await
    }

    /// A receiver that changes whenever a node is known to be gone.
    pub fn gone_watch(&self) -> watch::Receiver<u64> {
        self.gone.subscribe()
    }

    pub fn is_gone(&self, node: &str) -> bool {
        lock(&self.gone_nodes).contains(node)
    }

    fn node_gone(&self, node: String) {
        if node == self.node {
            return;
        }
        if !lock(&self.gone_nodes).insert(node.clone()) {
            return;
        }
        self.bus.links().forget(&node);
        self.gone.send_modify(|n| *n += 1);
        if let Some(registry) = self.registry() {
            tokio::spawn(async move { registry.forget_node(&node).await });
        }
    }

    /// Deletes the nodes whose lease ran out and forgets the games they owned; tells every
    /// node. Returns how many were found dead.
    async fn reap(&self) -> Result<usize, sqlx::Error> {
        let dead: Vec<(String,)> =
            sqlx::query_as(&format!("DELETE FROM nodes WHERE alive_until_ms < {DB_NOW_MS} RETURNING id"))
                .fetch_all(&self.pool)
                .await?;
        for (node,) in &dead {
            sqlx::query("DELETE FROM game_owners WHERE node = $1").bind(node).execute(&self.pool).await?;
            self.drop_matchmaking_rows(node).await?;
            tracing::warn!("node {node} is dead: its games are taken over");
            crate::metrics::METRICS.failovers.inc();
            self.bus.broadcast(&Notice::NodeGone { node: node.clone() });
            self.node_gone(node.clone());
        }
        Ok(dead.len())
    }

    /// Games that must run (a clock running, a computer seat) that no live node owns.
    pub async fn orphans(&self) -> Result<Vec<String>, sqlx::Error> {
        let ids: Vec<(String,)> = sqlx::query_as(&format!(
            "SELECT g.id FROM games g WHERE g.status = 'playing' AND (g.turn_started_ms IS NOT NULL \
               OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'computer')) \
             AND NOT EXISTS (SELECT 1 FROM game_owners o JOIN nodes n ON n.id = o.node \
               WHERE o.game_id = g.id AND n.alive_until_ms > {DB_NOW_MS}) \
             ORDER BY g.created_ms"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// Deletes long messages older than a minute.
    async fn prune_mail(&self) -> Result<(), sqlx::Error> {
        sqlx::query(&format!("DELETE FROM cluster_mail WHERE created_ms < {DB_NOW_MS} - 60000"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Reaps dead nodes and takes orphaned games, while the cluster lasts (the lease itself is
/// renewed apart, by `lease`).
async fn watch_nodes(cluster: Weak<Cluster>) {
    let mut tick = tokio::time::interval(RENEW);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let sweep_every = (ORPHAN_SWEEP.as_millis() / RENEW.as_millis()).max(1) as u64;
    let mut ticks = 0u64;
    loop {
        tick.tick().await;
        let Some(cluster) = cluster.upgrade() else { return };
        if cluster.is_draining() {
            continue;
        }
        if let Err(e) = cluster.reap().await {
            tracing::warn!("looking for dead nodes: {e}");
        }
        ticks += 1;
        if ticks.is_multiple_of(sweep_every) {
            if let Some(registry) = cluster.registry() {
                registry.take_orphans().await;
            }
            if let Err(e) = cluster.prune_mail().await {
                tracing::warn!("pruning cluster mail: {e}");
            }
        }
    }
}
