//! Fitting the board variants' evaluation weights (cargo feature `tune`; `checkers-tune
//! board-samples` and `checkers-tune fit-board`), as the 8x8 tables are fitted (`tune.rs`):
//! self-play games of the full engine under a node budget from randomised openings, each
//! quiet position labelled with the game's result and the search's score, then the weights
//! that make the logistic curve of the evaluation predict those best.
//!
//! The evaluation is linear in its weights (`eval/boards.rs`), so the fit is plain gradient
//! descent (Adam) on every weight at once, the man's value held at 100 as the unit (and the
//! first row and file entries at their start, see [`PINNED`]). Positions
//! without men are left out: their score is scaled by the king-ending knowledge, which is no
//! weight.

use checkers_rules::board::{Board, BoardGame, Geometry, RuleSet};
use checkers_rules::Color;

use crate::engine::{Engine, EngineOptions};
use crate::eval::boards::{gather, term, BoardWeights, Terms};
use crate::game::BoardEngine;
use crate::limits::{Limits, StopHandle};
use crate::mix::splitmix64;
use crate::tune::{sigmoid, RESULT_SHARE, SEARCH_SCORE_LIMIT};

/// A quiet position of a self-play game: the game's result for White (1, 0.5, 0) and the
/// search's score for White (hundredths of a man, decisive scores clamped).
#[derive(Clone, Copy, Debug)]
pub struct BoardSample<V: RuleSet> {
    pub position: Board<V>,
    pub result: f64,
    pub search: Option<f64>,
}

impl<V: RuleSet> BoardSample<V> {
    /// The sample as a line of a sample file: `FEN;RESULT;SCORE`.
    pub fn to_line(&self) -> String {
        match self.search {
            Some(score) => format!("{};{};{score}", self.position.to_fen(), self.result),
            None => format!("{};{}", self.position.to_fen(), self.result),
        }
    }

    /// A sample file's line, if it reads as one.
    pub fn from_line(line: &str) -> Option<BoardSample<V>> {
        let mut fields = line.split(';');
        let position = Board::<V>::from_fen(fields.next()?.trim()).ok()?;
        let result = fields.next()?.trim().parse().ok()?;
        let search = fields.next().and_then(|score| score.trim().parse().ok());
        Some(BoardSample { position, result, search })
    }
}

