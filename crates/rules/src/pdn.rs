//! PDN games: reading and writing whole games (tags, start position, moves, comments, result).
//!
//! # What is kept
//!
//! A [`PdnGame`] holds the descriptive tags (Event, Site, Date, Round, Black, White first, in
//! that order, then every other tag in the order it was read or set), the start position (from
//! the `FEN` tag, otherwise the variant's start), the moves as legal [`Move`]s, one optional
//! comment after each move (and one before the first), and the result. The tags `Result`,
//! `GameType`, `SetUp` and `FEN` are not kept as text: they are what [`PdnGame::result`],
//! [`PdnGame::variant`] and [`PdnGame::start`] say, and the writer derives them from those.
//!
//! # Reading
//!
//! [`read_pdn`] accepts what PDN files in the wild contain (the liberal reading grammar of PDN
//! 3.0): tags `[Name "value"]` with `\"` and `\\` escapes, move numbers (`1.`, `1...`, `12.`,
//! even glued as `1.32-28`), moves in numeric or algebraic form, long or short, with `-`, `x`
//! or `:` (resolved with [`Position::parse_move`] against the position, so every move is
//! checked), `{...}` and `;` comments, nested `( ... )` variations, NAGs (`$12`), move
//! annotations (`!`, `?`, `!?`, `(?)`), `%` escape lines, any number of games in one text, a
//! byte-order mark and CRLF line ends. Variations and NAGs are skipped. `GameType` gives the
//! variant by its first number (`21,B,8,8,N1,0` is 21): 21 English, 25 Russian; English when
//! absent. A bad game gives a [`PdnError`] naming the game (its number in the text and its
//! Event and players), the line, the move (number and text) and what is wrong: [`read_pdn`]
//! stops there, [`read_pdn_each`] goes on with the next game.
//!
//! # Results: what `1-0` means
//!
//! PDN 3.0 (pdn.fmjd.org, "PDN Tags" and "GameType tag") gives English (21) and Russian (25)
//! the *default* result set `1-0`, `0-1`, `1/2-1/2`, `0-0` (both lose), `*`; the `2-0`, `1-1`,
//! `0-2` scoring belongs to International and Canadian draughts. The standard does not say
//! which side the first figure belongs to. We follow CheckerBoard (the GUI of KingsRow and
//! Cake, whose files are most of the English checkers games in circulation): its
//! `pdn_result_to_string` writes `1-0` when **the side that moves first in the variant** wins,
//! so `1-0` is a Black win in English checkers and a White win in Russian draughts. The figures
//! thus always read "first player - second player", as the move pairs do. On input we also
//! accept `2-0`, `0-2`, `1-1` with the same orientation (as CheckerBoard reads `1-1`); the
//! writer uses only the default set.
//!
//! When the `Result` tag and the result after the moves disagree, the one after the moves wins
//! unless it is `*`.
//!
//! # Writing
//!
//! [`PdnGame::to_pdn`] writes one canonical form: tags Event, Site, Date, Round, Black, White
//! (those present), then `Result`, `GameType` (`21` or `25`), `SetUp "1"` and `FEN` when the
//! game does not start from the start position, then the other tags; a blank line; the moves in
//! long form with move numbers (`1. 11-15 23-19 2. 8-11`, or `1... 23-19` when the side that
//! normally moves second starts), comments in braces, lines wrapped at 80 characters, and the
//! result. Squares are numeric unless [`PdnGame::to_pdn_with`] asks for algebraic ones (Russian
//! captures are then written with `:`, as PDN 3.0 gives for GameType 25). Reading that text
//! gives back an equal game, and writing a game read from canonical text gives the same text.
//!
//! ```
//! use checkers_rules::{read_pdn, Color, PdnResult};
//! let games = read_pdn("[Event \"Club\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0").unwrap();
//! assert_eq!(games[0].moves().len(), 4);
//! assert_eq!(games[0].result(), PdnResult::Win(Color::Black));
//! assert_eq!(
//!     games[0].to_pdn(),
//!     "[Event \"Club\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n"
//! );
//! ```

