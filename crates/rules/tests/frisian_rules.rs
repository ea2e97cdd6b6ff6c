//! One named test per special rule of Frisian draughts (docs/rules.md, "Frisian draughts"),
//! each on a hand-built position with the exact list of legal moves in long form, worked out
//! by hand from the rules; the comment above each gives the reasoning. Each list is also
//! asked of the reference generator in `frisian_reference/`.
//!
//! The numbered board (White at the bottom moves up, towards square 1); along a row the next
//! square is two files on, along a file the next square is two ranks on (28, 18, 8 are one
//! file; 26-30 one rank):
//!
//! ```text
//!   .  1  .  2  .  3  .  4  .  5     10
//!   6  .  7  .  8  .  9  . 10  .      9
//!   . 11  . 12  . 13  . 14  . 15      8
//!  16  . 17  . 18  . 19  . 20  .      7
//!   . 21  . 22  . 23  . 24  . 25      6
//!  26  . 27  . 28  . 29  . 30  .      5
//!   . 31  . 32  . 33  . 34  . 35      4
//!  36  . 37  . 38  . 39  . 40  .      3
//!   . 41  . 42  . 43  . 44  . 45      2
//!  46  . 47  . 48  . 49  . 50  .      1
//!   a  b  c  d  e  f  g  h  i  j
//! ```

mod frisian_reference;

use checkers_rules::board::{
    Board, BoardDrawReason, BoardGame, BoardOutcome, Frisian, FrisianFenError, Frysk, KingMoves,
    KingMovesError,
};
use checkers_rules::Color;
use frisian_reference::{RefBoard, RefMove};

type Fr = Board<Frisian>;

