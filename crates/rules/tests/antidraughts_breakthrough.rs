//! Antidraughts and Breakthrough (docs/rules.md): International moves with other game ends.
//! Their moves are International draughts' (so their perft from the start is International's
//! published perft, checked here to depth 6), and each test below ends a game one way, on a
//! hand-built position, with the outcome its referee gives.
//!
//! The numbered board is International draughts' (tests/international_rules.rs).

use checkers_rules::board::{
    board_perft, Antidraughts, Board, BoardDrawReason, BoardGame, BoardOutcome, BoardWinReason, Breakthrough,
    RuleSet,
};
use checkers_rules::{Color, WinReason};

fn game<V: RuleSet>(fen: &str) -> BoardGame<V> {
    BoardGame::from_position(Board::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

/// International draughts' published perft from the start, depths 1-6.
const INTERNATIONAL: [u64; 6] = [9, 81, 658, 4265, 27117, 167140];

#[test]
fn their_perft_is_internationals() {
    for depth in 1..=6 {
        let expected = INTERNATIONAL[depth as usize - 1];
        assert_eq!(board_perft(&Board::<Antidraughts>::start(), depth), expected, "antidraughts {depth}");
        assert_eq!(board_perft(&Board::<Breakthrough>::start(), depth), expected, "breakthrough {depth}");
    }
}

/// Antidraughts: White must take 23 with 28x19; Black, to move with no piece left, wins.
#[test]
fn antidraughts_losing_every_piece_wins() {
    let mut g = game::<Antidraughts>("W:W28:B23");
    g.play_text("28x19").unwrap();
    assert_eq!(
        g.outcome(),
        Some(BoardOutcome::VariantWin { winner: Color::Black, reason: BoardWinReason::NoMovesLeft })
    );
    assert_eq!(g.outcome().unwrap().to_string(), "Black wins: it has no legal move left");
}

/// Antidraughts: White's man on 46 is blocked by 41 and 37; White, to move, has won.
#[test]
fn antidraughts_being_blocked_wins() {
    let g = game::<Antidraughts>("W:W46:B37,41");
    assert_eq!(
        g.outcome(),
        Some(BoardOutcome::VariantWin { winner: Color::White, reason: BoardWinReason::NoMovesLeft })
    );
}

/// Antidraughts: the third time the same position stands, the game is drawn.
#[test]
fn antidraughts_threefold_repetition_draws() {
    let mut g = game::<Antidraughts>("W:WK47:BK4");
    for mv in ["47-42", "4-10", "42-47", "10-4", "47-42", "4-10", "42-47"] {
        g.play_text(mv).unwrap();
        assert!(!g.is_over(), "over after {mv}");
    }
    g.play_text("10-4").unwrap();
    assert_eq!(g.outcome(), Some(BoardOutcome::Draw { reason: BoardDrawReason::ThreefoldRepetition }));
}

/// Breakthrough: the first side to crown a king wins, White (6-1) or Black (45-50).
#[test]
fn breakthrough_the_first_king_wins() {
    let mut g = game::<Breakthrough>("W:W6,31:B20,45");
    g.play_text("6-1").unwrap();
    assert_eq!(
        g.outcome(),
        Some(BoardOutcome::VariantWin { winner: Color::White, reason: BoardWinReason::FirstKing })
    );
    assert_eq!(g.outcome().unwrap().to_string(), "White wins: it crowned the first king");
    let mut g = game::<Breakthrough>("B:W6,31:B20,45");
    g.play_text("45-50").unwrap();
    assert_eq!(
        g.outcome(),
        Some(BoardOutcome::VariantWin { winner: Color::Black, reason: BoardWinReason::FirstKing })
    );
}

/// Breakthrough: a side to move without a legal move still loses.
#[test]
fn breakthrough_no_legal_move_loses() {
    let g = game::<Breakthrough>("W:W46:B37,41");
    assert_eq!(g.outcome(), Some(BoardOutcome::Win { winner: Color::Black, reason: WinReason::NoLegalMove }));
}

/// FEN round trips from the start and from a position with kings.
#[test]
fn fen_round_trips() {
    for fen in ["W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "B:W28,K46:B5,K17"] {
        assert_eq!(Board::<Antidraughts>::from_fen(fen).unwrap().to_fen(), fen);
        assert_eq!(Board::<Breakthrough>::from_fen(fen).unwrap().to_fen(), fen);
    }
    assert!(Board::<Antidraughts>::from_fen("W:W51:B1").is_err());
}
