//! Reading PDN text: a parser that builds games from the lexer's tokens.
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
//! The parser is one for every kind of game: what it builds is a [`Target`], which takes the
//! game's header (its variant and start from `GameType` and `FEN`) and its moves. The 8x8
//! games of English and Russian ([`PdnGame`]) are one target; the boards of any size
//! (`board_reader`) are others.

use crate::notation::MoveTextError;
use crate::position::{Color, Position, Variant};
use crate::shown::excerpt;

use super::error::{PdnError, PdnErrorKind};
use super::game::{PdnGame, PdnResult};
use super::lexer::{Lexer, Token};
use super::record::Record;

/// Reads every game in PDN text; the first error stops the reading.
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    read_all(text)
}

/// Reads every game in PDN text, going on after a bad one: each game read, or the error that
/// stopped it, in the order of the text. After an error the rest of that game is skipped up
/// to its result or to the tags of the next game (an unclosed comment or variation swallows
/// the rest of the text).
pub fn read_pdn_each(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    read_each(text)
}

/// Reads PDN text holding exactly one game (none reads as an empty English game; the first
/// of several is returned).
pub fn read_pdn_game(text: &str) -> Result<PdnGame, PdnError> {
    Ok(read_pdn(text)?.into_iter().next().unwrap_or_else(|| PdnGame::new(Variant::English)))
}

/// Every game of `text` as `T`; the first error stops the reading.
pub(super) fn read_all<T: Target>(text: &str) -> Result<Vec<T>, PdnError> {
    Parser::<T>::new(text).run().into_iter().collect()
}

/// Every game of `text` as `T`, or the error that stopped it.
pub(super) fn read_each<T: Target>(text: &str) -> Vec<Result<T, PdnError>> {
    Parser::<T>::new(text).run()
}

/// The tags of a game being read, with their lines.
pub(super) struct Header {
    /// Name, value and line of each tag read.
    raw_tags: Vec<(String, String, usize)>,
}

impl Header {
    /// The value of a tag (the last if repeated, names compared without case, blanks trimmed)
    /// and its line.
    pub(super) fn tag(&self, name: &str) -> Option<(&str, usize)> {
        self.raw_tags
            .iter()
            .rev()
            .find(|(n, ..)| n.eq_ignore_ascii_case(name))
            .map(|(_, v, l)| (v.trim(), *l))
    }

    /// The number `GameType` starts with (`21,B,8,8,N1,0` is 21), if the tag is there and not
    /// empty.
    pub(super) fn game_type(&self) -> Result<Option<(u32, usize)>, (usize, PdnErrorKind)> {
        let Some((value, line)) = self.tag("GameType").filter(|(v, _)| !v.is_empty()) else {
            return Ok(None);
        };
        let first = value.split(',').next().unwrap_or("").trim();
        let number = first.parse().map_err(|_| (line, PdnErrorKind::BadGameType(value.to_string())))?;
        Ok(Some((number, line)))
    }

    /// The `FEN` tag, if the game has one (an empty one is none); `SetUp "1"` without it is
    /// an error.
    pub(super) fn fen(&self) -> Result<Option<(&str, usize)>, (usize, PdnErrorKind)> {
        match self.tag("FEN").filter(|(v, _)| !v.is_empty()) {
            Some(fen) => Ok(Some(fen)),
            None => match self.tag("SetUp") {
                Some(("1", line)) => Err((line, PdnErrorKind::MissingFen)),
                _ => Ok(None),
            },
        }
    }
}

/// What the parser builds: a game of some variant, begun from the header and played on move
/// by move.
pub(super) trait Target: Sized {
    /// The game the header describes (its variant and start), before its first move; an
    /// error names the line of the tag at fault.
    fn begin(header: &Header) -> Result<Self, (usize, PdnErrorKind)>;
    fn record_mut(&mut self) -> &mut Record;
    /// The side that moves first in the game's variant (the first figure of a result).
    fn first_player(&self) -> Color;
    /// The side to move at the start.
    fn starting_side(&self) -> Color;
    fn moves_played(&self) -> usize;
    /// Reads one move, checks it and plays it; `number` names it in an error.
    fn play(&mut self, text: &str, number: String) -> Result<(), PdnErrorKind>;
    fn set_result(&mut self, result: PdnResult);
}

/// The number a move is written with: `12.` for the first player's, `12...` for the other's.
fn move_number<T: Target>(game: &T) -> String {
    let offset = usize::from(game.starting_side() != game.first_player());
    let ply = game.moves_played() + offset;
    format!("{}{}", ply / 2 + 1, if ply.is_multiple_of(2) { "." } else { "..." })
}

impl Target for PdnGame {
    fn begin(header: &Header) -> Result<PdnGame, (usize, PdnErrorKind)> {
        let variant = match header.game_type()? {
            None => Variant::English,
            Some((number, line)) => Variant::from_pdn_game_type(number)
                .ok_or((line, PdnErrorKind::UnsupportedGameType(number)))?,
        };
        let start = match header.fen()? {
            Some((fen, line)) => Position::from_fen(variant, fen)
                .map_err(|error| (line, PdnErrorKind::BadFen { fen: fen.to_string(), error }))?,
            None => Position::start(variant),
        };
        Ok(PdnGame::from_position(start))
    }

