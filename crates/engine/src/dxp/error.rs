//! Why a DXP message could not be read, and why the session refused what its own program
//! asked of it.

use thiserror::Error;

/// Why bytes received are not a DXP message. Each is answered with a CHAT naming it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MessageError {
    #[error("an empty message")]
    Empty,
    #[error("a message of {0} bytes (at most 127 before the NUL)")]
    TooLong(usize),
    #[error("byte {at} is {byte:#04x}: messages are ASCII characters 1-127")]
    NotAscii { at: usize, byte: u8 },
    #[error("unknown message type `{0}` (known: R A M E C B K)")]
    UnknownType(char),
    #[error("{kind} of {length} characters ends before its {field}")]
    Short { kind: &'static str, field: &'static str, length: usize },
    #[error("{kind} of {length} characters has more after its last field (expected {expected})")]
    Trailing { kind: &'static str, length: usize, expected: usize },
    #[error("{kind}'s {field} `{text}` is not all digits")]
    NotDigits { kind: &'static str, field: &'static str, text: String },
    #[error("{kind}'s {field} is `{found}`, expected one of {allowed}")]
    BadLetter { kind: &'static str, field: &'static str, found: char, allowed: &'static str },
    #[error("GAMEREQ's square {square} is `{found}`, expected one of e w z W Z")]
    BadSquare { square: usize, found: char },
    #[error("MOVE of {length} characters for {count} captured pieces (expected {expected} characters)")]
    CapturedCount { count: usize, length: usize, expected: usize },
}

/// Why the session did not do what its own program asked (a mistake of the caller, not of
/// the peer).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SessionError {
    #[error("only the initiator asks for games")]
    NotInitiator,
    #[error("a game is in progress or being asked for")]
    GameInProgress,
    #[error("the conversation is over")]
    Closed,
    #[error("it is not our turn to move")]
    NotOurTurn,
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
    #[error("the start position has no legal move: {0}")]
    StartIsOver(String),
}