use thiserror::Error;

use crate::error::{FenLoadError, IllegalMove};
use crate::fen::{to_fen_with, SquareNotation};
use crate::moves::Move;
use crate::notation::MoveTextError;
use crate::position::{Color, Position, Variant};

/// Tags written first, in this order (the PDN "seven tag roster" less Result, in the order
/// checkers players list them: Black moves first in English).
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "Black", "White"];

/// Tags the game keeps as structure rather than text (compared without case when reading).
const RESERVED: [&str; 4] = ["Result", "GameType", "SetUp", "FEN"];

/// Where the writer breaks lines.
const LINE_WIDTH: usize = 80;

/// How a game ended, as PDN records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PdnResult {
    /// This side won.
    Win(Color),
    Draw,
    /// Both sides lost (`0-0`, a double forfeit).
    DoubleForfeit,
    /// Unfinished, or the result is not known (`*`).
    #[default]
    Unknown,
}

impl PdnResult {
    /// Reads a result as PDN writes it in `variant`: the first figure is the score of the side
    /// that moves first in the variant (see the module documentation).
    pub fn parse(text: &str, variant: Variant) -> Option<PdnResult> {
        let first = variant.first_to_move();
        match text.trim() {
            "1-0" | "2-0" => Some(PdnResult::Win(first)),
            "0-1" | "0-2" => Some(PdnResult::Win(first.opponent())),
            "1/2-1/2" | "1-1" | "\u{bd}-\u{bd}" => Some(PdnResult::Draw),
            "0-0" => Some(PdnResult::DoubleForfeit),
            "*" => Some(PdnResult::Unknown),
            _ => None,
        }
    }

    /// The result as PDN writes it in `variant`.
    pub fn to_pdn(self, variant: Variant) -> &'static str {
        match self {
            PdnResult::Win(color) if color == variant.first_to_move() => "1-0",
            PdnResult::Win(_) => "0-1",
            PdnResult::Draw => "1/2-1/2",
            PdnResult::DoubleForfeit => "0-0",
            PdnResult::Unknown => "*",
        }
    }
}

/// A tag that cannot be set on a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PdnTagError {
    #[error("tag name `{0}` must be letters, digits or `_`")]
    BadName(String),
    #[error("tag `{0}` is not set as text: use the game's result, variant or start position")]
    Reserved(String),
}

/// A game as PDN records it. See the module documentation for what is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    tags: Vec<(String, String)>,
    start: Position,
    moves: Vec<Move>,
    /// `comments[i]` follows `moves[i]`.
    comments: Vec<Option<String>>,
    opening_comment: Option<String>,
    result: PdnResult,
    /// The position after the last move (derived from `start` and `moves`).
    end: Position,
}

impl PdnGame {
    /// A game from the start position of `variant`, with no tags and no moves.
    pub fn new(variant: Variant) -> PdnGame {
        PdnGame::from_position(Position::start(variant))
    }

