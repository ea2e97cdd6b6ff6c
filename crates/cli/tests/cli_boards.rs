//! `checkers moves` and `checkers perft` for the variants on boards of any size
//! (International, Brazilian, Canadian, the national 8x8 games), through the real binary: the same contracts as for
//! English and Russian (docs/protocol.md, "The command line"), published perft figures, the
//! long and Hub move forms, and bad input (a square 51, an 8x8 FEN on 10x10) refused with one
//! line and exit code 2. Commands the engine runs refuse these variants, saying so.

use std::process::{Command, Output};

fn checkers(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkers")).args(args).output().expect("the checkers binary runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = checkers(args);
    assert!(out.status.success(), "checkers {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("output is UTF-8")
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn assert_refused(args: &[&str], mentions: &str) {
    let out = checkers(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "checkers {args:?}: exit code; stderr: {stderr}");
    assert!(out.stdout.is_empty(), "checkers {args:?} printed {:?}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(stderr.lines().count(), 1, "checkers {args:?}: one line on stderr, got {stderr:?}");
    assert!(stderr.contains(mentions), "checkers {args:?}: should mention `{mentions}`: {stderr:?}");
}

#[test]
fn international_moves_from_the_start() {
    assert_eq!(
        lines(&stdout_of(&["moves", "--variant", "international"])),
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    );
}

/// A flying king's capture of two pieces on one diagonal: the long form names the stop just
/// beyond the first piece taken (docs/rules.md, "Moves and move text"), the Hub form the
/// captured squares, ascending.
#[test]
fn international_king_capture_in_both_forms() {
    let base = ["moves", "--variant", "international", "--fen", "W:WK46:B37,19"];
    assert_eq!(lines(&stdout_of(&base)), ["46x32x10", "46x32x14", "46x32x5"]);
    let hub = stdout_of(&[&base[..], &["--format", "hub"]].concat());
    assert_eq!(lines(&hub), ["46x10x19x37", "46x14x19x37", "46x5x19x37"]);
}

/// Turkish, whose squares are named (the contract's example: `a3-a4`, `a6xa4xa5`): a man's
/// strike forward and sideways, the captured square last in the Hub form.
#[test]
fn turkish_moves_by_name() {
    let start = stdout_of(&["moves", "--variant", "turkish", "--notation", "algebraic"]);
    assert_eq!(lines(&start), ["a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"]);
    let hub = ["moves", "--variant", "turkish", "--format", "hub", "--notation", "algebraic"];
    let strike = stdout_of(&[&hub[..], &["--fen", "B:Wa5,h2:Ba6,h8"]].concat());
    assert_eq!(lines(&strike), ["a6xa4xa5"]);
    assert_eq!(lines(&stdout_of(&["perft", "--variant", "turkish", "--depth", "4"])).last(), Some(&"7538"));
}

#[test]
fn published_perft_figures() {
    // International 1-5 and Brazilian 1-6 (docs/rules.md); Canadian depth 4 is ours, agreed by
    // the rules library's separate reference generator.
    assert_eq!(
        lines(&stdout_of(&["perft", "--variant", "international", "--depth", "5"])).last(),
        Some(&"27117")
    );
    assert_eq!(
        lines(&stdout_of(&["perft", "--variant", "brazilian", "--depth", "6"])).last(),
        Some(&"37628")
    );
    let threads = stdout_of(&["perft", "--variant", "canadian", "--depth", "4", "--threads", "2"]);
    assert_eq!(lines(&threads).last(), Some(&"10053"));
    // The national 8x8 games: Italian and Pool at depth 6 as published; Spanish (its board
    // mirrored, White on 1-12) opens with the same seven moves as Pool's Black.
    assert_eq!(lines(&stdout_of(&["perft", "--variant", "italian", "--depth", "6"])).last(), Some(&"36473"));
    assert_eq!(lines(&stdout_of(&["perft", "--variant", "pool", "--depth", "6"])).last(), Some(&"37986"));
    // Frisian and Frysk! as pydraughts counts them; Antidraughts moves as International.
    assert_eq!(lines(&stdout_of(&["perft", "--variant", "frisian", "--depth", "5"])).last(), Some(&"21265"));
    assert_eq!(lines(&stdout_of(&["perft", "--variant", "frysk", "--depth", "5"])).last(), Some(&"41829"));
    assert_eq!(
        lines(&stdout_of(&["perft", "--variant", "antidraughts", "--depth", "5"])).last(),
        Some(&"27117")
    );
    assert_eq!(
        lines(&stdout_of(&["moves", "--variant", "spanish"])),
        ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
    );
}

#[test]
fn perft_divide_and_moves_after_moves() {
    let out = stdout_of(&["perft", "--variant", "international", "--depth", "2", "--divide"]);
    let out = lines(&out);
    assert_eq!(out.len(), 10);
    assert_eq!(out[0], "31-26 9");
    assert_eq!(out[9], "81");
    // After 32-28 19-23, White must take: 28x19.
    let after = ["moves", "--variant", "international", "--moves", "1. 32-28 19-23", "--format", "hub"];
    assert_eq!(lines(&stdout_of(&after)), ["28x19x23"]);
}

#[test]
fn bad_input_is_refused_with_one_line() {
    assert_refused(&["moves", "--variant", "international", "--fen", "W:W31-50:B1-20,51"], "51");
    assert_refused(&["moves", "--variant", "international", "--fen", "W:Wc3:B1"], "c3");
    assert_refused(&["moves", "--variant", "brazilian", "--fen", "W:W33:B1"], "33");
    assert_refused(&["moves", "--variant", "international", "--moves", "32-27 32-28"], "32-28");
    assert_refused(&["moves", "--variant", "international", "--notation", "algebraic"], "numbers");
    assert_refused(&["perft", "--variant", "international", "--depth", "3", "--hash", "16"], "--hash");
    // `play` plays every variant; a FEN of another board is refused before the game starts.
    assert_refused(&["play", "--variant", "international", "--fen", "W:W31-50:B1-20,51"], "51");
}
