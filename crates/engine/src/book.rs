//! The opening book: positions of a variant's first plies with every legal move scored by a
//! deep search, made once by [`generate`] (the `checkers-book` tool) and shipped as text
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

use std::collections::{BinaryHeap, HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use checkers_rules::{Move, Position, SquareNotation, Variant};

use crate::engine::Engine;
use crate::score::Score;
use crate::search::SearchConfig;

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

/// How a book is grown by [`generate`].
#[derive(Clone, Copy, Debug)]
pub struct BookPlan {
    /// Positions to score (the book's size).
    pub positions: usize,
    /// Depth of the full-window search that scores each move.
    pub depth: u32,
    /// No position further than this many plies from the start is scored.
    pub max_plies: usize,
    /// What each ply away from the start costs, in hundredths of a man, beside the moves'
    /// shortfalls from the best: a larger value spreads the book wider and shallower.
    pub ply_cost: i32,
}

/// Grows a book from the variant's start position by drop-out expansion: the next position
/// scored is always the one reached most cheaply, where a line costs what its moves fell short
/// of the best move where they were played, plus `ply_cost` a ply. So the book follows the
/// good lines deep and the doubtful ones a little way, for either side. Positions with one
/// legal move are passed through, not stored. Deterministic: one thread, fixed depth.
/// `on_scored` hears each scored position and the count so far.
pub fn generate(
    variant: Variant,
    plan: BookPlan,
    engine: &mut Engine,
    on_scored: &mut dyn FnMut(&Position, usize),
) -> Book {
    // Ordered by (cost, arrival): the cheapest first, ties in the order reached.
    let mut frontier = BinaryHeap::new();
    let mut arrivals = 0u64;
    let mut seen = HashSet::new();
    let mut book = Book { variant: Some(variant), ..Book::default() };
    let start = Position::start(variant);
    frontier.push(std::cmp::Reverse((0i32, arrivals, 0usize, PositionKey(start))));
    while let Some(std::cmp::Reverse((cost, _, plies, PositionKey(position)))) = frontier.pop() {
        if book.len() >= plan.positions {
            break;
        }
        if !seen.insert(position) || plies > plan.max_plies {
            continue;
        }
        let legal = position.legal_moves();
        let scored: Vec<BookMove> = if legal.len() == 1 {
            // Forced: nothing to choose, the line goes on at the same cost.
            vec![BookMove { mv: legal[0], score: Score::DRAW }]
        } else {
            engine.new_game();
            engine
                .root_scores(&position, &[], plan.depth, SearchConfig::default())
                .into_iter()
                .map(|(mv, score)| BookMove { mv, score })
                .collect()
        };
        let Some(best) = scored.iter().map(|m| m.score).max() else { continue };
        if legal.len() > 1 {
            book.add(position, scored.clone());
            on_scored(&position, book.len());
        }
        if best.is_decisive() {
            continue;
        }
        for m in &scored {
            let shortfall = if legal.len() == 1 { 0 } else { (best.value() - m.score.value()).max(0) };
            arrivals += 1;
            let next = cost + shortfall + plan.ply_cost;
            frontier.push(std::cmp::Reverse((
                next,
                arrivals,
                plies + 1,
                PositionKey(position.play_unchecked(&m.mv)),
            )));
        }
    }
    book
}

/// A position in the frontier's heap, which needs an order; ties are broken by arrival
/// before this is ever compared.
#[derive(PartialEq, Eq)]
struct PositionKey(Position);

impl PartialOrd for PositionKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PositionKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.hash_key().cmp(&other.0.hash_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;

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

    #[test]
    fn a_book_grows_from_the_start_along_the_best_line_first() {
        let mut engine = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
        let plan = BookPlan { positions: 4, depth: 4, max_plies: 10, ply_cost: 5 };
        let mut heard = 0;
        let grown = generate(Variant::English, plan, &mut engine, &mut |_, n| heard = n);
        assert_eq!((grown.len(), heard), (4, 4));
        let start = Position::start(Variant::English);
        let first = grown.positions().next().copied();
        assert_eq!(first, Some(start));
        // The second position scored is the one after the start's best move.
        let best = grown.lookup(&start).unwrap()[0].mv;
        assert_eq!(grown.positions().nth(1).copied(), Some(start.play_unchecked(&best)));
        // Deterministic, and its text reads back.
        let again = generate(Variant::English, plan, &mut engine, &mut |_, _| {});
        assert_eq!(again.to_text(), grown.to_text());
        assert_eq!(Book::parse(Variant::English, &grown.to_text()).unwrap().to_text(), grown.to_text());
    }
}
