//! `checkers dxp --listen` driven by pydraughts (PyPI), a DXP client nobody here wrote: whole
//! games through its `DXPEngine` in every 10x10 variant it has, its own board refereeing every
//! move (`tests/pydraughts/dxp_games.py`): against a random mover with each colour, from a
//! set-up position, the engine against itself, and a move taken back (BACKREQ).
//!
//! Needs the Python of `scripts/setup-test-deps.sh` (see `pydraughts_support`): skipped
//! without it, except under `CI=true`.

mod pydraughts_support;

use std::process::Command;

use pydraughts_support::{python_or_skip, workspace};

#[test]
fn pydraughts_plays_whole_games_against_the_dxp_engine() {
    let Some(python) = python_or_skip() else { return };
    let script = workspace().join("tests/pydraughts/dxp_games.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(["--engine", env!("CARGO_BIN_EXE_checkers")])
        .output()
        .expect("the pydraughts script runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pydraughts DXP games failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all games legal"), "{stdout}");
    // Against a random mover the engine wins in International, Frisian and Breakthrough (the
    // script fails otherwise); every variant's games are played.
    for (variant, games) in
        [("standard", 3), ("frisian", 2), ("frysk!", 1), ("antidraughts", 1), ("breakthrough", 1)]
    {
        let played = stdout
            .lines()
            .filter(|l| l.starts_with(&format!("{variant} engine as ")) && l.contains(" plies, "))
            .count();
        assert_eq!(played, games, "{variant}:\n{stdout}");
    }
    let wins = stdout.lines().filter(|l| l.contains(" vs random") && l.ends_with(", engine wins")).count();
    assert!(wins >= 5, "{stdout}");
    assert!(stdout.contains("took back from ply"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("standard engine vs engine: ")), "{stdout}");
}
