//! `checkers play` in the variants on boards of any size, driven through the real binary:
//! whole games against the computer and between two players, each replayed from its record
//! (read back by `read_any_pdn`); the boards drawn (10x10, 12x12, Turkish's 64 squares, the
//! mirrored Italian board) as exact text; refusals of moves that are not legal, word for
//! word; `--continue` of a board game in a record that also holds 8x8 games.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use checkers_rules::board::{
    Board, BoardGame, BoardMove, BoardOutcome, BoardVariant, Canadian, International, Italian, Pool, RuleSet,
    Turkish,
};
use checkers_rules::{
    read_any_pdn, with_board_variant, AnyPdnGame, BoardPdnGame, Color, PdnResult, WinReason,
};

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

/// The games of a record file, each of the variant its GameType names.
fn games(dir: &Path, name: &str) -> Vec<AnyPdnGame> {
    read_any_pdn(&record(dir, name)).unwrap()
}

/// The game of rule set `V` in a record's game.
fn board_game<V: RuleSet>(game: &AnyPdnGame) -> BoardPdnGame<V> {
    match game {
        AnyPdnGame::Board(game) => game.get::<V>().cloned().unwrap_or_else(|| panic!("not {}", V::NAME)),
        AnyPdnGame::Checkers(_) => panic!("an 8x8 game, not {}", V::NAME),
    }
}

/// The moves of a game as `checkers play` writes them: every stop (names on Turkish's board).
fn move_texts<V: RuleSet>(start: Board<V>, moves: &[BoardMove<V>]) -> Vec<String> {
    let mut board = start;
    let mut texts = Vec::new();
    for mv in moves {
        texts.push(mv.to_pdn(&board));
        board = board.play_unchecked(mv);
    }
    texts
}

/// How the game announces an outcome: the rules library's words, but a side without a move
/// that has no pieces left "has no pieces left", and otherwise "cannot move".
fn announced<V: RuleSet>(outcome: BoardOutcome, end: &Board<V>) -> String {
    match outcome {
        BoardOutcome::Win { winner, reason: WinReason::NoLegalMove } => {
            let loser = winner.opponent();
            let why = if end.piece_count(loser) == 0 { "has no pieces left" } else { "cannot move" };
            format!("Game over. {} wins: {} {why}.", winner.name(), loser.name())
        }
        other => format!("Game over. {other}."),
    }
}

fn expected_result(outcome: BoardOutcome) -> PdnResult {
    outcome.winner().map_or(PdnResult::Draw, PdnResult::Win)
}

/// A whole game picked without an engine: at each turn the legal move at a varying index.
fn scripted_game<V: RuleSet>() -> BoardGame<V> {
    let mut game = BoardGame::<V>::new();
    while !game.is_over() {
        let moves = game.legal_moves().to_vec();
        let ply = game.moves().len();
        game.play(moves[(ply * 7 + 3) % moves.len()]).unwrap();
        assert!(ply < 3000, "the scripted game ends");
    }
    game
}

/// A game typed by two players at one keyboard, whole, then read back from the record: the
/// same moves, the outcome announced and recorded. Returns the output.
fn two_players_play_it_out<V: RuleSet>(variant: &str, game_type: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let game = scripted_game::<V>();
    let texts = move_texts(game.start(), game.moves());
    let input = format!("{}\nquit\n", texts.join("\n"));
    let out = stdout(&play(dir.path(), &["--variant", variant, "--side", "both"], &input));
    assert!(!out.contains("is not a move"), "{out}");
    assert!(!out.contains("I don't understand"), "{out}");
    let first = game.start().turn();
    let name = |color: Color| if color == Color::White { "White" } else { "Black" };
    assert!(
        out.contains(&format!("{}> {}\n{} plays {}.\n", name(first), texts[0], name(first), texts[0])),
        "{out}"
    );
    let outcome = game.outcome().unwrap();
    assert!(out.contains(&announced(outcome, &game.position())), "{outcome:?} not announced in\n{out}");
    assert_eq!(out.matches("Game over. ").count(), 1, "{out}");

    let text = record(dir.path(), "gamerec.txt");
    assert!(text.contains(&format!("[GameType \"{game_type}\"]\n")), "{text}");
    let recorded = board_game::<V>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(recorded.moves(), game.moves());
    assert_eq!(recorded.result(), expected_result(outcome));
    assert_eq!(recorded.to_game().unwrap().outcome(), Some(outcome), "the record replays to the same end");
    out
}

