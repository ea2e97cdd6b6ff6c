//! The machine words a board's squares live in: `u64` for boards of up to 64 bits (8x8 and
//! 10x10 with ghost squares), `u128` for larger ones (12x12). The move generator is written
//! once against [`Bits`]; each geometry picks its word at compile time.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A bitboard word: bit `i` stands for the square (or ghost square) with layout index `i`.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + 'static
{
    /// No bit set.
    const ZERO: Self;
    /// Only bit `index` set.
    fn bit(index: u32) -> Self;
    /// The number of bits set.
    fn count(self) -> u32;
    /// The index of the lowest bit set (the word's width when none is).
    fn lowest_index(self) -> u32;
    /// The lowest bit set, alone.
    fn lowest(self) -> Self;
    /// Whether two or more bits are set.
    fn has_two_or_more(self) -> bool;
    /// The word's low and high 64 bits (the high half is 0 in a `u64`): what a hash mixes.
    fn halves(self) -> (u64, u64);
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn bit(index: u32) -> $t {
                1 << index
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest_index(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn has_two_or_more(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline(always)]
            #[allow(clippy::unnecessary_cast)]
            fn halves(self) -> (u64, u64) {
                (self as u64, (self as u128 >> 64) as u64)
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// Shifts a word one layout step `d` (positive: towards higher bits).
#[inline(always)]
pub(crate) fn shift<B: Bits>(bits: B, d: i32) -> B {
    if d > 0 {
        bits << d as u32
    } else {
        bits >> (-d) as u32
    }
}

/// Iterates the set bits of a word, lowest first, each alone (`EachBit(word)`).
pub struct EachBit<B>(pub B);

impl<B: Bits> Iterator for EachBit<B> {
    type Item = B;
    #[inline(always)]
    fn next(&mut self) -> Option<B> {
        if self.0.is_zero() {
            return None;
        }
        let low = self.0.lowest();
        self.0 ^= low;
        Some(low)
    }
}
