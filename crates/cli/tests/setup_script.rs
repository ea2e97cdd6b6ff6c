//! `scripts/setup-test-deps.sh`, which `scripts/test.sh` runs first, says what it will do on
//! this machine before it does anything (as root it installs packages, starts PostgreSQL and
//! creates a database user); `--plan` says only that and changes nothing.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_set_up_says_what_it_will_do_first() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(output) =
        Command::new("bash").arg("scripts/setup-test-deps.sh").arg("--plan").current_dir(&root).output()
    else {
        eprintln!("skipping: no bash");
        return;
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("setup-test-deps: what the tests need, and what this does for it here"),
        "{stdout}"
    );
    for need in [
        "  PostgreSQL, for the server's storage tests:",
        "  pydraughts, for the Hub and DXP client tests:",
        "  Chromium, playwright-core and axe-core, for the browser test:",
    ] {
        let at = lines.iter().position(|l| *l == need).unwrap_or_else(|| panic!("no {need:?} in {stdout}"));
        assert!(lines.get(at + 1).is_some_and(|l| l.starts_with("    - ")), "what for {need:?}: {stdout}");
    }
    assert_eq!(lines.last(), Some(&"setup-test-deps: (--plan: nothing was done)"), "{stdout}");
    assert!(!stdout.contains("[1/"), "no step is taken: {stdout}");
}
