//! Move ordering: the key that ranks each move of a node (the table's move, captures by
//! size, crownings, killers, the counter move, history), and what a cut-off teaches the
//! killer, counter-move and history tables.

use super::Searcher;
use crate::game::{MoveBuffer, SearchMove, SearchPosition};
use crate::tt::MoveKey;

/// A move's start and end bit indices ([`from_to`]) in a `u16`: how killers, counter moves
/// and the move a node is searching are kept (comparing two bytes is cheaper than comparing
/// whole moves on every node).
pub(super) type FromTo = u16;
/// No move.
pub(super) const NO_FROM_TO: FromTo = u16::MAX;

/// A move's start and end slots in `2 * P::SLOT_BITS` bits (twelve on 8x8): the index of
/// history and killers.
#[inline(always)]
pub(super) fn from_to<P: SearchPosition>(mv: &P::Move) -> usize {
    (mv.start_slot() | mv.end_slot() << P::SLOT_BITS) as usize
}

/// The number of [`from_to`] values of position type `P`: the size of its tables.
pub(super) const fn from_to_count<P: SearchPosition>() -> usize {
    1 << (2 * P::SLOT_BITS)
}

/// A killer move is always a quiet move: no capture, no crowning.
#[inline(always)]
fn killer_key<P: SearchPosition>(mv: &P::Move) -> Option<FromTo> {
    (!mv.is_capture() && !mv.crowns()).then(|| from_to::<P>(mv) as FromTo)
}

/// An ordering key is a move's priority shifted left by this, plus the move's index in the
/// generator's list (so keys are unique and name their move; no list comes near 2^16 moves).
const ORDER_INDEX_BITS: u32 = 16;

/// The index in the generator's list of the move an ordering key ranks.
#[inline(always)]
pub(super) fn generated_index(order_key: i64) -> usize {
    (order_key & ((1 << ORDER_INDEX_BITS) - 1)) as usize
}

/// Whether an ordering key ranks a killer move.
#[inline(always)]
pub(super) fn is_killer(order_key: i64) -> bool {
    let priority = order_key >> ORDER_INDEX_BITS;
    priority == KILLER_PRIORITY || priority == KILLER_PRIORITY + 1
}

/// Move-ordering priorities. History scores stay far below the killers'.
const HASH_MOVE_PRIORITY: i64 = 1 << 30;
const CAPTURE_PRIORITY: i64 = 1 << 20;
const CROWNING_PRIORITY: i64 = 1 << 19;
const KILLER_PRIORITY: i64 = 1 << 18;
/// The counter move: after the killers, above any history value (those stay within ±16,384).
const COUNTER_PRIORITY: i64 = 1 << 17;

impl<P: SearchPosition> Searcher<'_, P> {
    /// Fills the node's ordering keys, one for each generated move, in the generator's order.
    pub(super) fn order_moves(&mut self, hash_move: Option<MoveKey>, ply: usize) {
        // The quiet move that last refuted the opponent's move just played, anywhere in the
        // tree (the counter-move heuristic). English only: in Russian it measured no gain.
        let counter = self.previous_move(ply).map_or(NO_FROM_TO, |previous| self.data.counters[previous]);
        let here = &mut self.data.plies[ply];
        let list = here.moves.as_slice();
        let order = &mut here.order;
        order.clear();
        let killers = here.killers;
        let hash_index = hash_move.and_then(|h| {
            let i = h.index as usize;
            let fits = |m: &P::Move| h.matches(m);
            if i < list.len() && fits(&list[i]) {
                Some(i)
            } else {
                list.iter().position(fits)
            }
        });
        let history = &self.data.history;
        // Captures are compulsory, so a node's moves are all captures or all quiet: one test
        // for the whole list instead of one a move.
        if list.first().is_some_and(SearchMove::is_capture) {
            order.extend(list.iter().enumerate().map(|(i, mv)| {
                let priority =
                    CAPTURE_PRIORITY + 1000 * i64::from(mv.captured_count()) + 100 * i64::from(mv.crowns());
                (priority << ORDER_INDEX_BITS) | i as i64
            }));
        } else {
            // Selections rather than branches: which move is a killer is what the branch
            // predictor cannot guess.
            order.extend(list.iter().enumerate().map(|(i, mv)| {
                let key = from_to::<P>(mv);
                let mut priority = i64::from(history[key]);
                priority = if key == usize::from(counter) { COUNTER_PRIORITY } else { priority };
                priority = if key == usize::from(killers[1]) { KILLER_PRIORITY } else { priority };
                priority = if key == usize::from(killers[0]) { KILLER_PRIORITY + 1 } else { priority };
                priority = if mv.crowns() { CROWNING_PRIORITY } else { priority };
                (priority << ORDER_INDEX_BITS) | i as i64
            }));
        }
        if let Some(i) = hash_index {
            order[i] = (HASH_MOVE_PRIORITY << ORDER_INDEX_BITS) | i as i64;
        }
    }

    /// The [`from_to`] of the move that led to this node, for its counter move: none at the
    /// root, where the variant does without counter moves, or below a parent that has
    /// recorded no move yet.
    fn previous_move(&self, ply: usize) -> Option<usize> {
        if ply == 0 || !self.rules.counter_moves {
            return None;
        }
        let played = self.data.plies[ply - 1].played;
        (played != NO_FROM_TO).then_some(usize::from(played))
    }

    /// A quiet move caused a cut-off: remember it as a killer and as the answer to the move
    /// before it, and raise its history, lowering the quiet moves tried before it.
    pub(super) fn reward(&mut self, cut_index: usize, depth: i32, ply: usize) {
        let previous = self.previous_move(ply);
        let here = &mut self.data.plies[ply];
        let list = here.moves.as_slice();
        let generated = |k: i64| &list[generated_index(k)];
        let order = &here.order;
        let mv = *generated(order[cut_index]);
        let killers = &mut here.killers;
        let key = killer_key::<P>(&mv).unwrap_or(NO_FROM_TO);
        if killers[0] != key {
            killers[1] = killers[0];
            killers[0] = key;
        }
        if let Some(previous) = previous {
            self.data.counters[previous] = key;
        }
        let bonus = (depth * depth).min(400);
        let history = &mut self.data.history;
        let mut update = |m: &P::Move, delta: i32| {
            let h = &mut history[from_to::<P>(m)];
            *h += delta - *h * delta.abs() / 16_384;
        };
        update(&mv, bonus);
        for m in order[..cut_index].iter().map(|&k| generated(k)).filter(|m| !m.is_capture()) {
            update(m, -bonus);
        }
    }
}
