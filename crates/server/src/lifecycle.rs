//! How many games a client may make and how long games stay: the quotas per client address,
//! the expiry of games nobody joins, how long an idle game stays in memory, how long a player
//! may be gone from a timed game before the opponent may claim it, and how long a game where
//! no clock runs may go unplayed before it ends. The limits and their defaults are here, in
//! [`GameLimits`]; [`Ledger`] is the bookkeeping that enforces the quotas and expiry.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::time::Duration;

use crate::error::ApiError;

/// Games one address may create in an hour (with `create`, or a rematch), and games of one
/// address that may wait for an opponent at once: far more than a person plays, far fewer
/// than a flood.
pub const GAMES_PER_HOUR: u32 = 60;
pub const WAITING_GAMES: u32 = 5;
/// How long an open game waits in the lobby, and a friend game for its friend, before it is
/// deleted.
pub const OPEN_GAME_EXPIRY: Duration = Duration::from_secs(3600);
pub const INVITE_EXPIRY: Duration = Duration::from_secs(24 * 3600);
/// How long a game nobody follows and where nothing runs (no clock, no computer to move) stays
/// in memory; it is loaded again from the database when asked for.
pub const IDLE_UNLOAD: Duration = Duration::from_secs(600);
/// How long a player must have been gone from a timed game (every connection of theirs
/// closed) before the opponent may claim it.
pub const CLAIM_AFTER: Duration = Duration::from_secs(30);
/// How long a game in play where no clock runs (an untimed game, or a timed one before both
/// sides have moved) may go unplayed before it ends.
pub const UNPLAYED_END: Duration = Duration::from_secs(7 * 24 * 3600);

const HOUR_MS: i64 = 3600 * 1000;

/// Hands the memory freed by games that left back to the operating system. glibc's allocator
/// keeps freed memory in its arenas (except at their very top): without this, a server that
/// held a flood of games would stay as big as at its peak after they are gone.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only gives the arenas' free pages back to the system, under the
    // allocator's own locks; it may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Shrinks a map that has emptied: a map keeps the room it once needed.
pub fn shrink<K: Eq + std::hash::Hash, V>(map: &mut HashMap<K, V>) {
    if map.capacity() > 4 * map.len() + 64 {
        map.shrink_to_fit();
    }
}

/// The quotas and lifetimes of games, and how long a player may be gone before a claim (the
/// constants above unless configured otherwise, as tests do to see games expire in seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLimits {
    pub games_per_hour: u32,
    pub waiting_games: u32,
    pub open_game_expiry: Duration,
    pub invite_expiry: Duration,
    pub idle_unload: Duration,
    pub claim_after: Duration,
    pub unplayed_end: Duration,
}

impl Default for GameLimits {
    fn default() -> GameLimits {
        GameLimits {
            games_per_hour: GAMES_PER_HOUR,
            waiting_games: WAITING_GAMES,
            open_game_expiry: OPEN_GAME_EXPIRY,
            invite_expiry: INVITE_EXPIRY,
            idle_unload: IDLE_UNLOAD,
            claim_after: CLAIM_AFTER,
            unplayed_end: UNPLAYED_END,
        }
    }
}

impl GameLimits {
    /// When a game created at `created_ms` is deleted if nobody has joined it.
    pub fn expiry_ms(&self, created_ms: i64, private: bool) -> i64 {
        let wait = if private { self.invite_expiry } else { self.open_game_expiry };
        created_ms.saturating_add(millis(wait))
    }

    /// How often waiting games are looked at for expiry, and games in play for how long they
    /// went unplayed: a tenth of the shortest of those times, between a tenth of a second and
    /// half a minute.
    pub fn sweep_period(&self) -> Duration {
        (self.open_game_expiry.min(self.invite_expiry).min(self.unplayed_end) / 10)
            .clamp(Duration::from_millis(100), Duration::from_secs(30))
    }

    /// [`GameLimits::claim_after`] in milliseconds.
    pub fn claim_after_ms(&self) -> i64 {
        millis(self.claim_after)
    }

    /// [`GameLimits::unplayed_end`] in milliseconds.
    pub fn unplayed_end_ms(&self) -> i64 {
        millis(self.unplayed_end)
    }
}

