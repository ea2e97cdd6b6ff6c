//! Operations over real sockets: `/readyz` follows the node's phase, `/metrics` counts a move
//! played, `--log-format json` writes JSON lines, and SIGTERM drains the real binary: its
//! WebSockets close with 1001, it exits 0, and the game is there when it starts again.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{first_legal, http_get, move_message, server_in, Client, ServerProcess};
use serde_json::{json, Value};

/// A friend game between two new clients; returns it with black's client and token.
async fn friend_game(addr: SocketAddr) -> (String, Client, String, Client) {
    let mut black = Client::connect(addr).await;
    let created = black
        .request(json!({"t": "create", "opponent": "friend", "variant": "english", "color": "black"}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut white = Client::connect(addr).await;
    let joined = white.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    (game, black, created["token"].as_str().unwrap().to_string(), white)
}

/// Black plays the first legal move of the opening position; returns the state after it.
async fn black_moves(client: &mut Client, game: &str, token: &str) -> Value {
    client.request(json!({"t": "watch", "game": game})).await;
    let state = client.state_at(0).await;
    let reply = client.request(move_message(game, token, &first_legal(&state), 0)).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    client.state_at(1).await
}

/// A sample's value in Prometheus's text format (the line `name value`).
fn sample(metrics: &str, name: &str) -> f64 {
    let line = metrics.lines().find(|line| line.split(' ').next() == Some(name));
    let value =
        line.and_then(|line| line.rsplit(' ').next()).unwrap_or_else(|| panic!("no {name} in\n{metrics}"));
    value.parse().unwrap_or_else(|_| panic!("{name} is not a number: {value}"))
}

#[tokio::test]
async fn readyz_answers_ready_while_serving_and_503_once_draining() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(&dir).await;
    let addr = server.addr;
    let (health, ready) =
        tokio::task::spawn_blocking(move || (http_get(addr, "/healthz"), http_get(addr, "/readyz")))
            .await
            .unwrap();
    assert_eq!(health, (200, "ok".to_string()));
    assert_eq!(ready, (200, "ready\n".to_string()));
    let mut open = Client::connect(addr).await;
    server.begin_drain();
    assert_eq!(open.close_code().await, Some(1001), "an open WebSocket is told the server goes away");
    let (ready, upgrade) = tokio::task::spawn_blocking(move || {
        let upgrade = tokio_tungstenite::tungstenite::connect(format!("ws://{addr}/ws"));
        (http_get(addr, "/readyz"), upgrade.err().map(|e| e.to_string()))
    })
    .await
    .unwrap();
    assert_eq!(ready, (503, "draining\n".to_string()));
    assert!(upgrade.is_some_and(|e| e.contains("503")), "a new WebSocket is refused while draining");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn metrics_count_a_move_its_round_trip_and_its_commit() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(&dir).await;
    let addr = server.addr;
    let scrape =
        move || async move { tokio::task::spawn_blocking(move || http_get(addr, "/metrics")).await.unwrap() };
    let (status, before) = scrape().await;
    assert_eq!(status, 200, "{before}");
    let (game, mut black, token, _white) = friend_game(addr).await;
    black_moves(&mut black, &game, &token).await;
    let (_, after) = scrape().await;
    for counted in
        ["checkers_moves_total", "checkers_move_round_trip_seconds_count", "checkers_db_commit_seconds_count"]
    {
        assert!(sample(&after, counted) > sample(&before, counted), "{counted} grows:\n{before}\n{after}");
    }
    assert!(sample(&after, "checkers_move_round_trip_seconds_sum") > 0.0, "{after}");
    assert!(sample(&after, "checkers_websocket_connections") >= 2.0, "{after}");
    assert!(sample(&after, "checkers_live_games") >= 1.0, "{after}");
    assert_eq!(sample(&after, "checkers_engine_jobs_waiting{queue=\"reviews\"}"), 0.0, "{after}");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::try_start_with(&common::sqlite_file(&dir), &["--log-format", "json"])
        .unwrap_or_else(|why| panic!("{why}"));
    // The line saying where to open the page follows the first line on stdout at once.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let logged = loop {
        let stderr = server.stderr.lock().unwrap().clone();
        if stderr.contains("in a browser") || std::time::Instant::now() > deadline {
            break stderr;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let line =
        logged.lines().find(|line| line.contains("in a browser")).unwrap_or_else(|| panic!("{logged}"));
    let entry: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(entry["level"], "INFO", "{entry}");
    assert!(entry["fields"]["message"].as_str().unwrap().contains(&server.addr.to_string()), "{entry}");
    assert!(entry["timestamp"].is_string(), "{entry}");
}

#[tokio::test]
async fn sigterm_drains_the_node_which_exits_0_and_the_game_goes_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::sqlite_file(&dir);
    let mut server = ServerProcess::start(&db);
    let (game, mut black, token, mut white) = friend_game(server.addr).await;
    let played = black_moves(&mut black, &game, &token).await;
    let status = server.terminate(Duration::from_secs(20));
    assert_eq!(black.close_code().await, Some(1001), "the player is told the server goes away");
    assert_eq!(white.close_code().await, Some(1001));
    let status = status.expect("the drained node exits within 20 s");
    assert!(status.success(), "a drained node exits 0, not {status}");
    assert!(server.stderr.lock().unwrap().contains("draining"), "the drain is logged");

    let server = ServerProcess::start(&db);
    let mut watcher = Client::connect(server.addr).await;
    watcher.request(json!({"t": "watch", "game": game})).await;
    let state = watcher.state_where(|_| true).await;
    assert_eq!(state["ply"], 1, "{state}");
    assert_eq!(played["moves"].as_array().map(Vec::len), Some(1), "{played}");
    assert_eq!(state["moves"], played["moves"], "{state}");
    assert_eq!(state["status"], "playing", "{state}");
}
