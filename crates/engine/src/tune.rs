//! Texel-style tuning of the evaluation weights (cargo feature `tune`).
//!
//! The data are generated here, never downloaded: games of the engine against itself (at a
//! level, or the full engine under a node budget) from randomised openings; every quiet
//! position of a game is labelled with the game's result and, under a node budget, the score
//! the search gave it. Two fits lower the mean squared error between a target (see
//! [`Sample::target`]) and a logistic curve of the evaluation (Texel's method), after first
//! fitting the curve's scale to the current evaluation and the results:
//! - [`tune`] adjusts one weight at a time (coordinate descent);
//! - [`fit_tables`] fits values per square for kings and per formation for men at both ends
//!   of the game, together with changes to the weights, by gradient descent (the evaluation is
//!   linear in all of them).

use checkers_rules::{Color, Game, Position, Variant};

use crate::engine::{Engine, EngineOptions};
use crate::eval::{
    evaluate_with, formation_indices, pattern_index, Formations, SquareValues, Weights, FORMATION_PAIRS,
    PATTERN_STATES,
};
use crate::level::Level;
use crate::limits::{Limits, StopHandle};
use crate::mix::splitmix64;
use crate::score::Score;

/// A quiet position and the result of its game for White (1 win, 0.5 draw, 0 loss), with
/// the score the self-play search gave it (for White, in hundredths of a man; decisive
/// scores clamped to [`SEARCH_SCORE_LIMIT`]) where there was one.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: Position,
    pub result: f64,
    pub search: Option<f64>,
}

/// Decisive search scores are taken as this many hundredths.
pub const SEARCH_SCORE_LIMIT: f64 = 2000.0;

/// How much of a fit's target is the game's result; the rest is the search's score. A game's
/// result is the truth but a noisy one for a position far from the end (a draw between equal
/// players says little about move 10); the search's score is steadier but only as good as
/// the search.
pub const RESULT_SHARE: f64 = 0.5;

impl Sample {
    /// What the evaluation is fitted to predict, on the logistic curve of `scale`.
    pub fn target(&self, scale: f64) -> f64 {
        match self.search {
            Some(score) => RESULT_SHARE * self.result + (1.0 - RESULT_SHARE) * sigmoid(score, scale),
            None => self.result,
        }
    }
}

/// Who plays both sides of the self-play games.
#[derive(Clone, Copy, Debug)]
pub enum SelfPlay {
    /// A playing level (blurred at levels 1-6).
    Level(Level),
    /// The full engine under a node budget, keeping its table through a game.
    Nodes(u64),
}

/// Plays `games` self-play games of `variant` from openings randomised by `seed` (a few
/// random moves first) and returns their quiet positions with results (and search scores).
pub fn generate(
    variant: Variant,
    games: usize,
    player: SelfPlay,
    seed: u64,
    on_game: &mut dyn FnMut(usize, usize),
) -> Vec<Sample> {
    let mut engine = Engine::new(EngineOptions { hash_mb: 8, threads: 1 });
    let mut samples = Vec::new();
    for g in 0..games {
        let mut rng = splitmix64(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut game = Game::new(variant);
        engine.new_game();
        let random_plies = 2 + rng % 6;
        let mut plies = 0u64;
        // The search's score for each position of the game (White's view), where it searched.
        let mut scores: Vec<Option<f64>> = Vec::new();
        while !game.is_over() && plies < 240 {
            let position = game.position();
            let history = &game.positions()[..game.positions().len() - 1];
            let mut score = None;
            let mv = if plies < random_plies {
                let moves = position.legal_moves();
                rng = splitmix64(rng);
                moves.as_slice().get((rng % moves.len().max(1) as u64) as usize).copied()
            } else {
                match player {
                    SelfPlay::Level(level) => level.choose_move(&mut engine, &position, history, rng ^ plies),
                    SelfPlay::Nodes(nodes) => {
                        let limits = Limits::nodes(nodes);
                        let found =
                            engine.search(&position, history, &limits, &StopHandle::new(), &mut |_| {});
                        score = Some(white_score(&position, found.score));
                        found.best_move
                    }
                }
            };
            scores.push(score);
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
        let labelled = game.positions().iter().zip(scores.into_iter().chain(std::iter::repeat(None)));
        let quiet = labelled.skip(random_plies as usize + 2).filter(|(p, _)| !p.has_capture());
        samples.extend(quiet.map(|(&position, search)| Sample { position, result, search }));
        on_game(g + 1, samples.len());
    }
    samples
}

/// The samples of a sample file's text, one `FEN;RESULT[;SCORE]` a line (as the tuner writes
/// them); lines that do not read as one are left out.
pub fn parse_samples(variant: Variant, text: &str) -> Vec<Sample> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(';');
            let position = Position::from_fen(variant, fields.next()?).ok()?;
            let result = fields.next()?.trim().parse().ok()?;
            let search = fields.next().and_then(|score| score.trim().parse().ok());
            Some(Sample { position, result, search })
        })
        .collect()
}

