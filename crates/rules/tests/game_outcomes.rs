//! Every win and draw rule of docs/rules.md, each on a hand-built position.
//!
//! Count rules are driven by a deterministic walk that never allows a capture (each move
//! leaves the opponent without one) and never repeats a position a third time, so that the
//! rule under test is the only one that can end the game.

use checkers_rules::{
    Color, DrawReason, Game, GameError, IllegalReason, Move, Outcome, Position, Variant, WinReason,
};

/// The long diagonal a1-h8.
const LONG_DIAGONAL: [u32; 8] = [29, 25, 22, 18, 15, 11, 8, 4];

fn game(variant: Variant, fen: &str) -> Game {
    Game::from_position(Position::from_fen(variant, fen).unwrap())
}

/// A small deterministic pseudo-random sequence.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Which moves a walk may make: by ply number (from the walk's start), position and move.
type Rule<'a> = &'a dyn Fn(usize, &Position, &Move) -> bool;

/// Finds, by depth-first search, `plies` quiet moves that `rule` accepts, each leaving the
/// opponent no capture and producing no position for the third time, and plays them,
/// checking the game is not over before the last.
fn walk(game: &mut Game, plies: usize, rule: Rule) {
    // A search that wanders into a dead end far from its start can take very long to back out;
    // give each seed a budget and start again with another.
    let path = (1..=50)
        .find_map(|seed| search_walk(game, plies, 0, rule, &mut Lcg(seed), &mut 5_000))
        .unwrap_or_else(|| panic!("no walk of {plies} plies from {}", game.position().to_fen()));
    for (ply, mv) in path.into_iter().enumerate() {
        assert!(game.outcome().is_none(), "ended early at ply {ply}: {:?}", game.outcome());
        game.play(mv).unwrap();
    }
}

fn search_walk(
    game: &Game,
    plies: usize,
    ply: usize,
    rule: Rule,
    rng: &mut Lcg,
    budget: &mut u32,
) -> Option<Vec<Move>> {
    if ply == plies {
        return Some(Vec::new());
    }
    *budget = budget.checked_sub(1)?;
    let position = game.position();
    let mut candidates: Vec<Move> = position
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| !m.is_capture() && rule(ply, &position, m))
        .filter(|m| {
            let next = position.play_unchecked(m);
            !next.has_capture() && game.positions().iter().filter(|p| **p == next).count() < 2
        })
        .collect();
    // Shuffle so the walk wanders instead of always trying the same square first.
    for i in (1..candidates.len()).rev() {
        candidates.swap(i, rng.next(i + 1));
    }
    for mv in candidates {
        let mut next = game.clone();
        next.play(mv).ok()?;
        if ply + 1 < plies && next.is_over() {
            continue;
        }
        if let Some(mut rest) = search_walk(&next, plies, ply + 1, rule, rng, budget) {
            rest.insert(0, mv);
            return Some(rest);
        }
    }
    None
}

fn king_moves_only(_ply: usize, position: &Position, mv: &Move) -> bool {
    position.kings().contains(mv.from())
}

fn man_moves_only(_ply: usize, position: &Position, mv: &Move) -> bool {
    !position.kings().contains(mv.from()) && !mv.crowns()
}

fn draw(reason: DrawReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

#[test]
fn no_legal_move_loses_when_blocked() {
    // White's only man on a1 (29) faces b2 (25) with c3 (22) behind it occupied.
    let g = game(Variant::English, "W:W29:B25,22");
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::NoLegalMove }));
}

#[test]
fn no_pieces_loses() {
    // Black's man on c5 (14) takes White's last piece on d4 (18), landing on e3 (23).
    let mut g = game(Variant::English, "B:W18:B14");
    let mv = g.play_text("14x23").unwrap();
    assert!(mv.is_capture());
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::NoLegalMove }));
}

