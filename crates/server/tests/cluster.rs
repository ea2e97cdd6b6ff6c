//! Several nodes on one PostgreSQL database, as real `checkers serve` processes on loopback:
//! players on two nodes and a spectator on a third play a game; the node running it is killed
//! with `kill -9` mid-game and the game finishes through the others with every confirmed move
//! in place; a node drained with SIGTERM hands its games over without a client seeing an
//! error; the nodes' messages go over their direct links, or through `NOTIFY` when a node
//! cannot be reached; and forged `NOTIFY` payloads, calls naming another node's game, or a
//! link that does not prove its node, change nothing.

mod common;

use std::time::{Duration, Instant};

use common::{first_legal, http_get, move_message, Client, PgSchema, ServerProcess};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// How long a move may take to be confirmed across a failover (the issue asks for 5 s; the
/// bound is generous for a loaded CI machine).
const FAILOVER_PATIENCE: Duration = Duration::from_secs(30);

/// A seated player: its connection, game and token, and how many of its moves were refused
/// `unavailable` (a failover under way) and sent again.
struct Player {
    client: Client,
    game: String,
    token: String,
    retries: u32,
}

impl Player {
    /// Follows the game (again, after a reconnection) and returns its state now.
    async fn watch(&mut self) -> Value {
        let reply = self.client.request(json!({"t": "watch", "game": self.game, "token": self.token})).await;
        assert_eq!(reply["t"], "watching", "{reply}");
        self.client.state_where(|_| true).await
    }

