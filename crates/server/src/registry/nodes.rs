//! The registry's part in a cluster of nodes (see `cluster`): the stand-ins of games other
//! nodes run, the lobby and list changes heard from them, and the games taken over from dead
//! or draining nodes.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::{lobby_listing, lock, Registry};
use crate::actor::{Command, GameHandle};
use crate::cluster::{Cluster, Owner};
use crate::error::ApiError;
use crate::protocol::LobbyEntry;
use crate::store::StoreError;

impl Registry {
    /// Forgets the stand-in of a game another node runs, once nobody here follows it.
    pub(crate) fn unload_stand_in(&self, id: &str) {
        let mut games = lock(&self.games);
        if games.get(id).is_some_and(|h| h.remote) {
            games.remove(id);
        }
    }

    /// The cluster this node belongs to, on PostgreSQL.
    pub(crate) fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// Joins the other nodes on the PostgreSQL database at `url` (once, at start).
    pub async fn join_cluster(self: &Arc<Self>, url: &str) -> Result<(), StoreError> {
        let cluster = Cluster::join(url, self).await?;
        let _ = self.cluster.set(cluster);
        Ok(())
    }

    /// This node's id in its cluster, if it is in one.
    pub fn node(&self) -> Option<&str> {
        self.cluster().map(|c| c.node())
    }

    /// Records a new game as this node's to run (before anyone can see it).
    pub(crate) async fn own_new(&self, id: &str) -> Result<(), ApiError> {
        if let Some(cluster) = self.cluster() {
            cluster.own(id).await.map_err(StoreError::from)?;
        }
        Ok(())
    }

    /// A new state of a game another node runs, for this node's subscribers.
    pub(crate) fn remote_state(&self, id: &str, text: String) {
        if let Some(handle) = lock(&self.games).get(id).filter(|h| h.remote) {
            let _ = handle.updates.send(Arc::from(text));
        }
    }

    /// A change to the lobby made on another node: the game's entry while it waits open.
    pub(crate) fn remote_lobby(&self, id: &str, entry: Option<LobbyEntry>, waiting: bool) {
        if !waiting {
            lock(&self.ledger).remove_waiting(id);
        }
        let mut open = lock(&self.open_games);
        let changed = match entry {
            Some(entry) => open.insert(id.to_string(), entry.clone()) != Some(entry),
            None => open.remove(id).is_some(),
        };
        if changed {
            self.lobby.send_replace(Arc::new(lobby_listing(&open)));
        }
    }

    /// Games changed on another node: the list of games is read again.
    pub(crate) fn games_changed_elsewhere(&self) {
        self.games_list_stale.store(true, Ordering::Release);
    }

    /// The actor of a game this node runs, loaded if the database says this node runs it;
    /// `None` for a game it does not run (a call naming it is refused).
    pub(crate) async fn owned_handle(self: &Arc<Self>, id: &str) -> Option<GameHandle> {
        if let Some(handle) = lock(&self.games).get(id) {
            if !handle.remote && !handle.commands.is_closed() {
                return Some(handle.clone());
            }
        }
        let cluster = self.cluster()?;
        if cluster.is_draining() {
            return None;
        }
        match cluster.owner_of(id).await {
            Ok(Some(node)) if node == cluster.node() => {}
            _ => return None,
        }
        self.handle(id).await.ok().filter(|h| !h.remote)
    }

    /// The seat a seat token holds in a game, wherever the game runs (`None` if none, or if
    /// the game cannot be reached).
    pub(crate) async fn seat_of_token(
        self: &Arc<Self>,
        id: &str,
        token: &str,
    ) -> Option<checkers_rules::Color> {
        let (reply, rx) = tokio::sync::oneshot::channel();
        let command = crate::actor::Command::SeatOf { token_hash: crate::token::hash_token(token), reply };
        self.send(id, command, rx).await.ok().flatten()
    }

    /// Takes over the games that must run (a clock, the computer) that no live node runs;
    /// returns how many were taken here.
    pub(crate) async fn take_orphans(self: &Arc<Self>) -> usize {
        let Some(cluster) = self.cluster() else { return 0 };
        if cluster.is_draining() {
            return 0;
        }
        let ids = match cluster.orphans().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("looking for games no node runs: {e}");
                return 0;
            }
        };
        let mut taken = 0;
        for id in ids {
            // A stand-in here finds the new owner by itself.
            if lock(&self.games).contains_key(&id) {
                continue;
            }
            if let Ok(Owner::ThisNode) = cluster.claim(&id).await {
                match self.handle(&id).await {
                    Ok(_) => taken += 1,
                    Err(e) => tracing::warn!("cannot take over game {id}: {}", e.message),
                }
            }
        }
        if taken > 0 {
            tracing::info!("took over {taken} games no node ran");
        }
        taken
    }

    /// Forgets a node that died or drained: the games run here stop sending it their states,
    /// and the games waiting for an opponent that it would have deleted in time are read,
    /// so that this node deletes them; then the games it ran that must run are taken over.
    pub(crate) async fn forget_node(self: &Arc<Self>, node: &str) {
        let handles: Vec<GameHandle> = lock(&self.games).values().filter(|h| !h.remote).cloned().collect();
        for handle in handles {
            let _ = handle.commands.try_send(Command::Follow { node: node.to_string(), connected: None });
        }
        if let Err(e) = self.recall_waiting_games().await {
            tracing::warn!("reading the games waiting for an opponent: {e}");
        }
        self.take_orphans().await;
    }

    /// Stops every game this node runs (its lease was lost, or it drains): another node may
    /// run them now.
    pub(crate) fn drop_local_games(&self) {
        lock(&self.games).retain(|_, h| h.remote);
        self.fence.send_modify(|n| *n += 1);
    }

    /// Hands every game over to the other nodes and leaves the cluster (a drain's end).
    pub async fn leave_cluster(&self) -> Result<(), StoreError> {
        let Some(cluster) = self.cluster() else { return Ok(()) };
        cluster.stop_taking();
        self.drop_local_games();
        self.store.flush().await?;
        cluster.leave().await?;
        Ok(())
    }
}
