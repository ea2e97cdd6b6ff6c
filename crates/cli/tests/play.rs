//! `checkers play` driven through the real binary with piped input: whole games in both
//! variants, the screens, the refusals, the commands, and the PDN record read back with the
//! rules library and replayed.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use checkers_rules::{read_pdn, Color, Game, Outcome, PdnResult, Position, SquareNotation, Variant};

fn checkers(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkers"));
    command.current_dir(dir).env("USER", "tester").env_remove("NO_COLOR");
    command
}

/// Runs `checkers play ARGS` in `dir` with `input` on standard input.
fn play(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = checkers(dir)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the checkers binary runs");
    // The game may stop reading early (at `quit`); a closed pipe is fine then.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn record(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("no record {name}: {e}"))
}

/// A whole game picked without an engine: at each turn the legal move at a varying index.
fn scripted_game(variant: Variant) -> Game {
    let mut game = Game::new(variant);
    while !game.is_over() {
        let moves = game.legal_moves().to_vec();
        let ply = game.moves().len();
        game.play(moves[(ply * 7 + 3) % moves.len()]).unwrap();
        assert!(ply < 2000, "the scripted game ends");
    }
    game
}

fn move_texts(game: &Game, notation: SquareNotation) -> Vec<String> {
    game.moves().iter().zip(game.positions()).map(|(mv, pos)| mv.to_pdn(pos, notation)).collect()
}

fn expected_result(outcome: Outcome) -> PdnResult {
    match outcome.winner() {
        Some(color) => PdnResult::Win(color),
        None => PdnResult::Draw,
    }
}

#[test]
fn first_screen_of_a_newcomer() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--seed", "1"], "quit\n"));
    let expected = "\
Welcome to English checkers! Type a move like 11-15, or `help` for commands.
The squares are numbered on the board to the right.
You: Black (b, B), moving first. Computer: Red (r, R), level 4 (improver).

   Black (b, B): you; 12 pieces
  +------------------------+    +-------------------------+
  |    b     b     b     b |    |     1     2     3     4 |
  | b     b     b     b    |    |  5     6     7     8    |
  |    b     b     b     b |    |     9    10    11    12 |
  | .     .     .     .    |    | 13    14    15    16    |
  |    .     .     .     . |    |    17    18    19    20 |
  | r     r     r     r    |    | 21    22    23    24    |
  |    r     r     r     r |    |    25    26    27    28 |
  | r     r     r     r    |    | 29    30    31    32    |
  +------------------------+    +-------------------------+
   Red (r, R): computer, level 4; 12 pieces
Black to move (you).
Black> quit
Goodbye.
";
    assert_eq!(out, expected);
    assert!(out.lines().all(|l| l.len() <= 80), "fits an 80-column terminal");
    assert!(!out.contains('\x1b'), "no colour codes when the output is not a terminal");
    assert!(!dir.path().join("gamerec.txt").exists(), "no record of a game with no moves");
}

