//! Static evaluation: how good a quiet position is for the side to move, in hundredths of a
//! man.
//!
//! Each side is scored from its own point of view with the same terms: Black's masks are
//! White's turned half a turn (which keeps double corners where they belong). The terms:
//! material, back-rank defence, centre, structure (men backed from behind), development and
//! tempo (advancing men as the board empties), mobility, runaway men, trapped kings, for
//! Russian the long diagonals kings want. Both variants add fitted tables (`checkers-tune
//! fit-squares`, in `eval/english.rs` and `eval/russian.rs`): a value for each square a king
//! stands on, for each formation of a side's men on two neighbouring ranks and for each
//! pattern of both sides' men there (`eval/VARIANT-patterns.bin`), and terms for men crowded
//! on one half of the board and for pieces of the side to move that the opponent threatens to
//! take. Then endgame knowledge scales or replaces the sum: kings-only endings that are known
//! draws score near zero, and the side ahead is told to trade down and to close in.
//!
//! English positions with men on the board are scored instead by a small neural network
//! (`eval/net.rs`, trained by `checkers-fit-net` on the engine's own search scores); the terms
//! above still score English kings-only endings and every Russian position.

use std::fmt;

use checkers_rules::{Color, Position, Variant};

/// `Weights::ENGLISH`, fitted.
mod english;
mod net;
pub use net::network_inputs;
/// `Weights::RUSSIAN`, fitted.
mod russian;

pub(crate) const DARK: u64 = 0xAA55_AA55_AA55_AA55;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

const fn rank(r: u32) -> u64 {
    (0xFFu64 << (8 * r)) & DARK
}

/// Squares diagonally in front (towards rank 8) of a set.
#[inline(always)]
fn up(b: u64) -> u64 {
    ((b << 7) | (b << 9)) & DARK
}
#[inline(always)]
fn down(b: u64) -> u64 {
    ((b >> 7) | (b >> 9)) & DARK
}
#[inline(always)]
fn neighbours(b: u64) -> u64 {
    up(b) | down(b)
}

/// For each square, the squares a man there may still pass on its way to rank 8: the cone
/// widening one file a rank.
const CONE_UP: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut r2 = r + 1;
        while r2 < 8 {
            let mut f2 = 0;
            while f2 < 8 {
                let df = if f2 > f { f2 - f } else { f - f2 };
                if df <= r2 - r {
                    bits |= 1u64 << (r2 * 8 + f2);
                }
                f2 += 1;
            }
            r2 += 1;
        }
        t[sq] = bits & DARK;
        sq += 1;
    }
    t
};

/// Centre squares for men (d4, f4, c5, e5) and the wider centre for kings.
const CENTRE: u64 = (1 << 27) | (1 << 29) | (1 << 34) | (1 << 36);
const WIDE_CENTRE: u64 = (rank(2) | rank(3) | rank(4) | rank(5)) & !(FILE_A | FILE_H);
/// a1-h8, the main road of Russian draughts.
pub(crate) const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;
/// g1-a7 and h2-b8, the double road.
const DOUBLE_DIAGONAL: u64 = (1 << 6)
    | (1 << 13)
    | (1 << 20)
    | (1 << 27)
    | (1 << 34)
    | (1 << 41)
    | (1 << 48)
    | (1 << 15)
    | (1 << 22)
    | (1 << 29)
    | (1 << 36)
    | (1 << 43)
    | (1 << 50)
    | (1 << 57);
/// Files a to d.
const LEFT_HALF: u64 = 0x0F0F_0F0F_0F0F_0F0F;
/// c1 and g1: the English "bridge" that keeps the opponent from crowning.
const BRIDGE: u64 = (1 << 2) | (1 << 6);

