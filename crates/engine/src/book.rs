//! The opening book: positions of a variant's first plies with every legal move scored by a
//! deep search, made once by `generate` (`book/generate.rs`, the `checkers-book` tool) and shipped as text
//! (`book/english.txt`, `book/russian.txt`), so that the levels that play people open games
//! at once, soundly and in varied ways ([`crate::Level::choose_move_varied`]).
//!
//! A book line is a position in FEN followed by each legal move in PDN long form with its
//! score (hundredths of a man for the side to move, as [`Score`] writes it):
//!
//! ```text
//! B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 11-15 7 9-14 3 ...
//! ```
//!
//! Moves are read back through the rules library's parser, so a book holds only legal moves
//! whatever its text; a line that names an illegal move, leaves one out or repeats a
//! position is refused with its line number.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use checkers_rules::{Move, Position, SquareNotation, Variant};

use crate::score::Score;

#[cfg(any(test, feature = "tune"))]
mod generate;
#[cfg(feature = "tune")]
pub use generate::{generate, BookPlan};

static ENGLISH_TEXT: &str = include_str!("book/english.txt");
static RUSSIAN_TEXT: &str = include_str!("book/russian.txt");

/// A book move and its score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub score: Score,
}

/// What was wrong with a book's text.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("book line {line}: {problem}")]
pub struct BookError {
    pub line: usize,
    pub problem: String,
}

/// Positions with every legal move scored.
#[derive(Clone, Debug, Default)]
pub struct Book {
    variant: Option<Variant>,
    /// In the order of the text, for writing it back unchanged.
    order: Vec<Position>,
    entries: HashMap<Position, Vec<BookMove>>,
}

/// The book shipped for a variant, read on first use.
pub fn book(variant: Variant) -> &'static Book {
    static ENGLISH: OnceLock<Book> = OnceLock::new();
    static RUSSIAN: OnceLock<Book> = OnceLock::new();
    let (cell, text) = match variant {
        Variant::English => (&ENGLISH, ENGLISH_TEXT),
        Variant::Russian => (&RUSSIAN, RUSSIAN_TEXT),
    };
    // The shipped text is checked by the tests; were it broken, playing without a book is
    // still playing.
    cell.get_or_init(|| Book::parse(variant, text).unwrap_or_default())
}

impl Book {
    /// Reads a book's text (lines starting with `#` and blank lines are comments).
    pub fn parse(variant: Variant, text: &str) -> Result<Book, BookError> {
        let mut book = Book { variant: Some(variant), ..Book::default() };
        for (i, line) in text.lines().enumerate() {
            let line_number = i + 1;
            let fail = |problem: String| BookError { line: line_number, problem };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split_whitespace();
            let fen = fields.next().unwrap_or_default();
            let position = Position::from_fen(variant, fen).map_err(|e| fail(format!("{fen}: {e}")))?;
            let rest: Vec<&str> = fields.collect();
            if !rest.len().is_multiple_of(2) {
                return Err(fail("each move needs a score after it".to_string()));
            }
            let mut moves = Vec::with_capacity(rest.len() / 2);
            for pair in rest.chunks_exact(2) {
                let mv = position.parse_move(pair[0]).map_err(|e| fail(e.to_string()))?;
                let score: Score = pair[1].parse().map_err(|e| fail(format!("{}: {e}", pair[1])))?;
                if moves.iter().any(|m: &BookMove| m.mv == mv) {
                    return Err(fail(format!("{} is given twice", pair[0])));
                }
                moves.push(BookMove { mv, score });
            }
            let legal = position.legal_moves();
            if legal.is_empty() {
                return Err(fail(format!("{fen} has no legal move")));
            }
            if moves.len() != legal.len() {
                return Err(fail(format!("{} legal moves, {} in the book", legal.len(), moves.len())));
            }
            if book.entries.contains_key(&position) {
                return Err(fail(format!("{fen} appears twice")));
            }
            book.add(position, moves);
        }
        Ok(book)
    }

