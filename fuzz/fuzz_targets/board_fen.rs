//! FEN text on the boards of any size: reading never panics for any variant, and what is
//! accepted is a valid position whose own FEN reads back as itself.

#![no_main]

use checkers_rules::board::{parse_board_fen, Board, BoardVariant, Dark10, Dark12, Dark8, Full8};
use checkers_rules::with_board_variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_board_fen::<Dark8>(text);
    let _ = parse_board_fen::<Dark10>(text);
    let _ = parse_board_fen::<Dark12>(text);
    let _ = parse_board_fen::<Full8>(text);
    for variant in BoardVariant::ALL {
        with_board_variant!(variant, V => {
            if let Ok(position) = Board::<V>::from_fen(text) {
                let written = position.to_fen();
                assert_eq!(Board::<V>::from_fen(&written), Ok(position), "{variant}: {text:?} -> {written}");
            }
        });
    }
});
