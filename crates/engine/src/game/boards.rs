//! The variants on the rules library's boards of any size (International and its family, the
//! national 8x8 games, Turkish): what the search needs of each beyond its rules, as the
//! constants of [`BoardEngine`], and [`SearchPosition`] for their positions.

use std::sync::OnceLock;

use checkers_rules::board::{
    Antidraughts, Bits, Board, BoardMove, BoardMoves, Brazilian, Breakthrough, Canadian, Czech, Frisian,
    Frysk, Geometry, International, Italian, Pool, Portuguese, RuleSet, Spanish, Thai, Turkish,
};
use checkers_rules::Color;

use super::{MoveBuffer, SearchMove, SearchPosition, SearchRules};
use crate::eval::board_weights;
use crate::eval::boards::{evaluate_board, BoardWeights, SquareTable};

/// No limit on quiet plies (a variant whose rules draw no long run of king moves).
const NO_LIMIT: u32 = u32::MAX;

/// What the engine knows of a variant played on [`Board`]: its evaluation and the rules the
/// search must see (the move rules are the library's).
pub trait BoardEngine: RuleSet {
    /// The evaluation's weights.
    const WEIGHTS: BoardWeights;
    /// Plies of king moves without a capture after which the game is drawn, or `u32::MAX`.
    const QUIET_PLY_LIMIT: u32;
    /// Whether a position that occurs again is a draw (every variant but Frisian and
    /// Breakthrough).
    const REPETITION_DRAWS: bool = true;
    /// Whether the side to move wins when it has no legal move (Antidraughts).
    const NO_MOVE_WINS: bool = false;
    /// Whether the first king wins the game (Breakthrough).
    const FIRST_KING_WINS: bool = false;
    /// Whether a man's move can be undone (Turkish men also move sideways): then only its
    /// forward moves end a run of quiet plies.
    const MEN_MOVE_SIDEWAYS: bool = false;
    /// The board's square table, made once.
    fn square_table() -> &'static SquareTable;
}

/// The engine's constants for each variant: weights, the quiet-ply limit, and the rules
/// that change how a game ends.
macro_rules! board_engine {
    ($variant:ty, $weights:expr, $limit:expr $(, $flag:ident = $value:expr)*) => {
        impl BoardEngine for $variant {
            const WEIGHTS: BoardWeights = $weights;
            const QUIET_PLY_LIMIT: u32 = $limit;
            $(const $flag: bool = $value;)*
            fn square_table() -> &'static SquareTable {
                static TABLE: OnceLock<SquareTable> = OnceLock::new();
                TABLE.get_or_init(SquareTable::new::<$variant>)
            }
        }
    };
}

// The 25-move rule (International family) is 50 plies; Italian's 40 moves of kings each are
// 80, Spanish and Portuguese's 20 each are 40.
board_engine!(International, board_weights::INTERNATIONAL, 50);
board_engine!(Brazilian, board_weights::BRAZILIAN, 50);
board_engine!(Canadian, board_weights::CANADIAN, 50);
board_engine!(Frisian, board_weights::FRISIAN, NO_LIMIT, REPETITION_DRAWS = false);
board_engine!(Frysk, board_weights::FRYSK, NO_LIMIT, REPETITION_DRAWS = false);
board_engine!(Antidraughts, board_weights::ANTIDRAUGHTS, NO_LIMIT, NO_MOVE_WINS = true);
board_engine!(
    Breakthrough,
    board_weights::BREAKTHROUGH,
    NO_LIMIT,
    REPETITION_DRAWS = false,
    FIRST_KING_WINS = true
);
board_engine!(Italian, board_weights::ITALIAN, 80);
board_engine!(Spanish, board_weights::SPANISH, 40);
board_engine!(Portuguese, board_weights::PORTUGUESE, 40);
board_engine!(Czech, board_weights::CZECH, NO_LIMIT);
board_engine!(Pool, board_weights::POOL, NO_LIMIT);
board_engine!(Thai, board_weights::THAI, NO_LIMIT);
board_engine!(Turkish, board_weights::TURKISH, NO_LIMIT, MEN_MOVE_SIDEWAYS = true);

