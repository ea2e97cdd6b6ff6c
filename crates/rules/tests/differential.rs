//! Differential testing: the library's move generator against the simple reference in
//! `reference/`, on positions from random games and from random piece placements, for both
//! variants. Every position also checks that each move's text (PDN numeric and algebraic,
//! short form, Hub form) reads back as the same move, and that playing a move gives the board
//! the reference gives.

mod reference;

use std::collections::BTreeSet;

use checkers_rules::{
    perft, Color, MoveTextError, Perft, PerftMode, Position, Setup, Square, SquareNotation, Variant,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use reference::{Board, RefMove};

/// Compares everything the library says about `position` with the reference; returns the
/// number of legal moves.
fn check_position(position: &Position) -> Result<usize, String> {
    let context = || format!("{} {}\n{}", position.variant(), position.to_fen(), position.diagram());
    let legal = position.legal_moves();
    let library: Vec<RefMove> = legal.iter().map(RefMove::of).collect();
    let library_set: BTreeSet<RefMove> = library.iter().cloned().collect();
    if library_set.len() != library.len() {
        return Err(format!("the library lists a move twice: {library:?}\nin {}", context()));
    }
    let board = Board::from_position(position);
    let expected = board.generate();
    if library_set != expected.moves {
        let missing: Vec<&RefMove> = expected.moves.difference(&library_set).collect();
        let extra: Vec<&RefMove> = library_set.difference(&expected.moves).collect();
        return Err(format!(
            "move lists differ: the library misses {missing:?} and adds {extra:?}\nin {}",
            context()
        ));
    }

    // Counting doors agree with the list.
    let any_capture = legal.iter().any(|m| m.is_capture());
    if position.has_capture() != any_capture
        || position.has_legal_move() == legal.is_empty()
        || position.count_legal_moves() != legal.len() as u64
        || perft(position, 1) != legal.len() as u64
    {
        return Err(format!(
            "has_capture/has_legal_move/count_legal_moves/perft(1) disagree with {} legal moves in {}",
            legal.len(),
            context()
        ));
    }
    if position.variant() == Variant::English {
        let paths = Perft::new(PerftMode::Paths).count(position, 1);
        let expected_paths = if any_capture { expected.capture_paths } else { legal.len() } as u64;
        if paths != expected_paths {
            return Err(format!(
                "perft --paths depth 1 is {paths}, expected {expected_paths} in {}",
                context()
            ));
        }
    }

    for mv in legal.iter() {
        let key = RefMove::of(mv);
        let shown = || format!("move {} in {}", key.hub(), context());

        // PDN long form, numeric: a real route of this move, written by the convention of docs/rules.md.
        let text = mv.to_pdn(position, SquareNotation::Numeric);
        if mv.is_capture() {
            let routes = &expected.capture_texts[&key];
            if !routes.contains(&text) {
                return Err(format!(
                    "long form `{text}` is not a route of the move (routes: {routes:?}); {}",
                    shown()
                ));
            }
        } else if text != format!("{}-{}", key.from, key.to) {
            return Err(format!("quiet move written `{text}`; {}", shown()));
        }
        match position.parse_move(&text) {
            Ok(back) if back == *mv => {}
            other => return Err(format!("`{text}` reads back as {other:?}; {}", shown())),
        }

        // Algebraic: the same squares under their algebraic names, and it reads back.
        let algebraic = mv.to_pdn(position, SquareNotation::Algebraic);
        let converted: Vec<String> = text
            .split(['-', 'x'])
            .map(|n| Square::from_number(n.parse().unwrap()).unwrap().algebraic())
            .collect();
        let separator = if mv.is_capture() { "x" } else { "-" };
        if algebraic != converted.join(separator) {
            return Err(format!("algebraic `{algebraic}` does not match `{text}`; {}", shown()));
        }
        match position.parse_move(&algebraic) {
            Ok(back) if back == *mv => {}
            other => return Err(format!("`{algebraic}` reads back as {other:?}; {}", shown())),
        }

        // Short form `from x to`: the one move with these ends; or, when several share them,
        // the one whose whole route it is (a single capture); otherwise an ambiguity error
        // listing every candidate.
        let same_ends: Vec<RefMove> =
            legal.iter().filter(|m| m.from() == mv.from() && m.to() == mv.to()).map(RefMove::of).collect();
        let short = mv.to_short(SquareNotation::Numeric);
        let whole_route: Vec<&RefMove> = same_ends
            .iter()
            .filter(|m| expected.capture_texts.get(*m).is_some_and(|texts| texts.contains(&short)))
            .collect();
        let n = same_ends.len();
        match position.parse_move(&short) {
            Ok(back) if n == 1 && back == *mv => {}
            Ok(back) if n > 1 && whole_route.len() == 1 && RefMove::of(&back) == *whole_route[0] => {}
            Err(MoveTextError::Ambiguous { candidates, .. })
                if whole_route.len() != 1 && candidates.len() == n => {}
            other => {
                return Err(format!(
                    "short `{short}` ({n} moves share its ends) reads as {other:?}; {}",
                    shown()
                ))
            }
        }

        // Hub form: captured squares ascending, and it finds the move again.
        let hub = mv.to_hub();
        if hub != key.hub() {
            return Err(format!("hub form `{hub}`, expected `{}`; {}", key.hub(), shown()));
        }
        let squares: Vec<Square> =
            hub.split(['-', 'x']).map(|n| Square::from_number(n.parse().unwrap()).unwrap()).collect();
        let captured = mv.is_capture().then(|| &squares[2..]);
        let twins = legal
            .iter()
            .filter(|m| m.from() == mv.from() && m.to() == mv.to() && m.captured() == mv.captured())
            .count();
        let found = position.find_move(squares[0], squares[1], captured);
        let hub_ok = if twins == 1 { found == Some(*mv) } else { found.is_none() };
        if !hub_ok {
            return Err(format!("find_move for `{hub}` gives {found:?}; {}", shown()));
        }

        // Playing it: the checked door agrees, and the board is the reference's.
        let next = position.play_unchecked(mv);
        if position.try_play(mv) != Ok(next) {
            return Err(format!("try_play disagrees with play_unchecked; {}", shown()));
        }
        if Board::from_position(&next) != board.play(&key) {
            return Err(format!("after the move the library has {}; {}", next.to_fen(), shown()));
        }
    }
    Ok(legal.len())
}

/// Plays the moves chosen by `choices` (each taken modulo the number of legal moves),
/// checking every position on the way; returns how many positions were checked.
fn check_game(start: Position, choices: &[u16]) -> Result<usize, TestCaseError> {
    let mut position = start;
    let mut checked = 0;
    for &choice in choices.iter().chain(std::iter::once(&0)) {
        let n = check_position(&position).map_err(TestCaseError::fail)?;
        checked += 1;
        if n == 0 {
            break;
        }
        let legal = position.legal_moves();
        position = position.play_unchecked(&legal[usize::from(choice) % n]);
    }
    Ok(checked)
}

/// A random piece placement: `(square index 0-31, white?, role roll)` items, where an item
/// is a king when its roll is below `king_share` (0-4). Later items on a used square and
/// pieces beyond twelve a side are dropped; a man on its crowning row becomes a king.
fn placement(items: &[(u32, bool, u8)], king_share: u8, white_to_move: bool) -> Setup {
    let mut setup =
        Setup { turn: Some(if white_to_move { Color::White } else { Color::Black }), ..Setup::default() };
    let mut used = [false; 32];
    let (mut whites, mut blacks) = (0, 0);
    for &(index, white, roll) in items {
        let square = Square::from_number(index + 1).unwrap();
        let count = if white { &mut whites } else { &mut blacks };
        if used[index as usize] || *count == 12 {
            continue;
        }
        used[index as usize] = true;
        *count += 1;
        let crowning_rank = if white { 7 } else { 0 };
        let king = roll < king_share || square.rank() == crowning_rank;
        let list = match (white, king) {
            (true, false) => &mut setup.white_men,
            (true, true) => &mut setup.white_kings,
            (false, false) => &mut setup.black_men,
            (false, true) => &mut setup.black_kings,
        };
        list.push(square);
    }
    setup
}

/// Runs `cases` random cases; fails with proptest's shrunk counterexample, and asserts that
/// at least `minimum_positions` positions were compared.
fn run<S: Strategy>(
    name: &str,
    cases: u32,
    minimum_positions: usize,
    strategy: S,
    test: impl Fn(S::Value) -> Result<usize, TestCaseError>,
) {
    // `DIFFERENTIAL_SCALE=20` runs twenty times as many cases, for a long run by hand.
    let scale: u32 = std::env::var("DIFFERENTIAL_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let cases = cases * scale.max(1);
    let total = std::cell::Cell::new(0usize);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let result = runner.run(&strategy, |value| {
        total.set(total.get() + test(value)?);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    eprintln!("{name}: {} positions compared", total.get());
    assert!(
        total.get() >= minimum_positions,
        "{name}: only {} positions compared, expected at least {minimum_positions}",
        total.get()
    );
}

fn random_games(variant: Variant, cases: u32, minimum_positions: usize) {
    run(
        &format!("{variant} random games"),
        cases,
        minimum_positions,
        prop::collection::vec(any::<u16>(), 0..200),
        |choices| check_game(Position::start(variant), &choices),
    );
}

fn random_placements(variant: Variant, cases: u32, minimum_positions: usize) {
    let strategy = (
        prop::collection::vec((0u32..32, any::<bool>(), 0u8..4), 0..26),
        0u8..=4,
        any::<bool>(),
        prop::collection::vec(any::<u16>(), 0..16),
    );
    run(
        &format!("{variant} random placements"),
        cases,
        minimum_positions,
        strategy,
        |(items, king_share, white_to_move, choices)| {
            let setup = placement(&items, king_share, white_to_move);
            let start = Position::from_setup(variant, &setup)
                .map_err(|e| TestCaseError::fail(format!("placement {setup:?} rejected: {e}")))?;
            check_game(start, &choices)
        },
    );
}

#[test]
fn english_random_games_match_the_reference() {
    random_games(Variant::English, 400, 15_000);
}

#[test]
fn russian_random_games_match_the_reference() {
    random_games(Variant::Russian, 400, 15_000);
}

#[test]
fn english_random_placements_match_the_reference() {
    random_placements(Variant::English, 3_000, 15_000);
}

#[test]
fn russian_random_placements_match_the_reference() {
    random_placements(Variant::Russian, 3_000, 15_000);
}

/// The reference itself agrees with the published figures at shallow depth, so a shared
/// misreading of the rules would have to survive these too.
#[test]
fn reference_perft_matches_published_figures() {
    fn count(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        board.generate().moves.iter().map(|m| count(&board.play(m), depth - 1)).sum()
    }
    let english = Board::from_position(&Position::start(Variant::English));
    let russian = Board::from_position(&Position::start(Variant::Russian));
    assert_eq!((1..=6).map(|d| count(&english, d)).collect::<Vec<_>>(), [7, 49, 302, 1469, 7361, 36768]);
    assert_eq!((1..=6).map(|d| count(&russian, d)).collect::<Vec<_>>(), [7, 49, 302, 1469, 7482, 37986]);
}
