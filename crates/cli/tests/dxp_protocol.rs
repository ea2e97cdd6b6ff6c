//! `checkers dxp` through the real binary over TCP: our `--listen` against our `--connect`
//! playing whole games (both sides print the same games, every move legal, the same
//! results); a hand-written client sending garbage, a message of the wrong length, a
//! request for a game the variant cannot carry, another protocol version and an illegal move,
//! each answered as the protocol answers; and the options refused with one clear line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use checkers_rules::board::Board;
use checkers_rules::board::{BoardGame, Breakthrough, International, RuleSet};
use checkers_rules::{read_board_pdn, BoardPdnGame, PdnResult};

/// How long a test waits for a process or a message before calling it stuck (a guard
/// against a hang, not a measure of speed).
const PATIENCE: Duration = Duration::from_secs(240);

fn checkers() -> Command {
    Command::new(env!("CARGO_BIN_EXE_checkers"))
}

/// `checkers dxp --listen 127.0.0.1:0 ARGS`, the address it says it listens on, and a thread
/// gathering the rest of its log.
struct Listener {
    child: Child,
    addr: String,
    log: JoinHandle<String>,
}

impl Listener {
    fn start(args: &[&str]) -> Listener {
        let mut child = checkers()
            .args(["dxp", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the checkers binary runs");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        stderr.read_line(&mut first).unwrap();
        let addr =
            first.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("{first:?}")).to_string();
        let log = std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            rest
        });
        Listener { child, addr, log }
    }

    /// Waits for the listener to end; its standard output and log.
    fn finish(mut self) -> (std::process::ExitStatus, String, String) {
        let status = wait(&mut self.child);
        let mut stdout = String::new();
        self.child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        (status, stdout, self.log.join().unwrap())
    }
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("`checkers dxp` did not end within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn connect(args: &[&str]) -> Output {
    let mut child = checkers()
        .args(["dxp"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the checkers binary runs");
    // Drain the pipes while waiting, so a long log cannot block the process.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let status = wait(&mut child);
    Output { status, stdout: out.join().unwrap(), stderr: err.join().unwrap() }
}

/// Each side's games read back from its PDN; both sides saw the same games, each replayed
/// legally, with the same result, named from each side.
fn agree<V: RuleSet>(initiator: &str, follower: &str, games: usize) -> Vec<BoardPdnGame<V>> {
    let ours = read_board_pdn::<V>(initiator).unwrap_or_else(|e| panic!("{e}:\n{initiator}"));
    let theirs = read_board_pdn::<V>(follower).unwrap_or_else(|e| panic!("{e}:\n{follower}"));
    assert_eq!((ours.len(), theirs.len()), (games, games), "{initiator}\n{follower}");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a.start(), b.start(), "game {}", i + 1);
        assert_eq!(a.moves(), b.moves(), "game {}", i + 1);
        assert_eq!(a.result(), b.result(), "game {}", i + 1);
        // The initiator plays White in odd games.
        let (white, black) = if i % 2 == 0 { ("initiator", "follower") } else { ("follower", "initiator") };
        assert_eq!((a.tag("White"), a.tag("Black")), (Some(white), Some(black)));
        assert_eq!((b.tag("White"), b.tag("Black")), (Some(white), Some(black)));
        assert_eq!(a.tag("Round"), Some(&*(i + 1).to_string()));
        let game: BoardGame<V> = a.to_game().unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        if let Some(outcome) = game.outcome() {
            let expected = outcome.winner().map_or(PdnResult::Draw, PdnResult::Win);
            assert_eq!(a.result(), expected, "game {}", i + 1);
        }
    }
    ours
}