    /// A game from `start`, with no tags and no moves.
    pub fn from_position(start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            opening_comment: None,
            result: PdnResult::Unknown,
            end: start,
        }
    }

    pub fn variant(&self) -> Variant {
        self.start.variant()
    }
    /// The position the game starts from.
    pub fn start(&self) -> Position {
        self.start
    }
    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        self.end
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn result(&self) -> PdnResult {
        self.result
    }
    pub fn set_result(&mut self, result: PdnResult) {
        self.result = result;
    }

    /// Plays `mv` after the last move, if it is legal there.
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.end = self.end.try_play(&mv)?;
        self.moves.push(mv);
        self.comments.push(None);
        Ok(())
    }

    /// The positions before each move and after the last: `moves().len() + 1` of them.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for mv in &self.moves {
            pos = pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }

    /// The tags: Event, Site, Date, Round, Black, White (those set) first, then the others.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a tag, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag (replacing its value if it is there). Control characters in the value become
    /// spaces, as they would on the way through a file.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        if !is_tag_name(name) {
            return Err(PdnTagError::BadName(name.to_string()));
        }
        if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
            return Err(PdnTagError::Reserved(name.to_string()));
        }
        let value = normalize_tag_value(value);
        if let Some(slot) = self.tags.iter_mut().find(|(n, _)| n == name) {
            slot.1 = value;
            return Ok(());
        }
        let at = match ROSTER.iter().position(|r| *r == name) {
            Some(rank) => self
                .tags
                .iter()
                .take_while(|(n, _)| ROSTER.iter().position(|r| r == n).is_some_and(|i| i < rank))
                .count(),
            None => self.tags.len(),
        };
        self.tags.insert(at, (name.to_string(), value));
        Ok(())
    }

    /// Removes a tag; returns its value if it was set.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let i = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(i).1)
    }

    /// The comment after move `index` (0 = the first move), if any.
    pub fn comment(&self, index: usize) -> Option<&str> {
        self.comments.get(index).and_then(|c| c.as_deref())
    }

    /// Sets the comment after move `index`; returns false if there is no such move. The text is
    /// stored as it will read back from a file: runs of white space become one space, `}`
    /// becomes `)`, and an empty comment is none.
    pub fn set_comment(&mut self, index: usize, text: &str) -> bool {
        match self.comments.get_mut(index) {
            Some(slot) => {
                *slot = normalize_comment(text);
                true
            }
            None => false,
        }
    }

    /// The comment before the first move, if any.
    pub fn opening_comment(&self) -> Option<&str> {
        self.opening_comment.as_deref()
    }

    /// Sets the comment before the first move (normalised as in [`PdnGame::set_comment`]).
    pub fn set_opening_comment(&mut self, text: &str) {
        self.opening_comment = normalize_comment(text);
    }

    /// This game as PDN text, squares numbered 1-32.
    pub fn to_pdn(&self) -> String {
        self.to_pdn_with(SquareNotation::Numeric)
    }

    /// This game as PDN text, squares in `notation` (moves and FEN).
    pub fn to_pdn_with(&self, notation: SquareNotation) -> String {
        let variant = self.variant();
        let mut out = String::new();
        let tag_line = |out: &mut String, name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag_value(value)));
        };
        let in_roster = |name: &str| ROSTER.contains(&name);
        for (name, value) in self.tags.iter().filter(|(n, _)| in_roster(n)) {
            tag_line(&mut out, name, value);
        }
        tag_line(&mut out, "Result", self.result.to_pdn(variant));
        tag_line(&mut out, "GameType", &variant.pdn_game_type().to_string());
        if self.start != Position::start(variant) {
            tag_line(&mut out, "SetUp", "1");
            tag_line(&mut out, "FEN", &to_fen_with(&self.start, notation));
        }
        for (name, value) in self.tags.iter().filter(|(n, _)| !in_roster(n)) {
            tag_line(&mut out, name, value);
        }
        out.push('\n');

        // Units that are never split across lines: a move with its number, or one word of a
        // comment.
        let mut units: Vec<String> = Vec::new();
        let push_comment = |units: &mut Vec<String>, text: &str| {
            let words: Vec<&str> = text.split(' ').collect();
            let last = words.len() - 1;
            for (i, word) in words.iter().enumerate() {
                let open = if i == 0 { "{" } else { "" };
                let close = if i == last { "}" } else { "" };
                units.push(format!("{open}{word}{close}"));
            }
        };
        if let Some(text) = &self.opening_comment {
            push_comment(&mut units, text);
        }
        let offset = usize::from(self.start.turn() != variant.first_to_move());
        let mut pos = self.start;
        for (i, mv) in self.moves.iter().enumerate() {
            let mut text = mv.to_pdn(&pos, notation);
            if notation == SquareNotation::Algebraic && variant == Variant::Russian {
                text = text.replace('x', ":");
            }
            let ply = i + offset;
            let unit = if ply % 2 == 0 {
                format!("{}. {text}", ply / 2 + 1)
            } else if i == 0 {
                format!("{}... {text}", ply / 2 + 1)
            } else {
                text
            };
            units.push(unit);
            if let Some(Some(text)) = self.comments.get(i) {
                push_comment(&mut units, text);
            }
            pos = pos.play_unchecked(mv);
        }
        units.push(self.result.to_pdn(variant).to_string());

        let mut line = String::new();
        for unit in units {
            if !line.is_empty() && line.len() + 1 + unit.len() > LINE_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&unit);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// The `Date` tag value (`2026.11.30`) of a day counted from 1970-01-01, in the proleptic
