//! Speed classes: a game's clock sorted by how long the game is expected to last.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How fast a timed game is, judged by its estimated duration: the base time plus 40 times the
/// increment (a game of 40 moves a side), in seconds. Bullet is under 180 s, blitz under 480 s,
/// rapid under 1500 s, classical from 1500 s on. Untimed games have no speed class, and so
/// are never rated. Each variant has one rating per speed class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpeedClass {
    Bullet,
    Blitz,
    Rapid,
    Classical,
}

/// The estimated durations, in milliseconds, below which a game is bullet, blitz or rapid.
const BULLET_BELOW_MS: i64 = 180_000;
const BLITZ_BELOW_MS: i64 = 480_000;
const RAPID_BELOW_MS: i64 = 1_500_000;

/// The moves a side is expected to make, by which the increment counts.
const EXPECTED_MOVES: i64 = 40;

impl SpeedClass {
    /// Every speed class, fastest first.
    pub const ALL: [SpeedClass; 4] =
        [SpeedClass::Bullet, SpeedClass::Blitz, SpeedClass::Rapid, SpeedClass::Classical];

    /// The class of a clock given in whole seconds.
    pub fn from_clock(base_s: u32, increment_s: u32) -> SpeedClass {
        SpeedClass::from_clock_ms(i64::from(base_s) * 1000, i64::from(increment_s) * 1000)
    }

    /// The class of a clock given in milliseconds (as the server keeps clocks); the estimate is
    /// computed exactly, so 179.5 s is bullet.
    pub fn from_clock_ms(base_ms: i64, increment_ms: i64) -> SpeedClass {
        let estimate = base_ms.saturating_add(increment_ms.saturating_mul(EXPECTED_MOVES));
        if estimate < BULLET_BELOW_MS {
            SpeedClass::Bullet
        } else if estimate < BLITZ_BELOW_MS {
            SpeedClass::Blitz
        } else if estimate < RAPID_BELOW_MS {
            SpeedClass::Rapid
        } else {
            SpeedClass::Classical
        }
    }

    /// The name on the wire and in URLs: `bullet`, `blitz`, `rapid`, `classical`.
    pub fn name(self) -> &'static str {
        match self {
            SpeedClass::Bullet => "bullet",
            SpeedClass::Blitz => "blitz",
            SpeedClass::Rapid => "rapid",
            SpeedClass::Classical => "classical",
        }
    }
}

impl fmt::Display for SpeedClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no speed class.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown speed class {0:?}: expected bullet, blitz, rapid or classical")]
pub struct UnknownSpeed(pub String);

impl FromStr for SpeedClass {
    type Err = UnknownSpeed;

    fn from_str(name: &str) -> Result<SpeedClass, UnknownSpeed> {
        SpeedClass::ALL
            .into_iter()
            .find(|speed| speed.name() == name)
            .ok_or_else(|| UnknownSpeed(name.to_string()))
    }
}
