//! PDN reading and writing: real games replayed to known positions, many games in one file,
//! every error with its message, exact round trips, and no panic on any input.
//!
//! The final positions asserted below were computed outside this crate's PDN code: each game
//! was replayed move by move with a separate script that checked every move against the list
//! printed by `checkers moves` and applied it to the board by hand-written rules.

use checkers_rules::{
    read_pdn, read_pdn_each, read_pdn_game, write_pdn, write_pdn_with, Color, PdnErrorKind, PdnGame,
    PdnResult, Position, SquareNotation, Variant,
};
use proptest::prelude::*;

const ENGLISH: &str = include_str!("data/pdn/english.pdn");
const RUSSIAN: &str = include_str!("data/pdn/russian.pdn");

fn fen(variant: Variant, text: &str) -> Position {
    Position::from_fen(variant, text).unwrap()
}

fn long_moves(game: &PdnGame) -> Vec<String> {
    let positions = game.positions();
    game.moves().iter().zip(&positions).map(|(m, p)| m.to_pdn(p, SquareNotation::Numeric)).collect()
}

#[test]
fn english_games_replay_to_the_known_final_positions() {
    let games = read_pdn(ENGLISH).unwrap();
    assert_eq!(games.len(), 2);

    let club = &games[0];
    assert_eq!(club.variant(), Variant::English);
    assert_eq!(club.start(), Position::start(Variant::English));
    assert_eq!(club.moves().len(), 45);
    assert_eq!(club.tag("Black"), Some("Duncan, A."));
    assert_eq!(club.tag("Round"), Some("3"));
    // White has nothing left: Black won, and `1-0` says so (Black moves first in English).
    assert_eq!(club.end_position(), fen(Variant::English, "W:W:B1,14,19,27"));
    assert!(club.end_position().legal_moves().is_empty());
    assert_eq!(club.result(), PdnResult::Win(Color::Black));
    assert_eq!(club.comment(3), Some("the Single Corner exchange"));
    assert_eq!(&long_moves(club)[20..25], ["9x18x25", "30x21", "3-7", "20-16", "11x20x27"]);

    let study = &games[1];
    assert_eq!(study.start(), fen(Variant::English, "W:WK10,18,22,25,30:B3,6,9,K19,21"));
    assert_eq!(study.moves().len(), 24);
    assert_eq!(study.end_position(), fen(Variant::English, "W:WK5,8,10,23:BK25"));
    assert_eq!(study.result(), PdnResult::Win(Color::White));
    assert_eq!(study.tag("Date"), Some("2001.??.??"));
}

#[test]
fn russian_games_replay_to_the_known_final_positions() {
    let games = read_pdn(RUSSIAN).unwrap();
    assert_eq!(games.len(), 2);

    let open = &games[0];
    assert_eq!(open.variant(), Variant::Russian, "GameType 25,W,8,8,A0,0 reads as 25");
    assert_eq!(open.moves().len(), 55);
    assert_eq!(open.end_position(), fen(Variant::Russian, "B:WK10,19,22,25:B"));
    assert_eq!(open.result(), PdnResult::Win(Color::White), "1-0 is White's win in Russian");
    // Algebraic captures with `:` are the same moves as the numeric long form.
    assert_eq!(&long_moves(open)[8..10], ["25x18x11", "7x16"]);

    let study = &games[1];
    assert_eq!(study.start(), fen(Variant::Russian, "W:WK29,23,27,31:B6,7,14,15,K4"));
    assert_eq!(long_moves(study)[0], "29x11x2x9x18", "a flying king's four captures");
    assert_eq!(study.end_position(), fen(Variant::Russian, "W:W:BK31"));
    assert_eq!(study.result(), PdnResult::Win(Color::Black));
}

#[test]
fn many_games_in_one_file() {
    let both = format!("{ENGLISH}\n{RUSSIAN}");
    let games = read_pdn(&both).unwrap();
    assert_eq!(games.len(), 4);
    let variants: Vec<Variant> = games.iter().map(PdnGame::variant).collect();
    assert_eq!(variants, [Variant::English, Variant::English, Variant::Russian, Variant::Russian]);
    // Games not ended by a result are still told apart: by a tag after moves, or by a tag the
    // header already has.
    let loose = "[Event \"a\"]\n1. 11-15\n[Event \"b\"]\n1. 9-13 22-18\n[Event \"c\"]\n[Event \"d\"]\n";
    let games = read_pdn(loose).unwrap();
    let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap().to_string()).collect();
    assert_eq!(events, ["a", "b", "c", "d"]);
    assert_eq!(games[1].moves().len(), 2);
    assert!(games.iter().all(|g| g.result() == PdnResult::Unknown));
    assert!(read_pdn("").unwrap().is_empty());
    assert!(read_pdn(" \n\r\n\u{feff}").unwrap().is_empty());
}

