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

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use checkers_rules::{Color, Position, Variant};
use serde_json::json;
use tokio::sync::mpsc;

use crate::error::{ApiError, ErrorCode};
use crate::live::{color_name, ClockSpec, LiveGame, Seat};
use crate::pairing::{AccountId, PoolClock, PoolKey, Pools, SeekId, Seeker};
use crate::rated::{check_rateable, seat_account, Account};
use crate::registry::{lock, Registry, Seated};
use crate::store::now_ms;
use crate::token::{hash_token, new_game_id, new_seat_token};

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

/// A connection's identity in the pools and the list of who is online.
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
    variant: Variant,
    clock: Option<ClockSpec>,
    rated: bool,
    /// The colour the challenger wants, if any.
    color: Option<Color>,
}

/// One of the two players of a game about to start.
struct Player {
    conn: Conn,
    color: Color,
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
            registry.matchmaking.disconnect(self.conn.id);
        }
    }
}

impl Member {
    /// Registers a new connection (online, if logged in); its pushes come to `inbox`.
    pub fn connect(
        registry: &Arc<Registry>,
        account: Option<Account>,
        client: IpAddr,
        inbox: mpsc::UnboundedSender<Event>,
    ) -> Member {
        let mut state = lock(&registry.matchmaking.state);
        state.next_conn += 1;
        let conn = Conn { id: ConnId(state.next_conn), account, client, inbox };
        if let Some(account) = &conn.account {
            state.online.entry(account.id).or_default().push(conn.clone());
        }
        Member { registry: Arc::downgrade(registry), conn }
    }

