//! The game record: every game as PDN, in one file, rewritten after every move.
//!
//! The file is rewritten whole each time (what was in it before this game, then this game),
//! through a temporary file renamed over it, so a game killed at any moment leaves the last
//! complete record behind and earlier games are never touched.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use checkers_engine::Level;
use checkers_rules::{escape_controls, read_any_pdn_each, AnyPdnGame, Color, PdnResult};

use crate::common::side_tag;

/// A PDN file that games are added to.
#[derive(Debug)]
pub struct RecordFile {
    /// Where the games go (the target of a symbolic link, if the name was one).
    path: PathBuf,
    /// The name to show the player.
    shown: String,
    /// What the file held before the game now being written, kept byte for byte.
    earlier: Vec<u8>,
    /// Whether the current game has been written yet.
    written: bool,
}

impl RecordFile {
    /// Opens a record: reads what the file already holds (nothing if it does not exist), and
    /// makes sure it can be written.
    pub fn open(path: &Path) -> anyhow::Result<RecordFile> {
        let shown = escape_controls(&path.display().to_string()).into_owned();
        let path = resolve(path);
        let earlier = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read the record file {shown}")),
        };
        if path.is_dir() {
            anyhow::bail!("the record file {shown} is a folder");
        }
        // Found now rather than after the first move: the record is written the same way.
        check_writable(&path).with_context(|| format!("cannot write the record file {shown}"))?;
        Ok(RecordFile { path, shown, earlier, written: false })
    }

    /// Opens a record to go on with its last game, which `text_start` (a byte offset in the
    /// file, from [`last_game`]) begins: the game is rewritten in its place as play goes on.
    /// Without an offset the game is added after the file's games, as a new one.
    pub fn open_continuing(path: &Path, text_start: Option<usize>) -> anyhow::Result<RecordFile> {
        let mut record = RecordFile::open(path)?;
        if let Some(start) = text_start.filter(|&start| start <= record.earlier.len()) {
            record.earlier.truncate(start);
            record.written = true;
        }
        Ok(record)
    }

    /// The file's name as the player gave it.
    pub fn name(&self) -> &str {
        &self.shown
    }

    /// Whether this record is the file at `path`.
    pub fn is_file(&self, path: &Path) -> bool {
        resolve(path) == self.path
    }

    /// Whether the current game is in the file.
    pub fn has_current_game(&self) -> bool {
        self.written
    }

    /// Writes the file: the earlier games, then `game` (PDN text of the current game).
    pub fn write(&mut self, game: &str) -> io::Result<()> {
        let mut text = self.earlier.clone();
        if !text.is_empty() {
            // One blank line between games, whatever the earlier text ended with.
            while text.last().is_some_and(|b| *b == b'\n' || *b == b'\r' || *b == b' ') {
                text.pop();
            }
            text.extend_from_slice(b"\n\n");
        }
        text.extend_from_slice(game.as_bytes());
        write_replacing(&self.path, &text)?;
        self.written = true;
        Ok(())
    }

    /// Takes the current game out of the file again (all its moves were taken back): the file
    /// holds what it held before (or is removed, if it did not exist or was empty).
    pub fn withdraw(&mut self) -> io::Result<()> {
        if !self.written {
            return Ok(());
        }
        if self.earlier.is_empty() {
            fs::remove_file(&self.path)?;
        } else {
            write_replacing(&self.path, &self.earlier)?;
        }
        self.written = false;
        Ok(())
    }

    /// The current game is finished with: later games go after it.
    pub fn close_game(&mut self) -> io::Result<()> {
        if self.written {
            self.earlier = fs::read(&self.path)?;
            self.written = false;
        }
        Ok(())
    }
}

/// How the record names the computer: `checkers level 7`.
const COMPUTER_NAME: &str = "checkers level ";

/// The computer's player name in the record at `level`.
pub fn computer_name(level: Level) -> String {
    format!("{COMPUTER_NAME}{level}")
}

