//! Perft on boards of any size: the number of move sequences of a given length, counting
//! moves as docs/rules.md defines them (routes that make one move count once).
//!
//! The International family's perft is as the 8x8 one: compiled per rule set and side to
//! move, quiet moves played straight from the bitboards, captures through a reused list a
//! ply, the last ply counted in bulk. Other move rules count through their move lists
//! ([`MoveRules::perft`] chooses).

use super::movegen::{
    after_capture, after_quiet, count_moves, fast_captures, for_each_quiet, has_capture, view, Black,
    ListSink, Side, White,
};
use super::moves::{BoardMove, BoardMoves};
use super::position::{Board, RuleSet};
use super::rules::MoveRules;

/// A perft counter with reusable lists, one a ply, so it allocates nothing once warm.
pub struct BoardPerft<V: RuleSet> {
    lists: Vec<BoardMoves<V>>,
    scratch: BoardMoves<V>,
}

impl<V: RuleSet> Default for BoardPerft<V> {
    fn default() -> Self {
        BoardPerft { lists: Vec::new(), scratch: BoardMoves::new() }
    }
}

impl<V: RuleSet> BoardPerft<V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of leaves `depth` plies below `board`.
    pub fn count(&mut self, board: &Board<V>, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        while self.lists.len() <= depth as usize {
            self.lists.push(BoardMoves::new());
        }
        V::Moves::perft(self, board, depth)
    }

    /// Leaves below `board` (`depth` >= 1) by the International family's generator.
    pub(crate) fn family(&mut self, board: &Board<V>, depth: u32) -> u64 {
        match board.turn() {
            crate::Color::White => self.node::<White>(board, depth),
            crate::Color::Black => self.node::<Black>(board, depth),
        }
    }

    /// Leaves below `board` (`depth` >= 1) through the legal move lists, for any move rules.
    pub(crate) fn generic(&mut self, board: &Board<V>, depth: u32) -> u64 {
        if depth == 1 {
            return board.count_legal_moves();
        }
        let ply = depth as usize;
        let mut list = std::mem::take(&mut self.lists[ply]);
        board.generate_moves(&mut list);
        let total = list.iter().map(|mv| self.generic(&board.play_unchecked(mv), depth - 1)).sum();
        self.lists[ply] = list;
        total
    }

    /// Leaves below `board` (`depth` >= 1), the side to move `S` known at compile time.
    fn node<S: Side>(&mut self, board: &Board<V>, depth: u32) -> u64 {
        if depth == 1 {
            return count_moves::<V, S>(board, &mut self.scratch);
        }
        let v = view::<V, S>(board);
        let mut total = 0;
        if has_capture::<V::Geometry>(&v) {
            let ply = depth as usize;
            self.lists[ply].clear();
            fast_captures::<V, S, _>(&v, &mut ListSink { list: &mut self.lists[ply], best: 0 });
            // Indexed, not iterated: the children below borrow `self` to use deeper lists.
            for i in 0..self.lists[ply].len() {
                let mv = self.lists[ply][i];
                total += self.node::<S::Opponent>(&after_capture::<V, S>(board, &mv), depth - 1);
            }
        } else {
            for_each_quiet::<V::Geometry, S>(&v, |from, to, is_king, crowns| {
                total += self
                    .node::<S::Opponent>(&after_quiet::<V, S>(board, from, to, is_king, crowns), depth - 1);
            });
        }
        total
    }
}

/// Perft from `board`, one thread, no table.
pub fn board_perft<V: RuleSet>(board: &Board<V>, depth: u32) -> u64 {
    BoardPerft::new().count(board, depth)
}

/// Perft per root move: each legal move with the leaves below it.
pub fn board_perft_divide<V: RuleSet>(board: &Board<V>, depth: u32) -> Vec<(BoardMove<V>, u64)> {
    let mut perft = BoardPerft::new();
    board
        .legal_moves()
        .iter()
        .map(|mv| (*mv, perft.count(&board.play_unchecked(mv), depth.saturating_sub(1))))
        .collect()
}