#[test]
fn canonical_text_is_exact_and_stable() {
    let games = read_pdn(ENGLISH).unwrap();
    let study = games[1].to_pdn();
    assert_eq!(
        study,
        "[Event \"Endgame study\"]\n\
         [Date \"2001.??.??\"]\n\
         [Black \"?\"]\n\
         [White \"?\"]\n\
         [Result \"0-1\"]\n\
         [GameType \"21\"]\n\
         [SetUp \"1\"]\n\
         [FEN \"W:WK10,18,22,25,30:B3,6,9,K19,21\"]\n\
         \n\
         1... 10x1 2. 19-23 18-14 3. 9x18 22x15 4. 3-7 1-5 5. 23-27 25-22 6. 27-32 22-18\n\
         7. 32-27 5-1 8. 27-31 18-14 9. 7-11 15x8 10. 31-26 30x23 11. 21-25 14-10\n\
         12. 25-30 1-5 13. 30-25 0-1\n"
    );
    for text in [ENGLISH, RUSSIAN] {
        let games = read_pdn(text).unwrap();
        for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
            let written = write_pdn_with(&games, notation);
            assert!(written.lines().all(|l| l.len() <= 80), "{written}");
            let again = read_pdn(&written).unwrap();
            assert_eq!(again, games);
            assert_eq!(write_pdn_with(&again, notation), written);
        }
    }
    let russian = read_pdn(RUSSIAN).unwrap();
    let algebraic = russian[0].to_pdn_with(SquareNotation::Algebraic);
    assert!(algebraic.contains("1. e3-d4 b6-c5 2. d4:b6 c7:a5"), "{algebraic}");
    let numeric = russian[0].to_pdn();
    assert!(numeric.contains("1. 23-18 9-14 2. 18x9 6x13"), "{numeric}");
    assert!(numeric.starts_with("[Event \"Moscow open\"]\n[Site \"Moscow RUS\"]\n[Date \"2003.07.02\"]\n[Round \"5\"]\n[Black \"Petrov, D.\"]\n[White \"Ivanov, S.\"]\n[Result \"1-0\"]\n[GameType \"25\"]\n\n"));
}

#[test]
fn messy_input_is_read() {
    // BOM, CRLF, `%` lines, `;` comments, nested variations with comments, NAGs, annotations,
    // `1. ...`, move numbers glued to moves, short capture forms, a 2-0 result.
    let text = "\u{feff}% exported by hand\r\n[Event \"Messy \\\"quoted\\\" event\"]\r\n\
        [GameType \"21,B,8,8,N1,0\"]\r\n\r\n\
        1.11-15 22-18!? ; the single corner\r\n\
        2. 15x22 (2. 10-14 (2... 9-13 {a ) in a comment}) 18x9) 25x18 $4 3. 8-11(?) 29-25\r\n\
        4. 4-8 25-22 5. 12-16 24-20 6. 10-15 27-24 7. 16-19 23x16 8. 7-10 16x7 9. 2x11 18-14\r\n\
        10. 10x17 21x14 11. 9x25 {short form} 30x21 2-0\r\n\
        \r\n\
        [Event \"second\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"W:W18:B14\"]\n1. ... 18x9 *\n";
    let games = read_pdn(text).unwrap();
    assert_eq!(games.len(), 2);
    let first = &games[0];
    assert_eq!(first.tag("Event"), Some("Messy \"quoted\" event"));
    assert_eq!(first.moves().len(), 22);
    assert_eq!(long_moves(first)[20], "9x18x25");
    assert_eq!(first.comment(1), Some("the single corner"));
    assert_eq!(first.comment(20), Some("short form"));
    assert_eq!(first.result(), PdnResult::Win(Color::Black));
    let english = read_pdn(ENGLISH).unwrap();
    assert_eq!(first.positions()[22], english[0].positions()[22]);
    // `*` after the moves leaves the tag's result standing.
    assert_eq!(games[1].result(), PdnResult::Draw);
    assert_eq!(games[1].end_position(), fen(Variant::English, "B:W9:B"));
}

