//! End-to-end in a real browser: runs web/e2e/play.mjs (Debian's chromium driven by
//! playwright-core) against the `checkers` binary: two browser contexts play a short game by
//! clicking and have it reviewed by the engine, a third plays the computer, a fourth sees level
//! 9 open from its book, and screenshots go to artifacts/. Needs node,
//! /usr/bin/chromium and web/e2e/node_modules (scripts/setup-test-deps.sh installs them);
//! skipped without them, except on CI (CI=true), where that is a failure.

mod common;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn two_browsers_play_by_clicking_and_one_plays_the_computer() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let node_ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let missing: Vec<&str> = [
        (!node_ok).then_some("node"),
        (!PathBuf::from("/usr/bin/chromium").exists()).then_some("/usr/bin/chromium"),
        (!root.join("web/e2e/node_modules/playwright-core").exists()).then_some("web/e2e/node_modules"),
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
        .arg(root.join("web/e2e/play.mjs"))
        .arg(common::checkers_binary())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "browser test failed:\n{stdout}");
    assert!(stdout.contains("3 passed, 0 failed"), "{stdout}");
}