fn board(fen: &str) -> Fr {
    Fr::from_frisian_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Asserts the exact legal moves in long form (sorted), and that the reference agrees.
fn assert_moves(fen: &str, expected: &[&str]) {
    let b = board(fen);
    let mut library: Vec<String> = b.legal_moves().iter().map(|m| m.to_pdn(&b)).collect();
    library.sort();
    let mut wanted: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    wanted.sort();
    assert_eq!(library, wanted, "library, {fen}");
    let mut hub: Vec<String> = b.legal_moves().iter().map(|m| m.to_hub()).collect();
    hub.sort();
    let mut reference: Vec<String> =
        RefBoard::from_board(&b).generate().moves.iter().map(RefMove::hub).collect();
    reference.sort();
    assert_eq!(reference, hub, "reference, {fen}");
}

/// A man captures along its rank (26-30 is one rank) and along its file (33, 23, 13), forward
/// and backward, but not past the end of a row: 30 has no square to its right.
#[test]
fn men_capture_along_ranks_and_files() {
    assert_moves("W:W28:B29", &["28x30"]);
    assert_moves("W:W30:B29", &["30x28"]);
    assert_moves("W:W26:B27", &["26x28"]);
    assert_moves("W:W33:B23", &["33x13"]);
    assert_moves("W:W23:B33", &["23x43"]);
    // Nothing beyond 30 on its rank, nothing beyond 6 on its file: plain moves only.
    assert_moves("W:W29:B30", &["29-23", "29-24"]);
}

/// A king flies along files and ranks to capture too, landing on any empty square beyond:
/// from 46 up the a file over 26 (to 16 or 6) or along the first rank over 48 (to 49 or 50),
/// one king each way.
#[test]
fn kings_fly_along_files_and_ranks() {
    assert_moves("W:WK46:BK26,K48", &["46x16", "46x6", "46x49", "46x50"]);
}

/// A man jumping onto the last row that goes on capturing along it is crowned where it ends
/// (12x1x3 ends on the last row); one that leaves the row again is not (12x1x21).
#[test]
fn a_man_is_crowned_only_where_its_capture_ends() {
    assert_moves("W:W12:B2,7", &["12x1x3"]);
    let b = board("W:W12:B2,7");
    assert!(b.legal_moves()[0].crowns());
    assert_moves("W:W12:B7,11", &["12x1x21"]);
    let b = board("W:W12:B7,11");
    assert!(!b.legal_moves()[0].crowns());
}

/// The value rule: a man counts 100, a king 199. From 28 the man can take the king on 22
/// (28x17, 199) or the men on 29 and 24 (28x30x19, 200): two men beat a king. With only 29
/// beside the king, the king (199) beats the man (100).
#[test]
fn two_men_beat_one_king_and_a_king_beats_a_man() {
    assert_moves("W:W28:BK22,24,29", &["28x30x19"]);
    assert_moves("W:W28:BK22,29", &["28x17"]);
}

/// Three men (300) beat a king and a man (299); two kings (398) beat three men (300). From
/// 28: 28x17x6 takes 22 and 11; 28x30x19x8 takes 29, 24 and 13.
#[test]
fn the_value_rule_weighs_kings_just_under_two_men() {
    assert_moves("W:W28:B11,K22,13,24,29", &["28x30x19x8"]);
    assert_moves("W:W28:BK11,K22,13,24,29", &["28x17x6"]);
}

/// At equal value a king's capture goes first: the king on 46 takes 41 (landing on 37 or 32)
/// and the man on 28 could take 29, one man each, so only the king may capture. When the
/// man's capture is worth more (29 and 24), the man's goes first.
#[test]
fn at_equal_value_the_king_captures() {
    assert_moves("W:W28,K46:B29,41", &["46x37", "46x32"]);
    assert_moves("W:W28,K46:B24,29,41", &["28x30x19"]);
}

/// A king that has made three quiet moves in a row (White's run `+328`: three, the king on
/// 28) may not make a fourth while its side has men: only the man on 45 moves. It may still
/// capture, and the limit does not bind a side without men.
#[test]
fn a_king_may_not_make_a_fourth_quiet_move_in_a_row() {
    assert_moves("W:W45,K28:B1:+0+328", &["45-40"]);
    assert_moves("W:W45,K28:B1,K19:+0+328", &["28x14", "28x10", "28x5"]);
    // Without men the run is kept at nothing: the king moves freely.
    let free = board("W:WK28:B1:+0+328");
    assert_eq!(free.king_moves(Color::White), KingMoves::default());
    assert_eq!(free.legal_moves().len(), 17);
}

/// The run in play: the king on 28 moves three times (the count goes 1, 2, 3 and follows the
/// king), then only the other king and the man move; a move of the other king starts a new
/// run, after which the first king is free again.
#[test]
fn the_run_counts_quiet_moves_of_one_king_and_ends_with_another_move() {
    let mut game = BoardGame::<Frisian>::from_position(board("W:W45,K28,K50:B16,26"));
    for (white, black, count) in [("28-23", "16-21", 1), ("23-28", "26-31", 2), ("28-23", "21-27", 3)] {
        game.play_text(white).unwrap();
        assert_eq!(
            game.position().king_moves(Color::White),
            KingMoves { count, king: Some(white_end(white)) }
        );
        game.play_text(black).unwrap();
    }
    assert_eq!(game.position().to_frisian_fen(), "W:WK23,45,K50:B27,31:+0+323");
    let position = game.position();
    assert!(position.legal_moves().iter().all(|m| m.from() != 23), "23 is barred");
    assert!(position.parse_move("23-28").is_err());
    game.play_text("50-44").unwrap();
    assert_eq!(game.position().king_moves(Color::White), KingMoves { count: 1, king: Some(44) });
    game.play_text("31-36").unwrap();
    assert!(game.position().legal_moves().iter().any(|m| m.from() == 23), "23 is free again");
}

fn white_end(text: &str) -> u32 {
    text.split('-').nth(1).unwrap().parse().unwrap()
}

/// Two kings against one, no men: drawn after 7 moves of each side (14 plies) from the move
/// that made the ending; one king each: after 2 moves each. No repetition draw.
#[test]
fn frisian_endings_draw_after_seven_and_two_moves() {
    for (fen, plies, reason) in [
        ("W:WK47,K49:BK4", 14, BoardDrawReason::TwoKingsAgainstOne),
        ("W:WK47:BK4", 4, BoardDrawReason::OneKingEach),
    ] {
        let mut game = BoardGame::<Frisian>::from_position(board(fen));
        let line = quiet_line(game.position(), plies).expect("a line without captures");
        for mv in &line[..plies - 1] {
            game.play(*mv).unwrap();
            assert!(!game.is_over(), "{fen}: over after {} plies", game.moves().len());
        }
        game.play(line[plies - 1]).unwrap();
        assert_eq!(game.outcome(), Some(BoardOutcome::Draw { reason }), "{fen}");
    }
    // Two kings each: no count, and no draw by repetition however often a position recurs.
    let mut game = BoardGame::<Frisian>::from_position(board("W:WK47,K50:BK1,K4"));
    for _ in 0..4 {
        for mv in ["47-42", "4-10", "42-47", "10-4"] {
            game.play_text(mv).unwrap();
        }
    }
    assert_eq!(game.position(), game.start());
    assert!(!game.is_over());
}

/// `plies` quiet moves from `board` after none of which the side to move can capture.
fn quiet_line(board: Fr, plies: usize) -> Option<Vec<checkers_rules::board::BoardMove<Frisian>>> {
    if plies == 0 {
        return Some(Vec::new());
    }
    for mv in board.legal_moves().iter().filter(|m| !m.is_capture()) {
        let next = board.play_unchecked(mv);
        if next.has_capture() {
            continue;
        }
        if let Some(mut rest) = quiet_line(next, plies - 1) {
            rest.insert(0, *mv);
            return Some(rest);
        }
    }
    None
}

/// The side to move without a legal move loses (a man blocked on 46 by 41 and 37).
#[test]
fn no_legal_move_loses() {
    let game = BoardGame::<Frisian>::from_position(board("W:W46:B37,41"));
    assert_eq!(game.outcome().and_then(|o| o.winner()), Some(Color::Black));
}

/// Frysk!: five men a side on the back rows, Frisian rules.
#[test]
fn frysk_starts_with_five_men_on_the_back_rows() {
    let start = Board::<Frysk>::start();
    assert_eq!(start.to_fen(), "W:W46,47,48,49,50:B1,2,3,4,5");
    assert_eq!(start.legal_moves().len(), 9);
    assert!(Board::<Frysk>::from_fen("W:W40-50:B1").is_err(), "at most five pieces a side");
}

/// FEN round trips, lidraughts' extra fields (`H`, `F`, the runs) read, bad runs refused.
#[test]
fn frisian_fen_round_trips_and_reads_lidraughts_fields() {
    for fen in ["W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "B:WK28,45:B1,K19:+219+328", "W:WK1:BK50"] {
        assert_eq!(board(fen).to_frisian_fen(), fen);
    }
    let lidraughts = board("W:W45,K28:B1:H4:F12:+0+228");
    assert_eq!(lidraughts.king_moves(Color::White), KingMoves { count: 2, king: Some(28) });
    assert_eq!(lidraughts.to_frisian_fen(), "W:WK28,45:B1:+0+228");
    assert_eq!(board("W:W45,K28:B1:+0+0"), board("W:W45,K28:B1"));
    assert!(matches!(
        Fr::from_frisian_fen("W:W45,K28:B1:+0+428"),
        Err(FrisianFenError::KingMoves(KingMovesError::TooMany(4)))
    ));
    assert!(matches!(
        Fr::from_frisian_fen("W:W45,K28:B1:+0+3"),
        Err(FrisianFenError::KingMoves(KingMovesError::NoKing { count: 3 }))
    ));
    assert!(matches!(
        Fr::from_frisian_fen("W:W45,K28:B1:+0+x"),
        Err(FrisianFenError::KingMoves(KingMovesError::Syntax(_)))
    ));
    assert!(Fr::from_frisian_fen("W:W45,K28:B51").is_err());
    // A run whose king is gone binds nothing: it reads as none.
    assert_eq!(board("W:W45,K28:B1:+0+333").king_moves(Color::White), KingMoves::default());
}
