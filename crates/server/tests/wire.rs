//! The wire format, byte for byte: a scripted run of the online game records every message a
//! client sends and every message the server answers or pushes (each kind of message, each
//! error code a client can cause, the HTTP bodies of the review, the lines and the list of
//! games) and compares the record with `tests/data/wire.txt`. What is random or depends on
//! the time (game ids, seat tokens, invitations, timestamps, running clocks) is replaced by
//! placeholders; everything else must be the same text, key order included.
//!
//! A deliberate change of the protocol rewrites the record with
//! `CHECKERS_BLESS_WIRE=1 cargo test -p checkers-server --test wire`, and its diff is the
//! change on the wire.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;

use checkers_server::{start, Config};
use common::{http_get, Client};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The record of the run, with the random parts of the texts replaced.
#[derive(Default)]
struct Transcript {
    lines: Vec<String>,
    /// Each game id, seat token and invitation seen, with its placeholder.
    names: Vec<(String, String)>,
    games: usize,
    tokens: usize,
    invites: usize,
}

/// Fields whose values depend on the time of the run.
const TIMED_FIELDS: [&str; 4] = ["created_ms", "updated_ms", "white_ms", "black_ms"];

impl Transcript {
    fn heading(&mut self, text: &str) {
        self.lines.push(format!("# {text}"));
    }

    /// Learns the game ids, seat tokens and invitations a server message hands out.
    fn learn(&mut self, text: &str) {
        let Ok(value) = serde_json::from_str::<Value>(text) else { return };
        for field in ["game", "new_game", "token", "invite"] {
            let Some(name) = value[field].as_str() else { continue };
            if self.names.iter().any(|(real, _)| real == name) {
                continue;
            }
            let (count, kind) = match field {
                "token" => (&mut self.tokens, "TOKEN"),
                "invite" => (&mut self.invites, "INVITE"),
                _ => (&mut self.games, "GAME"),
            };
            *count += 1;
            let placeholder = format!("{kind}{count}");
            self.names.push((name.to_string(), placeholder));
        }
    }

    fn normalise(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (real, placeholder) in &self.names {
            text = text.replace(real.as_str(), placeholder);
        }
        for field in TIMED_FIELDS {
            text = mask_number(&text, &format!("\"{field}\":"));
        }
        mask_cursor_times(&text)
    }

    fn sent(&mut self, who: &str, text: &str) {
        let line = format!("{who}> {}", self.normalise(text));
        self.lines.push(line);
    }

    fn received(&mut self, who: &str, text: &str) {
        self.learn(text);
        let line = format!("{who}< {}", self.normalise(text));
        self.lines.push(line);
    }

    /// The real name behind a placeholder (a game id or a seat token).
    fn real(&self, placeholder: &str) -> String {
        self.names.iter().find(|(_, p)| p == placeholder).map(|(real, _)| real.clone()).unwrap_or_else(|| {
            panic!("{placeholder} has not been handed out yet");
        })
    }

    /// Compares the record with `tests/data/{name}.txt`, or writes the file when blessing.
    fn check(&self, name: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/{name}.txt"));
        let actual = self.lines.join("\n") + "\n";
        if std::env::var("CHECKERS_BLESS_WIRE").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &actual).expect("the record is written");
            return;
        }
        let expected = std::fs::read_to_string(&path).expect("the record is there");
        for (i, (want, got)) in expected.lines().zip(actual.lines()).enumerate() {
            assert_eq!(got, want, "line {} of {} differs", i + 1, path.display());
        }
        assert_eq!(actual.lines().count(), expected.lines().count(), "the record has another length");
    }
}

