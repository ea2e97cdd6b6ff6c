//! This node's side of the matchmaking its cluster shares (see `cluster::pairing`): its
//! connections' seeks and accounts online written to the database, the pairing rounds it
//! runs, the seats other nodes' rounds give its connections, and the answers to challenges
//! passed between the challenged's node and the challenger's.

use std::net::IpAddr;
use std::sync::Arc;

use checkers_rules::Color;

use super::{
    no_such_challenge, pool_spec, random_color, seated, start_challenge, tell_declined, Conn, ConnId, Event,
    Matchmaking, Member, Player, CHALLENGES_PER_ACCOUNT, ROUND_PERIOD,
};
use crate::cluster::{ChallengeCall, Cluster, SharedPairing, SharedSeek};
use crate::error::ApiError;
use crate::pairing::{AccountId, PoolError, PoolKey};
use crate::rating::Rating;
use crate::registry::{lock, Registry};
use crate::store::StoreError;
use crate::token::{hash_token, new_seat_token};

/// A connection of this node waiting in the shared pools: its seek, and the seat token kept
/// for the game it will be given.
pub(super) struct Ticket {
    conn: Conn,
    token: String,
    seek: SharedSeek,
}

/// Records a logged-in connection as online, for the other nodes.
pub(super) async fn come_online(registry: &Registry, conn: &Conn) {
    let (Some(cluster), Some(account)) = (registry.cluster(), &conn.account) else { return };
    if let Err(e) = cluster.come_online(conn.id.0, account).await {
        tracing::warn!("recording a connection online: {e}");
    }
}

/// Forgets a closed connection's seek and account online, for the other nodes.
pub(super) fn forget(registry: &Registry, conn: ConnId) {
    let (Some(cluster), Ok(runtime)) = (registry.cluster().cloned(), tokio::runtime::Handle::try_current())
    else {
        return;
    };
    runtime.spawn(async move {
        if let Err(e) = cluster.forget_conn(conn.0).await {
            tracing::warn!("forgetting a closed connection: {e}");
        }
    });
}

/// Writes again what this node's connections are to the other nodes (online, seeking,
/// challenging), after its lease ran out and its rows were deleted with it.
pub(crate) async fn republish(registry: &Registry) {
    let Some(cluster) = registry.cluster() else { return };
    let (online, seeks, challenges) = {
        let state = lock(&registry.matchmaking.state);
        let online: Vec<Conn> = state.online.values().flatten().cloned().collect();
        let seeks: Vec<SharedSeek> = state.shared_seeks.values().map(|t| t.seek.clone()).collect();
        let challenges: Vec<(String, u64, AccountId, AccountId)> = state
            .challenges
            .iter()
            .filter_map(|(id, c)| Some((id.clone(), c.from.id.0, c.from.account.as_ref()?.id, c.to.id)))
            .collect();
        (online, seeks, challenges)
    };
    for conn in &online {
        come_online(registry, conn).await;
    }
    for seek in &seeks {
        if let Err(e) = cluster.put_seek(seek).await {
            tracing::warn!("seeking again: {e}");
        }
    }
    for (id, conn, from, to) in &challenges {
        if let Err(e) = cluster.hold_challenge(id, *conn, *from, *to, CHALLENGES_PER_ACCOUNT).await {
            tracing::warn!("recording a challenge again: {e}");
        }
    }
}

impl Member {
    /// Joins a shared pool: the seek is in the database, and this node keeps its token.
    pub(super) async fn seek_shared(
        &self,
        registry: &Registry,
        cluster: &Cluster,
        pool: PoolKey,
        rated: bool,
        rating: Rating,
    ) -> Result<(), ApiError> {
        if !rating.rating.is_finite() || !rating.rd.is_finite() {
            return Err(ApiError::bad_request(PoolError::BadRating.to_string()));
        }
        let token = new_seat_token();
        let seek = SharedSeek {
            node: cluster.node().to_string(),
            conn: self.conn.id.0,
            rated,
            pool,
            account: self.conn.account.clone(),
            address: self.conn.client,
            rating: rating.rating,
            rd: rating.rd,
            token_hash: hash_token(&token),
        };
        let ticket = Ticket { conn: self.conn.clone(), token, seek: seek.clone() };
        // Kept before the row is written: a round may pair it at once.
        lock(&registry.matchmaking.state).shared_seeks.insert(self.conn.id, ticket);
        if let Err(e) = cluster.put_seek(&seek).await {
            lock(&registry.matchmaking.state).shared_seeks.remove(&self.conn.id);
            return Err(StoreError::from(e).into());
        }
        Ok(())
    }