/// Samples split for a fit: every tenth block of 1000 (whole stretches of games) held out to
/// check it, the rest to train on. Returns (training, held out).
pub fn split_held_out(samples: Vec<Sample>) -> (Vec<Sample>, Vec<Sample>) {
    let (held, train): (Vec<_>, Vec<_>) =
        samples.into_iter().enumerate().partition(|(i, _)| (i / 1000) % 10 == 9);
    (train.into_iter().map(|(_, s)| s).collect(), held.into_iter().map(|(_, s)| s).collect())
}

/// A search's score for the side to move as a sample's score: White's view, decisive scores
/// clamped to [`SEARCH_SCORE_LIMIT`].
fn white_score(position: &Position, score: Score) -> f64 {
    for_white(position, f64::from(score.value()).clamp(-SEARCH_SCORE_LIMIT, SEARCH_SCORE_LIMIT))
}

/// A value for the side to move in `position`, seen from White's side.
fn for_white(position: &Position, value: f64) -> f64 {
    if position.turn() == Color::White {
        value
    } else {
        -value
    }
}

/// Each sample again, its search score replaced by that of a search of `nodes` nodes from its
/// position alone (no game history): deeper labels for positions generated at a smaller
/// budget, handed to `on_sample` one at a time. The engine's table is kept from one sample to
/// the next, which helps when they follow a game.
pub fn rescore(samples: &[Sample], nodes: u64, on_sample: &mut dyn FnMut(Sample) -> bool) {
    let mut engine = Engine::new(EngineOptions { hash_mb: 16, threads: 1 });
    let limits = Limits::nodes(nodes);
    for sample in samples {
        let found = engine.search(&sample.position, &[], &limits, &StopHandle::new(), &mut |_| {});
        if !on_sample(Sample { search: Some(white_score(&sample.position, found.score)), ..*sample }) {
            return;
        }
    }
}

fn white_eval(sample: &Sample, weights: &Weights) -> f64 {
    for_white(&sample.position, f64::from(evaluate_with(&sample.position, weights)))
}

/// A score's win probability on the logistic curve of `scale` (score in hundredths of a man).
pub fn sigmoid(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-scale * score / 100.0).exp())
}

/// Mean squared error of the predicted targets.
pub fn loss(samples: &[Sample], weights: &Weights, scale: f64) -> f64 {
    mean_squared_error(samples, weights, scale, |s| s.target(scale))
}

/// Mean squared error of the predicted game results alone (for fitting the scale, which the
/// targets depend on).
fn result_loss(samples: &[Sample], weights: &Weights, scale: f64) -> f64 {
    mean_squared_error(samples, weights, scale, |s| s.result)
}

fn mean_squared_error(
    samples: &[Sample],
    weights: &Weights,
    scale: f64,
    target: impl Fn(&Sample) -> f64,
) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = target(s) - sigmoid(white_eval(s, weights), scale);
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
            let l = result_loss(samples, weights, k);
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

/// Square values as the fit holds them: reals (see [`SquareValues`]).
pub type SquareTables = SquareValues<f64>;
/// Formation values as the fit holds them (see [`Formations`]).
pub type FormationTables = Formations<f64>;