#[test]
fn our_listener_and_our_connector_play_whole_games() {
    let listener =
        Listener::start(&["--games", "2", "--movetime", "20", "--hash", "8", "--name", "follower"]);
    let out = connect(&[
        "--connect",
        &listener.addr,
        "--games",
        "2",
        "--movetime",
        "20",
        "--hash",
        "8",
        "--name",
        "initiator",
    ]);
    let (status, follower, log) = listener.finish();
    let initiator = String::from_utf8_lossy(&out.stdout);
    let initiator_log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{initiator_log}");
    assert!(status.success(), "{log}");
    let games = agree::<International>(&initiator, &follower, 2);
    for game in &games {
        // Played to the end by the rules: a win or a draw, never left open.
        assert!(game.to_game().unwrap().is_over(), "{}", game.to_pdn());
        assert!(game.moves().len() > 20, "{}", game.to_pdn());
    }
    assert!(log.contains("game 1: we play Black against initiator, international from the start"), "{log}");
    assert!(initiator_log.contains("game 2: we play Black against follower"), "{initiator_log}");
    assert!(!log.contains("refused") && !initiator_log.contains("refused"), "{log}\n{initiator_log}");
}

#[test]
fn a_set_up_position_and_a_move_limit_are_played_alike_by_both() {
    // Black to move, kings on both sides: sent as a GAMEREQ with its position (`B`).
    let fen = "B:WK47,31,32,33,38:BK4,13,16,17,18";
    let listener = Listener::start(&["--games", "1", "--level", "2", "--name", "follower", "--hash", "8"]);
    let out = connect(&[
        "--connect",
        &listener.addr,
        "--fen",
        fen,
        "--max-moves",
        "20",
        "--movetime",
        "15",
        "--name",
        "initiator",
        "--hash",
        "8",
    ]);
    let (status, follower, log) = listener.finish();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(status.success(), "{log}");
    let games = agree::<International>(&String::from_utf8_lossy(&out.stdout), &follower, 1);
    let game = &games[0];
    assert_eq!(game.start().to_fen(), Board::<International>::from_fen(fen).unwrap().to_fen());
    assert!(game.moves().len() <= 40, "{}", game.to_pdn());
    if !game.to_game().unwrap().is_over() {
        assert_eq!(game.moves().len(), 40);
        assert_eq!(game.result(), PdnResult::Unknown);
    }
}

#[test]
fn a_breakthrough_game_ends_at_the_first_king() {
    let args = ["--variant", "breakthrough", "--movetime", "10", "--hash", "4"];
    let listener = Listener::start(&[&args[..], &["--games", "1", "--name", "follower"]].concat());
    let out = connect(&[&args[..], &["--connect", &listener.addr, "--name", "initiator"]].concat());
    let (status, follower, log) = listener.finish();
    assert!(out.status.success() && status.success(), "{log}");
    let games = agree::<Breakthrough>(&String::from_utf8_lossy(&out.stdout), &follower, 1);
    let game = games[0].to_game().unwrap();
    assert!(game.is_over(), "{}", games[0].to_pdn());
    assert_ne!(games[0].result(), PdnResult::Unknown);
}

/// A hand-written peer: sends raw messages, reads the answers.
struct RawPeer {
    stream: TcpStream,
}

impl RawPeer {
    fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
        self.stream.write_all(b"\0").unwrap();
    }

    /// The next message, without its NUL; `None` when the listener closed the connection.
    fn next(&mut self) -> Option<String> {
        let mut message = Vec::new();
        let mut byte = [0u8];
        loop {
            match self.stream.read(&mut byte) {
                Ok(0) => {
                    return (!message.is_empty()).then(|| String::from_utf8_lossy(&message).into_owned())
                }
                Ok(_) if byte[0] == 0 => return Some(String::from_utf8(message).expect("ASCII")),
                Ok(_) => message.push(byte[0]),
                Err(e) => panic!("no answer: {e}"),
            }
        }
    }
}

fn request(color: char, position: &str) -> String {
    format!("R01{:<32}{color}001000{position}", "raw peer")
}

