//! The endgame database the search consults: English positions of up to four pieces, solved
//! once per process the first time a search wants them (a few seconds), then shared by every
//! engine and thread.
//!
//! Russian is left out: its databases count no moves, while its rules draw a game after 15
//! moves of kings alone, so their wins are not always wins.

use std::sync::OnceLock;

use checkers_endgame::Database;
use checkers_rules::Variant;

/// Pieces on the board at most for the database to answer.
pub const ENDGAME_PIECES: u32 = 4;

/// The database for `variant`, built on first use; `None` for variants without one.
pub fn database(variant: Variant) -> Option<&'static Database> {
    static ENGLISH: OnceLock<Database> = OnceLock::new();
    match variant {
        Variant::English => Some(ENGLISH.get_or_init(|| {
            Database::build(Variant::English, ENDGAME_PIECES).expect("a supported piece count")
        })),
        Variant::Russian => None,
    }
}
