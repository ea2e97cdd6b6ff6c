//! The fitted tables the evaluation adds: values by square, by formation of a side's men on
//! two neighbouring ranks, and by pattern of both sides' men there.

use std::fmt;

/// A value for each square a man or a king stands on, at a full board and at an empty one
/// (blended by the number of pieces, as the other terms are). Squares are counted from the
/// owner's side: White's bit index, Black's turned half a turn. The evaluation holds them as
/// integers; the tuner fits them as reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareValues<T = i16> {
    pub men_full: [T; 64],
    pub men_empty: [T; 64],
    pub kings_full: [T; 64],
    pub kings_empty: [T; 64],
}

/// For the tuner's output.
#[cfg(feature = "tune")]
impl<T: Copy> SquareValues<T> {
    /// The four tables, named, in declaration order.
    pub fn named(&self) -> [(&'static str, &[T; 64]); 4] {
        [
            ("men_full", &self.men_full),
            ("men_empty", &self.men_empty),
            ("kings_full", &self.kings_full),
            ("kings_empty", &self.kings_empty),
        ]
    }
}

impl SquareValues {
    #[cfg(any(test, feature = "tune"))]
    pub const ZERO: SquareValues =
        SquareValues { men_full: [0; 64], men_empty: [0; 64], kings_full: [0; 64], kings_empty: [0; 64] };

    /// The values blended for every number of pieces on the board (0-24), so that the
    /// evaluation reads one value per piece.
    pub const fn blend(&self) -> BlendedSquares {
        let mut men = [[0i16; 64]; 25];
        let mut kings = [[0i16; 64]; 25];
        let mut pieces = 0;
        while pieces <= 24 {
            let mut sq = 0;
            while sq < 64 {
                men[pieces][sq] = blend(self.men_full[sq], self.men_empty[sq], pieces as i32);
                kings[pieces][sq] = blend(self.kings_full[sq], self.kings_empty[sq], pieces as i32);
                sq += 1;
            }
            pieces += 1;
        }
        let mut has_men = false;
        let mut sq = 0;
        while sq < 64 {
            has_men |= self.men_full[sq] != 0 || self.men_empty[sq] != 0;
            sq += 1;
        }
        BlendedSquares { values: *self, has_men, men, kings }
    }
}

/// `full` at 24 pieces, `empty` at none, in proportion between (rounded to nearest).
const fn blend(full: i16, empty: i16, pieces: i32) -> i16 {
    let sum = full as i32 * pieces + empty as i32 * (24 - pieces);
    (if sum >= 0 { (sum + 12) / 24 } else { (sum - 12) / 24 }) as i16
}

/// Square values ready for the evaluation: by number of pieces on the board, then square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendedSquares {
    /// The values they were blended from.
    pub values: SquareValues,
    /// Whether any man's square has a value (else the evaluation skips the men).
    pub(super) has_men: bool,
    pub(super) men: [[i16; 64]; 25],
    pub(super) kings: [[i16; 64]; 25],
}

/// Values for a side's men by formation: the eight dark squares of two neighbouring ranks
/// (ranks 1-2, 2-3, ... 7-8, as the owner sees them: seven overlapping pairs) index a table of
/// 256 values, at a full board and at an empty one (blended by the number of pieces, as square
/// values are). Formations can hold the men's square values as sums, and say more: which men
/// stand together (a bridge, a triangle, a hole behind a man).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formations<T = i16> {
    /// By pair of ranks, then by [`formation_indices`].
    pub full: [[T; 256]; FORMATION_PAIRS],
    pub empty: [[T; 256]; FORMATION_PAIRS],
}

/// Pairs of neighbouring ranks.
pub const FORMATION_PAIRS: usize = 7;

impl Formations {
    #[cfg(feature = "tune")]
    pub const ZERO: Formations =
        Formations { full: [[0; 256]; FORMATION_PAIRS], empty: [[0; 256]; FORMATION_PAIRS] };

    /// The values blended for every number of pieces on the board (0-24).
    pub const fn blend(&self) -> BlendedFormations {
        let mut blended = [[[0i16; 256]; FORMATION_PAIRS]; 25];
        let mut turned = [[[0i16; 256]; FORMATION_PAIRS]; 25];
        let mut pieces = 0;
        while pieces <= 24 {
            let mut pair = 0;
            while pair < FORMATION_PAIRS {
                let mut i = 0;
                while i < 256 {
                    blended[pieces][pair][i] = blend(self.full[pair][i], self.empty[pair][i], pieces as i32);
                    let (mirror, j) = (black_pair(pair), black_order(i));
                    turned[pieces][pair][i] =
                        blend(self.full[mirror][j], self.empty[mirror][j], pieces as i32);
                    i += 1;
                }
                pair += 1;
            }
            pieces += 1;
        }
        BlendedFormations { values: *self, blended, turned }
    }
}

