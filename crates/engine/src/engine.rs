//! The engine a caller holds: options, the transposition table, per-thread tables, and the
//! search entry points.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use checkers_rules::{Move, Position, Variant};

use crate::endgame;
use crate::game::{MoveBuffer, SearchPosition};
use crate::limits::{Limits, StopHandle, MAX_HASH_MB, MAX_THREADS};
use crate::score::Score;
use crate::search::{Iteration, SearchConfig, Searcher, Shared, ThreadData};
use crate::tt::TranspositionTable;

/// How an [`Engine`] is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP). One thread with a node limit is deterministic.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions { hash_mb: 64, threads: 1 }
    }
}

/// Progress of a running search, reported after each finished iteration. `M` is the
/// variant's move type (the 8x8 [`Move`] unless the search was of another board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M = Move> {
    /// Which of the iteration's ranked root moves this line is for: 1 for the best (the only
    /// one unless [`Engine::search_lines`] asked for more).
    pub line: u32,
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached (extensions and captures included).
    pub seldepth: u32,
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation from the searched position.
    pub pv: Vec<M>,
}

impl<M> SearchInfo<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// The outcome of a search (`M` as for [`SearchInfo`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M = Move> {
    /// The move to play: always legal in the searched position; `None` only when there is no
    /// legal move (the game is over).
    pub best_move: Option<M>,
    pub score: Score,
    /// Depth of the last finished iteration (0 when the move was played without searching).
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64
}

/// A searching engine for positions of type `P`: the 8x8 [`Position`] of English and
/// Russian by default, or a [`Board`](checkers_rules::board::Board) of another variant. Holds
/// its transposition table between searches, so keep one per game (and call
/// [`Engine::new_game`] between games).
pub struct Engine<P: SearchPosition = Position> {
    options: EngineOptions,
    tt: TranspositionTable,
    threads: Vec<ThreadData<P>>,
    /// The hash key of the latest search's position (none after `new_game`).
    last_root: Option<u64>,
}

impl Engine {
    /// Keeps the solved endgame databases in `dir` between runs: read from there when a build
    /// with the same rules saved them, else solved and saved there (failing to read or write
    /// only costs the solving). Call before the first search; the first folder named counts.
    /// Without it the engine touches no file.
    pub fn keep_endgame_in(dir: std::path::PathBuf) {
        endgame::keep_in(dir);
    }

    /// Solves the endgame database of `variant` now, unless done already in this process:
    /// the first search that needs it would otherwise spend a few seconds on it. Programs
    /// call this at start-up, before any clock runs.
    pub fn prepare_endgame(variant: Variant) {
        endgame::database(variant);
    }
}