#[test]
fn threefold_repetition_draws() {
    let mut g = game(Variant::English, "W:WK29:BK4");
    for text in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29"] {
        g.play_text(text).unwrap();
        assert_eq!(g.outcome(), None);
    }
    g.play_text("8-4").unwrap();
    assert_eq!(g.outcome(), draw(DrawReason::ThreefoldRepetition));
    // Taking the move back reopens the game.
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn english_forty_move_rule_after_80_plies_of_king_moves() {
    let mut g = game(Variant::English, "W:WK29,K30,K31:BK1,K2,K3");
    walk(&mut g, 80, &king_moves_only);
    assert_eq!(g.outcome(), draw(DrawReason::FortyMoveRule));
}

#[test]
fn english_man_move_resets_the_forty_move_count() {
    let mut g = game(Variant::English, "W:WK29,K30,28:BK1,K2,5");
    // 60 plies of king moves, then a man moves: the count starts again.
    walk(&mut g, 61, &|ply, p, m| {
        if ply == 60 {
            man_moves_only(ply, p, m)
        } else {
            king_moves_only(ply, p, m)
        }
    });
    // `walk` checks the game goes on through the first 79 plies; the 80th draws.
    walk(&mut g, 80, &king_moves_only);
    assert_eq!(g.outcome(), draw(DrawReason::FortyMoveRule));
}

#[test]
fn russian_king_against_king_is_drawn_at_once_when_neither_can_force_a_capture() {
    // Kb8 against Kd4, and Kh8 against Kh2 (what the terminal game's test reaches): neither
    // king can be driven onto a square where the other takes it.
    assert_eq!(game(Variant::Russian, "W:WK18:BK1").outcome(), draw(DrawReason::KingAgainstKing));
    assert_eq!(game(Variant::Russian, "B:WK4:BK28").outcome(), draw(DrawReason::KingAgainstKing));
    // But not when the side to move can capture the other king: a1 takes b2, landing c3.
    let mut g = game(Variant::Russian, "W:WK29:BK25");
    assert_eq!(g.outcome(), None);
    g.play_text("29x22").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::White, reason: WinReason::NoLegalMove }));
}

/// Checks that the game goes on, and that whatever the side to move plays, the other side
/// then has only captures, takes the last king and wins.
fn every_move_is_taken(g: &Game, winner: Color) {
    assert_eq!(g.outcome(), None, "{:?}", g.position());
    let moves = g.legal_moves();
    assert!(!moves.is_empty());
    for mv in moves.iter() {
        let mut line = g.clone();
        line.play(*mv).unwrap();
        assert_eq!(line.outcome(), None, "{:?} then {mv:?}", g.position());
        let captures = line.legal_moves();
        assert!(captures.iter().all(|m| m.is_capture()), "{:?} then {mv:?}", g.position());
        line.play(captures.as_slice()[0]).unwrap();
        assert_eq!(line.outcome(), Some(Outcome::Win { winner, reason: WinReason::NoLegalMove }));
    }
}

/// The game from `fen` after `opening`.
fn after(fen: &str, opening: &str) -> Game {
    let mut g = game(Variant::Russian, fen);
    assert_eq!(g.outcome(), None, "{fen}");
    g.play_text(opening).unwrap();
    g
}

#[test]
fn russian_king_against_a_cornered_king_wins() {
    // White Kd4 (18) against Black Ka1 (29), White to move: d4-h8 (18-4), and every move of
    // the cornered king lands on the long diagonal, where h8 takes it.
    every_move_is_taken(&after("W:WK18:BK29", "18-4"), Color::White);
    // Colours swapped: Black Kd4 against White Ka1, Black to move, wins the same way; and
    // the board turned round, Black Ke5 (15) against White Kh8 (4), by e5-a1 (15-29).
    every_move_is_taken(&after("B:WK29:BK18", "18-4"), Color::Black);
    every_move_is_taken(&after("B:WK4:BK15", "15-29"), Color::Black);
    // The same squares with the cornered king to move: it takes the other at once.
    for (fen, capture, winner) in
        [("B:WK18:BK29", "29x4", Color::Black), ("W:WK29:BK18", "29x4", Color::White)]
    {
        let g = after(fen, capture);
        assert_eq!(g.outcome(), Some(Outcome::Win { winner, reason: WinReason::NoLegalMove }), "{fen}");
    }
    // A king in the corner to move, the other king in the opposite corner, has lost: it must
    // step onto the long diagonal, where the other takes it.
    every_move_is_taken(&game(Variant::Russian, "W:WK4:BK29"), Color::Black);
    every_move_is_taken(&game(Variant::Russian, "B:WK4:BK29"), Color::White);
}

