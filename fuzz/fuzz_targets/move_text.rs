//! Move text against a position: the input is a FEN line, then move text. Reading never
//! panics; an accepted move is legal and its own long form reads back as itself.

#![no_main]

use checkers_rules::{Position, SquareNotation, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, move_text) = text.split_once('\n').unwrap_or(("", text));
    let variant = if data.first().is_some_and(|b| b % 2 == 1) { Variant::Russian } else { Variant::English };
    let position = Position::from_fen(variant, fen).unwrap_or_else(|_| Position::start(variant));
    if let Ok(mv) = position.parse_move(move_text) {
        assert!(position.is_legal(&mv));
        for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
            let written = mv.to_pdn(&position, notation);
            assert_eq!(position.parse_move(&written), Ok(mv), "{move_text:?} -> {written}");
        }
    }
});
