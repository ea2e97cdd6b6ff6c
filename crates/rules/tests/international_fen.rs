//! FEN of International draughts (10x10): round trips, ranges and kings, and typed errors for
//! bad input (a square 51, 8x8 FEN with algebraic squares, positions that break the rules),
//! with proptest over arbitrary and near-miss text: no input panics, and whatever is accepted
//! is a valid position that writes and reads back as itself.

use checkers_rules::board::{
    parse_board_fen, Board, BoardFenError, BoardFenLoadError, BoardPositionError, BoardSetup, Dark10,
    International,
};
use checkers_rules::{Color, Position, Variant};
use proptest::prelude::*;

type Intl = Board<International>;

#[test]
fn start_position_round_trips() {
    let start = Intl::start();
    let full = format!(
        "W:W{}:B{}",
        (31..=50).map(|n| n.to_string()).collect::<Vec<_>>().join(","),
        (1..=20).map(|n| n.to_string()).collect::<Vec<_>>().join(",")
    );
    assert_eq!(start.to_fen(), full);
    assert_eq!(Intl::from_fen(&full), Ok(start));
    assert_eq!(Intl::from_fen("W:W31-50:B1-20"), Ok(start));
    assert_eq!(Intl::from_fen("W:B1-20:W31-50"), Ok(start), "either list order");
    assert_eq!(Intl::from_fen(" \"W:W31-50:B1-20.\" "), Ok(start), "quotes and a final dot");
}

#[test]
fn kings_ranges_and_empty_sides() {
    let b = Intl::from_fen("B:WK3,31-33,K47-48:B1,K46").unwrap();
    assert_eq!(b.to_fen(), "B:WK3,31,32,33,K47,K48:B1,K46");
    assert_eq!(b.turn(), Color::Black);
    assert_eq!(Intl::from_fen(&b.to_fen()), Ok(b));
    let lone = Intl::from_fen("W:W:BK25").unwrap();
    assert_eq!(lone.to_fen(), "W:W:BK25");
    assert!(!lone.has_legal_move(), "White has nothing to move");
}

#[test]
fn a_square_past_50_is_a_typed_error() {
    let bad = |text: &str| BoardFenError::BadSquare { text: text.into(), side: 10, squares: 50 };
    assert_eq!(Intl::from_fen("W:W51:B1"), Err(BoardFenLoadError::Syntax(bad("51"))));
    assert_eq!(
        Intl::from_fen("W:W51:B1").unwrap_err().to_string(),
        "malformed FEN: FEN square `51` is not a square of the 10x10 board (squares are numbers 1-50)"
    );
    assert_eq!(Intl::from_fen("W:W0:B1"), Err(BoardFenLoadError::Syntax(bad("0"))));
    assert_eq!(
        Intl::from_fen("W:W31-51:B1"),
        Err(BoardFenLoadError::Syntax(BoardFenError::BadRange { text: "31-51".into(), squares: 50 }))
    );
    assert_eq!(
        Intl::from_fen("W:W40-31:B1"),
        Err(BoardFenLoadError::Syntax(BoardFenError::BadRange { text: "40-31".into(), squares: 50 }))
    );
}

/// 8x8 FEN written with algebraic squares is refused, naming the square; numeric 8x8 FEN
/// names squares that exist on 10x10 too, so it reads as a 10x10 position (docs/rules.md,
/// "Positions on 10x10"). The other way, 10x10 FEN for an 8x8 variant is refused.
#[test]
fn fen_of_the_other_board_size() {
    let bad = |text: &str| BoardFenError::BadSquare { text: text.into(), side: 10, squares: 50 };
    assert_eq!(Intl::from_fen("W:Wa1,c3:Bh8"), Err(BoardFenLoadError::Syntax(bad("a1"))));
    let read = Intl::from_fen("W:W21-32:B1-12").unwrap();
    assert_ne!(read, Intl::start());
    assert!(Position::from_fen(Variant::Russian, "W:W31-50:B1-20").is_err());
    assert!(Position::from_fen(Variant::English, &Intl::start().to_fen()).is_err());
}

