//! Board geometry as a compile-time parameter: which squares exist, how they are numbered,
//! and how a diagonal step moves through the bits of the board's word.
//!
//! Every dark-square board uses the same layout, the one Scan uses for 10x10: the squares in
//! number order, with one *ghost* bit after every two rows. For a board of side `n` (`n/2`
//! squares a row), square number `s` (counted from 0, `i = s - 1`) is bit `i + i / n`, and
//! the four diagonal steps are the same shifts everywhere on the board: `n/2` and `n/2 + 1`
//! bits, down or up. A step off the left or right edge lands on a ghost bit, a step off the
//! top or bottom outside the board's bits; neither is ever an empty square, so masking with
//! the empty squares is all the edge handling a generator needs.
//!
//! | board | squares | word | bits used | steps |
//! | --- | --- | --- | --- | --- |
//! | 10x10 ([`Dark10`]) | 50 | `u64` | 54 (4 ghosts) | 5, 6 |
//! | 12x12 ([`Dark12`]) | 72 | `u128` | 77 (5 ghosts) | 6, 7 |
//! | 8x8 ([`Dark8`], for the International-family 8x8 variants) | 32 | `u64` | 35 (3 ghosts) | 4, 5 |
//!
//! The full 8x8 board of Turkish draughts ([`Full8`], all 64 squares) is the same idea with a
//! ghost bit after every row: nine bits a row, so the orthogonal steps (1 and 9 bits) and the
//! diagonal ones (8 and 10) are again the same shifts everywhere. 64 squares and a spare bit
//! for the side to move don't fit a `u64`, so its word is a `u128` (72 bits used).

use std::fmt::Debug;
use std::hash::Hash;

use super::bits::Bits;

/// A board: its word, its squares and the steps between them, all constants.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The word that holds one bit per square.
    type Bits: Bits;
    /// Squares along one side of the board.
    const SIDE: u32;
    /// Playable squares in one row: every other square on the dark-square boards.
    const ROW_SQUARES: u32 = Self::SIDE / 2;
    /// Whether the board's players name squares algebraically (`a1`-`h8`, a file letter and a
    /// rank from White's side) rather than by number. The position code and public API still
    /// use numbers; move text and FEN use [`Geometry::square_name`].
    const ALGEBRAIC: bool = false;
    /// The playable squares, numbered 1 to `SQUARES` from the top left (Black's side).
    const SQUARES: u32;
    /// Layout steps of the four diagonal directions; "up" is towards square 1 (White's
    /// forward direction).
    const UP_RIGHT: i32;
    const UP_LEFT: i32;
    const DOWN_RIGHT: i32;
    const DOWN_LEFT: i32;
    /// Every playable square.
    const BOARD: Self::Bits;
    /// The top row (squares 1 to `SIDE / 2`), where White men are crowned.
    const TOP_ROW: Self::Bits;
    /// The bottom row, where Black men are crowned.
    const BOTTOM_ROW: Self::Bits;
    /// A bit that is no square and that no step from a square reaches: a position keeps its
    /// side to move there, so it is three words and nothing more.
    const SPARE: Self::Bits;

    /// The layout index of square number `number`, if the board has that square.
    fn index_of(number: u32) -> Option<u32> {
        (1..=Self::SQUARES).contains(&number).then(|| {
            let i = number - 1;
            i + i / Self::SIDE
        })
    }

    /// The square number of a layout index that holds a square.
    fn number_of(index: u32) -> u32 {
        index - index / (Self::SIDE + 1) + 1
    }

    /// File (0 = the left edge, a) and rank (0 = the bottom row, White's side) of a square.
    fn coords(number: u32) -> (u32, u32) {
        let i = number - 1;
        let half = Self::SIDE / 2;
        let row_from_top = i / half;
        let file = 2 * (i % half) + u32::from(row_from_top.is_multiple_of(2));
        (file, Self::SIDE - 1 - row_from_top)
    }

    /// The number of the square at `file` and `rank` (as [`Geometry::coords`] gives them),
    /// if that is a playable square.
    fn at(file: i32, rank: i32) -> Option<u32> {
        let side = Self::SIDE as i32;
        if !(0..side).contains(&file) || !(0..side).contains(&rank) || (file + rank) % 2 != 0 {
            return None;
        }
        let row_from_top = (side - 1 - rank) as u32;
        Some(row_from_top * (Self::SIDE / 2) + file as u32 / 2 + 1)
    }

    /// The name of square `number` in move text and FEN: the number itself, or `c3` on a board
    /// whose squares are named algebraically.
    fn square_name(number: u32) -> String {
        if Self::ALGEBRAIC {
            let (file, rank) = Self::coords(number);
            format!("{}{}", char::from(b'a' + file as u8), rank + 1)
        } else {
            number.to_string()
        }
    }

    /// The square named `text` (as [`Geometry::square_name`] writes it), if the board has one.
    fn square_by_name(text: &str) -> Option<u32> {
        if Self::ALGEBRAIC {
            let mut chars = text.chars();
            let file = chars.next().filter(char::is_ascii_lowercase)?;
            let rank = chars.as_str();
            if rank.is_empty() || !rank.bytes().all(|b| b.is_ascii_digit()) || rank.len() > 2 {
                return None;
            }
            let rank: i32 = rank.parse().ok()?;
            Self::at(i32::from(file as u8 - b'a'), rank - 1)
        } else {
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            text.parse().ok().filter(|n| (1..=Self::SQUARES).contains(n))
        }
    }

    /// How the squares are named, for error messages: `numbers 1-50` or `a1 to h8`.
    fn square_names() -> String {
        if Self::ALGEBRAIC {
            format!("a1 to {}{}", char::from(b'a' + Self::SIDE as u8 - 1), Self::SIDE)
        } else {
            format!("numbers 1-{}", Self::SQUARES)
        }
    }
}

