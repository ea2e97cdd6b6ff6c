//! The evaluation's terms for one side: the board masks they read and the positional terms
//! (back rank, centre, development, support, mobility, balance, trapped kings, diagonals,
//! square values, runaways), and the pieces the opponent threatens to take.

use checkers_rules::Variant;

use super::Weights;

const DARK: u64 = 0xAA55_AA55_AA55_AA55;
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
pub(super) const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;
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

/// One side's pieces and the enemy's.
#[derive(Clone, Copy)]
pub(super) struct Side {
    pub men: u64,
    pub kings: u64,
    pub enemy_men: u64,
    pub enemy_kings: u64,
}

/// The way a side's men move. Black's terms are White's on the board turned half a turn;
/// rather than turning the bitboards on every evaluation, Black's masks are the turned ones
/// (computed at compile time) and its shifts go the other way.
pub(super) trait Heading {
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
pub(super) const fn turned(b: u64) -> u64 {
    b.reverse_bits()
}

const RANK_BIT_0: u64 = rank(1) | rank(3) | rank(5);
const RANK_BIT_1: u64 = rank(2) | rank(3) | rank(6);
const RANK_BIT_2: u64 = rank(4) | rank(5) | rank(6);
const FAR_RANKS: u64 = rank(4) | rank(5) | rank(6);

pub(super) struct Up;
pub(super) struct Down;

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
pub(super) fn side_terms<H: Heading>(w: &Weights, s: Side, pieces: i32) -> i32 {
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

/// The pieces among `victims` that side `s` (heading `H`) could jump at once if it were its
/// turn. Kings are counted as jumping from next to their victim, which a flying king may also
/// do from afar: a cheap under-estimate for Russian.
#[inline(always)]
pub(super) fn capturable<H: Heading>(variant: Variant, s: Side, victims: u64) -> u64 {
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
