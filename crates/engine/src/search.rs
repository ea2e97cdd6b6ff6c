//! The search: iterative deepening, principal variation search with a transposition table,
//! hash-move, killer, counter-move (English) and history ordering, late move reductions,
//! truncation of quiet nodes far outside the window (English), a single-reply extension, and
//! a capture search that runs until the position is quiet (a position with a capture is
//! never a leaf, since captures are compulsory).
//!
//! One [`Searcher`] runs in each thread; Lazy SMP threads share only the transposition table
//! and the stop flags.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use checkers_endgame::{Database, Value};
use checkers_rules::{is_drawn_king_against_king, Color, Move, MoveList, Position, Square, Variant};

use crate::endgame;
use crate::eval::{evaluate, evaluate_tables};
use crate::limits::Limits;
use crate::score::Score;
use crate::tt::{Bound, MoveKey, TranspositionTable};

/// Deepest ply the search reaches (iterations plus extensions plus capture sequences).
pub(crate) const MAX_PLY: usize = 128;
/// Deepest iteration.
pub(crate) const MAX_DEPTH: u32 = 100;
/// Futility margin per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 60;
/// Truncation: a quiet node whose evaluation lies this far outside the window (hundredths of
/// a man) is searched a ply shallower, and one more ply for each further step, up to the most.
const TRUNCATION_THRESHOLD: i32 = 100;
const TRUNCATION_STEP: i32 = 100;
const MAX_TRUNCATION: i32 = 2;
/// Late move reductions: ln(depth) * ln(move number) / this.
const LMR_DIVISOR: f64 = 1.6;
/// Shallowest depth at which the transposition table is used: one ply from the horizon,
/// probes cost a memory miss each and save less than that (measured with `checkers bench`).
const TT_MIN_DEPTH: i32 = 2;
/// Shallowest depth at which a node looks its children up in the table before searching them.
const ETC_MIN_DEPTH: i32 = 4;
const INFINITY: i32 = Score::WIN + 1;
const WIN_BOUND: i32 = Score::WIN - Score::MAX_PLIES_TO_END;
/// The score of a win the endgame database knows (less the ply, plus the evaluation).
const DATABASE_WIN: i32 = 10_000;

fn piece_count(position: &Position) -> u32 {
    position.pieces(Color::White).len() + position.pieces(Color::Black).len()
}

/// How a search is bent away from the full engine (the levels use this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchConfig {
    /// How many of the root's best moves each iteration ranks, each with its own score and
    /// line (multi-PV: analysis); 1 for play.
    pub lines: usize,
    /// Half-width of the deterministic noise added to every evaluation.
    pub eval_noise: i32,
    pub noise_seed: u64,
    /// Plays without the endgame database (the blurred levels do not know it).
    pub no_endgame_database: bool,
    /// Evaluates by the fitted tables even where the variant has a network (the Russian
    /// levels below 9, so that each level stays clearly above the one below it).
    pub tables_only: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            lines: 1,
            eval_noise: 0,
            noise_seed: 0,
            no_endgame_database: false,
            tables_only: false,
        }
    }
}

/// What the search keeps for one ply of the path: one record, so a node's data sits together
/// in memory and is reached by one index.
struct PlyData {
    moves: MoveList,
    /// Move-ordering keys (see [`ORDER_INDEX_BITS`]), best first once sorted.
    order: Vec<i64>,
    /// The children's hash keys by generator index, when the node computed them to prefetch.
    child_keys: Vec<u64>,
    killers: [KillerKey; 2],
    /// The [`from_to`] of the move being searched from this node (its children's previous move).
    played: KillerKey,
    pv: Vec<Move>,
}

/// Per-thread tables kept from one search to the next (cleared for a new game).
pub(crate) struct ThreadData {
    /// A fixed-size array: the search never goes past `MAX_PLY`, so indexing it needs no
    /// length loaded and most bounds checks fold away.
    plies: Box<[PlyData; MAX_PLY + 1]>,
    /// Quiet-move history by [`from_to`].
    history: Vec<i32>,
    /// The quiet move that last refuted each previous move, by the previous move's [`from_to`]
    /// (English only).
    counters: Vec<KillerKey>,
    /// Recent evaluations by position, see [`EvalCache`].
    eval_cache: EvalCache,
    /// Scratch space for sorting a node's move keys.
    sorted: Vec<i64>,
}

