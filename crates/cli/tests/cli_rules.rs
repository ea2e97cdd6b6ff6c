//! The command-line contract of `checkers moves` and `checkers perft` (docs/protocol.md, "The command line"), through the
//! real binary: exact outputs, the Hub and algebraic forms, `--divide` lines, and bad input
//! answered with one line on standard error and exit code 2.
//!
//! The expected lists are worked out by hand from docs/rules.md (the same positions as the rules
//! library's named tests, where the reasoning is written out).

use std::process::{Command, Output};

fn checkers(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkers")).args(args).output().expect("the checkers binary runs")
}

/// Runs a command that must succeed and returns its standard output.
fn stdout_of(args: &[&str]) -> String {
    let out = checkers(args);
    assert!(
        out.status.success(),
        "checkers {args:?} failed with {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("output is UTF-8")
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// Asserts that a command is refused: exit code 2, nothing on standard output, one line on
/// standard error that contains `mentions`.
fn assert_refused(args: &[&str], mentions: &str) {
    let out = checkers(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "checkers {args:?}: exit code; stderr: {stderr}");
    assert!(out.stdout.is_empty(), "checkers {args:?} printed {:?}", String::from_utf8_lossy(&out.stdout));
    let error_lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(error_lines.len(), 1, "checkers {args:?}: one line on stderr, got {stderr:?}");
    assert!(
        stderr.contains(mentions),
        "checkers {args:?}: the error should mention `{mentions}`: {stderr:?}"
    );
}

const TURKISH_STRIKE: &str = "W:WK28:B14,24,26,27";

#[test]
fn moves_from_the_english_start() {
    let expected = ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"];
    assert_eq!(lines(&stdout_of(&["moves", "--variant", "english"])), expected);
    // English is the default, and ranges and either list order are accepted.
    assert_eq!(lines(&stdout_of(&["moves"])), expected);
    assert_eq!(lines(&stdout_of(&["moves", "--fen", "B:B1-12:W21-32"])), expected);
}

#[test]
fn moves_from_the_russian_start_in_both_notations() {
    assert_eq!(
        lines(&stdout_of(&["moves", "--variant", "russian"])),
        ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    );
    assert_eq!(
        lines(&stdout_of(&["moves", "--variant", "russian", "--notation", "algebraic"])),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}

#[test]
fn russian_captures_in_every_format() {
    let base = ["moves", "--variant", "russian", "--fen", TURKISH_STRIKE];
    assert_eq!(lines(&stdout_of(&base)), ["28x10x17x31", "28x19x30"]);
    let with = |extra: &[&str]| stdout_of(&[&base[..], extra].concat());
    assert_eq!(lines(&with(&["--notation", "algebraic"])), ["h2xd6xb4xe1", "h2xf4xc1"]);
    // Hub: from, to, then the captured squares in ascending order.
    assert_eq!(lines(&with(&["--format", "hub"])), ["28x30x24x26", "28x31x14x24x26"]);
    assert_eq!(lines(&with(&["--format", "pdn"])), ["28x10x17x31", "28x19x30"]);
}

#[test]
fn hub_format_lists_captured_squares_ascending() {
    // The English king loop: one move, whichever way round.
    assert_eq!(
        lines(&stdout_of(&["moves", "--fen", "B:W10,11,18,19,27:BK32", "--format", "hub"])),
        ["32x23x10x11x18x19x27"]
    );
    assert_eq!(lines(&stdout_of(&["moves", "--format", "hub", "--fen", "B:W14:B9,12"])), ["9x18x14"]);
    // Quiet moves are `from-to`.
    assert_eq!(lines(&stdout_of(&["moves", "--format", "hub", "--fen", "W:W22:B1"])), ["22-17", "22-18"]);
}

#[test]
fn no_legal_move_prints_nothing() {
    for variant in ["english", "russian"] {
        assert_eq!(stdout_of(&["moves", "--variant", variant, "--fen", "W:W29:B22,25"]), "");
        assert_eq!(stdout_of(&["moves", "--variant", variant, "--fen", "W:W:B1"]), "");
    }
}

#[test]
fn perft_prints_the_count_on_the_last_line() {
    let last = |args: &[&str]| stdout_of(args).lines().last().map(str::to_string);
    assert_eq!(last(&["perft", "--variant", "english", "--depth", "5"]).as_deref(), Some("7361"));
    assert_eq!(last(&["perft", "--variant", "russian", "--depth", "5"]).as_deref(), Some("7482"));
    assert_eq!(last(&["perft", "--variant", "russian", "--depth", "6"]).as_deref(), Some("37986"));
    assert_eq!(
        last(&["perft", "--variant", "english", "--fen", "W:W:B1", "--depth", "3"]).as_deref(),
        Some("0")
    );
}

#[test]
fn perft_paths_counts_each_route() {
    // Two routes round the loop, one move.
    let fen = "B:W10,11,18,19,27:BK32";
    assert_eq!(stdout_of(&["perft", "--fen", fen, "--depth", "1"]).trim(), "1");
    assert_eq!(stdout_of(&["perft", "--fen", fen, "--depth", "1", "--paths"]).trim(), "2");
    assert_eq!(stdout_of(&["perft", "--depth", "7", "--paths"]).lines().last(), Some("179740"));
}

#[test]
fn perft_divide_lines() {
    // After each of Black's seven first moves White has seven replies.
    let out = stdout_of(&["perft", "--variant", "english", "--depth", "2", "--divide"]);
    assert_eq!(
        lines(&out),
        ["10-14 7", "10-15 7", "11-15 7", "11-16 7", "12-16 7", "9-13 7", "9-14 7", "49"]
    );
    // Turkish strike position: after 28x10x17x31 Black has only f2-g1 (27-32); after 28x19x30
    // Black has c5-b4, c5-d4, f2-e1, f2-g1.
    let out =
        stdout_of(&["perft", "--variant", "russian", "--fen", TURKISH_STRIKE, "--depth", "2", "--divide"]);
    assert_eq!(lines(&out), ["28x10x17x31 1", "28x19x30 4", "5"]);
}

#[test]
fn bad_fen_is_refused_with_one_line() {
    assert_refused(&["moves", "--fen", "W:W33:B1"], "33");
    assert_refused(&["moves", "--fen", "X:W21:B1"], "X");
    assert_refused(&["moves", "--fen", ""], "FEN");
    assert_refused(&["moves", "--fen", "W:W21-40:B1"], "21-40");
    assert_refused(&["perft", "--fen", "W:W21:B1:B2", "--depth", "1"], "FEN");
}

/// `--moves` plays moves from the start (or the FEN) first, move numbers skipped, and names
/// the first move it cannot play.
#[test]
fn moves_lead_to_the_position() {
    assert_eq!(lines(&stdout_of(&["moves", "--moves", "11-15 22-18"])), ["15x22"]);
    assert_eq!(lines(&stdout_of(&["moves", "--moves", "1. 11-15 22-18 2. 15x22"])), ["25x18", "26x17"]);
    assert_eq!(
        stdout_of(&["perft", "--moves", "11-15 22-18 15x22", "--depth", "4"]),
        stdout_of(&["perft", "--fen", "W:W21,23-32:B1-10,12,22", "--depth", "4"])
    );
    assert_eq!(
        stdout_of(&["moves", "--variant", "russian", "--moves", "22-17 11-16"]),
        stdout_of(&["moves", "--variant", "russian", "--fen", "W:W17,21,23-32:B1-10,12,16"])
    );
    assert_refused(&["moves", "--moves", "11-15 22-18 15-19"], "move 3 `15-19`");
    assert_refused(&["moves", "--moves", "11-15 banana"], "move 2 `banana`");
    assert_refused(&["perft", "--moves", "23-19", "--depth", "1"], "move 1 `23-19`");
}

#[test]
fn invalid_position_is_refused_with_one_line() {
    // A White man on square 1, its crowning row.
    assert_refused(&["moves", "--fen", "W:W1:B12"], "crowning");
    assert_refused(&["perft", "--variant", "russian", "--fen", "W:W21:B29", "--depth", "2"], "crowning");
    assert_refused(&["moves", "--fen", "W:W5:B5"], "5");
    assert_refused(&["moves", "--fen", "W:W5-17:B1"], "13");
}

#[test]
fn unknown_variant_is_refused_with_one_line() {
    assert_refused(&["moves", "--variant", "chess"], "chess");
    assert_refused(&["perft", "--variant", "chess", "--depth", "1"], "chess");
}

#[test]
fn bad_numbers_are_refused_with_one_line() {
    assert_refused(&["perft", "--depth", "x"], "x");
    assert_refused(&["perft", "--depth", "99"], "99");
    assert_refused(&["moves", "--notation", "roman"], "roman");
}

/// `checkers` alone shows the help as clap lays it out, not squashed into an error line.
#[test]
fn no_arguments_print_the_help() {
    let out = checkers(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(!stderr.starts_with("error:"), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines.contains(&"Usage: checkers <COMMAND>"), "{stderr}");
    assert!(lines.contains(&"Commands:"), "{stderr}");
    assert!(lines.iter().any(|l| l.trim_start().starts_with("play ")), "{stderr}");
}

/// What an error quotes of bad input shows escaped: the bell and escape sequences in a FEN or
/// a move do not reach the terminal.
#[test]
fn bad_input_is_shown_escaped() {
    assert_refused(&["moves", "--fen", "\u{7}W:W21:B1\u{1b}[31m"], "`\\u{7}W:W21:B1\\u{1b}[31m`");
    assert_refused(&["moves", "--moves", "11-15 \u{7}22-18"], "move 2 `\\u{7}22-18`");
    for args in [
        &["moves", "--fen", "\u{7}\u{1b}[2J"][..],
        &["moves", "--moves", "9-13\u{7}"],
        &["moves", "--variant", "\u{7}"],
    ] {
        let stderr = String::from_utf8(checkers(args).stderr).unwrap();
        assert!(!stderr.chars().any(|c| c.is_control() && c != '\n'), "{args:?}: {stderr:?}");
    }
}

/// Depths beyond the deepest published count are refused; deep ones are warned about first
/// (on a position without moves, so that the test itself is instant).
#[test]
fn perft_depth_is_bounded_and_deep_runs_are_warned_about() {
    let stalemate = ["perft", "--fen", "W:W:B1", "--depth"];
    assert_refused(&[&stalemate[..], &["29"]].concat(), "--depth 29 is beyond reach");
    assert_refused(&[&stalemate[..], &["30"]].concat(), "28 is the deepest count ever published");
    let deep = checkers(&[&stalemate[..], &["28"]].concat());
    assert!(deep.status.success());
    assert_eq!(String::from_utf8_lossy(&deep.stdout), "0\n");
    assert!(String::from_utf8_lossy(&deep.stderr).starts_with("warning: perft to depth 28 can take hours"));
    let shallow = checkers(&[&stalemate[..], &["15"]].concat());
    assert!(!String::from_utf8_lossy(&shallow.stderr).contains("warning"));
}