#[test]
fn building_a_game_and_writing_it() {
    let mut game = PdnGame::new(Variant::Russian);
    game.set_tag("White", "Kovalev").unwrap();
    game.set_tag("Event", "Training").unwrap();
    for text in ["c3-d4", "f6-g5", "g3-h4"] {
        let mv = game.end_position().parse_move(text).unwrap();
        game.push(mv).unwrap();
    }
    let illegal = Position::start(Variant::Russian).legal_moves()[0];
    assert!(game.push(illegal).is_err(), "a start move is not legal three moves in");
    assert!(game.set_comment(2, "  sharp \n  line } "));
    assert!(!game.set_comment(3, "no such move"));
    game.set_result(PdnResult::Win(Color::Black));
    assert_eq!(
        game.to_pdn(),
        "[Event \"Training\"]\n[White \"Kovalev\"]\n[Result \"0-1\"]\n[GameType \"25\"]\n\n\
         1. 22-18 11-16 2. 24-20 {sharp line )} 0-1\n"
    );
    assert_eq!(read_pdn_game(&game.to_pdn()).unwrap(), game);
}

// ---------------------------------------------------------------------------------------------
// Errors: every kind, with its message.

fn error(text: &str) -> (PdnErrorKind, String) {
    let e = read_pdn(text).unwrap_err();
    let msg = e.to_string();
    (*e.kind, msg)
}

#[test]
fn illegal_ambiguous_and_unreadable_moves_name_the_game_and_move() {
    let (kind, msg) = error(
        "[Event \"Open\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\n1. 11-15 23-19 2. 8-11 22-17\n3. 11-14 *",
    );
    assert!(matches!(kind, PdnErrorKind::IllegalMove { .. }));
    assert_eq!(
        msg,
        "PDN game 1 (Event \"Open\", Black \"Ann\", White \"Bob\"), line 6: \
         move 3. `11-14` is illegal: 11 can go to 16"
    );

    let two = format!("{ENGLISH}\n[Event \"Third\"]\n1. 11-15 24-20 2. 15-18 24-19 *\n");
    let (_, msg) = error(&two);
    assert_eq!(
        msg,
        "PDN game 3 (Event \"Third\"), line 29: move 2... `24-19` is illegal: there is no piece on 24"
    );

    let (_, msg) = error("1. 11-15 22-18 2. 9-13 *");
    assert_eq!(msg, "PDN game 1, line 1: move 2. `9-13` is illegal: a capture is compulsory: 15x22");

    let (kind, msg) = error("[SetUp \"1\"]\n[FEN \"B:W6,7,14,15:B2\"]\n1. 2x18 *");
    assert!(matches!(kind, PdnErrorKind::AmbiguousMove { .. }));
    assert_eq!(msg, "PDN game 1, line 3: move 1. `2x18` is ambiguous: it could be 2x11x18 or 2x9x18");

    let (kind, msg) = error("1. 11-15 resigns");
    assert!(matches!(kind, PdnErrorKind::NotAMove { .. }));
    assert_eq!(msg, "PDN game 1, line 1: move 1... `resigns` is not a move: expected squares such as 11-15, 9x18x27 or c3-d4");
    let (_, msg) = error("1. 11-99");
    assert_eq!(msg, "PDN game 1, line 1: move 1. `11-99` is not a move: `99` is not a square");

    let (_, msg) = error("[GameType \"25\"]\n1. c3-d4 f6-g5 2. d4-e3");
    assert_eq!(msg, "PDN game 1, line 2: move 2. `d4-e3` is illegal: 18 can go to 14 or 15");
}

/// A binary file read as PDN: the errors quote a short excerpt, its control bytes escaped.
#[test]
fn bad_input_is_quoted_escaped_and_short() {
    let binary: String = (0..600u32).map(|i| char::from_u32(i * 7 % 128).unwrap_or('?')).collect();
    let text = format!("1. \u{7}\u{1b}[2J{binary}");
    let errors: Vec<String> =
        read_pdn_each(&text).into_iter().filter_map(|r| r.err()).map(|e| e.to_string()).collect();
    assert!(!errors.is_empty());
    for message in &errors {
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.chars().count() < 400, "{message:?}");
    }
    assert!(
        errors[0].starts_with("PDN game 1, line 1: move 1. `\\u{7}\\u{1b}` is not a move"),
        "{}",
        errors[0]
    );
}