/// Gregorian calendar (H. Hinnant's civil-from-days algorithm).
pub fn pdn_date(days_since_epoch: i64) -> String {
    let z = days_since_epoch + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Several games as one PDN text, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    write_pdn_with(games, SquareNotation::Numeric)
}

/// Several games as one PDN text, squares in `notation`.
pub fn write_pdn_with(games: &[PdnGame], notation: SquareNotation) -> String {
    games.iter().map(|g| g.to_pdn_with(notation)).collect::<Vec<_>>().join("\n")
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn normalize_tag_value(value: &str) -> String {
    value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn escape_tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

fn normalize_comment(text: &str) -> Option<String> {
    let joined = text.replace('}', ")").split_whitespace().collect::<Vec<_>>().join(" ");
    (!joined.is_empty()).then_some(joined)
}

// ---------------------------------------------------------------------------------------------
// Errors

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
        .filter_map(|(name, v)| v.as_ref().map(|v| format!("{name} \"{v}\"")))
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
    #[error("bad tag `{text}`: {reason}")]
    BadTag { text: String, reason: &'static str },
    #[error("tag value never closed (missing `\"`)")]
    UnterminatedTag,
    #[error("comment never closed (missing `}}`)")]
    UnterminatedComment,
    #[error("variation never closed (missing `)`)")]
    UnterminatedVariation,
    #[error("unexpected `{0}`")]
    UnexpectedChar(char),
    #[error("GameType `{0}` does not start with a number")]
    BadGameType(String),
    #[error("GameType {0} is not a variant we play (21 English, 25 Russian)")]
    UnsupportedGameType(u32),
    #[error("bad FEN `{fen}`: {error}")]
    BadFen { fen: String, error: FenLoadError },
    #[error("SetUp is \"1\" but there is no FEN tag")]
    MissingFen,
    #[error("move {number} `{text}` is not a move: {detail}")]
    NotAMove { number: String, text: String, detail: String },
    #[error("move {number} `{text}` is illegal: {reason}")]
    IllegalMove { number: String, text: String, reason: String },
    #[error("move {number} `{text}` is ambiguous: it could be {}", candidates.join(" or "))]
    AmbiguousMove { number: String, text: String, candidates: Vec<String> },
}

// ---------------------------------------------------------------------------------------------
// Reading: a lexer that turns text into tokens, and a parser that builds games from them.

/// Reads every game in PDN text; the first error stops the reading.
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    Parser::new(text).run().into_iter().collect()
}

/// Reads every game in PDN text, going on after a bad one: each game read, or the error that
/// stopped it, in the order of the text. After an error the rest of that game is skipped up
/// to its result or to the tags of the next game (an unclosed comment or variation swallows
/// the rest of the text).
pub fn read_pdn_each(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    Parser::new(text).run()
}

/// Reads PDN text holding exactly one game (none reads as an empty English game; the first
/// of several is returned).
pub fn read_pdn_game(text: &str) -> Result<PdnGame, PdnError> {
    Ok(read_pdn(text)?.into_iter().next().unwrap_or_else(|| PdnGame::new(Variant::English)))
}

#[derive(Debug)]
enum Token {
    Tag {
        name: String,
        value: String,
    },
    Comment(String),
    /// A variation, a NAG or a free-standing annotation: skipped.
    Ignored,
    Star,
    Word(String),
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Lexer {
    fn new(text: &str) -> Lexer {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        Lexer { chars: text.chars().collect(), at: 0, line: 1 }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.chars.get(self.at - 1) == Some(&'\n')
    }

    fn skip_to_line_end(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// The rest of the current line, shortened, to quote in an error.
    fn line_excerpt(&self, from: usize) -> String {
        let text: String =
            self.chars[from.min(self.chars.len())..].iter().take_while(|c| **c != '\n').take(40).collect();
        text.trim_end().to_string()
    }

    /// The next token and the line it starts on, or `None` at the end.
    fn next(&mut self) -> Result<Option<(Token, usize)>, (PdnErrorKind, usize)> {
        loop {
            let Some(c) = self.peek() else { return Ok(None) };
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
                continue;
            }
            if c == '%' && self.at_line_start() {
                self.skip_to_line_end();
                continue;
            }
            let line = self.line;
            let token = match c {
                '[' => self.tag()?,
                '{' => {
                    self.bump();
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            None => return Err((PdnErrorKind::UnterminatedComment, line)),
                            Some('}') => break,
                            Some(c) => text.push(c),
                        }
                    }
                    Token::Comment(text)
                }
                ';' => {
                    self.bump();
                    Token::Comment(self.skip_to_line_end())
                }
                '(' => {
                    self.variation(line)?;
                    Token::Ignored
                }
                ')' | ']' | '}' => {
                    self.bump(); // so that a reader going on after the error moves past it
                    return Err((PdnErrorKind::UnexpectedChar(c), line));
                }
                '$' => {
                    self.bump();
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    Token::Ignored
                }
                '*' => {
                    self.bump();
                    Token::Star
                }
                '!' | '?' => {
                    while self.peek().is_some_and(|c| c == '!' || c == '?') {
                        self.bump();
                    }
                    Token::Ignored
                }
                _ => Token::Word(self.word()),
            };
            return Ok(Some((token, line)));
        }
    }

    fn tag(&mut self) -> Result<Token, (PdnErrorKind, usize)> {
        let start = self.at;
        let line = self.line;
        self.bump(); // '['
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.bad_tag(start, line, "expected a tag name after `[`"));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(self.bad_tag(start, line, "expected a quoted value after the tag name"));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None => return Err((PdnErrorKind::UnterminatedTag, line)),
                Some('\\') if matches!(self.peek(), Some('"') | Some('\\')) => {
                    value.extend(self.bump());
                }
                // A quote that does not close the value (files with unescaped quotes inside)
                // is kept when a closing `"]` still follows on the same line.
                Some('"') if !self.closes_tag() && self.closing_later_on_line() => value.push('"'),
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(self.bad_tag(start, line, "expected `]` after the value"));
        }
        self.bump();
        Ok(Token::Tag { name, value: normalize_tag_value(&value) })
    }

    /// A malformed tag: quotes it and skips the rest of its line, which cannot be read as moves.
    fn bad_tag(&mut self, start: usize, line: usize, reason: &'static str) -> (PdnErrorKind, usize) {
        let text = self.line_excerpt(start);
        self.skip_to_line_end();
        (PdnErrorKind::BadTag { text, reason }, line)
    }

    /// Whether only blanks and then `]` follow.
    fn closes_tag(&self) -> bool {
        self.chars[self.at..].iter().find(|c| **c != ' ' && **c != '\t') == Some(&']')
    }

    /// Whether a `"` followed by blanks and `]` comes later on this line.
    fn closing_later_on_line(&self) -> bool {
        let rest: Vec<char> = self.chars[self.at..].iter().take_while(|c| **c != '\n').copied().collect();
        rest.iter()
            .enumerate()
            .any(|(i, c)| *c == '"' && rest[i + 1..].iter().find(|c| **c != ' ' && **c != '\t') == Some(&']'))
    }

    /// Skips a variation, nested ones and comments inside it included.
    fn variation(&mut self, line: usize) -> Result<(), (PdnErrorKind, usize)> {
        let mut depth = 0usize;
        loop {
            match self.bump() {
                None => return Err((PdnErrorKind::UnterminatedVariation, line)),
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some('{') => {
                    let comment_line = self.line;
                    loop {
                        match self.bump() {
                            None => return Err((PdnErrorKind::UnterminatedComment, comment_line)),
                            Some('}') => break,
                            Some(_) => {}
                        }
                    }
                }
                Some(';') => {
                    self.skip_to_line_end();
                }
                Some(_) => {}
            }
        }
    }

    /// A word: a move number, a move, a result. Trailing annotations (`!`, `?!`, `(?)`) are
    /// dropped.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "[]{}();$*".contains(c) {
                break;
            }
            word.push(c);
            self.bump();
        }
        // `29-23(?)`: a bracketed annotation glued to the move.
        if self.peek() == Some('(') {
            let mut j = self.at + 1;
            while self.chars.get(j).is_some_and(|c| *c == '!' || *c == '?') {
                j += 1;
            }
            if j > self.at + 1 && self.chars.get(j) == Some(&')') {
                while self.at <= j {
                    self.bump();
                }
            }
        }
        // The result `1/2-1/2` keeps its digits; only move annotations are stripped.
        word.trim_end_matches(['!', '?']).to_string()
    }
}

