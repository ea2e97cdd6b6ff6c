//! Opening sets for engine matches in the variants that have no published one (cargo
//! feature `tune`, the `checkers-openings` tool): every line of a few plies from the start,
//! each end position scored by a search, the level ones kept.
//!
//! A match plays each opening twice with the colours reversed, so an opening must leave the
//! game about level (else the pair measures the opening, not the players) and openings must
//! differ (else the match measures fewer games than it plays). Lines are enumerated in the
//! generator's move order, their quiet end positions taken once (the first line reaching each),
//! scored by a full-width search of a fixed depth, those within `margin` kept, and `count`
//! of them picked evenly along that order: the same command gives the same set anywhere.

use std::collections::HashSet;

use crate::engine::{Engine, EngineOptions};
use crate::game::{MoveBuffer, SearchPosition};
use crate::limits::{Limits, StopHandle};

/// How a set is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningPlan {
    /// Plies of each opening.
    pub plies: usize,
    /// Depth of the search that scores each end position.
    pub depth: u32,
    /// The most an end position may score for either side, in hundredths of a man.
    pub margin: i32,
    /// How many openings to keep.
    pub count: usize,
}

/// An opening: its moves from the start, and the score of its end position for the side to
/// move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedOpening<M> {
    pub moves: Vec<M>,
    pub score: i32,
}

/// The opening set of `plan` from `start`, with the number of distinct end positions scored
/// (`on_scored` hears each one's index as it is scored).
pub fn generate_openings<P: SearchPosition>(
    start: &P,
    plan: OpeningPlan,
    on_scored: &mut dyn FnMut(usize, usize),
) -> (Vec<GeneratedOpening<P::Move>>, usize) {
    let mut lines: Vec<(Vec<P::Move>, P)> = Vec::new();
    let mut seen = HashSet::new();
    collect(start, &mut Vec::new(), plan.plies, &mut seen, &mut lines);
    let total = lines.len();
    let mut engine = Engine::<P>::new(EngineOptions { hash_mb: 16, threads: 1 });
    let mut level = Vec::new();
    for (i, (moves, position)) in lines.into_iter().enumerate() {
        on_scored(i, total);
        engine.new_game();
        let result =
            engine.search(&position, &[], &Limits::depth(plan.depth), &StopHandle::new(), &mut |_| {});
        if result.best_move.is_some()
            && result.score.value().abs() <= plan.margin
            && !result.score.is_decisive()
        {
            level.push(GeneratedOpening { moves, score: result.score.value() });
        }
    }
    (pick_evenly(level, plan.count), total)
}

/// Every line of `plies` more moves below `position` whose end position is quiet (no capture
/// to make) and has not been met yet, in the generator's move order.
fn collect<P: SearchPosition>(
    position: &P,
    line: &mut Vec<P::Move>,
    plies: usize,
    seen: &mut HashSet<P>,
    out: &mut Vec<(Vec<P::Move>, P)>,
) {
    if plies == 0 {
        // A capture to answer is no place to start a game from: the opening ends mid-trade.
        let mut captures = P::Moves::default();
        position.generate_captures(&mut captures);
        if captures.as_slice().is_empty() && seen.insert(*position) {
            out.push((line.clone(), *position));
        }
        return;
    }
    let moves = position.legal_moves();
    for mv in moves.as_slice() {
        line.push(*mv);
        collect(&position.play_unchecked(mv), line, plies - 1, seen, out);
        line.pop();
    }
}

/// `count` items spread evenly over `items` (all of them if there are no more).
fn pick_evenly<T>(items: Vec<T>, count: usize) -> Vec<T> {
    let n = items.len();
    if n <= count {
        return items;
    }
    let wanted: HashSet<usize> = (0..count).map(|k| k * n / count).collect();
    items.into_iter().enumerate().filter(|(i, _)| wanted.contains(i)).map(|(_, item)| item).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::board::{Board, Brazilian};

    #[test]
    fn openings_are_distinct_level_and_the_same_every_time() {
        let plan = OpeningPlan { plies: 2, depth: 4, margin: 30, count: 10 };
        let start = Board::<Brazilian>::start();
        let (set, scored) = generate_openings(&start, plan, &mut |_, _| {});
        assert_eq!(set.len(), 10);
        assert!(scored > 10, "{scored} end positions");
        let ends: HashSet<Board<Brazilian>> =
            set.iter().map(|o| o.moves.iter().fold(start, |p, m| p.play_unchecked(m))).collect();
        assert_eq!(ends.len(), set.len(), "distinct end positions");
        assert!(set.iter().all(|o| o.moves.len() == 2 && o.score.abs() <= 30));
        assert_eq!(generate_openings(&start, plan, &mut |_, _| {}).0, set);
    }

    #[test]
    fn picking_evenly_spreads_over_the_list() {
        assert_eq!(pick_evenly((0..10).collect(), 3), vec![0, 3, 6]);
        assert_eq!(pick_evenly((0..2).collect(), 3), vec![0, 1]);
    }
}
