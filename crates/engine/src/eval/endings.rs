//! Endgame scaling: known facts about endings with kings alone, which scale the evaluation
//! of drawn ones towards zero and tell the side ahead to close in.

use checkers_rules::Variant;

use super::terms::{Side, MAIN_DIAGONAL};

/// Known facts about endings with kings alone (`score` from White's side).
pub(super) fn kings_only(variant: Variant, score: i32, white: Side, wk: i32, bk: i32) -> i32 {
    if wk == 0 || bk == 0 {
        return score;
    }
    let (strong, weak, sign) = if wk >= bk { (wk, bk, 1) } else { (bk, wk, -1) };
    let (strong_kings, weak_kings) =
        if sign == 1 { (white.kings, white.enemy_kings) } else { (white.enemy_kings, white.kings) };
    match variant {
        Variant::Russian => {
            if weak == 1 {
                if strong <= 2 {
                    return score / 16;
                }
                // Three kings against one on the main road cannot force it off (unless they
                // hold the road themselves): a draw by the 15-move rule.
                if strong == 3 && weak_kings & MAIN_DIAGONAL != 0 && strong_kings & MAIN_DIAGONAL == 0 {
                    return score / 16;
                }
                return score + sign * (200 - 10 * distance_sum(strong_kings, weak_kings));
            }
            if strong - weak <= 1 {
                return score / 8;
            }
            score
        }
        Variant::English => {
            if strong == weak {
                return score / 8;
            }
            // Ahead: close in on the enemy kings and keep them out of the double corners.
            let double_corners: u64 = (1 << 0) | (1 << 9) | (1 << 54) | (1 << 63);
            let cornered = (weak_kings & double_corners).count_ones() as i32;
            score + sign * (60 - 4 * distance_sum(strong_kings, weak_kings) - 10 * cornered)
        }
    }
}

/// Sum over pairs of king-move distance between the two sets (small sets only).
fn distance_sum(a: u64, b: u64) -> i32 {
    let mut total = 0;
    let mut x = a;
    while x != 0 {
        let i = x.trailing_zeros() as i32;
        x &= x - 1;
        let mut y = b;
        while y != 0 {
            let j = y.trailing_zeros() as i32;
            y &= y - 1;
            total += ((i % 8) - (j % 8)).abs().max(((i / 8) - (j / 8)).abs());
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use crate::eval::evaluate;
    use checkers_rules::{Position, Variant};

    #[test]
    fn material_counts_and_known_draws_score_near_zero() {
        let up = Position::from_fen(Variant::English, "W:W18,22,23:B11,12").unwrap();
        assert!(evaluate(&up) > 80, "a man up");
        let kk = Position::from_fen(Variant::Russian, "W:WK22:BK4").unwrap();
        assert!(evaluate(&kk).abs() < 20);
        // Three kings against one on the main road: drawn.
        let road = Position::from_fen(Variant::Russian, "W:WK1,K2,K3:BK29").unwrap();
        assert!(evaluate(&road).abs() < 60, "{}", evaluate(&road));
        let off_road = Position::from_fen(Variant::Russian, "W:WK1,K2,K3:BK30").unwrap();
        assert!(evaluate(&off_road) > 400, "{}", evaluate(&off_road));
    }
}