/// Plays `games` self-play games of `V` with the full engine at `nodes` nodes a move, each
/// from a few random plies chosen by `seed`, and returns their quiet positions with men on
/// the board. `on_game` hears the games played and the samples kept so far.
pub fn generate_board_samples<V: BoardEngine>(
    games: usize,
    nodes: u64,
    seed: u64,
    on_game: &mut dyn FnMut(usize, usize),
) -> Vec<BoardSample<V>> {
    let mut engine = Engine::<Board<V>>::new(EngineOptions { hash_mb: 8, threads: 1 });
    let mut samples = Vec::new();
    for g in 0..games {
        let mut rng = splitmix64(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let random_plies = 2 + (rng % 6) as usize;
        let mut game = BoardGame::<V>::new();
        engine.new_game();
        let mut scores: Vec<Option<f64>> = Vec::new();
        while !game.is_over() && game.moves().len() < 300 {
            let position = game.position();
            let history = &game.positions()[..game.positions().len() - 1];
            let (mv, score) = if game.moves().len() < random_plies {
                let moves = position.legal_moves();
                rng = splitmix64(rng);
                (moves.as_slice().get((rng % moves.len().max(1) as u64) as usize).copied(), None)
            } else {
                let found =
                    engine.search(&position, history, &Limits::nodes(nodes), &StopHandle::new(), &mut |_| {});
                let clamped = f64::from(found.score.value()).clamp(-SEARCH_SCORE_LIMIT, SEARCH_SCORE_LIMIT);
                (found.best_move, Some(if position.turn() == Color::White { clamped } else { -clamped }))
            };
            scores.push(score);
            let Some(mv) = mv else { break };
            if game.play(mv).is_err() {
                break;
            }
        }
        let result = match game.outcome().and_then(|o| o.winner()) {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let labelled = game.positions().iter().zip(scores.into_iter().chain(std::iter::repeat(None)));
        let quiet = labelled.skip(random_plies + 2).filter(|(p, _)| has_men(p) && !p.has_capture());
        samples.extend(quiet.map(|(&position, search)| BoardSample { position, result, search }));
        on_game(g + 1, samples.len());
    }
    samples
}

fn has_men<V: RuleSet>(board: &Board<V>) -> bool {
    let men = board.men_bits(Color::White) | board.men_bits(Color::Black);
    men != <V::Geometry as Geometry>::Bits::default()
}

/// The terms of a position as features: each count over the board's denominator, so that
/// the evaluation for White is their sum under the weights.
struct Features(Vec<f64>);

impl Terms for Features {
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += f64::from(count);
    }
}

fn features<V: BoardEngine>(board: &Board<V>) -> Vec<f64> {
    let mut terms = Features(vec![0.0; term::COUNT]);
    gather(board, V::square_table(), &mut terms);
    let full = f64::from(2 * Board::<V>::MAX_PIECES);
    terms.0.iter().map(|x| x / full).collect()
}

/// The weights a fit leaves as they are: the man, the unit; and one entry of the rows and
/// one of the files. Every man stands on one row and one file, so adding the same amount to
/// every row entry at both ends of the game (or to every file entry) changes no evaluation
/// but the man's: without a fixed entry each set could drift with the man's value. (The rows
/// on a full board alone are no such set: their counts are weighted by the pieces left, so
/// they say how a man's worth changes as the board empties.) A man on its back row on an edge
/// file of an empty board is worth `MAN`.
const PINNED: [usize; 3] = [term::MAN, term::ROW_EMPTY, term::FILE];

/// What a fit found: the weights, the logistic scale, and the loss on the held-out samples
/// before and after.
#[derive(Clone, Copy, Debug)]
pub struct BoardFit {
    pub weights: BoardWeights,
    pub scale: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
}

/// Fits `start`'s weights to `samples` for `epochs` passes of gradient descent (a tenth of
/// the samples, whole stretches of games, held out to check the fit); `on_epoch` hears the
/// training loss now and then.
pub fn fit_board_weights<V: BoardEngine>(
    samples: &[BoardSample<V>],
    start: BoardWeights,
    epochs: usize,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> BoardFit {
    let rows: Vec<(Vec<f64>, f64, Option<f64>)> =
        samples.iter().map(|s| (features(&s.position), s.result, s.search)).collect();
    let (held, train): (Vec<_>, Vec<_>) =
        rows.into_iter().enumerate().partition(|(i, _)| (i / 1000) % 10 == 9);
    let held: Vec<_> = held.into_iter().map(|(_, r)| r).collect();
    let train: Vec<_> = train.into_iter().map(|(_, r)| r).collect();
    let mut w: Vec<f64> = start.values.iter().map(|&v| f64::from(v)).collect();
    let eval = |w: &[f64], f: &[f64]| -> f64 { w.iter().zip(f).map(|(a, b)| a * b).sum() };
    // The scale that best fits the starting weights to the results (coarse, then fine).
    let result_loss = |w: &[f64], scale: f64| -> f64 {
        let total: f64 = train.iter().map(|(f, r, _)| (r - sigmoid(eval(w, f), scale)).powi(2)).sum();
        total / train.len().max(1) as f64
    };
    let mut scale = (f64::MAX, 1.0);
    for step in [0.1, 0.01] {
        let centre = scale.1;
        for i in -10..=10 {
            let k = centre + f64::from(i) * step;
            if k > 0.0 {
                let l = result_loss(&w, k);
                if l < scale.0 {
                    scale = (l, k);
                }
            }
        }
    }
    let scale = scale.1;
    let target = |r: f64, s: Option<f64>| match s {
        Some(score) => RESULT_SHARE * r + (1.0 - RESULT_SHARE) * sigmoid(score, scale),
        None => r,
    };
    let loss = |w: &[f64], rows: &[(Vec<f64>, f64, Option<f64>)]| -> f64 {
        let total: f64 =
            rows.iter().map(|(f, r, s)| (target(*r, *s) - sigmoid(eval(w, f), scale)).powi(2)).sum();
        total / rows.len().max(1) as f64
    };
    let held_out_before = loss(&w, &held);
    // Adam, in hundredths of a man.
    let (rate, beta1, beta2) = (1.0, 0.9, 0.999);
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0; w.len()];
        for (f, r, s) in &train {
            let p = sigmoid(eval(&w, f), scale);
            let d = -2.0 * (target(*r, *s) - p) * p * (1.0 - p) * scale / 100.0;
            for (g, x) in gradient.iter_mut().zip(f) {
                *g += d * x;
            }
        }
        let n = train.len().max(1) as f64;
        for k in 0..w.len() {
            if PINNED.contains(&k) {
                continue;
            }
            let g = gradient[k] / n;
            m[k] = beta1 * m[k] + (1.0 - beta1) * g;
            v[k] = beta2 * v[k] + (1.0 - beta2) * g * g;
            let (m_hat, v_hat) =
                (m[k] / (1.0 - beta1.powi(epoch as i32)), v[k] / (1.0 - beta2.powi(epoch as i32)));
            w[k] -= rate * m_hat / (v_hat.sqrt() + 1e-9);
        }
        if epoch % 100 == 0 || epoch == epochs {
            on_epoch(epoch, loss(&w, &train));
        }
    }
    let mut weights = start;
    for (value, fitted) in weights.values.iter_mut().zip(&w) {
        *value = fitted.round() as i32;
    }
    let rounded: Vec<f64> = weights.values.iter().map(|&v| f64::from(v)).collect();
    BoardFit { weights, scale, held_out_before, held_out_after: loss(&rounded, &held) }
}