#[test]
fn a_hostile_peer_gets_the_protocols_answers() {
    let listener =
        Listener::start(&["--games", "1", "--movetime", "10", "--hash", "4", "--name", "follower"]);
    let stream = TcpStream::connect(&listener.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut peer = RawPeer { stream };
    let accepted = format!("A{:<32}0", "follower");
    let declined = format!("A{:<32}2", "follower");

    peer.send(b"garbage");
    assert_eq!(peer.next().unwrap(), "Cerror: unknown message type `g` (known: R A M E C B K)");
    peer.send(b"M00120611");
    assert_eq!(peer.next().unwrap(), "Cerror: MOVE of 9 characters ends before its number captured");
    peer.send(&[b'C'; 300]);
    assert_eq!(peer.next().unwrap(), "Cerror: a message of 300 bytes (at most 127 before the NUL)");
    peer.send(b"\x01\xff");
    assert_eq!(peer.next().unwrap(), "Cerror: byte 2 is 0xff: messages are ASCII characters 1-127");
    // A Brazilian (8x8) position: not a game international can carry.
    peer.send(request('W', "BWzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww").as_bytes());
    assert_eq!(peer.next().unwrap(), declined);
    assert_eq!(peer.next().unwrap(), "Cerror: the position has 32 squares; international is played on 50");
    peer.send(request('W', "A").replacen("R01", "R02", 1).as_bytes());
    assert_eq!(peer.next().unwrap(), format!("A{:<32}1", "follower"));
    assert_eq!(peer.next().unwrap(), "Cerror: GAMEREQ of protocol version 02: we speak 01");

    // A game with the engine White: it moves first.
    peer.send(request('W', "A").as_bytes());
    assert_eq!(peer.next().unwrap(), accepted);
    let first = peer.next().unwrap();
    assert!(first.starts_with('M') && first.len() == 11 && first.ends_with("00"), "{first}");
    // 19-18 is sideways: illegal. The game ends (stop code 1: it is the listener's last
    // game, --games 1), the peer told why.
    peer.send(b"M0000191800");
    assert_eq!(peer.next().unwrap(), "E01");
    let why = peer.next().unwrap();
    assert!(why.starts_with("Cerror: illegal move M0000191800: 19-18 is not a legal move: "), "{why}");
    // Acknowledged, asking for no further game: the listener closes, having played its game.
    peer.send(b"E01");
    assert_eq!(peer.next(), None);
    let (status, stdout, log) = listener.finish();
    assert!(status.success(), "{log}");
    let games = read_board_pdn::<International>(&stdout).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].result(), PdnResult::Unknown);
    assert_eq!(games[0].moves().len(), 1);
    assert_eq!((games[0].tag("White"), games[0].tag("Black")), (Some("follower"), Some("raw peer")));
    assert!(games[0].to_pdn().contains("raw peer played an illegal move"), "{}", games[0].to_pdn());
    assert!(log.contains("refused: illegal move M0000191800"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn options_dxp_cannot_play_are_refused_with_one_line() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--listen", "127.0.0.1:0", "--variant", "brazilian"],
            "error: --variant: DXP carries only the 10x10 board (squares 01-50, positions of 50 letters): \
             brazilian is played on 32 squares; DXP plays international, frisian, frysk, antidraughts, \
             breakthrough\n",
        ),
        (
            &["--connect", "127.0.0.1:9", "--variant", "english"],
            "error: --variant: DXP carries only the 10x10 board (squares 01-50): english is an 8x8 game; \
             DXP plays international, frisian, frysk, antidraughts, breakthrough\n",
        ),
        (
            &["--listen", "127.0.0.1:0", "--movetime", "0"],
            "error: --movetime must be at least 1 (milliseconds)\n",
        ),
        (&["--connect", "127.0.0.1:0", "--games", "0"], "error: --games must be at least 1\n"),
    ];
    for (args, expected) in cases {
        let out = checkers().arg("dxp").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected, "{args:?}");
        assert!(out.stdout.is_empty());
    }
    for args in
        [&["dxp"][..], &["dxp", "--listen", "a", "--connect", "b"], &["dxp", "--listen", "a", "--time", "3"]]
    {
        let out = checkers().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("error: ") && stderr.lines().count() == 1, "{args:?}: {stderr}");
    }
    let out = checkers().args(["dxp", "--listen", "not an address"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: --listen `not an address`: not an address")
    );
}
