//! What can be wrong in PDN text, and in a tag set on a game.

use thiserror::Error;

use crate::board::BoardFenLoadError;
use crate::error::FenLoadError;
use crate::shown::{escape_controls, excerpt};

use super::game_type::known_game_types;

/// A tag that cannot be set on a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdnTagError {
    #[error("tag name `{}` must be letters, digits or `_`", excerpt(.0))]
    BadName(String),
    #[error("tag `{}` is not set as text: use the game's result, variant or start position", excerpt(.0))]
    Reserved(String),
}

/// Why PDN text could not be read: which game, where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("PDN game {game}{}, line {line}: {kind}", describe_game(.event, .black, .white))]
pub struct PdnError {
    /// The game's number in the text, from 1.
    pub game: usize,
    pub event: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The line of the text (from 1) where the problem is.
    pub line: usize,
    /// What was wrong (boxed to keep `Result`s small).
    pub kind: Box<PdnErrorKind>,
}

fn describe_game(event: &Option<String>, black: &Option<String>, white: &Option<String>) -> String {
    let parts: Vec<String> = [("Event", event), ("Black", black), ("White", white)]
        .iter()
        .filter_map(|(name, v)| v.as_ref().map(|v| format!("{name} \"{}\"", escape_controls(v))))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// What was wrong in PDN text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdnErrorKind {
    #[error("bad tag `{}`: {reason}", excerpt(.text))]
    BadTag { text: String, reason: &'static str },
    #[error("tag value never closed (missing `\"`)")]
    UnterminatedTag,
    #[error("comment never closed (missing `}}`)")]
    UnterminatedComment,
    #[error("variation never closed (missing `)`)")]
    UnterminatedVariation,
    #[error("unexpected `{0}`")]
    UnexpectedChar(char),
    #[error("GameType `{}` does not start with a number", excerpt(.0))]
    BadGameType(String),
    /// A GameType the 8x8 reader ([`read_pdn`](super::read_pdn)) does not read: it reads
    /// English and Russian only.
    #[error("GameType {0} is not a variant we play (21 English, 25 Russian)")]
    UnsupportedGameType(u32),
    /// A GameType that names no variant the library knows.
    #[error("GameType {0} is not a variant we play (known: {known})", known = known_game_types())]
    UnknownGameType(u32),
    /// A GameType of another variant than the one the reader was asked for.
    #[error("GameType {found} is {found_variant}, not {expected}")]
    WrongGameType { found: u32, found_variant: &'static str, expected: &'static str },
    /// A FEN tag that is no position of the board variant's board.
    #[error("bad FEN `{}`: {error}", excerpt(.fen))]
    BadBoardFen { fen: String, error: BoardFenLoadError },
    #[error("bad FEN `{}`: {error}", excerpt(.fen))]
    BadFen { fen: String, error: FenLoadError },
    #[error("SetUp is \"1\" but there is no FEN tag")]
    MissingFen,
    #[error("move {number} `{}` is not a move: {detail}", excerpt(.text))]
    NotAMove { number: String, text: String, detail: String },
    #[error("move {number} `{}` is illegal: {reason}", excerpt(.text))]
    IllegalMove { number: String, text: String, reason: String },
    #[error("move {number} `{}` is ambiguous: it could be {}", excerpt(.text), candidates.join(" or "))]
    AmbiguousMove { number: String, text: String, candidates: Vec<String> },
}
