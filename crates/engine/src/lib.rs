//! # checkers-engine
//!
//! The computer player of the project, for every variant: a search (iterative deepening principal variation
//! search with a transposition table, killer and history ordering, late move reductions,
//! capture resolution to quiet positions, Lazy SMP threads), an evaluation for each variant
//! with endgame knowledge (for English positions with men, a small neural network trained on
//! the engine's own searches), time management, nine playing levels from beginner to
//! master, an opening book for the levels that play people ([`book`]), and game review
//! ([`review`]: each move judged against the engine's choice).
//! Callers hold an [`Engine`], give it a position, the game's earlier positions and
//! [`Limits`], and get a [`SearchResult`] whose move is always legal.
//!
//! One search serves every variant: it is written against [`SearchPosition`], which the 8x8
//! positions of English and Russian (`checkers_rules::Position`, the default of
//! `Engine<P>`) and the positions of every other variant
//! (`checkers_rules::board::Board<V>` for each rule set `V` with a [`BoardEngine`]: its
//! evaluation weights and the game ends the search must see) implement; the search is
//! compiled once per position type, so English and Russian lose nothing to the others.
//!
//! English searches consult an endgame database of positions with up to four pieces
//! (`checkers-endgame`, solved in memory once per process; [`Engine::prepare_endgame`]), kept
//! on disk between runs only in a folder the program names ([`Engine::keep_endgame_in`]).
//!
//! It stands on `checkers-rules` and `checkers-endgame` alone and does no I/O of its own: no
//! terminal, file or network code.
//! The Hub protocol's logic ([`hub`]) lives here as a pure line-in, lines-out state machine,
//! and DXP's ([`dxp`], for the International family) as a message-in, messages-out one;
//! reading stdin and sockets, running matches and serving games belong to the command line
//! and the server, which use this crate.
//!
//! ```
//! use checkers_engine::{Engine, EngineOptions, Limits, StopHandle};
//! use checkers_rules::{Position, Variant};
//! let mut engine = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
//! let start = Position::start(Variant::English);
//! let result = engine.search(&start, &[], &Limits::depth(6), &StopHandle::new(), &mut |_| {});
//! assert!(start.is_legal(&result.best_move.unwrap()));
//!
//! // Any other variant: the same engine on its board.
//! use checkers_rules::board::{Board, International};
//! let mut engine = Engine::<Board<International>>::new(EngineOptions { hash_mb: 4, threads: 1 });
//! let start = Board::<International>::start();
//! let result = engine.search(&start, &[], &Limits::depth(6), &StopHandle::new(), &mut |_| {});
//! assert!(start.is_legal(&result.best_move.unwrap()));
//! ```

mod bench;
#[cfg(feature = "tune")]
pub mod board_tune;
mod book;
pub mod dxp;
mod endgame;
mod engine;
mod eval;
mod game;
pub mod hub;
mod level;
mod limits;
mod mix;
#[cfg(feature = "tune")]
mod openings;
pub mod review;
mod score;
mod search;
mod tt;
#[cfg(feature = "tune")]
pub mod tune;

pub use bench::{bench, BenchLine, BenchSummary, BENCH_DEPTH, BENCH_MAX_DEPTH, BENCH_POSITIONS};
pub use book::{book, Book, BookError, BookMove};
pub use engine::{Engine, EngineOptions, SearchInfo, SearchResult};
pub use eval::boards::{BoardWeights, SquareTable};
pub use game::{BoardEngine, MoveBuffer, SearchMove, SearchPosition, SearchRules};
pub use level::{hint, judge, Choice, DrawAnswer, Level, LevelError};
pub use limits::{Clock, Limits, StopHandle, MAX_DEPTH, MAX_HASH_MB, MAX_THREADS};
pub use score::{Score, ScoreParseError};

// What only the tools behind the `tune` feature use: the opening book's generator, and the
// evaluation's parameters and inputs that the tuner and the network's trainer fit.
#[cfg(feature = "tune")]
pub use book::{generate as generate_book, BookPlan};
#[cfg(feature = "tune")]
pub use eval::{
    evaluate_with, formation_indices, network_inputs, pattern_index, BlendedFormations, BlendedSquares,
    Formations, Patterns, SquareValues, Weights, FORMATION_PAIRS, PATTERN_BYTES, PATTERN_STATES,
};
#[cfg(feature = "tune")]
pub use openings::{generate_openings, GeneratedOpening, OpeningPlan};

use checkers_rules::{Move, Position, SquareNotation};

/// A line of moves in PDN long form, separated by spaces, played from `position` (stops at
/// the first move that is not legal where it falls).
pub fn line_text(position: &Position, line: &[Move], notation: SquareNotation) -> String {
    let mut current = *position;
    let mut words = Vec::with_capacity(line.len());
    for mv in line {
        if !current.is_legal(mv) {
            break;
        }
        words.push(mv.to_pdn(&current, notation));
        current = current.play_unchecked(mv);
    }
    words.join(" ")
}