/// The weights of one variant. Plain integers so the tuner can fit them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub man: i32,
    pub king: i32,
    /// Per man on its own back rank, scaled by how many pieces remain.
    pub back_rank: i32,
    /// Both bridge squares held (English).
    pub bridge: i32,
    pub centre_man: i32,
    pub centre_king: i32,
    /// Per rank of advance per man, scaled up as the board empties.
    pub advance: i32,
    /// Per man backed on both rear diagonals.
    pub support: i32,
    /// Per free square a piece could step to.
    pub mobility: i32,
    pub trapped_king: i32,
    /// Per rank of advance of a man no enemy man can stop (out of eight steps to a king).
    pub runaway: i32,
    /// Kings on the main road and on the double road (Russian).
    pub main_diagonal: i32,
    pub double_diagonal: i32,
    /// Per piece off the board, for the side ahead in material.
    pub trade: i32,
    /// Per man more on one half of the board (files a-d or e-h) than on the other.
    pub imbalance: i32,
    /// Per piece of the side to move that the opponent could take if it were its turn (the
    /// capture search settles only the mover's captures), and once more for two or more.
    pub threatened: i32,
    pub double_threat: i32,
    /// Values by square, fitted to self-play results (`checkers-tune fit-squares`); none for a
    /// variant without them, whose evaluation then skips the per-piece reads altogether.
    pub squares: Option<&'static BlendedSquares>,
    /// Values of the men's formations (`checkers-tune fit-squares`), none for a variant
    /// without them.
    pub formations: Option<&'static BlendedFormations>,
    /// Values of the men of both sides together on two neighbouring ranks
    /// (`checkers-tune fit-squares`), none for a variant without them.
    pub patterns: Option<&'static Patterns>,
}

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
    has_men: bool,
    men: [[i16; 64]; 25],
    kings: [[i16; 64]; 25],
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
    blended: [[[i16; 256]; FORMATION_PAIRS]; 25],
    /// Black's blended values, by pair of ranks and formation as White sees the board, so that
    /// one set of indices serves both sides.
    turned: [[[i16; 256]; FORMATION_PAIRS]; 25],
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
    both: [[i16; 4]; FORMATION_PAIRS * PATTERN_STATES],
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

impl Weights {
    /// The number of weights, for the tuner.
    pub const COUNT: usize = 17;
    /// Their names, in declaration order.
    pub const NAMES: [&'static str; Weights::COUNT] = [
        "man",
        "king",
        "back_rank",
        "bridge",
        "centre_man",
        "centre_king",
        "advance",
        "support",
        "mobility",
        "trapped_king",
        "runaway",
        "main_diagonal",
        "double_diagonal",
        "trade",
        "imbalance",
        "threatened",
        "double_threat",
    ];

    /// Every weight, in declaration order, for the tuner to adjust one at a time.
    pub fn values_mut(&mut self) -> [&mut i32; Weights::COUNT] {
        [
            &mut self.man,
            &mut self.king,
            &mut self.back_rank,
            &mut self.bridge,
            &mut self.centre_man,
            &mut self.centre_king,
            &mut self.advance,
            &mut self.support,
            &mut self.mobility,
            &mut self.trapped_king,
            &mut self.runaway,
            &mut self.main_diagonal,
            &mut self.double_diagonal,
            &mut self.trade,
            &mut self.imbalance,
            &mut self.threatened,
            &mut self.double_threat,
        ]
    }

    /// The square values the evaluation adds (all zero for a variant without them).
    pub fn square_values(&self) -> SquareValues {
        self.squares.map_or(SquareValues::ZERO, |s| s.values)
    }

    pub fn of(variant: Variant) -> &'static Weights {
        match variant {
            Variant::English => &Weights::ENGLISH,
            Variant::Russian => &Weights::RUSSIAN,
        }
    }
}

/// One side's pieces and the enemy's.
#[derive(Clone, Copy)]
struct Side {
    men: u64,
    kings: u64,
    enemy_men: u64,
    enemy_kings: u64,
}

