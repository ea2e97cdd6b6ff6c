//! A search the Hub asks the caller to run, and the `info` and `done` lines that answer it.

use super::game::{HubGame, HubPosition, SessionEngine};
use super::numbering::Numbering;
use super::wire::{quote, score_to_hub};
use crate::engine::{Engine, SearchInfo};
use crate::game::MoveBuffer;
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
    /// The position and the game's earlier positions (for repetitions), in any variant.
    pub game: HubGame,
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

    /// Runs the search with `engine` (rebuilt first if it was built for another variant's
    /// positions), handing each `info` line to `emit`, and returns the `done` line, which the
    /// caller sends when the search is to be answered.
    pub fn run(&self, engine: &mut SessionEngine, stop: &StopHandle, emit: &mut dyn FnMut(String)) -> String {
        self.game.run(engine, &self.effective_limits(), stop, self.numbering, emit)
    }
}

/// Searches `position` (reached through `history`) and answers as the Hub does: an `info`
/// line per finished iteration (or one at depth 0 for a move played without an iteration),
/// and the returned `done` line.
pub(super) fn search_line<P: HubPosition>(
    engine: &mut Engine<P>,
    position: &P,
    history: &[P],
    limits: &Limits,
    stop: &StopHandle,
    numbering: Numbering,
    emit: &mut dyn FnMut(String),
) -> String {
    let result = engine.search(position, history, limits, stop, &mut |info| {
        emit(info_line(position, info, numbering));
    });
    if result.depth == 0 && result.best_move.is_some() {
        // Played without an iteration (a forced move): still say what it is worth.
        emit(info_line(
            position,
            &SearchInfo {
                line: 1,
                depth: 0,
                seldepth: 0,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            },
            numbering,
        ));
    }
    let legal = |p: &P, mv: &P::Move| p.legal_moves().as_slice().contains(mv);
    let Some(best) = result.best_move.filter(|m| legal(position, m)) else {
        return "done move=0-0".to_string();
    };
    let mut line = format!("done move={}", position.hub_move(&best, numbering));
    let after = position.play_unchecked(&best);
    if let Some(reply) = result.pv.get(1).filter(|m| result.pv[0] == best && legal(&after, m)) {
        line.push_str(&format!(" ponder={}", after.hub_move(reply, numbering)));
    }
    line
}

/// An `info` line: depth, seldepth, score (men), nodes, time (s), nps (millions, as Scan
/// writes it) and the principal variation.
fn info_line<P: HubPosition>(position: &P, info: &SearchInfo<P::Move>, numbering: Numbering) -> String {
    format!(
        "info depth={} seldepth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
        info.depth,
        info.seldepth,
        score_to_hub(info.score),
        info.nodes,
        info.elapsed.as_secs_f64(),
        info.nps() as f64 / 1e6,
        quote(&line_text(position, &info.pv, numbering))
    )
}

/// A line of moves from `position` in Hub text, up to the first that is not legal where it
/// falls.
fn line_text<P: HubPosition>(position: &P, line: &[P::Move], numbering: Numbering) -> String {
    let mut current = *position;
    let mut words = Vec::with_capacity(line.len());
    for mv in line {
        if !current.legal_moves().as_slice().contains(mv) {
            break;
        }
        words.push(current.hub_move(mv, numbering));
        current = current.play_unchecked(mv);
    }
    words.join(" ")
}