#[test]
fn refusals_give_the_reason_and_ask_again() {
    let dir = tempfile::tempdir().unwrap();
    let input = "11\n11-14\nhello\n33-1\n22\n\n11 15\n23-19\n10-14\n8-11\n19x10\n9x2x11\n";
    let out = stdout(&play(dir.path(), &["--side", "both"], input));
    let lines: Vec<&str> = out.lines().collect();
    let after = |prompt_and_input: &str| {
        let i = lines
            .iter()
            .position(|l| *l == prompt_and_input)
            .unwrap_or_else(|| panic!("no `{prompt_and_input}` in\n{out}"));
        lines[i + 1]
    };
    assert_eq!(after("Black> 11"), "From 11: 11-15, 11-16.");
    assert_eq!(after("Black> 11-14"), "11-14 is not a move: 11 can go to 15 or 16.");
    assert_eq!(
        after("Black> hello"),
        "I don't understand `hello`. Type a move such as 11-15, or `help` for the commands."
    );
    assert_eq!(
        after("Black> 33-1"),
        "`33` is not a square: squares are numbered 1 to 32 (see the board on the right)."
    );
    assert_eq!(after("Black> 22"), "22: the piece on 22 is not yours; Black is to move.");
    assert_eq!(after("Black> 11 15"), "Black plays 11-15.");
    assert_eq!(after("Red> 23-19"), "Red plays 23-19.");
    assert_eq!(after("Red> 8-11"), "8-11 is not a move: the piece on 8 is not yours; Red is to move.");
    // 10-14 leaves Black's 15 en prise; Red must capture.
    assert_eq!(after("Red> 19x10"), "Red plays 19x10.");
    assert_eq!(after("Black> 9x2x11"), "9x2x11 is not a move: a capture is compulsory: 6x15.");
    // The refused lines changed nothing: the record holds exactly the moves played.
    let games = read_pdn(&record(dir.path(), "gamerec.txt")).unwrap();
    assert_eq!(games.len(), 1);
    let texts: Vec<String> = games[0]
        .moves()
        .iter()
        .zip(games[0].positions())
        .map(|(m, p)| m.to_pdn(&p, SquareNotation::Numeric))
        .collect();
    assert_eq!(texts, ["11-15", "23-19", "10-14", "19x10"]);
    assert!(
        out.ends_with("Black> \nEnd of input. The game is saved in gamerec.txt (unfinished; `checkers play --continue` goes on with it). Goodbye.\n"),
        "{out}"
    );
}

#[test]
fn compulsory_capture_and_ambiguous_jumps_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    // Black's man on 2 can take 6 and 14 or 7 and 15, landing on 18 either way.
    let out = stdout(&play(
        dir.path(),
        &["--side", "both", "--fen", "B:W6,7,14,15,30:B2,12"],
        "12-16\n2x18\n2x11x18\nquit\n",
    ));
    assert!(
        out.contains("Black> 12-16\n12-16 is not a move: a capture is compulsory: 2x11x18 or 2x9x18.\n"),
        "{out}"
    );
    assert!(out.contains("Black> 2x18\n2x18 could be 2x11x18 or 2x9x18: type the whole route.\n"), "{out}");
    assert!(out.contains("Black plays 2x11x18."), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"B:W6,7,14,15,30:B2,12\"]\n"), "{text}");
    let game = &read_pdn(&text).unwrap()[0];
    assert_eq!(game.end_position(), Position::from_fen(Variant::English, "W:W6,14,30:B12,18").unwrap());
}

/// Typing only the first leg of a double jump is told that the capture goes on, and where.
#[test]
fn an_unfinished_multi_jump_is_told_to_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        stdout(&play(dir.path(), &["--side", "both", "--fen", "B:W14,23,30:B9,1"], "9x18\n9x18x27\nquit\n"));
    assert!(
        out.contains("Black> 9x18\n9x18 is not a move: the capture goes on from 18 to 27 (9x18x27).\n"),
        "{out}"
    );
    assert!(out.contains("Black plays 9x18x27."), "{out}");
    let out = stdout(&play(
        dir.path(),
        &["--variant", "russian", "--side", "both", "--fen", "W:Wc3,a1:Bd4,f6,h8"],
        "c3:e5\nquit\n",
    ));
    assert!(
        out.contains("White> c3:e5\nc3:e5 is not a move: the capture goes on from e5 to g7 (c3:e5:g7).\n"),
        "{out}"
    );
}

