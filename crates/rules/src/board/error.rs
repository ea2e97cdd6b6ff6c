//! Typed errors of the boards of any size: FEN syntax, position validity, illegal moves.
//! Quoted input is shown escaped and cut (see `shown`).

use thiserror::Error;

use crate::position::Color;
use crate::shown::excerpt;

/// FEN text that cannot be read at all (a syntax error).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN side to move must be `W` or `B`, found `{}`", excerpt(.0))]
    BadTurn(String),
    #[error("FEN piece list must start with `W` or `B`, found `{}`", excerpt(.0))]
    BadColor(String),
    #[error("FEN names the {0} pieces twice")]
    ColorTwice(&'static str),
    /// Not a number of a square of this board: a number past the last square (`51` on
    /// 10x10), or an algebraic name (`c3`, as 8x8 FEN may use), which these boards don't use.
    #[error("FEN square `{}` is not a square of the {side}x{side} board (squares are numbers 1-{squares})", excerpt(.text))]
    BadSquare { text: String, side: u32, squares: u32 },
    #[error("FEN range `{}` is not a range of squares 1-{squares}", excerpt(.text))]
    BadRange { text: String, squares: u32 },
    #[error("FEN has {0} fields separated by `:`; expected 3 (turn, one side, the other)")]
    FieldCount(usize),
    /// Not a square (or a range of squares) of a board whose squares have names, such as
    /// Turkish draughts' `a1`-`h8`.
    #[error("FEN square `{}` is not a square of the board (squares are {names})", excerpt(.text))]
    BadSquareName { text: String, names: String },
}

/// A position that reads but breaks the rules of the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardPositionError {
    #[error("no side to move")]
    NoSideToMove,
    #[error("square {square} is not on the board (squares are 1-{squares})")]
    NoSuchSquare { square: u32, squares: u32 },
    #[error("square {0} holds two pieces")]
    SquareTwice(u32),
    #[error("{color:?} man on square {square}, its crowning row")]
    ManOnCrowningRow { square: u32, color: Color },
    #[error("{color:?} has {count} pieces; at most {most} fit on the board")]
    TooManyPieces { color: Color, count: u32, most: u32 },
}

/// Why FEN text did not give a position: it could not be read, or what it says breaks the
/// rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFenLoadError {
    #[error("malformed FEN: {0}")]
    Syntax(BoardFenError),
    #[error("invalid position: {0}")]
    Invalid(BoardPositionError),
}

// Written out rather than `#[from]`, which would also make the inner error the `source` and
// print it twice in an error chain.
impl From<BoardFenError> for BoardFenLoadError {
    fn from(e: BoardFenError) -> Self {
        BoardFenLoadError::Syntax(e)
    }
}
impl From<BoardPositionError> for BoardFenLoadError {
    fn from(e: BoardPositionError) -> Self {
        BoardFenLoadError::Invalid(e)
    }
}