/// `checkers play` with its input and output on pipes, typed into line by line as the game
/// asks: for games against the computer, whose answers the test cannot know beforehand.
struct Live {
    child: Child,
    input: ChildStdin,
    chunks: mpsc::Receiver<Vec<u8>>,
    /// Everything written so far, with a 0 byte wherever a prompt was answered.
    output: Vec<u8>,
}

impl Live {
    fn start(dir: &Path, args: &[&str]) -> Live {
        let mut child = checkers(dir)
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the checkers binary runs");
        let input = child.stdin.take().unwrap();
        let mut output = child.stdout.take().unwrap();
        let (sender, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = output.read(&mut buffer) {
                if sender.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Live { child, input, chunks, output: Vec::new() }
    }

    /// Waits for the game to ask for a line: the prompt it ends with (`None` once the output
    /// has ended).
    fn prompt(&mut self) -> Option<String> {
        loop {
            let last_line = self.output.rsplit(|&b| b == b'\n').next().unwrap_or_default();
            if last_line.ends_with(b"> ") {
                return Some(String::from_utf8_lossy(last_line).into_owned());
            }
            match self.chunks.recv_timeout(Duration::from_secs(300)) {
                Ok(chunk) => self.output.extend_from_slice(&chunk),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("no prompt after 300 s:\n{}", String::from_utf8_lossy(&self.output))
                }
            }
        }
    }

    /// Answers the prompt: the game echoes the line after it (its input is not a terminal).
    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        // The prompt is answered: the next one is a new one.
        self.output.push(0);
    }

    /// Sends `quit` and waits for the end; the whole output.
    fn finish(mut self) -> String {
        self.send("quit");
        while self.prompt().is_some() {
            self.send("quit");
        }
        assert!(self.child.wait().unwrap().success());
        self.output.retain(|&b| b != 0);
        String::from_utf8(self.output).unwrap()
    }
}

/// A whole game of a person against the computer: the person plays `opening` while it is
/// legal, then the legal move at a varying index, as the game asks; every move typed is
/// read from the record the game keeps after each move. The record is read back and
/// replayed: the moves shown, then the outcome announced.
fn against_the_computer<V: RuleSet>(args: &[&str], human: Color, opening: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut live = Live::start(dir.path(), args);
    let human_prompt = format!("{}> ", if human == Color::White { "White" } else { "Black" });
    let mut typed = 0;
    while let Some(prompt) = live.prompt() {
        if prompt != human_prompt {
            break; // the game is over: its prompt is `> `
        }
        let board = match std::fs::read_to_string(dir.path().join("gamerec.txt")) {
            Ok(text) => board_game::<V>(&read_any_pdn(&text).unwrap()[0]).end_position(),
            Err(_) => Board::<V>::start(),
        };
        let moves = board.legal_moves().to_vec();
        let text = match opening.get(typed).filter(|text| board.parse_move(text).is_ok()) {
            Some(text) => text.to_string(),
            None => moves[(typed * 7 + 3) % moves.len()].to_pdn(&board),
        };
        live.send(&text);
        typed += 1;
        assert!(typed < 1000, "the game ends");
    }
    let out = live.finish();

    // Every move shown, the person's and the computer's, is the record's.
    let shown: Vec<&str> = out
        .lines()
        .filter_map(|line| {
            line.strip_prefix("You play ")
                .or_else(|| line.strip_prefix("White (computer) plays "))
                .or_else(|| line.strip_prefix("Black (computer) plays "))
        })
        .map(|line| line.trim_end_matches('.'))
        .collect();
    let recorded = board_game::<V>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(shown, move_texts(recorded.start(), recorded.moves()), "{out}");
    let game = recorded.to_game().unwrap();
    let outcome = game.outcome().expect("the game was played to its end");
    assert!(out.contains(&announced(outcome, &game.position())), "{outcome:?}:\n{out}");
    assert_eq!(recorded.result(), expected_result(outcome));
    assert_eq!(recorded.tag(if human == Color::White { "White" } else { "Black" }), Some("tester"));
    out
}