#[test]
fn a_whole_english_game_between_two_players_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let game = scripted_game(Variant::English);
    let mut input = move_texts(&game, SquareNotation::Numeric).join("\n");
    input.push_str("\nquit\n");
    let out = stdout(&play(dir.path(), &["--side", "both"], &input));
    assert!(!out.contains("is not a move"), "{out}");
    assert_eq!(out.matches("Game over. ").count(), 1, "{out}");
    let outcome = game.outcome().unwrap();
    let announced = match outcome {
        Outcome::Win { winner: Color::Black, .. } => "Game over. Black wins: Red ",
        Outcome::Win { .. } => "Game over. Red wins: Black ",
        Outcome::Draw { .. } => "Game over. Draw: ",
    };
    assert!(out.contains(announced), "{outcome:?} not announced in\n{out}");

    let text = record(dir.path(), "gamerec.txt");
    assert!(text.starts_with("[Event \"Casual game\"]\n[Date \""), "{text}");
    assert!(text.contains("[Black \"tester\"]\n[White \"tester\"]\n"), "{text}");
    assert!(text.contains("[GameType \"21\"]\n"), "{text}");
    assert!(!text.contains("[FEN"), "a game from the start has no FEN tag");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves(), game.moves());
    assert_eq!(games[0].end_position(), game.position());
    assert_eq!(games[0].result(), expected_result(outcome));
}

#[test]
fn a_whole_russian_game_in_algebraic_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let game = scripted_game(Variant::Russian);
    // Algebraic with `:` for captures, as Russian players write.
    let texts: Vec<String> =
        move_texts(&game, SquareNotation::Algebraic).iter().map(|t| t.replace('x', ":")).collect();
    let input = format!("{}\nquit\n", texts.join("\n"));
    let out = stdout(&play(
        dir.path(),
        &["--variant", "russian", "--side", "both", "--record", "russian.pdn"],
        &input,
    ));
    assert!(out.starts_with("Welcome to Russian draughts! Type a move like c3-d4"), "{out}");
    assert!(out.contains(" 8 |    b     b     b     b |    |    b8    d8    f8    h8 |\n"), "{out}");
    assert!(out.contains(" 1 | w     w     w     w    |    | a1    c1    e1    g1    |\n"), "{out}");
    assert!(out.contains("     a  b  c  d  e  f  g  h"), "{out}");
    assert!(out.contains(&format!("White> {}\nWhite plays {}.", texts[0], texts[0])), "{out}");
    assert!(!out.contains("is not a move"), "{out}");
    assert_eq!(out.matches("Game over. ").count(), 1, "{out}");

    let text = record(dir.path(), "russian.pdn");
    assert!(text.contains("[GameType \"25\"]\n"), "{text}");
    assert!(text.contains(&format!("1. {} ", texts[0])), "moves are algebraic: {text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games[0].variant(), Variant::Russian);
    assert_eq!(games[0].moves(), game.moves());
    assert_eq!(games[0].end_position(), game.position());
    assert_eq!(games[0].result(), expected_result(game.outcome().unwrap()));
}

#[test]
fn russian_refusals_are_in_algebraic() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(
        dir.path(),
        &["--variant", "russian", "--side", "both", "--fen", "W:Wa1,c3:Bd4,h8"],
        "a1-b2\nc3-b4\n9\nc3:e5\nquit\n",
    ));
    assert!(out.contains("White> a1-b2\na1-b2 is not a move: a capture is compulsory: c3:e5.\n"), "{out}");
    assert!(out.contains("White> c3-b4\nc3-b4 is not a move: a capture is compulsory: c3:e5.\n"), "{out}");
    assert!(out.contains("White> 9\n9: there is no piece on b6.\n"), "{out}");
    assert!(out.contains("White plays c3:e5."), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.contains("[FEN \"W:Wc3,a1:Bh8,d4\"]") || text.contains("[FEN \"W:W"), "{text}");
    let game = &read_pdn(&text).unwrap()[0];
    assert_eq!(game.end_position(), Position::from_fen(Variant::Russian, "B:We5,a1:Bh8").unwrap());
}

