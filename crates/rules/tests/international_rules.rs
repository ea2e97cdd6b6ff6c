//! One named test per special rule of International draughts (docs/rules.md,
//! "International draughts"), each on a hand-built position with the exact list of legal
//! moves in long form, worked out by hand from the rules; the comment above each gives the
//! reasoning. Each check also asks the reference generator in `international_reference/`, so a
//! failing test names which of the two disagrees with the hand-worked list.
//!
//! The numbered board (White at the bottom moves up, towards square 1):
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
//!
//! The long diagonal runs 46-41-37-32-28-23-19-14-10-5.

mod international_reference;

use std::mem::size_of;

use checkers_rules::board::{Board, BoardIllegalReason, BoardMoveTextError, International};
use checkers_rules::{Color, Piece, Role};
use international_reference::{RefBoard, RefMove};

type Intl = Board<International>;

fn board(fen: &str) -> Intl {
    Intl::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Asserts the exact list of legal moves in long form (compared sorted as strings), and that
/// the reference generator finds the same moves.
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

fn piece(color: Color, role: Role) -> Option<Piece> {
    Some(Piece { color, role })
}

/// White starts on 31-50 and moves first; its nine opening moves are those of the front row.
#[test]
fn start_position_and_first_moves() {
    let start = Intl::start();
    assert_eq!(start.turn(), Color::White);
    assert_eq!(start, board("W:W31-50:B1-20"));
    assert_moves(
        "W:W31-50:B1-20",
        &["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"],
    );
    let after = start.play_unchecked(&start.parse_move("32-28").unwrap());
    assert_eq!(after.turn(), Color::Black);
    assert_moves(
        &after.to_fen(),
        &["16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24", "20-24", "20-25"],
    );
}

/// A man moves one square forward only; a king flies any distance along its four lines
/// (from e5: 5 squares up to j10, 4 to a9, 4 to a1, 4 to i1).
#[test]
fn men_step_forward_and_kings_fly() {
    assert_moves("W:W33:B1", &["33-28", "33-29"]);
    assert_moves("B:W50:B18", &["18-22", "18-23"]);
    assert_moves(
        "W:WK28:B1",
        &[
            "28-23", "28-19", "28-14", "28-10", "28-5", "28-22", "28-17", "28-11", "28-6", "28-32", "28-37",
            "28-41", "28-46", "28-33", "28-39", "28-44", "28-50",
        ],
    );
}

/// Men capture backwards too: Black's man on 28 takes 33 (forward, landing on 39) or 23
/// (backward, landing on 19).
#[test]
fn men_capture_forward_and_backward() {
    assert_moves("B:W23,33:B28", &["28x19", "28x39"]);
}

/// The capture of the most pieces is compulsory: 32 could take one piece (27, landing on
/// 21), 34 takes two (29 then 18, via 23 to 12), so only 34's capture is legal; and a quiet
/// move is not allowed while a capture is.
#[test]
fn majority_capture_is_compulsory() {
    assert_moves("W:W32,34:B18,27,29", &["34x23x12"]);
    let b = board("W:W32,34:B18,27,29");
    let Err(BoardMoveTextError::Illegal { reason, .. }) = b.parse_move("32x21") else { panic!() };
    assert_eq!(
        reason,
        BoardIllegalReason::CaptureCompulsory { pieces: Some(2), captures: vec!["34x23x12".into()] }
    );
    assert_eq!(
        b.parse_move("32x21").unwrap_err().to_string(),
        "32x21 is not a legal move: a capture of 2 pieces is compulsory: 34x23x12"
    );
}

/// Kings count as men in the majority rule: taking one king (27) does not outweigh taking two
/// men; taking two kings (31 and 21, 36 via 27 to 16) and taking two men are equal, so both
/// are legal.
#[test]
fn majority_counts_kings_as_men() {
    assert_moves("W:W32,34:B18,29,K27", &["34x23x12"]);
    assert_moves("W:W34,36:B18,29,K21,K31", &["34x23x12", "36x27x16"]);
}

/// A king takes 32 on the long diagonal and may land on 28, 23, 19, 14, 10 or 5; only from 23
/// can it go on (taking 18), so the majority rule sends it there, and after 18 it may land on
/// 12, 7 or 1. Without 18, each landing square is a move of its own.
#[test]
fn king_chooses_among_landing_squares() {
    assert_moves("W:WK46:B32", &["46x28", "46x23", "46x19", "46x14", "46x10", "46x5"]);
    assert_moves("W:WK46:B18,32", &["46x23x12", "46x23x7", "46x23x1"]);
}

/// A king taking two pieces on one line (37, then 23) may stop on 32 or 28 between them: both
/// routes make the same move, listed once, and written with the stop just beyond the first
/// piece (32, the FMJD rule); the other route and the short form read as the same move.
#[test]
fn two_captures_in_one_line_are_one_move_named_by_the_fmjd_rule() {
    assert_moves("W:WK46:B23,37", &["46x32x19", "46x32x14", "46x32x10", "46x32x5"]);
    let b = board("W:WK46:B23,37");
    let mv = b.parse_move("46x32x19").unwrap();
    assert_eq!(b.parse_move("46x28x19"), Ok(mv));
    assert_eq!(b.parse_move("46x19"), Ok(mv));
    assert_eq!(b.parse_move("46 x 19"), Ok(mv));
    assert_eq!(mv.to_hub(), "46x19x23x37");
}

/// A man that reaches the last row during a capture and must capture on is not crowned: 12
/// takes 8 to land on 3 (the last row), then must take 9, ending on 14 as a man (as a king it
/// could also have landed on 20 or 25). A man whose capture ends on the last row is crowned.
#[test]
fn a_man_passing_the_last_row_during_a_capture_is_not_crowned() {
    assert_moves("W:W12:B8,9", &["12x3x14"]);
    let b = board("W:W12:B8,9");
    let mv = b.legal_moves()[0];
    assert!(!mv.crowns());
    let after = b.play_unchecked(&mv);
    assert_eq!(after.piece_at(14), piece(Color::White, Role::Man));
    assert_eq!(after.piece_at(3), None);

    assert_moves("W:W12:B8", &["12x3"]);
    let b = board("W:W12:B8");
    let mv = b.legal_moves()[0];
    assert!(mv.crowns());
    assert_eq!(b.play_unchecked(&mv).piece_at(3), piece(Color::White, Role::King));
    // Black crowns on 46-50 the same way.
    let b = board("B:W43:B38");
    assert_moves("B:W43:B38", &["38x49"]);
    assert_eq!(b.play_unchecked(&b.legal_moves()[0]).piece_at(49), piece(Color::Black, Role::King));
}

/// A man takes four pieces round a square and comes back to its start (which counts as empty
/// during the move): 32 over 27, 17, 18, 28 or the other way round, one move listed once. No
/// piece is taken twice, so it stops there.
#[test]
fn a_capture_round_a_loop_is_one_move() {
    assert_moves("W:W32:B17,18,27,28", &["32x21x12x23x32"]);
    let b = board("W:W32:B17,18,27,28");
    let mv = b.legal_moves()[0];
    assert_eq!(mv.to_hub(), "32x32x17x18x27x28");
    assert_eq!(b.parse_move("32x23x12x21x32"), Ok(mv), "the other way round names the same move");
    let after = b.play_unchecked(&mv);
    assert_eq!(after.to_fen(), "B:W32:B");
}

/// Captured pieces leave the board only when the move ends: a king on 32 that takes 23 (up the
/// long diagonal) can't come back down it to take 41 too, because 23 still stands in the way;
/// each capture takes one piece.
#[test]
fn captured_pieces_stay_until_the_move_ends() {
    assert_moves("W:WK32:B23,41", &["32x19", "32x14", "32x10", "32x5", "32x46"]);
}

/// Move text: squares out of range, malformed text, a quiet move where none goes.
#[test]
fn move_text_errors_are_typed() {
    let start = Intl::start();
    assert_eq!(
        start.parse_move("32-51"),
        Err(BoardMoveTextError::BadSquare { text: "51".into(), squares: 50 })
    );
    assert_eq!(
        start.parse_move("c3-d4"),
        Err(BoardMoveTextError::BadSquare { text: "c3".into(), squares: 50 })
    );
    assert_eq!(start.parse_move("32--28"), Err(BoardMoveTextError::Syntax("32--28".into())));
    assert_eq!(
        start.parse_move("32-23").unwrap_err().to_string(),
        "32-23 is not a legal move: 32 can go to 27 or 28"
    );
    assert_eq!(
        start.parse_move("5-10").unwrap_err().to_string(),
        "5-10 is not a legal move: the piece on 5 is not yours; White is to move"
    );
}

/// A 10x10 position is a small `Copy` value: at most 32 bytes (it is three words).
#[test]
fn a_position_fits_in_32_bytes() {
    assert!(size_of::<Intl>() <= 32, "{} bytes", size_of::<Intl>());
    assert_eq!(size_of::<Intl>(), 24);
}