/// A duration in milliseconds, as the times of games are kept.
fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// What quotas count by: an IPv4 address, or the /64 network of an IPv6 address (a host or a
/// household is given a whole /64 and may pick any address in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn of(address: IpAddr) -> ClientKey {
        match address.to_canonical() {
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                ClientKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
            v4 => ClientKey(v4),
        }
    }
}

/// What a client has now: games created in the last hour, and games waiting. (Counts only:
/// the times are in one queue for all clients, so that a flood of clients leaves no small
/// allocation of its own behind, pinning a page of memory each for an hour.)
#[derive(Debug, Default)]
struct ClientGames {
    created: u32,
    waiting: u32,
}

/// A game waiting for its second player: whose it is and when it expires.
#[derive(Debug)]
struct Waiting {
    client: Option<ClientKey>,
    expires_ms: i64,
}

/// The games waiting for an opponent (whose, and when each expires) and the games each client
/// created in the last hour.
#[derive(Debug, Default)]
pub struct Ledger {
    waiting: HashMap<String, Waiting>,
    /// The waiting games by expiry time.
    expiries: BTreeSet<(i64, String)>,
    clients: HashMap<ClientKey, ClientGames>,
    /// Each game created in the last hour, by whom, oldest first.
    creations: VecDeque<(i64, ClientKey)>,
}

impl Ledger {
    /// Counts a game `client` creates at `now_ms` (one that will wait for an opponent if
    /// `waits`), or refuses it if that would pass a quota.
    pub fn admit(
        &mut self,
        client: ClientKey,
        now_ms: i64,
        limits: &GameLimits,
        waits: bool,
    ) -> Result<(), ApiError> {
        self.forget_creations_before(now_ms - HOUR_MS);
        let games = self.clients.entry(client).or_default();
        if waits && games.waiting >= limits.waiting_games {
            return Err(ApiError::too_many_waiting(limits.waiting_games));
        }
        if games.created >= limits.games_per_hour {
            return Err(ApiError::too_many_games(limits.games_per_hour));
        }
        games.created += 1;
        games.waiting += u32::from(waits);
        self.creations.push_back((now_ms, client));
        Ok(())
    }

    /// Takes back what [`Ledger::admit`] counted for a game that was not made after all.
    pub fn refund(&mut self, client: ClientKey, now_ms: i64, waits: bool) {
        if let Some(at) = self.creations.iter().rposition(|&creation| creation == (now_ms, client)) {
            self.creations.remove(at);
            if let Some(games) = self.clients.get_mut(&client) {
                games.created = games.created.saturating_sub(1);
                games.waiting = games.waiting.saturating_sub(u32::from(waits));
            }
        }
    }

    /// Counts a game created at `at_ms` found in the database at start-up.
    pub fn count_creation(&mut self, client: ClientKey, at_ms: i64) {
        self.clients.entry(client).or_default().created += 1;
        let at = self.creations.partition_point(|&(t, _)| t <= at_ms);
        self.creations.insert(at, (at_ms, client));
    }

    /// Follows a game that waits for an opponent until `expires_ms`. `admitted`: its client's
    /// waiting count already has it (it was counted by [`Ledger::admit`]).
    pub fn add_waiting(&mut self, id: &str, client: Option<ClientKey>, expires_ms: i64, admitted: bool) {
        if self.waiting.contains_key(id) {
            return;
        }
        if let (Some(client), false) = (client, admitted) {
            self.clients.entry(client).or_default().waiting += 1;
        }
        self.expiries.insert((expires_ms, id.to_string()));
        self.waiting.insert(id.to_string(), Waiting { client, expires_ms });
    }

    /// Forgets a game that no longer waits (joined, withdrawn or deleted).
    pub fn remove_waiting(&mut self, id: &str) -> bool {
        let Some(game) = self.waiting.remove(id) else { return false };
        self.expiries.remove(&(game.expires_ms, id.to_string()));
        if let Some(client) = game.client {
            if let Some(games) = self.clients.get_mut(&client) {
                games.waiting = games.waiting.saturating_sub(1);
            }
            self.forget_idle_client(client);
        }
        true
    }

