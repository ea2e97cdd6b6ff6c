//! `checkers play` in a pseudo-terminal, as a person sees it: colour on, moves, a hint, a
//! move taken back, quitting; and Ctrl-C in the middle of a game.

use std::path::Path;
use std::process::Command;

use checkers_rules::{read_pdn, SquareNotation};
use rexpect::session::{spawn_command, PtySession};

fn start(dir: &Path, record: &str) -> PtySession {
    start_with(dir, record, None)
}

fn start_with(dir: &Path, record: &str, no_color: Option<&str>) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkers"));
    command
        .current_dir(dir)
        .env("USER", "tester")
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .args(["play", "--level", "1", "--seed", "2", "--record", record]);
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    spawn_command(command, Some(60_000)).expect("the game starts in a pseudo-terminal")
}

/// The text without colour codes.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

#[test]
fn moves_a_hint_a_take_back_and_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = start(dir.path(), "pty.pdn");
    p.exp_string("Welcome to English checkers!").unwrap();
    let first = p.exp_string("Black> ").unwrap();
    assert!(first.contains("\x1b[48;5;180m"), "the board is in colour on a terminal: {first:?}");
    let first = plain(&first);
    assert!(first.contains("   Black (b, B): you; 12 pieces\n"), "{first}");
    assert!(first.contains("  |    b     b     b     b |    |     1     2     3     4 |\n"), "{first}");
    assert!(first.contains("Black to move (you).\n"), "{first}");

    p.send_line("11-15").unwrap();
    p.exp_string("You play 11-15.").unwrap();
    let (_, reply) = p.exp_regex(r"Red \(computer\) plays [0-9]+-[0-9]+\.").unwrap();
    let reply = reply.trim_start_matches("Red (computer) plays ").trim_end_matches('.').to_string();
    let screen = plain(&p.exp_string("Black> ").unwrap());
    // In colour an empty square is just its colour: no dot.
    assert!(screen.contains("  |             b          |    | 13    14    15    16    |\n"), "{screen}");

    p.send_line("hint").unwrap();
    let (_, hint) = p.exp_regex(r"Hint: [0-9x-]+\.").unwrap();
    assert!(hint.starts_with("Hint: "), "{hint}");
    p.exp_string("Black> ").unwrap();

    p.send_line("undo").unwrap();
    p.exp_string("Took back 2 moves.").unwrap();
    let screen = plain(&p.exp_string("Black> ").unwrap());
    assert!(screen.contains("  |    b     b     b     b |    |     9    10    11    12 |\n"), "{screen}");
    assert!(screen.contains("  | r     r     r     r    |    | 21    22    23    24    |\n"), "{screen}");

    p.send_line("9-14").unwrap();
    p.exp_string("You play 9-14.").unwrap();
    p.exp_string("Black> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_string("The game is saved in pty.pdn (unfinished; `checkers play --continue --record pty.pdn` goes on with it). Goodbye.").unwrap();
    p.exp_eof().unwrap();

    let games = read_pdn(&std::fs::read_to_string(dir.path().join("pty.pdn")).unwrap()).unwrap();
    assert_eq!(games.len(), 1, "the game taken back to the start left no record of its own");
    let texts: Vec<String> = games[0]
        .moves()
        .iter()
        .zip(games[0].positions())
        .map(|(m, p)| m.to_pdn(&p, SquareNotation::Numeric))
        .collect();
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[0], "9-14");
    assert!(!reply.is_empty());
}

#[test]
fn ctrl_c_keeps_the_record_and_resets_the_colour() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = start(dir.path(), "gamerec.txt");
    p.exp_string("Black> ").unwrap();
    p.send_line("10-14").unwrap();
    p.exp_string("You play 10-14.").unwrap();
    p.exp_string("Black> ").unwrap();
    p.send_control('c').unwrap();
    let end = p.exp_eof().unwrap();
    assert!(end.contains("\x1b[0m\r\nInterrupted. The game is saved in gamerec.txt."), "{end:?}");
    let games = read_pdn(&std::fs::read_to_string(dir.path().join("gamerec.txt")).unwrap()).unwrap();
    assert_eq!(games[0].moves().len(), 2);
}

#[test]
fn no_color_gives_plain_text_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = start_with(dir.path(), "gamerec.txt", Some("1"));
    let first = p.exp_string("Black> ").unwrap();
    assert!(!first.contains('\x1b'), "{first:?}");
    assert!(first.contains("  | .     .     .     .    |    | 13    14    15    16    |\r\n"), "{first:?}");
    p.send_line("quit").unwrap();
    p.exp_string("Goodbye.").unwrap();
    p.exp_eof().unwrap();
}
