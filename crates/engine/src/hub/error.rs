//! Why a Hub line was refused, and why a move's text names no legal move.

use std::borrow::Cow;

use thiserror::Error;

/// Why a line was refused. Each becomes an `error message="..."` answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HubError {
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    #[error("unterminated quote in `{0}`")]
    UnterminatedQuote(String),
    #[error("`{command}` needs `{argument}=...`")]
    MissingArgument { command: String, argument: &'static str },
    #[error("bad value `{value}` for `{argument}`: expected {expected}")]
    BadValue { argument: String, value: String, expected: Cow<'static, str> },
    #[error("unknown parameter `{0}` (known: variant, numbering, hash, threads, book)")]
    UnknownParameter(String),
    #[error("bad position `{text}`: {reason}")]
    BadPosition { text: String, reason: String },
    #[error("bad move {index} `{text}` in moves: {reason}")]
    BadMove { index: usize, text: String, reason: MoveTextError },
    #[error("no position to search: send `pos pos=...` first")]
    NoPosition,
    #[error("`level` needs one of depth, nodes, move-time, time or infinite")]
    EmptyLevel,
    #[error("`{0}` cannot be used during a search (only ping, stop, ponder-hit and quit)")]
    Busy(String),
    #[error("`go` needs think, ponder or analyze, found `{0}`")]
    BadGoMode(String),
    #[error("no legal move: the side to move has lost")]
    NoLegalMove,
    /// In Antidraughts the side without a move has won.
    #[error("no legal move: the side to move has won")]
    NoLegalMoveWins,
    #[error("the line is not UTF-8 text")]
    NotText,
    #[error("the line is longer than {0} bytes")]
    TooLong(usize),
}

/// Why Hub move text names no legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveTextError {
    #[error("expected from-to or fromxtoxcaptured...")]
    Shape,
    /// `squares` says how the squares are named: `1-32`, `1-50`, `a1 to h8`.
    #[error("`{text}` is not a square {squares}")]
    NotASquare { text: String, squares: String },
    #[error("a captured square is named twice")]
    CapturedTwice,
    #[error("a capture is written with x, a quiet move with -")]
    WrongSeparator,
    /// `fromxto` alone, where more than one capture joins the two squares (the moves it
    /// could be, in Hub form).
    #[error("it could be {0}: name the captured squares")]
    Ambiguous(String),
    /// The squares are read but no legal move joins them: the rules' explanation.
    #[error("{0}")]
    Illegal(String),
}