/// Bits `i + i / side` for the squares `first..last` (counted from 0), as a `u64`.
const fn squares_u64(side: u32, first: u32, last: u32) -> u64 {
    let mut bits = 0u64;
    let mut i = first;
    while i < last {
        bits |= 1 << (i + i / side);
        i += 1;
    }
    bits
}

/// The same, as a `u128`, for boards past 64 bits.
const fn squares_u128(side: u32, first: u32, last: u32) -> u128 {
    let mut bits = 0u128;
    let mut i = first;
    while i < last {
        bits |= 1 << (i + i / side);
        i += 1;
    }
    bits
}

/// The 8x8 board in this layout, for the International-family variants played on it: 32
/// squares in a `u64`, ghost bits 8, 17 and 26, bit 63 for the side to move. (English and
/// Russian keep their own 8x8 code and layout.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dark8;

impl Geometry for Dark8 {
    type Bits = u64;
    const SIDE: u32 = 8;
    const SQUARES: u32 = 32;
    const UP_RIGHT: i32 = -4;
    const UP_LEFT: i32 = -5;
    const DOWN_RIGHT: i32 = 5;
    const DOWN_LEFT: i32 = 4;
    const BOARD: u64 = squares_u64(8, 0, 32);
    const TOP_ROW: u64 = squares_u64(8, 0, 4);
    const BOTTOM_ROW: u64 = squares_u64(8, 28, 32);
    const SPARE: u64 = 1 << 63;
}

/// The 12x12 board (Canadian draughts): 72 squares in a `u128`, ghost bits 12, 25, 38, 51 and
/// 64, bit 127 for the side to move, so a position is 48 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dark12;

impl Geometry for Dark12 {
    type Bits = u128;
    const SIDE: u32 = 12;
    const SQUARES: u32 = 72;
    const UP_RIGHT: i32 = -6;
    const UP_LEFT: i32 = -7;
    const DOWN_RIGHT: i32 = 7;
    const DOWN_LEFT: i32 = 6;
    const BOARD: u128 = squares_u128(12, 0, 72);
    const TOP_ROW: u128 = squares_u128(12, 0, 6);
    const BOTTOM_ROW: u128 = squares_u128(12, 66, 72);
    const SPARE: u128 = 1 << 127;
}

/// The 10x10 board of International draughts and its family: 50 squares in a `u64`, ghost
/// bits 10, 21, 32 and 43, bits 54-63 outside the board (bit 63 holds the side to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dark10;

impl Geometry for Dark10 {
    type Bits = u64;
    const SIDE: u32 = 10;
    const SQUARES: u32 = 50;
    const UP_RIGHT: i32 = -5;
    const UP_LEFT: i32 = -6;
    const DOWN_RIGHT: i32 = 6;
    const DOWN_LEFT: i32 = 5;
    const BOARD: u64 = squares_u64(10, 0, 50);
    const TOP_ROW: u64 = squares_u64(10, 0, 5);
    const BOTTOM_ROW: u64 = squares_u64(10, 45, 50);
    const SPARE: u64 = 1 << 63;
}