/// Pattern values as the fit holds them: for each pair of ranks and state (see
/// [`crate::Patterns`]), the value at a full board and at an empty one, in that order.
pub type PatternTables = Vec<[f64; 2]>;

/// What [`fit_tables`] finds: changes to the square values (kings only: the men are valued
/// by formation), the formation values, the pattern values, and the weights.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub squares: SquareTables,
    pub formations: FormationTables,
    pub patterns: PatternTables,
    pub weights: Weights,
}

impl Fitted {
    /// A fit that changes nothing: every table change zero, the weights as given.
    pub fn unchanged(weights: Weights) -> Fitted {
        let (squares, formations, patterns) = from_flat(&vec![0.0; TABLE_PARAMS]);
        Fitted { squares, formations, patterns, weights }
    }
}

/// The fit's parameters: the four square tables of 64, then the two formation tables (full,
/// empty) by pair of ranks and formation, then the patterns by pair of ranks, state and
/// (full, empty), then the weights.
const SQUARE_PARAMS: usize = 4 * 64;
const FORMATION_PARAMS: usize = 2 * FORMATION_PAIRS * 256;
const PATTERN_PARAMS: usize = FORMATION_PAIRS * PATTERN_STATES * 2;
const PATTERNS_AT: usize = SQUARE_PARAMS + FORMATION_PARAMS;
const TABLE_PARAMS: usize = PATTERNS_AT + PATTERN_PARAMS;

fn flat(squares: &SquareTables, formations: &FormationTables, patterns: &PatternTables) -> Vec<f64> {
    let mut v = [squares.men_full, squares.men_empty, squares.kings_full, squares.kings_empty].concat();
    for table in [&formations.full, &formations.empty] {
        v.extend(table.iter().flatten());
    }
    v.extend(patterns.iter().flatten());
    v
}

fn from_flat(v: &[f64]) -> (SquareTables, FormationTables, PatternTables) {
    let square = |i: usize| -> [f64; 64] { v[i * 64..(i + 1) * 64].try_into().unwrap_or([0.0; 64]) };
    let pair = |t: usize, p: usize| -> [f64; 256] {
        let at = SQUARE_PARAMS + (t * FORMATION_PAIRS + p) * 256;
        v[at..at + 256].try_into().unwrap_or([0.0; 256])
    };
    (
        SquareValues {
            men_full: square(0),
            men_empty: square(1),
            kings_full: square(2),
            kings_empty: square(3),
        },
        Formations { full: std::array::from_fn(|p| pair(0, p)), empty: std::array::from_fn(|p| pair(1, p)) },
        v[PATTERNS_AT..TABLE_PARAMS].chunks_exact(2).map(|c| [c[0], c[1]]).collect(),
    )
}

/// Calls `f(parameter index, weight)` for each table feature of `position`, from White's
/// side (+weight for White's pieces, -weight for Black's): kings by square, men by formation
/// and by pattern.
fn table_features(position: &Position, mut f: impl FnMut(usize, f64)) {
    let white = position.pieces(Color::White).bits();
    let black = position.pieces(Color::Black).bits();
    let kings = position.kings().bits();
    let pieces = (white | black).count_ones() as f64;
    let (full, empty) = (pieces / 24.0, (24.0 - pieces) / 24.0);
    for (bits, sign, turn) in [(white, 1.0, false), (black, -1.0, true)] {
        let mut b = bits & kings;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            let rel = if turn { 63 - sq } else { sq };
            f(2 * 64 + rel, sign * full);
            f(3 * 64 + rel, sign * empty);
        }
        let view = |b: u64| if turn { b.reverse_bits() } else { b };
        let men = bits & !kings;
        let enemy_men = (white | black) & !bits & !kings;
        let indices = formation_indices(view(men));
        let enemy = formation_indices(view(enemy_men));
        for (pair, (i, theirs)) in indices.into_iter().zip(enemy).enumerate() {
            f(SQUARE_PARAMS + pair * 256 + i, sign * full);
            f(SQUARE_PARAMS + (FORMATION_PAIRS + pair) * 256 + i, sign * empty);
            let at = PATTERNS_AT + 2 * (pair * PATTERN_STATES + pattern_index(i, theirs));
            f(at, sign * full);
            f(at + 1, sign * empty);
        }
    }
}