#[test]
fn syntax_errors() {
    use BoardFenError::*;
    let syntax = |text: &str| match Intl::from_fen(text) {
        Err(BoardFenLoadError::Syntax(e)) => e,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(syntax(""), Empty);
    assert_eq!(syntax("X:W31:B1"), BadTurn("X".into()));
    assert_eq!(syntax("W:X31:B1"), BadColor("X31".into()));
    assert_eq!(syntax("W:W31:W32"), ColorTwice("white"));
    assert_eq!(syntax("W:W31"), FieldCount(2));
    assert_eq!(syntax("W:W31:B1:H0:F1"), FieldCount(5));
    assert_eq!(syntax("W:W31,,32:B1"), BadSquare { text: "".into(), side: 10, squares: 50 });
}

#[test]
fn position_errors() {
    let invalid = |text: &str| match Intl::from_fen(text) {
        Err(BoardFenLoadError::Invalid(e)) => e,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(invalid("W:W3:B20"), BoardPositionError::ManOnCrowningRow { square: 3, color: Color::White });
    assert_eq!(
        invalid("W:W31:B48"),
        BoardPositionError::ManOnCrowningRow { square: 48, color: Color::Black }
    );
    assert_eq!(invalid("W:W31:B31"), BoardPositionError::SquareTwice(31));
    assert_eq!(
        invalid("W:W21-45:B1"),
        BoardPositionError::TooManyPieces { color: Color::White, count: 25, most: 20 }
    );
    assert_eq!(
        Intl::from_fen("W:WK1-5:B46-50").map(|b| b.to_fen()),
        Err(BoardFenLoadError::Invalid(BoardPositionError::ManOnCrowningRow {
            square: 46,
            color: Color::Black
        }))
    );
    // Kings may stand anywhere.
    assert!(Intl::from_fen("W:WK1-5:BK46-50").is_ok());
    let setup = BoardSetup { white_men: vec![51], turn: Some(Color::White), ..BoardSetup::default() };
    assert_eq!(Intl::from_setup(&setup), Err(BoardPositionError::NoSuchSquare { square: 51, squares: 50 }));
    let setup = BoardSetup { white_men: vec![31], ..BoardSetup::default() };
    assert_eq!(Intl::from_setup(&setup), Err(BoardPositionError::NoSideToMove));
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Near-miss FEN: the right shape with numbers that may be off the board, ranges, kings,
/// stray characters.
fn near_miss_fen() -> impl Strategy<Value = String> {
    let item = prop_oneof![
        (0u32..60).prop_map(|n| n.to_string()),
        (0u32..60).prop_map(|n| format!("K{n}")),
        (0u32..60, 0u32..60).prop_map(|(a, b)| format!("{a}-{b}")),
        (0u32..60, 0u32..60).prop_map(|(a, b)| format!("K{a}-{b}")),
        "[a-jxK:, -]{0,3}",
    ];
    let list = prop::collection::vec(item, 0..8).prop_map(|items| items.join(","));
    ("[WBwbX]", list.clone(), list, any::<bool>()).prop_map(|(turn, white, black, swap)| {
        if swap {
            format!("{turn}:B{black}:W{white}")
        } else {
            format!("{turn}:W{white}:B{black}")
        }
    })
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        let _ = parse_board_fen::<Dark10>(&text);
        if let Ok(board) = Intl::from_fen(&text) {
            prop_assert_eq!(Intl::from_fen(&board.to_fen()), Ok(board));
        }
    }

    #[test]
    fn near_miss_fen_is_read_or_refused_cleanly(text in near_miss_fen()) {
        match Intl::from_fen(&text) {
            Ok(board) => {
                prop_assert_eq!(Intl::from_fen(&board.to_fen()), Ok(board));
                let count = board.piece_count(Color::White) + board.piece_count(Color::Black);
                let named = board.to_setup();
                let listed = named.white_men.len() + named.white_kings.len();
                let listed = listed + named.black_men.len() + named.black_kings.len();
                prop_assert_eq!(count as usize, listed);
                prop_assert!(board.piece_count(Color::White) <= 20 && board.piece_count(Color::Black) <= 20);
                // A board that reads has legal moves the generator lists without panicking.
                let _ = board.legal_moves();
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
