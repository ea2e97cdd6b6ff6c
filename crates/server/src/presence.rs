//! Who of a game's players is there: each seat's open connections, counted while they follow
//! the game, so that a player who has left a timed game can be claimed against.

use std::sync::{Arc, Mutex};

use checkers_rules::Color;
use tokio::sync::Notify;

use crate::live::side;
use crate::registry::lock;

/// The connections following a game from each seat, White's then Black's, and a signal to the
/// game's actor whenever they change.
#[derive(Debug, Default)]
pub struct Presence {
    connections: Mutex<[u32; 2]>,
    changed: Notify,
}

impl Presence {
    /// Counts a connection of `color`'s player until the returned guard is dropped.
    pub fn enter(self: &Arc<Self>, color: Color) -> SeatPresence {
        lock(&self.connections)[side(color)] += 1;
        self.changed.notify_one();
        SeatPresence { presence: self.clone(), color }
    }

    /// Whether each seat, White's then Black's, has a connection following the game.
    pub fn connected(&self) -> [bool; 2] {
        lock(&self.connections).map(|n| n > 0)
    }

    /// Waits until a connection comes or goes (at once if one did since the last wait).
    pub async fn changed(&self) {
        self.changed.notified().await;
    }
}

/// A connection of a seated player following its game; counted until dropped.
#[derive(Debug)]
pub struct SeatPresence {
    presence: Arc<Presence>,
    color: Color,
}

impl Drop for SeatPresence {
    fn drop(&mut self) {
        let count = &mut lock(&self.presence.connections)[side(self.color)];
        *count = count.saturating_sub(1);
        self.presence.changed.notify_one();
    }
}

/// Since when each seat, White's then Black's, has had no connection following the game, and
/// so who is gone long enough to be claimed against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Absences {
    since_ms: [Option<i64>; 2],
}

impl Absences {
    /// Both players away from `now_ms` on (nobody follows a game just loaded).
    pub fn since(now_ms: i64) -> Absences {
        Absences { since_ms: [Some(now_ms), Some(now_ms)] }
    }

    /// Takes note of who is connected at `now_ms`.
    pub fn update(&mut self, connected: [bool; 2], now_ms: i64) {
        for (since, connected) in self.since_ms.iter_mut().zip(connected) {
            *since = if connected { None } else { Some(since.unwrap_or(now_ms)) };
        }
    }

    /// When each player who may be claimed against (`claimable`), away while the opponent is
    /// there, will have been away `after_ms`.
    fn deadlines(
        &self,
        after_ms: i64,
        claimable: impl Fn(Color) -> bool,
    ) -> impl Iterator<Item = (Color, i64)> {
        let since_ms = self.since_ms;
        [Color::White, Color::Black].into_iter().filter_map(move |color| {
            let since = since_ms[side(color)]?;
            let opponent_there = since_ms[side(color.opponent())].is_none();
            (opponent_there && claimable(color)).then_some((color, since.saturating_add(after_ms)))
        })
    }

    /// The player away for `after_ms` or more at `now_ms` while the opponent is there, if
    /// `claimable` allows claiming against them.
    pub fn gone(&self, now_ms: i64, after_ms: i64, claimable: impl Fn(Color) -> bool) -> Option<Color> {
        self.deadlines(after_ms, claimable).find(|&(_, at)| at <= now_ms).map(|(color, _)| color)
    }

    /// When [`Absences::gone`] will next name someone, as things stand.
    pub fn next_gone_ms(&self, after_ms: i64, claimable: impl Fn(Color) -> bool) -> Option<i64> {
        self.deadlines(after_ms, claimable).map(|(_, at)| at).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_gone_once_away_long_enough_while_the_opponent_is_there() {
        let mut absences = Absences::since(0);
        let anyone = |_| true;
        assert_eq!((absences.gone(100, 30, anyone), absences.next_gone_ms(30, anyone)), (None, None));
        absences.update([false, true], 10);
        assert_eq!(absences.next_gone_ms(30, anyone), Some(30), "White away since the start");
        assert_eq!(
            (absences.gone(29, 30, anyone), absences.gone(30, 30, anyone)),
            (None, Some(Color::White))
        );
        assert_eq!(absences.gone(30, 30, |c| c != Color::White), None);
        // White comes back, then leaves again: away from then on.
        absences.update([true, true], 40);
        absences.update([false, true], 50);
        assert_eq!(absences.next_gone_ms(30, anyone), Some(80));
        // Both away: nobody is there to claim, and nothing to wait for.
        absences.update([false, false], 60);
        assert_eq!((absences.gone(1000, 30, anyone), absences.next_gone_ms(30, anyone)), (None, None));
    }
}
