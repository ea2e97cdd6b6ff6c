//! Draw detection: the path of positions from the game's start through the search, and the
//! draws the search sees on it (repetitions, the move-count rules, and the Russian lone king
//! against lone king).

use checkers_rules::{is_drawn_king_against_king, Color, Move, Position, Variant};

use super::{Searcher, MAX_PLY};

/// One position of the game or the search path, for the draw rules.
#[derive(Clone, Copy)]
pub(super) struct PathEntry {
    pub(super) key: u64,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
}

/// The path entries of the game before the root and of the root itself.
pub(super) fn game_path(root: &Position, history: &[Position]) -> Vec<PathEntry> {
    let mut path: Vec<PathEntry> = Vec::with_capacity(history.len() + MAX_PLY + 2);
    let positions = history.iter().chain(std::iter::once(root));
    let mut previous: Option<&Position> = None;
    for p in positions {
        let count = match previous {
            // A move that leaves every man where it was and takes nothing moved a king.
            Some(prev)
                if prev.men_of(Color::White) == p.men_of(Color::White)
                    && prev.men_of(Color::Black) == p.men_of(Color::Black)
                    && prev.kings().len() == p.kings().len()
                    && prev.turn() != p.turn() =>
            {
                path.last().map_or(0, |e| e.quiet_plies) + 1
            }
            _ => 0,
        };
        path.push(PathEntry { key: p.hash_key(), quiet_plies: count });
        previous = Some(p);
    }
    path
}

/// Plies without a capture or a man's move after which the game is drawn. English: the
/// 40-move rule; Russian: 15 moves of kings alone without a capture.
pub(super) fn quiet_ply_limit(variant: Variant) -> u32 {
    match variant {
        Variant::English => 80,
        Variant::Russian => 30,
    }
}

impl Searcher<'_> {
    /// Draw by repetition (twice within reach counts), by the move-count rules, or by the
    /// Russian lone king against a lone king that neither side can catch.
    #[inline]
    pub(super) fn is_draw(&self, position: &Position) -> bool {
        let last = self.path.len() - 1;
        let quiet = self.path[last].quiet_plies;
        if quiet >= self.quiet_ply_limit {
            return true;
        }
        if quiet >= 4 {
            let key = self.path[last].key;
            let mut i = last - 4;
            let oldest = last - quiet as usize;
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
        // A lone king against a lone king is drawn only when neither can force a capture.
        self.variant == Variant::Russian && is_drawn_king_against_king(position)
    }

    /// Enters the child that `mv` leads to, whose hash key is `key`, on the path.
    #[inline]
    pub(super) fn push(&mut self, position: &Position, mv: &Move, key: u64) {
        let quiet_plies = if mv.is_capture() || position.men_of(position.turn()).contains(mv.from()) {
            0
        } else {
            self.path[self.path.len() - 1].quiet_plies + 1
        };
        self.path.push(PathEntry { key, quiet_plies });
    }

    #[inline]
    pub(super) fn pop(&mut self) {
        self.path.pop();
    }
}
