//! Games of the International family: a start position, the moves played, and the outcome
//! with its reason (docs/rules.md, "Games and draws (International family)").
//!
//! The outcome is decided after every move by the variant's [`Referee`] (the FMJD's rules for
//! the International family: [`FmjdReferee`](super::FmjdReferee)). Agreement and resignation
//! are declared by the players.

use std::fmt;

use thiserror::Error;

use super::moves::{BoardMove, BoardMoves};
use super::notation::{BoardIllegalReason, BoardMoveTextError};
use super::position::{Board, RuleSet};
use super::rules::Referee;
use crate::game::WinReason;
use crate::position::Color;

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
    /// The same position, with the same side to move, as many times as the variant's rules
    /// allow (other than three: Italian draughts draws at the fourth).
    Repetition,
    /// The variant's limit of moves in which only kings moved and nothing was captured
    /// (Italian: 40 moves each; Spanish and Portuguese: 20 each).
    KingMoveLimit,
    /// Frisian: two kings against one king, no men: 7 moves of each side.
    TwoKingsAgainstOne,
    /// Frisian: one king each, no men: 2 moves of each side.
    OneKingEach,
    /// Turkish draughts: one piece against one, and the side to move cannot capture.
    OnePieceEach,
}

/// How a game of the International family ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardOutcome {
    /// [`WinReason::NoLegalMove`] on the board; [`WinReason::Resignation`] and
    /// [`WinReason::Time`] declared.
    Win {
        winner: Color,
        reason: WinReason,
    },
    Draw {
        reason: BoardDrawReason,
    },
    /// A win by a variant's own rule, one the crate-wide [`WinReason`] does not name.
    VariantWin {
        winner: Color,
        reason: BoardWinReason,
    },
}

/// Wins that only some variants know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardWinReason {
    /// Antidraughts: the winner, to move, has no legal move (no pieces left, or all blocked).
    NoMovesLeft,
    /// Breakthrough: the winner crowned the first king.
    FirstKing,
}

impl BoardOutcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            BoardOutcome::Win { winner, .. } => Some(*winner),
            BoardOutcome::Draw { .. } => None,
            BoardOutcome::VariantWin { winner, .. } => Some(*winner),
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
                    BoardDrawReason::Repetition => "the same position occurred as often as the rules allow",
                    BoardDrawReason::KingMoveLimit => {
                        "the limit of king moves without a capture or a man move"
                    }
                    BoardDrawReason::TwoKingsAgainstOne => "two kings against one king for 7 moves each",
                    BoardDrawReason::OneKingEach => "one king each for 2 moves each",
                    BoardDrawReason::OnePieceEach => "one piece against one",
                };
                write!(f, "Draw: {why}")
            }
            BoardOutcome::VariantWin { winner, reason } => {
                let why = match reason {
                    BoardWinReason::NoMovesLeft => "it has no legal move left",
                    BoardWinReason::FirstKing => "it crowned the first king",
                };
                write!(f, "{} wins: {why}", winner.name())
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
        game.outcome = V::Referee::decide(&game.positions, &game.moves);
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
        self.outcome = V::Referee::decide(&self.positions, &self.moves);
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

    /// `color` ran out of time (a game on a clock).
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), BoardGameError> {
        self.declare(BoardOutcome::Win { winner: color.opponent(), reason: WinReason::Time })
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
}