#[test]
fn an_international_game_against_the_computer_from_a_real_opening() {
    // White's moves of the first game of the 2003 World Championship (Ndjofang - Heusdens),
    // played while the computer's answers leave them legal.
    let opening = ["32-28", "31-26", "36-31", "34-29", "39x30", "30x19", "37-32", "31x22", "32x21"];
    let out = against_the_computer::<International>(
        &["--variant", "international", "--level", "2", "--seed", "11"],
        Color::White,
        &opening,
    );
    assert!(
        out.starts_with("Welcome to International draughts!\nType a move like 33-28, or `help`"),
        "{out}"
    );
    assert!(
        out.contains("You: White (w, W), moving first. Computer: Black (b, B), level 2 (novice).\n"),
        "{out}"
    );
    assert!(out.contains("White> 32-28\nYou play 32-28.\nBlack (computer) plays "), "{out}");
}

#[test]
fn in_pool_black_moves_first_against_the_computer() {
    let out = against_the_computer::<Pool>(
        &["--variant", "pool", "--level", "3", "--seed", "5"],
        Color::Black,
        &["11-15", "8-11"],
    );
    assert!(
        out.starts_with("Welcome to Pool checkers! Type a move like 10-15, or `help` for commands.\n"),
        "{out}"
    );
    assert!(
        out.contains("You: Black (b, B), moving first. Computer: White (w, W), level 3 (casual).\n"),
        "{out}"
    );
    assert!(
        out.contains("Black to move (you).\nBlack> 11-15\nYou play 11-15.\nWhite (computer) plays "),
        "{out}"
    );
}

#[test]
fn a_whole_turkish_game_typed_in_algebraic() {
    let out = two_players_play_it_out::<Turkish>("turkish", "30");
    assert!(out.starts_with("Welcome to Turkish draughts! Type a move like e3-e4"), "{out}");
}

#[test]
fn a_whole_italian_game_on_the_mirrored_board() {
    let out = two_players_play_it_out::<Italian>("italian", "22");
    // Square 1 is a8 and 32 h1: the dark corner at each player's right.
    assert!(out.contains("  | b     b     b     b    |    |  1     2     3     4    |\n"), "{out}");
    assert!(out.contains("  |    w     w     w     w |    |    29    30    31    32 |\n"), "{out}");
}

#[test]
fn every_variant_plays_itself_to_its_end_and_records_it() {
    for variant in BoardVariant::ALL {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--variant", variant.name(), "--side", "none", "--level", "1", "--seed", "3"];
        let out = stdout(&play(dir.path(), &args, ""));
        assert!(out.contains("The computer plays itself at level 1 (beginner)."), "{variant}: {out}");
        assert_eq!(out.matches("Game over. ").count(), 1, "{variant}: {out}");
        let text = record(dir.path(), "gamerec.txt");
        assert!(text.contains(&format!("[GameType \"{}\"]\n", variant.pdn_game_type())), "{variant}: {text}");
        let game = &games(dir.path(), "gamerec.txt")[0];
        assert_eq!(game.move_count(), out.matches("(computer) plays").count(), "{variant}");
        assert_ne!(game.result(), PdnResult::Unknown, "{variant}");
        with_board_variant!(variant, V => {
            let recorded = board_game::<V>(game);
            let replayed = recorded.to_game().unwrap();
            let outcome = replayed.outcome().unwrap_or_else(|| panic!("{variant}: the game is over"));
            assert!(out.contains(&announced(outcome, &replayed.position())), "{variant}: {out}");
            assert_eq!(recorded.result(), expected_result(outcome), "{variant}");
        });
    }
}

#[test]
fn the_10x10_board_as_a_newcomer_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--variant", "international", "--seed", "1"], "quit\n"));
    let expected = "\
Welcome to International draughts!
Type a move like 33-28, or `help` for commands.
The squares are numbered on the board to the right.
You: White (w, W), moving first. Computer: Black (b, B), level 4 (improver).

   Black (b, B): computer, level 4; 20 pieces
  +------------------------------+    +-------------------------------+
  |    b     b     b     b     b |    |     1     2     3     4     5 |
  | b     b     b     b     b    |    |  6     7     8     9    10    |
  |    b     b     b     b     b |    |    11    12    13    14    15 |
  | b     b     b     b     b    |    | 16    17    18    19    20    |
  |    .     .     .     .     . |    |    21    22    23    24    25 |
  | .     .     .     .     .    |    | 26    27    28    29    30    |
  |    w     w     w     w     w |    |    31    32    33    34    35 |
  | w     w     w     w     w    |    | 36    37    38    39    40    |
  |    w     w     w     w     w |    |    41    42    43    44    45 |
  | w     w     w     w     w    |    | 46    47    48    49    50    |
  +------------------------------+    +-------------------------------+
   White (w, W): you; 20 pieces
