//! PDN of the boards of any size: real games replayed to the positions pydraughts reaches,
//! seeded random games of every variant written and read back to the same game, exact text,
//! lidraughts' export form, every bad input a typed error with its message, and no panic on
//! any input.
//!
//! The final positions of the real games were computed outside this crate: each game was
//! replayed move by move by pydraughts (its `standard` and `italian` variants, which number
//! the squares as we do).

mod board_support;

use board_support::{random_board, Rng};
use checkers_rules::board::{
    Board, BoardGame, BoardVariant, Brazilian, Frysk, Geometry, International, Italian, Pool, RuleSet,
    Turkish,
};
use checkers_rules::{
    read_any_pdn, read_any_pdn_each, read_board_pdn, read_board_pdn_each, read_pdn, write_any_pdn,
    write_board_pdn, AnyPdnGame, BoardPdnGame, Color, PdnErrorKind, PdnResult, SquareNotation,
};
use proptest::prelude::*;

const WK2003: &str = include_str!("data/pdn/international-wk2003.pdn");
const ASSOLUTO2005: &str = include_str!("data/pdn/italian-assoluto2005.pdn");

fn board<V: RuleSet>(fen: &str) -> Board<V> {
    Board::from_fen(fen).unwrap()
}

#[test]
fn international_world_championship_games_replay_to_pydraughts_positions() {
    let games = read_board_pdn::<International>(WK2003).unwrap();
    assert_eq!(games.len(), 2);
    let draw = &games[0];
    assert_eq!(draw.tag("White"), Some("Ndjofang, J.M."));
    assert_eq!(draw.tag("Round"), Some("1"));
    assert_eq!(draw.moves().len(), 80);
    assert_eq!(draw.end_position(), board("W:W24,25,29,37,38,42,47,49:B4,8,13,14,15,21,26,31"));
    assert_eq!(draw.result(), PdnResult::Draw);
    let win = &games[1];
    assert_eq!(win.moves().len(), 101);
    assert_eq!(win.end_position(), board("B:W14,37,42,K36:B16,26,K44"));
    assert_eq!(win.result(), PdnResult::Win(Color::White));
    // Written canonically (International results, short moves) and read back: the same games.
    let text = write_board_pdn(&games);
    assert!(
        text.contains("[White \"Ndjofang, J.M.\"]\n[Result \"1-1\"]\n[GameType \"20\"]\n\n1. 32-28 "),
        "{text}"
    );
    assert!(text.ends_with("49. 4x36 20x49 50. 25-20 49-44 51. 20-14 2-0\n"), "{text}");
    assert_eq!(read_board_pdn::<International>(&text).unwrap(), games);
    // The same file read without knowing the variant.
    let any = read_any_pdn(WK2003).unwrap();
    let AnyPdnGame::Board(first) = &any[0] else { panic!("a board game") };
    assert_eq!(first.variant(), BoardVariant::International);
    assert_eq!(first.get::<International>(), Some(&games[0]));
    assert_eq!(first.get::<Brazilian>(), None);
}

#[test]
fn italian_championship_game_replays_to_pydraughts_position() {
    // Italian tag names and no GameType: read as Italian because that is what was asked for.
    let games = read_board_pdn::<Italian>(ASSOLUTO2005).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("Bianco"), Some("BORGHETTI Michele"));
    assert_eq!(game.moves().len(), 75);
    assert_eq!(game.end_position(), board("B:W9,16,18,24,K11,K13:B2,15,K12,K20"));
    assert_eq!(game.comment(74), Some("Bianco Vince"));
    assert_eq!(game.result(), PdnResult::Win(Color::White), "1-0: White (Bianco) moves first and won");
    let text = game.to_pdn();
    assert!(
        text.starts_with("[Result \"1-0\"]\n[GameType \"22\"]\n[Dati \"69° ASSOLUTO 1° TURNO\"]\n"),
        "{text}"
    );
    assert_eq!(read_board_pdn::<Italian>(&text).unwrap(), games);
    // Without GameType the reader of any variant takes it for English, where 21-17 is no move.
    let error = read_any_pdn(ASSOLUTO2005).unwrap_err();
    assert_eq!(
        error.to_string(),
        "PDN game 1, line 12: move 1. `21-17` is illegal: the piece on 21 is not yours; Black is to move"
    );
}

/// Plays random legal moves from `start` until the game ends or `plies` are played.
fn random_game<V: RuleSet>(rng: &mut Rng, start: Board<V>, plies: usize) -> BoardGame<V> {
    let mut game = BoardGame::from_position(start);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.index(moves.len())]).unwrap();
    }
    game
}

