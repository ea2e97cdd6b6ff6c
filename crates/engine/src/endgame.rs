//! The endgame databases the search consults: positions of up to four pieces, solved the
//! first time a search wants them (about a second), then shared by every engine and thread
//! of the process. A program may name a folder to keep them in between runs
//! ([`Engine::keep_endgame_in`](crate::Engine::keep_endgame_in)): a short-lived one, such as
//! `checkers analyse`, then reads them in milliseconds instead of solving them at every
//! start. Without one nothing touches the disk.
//!
//! A Russian database is only trusted for its draws: it counts no moves, while Russian rules
//! draw a game after 15 moves of kings alone, so some of its wins are draws there. A draw
//! without those rules is a draw with them. Its lone king against lone king draws are the
//! ones the rules call at once (`checkers_rules::is_drawn_king_against_king`; the endgame
//! crate's tests compare every such position), and the search asks the rules first.

use std::path::PathBuf;
use std::sync::OnceLock;

use checkers_endgame::Database;
use checkers_rules::Variant;

/// Pieces on the board at most for the database to answer.
pub(crate) const ENDGAME_PIECES: u32 = 4;

/// The folder the program named for keeping solved databases, if any.
static KEPT_IN: OnceLock<PathBuf> = OnceLock::new();

/// Names the folder solved databases are kept in; the first call counts.
pub fn keep_in(dir: PathBuf) -> bool {
    KEPT_IN.set(dir).is_ok()
}

/// The database for `variant`, built on first use (or read from the folder of [`keep_in`]).
pub fn database(variant: Variant) -> &'static Database {
    static ENGLISH: OnceLock<Database> = OnceLock::new();
    static RUSSIAN: OnceLock<Database> = OnceLock::new();
    let cell = match variant {
        Variant::English => &ENGLISH,
        Variant::Russian => &RUSSIAN,
    };
    cell.get_or_init(|| {
        Database::cached(variant, ENDGAME_PIECES, KEPT_IN.get().map(PathBuf::as_path))
            .expect("a supported piece count")
    })
}

/// Whether the database's wins and losses hold under the variant's rules.
pub fn wins_hold(variant: Variant) -> bool {
    variant == Variant::English
}