White to move (you).
White> quit
Goodbye.
";
    assert_eq!(out, expected);
    assert!(!dir.path().join("gamerec.txt").exists(), "no record of a game with no moves");
}

#[test]
fn the_turkish_board_of_64_squares_with_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--variant", "turkish", "--side", "both"], "d3-d4\nflip\nquit\n"));
    let expected_start = "\
Welcome to Turkish draughts! Type a move like e3-e4, or `help` for commands.
The squares are named on the board to the right (a1-h8).
Two players at one keyboard; White moves first.

    Black (b, B): player; 16 pieces
   +------------------------+    +-------------------------+
 8 | .  .  .  .  .  .  .  . |    | a8 b8 c8 d8 e8 f8 g8 h8 |
 7 | b  b  b  b  b  b  b  b |    | a7 b7 c7 d7 e7 f7 g7 h7 |
 6 | b  b  b  b  b  b  b  b |    | a6 b6 c6 d6 e6 f6 g6 h6 |
 5 | .  .  .  .  .  .  .  . |    | a5 b5 c5 d5 e5 f5 g5 h5 |
 4 | .  .  .  .  .  .  .  . |    | a4 b4 c4 d4 e4 f4 g4 h4 |
 3 | w  w  w  w  w  w  w  w |    | a3 b3 c3 d3 e3 f3 g3 h3 |
 2 | w  w  w  w  w  w  w  w |    | a2 b2 c2 d2 e2 f2 g2 h2 |
 1 | .  .  .  .  .  .  .  . |    | a1 b1 c1 d1 e1 f1 g1 h1 |
   +------------------------+    +-------------------------+
     a  b  c  d  e  f  g  h 
    White (w, W): player; 16 pieces
White to move.
White> d3-d4
White plays d3-d4.

    Black (b, B): player; 16 pieces
   +------------------------+    +-------------------------+
 8 | .  .  .  .  .  .  .  . |    | a8 b8 c8 d8 e8 f8 g8 h8 |
 7 | b  b  b  b  b  b  b  b |    | a7 b7 c7 d7 e7 f7 g7 h7 |
 6 | b  b  b  b  b  b  b  b |    | a6 b6 c6 d6 e6 f6 g6 h6 |
 5 | .  .  .  .  .  .  .  . |    | a5 b5 c5 d5 e5 f5 g5 h5 |
 4 | .  .  . [w] .  .  .  . |    | a4 b4 c4 d4 e4 f4 g4 h4 |
 3 | w  w  w [.] w  w  w  w |    | a3 b3 c3 d3 e3 f3 g3 h3 |
 2 | w  w  w  w  w  w  w  w |    | a2 b2 c2 d2 e2 f2 g2 h2 |
 1 | .  .  .  .  .  .  .  . |    | a1 b1 c1 d1 e1 f1 g1 h1 |
   +------------------------+    +-------------------------+
     a  b  c  d  e  f  g  h 
    White (w, W): player; 16 pieces
Black to move.
Black> flip

    White (w, W): player; 16 pieces
   +------------------------+    +-------------------------+
 1 | .  .  .  .  .  .  .  . |    | h1 g1 f1 e1 d1 c1 b1 a1 |
 2 | w  w  w  w  w  w  w  w |    | h2 g2 f2 e2 d2 c2 b2 a2 |
 3 | w  w  w  w [.] w  w  w |    | h3 g3 f3 e3 d3 c3 b3 a3 |
 4 | .  .  .  . [w] .  .  . |    | h4 g4 f4 e4 d4 c4 b4 a4 |
 5 | .  .  .  .  .  .  .  . |    | h5 g5 f5 e5 d5 c5 b5 a5 |
";
    assert!(out.starts_with(expected_start), "{out}");
}

