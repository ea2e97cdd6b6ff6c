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

use crate::notation::MoveTextError;
use crate::position::{Position, Variant};
use crate::shown::excerpt;

use super::error::{PdnError, PdnErrorKind};
use super::game::{PdnGame, PdnResult};
use super::lexer::{Lexer, Token};

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
        game.set_result(match parsed(terminator.as_ref()) {
            Some(r) if r != PdnResult::Unknown => r,
            _ => parsed(tag_result.as_ref()).unwrap_or(PdnResult::Unknown),
        });
        Ok(game)
    }

    fn add_comment(&mut self, text: &str) {
        match &mut self.game {
            Some(game) => game.append_comment(text),
            None => self.opening_comments.push(text.to_string()),
        }
    }

    /// Reads one move, checks it and plays it.
    fn play(&mut self, text: &str, line: usize) -> Result<(), PdnError> {
        let game = self.begin()?;
        let position = game.end_position();
        let variant = game.variant();
        let offset = usize::from(game.start().turn() != variant.first_to_move());
        let ply = game.moves().len() + offset;
        let number = format!("{}{}", ply / 2 + 1, if ply % 2 == 0 { "." } else { "..." });
        let text = text.to_string();
        match position.parse_move(&text) {
            Ok(mv) => {
                game.push_legal(mv);
                Ok(())
            }
            Err(e) => {
                let kind = match e {
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
