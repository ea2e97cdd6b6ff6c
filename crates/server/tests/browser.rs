//! End-to-end in a real browser: runs the scripts in web/e2e (Debian's chromium driven by
//! playwright-core) against the `checkers` binary. play.mjs: two browser contexts play a short
//! game by clicking and have it reviewed by the engine, a third plays the computer, a fourth
//! sees level 9 open from its book, and screenshots go to artifacts/. access.mjs: one player
//! moves by keyboard alone and the other by dragging, a premove is played when its turn comes,
//! moves are animated except with reduced motion, the sound switch is kept, the analysis board
//! plays a pasted game on with the engine's arrows, and axe-core finds no serious or critical
//! violation on the lobby, the game page, a missing game's page and the analysis board.
//! rated.mjs: accounts, a rated pool, challenges, takebacks and aborts (see its test).
//! variants.mjs: every variant in the forms, 10x10 and Turkish games played by clicking, the
//! analysis board's start positions (see its test). Needs node, /usr/bin/chromium and
//! web/e2e/node_modules (playwright-core and axe-core; scripts/setup-test-deps.sh installs
//! them); skipped without them, except on CI (CI=true), where that is a failure.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// Runs `web/e2e/{script}` and expects its closing line to say `checks` passed, none failed.
fn run_script(script: &str, checks: usize) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let node_ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let modules = root.join("web/e2e/node_modules");
    let missing: Vec<&str> = [
        (!node_ok).then_some("node"),
        (!PathBuf::from("/usr/bin/chromium").exists()).then_some("/usr/bin/chromium"),
        (!modules.join("playwright-core").exists()).then_some("web/e2e/node_modules/playwright-core"),
        (!modules.join("axe-core").exists()).then_some("web/e2e/node_modules/axe-core"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        let message = format!("browser test needs {} (run scripts/setup-test-deps.sh)", missing.join(", "));
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{message}");
        }
        eprintln!("skipping: {message}");
        return;
    }
    let output = Command::new("node")
        .arg(root.join("web/e2e").join(script))
        .arg(common::checkers_binary())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{script} failed:\n{stdout}");
    assert!(stdout.contains(&format!("{checks} passed, 0 failed")), "{stdout}");
}

#[test]
fn two_browsers_play_by_clicking_and_one_plays_the_computer() {
    run_script("play.mjs", 3);
}

/// rated.mjs: two accounts pair in a rated pool and play by keyboard and by dragging to a
/// rating change and the profile's graph; a seat follows its account to another device; a
/// spectator follows the rematch; a challenge declined and one accepted, a takeback and an
/// abort; axe-core on the account forms, a challenge, a rated game's end, the profile and the
/// leaderboard.
#[test]
fn accounts_pair_play_a_rated_game_and_answer_challenges_in_the_browser() {
    run_script("rated.mjs", 2);
}

#[test]
fn keyboard_drag_and_drop_premove_the_analysis_board_and_axe_core_find_no_serious_violation() {
    run_script("access.mjs", 3);
}

/// variants.mjs: every variant offered by its title; games against the computer in
/// International draughts (a 10x10 board of 50 numbered squares, screenshot in
/// artifacts/e2e-international.png) and Turkish draughts (all 64 squares, moves along ranks and
/// files) played by clicking; the analysis board's start positions on 10x10, 12x12, Italian's
/// mirrored board and Turkish's; axe-core on the 10x10 game.
#[test]
fn every_variant_is_offered_and_10x10_and_turkish_games_are_played_by_clicking() {
    run_script("variants.mjs", 4);
}
