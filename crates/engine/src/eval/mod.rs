//! Static evaluation: how good a quiet position is for the side to move, in hundredths of a
//! man.
//!
//! Each side is scored from its own point of view with the same terms: Black's masks are
//! White's turned half a turn (which keeps double corners where they belong). The terms:
//! material, back-rank defence, centre, structure (men backed from behind), development and
//! tempo (advancing men as the board empties), mobility, runaway men, trapped kings, for
//! Russian the long diagonals kings want. Both variants add fitted tables (`checkers-tune
//! fit-squares`, in `eval/english.rs` and `eval/russian.rs`): a value for each square a king
//! stands on, for each formation of a side's men on two neighbouring ranks and for each
//! pattern of both sides' men there (`eval/VARIANT-patterns.bin`), and terms for men crowded
//! on one half of the board and for pieces of the side to move that the opponent threatens to
//! take. Then endgame knowledge scales or replaces the sum: kings-only endings that are known
//! draws score near zero, and the side ahead is told to trade down and to close in.
//!
//! English positions with men on the board are scored instead by a small neural network
//! (`eval/net.rs`, trained by `checkers-fit-net` on the engine's own search scores); the terms
//! above still score English kings-only endings and every Russian position.
//!
//! Here: the sum of the terms under a variant's weights. The parameter types are in
//! `weights.rs` (the weights) and `tables.rs` (the fitted tables), the terms of one side in
//! `terms.rs`, the kings-only endgame scaling in `endings.rs`.

use checkers_rules::{Color, Position, Variant};

/// The hand-set and fitted weights of the board variants.
pub(crate) mod board_weights;
/// The evaluation of the board variants (International, the national games, Turkish).
pub(crate) mod boards;
mod endings;
/// `Weights::ENGLISH`, fitted.
mod english;
mod net;
/// `Weights::RUSSIAN`, fitted.
mod russian;
mod tables;
mod terms;
mod weights;

#[cfg(feature = "tune")]
pub use net::network_inputs;
#[cfg(feature = "tune")]
pub use tables::PATTERN_BYTES;
pub use tables::{
    formation_indices, pattern_index, BlendedFormations, BlendedSquares, Formations, Patterns, SquareValues,
    FORMATION_PAIRS, PATTERN_STATES,
};
pub use weights::Weights;

use endings::kings_only;
use terms::{capturable, side_terms, Down, Side, Up};

/// The evaluation of a position for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    // Positions with men go to the variant's network; kings alone to the tables, which know
    // the drawn and won kings-only endings.
    let pieces = position.pieces(Color::White).bits() | position.pieces(Color::Black).bits();
    let has_men = pieces & !position.kings().bits() != 0;
    if has_men {
        net::net(position.variant()).evaluate(position)
    } else {
        evaluate_tables(position)
    }
}

/// The evaluation of a position for the side to move by the fitted tables alone, without the
/// networks (kings-only positions, and the Russian levels below 9).
pub fn evaluate_tables(position: &Position) -> i32 {
    // One copy per variant with its weights as constants: zero terms vanish and the
    // multiplications simplify (a fifth fewer instructions than reading the weights).
    match position.variant() {
        Variant::English => evaluate_with(position, &Weights::ENGLISH),
        Variant::Russian => evaluate_with(position, &Weights::RUSSIAN),
    }
}

/// The evaluation under given weights (the tuner's door).
#[inline(always)]
pub fn evaluate_with(position: &Position, w: &Weights) -> i32 {
    let white = position.pieces(Color::White).bits();
    let black = position.pieces(Color::Black).bits();
    let kings = position.kings().bits();
    let white_side = Side {
        men: white & !kings,
        kings: white & kings,
        enemy_men: black & !kings,
        enemy_kings: black & kings,
    };
    let black_side = Side {
        men: white_side.enemy_men,
        kings: white_side.enemy_kings,
        enemy_men: white_side.men,
        enemy_kings: white_side.kings,
    };

    let wm = white_side.men.count_ones() as i32;
    let wk = white_side.kings.count_ones() as i32;
    let bm = white_side.enemy_men.count_ones() as i32;
    let bk = white_side.enemy_kings.count_ones() as i32;
    let pieces = wm + wk + bm + bk;

    let material = w.man * (wm - bm) + w.king * (wk - bk);
    let mut score = material + side_terms::<Up>(w, white_side, pieces)
        - side_terms::<Down>(w, black_side, pieces)
        + formations_and_patterns(w, white_side.men, white_side.enemy_men, pieces);

    // The side ahead wants fewer pieces on the board.
    if material != 0 {
        score += material.signum() * w.trade * (24 - pieces);
    }
    if wm + bm == 0 {
        score = kings_only(position.variant(), score, white_side, wk, bk);
    }
    let (score, mover, opponent) = if position.turn() == Color::White {
        (score, white_side, black_side)
    } else {
        (-score, black_side, white_side)
    };
    if w.threatened == 0 && w.double_threat == 0 {
        return score;
    }
    let threatened = if position.turn() == Color::White {
        capturable::<Down>(position.variant(), opponent, mover.men | mover.kings)
    } else {
        capturable::<Up>(position.variant(), opponent, mover.men | mover.kings)
    };
    let n = threatened.count_ones() as i32;
    score - w.threatened * n - if n >= 2 { w.double_threat } else { 0 }
}

