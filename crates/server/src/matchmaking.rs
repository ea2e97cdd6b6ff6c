//! Quick pairing and challenges on the server: the [`crate::pairing`] pools wired to the
//! WebSocket, and direct challenges from one account to another.
//!
//! A connection `seek`s a game in a pool (a variant and one of the pool clocks, rated or
//! casual: two pools each); a round every [`ROUND_PERIOD`] pairs the waiting players by the
//! pairing rule, and each pair gets a new game, both seats taken, whose `seated` is pushed to
//! each player's connection. A connection seeks one game at a time; closing it, or `unseek`,
//! leaves the pool. Rated pools are for accounts; an account waits in one pool at most.
//!
//! A logged-in connection may `challenge` an account that is online (has a connection open):
//! the challenge is pushed to each of its connections, and any of them may `accept` (a new
//! game starts, the challenger's `seated` pushed to the connection that challenged) or
//! `decline` (the challenger hears `declined`). A challenge lasts while the challenger's
//! connection is open.
//!
//! On one node (SQLite) all of this is in memory here. In a cluster of nodes (PostgreSQL) the
//! pools and who is online are shared through the database and challenges reach every node
//! (`cluster::pairing`; this node's side of it is in `shared`): a player seeking on one node
//! is paired with one on another, and an account online on any node may be challenged and
//! answer there. A challenge is still held by the challenger's node.

mod shared;

pub(crate) use shared::republish;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use checkers_rules::Color;
use serde_json::json;
use tokio::sync::mpsc;

use crate::cluster::Challenged;
use crate::error::{ApiError, ErrorCode};
use crate::live::{color_name, ClockSpec, LiveGame, Seat};
use crate::pairing::{AccountId, PoolClock, PoolKey, Pools, SeekId, Seeker};
use crate::rated::{check_rateable, seat_account, Account};
use crate::registry::{lock, Registry, Seated};
use crate::rules::AnyGame;
use crate::store::{now_ms, StoreError};
use crate::token::{hash_token, new_game_id, new_seat_token};
use crate::variant::GameVariant;

/// How often the pools are paired.
pub const ROUND_PERIOD: Duration = Duration::from_millis(500);
/// Challenges an account may have waiting for an answer at once.
pub const CHALLENGES_PER_ACCOUNT: usize = 3;

/// What is pushed to a connection from outside its own requests.
#[derive(Debug)]
pub enum Event {
    /// A game was started for it (a pairing, an accepted challenge): it takes the seat.
    Seated(Seated),
    /// A message to send as it is.
    Text(String),
}

/// A connection's identity in the pools and the list of who is online (its number on this
/// node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnId(u64);

/// A connection as the pools and the challenges know it.
#[derive(Clone)]
struct Conn {
    id: ConnId,
    account: Option<Account>,
    client: IpAddr,
    inbox: mpsc::UnboundedSender<Event>,
}

/// A challenge waiting for its answer.
struct Challenge {
    from: Conn,
    to: Account,
    variant: GameVariant,
    clock: Option<ClockSpec>,
    rated: bool,
    /// The colour the challenger wants, if any.
    color: Option<Color>,
}

/// One of the two players of a game about to start: the seat is taken by the token whose
/// hash is `token_hash`, which the node of the player's connection keeps.
struct Player {
    account: Option<Account>,
    client: IpAddr,
    color: Color,
    token_hash: String,
}

impl Player {
    /// A player on a connection of this node, with the seat token made for it.
    fn here(conn: &Conn, color: Color) -> (Player, String) {
        let token = new_seat_token();
        let player = Player {
            account: conn.account.clone(),
            client: conn.client,
            color,
            token_hash: hash_token(&token),
        };
        (player, token)
    }
}

fn seated(game: &str, color: Color, token: String) -> Seated {
    Seated { game: game.to_string(), color, token, invite: None }
}

#[derive(Default)]
struct State {
    /// Casual pools, then rated ones.
    pools: [Pools; 2],
    /// Who waits under each entry of each pool (by `rated`).
    seekers: HashMap<(bool, SeekId), Conn>,
    /// Each connection's seek, if it waits.
    seek_of: HashMap<ConnId, (bool, SeekId)>,
    /// The connections of each account online.
    online: HashMap<AccountId, Vec<Conn>>,
    challenges: HashMap<String, Challenge>,
    next_conn: u64,
    /// In a cluster: the connections waiting in the shared pools, each with the seat token
    /// kept for the game it will be given.
    shared_seeks: HashMap<ConnId, shared::Ticket>,
}

/// The pools, who is online and the challenges.
pub struct Matchmaking {
    state: Mutex<State>,
}