/// The way a side's men move. Black's terms are White's on the board turned half a turn;
/// rather than turning the bitboards on every evaluation, Black's masks are the turned ones
/// (computed at compile time) and its shifts go the other way.
trait Heading {
    /// One step towards the crowning row on either diagonal (unmasked): towards file h and
    /// towards file a, as White sees the board.
    fn ahead_h(b: u64) -> u64;
    fn ahead_a(b: u64) -> u64;
    /// The steps back: `behind_h(ahead_h(b)) == b` for squares inside the board.
    fn behind_h(b: u64) -> u64;
    fn behind_a(b: u64) -> u64;
    const BACK_RANK: u64;
    /// File a and file h as White sees them.
    const FILE_A: u64;
    const FILE_H: u64;
    const BRIDGE: u64;
    /// The ranks (counted from this side's back rank) whose number has bit 0, 1 or 2 set.
    const RANK_BITS: [u64; 3];
    /// Ranks 5 to 7 from this side.
    const FAR_RANKS: u64;
    const CONE: [u64; 64];
    /// The rank of `sq` counted from this side's back rank, plus one.
    fn steps(sq: u32) -> i32;
    /// `sq` counted from this side.
    fn own_index(sq: u32) -> usize;
}

/// The half-turned square set.
const fn turned(b: u64) -> u64 {
    b.reverse_bits()
}

const RANK_BIT_0: u64 = rank(1) | rank(3) | rank(5);
const RANK_BIT_1: u64 = rank(2) | rank(3) | rank(6);
const RANK_BIT_2: u64 = rank(4) | rank(5) | rank(6);
const FAR_RANKS: u64 = rank(4) | rank(5) | rank(6);

struct Up;
struct Down;

impl Heading for Up {
    #[inline(always)]
    fn ahead_h(b: u64) -> u64 {
        b << 9
    }
    #[inline(always)]
    fn ahead_a(b: u64) -> u64 {
        b << 7
    }
    #[inline(always)]
    fn behind_h(b: u64) -> u64 {
        b >> 9
    }
    #[inline(always)]
    fn behind_a(b: u64) -> u64 {
        b >> 7
    }
    const BACK_RANK: u64 = rank(0);
    const FILE_A: u64 = FILE_A;
    const FILE_H: u64 = FILE_H;
    const BRIDGE: u64 = BRIDGE;
    const RANK_BITS: [u64; 3] = [RANK_BIT_0, RANK_BIT_1, RANK_BIT_2];
    const FAR_RANKS: u64 = FAR_RANKS;
    const CONE: [u64; 64] = CONE_UP;
    #[inline(always)]
    fn steps(sq: u32) -> i32 {
        sq as i32 / 8 + 1
    }
    #[inline(always)]
    fn own_index(sq: u32) -> usize {
        sq as usize
    }
}

impl Heading for Down {
    #[inline(always)]
    fn ahead_h(b: u64) -> u64 {
        b >> 9
    }
    #[inline(always)]
    fn ahead_a(b: u64) -> u64 {
        b >> 7
    }
    #[inline(always)]
    fn behind_h(b: u64) -> u64 {
        b << 9
    }
    #[inline(always)]
    fn behind_a(b: u64) -> u64 {
        b << 7
    }
    const BACK_RANK: u64 = turned(rank(0));
    const FILE_A: u64 = turned(FILE_A);
    const FILE_H: u64 = turned(FILE_H);
    const BRIDGE: u64 = turned(BRIDGE);
    const RANK_BITS: [u64; 3] = [turned(RANK_BIT_0), turned(RANK_BIT_1), turned(RANK_BIT_2)];
    const FAR_RANKS: u64 = turned(FAR_RANKS);
    const CONE: [u64; 64] = {
        let mut t = [0u64; 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = turned(CONE_UP[63 - sq]);
            sq += 1;
        }
        t
    };
    #[inline(always)]
    fn steps(sq: u32) -> i32 {
        8 - sq as i32 / 8
    }
    #[inline(always)]
    fn own_index(sq: u32) -> usize {
        63 - sq as usize
    }
}