/// A game being read.
struct Pending {
    number: usize,
    /// Name, value and line of each tag read.
    raw_tags: Vec<(String, String, usize)>,
    opening_comments: Vec<String>,
    /// Set once the first move (or move number) is read.
    game: Option<PdnGame>,
    /// The result written after the moves, if read.
    terminator: Option<String>,
}

impl Pending {
    fn new(number: usize) -> Pending {
        Pending { number, raw_tags: Vec::new(), opening_comments: Vec::new(), game: None, terminator: None }
    }

    /// The value of a tag (the last if repeated, names compared without case) and its line.
    fn raw_tag(&self, name: &str) -> Option<(&str, usize)> {
        self.raw_tags
            .iter()
            .rev()
            .find(|(n, ..)| n.eq_ignore_ascii_case(name))
            .map(|(_, v, l)| (v.trim(), *l))
    }

    fn error(&self, line: usize, kind: PdnErrorKind) -> PdnError {
        let tag = |name| self.raw_tags.iter().rev().find(|(n, ..)| n == name).map(|(_, v, _)| v.clone());
        PdnError {
            game: self.number,
            event: tag("Event"),
            black: tag("Black"),
            white: tag("White"),
            line,
            kind: Box::new(kind),
        }
    }

    /// The game with its variant and start position from the tags (built on the first move).
    /// Errors name the line of the tag at fault.
    fn begin(&mut self) -> Result<&mut PdnGame, PdnError> {
        if self.game.is_none() {
            let variant = match self.raw_tag("GameType").filter(|(v, _)| !v.is_empty()) {
                None => Variant::English,
                Some((value, line)) => {
                    let first = value.split(',').next().unwrap_or("").trim();
                    let number: u32 = first
                        .parse()
                        .map_err(|_| self.error(line, PdnErrorKind::BadGameType(value.to_string())))?;
                    Variant::from_pdn_game_type(number)
                        .ok_or_else(|| self.error(line, PdnErrorKind::UnsupportedGameType(number)))?
                }
            };
            let fen = self.raw_tag("FEN").filter(|(v, _)| !v.is_empty());
            let start = match fen {
                Some((fen, line)) => Position::from_fen(variant, fen).map_err(|error| {
                    self.error(line, PdnErrorKind::BadFen { fen: fen.to_string(), error })
                })?,
                None => match self.raw_tag("SetUp") {
                    Some(("1", line)) => return Err(self.error(line, PdnErrorKind::MissingFen)),
                    _ => Position::start(variant),
                },
            };
            let mut game = PdnGame::from_position(start);
            for (name, value, _) in &self.raw_tags {
                // Reserved names are kept as structure; names the lexer accepted are valid.
                let _ = game.set_tag(name, value);
            }
            if !self.opening_comments.is_empty() {
                game.set_opening_comment(&self.opening_comments.join(" "));
            }
            self.game = Some(game);
        }
        Ok(self.game.as_mut().expect("set above"))
    }