#[test]
fn games_are_appended_to_a_record_that_holds_games() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = "[Event \"Earlier\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 1-0\n";
    std::fs::write(dir.path().join("gamerec.txt"), earlier).unwrap();
    // Two games in one run: the first abandoned for a new one, the second resigned.
    let out = stdout(&play(dir.path(), &["--side", "both"], "9-13\nnew\n10-14\nresign\nquit\n"));
    assert!(out.contains("The unfinished game stays in the record.\nNew game. Black moves first."), "{out}");
    assert!(out.contains("Game over. Black wins: Red resigned."), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.starts_with(earlier), "the earlier game is kept as it was:\n{text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].moves().len(), 1);
    assert_eq!(games[1].result(), PdnResult::Unknown);
    assert_eq!(games[2].moves().len(), 1);
    assert_eq!(games[2].result(), PdnResult::Win(Color::Black));
    assert!(text.contains("{Black wins: Red resigned}"), "{text}");
}

#[test]
fn undo_flip_moves_save_and_draw_between_two_players() {
    let dir = tempfile::tempdir().unwrap();
    let input =
        "moves\n11-15\nundo\n9-14\nflip\nsave copy.pdn\n22-17\nsave copy.pdn\ndraw\nno\ndraw\nyes\nquit\n";
    let out = stdout(&play(dir.path(), &["--side", "both"], input));
    assert!(
        out.contains("Black> moves\nLegal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16.\n"),
        "{out}"
    );
    assert!(out.contains("Red> undo\nTook back 1 move.\n"), "{out}");
    // Flipped: Red's side at the top, square 32 at the top left.
    assert!(out.contains("Red> flip\n\n   Red (r, R): player; 12 pieces\n"), "{out}");
    assert!(out.contains("  |    r     r     r     r |    |    32    31    30    29 |\n"), "{out}");
    assert!(out.contains("Saved in copy.pdn."), "{out}");
    assert!(
        out.contains(
            "Black> draw\nBlack offers a draw. Red, do you accept? (yes/no)\nRed> no\nRed declines the draw."
        ),
        "{out}"
    );
    assert!(out.contains("Red> yes\nThe draw is agreed."), "{out}");
    assert!(out.contains("Game over. Draw: by agreement."), "{out}");
    // `save FILE` twice in one game leaves one copy, of the game as it was at the second save.
    let copy = read_pdn(&record(dir.path(), "copy.pdn")).unwrap();
    assert_eq!(copy.len(), 1);
    assert_eq!(copy[0].moves().len(), 2);
    let games = read_pdn(&record(dir.path(), "gamerec.txt")).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves().len(), 2);
    assert_eq!(games[0].result(), PdnResult::Draw);
}

/// Level 9 answers an opening move from its book at once, and says so; the game record
/// holds the book move like any other.
#[test]
fn the_master_level_opens_from_its_book() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--level", "9", "--seed", "3"], "11-15\nquit\n"));
    let reply = out
        .split("You play 11-15.\nRed (computer) plays ")
        .nth(1)
        .and_then(|rest| rest.split(" from its opening book.\n").next())
        .unwrap_or_else(|| panic!("{out}"));
    let after = Position::start(Variant::English)
        .play_unchecked(&Position::start(Variant::English).parse_move("11-15").unwrap());
    let book = checkers_engine::book(Variant::English).lookup(&after).expect("11-15 is in the book");
    assert!(book.iter().any(|m| m.mv.to_pdn(&after, SquareNotation::Numeric) == reply), "{reply}: {out}");
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.moves().len(), 2);
}

