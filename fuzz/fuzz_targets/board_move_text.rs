//! Move text on the boards of any size: the input's first byte picks the variant, then a FEN
//! line, then move text read against that position (the start when the FEN does not read).
//! Reading never panics; an accepted move is legal, and its long and short forms (the short
//! one when it names the move alone) read back as itself.

#![no_main]

use checkers_rules::board::{Board, BoardVariant};
use checkers_rules::with_board_variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let variant = BoardVariant::ALL[usize::from(pick) % BoardVariant::ALL.len()];
    let (fen, move_text) = text.split_once('\n').unwrap_or(("", text));
    with_board_variant!(variant, V => {
        let position = Board::<V>::from_fen(fen).unwrap_or_else(|_| Board::<V>::start());
        if let Ok(mv) = position.parse_move(move_text) {
            assert!(position.is_legal(&mv));
            let long = mv.to_pdn(&position);
            assert_eq!(position.parse_move(&long), Ok(mv), "{variant}: {move_text:?} -> {long}");
            let short = mv.to_short();
            if let Ok(other) = position.parse_move(&short) {
                assert_eq!(other, mv, "{variant}: {short} names another move");
            }
        }
    });
});
