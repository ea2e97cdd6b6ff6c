//! Robustness of the text parsers (FEN, squares, move text) and of position validation:
//! proptest over arbitrary strings and over structured near-miss strings. No input may panic;
//! what is accepted must be a valid position (or a legal move), and a valid position written
//! in any accepted style reads back as itself.
//!
//! The `fuzz/` folder at the workspace root holds cargo-fuzz targets for the same parsers, for
//! longer runs by hand; these tests are what CI runs.

use checkers_rules::{
    parse_fen, parse_square, to_fen_with, Color, FenLoadError, MoveTextError, Position, PositionError, Setup,
    Square, SquareNotation, Variant,
};
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Positions to read move text against: the starts, and positions full of captures, kings,
/// ambiguities and flying-king routes.
fn move_text_positions() -> Vec<Position> {
    let mut positions = vec![Position::start(Variant::English), Position::start(Variant::Russian)];
    for (variant, fen) in [
        (Variant::English, "B:W6,7,14,15:B2"),
        (Variant::English, "B:W10,11,18,19,27:BK32"),
        (Variant::Russian, "B:W9,10,17,18:BK22"),
        (Variant::Russian, "W:WK28:B14,24,26,27"),
        (Variant::Russian, "W:WK29:B11,22"),
        (Variant::Russian, "B:WK14,K22,K23,K24:BK10"),
        (Variant::English, "W:W:B1"),
    ] {
        positions.push(Position::from_fen(variant, fen).unwrap());
    }
    positions
}

/// What is wrong with a setup by the rules, worked out directly (empty when it is valid).
fn setup_problems(setup: &Setup) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if setup.turn.is_none() {
        problems.push("no side to move");
    }
    let all: Vec<Square> = [&setup.white_men, &setup.white_kings, &setup.black_men, &setup.black_kings]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let mut seen = std::collections::HashSet::new();
    if !all.iter().all(|s| seen.insert(*s)) {
        problems.push("square twice");
    }
    if setup.white_men.iter().any(|s| s.rank() == 7) || setup.black_men.iter().any(|s| s.rank() == 0) {
        problems.push("man on crowning row");
    }
    if setup.white_men.len() + setup.white_kings.len() > 12
        || setup.black_men.len() + setup.black_kings.len() > 12
    {
        problems.push("too many pieces");
    }
    problems
}

/// The problem a position error reports, in the words of [`setup_problems`].
fn problem_of(error: &PositionError) -> &'static str {
    match error {
        PositionError::NoSideToMove => "no side to move",
        PositionError::SquareTwice(_) => "square twice",
        PositionError::ManOnCrowningRow { .. } => "man on crowning row",
        PositionError::TooManyPieces { .. } => "too many pieces",
    }
}

/// Checks an accepted position: valid, and its FEN (numeric or algebraic) reads back as itself.
fn check_accepted(position: &Position) -> Result<(), TestCaseError> {
    for color in [Color::White, Color::Black] {
        prop_assert!(position.pieces(color).len() <= 12);
    }
    let crowning = |color: Color| if color == Color::White { 7 } else { 0 };
    for color in [Color::White, Color::Black] {
        prop_assert!(position.men_of(color).into_iter().all(|s| s.rank() != crowning(color)));
    }
    prop_assert!(position.pieces(Color::White).intersection(position.pieces(Color::Black)).is_empty());
    for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
        let text = to_fen_with(position, notation);
        prop_assert_eq!(Position::from_fen(position.variant(), &text), Ok(*position), "{}", text);
    }
    Ok(())
}

