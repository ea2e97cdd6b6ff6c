//! PDN text: reading never panics, and every game read (by the 8x8 reader, and by the reader
//! of any variant, the board variants included) writes out and reads back the same.

#![no_main]

use checkers_rules::{read_any_pdn, read_any_pdn_each, read_pdn_each, read_pdn_game, write_pdn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for game in read_pdn_each(text).into_iter().flatten() {
        let written = write_pdn(std::slice::from_ref(&game));
        assert_eq!(read_pdn_game(&written).as_ref(), Ok(&game), "{written}");
    }
    for game in read_any_pdn_each(text).into_iter().flatten() {
        let written = game.to_pdn();
        assert_eq!(read_any_pdn(&written), Ok(vec![game]), "{written}");
    }
});