impl ThreadData {
    pub fn new() -> ThreadData {
        let ply = || PlyData {
            moves: MoveList::new(),
            order: Vec::with_capacity(64),
            child_keys: Vec::with_capacity(64),
            killers: [NO_KILLER; 2],
            played: NO_KILLER,
            pv: Vec::with_capacity(MAX_PLY),
        };
        ThreadData {
            plies: Box::new(std::array::from_fn(|_| ply())),
            history: vec![0; 64 * 64],
            counters: vec![NO_KILLER; 64 * 64],
            eval_cache: EvalCache::new(),
            sorted: Vec::with_capacity(64),
        }
    }
    pub fn clear(&mut self) {
        self.plies.iter_mut().for_each(|p| p.killers = [NO_KILLER; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = NO_KILLER);
    }
}

/// What the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// The caller's stop switch.
    pub stop: &'a AtomicBool,
    /// Set when the main thread is done, to release the helpers.
    pub done: &'a AtomicBool,
    /// Nodes of all threads, updated now and then.
    pub nodes: &'a AtomicU64,
    pub started: Instant,
}

/// A finished iteration.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    /// Which of the iteration's ranked root moves this is: 1 for the best.
    pub line: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// Bit index of a square, for tables.
#[inline(always)]
pub(crate) fn index(square: Square) -> usize {
    (square.rank() * 8 + square.file()) as usize
}

#[inline(always)]
fn move_key(mv: &Move, list_index: usize) -> MoveKey {
    MoveKey { index: list_index as u8, from: index(mv.from()) as u8, to: index(mv.to()) as u8 }
}

/// A killer move (always a quiet move: no capture, no crowning) by its start and end bit
/// indices; comparing two bytes is cheaper than comparing whole moves on every node.
type KillerKey = u16;
const NO_KILLER: KillerKey = u16::MAX;

/// A move's start and end bit indices in twelve bits: the index of history and killers.
#[inline(always)]
fn from_to(mv: &Move) -> usize {
    index(mv.from()) | index(mv.to()) << 6
}

#[inline(always)]
fn killer_key(mv: &Move) -> Option<KillerKey> {
    (!mv.is_capture() && !mv.crowns()).then(|| from_to(mv) as KillerKey)
}

/// An ordering key is a move's priority shifted left by this, plus the move's index in the
/// generator's list (so keys are unique and name their move; no list comes near 2^16 moves).
const ORDER_INDEX_BITS: u32 = 16;

#[inline(always)]
fn generated_index(order_key: i64) -> usize {
    (order_key & ((1 << ORDER_INDEX_BITS) - 1)) as usize
}

/// Move-ordering priorities. History scores stay far below the killers'.
const HASH_MOVE_PRIORITY: i64 = 1 << 30;
const CAPTURE_PRIORITY: i64 = 1 << 20;
const CROWNING_PRIORITY: i64 = 1 << 19;
const KILLER_PRIORITY: i64 = 1 << 18;
/// The counter move: after the killers, above any history value (those stay within ±16,384).
const COUNTER_PRIORITY: i64 = 1 << 17;

/// splitmix64: a cheap, well-mixed hash for noise and seeds.
#[inline]
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Scores stored in the table are relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Late move reductions by depth and move number (both capped at 63).
fn reduction(depth: i32, move_number: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Vec<[i8; 64]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                std::array::from_fn(|m| {
                    let r = (f64::from(d.max(1)).ln() * (m.max(1) as f64).ln() / LMR_DIVISOR + 0.3) as i8;
                    r.max(1)
                })
            })
            .collect()
    });
    i32::from(table[depth.clamp(0, 63) as usize][move_number.min(63)])
}

pub(crate) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    data: &'a mut ThreadData,
    config: SearchConfig,
    main: bool,
    pub nodes: u64,
    reported_nodes: u64,
    node_limit: u64,
    hard_deadline: Option<Instant>,
    aborted: bool,
    /// The game so far and the search path, the current position last.
    path: Vec<PathEntry>,
    quiet_ply_limit: u32,
    variant: Variant,
    seldepth: usize,
    /// The best root move of the current iteration, once one has been confirmed.
    root_best: Option<(Move, i32)>,
    /// Root moves left out of the search: the better lines the iteration has already ranked
    /// (multi-PV).
    root_skip: Vec<Move>,
    /// The endgame database, unless the search is told to play without it.
    endgame: Option<&'static Database>,
    /// The most pieces a position the database holds can have (0 without one), kept beside
    /// it so that the test every node makes is one comparison.
    endgame_pieces: u32,
    /// Whether the database's wins and losses end the search of a node, or only its draws:
    /// from a root inside the database every move wins alike, so the search must find the
    /// way to the win itself; and Russian wins may be draws under the move-count rules.
    endgame_wins: bool,
}