    fn record_mut(&mut self) -> &mut Record {
        PdnGame::record_mut(self)
    }

    fn first_player(&self) -> Color {
        self.variant().first_to_move()
    }

    fn starting_side(&self) -> Color {
        self.start().turn()
    }

    fn moves_played(&self) -> usize {
        self.moves().len()
    }

    fn play(&mut self, text: &str, number: String) -> Result<(), PdnErrorKind> {
        let text = text.to_string();
        match self.end_position().parse_move(&text) {
            Ok(mv) => {
                self.push_legal(mv);
                Ok(())
            }
            Err(e) => Err(match e {
                MoveTextError::Illegal { reason, .. } => {
                    PdnErrorKind::IllegalMove { number, text, reason: reason.to_string() }
                }
                MoveTextError::Ambiguous { candidates, .. } => {
                    PdnErrorKind::AmbiguousMove { number, text, candidates }
                }
                MoveTextError::Syntax(_) => PdnErrorKind::NotAMove {
                    number,
                    text,
                    detail: "expected squares such as 11-15, 9x18x27 or c3-d4".to_string(),
                },
                MoveTextError::BadSquare { text: square } => PdnErrorKind::NotAMove {
                    number,
                    text,
                    detail: format!("`{}` is not a square", excerpt(&square)),
                },
            }),
        }
    }

    fn set_result(&mut self, result: PdnResult) {
        PdnGame::set_result(self, result);
    }
}

/// A game being read.
struct Pending<T> {
    number: usize,
    header: Header,
    opening_comments: Vec<String>,
    /// Set once the first move (or move number) is read.
    game: Option<T>,
    /// The result written after the moves, if read.
    terminator: Option<String>,
}

impl<T: Target> Pending<T> {
    fn new(number: usize) -> Pending<T> {
        Pending {
            number,
            header: Header { raw_tags: Vec::new() },
            opening_comments: Vec::new(),
            game: None,
            terminator: None,
        }
    }

    fn error(&self, line: usize, kind: PdnErrorKind) -> PdnError {
        let tag =
            |name| self.header.raw_tags.iter().rev().find(|(n, ..)| n == name).map(|(_, v, _)| v.clone());
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
    fn begin(&mut self) -> Result<&mut T, PdnError> {
        if self.game.is_none() {
            let mut game = T::begin(&self.header).map_err(|(line, kind)| self.error(line, kind))?;
            let record = game.record_mut();
            for (name, value, _) in &self.header.raw_tags {
                // Reserved names are kept as structure; names the lexer accepted are valid.
                let _ = record.set_tag(name, value);
            }
            if !self.opening_comments.is_empty() {
                record.set_opening_comment(&self.opening_comments.join(" "));
            }
            self.game = Some(game);
        }
        Ok(self.game.as_mut().expect("set above"))
    }

    fn has_content(&self) -> bool {
        !self.header.raw_tags.is_empty() || self.game.is_some() || self.terminator.is_some()
    }

    fn finish(mut self) -> Result<T, PdnError> {
        self.begin()?;
        let tag_result = self.header.tag("Result").map(|(v, _)| v.to_string());
        let terminator = self.terminator.take();
        let mut game = self.game.take().expect("begun above");
        let first = game.first_player();
        let parsed = |t: Option<&String>| t.and_then(|t| PdnResult::parse_first(t, first));
        game.set_result(match parsed(terminator.as_ref()) {
            Some(r) if r != PdnResult::Unknown => r,
            _ => parsed(tag_result.as_ref()).unwrap_or(PdnResult::Unknown),
        });
        Ok(game)
    }

    fn add_comment(&mut self, text: &str) {
        match &mut self.game {
            Some(game) => game.record_mut().append_comment(text),
            None => self.opening_comments.push(text.to_string()),
        }
    }

    /// Reads one move, checks it and plays it.
    fn play(&mut self, text: &str, line: usize) -> Result<(), PdnError> {
        let game = self.begin()?;
        let number = move_number(game);
        game.play(text, number).map_err(|kind| self.error(line, kind))
    }
}

struct Parser<T> {
    lexer: Lexer,
    /// Every game read so far, or the error that ended it.
    results: Vec<Result<T, PdnError>>,
    current: Option<Pending<T>>,
    /// How many games have been started (numbers them in errors).
    started: usize,
    /// After an error: skipping the rest of that game. `true` once its moves were reached, so
    /// that the next tag begins a new game; `false` while still in its tags.
    skipping: Option<bool>,
}

impl<T: Target> Parser<T> {
    fn new(text: &str) -> Parser<T> {
        Parser { lexer: Lexer::new(text), results: Vec::new(), current: None, started: 0, skipping: None }
    }

    fn current(&mut self) -> &mut Pending<T> {
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

    fn run(mut self) -> Vec<Result<T, PdnError>> {
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
                    .is_some_and(|p| p.game.is_some() || p.header.raw_tags.iter().any(|(n, ..)| *n == name));
                if starts_next {
                    self.finish_current();
                }
                self.current().header.raw_tags.push((name, value, line));
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