/// The full 8x8 board of Turkish draughts: all 64 squares, numbered 1 (a8) to 64 (h1) row by
/// row from the top left as on the dark-square boards, named algebraically (`a1`-`h8`) in move
/// text and FEN. Square `n` (`i = n - 1`) is bit `i + i / 8`: nine bits a row, the ninth a
/// ghost (bits 8, 17, ..., 71), so a step left or right off the board lands on a ghost and a
/// step up or down off it outside bits 0-71. Bit 127 holds the side to move. The diagonal
/// steps of [`Geometry`] are the full board's diagonals; Turkish moves use the orthogonal ones
/// ([`Full8::UP`], [`Full8::DOWN`], [`Full8::LEFT`], [`Full8::RIGHT`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Full8;

impl Full8 {
    /// Towards rank 8 (White's forward direction).
    pub const UP: i32 = -9;
    /// Towards rank 1 (Black's forward direction).
    pub const DOWN: i32 = 9;
    /// Towards the a file.
    pub const LEFT: i32 = -1;
    /// Towards the h file.
    pub const RIGHT: i32 = 1;
}

/// Bits `i + i / 8` for the squares `first..last` of the full 8x8 board.
const fn full8_squares(first: u32, last: u32) -> u128 {
    let mut bits = 0u128;
    let mut i = first;
    while i < last {
        bits |= 1 << (i + i / 8);
        i += 1;
    }
    bits
}

impl Geometry for Full8 {
    type Bits = u128;
    const SIDE: u32 = 8;
    const SQUARES: u32 = 64;
    const ROW_SQUARES: u32 = 8;
    const ALGEBRAIC: bool = true;
    const UP_RIGHT: i32 = -8;
    const UP_LEFT: i32 = -10;
    const DOWN_RIGHT: i32 = 10;
    const DOWN_LEFT: i32 = 8;
    const BOARD: u128 = full8_squares(0, 64);
    const TOP_ROW: u128 = full8_squares(0, 8);
    const BOTTOM_ROW: u128 = full8_squares(56, 64);
    const SPARE: u128 = 1 << 127;

    fn index_of(number: u32) -> Option<u32> {
        (1..=64).contains(&number).then(|| (number - 1) + (number - 1) / 8)
    }

    fn number_of(index: u32) -> u32 {
        index - index / 9 + 1
    }

    fn coords(number: u32) -> (u32, u32) {
        let i = number - 1;
        (i % 8, 7 - i / 8)
    }

