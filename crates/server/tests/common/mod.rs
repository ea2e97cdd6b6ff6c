//! Helpers for the server's tests: a WebSocket client that speaks the protocol, raw HTTP GET,
//! and starting servers (in this process, or the real `checkers` binary as a child).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream as AsyncTcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for a reply before it gives up (a hang guard, not a measurement).
const PATIENCE: Duration = Duration::from_secs(30);

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<AsyncTcpStream>>,
    next_id: u64,
    /// Messages received while waiting for something else.
    pub seen: Vec<Value>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("websocket connects");
        Client { ws, next_id: 1, seen: Vec::new() }
    }

    /// Connects from the loopback address `127.0.0.N` (every 127.x.y.z address is this
    /// machine's on Linux), so the server sees a client address of its own: the way tests
    /// play several clients at once on one machine.
    pub async fn connect_from(addr: SocketAddr, n: u8) -> Client {
        Client::connect_from_ip(addr, std::net::Ipv4Addr::new(127, 0, 0, n)).await
    }

    /// Connects from `ip`, one of this machine's addresses (any 127.x.y.z on Linux).
    pub async fn connect_from_ip(addr: SocketAddr, ip: std::net::Ipv4Addr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind(SocketAddr::from((ip, 0))).expect("bind to a loopback address");
        let tcp = socket.connect(addr).await.expect("tcp connects");
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/ws"), MaybeTlsStream::Plain(tcp))
            .await
            .expect("websocket connects");
        Client { ws, next_id: 1, seen: Vec::new() }
    }

    /// Connects from `127.0.0.N` with `cookie` as the upgrade's `Cookie` header (a browser
    /// logged in sends its session cookie so).
    pub async fn connect_with_cookie(addr: SocketAddr, n: u8, cookie: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::from((std::net::Ipv4Addr::new(127, 0, 0, n), 0)))
            .expect("bind to a loopback address");
        let tcp = socket.connect(addr).await.expect("tcp connects");
        let mut request = format!("ws://{addr}/ws").into_client_request().expect("a request");
        request.headers_mut().insert("cookie", cookie.parse().expect("a cookie header"));
        let (ws, _) = tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(tcp))
            .await
            .expect("websocket connects");
        Client { ws, next_id: 1, seen: Vec::new() }
    }

    pub async fn send_raw(&mut self, message: Message) {
        self.ws.send(message).await.expect("send");
    }

    pub async fn send_text(&mut self, text: &str) {
        self.send_raw(Message::Text(text.into())).await;
    }

    /// The next JSON message, or `None` if the connection closed.
    pub async fn next(&mut self) -> Option<Value> {
        let text = self.next_text().await?;
        let value: Value = serde_json::from_str(&text).expect("server sends JSON");
        self.seen.push(value.clone());
        Some(value)
    }

    /// The next text message exactly as it came over the wire, or `None` if the connection
    /// closed.
    pub async fn next_text(&mut self) -> Option<String> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.ws.next()).await.expect("a message in time");
            match message {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Text(text))) => return Some(text.as_str().to_string()),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Reads until the server closes the connection; the close frame's code, if it sent one.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.ws.next()).await.expect("a message in time");
            match message {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Sends a request with a fresh id and returns the reply that names it.
    pub async fn request(&mut self, mut message: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        message["id"] = json!(id);
        self.send_text(&message.to_string()).await;
        loop {
            let reply = self.next().await.expect("connection open for the reply");
            if reply["re"] == json!(id) {
                return reply;
            }
        }
    }

    /// Waits for a game state satisfying `done`.
    pub async fn state_where(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await.expect("connection open while waiting for a state");
            if message["t"] == "state" && done(&message["game"]) {
                return message["game"].clone();
            }
        }
    }

    /// Waits for the state at exactly `ply` moves.
    pub async fn state_at(&mut self, ply: u64) -> Value {
        self.state_where(|g| g["ply"] == json!(ply)).await
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The next message of type `t` the connection gets (others before it are passed over).
pub async fn next_of_type(client: &mut Client, t: &str) -> Value {
    loop {
        let message = client.next().await.expect("the connection stays open");
        if message["t"] == t {
            return message;
        }
    }
}

/// Ann_Lee's connection `ann` challenges Bob_Ray (logged in on `bob`) to a rated 5+3 game as
/// White, and Bob accepts: both are seated in one new game with their colours, and the
/// challenge cannot be answered again. Returns the game's state as Ann first sees it.
pub async fn rated_challenge_accepted(ann: &mut Client, bob: &mut Client) -> Value {
    let sent = ann
        .request(json!({"t": "challenge", "name": "Bob_Ray", "color": "white", "rated": true,
                        "clock": {"base": 300, "increment": 3}}))
        .await;
    let heard = next_of_type(bob, "challenge").await;
    assert_eq!((heard["rated"].clone(), heard["color"].clone()), (json!(true), json!("white")), "{heard}");
    let accepted = bob.request(json!({"t": "accept", "challenge": sent["challenge"]})).await;
    assert_eq!(
        (accepted["t"].clone(), accepted["color"].clone()),
        (json!("seated"), json!("black")),
        "{accepted}"
    );
    let seated = next_of_type(ann, "seated").await;
    assert_eq!((seated["game"].clone(), seated["color"].clone()), (accepted["game"].clone(), json!("white")));
    let state = ann.state_where(|_| true).await;
    assert_eq!((state["status"].clone(), state["rated"].clone()), (json!("playing"), json!(true)), "{state}");
    let again = bob.request(json!({"t": "accept", "challenge": sent["challenge"]})).await;
    assert_eq!(again["code"], "not_found", "a challenge is answered once: {again}");
    state
}

/// Starts a server in this process on a free port, with one engine thread and `game_limits`.
pub async fn server(db: &str, game_limits: checkers_server::GameLimits) -> checkers_server::Running {
    let config = checkers_server::Config {
        addr: "127.0.0.1:0".into(),
        db: db.to_string(),
        engine_threads: Some(1),
        game_limits,
        ..checkers_server::Config::default()
    };
    checkers_server::start(&config).await.expect("server starts")
}

/// A SQLite file in `dir`, for a server's database.
pub fn sqlite_file(dir: &tempfile::TempDir) -> String {
    dir.path().join("games.db").display().to_string()
}

/// A plain HTTP GET; returns the status code and body.
pub fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    http_get_within(addr, path, PATIENCE)
}

