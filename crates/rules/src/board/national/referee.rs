//! The end of a national 8x8 game: the side to move without a legal move loses; a draw by
//! repetition and by the limit of king moves, with each variant's numbers (its
//! [`NationalVariant`] constants; docs/rules.md states each federation's rule).

use super::super::fmjd::king_only_plies;
use super::super::game::{BoardDrawReason, BoardOutcome};
use super::super::moves::BoardMove;
use super::super::position::Board;
use super::super::rules::{no_legal_move_loses, Referee};
use super::NationalVariant;

/// The referee of the national 8x8 games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NationalReferee;

impl<V: NationalVariant> Referee<V> for NationalReferee {
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = *positions.last()?;
        if let Some(outcome) = no_legal_move_loses(&position) {
            return Some(outcome);
        }
        let since = king_only_plies(positions, moves);
        // Only positions since the last capture or man move can repeat the current one.
        let seen = positions.iter().rev().take(since + 1).filter(|p| **p == position).count();
        if seen >= V::REPETITIONS {
            let reason = if V::REPETITIONS == 3 {
                BoardDrawReason::ThreefoldRepetition
            } else {
                BoardDrawReason::Repetition
            };
            return Some(BoardOutcome::Draw { reason });
        }
        if V::KING_MOVE_PLIES.is_some_and(|limit| since >= limit) {
            return Some(BoardOutcome::Draw { reason: BoardDrawReason::KingMoveLimit });
        }
        None
    }
}