/// The positional terms of one side (material excluded), `pieces` being the total on board.
#[inline(always)]
fn side_terms<H: Heading>(w: &Weights, s: Side, pieces: i32) -> i32 {
    let own = s.men | s.kings;
    let enemy = s.enemy_men | s.enemy_kings;
    let empty = DARK & !(own | enemy);
    let fullness = pieces; // 0..=24
    let emptiness = 24 - pieces;
    let mut score = 0;

    // Back rank and bridge matter while the opponent still has men to crown.
    if s.enemy_men != 0 {
        let back = (s.men & H::BACK_RANK).count_ones() as i32;
        score += w.back_rank * back * fullness / 24;
        if s.men & H::BRIDGE == H::BRIDGE {
            score += w.bridge * fullness / 24;
        }
    }
    score += w.centre_man * (s.men & CENTRE).count_ones() as i32;
    score += w.centre_king * (s.kings & WIDE_CENTRE).count_ones() as i32;

    // Development: men further up count more as the board empties. (The sum of the men's
    // ranks, counted one bit of the rank number at a time.)
    let [bit0, bit1, bit2] = H::RANK_BITS;
    let advance = (s.men & bit0).count_ones() as i32
        + 2 * (s.men & bit1).count_ones() as i32
        + 4 * (s.men & bit2).count_ones() as i32;
    score += w.advance * advance * emptiness / 24;

    // Men backed on both rear diagonals by own pieces or the edge cannot be jumped from in front.
    let back_left = s.men & (H::ahead_h(own) | H::FILE_A | H::BACK_RANK);
    let back_right = s.men & (H::ahead_a(own) | H::FILE_H | H::BACK_RANK);
    score += w.support * (back_left & back_right).count_ones() as i32;

    let man_steps = (H::ahead_a(s.men) & empty).count_ones() + (H::ahead_h(s.men) & empty).count_ones();
    let king_steps = (neighbours(s.kings) & empty).count_ones();
    score += w.mobility * (man_steps + king_steps) as i32;

    if w.imbalance != 0 {
        let left = (s.men & LEFT_HALF).count_ones() as i32;
        let right = (s.men & !LEFT_HALF).count_ones() as i32;
        score -= w.imbalance * (left - right).abs();
    }

    // Kings with no free square around them.
    if s.kings != 0 {
        score -= w.trapped_king * (s.kings & !neighbours(empty)).count_ones() as i32;
        score += w.main_diagonal * (s.kings & MAIN_DIAGONAL).count_ones() as i32;
        score += w.double_diagonal * (s.kings & DOUBLE_DIAGONAL).count_ones() as i32;
    }

    // Square values, one per piece (blended for the number of pieces on the board).
    if let Some(squares) = w.squares {
        let pieces = pieces as usize;
        let (men_values, king_values) = (&squares.men[pieces], &squares.kings[pieces]);
        let mut men = if squares.has_men { s.men } else { 0 };
        while men != 0 {
            score += i32::from(men_values[H::own_index(men.trailing_zeros())]);
            men &= men - 1;
        }
        let mut kings = s.kings;
        while kings != 0 {
            score += i32::from(king_values[H::own_index(kings.trailing_zeros())]);
            kings &= kings - 1;
        }
    }

    // Runaways: men in the enemy half with no enemy man in their cone.
    let mut far = s.men & H::FAR_RANKS;
    while far != 0 {
        let sq = far.trailing_zeros();
        far &= far - 1;
        if H::CONE[sq as usize] & s.enemy_men == 0 {
            let bonus = w.runaway * H::steps(sq); // 5..=7 steps
            score += if s.enemy_kings == 0 { bonus } else { bonus / 2 };
        }
    }
    score
}

/// The evaluation of a position for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    // Positions with men go to the variant's network; kings alone to the tables, which know
    // the drawn and won kings-only endings.
    let pieces = position.pieces(Color::White).bits() | position.pieces(Color::Black).bits();
    let has_men = pieces & !position.kings().bits() != 0;
    if has_men {
        net::net(position.variant()).evaluate(position)
    } else {
        evaluate_tables(position)
    }
}

