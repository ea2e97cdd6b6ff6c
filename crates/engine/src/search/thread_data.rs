//! What one search thread keeps from one search to the next: the per-ply records of the
//! path, the ordering tables and the evaluation cache.

use super::eval_cache::EvalCache;
use super::ordering::{from_to_count, FromTo, NO_FROM_TO};
use super::MAX_PLY;
use crate::game::SearchPosition;

/// What the search keeps for one ply of the path: one record, so a node's data sits together
/// in memory and is reached by one index.
pub(super) struct PlyData<P: SearchPosition> {
    pub(super) moves: P::Moves,
    /// Move-ordering keys (see [`super::ordering`]), best first once sorted.
    pub(super) order: Vec<i64>,
    /// The children's hash keys by generator index, when the node computed them to prefetch.
    pub(super) child_keys: Vec<u64>,
    pub(super) killers: [FromTo; 2],
    /// The move being searched from this node (its children's previous move).
    pub(super) played: FromTo,
    pub(super) pv: Vec<P::Move>,
}

/// Per-thread tables kept from one search to the next (cleared for a new game).
pub(crate) struct ThreadData<P: SearchPosition> {
    /// A fixed-size array: the search never goes past `MAX_PLY`, so indexing it needs no
    /// length loaded and most bounds checks fold away.
    pub(super) plies: Box<[PlyData<P>; MAX_PLY + 1]>,
    /// Quiet-move history by the moves' start and end squares.
    pub(super) history: Vec<i32>,
    /// The quiet move that last refuted each previous move, by the previous move's start and
    /// end squares (English only).
    pub(super) counters: Vec<FromTo>,
    /// Recent evaluations by position, see [`EvalCache`].
    pub(super) eval_cache: EvalCache,
    /// Scratch space for sorting a node's move keys.
    pub(super) sort_scratch: Vec<i64>,
}

impl<P: SearchPosition> ThreadData<P> {
    pub fn new() -> ThreadData<P> {
        let ply = || PlyData {
            moves: P::Moves::default(),
            order: Vec::with_capacity(64),
            child_keys: Vec::with_capacity(64),
            killers: [NO_FROM_TO; 2],
            played: NO_FROM_TO,
            pv: Vec::with_capacity(MAX_PLY),
        };
        ThreadData {
            plies: Box::new(std::array::from_fn(|_| ply())),
            history: vec![0; from_to_count::<P>()],
            counters: vec![NO_FROM_TO; from_to_count::<P>()],
            eval_cache: EvalCache::new(),
            sort_scratch: Vec::with_capacity(64),
        }
    }
    pub fn clear(&mut self) {
        self.plies.iter_mut().for_each(|p| p.killers = [NO_FROM_TO; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = NO_FROM_TO);
    }
}
