use std::sync::OnceLock;

use checkers_rules::{Position, Square, Variant};

use super::*;

fn database(variant: Variant) -> &'static Database {
    static ENGLISH: OnceLock<Database> = OnceLock::new();
    static RUSSIAN: OnceLock<Database> = OnceLock::new();
    let cell = if variant == Variant::English { &ENGLISH } else { &RUSSIAN };
    cell.get_or_init(|| Database::build(variant, 4).unwrap())
}

fn position(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap()
}

/// The value the database gives must be what one ply of play over its own values gives:
/// a win if some move reaches a lost position, a loss if every move reaches a won one (or
/// there is no move), else a draw.
fn check_against_one_ply(variant: Variant, every: usize) {
    let db = database(variant);
    let mut checked = 0;
    for material in Material::solving_order(4) {
        let index = SliceIndex::new(material);
        for i in (0..index.size()).step_by(every) {
            for turn in COLORS {
                let Ok(position) = Position::from_sets(variant, turn, index.sets(i)) else { continue };
                let mut best = Value::Loss;
                for mv in position.legal_moves().iter() {
                    let child = position.play_unchecked(mv);
                    let value = if child.pieces(child.turn()).is_empty() {
                        Value::Loss
                    } else {
                        db.probe(&child).unwrap()
                    };
                    best = match (best, value.flipped()) {
                        (Value::Win, _) | (_, Value::Win) => Value::Win,
                        (Value::Draw, _) | (_, Value::Draw) => Value::Draw,
                        _ => Value::Loss,
                    };
                }
                assert_eq!(db.probe(&position), Some(best), "{position:?}");
                // The colour-swapped twin, stored or not, has the same value.
                let twin = Position::from_sets(variant, turn.opponent(), mirrored(index.sets(i))).unwrap();
                assert_eq!(db.probe(&twin), Some(best), "{twin:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn english_values_agree_with_one_ply_of_play() {
    check_against_one_ply(Variant::English, 7);
}

#[test]
fn russian_values_agree_with_one_ply_of_play() {
    check_against_one_ply(Variant::Russian, 7);
}

#[test]
fn english_endings_everyone_knows() {
    let db = database(Variant::English);
    let value = |fen| db.probe(&position(Variant::English, fen));
    // Two kings beat one, even from the double corner; one king holds one.
    assert_eq!(value("W:WK14,K23:BK1"), Some(Value::Win));
    assert_eq!(value("B:WK14,K23:BK1"), Some(Value::Loss));
    assert_eq!(value("W:WK14:BK1"), Some(Value::Draw));
    // A man about to be taken: White to move captures and is left alone on the board.
    assert_eq!(value("W:W22:B18"), Some(Value::Win));
    // Too many pieces, or the wrong variant.
    assert_eq!(value("W:W21,22,23:B1,2"), None);
    assert_eq!(db.probe(&position(Variant::Russian, "W:WK14:BK1")), None);
}

#[test]
fn russian_lone_king_on_the_main_road_draws_against_three() {
    let db = database(Variant::Russian);
    let sq = |name: &str| Square::from_algebraic(name).unwrap();
    let set = |names: &[&str]| names.iter().fold(SquareSet::EMPTY, |s, n| s.with(sq(n)));
    let kings = set(&["c1", "e1", "g1"]);
    let value = |lone: &str, turn| {
        let position = Position::from_sets(
            Variant::Russian,
            turn,
            [SquareSet::EMPTY, kings, SquareSet::EMPTY, set(&[lone])],
        );
        db.probe(&position.unwrap())
    };
    // The long diagonal a1-h8 held: a draw whoever moves.
    assert_eq!(value("a1", Color::White), Some(Value::Draw));
    assert_eq!(value("h8", Color::Black), Some(Value::Draw));
    // Off it, and the three kings to move: Petrov's triangle wins.
    assert_eq!(value("a7", Color::White), Some(Value::Win));
}

#[test]
fn databases_hold_two_to_five_pieces() {
    assert_eq!(Database::build(Variant::English, 6).err(), Some(BuildError::Pieces(6)));
    assert_eq!(Database::build(Variant::English, 1).err(), Some(BuildError::Pieces(1)));
    let small = Database::build(Variant::English, 2).unwrap();
    assert_eq!(small.probe(&Position::from_fen(Variant::English, "W:WK14:BK1").unwrap()), Some(Value::Draw));
}

/// The rules library solves every lone king against lone king itself (the Russian rules draw
/// only those neither side can win); the databases, solved apart, agree position by position.
#[test]
fn two_king_values_agree_with_the_rules_library() {
    use checkers_rules::{lone_kings_result, LoneKingsResult};
    for variant in Variant::ALL {
        let db = database(variant);
        for white in 1..=32 {
            for black in (1..=32).filter(|&b| b != white) {
                for turn in ["W", "B"] {
                    let p = position(variant, &format!("{turn}:WK{white}:BK{black}"));
                    let expected = match lone_kings_result(&p).unwrap() {
                        LoneKingsResult::Win => Value::Win,
                        LoneKingsResult::Loss => Value::Loss,
                        LoneKingsResult::Draw => Value::Draw,
                    };
                    assert_eq!(db.probe(&p), Some(expected), "{p:?}");
                }
            }
        }
    }
}
