//! Moves on boards of any size, the list the generator fills, and making a move.

use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use thiserror::Error;

use super::bits::{Bits, EachBit};
use super::geometry::Geometry;
use super::position::{BitsOf, Board, RuleSet};

/// A legal move: start and end squares, the pieces it captures, and whether the moving man is
/// crowned. Two routes that agree on all four are one move (docs/rules.md, "Moves and move
/// text"). Built only by the generator (or by reading text against a position).
pub struct BoardMove<V: RuleSet> {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) crowns: bool,
    pub(crate) captured: BitsOf<V>,
    rules: PhantomData<V>,
}

impl<V: RuleSet> BoardMove<V> {
    #[inline(always)]
    pub(crate) fn new(from: BitsOf<V>, to: BitsOf<V>, captured: BitsOf<V>, crowns: bool) -> BoardMove<V> {
        BoardMove {
            from: from.lowest_index() as u8,
            to: to.lowest_index() as u8,
            crowns,
            captured,
            rules: PhantomData,
        }
    }
    /// The start square's number.
    pub fn from(&self) -> u32 {
        <V::Geometry as Geometry>::number_of(u32::from(self.from))
    }
    /// The end square's number.
    pub fn to(&self) -> u32 {
        <V::Geometry as Geometry>::number_of(u32::from(self.to))
    }
    /// The numbers of the squares of the captured pieces, ascending.
    pub fn captured(&self) -> Vec<u32> {
        let mut squares: Vec<u32> =
            EachBit(self.captured).map(|b| <V::Geometry as Geometry>::number_of(b.lowest_index())).collect();
        // Bit order is number order only where a board numbers its squares in layout order.
        squares.sort_unstable();
        squares
    }
    /// How many pieces the move captures.
    pub fn captured_count(&self) -> u32 {
        self.captured.count()
    }
    pub fn is_capture(&self) -> bool {
        !self.captured.is_zero()
    }
    /// Whether the moving man becomes a king with this move.
    pub fn crowns(&self) -> bool {
        self.crowns
    }
    /// The start square's layout index (its bit in the board's word, below 128): a dense
    /// index for tables kept by square, such as a search's move history.
    #[inline(always)]
    pub fn start_index(&self) -> u32 {
        u32::from(self.from)
    }
    /// The end square's layout index (see [`BoardMove::start_index`]).
    #[inline(always)]
    pub fn end_index(&self) -> u32 {
        u32::from(self.to)
    }
    #[inline(always)]
    pub(crate) fn start_bit(&self) -> BitsOf<V> {
        BitsOf::<V>::bit(u32::from(self.from))
    }
    #[inline(always)]
    pub(crate) fn end_bit(&self) -> BitsOf<V> {
        BitsOf::<V>::bit(u32::from(self.to))
    }
}

impl<V: RuleSet> Clone for BoardMove<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: RuleSet> Copy for BoardMove<V> {}
impl<V: RuleSet> PartialEq for BoardMove<V> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.captured == other.captured
            && self.crowns == other.crowns
    }
}
impl<V: RuleSet> Eq for BoardMove<V> {}
impl<V: RuleSet> Hash for BoardMove<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured, self.crowns).hash(state);
    }
}
impl<V: RuleSet> fmt::Debug for BoardMove<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hub())
    }
}

/// A list of moves that keeps its memory when cleared, so callers that reuse one list a ply
/// stop allocating after the first few positions.
pub struct BoardMoves<V: RuleSet> {
    moves: Vec<BoardMove<V>>,
}

impl<V: RuleSet> Default for BoardMoves<V> {
    fn default() -> Self {
        BoardMoves { moves: Vec::new() }
    }
}
impl<V: RuleSet> Clone for BoardMoves<V> {
    fn clone(&self) -> Self {
        BoardMoves { moves: self.moves.clone() }
    }
}
impl<V: RuleSet> fmt::Debug for BoardMoves<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.moves).finish()
    }
}

impl<V: RuleSet> BoardMoves<V> {
    pub fn new() -> Self {
        Self::default()
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
    pub fn as_slice(&self) -> &[BoardMove<V>] {
        &self.moves
    }
    /// The moves, to reorder in place.
    pub fn as_mut_slice(&mut self) -> &mut [BoardMove<V>] {
        &mut self.moves
    }
    /// Keeps only the moves `keep` accepts, in their order.
    pub fn retain(&mut self, keep: impl FnMut(&BoardMove<V>) -> bool) {
        self.moves.retain(keep);
    }
    pub fn iter(&self) -> std::slice::Iter<'_, BoardMove<V>> {
        self.moves.iter()
    }
    pub fn to_vec(&self) -> Vec<BoardMove<V>> {
        self.moves.clone()
    }
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: BoardMove<V>) {
        self.moves.push(mv);
    }
    /// Adds a move unless an equal one is there.
    #[inline(always)]
    pub(crate) fn push_unique(&mut self, mv: BoardMove<V>) {
        if !self.moves.contains(&mv) {
            self.moves.push(mv);
        }
    }
}

impl<V: RuleSet> std::ops::Index<usize> for BoardMoves<V> {
    type Output = BoardMove<V>;
    #[inline(always)]
    fn index(&self, i: usize) -> &BoardMove<V> {
        &self.moves[i]
    }
}

impl<'a, V: RuleSet> IntoIterator for &'a BoardMoves<V> {
    type Item = &'a BoardMove<V>;
    type IntoIter = std::slice::Iter<'a, BoardMove<V>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Error)]
#[error("illegal move {attempted:?} in {position:?}")]
pub struct BoardIllegalMove<V: RuleSet> {
    /// The position, unchanged.
    pub position: Board<V>,
    pub attempted: BoardMove<V>,
}

impl<V: RuleSet> fmt::Debug for BoardIllegalMove<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardIllegalMove")
            .field("position", &self.position)
            .field("attempted", &self.attempted)
            .finish()
    }
}

impl<V: RuleSet> Board<V> {
    /// The position after `mv` as most variants play it: the piece moved, the captured
    /// pieces removed, the man crowned if the move says so, the turn passed.
    #[inline(always)]
    pub(crate) fn apply(&self, mv: &BoardMove<V>) -> Board<V> {
        let (from, to) = (mv.start_bit(), mv.end_bit());
        let becomes_king = mv.crowns || !(self.kings & from).is_zero();
        let mut kings = self.kings & !(from | mv.captured);
        if becomes_king {
            kings |= to;
        }
        kings ^= <V::Geometry as Geometry>::SPARE;
        let (mut white, mut black) = (self.white, self.black);
        if (self.kings & <V::Geometry as Geometry>::SPARE).is_zero() {
            white = (white & !from) | to;
            black &= !mv.captured;
        } else {
            black = (black & !from) | to;
            white &= !mv.captured;
        }
        Board::from_words(white, black, kings)
    }

    /// The position after `mv`, or an error carrying this position unchanged if `mv` is not
    /// legal here.
    pub fn try_play(&self, mv: &BoardMove<V>) -> Result<Board<V>, BoardIllegalMove<V>> {
        if self.is_legal(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(BoardIllegalMove { position: *self, attempted: *mv })
        }
    }

    /// Whether `mv` is one of the legal moves here.
    pub fn is_legal(&self, mv: &BoardMove<V>) -> bool {
        self.legal_moves().iter().any(|m| m == mv)
    }
}