impl<'a> Searcher<'a> {
    pub fn new(
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData,
        config: SearchConfig,
        main: bool,
        root: &Position,
        history: &[Position],
    ) -> Searcher<'a> {
        let variant = root.variant();
        let path = game_path(root, history);
        let endgame = (!config.no_endgame_database).then(|| endgame::database(variant));
        let endgame_wins =
            endgame::wins_hold(variant) && endgame.is_some_and(|db| piece_count(root) > db.max_pieces());
        Searcher {
            shared,
            data,
            config,
            main,
            nodes: 0,
            reported_nodes: 0,
            node_limit: u64::MAX,
            hard_deadline: None,
            aborted: false,
            path,
            // English: the 40-move rule; Russian: 15 moves of kings alone without a capture.
            quiet_ply_limit: match variant {
                Variant::English => 80,
                Variant::Russian => 30,
            },
            variant,
            seldepth: 0,
            root_best: None,
            root_skip: Vec::new(),
            endgame_pieces: endgame.map_or(0, |db| db.max_pieces()),
            endgame,
            endgame_wins,
        }
    }

    /// Iterative deepening until a limit; calls `report` after each finished iteration (main
    /// thread only). Returns the last finished iteration, or a partial one if stopped early.
    pub fn iterate(
        &mut self,
        root: &Position,
        limits: &Limits,
        depth_offset: u32,
        report: &mut dyn FnMut(&Iteration, u64),
    ) -> Option<Iteration> {
        let plan = TimePlan::new(limits, self.shared.started);
        self.hard_deadline = plan.hard;
        if let Some(n) = limits.nodes {
            self.node_limit = n.max(1);
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best: Option<Iteration> = None;
        // Helpers only fill the table: ranking the root's moves is the main thread's work.
        let lines = if self.main { self.config.lines.max(1) } else { 1 };
        // Each line's score in the last finished iteration, its next aspiration window.
        let mut previous: Vec<i32> = Vec::new();
        let mut depth = 1 + depth_offset;
        'deepening: while depth <= max_depth {
            let mut ranked: Vec<Iteration> = Vec::with_capacity(lines);
            self.root_skip.clear();
            for line in 1..=lines as u32 {
                self.root_best = None;
                self.seldepth = 0;
                let score = self.aspiration(root, depth as i32, previous.get(line as usize - 1).copied());
                if self.aborted {
                    if line == 1 {
                        self.keep_partial_iteration(&mut best, depth);
                    } else {
                        // The best line of this depth is finished: it is worth more than the
                        // last depth's.
                        best = ranked.into_iter().next();
                    }
                    break 'deepening;
                }
                let pv = self.data.plies[0].pv.clone();
                if pv.is_empty() {
                    break; // no legal move at the root, or none left to rank
                }
                self.root_skip.push(pv[0]);
                ranked.push(Iteration { line, depth, seldepth: self.seldepth as u32, score, pv });
            }
            self.root_skip.clear();
            if ranked.is_empty() {
                break;
            }
            // A later line can come out above an earlier one (its search saw more): rank by
            // score, and play the first.
            ranked.sort_by_key(|it| std::cmp::Reverse(it.score));
            for (i, it) in ranked.iter_mut().enumerate() {
                it.line = i as u32 + 1;
            }
            if self.main {
                self.flush_nodes();
                let nodes = self.shared.nodes.load(Ordering::Relaxed);
                ranked.iter().for_each(|it| report(it, nodes));
            }
            previous = ranked.iter().map(|it| it.score).collect();
            let score = ranked[0].score;
            best = ranked.into_iter().next();
            if !limits.infinite {
                if let Some(soft) = plan.soft {
                    if Instant::now() >= soft {
                        break;
                    }
                }
                // A proven result needs no deeper search.
                if score.abs() >= WIN_BOUND && (Score::WIN - score.abs()) < depth as i32 {
                    break;
                }
            }
            depth += 1;
        }
        self.flush_nodes();
        best
    }

    /// Takes the moves the iteration has already ranked out of the root's list (multi-PV;
    /// once an iteration a line, so kept out of the node's own code).
    #[cold]
    #[inline(never)]
    fn leave_out_ranked_root_moves(&mut self) {
        let skip = &self.root_skip;
        self.data.plies[0].moves.retain(|m| !skip.contains(m));
    }

    /// Stopped in the first line of an iteration: keeps a root move it has already proved
    /// better than the last finished iteration's, or, with none finished, the one it has.
    fn keep_partial_iteration(&self, best: &mut Option<Iteration>, depth: u32) {
        match (self.root_best, best.as_mut()) {
            (Some((mv, s)), Some(b)) if mv != b.pv[0] && s > b.score => {
                b.pv = vec![mv];
                b.score = s;
            }
            (Some((mv, s)), None) => {
                *best = Some(Iteration {
                    line: 1,
                    depth,
                    seldepth: self.seldepth as u32,
                    score: s,
                    pv: vec![mv],
                });
            }
            _ => {}
        }
    }

    fn aspiration(&mut self, root: &Position, depth: i32, previous: Option<i32>) -> i32 {
        let Some(prev) = previous.filter(|p| depth >= 5 && p.abs() < WIN_BOUND) else {
            return self.negamax(root, depth, -INFINITY, INFINITY, 0, true);
        };
        let mut delta = 25;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, true);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
                beta = (alpha + beta) / 2;
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 400 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.reported_nodes, Ordering::Relaxed);
        self.reported_nodes = self.nodes;
    }

    /// Counts a node and checks the limits; true when the search must unwind.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if self.shared.stop.load(Ordering::Relaxed)
                || (!self.main && self.shared.done.load(Ordering::Relaxed))
                || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    #[inline(always)]
    fn evaluate(&mut self, position: &Position) -> i32 {
        let score = self.data.eval_cache.evaluate(position, self.config.tables_only);
        if self.config.eval_noise == 0 {
            return score;
        }
        let width = 2 * self.config.eval_noise as u64 + 1;
        let noise =
            (mix(position.hash_key() ^ self.config.noise_seed) % width) as i32 - self.config.eval_noise;
        score + noise
    }

    /// The database's score for a position, if it holds it: a draw is 0, a win a score far
    /// above any evaluation yet below forced wins, with the evaluation added so that the
    /// search still prefers the simpler of two wins.
    #[inline(always)]
    fn endgame_score(&mut self, position: &Position, ply: usize) -> Option<i32> {
        // Most nodes have too many pieces: that test is inlined, the probe is not.
        if piece_count(position) > self.endgame_pieces {
            return None;
        }
        self.probe_endgame(position, ply)
    }

    #[inline(never)]
    fn probe_endgame(&mut self, position: &Position, ply: usize) -> Option<i32> {
        let db = self.endgame?;
        let value = db.probe(position)?;
        if value == Value::Draw {
            return Some(0);
        }
        if !self.endgame_wins {
            return None;
        }
        // The evaluation is the side to move's, added either way: a loser scores a worse
        // ending lower, and so the winner above it prefers the better one.
        let known = DATABASE_WIN - ply as i32;
        let sign = if value == Value::Win { 1 } else { -1 };
        Some(sign * known + self.evaluate(position).clamp(-1_000, 1_000))
    }

    /// Draw by repetition (twice within reach counts), by the move-count rules, or by the
    /// Russian lone king against a lone king that neither side can catch.
    #[inline]
    fn is_draw(&self, position: &Position) -> bool {
        let last = self.path.len() - 1;
        let quiet = self.path[last].quiet_plies;
        if quiet >= self.quiet_ply_limit {
            return true;
        }
        if quiet >= 4 {
            let key = self.path[last].key;
            let mut i = last - 4;
            let oldest = last - quiet as usize;
            loop {
                if self.path[i].key == key {
                    return true;
                }
                if i < oldest + 2 {
                    break;
                }
                i -= 2;
            }
        }
        // A lone king against a lone king is drawn only when neither can force a capture.
        self.variant == Variant::Russian && is_drawn_king_against_king(position)
    }

    /// Enters the child that `mv` leads to, whose hash key is `key`, on the path.
    #[inline]
    fn push(&mut self, position: &Position, mv: &Move, key: u64) {
        let quiet_plies = if mv.is_capture() || position.men_of(position.turn()).contains(mv.from()) {
            0
        } else {
            self.path[self.path.len() - 1].quiet_plies + 1
        };
        self.path.push(PathEntry { key, quiet_plies });
    }

    #[inline]
    fn pop(&mut self) {
        self.path.pop();
    }

    /// Searches a child: at the horizon straight into the capture search, saving the call
    /// into the full node's larger frame.
    #[inline(always)]
    fn child(
        &mut self,
        position: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            self.quiesce(position, alpha, beta, ply)
        } else {
            self.negamax(position, depth, alpha, beta, ply, pv_node)
        }
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiesce(position, alpha, beta, ply);
        }
        self.data.plies[ply].pv.clear();
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply > 0 {
            if self.is_draw(position) {
                return 0;
            }
            if let Some(score) = self.endgame_score(position, ply) {
                return score;
            }
            // No win can be quicker than the one already found.
            alpha = alpha.max(-Score::WIN + ply as i32);
            beta = beta.min(Score::WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(position);
        }

        // The path ends with this position's key (pushed by the parent, or the root's own).
        let key = self.path[self.path.len() - 1].key;
        let mut hash_move: Option<MoveKey> = None;
        // Nodes one ply from the horizon are many and cheap: the table is not worth its
        // memory traffic there.
        let use_table = depth >= TT_MIN_DEPTH;
        if let Some(entry) = if use_table { self.shared.tt.probe(key) } else { None } {
            hash_move = entry.best;
            if !pv_node && entry.depth >= depth {
                let score = from_tt(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        // Without a remembered best move, a deep node is searched a little shallower
        // (internal iterative reduction): its result mostly serves to find that move.
        let depth = if hash_move.is_none() && depth >= 4 { depth - 1 } else { depth };
        position.generate_moves(&mut self.data.plies[ply].moves);
        if ply == 0 && !self.root_skip.is_empty() {
            self.leave_out_ranked_root_moves();
        }
        let n = self.data.plies[ply].moves.len();
        if n == 0 {
            return -Score::WIN + ply as i32;
        }
        // Forced moves cost nothing to look past. Not at the root: a root with one legal move
        // is played without a search, and the last move a multi-PV iteration ranks is not
        // forced.
        let extension = i32::from(n == 1 && (1..MAX_PLY / 2).contains(&ply));
        let keys_known = depth > TT_MIN_DEPTH;
        if keys_known {
            // The children will probe the table: start fetching their entries now, so the
            // memory latency overlaps the ordering and the earlier siblings' searches. Their
            // keys are kept for entering them on the path.
            let here = &mut self.data.plies[ply];
            let tt = self.shared.tt;
            here.child_keys.clear();
            here.child_keys.extend(here.moves.iter().map(|mv| {
                let key = position.play_unchecked(mv).hash_key();
                tt.prefetch(key);
                key
            }));
        }
        self.order_moves(hash_move, ply);
        // Enhanced transposition cutoff: a child the table already knows to be bad enough for
        // the opponent (at its full depth) refutes this node before any child is searched;
        // transpositions are common in checkers, where men only move forwards.
        if keys_known && !pv_node && depth >= ETC_MIN_DEPTH {
            let child_depth = depth - 1 + extension;
            let here = &self.data.plies[ply];
            for (generated, &child_key) in here.child_keys.iter().enumerate() {
                if let Some(entry) = self.shared.tt.probe(child_key) {
                    let score = -from_tt(entry.score, ply + 1);
                    if entry.depth >= child_depth && entry.bound != Bound::Lower && score >= beta {
                        let best = move_key(&here.moves[generated], generated);
                        self.shared.tt.store(key, to_tt(score, ply), depth, Bound::Lower, Some(best));
                        return score;
                    }
                }
            }
        }

        let quiet_node = !self.data.plies[ply].moves[0].is_capture();
        // The static evaluation, once: truncation and futility both ask for it.
        let mut static_eval: Option<i32> = None;
        let depth = if !pv_node && quiet_node && depth >= 3 && ply > 0 && alpha.abs() < WIN_BOUND {
            depth - self.truncation(position, alpha, depth, &mut static_eval)
        } else {
            depth
        };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = usize::MAX;
        // Near the horizon, in a quiet position far below alpha, quiet moves are unlikely to
        // help: they are pruned (futility), and late ones are not tried at all.
        let prune = !pv_node && quiet_node && depth <= 3 && alpha.abs() < WIN_BOUND;
        // Whether the position is futile matters only once the first move has failed to cut,
        // which most of these nodes never reach: its evaluation waits until then.
        let mut futile = false;
        let late_move_limit = if prune { 3 + (depth * depth) as usize } else { usize::MAX };
        for i in 0..n {
            if i == 1 && prune {
                let eval = *static_eval.get_or_insert_with(|| self.evaluate(position));
                futile = eval + FUTILITY_MARGIN * depth <= original_alpha;
            }
            // Bring the best remaining move's key to position i, by picking it or, once the
            // first move failed to cut, by sorting the rest once (the moves stay in the
            // generator's order; a key ends with its move's index there).
            let order_key = {
                let order = &mut self.data.plies[ply].order[..n];
                if i == 0 || futile {
                    // Most nodes end after one move, pruned ones after a few: pick the best
                    // remaining key, in one scan by selections (where it is, the branch
                    // predictor cannot guess; keys are unique).
                    let rest = &mut order[i..];
                    let (mut best, mut pick) = (rest[0], 0);
                    for (j, &k) in rest.iter().enumerate().skip(1) {
                        let better = k > best;
                        best = if better { k } else { best };
                        pick = if better { j } else { pick };
                    }
                    rest.swap(0, pick);
                } else if i == 1 {
                    // The first move did not cut: this node will likely try them all. Each
                    // key's place is the number of keys above it (keys are unique): more
                    // comparisons than a sort makes, but none that branches.
                    let rest = &order[1..];
                    let sorted = &mut self.data.sorted;
                    sorted.clear();
                    sorted.resize(rest.len(), 0);
                    for &key in rest {
                        let place = rest.iter().fold(0, |above, &other| above + usize::from(other > key));
                        sorted[place] = key;
                    }
                    self.data.plies[ply].order[1..n].copy_from_slice(&self.data.sorted);
                }
                self.data.plies[ply].order[i]
            };
            let generated = generated_index(order_key);
            let mv = self.data.plies[ply].moves[generated];
            let priority = order_key >> ORDER_INDEX_BITS;
            let is_killer = priority == KILLER_PRIORITY || priority == KILLER_PRIORITY + 1;
            // One branch for the whole test (`&`, not `&&`): its parts are cheap, and their
            // outcomes are what the predictor cannot guess.
            if (i > 0) & !mv.crowns() & !is_killer & (futile | (i >= late_move_limit)) {
                // Pruning happens only among quiet moves, where crowning moves and killers
                // outrank every move ordered by history alone: all that follow are pruned too.
                break;
            }
            let child = position.play_unchecked(&mv);
            self.data.plies[ply].played = from_to(&mv) as KillerKey;
            let new_depth = depth - 1 + extension;
            // A child at the horizon goes straight to the capture search, which never looks
            // at the path (no draw or table checks there): leave it off.
            let on_path = new_depth > 0;
            if on_path {
                let key =
                    if keys_known { self.data.plies[ply].child_keys[generated] } else { child.hash_key() };
                self.push(position, &mv, key);
            }
            let quiet = !mv.is_capture() && !mv.crowns();
            let score = if i == 0 {
                -self.child(&child, new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut r = 0;
                if depth >= 2 && quiet && i > usize::from(pv_node) && !is_killer {
                    r = reduction(depth, i) - i32::from(pv_node);
                    if !pv_node && self.data.history[from_to(&mv)] < 0 {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.child(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 {
                    s = -self.child(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.child(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if on_path {
                self.pop();
            }
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.data.plies.split_at_mut(ply + 1);
                        let line = &mut head[ply].pv;
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0].pv);
                    }
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(i, depth, ply);
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let best_key = (bound != Bound::Upper).then(|| {
            let here = &self.data.plies[ply];
            let generated = generated_index(here.order[best_index]);
            move_key(&here.moves[generated], generated)
        });
        // A root searched without its best moves is not the root's value.
        if use_table && (ply > 0 || self.root_skip.is_empty()) {
            self.shared.tt.store(key, to_tt(best_score, ply), depth, bound, best_key);
        }
        best_score
    }

    /// How many plies shallower to search a quiet node whose evaluation lies far outside the
    /// null window at `alpha` (as Cake does): lines already clearly won or lost for one side
    /// seldom change the parent's result, and the plies saved go to the lines that might.
    /// English only: in Russian it measured no gain.
    fn truncation(
        &mut self,
        position: &Position,
        alpha: i32,
        depth: i32,
        static_eval: &mut Option<i32>,
    ) -> i32 {
        if position.variant() != Variant::English {
            return 0;
        }
        let eval = *static_eval.get_or_insert_with(|| self.evaluate(position));
        let distance = (alpha - eval).max(eval - alpha - 1);
        if distance <= TRUNCATION_THRESHOLD {
            return 0;
        }
        (1 + (distance - TRUNCATION_THRESHOLD) / TRUNCATION_STEP).min(MAX_TRUNCATION).min(depth - 2)
    }

    /// Captures until the position is quiet; a quiet position is scored as it stands.
    fn quiesce(&mut self, position: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.data.plies[ply].pv.clear();
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(position);
        }
        if ply > 0 {
            if let Some(score) = self.endgame_score(position, ply) {
                return score;
            }
        }
        // One look for captures: none means a quiet position (asking `has_capture` first and
        // then generating would look twice).
        position.generate_captures(&mut self.data.plies[ply].moves);
        let n = self.data.plies[ply].moves.len();
        if n == 0 {
            return self.evaluate(position);
        }
        let mut best = -INFINITY;
        for i in 0..n {
            // Larger captures first (selection step; lists are short).
            {
                let moves = self.data.plies[ply].moves.as_mut_slice();
                let mut pick = i;
                for j in i + 1..n {
                    if moves[j].captured().len() > moves[pick].captured().len() {
                        pick = j;
                    }
                }
                moves.swap(i, pick);
            }
            let mv = self.data.plies[ply].moves[i];
            let child = position.play_unchecked(&mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn order_moves(&mut self, hash_move: Option<MoveKey>, ply: usize) {
        // The quiet move that last refuted the opponent's move just played, anywhere in the
        // tree (the counter-move heuristic). English only: in Russian it measured no gain.
        let counter = self.previous_move(ply).map_or(NO_KILLER, |previous| self.data.counters[previous]);
        let here = &mut self.data.plies[ply];
        let list = &here.moves;
        let order = &mut here.order;
        order.clear();
        let killers = here.killers;
        let hash_index = hash_move.and_then(|h| {
            let i = h.index as usize;
            let fits = |m: &Move| index(m.from()) == h.from as usize && index(m.to()) == h.to as usize;
            if i < list.len() && fits(&list[i]) {
                Some(i)
            } else {
                list.iter().position(fits)
            }
        });
        let history = &self.data.history;
        // Captures are compulsory, so a node's moves are all captures or all quiet: one test
        // for the whole list instead of one a move.
        if list.as_slice().first().is_some_and(Move::is_capture) {
            order.extend(list.iter().enumerate().map(|(i, mv)| {
                let priority =
                    CAPTURE_PRIORITY + 1000 * i64::from(mv.captured().len()) + 100 * i64::from(mv.crowns());
                (priority << ORDER_INDEX_BITS) | i as i64
            }));
        } else {
            // Selections rather than branches: which move is a killer is what the branch
            // predictor cannot guess.
            order.extend(list.iter().enumerate().map(|(i, mv)| {
                let key = from_to(mv);
                let mut priority = i64::from(history[key]);
                priority = if key == usize::from(counter) { COUNTER_PRIORITY } else { priority };
                priority = if key == usize::from(killers[1]) { KILLER_PRIORITY } else { priority };
                priority = if key == usize::from(killers[0]) { KILLER_PRIORITY + 1 } else { priority };
                priority = if mv.crowns() { CROWNING_PRIORITY } else { priority };
                (priority << ORDER_INDEX_BITS) | i as i64
            }));
        }
        if let Some(i) = hash_index {
            order[i] = (HASH_MOVE_PRIORITY << ORDER_INDEX_BITS) | i as i64;
        }
    }

    /// The [`from_to`] of the move that led to this node, for its counter move: none at the
    /// root, in Russian, or below a parent that has recorded no move yet.
    fn previous_move(&self, ply: usize) -> Option<usize> {
        if ply == 0 || self.variant != Variant::English {
            return None;
        }
        let played = self.data.plies[ply - 1].played;
        (played != NO_KILLER).then_some(usize::from(played))
    }

    /// A quiet move caused a cut-off: remember it as a killer and as the answer to the move
    /// before it, and raise its history, lowering the quiet moves tried before it.
    fn reward(&mut self, cut_index: usize, depth: i32, ply: usize) {
        let previous = self.previous_move(ply);
        let here = &mut self.data.plies[ply];
        let list = &here.moves;
        let generated = |k: i64| &list[generated_index(k)];
        let order = &here.order;
        let mv = *generated(order[cut_index]);
        let killers = &mut here.killers;
        let key = killer_key(&mv).unwrap_or(NO_KILLER);
        if killers[0] != key {
            killers[1] = killers[0];
            killers[0] = key;
        }
        if let Some(previous) = previous {
            self.data.counters[previous] = key;
        }
        let bonus = (depth * depth).min(400);
        let history = &mut self.data.history;
        let mut update = |m: &Move, delta: i32| {
            let h = &mut history[from_to(m)];
            *h += delta - *h * delta.abs() / 16_384;
        };
        update(&mv, bonus);
        for m in order[..cut_index].iter().map(|&k| generated(k)).filter(|m| !m.is_capture()) {
            update(m, -bonus);
        }
    }
}

/// Evaluations of recently seen positions, one search thread's: a third to a half of the
/// evaluations a search asks for are of positions it evaluated moments before (transposed
/// leaves, a parent's truncation and futility tests), and the English network makes a node
/// about an eighth slower. An entry is a position's key with its low bits (the entry's
/// index) replaced by the evaluation, so it fits in eight bytes and the table in the core's
/// second-level cache. The key is the position's hash key with the variant and the evaluator
/// mixed in: the hash key leaves the variant out, and an engine may search both variants, at
/// several levels, without clearing this.
struct EvalCache {
    entries: Box<[u64]>,
}

const EVAL_CACHE_BITS: u32 = 15;
const EVAL_CACHE_MASK: u64 = (1 << EVAL_CACHE_BITS) - 1;

impl EvalCache {
    fn new() -> EvalCache {
        // Every bit set: only a key whose upper 48 bits are all ones (odds 2^-48) would read
        // an empty entry, as -1.
        EvalCache { entries: vec![u64::MAX; 1 << EVAL_CACHE_BITS].into_boxed_slice() }
    }

    #[inline(always)]
    fn evaluate(&mut self, position: &Position, tables_only: bool) -> i32 {
        let variant = match position.variant() {
            Variant::English => 0,
            Variant::Russian => 0x6a09_e667_f3bc_c909,
        };
        let evaluator = if tables_only { 0xbb67_ae85_84ca_a73b } else { 0 };
        let key = position.hash_key() ^ variant ^ evaluator;
        let slot = &mut self.entries[(key & EVAL_CACHE_MASK) as usize];
        let tag = key & !0xffff;
        if *slot & !0xffff == tag {
            return i32::from(*slot as u16 as i16);
        }
        let score = if tables_only { evaluate_tables(position) } else { evaluate(position) };
        if let Ok(short) = i16::try_from(score) {
            *slot = tag | u64::from(short as u16);
        }
        score
    }
}

/// One position of the game or the search path, for the draw rules.
#[derive(Clone, Copy)]
struct PathEntry {
    key: u64,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
}

/// The path entries of the game before the root and of the root itself.
fn game_path(root: &Position, history: &[Position]) -> Vec<PathEntry> {
    let mut path: Vec<PathEntry> = Vec::with_capacity(history.len() + MAX_PLY + 2);
    let positions = history.iter().chain(std::iter::once(root));
    let mut previous: Option<&Position> = None;
    for p in positions {
        let count = match previous {
            // A move that leaves every man where it was and takes nothing moved a king.
            Some(prev)
                if prev.men_of(Color::White) == p.men_of(Color::White)
                    && prev.men_of(Color::Black) == p.men_of(Color::Black)
                    && prev.kings().len() == p.kings().len()
                    && prev.turn() != p.turn() =>
            {
                path.last().map_or(0, |e| e.quiet_plies) + 1
            }
            _ => 0,
        };
        path.push(PathEntry { key: p.hash_key(), quiet_plies: count });
        previous = Some(p);
    }
    path
}

/// When to stop: the hard deadline ends the search mid-iteration; past the soft one no new
/// iteration starts.
struct TimePlan {
    soft: Option<Instant>,
    hard: Option<Instant>,
}

impl TimePlan {
    fn new(limits: &Limits, started: Instant) -> TimePlan {
        if limits.infinite {
            return TimePlan { soft: None, hard: None };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(t) = limits.movetime {
            let margin = (t / 20).min(Duration::from_millis(20));
            // A fixed time per move saves nothing for later moves: search until the hard
            // deadline, whose unfinished iteration can still change the move.
            hard = Some(t.saturating_sub(margin).max(Duration::from_millis(1)));
        }
        if let Some(clock) = limits.clock {
            let moves = clock.moves_to_go.unwrap_or(24).clamp(1, 60);
            let reserve = Duration::from_millis(30).min(clock.remaining / 4);
            let usable = clock.remaining.saturating_sub(reserve);
            let target = (usable / moves + clock.increment * 3 / 4).min(usable / 2);
            let cap = (target * 3).min(usable / 3 + clock.increment / 2).max(Duration::from_millis(1));
            soft = Some(target * 6 / 10);
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        TimePlan { soft: soft.map(|d| started + d), hard: hard.map(|d| started + d) }
    }
}

impl Searcher<'_> {
    /// Every root move with its score from a full-window search `depth` plies deep (the
    /// levels use this to weigh near-equal moves). Moves are in generator order.
    pub fn root_scores(&mut self, root: &Position, depth: i32) -> Vec<(Move, i32)> {
        let moves = root.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves.iter() {
            let child = root.play_unchecked(mv);
            self.push(root, mv, child.hash_key());
            // As negamax's move loop does, so that ply 1 finds its counter moves by this one.
            self.data.plies[0].played = from_to(mv) as KillerKey;
            let score = -self.negamax(&child, depth - 1, -INFINITY, INFINITY, 1, true);
            self.pop();
            if self.aborted {
                break;
            }
            out.push((*mv, score));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_table_keeps_the_variants_and_the_evaluators_apart() {
        let fen = "W:W22,25,27,29:B11,14,18";
        let english = Position::from_fen(Variant::English, fen).unwrap();
        let russian = Position::from_fen(Variant::Russian, fen).unwrap();
        assert_eq!(english.hash_key(), russian.hash_key(), "the hash key leaves the variant out");
        assert_ne!(evaluate(&english), evaluate(&russian));
        assert_ne!(evaluate(&russian), evaluate_tables(&russian));
        let mut table = EvalCache::new();
        for _ in 0..2 {
            assert_eq!(table.evaluate(&english, false), evaluate(&english));
            assert_eq!(table.evaluate(&russian, false), evaluate(&russian));
            assert_eq!(table.evaluate(&russian, true), evaluate_tables(&russian));
            assert_eq!(table.evaluate(&english, true), evaluate_tables(&english));
        }
    }

    #[test]
    fn a_fixed_move_time_is_spent_whole_and_a_clock_is_budgeted() {
        let start = Instant::now();
        let plan = TimePlan::new(&Limits::movetime(Duration::from_millis(500)), start);
        assert_eq!(plan.soft, None, "no iteration is skipped to save time for later moves");
        assert_eq!(plan.hard, Some(start + Duration::from_millis(480)));

        let clock = Limits::clock(Duration::from_secs(60), Duration::ZERO);
        let plan = TimePlan::new(&clock, start);
        let (soft, hard) = (plan.soft.unwrap() - start, plan.hard.unwrap() - start);
        assert!(soft < hard && hard < Duration::from_secs(20), "soft {soft:?}, hard {hard:?}");
        assert_eq!(TimePlan::new(&Limits::infinite(), start).hard, None);
    }
}
