//! What bounds a search: depth, nodes, time per move, a game clock, or nothing but a stop
//! signal; and the handle that stops it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The deepest iteration a search goes to, in plies: a deeper depth limit searches this deep.
pub const MAX_DEPTH: u32 = 100;
/// The most search threads an engine runs: an engine asked for more runs this many.
pub const MAX_THREADS: usize = 256;
/// The largest transposition table an engine allocates, in MB: an engine asked for more
/// gets this.
pub const MAX_HASH_MB: usize = 65_536;

/// A game clock for the side the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Every limit given applies (the first reached ends the search); with
/// none given, or with `infinite`, the search runs until its [`StopHandle`] is stopped (or it
/// proves a result or reaches the maximum depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (extensions and capture sequences go further).
    pub depth: Option<u32>,
    /// Node budget. With one thread, a search under a node budget is deterministic.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock and increment: the engine budgets its own time.
    pub clock: Option<Clock>,
    /// Search until stopped, ignoring the other limits for ending early.
    pub infinite: bool,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }
    pub fn movetime(time: Duration) -> Limits {
        Limits { movetime: Some(time), ..Limits::default() }
    }
    pub fn clock(remaining: Duration, increment: Duration) -> Limits {
        Limits { clock: Some(Clock { remaining, increment, moves_to_go: None }), ..Limits::default() }
    }
    pub fn infinite() -> Limits {
        Limits { infinite: true, ..Limits::default() }
    }
    /// Whether no limit ends the search on its own.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }
}

/// A shared switch that stops a running search from another thread. The search then returns
/// at once with the best move it has (always a legal one). Cheap to clone; clones share the
/// switch.
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    pub fn new() -> StopHandle {
        StopHandle::default()
    }
    /// Asks every search watching this handle to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// Clears the switch so the handle can serve another search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
