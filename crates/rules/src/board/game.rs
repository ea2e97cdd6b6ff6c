//! Games of the International family: a start position, the moves played, and the outcome
//! with its reason (docs/rules.md, "Games and draws (International family)").
//!
//! The outcome is decided after every move, in this order: the side to move has no legal move
//! (it loses); threefold repetition; the 16- and 5-move endgame rules; the 25-move rule.
//! Agreement and resignation are declared by the players. Counts are moves of each side, so
//! 25 moves are 50 plies.

use std::fmt;

use thiserror::Error;

use super::bits::Bits;
use super::moves::{BoardMove, BoardMoves};
use super::notation::{BoardIllegalReason, BoardMoveTextError};
use super::position::{Board, RuleSet};
use crate::game::WinReason;
use crate::position::{Color, Role};

/// Why a game of the International family was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardDrawReason {
    Agreement,
    /// The same position, with the same side to move, for the third time.
    ThreefoldRepetition,
    /// 25 moves of each side in which only kings moved and nothing was captured.
    TwentyFiveMoveRule,
    /// Three pieces, at least one a king, against a lone king: 16 moves of each side.
    SixteenMoveRule,
    /// One or two pieces, at least one a king, against a lone king: 5 moves of each side.
    FiveMoveRule,
}

/// How a game of the International family ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardOutcome {
    /// Only [`WinReason::NoLegalMove`] and [`WinReason::Resignation`] arise here.
    Win {
        winner: Color,
        reason: WinReason,
    },
    Draw {
        reason: BoardDrawReason,
    },
}

impl BoardOutcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            BoardOutcome::Win { winner, .. } => Some(*winner),
            BoardOutcome::Draw { .. } => None,
        }
    }
}

impl fmt::Display for BoardOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardOutcome::Win { winner, reason } => {
                let loser = winner.opponent().name();
                let why = match reason {
                    WinReason::NoLegalMove => format!("{loser} has no legal move"),
                    WinReason::Resignation => format!("{loser} resigned"),
                    WinReason::Time => format!("{loser} ran out of time"),
                };
                write!(f, "{} wins: {why}", winner.name())
            }
            BoardOutcome::Draw { reason } => {
                let why = match reason {
                    BoardDrawReason::Agreement => "by agreement",
                    BoardDrawReason::ThreefoldRepetition => "the same position occurred three times",
                    BoardDrawReason::TwentyFiveMoveRule => "25 moves each of kings only without a capture",
                    BoardDrawReason::SixteenMoveRule => "three pieces against a lone king for 16 moves each",
                    BoardDrawReason::FiveMoveRule => "one or two pieces against a lone king for 5 moves each",
                };
                write!(f, "Draw: {why}")
            }
        }
    }
}