/// Formation values ready for the evaluation: by number of pieces, pair of ranks, formation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendedFormations {
    /// The values they were blended from.
    pub values: Formations,
    pub(super) blended: [[[i16; 256]; FORMATION_PAIRS]; 25],
    /// Black's blended values, by pair of ranks and formation as White sees the board, so that
    /// one set of indices serves both sides.
    pub(super) turned: [[[i16; 256]; FORMATION_PAIRS]; 25],
}

/// The formations of a set of men seen from its owner's side (in White's bit order: Black's
/// men turned half a turn first), by pair of ranks: entry `p` indexes ranks `p + 1` and
/// `p + 2`, the lower rank's four dark squares (file a side first) in its low four bits.
#[inline(always)]
pub fn formation_indices(men: u64) -> [usize; FORMATION_PAIRS] {
    // Four squares of a rank sit two bits apart once each rank's dark squares are moved onto
    // files a, c, e, g; packing squeezes them together. Ranks 1, 3, 5, 7 are there already,
    // ranks 2, 4, 6, 8 are a step (9 bits) away; the overlapping pairs start a rank higher.
    const EVERY_OTHER_RANK: u64 = 0x0055_0055_0055_0055;
    let pack = |x: u64| {
        let x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
        (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
    };
    let aligned = pack(men & EVERY_OTHER_RANK) | (pack((men >> 9) & EVERY_OTHER_RANK) << 4);
    let offset = pack((men >> 9) & EVERY_OTHER_RANK) | (pack((men >> 16) & EVERY_OTHER_RANK) << 4);
    std::array::from_fn(|p| {
        let lanes = if p % 2 == 0 { aligned } else { offset };
        (lanes >> (16 * (p / 2))) as usize & 0xFF
    })
}

/// The states of the eight dark squares of two neighbouring ranks: each empty, holding an own
/// man or an enemy man (3^8).
pub const PATTERN_STATES: usize = 6561;
/// The size of a pattern file: for each pair of ranks and state, the value at a full board
/// and at an empty one, little-endian `i16`s.
pub const PATTERN_BYTES: usize = FORMATION_PAIRS * PATTERN_STATES * 2 * 2;

/// The pair of ranks Black calls the board's pair `pair` (as White counts them): Black sees
/// the board half-turned, so White's ranks 1-2 are its 7-8.
const fn black_pair(pair: usize) -> usize {
    FORMATION_PAIRS - 1 - pair
}

/// A formation in White's order (see [`formation_indices`]) as Black orders the same eight
/// squares: the board half-turned, bit k becomes bit 7 - k.
const fn black_order(formation: usize) -> usize {
    (formation as u8).reverse_bits() as usize
}

/// Values for the men of both sides on two neighbouring ranks, seen from one side (the same
/// pairs of ranks as [`Formations`]): where formations value a side's men by how they stand
/// together, patterns value them by how they meet the enemy's (a man held by one in front,
/// an exchange offered, a hole the enemy can enter). Fitted values, read straight from the
/// bytes the tuner wrote (the table is too large for source).
///
/// For the evaluation the values are also kept by pair of ranks on the board and state as
/// White sees it, White's and Black's side by side: one read serves both sides.
#[derive(Clone, PartialEq, Eq)]
pub struct Patterns {
    bytes: &'static [u8; PATTERN_BYTES],
    /// By White's pair and [`pattern_index`] of White's formation and Black's (both in White's
    /// order): White's values (full, empty), then Black's.
    pub(super) both: [[i16; 4]; FORMATION_PAIRS * PATTERN_STATES],
}

impl fmt::Debug for Patterns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let used = (0..FORMATION_PAIRS * PATTERN_STATES).filter(|&i| self.at(i) != (0, 0)).count();
        write!(f, "Patterns {{ {used} states with a value }}")
    }
}

impl Patterns {
    pub const fn new(bytes: &'static [u8; PATTERN_BYTES]) -> Patterns {
        let mut both = [[0i16; 4]; FORMATION_PAIRS * PATTERN_STATES];
        let mut white = 0;
        while white < 256 {
            let mut black = 0;
            while black < 256 {
                if white & black == 0 {
                    let seen_by_white = pattern_index(white, black);
                    let seen_by_black = pattern_index(black_order(black), black_order(white));
                    let mut pair = 0;
                    while pair < FORMATION_PAIRS {
                        let (wf, we) = value_at(bytes, pair * PATTERN_STATES + seen_by_white);
                        let (bf, be) = value_at(bytes, black_pair(pair) * PATTERN_STATES + seen_by_black);
                        both[pair * PATTERN_STATES + seen_by_white] = [wf, we, bf, be];
                        pair += 1;
                    }
                }
                black += 1;
            }
            white += 1;
        }
        Patterns { bytes, both }
    }

