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