#[test]
fn the_12x12_board_fits_eighty_columns_with_the_last_move_marked() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(dir.path(), &["--variant", "canadian", "--side", "both"], "46-39\nquit\n"));
    let expected = "\
White> 46-39
White plays 46-39.

   Black (b, B): player; 30 pieces
  +------------------------------------+ +-------------------------------------+
  |    b     b     b     b     b     b | |     1     2     3     4     5     6 |
  | b     b     b     b     b     b    | |  7     8     9    10    11    12    |
  |    b     b     b     b     b     b | |    13    14    15    16    17    18 |
  | b     b     b     b     b     b    | | 19    20    21    22    23    24    |
  |    b     b     b     b     b     b | |    25    26    27    28    29    30 |
  | .     .     .     .     .     .    | | 31    32    33    34    35    36    |
  |    .     .    [w]    .     .     . | |    37    38    39    40    41    42 |
  | w     w     w    [.]    w     w    | | 43    44    45    46    47    48    |
  |    w     w     w     w     w     w | |    49    50    51    52    53    54 |
  | w     w     w     w     w     w    | | 55    56    57    58    59    60    |
  |    w     w     w     w     w     w | |    61    62    63    64    65    66 |
  | w     w     w     w     w     w    | | 67    68    69    70    71    72    |
  +------------------------------------+ +-------------------------------------+
   White (w, W): player; 30 pieces
Black to move.
";
    assert!(out.contains(expected), "{out}");
    assert!(expected.lines().all(|l| l.len() <= 80), "fits an 80-column terminal");
    let recorded = board_game::<Canadian>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(move_texts(recorded.start(), recorded.moves()), ["46-39"]);
}

/// The line the game answers `input` with, after the prompt `prompt`.
fn answer<'a>(out: &'a str, prompt: &str, input: &str) -> &'a str {
    let asked = format!("{prompt}> {input}\n");
    let at = out.find(&asked).unwrap_or_else(|| panic!("no `{asked}` in\n{out}")) + asked.len();
    let rest = &out[at..];
    // Two lines when the answer was broken at 80 columns.
    let ends = [rest.find("\n\n"), rest.find(&format!("\n{prompt}> ")), rest.find("\n> ")];
    let end = ends.into_iter().flatten().min().unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn international_refusals_give_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    // White must take three with 37 (37x28x17x8) or with 38 (38x27x18x7).
    let fen = "W:W37,38,45:B32,22,12,33";
    let input = "45-40\n37x28\n37x17\n38x27x17\n32\n1\n37\n51-46\nhello\n37 28 17 8\nquit\n";
    let out =
        stdout(&play(dir.path(), &["--variant", "international", "--side", "both", "--fen", fen], input));
    let compulsory = "a capture of 3 pieces is compulsory: 37x28x17x8 or\n38x27x18x7.";
    assert_eq!(answer(&out, "White", "45-40"), format!("45-40 is not a move: {compulsory}"));
    assert_eq!(
        answer(&out, "White", "37x28"),
        "37x28 is not a move: the capture goes on from 28 to 17 (37x28x17x8)."
    );
    assert_eq!(
        answer(&out, "White", "37x17"),
        "37x17 is not a move: the capture goes on from 17 to 8 (37x28x17x8)."
    );
    assert_eq!(answer(&out, "White", "38x27x17"), format!("38x27x17 is not a move: {compulsory}"));
    assert_eq!(answer(&out, "White", "32"), "32: the piece on 32 is not yours; White is to move.");
    assert_eq!(answer(&out, "White", "1"), "1: there is no piece on 1.");
    assert_eq!(answer(&out, "White", "37"), "From 37: 37x28x17x8.");
    assert_eq!(
        answer(&out, "White", "51-46"),
        "`51` is not a square: squares are numbered 1 to 50 (see the board on the right)."
    );
    assert_eq!(
        answer(&out, "White", "hello"),
        "I don't understand `hello`. Type a move such as 33-28, or `help` for the commands."
    );
    assert!(out.contains("White> 37 28 17 8\nWhite plays 37x28x17x8.\n"), "{out}");
    let recorded = board_game::<International>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(move_texts(recorded.start(), recorded.moves()), ["37x28x17x8"]);

    // A quiet move: where the piece can go.
    let out =
        stdout(&play(dir.path(), &["--variant", "international", "--side", "both"], "32-26\n46-41\nquit\n"));
    assert_eq!(answer(&out, "White", "32-26"), "32-26 is not a move: 32 can go to 27 or 28.");
    assert_eq!(answer(&out, "White", "46-41"), "46-41 is not a move: the piece on 46 cannot move.");
}

