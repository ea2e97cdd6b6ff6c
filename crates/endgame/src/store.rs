//! Saving a solved database to disk and reading it back, so that a program started many
//! times (`checkers analyse` in a script, a test suite) solves it once, not at every start.
//!
//! The file holds a header (a magic number, the variant, the piece count and the fingerprint
//! of the sources the values follow from), every slice's two packed arrays and counts in
//! solving order, and an FNV-1a checksum of all that. Reading checks each part against what
//! this build expects: a file from another build, a truncated or altered one is refused with
//! the reason, never half used.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use checkers_rules::Variant;
use thiserror::Error;

use crate::index::{Material, SliceIndex};
use crate::{BuildError, Database, Slice};

const MAGIC: &[u8; 8] = b"CKEGDB\x00\x01";

/// The fingerprint of the code this build's values follow from (see `build.rs`).
pub const SOURCE_FINGERPRINT: &str = env!("ENDGAME_SOURCE_FINGERPRINT");

/// Why a saved database was not read.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("cannot read the database file: {0}")]
    Io(#[from] io::Error),
    #[error("not an endgame database file")]
    NotADatabase,
    #[error("the file holds a database of {found}, not of {wanted}")]
    Other { found: String, wanted: String },
    #[error("the file was written by a build with other rules or database code")]
    Stale,
    #[error("the file is damaged: {0}")]
    Damaged(&'static str),
}

impl Database {
    /// Writes the database in the format [`Database::load`] reads.
    pub fn save(&self, out: &mut impl Write) -> io::Result<()> {
        let mut out = Checksummed::new(out);
        out.put(MAGIC)?;
        out.put(&[variant_code(self.variant), self.max_pieces as u8])?;
        out.put(&fingerprint()?.to_le_bytes())?;
        for material in Material::solving_order(self.max_pieces) {
            let slice = self.slices[material.key(self.max_pieces)]
                .as_ref()
                .ok_or_else(|| io::Error::other("a database with a slice missing"))?;
            for packed in &slice.packed {
                out.put(packed)?;
            }
            for count in slice.counts {
                out.put(&count.to_le_bytes())?;
            }
        }
        let sum = out.sum;
        out.inner.write_all(&sum.to_le_bytes())
    }

    /// Reads a database written by [`Database::save`] of this very build, for `variant` with
    /// `max_pieces` pieces.
    pub fn load(input: &mut impl Read, variant: Variant, max_pieces: u32) -> Result<Database, LoadError> {
        let mut input = Checksummed::new(input);
        let mut magic = [0u8; 8];
        input.take(&mut magic).map_err(|_| LoadError::NotADatabase)?;
        if &magic != MAGIC {
            return Err(LoadError::NotADatabase);
        }
        let mut header = [0u8; 10];
        input.take(&mut header)?;
        let (found_variant, found_pieces) = (header[0], u32::from(header[1]));
        if found_variant != variant_code(variant) || found_pieces != max_pieces {
            let name = |code: u8| match code {
                1 => Variant::English.to_string(),
                2 => Variant::Russian.to_string(),
                _ => "an unknown variant".to_string(),
            };
            return Err(LoadError::Other {
                found: format!("{} with {found_pieces} pieces", name(found_variant)),
                wanted: format!("{variant} with {max_pieces} pieces"),
            });
        }
        let written_by = u64::from_le_bytes(header[2..].try_into().expect("eight bytes"));
        if Some(written_by) != fingerprint().ok() {
            return Err(LoadError::Stale);
        }
        if !(2..=crate::MAX_PIECES).contains(&max_pieces) {
            return Err(LoadError::Damaged("a piece count no database has"));
        }
        let mut db = Database { variant, max_pieces, slices: Vec::new() };
        db.slices.resize_with(Material::key_count(max_pieces), || None);
        for material in Material::solving_order(max_pieces) {
            let index = SliceIndex::new(material);
            let bytes = index.size().div_ceil(4);
            let mut packed = [vec![0u8; bytes], vec![0u8; bytes]];
            for side in &mut packed {
                input.take(side).map_err(|_| LoadError::Damaged("it ends early"))?;
            }
            let mut counts = [0u64; 3];
            for count in &mut counts {
                let mut word = [0u8; 8];
                input.take(&mut word).map_err(|_| LoadError::Damaged("it ends early"))?;
                *count = u64::from_le_bytes(word);
            }
            db.slices[material.key(max_pieces)] = Some(Slice { index, packed, counts });
        }
        let expected = input.sum;
        let mut word = [0u8; 8];
        input.inner.read_exact(&mut word).map_err(|_| LoadError::Damaged("it ends early"))?;
        if u64::from_le_bytes(word) != expected {
            return Err(LoadError::Damaged("its checksum does not match"));
        }
        if input.inner.read(&mut [0u8; 1])? != 0 {
            return Err(LoadError::Damaged("it goes on after the database"));
        }
        Ok(db)
    }

    /// The database from `dir` if this build saved it there, else solved now and saved there
    /// for next time (through a temporary file and a rename, so that programs started side by
    /// side never read a half-written file). Failing to read or write the cache only costs
    /// the time of solving.
    pub fn cached(variant: Variant, max_pieces: u32, dir: Option<&Path>) -> Result<Database, BuildError> {
        let Some(dir) = dir else { return Database::build(variant, max_pieces) };
        let path = cache_file(dir, variant, max_pieces);
        if let Ok(db) = std::fs::File::open(&path)
            .map_err(LoadError::from)
            .and_then(|f| Database::load(&mut io::BufReader::new(f), variant, max_pieces))
        {
            return Ok(db);
        }
        let db = Database::build(variant, max_pieces)?;
        if save_file(&db, dir, &path).is_ok() {
            remove_other_builds_files(dir, &path);
        }
        Ok(db)
    }
}

/// The file a build keeps its database of `variant` in: the fingerprint is in the name, so
/// builds with other rules keep theirs apart instead of overwriting each other's.
pub fn cache_file(dir: &Path, variant: Variant, max_pieces: u32) -> PathBuf {
    let name = if variant == Variant::Russian { "russian" } else { "english" };
    dir.join(format!("endgame-{name}-{max_pieces}-{SOURCE_FINGERPRINT}.db"))
}

/// Removes the files of this variant and piece count that other builds (other fingerprints)
/// left in `dir`, so that the folder does not grow with every change of the rules code.
fn remove_other_builds_files(dir: &Path, kept: &Path) {
    let (Some(kept_name), Ok(entries)) = (kept.file_name().and_then(|n| n.to_str()), std::fs::read_dir(dir))
    else {
        return;
    };
    let Some(prefix) = kept_name.strip_suffix(&format!("{SOURCE_FINGERPRINT}.db")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let fingerprint = name.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(".db"));
        if fingerprint.is_some_and(|f| {
            f != SOURCE_FINGERPRINT && f.len() == 16 && f.bytes().all(|b| b.is_ascii_hexdigit())
        }) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn save_file(db: &Database, dir: &Path, path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let temporary = path.with_extension(format!("{}.part", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|file| {
        let mut out = io::BufWriter::new(file);
        db.save(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&temporary, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            Err(e)
        }
    }
}

fn fingerprint() -> io::Result<u64> {
    u64::from_str_radix(SOURCE_FINGERPRINT, 16).map_err(io::Error::other)
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::English => 1,
        Variant::Russian => 2,
    }
}

/// A reader or writer that hashes (64-bit FNV-1a) the bytes it passes.
struct Checksummed<T> {
    inner: T,
    sum: u64,
}

impl<T> Checksummed<T> {
    fn new(inner: T) -> Checksummed<T> {
        Checksummed { inner, sum: 0xcbf2_9ce4_8422_2325 }
    }

    fn hash(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.sum = (self.sum ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl<W: Write> Checksummed<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hash(bytes);
        self.inner.write_all(bytes)
    }
}

impl<R: Read> Checksummed<R> {
    fn take(&mut self, buffer: &mut [u8]) -> io::Result<()> {
        self.inner.read_exact(buffer)?;
        self.hash(buffer);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(db: &Database) -> Vec<u8> {
        let mut bytes = Vec::new();
        db.save(&mut bytes).unwrap();
        bytes
    }

    fn same(a: &Database, b: &Database) -> bool {
        a.variant == b.variant
            && a.max_pieces == b.max_pieces
            && a.slices.len() == b.slices.len()
            && a.slices.iter().zip(&b.slices).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => x.packed == y.packed && x.counts == y.counts,
                (None, None) => true,
                _ => false,
            })
    }

    #[test]
    fn a_saved_database_reads_back_the_same() {
        for variant in [Variant::English, Variant::Russian] {
            let db = Database::build(variant, 3).unwrap();
            let bytes = saved(&db);
            let back = Database::load(&mut bytes.as_slice(), variant, 3).unwrap();
            assert!(same(&db, &back), "{variant}");
            assert_eq!(back.counts(), db.counts());
        }
    }

    #[test]
    fn files_of_other_builds_or_damaged_ones_are_refused_with_the_reason() {
        let db = Database::build(Variant::English, 3).unwrap();
        let bytes = saved(&db);
        let load = |bytes: &[u8], variant, pieces| Database::load(&mut &bytes[..], variant, pieces);
        assert!(matches!(load(&bytes, Variant::Russian, 3), Err(LoadError::Other { .. })));
        let other = load(&bytes, Variant::English, 4).unwrap_err();
        assert_eq!(
            other.to_string(),
            "the file holds a database of english with 3 pieces, not of english with 4 pieces"
        );
        assert!(matches!(load(b"", Variant::English, 3), Err(LoadError::NotADatabase)));
        assert!(matches!(
            load(b"PDN file, not a database", Variant::English, 3),
            Err(LoadError::NotADatabase)
        ));
        // Bytes 10-17 are the fingerprint of the build that wrote the file.
        let mut stale = bytes.clone();
        stale[12] ^= 1;
        assert!(matches!(load(&stale, Variant::English, 3), Err(LoadError::Stale)));
        let mut altered = bytes.clone();
        altered[bytes.len() / 2] ^= 0x40;
        let why = load(&altered, Variant::English, 3).unwrap_err();
        assert_eq!(why.to_string(), "the file is damaged: its checksum does not match");
        for cut in [19, bytes.len() / 3, bytes.len() - 1] {
            let why = load(&bytes[..cut], Variant::English, 3).unwrap_err();
            assert_eq!(why.to_string(), "the file is damaged: it ends early", "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(load(&longer, Variant::English, 3), Err(LoadError::Damaged(_))));
    }

    fn two_piece_file() -> &'static [u8] {
        static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        BYTES.get_or_init(|| saved(&Database::build(Variant::Russian, 2).unwrap()))
    }

    proptest::proptest! {
        /// Whatever a file holds, reading it returns an answer, never a panic; a file with
        /// any byte changed, or cut short anywhere, is refused.
        #[test]
        fn any_change_to_a_file_is_refused(at in 0usize..10_000, xor in 1u8..=255, cut: bool) {
            let mut bytes = two_piece_file().to_vec();
            let at = at % bytes.len();
            if cut {
                bytes.truncate(at);
            } else {
                bytes[at] ^= xor;
            }
            proptest::prop_assert!(Database::load(&mut bytes.as_slice(), Variant::Russian, 2).is_err());
        }

        #[test]
        fn random_bytes_are_refused(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let mut with_magic = MAGIC.to_vec();
            with_magic.extend_from_slice(&bytes);
            for file in [bytes, with_magic] {
                proptest::prop_assert!(Database::load(&mut file.as_slice(), Variant::English, 4).is_err());
            }
        }
    }

    #[test]
    fn the_cache_is_written_once_and_a_damaged_one_is_replaced() {
        let dir = std::env::temp_dir().join(format!("checkers-endgame-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = cache_file(&dir, Variant::Russian, 3);
        let first = Database::cached(Variant::Russian, 3, Some(&dir)).unwrap();
        let written = std::fs::read(&path).unwrap();
        assert!(same(&first, &Database::load(&mut written.as_slice(), Variant::Russian, 3).unwrap()));
        // Read back, not solved again: a database that differs from the solved one shows it.
        let mut counts_changed = Database::load(&mut written.as_slice(), Variant::Russian, 3).unwrap();
        for slice in counts_changed.slices.iter_mut().flatten() {
            slice.counts = [7, 7, 7];
        }
        let mut file = std::fs::File::create(&path).unwrap();
        counts_changed.save(&mut file).unwrap();
        drop(file);
        let second = Database::cached(Variant::Russian, 3, Some(&dir)).unwrap();
        assert!(same(&second, &counts_changed));
        // A damaged file is solved again and rewritten.
        std::fs::write(&path, &written[..100]).unwrap();
        let third = Database::cached(Variant::Russian, 3, Some(&dir)).unwrap();
        assert!(same(&third, &first));
        assert_eq!(std::fs::read(&path).unwrap(), written);
        // No leftovers from the temporary files.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // Another build's file of the same database is removed when this one is written;
        // other files stay.
        let other_build = dir.join("endgame-russian-3-0123456789abcdef.db");
        let unrelated = [dir.join("endgame-english-3-0123456789abcdef.db"), dir.join("notes.txt")];
        for file in unrelated.iter().chain([&other_build]) {
            std::fs::write(file, b"x").unwrap();
        }
        std::fs::remove_file(&path).unwrap();
        Database::cached(Variant::Russian, 3, Some(&dir)).unwrap();
        assert!(path.exists() && !other_build.exists());
        assert!(unrelated.iter().all(|file| file.exists()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