/// The evaluation of a position for the side to move by the fitted tables alone, without the
/// networks (kings-only positions, and the Russian levels below 9).
pub fn evaluate_tables(position: &Position) -> i32 {
    // One copy per variant with its weights as constants: zero terms vanish and the
    // multiplications simplify (a fifth fewer instructions than reading the weights).
    match position.variant() {
        Variant::English => evaluate_with(position, &Weights::ENGLISH),
        Variant::Russian => evaluate_with(position, &Weights::RUSSIAN),
    }
}

/// The evaluation under given weights (the tuner's door).
#[inline(always)]
pub fn evaluate_with(position: &Position, w: &Weights) -> i32 {
    let white = position.pieces(Color::White).bits();
    let black = position.pieces(Color::Black).bits();
    let kings = position.kings().bits();
    let white_side = Side {
        men: white & !kings,
        kings: white & kings,
        enemy_men: black & !kings,
        enemy_kings: black & kings,
    };
    let black_side = Side {
        men: white_side.enemy_men,
        kings: white_side.enemy_kings,
        enemy_men: white_side.men,
        enemy_kings: white_side.kings,
    };

    let wm = white_side.men.count_ones() as i32;
    let wk = white_side.kings.count_ones() as i32;
    let bm = white_side.enemy_men.count_ones() as i32;
    let bk = white_side.enemy_kings.count_ones() as i32;
    let pieces = wm + wk + bm + bk;

    let material = w.man * (wm - bm) + w.king * (wk - bk);
    let mut score = material + side_terms::<Up>(w, white_side, pieces)
        - side_terms::<Down>(w, black_side, pieces)
        + formations_and_patterns(w, white_side.men, white_side.enemy_men, pieces);

    // The side ahead wants fewer pieces on the board.
    if material != 0 {
        score += material.signum() * w.trade * (24 - pieces);
    }
    if wm + bm == 0 {
        score = kings_only(position.variant(), score, white_side, wk, bk);
    }
    let (score, mover, opponent) = if position.turn() == Color::White {
        (score, white_side, black_side)
    } else {
        (-score, black_side, white_side)
    };
    if w.threatened == 0 && w.double_threat == 0 {
        return score;
    }
    let threatened = if position.turn() == Color::White {
        capturable::<Down>(position.variant(), opponent, mover.men | mover.kings)
    } else {
        capturable::<Up>(position.variant(), opponent, mover.men | mover.kings)
    };
    let n = threatened.count_ones() as i32;
    score - w.threatened * n - if n >= 2 { w.double_threat } else { 0 }
}

/// White's formation and pattern values less Black's. Both sides' men are indexed once, in
/// White's order: Black's values for the same squares sit beside White's in the tables. Each
/// side's pattern sum is blended and rounded on its own, as its other terms are.
#[inline(always)]
fn formations_and_patterns(w: &Weights, white_men: u64, black_men: u64, pieces: i32) -> i32 {
    if w.formations.is_none() && w.patterns.is_none() {
        return 0;
    }
    let white = formation_indices(white_men);
    let black = formation_indices(black_men);
    let mut score = 0;
    if let Some(formations) = w.formations {
        let (whites, blacks) = (&formations.blended[pieces as usize], &formations.turned[pieces as usize]);
        for pair in 0..FORMATION_PAIRS {
            score += i32::from(whites[pair][white[pair]]) - i32::from(blacks[pair][black[pair]]);
        }
    }
    if let Some(patterns) = w.patterns {
        let mut sums = [0i32; 4];
        for pair in 0..FORMATION_PAIRS {
            let values = &patterns.both[pair * PATTERN_STATES + pattern_index(white[pair], black[pair])];
            for (sum, &v) in sums.iter_mut().zip(values) {
                *sum += i32::from(v);
            }
        }
        let (fullness, emptiness) = (pieces, 24 - pieces);
        score +=
            (sums[0] * fullness + sums[1] * emptiness) / 24 - (sums[2] * fullness + sums[3] * emptiness) / 24;
    }
    score
}