    fn has_content(&self) -> bool {
        !self.raw_tags.is_empty() || self.game.is_some() || self.terminator.is_some()
    }

    fn finish(mut self) -> Result<PdnGame, PdnError> {
        self.begin()?;
        let tag_result = self.raw_tag("Result").map(|(v, _)| v.to_string());
        let terminator = self.terminator.take();
        let mut game = self.game.take().expect("begun above");
        let variant = game.variant();
        let parsed = |t: Option<&String>| t.and_then(|t| PdnResult::parse(t, variant));
        game.result = match parsed(terminator.as_ref()) {
            Some(r) if r != PdnResult::Unknown => r,
            _ => parsed(tag_result.as_ref()).unwrap_or(PdnResult::Unknown),
        };
        Ok(game)
    }

    fn add_comment(&mut self, text: &str) {
        match &mut self.game {
            Some(game) if !game.moves.is_empty() => {
                let i = game.moves.len() - 1;
                let joined = match &game.comments[i] {
                    Some(old) => format!("{old} {text}"),
                    None => text.to_string(),
                };
                game.comments[i] = normalize_comment(&joined);
            }
            Some(game) => {
                let joined = match &game.opening_comment {
                    Some(old) => format!("{old} {text}"),
                    None => text.to_string(),
                };
                game.opening_comment = normalize_comment(&joined);
            }
            None => self.opening_comments.push(text.to_string()),
        }
    }

