//! Quick pairing, who is online and challenges across the nodes (`matchmaking` says what they
//! are on one node). Seeks, logged-in connections and challenges are rows of `seeks`,
//! `online` and `challenges`, keyed by node and connection: a node writes its connections'
//! rows and deletes them when they leave, a dead node's rows are deleted with it, and the
//! rows of a node whose lease ran out are passed over. Each pairing round is run by one node,
//! the first to move `pairing_rounds` on to the round's number: it pairs the seeks of live
//! nodes by the pairing rule ([`Pools`], so ratings and the widening range behave as on one
//! node), deletes the rows it paired and starts the games, telling each player's node
//! ([`Envelope::Seated`], naming the connection). A challenge is held by the challenger's node, as on one node, and told to
//! every node ([`Notice::Challenge`]), each pushing it to the challenged account's
//! connections there; an answer given on another node reaches the holder, found in
//! `challenges`, as a call ([`ChallengeCall`]). The limit of challenges waiting at once
//! counts an account's challenges on every node.
//!
//! No seat token leaves its node: a connection's node makes the token of the seat it will be
//! given and hands out only its hash, and a `seated` message is believed only once the game
//! says that token holds that seat.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use checkers_rules::Color;
use serde::{Deserialize, Serialize};

use super::bus::{Answer, Envelope, Notice, Request};
use super::calls::{done, refused};
use super::{Cluster, DB_NOW_MS};
use crate::error::{ApiError, ErrorCode};
use crate::live::{color_name, parse_color, ClockSpec};
use crate::pairing::{AccountId, PoolClock, PoolKey, Pools, SeekId, Seeker};
use crate::rated::Account;
use crate::registry::Registry;
use crate::variant::GameVariant;

/// A connection's seek as the other nodes see it.
#[derive(Clone, Debug)]
pub struct SharedSeek {
    /// The node holding the connection, and the connection's number there.
    pub node: String,
    pub conn: u64,
    pub rated: bool,
    pub pool: PoolKey,
    pub account: Option<Account>,
    pub address: IpAddr,
    pub rating: f64,
    pub rd: f64,
    /// The hash of the seat token the connection's node keeps for the game it will be given.
    pub token_hash: String,
}

/// Two seeks paired by a round (the lower rated first), out of the table.
pub struct SharedPairing {
    pub pool: PoolKey,
    pub rated: bool,
    pub seeks: [SharedSeek; 2],
}

/// An answer to a challenge, from a node other than the challenger's.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum ChallengeCall {
    /// `account`, from `client`, accepts; its seat's token hashes to `token_hash`.
    Accept {
        challenge: String,
        account: AccountId,
        client: IpAddr,
        token_hash: String,
    },
    Decline {
        challenge: String,
        account: AccountId,
    },
}

/// A challenge as every node hears it: what is pushed to the challenged account's
/// connections.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeNotice {
    pub challenge: String,
    pub to: AccountId,
    pub from: String,
    pub variant: String,
    pub clock: Option<(i64, i64)>,
    pub rated: bool,
    pub color: Option<String>,
}

/// A challenge as it is pushed to the challenged.
#[derive(Clone, Debug)]
pub struct Challenged {
    pub challenge: String,
    pub to: AccountId,
    pub from: String,
    pub variant: GameVariant,
    pub clock: Option<ClockSpec>,
    pub rated: bool,
    pub color: Option<Color>,
}

impl ChallengeNotice {
    fn of(c: &Challenged) -> ChallengeNotice {
        ChallengeNotice {
            challenge: c.challenge.clone(),
            to: c.to,
            from: c.from.clone(),
            variant: c.variant.to_string(),
            clock: c.clock.map(|c| (c.base_ms, c.increment_ms)),
            rated: c.rated,
            color: c.color.map(|c| color_name(c).to_string()),
        }
    }

    /// The challenge, if its variant and colour are ones this node knows.
    fn challenged(self) -> Option<Challenged> {
        let color = match self.color {
            Some(text) => Some(parse_color(&text)?),
            None => None,
        };
        Some(Challenged {
            challenge: self.challenge,
            to: self.to,
            from: self.from,
            variant: self.variant.parse().ok()?,
            clock: self.clock.map(|(base_ms, increment_ms)| ClockSpec { base_ms, increment_ms }),
            rated: self.rated,
            color,
        })
    }
}

/// A row of `seeks`, as read.
type SeekRow = (String, i64, i64, String, String, Option<i64>, Option<String>, String, f64, f64, i64, String);

