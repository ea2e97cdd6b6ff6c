//! Turkish draughts' special rules on hand-built positions, each with its exact move list
//! (docs/rules.md, "Turkish draughts"): orthogonal moves and strikes, pieces taken off at
//! once (so a king crosses a square again), no turning back, the majority capture with kings
//! counting as men, crowning during a capture, the draw rules, FEN and move text.

use checkers_rules::board::{
    Board, BoardDrawReason, BoardFenError, BoardFenLoadError, BoardGame, BoardMoveTextError, BoardOutcome,
    Turkish,
};
use checkers_rules::{Color, Role, WinReason};

type Tk = Board<Turkish>;

fn board(fen: &str) -> Tk {
    Tk::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves in long form, sorted.
fn moves(fen: &str) -> Vec<String> {
    let b = board(fen);
    let mut list: Vec<String> = b.legal_moves().iter().map(|m| m.to_pdn(&b)).collect();
    list.sort();
    list
}

#[test]
fn the_start_has_sixteen_men_a_side_on_the_second_and_third_ranks() {
    let start = Tk::start();
    assert_eq!(
        start.to_fen(),
        "W:Wa3,b3,c3,d3,e3,f3,g3,h3,a2,b2,c2,d2,e2,f2,g2,h2:Ba7,b7,c7,d7,e7,f7,g7,h7,a6,b6,c6,d6,e6,f6,g6,h6"
    );
    assert_eq!(start, board("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7"));
    assert_eq!(
        moves(&start.to_fen()),
        ["a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"]
    );
    assert_eq!(Tk::MAX_PIECES, 16);
}

#[test]
fn men_move_forward_and_sideways_never_back_or_diagonally() {
    assert_eq!(moves("W:Wd4:Bh8"), ["d4-c4", "d4-d5", "d4-e4"]);
    assert_eq!(moves("B:Wa1:Bd4"), ["d4-c4", "d4-d3", "d4-e4"]);
    assert_eq!(moves("W:Wa4:Bh8"), ["a4-a5", "a4-b4"], "the edge");
}

#[test]
fn a_man_reaching_the_last_rank_is_crowned() {
    let b = board("W:Wc7:Bh3");
    let list = b.legal_moves();
    let crowning: Vec<bool> = list.iter().map(|m| m.crowns()).collect();
    assert_eq!(moves("W:Wc7:Bh3"), ["c7-b7", "c7-c8", "c7-d7"]);
    assert_eq!(crowning.iter().filter(|c| **c).count(), 1);
    let mv = b.parse_move("c7-c8").unwrap();
    assert_eq!(b.play_unchecked(&mv).piece_at(3).map(|p| p.role), Some(Role::King), "c8 is square 3");
}

#[test]
fn kings_fly_along_ranks_and_files() {
    assert_eq!(moves("W:WKd4:Bh8").len(), 14);
    // Stopped by a piece of its own on d6, as far as the edge elsewhere.
    let mut expected = vec![
        "d4-d5", "d4-d3", "d4-d2", "d4-d1", "d4-c4", "d4-b4", "d4-a4", "d4-e4", "d4-f4", "d4-g4", "d4-h4",
        "d6-d7", "d6-c6", "d6-e6",
    ];
    expected.sort();
    assert_eq!(moves("W:WKd4,d6:Bh8"), expected);
}

#[test]
fn a_man_strikes_forward_and_sideways_but_not_back() {
    // Black men on every side of d4: forward, left, right and behind.
    assert_eq!(moves("W:Wd4:Bd5,c4,e4,d3"), ["d4xb4", "d4xd6", "d4xf4"]);
    assert_eq!(moves("B:Wd4,c5,e5,d6:Bd5"), ["d5xb5", "d5xd3", "d5xf5"]);
}

#[test]
fn a_king_strikes_from_afar_and_lands_anywhere_beyond() {
    assert_eq!(moves("W:WKa4:Bd4,h4"), ["a4xe4", "a4xf4", "a4xg4"]);
}

#[test]
fn captured_pieces_come_off_at_once_so_a_king_crosses_their_squares_again() {
    // e1 takes e3 going up, c5 going left, a4 going down, then g3 going right along the third
    // rank, across e3, whose piece is already gone. Were it still there, the capture would
    // stop after three pieces.
    let fen = "W:WKe1:Be3,c5,a4,g3";
    assert_eq!(moves(fen), ["e1xe5xa5xa3xh3"]);
    let b = board(fen);
    let mv = b.legal_moves()[0];
    assert_eq!(mv.captured_count(), 4);
    assert_eq!(mv.to_hub(), "e1xh3xc5xa4xe3xg3");
    assert_eq!(b.parse_move("e1xh3"), Ok(mv));
    // A loop back through the start square and over the square of the first piece taken,
    // going on the same way: the long form names the square just beyond the piece it takes.
    let fen = "W:WKa1:BKc1,Ke1,Kg1,d3,b4,a2";
    assert_eq!(moves(fen), ["a1xd1xd4xa4xa1xf1xh1"]);
}

#[test]
fn a_king_does_not_turn_back_between_two_jumps() {
    // Down over d2 and back up over d5 (or the other way) would take both; it is not allowed.
    assert_eq!(moves("W:WKd3:Bd2,d5"), ["d3xd1", "d3xd6", "d3xd7", "d3xd8"]);
    assert!(board("W:WKd3:Bd2,d5").legal_moves().iter().all(|m| m.captured_count() == 1));
}

#[test]
fn the_capture_of_the_most_pieces_is_compulsory_kings_counting_as_men() {
    // g2 takes three men; d4 could take two kings (and be crowned on d8). Three it is.
    assert_eq!(moves("W:Wd4,g2:BKd5,Kd7,g3,g5,f6"), ["g2xg4xg6xe6"]);
    // Two men against one king: the two men.
    assert_eq!(moves("W:Wd4,a2:BKd5,a3,a5"), ["a2xa4xa6"]);
    // Equal counts: a free choice.
    assert_eq!(moves("W:Wd4,a2:BKd5,a3"), ["a2xa4", "d4xd6"]);
}

#[test]
fn a_capture_is_compulsory_over_any_quiet_move() {
    assert_eq!(moves("W:Wd4,h2:Bd5"), ["d4xd6"]);
    let b = board("W:Wd4,h2:Bd5");
    assert!(b.parse_move("h2-h3").is_err());
}

#[test]
fn a_man_crowned_during_a_capture_goes_on_as_a_man_and_is_crowned_where_it_stops() {
    // c6 takes c7 and reaches c8, then d8 along the last rank. As a king it could go on down
    // the e file over e4; as a man it stops on e8, crowned there.
    let fen = "W:Wc6:Bc7,d8,e4";
    assert_eq!(moves(fen), ["c6xc8xe8"]);
    let b = board(fen);
    let mv = b.legal_moves()[0];
    assert!(mv.crowns());
    let after = b.play_unchecked(&mv);
    assert_eq!(after.to_fen(), "B:WKe8:Be4");
    // A man that reaches the last rank and stops there is crowned too.
    assert_eq!(moves("W:Wc6:Bc7"), ["c6xc8"]);
    assert!(board("W:Wc6:Bc7").legal_moves()[0].crowns());
}

#[test]
fn one_piece_against_one_is_a_draw_unless_the_side_to_move_can_capture() {
    let draw = Some(BoardOutcome::Draw { reason: BoardDrawReason::OnePieceEach });
    assert_eq!(BoardGame::from_position(board("W:Wa2:Bh7")).outcome(), draw);
    assert_eq!(BoardGame::from_position(board("B:WKd4:Bh7")).outcome(), draw, "a king against a man too");
    // White can take: the game goes on, and the capture wins it.
    let mut game = BoardGame::from_position(board("W:Wd4:Bd5"));
    assert_eq!(game.outcome(), None);
    game.play_text("d4xd6").unwrap();
    assert_eq!(
        game.outcome(),
        Some(BoardOutcome::Win { winner: Color::White, reason: WinReason::NoLegalMove })
    );
    // A capture that leaves one piece each ends the game at once.
    let mut game = BoardGame::from_position(board("W:Wd4:Bd5,h7"));
    game.play_text("d4xd6").unwrap();
    assert_eq!(game.outcome(), draw);
}

#[test]
fn the_same_position_three_times_is_a_draw_even_between_man_moves() {
    // Men move sideways, so men alone can repeat a position.
    let mut game = BoardGame::from_position(board("W:Wa3,h2:Bh6,a7"));
    for _ in 0..2 {
        for text in ["a3-b3", "h6-g6", "b3-a3"] {
            game.play_text(text).unwrap();
            assert_eq!(game.outcome(), None, "after {text}");
        }
        game.play_text("g6-h6").unwrap();
    }
    assert_eq!(game.outcome(), Some(BoardOutcome::Draw { reason: BoardDrawReason::ThreefoldRepetition }));
}

#[test]
fn the_side_without_a_move_loses() {
    // White's only man, on a7, is walled in: a8 and b7 are taken and c7 behind b7 too.
    let game = BoardGame::from_position(board("W:Wa7:Ba8,b7,c7"));
    assert_eq!(
        game.outcome(),
        Some(BoardOutcome::Win { winner: Color::Black, reason: WinReason::NoLegalMove })
    );
}

#[test]
fn fen_reads_and_writes_algebraic_squares() {
    let b = board("B:WKa1,d4:Bh7,Kc8");
    assert_eq!(b.to_fen(), "B:Wd4,Ka1:BKc8,h7");
    assert_eq!(board(&b.to_fen()), b);
    assert_eq!(
        b.piece_at(57).map(|p| (p.color, p.role)),
        Some((Color::White, Role::King)),
        "a1 is square 57"
    );
    let bad = |text: &str| {
        Err(BoardFenLoadError::Syntax(BoardFenError::BadSquareName {
            text: text.into(),
            names: "a1 to h8".into(),
        }))
    };
    assert_eq!(Tk::from_fen("W:Wa9:Bh7"), bad("a9"));
    assert_eq!(Tk::from_fen("W:W31:Bh7"), bad("31"), "numbers are not Turkish squares");
    assert_eq!(Tk::from_fen("W:W31-50:B1-20"), bad("31-50"), "an International FEN");
    assert!(Tk::from_fen("W:Wa8:Bh7").is_err(), "a White man on its crowning rank");
    assert!(Tk::from_fen("W:Wa2-h2,a3-h3,a4:Ba7").is_err(), "seventeen pieces");
}

#[test]
fn move_text_uses_algebraic_squares() {
    let start = Tk::start();
    let mv = start.parse_move("d3-d4").unwrap();
    assert_eq!(
        (mv.to_pdn(&start), mv.to_short(), mv.to_hub()),
        ("d3-d4".into(), "d3-d4".into(), "d3-d4".into())
    );
    assert_eq!(mv.from(), 44, "d3 is square 44");
    assert_eq!(
        start.parse_move("d3-z4"),
        Err(BoardMoveTextError::BadSquareName { text: "z4".into(), names: "a1 to h8".into() })
    );
    assert_eq!(
        start.parse_move("44-36"),
        Err(BoardMoveTextError::BadSquareName { text: "44".into(), names: "a1 to h8".into() })
    );
    assert!(start.parse_move("d3-e4").is_err(), "no diagonal moves");
}
