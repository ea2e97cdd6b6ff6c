//! The endgame databases the search consults: positions of up to four pieces, solved once
//! per process the first time a search wants them (about a second), then shared by every
//! engine and thread.
//!
//! A Russian database is only trusted for its draws: it counts no moves, while Russian rules
//! draw a game after 15 moves of kings alone, so some of its wins are draws there. A draw
//! without those rules is a draw with them.

use std::sync::OnceLock;

use checkers_endgame::Database;
use checkers_rules::Variant;

/// Pieces on the board at most for the database to answer.
pub const ENDGAME_PIECES: u32 = 4;

/// The database for `variant`, built on first use.
pub fn database(variant: Variant) -> &'static Database {
    static ENGLISH: OnceLock<Database> = OnceLock::new();
    static RUSSIAN: OnceLock<Database> = OnceLock::new();
    let cell = match variant {
        Variant::English => &ENGLISH,
        Variant::Russian => &RUSSIAN,
    };
    cell.get_or_init(|| Database::build(variant, ENDGAME_PIECES).expect("a supported piece count"))
}

/// Whether the database's wins and losses hold under the variant's rules.
pub fn wins_hold(variant: Variant) -> bool {
    variant == Variant::English
}