impl<P: SearchPosition> Engine<P> {
    /// Builds an engine, allocating its table (`hash_mb`, 1 to [`MAX_HASH_MB`]) and `threads`
    /// thread tables (1 to [`MAX_THREADS`]); values outside are taken as the nearest bound.
    pub fn new(options: EngineOptions) -> Engine<P> {
        let options = EngineOptions {
            hash_mb: options.hash_mb.clamp(1, MAX_HASH_MB),
            threads: options.threads.clamp(1, MAX_THREADS),
        };
        Engine {
            options,
            tt: TranspositionTable::new(options.hash_mb),
            threads: (0..options.threads).map(|_| ThreadData::new()).collect(),
            last_root: None,
        }
    }

    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Forgets everything learned (table, killers, history), as before a new game. After
    /// this, a one-thread search under a node limit repeats exactly.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.threads.iter_mut().for_each(ThreadData::clear);
        self.last_root = None;
    }

    /// Whether a search of `position`, reached through `history`, continues the game of this
    /// engine's latest search: that search's position is this one or one of the game's
    /// earlier positions.
    pub fn continues_game(&self, position: &P, history: &[P]) -> bool {
        self.last_root.is_some_and(|key| {
            position.hash_key() == key || history.iter().rev().any(|p| p.hash_key() == key)
        })
    }

    /// How deep the engine's table already knows `position`: the depth of the search that
    /// stored it, or none if the table holds nothing for it (never searched, forgotten by
    /// [`Engine::new_game`], or replaced by other positions).
    pub fn known_depth(&self, position: &P) -> Option<u32> {
        self.tt.probe(position.hash_key()).map(|entry| entry.depth.max(0) as u32)
    }

    /// Searches `position` within `limits` and returns the move to play.
    ///
    /// `history` holds the game's earlier positions, oldest first (each the position after
    /// one more move), so repetitions and the move-count draw rules are seen; pass `&[]` if
    /// unknown. `stop` ends the search from another thread at any moment; `on_info` hears of
    /// every finished iteration. With exactly one legal move, it is returned at once.
    pub fn search(
        &mut self,
        position: &P,
        history: &[P],
        limits: &Limits,
        stop: &StopHandle,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        self.search_with(position, history, limits, stop, SearchConfig::default(), on_info)
    }

    /// Searches as [`Engine::search`] does, ranking the `lines` best moves at every
    /// iteration (multi-PV, for analysis): `on_info` hears each depth's lines in order, best
    /// first, each with its own score and principal variation. The best line's move is
    /// played. More lines cost more time: each is a search of the root without the moves
    /// ranked above it.
    pub fn search_lines(
        &mut self,
        position: &P,
        history: &[P],
        limits: &Limits,
        stop: &StopHandle,
        lines: usize,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        let config = SearchConfig { lines: lines.max(1), ..SearchConfig::default() };
        self.search_with(position, history, limits, stop, config, on_info)
    }

    /// The static evaluation of a position for the side to move (no search).
    pub fn evaluate(position: &P) -> Score {
        Score::hundredths(position.evaluate(false))
    }

    pub(crate) fn search_with(
        &mut self,
        position: &P,
        history: &[P],
        limits: &Limits,
        stop: &StopHandle,
        config: SearchConfig,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        if !config.no_endgame_database {
            // Solved before the clock starts, so a search's limits are its own.
            position.endgame_database();
        }
        let started = Instant::now();
        self.last_root = Some(position.hash_key());
        let legal_list = position.legal_moves();
        let legal = legal_list.as_slice();
        match legal.len() {
            0 => {
                let score = if P::NO_MOVE_WINS { Score::win_in(0) } else { Score::loss_in(0) };
                return SearchResult {
                    best_move: None,
                    score,
                    depth: 0,
                    seldepth: 0,
                    nodes: 0,
                    elapsed: started.elapsed(),
                    pv: Vec::new(),
                };
            }
            1 if !limits.infinite => {
                let mv = legal[0];
                let score = -Engine::evaluate(&position.play_unchecked(&mv));
                return SearchResult {
                    best_move: Some(mv),
                    score,
                    depth: 0,
                    seldepth: 0,
                    nodes: 1,
                    elapsed: started.elapsed(),
                    pv: vec![mv],
                };
            }
            _ => {}
        }

        self.tt.new_search();
        let done = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared = Shared { tt: &self.tt, stop: stop.flag(), done: &done, nodes: &nodes, started };
        let (main_data, helpers) = self.threads.split_first_mut().expect("at least one thread");

        let mut report = |it: &Iteration<P::Move>, total_nodes: u64| {
            on_info(&SearchInfo {
                line: it.line,
                depth: it.depth,
                seldepth: it.seldepth,
                score: Score(it.score),
                nodes: total_nodes,
                elapsed: started.elapsed(),
                pv: it.pv.clone(),
            });
        };
        let best = std::thread::scope(|scope| {
            for (i, data) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                scope.spawn(move || {
                    let mut searcher = Searcher::new(shared, data, config, false, position, history);
                    let helper_limits = Limits { infinite: true, nodes: None, ..*limits };
                    searcher.iterate(position, &helper_limits, (i as u32 + 1) % 2, &mut |_, _| {});
                });
            }
            let mut searcher = Searcher::new(&shared, main_data, config, true, position, history);
            let best = searcher.iterate(position, limits, 0, &mut report);
            done.store(true, Ordering::Relaxed);
            best
        });

        let elapsed = started.elapsed();
        let total_nodes = nodes.load(Ordering::Relaxed);
        match best {
            Some(it) if it.pv.first().is_some_and(|m| legal.iter().any(|l| l == m)) => SearchResult {
                best_move: Some(it.pv[0]),
                score: Score(it.score),
                depth: it.depth,
                seldepth: it.seldepth,
                nodes: total_nodes,
                elapsed,
                pv: it.pv,
            },
            // Stopped before the first iteration finished: a legal move, the table's choice
            // if it has one.
            _ => {
                let mv = self.table_move(position, legal).unwrap_or(legal[0]);
                SearchResult {
                    best_move: Some(mv),
                    score: -Engine::evaluate(&position.play_unchecked(&mv)),
                    depth: 0,
                    seldepth: 0,
                    nodes: total_nodes,
                    elapsed,
                    pv: vec![mv],
                }
            }
        }
    }

    /// Every legal move with its score at `depth` (full window each), after a normal search
    /// to that depth has filled the table.
    pub(crate) fn root_scores(
        &mut self,
        position: &P,
        history: &[P],
        depth: u32,
        config: SearchConfig,
    ) -> Vec<(P::Move, Score)> {
        let stop = StopHandle::new();
        self.search_with(position, history, &Limits::depth(depth), &stop, config, &mut |_| {});
        let done = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared =
            Shared { tt: &self.tt, stop: stop.flag(), done: &done, nodes: &nodes, started: Instant::now() };
        let mut searcher = Searcher::new(&shared, &mut self.threads[0], config, true, position, history);
        searcher.root_scores(position, depth.max(1) as i32).into_iter().map(|(m, s)| (m, Score(s))).collect()
    }

    fn table_move(&self, position: &P, legal: &[P::Move]) -> Option<P::Move> {
        let best = self.tt.probe(position.hash_key())?.best?;
        legal.iter().copied().find(|m| best.matches(m))
    }
}
