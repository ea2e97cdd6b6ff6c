//! The computer opponent: engine searches run on a bounded set of blocking threads, so a long
//! think never holds up the async workers that serve other games.

use std::sync::Arc;

use checkers_rules::{Game, Move};
use tokio::sync::Semaphore;

/// The clock the computer plays on, if the game has one.
#[derive(Clone, Copy, Debug)]
pub struct ThinkClock {
    pub remaining_ms: i64,
    pub increment_ms: i64,
}

/// At most `threads` engine searches at once; further requests wait their turn.
#[derive(Clone, Debug)]
pub struct ComputerPool {
    permits: Arc<Semaphore>,
}

impl ComputerPool {
    pub fn new(threads: usize) -> ComputerPool {
        ComputerPool { permits: Arc::new(Semaphore::new(threads.max(1))) }
    }

    /// The computer's move in `game` at `level` (1-9), or `None` if it has none (or the
    /// search failed, which the caller treats as "play any legal move").
    pub async fn think(&self, game: Game, level: u8, clock: Option<ThinkClock>) -> Option<Move> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            choose_move(&game, level, clock)
        })
        .await
        .ok()
        .flatten()
    }
}

/// The one place the server asks the engine for a move.
pub fn choose_move(game: &Game, level: u8, clock: Option<ThinkClock>) -> Option<Move> {
    let _ = (level, clock);
    // Until the engine's API lands: the capture taking most pieces, else a move chosen by the
    // position's hash (varied but repeatable).
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let position = game.position();
    let best_capture = moves.iter().filter(|m| m.is_capture()).max_by_key(|m| m.captured().len()).copied();
    best_capture.or_else(|| Some(moves[(position.hash_key() % moves.len() as u64) as usize]))
}