/// The formation values that say what `squares` say of the men (a formation is worth the sum
/// of its men's square values; the pairs of ranks 1-2, 3-4, 5-6 and 7-8 hold them).
pub fn formations_of_men(squares: &SquareValues) -> FormationTables {
    let table = |values: &[i16; 64]| -> [[f64; 256]; FORMATION_PAIRS] {
        std::array::from_fn(|pair| {
            std::array::from_fn(|i| {
                if pair % 2 == 1 {
                    return 0.0;
                }
                (0..8)
                    .filter(|bit| i >> bit & 1 == 1)
                    .map(|bit| {
                        // Bits 0-3: the lower rank's dark squares, file a side first; 4-7: the upper's.
                        let rank = pair + bit / 4;
                        let file = 2 * (bit % 4) + rank % 2;
                        f64::from(values[rank * 8 + file])
                    })
                    .sum()
            })
        })
    };
    Formations { full: table(&squares.men_full), empty: table(&squares.men_empty) }
}

/// Weights of terms that add a fixed value (blended by the number of pieces) for each piece
/// on certain squares: the tables express them exactly, so fitting both would fit the same
/// thing twice. The fit leaves them as they are; the English evaluation has them at zero,
/// folded into its tables, which is cheaper to evaluate.
pub const PER_SQUARE_WEIGHTS: [&str; 5] =
    ["centre_man", "centre_king", "advance", "main_diagonal", "double_diagonal"];

/// Which of its parameters [`fit_tables`] may change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FitScope {
    /// Leave the weights as they are (fit the tables alone).
    pub keep_weights: bool,
    /// Leave the square and formation tables as they are (fit the patterns, and the weights
    /// unless they are kept too).
    pub patterns_only: bool,
}