#[test]
fn named_squares_in_brazilian_czech_and_turkish() {
    let dir = tempfile::tempdir().unwrap();
    // Czech: Black's man on d8 takes two either way round, landing on d4.
    let args = ["--variant", "czech", "--side", "both", "--fen", "B:W6,7,14,15,30:B2,12"];
    let out = stdout(&play(dir.path(), &args, "d8xd4\nd8-e7\nd8xf6xd4\nquit\n"));
    assert_eq!(answer(&out, "Black", "d8xd4"), "d8xd4 could be d8xb6xd4 or d8xf6xd4: type the whole route.");
    assert_eq!(
        answer(&out, "Black", "d8-e7"),
        "d8-e7 is not a move: a capture of 2 pieces is compulsory: d8xb6xd4 or d8xf6xd4."
    );
    assert!(out.contains("Black> d8xf6xd4\nBlack plays d8xf6xd4.\n"), "{out}");
    assert!(record(dir.path(), "gamerec.txt").contains("[GameType \"29\"]\n"));

    // Brazilian: names or numbers typed, names shown and recorded; a FEN in names.
    let dir = tempfile::tempdir().unwrap();
    let args = ["--variant", "brazilian", "--side", "both"];
    let out = stdout(&play(dir.path(), &args, "c3-c4\n22-18\nf6-g5\nd4\nd4 f6\nquit\n"));
    assert_eq!(
        answer(&out, "White", "c3-c4"),
        "`c4` is not a square: squares are the dark ones, a1 to h8, or numbers 1 to 32\n(see the board on the right)."
    );
    assert!(out.contains("White> 22-18\nWhite plays c3-d4.\n"), "{out}");
    assert!(out.contains("Black> f6-g5\nBlack plays f6-g5.\n"), "{out}");
    assert_eq!(answer(&out, "White", "d4"), "From d4: d4-c5, d4-e5.");
    assert_eq!(answer(&out, "White", "d4 f6"), "d4 f6 is not a move: d4 can go to c5 or e5.");
    assert!(out.contains(" 4 |    .    [w]    .     . |    |    b4    d4    f4    h4 |\n"), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.contains("[GameType \"26\"]\n") && text.contains("1. c3-d4 f6-g5 *"), "{text}");
    let out = stdout(&play(
        dir.path(),
        &["--variant", "brazilian", "--side", "both", "--fen", "W:Wd4:Be5,g7", "--record", "fen.pdn"],
        "d4xh8\nquit\n",
    ));
    assert!(out.contains("White> d4xh8\nWhite plays d4xf6xh8.\n"), "{out}");
    assert!(out.contains("Game over. White wins: Black has no pieces left."), "{out}");

    // Turkish: names only.
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(
        dir.path(),
        &["--variant", "turkish", "--side", "both"],
        "d3-d5\n44-45\ne3\na7\nquit\n",
    ));
    assert_eq!(answer(&out, "White", "d3-d5"), "d3-d5 is not a move: d3 can go to d4.");
    assert_eq!(
        answer(&out, "White", "44-45"),
        "`44` is not a square: squares are a1 to h8 (see the board on the right)."
    );
    assert_eq!(answer(&out, "White", "e3"), "From e3: e3-e4.");
    assert_eq!(answer(&out, "White", "a7"), "a7: the piece on a7 is not yours; White is to move.");
}

