//! Perft: the number of move sequences of a given length, the standard test of a move
//! generator. Bulk counting at the last ply; an optional hash table for deep runs.

use crate::moves::MoveList;
use crate::position::Position;

/// What perft counts as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PerftMode {
    /// Moves as RULES.md defines them (start, end, captured set, crowning).
    #[default]
    Moves,
    /// Every distinct jump route (OEIS A133046 for English).
    Paths,
}

/// Reusable move lists, one per ply, so perft allocates nothing while it runs.
pub struct Perft {
    lists: Vec<MoveList>,
    mode: PerftMode,
    table: Option<PerftTable>,
}

impl Perft {
    pub fn new(mode: PerftMode) -> Perft {
        Perft { lists: Vec::new(), mode, table: None }
    }

    /// Uses a transposition table of about `megabytes` MB (0 for none).
    pub fn with_hash(mut self, megabytes: usize) -> Perft {
        self.table = (megabytes > 0).then(|| PerftTable::new(megabytes));
        self
    }

    /// The number of leaves `depth` plies below `position`.
    pub fn count(&mut self, position: &Position, depth: u32) -> u64 {
        while self.lists.len() <= depth as usize {
            self.lists.push(MoveList::new());
        }
        self.node(position, depth)
    }

    /// The root moves perft would follow in this mode (routes, in `Paths` mode).
    pub fn root_moves(position: &Position, mode: PerftMode) -> Vec<crate::Move> {
        let mut list = MoveList::new();
        Perft::new(mode).generate(position, &mut list);
        list.to_vec()
    }

    fn generate(&self, position: &Position, list: &mut MoveList) {
        match self.mode {
            PerftMode::Moves => position.generate_moves(list),
            PerftMode::Paths => {
                position.generate_capture_paths(list);
                if list.is_empty() {
                    position.generate_moves(list);
                }
            }
        }
    }

    fn node(&mut self, position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 && self.mode == PerftMode::Moves && !position.has_capture() {
            return position.count_quiet_moves();
        }
        if depth >= 3 {
            if let Some(table) = &self.table {
                if let Some(n) = table.get(position, depth) {
                    return n;
                }
            }
        }
        let mut list = std::mem::take(&mut self.lists[depth as usize]);
        self.generate(position, &mut list);
        let total = if depth == 1 {
            list.len() as u64
        } else {
            let mut total = 0;
            for mv in list.iter() {
                total += self.node(&position.play_unchecked(mv), depth - 1);
            }
            total
        };
        self.lists[depth as usize] = list;
        if depth >= 3 {
            if let Some(table) = &mut self.table {
                table.put(position, depth, total);
            }
        }
        total
    }
}

/// A simple always-replace table keyed by the position hash and depth.
struct PerftTable {
    entries: Vec<(u64, u64)>, // (key ^ depth-tag, count)
}

impl PerftTable {
    fn new(megabytes: usize) -> PerftTable {
        let n = (megabytes * 1024 * 1024 / 16).next_power_of_two() / 2;
        PerftTable { entries: vec![(0, 0); n.max(1024)] }
    }
    fn key(position: &Position, depth: u32) -> u64 {
        position.hash_key() ^ (u64::from(depth).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
    fn get(&self, position: &Position, depth: u32) -> Option<u64> {
        let key = Self::key(position, depth);
        let e = self.entries[(key as usize) & (self.entries.len() - 1)];
        (e.0 == key && key != 0).then_some(e.1)
    }
    fn put(&mut self, position: &Position, depth: u32, count: u64) {
        let key = Self::key(position, depth);
        let len = self.entries.len();
        self.entries[(key as usize) & (len - 1)] = (key, count);
    }
}

/// Perft from `position`, counting moves, without a table.
pub fn perft(position: &Position, depth: u32) -> u64 {
    Perft::new(PerftMode::Moves).count(position, depth)
}

/// Perft per root move: each legal move with the leaves below it.
pub fn perft_divide(position: &Position, depth: u32, mode: PerftMode) -> Vec<(crate::Move, u64)> {
    let mut perft = Perft::new(mode);
    let mut list = MoveList::new();
    perft.generate(position, &mut list);
    list.iter().map(|mv| (*mv, perft.count(&position.play_unchecked(mv), depth.saturating_sub(1)))).collect()
}
