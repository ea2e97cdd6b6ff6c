//! Typed errors of the rules library, one enum per kind of input. The input they quote is
//! shown escaped and cut (see `shown`).

use thiserror::Error;

use crate::moves::Move;
use crate::position::{Color, Position};
use crate::shown::excerpt;
use crate::square::Square;

/// A variant name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant `{}` (expected `english` or `russian`)", excerpt(.0))]
pub struct VariantError(pub String);

/// FEN text that cannot be read at all (a syntax error).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN side to move must be `W` or `B`, found `{}`", excerpt(.0))]
    BadTurn(String),
    #[error("FEN piece list must start with `W` or `B`, found `{}`", excerpt(.0))]
    BadColor(String),
    #[error("FEN names the {0} pieces twice")]
    ColorTwice(&'static str),
    #[error("FEN square `{}` is not a square (expected 1-32 or a dark square a1-h8)", excerpt(.0))]
    BadSquare(String),
    #[error("FEN range `{}` is not a range of squares", excerpt(.0))]
    BadRange(String),
    #[error("FEN has {0} fields separated by `:`; expected 3 (turn, one side, the other)")]
    FieldCount(usize),
}

/// Why FEN text did not give a position: it could not be read, or it reads as a position that
/// breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenLoadError {
    #[error("malformed FEN: {0}")]
    Syntax(FenError),
    #[error("invalid position: {0}")]
    Invalid(PositionError),
}

// Written out rather than `#[from]`, which would also make the inner error the `source` and
// print it twice in an error chain.
impl From<FenError> for FenLoadError {
    fn from(e: FenError) -> Self {
        FenLoadError::Syntax(e)
    }
}
impl From<PositionError> for FenLoadError {
    fn from(e: PositionError) -> Self {
        FenLoadError::Invalid(e)
    }
}

/// A position that parses but breaks the rules of the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("no side to move")]
    NoSideToMove,
    #[error("square {0} holds two pieces")]
    SquareTwice(Square),
    #[error("{color:?} man on square {square}, its crowning row")]
    ManOnCrowningRow { square: Square, color: Color },
    #[error("{color:?} has {count} pieces; at most 12 fit on the board")]
    TooManyPieces { color: Color, count: u32 },
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {attempted:?} in {position:?}")]
pub struct IllegalMove {
    /// The position, unchanged.
    pub position: Position,
    pub attempted: Move,
}