    /// Reads one move, checks it and plays it.
    fn play(&mut self, text: &str, line: usize) -> Result<(), PdnError> {
        let game = self.begin()?;
        let position = game.end;
        let variant = game.variant();
        let offset = usize::from(game.start.turn() != variant.first_to_move());
        let ply = game.moves.len() + offset;
        let number = format!("{}{}", ply / 2 + 1, if ply % 2 == 0 { "." } else { "..." });
        let text = text.to_string();
        match position.parse_move(&text) {
            Ok(mv) => {
                game.end = position.play_unchecked(&mv);
                game.moves.push(mv);
                game.comments.push(None);
                Ok(())
            }
            Err(e) => {
                let kind = match e {
                    MoveTextError::Illegal { reason, .. } => {
                        PdnErrorKind::IllegalMove { number, text, reason }
                    }
                    MoveTextError::Ambiguous { candidates, .. } => {
                        PdnErrorKind::AmbiguousMove { number, text, candidates }
                    }
                    MoveTextError::Syntax(_) => PdnErrorKind::NotAMove {
                        number,
                        text,
                        detail: "expected squares such as 11-15, 9x18x27 or c3-d4".to_string(),
                    },
                    MoveTextError::BadSquare { text: square } => {
                        PdnErrorKind::NotAMove { number, text, detail: format!("`{square}` is not a square") }
                    }
                };
                Err(self.error(line, kind))
            }
        }
    }
}

