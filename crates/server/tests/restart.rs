//! Durability: the real `checkers serve` binary is killed with SIGKILL mid-game and started
//! again on the same database; every confirmed move is there and the game goes on with the
//! same seat tokens. Run on a SQLite file, and on PostgreSQL when a URL is given (required
//! on CI).

mod common;

use common::{first_legal, move_message, postgres_url, Client, ServerProcess};
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
    let joined = b.request(json!({"t": "join", "game": game})).await;
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
    let Some(url) = postgres_url() else { return };
    kill_and_restart_keeps_every_move(&url).await;
}
