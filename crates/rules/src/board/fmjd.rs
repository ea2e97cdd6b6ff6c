//! The FMJD's rules for the end of a game of the International family (docs/rules.md, "Games
//! and draws (International family)").
//!
//! Decided after every move, in this order: the side to move has no legal move (it loses);
//! threefold repetition; the 16- and 5-move endgame rules; the 25-move rule. Counts are moves
//! of each side, so 25 moves are 50 plies.

use super::bits::Bits;
use super::game::{BoardDrawReason, BoardOutcome};
use super::moves::BoardMove;
use super::position::{Board, RuleSet};
use super::rules::{no_legal_move_loses, Referee};
use crate::position::{Color, Role};

/// The FMJD's referee: International, Brazilian and Canadian games end by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FmjdReferee;

impl<V: RuleSet> Referee<V> for FmjdReferee {
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = *positions.last()?;
        if let Some(outcome) = no_legal_move_loses(&position) {
            return Some(outcome);
        }
        let draw = |reason| Some(BoardOutcome::Draw { reason });
        if is_threefold_repetition(positions, moves) {
            return draw(BoardDrawReason::ThreefoldRepetition);
        }
        match ending(&position) {
            Some(Ending::Sixteen) if plies_in(positions, &[Ending::Sixteen]) >= 32 => {
                return draw(BoardDrawReason::SixteenMoveRule);
            }
            Some(Ending::Five) => {
                if plies_in(positions, &[Ending::Five]) >= 10 {
                    return draw(BoardDrawReason::FiveMoveRule);
                }
                // A 16-move count that was running when a capture brought the game down to
                // this ending still ends the game at its 16th move.
                if plies_in(positions, &[Ending::Five, Ending::Sixteen]) >= 32 {
                    return draw(BoardDrawReason::SixteenMoveRule);
                }
            }
            _ => {}
        }
        if king_only_plies(positions, moves) >= 50 {
            return draw(BoardDrawReason::TwentyFiveMoveRule);
        }
        None
    }
}

/// The endgame a position is in, for the 16- and 5-move rules: one side a lone king, the
/// other three pieces (`Sixteen`) or one or two (`Five`) with at least one king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    Sixteen,
    Five,
}

fn ending<V: RuleSet>(board: &Board<V>) -> Option<Ending> {
    for weak in [Color::White, Color::Black] {
        let (weak_bits, strong_bits) = (board.side_bits(weak), board.side_bits(weak.opponent()));
        let lone_king = weak_bits.count() == 1 && !(weak_bits & board.kings).is_zero();
        let strong_has_king = !(strong_bits & board.kings).is_zero();
        if lone_king && strong_has_king {
            return match strong_bits.count() {
                3 => Some(Ending::Sixteen),
                1 | 2 => Some(Ending::Five),
                _ => None,
            };
        }
    }
    None
}

/// Whether move `i` moved a king without capturing: the only moves that can be undone on the
/// board, and the only ones the 25-move rule lets pass.
pub(crate) fn is_king_move<V: RuleSet>(positions: &[Board<V>], moves: &[BoardMove<V>], i: usize) -> bool {
    let mv = &moves[i];
    !mv.is_capture() && positions[i].piece_at(mv.from()).is_some_and(|p| p.role == Role::King)
}

/// Plies since the last capture or man move (or the start).
pub(crate) fn king_only_plies<V: RuleSet>(positions: &[Board<V>], moves: &[BoardMove<V>]) -> usize {
    (0..moves.len()).rev().take_while(|&i| is_king_move(positions, moves, i)).count()
}

/// Plies in the unbroken run of positions, up to now, whose ending is one of `classes`: the
/// moves counted since the game entered it.
fn plies_in<V: RuleSet>(positions: &[Board<V>], classes: &[Ending]) -> usize {
    let run = positions.iter().rev().take_while(|p| ending(*p).is_some_and(|e| classes.contains(&e)));
    run.count().saturating_sub(1)
}

/// Whether the current position stands for the third time (only positions since the last
/// capture or man move can repeat it).
pub(crate) fn is_threefold_repetition<V: RuleSet>(positions: &[Board<V>], moves: &[BoardMove<V>]) -> bool {
    let Some(current) = positions.last() else { return false };
    let since = king_only_plies(positions, moves);
    positions.iter().rev().take(since + 1).filter(|p| *p == current).count() >= 3
}