    /// Another node holding a challenge to this connection's account: the cluster, the node
    /// and the account.
    async fn holder_of<'r>(
        &self,
        registry: &'r Registry,
        id: &str,
    ) -> Result<(&'r Cluster, String, AccountId), ApiError> {
        let me = self.conn.account.as_ref().ok_or_else(no_such_challenge)?;
        let cluster = registry.cluster().ok_or_else(no_such_challenge)?;
        match cluster.holder_of_challenge(id, me.id).await.map_err(StoreError::from)? {
            // Held here, it would have been found: it is being answered.
            Some(node) if node != cluster.node() => Ok((cluster, node, me.id)),
            _ => Err(no_such_challenge()),
        }
    }

    /// Accepts a challenge another node holds; the new game and this side's colour.
    pub(super) async fn accept_elsewhere(
        &self,
        registry: &Registry,
        id: &str,
        token_hash: String,
    ) -> Result<(String, Color), ApiError> {
        let (cluster, node, account) = self.holder_of(registry, id).await?;
        let call = ChallengeCall::Accept {
            challenge: id.to_string(),
            account,
            client: self.conn.client,
            token_hash,
        };
        cluster.accept_elsewhere(&node, call).await
    }

    /// Declines a challenge another node holds.
    pub(super) async fn decline_elsewhere(&self, registry: &Registry, id: &str) -> Result<(), ApiError> {
        let (cluster, node, account) = self.holder_of(registry, id).await?;
        cluster.decline_elsewhere(&node, ChallengeCall::Decline { challenge: id.to_string(), account }).await
    }
}

impl Matchmaking {
    /// A seat that a round on some node gave a connection of this node: pushed to it once the
    /// game says the token kept for the connection holds that seat (a forged message changes
    /// nothing).
    pub(crate) async fn seated_elsewhere(
        &self,
        registry: &Arc<Registry>,
        conn: u64,
        game: &str,
        color: Color,
    ) {
        let id = ConnId(conn);
        let Some(token) = lock(&self.state).shared_seeks.get(&id).map(|t| t.token.clone()) else { return };
        if registry.seat_of_token(game, &token).await != Some(color) {
            tracing::warn!("dropping a seat in game {game} that the game does not give connection {conn}");
            return;
        }
        let ticket = {
            let mut state = lock(&self.state);
            match state.shared_seeks.get(&id) {
                Some(ticket) if ticket.token == token => state.shared_seeks.remove(&id),
                _ => None,
            }
        };
        if let Some(ticket) = ticket {
            let _ = ticket.conn.inbox.send(Event::Seated(seated(game, color, ticket.token)));
        }
    }

    /// Another node's connection accepts a challenge held here: the game starts. Returns it
    /// and the acceptor's colour.
    pub(crate) async fn accepted_elsewhere(
        &self,
        registry: &Arc<Registry>,
        id: &str,
        account: AccountId,
        client: IpAddr,
        token_hash: String,
    ) -> Result<(String, Color), ApiError> {
        let challenge = self.take_challenge(registry, id, account).await.ok_or_else(no_such_challenge)?;
        start_challenge(registry, challenge, client, token_hash).await
    }

    /// Another node's connection declines a challenge held here.
    pub(crate) async fn declined_elsewhere(
        &self,
        registry: &Registry,
        id: &str,
        account: AccountId,
    ) -> Result<(), ApiError> {
        let challenge = self.take_challenge(registry, id, account).await.ok_or_else(no_such_challenge)?;
        tell_declined(challenge, id);
        Ok(())
    }
}

/// This node's part of a pairing round: the round itself unless another node ran it, then
/// the games of its pairings, each player's node told of its seat.
pub(super) async fn pair_round(registry: &Arc<Registry>, cluster: &Cluster) {
    if cluster.is_draining() {
        return;
    }
    let pairings = match cluster.pair_round(ROUND_PERIOD).await {
        Ok(pairings) => pairings,
        Err(e) => {
            tracing::warn!("pairing the shared pools: {e}");
            return;
        }
    };
    for SharedPairing { pool, rated, seeks } in pairings {
        // The lower rated comes first: either may get White.
        let color = random_color();
        let players = [player(&seeks[0], color), player(&seeks[1], color.opponent())];
        match registry.start_between(&players, pool.variant, Some(pool_spec(pool.clock)), rated).await {
            Ok(game) => {
                for (seek, player) in seeks.iter().zip(&players) {
                    cluster.send_seated(&seek.node, seek.conn, &game, player.color);
                }
            }
            Err(e) => tracing::warn!("starting a paired game: {}", e.message),
        }
    }
}

fn player(seek: &SharedSeek, color: Color) -> Player {
    Player { account: seek.account.clone(), client: seek.address, color, token_hash: seek.token_hash.clone() }
}