#[test]
fn russian_three_kings_against_king_fifteen_moves() {
    // The lone king keeps off the long diagonal, where a five-move rule would end it sooner.
    let mut g = game(Variant::Russian, "W:WK29,K30,K31:BK1");
    let off_diagonal = |_: usize, p: &Position, m: &Move| {
        p.turn() == Color::White || !LONG_DIAGONAL.contains(&m.to().number())
    };
    // 15 moves of White (the stronger side) and 14 of Black: the game ends after White's 15th.
    walk(&mut g, 29, &off_diagonal);
    assert_eq!(g.outcome(), draw(DrawReason::ThreeKingsAgainstKing));
}

#[test]
fn russian_kings_only_fifteen_moves() {
    // Two kings and a man against two kings and two men: no lone king, unequal forces.
    let mut g = game(Variant::Russian, "W:WK29,K32,21:BK1,K4,5,12");
    walk(&mut g, 30, &king_moves_only);
    assert_eq!(g.outcome(), draw(DrawReason::KingsOnlyFifteenMoves));
}

#[test]
fn russian_equal_forces_thirty_moves_with_four_pieces_a_side() {
    let mut g = game(Variant::Russian, "W:WK29,K32,21,28:BK1,K4,5,12");
    // Kings move, except that White steps a man at ply 20 and Black at ply 41, which keeps the
    // kings-only rule (30 plies) away; men moving do not change the balance of forces.
    let schedule = |ply: usize, p: &Position, m: &Move| {
        if ply == 20 || ply == 41 {
            man_moves_only(ply, p, m)
        } else {
            king_moves_only(ply, p, m)
        }
    };
    walk(&mut g, 60, &schedule);
    assert_eq!(g.outcome(), draw(DrawReason::EqualForcesNoCapture));
}

#[test]
fn russian_two_pieces_against_lone_king_five_moves() {
    let mut g = game(Variant::Russian, "W:WK29,K31:BK1");
    walk(&mut g, 10, &king_moves_only);
    assert_eq!(g.outcome(), draw(DrawReason::FewPiecesAgainstKing));
}

#[test]
fn russian_three_pieces_against_king_on_long_diagonal_five_moves() {
    // The lone black king stays on the long diagonal a1-h8 (29, 25, 22, 18, 15, 11, 8, 4).
    let stay_on_diagonal = |_: usize, p: &Position, m: &Move| {
        LONG_DIAGONAL.contains(&m.to().number()) == (p.turn() == Color::Black)
    };
    let mut g = game(Variant::Russian, "W:WK30,K32,K28:BK4");
    walk(&mut g, 10, &stay_on_diagonal);
    assert_eq!(g.outcome(), draw(DrawReason::FewPiecesAgainstKing));
    // Off the diagonal the five-move rule does not apply.
    let mut g = game(Variant::Russian, "W:WK30,K32,K28:BK1");
    walk(&mut g, 12, &|_: usize, p: &Position, m: &Move| {
        p.turn() == Color::White || !LONG_DIAGONAL.contains(&m.to().number())
    });
    assert_eq!(g.outcome(), None);
}