struct Parser {
    lexer: Lexer,
    /// Every game read so far, or the error that ended it.
    results: Vec<Result<PdnGame, PdnError>>,
    current: Option<Pending>,
    /// How many games have been started (numbers them in errors).
    started: usize,
    /// After an error: skipping the rest of that game. `true` once its moves were reached, so
    /// that the next tag begins a new game; `false` while still in its tags.
    skipping: Option<bool>,
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser { lexer: Lexer::new(text), results: Vec::new(), current: None, started: 0, skipping: None }
    }

    fn current(&mut self) -> &mut Pending {
        if self.current.is_none() {
            self.started += 1;
            self.current = Some(Pending::new(self.started));
        }
        self.current.as_mut().expect("set above")
    }

    /// Ends the current game; an error in it (its GameType or FEN) is recorded, not returned,
    /// since whatever comes next belongs to the next game.
    fn finish_current(&mut self) {
        if let Some(pending) = self.current.take() {
            if pending.has_content() {
                self.results.push(pending.finish());
            }
        }
    }

    fn fail(&mut self, error: PdnError, in_moves: bool) {
        self.results.push(Err(error));
        self.current = None;
        self.skipping = Some(in_moves);
    }

    fn run(mut self) -> Vec<Result<PdnGame, PdnError>> {
        loop {
            let (token, line) = match self.lexer.next() {
                Ok(Some(t)) => t,
                Ok(None) => break,
                Err((kind, line)) => {
                    if self.skipping.is_none() {
                        let in_moves = !matches!(kind, PdnErrorKind::BadTag { .. });
                        let error = self.current().error(line, kind);
                        self.fail(error, in_moves);
                    }
                    continue;
                }
            };
            if let Some(in_moves) = self.skipping {
                match &token {
                    Token::Star => self.skipping = None,
                    Token::Word(w) if PdnResult::parse(w, Variant::English).is_some() => self.skipping = None,
                    Token::Tag { .. } if in_moves => self.skipping = None,
                    Token::Tag { .. } => {}
                    _ => self.skipping = Some(true),
                }
                // The token that ends the skip opens the next game only if it is a tag.
                if self.skipping.is_some() || !matches!(token, Token::Tag { .. }) {
                    continue;
                }
            }
            if let Err(error) = self.token(token, line) {
                self.fail(error, true);
            }
        }
        self.finish_current();
        self.results
    }

    fn token(&mut self, token: Token, line: usize) -> Result<(), PdnError> {
        match token {
            Token::Tag { name, value } => {
                // A tag after moves, or one the header already has, opens the next game
                // (files do not always end a game with a result).
                let starts_next = self
                    .current
                    .as_ref()
                    .is_some_and(|p| p.game.is_some() || p.raw_tags.iter().any(|(n, ..)| *n == name));
                if starts_next {
                    self.finish_current();
                }
                self.current().raw_tags.push((name, value, line));
            }
            Token::Comment(text) => self.current().add_comment(&text),
            Token::Ignored => {}
            Token::Star => {
                self.current().terminator = Some("*".to_string());
                self.finish_current();
            }
            Token::Word(word) => self.word(&word, line)?,
        }
        Ok(())
    }

    fn word(&mut self, word: &str, line: usize) -> Result<(), PdnError> {
        let pending = self.current();
        // Which side the figures favour does not matter to recognise a result.
        if PdnResult::parse(word, Variant::English).is_some() {
            pending.terminator = Some(word.to_string());
            self.finish_current();
            return Ok(());
        }
        // A move number, maybe glued to its move: `12.`, `12...`, `1.32-28`.
        let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
        let rest = &word[digits..];
        let after_dots = rest.trim_start_matches(['.', '\u{2026}']);
        let move_text = if digits > 0 && after_dots.len() < rest.len() { after_dots } else { word };
        if move_text.chars().all(|c| c == '.' || c == '\u{2026}') {
            // A move number alone, or `...` standing for the other side's move.
            if digits > 0 {
                pending.begin()?;
            }
            return Ok(());
        }
        pending.play(move_text, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_from_the_first_players_side() {
        assert_eq!(PdnResult::parse("1-0", Variant::English), Some(PdnResult::Win(Color::Black)));
        assert_eq!(PdnResult::parse("1-0", Variant::Russian), Some(PdnResult::Win(Color::White)));
        assert_eq!(PdnResult::parse("0-2", Variant::Russian), Some(PdnResult::Win(Color::Black)));
        assert_eq!(PdnResult::parse("1-1", Variant::Russian), Some(PdnResult::Draw));
        assert_eq!(PdnResult::Win(Color::White).to_pdn(Variant::English), "0-1");
    }

    #[test]
    fn tags_keep_the_roster_first() {
        let mut g = PdnGame::new(Variant::English);
        g.set_tag("Annotator", "x").unwrap();
        g.set_tag("White", "w").unwrap();
        g.set_tag("Event", "e").unwrap();
        g.set_tag("Black", "b").unwrap();
        let names: Vec<&str> = g.tags().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Event", "Black", "White", "Annotator"]);
        assert!(matches!(g.set_tag("fen", "x"), Err(PdnTagError::Reserved(_))));
        assert!(matches!(g.set_tag("a b", "x"), Err(PdnTagError::BadName(_))));
    }
}
