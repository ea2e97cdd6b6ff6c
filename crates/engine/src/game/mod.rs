//! What the engine needs of a variant's positions, as traits, so that one search, one
//! transposition table and one set of levels serve every variant: the 8x8 positions of English
//! and Russian ([`checkers_rules::Position`], in `eight.rs`) and the positions of every board
//! of the rules library's `board` module ([`checkers_rules::board::Board`], in `boards.rs`).
//!
//! The search is compiled once per position type, so a trait method costs nothing at run
//! time; what differs between variants of one type (English or Russian on 8x8) is a value the
//! search reads once ([`SearchRules`]), as it did before the search served other boards.

mod boards;
mod eight;

use std::fmt;
use std::hash::Hash;

use checkers_endgame::{Database, Value};
use checkers_rules::Color;

use crate::score::Score;

pub use boards::BoardEngine;

/// A move as the search sees it.
pub trait SearchMove: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// The start square as a dense index below `1 << SearchPosition::SLOT_BITS` (the key of
    /// the history, killer and counter-move tables and of the table's remembered move).
    fn start_slot(&self) -> u32;
    /// The end square, as [`SearchMove::start_slot`].
    fn end_slot(&self) -> u32;
    fn is_capture(&self) -> bool;
    /// Whether the moving man is crowned.
    fn crowns(&self) -> bool;
    /// How many pieces the move takes.
    fn captured_count(&self) -> u32;
}

/// A list of moves the generator fills and the search reorders.
pub trait MoveBuffer<M>: Default + Send + Sync {
    fn clear(&mut self);
    fn as_slice(&self) -> &[M];
    fn as_mut_slice(&mut self) -> &mut [M];
    fn retain(&mut self, keep: impl FnMut(&M) -> bool);
}

/// How a variant's searches differ, read once a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRules {
    /// Plies without a capture or a man's move after which the game is drawn (a variant
    /// whose rule counts other moves gives its nearest bound: the search only needs to see
    /// that such lines lead nowhere).
    pub quiet_ply_limit: u32,
    /// Whether a position met again is a draw (Frisian and Breakthrough have no such rule).
    pub repetition_draws: bool,
    /// Whether quiet nodes far outside the window are searched shallower (English: measured
    /// a gain there only).
    pub truncation: bool,
    /// Whether the counter-move heuristic orders quiet moves (English: measured a gain there
    /// only).
    pub counter_moves: bool,
}

/// A position the engine can search.
pub trait SearchPosition: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    type Move: SearchMove;
    type Moves: MoveBuffer<Self::Move>;

    /// Bits of a square's slot ([`SearchMove::start_slot`]): 6 on the 8x8 board, 7 on boards
    /// whose words have up to 128 bits.
    const SLOT_BITS: u32;
    /// Whether the side to move wins, rather than loses, when it has no legal move
    /// (Antidraughts).
    const NO_MOVE_WINS: bool = false;
    /// Whether some positions are decided before their moves are looked at
    /// ([`SearchPosition::decided`]: Breakthrough's first king); false leaves the test out.
    const DECIDED_BY_POSITION: bool = false;

    /// A 64-bit key for hash tables (side to move included).
    fn hash_key(&self) -> u64;
    fn turn(&self) -> Color;
    /// Pieces of both sides on the board.
    fn piece_count(&self) -> u32;
    /// Fills `list` with the legal moves (clearing it first).
    fn generate_moves(&self, list: &mut Self::Moves);
    /// Fills `list` with the legal moves if they are captures, else leaves it empty.
    fn generate_captures(&self, list: &mut Self::Moves);
    /// The legal moves, in a list of their own.
    fn legal_moves(&self) -> Self::Moves {
        let mut list = Self::Moves::default();
        self.generate_moves(&mut list);
        list
    }
    /// The position after `mv`, a legal move here.
    fn play_unchecked(&self, mv: &Self::Move) -> Self;
    /// Whether `mv`, legal here, moves a man (a capture or a man's move starts the count of
    /// [`SearchRules::quiet_ply_limit`] again).
    fn moves_man(&self, mv: &Self::Move) -> bool;
    /// Whether `next` follows `previous` by a king's move that took nothing: the same men on
    /// the same squares, as many kings, the other side to move (for the game's history,
    /// whose moves are not known).
    fn king_move_between(previous: &Self, next: &Self) -> bool;
    /// Whether the position is drawn by a rule that looks at it alone (Russian: a lone king
    /// against a lone king that neither can catch).
    fn drawn_by_position(&self) -> bool {
        false
    }
    /// The result of a position decided by its pieces alone, for the side to move: `Some(true)`
    /// won, `Some(false)` lost (only asked when [`SearchPosition::DECIDED_BY_POSITION`]).
    fn decided(&self) -> Option<bool> {
        None
    }
    /// An exactly known result with the plies it takes, for the side to move: `(plies, won)`
    /// (Russian lone kings that catch one another within a few plies).
    fn exact_ending(&self) -> Option<(u32, bool)> {
        None
    }

    /// The static evaluation for the side to move, in hundredths of a man; with
    /// `tables_only`, by the fitted tables even where the variant has a network.
    fn evaluate(&self, tables_only: bool) -> i32;
    /// A number mixed into the evaluation cache's keys, so that positions of variants that
    /// share this type (and one hash key) keep their evaluations apart.
    fn evaluation_salt(&self) -> u64;
    /// The search's settings for this position's variant.
    fn search_rules(&self) -> SearchRules;
    /// Whether the levels below 9 judge by the fitted tables, keeping the network for the
    /// top level (Russian: it keeps level 9 clearly above level 8).
    fn tables_below_top_level(&self) -> bool {
        false
    }
    /// The pieces on the board at most for a position to count as the opening (draw offers
    /// are declined there when level).
    fn opening_pieces(&self) -> u32;

    /// The endgame database of this position's variant, if it has one (solved on first use).
    fn endgame_database(&self) -> Option<&'static Database> {
        None
    }
    /// What the database knows of this position.
    fn probe_database(&self, _database: &Database) -> Option<Value> {
        None
    }
    /// Whether the database's wins and losses hold under the variant's rules (and not only
    /// its draws).
    fn database_wins_hold(&self) -> bool {
        false
    }
    /// The opening book's moves for this position, best first, each with its score, when the
    /// book holds it and its best move is not a forced result.
    fn book_moves(&self) -> Option<Vec<(Self::Move, Score)>> {
        None
    }
}
