//! `checkers hub` through the real binary: a scripted GUI session over pipes, with a search
//! to a depth, a ponder search answered after `ping` and `stop`, refused lines, and `quit`;
//! and one session through the variants on boards of any size, each answered in its own
//! numbering, with pondering, `ponder-hit` and `stop` on a 10x10 board.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use checkers_engine::hub::{
    board_from_hub, board_move_from_hub, board_to_hub, move_from_hub, position_from_hub, HubFen, Numbering,
};
use checkers_rules::board::{Board, Canadian, Frisian, International, Italian, Turkish};
use checkers_rules::{Position, Variant};

/// How long a test waits for an answer before calling the engine stuck (a guard against a
/// hang, not a measure of speed).
const PATIENCE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the checkers binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&self) -> String {
        self.lines.recv_timeout(PATIENCE).expect("the engine answers")
    }

    /// Reads lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let found = line.starts_with(prefix);
            seen.push(line);
            if found {
                return seen;
            }
        }
    }
}

fn done_move(line: &str) -> &str {
    line.strip_prefix("done move=").unwrap_or_else(|| panic!("{line}")).split(' ').next().unwrap()
}

#[test]
fn scripted_gui_session() {
    let mut engine = Engine::start();
    engine.send("hub");
    let intro = engine.until("wait");
    assert!(intro[0].starts_with("id name=checkers "), "{intro:?}");
    assert!(intro.iter().any(|l| l
        == "param name=variant value=english type=enum values=\"english russian international brazilian \
            canadian frisian frysk antidraughts breakthrough italian spanish portuguese czech pool thai turkish\""));
    assert!(intro.iter().any(|l| l.starts_with("param name=numbering value=standard")));

    engine.send("set-param name=variant value=russian");
    engine.send("set-param name=hash value=8");
    engine.send("init");
    assert_eq!(engine.next(), "ready");

    // A search to a depth from a position with moves (c3-d4 f6-g5 in standard numbers).
    let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
    engine.send("new-game");
    engine.send(&format!("pos pos={start} moves=\"22-18 11-16\""));
    engine.send("level depth=5");
    engine.send("go think");
    let answer = engine.until("done");
    let (done, infos) = answer.split_last().unwrap();
    assert!(infos.iter().all(|l| l.starts_with("info depth=")), "{answer:?}");
    assert!(infos.last().unwrap().starts_with("info depth=5 "), "{answer:?}");
    let mut position = position_from_hub(start, Variant::Russian, Numbering::Standard).unwrap();
    for m in ["22-18", "11-16"] {
        position = position.play_unchecked(&move_from_hub(&position, m, Numbering::Standard).unwrap());
    }
    let best = move_from_hub(&position, done_move(done), Numbering::Standard).expect("a legal move");
    assert_eq!(position.turn(), checkers_rules::Color::White);
    assert!(position.is_legal(&best));

    // Pondering runs until stopped; ping is answered meanwhile; stop still gives a move.
    engine.send("level infinite");
    engine.send("go ponder");
    engine.send("ping");
    assert!(engine.until("pong").iter().all(|l| l.starts_with("info") || l == "pong"));
    engine.send("stop");
    // The next search may be set up at once, before the stopped one has answered.
    engine.send(&format!("pos pos={start}"));
    engine.send("level nodes=2000");
    engine.send("go think");
    let stopped = engine.until("done");
    let start_position = Position::start(Variant::Russian);
    assert!(move_from_hub(&position, done_move(stopped.last().unwrap()), Numbering::Standard).is_ok());
    let next = engine.until("done");
    assert!(move_from_hub(&start_position, done_move(next.last().unwrap()), Numbering::Standard).is_ok());

    // Bad lines are answered with errors and the engine carries on.
    for bad in ["fly away", "pos pos=Wxyz", "level depth=zero", "set-param name=variant value=chess"] {
        engine.send(bad);
        let line = engine.next();
        assert!(line.starts_with("error message="), "{bad}: {line}");
    }
    engine.send("ping");
    assert_eq!(engine.next(), "pong");
    // So are bytes that are not text, and a line too long to keep: neither ends the session.
    engine.stdin.write_all(b"set-param name=variant value=\xe9nglish\n").unwrap();
    engine.send(&"x".repeat(checkers_engine::hub::MAX_LINE_BYTES + 1));
    assert_eq!(engine.next(), r#"error message="the line is not UTF-8 text""#);
    assert!(engine.next().starts_with("error message=\"the line is longer than"));
    engine.send("ping");
    assert_eq!(engine.next(), "pong");

    engine.send("quit");
    let status = engine.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn closed_input_ends_the_engine() {
    let mut engine = Engine::start();
    engine.send("hub");
    engine.until("wait");
    engine.send("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    engine.send("level infinite");
    engine.send("go think");
    let Engine { mut child, stdin, .. } = engine;
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Checks a search's answer in `V`: `info` lines whose principal variations are legal lines
/// from `position`, then a `done` line with a legal move (and a legal expected reply).
fn check_answer<V: HubFen>(answer: &[String], position: &str, numbering: Numbering) {
    let (done, infos) = answer.split_last().unwrap();
    let start = board_from_hub::<V>(position).unwrap();
    for info in infos {
        assert!(info.starts_with("info depth="), "{answer:?}");
        let pv = info.split(" pv=").nth(1).unwrap().trim_matches('"');
        let mut board = start;
        for text in pv.split_whitespace() {
            let mv = board_move_from_hub(&board, text, numbering).unwrap_or_else(|e| panic!("{info}: {e}"));
            board = board.play_unchecked(&mv);
        }
    }
    let best =
        board_move_from_hub(&start, done_move(done), numbering).unwrap_or_else(|e| panic!("{done}: {e}"));
    if let Some(ponder) = done.split(" ponder=").nth(1) {
        let after = start.play_unchecked(&best);
        assert!(board_move_from_hub(&after, ponder, numbering).is_ok(), "{done}");
    }
}

#[test]
fn board_variants_over_pipes() {
    let mut engine = Engine::start();
    engine.send("hub");
    engine.until("wait");
    engine.send("set-param name=hash value=8");
    engine.send("set-param name=variant value=standard");
    engine.send("init");
    assert_eq!(engine.next(), "ready");

    // International, named as pydraughts names it: a search to a depth from a game.
    let international = board_to_hub(&Board::<International>::start());
    engine.send(&format!("pos pos={international} moves=\"32-28 19-23 28x19 14x23\""));
    engine.send("level depth=4");
    engine.send("go think");
    let answer = engine.until("done");
    assert!(answer[answer.len() - 2].starts_with("info depth=4 "), "{answer:?}");
    let mut after = Board::<International>::start();
    for text in ["32-28", "19-23", "28x19", "14x23"] {
        after = after.play_unchecked(&after.parse_move(text).unwrap());
    }
    check_answer::<International>(&answer, &board_to_hub(&after), Numbering::Standard);

    // Pondering on the 10x10 board: `ping` answered meanwhile, then `ponder-hit` turns it into
    // a normal search, which answers.
    engine.send(&format!("pos pos={international}"));
    engine.send("level nodes=3000");
    engine.send("go ponder");
    engine.send("ping");
    assert!(engine.until("pong").iter().all(|l| l.starts_with("info") || l == "pong"));
    engine.send("ponder-hit");
    check_answer::<International>(&engine.until("done"), &international, Numbering::Standard);
    // And `stop` ends an endless search with a move.
    engine.send("level infinite");
    engine.send("go analyze");
    engine.send("stop");
    check_answer::<International>(&engine.until("done"), &international, Numbering::Standard);
    engine.send("new-game");

    // Frisian (a capture along a rank), Italian, Canadian: the engine is rebuilt for each.
    engine.send("set-param name=variant value=frisian");
    engine.send("pos pos=W:W28,46:B29,5");
    engine.send("level depth=3");
    engine.send("go think");
    let answer = engine.until("done");
    assert_eq!(done_move(answer.last().unwrap()), "28x30x29", "{answer:?}");
    check_answer::<Frisian>(&answer, "W:W28,46:B29,5", Numbering::Standard);
    for (variant, start) in [
        ("italian", board_to_hub(&Board::<Italian>::start())),
        ("canadian", board_to_hub(&Board::<Canadian>::start())),
    ] {
        engine.send(&format!("set-param name=variant value={variant}"));
        engine.send(&format!("pos pos={start}"));
        engine.send("go think");
        let answer = engine.until("done");
        match variant {
            "italian" => check_answer::<Italian>(&answer, &start, Numbering::Standard),
            _ => check_answer::<Canadian>(&answer, &start, Numbering::Standard),
        }
    }

    // Turkish in both numberings: square names, then pydraughts' numbers from a1.
    let turkish = board_to_hub(&Board::<Turkish>::start());
    engine.send("set-param name=variant value=turkish");
    for numbering in [Numbering::Standard, Numbering::Pydraughts] {
        engine.send(&format!("set-param name=numbering value={}", numbering.name()));
        engine.send(&format!("pos pos={turkish}"));
        engine.send("go think");
        let answer = engine.until("done");
        let best = done_move(answer.last().unwrap());
        assert_eq!(
            best.starts_with(|c: char| c.is_ascii_lowercase()),
            numbering == Numbering::Standard,
            "{best}"
        );
        check_answer::<Turkish>(&answer, &turkish, numbering);
    }
    // A refused line in a board variant, and the session goes on.
    engine.send(&format!("pos pos={turkish} moves=\"a3-a5\""));
    assert!(engine.next().starts_with("error message=\"bad move 1 `a3-a5`"));
    engine.send("set-param name=variant value=killer");
    assert!(engine.next().starts_with("error message=\"bad value `killer` for `variant`"));
    engine.send("ping");
    assert_eq!(engine.next(), "pong");
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}
