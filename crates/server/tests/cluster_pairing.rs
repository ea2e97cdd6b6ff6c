//! Quick pairing and challenges across the nodes of a cluster, as real `checkers serve`
//! processes on one PostgreSQL schema: two accounts seeking on two nodes are paired into one
//! game and play it; a node that lost its lease seeks again; the seek of a node killed with
//! `kill -9` is deleted with it. An account challenges one online only on another node, which
//! declines there, then accepts there, and both are seated; the limit of challenges waiting at
//! once counts those on every node.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{
    first_legal, move_message, next_of_type, rated_challenge_accepted, Client, PgSchema, ServerProcess,
};
use serde_json::json;

const PASSWORD: &str = "correct horse battery";
/// How long an HTTP answer may take on a loaded CI machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// Signs up `name` on the node at `addr` from `127.0.0.N`; returns its session cookie (valid
/// on every node: sessions are in the database).
async fn sign_up(addr: SocketAddr, from: u8, name: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0))).unwrap();
    let mut stream = socket.connect(addr).await.expect("http connects");
    let body = json!({"name": name, "password": PASSWORD}).to_string();
    let request = format!(
        "POST /api/accounts HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response)).await.expect("an answer").unwrap();
    let response = String::from_utf8_lossy(&response).to_string();
    let cookie = response.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("set-cookie").then(|| value.split(';').next().unwrap().trim().to_string())
    });
    cookie.unwrap_or_else(|| panic!("signing up {name}: {response}"))
}

/// How many seeks wait in the shared pools.
async fn seeks_waiting(url: &str) -> i64 {
    let pool = sqlx::PgPool::connect(url).await.expect("the test database opens");
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM seeks").fetch_one(&pool).await.unwrap();
    pool.close().await;
    count
}