impl Default for Matchmaking {
    fn default() -> Matchmaking {
        Matchmaking { state: Mutex::new(State { pools: [Pools::new(), Pools::new()], ..State::default() }) }
    }
}

/// A connection's membership of the matchmaking (it seeks, challenges and is challenged
/// through it), given back when it closes.
pub struct Member {
    registry: Weak<Registry>,
    conn: Conn,
}

impl Drop for Member {
    fn drop(&mut self) {
        if let Some(registry) = self.registry.upgrade() {
            let was_seeking = registry.matchmaking.disconnect(self.conn.id);
            if self.conn.account.is_some() || was_seeking {
                shared::forget(&registry, self.conn.id);
            }
        }
    }
}

impl Member {
    /// Registers a new connection (online, if logged in); its pushes come to `inbox`.
    pub async fn connect(
        registry: &Arc<Registry>,
        account: Option<Account>,
        client: IpAddr,
        inbox: mpsc::UnboundedSender<Event>,
    ) -> Member {
        let member = {
            let mut state = lock(&registry.matchmaking.state);
            state.next_conn += 1;
            let conn = Conn { id: ConnId(state.next_conn), account, client, inbox };
            if let Some(account) = &conn.account {
                state.online.entry(account.id).or_default().push(conn.clone());
            }
            Member { registry: Arc::downgrade(registry), conn }
        };
        shared::come_online(registry, &member.conn).await;
        member
    }

    /// Joins the pool of `variant` and `clock` (`"3+2"`), rated or not; a seek already
    /// waiting is replaced. Returns the `seeking` reply.
    pub async fn seek(
        &self,
        registry: &Registry,
        variant: GameVariant,
        clock: &str,
        rated: bool,
    ) -> Result<(), ApiError> {
        let clock = PoolClock::parse(clock)
            .ok_or_else(|| ApiError::bad_request("clock: one of 1+0, 3+0, 3+2, 5+3, 10+0, 15+10"))?;
        if rated && self.conn.account.is_none() {
            return Err(login_required("rated pools are for accounts: sign up or log in first"));
        }
        let spec = pool_spec(clock);
        let rating = registry.shown_rating(self.conn.account.as_ref(), variant, Some(spec)).await;
        let rating = rating.unwrap_or(crate::rating::Rating::START);
        let pool = PoolKey { variant, clock };
        if let Some(cluster) = registry.cluster() {
            return self.seek_shared(registry, cluster, pool, rated, rating).await;
        }
        let seeker = Seeker {
            account: self.conn.account.as_ref().map(|a| a.id),
            address: self.conn.client,
            rating: rating.rating,
            rd: rating.rd,
            joined_ms: now_ms(),
        };
        let mut state = lock(&registry.matchmaking.state);
        state.leave(self.conn.id);
        let joined = state.pools[usize::from(rated)]
            .join(pool, seeker)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        if let Some(replaced) = joined.replaced {
            // The account's seek from another connection: that one waits no more.
            if let Some(old) = state.seekers.remove(&(rated, replaced)) {
                state.seek_of.remove(&old.id);
            }
        }
        state.seekers.insert((rated, joined.id), self.conn.clone());
        state.seek_of.insert(self.conn.id, (rated, joined.id));
        Ok(())
    }

    /// Leaves the pool; whether the connection was waiting.
    pub async fn unseek(&self, registry: &Registry) -> Result<bool, ApiError> {
        if let Some(cluster) = registry.cluster() {
            lock(&registry.matchmaking.state).shared_seeks.remove(&self.conn.id);
            return Ok(cluster.drop_seek(self.conn.id.0).await.map_err(StoreError::from)?);
        }
        Ok(lock(&registry.matchmaking.state).leave(self.conn.id))
    }

