//! What a variant fills in: how its moves are found ([`MoveRules`]) and when its games end
//! ([`Referee`]). A [`RuleSet`] names one of each as associated types, so a variant whose
//! moves or game ends differ from the International family's brings its own type and
//! everything above (positions, games, notation, perft) works for it unchanged. The choice is
//! made at compile time: no call through a pointer, and the family's tuned generator stays
//! what International, Brazilian and Canadian run.

use super::game::BoardOutcome;
use super::moves::{BoardMove, BoardMoves};
use super::perft::BoardPerft;
use super::position::{Board, RuleSet};
use crate::game::WinReason;
use crate::position::Color;

/// A variant's move rules.
///
/// A move is its start, its end, the set of pieces it captures and whether the man is
/// crowned ([`BoardMove`]); two capture routes with the same four are one move (listed
/// once). Only `generate` and `capture_routes` must be written; the rest have correct
/// defaults built on them, which a generator may replace with faster ones.
pub trait MoveRules<V: RuleSet>: 'static {
    /// Fills `list` (already empty) with the legal moves of the side to move.
    fn generate(board: &Board<V>, list: &mut BoardMoves<V>);

    /// Every legal capture with the squares its route stops on (start first, end last), one
    /// entry per route: the same move may appear with several routes.
    fn capture_routes(board: &Board<V>) -> Vec<(BoardMove<V>, Vec<u32>)>;

    /// Fills `list` (already empty) with the legal moves if they are captures, and leaves it
    /// empty if they are not: what a search's capture resolution asks at every leaf.
    fn generate_captures(board: &Board<V>, list: &mut BoardMoves<V>) {
        Self::generate(board, list);
        if !list.as_slice().first().is_some_and(BoardMove::is_capture) {
            list.clear();
        }
    }

    /// Whether the legal moves are captures.
    fn has_capture(board: &Board<V>) -> bool {
        let mut list = BoardMoves::new();
        Self::generate(board, &mut list);
        list.iter().any(BoardMove::is_capture)
    }

    /// Whether the side to move has any legal move.
    fn has_legal_move(board: &Board<V>) -> bool {
        Self::count_legal_moves(board) != 0
    }

    /// The number of legal moves.
    fn count_legal_moves(board: &Board<V>) -> u64 {
        let mut list = BoardMoves::new();
        Self::generate(board, &mut list);
        list.len() as u64
    }

    /// The position after `mv`, a legal move here (no check; an illegal move gives a
    /// nonsense position, never undefined behaviour). The default moves the piece, removes
    /// the captured ones and crowns as the move says.
    #[inline(always)]
    fn play(board: &Board<V>, mv: &BoardMove<V>) -> Board<V> {
        board.apply(mv)
    }

    /// Perft below `board` (`depth` >= 1), with `perft`'s lists (one a ply) to reuse.
    fn perft(perft: &mut BoardPerft<V>, board: &Board<V>, depth: u32) -> u64 {
        perft.generic(board, depth)
    }
}

/// A variant's referee: after each move, whether the game is over and how.
pub trait Referee<V: RuleSet>: 'static {
    /// The outcome the board dictates after the last of `moves` (`positions[0]` is the start
    /// and `positions[i]` follows `moves[i - 1]`), or `None` while the game goes on.
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome>;
}

/// The side to move, if it has no legal move (no pieces left, or all blocked): every
/// variant's referee ends the game there before anything else.
pub(crate) fn side_without_move<V: RuleSet>(position: &Board<V>) -> Option<Color> {
    (!position.has_legal_move()).then(|| position.turn())
}

/// The outcome when the side to move has no legal move and so loses, as in every variant but
/// Antidraughts (where it wins).
pub(crate) fn no_legal_move_loses<V: RuleSet>(position: &Board<V>) -> Option<BoardOutcome> {
    side_without_move(position)
        .map(|stuck| BoardOutcome::Win { winner: stuck.opponent(), reason: WinReason::NoLegalMove })
}

impl<V: RuleSet> Board<V> {
    /// All legal moves.
    pub fn legal_moves(&self) -> BoardMoves<V> {
        let mut list = BoardMoves::new();
        self.generate_moves(&mut list);
        list
    }

    /// Fills `list` with the legal moves (clearing it first).
    pub fn generate_moves(&self, list: &mut BoardMoves<V>) {
        list.clear();
        V::Moves::generate(self, list);
    }

    /// Fills `list` with the legal moves if they are captures, else leaves it empty
    /// (clearing it first either way).
    pub fn generate_captures(&self, list: &mut BoardMoves<V>) {
        list.clear();
        V::Moves::generate_captures(self, list);
    }

    /// Whether the side to move has a capture (so every legal move is a capture).
    pub fn has_capture(&self) -> bool {
        V::Moves::has_capture(self)
    }

    /// Whether the side to move has any legal move at all.
    pub fn has_legal_move(&self) -> bool {
        V::Moves::has_legal_move(self)
    }

    /// The number of legal moves.
    pub fn count_legal_moves(&self) -> u64 {
        V::Moves::count_legal_moves(self)
    }

    /// The capture routes of the legal moves, each with the squares it stops on.
    pub(crate) fn capture_routes(&self) -> Vec<(BoardMove<V>, Vec<u32>)> {
        V::Moves::capture_routes(self)
    }

    /// The position after `mv`, which must be legal here (the fast door: it does not check;
    /// an illegal move gives a nonsense position but never undefined behaviour).
    #[inline(always)]
    pub fn play_unchecked(&self, mv: &BoardMove<V>) -> Board<V> {
        V::Moves::play(self, mv)
    }
}
