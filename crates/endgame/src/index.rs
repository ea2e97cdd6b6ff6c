//! Numbering the positions of a slice: each group of like pieces (white men, white kings,
//! black men, black kings) is a set of squares, numbered by its combinatorial rank among
//! the sets of that size; a position's number mixes the four. Squares used twice and men on
//! their crowning row get numbers too; they are marked invalid when solving.

use std::sync::OnceLock;

use checkers_rules::SquareSet;

/// Piece counts: `[white men, white kings, black men, black kings]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Material([u32; 4]);

impl Material {
    pub(crate) fn of(sets: &[SquareSet; 4]) -> Material {
        Material(sets.map(|s| s.len()))
    }

    pub(crate) fn total(self) -> u32 {
        self.0.iter().sum()
    }

    pub(crate) fn both_sides_on_board(self) -> bool {
        self.0[0] + self.0[1] > 0 && self.0[2] + self.0[3] > 0
    }

    /// The same counts with the colours swapped.
    pub(crate) fn mirrored(self) -> Material {
        let [wm, wk, bm, bk] = self.0;
        Material([bm, bk, wm, wk])
    }

    /// Whether this side of a colour-swapped pair is the one stored: the one where White has
    /// the more men, or as many men and at least as many kings.
    pub(crate) fn is_canonical(self) -> bool {
        (self.0[0], self.0[1]) >= (self.0[2], self.0[3])
    }

    /// A dense number for a database of up to `max` pieces.
    pub(crate) fn key(self, max: u32) -> usize {
        self.0.iter().fold(0, |key, &n| key * (max as usize + 1) + n as usize)
    }

    pub(crate) fn key_count(max: u32) -> usize {
        (max as usize + 1).pow(4)
    }

    /// Every stored slice of 2 to `max` pieces with both sides on the board, in an order
    /// where each comes after those its moves lead to: fewer pieces first (captures), then
    /// fewer men (crowning). A slice's colour-swapped twin is not stored.
    pub(crate) fn solving_order(max: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for wm in 0..=max {
            for wk in 0..=max - wm {
                for bm in 0..=max - wm - wk {
                    for bk in 0..=max - wm - wk - bm {
                        let m = Material([wm, wk, bm, bk]);
                        if m.total() >= 2 && m.both_sides_on_board() && m.is_canonical() {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.total(), m.0[0] + m.0[2]));
        all
    }
}

/// Binomial coefficients C(n, k) for n ≤ 32, k ≤ 5.
const BINOMIAL: [[usize; 6]; 33] = {
    let mut t = [[0usize; 6]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The bit (`rank * 8 + file`) of each of the 32 dark squares, in bit order.
const BIT_OF: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut c = 0;
    while c < 32 {
        let rank = c / 4;
        t[c as usize] = rank * 8 + 2 * (c % 4) + (rank & 1);
        c += 1;
    }
    t
};

/// The position of a dark square's bit among the 32 dark squares.
fn dark_number(bit: u32) -> usize {
    (bit / 8 * 4 + bit % 8 / 2) as usize
}

/// The numbering of one slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SliceIndex {
    counts: [u32; 4],
    sizes: [usize; 4],
}

impl SliceIndex {
    pub(crate) fn new(material: Material) -> SliceIndex {
        let counts = material.0;
        SliceIndex { counts, sizes: counts.map(|k| BINOMIAL[32][k as usize]) }
    }

    pub(crate) fn material(&self) -> Material {
        Material(self.counts)
    }

    pub(crate) fn size(&self) -> usize {
        self.sizes.iter().product()
    }

    pub(crate) fn index(&self, sets: &[SquareSet; 4]) -> usize {
        let mut index = 0;
        for (g, set) in sets.iter().enumerate() {
            let mut rank = 0;
            let mut b = set.bits();
            let mut j = 1;
            while b != 0 {
                rank += BINOMIAL[dark_number(b.trailing_zeros())][j];
                b &= b - 1;
                j += 1;
            }
            index = index * self.sizes[g] + rank;
        }
        index
    }

    pub(crate) fn sets(&self, mut index: usize) -> [SquareSet; 4] {
        let mut ranks = [0usize; 4];
        for g in (0..4).rev() {
            ranks[g] = index % self.sizes[g];
            index /= self.sizes[g];
        }
        let table = combinations();
        [0, 1, 2, 3].map(|g| SquareSet::from_bits(table[self.counts[g] as usize][ranks[g]]))
    }
}

/// For each size k ≤ 5, every set of k dark squares as a bitboard, by rank: decoding a
/// position's number is then a lookup per group (solving decodes every position at least
/// once, so this is most of the work otherwise). About 2 MB, made once.
fn combinations() -> &'static [Vec<u64>; 6] {
    static TABLE: OnceLock<[Vec<u64>; 6]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            let mut sets = vec![0u64; BINOMIAL[32][k]];
            // Sets in colex order are ranked 0, 1, 2, ...: the next set moves the lowest
            // square that can move up one, and packs the squares below it at the bottom.
            let mut squares: Vec<usize> = (0..k).collect();
            for slot in sets.iter_mut() {
                *slot = squares.iter().fold(0, |bits, &c| bits | 1u64 << BIT_OF[c]);
                if let Some(j) =
                    (0..k).find(|&j| squares[j] + 1 < if j + 1 < k { squares[j + 1] } else { 32 })
                {
                    squares[j] += 1;
                    for (low, square) in squares[..j].iter_mut().enumerate() {
                        *square = low;
                    }
                }
            }
            sets
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sets_agree() {
        let index = SliceIndex::new(Material([2, 1, 0, 2]));
        assert_eq!(index.size(), 496 * 32 * 496);
        for counts in [[2, 1, 0, 2], [0, 5, 0, 0], [3, 0, 1, 1]] {
            let index = SliceIndex::new(Material(counts));
            for i in (0..index.size()).step_by(997) {
                let sets = index.sets(i);
                assert_eq!(Material::of(&sets), Material(counts));
                assert_eq!(index.index(&sets), i);
            }
        }
    }

    #[test]
    fn moves_lead_to_slices_solved_before() {
        let order = Material::solving_order(4);
        let canonical = |m: Material| if m.is_canonical() { m } else { m.mirrored() };
        let at = |m: Material| order.iter().position(|&o| o == canonical(m)).unwrap();
        // A white man crowning, a black king captured.
        assert!(at(Material([0, 2, 1, 0])) < at(Material([1, 1, 1, 0])));
        assert!(at(Material([1, 1, 1, 0])) < at(Material([1, 1, 1, 1])));
        // Only one of each colour-swapped pair is stored.
        assert!(order.contains(&Material([1, 0, 0, 1])) && !order.contains(&Material([0, 1, 1, 0])));
        assert!(order.iter().all(|m| m.is_canonical()));
        assert_eq!(
            order.len(),
            order.iter().map(|m| m.key(4)).collect::<std::collections::HashSet<_>>().len()
        );
    }
}