#[test]
fn agreement_resignation_and_time() {
    let mut g = Game::new(Variant::English);
    g.agree_draw().unwrap();
    assert_eq!(g.outcome(), draw(DrawReason::Agreement));
    assert!(g.play_text("11-15").is_err(), "no move after the game ended");
    let mut g = Game::new(Variant::Russian);
    g.resign(Color::White).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black, reason: WinReason::Resignation }));
    let mut g = Game::new(Variant::Russian);
    g.lose_on_time(Color::Black).unwrap();
    assert_eq!(g.outcome().unwrap().to_string(), "White wins: Black ran out of time");
}

/// A declared end can be taken back, and only a declared one: the board's outcomes stand.
#[test]
fn a_declared_end_is_withdrawn_without_a_move() {
    let mut g = Game::new(Variant::English);
    g.play_text("11-15").unwrap();
    g.agree_draw().unwrap();
    assert_eq!(g.withdraw_declaration(), draw(DrawReason::Agreement));
    assert_eq!((g.outcome(), g.moves().len()), (None, 1));
    assert_eq!(g.withdraw_declaration(), None, "nothing left to withdraw");
    g.resign(Color::White).unwrap();
    assert!(g.outcome().is_some_and(|o| o.is_declared()));
    assert!(g.withdraw_declaration().is_some());
    g.play_text("23-19").unwrap();
    let mut lost = game(Variant::English, "B:W18:B");
    assert_eq!(lost.outcome(), Some(Outcome::Win { winner: Color::White, reason: WinReason::NoLegalMove }));
    assert_eq!(lost.withdraw_declaration(), None);
    assert!(lost.is_over());
}

/// A move that is not legal is refused with the move and the reason, as values.
#[test]
fn an_illegal_move_is_refused_with_its_reason() {
    let mut g = game(Variant::English, "B:W14,23:B9,1");
    let quiet = Position::start(Variant::English).parse_move("11-15").unwrap();
    let err = g.play(quiet).unwrap_err();
    let GameError::IllegalMove { attempted, reason } = &err else { panic!("{err:?}") };
    assert_eq!(*attempted, quiet);
    assert_eq!(*reason, IllegalReason::NoPiece(quiet.from()));
    assert_eq!(err.to_string(), "11-15 is not a legal move here: there is no piece on 11");
    let half = Position::from_fen(Variant::English, "B:W14:B9").unwrap().parse_move("9x18").unwrap();
    let err = g.play(half).unwrap_err();
    assert!(
        matches!(err, GameError::IllegalMove { reason: IllegalReason::CaptureGoesOn { .. }, .. }),
        "{err}"
    );
    assert_eq!(g.moves().len(), 0, "nothing was played");
}

#[test]
fn undo_restores_position_and_history() {
    let mut g = Game::new(Variant::English);
    let start = g.position();
    g.play_text("11-15").unwrap();
    g.play_text("22-18").unwrap();
    assert_eq!(g.undo().map(|m| m.to_hub()), Some("22-18".to_string()));
    assert_eq!(g.undo().map(|m| m.to_hub()), Some("11-15".to_string()));
    assert_eq!(g.undo(), None);
    assert_eq!(g.position(), start);
    assert!(g.moves().is_empty());
}

mod properties {
    use checkers_rules::{Game, Variant};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Playing moves then taking them back restores every earlier position, move list and
        /// outcome, in both variants.
        #[test]
        fn undo_restores_every_earlier_state(choices in proptest::collection::vec(any::<u16>(), 1..120), russian in any::<bool>()) {
            let variant = if russian { Variant::Russian } else { Variant::English };
            let mut game = Game::new(variant);
            let mut states = vec![game.clone()];
            for choice in choices {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.play(legal[usize::from(choice) % legal.len()]).unwrap();
                states.push(game.clone());
            }
            while let Some(expected) = states.pop() {
                prop_assert_eq!(&game, &expected);
                if game.undo().is_none() {
                    prop_assert!(states.is_empty());
                }
            }
        }
    }
}
