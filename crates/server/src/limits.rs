//! What one client may ask of the server, in one place: how long it has to send a request's
//! headers, how many connections it may hold open, how fast it may call the HTTP endpoints
//! that cost the server work, and how fast it may send WebSocket messages. A client is its
//! address ([`client_key`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::registry::lock;

/// A rate: `burst` at once, refilled at `per_second`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub burst: f64,
    pub per_second: f64,
}

/// The limits of the HTTP door, per client; [`ClientLimits::default`] is what `checkers serve` uses
/// (tests shorten the timeouts).
#[derive(Clone, Debug, PartialEq)]
pub struct ClientLimits {
    /// Time a client has to send a request's headers, counted from when the server starts
    /// waiting for them: a connection that never finishes them (slowloris) is closed after
    /// it, and so is a keep-alive connection left idle that long after its last answer.
    pub header_read_timeout: Duration,
    /// Connections one client may hold open at once, WebSockets included; past it, new ones
    /// are closed as soon as they are accepted.
    pub connections_per_client: usize,
    /// Requests to the list of games, `/api/games`.
    pub list_requests: Rate,
    /// Requests that may set the engine to work: `/games/{id}/review`, `review.pdn` and
    /// `lines`.
    pub engine_requests: Rate,
    /// Sign-ups and log-ins (`POST /api/accounts`, `POST /api/session`) together.
    pub account_requests: Rate,
}

impl Default for ClientLimits {
    fn default() -> ClientLimits {
        ClientLimits {
            header_read_timeout: Duration::from_secs(10),
            connections_per_client: 64,
            list_requests: Rate { burst: 10.0, per_second: 1.0 },
            engine_requests: Rate { burst: 20.0, per_second: 3.0 },
            account_requests: Rate { burst: 20.0, per_second: 20.0 / 60.0 },
        }
    }
}

/// WebSocket messages a connection may send.
pub const WS_MESSAGES: Rate = Rate { burst: 40.0, per_second: 20.0 };
/// A WebSocket client that keeps sending past its allowance this many times is disconnected.
pub const WS_MAX_STRIKES: u32 = 30;
/// How long a WebSocket connection that went past its allowance is not read.
pub const WS_PENALTY: Duration = Duration::from_millis(100);
/// Reviews and lines one client may have waiting or running at once; past it, its requests are
/// refused as `rate_limited` (and the queue's other places stay for other clients).
pub const REVIEWS_PER_CLIENT: usize = 2;
/// What a client refused for holding its share of the review queue is told to wait.
pub const REVIEW_RETRY: Duration = Duration::from_secs(1);
/// Clients whose request rates are remembered; past it, those back to a full allowance are
/// forgotten.
const CLIENTS_REMEMBERED: usize = 4096;

/// The address that limits and fair shares count by: an IPv4 address as it is (an IPv4 one
/// mapped into IPv6 included), an IPv6 address by its /64 network (one host usually holds a
/// whole /64, so counting single addresses would give it billions of shares).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// How many of something each client holds at once (connections, places in a queue).
#[derive(Default)]
pub struct Shares(Mutex<HashMap<IpAddr, usize>>);

impl Shares {
    /// Counts one more for `client` if it holds fewer than `cap`; `false` if it holds them.
    pub fn take(&self, client: IpAddr, cap: usize) -> bool {
        let mut held = lock(&self.0);
        let count = held.entry(client).or_insert(0);
        if *count >= cap {
            return false;
        }
        *count += 1;
        true
    }

    /// Gives back one that `client` took.
    pub fn give_back(&self, client: IpAddr) {
        let mut held = lock(&self.0);
        if let Some(count) = held.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&client);
            }
        }
    }

    /// How many `client` holds.
    pub fn held(&self, client: IpAddr) -> usize {
        lock(&self.0).get(&client).copied().unwrap_or(0)
    }
}

/// A token bucket: `rate.burst` tokens at once, refilled at `rate.per_second`.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn full(rate: Rate) -> TokenBucket {
        TokenBucket { tokens: rate.burst, last: Instant::now() }
    }

    fn refill(&mut self, rate: Rate, now: Instant) {
        let earned = now.saturating_duration_since(self.last).as_secs_f64() * rate.per_second;
        self.tokens = (self.tokens + earned).min(rate.burst);
        self.last = now;
    }

    /// Takes a token if there is one; otherwise says how long until there is.
    pub fn take(&mut self, rate: Rate, now: Instant) -> Result<(), Duration> {
        self.refill(rate, now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / rate.per_second.max(f64::MIN_POSITIVE)))
        }
    }

    /// Lets the time until `now` earn nothing (a pause imposed on a client is no credit).
    pub fn earn_nothing_until(&mut self, now: Instant) {
        self.last = now;
    }

    fn is_full(&self, rate: Rate, now: Instant) -> bool {
        self.tokens + now.saturating_duration_since(self.last).as_secs_f64() * rate.per_second >= rate.burst
    }
}

/// A token bucket per client.
pub struct RateLimiter {
    rate: Rate,
    buckets: Mutex<HashMap<IpAddr, TokenBucket>>,
}

impl RateLimiter {
    pub fn new(rate: Rate) -> RateLimiter {
        RateLimiter { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Counts a request of `client`; refused with the time to wait when it has none left.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = lock(&self.buckets);
        if buckets.len() >= CLIENTS_REMEMBERED && !buckets.contains_key(&client) {
            buckets.retain(|_, bucket| !bucket.is_full(self.rate, now));
        }
        buckets.entry(client).or_insert_with(|| TokenBucket::full(self.rate)).take(self.rate, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_says_how_long_to_wait() {
        let rate = Rate { burst: 2.0, per_second: 4.0 };
        let start = Instant::now();
        let mut bucket = TokenBucket { tokens: 2.0, last: start };
        assert_eq!(bucket.take(rate, start), Ok(()));
        assert_eq!(bucket.take(rate, start), Ok(()));
        assert_eq!(bucket.take(rate, start), Err(Duration::from_millis(250)));
        assert_eq!(bucket.take(rate, start + Duration::from_millis(250)), Ok(()));
        bucket.earn_nothing_until(start + Duration::from_secs(10));
        assert!(bucket.take(rate, start + Duration::from_secs(10)).is_err());
    }

    #[test]
    fn clients_are_counted_by_address_and_ipv6_by_network() {
        let limiter = RateLimiter::new(Rate { burst: 1.0, per_second: 0.001 });
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        assert!(limiter.check(a).is_ok());
        assert!(limiter.check(a).is_err());
        assert!(limiter.check("192.0.2.2".parse().unwrap()).is_ok());
        let key = |s: &str| client_key(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::2"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.1"), a);
    }
}