    /// Challenges the account `name` to a game; returns the challenge's id.
    pub async fn challenge(
        &self,
        registry: &Registry,
        name: &str,
        variant: GameVariant,
        clock: Option<ClockSpec>,
        color: Option<Color>,
        rated: bool,
    ) -> Result<String, ApiError> {
        let Some(from) = self.conn.account.clone() else {
            return Err(login_required("challenges are for accounts: sign up or log in first"));
        };
        if rated {
            check_rateable(Some(&from), clock, false)?;
        }
        let key = crate::password::name_key(name);
        let to = match registry.cluster() {
            Some(cluster) => cluster.find_online(&key).await.map_err(StoreError::from)?,
            None => lock(&registry.matchmaking.state).online_account(&key),
        };
        let to = to.ok_or_else(|| ApiError::new(ErrorCode::NotFound, "no player of that name is online"))?;
        if to.id == from.id {
            return Err(ApiError::bad_request("a player cannot challenge themselves"));
        }
        let id = new_game_id();
        let told = Challenged {
            challenge: id.clone(),
            to: to.id,
            from: from.name.clone(),
            variant,
            clock,
            rated,
            color,
        };
        let within_limit = match registry.cluster() {
            Some(cluster) => cluster
                .hold_challenge(&id, self.conn.id.0, from.id, to.id, CHALLENGES_PER_ACCOUNT)
                .await
                .map_err(StoreError::from)?,
            None => {
                let state = lock(&registry.matchmaking.state);
                let waiting = state.challenges.values().filter(|c| c.from.account.as_ref() == Some(&from));
                waiting.count() < CHALLENGES_PER_ACCOUNT
            }
        };
        if !within_limit {
            return Err(ApiError::rate_limited(format!(
                "at most {CHALLENGES_PER_ACCOUNT} challenges wait for an answer at once"
            )));
        }
        let challenge = Challenge { from: self.conn.clone(), to, variant, clock, rated, color };
        lock(&registry.matchmaking.state).challenges.insert(id.clone(), challenge);
        match registry.cluster() {
            Some(cluster) => cluster.tell_challenge(&told),
            None => registry.matchmaking.challenged(&told),
        }
        Ok(id)
    }

    /// Accepts a challenge made to this connection's account: the game starts; returns this
    /// side's seat (the challenger's is pushed to its connection).
    pub async fn accept(&self, registry: &Arc<Registry>, id: &str) -> Result<Seated, ApiError> {
        let me = self.conn.account.as_ref().ok_or_else(no_such_challenge)?;
        let token = new_seat_token();
        let (game, color) = match registry.matchmaking.take_challenge(registry, id, me.id).await {
            Some(challenge) => {
                start_challenge(registry, challenge, self.conn.client, hash_token(&token)).await?
            }
            None => self.accept_elsewhere(registry, id, hash_token(&token)).await?,
        };
        Ok(seated(&game, color, token))
    }

    /// Declines a challenge made to this connection's account; the challenger hears of it.
    pub async fn decline(&self, registry: &Registry, id: &str) -> Result<(), ApiError> {
        let me = self.conn.account.as_ref().ok_or_else(no_such_challenge)?;
        match registry.matchmaking.take_challenge(registry, id, me.id).await {
            Some(challenge) => {
                tell_declined(challenge, id);
                Ok(())
            }
            None => self.decline_elsewhere(registry, id).await,
        }
    }
}

/// The refusal of an answer to a challenge that is not (or no longer) there.
pub(crate) fn no_such_challenge() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "no such challenge to you (it may have been withdrawn)")
}

fn login_required(message: &str) -> ApiError {
    ApiError::new(ErrorCode::LoginRequired, message)
}

fn pool_spec(clock: PoolClock) -> ClockSpec {
    ClockSpec { base_ms: i64::from(clock.base_s()) * 1000, increment_ms: i64::from(clock.increment_s) * 1000 }
}