/// Replaces the digits after each `key` with a `0`.
fn mask_number(text: &str, key: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        let (before, after) = rest.split_at(at + key.len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            out.push('0');
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Replaces the time in each place in the list of games (`1.TIME.GAME4`, once its game id is
/// a placeholder) with a `0`.
fn mask_cursor_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(".GAME") {
        let before = &rest[..at];
        let digits = before.bytes().rev().take_while(u8::is_ascii_digit).count();
        let start = at - digits;
        if digits > 0 && before[..start].ends_with('.') {
            out.push_str(&before[..start]);
            out.push('0');
        } else {
            out.push_str(before);
        }
        out.push_str(".GAME");
        rest = &rest[at + ".GAME".len()..];
    }
    out.push_str(rest);
    out
}

/// A client with a name in the record.
struct Peer {
    name: &'static str,
    client: Client,
}

impl Peer {
    async fn connect(name: &'static str, addr: SocketAddr) -> Peer {
        Peer { name, client: Client::connect(addr).await }
    }

    async fn send(&mut self, t: &mut Transcript, text: &str) {
        t.sent(self.name, text);
        self.client.send_text(text).await;
    }

    /// Records the next `count` messages from the server.
    async fn receive(&mut self, t: &mut Transcript, count: usize) -> Vec<Value> {
        let mut values = Vec::new();
        for _ in 0..count {
            let text = self.client.next_text().await.expect("the connection stays open");
            t.received(self.name, &text);
            values.push(serde_json::from_str(&text).expect("JSON"));
        }
        values
    }

    /// Sends a message and records the `count` messages that answer it.
    async fn ask(&mut self, t: &mut Transcript, message: Value, count: usize) -> Vec<Value> {
        self.send(t, &message.to_string()).await;
        self.receive(t, count).await
    }
}

async fn get(t: &mut Transcript, addr: SocketAddr, path: &str) {
    let (status, body) = http_get(addr, path);
    let line = format!("GET {} -> {status} {}", t.normalise(path), t.normalise(&body));
    t.lines.push(line);
}

/// Asks for the list of games on fresh connections until `done` holds for it, and records
/// that answer (the list is sent again at most once a second, so it may lag a change).
async fn games_list_where(t: &mut Transcript, addr: SocketAddr, done: impl Fn(&Value) -> bool) {
    let request = json!({"t": "games", "id": 1}).to_string();
    loop {
        let mut client = Client::connect(addr).await;
        client.send_text(&request).await;
        let text = client.next_text().await.expect("the list of games");
        if done(&serde_json::from_str(&text).expect("JSON")) {
            t.sent("g", &request);
            t.received("g", &text);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Refuses every move the server tries to store, while it lives.
struct RefuseMoves {
    db: PathBuf,
}

impl RefuseMoves {
    async fn run(db: &std::path::Path, sql: &str) {
        let url = format!("sqlite://{}", db.display());
        let pool = sqlx::SqlitePool::connect(&url).await.expect("the test opens the database");
        sqlx::query(sql).execute(&pool).await.expect("the trigger statement runs");
        pool.close().await;
    }

    async fn install(db: PathBuf) -> RefuseMoves {
        let sql = "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves \
                   BEGIN SELECT RAISE(ABORT, 'moves refused by the test'); END";
        RefuseMoves::run(&db, sql).await;
        RefuseMoves { db }
    }

    async fn remove(self) {
        RefuseMoves::run(&self.db, "DROP TRIGGER refuse_moves").await;
    }
}

/// Connection-level answers: pings, request ids, junk, binary and oversized messages.
async fn connection(t: &mut Transcript, addr: SocketAddr) {
    let mut x = Peer::connect("x", addr).await;
    t.heading("pings and request ids");
    x.ask(t, json!({"t": "ping", "id": 1}), 1).await;
    x.ask(t, json!({"t": "ping", "id": "abc"}), 1).await;
    x.ask(t, json!({"t": "ping", "id": [1]}), 1).await;
    x.ask(t, json!({"t": "ping", "id": "i".repeat(64)}), 1).await;
    x.ask(t, json!({"t": "ping", "id": "i".repeat(65)}), 1).await;
    x.ask(t, json!({"t": "ping"}), 1).await;
    // Numbers come back exactly up to 2^53 - 1 either way; past it, or with a fraction, a
    // client reading doubles would not find its id, so they are refused.
    for id in
        ["9007199254740991", "-9007199254740991", "9007199254740992", "12345678901234567890123", "1.5", "1e3"]
    {
        x.send(t, &format!("{{\"id\":{id},\"t\":\"ping\"}}")).await;
        x.receive(t, 1).await;
    }
    t.heading("junk");
    for junk in [
        "not json",
        "[1,2,3]",
        "{\"t\":",
        "null",
        "{\"no\":\"type\"}",
        "{\"t\":\"fly\",\"id\":2}",
        "{\"t\":5}",
    ] {
        x.send(t, junk).await;
        x.receive(t, 1).await;
    }
    t.lines.push("x> (binary 00 01 02)".to_string());
    x.client.send_raw(Message::Binary(vec![0, 1, 2].into())).await;
    x.receive(t, 1).await;
    t.lines.push("x> (a ping padded to 5000 bytes)".to_string());
    x.client.send_text(&format!("{{\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000))).await;
    x.receive(t, 1).await;
    // An id within the first 4,096 bytes is echoed in the refusal; one after them is not.
    t.lines.push("x> (a ping with id 3, padded to 5000 bytes after it)".to_string());
    x.client.send_text(&format!("{{\"id\":3,\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000))).await;
    x.receive(t, 1).await;
    t.lines.push("x> (a ping padded to 5000 bytes before its id 4)".to_string());
    x.client.send_text(&format!("{{\"t\":\"ping\",\"pad\":\"{}\",\"id\":4}}", "x".repeat(5000))).await;
    x.receive(t, 1).await;
}

/// Requests refused for their shape or their choices, before any game is looked at.
async fn bad_requests(t: &mut Transcript, addr: SocketAddr) {
    let mut x = Peer::connect("x", addr).await;
    t.heading("bad choices and shapes");
    let requests = [
        json!({"t": "create", "id": 1, "opponent": "robot"}),
        json!({"t": "create", "id": 2, "opponent": "computer"}),
        json!({"t": "create", "id": 3, "opponent": "computer", "level": 0}),
        json!({"t": "create", "id": 4, "opponent": "computer", "level": 10}),
        json!({"t": "create", "id": 5, "opponent": "computer", "level": 300}),
        json!({"t": "create", "id": 6, "opponent": "computer", "level": "3"}),
        json!({"t": "create", "id": 7, "opponent": 5}),
        json!({"t": "create", "id": 8, "variant": "chess"}),
        json!({"t": "create", "id": 9, "opponent": "friend", "variant": "chess"}),
        json!({"t": "create", "id": 10, "opponent": "friend", "variant": 5}),
        json!({"t": "create", "id": 11, "opponent": "robot", "variant": "chess"}),
        json!({"t": "create", "id": 12, "opponent": "robot", "level": 300}),
        json!({"t": "create", "id": 13, "opponent": "friend", "color": "green"}),
        json!({"t": "create", "id": 14, "opponent": "friend", "color": 1}),
        json!({"t": "create", "id": 15, "opponent": "friend", "color": "green", "clock": {"base": 1}}),
        json!({"t": "create", "id": 16, "opponent": "computer", "level": 1, "color": "green"}),
        json!({"t": "create", "id": 17, "opponent": "computer", "color": "green"}),
        json!({"t": "create", "id": 18, "opponent": "friend", "clock": {"base": 1}}),
        json!({"t": "create", "id": 19, "opponent": "friend", "clock": {"base": 20000}}),
        json!({"t": "create", "id": 20, "opponent": "friend", "clock": {"base": 60, "increment": 181}}),
        json!({"t": "create", "id": 21, "opponent": "friend", "clock": {"increment": 1}}),
        json!({"t": "join", "id": 22, "game": "nosuchgame", "color": "green"}),
        json!({"t": "join", "id": 23}),
        json!({"t": "watch", "id": 24}),
        json!({"t": "watch", "id": 25, "game": "nosuchgame"}),
        json!({"t": "watch", "id": 26, "game": "../etc"}),
        json!({"t": "draw", "id": 27, "game": "nosuchgame", "token": "t", "action": "maybe"}),
        json!({"t": "draw", "id": 28, "game": "nosuchgame", "token": "t", "action": 5}),
        json!({"t": "draw", "id": 29, "game": "nosuchgame", "token": "t"}),
        json!({"t": "move", "id": 30, "game": "nosuchgame", "token": "t", "text": "x".repeat(201)}),
    ];
    for request in requests {
        x.ask(t, request, 1).await;
    }
}

/// Moves, offers and requests refused in a game under way, which is left as it was.
async fn refusals(t: &mut Transcript, addr: SocketAddr) {
    let mut x = Peer::connect("x", addr).await;
    t.heading("refusals in GAME1 (Black, TOKEN1, to move)");
    let game = t.real("GAME1");
    let (black, white) = (t.real("TOKEN1"), t.real("TOKEN2"));
    let stranger = "00000000000000000000000000000000";
    let requests = [
        json!({"t": "move", "id": 1, "game": game, "token": white, "text": "22-18"}),
        json!({"t": "move", "id": 2, "game": game, "token": stranger, "text": "9-13"}),
        json!({"t": "move", "id": 3, "game": game, "token": black, "text": "zz"}),
        json!({"t": "move", "id": 4, "game": game, "token": black, "text": "9-18"}),
        json!({"t": "move", "id": 5, "game": game, "token": black, "text": "22-18"}),
        json!({"t": "move", "id": 6, "game": game, "token": black, "from": 99, "to": 1}),
        json!({"t": "move", "id": 7, "game": game, "token": black, "from": 1, "to": 5}),
        json!({"t": "move", "id": 8, "game": game, "token": black, "to": 13}),
        json!({"t": "move", "id": 9, "game": game, "token": black, "from": 9}),
        json!({"t": "move", "id": 10, "game": game, "token": black, "from": 9, "to": 13, "captured": [50]}),
        json!({"t": "move", "id": 11, "game": game, "token": black}),
        json!({"t": "move", "id": 12, "game": game, "token": black, "text": "9-13", "ply": 0}),
        json!({"t": "move", "id": 13, "game": "nosuchgame", "token": black, "text": "9-13"}),
        json!({"t": "move", "id": 14, "game": game, "text": "9-13"}),
        json!({"t": "draw", "id": 15, "game": game, "token": black, "action": "accept"}),
        json!({"t": "draw", "id": 16, "game": game, "token": black, "action": "decline"}),
        json!({"t": "draw", "id": 17, "game": game, "token": stranger, "action": "offer"}),
        json!({"t": "resign", "id": 18, "game": game, "token": stranger}),
        json!({"t": "rematch", "id": 19, "game": game, "token": black}),
        json!({"t": "join", "id": 20, "game": game}),
    ];
    for request in requests {
        x.ask(t, request, 1).await;
    }
}

/// A friend game from creation to rematch, with a watcher, on the creator's and the second
/// player's connections.
async fn friend_game(t: &mut Transcript, addr: SocketAddr) -> (Peer, Peer, Peer) {
    t.heading("a friend game: created, in no list, joined with its invitation, watched");
    let mut a = Peer::connect("a", addr).await;
    let request = json!({"t": "create", "id": 1, "opponent": "friend", "variant": "english", "color": "black",
                         "name": "Ann <b>"});
    a.ask(t, request, 3).await;
    let (game, invite) = (t.real("GAME1"), t.real("INVITE1"));
    get(t, addr, "/api/games").await;
    let mut b = Peer::connect("b", addr).await;
    b.ask(t, json!({"t": "join", "id": 1, "game": game}), 1).await;
    b.ask(t, json!({"t": "join", "id": 2, "game": game, "invite": "00000000000000000000000000000000"}), 1)
        .await;
    b.ask(t, json!({"t": "join", "id": 3, "game": game, "invite": invite, "name": " Bob\u{7}"}), 3).await;
    a.receive(t, 1).await;
    games_list_where(t, addr, |list| list["games"].as_array().is_some_and(Vec::is_empty)).await;
    let mut w = Peer::connect("w", addr).await;
    w.ask(t, json!({"t": "watch", "id": 1, "game": game}), 2).await;
    let token = t.real("TOKEN1");
    w.ask(t, json!({"t": "watch", "id": 2, "game": game, "token": token}), 2).await;

    t.heading("moves and a draw offer in GAME1");
    let (black, white) = (t.real("TOKEN1"), t.real("TOKEN2"));
    a.ask(t, json!({"t": "move", "id": 2, "game": game, "token": black, "text": "11-15", "ply": 0}), 2).await;
    b.receive(t, 1).await;
    w.receive(t, 1).await;
    b.ask(t, json!({"t": "move", "id": 2, "game": game, "token": white, "from": 23, "to": 19, "ply": 1}), 2)
        .await;
    a.receive(t, 1).await;
    w.receive(t, 1).await;
    a.ask(t, json!({"t": "draw", "id": 3, "game": game, "token": black, "action": "offer"}), 2).await;
    b.receive(t, 1).await;
    w.receive(t, 1).await;
    b.ask(t, json!({"t": "draw", "id": 3, "game": game, "token": white, "action": "decline"}), 2).await;
    a.receive(t, 1).await;
    w.receive(t, 1).await;
    refusals(t, addr).await;
    (a, b, w)
}

/// The end of GAME1 by resignation, and its rematch.
async fn resignation_and_rematch(t: &mut Transcript, addr: SocketAddr, players: &mut (Peer, Peer, Peer)) {
    let (a, b, w) = players;
    let mut x = Peer::connect("x", addr).await;
    t.heading("GAME1 resigned, then a rematch");
    let game = t.real("GAME1");
    let (black, white) = (t.real("TOKEN1"), t.real("TOKEN2"));
    b.ask(t, json!({"t": "resign", "id": 4, "game": game, "token": white}), 2).await;
    a.receive(t, 1).await;
    w.receive(t, 1).await;
    x.ask(t, json!({"t": "move", "id": 1, "game": game, "token": black, "text": "9-13"}), 1).await;
    x.ask(t, json!({"t": "draw", "id": 2, "game": game, "token": black, "action": "offer"}), 1).await;
    x.ask(t, json!({"t": "resign", "id": 3, "game": game, "token": black}), 1).await;
    a.ask(t, json!({"t": "rematch", "id": 4, "game": game, "token": black}), 2).await;
    b.receive(t, 1).await;
    w.receive(t, 1).await;
    b.ask(t, json!({"t": "rematch", "id": 5, "game": game, "token": white}), 2).await;
    a.receive(t, 1).await;
    w.receive(t, 1).await;
    x.ask(t, json!({"t": "rematch", "id": 4, "game": game, "token": black}), 1).await;
    let rematch = t.real("GAME2");
    w.ask(t, json!({"t": "watch", "id": 3, "game": rematch, "token": white}), 2).await;
}

/// A game withdrawn before anyone joined it.
async fn withdrawn_game(t: &mut Transcript, addr: SocketAddr) {
    t.heading("a Russian game moved in before it starts, then withdrawn");
    let mut n = Peer::connect("n", addr).await;
    n.ask(
        t,
        json!({"t": "create", "id": 1, "opponent": "friend", "variant": "russian", "color": "white"}),
        3,
    )
    .await;
    let (game, token) = (t.real("GAME3"), t.real("TOKEN3"));
    n.ask(t, json!({"t": "move", "id": 2, "game": game, "token": token, "text": "c3-d4"}), 1).await;
    n.ask(t, json!({"t": "draw", "id": 3, "game": game, "token": token, "action": "offer"}), 1).await;
    n.ask(t, json!({"t": "resign", "id": 4, "game": game, "token": token}), 2).await;
    n.ask(t, json!({"t": "move", "id": 5, "game": game, "token": token, "text": "c3-d4"}), 1).await;
    n.ask(t, json!({"t": "rematch", "id": 6, "game": game, "token": token}), 1).await;
}

/// The site's game rules: takebacks asked for, refused and accepted, a claim refused, an
/// abort.
async fn site_rules(t: &mut Transcript, addr: SocketAddr) {
    t.heading("the site's game rules: takebacks, a claim refused, an abort");
    let mut b = Peer { name: "b", client: Client::connect_from(addr, 20).await };
    b.ask(t, json!({"t": "create", "id": 1, "opponent": "friend", "color": "black"}), 3).await;
    let (game, invite) = (t.real(&format!("GAME{}", t.games)), t.real(&format!("INVITE{}", t.invites)));
    let black = t.real(&format!("TOKEN{}", t.tokens));
    let mut w = Peer { name: "w", client: Client::connect_from(addr, 21).await };
    w.ask(t, json!({"t": "join", "id": 1, "game": game, "invite": invite}), 3).await;
    let white = t.real(&format!("TOKEN{}", t.tokens));
    b.receive(t, 1).await;
    b.ask(t, json!({"t": "move", "id": 2, "game": game, "token": black, "text": "11-15"}), 2).await;
    w.receive(t, 1).await;
    w.ask(t, json!({"t": "takeback", "id": 2, "game": game, "token": white, "action": "offer"}), 1).await;
    w.ask(t, json!({"t": "takeback", "id": 3, "game": game, "token": white, "action": "maybe"}), 1).await;
    w.ask(t, json!({"t": "claim", "id": 4, "game": game, "token": white}), 1).await;
    b.ask(t, json!({"t": "takeback", "id": 3, "game": game, "token": black, "action": "offer"}), 2).await;
    w.receive(t, 1).await;
    w.ask(t, json!({"t": "takeback", "id": 5, "game": game, "token": white, "action": "accept"}), 2).await;
    b.receive(t, 1).await;
    w.ask(t, json!({"t": "abort", "id": 6, "game": game, "token": white}), 2).await;
    b.receive(t, 1).await;
    b.ask(t, json!({"t": "abort", "id": 4, "game": game, "token": black}), 1).await;
}

/// The review and the lines of a finished game, and what is refused.
async fn http(t: &mut Transcript, addr: SocketAddr) {
    t.heading("HTTP");
    let (finished, playing) = (t.real("GAME1"), t.real("GAME2"));
    for path in [
        format!("/games/{playing}/review"),
        format!("/games/{playing}/review.pdn"),
        format!("/games/{playing}/lines?ply=0"),
        format!("/games/{finished}/review"),
        format!("/games/{finished}/lines?ply=0"),
        format!("/games/{finished}/lines?ply=2"),
        format!("/games/{finished}/lines?ply=3"),
        format!("/games/{finished}/lines?ply=-1"),
        format!("/games/{finished}/lines?ply=x"),
        format!("/games/{finished}/lines"),
        "/games/nosuchgame/review".to_string(),
        "/games/nosuchgame/review.pdn".to_string(),
        "/games/nosuchgame/lines?ply=0".to_string(),
        "/games/nosuchgame.pdn".to_string(),
        "/games/nosuchgame.txt".to_string(),
        "/healthz".to_string(),
    ] {
        get(t, addr, &path).await;
    }
}

/// A move the database refuses to store.
async fn storage_failure(t: &mut Transcript, addr: SocketAddr, db: PathBuf) {
    let mut x = Peer::connect("x", addr).await;
    t.heading("the database refuses a move in GAME2");
    let refuse = RefuseMoves::install(db).await;
    let (game, token) = (t.real("GAME2"), t.real("TOKEN2"));
    x.ask(t, json!({"t": "move", "id": 1, "game": game, "token": token, "text": "11-15"}), 1).await;
    refuse.remove().await;
}

/// An open game in the lobby, with a clock, joined from the lobby.
async fn lobby(t: &mut Transcript, addr: SocketAddr, l: &mut Peer) {
    t.heading("an open game with a clock, listed in the lobby and joined from it");
    let mut h = Peer::connect("h", addr).await;
    let request = json!({"t": "create", "id": 1, "opponent": "open", "variant": "russian", "color": "white",
                         "clock": {"base": 60, "increment": 2}, "name": "Host"});
    h.ask(t, request, 3).await;
    l.receive(t, 1).await;
    l.ask(t, json!({"t": "lobby", "id": 2}), 1).await;
    let game = t.real("GAME4");
    l.ask(t, json!({"t": "join", "id": 3, "game": game, "color": "black", "name": "Lee"}), 4).await;
    h.receive(t, 1).await;
    h.ask(t, json!({"t": "join", "id": 2, "game": game}), 1).await;
    t.heading("the list of games, public games only, and its pages");
    games_list_where(t, addr, |list| list["games"][0]["status"] == "playing").await;
    for path in [
        "/api/games",
        "/api/games?limit=1",
        "/api/games?limit=0",
        "/api/games?limit=x",
        "/api/games?before=x",
    ] {
        get(t, addr, path).await;
    }
    let (_, first) = http_get(addr, "/api/games?limit=1");
    let first: Value = serde_json::from_str(&first).expect("JSON");
    let next = first["next"].as_str().expect("a next page");
    get(t, addr, &format!("/api/games?limit=1&before={next}")).await;
}

/// The quotas of one address: games waiting at once, and games created in an hour.
async fn quotas(t: &mut Transcript, addr: SocketAddr) {
    t.heading("quotas: a sixth game waiting, from one address; a 61st game in an hour, from another");
    let create = json!({"t": "create", "id": 1, "opponent": "friend"});
    let mut q = Peer { name: "q", client: Client::connect_from(addr, 9).await };
    for _ in 0..5 {
        assert_eq!(q.client.request(create.clone()).await["t"], "seated");
        // The game's `watching` and `state`.
        q.client.next().await;
        q.client.next().await;
    }
    t.lines.push("q> (5 friend games created, each seated, none joined)".to_string());
    q.ask(t, create.clone(), 1).await;
    let mut r = Peer { name: "r", client: Client::connect_from(addr, 10).await };
    // Each game withdrawn at once, so none waits: only the games an hour count. Four
    // connections, so that no one of them is rate-limited.
    for _ in 0..4 {
        let mut client = Client::connect_from(addr, 10).await;
        for _ in 0..15 {
            let created = client.request(create.clone()).await;
            assert_eq!(created["t"], "seated", "{created}");
            let withdraw = json!({"t": "resign", "game": created["game"], "token": created["token"]});
            assert_eq!(client.request(withdraw).await["t"], "ok");
        }
    }
    t.lines.push("r> (60 friend games created and withdrawn, from four connections)".to_string());
    r.ask(t, create, 1).await;
}

/// A game against the computer: a draw it declines, a resignation and the rematch it grants.
async fn computer(t: &mut Transcript, addr: SocketAddr) {
    t.heading("against the computer");
    let mut c = Peer::connect("c", addr).await;
    c.ask(t, json!({"t": "create", "id": 1, "opponent": "computer", "level": 1, "color": "black"}), 3).await;
    let (game, token) = (t.real("GAME5"), t.real("TOKEN6"));
    c.ask(t, json!({"t": "draw", "id": 2, "game": game, "token": token, "action": "offer"}), 1).await;
    c.ask(t, json!({"t": "resign", "id": 3, "game": game, "token": token}), 2).await;
    c.ask(t, json!({"t": "rematch", "id": 4, "game": game, "token": token}), 2).await;
}

/// A client that floods: the distinct answers, in the order they first came.
async fn flood(t: &mut Transcript, addr: SocketAddr) {
    t.heading("a flood of 120 pings with id 9: each distinct answer, once");
    let mut f = Client::connect(addr).await;
    for _ in 0..120 {
        f.send_text("{\"t\":\"ping\",\"id\":9}").await;
    }
    let mut distinct: Vec<String> = Vec::new();
    while let Some(text) = f.next_text().await {
        if !distinct.contains(&text) {
            distinct.push(text);
        }
    }
    for text in distinct {
        t.received("f", &text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_is_byte_for_byte_as_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let config = Config {
        addr: "127.0.0.1:0".into(),
        db: db.display().to_string(),
        engine_threads: Some(1),
        ..Config::default()
    };
    let running = start(&config).await.expect("server starts");
    let addr = running.addr;
    let mut t = Transcript::default();
    connection(&mut t, addr).await;
    t.heading("the lobby and the list of games, empty");
    let mut l = Peer::connect("l", addr).await;
    l.ask(&mut t, json!({"t": "lobby", "id": 1}), 1).await;
    games_list_where(&mut t, addr, |_| true).await;
    bad_requests(&mut t, addr).await;
    let mut players = friend_game(&mut t, addr).await;
    resignation_and_rematch(&mut t, addr, &mut players).await;
    withdrawn_game(&mut t, addr).await;
    http(&mut t, addr).await;
    storage_failure(&mut t, addr, db.clone()).await;
    lobby(&mut t, addr, &mut l).await;
    computer(&mut t, addr).await;
    quotas(&mut t, addr).await;
    flood(&mut t, addr).await;
    site_rules(&mut t, addr).await;
    running.stop().await.unwrap();
    t.check("wire");
}

/// The state of games on a clock, at given times to the millisecond: running, out of time,
/// with offers standing; and a computer's move from its opening book.
#[test]
fn states_on_the_clock_are_byte_for_byte_as_recorded() {
    use checkers_rules::{Color, Position, Variant};
    use checkers_server::live::{ClockSpec, LiveGame, MoveRequest, Seat};
    use checkers_server::protocol::state_text;
    let mut t = Transcript::default();
    let text = |t: &str| MoveRequest { text: Some(t.to_string()), ..Default::default() };
    let clock = Some(ClockSpec { base_ms: 60_000, increment_ms: 2_000 });
    let seats = [Seat::human(Some("Wes".into()), None), Seat::human(Some("Bea".into()), Some("b".into()))];
    let mut game = LiveGame::new("timed".into(), Position::start(Variant::English), seats, clock, true, 0);
    t.heading("waiting, listed, at 500 ms");
    t.lines.push(state_text(&game, 500));
    game.join(Some(Color::White), "w".into(), None, 1_000).unwrap();
    // The clocks start once both sides have moved: Black's with White's first move.
    for (side, mv, at) in
        [(Color::Black, "11-15", 6_000), (Color::White, "23-19", 7_000), (Color::Black, "8-11", 10_000)]
    {
        let mv = game.resolve_move(&text(mv)).unwrap();
        game.play(side, mv, at).unwrap();
    }
    game.offer_draw(Color::Black, 10_500).unwrap();
    t.heading("11-15 at 6 s, 23-19 at 7 s, 8-11 at 10 s, and Black offers a draw; at 11 s");
    t.lines.push(state_text(&game, 11_000));
    assert!(game.check_flag(70_000));
    game.ask_rematch(Color::White, "next".into(), 71_000).unwrap();
    t.heading("White out of time at 70 s, then asks for a rematch; at 72 s");
    t.lines.push(state_text(&game, 72_000));

    let seats = [Seat::computer(9), Seat::human(None, Some("b".into()))];
    let mut game = LiveGame::new("book".into(), Position::start(Variant::English), seats, None, false, 0);
    let mv = game.resolve_move(&text("11-15")).unwrap();
    game.play(Color::Black, mv, 1_000).unwrap();
    let mv = game.resolve_move(&text("23-19")).unwrap();
    game.play(Color::White, mv, 2_000).unwrap();
    t.heading("level 9 answers 11-15 with 23-19, from its book");
    t.lines.push(state_text(&game, 3_000));
    t.check("states");
}

#[test]
fn masking_replaces_the_time_in_a_place_in_the_list() {
    assert_eq!(
        mask_cursor_times(r#"{"next":"1.1796491684999.GAME4"} ?before=0.17.GAME12 v0.2.GAME"#),
        r#"{"next":"1.0.GAME4"} ?before=0.0.GAME12 v0.0.GAME"#
    );
}

#[test]
fn masking_replaces_only_the_digits_after_the_key() {
    assert_eq!(
        mask_number(r#"{"a_ms":12,"created_ms":345}"#, "\"created_ms\":"),
        r#"{"a_ms":12,"created_ms":0}"#
    );
    assert_eq!(mask_number(r#"{"created_ms":null}"#, "\"created_ms\":"), r#"{"created_ms":null}"#);
}