/// Why a game did not accept a move or a declaration.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardGameError {
    #[error("the game is over ({0})")]
    GameOver(BoardOutcome),
    #[error("{text} is not a legal move here: {reason}")]
    IllegalMove { text: String, reason: BoardIllegalReason },
    #[error(transparent)]
    MoveText(#[from] BoardMoveTextError),
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

/// A game: where it started, every move since, and how it ended (if it has).
pub struct BoardGame<V: RuleSet> {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Board<V>>,
    moves: Vec<BoardMove<V>>,
    outcome: Option<BoardOutcome>,
}

impl<V: RuleSet> Clone for BoardGame<V> {
    fn clone(&self) -> Self {
        BoardGame { positions: self.positions.clone(), moves: self.moves.clone(), outcome: self.outcome }
    }
}

impl<V: RuleSet> fmt::Debug for BoardGame<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardGame")
            .field("start", &self.positions[0])
            .field("moves", &self.moves)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl<V: RuleSet> Default for BoardGame<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: RuleSet> BoardGame<V> {
    /// A game from the variant's start position.
    pub fn new() -> BoardGame<V> {
        Self::from_position(Board::start())
    }

    /// A game from any valid position (it may already be over: no legal move).
    pub fn from_position(start: Board<V>) -> BoardGame<V> {
        let mut game = BoardGame { positions: vec![start], moves: Vec::new(), outcome: None };
        game.outcome = game.decide();
        game
    }

    pub fn start(&self) -> Board<V> {
        self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> Board<V> {
        *self.positions.last().expect("a game has a start")
    }

    pub fn moves(&self) -> &[BoardMove<V>] {
        &self.moves
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> &[Board<V>] {
        &self.positions
    }

    pub fn outcome(&self) -> Option<BoardOutcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> BoardMoves<V> {
        if self.is_over() {
            BoardMoves::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a legal move and decides the outcome.
    pub fn play(&mut self, mv: BoardMove<V>) -> Result<(), BoardGameError> {
        if let Some(outcome) = self.outcome {
            return Err(BoardGameError::GameOver(outcome));
        }
        let position = self.position();
        if !position.is_legal(&mv) {
            let reason = position.illegal_reason(mv.from());
            return Err(BoardGameError::IllegalMove { text: mv.to_short(), reason });
        }
        self.positions.push(position.play_unchecked(&mv));
        self.moves.push(mv);
        self.outcome = self.decide();
        Ok(())
    }

    /// Reads move text (see [`Board::parse_move`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<BoardMove<V>, BoardGameError> {
        if let Some(outcome) = self.outcome {
            return Err(BoardGameError::GameOver(outcome));
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), BoardGameError> {
        self.declare(BoardOutcome::Win { winner: color.opponent(), reason: WinReason::Resignation })
    }

    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), BoardGameError> {
        self.declare(BoardOutcome::Draw { reason: BoardDrawReason::Agreement })
    }

    fn declare(&mut self, outcome: BoardOutcome) -> Result<(), BoardGameError> {
        if let Some(over) = self.outcome {
            return Err(BoardGameError::GameOver(over));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Whether move `i` moved a king without capturing: the only moves that can be undone on
    /// the board, and the only ones the 25-move rule lets pass.
    fn is_king_move(&self, i: usize) -> bool {
        let mv = &self.moves[i];
        !mv.is_capture() && self.positions[i].piece_at(mv.from()).is_some_and(|p| p.role == Role::King)
    }

    /// Plies since the last capture or man move (or the start).
    fn king_only_plies(&self) -> usize {
        (0..self.moves.len()).rev().take_while(|&i| self.is_king_move(i)).count()
    }

    /// Plies in the unbroken run of positions, up to now, whose ending is one of `classes`:
    /// the moves counted since the game entered it.
    fn plies_in(&self, classes: &[Ending]) -> usize {
        let run =
            self.positions.iter().rev().take_while(|p| ending(*p).is_some_and(|e| classes.contains(&e)));
        run.count().saturating_sub(1)
    }

    /// The outcome the board itself dictates now, if any.
    fn decide(&self) -> Option<BoardOutcome> {
        let position = self.position();
        if !position.has_legal_move() {
            return Some(BoardOutcome::Win {
                winner: position.turn().opponent(),
                reason: WinReason::NoLegalMove,
            });
        }
        let draw = |reason| Some(BoardOutcome::Draw { reason });
        if self.is_threefold_repetition() {
            return draw(BoardDrawReason::ThreefoldRepetition);
        }
        match ending(&position) {
            Some(Ending::Sixteen) if self.plies_in(&[Ending::Sixteen]) >= 32 => {
                return draw(BoardDrawReason::SixteenMoveRule);
            }
            Some(Ending::Five) => {
                if self.plies_in(&[Ending::Five]) >= 10 {
                    return draw(BoardDrawReason::FiveMoveRule);
                }
                // A 16-move count that was running when a capture brought the game down to
                // this ending still ends the game at its 16th move.
                if self.plies_in(&[Ending::Five, Ending::Sixteen]) >= 32 {
                    return draw(BoardDrawReason::SixteenMoveRule);
                }
            }
            _ => {}
        }
        if self.king_only_plies() >= 50 {
            return draw(BoardDrawReason::TwentyFiveMoveRule);
        }
        None
    }

    fn is_threefold_repetition(&self) -> bool {
        let current = self.position();
        let since = self.king_only_plies();
        self.positions.iter().rev().take(since + 1).filter(|p| **p == current).count() >= 3
    }
}
