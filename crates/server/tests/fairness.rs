//! Fair engine time over real sockets: a crowd of level-9 games from many client addresses
//! neither delays another client's level-1 replies nor makes a timed computer game lose on
//! time; each client's games against the computer are capped; draw offers to the computer do
//! not each cost a search. (`examples/crowd.rs` measures the same at a larger scale.)

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use checkers_server::computer::MAX_COMPUTER_GAMES;
use checkers_server::{start, Config, Running};
use common::{move_message, Client};
use serde_json::{json, Value};

async fn server(dir: &tempfile::TempDir, engine_threads: usize) -> Running {
    let db = dir.path().join("games.db").display().to_string();
    start(&Config {
        addr: "127.0.0.1:0".into(),
        db,
        engine_threads: Some(engine_threads),
        ..Default::default()
    })
    .await
    .expect("server starts")
}

/// The least time between a client's moves: the server takes 20 messages a second.
const MOVE_GAP: Duration = Duration::from_millis(60);

fn computer_game(level: u8, color: &str) -> Value {
    json!({"t": "create", "opponent": "computer", "level": level, "color": color})
}

/// Creates a game and returns its id and seat token (the reply must be `seated`).
async fn create(client: &mut Client, request: Value) -> (String, String) {
    let created = client.request(request).await;
    assert_eq!(created["t"], "seated", "{created}");
    (created["game"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string())
}

/// One of a crowd's games: plays `color` against the computer, a random legal move as soon
/// as it may, a new game whenever one ends, until `stop`.
async fn crowd_player(addr: std::net::SocketAddr, host: u8, seed: u64, stop: Arc<AtomicBool>) {
    let mut client = Client::connect_from(addr, host).await;
    let mut rng = seed | 1;
    while !stop.load(Ordering::Relaxed) {
        let (game, token) = create(&mut client, computer_game(9, "white")).await;
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let Ok(message) = tokio::time::timeout(Duration::from_millis(200), client.next()).await else {
                continue;
            };
            let message = message.expect("the crowd's connection stays open");
            client.seen.clear();
            let state = &message["game"];
            if message["t"] != "state" || state["status"] == "playing" && state["turn"] != "white" {
                continue;
            }
            if state["status"] == "finished" {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let legal = state["legal"].as_array().unwrap();
            let choice = &legal[(rng % legal.len() as u64) as usize];
            tokio::time::sleep(MOVE_GAP).await;
            client
                .send_text(&move_message(&game, &token, choice, state["ply"].as_u64().unwrap()).to_string())
                .await;
        }
    }
}

/// Plays the first legal move whenever it is `color`'s turn, for `moves` of the computer's
/// replies or until the game ends; returns how long each reply took and the last state.
async fn play_against_the_computer(
    client: &mut Client,
    game: &str,
    token: &str,
    color: &str,
    moves: usize,
) -> (Vec<Duration>, Value) {
    let mut replies = Vec::new();
    let mut state = client.state_where(|g| g["turn"] == color || g["status"] == "finished").await;
    while state["status"] == "playing" && replies.len() < moves {
        let ply = state["ply"].as_u64().unwrap();
        tokio::time::sleep(MOVE_GAP).await;
        let sent = Instant::now();
        let reply = client.request(move_message(game, token, &state["legal"][0], ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = client.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] == "finished").await;
        replies.push(sent.elapsed());
    }
    (replies, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_level_9_games_neither_delays_level_1_nor_flags_a_timed_game() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, 2).await;
    let addr = running.addr;
    let stop = Arc::new(AtomicBool::new(false));
    // 31 clients (127.0.0.10-40), each with as many level-9 games as it may have.
    let crowd: Vec<_> = (10..=40u8)
        .flat_map(|host| (0..MAX_COMPUTER_GAMES as u64).map(move |game| (host, game)))
        .map(|(host, game)| tokio::spawn(crowd_player(addr, host, u64::from(host) << 8 | game, stop.clone())))
        .collect();
    // The crowd keeps the engine busy: many long searches wait.
    let loaded = Instant::now();
    while running.registry.computer().long_jobs_waiting() < 40 {
        assert!(loaded.elapsed() < Duration::from_secs(20), "the crowd never loaded the engine");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A timed game at level 9 (the computer moves first, its clock running from the start)
    // and a level-1 game, each from a client of its own.
    let timed = tokio::spawn(async move {
        let mut client = Client::connect_from(addr, 3).await;
        let request = json!({"t": "create", "opponent": "computer", "level": 9, "color": "white",
                             "clock": {"base": 10, "increment": 0}});
        let (game, token) = create(&mut client, request).await;
        play_against_the_computer(&mut client, &game, &token, "white", 8).await
    });
    let mut probe = Client::connect_from(addr, 2).await;
    let (game, token) = create(&mut probe, computer_game(1, "black")).await;
    let (replies, _) = play_against_the_computer(&mut probe, &game, &token, "black", 12).await;
    let waiting = running.registry.computer().long_jobs_waiting();
    let slowest = replies.iter().max().copied().unwrap_or_default();
    eprintln!("level-1 replies under the crowd: {replies:?} ({waiting} long searches waiting)");
    assert!(replies.len() >= 10, "the level-1 game went on: {replies:?}");
    assert!(slowest < Duration::from_secs(2), "a level-1 reply took {slowest:?} under the crowd");

    let (replies, end) = timed.await.unwrap();
    eprintln!("level-9 replies on a 10 s clock under the crowd: {replies:?}; the game: {end}");
    assert_ne!(end["reason"], "time", "the computer lost on time: {end}");
    assert!(end["ply"].as_u64() >= Some(9) || end["status"] == "finished", "{end}");
    assert!(end["clock"]["black_ms"].as_i64() > Some(0), "{end}");
    stop.store(true, Ordering::Relaxed);
    for player in crowd {
        player.await.unwrap();
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_client_has_at_most_its_cap_of_games_against_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, 1).await;
    let mut client = Client::connect_from(running.addr, 50).await;
    let mut games = Vec::new();
    for _ in 0..MAX_COMPUTER_GAMES {
        games.push(create(&mut client, computer_game(1, "black")).await);
    }
    let refused = client.request(computer_game(1, "black")).await;
    assert_eq!(
        (refused["t"].as_str(), refused["code"].as_str()),
        (Some("error"), Some("too_many_computer_games"))
    );
    assert!(refused["message"].as_str().unwrap().contains("finish or resign"), "{refused}");
    // Only games against the computer count, and only this client's.
    let friend = client.request(json!({"t": "create", "opponent": "friend"})).await;
    assert_eq!(friend["t"], "seated", "{friend}");
    let mut other = Client::connect_from(running.addr, 51).await;
    create(&mut other, computer_game(1, "black")).await;
    // A game over frees its place; a rematch against the computer takes one.
    let (game, token) = games.pop().unwrap();
    let resigned = client.request(json!({"t": "resign", "game": game, "token": token})).await;
    assert_eq!(resigned["t"], "ok", "{resigned}");
    games.push(create(&mut client, computer_game(1, "black")).await);
    let rematch = client.request(json!({"t": "rematch", "game": game, "token": token})).await;
    assert_eq!(rematch["code"], "too_many_computer_games", "{rematch}");
    let (first, first_token) = &games[0];
    client.request(json!({"t": "resign", "game": first, "token": first_token})).await;
    let rematch = client.request(json!({"t": "rematch", "game": game, "token": token})).await;
    assert!(rematch["new_game"].is_string(), "{rematch}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_to_the_computer_do_not_each_run_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, 1).await;
    let jobs = || running.registry.computer().jobs_run();
    let mut client = Client::connect_from(running.addr, 60).await;
    let offer =
        |game: &str, token: &str| json!({"t": "draw", "game": game, "token": token, "action": "offer"});

    // Level 9 answers from its own move's score: its book move here, no search at all.
    let (game, token) = create(&mut client, computer_game(9, "white")).await;
    client.state_where(|g| g["ply"] == 1).await;
    let before = jobs();
    for _ in 0..20 {
        let answer = client.request(offer(&game, &token)).await;
        assert_eq!(answer["code"], "draw_declined", "{answer}");
    }
    assert_eq!(jobs(), before, "level 9's draw answers ran a search");

    // Level 1's judgement is blurred: one short search judges the position, once.
    let (game, token) = create(&mut client, computer_game(1, "black")).await;
    client.state_at(0).await;
    let before = jobs();
    for _ in 0..20 {
        let answer = client.request(offer(&game, &token)).await;
        assert_eq!(answer["code"], "draw_declined", "{answer}");
    }
    assert_eq!(jobs(), before + 1, "a position's draw judgement is kept");
    running.stop().await.unwrap();
}
