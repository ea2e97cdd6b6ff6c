//! Texel-style tuning of the evaluation weights (cargo feature `tune`).
//!
//! The data are generated here, never downloaded: games of the engine against itself at a
//! club level from randomised openings; every quiet position of a game is labelled with the
//! game's result. The fit then adjusts one weight at a time to lower the mean squared error
//! between the results and a logistic curve of the evaluation (Texel's method), after first
//! fitting the curve's scale to the starting weights.

use checkers_rules::{Color, Game, Position, Variant};

use crate::engine::{Engine, EngineOptions};
use crate::eval::{evaluate_with, Weights};
use crate::level::Level;
use crate::search::mix;

/// A quiet position and the result of its game for White (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: Position,
    pub result: f64,
}

/// Plays `games` self-play games of `variant` at `level` from openings randomised by `seed`
/// (a few random moves first) and returns their quiet positions with results.
pub fn generate(
    variant: Variant,
    games: usize,
    level: Level,
    seed: u64,
    on_game: &mut dyn FnMut(usize, usize),
) -> Vec<Sample> {
    let mut engine = Engine::new(EngineOptions { hash_mb: 8, threads: 1 });
    let mut samples = Vec::new();
    for g in 0..games {
        let mut rng = mix(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut game = Game::new(variant);
        let random_plies = 2 + rng % 6;
        let mut plies = 0u64;
        while !game.is_over() && plies < 240 {
            let position = game.position();
            let history = &game.positions()[..game.positions().len() - 1];
            let mv = if plies < random_plies {
                let moves = position.legal_moves();
                rng = mix(rng);
                moves.as_slice().get((rng % moves.len().max(1) as u64) as usize).copied()
            } else {
                level.choose_move(&mut engine, &position, history, rng ^ plies)
            };
            let Some(mv) = mv else { break };
            if game.play(mv).is_err() {
                break;
            }
            plies += 1;
        }
        let result = match game.outcome().and_then(|o| o.winner()) {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let quiet = game.positions().iter().skip(random_plies as usize + 2).filter(|p| !p.has_capture());
        samples.extend(quiet.map(|&position| Sample { position, result }));
        on_game(g + 1, samples.len());
    }
    samples
}

fn white_eval(sample: &Sample, weights: &Weights) -> f64 {
    let e = f64::from(evaluate_with(&sample.position, weights));
    if sample.position.turn() == Color::White {
        e
    } else {
        -e
    }
}

fn sigmoid(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-scale * score / 100.0).exp())
}

/// Mean squared error of the predicted results.
pub fn loss(samples: &[Sample], weights: &Weights, scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(white_eval(s, weights), scale);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The logistic scale that best fits `weights` to the data (a coarse then a fine scan).
pub fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let mut best = (f64::MAX, 1.0);
    for step in [0.1, 0.01] {
        let centre = best.1;
        for i in -10..=10 {
            let k = centre + f64::from(i) * step;
            if k <= 0.0 {
                continue;
            }
            let l = loss(samples, weights, k);
            if l < best.0 {
                best = (l, k);
            }
        }
    }
    best.1
}

/// Coordinate descent: each pass tries every weight one step up and down (the man's value
/// stays fixed as the unit) and keeps what lowers the loss.
pub fn tune(
    samples: &[Sample],
    start: Weights,
    scale: f64,
    passes: usize,
    on_pass: &mut dyn FnMut(usize, f64, &Weights),
) -> Weights {
    let mut weights = start;
    let mut best = loss(samples, &weights, scale);
    for pass in 1..=passes {
        let mut improved = false;
        for i in 1..Weights::COUNT {
            for delta in [1, -1, 4, -4] {
                let mut trial = weights;
                *trial.values_mut()[i] += delta;
                let l = loss(samples, &trial, scale);
                if l < best {
                    best = l;
                    weights = trial;
                    improved = true;
                    break;
                }
            }
        }
        on_pass(pass, best, &weights);
        if !improved {
            break;
        }
    }
    weights
}
