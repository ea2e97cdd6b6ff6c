//! The evaluation of the variants played on the rules library's boards of any size
//! (International and its family, the national 8x8 games, Turkish): one set of terms for
//! every board, each variant with weights of its own ([`BoardWeights`], hand-set, then fitted
//! by `checkers-tune fit-board`).
//!
//! Every term is a count of pieces (White's less Black's) times a weight, so the evaluation
//! is linear in its weights and the tuner fits them all at once; the terms are gathered by
//! one function ([`gather`]) for the search (summed under the weights) and for the tuner
//! (kept as features). The terms:
//! - material: men and kings;
//! - men by row, counted from their own back row, at both ends of the game (the two blended
//!   by how many pieces are left): how far men should advance, and how the back row is kept;
//! - men by file, counted from the nearer edge: the centre against the edges;
//! - the difference between a side's men on its left and right halves (a lopsided side is
//!   easier to break through);
//! - kings on the long diagonal (flying kings rule the board from there);
//! - the side ahead in material trading down.
//!
//! Then kings-only endings of the flying-king variants that the rules make draws (a lone king
//! against up to three pieces) are scored near zero.

use checkers_rules::board::{Bits, Board, EachBit, Geometry, RuleSet};
use checkers_rules::Color;

/// Rows and files the tables hold: enough for the 12x12 board.
pub const MAX_SIDE: usize = 12;

/// Where each weight sits in a [`BoardWeights`]' list.
pub mod term {
    use super::MAX_SIDE;
    pub const MAN: usize = 0;
    pub const KING: usize = 1;
    /// Men on row `r` (0 = their own back row) on a full board.
    pub const ROW_FULL: usize = 2;
    /// Men on row `r` on an empty board.
    pub const ROW_EMPTY: usize = ROW_FULL + MAX_SIDE;
    /// Men on file `f` counted from the nearer edge (0 = an edge file).
    pub const FILE: usize = ROW_EMPTY + MAX_SIDE;
    /// Men more on one half of the board than on the other.
    pub const LOPSIDED: usize = FILE + MAX_SIDE / 2;
    pub const KING_DIAGONAL: usize = LOPSIDED + 1;
    /// Per piece off the board, for the side ahead in material.
    pub const TRADE: usize = KING_DIAGONAL + 1;
    /// How many weights there are.
    pub const COUNT: usize = TRADE + 1;
}

/// A variant's evaluation weights, in hundredths of a man, by [`term`] index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardWeights {
    pub values: [i32; term::COUNT],
    /// Whether kings-only endings of a lone king against up to three pieces are scored as
    /// the draws they mostly are (flying kings).
    pub drawish_king_endings: bool,
}

impl BoardWeights {
    /// Hand-set weights from a few numbers: a man, a king, the bonus for each row of advance
    /// (on a full and on an empty board), for each file nearer the centre and for a king on
    /// the long diagonal; then the tuner refines every entry.
    pub const fn hand_set(
        man: i32,
        king: i32,
        advance_full: i32,
        advance_empty: i32,
        centre: i32,
        king_diagonal: i32,
        drawish_king_endings: bool,
    ) -> BoardWeights {
        let mut values = [0; term::COUNT];
        values[term::MAN] = man;
        values[term::KING] = king;
        let mut r = 0;
        while r < MAX_SIDE {
            values[term::ROW_FULL + r] = advance_full * r as i32;
            values[term::ROW_EMPTY + r] = advance_empty * r as i32;
            r += 1;
        }
        let mut f = 0;
        while f < MAX_SIDE / 2 {
            values[term::FILE + f] = centre * f as i32;
            f += 1;
        }
        values[term::LOPSIDED] = -(man / 25);
        values[term::KING_DIAGONAL] = king_diagonal;
        values[term::TRADE] = man / 20;
        BoardWeights { values, drawish_king_endings }
    }

    /// The same weights with term `index` set to `value`.
    pub const fn with(mut self, index: usize, value: i32) -> BoardWeights {
        self.values[index] = value;
        self
    }
}

/// What each square of a board is to the evaluation, by layout index.
#[derive(Clone, Debug)]
pub struct SquareTable {
    /// Row counted from White's back row, and from Black's.
    white_row: [u8; 128],
    black_row: [u8; 128],
    /// File counted from the nearer edge.
    file_from_edge: [u8; 128],
    /// Squares on the left half (files below the middle), as layout bits.
    left_half: (u64, u64),
    /// Squares on the long diagonal(s) of playable squares.
    long_diagonal: (u64, u64),
}

