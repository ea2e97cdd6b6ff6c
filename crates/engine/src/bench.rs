//! The bench: a fixed set of positions of both variants searched to a fixed depth with one
//! thread and a fixed table size. The node total is the search's signature: it changes only
//! when search behaviour changes.

use std::time::{Duration, Instant};

use checkers_rules::{Move, Position, Variant};

use crate::engine::{Engine, EngineOptions};
use crate::limits::{Limits, StopHandle};
use crate::score::Score;

/// The depth `checkers bench` uses when none is given.
pub const BENCH_DEPTH: u32 = 14;

/// The bench positions: openings, middlegames and endgames of both variants.
pub const BENCH_POSITIONS: &[(Variant, &str)] = &[
    (Variant::English, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    (Variant::Russian, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
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

/// Searches every bench position to `depth` (fresh 16 MB table, one thread), reporting each.
pub fn bench(depth: u32, on_line: &mut dyn FnMut(&BenchLine)) -> BenchSummary {
    let mut engine = Engine::new(EngineOptions { hash_mb: 16, threads: 1 });
    let mut nodes = 0;
    let started = Instant::now();
    for &(variant, fen) in BENCH_POSITIONS {
        let Ok(position) = Position::from_fen(variant, fen) else { continue };
        engine.new_game();
        let result = engine.search(&position, &[], &Limits::depth(depth), &StopHandle::new(), &mut |_| {});
        nodes += result.nodes;
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
    BenchSummary { nodes, elapsed: started.elapsed() }
}
