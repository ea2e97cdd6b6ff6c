//! FEN text: reading never panics, and what is accepted is a valid position whose own FEN
//! (numeric or algebraic) reads back as itself.

#![no_main]

use checkers_rules::{parse_fen, parse_square, to_fen_with, Position, SquareNotation, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_square(text);
    let _ = parse_fen(text);
    for variant in Variant::ALL {
        if let Ok(position) = Position::from_fen(variant, text) {
            for notation in [SquareNotation::Numeric, SquareNotation::Algebraic] {
                let written = to_fen_with(&position, notation);
                assert_eq!(Position::from_fen(variant, &written), Ok(position), "{text:?} -> {written}");
            }
        }
    }
});
