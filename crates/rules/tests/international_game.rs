//! Games of the International family and how they end (docs/rules.md, "Games and draws
//! (International family)"): each rule on a hand-built position, each test failing without
//! its rule.
//!
//! The long king manoeuvres are chosen by a small helper that, at each ply, plays the first
//! legal king move that captures nothing, leaves the opponent no capture and reaches a
//! position not seen before, so no other rule (a capture, a repetition) can end the game
//! early by accident.

use checkers_rules::board::{
    Board, BoardDrawReason, BoardGame, BoardGameError, BoardMove, BoardOutcome, Brazilian, International,
};
use checkers_rules::{Color, Role, WinReason};

fn game(fen: &str) -> BoardGame<International> {
    BoardGame::from_position(Board::from_fen(fen).unwrap())
}

/// The quiet king moves here that reach a position not in the game and leave the opponent no
/// capture.
fn fresh_king_moves(
    game: &BoardGame<International>,
    position: Board<International>,
) -> Vec<BoardMove<International>> {
    position
        .legal_moves()
        .iter()
        .copied()
        .filter(|mv| {
            let after = position.play_unchecked(mv);
            !mv.is_capture()
                && position.piece_at(mv.from()).is_some_and(|p| p.role == Role::King)
                && !after.has_capture()
                && !game.positions().contains(&after)
        })
        .collect()
}

/// Plays the first fresh quiet king move after which the opponent has one too.
fn king_step(game: &mut BoardGame<International>) {
    let position = game.position();
    let mv = fresh_king_moves(game, position)
        .into_iter()
        .find(|mv| !fresh_king_moves(game, position.play_unchecked(mv)).is_empty())
        .unwrap_or_else(|| panic!("no fresh quiet king move in {position:?}"));
    game.play(mv).unwrap();
}

/// Plays `plies` king steps, asserting the game is not over before the last.
fn king_steps(game: &mut BoardGame<International>, plies: usize) {
    for ply in 0..plies {
        assert_eq!(game.outcome(), None, "ply {ply} of {:?}", game.start());
        king_step(game);
    }
}

fn draw(reason: BoardDrawReason) -> Option<BoardOutcome> {
    Some(BoardOutcome::Draw { reason })
}

#[test]
fn taking_the_last_piece_wins() {
    let mut g = game("W:W28:B23,K1");
    g.play_text("28x19").unwrap();
    assert_eq!(g.outcome(), None, "Black still has a king");
    let mut g = game("W:W28:B23");
    assert_eq!(g.play_text("28x19").unwrap().captured(), [23]);
    assert_eq!(g.outcome(), Some(BoardOutcome::Win { winner: Color::White, reason: WinReason::NoLegalMove }));
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.play_text("19-13"), Err(BoardGameError::GameOver(_))));
}

/// Black's man on 36 is blocked by 41 and can take neither 41 (47 is taken) nor 31 (27 is
/// taken): no legal move, so Black has lost before moving.
#[test]
fn a_blocked_side_loses() {
    let g = game("B:W27,31,41,47:B36");
    assert_eq!(g.outcome(), Some(BoardOutcome::Win { winner: Color::White, reason: WinReason::NoLegalMove }));
    assert_eq!(g.outcome().unwrap().winner(), Some(Color::White));
}

/// Two kings a side shuttle 50-44, 1-7, 44-50, 7-1 twice: the start position comes back a
/// third time after eight plies.
#[test]
fn threefold_repetition_draws() {
    let mut g = game("W:WK46,K50:BK1,K5");
    for round in 0..2 {
        for text in ["50-44", "1-7", "44-50", "7-1"] {
            assert_eq!(g.outcome(), None, "round {round}, before {text}");
            g.play_text(text).unwrap();
        }
    }
    assert_eq!(g.outcome(), draw(BoardDrawReason::ThreefoldRepetition));
}

/// Two kings and a man a side: 25 moves each (50 plies) of kings only, without a capture,
/// and the game is drawn; not one ply sooner.
#[test]
fn twenty_five_moves_of_kings_only_draw() {
    let mut g = game("W:WK46,K50,36:BK1,K3,15");
    king_steps(&mut g, 50);
    assert_eq!(g.outcome(), draw(BoardDrawReason::TwentyFiveMoveRule));
}

/// A man move starts the 25-move count again: 30 king plies, a man move, 30 more plies
/// and the game goes on.
#[test]
fn a_man_move_restarts_the_twenty_five_move_count() {
    let mut g = game("W:WK46,K50,36:BK1,K3,15");
    king_steps(&mut g, 30);
    g.play_text("36-31").unwrap();
    king_steps(&mut g, 30);
    assert_eq!(g.outcome(), None);
    king_steps(&mut g, 20);
    assert_eq!(g.outcome(), draw(BoardDrawReason::TwentyFiveMoveRule), "50 plies after the man move");
}

