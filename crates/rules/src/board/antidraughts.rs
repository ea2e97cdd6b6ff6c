//! Antidraughts and Breakthrough (docs/rules.md, "Antidraughts" and "Breakthrough"): the
//! International game's moves ([`MajorityCapture`]) with other game ends, as lidraughts plays
//! them. Each is a rule set with a referee of its own.

use super::bits::Bits;
use super::fmjd::is_threefold_repetition;
use super::game::{BoardDrawReason, BoardOutcome, BoardWinReason};
use super::geometry::Dark10;
use super::movegen::MajorityCapture;
use super::moves::BoardMove;
use super::position::{Board, RuleSet};
use super::rules::{no_legal_move_loses, side_without_move, Referee};
use crate::position::Color;

/// Antidraughts (lidraughts' `antidraughts`): International draughts played to lose: the side
/// to move that has no legal move, no pieces left or all blocked, wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Antidraughts;

impl RuleSet for Antidraughts {
    type Geometry = Dark10;
    type Moves = MajorityCapture;
    type Referee = AntidraughtsReferee;
    const NAME: &'static str = "antidraughts";
    const START_ROWS: u32 = 4;
}

/// The end of an Antidraughts game: the side to move without a legal move wins; the third
/// repetition of a position draws. No other draw rule applies (lidraughts has none for it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AntidraughtsReferee;

impl<V: RuleSet> Referee<V> for AntidraughtsReferee {
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = positions.last()?;
        if let Some(winner) = side_without_move(position) {
            return Some(BoardOutcome::VariantWin { winner, reason: BoardWinReason::NoMovesLeft });
        }
        is_threefold_repetition(positions, moves)
            .then_some(BoardOutcome::Draw { reason: BoardDrawReason::ThreefoldRepetition })
    }
}

/// Breakthrough (lidraughts' `breakthrough`): International draughts won by the first side to
/// crown a king; a side to move without a legal move still loses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl RuleSet for Breakthrough {
    type Geometry = Dark10;
    type Moves = MajorityCapture;
    type Referee = BreakthroughReferee;
    const NAME: &'static str = "breakthrough";
    const START_ROWS: u32 = 4;
}

/// The end of a Breakthrough game, in lidraughts' order: the side to move without a legal
/// move loses; otherwise a side with a king has won (White first, for a start position that
/// has kings of both). There is no draw rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BreakthroughReferee;

impl<V: RuleSet> Referee<V> for BreakthroughReferee {
    fn decide(positions: &[Board<V>], _moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = positions.last()?;
        if let Some(outcome) = no_legal_move_loses(position) {
            return Some(outcome);
        }
        [Color::White, Color::Black]
            .into_iter()
            .find(|&color| position.has_king(color))
            .map(|winner| BoardOutcome::VariantWin { winner, reason: BoardWinReason::FirstKing })
    }
}

impl<V: RuleSet> Board<V> {
    fn has_king(&self, color: Color) -> bool {
        !(self.side_bits(color) & self.kings).is_zero()
    }
}