impl SquareTable {
    /// The table of `V`'s board.
    pub fn new<V: RuleSet>() -> SquareTable {
        let side = <V::Geometry as Geometry>::SIDE;
        let mut table = SquareTable {
            white_row: [0; 128],
            black_row: [0; 128],
            file_from_edge: [0; 128],
            left_half: (0, 0),
            long_diagonal: (0, 0),
        };
        let set = |halves: &mut (u64, u64), index: u32| {
            if index < 64 {
                halves.0 |= 1 << index;
            } else {
                halves.1 |= 1 << (index - 64);
            }
        };
        let coords: Vec<(u32, u32, u32)> = (1..=<V::Geometry as Geometry>::SQUARES)
            .filter_map(|n| {
                let index = <V::Geometry as Geometry>::index_of(n)?;
                let (file, rank) = <V::Geometry as Geometry>::coords(n);
                Some((index, file, rank))
            })
            .collect();
        // The long diagonal from the dark corner: file == rank on boards whose a1 is
        // playable, file + rank == side - 1 on the mirrored ones (both on a full board).
        let rising = coords.iter().any(|&(_, f, r)| f == 0 && r == 0);
        let falling = coords.iter().any(|&(_, f, r)| f == side - 1 && r == 0);
        for &(index, file, rank) in &coords {
            let i = index as usize;
            table.white_row[i] = rank as u8;
            table.black_row[i] = (side - 1 - rank) as u8;
            table.file_from_edge[i] = file.min(side - 1 - file) as u8;
            if file < side / 2 {
                set(&mut table.left_half, index);
            }
            if (rising && file == rank) || (falling && file + rank == side - 1) {
                set(&mut table.long_diagonal, index);
            }
        }
        table
    }
}

impl SquareTable {
    /// The row of layout index `index` counted from `color`'s back row.
    #[inline(always)]
    pub fn row_of(&self, color: Color, index: u32) -> u8 {
        match color {
            Color::White => self.white_row[index as usize & 127],
            Color::Black => self.black_row[index as usize & 127],
        }
    }
}

/// Where [`gather`] puts the terms: a sum under weights, or the tuner's features.
pub trait Terms {
    /// Adds `count` of term `index` (already White's less Black's, times the denominator
    /// [`gather`] names).
    fn add(&mut self, index: usize, count: i32);
}

/// The terms summed under weights.
pub struct WeightedSum<'a> {
    pub weights: &'a [i32; term::COUNT],
    pub total: i32,
}

impl Terms for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.total += self.weights[index] * count;
    }
}

/// The halves of a word, for masks kept as `(low, high)`.
#[inline(always)]
fn count_in<B: Bits>(bits: B, mask: (u64, u64)) -> i32 {
    let (low, high) = bits.halves();
    ((low & mask.0).count_ones() + (high & mask.1).count_ones()) as i32
}

/// Gathers `board`'s terms for White into `terms`, every count multiplied by the board's
/// `full` (both sides' pieces at the start) so that the blend of the row terms stays whole:
/// the evaluation for White is the weighted sum divided by `full`. Returns the pieces left.
#[inline(always)]
pub fn gather<V: RuleSet>(board: &Board<V>, table: &SquareTable, terms: &mut impl Terms) -> i32 {
    let full = 2 * Board::<V>::MAX_PIECES as i32;
    let (white_men, black_men) = (board.men_bits(Color::White), board.men_bits(Color::Black));
    let (white_kings, black_kings) = (board.kings_bits(Color::White), board.kings_bits(Color::Black));
    let (wm, bm) = (white_men.count() as i32, black_men.count() as i32);
    let (wk, bk) = (white_kings.count() as i32, black_kings.count() as i32);
    let pieces = wm + bm + wk + bk;
    terms.add(term::MAN, (wm - bm) * full);
    terms.add(term::KING, (wk - bk) * full);

    let mut rows = [0i32; MAX_SIDE];
    let mut files = [0i32; MAX_SIDE / 2];
    for bit in EachBit(white_men) {
        let i = bit.lowest_index() as usize;
        rows[usize::from(table.white_row[i])] += 1;
        files[usize::from(table.file_from_edge[i])] += 1;
    }
    for bit in EachBit(black_men) {
        let i = bit.lowest_index() as usize;
        rows[usize::from(table.black_row[i])] -= 1;
        files[usize::from(table.file_from_edge[i])] -= 1;
    }
    let side = <V::Geometry as Geometry>::SIDE as usize;
    for (r, &count) in rows.iter().enumerate().take(side) {
        if count != 0 {
            terms.add(term::ROW_FULL + r, count * pieces);
            terms.add(term::ROW_EMPTY + r, count * (full - pieces));
        }
    }
    for (f, &count) in files.iter().enumerate().take(side / 2) {
        if count != 0 {
            terms.add(term::FILE + f, count * full);
        }
    }
    let lopsided = |men: <V::Geometry as Geometry>::Bits, count: i32| {
        let left = count_in(men, table.left_half);
        (2 * left - count).abs()
    };
    terms.add(term::LOPSIDED, (lopsided(white_men, wm) - lopsided(black_men, bm)) * full);
    let diagonal = count_in(white_kings, table.long_diagonal) - count_in(black_kings, table.long_diagonal);
    if diagonal != 0 {
        terms.add(term::KING_DIAGONAL, diagonal * full);
    }
    let material = (wm - bm) + 3 * (wk - bk);
    if material != 0 {
        terms.add(term::TRADE, material.signum() * (full - pieces) * full / 8);
    }
    pieces
}