/// Fits table values on top of `weights` (kings by square, men by formation and by pattern),
/// and changes to the weights themselves (all but the man's value, the unit, and the
/// [`PER_SQUARE_WEIGHTS`]), by gradient descent (Adam) on the Texel loss, within `scope`. A
/// weight's feature is how much the evaluation moves when the weight does (the evaluation is
/// linear in its weights but for rounding and the kings-only endings).
pub fn fit_tables(
    samples: &[Sample],
    weights: &Weights,
    scale: f64,
    epochs: usize,
    scope: FitScope,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> Fitted {
    const STEP: i32 = 16;
    let base: Vec<f64> = samples.iter().map(|s| white_eval(s, weights)).collect();
    let weight_features: Vec<[f64; Weights::COUNT]> = samples
        .iter()
        .zip(&base)
        .map(|(s, b)| {
            let mut x = [0.0; Weights::COUNT];
            let fitted = |i: usize| i > 0 && !PER_SQUARE_WEIGHTS.contains(&Weights::NAMES[i]);
            for (i, xi) in x.iter_mut().enumerate().filter(|(i, _)| fitted(*i)) {
                let mut moved = *weights;
                *moved.values_mut()[i] += STEP;
                *xi = (white_eval(s, &moved) - b) / f64::from(STEP);
            }
            x
        })
        .collect();
    let tables = TABLE_PARAMS;
    let mut theta = vec![0.0f64; tables + Weights::COUNT];
    let (mut m, mut v) = (vec![0.0f64; theta.len()], vec![0.0f64; theta.len()]);
    // The L2 pull is per parameter, and most pattern states are seen in few positions, so it
    // must be tiny: on 805,000 English positions the held-out loss was 0.01349 at 1e-7,
    // 0.01254 at 1e-8, 0.01166 at 1e-9, 0.01144 at 1e-10 and 0.01159 with none.
    let (rate, beta1, beta2, l2) = (0.5, 0.9, 0.999, 1e-10);
    let n = samples.len().max(1) as f64;
    let mut grad = vec![0.0f64; theta.len()];
    let free = if scope.patterns_only { PATTERNS_AT } else { 0 }..if scope.keep_weights {
        TABLE_PARAMS
    } else {
        theta.len()
    };
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for ((s, b), wx) in samples.iter().zip(&base).zip(&weight_features) {
            let mut e = *b;
            table_features(&s.position, |i, x| e += theta[i] * x);
            e += wx.iter().zip(&theta[tables..]).map(|(x, t)| x * t).sum::<f64>();
            let p = sigmoid(e, scale);
            let d = s.target(scale) - p;
            total += d * d;
            let g = -2.0 * d * p * (1.0 - p) * scale / 100.0;
            table_features(&s.position, |i, x| grad[i] += g * x);
            for (gi, x) in grad[tables..].iter_mut().zip(wx) {
                *gi += g * x;
            }
        }
        for i in 0..theta.len() {
            if grad[i] == 0.0 && theta[i] == 0.0 {
                continue; // a formation never seen stays as it was
            }
            if !free.contains(&i) {
                continue;
            }
            let g = grad[i] / n + l2 * theta[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(epoch as i32));
            let vh = v[i] / (1.0 - beta2.powi(epoch as i32));
            theta[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        on_epoch(epoch, total / n);
    }
    let mut fitted = *weights;
    for (w, t) in fitted.values_mut().into_iter().zip(&theta[tables..]) {
        *w += t.round() as i32;
    }
    let (squares, formations, patterns) = from_flat(&theta[..tables]);
    Fitted { squares, formations, patterns, weights: fitted }
}

/// The Texel loss of `weights` plus the table changes of `fit` on `samples`.
pub fn loss_with_tables(samples: &[Sample], weights: &Weights, fit: &Fitted, scale: f64) -> f64 {
    let theta = flat(&fit.squares, &fit.formations, &fit.patterns);
    let total: f64 = samples
        .iter()
        .map(|s| {
            let mut e = white_eval(s, weights);
            table_features(&s.position, |i, x| e += theta[i] * x);
            let d = s.target(scale) - sigmoid(e, scale);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_samples_are_quiet_and_labelled() {
        let samples = generate(Variant::English, 3, SelfPlay::Nodes(500), 7, &mut |_, _| {});
        assert!(samples.len() > 50, "{} samples", samples.len());
        assert!(samples.iter().all(|s| !s.position.has_capture()));
        assert!(samples.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        // Past the random opening moves every position was searched but the last of a game.
        let searched =
            samples.iter().filter(|s| s.search.is_some_and(|e| e.abs() <= SEARCH_SCORE_LIMIT)).count();
        assert!(searched + 3 >= samples.len(), "{searched} of {} searched", samples.len());
        let again = generate(Variant::English, 3, SelfPlay::Nodes(500), 7, &mut |_, _| {});
        assert!(samples.iter().zip(&again).all(|(a, b)| a.position == b.position), "repeatable for a seed");
    }

    #[test]
    fn rescoring_keeps_positions_and_results_and_scores_for_white() {
        // The same position with each side to move: White, up a man, scores well either way.
        let white = Position::from_fen(Variant::English, "W:W18,22,23,27:B11,12,16").expect("valid FEN");
        let black = white.with_turn(Color::Black);
        let samples: Vec<Sample> =
            [white, black].iter().map(|&position| Sample { position, result: 0.5, search: None }).collect();
        let mut rescored = Vec::new();
        rescore(&samples, 20_000, &mut |s| {
            rescored.push(s);
            true
        });
        assert_eq!(rescored.len(), 2);
        for (before, after) in samples.iter().zip(&rescored) {
            assert_eq!((before.position, before.result), (after.position, after.result));
            assert!(after.search.is_some_and(|score| score > 50.0), "{:?}", after.search);
        }
        let mut first_only = 0;
        rescore(&samples, 20_000, &mut |_| {
            first_only += 1;
            false
        });
        assert_eq!(first_only, 1, "stops when told");
    }

    #[test]
    fn the_fit_finds_a_square_that_wins() {
        // Relabel real positions: White wins exactly when a white man stands on d4 (bit 27)
        // and Black when a black man stands on its own d4 (turned: bit 36). Of all the
        // squares, formations holding d4 must gain the most.
        let mut samples = generate(Variant::English, 12, SelfPlay::Nodes(500), 4, &mut |_, _| {});
        for s in &mut samples {
            let white = s.position.men_of(Color::White).bits() >> 27 & 1 == 1;
            let black = s.position.men_of(Color::Black).bits() >> 36 & 1 == 1;
            s.result = 0.5 + 0.5 * (f64::from(u8::from(white)) - f64::from(u8::from(black)));
            s.search = None;
        }
        let weights = Weights::ENGLISH;
        let scale = fit_scale(&samples, &weights);
        let nothing = Fitted::unchanged(weights);
        let before = loss_with_tables(&samples, &weights, &nothing, scale);
        let fit = fit_tables(&samples, &weights, scale, 150, FitScope::default(), &mut |_, _| {});
        let after = loss_with_tables(&samples, &fit.weights, &fit, scale);
        // The evaluation it is fitted on top of stays (material and all), so the loss falls
        // only so far.
        assert!(after < before * 0.98, "loss {before} -> {after}");
        // For each pair of ranks and bit: the mean gain of formations with the bit over those without.
        let gain = |pair: usize, bit: usize| {
            let value = |i: usize| fit.formations.full[pair][i] + fit.formations.empty[pair][i];
            let (with, without): (Vec<usize>, Vec<usize>) = (0..256).partition(|i| i >> bit & 1 == 1);
            with.iter().map(|&i| value(i)).sum::<f64>() / 128.0
                - without.iter().map(|&i| value(i)).sum::<f64>() / 128.0
        };
        let all = 0..8 * FORMATION_PAIRS;
        let best = all.clone().max_by(|&a, &b| gain(a / 8, a % 8).total_cmp(&gain(b / 8, b % 8)));
        let d4 = [2 * 8 + 5, 3 * 8 + 1]; // ranks 3-4, upper rank's second; ranks 4-5, lower's second
        assert!(
            best.is_some_and(|b| d4.contains(&b)),
            "{best:?}: {:?}",
            all.map(|a| gain(a / 8, a % 8)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_fit_changes_only_what_its_scope_allows() {
        let samples = generate(Variant::English, 4, SelfPlay::Nodes(500), 5, &mut |_, _| {});
        let weights = Weights::ENGLISH;
        let scale = fit_scale(&samples, &weights);
        let scope = FitScope { keep_weights: true, patterns_only: true };
        let fit = fit_tables(&samples, &weights, scale, 20, scope, &mut |_, _| {});
        assert_eq!(fit.weights, weights, "the weights are kept");
        assert!(fit.formations.full.iter().flatten().all(|&v| v == 0.0), "formations unchanged");
        assert!(fit.squares.kings_full.iter().all(|&v| v == 0.0), "squares unchanged");
        assert!(fit.patterns.iter().flatten().any(|&v| v != 0.0), "patterns fitted");
        let before = loss_with_tables(&samples, &weights, &Fitted::unchanged(weights), scale);
        assert!(loss_with_tables(&samples, &weights, &fit, scale) < before);
    }

    #[test]
    fn formations_hold_the_square_values_of_their_men() {
        let squares = Weights::ENGLISH.square_values();
        let formations = formations_of_men(&squares);
        let position =
            Position::from_fen(Variant::English, "B:W18,22,23,25,29,K4:B1,5,6,9,14,K30").expect("valid FEN");
        for (men, turn) in
            [(position.men_of(Color::White).bits(), false), (position.men_of(Color::Black).bits(), true)]
        {
            let own = if turn { men.reverse_bits() } else { men };
            let indices = formation_indices(own);
            let by_formation: f64 = indices.iter().enumerate().map(|(p, &i)| formations.full[p][i]).sum();
            let by_square: f64 =
                (0..64).filter(|sq| own >> sq & 1 == 1).map(|sq| f64::from(squares.men_full[sq])).sum();
            assert_eq!(by_formation, by_square);
        }
    }
}