#[test]
fn every_syntax_error_has_its_message() {
    let cases: [(&str, &str); 12] = [
        ("[ \"x\"]", "PDN game 1, line 1: bad tag `[ \"x\"]`: expected a tag name after `[`"),
        ("[Event x]", "PDN game 1, line 1: bad tag `[Event x]`: expected a quoted value after the tag name"),
        ("[Event \"x\" y]", "PDN game 1, line 1: bad tag `[Event \"x\" y]`: expected `]` after the value"),
        ("[Event \"x", "PDN game 1, line 1: tag value never closed (missing `\"`)"),
        ("1. 11-15 {never\nclosed", "PDN game 1, line 1: comment never closed (missing `}`)"),
        ("1. 11-15 (23-19 (22-18)\n", "PDN game 1, line 1: variation never closed (missing `)`)"),
        ("1. 11-15 ) 23-19", "PDN game 1, line 1: unexpected `)`"),
        ("[GameType \"checkers\"]\n1. 11-15", "PDN game 1, line 1: GameType `checkers` does not start with a number"),
        ("[GameType \"20\"]\n1. 32-28", "PDN game 1, line 1: GameType 20 is not a variant we play (21 English, 25 Russian)"),
        (
            "[FEN \"W:W1:B2\"]\n*",
            "PDN game 1, line 1: bad FEN `W:W1:B2`: invalid position: White man on square 1, its crowning row",
        ),
        (
            "[FEN \"X:W1:B2\"]\n*",
            "PDN game 1, line 1: bad FEN `X:W1:B2`: malformed FEN: FEN side to move must be `W` or `B`, found `X`",
        ),
        ("[SetUp \"1\"]\n1. 11-15", "PDN game 1, line 1: SetUp is \"1\" but there is no FEN tag"),
    ];
    for (text, expected) in cases {
        let e = read_pdn(text).unwrap_err();
        assert_eq!(e.to_string(), expected, "for {text:?}");
    }
    let kinds: Vec<PdnErrorKind> = cases.iter().map(|(t, _)| *read_pdn(t).unwrap_err().kind).collect();
    assert!(matches!(kinds[0], PdnErrorKind::BadTag { .. }));
    assert!(matches!(kinds[3], PdnErrorKind::UnterminatedTag));
    assert!(matches!(kinds[4], PdnErrorKind::UnterminatedComment));
    assert!(matches!(kinds[5], PdnErrorKind::UnterminatedVariation));
    assert!(matches!(kinds[6], PdnErrorKind::UnexpectedChar(')')));
    assert!(matches!(kinds[7], PdnErrorKind::BadGameType(_)));
    assert!(matches!(kinds[8], PdnErrorKind::UnsupportedGameType(20)));
    assert!(matches!(kinds[9], PdnErrorKind::BadFen { .. }));
    assert!(matches!(kinds[11], PdnErrorKind::MissingFen));
}

#[test]
fn reading_goes_on_after_a_bad_game_when_asked() {
    let text = "[Event \"one\"]\n1. 11-15 23-19 1-0\n\n\
        [Event \"two\"]\n1. 11-15 23-18 2. 8-11 18x11 3. 9-13 *\n\n\
        [Event three]\n[Black \"x\"]\n1. 9-13 *\n\n\
        [Event \"four\"]\n[GameType \"20\"]\n\n\
        [Event \"five\"]\n1. 12-16 ) 24-20 *\n\
        [Event \"six\"]\n1. 10-14 0-1\n";
    let results = read_pdn_each(text);
    let summary: Vec<String> = results
        .iter()
        .map(|r| match r {
            Ok(g) => format!("ok {} {}", g.tag("Event").unwrap_or("-"), g.moves().len()),
            Err(e) => e.to_string(),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "ok one 2",
            "PDN game 2 (Event \"two\"), line 5: move 2... `18x11` is illegal: 18 can go to 14",
            "PDN game 3, line 7: bad tag `[Event three]`: expected a quoted value after the tag name",
            "PDN game 4 (Event \"four\"), line 12: GameType 20 is not a variant we play (21 English, 25 Russian)",
            "PDN game 5 (Event \"five\"), line 15: unexpected `)`",
            "ok six 1",
        ]
    );
    assert_eq!(read_pdn(text).unwrap_err().to_string(), summary[1]);
}

// ---------------------------------------------------------------------------------------------
// Property tests.

/// A random valid position: at most 12 pieces a side, no man on its crowning row.
fn arb_position() -> impl Strategy<Value = Position> {
    (prop::sample::select(Variant::ALL.to_vec()), prop::collection::vec(0u8..10, 32), any::<bool>()).prop_map(
        |(variant, cells, white_to_move)| {
            let (mut white, mut black) = (Vec::new(), Vec::new());
            for (i, cell) in cells.iter().enumerate() {
                let n = i as u32 + 1;
                let (is_white, king) = match cell {
                    0 | 1 => (true, false),
                    2 => (true, true),
                    3 | 4 => (false, false),
                    5 => (false, true),
                    _ => continue,
                };
                let crowning = if is_white { n <= 4 } else { n >= 29 };
                let list = if is_white { &mut white } else { &mut black };
                if list.len() >= 12 || (!king && crowning) {
                    continue;
                }
                list.push(format!("{}{n}", if king { "K" } else { "" }));
            }
            let turn = if white_to_move { "W" } else { "B" };
            let text = format!("{turn}:W{}:B{}", white.join(","), black.join(","));
            Position::from_fen(variant, &text).expect("built valid")
        },
    )
}

