//! One named test per move rule of docs/rules.md, each on a hand-built position with the exact
//! list of legal moves (long PDN form, sorted as strings, as `checkers moves` prints them).
//!
//! Every expected list was worked out from the rules by hand; the comment above each gives the
//! reasoning. Each check also asks the reference generator in `reference/`, so a test that
//! fails names which of the two disagrees with the hand-worked list.
//!
//! Square names used in the comments: 29 = a1, 25 = b2, 22 = c3, 18 = d4, 15 = e5, 11 = f6,
//! 8 = g7, 4 = h8 (the long diagonal); rank 8 is 1-4 (b8 d8 f8 h8), rank 1 is 29-32
//! (a1 c1 e1 g1). White moves up (towards 1), Black down (towards 32).

mod reference;

use std::collections::BTreeSet;

use checkers_rules::{Color, Position, Role, Square, SquareNotation, Variant};
use reference::{Board, RefMove};

use Variant::{English, Russian};

fn position(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// The library's moves in long PDN form, sorted as strings.
fn pdn_moves(variant: Variant, fen: &str) -> Vec<String> {
    let p = position(variant, fen);
    let mut texts: Vec<String> =
        p.legal_moves().iter().map(|m| m.to_pdn(&p, SquareNotation::Numeric)).collect();
    texts.sort();
    texts
}

/// The library's moves in Hub form, sorted as strings.
fn hub_moves(variant: Variant, fen: &str) -> Vec<String> {
    let mut texts: Vec<String> = position(variant, fen).legal_moves().iter().map(|m| m.to_hub()).collect();
    texts.sort();
    texts
}

/// The reference generator's moves in Hub form, sorted as strings.
fn reference_hub_moves(variant: Variant, fen: &str) -> Vec<String> {
    let mut texts: Vec<String> =
        Board::from_position(&position(variant, fen)).generate().moves.iter().map(RefMove::hub).collect();
    texts.sort();
    texts
}

/// Asserts the exact sorted move list, and that the reference agrees on the moves.
fn assert_moves(variant: Variant, fen: &str, expected: &[&str]) {
    let mut sorted = expected.to_vec();
    sorted.sort();
    assert_eq!(expected, sorted, "the expected list in the test must be sorted as strings");
    assert_eq!(pdn_moves(variant, fen), expected, "library, {variant} {fen}");
    assert_eq!(reference_hub_moves(variant, fen), hub_moves(variant, fen), "reference, {variant} {fen}");
}

/// Asserts the exact sorted list in Hub form (for moves with two routes, whose long form may
/// name either), and that the reference agrees.
fn assert_hub_moves(variant: Variant, fen: &str, expected: &[&str]) {
    assert_eq!(hub_moves(variant, fen), expected, "library, {variant} {fen}");
    assert_eq!(reference_hub_moves(variant, fen), expected, "reference, {variant} {fen}");
}

fn the_move(variant: Variant, fen: &str, text: &str) -> checkers_rules::Move {
    position(variant, fen).parse_move(text).unwrap_or_else(|e| panic!("{variant} {fen} {text}: {e}"))
}

fn square(n: u32) -> Square {
    Square::from_number(n).unwrap()
}

// ------------------------------------------------------------------------------------------
// Board and notation

/// The numbered diagram of docs/rules.md, read row by row from the top: numbers sit on the dark
/// squares, which are the even-indexed columns on odd rows from the top and the odd ones on
/// even rows (rank 8 starts with a light square).
#[test]
fn square_numbers_follow_the_diagram() {
    for n in 1..=32u32 {
        let row_from_top = (n - 1) / 4;
        let column = 2 * ((n - 1) % 4) + if row_from_top % 2 == 0 { 1 } else { 0 };
        let sq = square(n);
        assert_eq!((sq.file(), sq.rank()), (column, 7 - row_from_top), "square {n}");
        assert_eq!(Square::from_coords(column, 7 - row_from_top), Some(sq));
    }
    assert_eq!(square(29).algebraic(), "a1");
    assert_eq!(square(32).algebraic(), "g1");
    assert_eq!(square(1).algebraic(), "b8");
    assert_eq!(square(4).algebraic(), "h8");
    assert_eq!(Square::all().map(|s| s.number()).collect::<Vec<_>>(), (1..=32).collect::<Vec<_>>());
}

#[test]
fn start_positions_and_first_moves() {
    // English: Black (1-12) moves first, men one square forward (down).
    let english = Position::start(English);
    assert_eq!(english.turn(), Color::Black);
    assert_eq!(english.to_fen(), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    assert_moves(English, &english.to_fen(), &["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]);
    // Russian: White (21-32) moves first, up.
    let russian = Position::start(Russian);
    assert_eq!(russian.turn(), Color::White);
    assert_moves(
        Russian,
        &russian.to_fen(),
        &["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"],
    );
}

// ------------------------------------------------------------------------------------------
// Men

/// White man on c3 (22), up to b4 (17) or d4 (18); never down. Same in both variants.
#[test]
fn men_move_one_square_diagonally_forward() {
    for variant in Variant::ALL {
        assert_moves(variant, "W:W22:B1", &["22-17", "22-18"]);
        // Black man on f6 (11) goes down to e5 (15) or g5 (16).
        assert_moves(variant, "B:W32:B11", &["11-15", "11-16"]);
    }
}

/// Black man on d4 (18) with a White man on c5 (14) behind it and b6 (9) empty: an English
/// man may not capture backwards, so it only moves down to c3 (22) or e3 (23).
#[test]
fn english_man_cannot_capture_backwards() {
    assert_moves(English, "B:W14:B18", &["18-22", "18-23"]);
}

/// The same position in Russian: men capture backwards, and capturing is compulsory.
#[test]
fn russian_man_captures_backwards() {
    assert_moves(Russian, "B:W14:B18", &["18x9"]);
}

/// An English king captures backwards: Black king on d4 (18) takes c5 (14), landing b6 (9).
#[test]
fn english_king_captures_backwards() {
    assert_moves(English, "B:W14:BK18", &["18x9"]);
}

/// Black man b6 (9) can take c5 (14) to d4 (18); the man on h6 (12) may not make a quiet move
/// instead. Same in both variants.
#[test]
fn compulsory_capture() {
    for variant in Variant::ALL {
        assert_moves(variant, "B:W14:B9,12", &["9x18"]);
    }
}

/// Black man b6 (9) takes c5 (14) to d4 (18) and must go on over e3 (23) to f2 (27):
/// stopping at 18 is not a move.
#[test]
fn multi_jump_must_be_completed() {
    for variant in Variant::ALL {
        assert_moves(variant, "B:W14,23:B9", &["9x18x27"]);
        let p = position(variant, "B:W14,23:B9");
        assert!(p.parse_move("9x18").is_err(), "{variant}: stopping half way is not a move");
    }
}

/// Black man d6 (10) may take c5 (14) alone (to b4, 17) or e5 (15) then g3 (24) (to h2, 28):
/// both are legal, the player chooses (no rule of the majority).
#[test]
fn free_choice_among_captures_no_majority_rule() {
    for variant in Variant::ALL {
        assert_moves(variant, "B:W14,15,24:B10", &["10x17", "10x19x28"]);
    }
}

/// A piece never jumps its own piece: Black men on b6 (9) and c5 (14), d4 (18) empty.
#[test]
fn no_piece_jumps_its_own_piece() {
    for variant in Variant::ALL {
        assert_moves(variant, "B:W32:B9,14", &["14-17", "14-18", "9-13"]);
    }
    // A Russian flying king stops at its own man: king a1 (29), own man c3 (22), enemy e5 (15).
    assert_moves(Russian, "W:W22,K29:B15", &["22-17", "22-18", "29-25"]);
}

/// A White man reaching rank 8 by a quiet move is crowned: c7 (6) to b8 (1) or d8 (2).
#[test]
fn man_reaching_the_far_row_is_crowned() {
    for variant in Variant::ALL {
        assert_moves(variant, "W:W6:B12", &["6-1", "6-2"]);
        let p = position(variant, "W:W6:B12");
        for mv in p.legal_moves().iter() {
            assert!(mv.crowns(), "{variant} {}", mv.to_hub());
            let after = p.play_unchecked(mv);
            assert_eq!(after.piece_at(mv.to()).map(|pc| pc.role), Some(Role::King));
        }
    }
}

/// English: White man f6 (11) takes e7 (7) and lands on d8 (2), its crowning row. As a king
/// it could go on over c7 (6) to b6 (9), but crowning ends the move.
#[test]
fn english_crowning_ends_the_move() {
    assert_moves(English, "W:W11:B6,7", &["11x2"]);
    assert!(the_move(English, "W:W11:B6,7", "11x2").crowns());
}

// ------------------------------------------------------------------------------------------
// Kings

/// English kings move one square in any direction: king c3 (22) to b4, d4, b2, d2; the man on
/// f6 (11) to e7 (7) or g7 (8).
#[test]
fn english_king_moves_one_square() {
    assert_moves(English, "W:W11,K22:B1", &["11-7", "11-8", "22-17", "22-18", "22-25", "22-26"]);
}

/// Russian kings fly: king c3 (22) goes along every diagonal until the edge or a piece; the
/// own man on f6 (11) stops it at e5 (15). The man moves to e7 (7) or g7 (8).
#[test]
fn russian_flying_king_moves() {
    assert_moves(
        Russian,
        "W:W11,K22:B1",
        &["11-7", "11-8", "22-13", "22-15", "22-17", "22-18", "22-25", "22-26", "22-29", "22-31"],
    );
}

/// An English king jumps only an adjacent piece: king a1 (29), enemy on c3 (22) two squares
/// away, so it just steps to b2 (25).
#[test]
fn english_king_captures_only_adjacent_pieces() {
    assert_moves(English, "W:WK29:B22", &["29-25"]);
}

/// A Russian king takes a distant piece and lands on any empty square beyond it, before the
/// next piece: king a1 (29) takes c3 (22) and lands on d4 (18), e5 (15) or f6 (11); its own
/// man on g7 (8) ends the run (and may not move: capture is compulsory).
#[test]
fn russian_king_lands_on_any_square_beyond() {
    assert_moves(Russian, "W:W8,K29:B22", &["29x11", "29x15", "29x18"]);
    // With nothing behind, every square to h8 (4).
    assert_moves(Russian, "W:WK29:B22", &["29x11", "29x15", "29x18", "29x4", "29x8"]);
}

/// King a1 (29) takes c3 (22); of the squares beyond (d4 18, e5 15, f6 11, g7 8, h8 4) only
/// from f6 can it go on (over g5, 16, to h4, 20), so it must land there.
#[test]
fn russian_king_must_land_where_capture_continues() {
    assert_moves(Russian, "W:WK29:B16,22", &["29x11x20"]);
}

/// King a1 (29) takes c3 (22) and may stop on d4 (18) or e5 (15), from both of which it goes
/// on over f6 (11) to g7 (8) or h8 (4). Two moves, each with two routes; the long form names
/// d4, the square just beyond the first piece (docs/rules.md, the FMJD PDN rule).
#[test]
fn russian_king_going_on_straight_is_written_just_beyond_the_first_piece() {
    assert_moves(Russian, "W:WK29:B11,22", &["29x18x4", "29x18x8"]);
    let p = position(Russian, "W:WK29:B11,22");
    // Either stop reads as the same move, and so does the short form of each.
    assert_eq!(p.parse_move("29x15x8").unwrap(), p.parse_move("29x18x8").unwrap());
    assert_eq!(p.parse_move("29x8").unwrap(), p.parse_move("29x18x8").unwrap());
    assert_eq!(p.parse_move("a1:g7").unwrap(), p.parse_move("29x18x8").unwrap());
}

/// Turkish strike. King h2 (28) takes g3 (24) and can go on from f4 (19) (over d2, 26, to
/// c1, 30) or from d6 (10) (over c5, 14, to b4, 17 (not a3, where nothing goes on), then over
/// d2 to e1, 31). At e1 the man on f2 (27) has the captured g3 right behind it: captured pieces
/// stay until the move ends, so they block, and f2 cannot be taken.
#[test]
fn russian_turkish_strike_blocks() {
    assert_moves(Russian, "W:WK28:B14,24,26,27", &["28x10x17x31", "28x19x30"]);
}

/// White man f6 (11) takes e7 (7), lands on d8 (2) and is crowned at once; as a flying king
/// it goes on over b6 (9), two squares away, to a5 (13), which no man could do.
#[test]
fn russian_promotion_mid_capture_continues_as_king() {
    assert_moves(Russian, "W:W11:B7,9", &["11x2x13"]);
    assert!(the_move(Russian, "W:W11:B7,9", "11x2x13").crowns());
    // In English the move ends on d8.
    assert_moves(English, "W:W11:B7,9", &["11x2"]);
    // With c7 (6) instead of b6, the new king lands on b6 (9) or a5 (13).
    assert_moves(Russian, "W:W11:B6,7", &["11x2x13", "11x2x9"]);
}

/// White man f6 (11) takes e7 (7) to d8 (2) and has nothing more to take: the move ends there
/// and the man is a king.
#[test]
fn russian_promoted_man_without_further_capture_ends_as_king() {
    assert_moves(Russian, "W:W11:B7", &["11x2"]);
    let mv = the_move(Russian, "W:W11:B7", "11x2");
    assert!(mv.crowns());
    let after = position(Russian, "W:W11:B7").play_unchecked(&mv);
    assert_eq!(after.to_fen(), "B:WK2:B");
}

// ------------------------------------------------------------------------------------------
// Moves as docs/rules.md counts them

/// English king g1 (32) takes f2 (27) to e3 (23), then goes round e5 either way (over f4, f6,
/// d6, d4 or the reverse) back to e3. Both routes take the same pieces and end on the same
/// square: one move. Back on e3 it may not jump f2 again (to its empty start square).
#[test]
fn same_move_by_two_routes_listed_once() {
    let fen = "B:W10,11,18,19,27:BK32";
    assert_hub_moves(English, fen, &["32x23x10x11x18x19x27"]);
    let text = &pdn_moves(English, fen)[0];
    assert!(["32x23x14x7x16x23", "32x23x16x7x14x23"].contains(&text.as_str()), "{text}");
    assert_eq!(position(English, fen).legal_moves().len(), 1);
}

/// The moving piece's start square counts as empty. English king c3 (22) goes round c5 over
/// d4, d6, b6, b4 (or the reverse) and lands back on c3.
#[test]
fn start_square_counts_as_empty() {
    let fen = "B:W9,10,17,18:BK22";
    assert_hub_moves(English, fen, &["22x22x9x10x17x18"]);
    let text = &pdn_moves(English, fen)[0];
    assert!(["22x13x6x15x22", "22x15x6x13x22"].contains(&text.as_str()), "{text}");
    // The Russian king flies: the last capture lands on c3 or anywhere beyond it, across its
    // start square (d2 26, e1 31 one way round; b2 25, a1 29 the other).
    assert_hub_moves(
        Russian,
        fen,
        &["22x22x9x10x17x18", "22x25x9x10x17x18", "22x26x9x10x17x18", "22x29x9x10x17x18", "22x31x9x10x17x18"],
    );
    let texts: BTreeSet<String> = pdn_moves(Russian, fen).into_iter().collect();
    for text in ["22x13x6x15x25", "22x13x6x15x29", "22x15x6x13x26", "22x15x6x13x31"] {
        assert!(texts.contains(text), "{text} in {texts:?}");
    }
    // Russian men capture both ways: Black man d8 (2) goes round d6 and lands back on d8.
    assert_hub_moves(Russian, "B:W6,7,14,15:B2", &["2x2x6x7x14x15"]);
}

/// A player with no legal move has an empty list: no pieces at all, or every piece blocked
/// (White man a1, 29, facing b2, 25, with c3, 22, occupied behind it).
#[test]
fn no_legal_move_means_no_moves() {
    for variant in Variant::ALL {
        for fen in ["W:W:B1", "W:W29:B22,25"] {
            assert_moves(variant, fen, &[]);
            let p = position(variant, fen);
            assert!(!p.has_legal_move(), "{variant} {fen}");
            assert_eq!(p.count_legal_moves(), 0);
            assert_eq!(checkers_rules::perft(&p, 3), 0);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Move text

/// Black man d8 (2) can reach d4 (18) by two routes taking different pieces (via b6, 9, or
/// f6, 11): the short form `2x18` is ambiguous and the error lists both.
#[test]
fn short_form_naming_two_moves_is_ambiguous() {
    let fen = "B:W6,7,14,15:B2";
    assert_moves(English, fen, &["2x11x18", "2x9x18"]);
    let p = position(English, fen);
    match p.parse_move("2x18") {
        Err(checkers_rules::MoveTextError::Ambiguous { candidates, .. }) => {
            let mut candidates = candidates;
            candidates.sort();
            assert_eq!(candidates, ["2x11x18", "2x9x18"]);
        }
        other => panic!("expected an ambiguity error, got {other:?}"),
    }
    assert_eq!(p.parse_move("2x9x18").unwrap().to_hub(), "2x18x6x14");
    assert_eq!(p.parse_move("2:11:18").unwrap().to_hub(), "2x18x7x15");
}

/// A single capture's long form names it, even where it is also the short form of a longer
/// capture with the same ends (Russian king d6, 10: `10x28` takes g3, 24, alone; the long
/// way round is 10x17x26x19x28).
#[test]
fn whole_route_is_not_mistaken_for_a_short_form() {
    let fen = "B:WK14,K22,K23,K24:BK10";
    let p = position(Russian, fen);
    assert_eq!(p.parse_move("10x28").unwrap().to_hub(), "10x28x24");
    assert_eq!(p.parse_move("10x17x26x19x28").unwrap().to_hub(), "10x28x14x22x23x24");
    assert_eq!(p.parse_move("d6:h2").unwrap().to_hub(), "10x28x24");
}

/// Russian moves read in algebraic form, with `-`, `x` or `:`.
#[test]
fn algebraic_move_text() {
    let start = Position::start(Russian);
    assert_eq!(start.parse_move("c3-d4").unwrap().to_hub(), "22-18");
    let p = position(Russian, "B:W14,23:B9");
    let mv = p.parse_move("b6:d4:f2").unwrap();
    assert_eq!(mv.to_hub(), "9x27x14x23");
    assert_eq!(p.parse_move("b6xf2").unwrap(), mv);
    assert_eq!(mv.to_pdn(&p, SquareNotation::Algebraic), "b6xd4xf2");
    assert_eq!(mv.to_pdn(&p, SquareNotation::Numeric), "9x18x27");
}

#[test]
fn positions_from_square_sets_validate_like_setups() {
    use checkers_rules::{PositionError, SquareSet};
    let set = |numbers: &[u32]| numbers.iter().fold(SquareSet::EMPTY, |s, &n| s.with(square(n)));
    let built =
        Position::from_sets(English, Color::White, [set(&[21, 22]), set(&[30]), set(&[1, 2]), set(&[5])]);
    assert_eq!(built, Ok(position(English, "W:W21,22,K30:B1,2,K5")));
    assert_eq!(
        Position::from_sets(Russian, Color::Black, [set(&[21]), set(&[]), set(&[]), set(&[21])]),
        Err(PositionError::SquareTwice(square(21)))
    );
    assert_eq!(
        Position::from_sets(English, Color::Black, [set(&[3]), set(&[]), set(&[9]), set(&[])]),
        Err(PositionError::ManOnCrowningRow { square: square(3), color: Color::White })
    );
    // A setup is checked by folding its lists into these sets: a square named twice in one
    // list is caught there.
    use checkers_rules::Setup;
    let setup = Setup {
        white_men: vec![square(22), square(22)],
        black_men: vec![square(9)],
        turn: Some(Color::White),
        ..Setup::default()
    };
    assert_eq!(Position::from_setup(English, &setup), Err(PositionError::SquareTwice(square(22))));
    // Raw bits of light squares name no square and are dropped.
    assert_eq!(SquareSet::from_bits(u64::MAX), SquareSet::ALL);
    assert_eq!(SquareSet::from_bits(set(&[7, 12]).bits()), set(&[7, 12]));
}