    /// Joins the pool of `variant` and `clock` (`"3+2"`), rated or not; a seek already
    /// waiting is replaced. Returns the `seeking` reply.
    pub async fn seek(
        &self,
        registry: &Registry,
        variant: Variant,
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
            .join(PoolKey { variant, clock }, seeker)
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
    pub fn unseek(&self, registry: &Registry) -> bool {
        lock(&registry.matchmaking.state).leave(self.conn.id)
    }

    /// Challenges the account `name` to a game; returns the challenge's id.
    pub fn challenge(
        &self,
        registry: &Registry,
        name: &str,
        variant: Variant,
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
        let mut state = lock(&registry.matchmaking.state);
        let to = state
            .online
            .values()
            .filter_map(|conns| conns.first()?.account.clone())
            .find(|account| crate::password::name_key(&account.name) == key)
            .ok_or_else(|| ApiError::new(ErrorCode::NotFound, "no player of that name is online"))?;
        if to.id == from.id {
            return Err(ApiError::bad_request("a player cannot challenge themselves"));
        }
        if state.challenges.values().filter(|c| c.from.account.as_ref() == Some(&from)).count()
            >= CHALLENGES_PER_ACCOUNT
        {
            return Err(ApiError::rate_limited(format!(
                "at most {CHALLENGES_PER_ACCOUNT} challenges wait for an answer at once"
            )));
        }
        let id = new_game_id();
        let pushed = json!({"t": "challenge", "challenge": id, "from": from.name, "variant": variant.name(),
                            "clock": clock, "rated": rated, "color": color.map(color_name)})
        .to_string();
        for conn in state.online.get(&to.id).into_iter().flatten() {
            let _ = conn.inbox.send(Event::Text(pushed.clone()));
        }
        let challenge = Challenge { from: self.conn.clone(), to, variant, clock, rated, color };
        state.challenges.insert(id.clone(), challenge);
        Ok(id)
    }

    /// Accepts a challenge made to this connection's account: the game starts; returns this
    /// side's seat (the challenger's is pushed to its connection).
    pub async fn accept(&self, registry: &Arc<Registry>, id: &str) -> Result<Seated, ApiError> {
        let challenge = self.take_challenge(registry, id)?;
        let color = challenge.color.unwrap_or(if now_ms() % 2 == 0 { Color::White } else { Color::Black });
        let players = [
            Player { conn: challenge.from, color },
            Player { conn: self.conn.clone(), color: color.opponent() },
        ];
        let [theirs, mine] =
            registry.start_between(&players, challenge.variant, challenge.clock, challenge.rated).await?;
        let _ = players[0].conn.inbox.send(Event::Seated(theirs));
        Ok(mine)
    }

    /// Declines a challenge made to this connection's account; the challenger hears of it.
    pub fn decline(&self, registry: &Registry, id: &str) -> Result<(), ApiError> {
        let challenge = self.take_challenge(registry, id)?;
        let declined = json!({"t": "declined", "challenge": id, "by": challenge.to.name}).to_string();
        let _ = challenge.from.inbox.send(Event::Text(declined));
        Ok(())
    }

    fn take_challenge(&self, registry: &Registry, id: &str) -> Result<Challenge, ApiError> {
        let mut state = lock(&registry.matchmaking.state);
        let mine = state.challenges.get(id).is_some_and(|c| self.conn.account.as_ref() == Some(&c.to));
        if !mine {
            return Err(ApiError::new(
                ErrorCode::NotFound,
                "no such challenge to you (it may have been withdrawn)",
            ));
        }
        Ok(state.challenges.remove(id).expect("checked above"))
    }
}

fn login_required(message: &str) -> ApiError {
    ApiError::new(ErrorCode::LoginRequired, message)
}

fn pool_spec(clock: PoolClock) -> ClockSpec {
    ClockSpec { base_ms: i64::from(clock.base_s()) * 1000, increment_ms: i64::from(clock.increment_s) * 1000 }
}

impl State {
    fn leave(&mut self, conn: ConnId) -> bool {
        let Some((rated, seek)) = self.seek_of.remove(&conn) else { return false };
        self.seekers.remove(&(rated, seek));
        self.pools[usize::from(rated)].leave(seek);
        true
    }
}

impl Matchmaking {
    fn disconnect(&self, conn: ConnId) {
        let mut state = lock(&self.state);
        state.leave(conn);
        state.online.retain(|_, conns| {
            conns.retain(|c| c.id != conn);
            !conns.is_empty()
        });
        state.challenges.retain(|_, c| c.from.id != conn);
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
        for (pool, rated, [a, b]) in registry.matchmaking.pair_round(now_ms()) {
            // The lower rated comes first: either may get White.
            let color = if now_ms() % 2 == 0 { Color::White } else { Color::Black };
            let players = [Player { conn: a, color }, Player { conn: b, color: color.opponent() }];
            match registry.start_between(&players, pool.variant, Some(pool_spec(pool.clock)), rated).await {
                Ok(seats) => {
                    for (player, seated) in players.iter().zip(seats) {
                        let _ = player.conn.inbox.send(Event::Seated(seated));
                    }
                }
                Err(e) => tracing::warn!("starting a paired game: {}", e.message),
            }
        }
    }
}

impl Registry {
    /// Starts a game between two players, both seated; returns their seats.
    async fn start_between(
        self: &Arc<Self>,
        players: &[Player; 2],
        variant: Variant,
        clock: Option<ClockSpec>,
        rated: bool,
    ) -> Result<[Seated; 2], ApiError> {
        let now = now_ms();
        let id = new_game_id();
        let tokens = [new_seat_token(), new_seat_token()];
        let mut seats = [Seat::human(None, None), Seat::human(None, None)];
        for (player, token) in players.iter().zip(&tokens) {
            let name = player.conn.account.as_ref().map(|a| a.name.clone());
            seats[crate::live::side(player.color)] = Seat::human(name, Some(hash_token(token)));
        }
        let mut game = LiveGame::new(id.clone(), Position::start(variant), seats, clock, false, now);
        game.accounts.rated = rated && players.iter().all(|p| p.conn.account.is_some());
        for player in players {
            let shown = self.shown_rating(player.conn.account.as_ref(), variant, clock).await;
            seat_account(&mut game, player.color, player.conn.account.as_ref(), shown);
        }
        self.own_new(&id).await?;
        self.store.create_game(&game, Some(players[0].conn.client)).await?;
        self.spawn(game.clone());
        self.game_changed(&game);
        let [first, second] = tokens;
        let seated =
            |player: &Player, token| Seated { game: id.clone(), color: player.color, token, invite: None };
        Ok([seated(&players[0], first), seated(&players[1], second)])
    }
}