fn arb_start() -> impl Strategy<Value = Position> {
    prop_oneof![prop::sample::select(Variant::ALL.to_vec()).prop_map(Position::start), arb_position(),]
}

fn arb_result() -> impl Strategy<Value = PdnResult> {
    prop_oneof![
        Just(PdnResult::Win(Color::White)),
        Just(PdnResult::Win(Color::Black)),
        Just(PdnResult::Draw),
        Just(PdnResult::DoubleForfeit),
        Just(PdnResult::Unknown),
    ]
}

/// A random legal game with random tags, comments and result.
fn arb_game() -> impl Strategy<Value = PdnGame> {
    let tag_name = prop_oneof![
        prop::sample::select(vec![
            "Event",
            "Site",
            "Date",
            "Round",
            "Black",
            "White",
            "Annotator",
            "FEN",
            "x"
        ])
        .prop_map(str::to_string),
        "[A-Za-z0-9_]{1,8}",
    ];
    (
        arb_start(),
        prop::collection::vec(any::<u32>(), 0..70),
        prop::collection::vec((tag_name, ".{0,12}"), 0..6),
        prop::collection::vec((any::<prop::sample::Index>(), ".{0,30}"), 0..4),
        prop::option::of(".{0,20}"),
        arb_result(),
    )
        .prop_map(|(start, choices, tags, comments, opening, result)| {
            let mut game = PdnGame::from_position(start);
            for choice in choices {
                let legal = game.end_position().legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.push(legal[choice as usize % legal.len()]).unwrap();
            }
            for (name, value) in tags {
                let _ = game.set_tag(&name, &value);
            }
            if !game.moves().is_empty() {
                for (index, text) in comments {
                    game.set_comment(index.index(game.moves().len()), &text);
                }
            }
            if let Some(text) = opening {
                game.set_opening_comment(&text);
            }
            game.set_result(result);
            game
        })
}

/// Valid PDN text with a few bytes changed, removed or added.
fn arb_mutated_pdn() -> impl Strategy<Value = String> {
    let sample = format!("{ENGLISH}\n{RUSSIAN}");
    let chars: Vec<char> = sample.chars().collect();
    let len = chars.len();
    prop::collection::vec(
        (
            0..len,
            0u8..3,
            prop::sample::select(" [](){};$*!?\"\\x-:.0123456789K\n".chars().collect::<Vec<_>>()),
        ),
        1..8,
    )
    .prop_map(move |edits| {
        let mut text = chars.clone();
        for (at, op, c) in edits {
            let at = at.min(text.len().saturating_sub(1));
            match op {
                0 if !text.is_empty() => {
                    text.remove(at);
                }
                1 if !text.is_empty() => text[at] = c,
                _ => text.insert(at, c),
            }
        }
        text.into_iter().collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn games_round_trip_exactly(game in arb_game()) {
        for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
            let text = game.to_pdn_with(notation);
            let read = read_pdn(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&read, &vec![game.clone()], "{}", text);
            prop_assert_eq!(read[0].to_pdn_with(notation), text);
        }
    }

    #[test]
    fn files_of_many_games_round_trip(games in prop::collection::vec(arb_game(), 0..4)) {
        let text = write_pdn(&games);
        let read = read_pdn(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&read, &games);
        prop_assert_eq!(write_pdn(&read), text);
    }

    #[test]
    fn any_text_reads_without_panic(text in "\\PC{0,200}") {
        let _ = read_pdn(&text);
    }

    #[test]
    fn pdn_like_text_reads_without_panic(text in "[\\[\\]{}()\"\\\\;$*!?%:x\\-. \n0-9a-hKWB]{0,120}") {
        let _ = read_pdn(&text);
    }

    #[test]
    fn mutated_pdn_reads_without_panic(text in arb_mutated_pdn()) {
        if let Ok(games) = read_pdn(&text) {
            // Whatever was accepted writes and reads back the same.
            prop_assert_eq!(read_pdn(&write_pdn(&games)).unwrap(), games);
        }
    }
}