    /// Plays the first legal move at `ply`, retrying while the game is unavailable (a
    /// failover under way); returns the move's text once confirmed.
    async fn play_first(&mut self, state: &Value, ply: u64) -> String {
        let legal = first_legal(state);
        let deadline = Instant::now() + FAILOVER_PATIENCE;
        loop {
            let reply = self.client.request(move_message(&self.game, &self.token, &legal, ply)).await;
            if reply["t"] == "ok" {
                return legal["text"].as_str().unwrap().to_string();
            }
            assert!(
                reply["code"] == "unavailable" && Instant::now() < deadline,
                "move {} at ply {ply}: {reply}",
                legal["text"]
            );
            self.retries += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// A timed friend game created by Black on `creator_node`, joined by White on `joiner_node`.
async fn friend_game(creator_node: &ServerProcess, joiner_node: &ServerProcess) -> (Player, Player) {
    let mut black = Client::connect(creator_node.addr).await;
    let created = black
        .request(json!({"t": "create", "opponent": "friend", "variant": "english", "color": "black",
                        "clock": {"base": 600, "increment": 5}}))
        .await;
    assert_eq!(created["t"], "seated", "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let mut white = Client::connect(joiner_node.addr).await;
    let joined = white.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    assert_eq!(joined["t"], "seated", "a player on another node joins: {joined}");
    let black = Player {
        client: black,
        game: game.clone(),
        token: created["token"].as_str().unwrap().into(),
        retries: 0,
    };
    let white = Player { client: white, game, token: joined["token"].as_str().unwrap().into(), retries: 0 };
    (black, white)
}

/// The moves the database holds for a game, in order.
async fn stored_moves(url: &str, game: &str) -> Vec<String> {
    let pool = sqlx::PgPool::connect(url).await.expect("the test database opens");
    let rows: Vec<(String,)> = sqlx::query_as("SELECT pdn FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(game)
        .fetch_all(&pool)
        .await
        .expect("moves are read");
    pool.close().await;
    rows.into_iter().map(|(text,)| text).collect()
}

/// The node the database names as a game's owner.
async fn owner_of(url: &str, game: &str) -> Option<String> {
    let pool = sqlx::PgPool::connect(url).await.expect("the test database opens");
    let owner: Option<(String,)> = sqlx::query_as("SELECT node FROM game_owners WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&pool)
        .await
        .expect("the owner is read");
    pool.close().await;
    owner.map(|(node,)| node)
}

/// Plays the game from `state` by first legal moves, the side to move playing, each move
/// checked on both players' and the spectator's connections; stops at `until` moves or the
/// game's end. Returns the moves confirmed and the last state.
async fn play(
    black: &mut Player,
    white: &mut Player,
    spectator: &mut Client,
    mut state: Value,
    until: u64,
) -> (Vec<String>, Value) {
    let mut confirmed = Vec::new();
    let from_ply = state["ply"].as_u64().unwrap();
    for ply in from_ply..until {
        if state["status"] != "playing" {
            break;
        }
        let mover = if state["turn"] == "black" { &mut *black } else { &mut *white };
        confirmed.push(mover.play_first(&state, ply).await);
        state = black.client.state_at(ply + 1).await;
        let seen = white.client.state_at(ply + 1).await;
        assert_eq!(seen["moves"], state["moves"], "both players see the same game");
        let watched = spectator.state_at(ply + 1).await;
        assert_eq!(watched["moves"], state["moves"], "the spectator on the third node sees it too");
    }
    (confirmed, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_play_a_game_that_survives_its_node_killed_and_another_drained() {
    let Some(schema) = PgSchema::new().await else { return };
    let nodes: Vec<ServerProcess> = (0..3).map(|_| ServerProcess::start(&schema.url)).collect();
    let mut nodes = nodes.into_iter();
    let (node1, mut node2, node3) = (nodes.next().unwrap(), nodes.next().unwrap(), nodes.next().unwrap());

    // Black on node 1 (which runs the game: it was created there), White on node 2, a
    // spectator on node 3.
    let (mut black, mut white) = friend_game(&node1, &node2).await;
    let game = black.game.clone();
    let state = black.watch().await;
    white.watch().await;
    let mut spectator = Client::connect(node3.addr).await;
    let watching = spectator.request(json!({"t": "watch", "game": game})).await;
    assert_eq!(watching["t"], "watching", "{watching}");
    let (mut confirmed, _) = play(&mut black, &mut white, &mut spectator, state, 10).await;
    assert_eq!(confirmed.len(), 10);
    let first_owner = owner_of(&schema.url, &game).await.expect("the game has an owner");

    // Node 1 dies mid-game. Black reconnects to node 3 and the game goes on.
    node1.kill_hard();
    let killed = Instant::now();
    black.client = Client::connect(node3.addr).await;
    let state = black.watch().await;
    assert_eq!(state["ply"], 10, "no confirmed move is lost: {state}");
    let mover = if state["turn"] == "black" { &mut black } else { &mut white };
    confirmed.push(mover.play_first(&state, 10).await);
    let failover = killed.elapsed();
    eprintln!("the first move after node 1's death was confirmed {} ms after it", failover.as_millis());
    let second_owner = owner_of(&schema.url, &game).await.expect("the game has an owner again");
    assert_ne!(second_owner, first_owner, "another node runs the game");
    let state = black.client.state_at(11).await;
    white.client.state_at(11).await;
    spectator.state_at(11).await;
    let (more, _) = play(&mut black, &mut white, &mut spectator, state, 24).await;
    confirmed.extend(more);

    // Node 2 drains: White there is told it goes away and reconnects to node 3; Black and the
    // spectator, on node 3, see no error and the game goes on.
    let status = node2.terminate(Duration::from_secs(20));
    assert_eq!(white.client.close_code().await, Some(1001), "the drained node says it goes away");
    assert!(status.expect("the drained node exits").success());
    let retries_before_drain = (black.retries, white.retries);
    white.client = Client::connect(node3.addr).await;
    let state = white.watch().await;
    assert_eq!(state["ply"], json!(confirmed.len()), "no confirmed move is lost: {state}");
    let (more, last) = play(&mut black, &mut white, &mut spectator, state, 400).await;
    confirmed.extend(more);
    assert_eq!((black.retries, white.retries), retries_before_drain, "no move was refused across the drain");
    let stored = stored_moves(&schema.url, &game).await;
    assert_eq!(stored, confirmed, "every confirmed move is stored once, in order");
    let end = if last["status"] == "playing" {
        let reply = black.client.request(json!({"t": "resign", "game": game, "token": black.token})).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        spectator.state_where(|g| g["status"] == "finished").await
    } else {
        last
    };
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["moves"].as_array().unwrap().len(), confirmed.len(), "{end}");
    eprintln!("the game ended after {} moves: {}", confirmed.len(), end["reason"]);
    let (link, notify) = messages_sent(&node3);
    eprintln!("node 3 sent {link} messages over links, {notify} through NOTIFY");
    assert!(link > 0, "the nodes' messages go over their links");
}

/// How many messages a node sent to other nodes over links and through `NOTIFY`, from its
/// metrics.
fn messages_sent(node: &ServerProcess) -> (u64, u64) {
    let (status, metrics) = http_get(node.addr, "/metrics");
    assert_eq!(status, 200);
    let count = |path: &str| {
        let name = format!("checkers_cluster_messages_total{{path=\"{path}\"}} ");
        metrics.lines().find_map(|l| l.strip_prefix(&name)?.trim().parse().ok()).unwrap_or(0)
    };
    (count("link"), count("notify"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_that_cannot_reach_each_other_by_link_talk_through_notify() {
    let Some(schema) = PgSchema::new().await else { return };
    let node1 = ServerProcess::start(&schema.url);
    let node2 = ServerProcess::start(&schema.url);
    // Every node's link address now refuses connections (port 9, discard, is not served).
    let pool = sqlx::PgPool::connect(&schema.url).await.unwrap();
    sqlx::query("UPDATE nodes SET link_addr = '127.0.0.1:9'").execute(&pool).await.unwrap();
    pool.close().await;
    let (mut black, mut white) = friend_game(&node1, &node2).await;
    let mut spectator = Client::connect(node2.addr).await;
    let watching = spectator.request(json!({"t": "watch", "game": black.game})).await;
    assert_eq!(watching["t"], "watching", "{watching}");
    let state = black.watch().await;
    white.watch().await;
    let (confirmed, _) = play(&mut black, &mut white, &mut spectator, state, 8).await;
    assert_eq!(stored_moves(&schema.url, &black.game).await, confirmed);
    let (link, notify) = messages_sent(&node2);
    assert_eq!(link, 0, "no link could be made");
    assert!(notify > 0, "the calls of node 2's player went through NOTIFY");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_notices_and_calls_for_another_nodes_game_change_nothing() {
    let Some(schema) = PgSchema::new().await else { return };
    let node1 = ServerProcess::start(&schema.url);
    let node2 = ServerProcess::start(&schema.url);
    let (mut black, mut white) = friend_game(&node1, &node1).await;
    let game = black.game.clone();
    let state = black.watch().await;
    white.watch().await;
    black.play_first(&state, 0).await;
    black.client.state_at(1).await;

    let pool = sqlx::PgPool::connect(&schema.url).await.unwrap();
    let nodes: Vec<(String,)> = sqlx::query_as("SELECT id FROM nodes").fetch_all(&pool).await.unwrap();
    let owner = owner_of(&schema.url, &game).await.unwrap();
    let other = nodes.iter().map(|(id,)| id.clone()).find(|id| *id != owner).expect("a second node");
    let channels: Vec<(String,)> =
        sqlx::query_as("SELECT pg_listening_channels()").fetch_all(&pool).await.unwrap();
    assert!(channels.is_empty(), "the test's own connection listens on nothing");
    // The nodes' channels are named after the schema; find them from the listeners' view.
    let prefix = channel_prefix(&pool).await;
    let forged = [
        (format!("{prefix}n{other}"), "not json at all".to_string()),
        (format!("{prefix}all"), r#"{"t":"notice","notice":{"n":"node_gone","node":42}}"#.to_string()),
        // A call for the game sent to the node that does not run it: refused, nothing done.
        (
            format!("{prefix}n{other}"),
            json!({"t": "call", "from": "nobody", "call": 1, "request": {"r": "game", "game": game,
                   "call": {"c": "resign", "token_hash": "0".repeat(64)}}})
            .to_string(),
        ),
        // A state for a game the node does not follow from elsewhere: dropped.
        (
            format!("{prefix}n{owner}"),
            json!({"t": "state", "game": game, "text": "{\"t\":\"forged\"}"}).to_string(),
        ),
    ];
    for (channel, payload) in &forged {
        sqlx::query("SELECT pg_notify($1, $2)").bind(channel).bind(payload).execute(&pool).await.unwrap();
    }
    // The game goes on from where it was, on either node.
    let mut watcher = Client::connect(node2.addr).await;
    watcher.request(json!({"t": "watch", "game": game})).await;
    let seen = watcher.state_where(|_| true).await;
    assert_eq!(seen["ply"], 1, "{seen}");
    assert_eq!(seen["status"], "playing", "{seen}");
    let next = white.client.state_where(|_| true).await;
    let state = if next["ply"] == json!(1) { next } else { white.client.state_at(1).await };
    white.play_first(&state, 1).await;
    assert_eq!(watcher.state_at(2).await["status"], "playing");
    assert_eq!(owner_of(&schema.url, &game).await.as_deref(), Some(owner.as_str()), "the owner is unchanged");

    // A link to the owner that does not prove its node is closed before anything it sends is
    // read: its forged resignation changes nothing.
    let owner_addr =
        if nodes_addr_of(&pool, &owner).await == node1.addr.to_string() { node1.addr } else { node2.addr };
    let (mut link, _) = tokio_tungstenite::connect_async(format!("ws://{owner_addr}/cluster/link"))
        .await
        .expect("the link opens");
    let hello = match link.next().await {
        Some(Ok(Message::Text(text))) => serde_json::from_str::<Value>(&text).unwrap(),
        other => panic!("no greeting: {other:?}"),
    };
    assert_eq!(hello["node"], json!(owner), "{hello}");
    let forged_proof = json!({"from": other, "proof": "0".repeat(64)}).to_string();
    link.send(Message::text(forged_proof)).await.unwrap();
    let resign = json!({"t": "call", "from": other, "call": 1, "request": {"r": "game", "game": game,
                        "call": {"c": "resign", "token_hash": "0".repeat(64)}}});
    let _ = link.send(Message::text(resign.to_string())).await;
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match link.next().await {
                Some(Ok(Message::Text(text))) => panic!("the unproven link was answered: {text}"),
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the unproven link is closed");
    let state = black.client.state_at(2).await;
    black.play_first(&state, 2).await;
    assert_eq!(watcher.state_at(3).await["status"], "playing", "the game goes on");
    pool.close().await;
}

/// The address a node registered for its links.
async fn nodes_addr_of(pool: &sqlx::PgPool, node: &str) -> String {
    let (addr,): (String,) =
        sqlx::query_as("SELECT link_addr FROM nodes WHERE id = $1").bind(node).fetch_one(pool).await.unwrap();
    addr
}

/// The channel prefix the nodes of this schema use (`ck` and a hash of the schema's name),
/// read from the nodes' own `LISTEN`s.
async fn channel_prefix(pool: &sqlx::PgPool) -> String {
    let schema: (String,) = sqlx::query_as("SELECT current_schema()").fetch_one(pool).await.unwrap();
    let hash = schema
        .0
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("ck{:08x}", hash as u32)
}

/// Three nodes whose computer moves are found by one `checkers worker`: a game against the
/// computer created on node 1 and watched from node 2 goes on through the worker, and after
/// node 1 is killed with `kill -9`, through the node that takes it over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_goes_on_through_the_worker_when_its_node_dies() {
    let Some(schema) = PgSchema::new().await else { return };
    let external = ["--engine-workers", "external"];
    let start =
        || ServerProcess::try_start_with(&schema.url, &external).unwrap_or_else(|why| panic!("{why}"));
    let (node1, node2, _node3) = (start(), start(), start());
    let node1_addr = node1.addr;
    let mut node1 = Some(node1);
    let mut worker = std::process::Command::new(common::checkers_binary())
        .args(["worker", "--db", &schema.url, "--threads", "1"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("checkers worker starts");

    let mut player = Client::connect(node1_addr).await;
    let created =
        player.request(json!({"t": "create", "opponent": "computer", "level": 1, "color": "white"})).await;
    assert_eq!(created["t"], "seated", "{created}");
    let mut me = Player {
        client: player,
        game: created["game"].as_str().unwrap().into(),
        token: created["token"].as_str().unwrap().into(),
        retries: 0,
    };
    let mut watcher = Client::connect(node2.addr).await;
    watcher.request(json!({"t": "watch", "game": me.game})).await;
    let mut state = me.watch().await;
    let mut played = 0;
    for round in 0..8 {
        if let Some(node) = node1.take_if(|_| round == 4) {
            node.kill_hard();
            me.client = Client::connect(node2.addr).await;
            state = me.watch().await;
        }
        // The computer (Black) moves first, and after each of White's moves.
        let ply = state["ply"].as_u64().unwrap();
        if state["turn"] == "black" && state["status"] == "playing" {
            state =
                me.client.state_where(|g| g["ply"].as_u64() > Some(ply) || g["status"] != "playing").await;
        }
        if state["status"] != "playing" {
            break;
        }
        let ply = state["ply"].as_u64().unwrap();
        me.play_first(&state, ply).await;
        played += 1;
        state =
            me.client.state_where(|g| g["ply"].as_u64() > Some(ply + 1) || g["status"] != "playing").await;
        let seen = watcher.state_where(|g| g["ply"] == state["ply"]).await;
        assert_eq!(seen["moves"], state["moves"], "the watcher on node 2 sees the computer's moves");
    }
    assert!(played >= 6 || state["status"] == "finished", "the game went on: {state}");
    let mut replay = checkers_rules::Game::new(checkers_rules::Variant::English);
    for text in state["moves"].as_array().unwrap() {
        replay.play_text(text.as_str().unwrap()).expect("every move is legal");
    }
    let pool = sqlx::PgPool::connect(&schema.url).await.unwrap();
    let (found,): (i64,) =
        sqlx::query_as("SELECT count(*) FROM engine_jobs WHERE game_id = $1 AND status = 'done'")
            .bind(&me.game)
            .fetch_one(&pool)
            .await
            .unwrap();
    let _ = worker.kill();
    let _ = worker.wait();
    pool.close().await;
    eprintln!("{played} moves by White, {found} computer moves found by the worker still in the queue");
}
