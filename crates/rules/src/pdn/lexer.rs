//! The lexer of the PDN reader: text into tokens (tags, comments, words), with what it skips
//! (variations, NAGs, annotations, `%` escape lines) already skipped.

use super::error::PdnErrorKind;
use super::record::normalize_tag_value;

#[derive(Debug)]
pub(super) enum Token {
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

pub(super) struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Lexer {
    pub(super) fn new(text: &str) -> Lexer {
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
    pub(super) fn next(&mut self) -> Result<Option<(Token, usize)>, (PdnErrorKind, usize)> {
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