/// A POST with a JSON body; the status and the body of the answer.
pub fn http_post(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("http connects");
    stream.set_read_timeout(Some(Duration::from_secs(60))).ok();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("http response");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

/// [`http_get`], waiting up to `patience` for the answer.
pub fn http_get_within(addr: SocketAddr, path: &str, patience: Duration) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("http connects");
    stream.set_read_timeout(Some(patience)).ok();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("http request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("http response");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    // Bodies may be chunked; tests only look for text inside, so strip chunk sizes loosely.
    (status, body)
}

/// A server in this process on a free loopback port, its database in `dir`, one engine thread.
pub async fn server_in(dir: &tempfile::TempDir) -> checkers_server::Running {
    let config = checkers_server::Config {
        addr: "127.0.0.1:0".into(),
        db: dir.path().join("games.db").display().to_string(),
        engine_threads: Some(1),
        ..checkers_server::Config::default()
    };
    checkers_server::start(&config).await.expect("server starts")
}

/// The `checkers` binary built beside this test (cargo test --workspace builds it).
pub fn checkers_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target directory");
    let bin = dir.join(format!("checkers{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: build it first (`cargo build -p checkers`, or run `cargo test --workspace`)",
        bin.display()
    );
    bin
}

/// The real server as a child process.
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
    /// What it wrote on stderr so far.
    pub stderr: Arc<Mutex<String>>,
}

