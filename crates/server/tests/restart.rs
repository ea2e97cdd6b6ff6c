//! Durability: the real `checkers serve` binary is killed with SIGKILL mid-game and started
//! again on the same database; every confirmed move is there and the game goes on with the
//! same seat tokens, a standing draw offer or rematch request still stands, and the running
//! clock is not charged for the time the server was down. Run on a SQLite file, and on
//! PostgreSQL when a URL is given (required on CI).

mod common;

use common::{first_legal, move_message, Client, PgSchema, ServerProcess};
use serde_json::{json, Value};

/// Plays `plies` moves (first legal move each time) and returns the moves as confirmed.
async fn play(
    addr: std::net::SocketAddr,
    game: &str,
    tokens: &[(String, String)],
    plies: u64,
) -> Vec<String> {
    let mut client = Client::connect(addr).await;
    client.request(json!({"t": "watch", "game": game})).await;
    let mut state = client.state_where(|_| true).await;
    let mut confirmed = Vec::new();
    for _ in 0..plies {
        if state["status"] != "playing" {
            break;
        }
        let ply = state["ply"].as_u64().unwrap();
        let turn = state["turn"].as_str().unwrap();
        let token = &tokens.iter().find(|(color, _)| color == turn).unwrap().1;
        let legal = first_legal(&state);
        let reply = client.request(move_message(game, token, &legal, ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        confirmed.push(legal["text"].as_str().unwrap().to_string());
        state = client.state_at(ply + 1).await;
    }
    confirmed
}

async fn kill_and_restart_keeps_every_move(db: &str) {
    let server = ServerProcess::start(db);
    let mut a = Client::connect(server.addr).await;
    let created = a
        .request(json!({"t": "create", "opponent": "friend", "variant": "english", "color": "black",
                        "clock": {"base": 600, "increment": 2}}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut b = Client::connect(server.addr).await;
    let joined = b.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    let tokens = vec![
        ("black".to_string(), created["token"].as_str().unwrap().to_string()),
        ("white".to_string(), joined["token"].as_str().unwrap().to_string()),
    ];
    let mut confirmed = play(server.addr, &game, &tokens, 12).await;
    assert_eq!(confirmed.len(), 12);
    // One more move sent but the server dies at once: it may or may not have been confirmed.
    server.kill_hard();
    drop((a, b));

    let server = ServerProcess::start(db);
    let mut black = Client::connect(server.addr).await;
    let watching = black.request(json!({"t": "watch", "game": game, "token": tokens[0].1})).await;
    assert_eq!(watching["color"], "black", "the seat token still holds its seat");
    let state = black.state_where(|_| true).await;
    let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
    assert_eq!(moves, confirmed, "every confirmed move survived SIGKILL");
    assert_eq!(state["status"], "playing");
    let clock = &state["clock"];
    assert!(clock["white_ms"].as_i64().unwrap() > 0 && clock["black_ms"].as_i64().unwrap() > 0);
    assert_eq!(clock["running"], Value::from("black"), "the clock of the side to move runs on");

    // The game goes on from where it was, with the same tokens.
    confirmed.extend(play(server.addr, &game, &tokens, 6).await);
    assert_eq!(confirmed.len(), 18);
    server.kill_hard();
    let server = ServerProcess::start(db);
    let (status, pdn) = common::http_get(server.addr, &format!("/games/{game}.pdn"));
    assert_eq!(status, 200);
    for text in &confirmed {
        assert!(pdn.contains(text.as_str()), "{text} missing from\n{pdn}");
    }
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_game_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    kill_and_restart_keeps_every_move(&db.display().to_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_game_survives_kill_9() {
    let Some(schema) = PgSchema::new().await else { return };
    kill_and_restart_keeps_every_move(&schema.url).await;
}

/// Creates a friend game with a clock (the creator plays Black, who moves first in English) and
/// seats a second player; returns the game and the tokens as (colour, token).
async fn friend_game(addr: std::net::SocketAddr) -> (String, Vec<(String, String)>) {
    let mut a = Client::connect(addr).await;
    let created = a
        .request(json!({"t": "create", "opponent": "friend", "variant": "english", "color": "black",
                        "clock": {"base": 600, "increment": 0}}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut b = Client::connect(addr).await;
    let joined = b.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    let tokens = vec![
        ("black".to_string(), created["token"].as_str().unwrap().to_string()),
        ("white".to_string(), joined["token"].as_str().unwrap().to_string()),
    ];
    (game, tokens)
}

/// The game's state as a new watcher first sees it.
async fn state_of(addr: std::net::SocketAddr, game: &str) -> Value {
    let mut client = Client::connect(addr).await;
    client.request(json!({"t": "watch", "game": game})).await;
    client.state_where(|_| true).await
}

async fn offers_survive_kill_9(db: &str) {
    let server = ServerProcess::start(db);
    let (game, tokens) = friend_game(server.addr).await;
    let (black, white) = (&tokens[0].1, &tokens[1].1);
    play(server.addr, &game, &tokens, 2).await;
    let mut client = Client::connect(server.addr).await;
    let offer = client.request(json!({"t": "draw", "game": game, "token": black, "action": "offer"})).await;
    assert_eq!(offer["t"], "ok", "{offer}");
    server.kill_hard();

    // The offer stands after the restart, and the opponent can accept it.
    let server = ServerProcess::start(db);
    assert_eq!(state_of(server.addr, &game).await["draw_offer"], "black");
    let mut client = Client::connect(server.addr).await;
    let accept = client.request(json!({"t": "draw", "game": game, "token": white, "action": "accept"})).await;
    assert_eq!(accept["t"], "ok", "{accept}");
    let first = client.request(json!({"t": "rematch", "game": game, "token": black})).await;
    assert_eq!(first["new_game"], Value::Null, "{first}");
    server.kill_hard();

    // So does a rematch request: the second one arranges the rematch.
    let server = ServerProcess::start(db);
    let state = state_of(server.addr, &game).await;
    assert_eq!((state["status"].as_str(), state["reason"].as_str()), (Some("finished"), Some("agreement")));
    assert_eq!(state["rematch_offers"], json!({"white": false, "black": true}));
    let mut client = Client::connect(server.addr).await;
    let second = client.request(json!({"t": "rematch", "game": game, "token": white})).await;
    let new_game = second["new_game"].as_str().unwrap_or_else(|| panic!("rematch arranged: {second}"));
    let watching = client.request(json!({"t": "watch", "game": new_game, "token": white})).await;
    assert_eq!(watching["color"], "black", "colours swapped in the rematch");
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_draw_offer_and_rematch_request_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    offers_survive_kill_9(&dir.path().join("games.db").display().to_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_draw_offer_and_rematch_request_survive_kill_9() {
    let Some(schema) = PgSchema::new().await else { return };
    offers_survive_kill_9(&schema.url).await;
}

/// Milliseconds left on the running clock, and which side it is.
fn running_clock(state: &Value) -> (String, i64) {
    let running = state["clock"]["running"].as_str().expect("a clock runs").to_string();
    let left = state["clock"][format!("{running}_ms")].as_i64().unwrap();
    (running, left)
}

async fn downtime_is_not_charged(db: &str) {
    let server = ServerProcess::start(db);
    let (game, tokens) = friend_game(server.addr).await;
    play(server.addr, &game, &tokens, 3).await;
    let before = state_of(server.addr, &game).await;
    let (side, left_before) = running_clock(&before);
    assert_eq!(side, "white");
    server.kill_hard();
    // The server stays down for a while: none of that may be charged to White.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;

    let restarting = std::time::Instant::now();
    let server = ServerProcess::start(db);
    let after = state_of(server.addr, &game).await;
    let since_restart_ms = restarting.elapsed().as_millis() as i64;
    let (side, left_after) = running_clock(&after);
    assert_eq!(side, "white", "the same clock runs on");
    // White's clock ran at most from the restart on; charging the downtime would have taken
    // the two seconds above as well.
    assert!(
        left_after + since_restart_ms >= left_before,
        "White had {left_before} ms before the kill and {left_after} ms {since_restart_ms} ms after the restart began"
    );
    assert_eq!(after["clock"]["black_ms"], before["clock"]["black_ms"], "the stopped clock is unchanged");
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_clock_is_not_charged_for_downtime() {
    let dir = tempfile::tempdir().unwrap();
    downtime_is_not_charged(&dir.path().join("games.db").display().to_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_clock_is_not_charged_for_downtime() {
    let Some(schema) = PgSchema::new().await else { return };
    downtime_is_not_charged(&schema.url).await;
}
