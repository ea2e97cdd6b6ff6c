//! Glicko-2 ratings as pure arithmetic: no storage, no clock, no I/O. The server keeps one
//! [`Rating`] per account, variant and [`SpeedClass`]; this module says how it moves.
//!
//! # The system
//!
//! Glicko-2 exactly as Mark Glickman's "Example of the Glicko-2 system", steps 1 to 8, with
//! the system constant τ = 0.5 and the Illinois algorithm of step 5 run to ε = 0.000001.
//! Every player starts at rating 1500, RD 350, volatility 0.06. On the Glicko-2 scale
//! μ = (r − 1500) / 173.7178 and φ = RD / 173.7178. For one rating period with games against
//! opponents j (μⱼ, φⱼ) scoring sⱼ (1 a win, ½ a draw, 0 a loss):
//!
//! - g(φ) = 1 / √(1 + 3φ²/π²) and E(μ, μⱼ, φⱼ) = 1 / (1 + exp(−g(φⱼ)(μ − μⱼ)));
//! - v = [Σ g(φⱼ)² Eⱼ (1 − Eⱼ)]⁻¹ and Δ = v Σ g(φⱼ)(sⱼ − Eⱼ);
//! - the new volatility σ' = exp(A/2), where A is the root of
//!   f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − ln σ²)/τ², found by the Illinois
//!   algorithm from A = ln σ² and B = ln(Δ² − φ² − v) if Δ² > φ² + v, otherwise B = ln σ² − kτ
//!   for the least k ≥ 1 with f(B) ≥ 0. Each step takes C = A + (A − B)f(A)/(f(B) − f(A));
//!   if f(C)f(B) ≤ 0 then A ← B, f(A) ← f(B), otherwise f(A) ← f(A)/2; then B ← C,
//!   f(B) ← f(C); it stops once |B − A| ≤ ε. (The paper's 2022 revision reads "≤ 0"; the
//!   earlier "< 0" never ends when f(C) is exactly 0.) A cap of [`MAX_ILLINOIS_STEPS`] steps
//!   guards the server against input the paper does not consider.
//! - φ* = √(φ² + σ'²), φ' = 1 / √(1/φ*² + 1/v), μ' = μ + φ'² Σ g(φⱼ)(sⱼ − Eⱼ);
//! - r' = 173.7178 μ' + 1500 and RD' = 173.7178 φ'.
//!
//! Nothing is rounded along the way. A period with no games leaves the rating and volatility
//! and grows the RD as one idle day does (below).
//!
//! # How the site uses it
//!
//! - **One rated game is one rating period for each player**, against the opponent's rating as
//!   it stood before the game ([`rate_game`]): both players' RDs are first grown for their idle
//!   days, then each is rated against the other's grown rating, so neither update sees the
//!   other's result.
//! - **Idle days**: before a game, a player's RD grows for the whole days since their last
//!   rated game ended: φ'² = φ² + σ²·days on the Glicko-2 scale, then capped at RD 350 (and
//!   never lowered). Days are counted from timestamps in milliseconds as
//!   ⌊(now − last) / 86 400 000⌋: a partial day counts nothing, so 23 h 59 min is 0 days and
//!   47 h is 1 day. A clock that runs backwards counts 0 days; a player with no rated game yet
//!   has nothing to grow (they start at RD 350).
//! - **Provisional** while RD > 110 ([`PROVISIONAL_RD`]), judged on the RD grown to the time of
//!   asking ([`Standing::rating_at`]).
//! - **Speed classes** ([`SpeedClass`]): one rating per variant and speed; untimed games have no
//!   speed class and are never rated.
//!
//! Playing one game per period has a consequence worth knowing: step 6 adds σ'² to φ² before
//! the game's information is taken off, so an established player's RD settles near 60 rather
//! than falling without end, and a game against a far stronger or weaker opponent (who tells
//! little) can leave a low RD slightly higher than before. The RD after a game is always below
//! φ* (the RD grown for the period), and below the RD before the game for a provisional player
//! (volatility up to 0.1) against an opponent within 400 points; the tests check both.

mod speed;
#[cfg(test)]
mod tests;

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

pub use speed::{SpeedClass, UnknownSpeed};

/// Glicko's rating for Glicko-2's μ = 0.
pub const START_RATING: f64 = 1500.0;
/// A new player's RD, and the most an RD grows to while idle.
pub const START_RD: f64 = 350.0;
/// A new player's volatility σ.
pub const START_VOLATILITY: f64 = 0.06;
/// The RD an idle player's RD grows to at most.
pub const MAX_RD: f64 = 350.0;
/// A rating is provisional while its RD is above this.
pub const PROVISIONAL_RD: f64 = 110.0;
/// The system constant τ, which bounds how fast the volatility moves.
pub const TAU: f64 = 0.5;
/// Glicko-2's scale: 173.7178 ≈ 400 / ln 10.
pub const SCALE: f64 = 173.7178;
/// Step 5's convergence tolerance ε.
pub const EPSILON: f64 = 0.000_001;
/// Step 5's Illinois iterations at most (a guard: the paper's example needs 2 steps, the
/// tests' most extreme input about 16).
pub const MAX_ILLINOIS_STEPS: u32 = 100;
/// One day in milliseconds, the unit of idle time.
pub const DAY_MS: i64 = 86_400_000;

