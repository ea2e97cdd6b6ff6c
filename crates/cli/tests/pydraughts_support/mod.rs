//! Finding the Python that has pydraughts, for the tests that drive our commands through
//! pydraughts' clients (`pydraughts_client.rs`: Hub; `pydraughts_dxp.rs`: DXP).
//!
//! The Python environment comes from `scripts/setup-test-deps.sh` (a venv in
//! `target/test-deps/pydraughts-venv`); `CHECKERS_TEST_PYTHON` names another interpreter
//! that has pydraughts. Without one a test is skipped locally but fails when `CI=true`.

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Python interpreter that can import pydraughts, if there is one.
pub fn python() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("CHECKERS_TEST_PYTHON").map(PathBuf::from),
        Some(workspace().join("target/test-deps/pydraughts-venv/bin/python")),
    ];
    candidates.into_iter().flatten().find(|python| {
        Command::new(python)
            .args(["-c", "import draughts.engine"])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// The Python with pydraughts; `None` (the test then passes, saying so) when there is none,
/// except under `CI=true`, where that fails the test.
pub fn python_or_skip() -> Option<PathBuf> {
    let python = python();
    if python.is_none() {
        let message =
            "no Python with pydraughts: run scripts/setup-test-deps.sh (or set CHECKERS_TEST_PYTHON)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
    }
    python
}