impl<V: RuleSet> SearchMove for BoardMove<V> {
    #[inline(always)]
    fn start_slot(&self) -> u32 {
        self.start_index()
    }
    #[inline(always)]
    fn end_slot(&self) -> u32 {
        self.end_index()
    }
    #[inline(always)]
    fn is_capture(&self) -> bool {
        BoardMove::is_capture(self)
    }
    #[inline(always)]
    fn crowns(&self) -> bool {
        BoardMove::crowns(self)
    }
    #[inline(always)]
    fn captured_count(&self) -> u32 {
        BoardMove::captured_count(self)
    }
}

impl<V: RuleSet> MoveBuffer<BoardMove<V>> for BoardMoves<V> {
    #[inline(always)]
    fn clear(&mut self) {
        BoardMoves::clear(self);
    }
    #[inline(always)]
    fn as_slice(&self) -> &[BoardMove<V>] {
        BoardMoves::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [BoardMove<V>] {
        BoardMoves::as_mut_slice(self)
    }
    fn retain(&mut self, keep: impl FnMut(&BoardMove<V>) -> bool) {
        BoardMoves::retain(self, keep);
    }
}

/// A number for the evaluation cache from the variant's name (FNV-1a).
const fn name_salt(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

impl<V: BoardEngine> SearchPosition for Board<V> {
    type Move = BoardMove<V>;
    type Moves = BoardMoves<V>;
    const SLOT_BITS: u32 = 7;
    const NO_MOVE_WINS: bool = V::NO_MOVE_WINS;
    const DECIDED_BY_POSITION: bool = V::FIRST_KING_WINS;

    #[inline(always)]
    fn hash_key(&self) -> u64 {
        Board::hash_key(self)
    }
    #[inline(always)]
    fn turn(&self) -> Color {
        Board::turn(self)
    }
    #[inline(always)]
    fn piece_count(&self) -> u32 {
        Board::piece_count(self, Color::White) + Board::piece_count(self, Color::Black)
    }
    #[inline(always)]
    fn generate_moves(&self, list: &mut BoardMoves<V>) {
        Board::generate_moves(self, list);
    }
    #[inline(always)]
    fn generate_captures(&self, list: &mut BoardMoves<V>) {
        Board::generate_captures(self, list);
    }
    #[inline(always)]
    fn play_unchecked(&self, mv: &BoardMove<V>) -> Board<V> {
        Board::play_unchecked(self, mv)
    }
    #[inline(always)]
    fn moves_man(&self, mv: &BoardMove<V>) -> bool {
        let from = <V::Geometry as Geometry>::Bits::bit(mv.start_index());
        let man = self.men_bits(self.turn()) & from != <V::Geometry as Geometry>::Bits::ZERO;
        if V::MEN_MOVE_SIDEWAYS {
            let table = V::square_table();
            man && table.row_of(self.turn(), mv.start_index()) != table.row_of(self.turn(), mv.end_index())
        } else {
            man
        }
    }
    fn king_move_between(previous: &Board<V>, next: &Board<V>) -> bool {
        let kings = |b: &Board<V>| b.kings_bits(Color::White).count() + b.kings_bits(Color::Black).count();
        previous.men_bits(Color::White) == next.men_bits(Color::White)
            && previous.men_bits(Color::Black) == next.men_bits(Color::Black)
            && kings(previous) == kings(next)
            && previous.turn() != next.turn()
    }
    fn decided(&self) -> Option<bool> {
        // Breakthrough: a side with a king has won (White first, as the referee decides).
        let winner = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.kings_bits(c) != <V::Geometry as Geometry>::Bits::ZERO)?;
        Some(winner == self.turn())
    }

    #[inline(always)]
    fn evaluate(&self, _tables_only: bool) -> i32 {
        evaluate_board(self, V::square_table(), &V::WEIGHTS)
    }
    #[inline(always)]
    fn evaluation_salt(&self) -> u64 {
        const { name_salt(V::NAME) }
    }
    fn search_rules(&self) -> SearchRules {
        SearchRules {
            quiet_ply_limit: V::QUIET_PLY_LIMIT,
            repetition_draws: V::REPETITION_DRAWS,
            truncation: false,
            counter_moves: false,
        }
    }
    fn opening_pieces(&self) -> u32 {
        // Two thirds of the start's pieces, as 16 of 24 on the 8x8 board.
        4 * Board::<V>::MAX_PIECES / 3
    }
}
