//! The search: iterative deepening, principal variation search with a transposition table,
//! hash-move, killer, counter-move (English) and history ordering, late move reductions,
//! truncation of quiet nodes far outside the window (English), a single-reply extension, and
//! a capture search that runs until the position is quiet (a position with a capture is
//! never a leaf, since captures are compulsory).
//!
//! One [`Searcher`] runs in each thread; Lazy SMP threads share only the transposition table
//! and the stop flags.

mod draw;
mod eval_cache;
mod ordering;
mod picker;
mod thread_data;
mod time;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use checkers_endgame::{Database, Value};

use crate::game::{MoveBuffer, SearchMove, SearchPosition, SearchRules};
use crate::limits::{Limits, MAX_DEPTH};
use crate::mix::splitmix64;
use crate::score::Score;
use crate::tt::{score_from_tt, score_to_tt, Bound, MoveKey, TranspositionTable};
use draw::PathEntry;
use ordering::{from_to, generated_index, FromTo};
use picker::MovePicker;
pub(crate) use thread_data::ThreadData;
use time::TimePlan;

/// Deepest ply the search reaches (iterations plus extensions plus capture sequences).
pub(crate) const MAX_PLY: usize = 128;
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
/// The score of a win the endgame database knows (less the ply, plus the evaluation).
const DATABASE_WIN: i32 = 10_000;

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
pub(crate) struct Iteration<M> {
    /// Which of the iteration's ranked root moves this is: 1 for the best.
    pub line: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub pv: Vec<M>,
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

/// One search thread's search.
pub(crate) struct Searcher<'a, P: SearchPosition> {
    shared: &'a Shared<'a>,
    data: &'a mut ThreadData<P>,
    config: SearchConfig,
    main: bool,
    pub nodes: u64,
    reported_nodes: u64,
    node_limit: u64,
    hard_deadline: Option<Instant>,
    aborted: bool,
    /// The game so far and the search path, the current position last.
    path: Vec<PathEntry>,
    /// How the variant's searches differ.
    rules: SearchRules,
    seldepth: usize,
    /// The best root move of the current iteration, once one has been confirmed.
    root_best: Option<(P::Move, i32)>,
    /// Root moves left out of the search: the better lines the iteration has already ranked
    /// (multi-PV).
    root_skip: Vec<P::Move>,
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

impl<'a, P: SearchPosition> Searcher<'a, P> {
    pub fn new(
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData<P>,
        config: SearchConfig,
        main: bool,
        root: &P,
        history: &[P],
    ) -> Searcher<'a, P> {
        let path = draw::game_path(root, history);
        let endgame = if config.no_endgame_database { None } else { root.endgame_database() };
        let endgame_wins =
            root.database_wins_hold() && endgame.is_some_and(|db| root.piece_count() > db.max_pieces());
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
            rules: root.search_rules(),
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
        root: &P,
        limits: &Limits,
        depth_offset: u32,
        report: &mut dyn FnMut(&Iteration<P::Move>, u64),
    ) -> Option<Iteration<P::Move>> {
        let plan = TimePlan::new(limits, self.shared.started);
        self.hard_deadline = plan.hard;
        if let Some(n) = limits.nodes {
            self.node_limit = n.max(1);
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best: Option<Iteration<P::Move>> = None;
        // Helpers only fill the table: ranking the root's moves is the main thread's work.
        let lines = if self.main { self.config.lines.max(1) } else { 1 };
        // Each line's score in the last finished iteration, its next aspiration window.
        let mut previous: Vec<i32> = Vec::new();
        let mut depth = 1 + depth_offset;
        'deepening: while depth <= max_depth {
            let mut ranked: Vec<Iteration<P::Move>> = Vec::with_capacity(lines);
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
                if score.abs() >= Score::DECISIVE && (Score::WIN - score.abs()) < depth as i32 {
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
    fn keep_partial_iteration(&self, best: &mut Option<Iteration<P::Move>>, depth: u32) {
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

    fn aspiration(&mut self, root: &P, depth: i32, previous: Option<i32>) -> i32 {
        let Some(prev) = previous.filter(|p| depth >= 5 && p.abs() < Score::DECISIVE) else {
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
    fn evaluate(&mut self, position: &P) -> i32 {
        let score = self.data.eval_cache.evaluate(position, self.config.tables_only);
        if self.config.eval_noise == 0 {
            return score;
        }
        let width = 2 * self.config.eval_noise as u64 + 1;
        let noise = (splitmix64(position.hash_key() ^ self.config.noise_seed) % width) as i32
            - self.config.eval_noise;
        score + noise
    }

    /// The database's score for a position, if it holds it: a draw is 0, a win a score far
    /// above any evaluation yet below forced wins, with the evaluation added so that the
    /// search still prefers the simpler of two wins.
    #[inline(always)]
    fn endgame_score(&mut self, position: &P, ply: usize) -> Option<i32> {
        // Most nodes have too many pieces: that test is inlined, the probe is not.
        if position.piece_count() > self.endgame_pieces {
            return None;
        }
        self.probe_endgame(position, ply)
    }

    #[inline(never)]
    fn probe_endgame(&mut self, position: &P, ply: usize) -> Option<i32> {
        // Endings the rules know exactly (the Russian king against a king, over within three
        // plies), trusted where the database's wins are not.
        if let Some((plies, won)) = position.exact_ending() {
            let score = Score::WIN - (ply as i32 + plies as i32);
            return Some(if won { score } else { -score });
        }
        let db = self.endgame?;
        let value = position.probe_database(db)?;
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

    /// The score of a node whose side to move has no legal move: a loss, or in Antidraughts
    /// a win.
    #[inline(always)]
    fn no_move_score(&self, ply: usize) -> i32 {
        let loss = -Score::WIN + ply as i32;
        if P::NO_MOVE_WINS {
            -loss
        } else {
            loss
        }
    }

    /// The score of a position decided before its moves are looked at (Breakthrough's first
    /// king), in variants that have such positions.
    #[inline(always)]
    fn decided_score(&self, position: &P, ply: usize) -> Option<i32> {
        if !P::DECIDED_BY_POSITION {
            return None;
        }
        let won = position.decided()?;
        let win = Score::WIN - ply as i32;
        Some(if won { win } else { -win })
    }

    /// Searches a child: at the horizon straight into the capture search, saving the call
    /// into the full node's larger frame.
    #[inline(always)]
    fn child(&mut self, position: &P, depth: i32, alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        if depth <= 0 {
            self.quiesce(position, alpha, beta, ply)
        } else {
            self.negamax(position, depth, alpha, beta, ply, pv_node)
        }
    }

    fn negamax(
        &mut self,
        position: &P,
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
            if let Some(score) = self.decided_score(position, ply) {
                return score;
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
                let score = score_from_tt(entry.score, ply);
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
        let n = self.data.plies[ply].moves.as_slice().len();
        if n == 0 {
            return self.no_move_score(ply);
        }
        // Forced moves cost nothing to look past. Not at the root: a root with one legal move
        // is played without a search, and the last move a multi-PV iteration ranks is not
        // forced.
        let extension = i32::from(n == 1 && (1..MAX_PLY / 2).contains(&ply));
        let keys_known = depth > TT_MIN_DEPTH;
        if keys_known {
            self.prefetch_children(position, ply);
        }
        self.order_moves(hash_move, ply);
        if keys_known && !pv_node && depth >= ETC_MIN_DEPTH {
            if let Some(score) = self.transposition_cutoff(key, depth, depth - 1 + extension, beta, ply) {
                return score;
            }
        }

        let quiet_node = !self.data.plies[ply].moves.as_slice()[0].is_capture();
        // The static evaluation, once: truncation and futility both ask for it.
        let mut static_eval: Option<i32> = None;
        let depth = if !pv_node && quiet_node && depth >= 3 && ply > 0 && alpha.abs() < Score::DECISIVE {
            depth - self.truncation(position, alpha, depth, &mut static_eval)
        } else {
            depth
        };
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = usize::MAX;
        // Near the horizon, in a quiet position far below alpha, quiet moves are unlikely to
        // help: they are pruned (futility), and late ones are not tried at all.
        let prune = !pv_node && quiet_node && depth <= 3 && alpha.abs() < Score::DECISIVE;
        let mut futile = false;
        let late_move_limit = if prune { 3 + (depth * depth) as usize } else { usize::MAX };
        let mut picker = MovePicker::new();
        while let Some(pick) = picker.next(&mut self.data.plies[ply].order, &mut self.data.sort_scratch) {
            let (i, generated, is_killer) = (pick.number, pick.generated, pick.is_killer);
            let mv = self.data.plies[ply].moves.as_slice()[generated];
            // One branch for the whole test (`&`, not `&&`): its parts are cheap, and their
            // outcomes are what the predictor cannot guess.
            if (i > 0) & !mv.crowns() & !is_killer & (futile | (i >= late_move_limit)) {
                // Pruning happens only among quiet moves, where crowning moves and killers
                // outrank every move ordered by history alone: all that follow are pruned too.
                break;
            }
            let child = position.play_unchecked(&mv);
            self.data.plies[ply].played = from_to::<P>(&mv) as FromTo;
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
                    if !pv_node && self.data.history[from_to::<P>(&mv)] < 0 {
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
                        self.update_pv(ply, mv);
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
            if i == 0 && prune && n > 1 {
                // The first move did not cut: is the node futile? (Most of these nodes never
                // get here, so its evaluation waits until now.) If so, only its killers and
                // crowning moves are tried.
                let eval = *static_eval.get_or_insert_with(|| self.evaluate(position));
                futile = eval + FUTILITY_MARGIN * depth <= original_alpha;
                if futile {
                    picker.pick_one_at_a_time();
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
            MoveKey::new(&here.moves.as_slice()[generated], generated)
        });
        // A root searched without its best moves is not the root's value.
        if use_table && (ply > 0 || self.root_skip.is_empty()) {
            self.shared.tt.store(key, score_to_tt(best_score, ply), depth, bound, best_key);
        }
        best_score
    }

    /// The children will probe the table: starts fetching their entries now, so that the
    /// memory latency overlaps the ordering and the earlier siblings' searches. Their keys are
    /// kept for entering them on the path.
    #[inline(always)]
    fn prefetch_children(&mut self, position: &P, ply: usize) {
        let here = &mut self.data.plies[ply];
        let tt = self.shared.tt;
        here.child_keys.clear();
        here.child_keys.extend(here.moves.as_slice().iter().map(|mv| {
            let key = position.play_unchecked(mv).hash_key();
            tt.prefetch(key);
            key
        }));
    }

    /// Enhanced transposition cutoff: a child the table already knows to be bad enough for
    /// the opponent (at its full depth, `child_depth`) refutes this node, whose key is `key`,
    /// before any child is searched; transpositions are common in checkers, where men only
    /// move forwards. Needs the children's keys ([`Searcher::prefetch_children`]).
    #[inline(always)]
    fn transposition_cutoff(
        &mut self,
        key: u64,
        depth: i32,
        child_depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let here = &self.data.plies[ply];
        for (generated, &child_key) in here.child_keys.iter().enumerate() {
            if let Some(entry) = self.shared.tt.probe(child_key) {
                let score = -score_from_tt(entry.score, ply + 1);
                if entry.depth >= child_depth && entry.bound != Bound::Lower && score >= beta {
                    let best = MoveKey::new(&here.moves.as_slice()[generated], generated);
                    self.shared.tt.store(key, score_to_tt(score, ply), depth, Bound::Lower, Some(best));
                    return Some(score);
                }
            }
        }
        None
    }

    /// A move raised alpha at a PV node: the node's line becomes the move and its child's line.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.data.plies.split_at_mut(ply + 1);
        let line = &mut head[ply].pv;
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0].pv);
    }

    /// How many plies shallower to search a quiet node whose evaluation lies far outside the
    /// null window at `alpha` (as Cake does): lines already clearly won or lost for one side
    /// seldom change the parent's result, and the plies saved go to the lines that might.
    /// English only: in Russian it measured no gain ([`SearchRules::truncation`]).
    fn truncation(&mut self, position: &P, alpha: i32, depth: i32, static_eval: &mut Option<i32>) -> i32 {
        if !self.rules.truncation {
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
    fn quiesce(&mut self, position: &P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            if let Some(score) = self.decided_score(position, ply) {
                return score;
            }
            if let Some(score) = self.endgame_score(position, ply) {
                return score;
            }
        }
        // One look for captures: none means a quiet position (asking `has_capture` first and
        // then generating would look twice).
        position.generate_captures(&mut self.data.plies[ply].moves);
        let n = self.data.plies[ply].moves.as_slice().len();
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
                    if moves[j].captured_count() > moves[pick].captured_count() {
                        pick = j;
                    }
                }
                moves.swap(i, pick);
            }
            let mv = self.data.plies[ply].moves.as_slice()[i];
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

    /// Every root move with its score from a full-window search `depth` plies deep (the
    /// levels use this to weigh near-equal moves). Moves are in generator order.
    pub fn root_scores(&mut self, root: &P, depth: i32) -> Vec<(P::Move, i32)> {
        let moves = root.legal_moves();
        let mut out = Vec::with_capacity(moves.as_slice().len());
        for mv in moves.as_slice() {
            let child = root.play_unchecked(mv);
            self.push(root, mv, child.hash_key());
            // As negamax's move loop does, so that ply 1 finds its counter moves by this one.
            self.data.plies[0].played = from_to::<P>(mv) as FromTo;
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