/// Games of `V` from the start and from random positions, written and read back in every
/// notation its board allows.
fn round_trips<V: RuleSet>(seed: u64) -> usize {
    let mut rng = Rng(seed);
    let most = if V::NAME == "frysk" { 5 } else { 7 };
    let mut plies = 0;
    for i in 0..20 {
        let start = if i % 3 == 0 { Board::start() } else { random_board::<V>(&mut rng, most) };
        let game = random_game(&mut rng, start, 120);
        plies += game.moves().len();
        let mut pdn = BoardPdnGame::from_game(&game);
        pdn.set_tag("Event", &format!("{} round trip {i}", V::NAME)).unwrap();
        pdn.set_tag("White", "Wit \"W\"").unwrap();
        pdn.set_opening_comment("from here");
        if !pdn.moves().is_empty() {
            pdn.set_comment(0, "the first move");
        }
        if i == 4 {
            pdn.set_result(PdnResult::DoubleForfeit);
        }
        assert_eq!(pdn.start(), start);
        assert_eq!(pdn.moves(), game.moves());
        let text = pdn.to_pdn();
        let read = read_board_pdn::<V>(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read, vec![pdn.clone()], "{text}");
        assert_eq!(read[0].to_pdn(), text, "writing what was read gives the same text");
        if i != 4 {
            assert_eq!(read[0].to_game().unwrap().outcome(), game.outcome(), "{text}");
        }
        let AnyPdnGame::Board(any) = read_any_pdn(&text).unwrap().remove(0) else { panic!("{text}") };
        assert_eq!(any.get::<V>(), Some(&pdn));
        for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
            let other = pdn.to_pdn_with(notation);
            assert_eq!(read_board_pdn::<V>(&other).unwrap(), vec![pdn.clone()], "{other}");
        }
    }
    plies
}

#[test]
fn random_games_of_every_variant_round_trip() {
    for (i, variant) in BoardVariant::ALL.into_iter().enumerate() {
        let plies = checkers_rules::with_board_variant!(variant, V => round_trips::<V>(0x9d_2024 + i as u64));
        assert!(plies > 150, "{variant}: only {plies} plies played");
    }
}

#[test]
fn canonical_text_of_each_notation_and_result_set() {
    let mut international = BoardPdnGame::<International>::new();
    for text in ["32-28", "17-22", "28x17", "11x22"] {
        let mv = international.end_position().parse_move(text).unwrap();
        international.push(mv).unwrap();
    }
    international.set_tag("Black", "B").unwrap();
    international.set_result(PdnResult::Win(Color::Black));
    assert_eq!(
        international.to_pdn(),
        "[Black \"B\"]\n[Result \"0-2\"]\n[GameType \"20\"]\n\n1. 32-28 17-22 2. 28x17 11x22 0-2\n"
    );

    // Brazilian is written with names (PDN 3.0: GameType 26 is algebraic), and read either way.
    let mut brazilian = BoardPdnGame::<Brazilian>::new();
    brazilian.push(Board::<Brazilian>::start().parse_move("22-18").unwrap()).unwrap();
    brazilian.set_result(PdnResult::Draw);
    let text = "[Result \"1/2-1/2\"]\n[GameType \"26\"]\n\n1. c3-d4 1/2-1/2\n";
    assert_eq!(brazilian.to_pdn(), text);
    assert_eq!(brazilian.to_pdn_with(SquareNotation::Numeric), text.replace("c3-d4", "22-18"));
    assert_eq!(read_board_pdn::<Brazilian>(&text.replace("c3-d4", "22-18")).unwrap(), vec![brazilian]);

    // Pool: Black moves first, so 1-0 is Black's win; a start with White to move is `1...`.
    let mut pool = BoardPdnGame::from_position(board::<Pool>("W:W21,22:B5,6"));
    pool.push(pool.start().parse_move("22-17").unwrap()).unwrap();
    pool.set_result(PdnResult::Win(Color::Black));
    assert_eq!(
        pool.to_pdn(),
        "[Result \"1-0\"]\n[GameType \"23\"]\n[SetUp \"1\"]\n[FEN \"W:W21,22:B5,6\"]\n\n1... 22-17 1-0\n"
    );

    // Turkish: names only; a capture of two pieces in its short form.
    let mut turkish = BoardPdnGame::from_position(board::<Turkish>("W:Wd3:Bd4,d6,h8"));
    turkish.push(turkish.start().parse_move("d3xd5xd7").unwrap()).unwrap();
    assert_eq!(
        turkish.to_pdn(),
        "[Result \"*\"]\n[GameType \"30\"]\n[SetUp \"1\"]\n[FEN \"W:Wd3:Bh8,d6,d4\"]\n\n1. d3xd7 *\n"
    );
}