fn seek_of(row: SeekRow) -> Option<(SharedSeek, i64)> {
    let (
        node,
        conn,
        rated,
        variant,
        clock,
        account_id,
        account_name,
        address,
        rating,
        rd,
        joined_ms,
        token_hash,
    ) = row;
    let account = match (account_id, account_name) {
        (Some(id), Some(name)) => Some(Account { id, name }),
        _ => None,
    };
    let pool = PoolKey { variant: variant.parse().ok()?, clock: PoolClock::parse(&clock)? };
    let seek = SharedSeek {
        node,
        conn: u64::try_from(conn).ok()?,
        rated: rated != 0,
        pool,
        account,
        address: address.parse().ok()?,
        rating,
        rd,
        token_hash,
    };
    Some((seek, joined_ms))
}

impl Cluster {
    /// Puts a connection of this node in a pool (its seek there before, if any, replaced),
    /// its wait counted from now; the same account's other seek in a pool of the same kind
    /// (rated or not), on any node, waits no more. (Two statements, not one transaction: two
    /// nodes seeking for one account at once must not lock each other's rows; should both
    /// rows stay, a round pairs only the later, as [`Pools`] replaces an account's entry.)
    pub async fn put_seek(&self, seek: &SharedSeek) -> Result<(), sqlx::Error> {
        if let Some(account) = &seek.account {
            sqlx::query(
                "DELETE FROM seeks WHERE account_id = $1 AND rated = $2 AND NOT (node = $3 AND conn = $4)",
            )
            .bind(account.id)
            .bind(i64::from(seek.rated))
            .bind(&self.node)
            .bind(seek.conn as i64)
            .execute(&self.pool)
            .await?;
        }
        sqlx::query(&format!(
            "INSERT INTO seeks (node, conn, rated, variant, clock, account_id, account_name, address, rating, rd, \
               joined_ms, token_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, {DB_NOW_MS}, $11) \
             ON CONFLICT (node, conn) DO UPDATE SET rated = EXCLUDED.rated, variant = EXCLUDED.variant, \
               clock = EXCLUDED.clock, account_id = EXCLUDED.account_id, account_name = EXCLUDED.account_name, \
               address = EXCLUDED.address, rating = EXCLUDED.rating, rd = EXCLUDED.rd, \
               joined_ms = EXCLUDED.joined_ms, token_hash = EXCLUDED.token_hash"
        ))
        .bind(&self.node)
        .bind(seek.conn as i64)
        .bind(i64::from(seek.rated))
        .bind(seek.pool.variant.to_string())
        .bind(seek.pool.clock.to_string())
        .bind(seek.account.as_ref().map(|a| a.id))
        .bind(seek.account.as_ref().map(|a| a.name.clone()))
        .bind(seek.address.to_string())
        .bind(seek.rating)
        .bind(seek.rd)
        .bind(&seek.token_hash)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes a connection of this node out of the pools; whether it was waiting there.
    pub async fn drop_seek(&self, conn: u64) -> Result<bool, sqlx::Error> {
        let dropped = sqlx::query("DELETE FROM seeks WHERE node = $1 AND conn = $2")
            .bind(&self.node)
            .bind(conn as i64)
            .execute(&self.pool)
            .await?;
        Ok(dropped.rows_affected() > 0)
    }

    /// Records a connection of this node as logged in to `account` (it may be challenged).
    pub async fn come_online(&self, conn: u64, account: &Account) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO online (node, conn, account_id, name, name_key) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (node, conn) DO NOTHING",
        )
        .bind(&self.node)
        .bind(conn as i64)
        .bind(account.id)
        .bind(&account.name)
        .bind(crate::password::name_key(&account.name))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets a closed connection of this node: its seek, its account online, its challenges.
    pub async fn forget_conn(&self, conn: u64) -> Result<(), sqlx::Error> {
        for table in ["seeks", "online", "challenges"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE node = $1 AND conn = $2"))
                .bind(&self.node)
                .bind(conn as i64)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Deletes the seeks, connections online and challenges of a node gone (dead, or drained).
    pub(super) async fn drop_matchmaking_rows(&self, node: &str) -> Result<(), sqlx::Error> {
        for table in ["seeks", "online", "challenges"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE node = $1"))
                .bind(node)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// The account whose name has the key `name_key`, if it is online on a live node.
    pub async fn find_online(&self, name_key: &str) -> Result<Option<Account>, sqlx::Error> {
        let found: Option<(i64, String)> = sqlx::query_as(&format!(
            "SELECT o.account_id, o.name FROM online o JOIN nodes n ON n.id = o.node \
             WHERE o.name_key = $1 AND n.alive_until_ms > {DB_NOW_MS} LIMIT 1"
        ))
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.map(|(id, name)| Account { id, name }))
    }

    /// Records a challenge held here, on the challenger's connection `conn`, unless the
    /// challenger has `most` waiting already on live nodes; whether it was recorded.
    pub async fn hold_challenge(
        &self,
        id: &str,
        conn: u64,
        from: AccountId,
        to: AccountId,
        most: usize,
    ) -> Result<bool, sqlx::Error> {
        let held = sqlx::query(&format!(
            "INSERT INTO challenges (id, node, conn, from_account, to_account) \
             SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM challenges c JOIN nodes n ON n.id = c.node \
               WHERE c.from_account = $4 AND n.alive_until_ms > {DB_NOW_MS}) < $6"
        ))
        .bind(id)
        .bind(&self.node)
        .bind(conn as i64)
        .bind(from)
        .bind(to)
        .bind(most as i64)
        .execute(&self.pool)
        .await?;
        Ok(held.rows_affected() == 1)
    }

    /// The node holding challenge `id` to `to`, if it waits on a live node.
    pub async fn holder_of_challenge(&self, id: &str, to: AccountId) -> Result<Option<String>, sqlx::Error> {
        let holder: Option<(String,)> = sqlx::query_as(&format!(
            "SELECT c.node FROM challenges c JOIN nodes n ON n.id = c.node \
             WHERE c.id = $1 AND c.to_account = $2 AND n.alive_until_ms > {DB_NOW_MS}"
        ))
        .bind(id)
        .bind(to)
        .fetch_optional(&self.pool)
        .await?;
        Ok(holder.map(|(node,)| node))
    }

    /// Deletes a challenge held here, once answered.
    pub async fn drop_challenge(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM challenges WHERE id = $1 AND node = $2")
            .bind(id)
            .bind(&self.node)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Runs the pairing round of now, unless another node has (each `period` of the
    /// database's clock has one round): pairs the seeks of live nodes and deletes the rows
    /// paired. Returns the pairings, for their games to be started.
    pub async fn pair_round(&self, period: Duration) -> Result<Vec<SharedPairing>, sqlx::Error> {
        let (waiting,): (bool,) =
            sqlx::query_as("SELECT EXISTS (SELECT 1 FROM seeks)").fetch_one(&self.pool).await?;
        if !waiting {
            return Ok(Vec::new());
        }
        let mut tx = self.pool.begin().await?;
        // The row stays locked until the round commits: another node's round waits, then finds
        // the round taken.
        let round: Option<(i64,)> = sqlx::query_as(&format!(
            "UPDATE pairing_rounds SET last_round = {DB_NOW_MS} / $1 \
             WHERE id = 1 AND last_round < {DB_NOW_MS} / $1 RETURNING {DB_NOW_MS}"
        ))
        .bind(period.as_millis() as i64)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((now_ms,)) = round else { return Ok(Vec::new()) };
        let rows: Vec<SeekRow> = sqlx::query_as(&format!(
            "SELECT s.node, s.conn, s.rated, s.variant, s.clock, s.account_id, s.account_name, s.address, \
               s.rating, s.rd, s.joined_ms, s.token_hash FROM seeks s JOIN nodes n ON n.id = s.node \
             WHERE n.alive_until_ms > {DB_NOW_MS} ORDER BY s.joined_ms, s.node, s.conn FOR UPDATE OF s"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let pairings = pair_seeks(rows.into_iter().filter_map(seek_of).collect(), now_ms);
        let (mut nodes, mut conns) = (Vec::new(), Vec::new());
        for seek in pairings.iter().flat_map(|p| &p.seeks) {
            nodes.push(seek.node.clone());
            conns.push(seek.conn as i64);
        }
        if !nodes.is_empty() {
            sqlx::query(
                "DELETE FROM seeks s USING unnest($1::text[], $2::bigint[]) AS p(node, conn) \
                 WHERE s.node = p.node AND s.conn = p.conn",
            )
            .bind(&nodes)
            .bind(&conns)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(pairings)
    }

    /// Tells a connection's node that a game was started for its seek.
    pub fn send_seated(&self, node: &str, conn: u64, game: &str, color: Color) {
        let envelope =
            Envelope::Seated { conn, game: game.to_string(), color: color_name(color).to_string() };
        self.bus.send(node, &envelope);
    }

    /// Tells every node of a challenge made here.
    pub fn tell_challenge(&self, challenge: &Challenged) {
        self.bus.broadcast(&Notice::Challenge(ChallengeNotice::of(challenge)));
    }

    /// Accepts, from here, a challenge `node` holds; the new game and this side's colour.
    pub async fn accept_elsewhere(
        &self,
        node: &str,
        call: ChallengeCall,
    ) -> Result<(String, Color), ApiError> {
        let (game, color): (String, String) = self.challenge_call(node, call).await?;
        Ok((game, parse_color(&color).ok_or_else(ApiError::game_unavailable)?))
    }

    /// Declines, from here, a challenge `node` holds.
    pub async fn decline_elsewhere(&self, node: &str, call: ChallengeCall) -> Result<(), ApiError> {
        self.challenge_call(node, call).await
    }

    async fn challenge_call<T: serde::de::DeserializeOwned>(
        &self,
        node: &str,
        call: ChallengeCall,
    ) -> Result<T, ApiError> {
        if self.is_gone(node) {
            return Err(crate::matchmaking::no_such_challenge());
        }
        match self.call(node, Request::Challenge { call }).await {
            Some(Answer::Done { value }) => serde_json::from_value(value).map_err(|_| unreachable_node()),
            Some(Answer::Refused { code, message }) => Err(ApiError::new(code, message)),
            Some(Answer::NotOwner) => Err(crate::matchmaking::no_such_challenge()),
            None => Err(unreachable_node()),
        }
    }

    /// A connection of this node was given a seat by a round run on some node.
    pub(super) fn seated(&self, conn: u64, game: String, color: String) {
        let (Some(registry), Some(color)) = (self.registry(), parse_color(&color)) else { return };
        tokio::spawn(
            async move { registry.matchmaking.seated_elsewhere(&registry, conn, &game, color).await },
        );
    }

    /// A challenge made on some node (this one too): pushed to the challenged here.
    pub(super) fn challenged(&self, notice: ChallengeNotice) {
        if let (Some(registry), Some(challenge)) = (self.registry(), notice.challenged()) {
            registry.matchmaking.challenged(&challenge);
        }
    }
}

fn unreachable_node() -> ApiError {
    ApiError::new(ErrorCode::Unavailable, "the challenger's server does not answer; try again")
}

/// Pairs the seeks (each with when it joined) by the pairing rule at `now_ms`.
fn pair_seeks(seeks: Vec<(SharedSeek, i64)>, now_ms: i64) -> Vec<SharedPairing> {
    // Casual pools, then rated ones, as on one node.
    let mut pools = [Pools::new(), Pools::new()];
    let mut entries: HashMap<(bool, SeekId), SharedSeek> = HashMap::new();
    for (seek, joined_ms) in seeks {
        let seeker = Seeker {
            account: seek.account.as_ref().map(|a| a.id),
            address: seek.address,
            rating: seek.rating,
            rd: seek.rd,
            joined_ms,
        };
        let Ok(joined) = pools[usize::from(seek.rated)].join(seek.pool, seeker) else { continue };
        if let Some(replaced) = joined.replaced {
            entries.remove(&(seek.rated, replaced));
        }
        entries.insert((seek.rated, joined.id), seek);
    }
    let mut pairings = Vec::new();
    for rated in [false, true] {
        for pairing in pools[usize::from(rated)].pair_round(now_ms) {
            let [(a, _), (b, _)] = pairing.players;
            if let (Some(a), Some(b)) = (entries.remove(&(rated, a)), entries.remove(&(rated, b))) {
                pairings.push(SharedPairing { pool: pairing.pool, rated, seeks: [a, b] });
            }
        }
    }
    pairings
}

/// Answers a challenge call from another node: the challenge is held here.
pub(super) async fn answer(registry: &Arc<Registry>, call: ChallengeCall) -> Answer {
    let matchmaking = &registry.matchmaking;
    match call {
        ChallengeCall::Accept { challenge, account, client, token_hash } => {
            match matchmaking.accepted_elsewhere(registry, &challenge, account, client, token_hash).await {
                Ok((game, color)) => done((game, color_name(color))),
                Err(e) => refused(e),
            }
        }
        ChallengeCall::Decline { challenge, account } => {
            match matchmaking.declined_elsewhere(registry, &challenge, account).await {
                Ok(()) => done(()),
                Err(e) => refused(e),
            }
        }
    }
}
