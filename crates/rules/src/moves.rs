//! Moves, and the list the generator fills.

use crate::error::IllegalMove;
use crate::position::{Color, Position};
use crate::square::{Square, SquareSet};

/// A legal move: its start and end squares, the set of pieces it captures, and whether the
/// moving man is crowned. Two jump routes that agree on all four are the same move
/// (docs/rules.md, "Moves and move text" and "Perft: counting moves").
///
/// A `Move` is built only by the move generator (or by parsing text against a position, which
/// looks the move up among the legal ones), so holding one means it was legal somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) crowns: bool,
    pub(crate) captured: u64,
}

impl Move {
    pub fn from(&self) -> Square {
        self.from
    }
    pub fn to(&self) -> Square {
        self.to
    }
    /// The squares of the pieces this move captures.
    pub fn captured(&self) -> SquareSet {
        SquareSet(self.captured)
    }
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }
    /// Whether the moving man becomes a king with this move.
    pub fn crowns(&self) -> bool {
        self.crowns
    }
}

/// A list of moves. It is a vector that keeps its memory when cleared: the generator's callers
/// reuse one list per ply, so after the first few positions no list allocates, and reading a
/// move is one bounds check (an inline array with a heap overflow cost a branch on every
/// access, which the engine's bench measured). No position can overflow or truncate it.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list (it allocates on its first move).
    pub fn new() -> MoveList {
        MoveList { moves: Vec::new() }
    }
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    pub fn clear(&mut self) {
        self.moves.clear();
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }
    pub fn to_vec(&self) -> Vec<Move> {
        self.moves.clone()
    }
    #[inline]
    pub(crate) fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }
    /// Keeps only the moves `keep` accepts, in their order (a search told to leave some
    /// moves out).
    pub fn retain(&mut self, keep: impl FnMut(&Move) -> bool) {
        self.moves.retain(keep);
    }
    /// Adds a capture unless an equal move (same from, to, captured set, crowning) is there.
    #[inline]
    pub(crate) fn push_capture_unique(&mut self, mv: Move) {
        if !self.as_slice().contains(&mv) {
            self.push(mv);
        }
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    #[inline]
    fn index(&self, i: usize) -> &Move {
        &self.moves[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Position {
    /// The position after `mv`, which must be legal here (the engine's fast door: it does not
    /// check; an illegal move gives a nonsense position but never undefined behaviour).
    #[inline]
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let from = mv.from.bit();
        let to = mv.to.bit();
        let mut next = *self;
        let was_king = self.kings & from != 0;
        match self.turn {
            Color::White => {
                next.white = (next.white & !from) | to;
                next.black &= !mv.captured;
            }
            Color::Black => {
                next.black = (next.black & !from) | to;
                next.white &= !mv.captured;
            }
        }
        next.kings &= !(from | mv.captured);
        if was_king || mv.crowns {
            next.kings |= to;
        }
        next.turn = self.turn.opponent();
        next
    }

    /// The position after `mv`, or an error carrying this position unchanged if `mv` is not
    /// legal here.
    pub fn try_play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        if self.is_legal(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove { position: *self, attempted: *mv })
        }
    }

    /// Whether `mv` is one of the legal moves here.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.legal_moves().iter().any(|m| m == mv)
    }
}