#[test]
fn lidraughts_export_form_reads() {
    // The form lidraughts' PDN export writes (its tags, GameType 97 for Frysk!, the FEN with
    // its H and F fields, International results); the moves are a short legal line.
    let text = "[Event \"Casual Frysk! game\"]\n[Site \"https://lidraughts.org/abcdefgh\"]\n\
                [Date \"2024.01.01\"]\n[Round \"-\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-2\"]\n\
                [GameType \"97\"]\n[TimeControl \"-\"]\n[Termination \"Normal\"]\n\
                [FEN \"W:W46,47,48,49,50:B1,2,3,4,5:H0:F1\"]\n\n1. 46-41 5-10 2. 41-37 10-14 0-2\n";
    let games = read_board_pdn::<Frysk>(text).unwrap();
    assert_eq!(games[0].moves().len(), 4);
    assert_eq!(games[0].start(), Board::<Frysk>::start());
    assert_eq!(games[0].result(), PdnResult::Win(Color::Black));
    assert_eq!(games[0].tag("Termination"), Some("Normal"));
    let written = games[0].to_pdn();
    assert!(written.contains("[Result \"0-2\"]\n[GameType \"97\"]\n[TimeControl"), "{written}");
    assert!(!written.contains("FEN"), "the start is Frysk!'s own: {written}");
}

#[test]
fn any_variant_in_one_file() {
    let text =
        "[GameType \"21\"]\n1. 11-15 *\n\n[GameType \"25\"]\n1. c3-d4 *\n\n[GameType \"30\"]\n1. a3-a4 *\n\n\
                [GameType \"27\"]\n1. 43-37 *\n\n1. 9-14 1-0\n";
    let games = read_any_pdn(text).unwrap();
    let names: Vec<&str> = games.iter().map(AnyPdnGame::variant_name).collect();
    assert_eq!(names, ["english", "russian", "turkish", "canadian", "english"]);
    let types: Vec<u32> = games.iter().map(AnyPdnGame::game_type).collect();
    assert_eq!(types, [21, 25, 30, 27, 21]);
    assert_eq!(games[4].result(), PdnResult::Win(Color::Black));
    assert!(games.iter().all(|g| g.move_count() == 1));
    assert_eq!(read_any_pdn(&write_any_pdn(&games)).unwrap(), games);
    // The 8x8 reader keeps to English and Russian, as before.
    assert_eq!(
        read_pdn(text).unwrap_err().to_string(),
        "PDN game 3, line 7: GameType 30 is not a variant we play (21 English, 25 Russian)"
    );
}

fn any_error(text: &str) -> (PdnErrorKind, String) {
    let error = read_any_pdn(text).unwrap_err();
    (*error.kind.clone(), error.to_string())
}