    fn at(file: i32, rank: i32) -> Option<u32> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| ((7 - rank) * 8 + file + 1) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step from every square lands on its diagonal neighbour or off the board (on a
    /// ghost bit or outside the board's bits), checked against file and rank arithmetic.
    fn steps_reach_exactly_the_diagonal_neighbours<G: Geometry>() {
        let side = G::SIDE as i32;
        let bit = |i: i32| -> G::Bits {
            if (0..128).contains(&i) {
                Bits::bit(i as u32)
            } else {
                G::Bits::ZERO
            }
        };
        let on = |i: i32| i < 8 * std::mem::size_of::<G::Bits>() as i32 && !(G::BOARD & bit(i)).is_zero();
        assert_eq!(G::BOARD.count(), G::SQUARES);
        assert!((G::BOARD & G::SPARE).is_zero());
        assert_eq!(G::TOP_ROW.count(), G::SIDE / 2);
        assert_eq!(G::BOTTOM_ROW.count(), G::SIDE / 2);
        let steps = [
            (G::UP_RIGHT, (1, 1)),
            (G::UP_LEFT, (-1, 1)),
            (G::DOWN_RIGHT, (1, -1)),
            (G::DOWN_LEFT, (-1, -1)),
        ];
        for number in 1..=G::SQUARES {
            let index = G::index_of(number).unwrap();
            assert!(on(index as i32));
            assert_eq!(G::number_of(index), number);
            let (file, rank) = G::coords(number);
            assert_eq!((file + rank) % 2, 0, "square {number} is dark");
            assert_eq!(!(G::TOP_ROW & bit(index as i32)).is_zero(), rank + 1 == G::SIDE);
            assert_eq!(!(G::BOTTOM_ROW & bit(index as i32)).is_zero(), rank == 0);
            for (step, (df, dr)) in steps {
                let target = index as i32 + step;
                let (f, r) = (file as i32 + df, rank as i32 + dr);
                let on_board = (0..side).contains(&f) && (0..side).contains(&r);
                assert_eq!(target >= 0 && on(target), on_board, "square {number} step {step}");
                if on_board {
                    assert_eq!(G::coords(G::number_of(target as u32)), (f as u32, r as u32));
                }
                assert_eq!(G::at(f, r), on_board.then(|| G::number_of(target as u32)));
            }
        }
        assert_eq!(G::coords(1), (1, G::SIDE - 1), "square 1 is at the top, on the b file");
        assert_eq!(G::coords(G::SQUARES - G::SIDE / 2 + 1), (0, 0), "the bottom left corner is dark");
        assert_eq!(G::at(0, 1), None, "a2 is light");
        assert_eq!(G::index_of(0), None);
        assert_eq!(G::index_of(G::SQUARES + 1), None);
    }

    #[test]
    fn dark8_steps() {
        steps_reach_exactly_the_diagonal_neighbours::<Dark8>();
        assert_eq!(Dark8::coords(29), (0, 0), "29 is a1, as on the project's 8x8 board");
    }

    #[test]
    fn dark10_steps() {
        steps_reach_exactly_the_diagonal_neighbours::<Dark10>();
        assert_eq!(Dark10::BOARD & ((1 << 10) | (1 << 21) | (1 << 32) | (1 << 43)), 0, "ghosts");
        assert_eq!(Dark10::coords(46), (0, 0), "square 46 is a1");
        assert_eq!(Dark10::coords(50), (8, 0), "square 50 is i1");
    }

    #[test]
    fn dark12_steps() {
        steps_reach_exactly_the_diagonal_neighbours::<Dark12>();
        assert_eq!(Dark12::BOARD.count_ones(), 72);
        const { assert!(Dark12::BOARD >> 77 == 0, "77 bits used") };
    }

    /// Every orthogonal and diagonal step from every square of the full board lands on its
    /// neighbour or off the board, checked against file and rank arithmetic; names round-trip.
    #[test]
    fn full8_steps_and_names() {
        let on = |i: i32| (0..128).contains(&i) && Full8::BOARD & (1u128 << i) != 0;
        assert_eq!(Full8::BOARD.count_ones(), 64);
        assert_eq!(Full8::BOARD & Full8::SPARE, 0);
        assert_eq!((Full8::TOP_ROW.count_ones(), Full8::BOTTOM_ROW.count_ones()), (8, 8));
        let steps = [
            (Full8::UP, (0, 1)),
            (Full8::DOWN, (0, -1)),
            (Full8::LEFT, (-1, 0)),
            (Full8::RIGHT, (1, 0)),
            (Full8::UP_RIGHT, (1, 1)),
            (Full8::UP_LEFT, (-1, 1)),
            (Full8::DOWN_RIGHT, (1, -1)),
            (Full8::DOWN_LEFT, (-1, -1)),
        ];
        for number in 1..=64 {
            let index = Full8::index_of(number).unwrap();
            assert!(on(index as i32));
            assert_eq!(Full8::number_of(index), number);
            let (file, rank) = Full8::coords(number);
            assert_eq!(Full8::at(file as i32, rank as i32), Some(number));
            assert_eq!(Full8::TOP_ROW & (1 << index) != 0, rank == 7);
            assert_eq!(Full8::BOTTOM_ROW & (1 << index) != 0, rank == 0);
            assert_eq!(Full8::square_by_name(&Full8::square_name(number)), Some(number));
            for (step, (df, dr)) in steps {
                let target = index as i32 + step;
                let (f, r) = (file as i32 + df, rank as i32 + dr);
                let on_board = (0..8).contains(&f) && (0..8).contains(&r);
                assert_eq!(on(target), on_board, "square {number} step {step}");
                if on_board {
                    assert_eq!(Full8::coords(Full8::number_of(target as u32)), (f as u32, r as u32));
                }
            }
        }
        assert_eq!(Full8::square_name(1), "a8");
        assert_eq!(Full8::square_name(64), "h1");
        assert_eq!(Full8::square_by_name("a1"), Some(57));
        for bad in ["", "a", "a0", "a9", "i1", "A1", "a10", "11", "a1x"] {
            assert_eq!(Full8::square_by_name(bad), None, "{bad}");
        }
        assert_eq!(Full8::square_names(), "a1 to h8");
        assert_eq!(Dark10::square_names(), "numbers 1-50");
        assert_eq!(Dark10::square_by_name("50"), Some(50));
        assert_eq!(Dark10::square_by_name("51"), None);
    }
}
