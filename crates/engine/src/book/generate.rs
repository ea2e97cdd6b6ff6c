//! The book's generator (the `checkers-book` tool, behind the `tune` feature).

use std::collections::{BinaryHeap, HashSet};

use checkers_rules::{Position, Variant};

use super::{Book, BookMove};
use crate::engine::Engine;
use crate::score::Score;
use crate::search::SearchConfig;

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