impl ServerProcess {
    /// Starts `checkers serve` on a free port and waits until it listens; if it does not,
    /// fails the test saying why (see [`ServerProcess::try_start`]).
    pub fn start(db: &str) -> ServerProcess {
        ServerProcess::try_start(db).unwrap_or_else(|why| panic!("{why}"))
    }

    /// Starts `checkers serve` on a free port and waits until it listens. If it does not, the
    /// error gives its first line, how it ended and what it wrote on stderr (which otherwise
    /// goes on to the test's stderr as it comes).
    pub fn try_start(db: &str) -> Result<ServerProcess, String> {
        ServerProcess::try_start_with(db, &[])
    }

    /// [`ServerProcess::try_start`] with more options for `checkers serve`.
    pub fn try_start_with(db: &str, options: &[&str]) -> Result<ServerProcess, String> {
        let mut child = Command::new(checkers_binary())
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--engine-threads", "1"])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("checkers serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let written = Arc::new(Mutex::new(String::new()));
        let copy = written.clone();
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                let mut written = copy.lock().unwrap_or_else(|e| e.into_inner());
                written.push_str(&line);
                written.push('\n');
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (first_line, arrived) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = first_line.send(line);
        });
        let line = arrived.recv_timeout(PATIENCE).ok();
        let addr = line.as_deref().and_then(|l| l.trim().strip_prefix("listening on http://")?.parse().ok());
        if let Some(addr) = addr {
            return Ok(ServerProcess { child, addr, stderr: written });
        }
        let ended = ended_within(&mut child, Duration::from_secs(5));
        let ended = match ended {
            Some(status) => format!("exited with {status}"),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                "was still running and was killed".to_string()
            }
        };
        let _ = stderr_reader.join();
        let written = written.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let first = match line {
            Some(line) => format!("its first line was {line:?}"),
            None => format!("it printed no line in {} s", PATIENCE.as_secs()),
        };
        Err(format!("checkers serve did not start listening: {first}; it {ended}; its stderr:\n{written}"))
    }

    /// SIGTERM (the node drains), then how it ended if it does within `patience`.
    pub fn terminate(&mut self, patience: Duration) -> Option<std::process::ExitStatus> {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        assert!(status.expect("kill runs").success(), "kill -TERM");
        ended_within(&mut self.child, patience)
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill_hard(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

/// How the child ended, if it does within `patience`.
fn ended_within(child: &mut Child, patience: Duration) -> Option<std::process::ExitStatus> {
    let deadline = std::time::Instant::now() + patience;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if std::time::Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => return None,
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The PostgreSQL URL for storage tests: `CHECKERS_TEST_POSTGRES_URL`, or the file
/// scripts/setup-test-deps.sh writes. On CI (CI=true) a missing URL fails the test.
pub fn postgres_url() -> Option<String> {
    if let Ok(url) = std::env::var("CHECKERS_TEST_POSTGRES_URL") {
        if !url.trim().is_empty() {
            return Some(url.trim().to_string());
        }
    }
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-deps/postgres-url");
    if let Ok(url) = std::fs::read_to_string(&file) {
        if !url.trim().is_empty() {
            return Some(url.trim().to_string());
        }
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but no PostgreSQL URL: set CHECKERS_TEST_POSTGRES_URL or run scripts/setup-test-deps.sh \
             (it writes target/test-deps/postgres-url)"
        );
    }
    eprintln!("skipping the PostgreSQL part: no CHECKERS_TEST_POSTGRES_URL (scripts/setup-test-deps.sh sets one up)");
    None
}

/// A PostgreSQL schema of its own for one test (the test database's URL with it as the search
/// path), dropped at the end: tests that count or fill the database see only their games.
pub struct PgSchema {
    base: String,
    name: String,
    /// The test database's URL with this schema as its search path.
    pub url: String,
}

impl PgSchema {
    /// `None` when there is no test database (see [`postgres_url`]).
    pub async fn new() -> Option<PgSchema> {
        let base = postgres_url()?;
        let name = format!("test_{}", checkers_server::token::new_game_id());
        let pool = sqlx::PgPool::connect(&base).await.expect("the test database opens");
        sqlx::query(&format!("CREATE SCHEMA {name}")).execute(&pool).await.expect("a schema is created");
        pool.close().await;
        let url =
            format!("{base}{}options=-c%20search_path%3D{name}", if base.contains('?') { '&' } else { '?' });
        Some(PgSchema { base, name, url })
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let (base, name) = (self.base.clone(), self.name.clone());
        // On a thread of its own: the test's runtime may be the one ending.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let pool = sqlx::PgPool::connect(&base).await?;
                sqlx::query(&format!("DROP SCHEMA {name} CASCADE")).execute(&pool).await?;
                pool.close().await;
                Ok::<(), sqlx::Error>(())
            })
        });
        if let Ok(Err(e)) = dropped.join() {
            eprintln!("schema {} is left behind: {e}", self.name);
        }
    }
}

