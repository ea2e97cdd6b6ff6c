//! Draw detection: the path of positions from the game's start through the search, and the
//! draws the search sees on it (repetitions, the move-count rules, and draws the position
//! shows alone, such as the Russian lone king against lone king).

use super::{Searcher, MAX_PLY};
use crate::game::{SearchMove, SearchPosition};

/// Plies back the search looks for a repetition at most: a variant without a limit on king
/// moves may have a long run of them before the root, and every node would walk it.
const REPETITION_WINDOW: u32 = 100;

/// One position of the game or the search path, for the draw rules.
#[derive(Clone, Copy)]
pub(super) struct PathEntry {
    pub(super) key: u64,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
}

/// The path entries of the game before the root and of the root itself.
pub(super) fn game_path<P: SearchPosition>(root: &P, history: &[P]) -> Vec<PathEntry> {
    let mut path: Vec<PathEntry> = Vec::with_capacity(history.len() + MAX_PLY + 2);
    let positions = history.iter().chain(std::iter::once(root));
    let mut previous: Option<&P> = None;
    for p in positions {
        let count = match previous {
            // A move that leaves every man where it was and takes nothing moved a king.
            Some(prev) if P::king_move_between(prev, p) => path.last().map_or(0, |e| e.quiet_plies) + 1,
            _ => 0,
        };
        path.push(PathEntry { key: p.hash_key(), quiet_plies: count });
        previous = Some(p);
    }
    path
}

impl<P: SearchPosition> Searcher<'_, P> {
    /// Draw by repetition (twice within reach counts), by the move-count rules, or by a rule
    /// that looks at the position alone (the Russian lone king against a lone king that
    /// neither side can catch).
    #[inline]
    pub(super) fn is_draw(&self, position: &P) -> bool {
        let last = self.path.len() - 1;
        let quiet = self.path[last].quiet_plies;
        if quiet >= self.rules.quiet_ply_limit {
            return true;
        }
        if quiet >= 4 && self.rules.repetition_draws {
            let key = self.path[last].key;
            let mut i = last - 4;
            let oldest = last - quiet.min(REPETITION_WINDOW) as usize;
            loop {
                if self.path[i].key == key {
                    return true;
                }
                if i < oldest + 2 {
                    break;
                }
                i -= 2;
            }
        }
        position.drawn_by_position()
    }

    /// Enters the child that `mv` leads to, whose hash key is `key`, on the path.
    #[inline]
    pub(super) fn push(&mut self, position: &P, mv: &P::Move, key: u64) {
        let quiet_plies = if mv.is_capture() || position.moves_man(mv) {
            0
        } else {
            self.path[self.path.len() - 1].quiet_plies.saturating_add(1)
        };
        self.path.push(PathEntry { key, quiet_plies });
    }

    #[inline]
    pub(super) fn pop(&mut self) {
        self.path.pop();
    }
}
