//! A search the Hub asks the caller to run, and the `info` and `done` lines that answer it.

use checkers_rules::{Move, Position};

use super::numbering::{move_to_hub, Numbering};
use super::wire::{quote, score_to_hub};
use crate::engine::{Engine, SearchInfo, SearchResult};
use crate::limits::{Limits, StopHandle};

/// The kind of search `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    /// Searches until `ponder-hit` or `stop` (the expected move is already in the position).
    Ponder,
    Analyze,
}

/// A search the caller must run: what [`Hub::handle`](super::Hub::handle) returns for `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchJob {
    pub position: Position,
    /// The game's earlier positions, oldest first, for repetitions.
    pub history: Vec<Position>,
    pub limits: Limits,
    pub mode: GoMode,
    pub numbering: Numbering,
}

impl SearchJob {
    /// The limits the search runs under: a ponder search runs until stopped.
    pub fn effective_limits(&self) -> Limits {
        match self.mode {
            GoMode::Ponder => Limits { infinite: true, ..self.limits },
            _ => self.limits,
        }
    }

    /// The same search as a normal `go think` (what a `ponder-hit` turns a ponder search into).
    pub fn thinking(&self) -> SearchJob {
        SearchJob { mode: GoMode::Think, ..self.clone() }
    }

    /// Runs the search, handing each `info` line to `emit`, and returns its result (the
    /// caller sends [`SearchJob::done_line`] when the search is to be answered).
    pub fn run(&self, engine: &mut Engine, stop: &StopHandle, emit: &mut dyn FnMut(String)) -> SearchResult {
        let limits = self.effective_limits();
        let result = engine
            .search(&self.position, &self.history, &limits, stop, &mut |info| emit(self.info_line(info)));
        if result.depth == 0 && result.best_move.is_some() {
            // Played without an iteration (a forced move): still say what it is worth.
            emit(self.info_line(&SearchInfo {
                line: 1,
                depth: 0,
                seldepth: 0,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            }));
        }
        result
    }

    /// An `info` line: depth, seldepth, score (men), nodes, time (s), nps (millions, as Scan
    /// writes it) and the principal variation.
    pub fn info_line(&self, info: &SearchInfo) -> String {
        format!(
            "info depth={} seldepth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
            info.depth,
            info.seldepth,
            score_to_hub(info.score),
            info.nodes,
            info.elapsed.as_secs_f64(),
            info.nps() as f64 / 1e6,
            quote(&self.line_text(&info.pv))
        )
    }

    /// The `done` line: the move and, when the line goes on, the expected answer.
    pub fn done_line(&self, result: &SearchResult) -> String {
        let variant = self.position.variant();
        let Some(best) = result.best_move.filter(|m| self.position.is_legal(m)) else {
            return "done move=0-0".to_string();
        };
        let mut line = format!("done move={}", move_to_hub(&best, variant, self.numbering));
        let after = self.position.play_unchecked(&best);
        if let Some(reply) = result.pv.get(1).filter(|m| result.pv[0] == best && after.is_legal(m)) {
            line.push_str(&format!(" ponder={}", move_to_hub(reply, variant, self.numbering)));
        }
        line
    }

    fn line_text(&self, line: &[Move]) -> String {
        let variant = self.position.variant();
        let mut current = self.position;
        let mut words = Vec::with_capacity(line.len());
        for mv in line {
            if !current.is_legal(mv) {
                break;
            }
            words.push(move_to_hub(mv, variant, self.numbering));
            current = current.play_unchecked(mv);
        }
        words.join(" ")
    }
}
