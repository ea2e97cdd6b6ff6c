//! The solved lone king against lone king positions, checked against a plain minimax that
//! shares nothing with the solver but the move generator.

use std::collections::HashMap;

use checkers_rules::{
    is_drawn_king_against_king, lone_kings_plies_to_capture, lone_kings_result, LoneKingsResult, Position,
    Variant,
};

/// Every position with one white king and one black king, each side to move.
fn two_king_positions(variant: Variant) -> Vec<Position> {
    let mut positions = Vec::new();
    for white in 1..=32 {
        for black in (1..=32).filter(|&b| b != white) {
            for turn in ["W", "B"] {
                positions.push(Position::from_fen(variant, &format!("{turn}:WK{white}:BK{black}")).unwrap());
            }
        }
    }
    positions
}

/// What best play decides within `plies` plies for the side to move: `Some(true)` a capture
/// of the other king it can force, `Some(false)` one it cannot escape, `None` neither.
fn minimax(
    position: &Position,
    plies: u32,
    memo: &mut HashMap<(Position, u32), Option<bool>>,
) -> Option<bool> {
    if position.pieces(position.turn()).is_empty() || !position.has_legal_move() {
        return Some(false);
    }
    if plies == 0 {
        return None;
    }
    if let Some(&known) = memo.get(&(*position, plies)) {
        return known;
    }
    let mut all_lost = true;
    let mut result = None;
    for mv in position.legal_moves().iter() {
        match minimax(&position.play_unchecked(mv), plies - 1, memo) {
            Some(false) => {
                result = Some(true);
                break;
            }
            Some(true) => {}
            None => all_lost = false,
        }
    }
    let result = result.or(all_lost.then_some(false));
    memo.insert((*position, plies), result);
    result
}

/// The wins and losses of the table are those the minimax proves, in as many plies as the
/// table says; every draw has a move to a draw and none to a loss for the opponent, so the
/// side to move can keep it a draw for ever (and nothing forced is missed).
fn check_against_minimax(variant: Variant) -> [usize; 3] {
    let mut memo = HashMap::new();
    let mut counts = [0; 3];
    for position in two_king_positions(variant) {
        let result = lone_kings_result(&position).unwrap();
        let plies = lone_kings_plies_to_capture(&position);
        counts[result as usize] += 1;
        match result {
            LoneKingsResult::Draw => {
                assert_eq!(plies, None, "{position:?}");
                let children: Vec<_> = position
                    .legal_moves()
                    .iter()
                    .map(|mv| lone_kings_result(&position.play_unchecked(mv)))
                    .collect();
                assert!(children.contains(&Some(LoneKingsResult::Draw)), "{position:?}");
                assert!(!children.contains(&Some(LoneKingsResult::Loss)), "{position:?}");
                assert!(!children.contains(&None), "a draw with a capture: {position:?}");
            }
            decided => {
                let plies = plies.unwrap();
                let won = decided == LoneKingsResult::Win;
                assert_eq!(minimax(&position, plies, &mut memo), Some(won), "{position:?}");
                assert_eq!(minimax(&position, plies - 1, &mut memo), None, "{position:?}");
            }
        }
    }
    counts
}

#[test]
fn russian_two_king_positions_agree_with_minimax() {
    // [wins, losses, draws] for the side to move. The losses are a king in a corner to move
    // against the king in the opposite corner; the wins are a capture at once (364), or a
    // king on the long diagonal against one in its corner taking the other corner (24).
    assert_eq!(check_against_minimax(Variant::Russian), [388, 4, 1592]);
    let longest = two_king_positions(Variant::Russian).iter().filter_map(lone_kings_plies_to_capture).max();
    assert_eq!(longest, Some(3));
}

#[test]
fn english_two_king_positions_agree_with_minimax() {
    // Short kings can be cornered too, though no English rule draws king against king.
    assert_eq!(check_against_minimax(Variant::English), [460, 216, 1308]);
}

#[test]
fn only_russian_draws_king_against_king_by_rule() {
    let russian = |fen| Position::from_fen(Variant::Russian, fen).unwrap();
    assert!(is_drawn_king_against_king(&russian("W:WK18:BK1")));
    assert!(!is_drawn_king_against_king(&russian("W:WK18:BK29")));
    assert!(!is_drawn_king_against_king(&Position::from_fen(Variant::English, "W:WK18:BK1").unwrap()));
    // Anything but one king a side is not a king against king.
    for fen in ["W:WK18,K22:BK1", "W:W18:BK1", "W:WK18:B1"] {
        assert_eq!(lone_kings_result(&russian(fen)), None, "{fen}");
        assert!(!is_drawn_king_against_king(&russian(fen)), "{fen}");
    }
}
