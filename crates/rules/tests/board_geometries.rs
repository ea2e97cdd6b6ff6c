//! The board-generic core on its other boards: the International family's generator, unchanged,
//! on the 8x8 and 12x12 geometries, through rule sets defined here in the test from nothing but
//! a geometry and a number of rows (the library's `Brazilian` and `Canadian` are the same, and
//! have their own perft tests in `family_perft.rs`).
//!
//! On 8x8 with three rows of men, International rules are Brazilian draughts, whose published
//! perft from the start (docs/rules.md, "Planned variants") the generator must give; that
//! checks that nothing in it assumes the 10x10 board. On 12x12 (a `u128` board) the first two
//! plies are worked out by hand, and the sizes of positions are those docs/rules.md promises.

use std::mem::size_of;

use checkers_rules::board::{
    board_perft, Board, BoardMove, BoardMoves, Dark12, Dark8, FmjdReferee, International, MajorityCapture,
    MoveRules, RuleSet,
};
use checkers_rules::{Color, Piece, Role};

/// International rules on 8x8, three rows of men a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct EightByEight;

impl RuleSet for EightByEight {
    type Geometry = Dark8;
    type Moves = MajorityCapture;
    type Referee = FmjdReferee;
    const NAME: &'static str = "international rules on 8x8";
    const START_ROWS: u32 = 3;
}

/// International rules on 12x12, five rows of men a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct TwelveByTwelve;

impl RuleSet for TwelveByTwelve {
    type Geometry = Dark12;
    type Moves = MajorityCapture;
    type Referee = FmjdReferee;
    const NAME: &'static str = "international rules on 12x12";
    const START_ROWS: u32 = 5;
}

/// Brazilian draughts, depths 1-8 (the published figures go to 11; depth 8 is 907,830 leaves).
#[test]
fn brazilian_perft_on_the_8x8_geometry() {
    let start = Board::<EightByEight>::start();
    assert_eq!(start.to_fen(), Board::<EightByEight>::from_fen("W:W21-32:B1-12").unwrap().to_fen());
    let published = [7, 49, 302, 1469, 7473, 37628, 187302, 907830];
    for (depth, expected) in (1..).zip(published) {
        assert_eq!(board_perft(&start, depth), expected, "depth {depth}");
    }
}

/// On 12x12 White's front row (43-48, its row starting on the a file) has six men: the one on
/// the left edge with one step forward and five with two, 11 moves; Black's replies can't touch
/// them, so depth 2 is 11 x 11.
#[test]
fn twelve_by_twelve_start() {
    let start = Board::<TwelveByTwelve>::start();
    assert_eq!(start.piece_count(Color::White), 30);
    assert_eq!(start.piece_at(72), Some(Piece { color: Color::White, role: Role::Man }));
    assert_eq!(start.piece_at(30), Some(Piece { color: Color::Black, role: Role::Man }));
    assert_eq!(start.piece_at(31), None);
    assert_eq!(board_perft(&start, 1), 11);
    assert_eq!(board_perft(&start, 2), 121);
    let mut texts: Vec<String> = start.legal_moves().iter().map(|m| m.to_pdn(&start)).collect();
    texts.sort();
    assert_eq!(
        texts,
        ["43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40", "47-41", "48-41", "48-42"]
    );
    assert_eq!(Board::<TwelveByTwelve>::from_fen(&start.to_fen()), Ok(start));
    assert!(Board::<TwelveByTwelve>::from_fen("W:W73:B1").is_err());
}

/// Positions are three words: 24 bytes on 8x8 and 10x10, 48 on 12x12.
#[test]
fn positions_are_three_words() {
    assert_eq!(size_of::<Board<EightByEight>>(), 24);
    assert_eq!(size_of::<Board<TwelveByTwelve>>(), 48);
}

/// Move rules that write only what a variant must (the moves and their routes, borrowed from
/// the family's generator) and take every other method from the trait's defaults.
struct OnlyTheList;

impl<V: RuleSet> MoveRules<V> for OnlyTheList {
    fn generate(board: &Board<V>, list: &mut BoardMoves<V>) {
        MajorityCapture::generate(board, list);
    }
    fn capture_routes(board: &Board<V>) -> Vec<(BoardMove<V>, Vec<u32>)> {
        MajorityCapture::capture_routes(board)
    }
}

/// International draughts through the defaults: list-based perft, capture test, counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct InternationalByDefaults;

impl RuleSet for InternationalByDefaults {
    type Geometry = <International as RuleSet>::Geometry;
    type Moves = OnlyTheList;
    type Referee = FmjdReferee;
    const NAME: &'static str = "international through the defaults";
    const START_ROWS: u32 = 4;
}

/// The trait's default methods agree with the family's tuned ones: perft from the start
/// (published: 9, 81, 658, 4265, 27117) and, along a game, the capture test and move counts.
#[test]
fn move_rules_defaults_agree_with_the_tuned_generator() {
    let start = Board::<InternationalByDefaults>::start();
    let figures: Vec<u64> = (1..=5).map(|d| board_perft(&start, d)).collect();
    assert_eq!(figures, [9, 81, 658, 4265, 27117]);
    let (mut slow, mut fast) = (start, Board::<International>::start());
    for ply in 0..80 {
        assert_eq!(slow.has_capture(), fast.has_capture(), "ply {ply}");
        assert_eq!(slow.count_legal_moves(), fast.count_legal_moves(), "ply {ply}");
        assert_eq!(slow.has_legal_move(), fast.has_legal_move(), "ply {ply}");
        let moves = fast.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pick = (ply * 7 + 3) % moves.len();
        fast = fast.play_unchecked(&moves[pick]);
        slow = slow.play_unchecked(&slow.legal_moves()[pick]);
        assert_eq!(slow.to_fen(), fast.to_fen(), "ply {ply}");
    }
}
