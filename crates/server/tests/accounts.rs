//! Accounts, sessions and rated games over real sockets, on SQLite and on PostgreSQL: signing
//! up, logging in and out, a wrong password and an unknown name answered alike, the log-in
//! limits, no password anywhere in the database; two accounts play a rated game and both
//! ratings are the Glicko-2 formula's, shown at the end of the game and kept over a restart
//! with the sessions; hostile input answered with clear errors, changing nothing.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use checkers_server::limits::{ClientLimits, Rate};
use checkers_server::rating::{rate_game, Rating, Score, Standing};
use checkers_server::token::hash_token;
use checkers_server::{start, Config, Running};
use common::{first_legal, next_of_type, rated_challenge_accepted, Client, PgSchema};
use serde_json::{json, Value};
use sqlx::Row;

const PASSWORD: &str = "correct horse battery";

async fn server(db: &str, limits: ClientLimits) -> Running {
    let config = Config {
        addr: "127.0.0.1:0".into(),
        db: db.to_string(),
        engine_threads: Some(1),
        limits,
        ..Config::default()
    };
    start(&config).await.expect("server starts")
}

fn sqlite_file(dir: &tempfile::TempDir) -> String {
    dir.path().join("games.db").display().to_string()
}

/// An HTTP answer: its status, its headers as text (lower-cased names) and its body.
struct Answer {
    status: u16,
    headers: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    fn code(&self) -> String {
        self.json()["code"].as_str().unwrap_or_else(|| panic!("no code: {}", self.body)).to_string()
    }

    /// The session cookie it sets, as `checkers_session=TOKEN`.
    fn cookie(&self) -> String {
        let line = self.set_cookie().unwrap_or_else(|| panic!("no Set-Cookie: {}", self.headers));
        line.split(';').next().unwrap().trim().to_string()
    }

    fn set_cookie(&self) -> Option<String> {
        self.headers.lines().find_map(|l| l.strip_prefix("set-cookie:")).map(|v| v.trim().to_string())
    }
}

/// One HTTP request from `127.0.0.N` with `headers` and `body`.
async fn http(
    addr: SocketAddr,
    from: u8,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0))).unwrap();
    let mut stream = socket.connect(addr).await.expect("http connects");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut response)).await;
    read.expect("an answer in time").expect("an answer");
    let response = String::from_utf8_lossy(&response).to_string();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = head.lines().skip(1).map(|l| l.to_ascii_lowercase()).collect::<Vec<_>>().join("\n");
    Answer { status, headers, body: body.to_string() }
}

fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

async fn post_json(addr: SocketAddr, from: u8, path: &str, body: &Value) -> Answer {
    http(addr, from, "POST", path, &[("Content-Type", "application/json")], &body.to_string()).await
}

async fn sign_up(addr: SocketAddr, from: u8, name: &str, password: &str) -> Answer {
    post_json(addr, from, "/api/accounts", &json!({"name": name, "password": password})).await
}

async fn log_in(addr: SocketAddr, from: u8, name: &str, password: &str) -> Answer {
    post_json(addr, from, "/api/session", &json!({"name": name, "password": password})).await
}

/// Who `/api/session` says the cookie logs in (`null`: nobody).
async fn who(addr: SocketAddr, cookie: &str) -> Value {
    let answer = http(addr, 9, "GET", "/api/session", &[("Cookie", cookie)], "").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()["name"].clone()
}

async fn get(addr: SocketAddr, path: &str) -> Answer {
    http(addr, 9, "GET", path, &[], "").await
}

/// Every text of every row of the tables an account touches, to look for a password in.
async fn database_text(db: &str) -> String {
    sqlx::any::install_default_drivers();
    let url = if db.contains("://") { db.to_string() } else { format!("sqlite://{db}") };
    let pool = sqlx::AnyPool::connect(&url).await.expect("the database opens");
    let mut text = String::new();
    for (table, columns) in [
        ("accounts", "name, name_key, password_hash"),
        ("sessions", "token_hash"),
        ("seats", "name, token_hash"),
        ("games", "white_name, black_name"),
    ] {
        for row in sqlx::query(&format!("SELECT {columns} FROM {table}")).fetch_all(&pool).await.unwrap() {
            for i in 0..row.len() {
                if let Ok(Some(value)) = row.try_get::<Option<String>, _>(i) {
                    text.push_str(&value);
                    text.push('\n');
                }
            }
        }
    }
    pool.close().await;
    text
}