#[test]
fn the_computer_answers_takes_back_and_judges_draws() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "1", "--seed", "5", "--time", "5"];
    let input = "11-15\nundo\n11-15\nhelp\ndraw\nquit\n";
    let out = stdout(&play(dir.path(), &args, input));
    assert_eq!(out.matches("You play 11-15.\nRed (computer) plays ").count(), 2, "{out}");
    assert!(out.contains("Black> undo\nTook back 2 moves.\n"), "{out}");
    assert!(out.contains("  undo         take back your last move (and the computer's answer)\n"), "{out}");
    // Level 1's reply left it worse by the full engine's judgement: it takes the draw (a level
    // position this early would be declined).
    assert!(out.contains("Black> draw\nThe draw is agreed.\n"), "{out}");
    assert!(out.contains("Game over. Draw: by agreement."), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.contains("[Black \"tester\"]\n[White \"checkers level 1\"]\n"), "{text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games[0].moves().len(), 2);
    assert_eq!(games[0].result(), PdnResult::Draw);
    // The same seed plays the same game.
    let again = tempfile::tempdir().unwrap();
    assert_eq!(stdout(&play(again.path(), &args, input)), out);
}

#[test]
fn the_computer_accepts_a_draw_in_a_level_ending() {
    let dir = tempfile::tempdir().unwrap();
    // A king each: nothing left to play for.
    let out = stdout(&play(dir.path(), &["--level", "9", "--fen", "B:WK18:BK1"], "draw\nquit\n"));
    assert!(out.contains("Black> draw\nThe draw is agreed.\n"), "{out}");
    assert!(out.contains("Game over. Draw: by agreement."), "{out}");
    let games = read_pdn(&record(dir.path(), "gamerec.txt")).unwrap();
    assert_eq!(games[0].result(), PdnResult::Draw);
}

#[test]
fn the_computer_declines_a_draw_when_it_is_winning() {
    let dir = tempfile::tempdir().unwrap();
    // Red has three kings against Black's lone man.
    let out = stdout(&play(
        dir.path(),
        &["--level", "1", "--seed", "1", "--fen", "B:WK18,K22,K27:B1"],
        "draw\nquit\n",
    ));
    assert!(
        out.contains("Black> draw\nThe computer declines the draw: it likes its chances. Play on.\n"),
        "{out}"
    );
}

#[test]
fn the_computer_plays_itself_to_the_end_in_both_variants() {
    for (variant, fen) in [("english", "B:W18,22,K30:B5,6,K13"), ("russian", "W:Wc3,e3,Kg1:Bb6,d6,Kh8")] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--variant", variant, "--side", "none", "--level", "1", "--seed", "3", "--fen", fen];
        let out = stdout(&play(dir.path(), &args, ""));
        assert!(out.contains("The computer plays itself at level 1 (beginner)"), "{out}");
        assert_eq!(out.matches("Game over. ").count(), 1, "{variant}: {out}");
        assert!(out.ends_with("End of input. The game is saved in gamerec.txt. Goodbye.\n"), "{out}");
        let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
        assert_eq!(game.moves().len(), out.matches("(computer) plays").count());
        assert_ne!(game.result(), PdnResult::Unknown);
        // Replaying the record reaches a finished game with the recorded result.
        let mut replay = Game::from_position(game.start());
        for mv in game.moves() {
            replay.play(*mv).unwrap();
        }
        assert!(replay.is_over(), "{variant}: the recorded game is finished");
        assert_eq!(expected_result(replay.outcome().unwrap()), game.result());
        assert_eq!(stdout(&play(tempfile::tempdir().unwrap().path(), &args, "")), out, "deterministic");
    }
}

