//! Squares of the 8x8 board and sets of them.
//!
//! Only the 32 dark squares exist. A [`Square`] is one of them; its public names are the
//! standard number 1-32 (square 1 at the top left of the numbered diagram, Black's side) and
//! the algebraic name (a1 at White's bottom left). Internally a square is a bit of a `u64`
//! laid out rank by rank (`a1` = bit 0, `h8` = bit 63), so that the four diagonal neighbours
//! are plain shifts by 7 and 9 and a shift off the edge always lands on a light square.

use std::fmt;

/// The 32 dark squares of the 8x8 board, as a `u64` mask.
pub(crate) const DARK: u64 = 0xAA55_AA55_AA55_AA55;

/// One dark square of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8); // bit index 0..64, always a dark square

impl Square {
    /// The square with standard number `n` (1-32), if there is one.
    pub fn from_number(n: u32) -> Option<Square> {
        if !(1..=32).contains(&n) {
            return None;
        }
        let idx = n - 1;
        let row_from_top = idx / 4;
        let rank = 7 - row_from_top;
        let file = 2 * (idx % 4) + u32::from(row_from_top.is_multiple_of(2));
        Some(Square((rank * 8 + file) as u8))
    }

    /// The square with coordinates `file` (0 = a) and `rank` (0 = 1), if it is dark.
    pub fn from_coords(file: u32, rank: u32) -> Option<Square> {
        if file > 7 || rank > 7 || !(file + rank).is_multiple_of(2) {
            return None;
        }
        Some(Square((rank * 8 + file) as u8))
    }

    /// Parses an algebraic name such as `c3` (light squares are not squares of the game).
    pub fn from_algebraic(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
        let rank = bytes[1].checked_sub(b'1')?;
        Square::from_coords(u32::from(file), u32::from(rank))
    }

    /// The standard number of this square, 1-32.
    pub fn number(self) -> u32 {
        let rank = u32::from(self.0 / 8);
        let file = u32::from(self.0 % 8);
        let row_from_top = 7 - rank;
        row_from_top * 4 + file / 2 + 1
    }

    /// File, 0 (a) to 7 (h).
    pub fn file(self) -> u32 {
        u32::from(self.0 % 8)
    }

    /// Rank, 0 (rank 1, White's side) to 7 (rank 8, Black's side).
    pub fn rank(self) -> u32 {
        u32::from(self.0 / 8)
    }

    /// The algebraic name, such as `c3`.
    pub fn algebraic(self) -> String {
        format!("{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }

    /// All 32 squares, in number order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).filter_map(Square::from_number)
    }

    pub(crate) fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The square of a bit index known to be dark.
    pub(crate) fn from_index(index: u32) -> Square {
        debug_assert!(index < 64 && DARK & (1u64 << index) != 0);
        Square(index as u8)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A set of squares (a bitboard).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 32 squares.
    pub const ALL: SquareSet = SquareSet(DARK);

    pub fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn with(self, square: Square) -> SquareSet {
        SquareSet(self.0 | square.bit())
    }
    pub fn without(self, square: Square) -> SquareSet {
        SquareSet(self.0 & !square.bit())
    }
    pub fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }
    pub fn intersection(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & other.0)
    }
    pub fn difference(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & !other.0)
    }
    /// The squares in ascending order of their standard numbers.
    pub fn squares(self) -> Vec<Square> {
        let mut v: Vec<Square> = self.into_iter().collect();
        v.sort_by_key(|s| s.number());
        v
    }
    /// The raw bitboard (bit `rank * 8 + file`), for engines that hash or index by it.
    pub fn bits(self) -> u64 {
        self.0
    }
    /// The set of a raw bitboard (as [`SquareSet::bits`] gives it); bits of light squares,
    /// which no piece can stand on, are dropped.
    pub fn from_bits(bits: u64) -> SquareSet {
        SquareSet(bits & DARK)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        SquareSet(iter.into_iter().fold(0, |acc, s| acc | s.bit()))
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

/// Iterates a set from the lowest bit up (rank 1 first).
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_index(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_algebraic_agree_with_rules_md() {
        let s = |n| Square::from_number(n).unwrap().algebraic();
        assert_eq!(s(29), "a1");
        assert_eq!(s(32), "g1");
        assert_eq!(s(1), "b8");
        assert_eq!(s(4), "h8");
        assert_eq!(s(5), "a7");
        for n in 1..=32 {
            let sq = Square::from_number(n).unwrap();
            assert_eq!(sq.number(), n);
            assert_eq!(Square::from_algebraic(&sq.algebraic()), Some(sq));
        }
        assert_eq!(Square::from_number(0), None);
        assert_eq!(Square::from_number(33), None);
        assert_eq!(Square::from_algebraic("a2"), None, "light square");
        assert_eq!(Square::from_algebraic("i1"), None);
    }
}
