//! The endgame databases the search consults: positions of up to four pieces, solved the
//! first time a search wants them (about a second), then shared by every engine and thread
//! of the process, and kept on disk for the next process (`CHECKERS_CACHE_DIR`, else the
//! user's cache folder): a short-lived program such as `checkers analyse` then reads them
//! in milliseconds instead of solving them at every start.
//!
//! A Russian database is only trusted for its draws: it counts no moves, while Russian rules
//! draw a game after 15 moves of kings alone, so some of its wins are draws there. A draw
//! without those rules is a draw with them.

use std::path::PathBuf;
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
    cell.get_or_init(|| {
        Database::cached(variant, ENDGAME_PIECES, cache_dir().as_deref()).expect("a supported piece count")
    })
}

/// Where solved databases are kept between runs: `CHECKERS_CACHE_DIR` when set (set empty,
/// nowhere), else `checkers` in `XDG_CACHE_HOME` or in `~/.cache`.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(|name| std::env::var_os(name))
}

fn cache_dir_from(variable: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |name: &str| variable(name).map(PathBuf::from);
    if let Some(dir) = set("CHECKERS_CACHE_DIR") {
        return (!dir.as_os_str().is_empty()).then_some(dir);
    }
    let base = set("XDG_CACHE_HOME")
        .filter(|dir| dir.is_absolute())
        .or_else(|| set("HOME").filter(|home| home.is_absolute()).map(|home| home.join(".cache")))?;
    Some(base.join("checkers"))
}

/// Whether the database's wins and losses hold under the variant's rules.
pub fn wins_hold(variant: Variant) -> bool {
    variant == Variant::English
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_folder_follows_the_environment() {
        let with = |pairs: &[(&str, &str)]| {
            cache_dir_from(move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.into()))
        };
        assert_eq!(with(&[("HOME", "/home/ann")]), Some(PathBuf::from("/home/ann/.cache/checkers")));
        assert_eq!(
            with(&[("HOME", "/home/ann"), ("XDG_CACHE_HOME", "/var/cache/ann")]),
            Some("/var/cache/ann/checkers".into())
        );
        // A relative XDG_CACHE_HOME is invalid by the XDG rules, and ignored.
        assert_eq!(
            with(&[("HOME", "/home/ann"), ("XDG_CACHE_HOME", "cache")]),
            Some("/home/ann/.cache/checkers".into())
        );
        assert_eq!(with(&[("HOME", "/home/ann"), ("CHECKERS_CACHE_DIR", "dbs")]), Some("dbs".into()));
        assert_eq!(with(&[("HOME", "/home/ann"), ("CHECKERS_CACHE_DIR", "")]), None);
        assert_eq!(with(&[]), None);
    }
}