    /// Up to `most` waiting games whose time is up at `now_ms`, the oldest first.
    pub fn expired(&self, now_ms: i64, most: usize) -> Vec<String> {
        self.expiries
            .iter()
            .take_while(|(at, _)| *at <= now_ms)
            .take(most)
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// Number of games waiting for an opponent.
    pub fn waiting_count(&self) -> usize {
        self.waiting.len()
    }

    /// Drops the creations of more than an hour before `now_ms`.
    pub fn prune(&mut self, now_ms: i64) {
        self.forget_creations_before(now_ms - HOUR_MS);
    }

    /// Gives back the room of games and clients gone.
    pub fn shrink(&mut self) {
        shrink(&mut self.waiting);
        shrink(&mut self.clients);
        if self.creations.capacity() > 4 * self.creations.len() + 64 {
            self.creations.shrink_to_fit();
        }
    }

    fn forget_creations_before(&mut self, cutoff_ms: i64) {
        while let Some(&(at, client)) = self.creations.front() {
            if at > cutoff_ms {
                break;
            }
            self.creations.pop_front();
            if let Some(games) = self.clients.get_mut(&client) {
                games.created = games.created.saturating_sub(1);
            }
            self.forget_idle_client(client);
        }
    }

    /// Forgets a client with nothing left counted.
    fn forget_idle_client(&mut self, client: ClientKey) {
        if self.clients.get(&client).is_some_and(|games| games.created == 0 && games.waiting == 0) {
            self.clients.remove(&client);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn client(text: &str) -> ClientKey {
        ClientKey::of(text.parse().unwrap())
    }

    #[test]
    fn an_ipv6_client_is_its_network_and_a_mapped_ipv4_its_address() {
        assert_eq!(client("2001:db8:1:2::1"), client("2001:db8:1:2:ffff::9"));
        assert_ne!(client("2001:db8:1:2::1"), client("2001:db8:1:3::1"));
        assert_eq!(client("::ffff:192.0.2.7"), client("192.0.2.7"));
    }

    #[test]
    fn quotas_count_waiting_games_and_games_an_hour() {
        let limits = GameLimits { games_per_hour: 4, waiting_games: 2, ..GameLimits::default() };
        let mut ledger = Ledger::default();
        let (a, b) = (client("192.0.2.1"), client("192.0.2.2"));
        ledger.admit(a, 0, &limits, true).unwrap();
        ledger.add_waiting("g1", Some(a), 100, true);
        ledger.admit(a, 1, &limits, true).unwrap();
        ledger.add_waiting("g2", Some(a), 200, true);
        assert_eq!(ledger.admit(a, 2, &limits, true).unwrap_err().code, ErrorCode::TooManyWaiting);
        ledger.admit(b, 2, &limits, true).unwrap();
        // A game that starts at once does not wait; one joined waits no more.
        ledger.admit(a, 3, &limits, false).unwrap();
        ledger.remove_waiting("g1");
        ledger.admit(a, 4, &limits, true).unwrap();
        assert_eq!(ledger.admit(a, 5, &limits, false).unwrap_err().code, ErrorCode::TooManyGames);
        ledger.refund(a, 4, true);
        ledger.admit(a, 6, &limits, true).unwrap();
        // An hour after the first, there is room again.
        assert_eq!(ledger.admit(a, HOUR_MS - 1, &limits, false).unwrap_err().code, ErrorCode::TooManyGames);
        ledger.admit(a, HOUR_MS, &limits, false).unwrap();
    }

    #[test]
    fn waiting_games_expire_in_order_and_once() {
        let mut ledger = Ledger::default();
        let a = client("192.0.2.1");
        ledger.add_waiting("late", Some(a), 300, false);
        ledger.add_waiting("early", Some(a), 100, false);
        ledger.add_waiting("early", Some(a), 100, false);
        assert_eq!(ledger.expired(99, 10), Vec::<String>::new());
        assert_eq!(ledger.expired(300, 10), ["early", "late"]);
        assert_eq!(ledger.expired(300, 1), ["early"]);
        ledger.remove_waiting("early");
        ledger.remove_waiting("late");
        assert_eq!((ledger.waiting_count(), ledger.expired(i64::MAX, 10).len()), (0, 0));
        ledger.prune(2 * HOUR_MS);
        assert!(ledger.clients.is_empty() && ledger.creations.is_empty(), "{ledger:?}");
    }
}
