//! `checkers hub` driven by pydraughts (PyPI), a Hub client nobody here wrote: whole English
//! and Russian games through its `HubEngine` with `numbering=pydraughts`, its own board
//! refereeing every move (`tests/pydraughts/play_games.py`).
//!
//! The Python environment comes from `scripts/setup-test-deps.sh` (a venv in
//! `target/test-deps/pydraughts-venv`); `CHECKERS_TEST_PYTHON` names another interpreter
//! that has pydraughts. Without one the test is skipped locally but fails when `CI=true`.

mod pydraughts_support;

use std::process::Command;

use pydraughts_support::{python_or_skip, workspace};

#[test]
fn pydraughts_plays_whole_games_against_the_hub_engine() {
    let Some(python) = python_or_skip() else { return };
    let script = workspace().join("tests/pydraughts/play_games.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(["--engine", env!("CARGO_BIN_EXE_checkers")])
        .output()
        .expect("the pydraughts script runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pydraughts games failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all games legal"), "{stdout}");
    // Both variants, whole games: every game against the random mover ends in a win.
    for variant in ["english", "russian"] {
        assert!(
            stdout.lines().filter(|l| l.starts_with(variant) && l.contains(" wins")).count() >= 6,
            "{stdout}"
        );
    }
}