/// The pieces among `victims` that side `s` (heading `H`) could jump at once if it were its
/// turn. Kings are counted as jumping from next to their victim, which a flying king may also
/// do from afar: a cheap under-estimate for Russian.
#[inline(always)]
fn capturable<H: Heading>(variant: Variant, s: Side, victims: u64) -> u64 {
    let empty = DARK & !(s.men | s.kings | s.enemy_men | s.enemy_kings);
    let backward_men = if variant == Variant::Russian { s.men } else { 0 };
    let forward = s.men | s.kings;
    let backward = backward_men | s.kings;
    // A victim next to an attacker, with the square beyond it empty.
    (victims & H::ahead_h(forward) & H::behind_h(empty))
        | (victims & H::ahead_a(forward) & H::behind_a(empty))
        | (victims & H::behind_h(backward) & H::ahead_h(empty))
        | (victims & H::behind_a(backward) & H::ahead_a(empty))
}

/// Known facts about endings with kings alone (`score` from White's side).
fn kings_only(variant: Variant, score: i32, white: Side, wk: i32, bk: i32) -> i32 {
    if wk == 0 || bk == 0 {
        return score;
    }
    let (strong, weak, sign) = if wk >= bk { (wk, bk, 1) } else { (bk, wk, -1) };
    let (strong_kings, weak_kings) =
        if sign == 1 { (white.kings, white.enemy_kings) } else { (white.enemy_kings, white.kings) };
    match variant {
        Variant::Russian => {
            if weak == 1 {
                if strong <= 2 {
                    return score / 16;
                }
                // Three kings against one on the main road cannot force it off (unless they
                // hold the road themselves): a draw by the 15-move rule.
                if strong == 3 && weak_kings & MAIN_DIAGONAL != 0 && strong_kings & MAIN_DIAGONAL == 0 {
                    return score / 16;
                }
                return score + sign * (200 - 10 * distance_sum(strong_kings, weak_kings));
            }
            if strong - weak <= 1 {
                return score / 8;
            }
            score
        }
        Variant::English => {
            if strong == weak {
                return score / 8;
            }
            // Ahead: close in on the enemy kings and keep them out of the double corners.
            let double_corners: u64 = (1 << 0) | (1 << 9) | (1 << 54) | (1 << 63);
            let cornered = (weak_kings & double_corners).count_ones() as i32;
            score + sign * (60 - 4 * distance_sum(strong_kings, weak_kings) - 10 * cornered)
        }
    }
}

