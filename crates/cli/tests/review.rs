//! `checkers review` through the real binary: a file of games comes back as PDN with a
//! comment on every move, a move that walks into a shot called a blunder with the engine's
//! choice beside it, the same review every run, and bad input refused with one line.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use checkers_rules::{read_pdn, Variant};

const GAMES: &str = "[Event \"shot\"]\n[Black \"ann\"]\n[White \"bob\"]\n[GameType \"21\"]\n\n\
    1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 11-16 {my plan} *\n\n\
    [Event \"russian\"]\n[GameType \"25\"]\n\n1. c3-d4 f6-g5 *\n";

fn review(dir: &std::path::Path, args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .arg("review")
        .args(args)
        .current_dir(dir)
        .env("CHECKERS_CACHE_DIR", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child.stdin.take().unwrap().write_all(input.unwrap_or("").as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_move_gets_a_comment_and_the_blunder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pdn"), GAMES).unwrap();
    let out = review(dir.path(), &["games.pdn", "--nodes", "50000"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let reviewed = read_pdn(&text(&out.stdout)).expect("the review is PDN");
    let original = read_pdn(GAMES).unwrap();
    assert_eq!(reviewed.len(), 2);
    for (after, before) in reviewed.iter().zip(&original) {
        assert_eq!((after.start(), after.moves()), (before.start(), before.moves()));
        assert_eq!(after.tags(), before.tags());
    }
    assert_eq!(reviewed[1].variant(), Variant::Russian);
    let shot = &reviewed[0];
    for i in 0..shot.moves().len() {
        let comment = shot.comment(i).unwrap_or_else(|| panic!("move {i} has a comment"));
        let score = comment.split([',', ';']).next().unwrap();
        assert!(
            score.parse::<f64>().is_ok() || score.starts_with("wins") || score.starts_with("loses"),
            "{comment}"
        );
    }
    // 11-16 lets White's man on 13 into a shot: the engine keeps the game level with 15-18.
    let last = shot.comment(6).unwrap();
    assert!(last.contains(", a blunder: 15-18 kept "), "{last}");
    assert!(last.ends_with("; my plan"), "the player's own comment stays: {last}");
    let summary = text(&out.stderr);
    assert!(summary.contains("game 1 (ann - bob): Black: 0 mistakes, 1 blunder, "), "{summary}");
    assert!(summary.contains(" a move lost on average; White: no mistakes, "), "{summary}");
    assert!(summary.contains("game 2: White: "), "{summary}");

    // The same review every run, with one job or two; from standard input, one game, to a file.
    for jobs in ["1", "2"] {
        let again = review(dir.path(), &["games.pdn", "--nodes", "50000", "--jobs", jobs], None);
        assert_eq!(text(&again.stdout), text(&out.stdout), "--jobs {jobs}");
        assert_eq!(text(&again.stderr), summary, "--jobs {jobs}");
    }
    let one =
        review(dir.path(), &["-", "--game", "2", "--nodes", "50000", "--output", "one.pdn"], Some(GAMES));
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert!(one.stdout.is_empty());
    let written = std::fs::read_to_string(dir.path().join("one.pdn")).unwrap();
    assert_eq!(read_pdn(&written).unwrap().len(), 1);
    assert!(written.contains("[Event \"russian\"]"), "{written}");
}

#[test]
fn games_of_the_board_variants_are_reviewed_too() {
    // A game of the 2003 International world championship, and a short Turkish one, in one
    // file with an English game: each reviewed by its own variant's engine.
    let international = include_str!("../../rules/tests/data/pdn/international-wk2003.pdn");
    let first = international.split("\n\n[").next().unwrap();
    let turkish = "[Event \"turkish\"]\n[GameType \"30\"]\n\n1. a3-a4 h6-h5 2. b3-b4 g6-g5 *\n";
    let file = format!("{first}\n\n{turkish}\n{GAMES}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pdn"), &file).unwrap();
    let out = review(dir.path(), &["games.pdn", "--nodes", "5000"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let reviewed = checkers_rules::read_any_pdn(&text(&out.stdout)).expect("the review is PDN");
    let original = checkers_rules::read_any_pdn(&file).unwrap();
    assert_eq!(reviewed.len(), 4);
    for (after, before) in reviewed.iter().zip(&original) {
        assert_eq!((after.game_type(), after.move_count()), (before.game_type(), before.move_count()));
        assert_eq!(after.result(), before.result());
    }
    let checkers_rules::AnyPdnGame::Board(game) = &reviewed[0] else { panic!("an International game") };
    let game = game.get::<checkers_rules::board::International>().unwrap();
    for i in 0..game.moves().len() {
        let comment = game.comment(i).unwrap_or_else(|| panic!("move {} has no comment", i + 1));
        let score = comment.split(',').next().unwrap();
        assert!(
            score.starts_with('+')
                || score.starts_with('-')
                || score.contains("wins")
                || score.contains("loses"),
            "{comment}"
        );
    }
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().filter(|l| l.starts_with("game ")).count(), 4, "{stderr}");
    assert!(stderr.lines().next().unwrap().starts_with("game 1 ("), "{stderr}");
}

#[test]
fn a_game_that_cannot_be_read_is_left_out_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let games = format!("[Event \"broken\"]\n\n1. 11-14 *\n\n{GAMES}");
    std::fs::write(dir.path().join("games.pdn"), games).unwrap();
    let out = review(dir.path(), &["games.pdn", "--nodes", "2000"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr)
        .contains("left out: PDN game 1 (Event \"broken\"), line 3: move 1. `11-14` is illegal"));
    assert_eq!(read_pdn(&text(&out.stdout)).unwrap().len(), 2);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pdn"), GAMES).unwrap();
    std::fs::write(dir.path().join("broken.pdn"), "[Event \"x\"]\n\n1. 11-14 *\n").unwrap();
    std::fs::write(dir.path().join("empty.pdn"), "").unwrap();
    for (args, expected) in [
        (&["missing.pdn"][..], "cannot read missing.pdn"),
        (&["games.pdn", "--game", "3"], "there is no game 3 in games.pdn: it holds 2 games"),
        (&["games.pdn", "--nodes", "0"], "--nodes must be at least 1"),
        (&["games.pdn", "--jobs", "0"], "--jobs must be at least 1"),
        (&["empty.pdn"], "empty.pdn holds no games"),
        (&["broken.pdn"], "no game of broken.pdn could be read"),
    ] {
        let out = review(dir.path(), args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.lines().last().is_some_and(|l| l.starts_with("error: ") && l.contains(expected)),
            "{args:?}: {err}"
        );
    }
}

/// A binary file is refused in one line, and a game with control bytes in it is left out with
/// them shown escaped: nothing rings the bell or moves the cursor.
#[test]
fn bad_bytes_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut binary = b"\x7fELF\x02\x01\x01\x00\x00\x07\x1b[2J".to_vec();
    binary.extend((0..=255u8).cycle().take(4000));
    std::fs::write(dir.path().join("a.out"), &binary).unwrap();
    let out = review(dir.path(), &["a.out"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: a.out is not a text file (it holds NUL bytes); review reads PDN text\n"
    );

    let games = format!("[Event \"bell\"]\n\n1. 11-15 \u{7}\u{1b}[2J 22-18 *\n\n{GAMES}");
    std::fs::write(dir.path().join("games.pdn"), games).unwrap();
    let out = review(dir.path(), &["games.pdn", "--nodes", "2000"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "left out: PDN game 1 (Event \"bell\"), line 3: move 1... `\\u{7}\\u{1b}` is not a move"
        ),
        "{err}"
    );
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
}