/// The last game of a record file, to go on with, and the byte offset where its text begins
/// when that can be told (the text from there reads as that game alone, and the text before
/// it as the other games), so that the game can be rewritten in its place. The game is of
/// any variant, as its `GameType` says.
#[derive(Debug)]
pub struct LastGame {
    pub game: AnyPdnGame,
    pub text_start: Option<usize>,
}

impl LastGame {
    /// The player's name on `color`'s side, as the record gives it (not `?` or blank).
    pub fn player_name(&self, color: Color) -> Option<String> {
        self.game
            .tag(side_tag(color))
            .map(str::trim)
            .filter(|name| !name.is_empty() && *name != "?")
            .map(str::to_string)
    }

    /// The computer's level on `color`'s side, if the computer played it (named as
    /// [`computer_name`] names it).
    pub fn computer_level(&self, color: Color) -> Option<u32> {
        let name = self.player_name(color)?;
        name.strip_prefix(COMPUTER_NAME)?.parse().ok().filter(|n| (1..=9).contains(n))
    }
}

/// Reads the last game of the record at `path`, which must be unfinished (result `*`).
pub fn last_game(path: &Path) -> anyhow::Result<LastGame> {
    let shown = path.display();
    let text = match fs::read(path) {
        Ok(bytes) => {
            String::from_utf8(bytes).with_context(|| format!("the record file {shown} is not UTF-8 text"))?
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            anyhow::bail!("there is no record file {shown} to continue a game from")
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read the record file {shown}")),
    };
    let games = read_any_pdn_each(&text);
    let count = games.len();
    let Some(last) = games.into_iter().last() else {
        anyhow::bail!("the record file {shown} holds no game to continue");
    };
    let game = last.with_context(|| format!("the last game in {shown} cannot be read"))?;
    if game.result() != PdnResult::Unknown {
        anyhow::bail!(
            "the last game in {shown} is over ({}); there is nothing to continue",
            result_text(&game)
        );
    }
    // Games begin with a tag line: the latest line start from which the rest of the text is
    // this game alone, and before which the other games are whole.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| text[i..].starts_with('['))
        .collect();
    let mut text_start = None;
    for &i in line_starts.iter().rev() {
        let rest = read_any_pdn_each(&text[i..]);
        if rest.len() > 1 {
            break; // gone back past the game's first line
        }
        if rest.first().is_some_and(|g| g.as_ref() == Ok(&game)) {
            text_start = (read_any_pdn_each(&text[..i]).len() == count - 1).then_some(i);
            break;
        }
    }
    Ok(LastGame { game, text_start })
}

/// A game's result as its variant's PDN writes it (`1-0`, `2-0`).
fn result_text(game: &AnyPdnGame) -> &'static str {
    match game {
        AnyPdnGame::Checkers(game) => game.result().to_pdn(game.variant()),
        AnyPdnGame::Board(game) => {
            let variant = game.variant();
            checkers_rules::with_board_variant!(variant, V => {
                game.result().to_pdn_first(<V as checkers_rules::board::RuleSet>::FIRST, variant.pdn_result_style())
            })
        }
    }
}