/// Sum over pairs of king-move distance between the two sets (small sets only).
fn distance_sum(a: u64, b: u64) -> i32 {
    let mut total = 0;
    let mut x = a;
    while x != 0 {
        let i = x.trailing_zeros() as i32;
        x &= x - 1;
        let mut y = b;
        while y != 0 {
            let j = y.trailing_zeros() as i32;
            y &= y - 1;
            total += ((i % 8) - (j % 8)).abs().max(((i / 8) - (j / 8)).abs());
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_names_follow_the_declaration_order() {
        let mut w = Weights::ENGLISH;
        for (i, value) in w.values_mut().into_iter().enumerate() {
            *value = 1000 + i as i32;
        }
        let text = format!("{w:?}");
        for (i, name) in Weights::NAMES.iter().enumerate() {
            assert!(text.contains(&format!(" {name}: {},", 1000 + i)), "{name} in {text}");
        }
    }

    #[test]
    fn threats_against_the_side_to_move_count_once_per_piece() {
        // Black to move, no capture of its own; White threatens 22x15 (and 24x15).
        let threat = |fen: &str| {
            let p = Position::from_fen(Variant::English, fen).expect("valid FEN");
            let base = Weights { threatened: 0, double_threat: 0, ..Weights::ENGLISH };
            let with = Weights { threatened: 10, double_threat: 100, ..base };
            evaluate_with(&p, &base) - evaluate_with(&p, &with)
        };
        assert_eq!(threat("B:W22,25:B18"), 10);
        assert_eq!(threat("B:W22,24,25,28:B18,19"), 2 * 10 + 100);
        assert_eq!(threat("B:W22,25:B18,15"), 0, "the landing square is taken");
        assert_eq!(threat("W:W22,25:B18"), 0, "White to move: its own capture is not a threat");
    }

    /// The evaluation is the side to move's: the board turned half a turn with the colours
    /// swapped scores the same. Black's terms read White's tables and masks the other way
    /// round, so this checks every one of them against White's.
    #[test]
    fn colours_reversed_score_the_same() {
        use checkers_rules::{Setup, Square};
        let turn_round = |p: &Position| {
            let turned = |color: Color, kings: bool| -> Vec<Square> {
                let role = if kings { p.kings() } else { p.pieces(color).difference(p.kings()) };
                p.pieces(color)
                    .intersection(role)
                    .squares()
                    .into_iter()
                    .map(|sq| Square::from_coords(7 - sq.file(), 7 - sq.rank()).expect("a dark square"))
                    .collect()
            };
            let setup = Setup {
                white_men: turned(Color::Black, false),
                white_kings: turned(Color::Black, true),
                black_men: turned(Color::White, false),
                black_kings: turned(Color::White, true),
                turn: Some(p.turn().opponent()),
            };
            Position::from_setup(p.variant(), &setup).expect("the turned position is valid")
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for game in 0..400 {
            let mut p = Position::start(Variant::ALL[game % 2]);
            for _ in 0..next() % 90 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.play_unchecked(&moves[(next() % moves.len() as u64) as usize]);
                assert_eq!(evaluate(&p), evaluate(&turn_round(&p)), "{}", p.to_fen());
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }

    #[test]
    fn start_positions_are_level() {
        for v in Variant::ALL {
            let p = Position::start(v);
            let other = p.with_turn(p.turn().opponent());
            // The networks know whose move it is (the tempo), so the two differ a little.
            assert!(evaluate(&p).abs() <= 10 && evaluate(&other).abs() <= 10, "{v}: {}", evaluate(&p));
            // The tables alone see a symmetric start as level.
            let weights = Weights::of(v);
            assert_eq!(evaluate_with(&p, weights), -evaluate_with(&other, weights));
            assert_eq!(evaluate_with(&p, weights), 0, "the start is symmetric");
        }
    }

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
    fn english_tables_count_for_the_owner_of_the_piece() {
        // The same men and kings on the same squares, seen from each side's own back rank,
        // score the same for either colour; the tables are not all zero.
        let w = &Weights::ENGLISH;
        assert!(w.square_values().kings_full.iter().any(|&v| v != 0));
        assert!(w.formations.is_some_and(|f| f.values.full.iter().flatten().any(|&v| v != 0)));
        let white = Position::from_fen(Variant::English, "W:W14,22,25,29,K1:BK32").unwrap();
        let black = Position::from_fen(Variant::English, "B:WK1:B4,8,11,19,K32").unwrap();
        assert_eq!(evaluate(&white), evaluate(&black));
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

    #[test]
    fn material_counts_and_known_draws_score_near_zero() {
        let up = Position::from_fen(Variant::English, "W:W18,22,23:B11,12").unwrap();
        assert!(evaluate(&up) > 80, "a man up");
        let kk = Position::from_fen(Variant::Russian, "W:WK22:BK4").unwrap();
        assert!(evaluate(&kk).abs() < 20);
        // Three kings against one on the main road: drawn.
        let road = Position::from_fen(Variant::Russian, "W:WK1,K2,K3:BK29").unwrap();
        assert!(evaluate(&road).abs() < 60, "{}", evaluate(&road));
        let off_road = Position::from_fen(Variant::Russian, "W:WK1,K2,K3:BK30").unwrap();
        assert!(evaluate(&off_road) > 400, "{}", evaluate(&off_road));
    }
}
