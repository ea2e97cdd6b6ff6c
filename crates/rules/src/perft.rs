//! Perft: the number of move sequences of a given length, the standard test of a move
//! generator, and the measure of its speed.
//!
//! The walk is compiled once per rule set and side to move. Quiet moves are played straight
//! from the bitboards without building `Move` values; only captures (which must be merged
//! when two routes make one move) go through a list. The last ply is counted in bulk: quiet
//! moves by popcount, captures without listing those that cannot repeat. An optional hash
//! table serves deep runs.

use crate::movegen::{
    after_move, after_quiet, count_moves, fast_captures, for_each_quiet, has_capture, Black, EnglishRules,
    ListSink, Rules, RussianRules, Side, View, White,
};
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::moves::{Move, MoveList};
use crate::position::{Color, Position, Variant};

/// What perft counts as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PerftMode {
    /// Moves as docs/rules.md defines them (start, end, captured set, crowning).
    #[default]
    Moves,
    /// Every distinct jump route (OEIS A133046 for English).
    Paths,
}

/// A perft counter: reusable capture lists, one per ply, so it allocates nothing while it
/// runs, and an optional hash table (which threads may share).
pub struct Perft {
    lists: Vec<MoveList>,
    scratch: MoveList,
    mode: PerftMode,
    table: Option<Arc<PerftTable>>,
}

impl Perft {
    pub fn new(mode: PerftMode) -> Perft {
        Perft { lists: Vec::new(), scratch: MoveList::new(), mode, table: None }
    }

    /// Uses a transposition table of at most `megabytes` MB (0, or more memory than the
    /// system will give, for none; [`PerftTable::new`] reports that instead).
    pub fn with_hash(mut self, megabytes: usize) -> Perft {
        self.table = PerftTable::new(megabytes).ok().flatten().map(Arc::new);
        self
    }

    /// Uses a transposition table shared with other counters (threads).
    pub fn with_shared_hash(mut self, table: Arc<PerftTable>) -> Perft {
        self.table = Some(table);
        self
    }

    /// The number of leaves `depth` plies below `position`.
    pub fn count(&mut self, position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        while self.lists.len() <= depth as usize {
            self.lists.push(MoveList::new());
        }
        let paths = self.mode == PerftMode::Paths;
        match (position.variant, position.turn, paths) {
            (Variant::English, Color::White, false) => {
                self.node::<EnglishRules, White, false>(position, depth)
            }
            (Variant::English, Color::Black, false) => {
                self.node::<EnglishRules, Black, false>(position, depth)
            }
            (Variant::English, Color::White, true) => self.node::<EnglishRules, White, true>(position, depth),
            (Variant::English, Color::Black, true) => self.node::<EnglishRules, Black, true>(position, depth),
            // Russian routes that make one move are one move in either mode.
            (Variant::Russian, Color::White, _) => self.node::<RussianRules, White, false>(position, depth),
            (Variant::Russian, Color::Black, _) => self.node::<RussianRules, Black, false>(position, depth),
        }
    }

    /// The root moves perft would follow in this mode (routes, in `Paths` mode).
    pub fn root_moves(position: &Position, mode: PerftMode) -> Vec<Move> {
        let mut list = MoveList::new();
        match mode {
            PerftMode::Moves => position.generate_moves(&mut list),
            PerftMode::Paths => position.generate_capture_paths(&mut list),
        }
        list.to_vec()
    }

    /// Leaves below a child (`depth` >= 1); at the last ply counted in place, not through a
    /// call.
    #[inline(always)]
    fn child<R: Rules, S: Side, const PATHS: bool>(&mut self, position: &Position, depth: u32) -> u64 {
        if depth == 1 {
            count_moves::<R, S>(position, !PATHS, &mut self.scratch)
        } else {
            self.node::<R, S, PATHS>(position, depth)
        }
    }

    /// Leaves below `position` (`depth` >= 1), with the side to move `S` known at compile time.
    fn node<R: Rules, S: Side, const PATHS: bool>(&mut self, position: &Position, depth: u32) -> u64 {
        if depth == 1 {
            return count_moves::<R, S>(position, !PATHS, &mut self.scratch);
        }
        if depth >= 3 {
            if let Some(n) = self.table.as_ref().and_then(|t| t.get(position, depth)) {
                return n;
            }
        }
        let v = View::of::<S>(position);
        let mut total = 0;
        if has_capture::<R, S>(&v) {
            let ply = depth as usize;
            self.lists[ply].clear();
            fast_captures::<R, S, _>(&v, &mut ListSink { list: &mut self.lists[ply], unique: !PATHS });
            // Indexed, not iterated: the children below borrow `self` to use deeper lists.
            for i in 0..self.lists[ply].len() {
                let mv = self.lists[ply][i];
                let child = after_move::<S>(position, mv.from.bit(), mv.to.bit(), mv.captured, mv.crowns);
                total += self.child::<R, S::Opponent, PATHS>(&child, depth - 1);
            }
        } else {
            for_each_quiet::<R, S>(&v, |from, to, is_king, crowns| {
                total += self.child::<R, S::Opponent, PATHS>(
                    &after_quiet::<S>(position, from, to, is_king, crowns),
                    depth - 1,
                );
            });
        }
        if depth >= 3 {
            if let Some(table) = &self.table {
                table.put(position, depth, total);
            }
        }
        total
    }
}

/// A perft hash table: always-replace entries keyed by the position hash and depth, safe to
/// share between threads without locks. Each entry stores its key XOR its count beside the
/// count, so an entry torn by two threads writing at once fails the key check and is a miss.
pub struct PerftTable {
    entries: Vec<[AtomicU64; 2]>,
}

impl PerftTable {
    /// A table of at most `megabytes` MB (a power of two entries), `None` for 0, or the error
    /// if the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Option<PerftTable>, TryReserveError> {
        let wanted = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        if wanted == 0 {
            return Ok(None);
        }
        let n = 1usize << wanted.ilog2();
        let mut entries = Vec::new();
        entries.try_reserve_exact(n)?;
        entries.extend((0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(Some(PerftTable { entries }))
    }
    fn key(position: &Position, depth: u32) -> u64 {
        position.hash_key() ^ (u64::from(depth).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.entries[(key as usize) & (self.entries.len() - 1)]
    }
    fn get(&self, position: &Position, depth: u32) -> Option<u64> {
        let key = Self::key(position, depth);
        let [check, count] = self.slot(key);
        let count = count.load(Ordering::Relaxed);
        (check.load(Ordering::Relaxed) ^ count == key && key != 0).then_some(count)
    }
    fn put(&self, position: &Position, depth: u32, count: u64) {
        let key = Self::key(position, depth);
        let [check, stored] = self.slot(key);
        check.store(key ^ count, Ordering::Relaxed);
        stored.store(count, Ordering::Relaxed);
    }
}

/// Perft from `position`, counting moves, without a table.
pub fn perft(position: &Position, depth: u32) -> u64 {
    Perft::new(PerftMode::Moves).count(position, depth)
}

/// Perft per root move: each legal move with the leaves below it.
pub fn perft_divide(position: &Position, depth: u32, mode: PerftMode) -> Vec<(Move, u64)> {
    let mut perft = Perft::new(mode);
    Perft::root_moves(position, mode)
        .into_iter()
        .map(|mv| (mv, perft.count(&position.play_unchecked(&mv), depth.saturating_sub(1))))
        .collect()
}