/// The full name of a file, through symbolic links, whether it exists yet or not.
fn resolve(path: &Path) -> PathBuf {
    if let Ok(full) = fs::canonicalize(path) {
        return full;
    }
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// The temporary file a new version of `path` is written to before it is renamed over it.
fn temporary_beside(path: &Path) -> PathBuf {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    folder.join(format!(".{file_name}.{}.tmp", std::process::id()))
}

/// Whether the file can be written as [`write_replacing`] writes it: creates its temporary
/// file and removes it again.
fn check_writable(path: &Path) -> io::Result<()> {
    let temporary = temporary_beside(path);
    fs::File::create(&temporary)?;
    fs::remove_file(&temporary)
}

/// Replaces a file's contents in one step: writes a temporary file beside it, then renames it
/// over the old one (keeping the old one's permissions).
fn write_replacing(path: &Path, contents: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path);
    let result = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        if let Ok(old) = fs::metadata(path) {
            fs::set_permissions(&temporary, old.permissions())?;
        }
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Today's date (UTC) as PDN writes it: `2026.11.30`.
pub fn pdn_date_today() -> String {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    checkers_rules::pdn_date((seconds / 86_400) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::PdnGame;

    #[test]
    fn calendar_dates() {
        assert_eq!(checkers_rules::pdn_date(0), "1970.01.01");
        assert_eq!(checkers_rules::pdn_date(11_016), "2000.02.29");
        assert_eq!(checkers_rules::pdn_date(20_787), "2026.11.30");
    }

    #[test]
    fn earlier_games_are_kept_and_the_current_one_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        fs::write(&path, "[Event \"old\"]\n\n1. 11-15 *\n\n\n").unwrap();
        let mut record = RecordFile::open(&path).unwrap();
        record.write("[Event \"new\"]\n\n*\n").unwrap();
        record.write("[Event \"new\"]\n\n1. 9-13 *\n").unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text, "[Event \"old\"]\n\n1. 11-15 *\n\n[Event \"new\"]\n\n1. 9-13 *\n");
        record.close_game().unwrap();
        record.write("[Event \"third\"]\n\n*\n").unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("[Event \"old\"]") && text.ends_with("1. 9-13 *\n\n[Event \"third\"]\n\n*\n")
        );
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        record.withdraw().unwrap();
        assert!(fs::read_to_string(&path).unwrap().ends_with("1. 9-13 *\n"));
    }

    /// A game of `plies` moves picked by `seed`, with a comment when `seed` is odd.
    fn game_text(seed: u64, plies: usize, result: PdnResult, event: &str) -> String {
        let mut game = PdnGame::new(checkers_rules::Variant::English);
        let mut x = seed;
        for _ in 0..plies {
            let moves = game.end_position().legal_moves();
            if moves.is_empty() {
                break;
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            game.push(moves[(x >> 33) as usize % moves.len()]).unwrap();
        }
        let _ = game.set_tag("Event", event);
        if seed % 2 == 1 && !game.moves().is_empty() {
            game.set_comment(0, "[a comment] with a bracket");
        }
        game.set_result(result);
        game.to_pdn()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]
        #[test]
        fn the_last_game_is_found_where_its_text_begins(
            earlier in proptest::collection::vec((proptest::num::u64::ANY, 0usize..30), 0..4),
            last in (proptest::num::u64::ANY, 0usize..30),
            blank_lines in 1usize..3,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("games.pdn");
            let separator = "\n".repeat(blank_lines);
            let mut text = String::new();
            for (i, &(seed, plies)) in earlier.iter().enumerate() {
                // Earlier games may be unfinished too, and share the last game's event.
                let result = if i % 2 == 0 { PdnResult::Unknown } else { PdnResult::Draw };
                text.push_str(&game_text(seed, plies, result, "Casual game"));
                text.push_str(&separator);
            }
            let start = text.len();
            text.push_str(&game_text(last.0, last.1, PdnResult::Unknown, "Casual game"));
            fs::write(&path, &text).unwrap();
            let found = last_game(&path).unwrap();
            proptest::prop_assert_eq!(found.text_start, Some(start));
            // Going on with it rewrites it in place and leaves the earlier games as they were.
            let mut record = RecordFile::open_continuing(&path, found.text_start).unwrap();
            record.write("[Event \"next\"]\n\n*\n").unwrap();
            let after = fs::read_to_string(&path).unwrap();
            proptest::prop_assert!(after.starts_with(text[..start].trim_end()));
            proptest::prop_assert_eq!(checkers_rules::read_pdn(&after).unwrap().len(), earlier.len() + 1);
        }
    }

    #[test]
    fn a_withdrawn_first_game_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gamerec.txt");
        let mut record = RecordFile::open(&path).unwrap();
        record.withdraw().unwrap();
        record.write("[Event \"x\"]\n\n1. 9-13 *\n").unwrap();
        assert!(path.exists());
        record.withdraw().unwrap();
        assert!(!path.exists());
    }
}
