//! Fingerprints the code a database's values follow from (this crate's and the rules
//! library's sources), so that a database saved to disk by one build is not read back by a
//! build whose rules differ: `ENDGAME_SOURCE_FINGERPRINT`, a 64-bit FNV-1a hash of the files'
//! paths and contents in a fixed order.

use std::path::{Path, PathBuf};

fn main() {
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // In the workspace the rules library sits beside this crate; a copy built elsewhere
    // (from a registry) falls back on the versions, which registries never reuse.
    let sources = [here.join("src"), here.join("../rules/src")];
    let mut files = Vec::new();
    for dir in &sources {
        println!("cargo:rerun-if-changed={}", dir.display());
        collect(dir, &mut files);
    }
    files.sort();
    let mut hash = Fnv::new();
    hash.add(env!("CARGO_PKG_VERSION").as_bytes());
    for file in &files {
        let relative = file.strip_prefix(&here).unwrap_or(file);
        hash.add(relative.to_string_lossy().as_bytes());
        hash.add(&std::fs::read(file).unwrap_or_default());
    }
    println!("cargo:rustc-env=ENDGAME_SOURCE_FINGERPRINT={:016x}", hash.0);
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        // The length first, so that moving bytes from one file to the next changes the hash.
        for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