/// Near-miss FEN text: mostly well-formed, with now and then a wrong part (a bad square, a
/// broken range, a missing or doubled field, junk), so that all three outcomes occur: a
/// position, a position error, a syntax error.
fn near_miss_fen() -> impl Strategy<Value = String> {
    let square = prop_oneof![
        30 => (1u32..=32).prop_map(|n| n.to_string()),
        6 => ("[a-h]", 1u32..=8).prop_map(|(f, r)| format!("{f}{r}")),
        1 => (0u32..100).prop_map(|n| n.to_string()),
        1 => ("[a-jA-J]", 0u32..10).prop_map(|(f, r)| format!("{f}{r}")),
        1 => "[0-9]{3,25}",
        1 => Just(String::new()),
    ];
    let item = prop_oneof![
        30 => (proptest::option::weighted(0.3, "[Kk]"), square.clone())
            .prop_map(|(k, s)| format!("{}{s}", k.unwrap_or_default())),
        3 => (proptest::option::weighted(0.3, "[Kk]"), square.clone(), square)
            .prop_map(|(k, a, b)| format!("{}{a}-{b}", k.unwrap_or_default())),
        1 => "[ ,:WBKwbkx.\"-]{0,3}",
    ];
    let separator = prop_oneof![20 => Just(","), 1 => Just(",,"), 1 => Just(", "), 1 => Just(" ")];
    let color = prop_oneof![10 => Just("W".to_string()), 10 => Just("B".to_string()), 1 => "[wbA-Z]?"];
    let list = (color, prop::collection::vec(item, 0..6), separator)
        .prop_map(|(c, items, sep)| format!("{c}{}", items.join(sep)));
    let lists = prop_oneof![
        10 => prop::collection::vec(list.clone(), 2),
        1 => prop::collection::vec(list, 0..4),
    ];
    let turn = prop_oneof![10 => Just("W".to_string()), 10 => Just("B".to_string()), 1 => "[A-Zwb ]{0,2}"];
    let field_separator = prop_oneof![20 => Just(":"), 1 => Just("::"), 1 => Just(" : "), 1 => Just(";")];
    let tail = prop_oneof![10 => Just(String::new()), 1 => "[\". ]{0,2}"];
    (turn, lists, field_separator, tail)
        .prop_map(|(turn, lists, sep, tail)| format!("{turn}{sep}{}{tail}", lists.join(sep)))
}

/// A valid setup: `(square index, white?, king?)` items; repeats, extras beyond twelve a side
/// and men on their crowning row are dropped.
fn valid_setup() -> impl Strategy<Value = Setup> {
    (prop::collection::vec((0u32..32, any::<bool>(), any::<bool>()), 0..30), any::<bool>()).prop_map(
        |(items, white_to_move)| {
            let mut setup = Setup {
                turn: Some(if white_to_move { Color::White } else { Color::Black }),
                ..Setup::default()
            };
            let mut used = [false; 32];
            for (index, white, king) in items {
                let sq = Square::from_number(index + 1).unwrap();
                let side_count = if white {
                    setup.white_men.len() + setup.white_kings.len()
                } else {
                    setup.black_men.len() + setup.black_kings.len()
                };
                let crowning = if white { 7 } else { 0 };
                if used[index as usize] || side_count == 12 || (!king && sq.rank() == crowning) {
                    continue;
                }
                used[index as usize] = true;
                match (white, king) {
                    (true, false) => setup.white_men.push(sq),
                    (true, true) => setup.white_kings.push(sq),
                    (false, false) => setup.black_men.push(sq),
                    (false, true) => setup.black_kings.push(sq),
                }
            }
            setup
        },
    )
}

