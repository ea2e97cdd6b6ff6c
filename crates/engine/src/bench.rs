//! The bench: a fixed set of positions of both variants searched to a fixed depth with one
//! thread and a fixed table size. The node total is the search's signature: it changes only
//! when search behaviour changes.

use std::time::Duration;

use checkers_rules::{Move, Position, Variant};

use crate::engine::{Engine, EngineOptions};
use crate::limits::{Limits, StopHandle};
use crate::score::Score;

/// The depth `checkers bench` uses when none is given.
pub const BENCH_DEPTH: u32 = 16;
/// The deepest bench `checkers bench` accepts: the cost of a bench grows steeply with its
/// depth.
pub const BENCH_MAX_DEPTH: u32 = 60;

/// The bench positions: both start positions, then openings, middlegames and endgames of
/// both variants reached by seeded random play (so they are varied, not necessarily good).
pub const BENCH_POSITIONS: &[(Variant, &str)] = &[
    (Variant::English, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    (Variant::English, "B:W19,21,22,25,26,27,29,30,31,32:B1,2,3,4,5,7,8,11,12,13"),
    (Variant::English, "B:W20,21,22,23,25,28,29,31,32:B2,3,4,6,7,8,9,11,12"),
    (Variant::English, "B:WK2,17,21,29,30,31,32:B3,4,5,6,8,9,28"),
    (Variant::English, "B:W17,21,27,28,29,31:B3,5,7,8,10"),
    (Variant::English, "B:WK1,13,20,28,32:B2,3,4,5,16,K23"),
    (Variant::English, "B:WK3,19,20,27,31:B5,8,11,12,21,K25"),
    (Variant::English, "B:W10,21,24:B4,11,23"),
    (Variant::English, "B:WK14,20,21,22:B8,11,15,K31"),
    (Variant::Russian, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    (Variant::Russian, "W:W15,21,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,11,12,13"),
    (Variant::Russian, "W:W21,24,25,27,29,30,31,32:B1,2,3,4,5,8,11,15,20"),
    (Variant::Russian, "W:W22,26,27,28,30,32:B1,3,4,5,8,12,15"),
    (Variant::Russian, "W:W23,25,28,30,32:B1,3,5,11,12,17"),
    (Variant::Russian, "W:W17,21,23,29,30,32:B1,2,5,8,12,13"),
    (Variant::Russian, "W:W5,20,21,22,28,29:B4,8,10,12,13"),
    (Variant::Russian, "W:W24,25,32:B5,8,18"),
    (Variant::Russian, "W:W21,24,25:B9,13,16"),
];

/// One searched bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub variant: Variant,
    pub fen: &'static str,
    pub best_move: Option<Move>,
    pub position: Position,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The bench totals.
#[derive(Clone, Copy, Debug)]
pub struct BenchSummary {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchSummary {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches every bench position to `depth` (fresh 16 MB table, one thread), reporting each;
/// with `only`, just that variant's positions (the whole set's node total is the signature).
/// The time is the searches' own: solving the endgame database and clearing the table
/// between positions (a memset of 16 MB, a tenth of the whole at depth 16) are set-up, not
/// search.
pub fn bench(depth: u32, only: Option<Variant>, on_line: &mut dyn FnMut(&BenchLine)) -> BenchSummary {
    let mut engine = Engine::new(EngineOptions { hash_mb: 16, threads: 1 });
    for variant in [Variant::English, Variant::Russian] {
        Engine::prepare_endgame(variant);
    }
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for &(variant, fen) in BENCH_POSITIONS.iter().filter(|(v, _)| only.is_none_or(|o| o == *v)) {
        let Ok(position) = Position::from_fen(variant, fen) else { continue };
        engine.new_game();
        let result = engine.search(&position, &[], &Limits::depth(depth), &StopHandle::new(), &mut |_| {});
        nodes += result.nodes;
        elapsed += result.elapsed;
        on_line(&BenchLine {
            variant,
            fen,
            best_move: result.best_move,
            position,
            score: result.score,
            nodes: result.nodes,
            elapsed: result.elapsed,
        });
    }
    BenchSummary { nodes, elapsed }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature changes only when the search does: a change that keeps every node (a
    /// faster evaluation, a cheaper way to order the same moves) must keep it, and one that
    /// changes the search must change it here and in the README, which gives it.
    #[test]
    fn the_signature_is_the_one_the_readme_gives() {
        let summary = bench(BENCH_DEPTH, None, &mut |_| {});
        let readme = include_str!("../../../README.md");
        let given = format!("signature **`nodes {}`**", summary.nodes);
        assert!(readme.contains(&given), "the README does not give `nodes {}`", summary.nodes);
        assert_eq!(summary.nodes, 2_467_461);
    }
}