    /// The book's text, positions in the order they were added, moves best first.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for position in &self.order {
            out.push_str(&position.to_fen());
            for m in &self.entries[position] {
                let _ = write!(out, " {} {}", m.mv.to_pdn(position, SquareNotation::Numeric), m.score);
            }
            out.push('\n');
        }
        out
    }

    /// The scored moves of a position, best first, if the book holds it.
    pub fn lookup(&self, position: &Position) -> Option<&[BookMove]> {
        if self.variant != Some(position.variant()) {
            return None;
        }
        self.entries.get(position).map(Vec::as_slice)
    }

    /// The scored moves of a position, best first, when the book holds it and its best
    /// move is not a forced result (a position to play from the book rather than search).
    pub fn playable(&self, position: &Position) -> Option<&[BookMove]> {
        self.lookup(position).filter(|moves| moves.first().is_some_and(|best| !best.score.is_decisive()))
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The positions, in the book's order.
    pub fn positions(&self) -> impl Iterator<Item = &Position> {
        self.order.iter()
    }

    fn add(&mut self, position: Position, mut moves: Vec<BookMove>) {
        // Stable: equal scores keep their order, so text written and read back is the same.
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        self.order.push(position);
        self.entries.insert(position, moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_books_hold_their_start_positions_with_every_move() {
        for variant in [Variant::English, Variant::Russian] {
            let text = match variant {
                Variant::English => ENGLISH_TEXT,
                Variant::Russian => RUSSIAN_TEXT,
            };
            let parsed = Book::parse(variant, text).unwrap_or_else(|e| panic!("{variant:?}: {e}"));
            assert!(parsed.len() >= 100, "{variant:?}: {} positions", parsed.len());
            let start = Position::start(variant);
            let moves = book(variant).lookup(&start).expect("the start position is in the book");
            assert_eq!(moves.len(), start.legal_moves().len());
            assert!(moves.windows(2).all(|w| w[0].score >= w[1].score), "best first");
            let other = if variant == Variant::English { Variant::Russian } else { Variant::English };
            assert!(book(other).lookup(&start).is_none());
            // Written back, the text reads the same.
            let again = Book::parse(variant, &parsed.to_text()).unwrap();
            assert_eq!(again.to_text(), parsed.to_text());
        }
    }

    #[test]
    fn broken_book_text_is_refused_with_its_line() {
        let start = Position::start(Variant::English).to_fen();
        let all = "11-15 7 9-14 3 9-13 -20 10-14 0 10-15 1 11-16 2 12-16 -5";
        let cases = [
            (format!("# comment\n{start} {all}\nW:W1:B\n"), 3, "invalid position"),
            (format!("{start} 11-15 7 9-14"), 1, "needs a score"),
            (format!("{start} 11-15 seven 9-14 3"), 1, "seven"),
            (format!("{start} 11-17 7 9-14 3"), 1, "not a legal move"),
            (format!("{start} 11-15 7 9-14 3"), 1, "7 legal moves, 2 in the book"),
            (format!("{start} 11-15 7 11-15 3"), 1, "given twice"),
            (format!("{start} {all}\n\n{start} {all}"), 3, "appears twice"),
            ("W:W:B1".to_string(), 1, "no legal move"),
        ];
        for (text, line, problem) in cases {
            let error = Book::parse(Variant::English, &text).expect_err(&text);
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.to_string().contains(problem), "{text}: {error}");
        }
        assert_eq!(Book::parse(Variant::English, &format!("{start} {all}")).map(|b| b.len()), Ok(1));
    }

    proptest::proptest! {
        /// Any text made of book-like pieces is read or refused, never a panic.
        #[test]
        fn book_text_of_any_shape_is_read_or_refused(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "B:W21-32:B1-12", "W:W21-32:B1-12", "W:WK1:B", "B:W:B", "11-15", "9x18x27", "24-20",
                    "7", "-3", "win5", "loss2", "x", "#", "\n", " ", "K", ":", ",",
                ]),
                0..40,
            )
        ) {
            let text: String = pieces.concat();
            for variant in [Variant::English, Variant::Russian] {
                if let Ok(read) = Book::parse(variant, &text) {
                    for position in read.positions() {
                        proptest::prop_assert!(!read.lookup(position).unwrap().is_empty());
                    }
                }
            }
        }
    }
}