/// The weights as the Rust source of a constant for `eval/board_weights.rs`.
pub fn board_weights_source(name: &str, weights: &BoardWeights) -> String {
    let values: Vec<String> = weights.values.iter().map(i32::to_string).collect();
    let mut lines = Vec::new();
    for chunk in values.chunks(14) {
        lines.push(format!("        {},", chunk.join(", ")));
    }
    format!(
        "pub const {name}: BoardWeights = BoardWeights {{\n    values: [\n{}\n    ],\n    drawish_king_endings: {},\n}};\n",
        lines.join("\n"),
        weights.drawish_king_endings
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::board::Brazilian;

    #[test]
    fn tune_boards_samples_read_back_and_a_fit_does_not_get_worse() {
        let samples = generate_board_samples::<Brazilian>(6, 2_000, 5, &mut |_, _| {});
        assert!(samples.len() > 100, "{} samples", samples.len());
        for s in &samples[..20] {
            let back = BoardSample::<Brazilian>::from_line(&s.to_line()).unwrap();
            assert_eq!((back.position, back.result, back.search), (s.position, s.result, s.search));
        }
        // The features under the weights are the evaluation (before the king endings, which
        // these positions with men never meet).
        let weights = Brazilian::WEIGHTS;
        for s in &samples[..50] {
            let white: f64 =
                features(&s.position).iter().zip(weights.values.iter()).map(|(f, &w)| f * f64::from(w)).sum();
            let eval = crate::eval::boards::evaluate_board(&s.position, Brazilian::square_table(), &weights);
            let for_white = if s.position.turn() == Color::White { eval } else { -eval };
            assert!((white - f64::from(for_white)).abs() <= 1.0, "{white} vs {for_white}");
        }
        let fit = fit_board_weights(&samples, weights, 50, &mut |_, _| {});
        for pinned in PINNED {
            assert_eq!(
                fit.weights.values[pinned], weights.values[pinned],
                "the unit and the reference entries stay"
            );
        }
        assert!(fit.scale > 0.0);
        assert!(board_weights_source("BRAZILIAN", &fit.weights).starts_with("pub const BRAZILIAN"));
    }
}