#[test]
fn the_end_of_input_mid_game_keeps_the_record() {
    let dir = tempfile::tempdir().unwrap();
    // The folder the name goes through must exist: a record that cannot be written is
    // refused before the game starts.
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let out =
        stdout(&play(dir.path(), &["--side", "both", "--record", "sub/../game.pdn"], "11-15\n22-18\n15x22"));
    assert!(
        out.ends_with("End of input. The game is saved in sub/../game.pdn (unfinished; `checkers play --continue --record sub/../game.pdn` goes on with it). Goodbye.\n")
            || out.contains("Could not write"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--side", "both"], "11-15\n22-18\n15x22"));
    assert!(
        out.ends_with("End of input. The game is saved in gamerec.txt (unfinished; `checkers play --continue` goes on with it). Goodbye.\n"),
        "{out}"
    );
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.moves().len(), 3, "the last line, without a newline, still counts");
    assert_eq!(game.result(), PdnResult::Unknown);
}

#[test]
fn garbage_input_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = Vec::new();
    input.extend_from_slice(b"\xff\xfe\x00junk\n");
    input.extend_from_slice("x-x-x\n--\n99999999999999999999-1\n11-\n\t\n11-15-19-23\n11x15\n".as_bytes());
    input.extend_from_slice(&[b'1'; 10_000]);
    input.extend_from_slice(b"\nsave\nquit\n");
    let mut child = checkers(dir.path())
        .args(["play", "--side", "both"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = stdout(&child.wait_with_output().unwrap());
    assert!(out.contains("Black plays 11-15."), "11x15 reads as the quiet move 11-15: {out}");
    assert!(out.ends_with("The game is saved in gamerec.txt (unfinished; `checkers play --continue` goes on with it). Goodbye.\n"), "{out}");
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.moves().len(), 1);
}

/// `undo` after an agreed draw (or a resignation) takes back the agreement, not a move.
#[test]
fn undo_after_a_draw_or_a_resignation_takes_back_only_that() {
    let dir = tempfile::tempdir().unwrap();
    let input = "11-15\n23-19\ndraw\nyes\nundo\n8-11\nresign\nundo\n22-17\nquit\n";
    let out = stdout(&play(dir.path(), &["--side", "both"], input));
    assert!(out.contains("> undo\nTook back the draw agreement; play on.\n"), "{out}");
    assert!(out.contains("Black> 8-11\nBlack plays 8-11.\n"), "{out}");
    assert!(out.contains("> undo\nTook back the resignation; play on.\n"), "{out}");
    assert!(out.contains("Red> 22-17\nRed plays 22-17.\n"), "{out}");
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.moves().len(), 4);
    assert_eq!(game.result(), PdnResult::Unknown);
    // Against the computer too: the player is to move again where the draw was agreed.
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--level", "1", "--fen", "B:WK18:BK1"], "draw\nundo\nquit\n"));
    assert!(out.contains("Black> draw\nThe draw is agreed.\n"), "{out}");
    assert!(out.contains("> undo\nTook back the draw agreement; play on.\n"), "{out}");
    assert!(out.ends_with("Black to move (you).\nBlack> quit\nGoodbye.\n"), "{out}");
}

/// A record that cannot be written is refused before the game starts, not after each move.
#[test]
fn an_unwritable_record_is_refused_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(dir.path(), &["--side", "both", "--record", "missing/game.pdn"], "11-15\nquit\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: cannot write the record file missing/game.pdn: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(leftovers.is_empty(), "nothing is left behind");
    // The check leaves a writable folder as it was.
    let out = stdout(&play(dir.path(), &["--side", "both", "--record", "game.pdn"], "quit\n"));
    assert!(out.ends_with("Goodbye.\n"), "{out}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no game, no file");
}

/// Control characters typed (or piped) come back escaped, in the echo of the line and in
/// the answer: nothing rings the bell or changes the colours.
#[test]
fn control_characters_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let input = "\u{7}\u{1b}[31mhi\n11-1\u{7}\n11-15\u{1b}x\nsave a\u{7}.pdn\nquit\n";
    let out = stdout(&play(dir.path(), &["--side", "both"], input));
    assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    assert!(out.contains("Black> \\u{7}\\u{1b}[31mhi\nI don't understand `\\u{7}\\u{1b}[31mhi`."), "{out}");
    assert!(out.contains("`1\\u{7}` is not a square"), "{out}");
    assert!(out.contains("Saved in a\\u{7}.pdn."), "{out}");
}