/// Deletes the node of the one seek waiting, with its seeks and connections online, as a node
/// that finds it dead does.
async fn reap_by_hand(url: &str) {
    let pool = sqlx::PgPool::connect(url).await.expect("the test database opens");
    let (node,): (String,) = sqlx::query_as("SELECT node FROM seeks").fetch_one(&pool).await.unwrap();
    for table in ["nodes WHERE id = $1", "seeks WHERE node = $1", "online WHERE node = $1"] {
        sqlx::query(&format!("DELETE FROM {table}")).bind(&node).execute(&pool).await.unwrap();
    }
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_seeking_on_two_nodes_are_paired_and_play() {
    let Some(schema) = PgSchema::new().await else { return };
    let (node1, node2) = (ServerProcess::start(&schema.url), ServerProcess::start(&schema.url));
    let ann = sign_up(node1.addr, 2, "Ann_Lee").await;
    let bob = sign_up(node2.addr, 3, "Bob_Ray").await;
    let mut ann_ws = Client::connect_with_cookie(node1.addr, 2, &ann).await;
    let mut bob_ws = Client::connect_with_cookie(node2.addr, 3, &bob).await;
    let seek = json!({"t": "seek", "variant": "russian", "clock": "5+3", "rated": true});
    assert_eq!(ann_ws.request(seek.clone()).await["t"], "seeking");
    assert_eq!(bob_ws.request(seek.clone()).await["t"], "seeking");

    // One game, a seat each, pushed on each player's own node.
    let (ann_seat, bob_seat) =
        (next_of_type(&mut ann_ws, "seated").await, next_of_type(&mut bob_ws, "seated").await);
    assert_eq!(ann_seat["game"], bob_seat["game"], "{ann_seat} {bob_seat}");
    assert_ne!(ann_seat["color"], bob_seat["color"], "{ann_seat} {bob_seat}");
    assert_eq!(next_of_type(&mut ann_ws, "watching").await["color"], ann_seat["color"]);
    assert_eq!(next_of_type(&mut bob_ws, "watching").await["color"], bob_seat["color"]);
    let state = ann_ws.state_where(|_| true).await;
    bob_ws.state_where(|_| true).await;
    assert_eq!((state["status"].clone(), state["rated"].clone()), (json!("playing"), json!(true)), "{state}");
    assert_eq!(
        (state["variant"].clone(), state["clock"]["base_ms"].clone()),
        (json!("russian"), json!(300_000))
    );
    let names = [state["players"]["white"]["name"].clone(), state["players"]["black"]["name"].clone()];
    assert!(names.contains(&json!("Ann_Lee")) && names.contains(&json!("Bob_Ray")), "{state}");
    assert_eq!(seeks_waiting(&schema.url).await, 0, "the paired seeks are out of the pools");

    // A move each, each seen by the other on the other node.
    let game = ann_seat["game"].as_str().unwrap().to_string();
    let mut state = state;
    for ply in 0..2 {
        let ann_moves = state["turn"] == ann_seat["color"];
        let (mover, seat, other) = if ann_moves {
            (&mut ann_ws, &ann_seat, &mut bob_ws)
        } else {
            (&mut bob_ws, &bob_seat, &mut ann_ws)
        };
        let token = seat["token"].as_str().unwrap();
        let reply = mover.request(move_message(&game, token, &first_legal(&state), ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        let seen = other.state_at(ply + 1).await;
        state = mover.state_at(ply + 1).await;
        assert_eq!(seen["moves"], state["moves"], "both players see the same game");
    }

    // Bob seeks again on node 2. Its lease is taken from it (its rows deleted, as for a node
    // found dead): alive again, it writes Bob's seek and his account online again.
    assert_eq!(bob_ws.request(json!({"t": "seek", "clock": "1+0"})).await["t"], "seeking");
    assert_eq!(seeks_waiting(&schema.url).await, 1);
    reap_by_hand(&schema.url).await;
    let reaped = Instant::now();
    while seeks_waiting(&schema.url).await == 0 {
        assert!(reaped.elapsed() < Duration::from_secs(30), "node 2 seeks for Bob again");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Node 2 dies: Bob's seek leaves the pools with it, and Ann's seek on node 1 is paired with
    // nobody.
    node2.kill_hard();
    let killed = Instant::now();
    while seeks_waiting(&schema.url).await > 0 {
        assert!(killed.elapsed() < Duration::from_secs(30), "the dead node's seek is deleted");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!("the dead node's seek was deleted {} ms after its death", killed.elapsed().as_millis());
    assert_eq!(ann_ws.request(json!({"t": "seek", "clock": "1+0"})).await["t"], "seeking");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(ann_ws.request(json!({"t": "ping"})).await["t"], "pong");
    assert_eq!(ann_ws.seen.iter().filter(|m| m["t"] == "seated").count(), 1, "{:?}", ann_ws.seen);
    assert_eq!(seeks_waiting(&schema.url).await, 1, "Ann still waits");
    assert_eq!(ann_ws.request(json!({"t": "unseek"})).await["t"], "ok");
    assert_eq!(seeks_waiting(&schema.url).await, 0, "unseek leaves the shared pool");
    drop(node1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_an_account_on_another_node_is_declined_then_accepted_there() {
    let Some(schema) = PgSchema::new().await else { return };
    let (node1, node2) = (ServerProcess::start(&schema.url), ServerProcess::start(&schema.url));
    let ann = sign_up(node1.addr, 2, "Ann_Lee").await;
    let bob = sign_up(node2.addr, 3, "Bob_Ray").await;
    sign_up(node2.addr, 4, "Cal_Orr").await;
    let mut ann_ws = Client::connect_with_cookie(node1.addr, 2, &ann).await;
    let mut bob_ws = Client::connect_with_cookie(node2.addr, 3, &bob).await;
    // Once Bob's connection answers, it is online.
    assert_eq!(bob_ws.request(json!({"t": "ping"})).await["t"], "pong");
    let offline = ann_ws.request(json!({"t": "challenge", "name": "Cal_Orr"})).await;
    assert_eq!(offline["code"], "not_found", "Cal has no connection open on any node: {offline}");

    // Declined on node 2: the challenger on node 1 hears it.
    let sent = ann_ws
        .request(json!({"t": "challenge", "name": "bob_ray", "clock": {"base": 300, "increment": 3}}))
        .await;
    assert_eq!(sent["t"], "challenging", "Bob is online on node 2: {sent}");
    let heard = next_of_type(&mut bob_ws, "challenge").await;
    assert_eq!(
        (heard["from"].clone(), heard["challenge"].clone()),
        (json!("Ann_Lee"), sent["challenge"].clone())
    );
    assert_eq!(heard["clock"], json!({"base_ms": 300_000, "increment_ms": 3000}), "{heard}");
    let forged = bob_ws.request(json!({"t": "accept", "challenge": "<script>"})).await;
    assert_eq!(forged["code"], "not_found", "{forged}");
    assert_eq!(bob_ws.request(json!({"t": "decline", "challenge": sent["challenge"]})).await["t"], "ok");
    let declined = next_of_type(&mut ann_ws, "declined").await;
    assert_eq!(declined, json!({"t": "declined", "challenge": sent["challenge"], "by": "Bob_Ray"}));

    // Accepted on node 2: both are seated, each on their own node, in one game.
    let ann_state = rated_challenge_accepted(&mut ann_ws, &mut bob_ws).await;
    // Bob's state came with his seat, before the answer to his second accept.
    let bob_state = bob_ws.seen.iter().rev().find(|m| m["t"] == "state").expect("Bob watches the game");
    let bob_state = &bob_state["game"];
    assert_eq!(ann_state["id"], bob_state["id"]);
    assert_eq!(ann_state["players"]["white"]["name"], "Ann_Lee", "{ann_state}");
    assert_eq!(ann_state["players"]["black"]["name"], "Bob_Ray", "{ann_state}");

    // The challenges waiting at once are counted on every node: three from Ann on node 1, and
    // a fourth from her connection on node 2 is refused.
    for _ in 0..3 {
        let sent = ann_ws.request(json!({"t": "challenge", "name": "Bob_Ray"})).await;
        assert_eq!(sent["t"], "challenging", "{sent}");
    }
    let mut ann_there = Client::connect_with_cookie(node2.addr, 2, &ann).await;
    let fourth = ann_there.request(json!({"t": "challenge", "name": "Bob_Ray"})).await;
    assert_eq!(fourth["code"], "rate_limited", "{fourth}");
    drop((node1, node2));
}