#[test]
fn a_board_game_goes_on_in_its_place_after_an_english_one() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = "[Event \"Earlier\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 1-0\n";
    std::fs::write(dir.path().join("gamerec.txt"), earlier).unwrap();
    let args = ["--variant", "international", "--level", "2", "--seed", "7"];
    stdout(&play(dir.path(), &args, "32-28\nquit\n"));
    let left = board_game::<International>(&games(dir.path(), "gamerec.txt")[1]);
    assert_eq!(left.moves().len(), 2, "the person's move and the computer's answer");

    // No options: the same variant, sides, level and date; the game is rewritten in its place.
    let end = left.end_position();
    let next = end.legal_moves()[0].to_pdn(&end);
    let out =
        stdout(&play(dir.path(), &["--continue", "--seed", "7"], &format!("{next}\nundo\n{next}\nquit\n")));
    assert!(
        out.contains("You: White (w, W), moving first. Computer: Black (b, B), level 2 (novice)."),
        "{out}"
    );
    assert!(
        out.contains("Continuing the last game of gamerec.txt after 2 moves; it goes on in its place there."),
        "{out}"
    );
    assert!(out.contains(&format!("You play {next}.\nBlack (computer) plays ")), "{out}");
    assert!(out.contains("White> undo\nTook back 2 moves.\n"), "{out}");
    let text = record(dir.path(), "gamerec.txt");
    assert!(text.starts_with(earlier), "the earlier game is kept as it was:\n{text}");
    let all = games(dir.path(), "gamerec.txt");
    assert_eq!(all.len(), 2, "{text}");
    assert!(matches!(all[0], AnyPdnGame::Checkers(_)));
    let now = board_game::<International>(&all[1]);
    assert_eq!(&now.moves()[..2], left.moves());
    assert_eq!(now.moves().len(), 4);
    assert_eq!((now.tag("White"), now.tag("Black")), (Some("tester"), Some("checkers level 2")));
    assert_eq!(now.tag("Date"), left.tag("Date"));

    // Resigned, it is over: there is nothing to continue, and the result is Black's.
    let out = stdout(&play(dir.path(), &["--continue"], "resign\nreview\nquit\n"));
    assert!(out.contains("Game over. Black wins: White resigned.\nThe computer wins.\n"), "{out}");
    // The engine reviews the board game as it does English and Russian ones.
    assert!(out.contains("> review\nReviewing 4 moves…\n"), "{out}");
    assert!(
        out.contains("Review (500 thousand nodes a position; ? a mistake, ?? a blunder): White (you): "),
        "{out}"
    );
    let now = board_game::<International>(&games(dir.path(), "gamerec.txt")[1]);
    assert_eq!(now.result(), PdnResult::Win(Color::Black));
    assert!(record(dir.path(), "gamerec.txt").contains("{Black wins: White resigned} 0-2"));
    let output = checkers(dir.path()).args(["play", "--continue"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("the last game in gamerec.txt is over (0-2); there is nothing to continue"),
        "{err}"
    );
}

#[test]
fn a_turkish_game_between_two_players_is_continued() {
    let dir = tempfile::tempdir().unwrap();
    stdout(&play(dir.path(), &["--variant", "turkish", "--side", "both"], "d3-d4\nd6-d5\nquit\n"));
    // Black's man on d5 stands in front of White's on d4, with d6 and d8 empty behind it.
    let out = stdout(&play(dir.path(), &["--continue"], "e3-e4\nd4xd8\nquit\n"));
    assert!(out.contains("Two players at one keyboard; White moves first."), "{out}");
    assert_eq!(
        answer(&out, "White", "e3-e4"),
        "e3-e4 is not a move: a capture of 2 pieces is compulsory: d4xd6xd8."
    );
    assert!(out.contains("White> d4xd8\nWhite plays d4xd6xd8.\n"), "{out}");
    let game = board_game::<Turkish>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(move_texts(game.start(), game.moves()), ["d3-d4", "d6-d5", "d4xd6xd8"]);
    assert_eq!(game.result(), PdnResult::Unknown);
}

#[test]
fn the_computer_answers_draw_offers_and_hints_in_a_board_variant() {
    let dir = tempfile::tempdir().unwrap();
    // A king each on 10x10, on no common diagonal: nothing left to play for.
    let args = ["--variant", "international", "--level", "9", "--fen", "W:WK48:BK3"];
    let out = stdout(&play(dir.path(), &args, "hint\ndraw\nquit\n"));
    assert!(out.contains("White> hint\nHint: 48-"), "{out}");
    assert!(out.contains("White> draw\nThe draw is agreed.\n"), "{out}");
    assert!(out.contains("Game over. Draw: by agreement."), "{out}");
    let game = board_game::<International>(&games(dir.path(), "gamerec.txt")[0]);
    assert_eq!(game.result(), PdnResult::Draw);
    assert!(record(dir.path(), "gamerec.txt").contains("[FEN \"W:WK48:BK3\"]"));

    // A FEN of another board is refused before the game starts.
    let output = checkers(dir.path())
        .args(["play", "--variant", "international", "--fen", "W:W51:B1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.starts_with("error: bad --fen `W:W51:B1`: "), "{err}");
}