#[test]
fn bad_options_are_refused_with_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--level", "12"][..],
        &["--fen", "B:W40:B1"],
        &["--time", "0"],
        &["--time", "nan"],
        &["--side", "red"],
        &["--record", "."],
    ] {
        let output = checkers(dir.path()).arg("play").args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn in_russian_the_computer_can_open_as_white() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(
        dir.path(),
        &["--variant", "russian", "--side", "black", "--level", "1", "--seed", "1"],
        "quit\n",
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Welcome to Russian draughts! Type a move like c3-d4, or `help` for commands.");
    assert_eq!(lines[1], "The squares are named on the board to the right (a1-h8).");
    assert_eq!(
        lines[2],
        "You: Black (b, B). Computer: White (w, W), level 4 (improver), moves first."
            .replace('4', "1")
            .replace("improver", "beginner")
    );
    assert!(
        lines[3].starts_with("White (computer) plays ")
            && lines[3].len() == "White (computer) plays c3-d4.".len(),
        "{out}"
    );
    assert!(
        out.contains(
            "Black to move (you).\nBlack> quit\nThe game is saved in gamerec.txt (unfinished; `checkers play --continue` goes on with it). Goodbye.\n"
        ),
        "{out}"
    );
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.tag("White"), Some("checkers level 1"));
    assert_eq!(game.tag("Black"), Some("tester"));
    assert_eq!(game.moves().len(), 1);
}

#[test]
fn a_killed_game_loses_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = checkers(dir.path())
        .args(["play", "--side", "both"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"11-15\n22-18\n15x22\n").unwrap();
    input.flush().unwrap();
    // Wait (without a deadline that could fail a slow machine) for the third move's record.
    let path = dir.path().join("gamerec.txt");
    loop {
        let moves =
            std::fs::read_to_string(&path).ok().and_then(|t| read_pdn(&t).ok()).map(|g| g[0].moves().len());
        if moves == Some(3) {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the game still runs");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.moves().len(), 3);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the record is there");
}

#[test]
fn a_closed_output_does_not_stop_the_game_or_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = checkers(dir.path())
        .args(["play", "--side", "both"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.stdin.take().unwrap().write_all(b"11-15\n22-18\n15x22\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0].moves().len(), 3);
}

#[test]
fn an_automatic_draw_is_announced_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--variant", "russian", "--side", "both", "--fen", "W:WKa1:BKh2,c3"];
    let out = stdout(&play(dir.path(), &args, "a1:h8\nd2-e3\nquit\n"));
    assert!(out.contains("White plays a1:h8."), "{out}");
    assert!(out.contains("Game over. Draw: a lone king against a lone king."), "{out}");
    assert!(
        out.contains(
            "> d2-e3\nThe game is over. Type `new` for another game, `undo` to take back, or `quit`.\n"
        ),
        "{out}"
    );
    let game = &read_pdn(&record(dir.path(), "gamerec.txt")).unwrap()[0];
    assert_eq!(game.result(), PdnResult::Draw);
}

#[test]
fn a_game_left_unfinished_goes_on_in_its_place_with_the_same_players() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = "[Event \"Earlier\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 1-0\n";
    std::fs::write(dir.path().join("gamerec.txt"), earlier).unwrap();
    stdout(&play(dir.path(), &["--level", "3", "--seed", "7"], "11-15\nquit\n"));
    let left = read_pdn(&record(dir.path(), "gamerec.txt")).unwrap();
    assert_eq!(left[1].moves().len(), 2, "the person's move and the computer's answer");

    // No options: the same sides, level, date and name; the game is rewritten in its place.
    let out = stdout(&play(dir.path(), &["--continue", "--seed", "7"], "quit\n"));
    assert!(out.contains("Computer: Red (r, R), level 3 (casual)."), "{out}");
    assert!(
        out.contains("Continuing the last game of gamerec.txt after 2 moves; it goes on in its place there."),
        "{out}"
    );
    let reply =
        left[1].end_position().legal_moves()[0].to_pdn(&left[1].end_position(), SquareNotation::Numeric);
    let out = stdout(&play(dir.path(), &["--continue", "--seed", "7"], &format!("{reply}\nquit\n")));
    assert!(out.contains(&format!("You play {reply}.\nRed (computer) plays ")), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.starts_with(earlier), "the earlier game is kept as it was:\n{text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games.len(), 2, "{text}");
    assert_eq!(&games[1].moves()[..2], left[1].moves());
    assert_eq!(games[1].moves().len(), 4);
    assert_eq!((games[1].tag("Black"), games[1].tag("White")), (Some("tester"), Some("checkers level 3")));
    assert_eq!(games[1].tag("Date"), left[1].tag("Date"));
}

#[test]
fn a_russian_game_between_two_players_is_continued_in_algebraic() {
    let dir = tempfile::tempdir().unwrap();
    stdout(&play(dir.path(), &["--variant", "russian", "--side", "both"], "c3-d4\nf6-g5\nquit\n"));
    let out = stdout(&play(dir.path(), &["--continue"], "d4-e5\nresign\nquit\n"));
    assert!(out.contains("Two players at one keyboard; White moves first."), "{out}");
    let games = read_pdn(&record(dir.path(), "gamerec.txt")).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].variant(), Variant::Russian);
    assert_eq!(games[0].moves().len(), 3);
    assert_eq!(games[0].result(), PdnResult::Win(Color::White), "Black resigned");
}