/// The evaluation of `board` for the side to move under `weights`, in hundredths of a man.
#[inline(always)]
pub fn evaluate_board<V: RuleSet>(board: &Board<V>, table: &SquareTable, weights: &BoardWeights) -> i32 {
    let mut sum = WeightedSum { weights: &weights.values, total: 0 };
    gather(board, table, &mut sum);
    let full = 2 * Board::<V>::MAX_PIECES as i32;
    let mut score = sum.total / full;
    if weights.drawish_king_endings {
        score = king_endings(board, score);
    }
    match board.turn() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Kings-only endings with flying kings: a lone king against one to three pieces is a draw
/// by the rules (the 5- and 16-move rules) or by force, unless the three catch it; scored
/// near zero so the stronger side looks for more, the weaker side for these.
fn king_endings<V: RuleSet>(board: &Board<V>, score: i32) -> i32 {
    let men = board.men_bits(Color::White) | board.men_bits(Color::Black);
    if !men.is_zero() {
        return score;
    }
    let (white, black) = (board.piece_count(Color::White), board.piece_count(Color::Black));
    let (weak, strong) = (white.min(black), white.max(black));
    match (weak, strong) {
        (1, 1..=2) => score / 16,
        (1, 3) => score / 4,
        _ => score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::board::{Brazilian, Canadian, International, Italian, Turkish};

    fn symmetric_start_is_level<V: RuleSet>() {
        let table = SquareTable::new::<V>();
        let weights = BoardWeights::hand_set(100, 300, 3, 8, 4, 10, true);
        let start = Board::<V>::start();
        assert_eq!(evaluate_board(&start, &table, &weights), 0, "{}", V::NAME);
        assert_eq!(evaluate_board(&start.with_turn(Color::Black), &table, &weights), 0, "{}", V::NAME);
    }

    #[test]
    fn start_positions_are_level() {
        symmetric_start_is_level::<International>();
        symmetric_start_is_level::<Brazilian>();
        symmetric_start_is_level::<Canadian>();
        symmetric_start_is_level::<Italian>();
        symmetric_start_is_level::<Turkish>();
    }

    #[test]
    fn material_and_advance_count_for_their_owner() {
        let table = SquareTable::new::<International>();
        let weights = BoardWeights::hand_set(100, 300, 3, 8, 4, 10, true);
        let eval =
            |fen: &str| evaluate_board(&Board::<International>::from_fen(fen).unwrap(), &table, &weights);
        // A man up, all on their back rows, is about a man, for the side to move.
        let up = eval("W:W47,48,49:B2,3");
        assert!((80..=140).contains(&up), "{up}");
        assert_eq!(eval("B:W47,48,49:B2,3"), -up);
        // A White man further up the board is worth more to White.
        assert!(eval("W:W6,46:B45") > eval("W:W41,46:B45"));
        // The long diagonal (46-5) for a king.
        assert!(eval("W:WK28:B1,2") > eval("W:WK27:B1,2"));
        // A lone king against two kings is a draw: scored near zero.
        assert!(eval("W:WK1,K2:BK50").abs() <= 40, "{}", eval("W:WK1,K2:BK50"));
    }

    #[test]
    fn the_long_diagonal_is_the_playable_one() {
        let table = SquareTable::new::<International>();
        let on = |n: u32| {
            let i = <<International as RuleSet>::Geometry as Geometry>::index_of(n).unwrap();
            count_in(1u64 << i, table.long_diagonal) == 1
        };
        assert!(on(46) && on(5) && on(28) && on(23) && !on(1) && !on(50));
        let italian = SquareTable::new::<Italian>();
        assert_eq!(italian.long_diagonal.0.count_ones(), 8);
    }
}