/// One side's list in a chosen style: squares sorted or shuffled by `order`, runs of
/// consecutive numbers as ranges when `ranges`, each square numeric or algebraic by `algebraic`.
fn write_list(men: &[Square], kings: &[Square], ranges: bool, algebraic: &[bool], order: &[u8]) -> String {
    let mut items: Vec<String> = Vec::new();
    for (squares, prefix) in [(men, ""), (kings, "K")] {
        let mut numbers: Vec<u32> = squares.iter().map(|s| s.number()).collect();
        numbers.sort_unstable();
        let mut i = 0;
        while i < numbers.len() {
            let mut j = i;
            while ranges && j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
                j += 1;
            }
            if j > i {
                items.push(format!("{prefix}{}-{}", numbers[i], numbers[j]));
            } else {
                let n = numbers[i];
                let name = if algebraic[(n - 1) as usize] {
                    Square::from_number(n).unwrap().algebraic()
                } else {
                    n.to_string()
                };
                items.push(format!("{prefix}{name}"));
            }
            i = j + 1;
        }
    }
    // A stable shuffle driven by `order`.
    let mut keyed: Vec<(u8, String)> =
        items.into_iter().enumerate().map(|(i, s)| (order[i % order.len()], s)).collect();
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().map(|(_, s)| s).collect::<Vec<_>>().join(",")
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn fen_parsers_never_panic_on_arbitrary_text(text in any::<String>()) {
        let _ = parse_fen(&text);
        let _ = parse_square(&text);
        for variant in Variant::ALL {
            if let Ok(position) = Position::from_fen(variant, &text) {
                check_accepted(&position)?;
            }
        }
    }

    #[test]
    fn fen_parsers_never_panic_on_near_misses(text in near_miss_fen()) {
        let syntax = parse_fen(&text);
        for variant in Variant::ALL {
            match Position::from_fen(variant, &text) {
                Ok(position) => {
                    // Accepted text is exactly what the syntax step read, validated.
                    let setup = syntax.as_ref().expect("accepted FEN has good syntax");
                    prop_assert_eq!(setup_problems(setup), Vec::<&str>::new());
                    prop_assert_eq!(Position::from_setup(variant, setup), Ok(position));
                    check_accepted(&position)?;
                }
                Err(FenLoadError::Syntax(e)) => prop_assert_eq!(syntax.as_ref().err(), Some(&e)),
                Err(FenLoadError::Invalid(e)) => {
                    let setup = syntax.as_ref().expect("a position error comes after good syntax");
                    prop_assert!(setup_problems(setup).contains(&problem_of(&e)), "{:?} rejected: {}", setup, e);
                }
            }
        }
    }

    /// Validation agrees with the rules: any setup (repeats, too many pieces, men anywhere)
    /// is accepted exactly when it is a valid position, with the right kind of error.
    #[test]
    fn position_validation_matches_the_rules(
        white_men in prop::collection::vec(0u32..32, 0..14),
        white_kings in prop::collection::vec(0u32..32, 0..4),
        black_men in prop::collection::vec(0u32..32, 0..14),
        black_kings in prop::collection::vec(0u32..32, 0..4),
        turn in proptest::option::weighted(0.95, any::<bool>()),
    ) {
        let squares = |v: Vec<u32>| v.into_iter().map(|i| Square::from_number(i + 1).unwrap()).collect();
        let setup = Setup {
            white_men: squares(white_men),
            white_kings: squares(white_kings),
            black_men: squares(black_men),
            black_kings: squares(black_kings),
            turn: turn.map(|w| if w { Color::White } else { Color::Black }),
        };
        for variant in Variant::ALL {
            let result = Position::from_setup(variant, &setup);
            let problems = setup_problems(&setup);
            match &result {
                Ok(position) => {
                    prop_assert!(problems.is_empty(), "{:?} accepted despite {:?}", setup, problems);
                    check_accepted(position)?;
                    let mut back = position.to_setup();
                    let mut expected = setup.clone();
                    for list in [
                        &mut back.white_men,
                        &mut back.white_kings,
                        &mut back.black_men,
                        &mut back.black_kings,
                        &mut expected.white_men,
                        &mut expected.white_kings,
                        &mut expected.black_men,
                        &mut expected.black_kings,
                    ] {
                        list.sort_by_key(|s| s.number());
                    }
                    prop_assert_eq!(back, expected);
                }
                Err(e) => prop_assert!(problems.contains(&problem_of(e)), "{:?} rejected: {}", setup, e),
            }
        }
    }

    /// FEN round-trip: a valid position written with either list order, ranges or single
    /// squares, numbers or algebraic names, reads back as the same position; and its own FEN
    /// (numeric and algebraic) reads back as itself.
    #[test]
    fn fen_round_trip(
        setup in valid_setup(),
        black_first in any::<bool>(),
        ranges in any::<bool>(),
        algebraic in prop::collection::vec(any::<bool>(), 32),
        order in prop::collection::vec(any::<u8>(), 1..30),
        lowercase_turn in any::<bool>(),
    ) {
        for variant in Variant::ALL {
            let position = Position::from_setup(variant, &setup).unwrap();
            check_accepted(&position)?;
            let white = format!("W{}", write_list(&setup.white_men, &setup.white_kings, ranges, &algebraic, &order));
            let black = format!("B{}", write_list(&setup.black_men, &setup.black_kings, ranges, &algebraic, &order));
            let turn = position.turn().letter();
            let turn = if lowercase_turn { turn.to_ascii_lowercase() } else { turn };
            let text = if black_first { format!("{turn}:{black}:{white}") } else { format!("{turn}:{white}:{black}") };
            prop_assert_eq!(Position::from_fen(variant, &text), Ok(position), "{}", text);
        }
    }

    #[test]
    fn move_text_parser_never_panics_on_arbitrary_text(text in any::<String>()) {
        for position in move_text_positions() {
            if let Ok(mv) = position.parse_move(&text) {
                prop_assert!(position.is_legal(&mv));
            }
        }
    }

    /// What an error quotes of bad input is shown escaped: no control character reaches the
    /// message (a terminal would act on it), whatever the text.
    #[test]
    fn error_messages_carry_no_control_characters(
        text in "(\\PC|[\u{0}-\u{1f}\u{7f}\u{9b}\u{202e}]|[0-9x:-]){0,40}"
    ) {
        let shows_controls = |message: String| message.chars().any(|c| c.is_control() || c == '\u{202e}');
        if let Err(e) = Position::from_fen(Variant::English, &text) {
            prop_assert!(!shows_controls(e.to_string()), "{:?}", e.to_string());
        }
        for position in move_text_positions() {
            if let Err(e) = position.parse_move(&text) {
                prop_assert!(!shows_controls(e.to_string()), "{:?}", e.to_string());
            }
        }
        for pdn in [text.clone(), format!("[Event \"x\"]\n1. {text}"), format!("[GameType \"{text}\"]\n1. 11-15")] {
            for error in checkers_rules::read_pdn_each(&pdn).into_iter().filter_map(Result::err) {
                prop_assert!(!shows_controls(error.to_string()), "{:?}", error.to_string());
            }
        }
    }

    /// Near-miss move text: squares (numbers, algebraic, out of range) with any separators.
    /// Accepted text names a legal move that starts on its first square and ends on its last.
    #[test]
    fn move_text_parser_on_near_misses(
        parts in prop::collection::vec(
            prop_oneof![
                4 => (0u32..35).prop_map(|n| n.to_string()),
                2 => ("[a-iA-I]", 0u32..10).prop_map(|(f, r)| format!("{f}{r}")),
                1 => "[0-9]{3,22}",
                1 => "[-xX: ]{0,3}",
            ],
            0..7,
        ),
        separators in prop::collection::vec("[-xX: ]|--|x:|  ", 1..6),
    ) {
        let text = parts.iter().enumerate().fold(String::new(), |mut acc, (i, p)| {
            if i > 0 {
                acc.push_str(&separators[i % separators.len()]);
            }
            acc.push_str(p);
            acc
        });
        for position in move_text_positions() {
            match position.parse_move(&text) {
                Ok(mv) => {
                    prop_assert!(position.is_legal(&mv));
                    let named: Vec<Square> = text
                        .split(|c: char| "-xX: ".contains(c))
                        .filter(|p| !p.is_empty())
                        .map(|p| parse_square(p).expect("accepted text has only squares"))
                        .collect();
                    prop_assert_eq!(named.first(), Some(&mv.from()));
                    prop_assert_eq!(named.last(), Some(&mv.to()));
                }
                Err(MoveTextError::Ambiguous { candidates, .. }) => prop_assert!(candidates.len() >= 2),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// Real move text, mangled: a square dropped or changed, separators swapped, spaces,
    /// algebraic names mixed in. Accepted text still names a legal move with its ends.
    #[test]
    fn move_text_parser_on_mangled_moves(
        which_position in any::<prop::sample::Index>(),
        which_move in any::<prop::sample::Index>(),
        edits in prop::collection::vec((0u8..6, any::<prop::sample::Index>(), -2i32..=2), 0..4),
    ) {
        let positions = move_text_positions();
        let position = which_position.get(&positions);
        let legal = position.legal_moves();
        prop_assume!(!legal.is_empty());
        let mv = which_move.get(legal.as_slice());
        let mut parts: Vec<String> =
            mv.to_pdn(position, SquareNotation::Numeric).split(['-', 'x']).map(str::to_string).collect();
        let mut separator = if mv.is_capture() { "x" } else { "-" }.to_string();
        for (kind, at, delta) in edits {
            let i = at.index(parts.len());
            match kind {
                0 if parts.len() > 1 => {
                    parts.remove(i);
                }
                1 => {
                    let n: i32 = parts[i].parse().unwrap_or(1);
                    parts[i] = (n + delta).to_string();
                }
                2 => separator = [":", " ", "X", "x ", "--", ""][at.index(6)].to_string(),
                3 => {
                    if let Some(sq) = parts[i].parse().ok().and_then(Square::from_number) {
                        parts[i] = sq.algebraic().to_uppercase();
                    }
                }
                4 => parts.insert(i, parts[i].clone()),
                _ => parts[i] = format!(" {} ", parts[i]),
            }
        }
        let text = parts.join(&separator);
        match position.parse_move(&text) {
            Ok(found) => {
                prop_assert!(position.is_legal(&found), "{}", text);
                let named: Vec<Square> = text
                    .split(|c: char| "-xX: ".contains(c))
                    .filter(|p| !p.is_empty())
                    .map(|p| parse_square(p).expect("accepted text has only squares"))
                    .collect();
                prop_assert_eq!(named.first(), Some(&found.from()), "{}", text);
                prop_assert_eq!(named.last(), Some(&found.to()), "{}", text);
            }
            Err(MoveTextError::Ambiguous { candidates, .. }) => prop_assert!(candidates.len() >= 2),
            Err(_) => {}
        }
    }
}

/// Errors name what is wrong, and parse errors stay apart from position errors.
#[test]
fn fen_errors_are_typed() {
    use checkers_rules::FenError;
    let english = |text| Position::from_fen(Variant::English, text);
    assert!(matches!(english(""), Err(FenLoadError::Syntax(FenError::Empty))));
    assert!(matches!(english("W:W21:B1:B2"), Err(FenLoadError::Syntax(FenError::FieldCount(4)))));
    assert!(matches!(english("W:W1-33:B5"), Err(FenLoadError::Syntax(FenError::BadRange(_)))));
    assert!(matches!(english("W:Wz9:B5"), Err(FenLoadError::Syntax(FenError::BadSquare(_)))));
    assert!(matches!(english("W:X21:B5"), Err(FenLoadError::Syntax(FenError::BadColor(_)))));
    assert!(english("W:W21:B1").is_ok(), "a Black man on rank 8 is fine");
    assert!(matches!(
        english("W:W21:B29"),
        Err(FenLoadError::Invalid(PositionError::ManOnCrowningRow { color: Color::Black, .. }))
    ));
    assert!(matches!(
        english("B:W4:B12"),
        Err(FenLoadError::Invalid(PositionError::ManOnCrowningRow { color: Color::White, .. }))
    ));
    assert!(english("B:WK4:B12").is_ok(), "a king may stand there");
    assert!(matches!(
        english("B:W5-17:BK32"),
        Err(FenLoadError::Invalid(PositionError::TooManyPieces { color: Color::White, count: 13 }))
    ));
    assert!(matches!(english("B:W13-24:B1,K13"), Err(FenLoadError::Invalid(PositionError::SquareTwice(_)))));
    // Accepted spellings: quotes, trailing dot, spaces, empty sides, either order.
    let start = Position::start(Variant::English);
    for text in ["B:W21-32:B1-12", "\"B:W21-32:B1-12\"", "B:B1-12:W21-32.", " B : W21-32 : B1-12 "] {
        assert_eq!(english(text), Ok(start), "{text}");
    }
    assert_eq!(english("W:W:B").map(|p| p.legal_moves().len()), Ok(0));
}