#[test]
fn a_last_game_that_cannot_be_placed_goes_on_as_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    // No tags: where the game begins cannot be told, so the file is left as it is.
    std::fs::write(dir.path().join("gamerec.txt"), "1. 11-15 23-19 *\n").unwrap();
    let out = stdout(&play(dir.path(), &["--continue", "--side", "both"], "8-11\nquit\n"));
    assert!(out.contains("it goes on as a new game at the end of that file"), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.starts_with("1. 11-15 23-19 *\n"), "{text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games.iter().map(|g| g.moves().len()).collect::<Vec<_>>(), [2, 3]);
}

#[test]
fn only_an_unfinished_last_game_can_be_continued() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], expected: &str| {
        let output = checkers(dir.path()).arg("play").args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.starts_with("error: ") && err.contains(expected), "{args:?}: {err}");
    };
    refused(&["--continue"], "there is no record file gamerec.txt to continue a game from");
    std::fs::write(dir.path().join("gamerec.txt"), "[Event \"x\"]\n\n1. 11-15 1-0\n").unwrap();
    refused(&["--continue"], "the last game in gamerec.txt is over (1-0)");
    std::fs::write(dir.path().join("gamerec.txt"), "[Event \"x\"]\n\n1. 11-14 *\n").unwrap();
    refused(&["--continue"], "the last game in gamerec.txt cannot be read");
    std::fs::write(dir.path().join("gamerec.txt"), "").unwrap();
    refused(&["--continue"], "holds no game to continue");
    refused(&["--continue", "--fen", "B:W18:B14"], "cannot be used with");
    refused(&["--continue", "--variant", "russian"], "cannot be used with");
}

#[test]
fn a_finished_game_is_reviewed_move_by_move() {
    let dir = tempfile::tempdir().unwrap();
    let line = "11-15\n23-19\n8-11\n22-17\n4-8\n17-13\n11-16\n";
    let out =
        stdout(&play(dir.path(), &["--side", "both"], &format!("review\n{line}resign\nreview\nquit\n")));
    assert!(out.contains("The review is for a finished game"), "refused before the end: {out}");
    assert!(out.contains("Reviewing 7 moves…\n  4. 11-16?? (Black): "), "{out}");
    assert!(out.contains("; 15-18 kept +"), "{out}");
    assert!(out.contains("? a mistake, ?? a blunder): Black: 0 mistakes, 1 blunder, "), "{out}");
    assert!(out.contains(" a move lost on average; Red: no mistakes, "), "{out}");
}