fn random_color() -> Color {
    if now_ms() % 2 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Starts the game of an accepted challenge, the challenger's `seated` pushed to its
/// connection; the acceptor's seat is taken by the token hashing to `token_hash`. Returns the
/// game and the acceptor's colour.
async fn start_challenge(
    registry: &Arc<Registry>,
    challenge: Challenge,
    client: IpAddr,
    token_hash: String,
) -> Result<(String, Color), ApiError> {
    let color = challenge.color.unwrap_or_else(random_color);
    let (challenger, token) = Player::here(&challenge.from, color);
    let acceptor =
        Player { account: Some(challenge.to.clone()), client, color: color.opponent(), token_hash };
    let game = registry
        .start_between(&[challenger, acceptor], challenge.variant, challenge.clock, challenge.rated)
        .await?;
    let _ = challenge.from.inbox.send(Event::Seated(seated(&game, color, token)));
    Ok((game, color.opponent()))
}

fn tell_declined(challenge: Challenge, id: &str) {
    let declined = json!({"t": "declined", "challenge": id, "by": challenge.to.name}).to_string();
    let _ = challenge.from.inbox.send(Event::Text(declined));
}

impl State {
    fn leave(&mut self, conn: ConnId) -> bool {
        let Some((rated, seek)) = self.seek_of.remove(&conn) else { return false };
        self.seekers.remove(&(rated, seek));
        self.pools[usize::from(rated)].leave(seek);
        true
    }

    /// The account online here whose name has the key `key`.
    fn online_account(&self, key: &str) -> Option<Account> {
        self.online
            .values()
            .filter_map(|conns| conns.first()?.account.clone())
            .find(|account| crate::password::name_key(&account.name) == key)
    }

    /// Takes out a challenge this node holds to `account`.
    fn take_challenge(&mut self, id: &str, account: AccountId) -> Option<Challenge> {
        let mine = self.challenges.get(id).is_some_and(|c| c.to.id == account);
        mine.then(|| self.challenges.remove(id)).flatten()
    }
}

impl Matchmaking {
    /// Forgets a closed connection; whether it waited in the shared pools.
    fn disconnect(&self, conn: ConnId) -> bool {
        let mut state = lock(&self.state);
        state.leave(conn);
        let was_seeking = state.shared_seeks.remove(&conn).is_some();
        state.online.retain(|_, conns| {
            conns.retain(|c| c.id != conn);
            !conns.is_empty()
        });
        state.challenges.retain(|_, c| c.from.id != conn);
        was_seeking
    }

    /// Pushes a challenge to the challenged account's connections here.
    pub(crate) fn challenged(&self, challenge: &Challenged) {
        let pushed = json!({"t": "challenge", "challenge": challenge.challenge, "from": challenge.from,
                            "variant": challenge.variant.name(), "clock": challenge.clock,
                            "rated": challenge.rated, "color": challenge.color.map(color_name)})
        .to_string();
        let state = lock(&self.state);
        for conn in state.online.get(&challenge.to).into_iter().flatten() {
            let _ = conn.inbox.send(Event::Text(pushed.clone()));
        }
    }

    /// Takes out a challenge this node holds to `account` (and, in a cluster, its row).
    async fn take_challenge(&self, registry: &Registry, id: &str, account: AccountId) -> Option<Challenge> {
        let challenge = lock(&self.state).take_challenge(id, account)?;
        if let Some(cluster) = registry.cluster() {
            if let Err(e) = cluster.drop_challenge(id).await {
                tracing::warn!("deleting an answered challenge: {e}");
            }
        }
        Some(challenge)
    }

    /// One round in every pool: the pairs found, with their connections, out of the pools.
    fn pair_round(&self, now: i64) -> Vec<(PoolKey, bool, [Conn; 2])> {
        let mut state = lock(&self.state);
        let mut games = Vec::new();
        for rated in [false, true] {
            for pairing in state.pools[usize::from(rated)].pair_round(now) {
                let [(a, _), (b, _)] = pairing.players;
                let (Some(a), Some(b)) =
                    (state.seekers.remove(&(rated, a)), state.seekers.remove(&(rated, b)))
                else {
                    continue;
                };
                state.seek_of.remove(&a.id);
                state.seek_of.remove(&b.id);
                games.push((pairing.pool, rated, [a, b]));
            }
        }
        games
    }
}

/// Pairs the pools every [`ROUND_PERIOD`] and starts the games, while the registry lasts.
pub async fn pair_rounds(registry: Weak<Registry>) {
    let mut ticks = tokio::time::interval(ROUND_PERIOD);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let Some(registry) = registry.upgrade() else { return };
        if let Some(cluster) = registry.cluster() {
            shared::pair_round(&registry, cluster).await;
            continue;
        }
        for (pool, rated, [a, b]) in registry.matchmaking.pair_round(now_ms()) {
            // The lower rated comes first: either may get White.
            let color = random_color();
            let (first, first_token) = Player::here(&a, color);
            let (second, second_token) = Player::here(&b, color.opponent());
            match registry
                .start_between(&[first, second], pool.variant, Some(pool_spec(pool.clock)), rated)
                .await
            {
                Ok(game) => {
                    let _ = a.inbox.send(Event::Seated(seated(&game, color, first_token)));
                    let _ = b.inbox.send(Event::Seated(seated(&game, color.opponent(), second_token)));
                }
                Err(e) => tracing::warn!("starting a paired game: {}", e.message),
            }
        }
    }
}

impl Registry {
    /// Starts a game between two players, both seated; returns its id.
    async fn start_between(
        self: &Arc<Self>,
        players: &[Player; 2],
        variant: GameVariant,
        clock: Option<ClockSpec>,
        rated: bool,
    ) -> Result<String, ApiError> {
        let now = now_ms();
        let id = new_game_id();
        let mut seats = [Seat::human(None, None), Seat::human(None, None)];
        for player in players {
            let name = player.account.as_ref().map(|a| a.name.clone());
            seats[crate::live::side(player.color)] = Seat::human(name, Some(player.token_hash.clone()));
        }
        let mut game = LiveGame::new(id.clone(), AnyGame::new(variant), seats, clock, false, now);
        game.accounts.rated = rated && players.iter().all(|p| p.account.is_some());
        for player in players {
            let shown = self.shown_rating(player.account.as_ref(), variant, clock).await;
            seat_account(&mut game, player.color, player.account.as_ref(), shown);
        }
        self.own_new(&id).await?;
        self.store.create_game(&game, Some(players[0].client)).await?;
        self.spawn(game.clone());
        self.game_changed(&game);
        Ok(id)
    }
}