/// Three pieces, one a king, against a lone king: drawn after 16 moves each (32 plies),
/// even though a man moved on the way (a man move does not restart this count).
#[test]
fn three_pieces_against_a_king_draw_after_sixteen_moves() {
    let mut g = game("W:WK46,36,45:BK3");
    g.play_text("36-31").unwrap();
    king_steps(&mut g, 31);
    assert_eq!(g.outcome(), draw(BoardDrawReason::SixteenMoveRule));
}

/// The 16 moves count from the move that made the ending: here White's first move takes
/// Black's man, so the draw comes 32 plies after it, not 32 plies after the start.
#[test]
fn the_sixteen_move_count_starts_when_the_ending_arises() {
    let mut g = game("W:WK46,K50,K45:BK1,28");
    let capture = g.legal_moves().iter().copied().find(|m| !g.position().play_unchecked(m).has_capture());
    g.play(capture.expect("a capture that leaves Black none")).unwrap();
    assert_eq!(g.moves()[0].captured(), [28]);
    king_steps(&mut g, 32);
    assert_eq!(g.outcome(), draw(BoardDrawReason::SixteenMoveRule));
}

/// Three kings against a king for 13 moves each; then White offers a king and Black takes it.
/// Two kings against a king is a 5-move ending, but the 16-move count still running ends the
/// game first: at its 16th move (32 plies from the start), not 5 moves after the capture.
#[test]
fn a_capture_into_the_five_move_ending_keeps_the_sixteen_move_limit() {
    let mut g = game("W:WK46,K50,K45:BK3");
    king_steps(&mut g, 26);
    let position = g.position();
    let offer = g.legal_moves().iter().copied().find(|mv| {
        let after = position.play_unchecked(mv);
        after.has_capture() && !g.positions().contains(&after)
    });
    g.play(offer.expect("a king to offer")).unwrap();
    let position = g.position();
    let take = g.legal_moves().iter().copied().find(|mv| !position.play_unchecked(mv).has_capture());
    g.play(take.expect("a capture White can't answer with one")).unwrap();
    assert_eq!(g.position().piece_count(Color::White), 2);
    king_steps(&mut g, 4);
    assert_eq!(g.outcome(), draw(BoardDrawReason::SixteenMoveRule));
}

/// Two kings against a king: drawn after 5 moves each (10 plies).
#[test]
fn two_kings_against_a_king_draw_after_five_moves() {
    let mut g = game("W:WK46,K50:BK1");
    king_steps(&mut g, 10);
    assert_eq!(g.outcome(), draw(BoardDrawReason::FiveMoveRule));
}

/// A king and a man against a king, and a king against a king, are the same 5-move ending.
#[test]
fn king_and_man_or_lone_king_against_a_king_draw_after_five_moves() {
    for fen in ["W:WK46,36:BK3", "W:WK46:BK3"] {
        let mut g = game(fen);
        king_steps(&mut g, 10);
        assert_eq!(g.outcome(), draw(BoardDrawReason::FiveMoveRule), "{fen}");
    }
}

/// Four pieces against a lone king is no counted ending: only the 25-move rule applies.
#[test]
fn four_pieces_against_a_king_is_not_a_counted_ending() {
    let mut g = game("W:WK46,K50,36,45:BK3");
    king_steps(&mut g, 49);
    assert_eq!(g.outcome(), None);
    king_step(&mut g);
    assert_eq!(g.outcome(), draw(BoardDrawReason::TwentyFiveMoveRule));
}

#[test]
fn declared_ends_and_errors() {
    let mut g = BoardGame::<International>::new();
    assert!(matches!(g.play_text("46-41"), Err(BoardGameError::MoveText(_))), "41 is taken");
    g.play_text("32-28").unwrap();
    g.agree_draw().unwrap();
    assert_eq!(g.outcome(), draw(BoardDrawReason::Agreement));
    assert!(matches!(g.resign(Color::Black), Err(BoardGameError::GameOver(_))));
    let mut g = BoardGame::<Brazilian>::new();
    assert_eq!(g.legal_moves().len(), 7);
    g.resign(Color::White).unwrap();
    assert_eq!(g.outcome().unwrap().winner(), Some(Color::Black));
    assert_eq!(g.outcome().unwrap().to_string(), "Black wins: White resigned");
}