    /// The values (full board, empty board) of state `state` on pair of ranks `pair`, as
    /// indexed by [`pattern_index`].
    #[cfg(feature = "tune")]
    #[inline(always)]
    pub fn values(&self, pair: usize, state: usize) -> (i16, i16) {
        self.at(pair * PATTERN_STATES + state)
    }

    #[inline(always)]
    fn at(&self, entry: usize) -> (i16, i16) {
        value_at(self.bytes, entry)
    }
}

/// Entry `entry` of a pattern file: (full board, empty board).
#[inline(always)]
const fn value_at(bytes: &[u8; PATTERN_BYTES], entry: usize) -> (i16, i16) {
    let b = entry * 4;
    (i16::from_le_bytes([bytes[b], bytes[b + 1]]), i16::from_le_bytes([bytes[b + 2], bytes[b + 3]]))
}

/// For each set of a rank pair's eight squares (a formation), the sum of 3^k over its squares.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut set = 0;
    while set < 256 {
        let (mut bit, mut power, mut sum) = (0, 1u16, 0u16);
        while bit < 8 {
            if set >> bit & 1 == 1 {
                sum += power;
            }
            power *= 3;
            bit += 1;
        }
        t[set] = sum;
        set += 1;
    }
    t
};

/// The pattern state of a pair of ranks from the formations (see [`formation_indices`]) of a
/// side's men and of the enemy's, both seen from the side: each square 0 (empty), 1 (own man)
/// or 2 (enemy man), square k of the formation counting 3^k.
#[inline(always)]
pub const fn pattern_index(own: usize, enemy: usize) -> usize {
    TERNARY[own & 0xFF] as usize + 2 * TERNARY[enemy & 0xFF] as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::terms::turned;
    use crate::eval::{evaluate_with, Weights};
    use checkers_rules::{Position, Variant};

    #[test]
    fn square_values_blend_from_full_board_to_empty() {
        let mut values = SquareValues::ZERO;
        values.men_full[9] = 30;
        values.men_empty[9] = -18;
        let blended = values.blend();
        assert_eq!(blended.men[24][9], 30);
        assert_eq!(blended.men[0][9], -18);
        assert_eq!(blended.men[12][9], 6);
        assert_eq!(blended.men[1][9], -16, "-17.0 rounds to the nearest");
        assert_eq!(blended.kings[12][9], 0);
    }

    #[test]
    fn formation_indices_pack_two_ranks_a_byte() {
        // a1, c1 (rank 1) and b2, h2 (rank 2); a3 (rank 3).
        let men = 1 | 1 << 2 | 1 << 9 | 1 << 15 | 1 << 16;
        assert_eq!(formation_indices(men), [0b1001_0011, 0b0001_1001, 0b0001, 0, 0, 0, 0]);
        // h8 seen from Black's side is its a1; h8 itself is the last square of ranks 7-8.
        assert_eq!(formation_indices(turned(1 << 63)), [1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(formation_indices(1 << 63), [0, 0, 0, 0, 0, 0, 0b1000_0000]);
    }

    #[test]
    fn patterns_value_men_of_both_sides_from_each_owner() {
        // One valued state: on ranks 3-4 (pair 2), an own man on c3 (formation bit 1) with an
        // enemy man diagonally in front of it on d4 (bit 5). Full board 40, empty board 16.
        assert_eq!(pattern_index(0b10, 0b10_0000), 3 + 2 * 243);
        let mut bytes = vec![0u8; PATTERN_BYTES];
        let entry = 2 * PATTERN_STATES + pattern_index(0b10, 0b10_0000);
        bytes[entry * 4..entry * 4 + 4].copy_from_slice(&[40, 0, 16, 0]);
        let table: &'static [u8; PATTERN_BYTES] =
            Box::leak(bytes.into_boxed_slice().try_into().expect("the pattern size"));
        let base = Weights { patterns: None, ..Weights::ENGLISH };
        let with = Weights { patterns: Some(Box::leak(Box::new(Patterns::new(table)))), ..base };
        let gain = |fen: &str| {
            let p = Position::from_fen(Variant::English, fen).expect("valid FEN");
            evaluate_with(&p, &with) - evaluate_with(&p, &base)
        };
        // White's c3 is square 22, d4 is 18; Black's own c3 and d4 are White's f6 (11) and e5 (15).
        // 8 pieces: (40 * 8 + 16 * 16) / 24 = 24.
        assert_eq!(gain("W:W22,29,30,31:B18,1,2,3"), 24);
        assert_eq!(gain("B:W22,29,30,31:B18,1,2,3"), -24, "the mover's view");
        assert_eq!(gain("B:W15,30,31,32:B11,2,3,4"), 24, "Black's own c3 and d4");
        assert_eq!(gain("W:W22,29,30,31:B17,1,2,3"), 0, "another state");
    }
}