async fn sign_up_and_log_in(db: &str) {
    let running = server(db, ClientLimits::default()).await;
    let addr = running.addr;
    let created = sign_up(addr, 2, "Ann_Lee", PASSWORD).await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.json(), json!({"name": "Ann_Lee"}));
    let set_cookie = created.set_cookie().unwrap();
    for attribute in ["path=/", "httponly", "samesite=lax", "max-age=2592000"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    assert!(!set_cookie.contains("secure"), "plain HTTP, no trusted proxy: {set_cookie}");
    let first = created.cookie();
    assert_eq!(who(addr, &first).await, "Ann_Lee");

    let taken = sign_up(addr, 2, "ann_lee", "another password").await;
    assert_eq!((taken.status, taken.code().as_str()), (409, "name_taken"));
    let bad = sign_up(addr, 2, "an", PASSWORD).await;
    assert_eq!((bad.status, bad.code().as_str()), (400, "bad_name"));
    let weak = sign_up(addr, 2, "Bob_Ray", "1234567").await;
    assert_eq!((weak.status, weak.code().as_str()), (400, "weak_password"));

    // Any case of the name logs in; a wrong password and an unknown name are told apart by
    // nothing, not even by the time they take (an unknown name checks a dummy hash).
    let second = log_in(addr, 3, "ANN_LEE", PASSWORD).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.json(), json!({"name": "Ann_Lee"}));
    let second = second.cookie();
    assert_ne!(second, first, "each log-in is a session of its own");
    let mut wrong_times = Vec::new();
    let mut unknown_times = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let wrong = log_in(addr, 4, "Ann_Lee", "not the password").await;
        wrong_times.push(start.elapsed());
        let start = Instant::now();
        let unknown = log_in(addr, 4, "Nobody_Here", "not the password").await;
        unknown_times.push(start.elapsed());
        assert_eq!((wrong.status, wrong.body.as_str()), (401, unknown.body.as_str()));
        assert_eq!(wrong.code(), "bad_credentials");
    }
    let (wrong, unknown) = (wrong_times.iter().min().unwrap(), unknown_times.iter().min().unwrap());
    assert!(*unknown * 3 > *wrong, "an unknown name answers in {unknown:?}, a wrong password in {wrong:?}");

    // Five failures for a name: it is refused for a while, even with the right password.
    for _ in 0..2 {
        assert_eq!(log_in(addr, 5, "ann_lee", "still wrong").await.status, 401);
    }
    let limited = log_in(addr, 5, "Ann_Lee", PASSWORD).await;
    assert_eq!((limited.status, limited.code().as_str()), (429, "rate_limited"), "{}", limited.body);
    assert!(limited.headers.contains("retry-after:"), "{}", limited.headers);
    assert_eq!(log_in(addr, 6, "Nobody_Here", PASSWORD).await.status, 401, "other names are not limited");

    // Logging out ends that session only, for every copy of its cookie.
    let out = http(addr, 3, "DELETE", "/api/session", &[("Cookie", &second)], "").await;
    assert_eq!(out.status, 200);
    assert!(out.set_cookie().unwrap().contains("max-age=0"), "{}", out.headers);
    assert_eq!(who(addr, &second).await, Value::Null);
    assert_eq!(who(addr, &first).await, "Ann_Lee");
    let mut revoked = Client::connect_with_cookie(addr, 3, &second).await;
    let refused = revoked.request(rated_create(json!({"base": 180, "increment": 2}))).await;
    assert_eq!(refused["code"], "not_rateable", "a revoked session is no account: {refused}");
    running.stop().await.unwrap();

    let stored = database_text(db).await;
    assert!(!stored.contains(PASSWORD), "the password is in the database");
    assert!(stored.contains("$argon2id$v=19$"), "an Argon2id hash is");
    for cookie in [&first, &second] {
        let token = cookie.strip_prefix("checkers_session=").unwrap();
        assert!(!stored.contains(token), "a session token is in the database");
    }
    assert!(stored.contains(&hash_token(first.strip_prefix("checkers_session=").unwrap())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_sign_up_log_in_and_out() {
    let dir = tempfile::tempdir().unwrap();
    sign_up_and_log_in(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_sign_up_log_in_and_out() {
    let Some(schema) = PgSchema::new().await else { return };
    sign_up_and_log_in(&schema.url).await;
}

fn rated_create(clock: Value) -> Value {
    json!({"t": "create", "opponent": "open", "color": "black", "clock": clock, "rated": true})
}

/// A rating as `/api/users/{name}` shows it equals `expected` (to rounding).
fn assert_rating(shown: &Value, expected: Rating, games: u64) {
    for (field, value) in
        [("rating", expected.rating), ("rd", expected.rd), ("volatility", expected.volatility)]
    {
        let got = shown[field].as_f64().unwrap_or_else(|| panic!("no {field}: {shown}"));
        assert!((got - value).abs() < 1e-9, "{field} {got}, the formula says {value}: {shown}");
    }
    assert_eq!(shown["games"], json!(games), "{shown}");
    assert_eq!(shown["provisional"], json!(expected.is_provisional()), "{shown}");
}

/// Ann (Black, who moves first in English draughts, on two devices) and Bob play a rated 3+2
/// game: one move each, then Bob resigns. Returns the final state Ann's second device saw.
async fn play_rated(addr: SocketAddr, ann: &str, bob: &str) -> Value {
    let mut ann_desk = Client::connect_with_cookie(addr, 2, ann).await;
    let created = ann_desk.request(rated_create(json!({"base": 180, "increment": 2}))).await;
    assert_eq!(created["t"], "seated", "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let mut anonymous = Client::connect_from(addr, 4).await;
    let lobby = anonymous.request(json!({"t": "lobby"})).await;
    let seek = lobby["games"].as_array().unwrap().iter().find(|g| g["id"] == json!(game)).cloned();
    let seek = seek.unwrap_or_else(|| panic!("the seek is in the lobby: {lobby}"));
    assert_eq!((seek["rated"].clone(), seek["name"].clone()), (json!(true), json!("Ann_Lee")), "{seek}");
    assert!(seek["rating"].is_i64(), "{seek}");
    let refused = anonymous.request(json!({"t": "join", "game": game})).await;
    assert_eq!(refused["code"], "login_required", "{refused}");
    let mut bob_ws = Client::connect_with_cookie(addr, 3, bob).await;
    let joined = bob_ws.request(json!({"t": "join", "game": game})).await;
    assert_eq!((joined["t"].clone(), joined["color"].clone()), (json!("seated"), json!("white")), "{joined}");

    // Ann's phone: no token, the account's seat all the same.
    let mut ann_phone = Client::connect_with_cookie(addr, 5, ann).await;
    let watching = ann_phone.request(json!({"t": "watch", "game": game})).await;
    assert_eq!(watching["color"], "black", "{watching}");
    let state = ann_phone.state_at(0).await;
    assert_eq!(state["rated"], true, "{state}");
    let legal = first_legal(&state);
    let moved = ann_phone
        .request(json!({"t": "move", "game": game, "from": legal["from"], "to": legal["to"],
                        "captured": legal["captured"], "ply": 0}))
        .await;
    assert_eq!(moved["t"], "ok", "{moved}");
    let state = bob_ws.state_at(1).await;
    let legal = first_legal(&state);
    let moved = bob_ws
        .request(json!({"t": "move", "game": game, "from": legal["from"], "to": legal["to"],
                        "captured": legal["captured"], "ply": 1}))
        .await;
    assert_eq!(moved["t"], "ok", "{moved}");
    assert_eq!(bob_ws.request(json!({"t": "resign", "game": game})).await["t"], "ok");
    let bob_saw = bob_ws.state_where(|g| g["status"] == "finished").await;
    let ann_saw = ann_phone.state_where(|g| g["status"] == "finished").await;
    assert_eq!(bob_saw["ratings"], ann_saw["ratings"], "both players see the change");
    ann_saw
}

async fn ratings_of(addr: SocketAddr, name: &str) -> Value {
    let answer = get(addr, &format!("/api/users/{name}")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.json()
}

async fn rated_games_and_restart(db: &str) {
    let running = server(db, ClientLimits::default()).await;
    let addr = running.addr;
    let ann = sign_up(addr, 2, "Ann_Lee", PASSWORD).await.cookie();
    let bob = sign_up(addr, 3, "Bob_Ray", PASSWORD).await.cookie();

    // What cannot be rated says why.
    let mut anonymous = Client::connect_from(addr, 4).await;
    let mut ann_ws = Client::connect_with_cookie(addr, 2, &ann).await;
    let clock = json!({"base": 180, "increment": 2});
    let refusals = [
        anonymous.request(rated_create(clock.clone())).await,
        ann_ws.request(json!({"t": "create", "opponent": "open", "rated": true})).await,
        ann_ws
            .request(
                json!({"t": "create", "opponent": "computer", "level": 1, "rated": true, "clock": clock}),
            )
            .await,
    ];
    for refused in refusals {
        assert_eq!(refused["code"], "not_rateable", "{refused}");
        assert!(refused["message"].as_str().unwrap().len() > 20, "{refused}");
    }
    drop((anonymous, ann_ws));

    let end = play_rated(addr, &ann, &bob).await;
    let (ann_after, bob_after) = rate_game(Standing::NEW, Standing::NEW, Score::Win, 0);
    let change = &end["ratings"];
    for (color, after) in [("black", ann_after), ("white", bob_after)] {
        assert_eq!(change[color]["before"], json!(1500.0), "{end}");
        assert!((change[color]["after"].as_f64().unwrap() - after.rating).abs() < 1e-9, "{end}");
    }
    let profile = ratings_of(addr, "ann_lee").await;
    assert_eq!(
        (profile["name"].clone(), profile["results"].clone()),
        (json!("Ann_Lee"), json!({"wins": 1, "losses": 0, "draws": 0}))
    );
    assert_rating(&profile["ratings"]["english"]["blitz"], ann_after, 1);
    assert_rating(&profile["ratings"]["russian"]["bullet"], Rating::START, 0);
    assert_rating(&ratings_of(addr, "Bob_Ray").await["ratings"]["english"]["blitz"], bob_after, 1);
    let games = get(addr, "/api/users/Bob_Ray/games?rated=true&result=loss").await.json();
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
    assert_eq!(
        (games["games"][0]["outcome"].clone(), games["games"][0]["speed"].clone()),
        (json!("loss"), json!("blitz"))
    );
    let none = get(addr, "/api/users/Bob_Ray/games?result=win").await.json();
    assert_eq!(none["games"], json!([]), "{none}");
    let pdn = get(addr, "/api/users/Ann_Lee/games.pdn").await;
    assert!(pdn.status == 200 && pdn.body.contains("[Black \"Ann_Lee\"]"), "{}", pdn.body);
    let board = get(addr, "/api/leaderboard?variant=english&speed=blitz").await.json();
    assert_eq!(board["players"], json!([]), "one game is provisional: {board}");
    // A rated game withdrawn before anyone joined rates nobody.
    let mut ann_ws = Client::connect_with_cookie(addr, 2, &ann).await;
    let created = ann_ws.request(rated_create(json!({"base": 180, "increment": 2}))).await;
    assert_eq!(ann_ws.request(json!({"t": "resign", "game": created["game"]})).await["t"], "ok");
    let withdrawn = ann_ws.state_where(|g| g["status"] == "finished").await;
    assert_eq!(
        (withdrawn["reason"].clone(), withdrawn.get("ratings")),
        (json!("aborted"), None),
        "{withdrawn}"
    );
    // A rated game aborted after one move rates nobody either, and takes no takeback before.
    let mut bob_ws = Client::connect_with_cookie(addr, 3, &bob).await;
    let created = ann_ws.request(rated_create(json!({"base": 180, "increment": 2}))).await;
    let game = created["game"].as_str().unwrap().to_string();
    assert_eq!(bob_ws.request(json!({"t": "join", "game": game})).await["t"], "seated");
    let state = ann_ws.state_where(|g| g["players"]["white"]["seated"] == true).await;
    let legal = first_legal(&state);
    let moved = ann_ws
        .request(json!({"t": "move", "game": game, "from": legal["from"], "to": legal["to"],
                        "captured": legal["captured"], "ply": 0}))
        .await;
    assert_eq!(moved["t"], "ok", "{moved}");
    let takeback = ann_ws.request(json!({"t": "takeback", "game": game, "action": "offer"})).await;
    assert_eq!(takeback["code"], "takeback_refused", "{takeback}");
    assert_eq!(bob_ws.request(json!({"t": "abort", "game": game})).await["t"], "ok");
    let aborted = ann_ws.state_where(|g| g["status"] == "finished").await;
    assert_eq!((aborted["reason"].clone(), aborted.get("ratings")), (json!("aborted"), None), "{aborted}");
    drop(bob_ws);
    let profile = http(addr, 10, "GET", "/@/ann_lee", &[], "").await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    assert!(profile.headers.contains("content-type: text/html"), "{}", profile.headers);
    for part in ["<h1>Ann_Lee</h1>", "<svg", "<polyline", "href=\"/style.css\"", "1 won, 0 lost", "1662"] {
        assert!(profile.body.contains(part), "the profile has no {part}: {}", profile.body);
    }
    assert!(
        profile.body.contains(&format!("href=\"/g/{}\"", end["id"].as_str().unwrap())),
        "{}",
        profile.body
    );
    let board = http(addr, 10, "GET", "/leaderboard?variant=english", &[], "").await;
    assert!(board.status == 200 && board.body.contains("<h2>Blitz</h2>"), "{}", board.body);
    running.stop().await.unwrap();

    // A restart keeps the sessions and the ratings; the next game is rated from them.
    let running = server(db, ClientLimits::default()).await;
    let addr = running.addr;
    assert_eq!(who(addr, &ann).await, "Ann_Lee");
    assert_rating(&ratings_of(addr, "Ann_Lee").await["ratings"]["english"]["blitz"], ann_after, 1);
    let end = play_rated(addr, &ann, &bob).await;
    let standing = |rating| Standing { rating, last_rated_ms: Some(0) };
    let (ann_now, bob_now) = rate_game(standing(ann_after), standing(bob_after), Score::Win, 0);
    assert!((end["ratings"]["black"]["before"].as_f64().unwrap() - ann_after.rating).abs() < 1e-9, "{end}");
    assert_rating(&ratings_of(addr, "Ann_Lee").await["ratings"]["english"]["blitz"], ann_now, 2);
    assert_rating(&ratings_of(addr, "Bob_Ray").await["ratings"]["english"]["blitz"], bob_now, 2);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_rated_games_follow_the_formula_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    rated_games_and_restart(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_rated_games_follow_the_formula_and_survive_a_restart() {
    let Some(schema) = PgSchema::new().await else { return };
    rated_games_and_restart(&schema.url).await;
}

async fn hostile_input(db: &str) {
    let limits = ClientLimits {
        account_requests: Rate { burst: 30.0, per_second: 0.01 },
        list_requests: Rate { burst: 100.0, per_second: 10.0 },
        ..ClientLimits::default()
    };
    let running = server(db, limits).await;
    let addr = running.addr;
    let ann = sign_up(addr, 2, "Ann_Lee", PASSWORD).await.cookie();
    for name in
        ["<script>alert(1)</script>", "x'; DROP TABLE accounts; --", "Robert\"); --", "a b c", "Zoë_Ann"]
    {
        let answer = sign_up(addr, 2, name, PASSWORD).await;
        assert_eq!((answer.status, answer.code().as_str()), (400, "bad_name"), "{name}");
        let answer = log_in(addr, 2, name, PASSWORD).await;
        assert_eq!((answer.status, answer.code().as_str()), (401, "bad_credentials"), "{name}");
        let page = get(addr, &format!("/api/users/{}", percent_encoded(name))).await;
        assert_eq!(page.status, 404, "{name}: {}", page.body);
        assert!(!page.body.contains('<') && !page.body.contains("DROP"), "{}", page.body);
    }
    let huge = "x".repeat(100_000);
    let answer = sign_up(addr, 2, "Huge_One", &huge).await;
    assert_eq!((answer.status, answer.code().as_str()), (413, "too_large"));
    let long = "x".repeat(1001);
    let answer = sign_up(addr, 2, "Long_One", &long).await;
    assert_eq!((answer.status, answer.code().as_str()), (400, "bad_request"));
    let answer = log_in(addr, 2, "Ann_Lee", &long).await;
    assert_eq!((answer.status, answer.code().as_str()), (400, "bad_request"));
    for (content_type, body) in [
        ("text/plain", json!({"name": "Ann_Two", "password": PASSWORD}).to_string()),
        ("application/json", "{\"name\": \"Ann_Two\"".to_string()),
        ("application/json", json!({"name": "Ann_Two", "password": PASSWORD, "admin": true}).to_string()),
        ("application/json", json!({"name": 7, "password": PASSWORD}).to_string()),
        ("application/json", "[]".to_string()),
    ] {
        let answer = http(addr, 2, "POST", "/api/accounts", &[("Content-Type", content_type)], &body).await;
        assert!(
            matches!(answer.status, 400 | 415),
            "{content_type} {body}: {} {}",
            answer.status,
            answer.body
        );
        assert!(!answer.code().is_empty());
    }
    let elsewhere = [("Content-Type", "application/json"), ("Origin", "https://evil.example")];
    let body = json!({"name": "Ann_Lee", "password": PASSWORD}).to_string();
    let answer = http(addr, 2, "POST", "/api/session", &elsewhere, &body).await;
    assert_eq!((answer.status, answer.code().as_str()), (403, "forbidden"));

    // Forged cookies log nobody in, and logging them out ends no one's session.
    let forged = [
        "checkers_session=".to_string() + &"0".repeat(64),
        "checkers_session=<b>".into(),
        "checkers_session=".to_string() + &"a".repeat(5000),
        format!("{ann}x"),
        "checkers_session='; --".into(),
    ];
    for cookie in &forged {
        assert_eq!(who(addr, cookie).await, Value::Null, "{cookie}");
        let out = http(addr, 2, "DELETE", "/api/session", &[("Cookie", cookie)], "").await;
        assert_eq!(out.status, 200, "{cookie}");
        let mut ws = Client::connect_with_cookie(addr, 2, cookie).await;
        let refused = ws.request(rated_create(json!({"base": 60, "increment": 0}))).await;
        assert_eq!(refused["code"], "not_rateable", "{cookie}: {refused}");
    }
    assert_eq!(who(addr, &ann).await, "Ann_Lee");
    for path in [
        "/api/users/Ann_Lee/games?limit=1000",
        "/api/users/Ann_Lee/games?variant=chess",
        "/api/users/Ann_Lee/games?before=1.%3Cscript%3E",
        "/api/users/Ann_Lee/games?rated=maybe",
        "/api/leaderboard?variant=english",
        "/api/leaderboard?variant=english&speed=warp",
    ] {
        let answer = get(addr, path).await;
        assert_eq!((answer.status, answer.code().as_str()), (400, "bad_request"), "{path}: {}", answer.body);
    }
    assert_eq!(get(addr, "/api/users/Ann_Lee/friends").await.status, 404);

    // An anonymous opponent's name is escaped on the profile; a page of no player is a 404.
    let mut ann_ws = Client::connect_with_cookie(addr, 2, &ann).await;
    let created = ann_ws.request(json!({"t": "create", "opponent": "open"})).await;
    let mut eve = Client::connect_from(addr, 3).await;
    let joined = eve
        .request(json!({"t": "join", "game": created["game"], "name": "<img src=x onerror=alert(1)>"}))
        .await;
    assert_eq!(joined["t"], "seated", "{joined}");
    let profile = http(addr, 10, "GET", "/@/Ann_Lee", &[], "").await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    assert!(profile.body.contains("&lt;img src=x") && !profile.body.contains("<img"), "{}", profile.body);
    let long_clock = "9".repeat(3000);
    for (message, code) in [
        (json!({"t": "challenge", "name": "<script>alert(1)</script>"}), "not_found"),
        (json!({"t": "challenge", "name": "x'; DROP TABLE accounts; --", "rated": true}), "not_rateable"),
        (json!({"t": "challenge", "name": "Eve", "clock": {"base": -1}}), "bad_request"),
        (json!({"t": "accept", "challenge": "' OR 1=1 --"}), "not_found"),
        (json!({"t": "decline", "challenge": 5}), "bad_request"),
        (json!({"t": "seek", "clock": long_clock}), "bad_request"),
        (json!({"t": "seek", "clock": "3+2", "variant": "chess"}), "bad_request"),
        (json!({"t": "seek", "clock": "3+2", "rated": "yes"}), "bad_request"),
    ] {
        let refused = ann_ws.request(message.clone()).await;
        assert_eq!(refused["code"], code, "{message}: {refused}");
        assert!(!refused["message"].as_str().unwrap().contains('<'), "{refused}");
    }
    for path in ["/@/%3Cscript%3E", "/@/Nobody_Here", "/leaderboard?variant=%3Cscript%3E"] {
        let page = http(addr, 10, "GET", path, &[], "").await;
        assert!(matches!(page.status, 400 | 404) && !page.body.contains("<script"), "{path}: {}", page.body);
    }
    running.stop().await.unwrap();
    let stored = database_text(db).await;
    assert_eq!(stored.matches("$argon2id$").count(), 1, "one account only: {stored}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_hostile_input_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    hostile_input(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_hostile_input_is_refused_and_changes_nothing() {
    let Some(schema) = PgSchema::new().await else { return };
    hostile_input(&schema.url).await;
}

async fn address_limit(db: &str) {
    let limits =
        ClientLimits { account_requests: Rate { burst: 3.0, per_second: 0.01 }, ..ClientLimits::default() };
    let running = server(db, limits).await;
    let addr = running.addr;
    for i in 0..3 {
        assert_eq!(log_in(addr, 7, &format!("Someone_{i}"), PASSWORD).await.status, 401);
    }
    let limited = sign_up(addr, 7, "Carl_May", PASSWORD).await;
    assert_eq!((limited.status, limited.code().as_str()), (429, "rate_limited"), "{}", limited.body);
    assert_eq!(sign_up(addr, 8, "Carl_May", PASSWORD).await.status, 201, "another address may");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_log_ins_are_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    address_limit(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cookie_is_secure_behind_a_trusted_tls_proxy_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_file(&dir);
    let https = [("Content-Type", "application/json"), ("X-Forwarded-Proto", "https")];
    let body = json!({"name": "Dee_Fox", "password": PASSWORD}).to_string();
    for trusted in [false, true] {
        let config = Config {
            addr: "127.0.0.1:0".into(),
            db: db.clone(),
            engine_threads: Some(1),
            trust_forwarded_proto: trusted,
            ..Config::default()
        };
        let running = start(&config).await.expect("server starts");
        let path = if trusted { "/api/session" } else { "/api/accounts" };
        let answer = http(running.addr, 2, "POST", path, &https, &body).await;
        assert!(answer.status / 100 == 2, "{}", answer.body);
        assert_eq!(answer.set_cookie().unwrap().contains("; secure"), trusted, "{}", answer.headers);
        let plain = log_in(running.addr, 2, "Dee_Fox", PASSWORD).await;
        assert!(!plain.set_cookie().unwrap().contains("secure"), "{}", plain.headers);
        running.stop().await.unwrap();
    }
}

/// Two connections paired by a pool: each is pushed its seat in one new game, then watches it.
async fn assert_paired(a: &mut Client, b: &mut Client) -> Value {
    let (seat_a, seat_b) = (next_of_type(a, "seated").await, next_of_type(b, "seated").await);
    assert_eq!(seat_a["game"], seat_b["game"], "{seat_a} {seat_b}");
    assert_ne!(seat_a["color"], seat_b["color"], "{seat_a} {seat_b}");
    assert_eq!(seat_a["re"], Value::Null);
    assert_eq!(next_of_type(a, "watching").await["color"], seat_a["color"]);
    let state = a.state_where(|_| true).await;
    assert_eq!(
        (state["status"].clone(), state["id"].clone()),
        (json!("playing"), seat_a["game"].clone()),
        "{state}"
    );
    state
}

async fn pools_pair(db: &str) {
    let running = server(db, ClientLimits::default()).await;
    let addr = running.addr;
    let ann = sign_up(addr, 2, "Ann_Lee", PASSWORD).await.cookie();
    let bob = sign_up(addr, 3, "Bob_Ray", PASSWORD).await.cookie();
    let mut anonymous = Client::connect_from(addr, 4).await;
    let refused = anonymous.request(json!({"t": "seek", "clock": "3+2", "rated": true})).await;
    assert_eq!(refused["code"], "login_required", "{refused}");
    for clock in ["3+1", "<b>", ""] {
        let refused = anonymous.request(json!({"t": "seek", "clock": clock})).await;
        assert_eq!(refused["code"], "bad_request", "{clock}: {refused}");
    }

    let mut ann_ws = Client::connect_with_cookie(addr, 2, &ann).await;
    let mut bob_ws = Client::connect_with_cookie(addr, 3, &bob).await;
    let seeking =
        ann_ws.request(json!({"t": "seek", "variant": "russian", "clock": "5+3", "rated": true})).await;
    assert_eq!(
        seeking,
        json!({"t": "seeking", "re": 1, "variant": "russian", "clock": "5+3", "rated": true})
    );
    assert_eq!(
        bob_ws.request(json!({"t": "seek", "variant": "russian", "clock": "5+3", "rated": true})).await["t"],
        "seeking"
    );
    let state = assert_paired(&mut ann_ws, &mut bob_ws).await;
    assert_eq!(
        (state["variant"].clone(), state["rated"].clone()),
        (json!("russian"), json!(true)),
        "{state}"
    );
    assert_eq!(state["clock"]["base_ms"], 300_000, "{state}");
    let names = [state["players"]["white"]["name"].clone(), state["players"]["black"]["name"].clone()];
    assert!(names.contains(&json!("Ann_Lee")) && names.contains(&json!("Bob_Ray")), "{state}");

    // Anonymous players pair in the casual pools; one who leaves is paired with nobody.
    let mut carl = Client::connect_from(addr, 5).await;
    assert_eq!(carl.request(json!({"t": "seek", "clock": "1+0"})).await["t"], "seeking");
    assert_eq!(carl.request(json!({"t": "unseek"})).await["t"], "ok");
    assert_eq!(anonymous.request(json!({"t": "seek", "clock": "1+0"})).await["t"], "seeking");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut dee = Client::connect_from(addr, 6).await;
    assert_eq!(dee.request(json!({"t": "seek", "clock": "1+0"})).await["t"], "seeking");
    let state = assert_paired(&mut anonymous, &mut dee).await;
    assert_eq!(state.get("rated"), None, "{state}");
    assert!(!carl.seen.iter().any(|m| m["t"] == "seated"), "{:?}", carl.seen);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_quick_pairing_pools_pair_players() {
    let dir = tempfile::tempdir().unwrap();
    pools_pair(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_quick_pairing_pools_pair_players() {
    let Some(schema) = PgSchema::new().await else { return };
    pools_pair(&schema.url).await;
}

async fn challenges(db: &str) {
    let running = server(db, ClientLimits::default()).await;
    let addr = running.addr;
    let ann = sign_up(addr, 2, "Ann_Lee", PASSWORD).await.cookie();
    let bob = sign_up(addr, 3, "Bob_Ray", PASSWORD).await.cookie();
    let mut ann_ws = Client::connect_with_cookie(addr, 2, &ann).await;
    let mut anonymous = Client::connect_from(addr, 4).await;
    let refused = anonymous.request(json!({"t": "challenge", "name": "Ann_Lee"})).await;
    assert_eq!(refused["code"], "login_required", "{refused}");
    let offline = ann_ws.request(json!({"t": "challenge", "name": "Bob_Ray"})).await;
    assert_eq!(offline["code"], "not_found", "Bob has no connection open: {offline}");
    let myself = ann_ws.request(json!({"t": "challenge", "name": "ann_lee"})).await;
    assert_eq!(myself["code"], "bad_request", "{myself}");

    let mut bob_ws = Client::connect_with_cookie(addr, 3, &bob).await;
    // Once Bob's connection answers, it is online.
    assert_eq!(bob_ws.request(json!({"t": "ping"})).await["t"], "pong");
    let sent = ann_ws
        .request(json!({"t": "challenge", "name": "bob_ray", "clock": {"base": 300, "increment": 3}}))
        .await;
    assert_eq!(sent["t"], "challenging", "{sent}");
    let heard = next_of_type(&mut bob_ws, "challenge").await;
    assert_eq!(
        (heard["from"].clone(), heard["challenge"].clone()),
        (json!("Ann_Lee"), sent["challenge"].clone()),
        "{heard}"
    );
    let forged = bob_ws.request(json!({"t": "accept", "challenge": "<script>"})).await;
    assert_eq!(forged["code"], "not_found", "{forged}");
    let theirs = anonymous.request(json!({"t": "decline", "challenge": sent["challenge"]})).await;
    assert_eq!(theirs["code"], "not_found", "only the challenged may answer: {theirs}");
    assert_eq!(bob_ws.request(json!({"t": "decline", "challenge": sent["challenge"]})).await["t"], "ok");
    let declined = next_of_type(&mut ann_ws, "declined").await;
    assert_eq!(declined, json!({"t": "declined", "challenge": sent["challenge"], "by": "Bob_Ray"}));

    rated_challenge_accepted(&mut ann_ws, &mut bob_ws).await;
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_challenge_is_declined_and_one_accepted() {
    let dir = tempfile::tempdir().unwrap();
    challenges(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_challenge_is_declined_and_one_accepted() {
    let Some(schema) = PgSchema::new().await else { return };
    challenges(&schema.url).await;
}