#[test]
fn bad_input_is_a_typed_error_with_its_message() {
    let known = "20 international, 21 english, 22 italian, 23 pool, 24 spanish, 25 russian, 26 brazilian, \
                 27 canadian, 28 portuguese, 29 czech, 30 turkish, 31 thai, 40 frisian, 96 breakthrough, \
                 97 frysk, 98 antidraughts";
    let cases: [(&str, String); 8] = [
        (
            "[GameType \"29\"]\n1. c4-d5 *",
            "PDN game 1, line 2: move 1. `c4-d5` is not a move: `c4` is not a square of this board (squares are \
             numbers 1-32 or names such as c3)"
                .to_string(),
        ),
        (
            "[GameType \"26\"]\n[FEN \"W:W31-50:B1-20\"]\n1. 32-28 *",
            "PDN game 1, line 2: bad FEN `W:W31-50:B1-20`: malformed FEN: FEN range `31-50` is not a range of \
             squares 1-32"
                .to_string(),
        ),
        (
            "[GameType \"20\"]\n1. 51-46 *",
            "PDN game 1, line 2: move 1. `51-46` is not a move: `51` is not a square of this board (squares are \
             numbers 1-50)"
                .to_string(),
        ),
        ("[GameType \"99\"]\n1. 32-28 *", format!("PDN game 1, line 1: GameType 99 is not a variant we play (known: {known})")),
        (
            "[GameType \"20\"]\n1. 32-26 *",
            "PDN game 1, line 2: move 1. `32-26` is illegal: 32 can go to 27 or 28".to_string(),
        ),
        (
            "[GameType \"29\"]\n1. c3-e5 *",
            "PDN game 1, line 2: move 1. `c3-e5` is illegal: 22 can go to 17 or 18".to_string(),
        ),
        (
            "[GameType \"30\"]\n1. 41-33 *",
            "PDN game 1, line 2: move 1. `41-33` is not a move: `41` is not a square of this board (squares \
             are a1 to h8)"
                .to_string(),
        ),
        (
            "[GameType \"27\"]\n[FEN \"W:W31-50:B1-20:X\"]\n*",
            "PDN game 1, line 2: bad FEN `W:W31-50:B1-20:X`: malformed FEN: FEN has 4 fields separated by `:`; \
             expected 3 (turn, one side, the other)"
                .to_string(),
        ),
    ];
    for (text, message) in cases {
        let (kind, shown) = any_error(text);
        assert_eq!(shown, message, "{text}");
        match kind {
            PdnErrorKind::BadBoardFen { .. }
            | PdnErrorKind::NotAMove { .. }
            | PdnErrorKind::UnknownGameType(99)
            | PdnErrorKind::IllegalMove { .. } => {}
            other => panic!("{text}: {other:?}"),
        }
    }
    // Another variant's GameType for a reader of one variant.
    let error = read_board_pdn::<Italian>("[GameType \"20\"]\n1. 32-28 *").unwrap_err();
    assert_eq!(
        *error.kind,
        PdnErrorKind::WrongGameType { found: 20, found_variant: "international", expected: "italian" }
    );
    assert_eq!(error.to_string(), "PDN game 1, line 1: GameType 20 is international, not italian");
    let error = read_board_pdn::<Italian>("[GameType \"25\"]\n*").unwrap_err();
    assert_eq!(error.to_string(), "PDN game 1, line 1: GameType 25 is russian, not italian");
    // Reading goes on after a bad game when asked.
    let each = read_board_pdn_each::<International>("[GameType \"20\"]\n1. 51-46 *\n\n1. 32-28 *\n");
    assert!(each[0].is_err() && each[1].as_ref().is_ok_and(|g| g.moves().len() == 1));
}

/// A valid board game's text with one character changed, dropped or doubled.
fn arb_mutated_board_pdn() -> impl Strategy<Value = String> {
    let base = "[Event \"e\"]\n[GameType \"20\"]\n[FEN \"B:W31,K50:B19,24\"]\n\n1... 24-30 {c} 50x13 2-0\n\n\
                [GameType \"26\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n\n[GameType \"30\"]\n1. a3-a4 a6-a5 *\n";
    (0..base.len(), any::<char>(), 0..3u8).prop_map(move |(at, c, op)| {
        let mut chars: Vec<char> = base.chars().collect();
        let at = at.min(chars.len() - 1);
        match op {
            0 => chars[at] = c,
            1 => {
                chars.remove(at);
            }
            _ => chars.insert(at, chars[at]),
        }
        chars.into_iter().collect()
    })
}

/// Whatever is read writes out and reads back as itself.
fn reads_back(text: &str) {
    for game in read_any_pdn_each(text).into_iter().flatten() {
        let written = game.to_pdn();
        assert_eq!(read_any_pdn(&written), Ok(vec![game]), "{text:?} -> {written}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_text_reads_without_panic(text in "\\PC{0,200}") {
        reads_back(&text);
    }

    #[test]
    fn pdn_like_text_reads_without_panic(text in "(\\[GameType \"(2[0-9]|3[01]|40|9[6-9])\"\\]\n)?[\\[\\]{}()\"\\\\;$*:x\\-. \n0-9a-hKWB]{0,100}") {
        reads_back(&text);
    }

    #[test]
    fn mutated_board_pdn_reads_without_panic(text in arb_mutated_board_pdn()) {
        reads_back(&text);
    }

    #[test]
    fn board_fen_and_move_text_never_panic(text in "[WB:,Kx\\-0-9a-h ]{0,40}") {
        for variant in BoardVariant::ALL {
            checkers_rules::with_board_variant!(variant, V => {
                if let Ok(position) = Board::<V>::from_fen(&text) {
                    prop_assert_eq!(Board::<V>::from_fen(&position.to_fen()), Ok(position));
                }
                let start = Board::<V>::start();
                if let Ok(mv) = start.parse_move(&text) {
                    prop_assert_eq!(start.parse_move(&mv.to_pdn(&start)), Ok(mv));
                }
                let _ = <<V as RuleSet>::Geometry as Geometry>::square_by_name(&text);
            });
        }
    }
}
