//! `checkers hub` driven by pydraughts (PyPI), a Hub client nobody here wrote: whole games of
//! every variant pydraughts has (English, Russian, International, Frisian, Frysk!,
//! Antidraughts, Breakthrough, Brazilian, Italian, Turkish) through its `HubEngine` with
//! `numbering=pydraughts`, its own board refereeing every move
//! (`tests/pydraughts/play_games.py`).
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
    // English and Russian, whole games: every game against the random mover ends in a win.
    for variant in ["english", "russian"] {
        assert!(
            stdout.lines().filter(|l| l.starts_with(variant) && l.contains(" wins")).count() >= 6,
            "{stdout}"
        );
    }
    // Every other variant pydraughts has: a game between two limits, and the engine beating
    // the random mover with each colour.
    for variant in [
        "international",
        "frisian",
        "frysk",
        "antidraughts",
        "breakthrough",
        "brazilian",
        "italian",
        "turkish",
    ] {
        let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with(&format!("{variant} "))).collect();
        assert!(games.len() >= 3, "{variant}: {stdout}");
        for side in ["White", "Black"] {
            let against_random = format!("{variant} engine as {side} vs random: ");
            let line = games.iter().find(|l| l.starts_with(&against_random));
            assert!(line.is_some_and(|l| l.ends_with(&format!("{side} wins"))), "{variant}: {stdout}");
        }
    }
}