/// A player's rating in one variant and speed class, on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// r, starting at 1500.
    pub rating: f64,
    /// The rating deviation RD, starting at 350.
    pub rd: f64,
    /// The volatility σ, starting at 0.06.
    pub volatility: f64,
}

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// sⱼ: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game's result for the opponent.
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// One game of a rating period: the opponent's rating at the start of the period and the
/// player's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodGame {
    pub opponent: Rating,
    pub score: Score,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::START
    }
}

impl Rating {
    /// Where every player starts: 1500, RD 350, volatility 0.06.
    pub const START: Rating = Rating { rating: START_RATING, rd: START_RD, volatility: START_VOLATILITY };

    /// Whether the rating is provisional (RD above 110).
    pub fn is_provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    /// The rating after `days` idle days: φ'² = φ² + σ²·days, RD at most 350 (an RD already
    /// above 350 is left as it is; idleness never lowers an RD).
    pub fn after_idle_days(self, days: u64) -> Rating {
        if days == 0 {
            return self;
        }
        let phi = self.rd / SCALE;
        let grown = (phi * phi + self.volatility * self.volatility * days as f64).sqrt() * SCALE;
        Rating { rd: self.rd.max(grown.min(MAX_RD)), ..self }
    }

    /// The rating after one rating period with these games (steps 2 to 8). With no games, the
    /// RD grows as for one idle day.
    pub fn after_period(self, games: &[PeriodGame]) -> Rating {
        if games.is_empty() {
            return self.after_idle_days(1);
        }
        // Step 2: the Glicko-2 scale.
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.rd / SCALE;
        // Steps 3 and 4: v and the sum that makes Δ.
        let mut information = 0.0;
        let mut surprise = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - START_RATING) / SCALE;
            let g_j = g(game.opponent.rd / SCALE);
            let expected = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            information += g_j * g_j * expected * (1.0 - expected);
            surprise += g_j * (game.score.value() - expected);
        }
        let v = 1.0 / information;
        let delta = v * surprise;
        // Step 5.
        let sigma = new_volatility(delta, phi, v, self.volatility);
        // Steps 6 and 7.
        let phi_star_squared = phi * phi + sigma * sigma;
        let phi_new = 1.0 / (1.0 / phi_star_squared + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * surprise;
        // Step 8: back to the Glicko scale.
        Rating { rating: SCALE * mu_new + START_RATING, rd: SCALE * phi_new, volatility: sigma }
    }

    /// The rating after one game as its own rating period, against the opponent's rating as it
    /// stood before the game.
    pub fn after_game(self, opponent: Rating, score: Score) -> Rating {
        self.after_period(&[PeriodGame { opponent, score }])
    }
}

/// g(φ) = 1 / √(1 + 3φ²/π²), how much an opponent's uncertainty damps what a game tells.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// Step 5: the new volatility σ', by the Illinois algorithm.
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let phi_squared_plus_v = phi * phi + v;
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi_squared_plus_v + ex;
        ex * (delta * delta - phi_squared_plus_v - ex) / (2.0 * denominator * denominator)
            - (x - a) / (TAU * TAU)
    };
    let mut low = a;
    let mut high = if delta * delta > phi_squared_plus_v {
        (delta * delta - phi_squared_plus_v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_low = f(low);
    let mut f_high = f(high);
    let mut steps = 0;
    while (high - low).abs() > EPSILON && steps < MAX_ILLINOIS_STEPS {
        let c = low + (low - high) * f_low / (f_high - f_low);
        let f_c = f(c);
        if f_c * f_high <= 0.0 {
            low = high;
            f_low = f_high;
        } else {
            f_low /= 2.0;
        }
        high = c;
        f_high = f_c;
        steps += 1;
    }
    (low / 2.0).exp()
}

/// The whole idle days between a player's last rated game (ended at `last_rated_ms`) and
/// `now_ms`: ⌊(now − last) / one day⌋, so partial days count nothing; 0 with no earlier rated
/// game or a clock that went backwards.
pub fn idle_days(last_rated_ms: Option<i64>, now_ms: i64) -> u64 {
    match last_rated_ms {
        Some(last) if now_ms > last => ((now_ms - last) / DAY_MS) as u64,
        _ => 0,
    }
}

/// A player's stored rating in one variant and speed, with when their last rated game there
/// ended (`None` before the first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    pub last_rated_ms: Option<i64>,
}

impl Standing {
    /// A player who has not played a rated game in this variant and speed.
    pub const NEW: Standing = Standing { rating: Rating::START, last_rated_ms: None };

    /// The rating as it stands at `now_ms`: the stored one with the RD grown for the idle days
    /// since the last rated game. This is the rating a game starting then is played against,
    /// and the one whose RD says whether the player is provisional.
    pub fn rating_at(&self, now_ms: i64) -> Rating {
        self.rating.after_idle_days(idle_days(self.last_rated_ms, now_ms))
    }
}

/// Both players' new ratings after a rated game between them that ended at `now_ms`, where
/// the first player scored `first_score`. Each player's RD is grown for their idle days, then
/// each is rated in a period of their own against the other's grown rating.
pub fn rate_game(first: Standing, second: Standing, first_score: Score, now_ms: i64) -> (Rating, Rating) {
    let first_before = first.rating_at(now_ms);
    let second_before = second.rating_at(now_ms);
    (
        first_before.after_game(second_before, first_score),
        second_before.after_game(first_before, first_score.opposite()),
    )
}