/// The first legal move of a state, as the protocol's squares form.
pub fn first_legal(state: &Value) -> Value {
    state["legal"][0].clone()
}

pub fn move_message(game: &str, token: &str, legal: &Value, ply: u64) -> Value {
    json!({"t": "move", "game": game, "token": token, "from": legal["from"], "to": legal["to"],
           "captured": legal["captured"], "ply": ply})
}

/// Creates a game against a `friend` (joined with its invitation) or `open` (listed), the
/// creator playing `color`, and seats a second client.
pub async fn seated_pair(
    addr: std::net::SocketAddr,
    opponent: &str,
    variant: &str,
    color: &str,
) -> (Client, String, Client, String, String) {
    let mut a = Client::connect(addr).await;
    let created = a
        .request(json!({"t": "create", "opponent": opponent, "variant": variant, "color": color, "name": "Ann <b>"}))
        .await;
    assert_eq!(created["t"], "seated", "{created}");
    assert_eq!(created["color"], color);
    let game = created["game"].as_str().unwrap().to_string();
    let token_a = created["token"].as_str().unwrap().to_string();
    let mut b = Client::connect(addr).await;
    let joined =
        b.request(json!({"t": "join", "game": game, "name": "Bob", "invite": created["invite"]})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    assert_ne!(joined["color"], color);
    let token_b = joined["token"].as_str().unwrap().to_string();
    // Both see the game start.
    a.state_where(|g| g["status"] == "playing").await;
    b.state_where(|g| g["status"] == "playing").await;
    (a, token_a, b, token_b, game)
}

/// Plays `line` (move texts) from the start of `game`: `first` (a client and its seat's token)
/// moves first, then the players take turns.
pub async fn play_line(game: &str, line: &[&str], first: (&mut Client, &str), second: (&mut Client, &str)) {
    let mut players = [first, second];
    for (ply, text) in line.iter().enumerate() {
        let (client, token) = &mut players[ply % 2];
        let reply = client
            .request(json!({"t": "move", "game": game, "token": token, "text": text, "ply": ply}))
            .await;
        assert_eq!(reply["t"], "ok", "{text}: {reply}");
    }
}

/// Signs up the account `name` from `127.0.0.N` and returns its session cookie
/// (`checkers_session=TOKEN`), for [`Client::connect_with_cookie`].
pub async fn sign_up(addr: SocketAddr, n: u8, name: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::from((std::net::Ipv4Addr::new(127, 0, 0, n), 0))).expect("bind");
    let mut stream = socket.connect(addr).await.expect("http connects");
    let body = json!({"name": name, "password": "correct horse battery"}).to_string();
    let request = format!(
        "POST /api/accounts HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response)).await.expect("in time").expect("read");
    let response = String::from_utf8_lossy(&response).to_string();
    assert!(response.starts_with("HTTP/1.1 201"), "{response}");
    let cookie = response
        .lines()
        .find_map(|l| l.to_ascii_lowercase().starts_with("set-cookie:").then(|| l[11..].trim().to_string()))
        .unwrap_or_else(|| panic!("no cookie: {response}"));
    cookie.split(';').next().unwrap_or_default().to_string()
}