/// White's formation and pattern values less Black's. Both sides' men are indexed once, in
/// White's order: Black's values for the same squares sit beside White's in the tables. Each
/// side's pattern sum is blended and rounded on its own, as its other terms are.
#[inline(always)]
fn formations_and_patterns(w: &Weights, white_men: u64, black_men: u64, pieces: i32) -> i32 {
    if w.formations.is_none() && w.patterns.is_none() {
        return 0;
    }
    let white = formation_indices(white_men);
    let black = formation_indices(black_men);
    let mut score = 0;
    if let Some(formations) = w.formations {
        let (whites, blacks) = (&formations.blended[pieces as usize], &formations.turned[pieces as usize]);
        for pair in 0..FORMATION_PAIRS {
            score += i32::from(whites[pair][white[pair]]) - i32::from(blacks[pair][black[pair]]);
        }
    }
    if let Some(patterns) = w.patterns {
        let mut sums = [0i32; 4];
        for pair in 0..FORMATION_PAIRS {
            let values = &patterns.both[pair * PATTERN_STATES + pattern_index(white[pair], black[pair])];
            for (sum, &v) in sums.iter_mut().zip(values) {
                *sum += i32::from(v);
            }
        }
        let (fullness, emptiness) = (pieces, 24 - pieces);
        score +=
            (sums[0] * fullness + sums[1] * emptiness) / 24 - (sums[2] * fullness + sums[3] * emptiness) / 24;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threats_against_the_side_to_move_count_once_per_piece() {
        // Black to move, no capture of its own; White threatens 22x15 (and 24x15).
        let threat = |fen: &str| {
            let p = Position::from_fen(Variant::English, fen).expect("valid FEN");
            let base = Weights { threatened: 0, double_threat: 0, ..Weights::ENGLISH };
            let with = Weights { threatened: 10, double_threat: 100, ..base };
            evaluate_with(&p, &base) - evaluate_with(&p, &with)
        };
        assert_eq!(threat("B:W22,25:B18"), 10);
        assert_eq!(threat("B:W22,24,25,28:B18,19"), 2 * 10 + 100);
        assert_eq!(threat("B:W22,25:B18,15"), 0, "the landing square is taken");
        assert_eq!(threat("W:W22,25:B18"), 0, "White to move: its own capture is not a threat");
    }

    /// The evaluation is the side to move's: the board turned half a turn with the colours
    /// swapped scores the same. Black's terms read White's tables and masks the other way
    /// round, so this checks every one of them against White's.
    #[test]
    fn colours_reversed_score_the_same() {
        use checkers_rules::{Setup, Square};
        let turn_round = |p: &Position| {
            let turned = |color: Color, kings: bool| -> Vec<Square> {
                let role = if kings { p.kings() } else { p.pieces(color).difference(p.kings()) };
                p.pieces(color)
                    .intersection(role)
                    .squares()
                    .into_iter()
                    .map(|sq| Square::from_coords(7 - sq.file(), 7 - sq.rank()).expect("a dark square"))
                    .collect()
            };
            let setup = Setup {
                white_men: turned(Color::Black, false),
                white_kings: turned(Color::Black, true),
                black_men: turned(Color::White, false),
                black_kings: turned(Color::White, true),
                turn: Some(p.turn().opponent()),
            };
            Position::from_setup(p.variant(), &setup).expect("the turned position is valid")
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for game in 0..400 {
            let mut p = Position::start(Variant::ALL[game % 2]);
            for _ in 0..next() % 90 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.play_unchecked(&moves[(next() % moves.len() as u64) as usize]);
                assert_eq!(evaluate(&p), evaluate(&turn_round(&p)), "{}", p.to_fen());
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }

    #[test]
    fn start_positions_are_level() {
        for v in Variant::ALL {
            let p = Position::start(v);
            let other = p.with_turn(p.turn().opponent());
            // The networks know whose move it is (the tempo), so the two differ a little.
            assert!(evaluate(&p).abs() <= 10 && evaluate(&other).abs() <= 10, "{v}: {}", evaluate(&p));
            // The tables alone see a symmetric start as level.
            let weights = Weights::of(v);
            assert_eq!(evaluate_with(&p, weights), -evaluate_with(&other, weights));
            assert_eq!(evaluate_with(&p, weights), 0, "the start is symmetric");
        }
    }

    #[test]
    fn english_tables_count_for_the_owner_of_the_piece() {
        // The same men and kings on the same squares, seen from each side's own back rank,
        // score the same for either colour; the tables are not all zero.
        let w = &Weights::ENGLISH;
        assert!(w.square_values().kings_full.iter().any(|&v| v != 0));
        assert!(w.formations.is_some_and(|f| f.values.full.iter().flatten().any(|&v| v != 0)));
        let white = Position::from_fen(Variant::English, "W:W14,22,25,29,K1:BK32").unwrap();
        let black = Position::from_fen(Variant::English, "B:WK1:B4,8,11,19,K32").unwrap();
        assert_eq!(evaluate(&white), evaluate(&black));
    }
}
