//! The site's game rules over real sockets: clocks that start with each side's first move;
//! abort before both sides have moved; claims against a player gone from a timed game; games
//! where no clock runs ended once unplayed for long, after a restart too (on SQLite and
//! PostgreSQL); takebacks; rematch offers seen by the opponent, and spectators told where the
//! rematch is.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use checkers_server::GameLimits;
use common::{first_legal, move_message, server, sqlite_file, Client, PgSchema};
use serde_json::{json, Value};

/// A player's seat: their connection and token.
struct Player {
    client: Client,
    token: String,
}

impl Player {
    /// Plays the first legal move of `state`; returns the reply.
    async fn play_first(&mut self, game: &str, state: &Value) -> Value {
        let ply = state["ply"].as_u64().unwrap();
        self.client.request(move_message(game, &self.token, &first_legal(state), ply)).await
    }

    /// Sends `message` about `game` with the seat's token; returns the reply.
    async fn send(&mut self, mut message: Value, game: &str) -> Value {
        message["game"] = json!(game);
        message["token"] = json!(self.token);
        self.client.request(message).await
    }
}

/// An English game (Black moves first) between two clients from addresses of their own, with
/// `clock` (`null` for none); returns Black, White, the game's id and its first state once
/// both see it begin.
async fn english_game(addr: SocketAddr, clock: Value) -> (Player, Player, String, Value) {
    let mut black = Client::connect_from(addr, 11).await;
    let created = black
        .request(json!({"t": "create", "opponent": "open", "color": "black", "clock": clock, "name": "Bea"}))
        .await;
    assert_eq!(created["t"], "seated", "{created}");
    let game = created["game"].as_str().unwrap().to_string();
    let mut white = Client::connect_from(addr, 12).await;
    let joined = white.request(json!({"t": "join", "game": game, "name": "Will"})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    black.state_where(|g| g["status"] == "playing").await;
    let state = white.state_where(|g| g["status"] == "playing").await;
    let seat = |client, reply: &Value| Player { client, token: reply["token"].as_str().unwrap().to_string() };
    (seat(black, &created), seat(white, &joined), game, state)
}

/// A spectator following `game`.
async fn spectator(addr: SocketAddr, game: &str) -> Client {
    let mut watcher = Client::connect(addr).await;
    watcher.request(json!({"t": "watch", "game": game})).await;
    watcher
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_starts_only_once_its_side_has_moved() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&sqlite_file(&dir), GameLimits::default()).await;
    let (mut black, mut white, game, _) =
        english_game(running.addr, json!({"base": 10, "increment": 0})).await;
    let mut watcher = spectator(running.addr, &game).await;
    let state = watcher.state_at(0).await;
    assert_eq!(state["clock"]["running"], Value::Null, "{state}");
    // Each side thinks over its first move for longer than a second: it costs them nothing.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(black.play_first(&game, &state).await["t"], "ok");
    let state = watcher.state_at(1).await;
    assert_eq!(
        (&state["clock"]["black_ms"], &state["clock"]["running"]),
        (&json!(10_000), &Value::Null),
        "{state}"
    );
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(white.play_first(&game, &state).await["t"], "ok");
    let state = watcher.state_at(2).await;
    assert_eq!(state["clock"]["white_ms"], json!(10_000), "{state}");
    assert_eq!(state["clock"]["running"], "black", "{state}");
    // From then on, Black's clock runs.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(black.play_first(&game, &state).await["t"], "ok");
    let state = watcher.state_at(3).await;
    let black_ms = state["clock"]["black_ms"].as_i64().unwrap();
    assert!((1..=9_700).contains(&black_ms), "{state}");
    assert_eq!(state["clock"]["running"], "white", "{state}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn either_player_aborts_before_both_have_moved_and_everyone_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&sqlite_file(&dir), GameLimits::default()).await;
    let (mut black, mut white, game, _) =
        english_game(running.addr, json!({"base": 60, "increment": 0})).await;
    let mut watcher = spectator(running.addr, &game).await;
    let state = watcher.state_at(0).await;
    assert_eq!(black.play_first(&game, &state).await["t"], "ok");
    watcher.state_at(1).await;
    // White has not moved yet: either may abort.
    assert_eq!(white.send(json!({"t": "abort"}), &game).await["t"], "ok");
    for client in [&mut watcher, &mut black.client] {
        let end = client.state_where(|g| g["status"] == "finished").await;
        assert_eq!(
            (&end["result"], &end["reason"], &end["winner"], &end["message"]),
            (
                &json!("*"),
                &json!("aborted"),
                &Value::Null,
                &json!("The game was aborted before both sides had moved")
            ),
        );
    }
    let stored = running.registry.store().load_game(&game).await.unwrap().expect("the game is kept");
    assert!(stored.aborted && stored.outcome().is_none(), "stored as aborted, with no result");

    // Once both have moved, abort is refused and nothing changes.
    let (mut black, mut white, game, state) = english_game(running.addr, Value::Null).await;
    black.play_first(&game, &state).await;
    let state = white.client.state_at(1).await;
    white.play_first(&game, &state).await;
    let refused = black.send(json!({"t": "abort"}), &game).await;
    assert_eq!((&refused["t"], &refused["code"]), (&json!("error"), &json!("abort_refused")), "{refused}");
    let state = white.client.request(json!({"t": "watch", "game": game})).await;
    assert_eq!(state["t"], "watching");
    assert_eq!(white.client.state_where(|_| true).await["status"], "playing");
    running.stop().await.unwrap();
}

/// How long a player must be gone before a claim, in the claim tests.
const CLAIM_AFTER: Duration = Duration::from_secs(2);

/// White, who has moved, leaves; Black sees White gone once [`CLAIM_AFTER`] has passed, not
/// before, and not once White is back.
async fn white_leaves(addr: SocketAddr, game: &str, black: &mut Player, white: Player) -> Player {
    white.client.close().await;
    let left = Instant::now();
    let refused = black.send(json!({"t": "claim"}), game).await;
    assert_eq!(refused["code"], "claim_refused", "too early: {refused}");
    let state = black.client.state_where(|g| g["gone"] == "white").await;
    assert!(left.elapsed() >= CLAIM_AFTER, "gone after {:?}", left.elapsed());
    assert_eq!(state["status"], "playing");
    // White comes back: no longer gone.
    let mut client = Client::connect_from(addr, 12).await;
    client.request(json!({"t": "watch", "game": game, "token": white.token})).await;
    black.client.state_where(|g| g["gone"].is_null()).await;
    Player { client, token: white.token }
}

async fn claims(db: &str) {
    let limits = GameLimits { claim_after: CLAIM_AFTER, ..GameLimits::default() };
    let running = server(db, limits).await;
    let addr = running.addr;
    for draw in [true, false] {
        let (mut black, mut white, game, state) =
            english_game(addr, json!({"base": 60, "increment": 0})).await;
        black.play_first(&game, &state).await;
        let state = white.client.state_at(1).await;
        white.play_first(&game, &state).await;
        let white = white_leaves(addr, &game, &mut black, white).await;
        white.client.close().await;
        black.client.state_where(|g| g["gone"] == "white").await;
        let mut watcher = spectator(addr, &game).await;
        assert_eq!(black.send(json!({"t": "claim", "draw": draw}), &game).await["t"], "ok");
        let end = watcher.state_where(|g| g["status"] == "finished").await;
        let expected = if draw {
            json!(["1/2-1/2", null, "Draw: White left the game"])
        } else {
            json!(["1-0", "black", "Black wins: White left the game"])
        };
        assert_eq!(json!([end["result"], end["winner"], end["message"]]), expected, "{end}");
        assert_eq!(end["reason"], "abandoned");
        let stored = running.registry.store().load_game(&game).await.unwrap().expect("the game is kept");
        assert_eq!(stored.abandoned_by, Some(checkers_rules::Color::White));
        let stored = checkers_server::protocol::GameState::of(&stored, 0);
        let stored: Value = serde_json::to_value(&stored).unwrap();
        assert_eq!(json!([stored["result"], stored["winner"], stored["message"]]), expected, "{stored}");
    }
    running.stop().await.unwrap();
}

/// How long a game where no clock runs may go unplayed, in the test of that rule.
const UNPLAYED_END: Duration = Duration::from_secs(3);

async fn unplayed_games_end(db: &str) {
    let limits = GameLimits {
        unplayed_end: UNPLAYED_END,
        idle_unload: Duration::from_secs(1),
        ..GameLimits::default()
    };
    let running = server(db, limits.clone()).await;
    // Two untimed games: in one both sides have moved, in the other only Black.
    let (mut black, mut white, both_moved, state) = english_game(running.addr, Value::Null).await;
    black.play_first(&both_moved, &state).await;
    let state = white.client.state_at(1).await;
    white.play_first(&both_moved, &state).await;
    let (mut black_2, _white_2, one_moved, state) = english_game(running.addr, Value::Null).await;
    black_2.play_first(&one_moved, &state).await;
    let last_move = Instant::now();
    // The server stops at once and starts again with no game in memory: the games are found
    // in the database.
    running.stop().await.unwrap();
    let running = server(db, limits).await;
    assert_eq!(running.registry.games_in_memory(), 0);
    let store = running.registry.store();
    for game in [&both_moved, &one_moved] {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let stored = store.load_game(game).await.unwrap().expect("the game is kept");
            if stored.status == checkers_server::live::Status::Finished {
                break;
            }
            assert!(Instant::now() < deadline, "{game} has not ended");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(last_move.elapsed() >= UNPLAYED_END, "ended early: {:?}", last_move.elapsed());
    }
    let mut watcher = Client::connect(running.addr).await;
    watcher.request(json!({"t": "watch", "game": both_moved})).await;
    let end = watcher.state_where(|_| true).await;
    assert_eq!(
        json!([end["status"], end["result"], end["reason"], end["message"]]),
        json!(["finished", "0-1", "abandoned", "White wins: Black left the game"]),
        "Black, to move, loses"
    );
    watcher.request(json!({"t": "watch", "game": one_moved})).await;
    let end = watcher.state_where(|_| true).await;
    assert_eq!(json!([end["status"], end["result"], end["reason"]]), json!(["finished", "*", "aborted"]));
    running.stop().await.unwrap();
}

/// The rules whose outcome is stored, on one database: claims, and games unplayed for long.
async fn stored_rules(db: &str) {
    claims(db).await;
    unplayed_games_end(db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_claims_against_a_player_gone_and_games_unplayed_for_long_end() {
    let dir = tempfile::tempdir().unwrap();
    stored_rules(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_claims_against_a_player_gone_and_games_unplayed_for_long_end() {
    let Some(schema) = PgSchema::new().await else { return };
    stored_rules(&schema.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_asked_for_shown_to_the_opponent_and_answered() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&sqlite_file(&dir), GameLimits::default()).await;
    let (mut black, mut white, game, state) = english_game(running.addr, Value::Null).await;
    let mut watcher = spectator(running.addr, &game).await;
    black.play_first(&game, &state).await;
    watcher.state_at(1).await;
    for answer in ["decline", "accept"] {
        assert_eq!(black.send(json!({"t": "takeback", "action": "offer"}), &game).await["t"], "ok");
        let asked = white.client.state_where(|g| g["takeback_offer"] == "black").await;
        assert_eq!(asked["ply"], 1, "the opponent is shown the request");
        assert_eq!(white.send(json!({"t": "takeback", "action": answer}), &game).await["t"], "ok");
        watcher.state_where(|g| g["takeback_offer"] == "black").await;
        let answered = watcher.state_where(|g| g["takeback_offer"].is_null()).await;
        let expected =
            if answer == "accept" { json!([0, []]) } else { json!([1, [state["legal"][0]["text"]]]) };
        assert_eq!(json!([answered["ply"], answered["moves"]]), expected, "{answered}");
    }
    let stored = running.registry.store().load_game(&game).await.unwrap().expect("the game is kept");
    assert_eq!(stored.ply(), 0, "the moves taken back are gone from the database");
    let refused = white.send(json!({"t": "takeback", "action": "accept"}), &game).await;
    assert_eq!(refused["code"], "takeback_refused", "{refused}");
    let refused = white.send(json!({"t": "takeback", "action": "maybe"}), &game).await;
    assert_eq!(refused["code"], "bad_request", "{refused}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_sees_a_rematch_offer_and_spectators_follow_to_the_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&sqlite_file(&dir), GameLimits::default()).await;
    let (mut black, mut white, game, state) = english_game(running.addr, Value::Null).await;
    let mut watcher = spectator(running.addr, &game).await;
    black.play_first(&game, &state).await;
    assert_eq!(white.send(json!({"t": "resign"}), &game).await["t"], "ok");
    let asked = black.send(json!({"t": "rematch"}), &game).await;
    assert_eq!(asked["new_game"], Value::Null, "{asked}");
    let shown = white.client.state_where(|g| g["rematch_offers"]["black"] == true).await;
    assert_eq!(shown["rematch_game"], Value::Null);
    let agreed = white.send(json!({"t": "rematch"}), &game).await;
    let rematch = agreed["new_game"].as_str().expect("the rematch").to_string();
    // The spectator is told the new game's id, and can follow it there.
    let told = watcher.state_where(|g| !g["rematch_game"].is_null()).await;
    assert_eq!(told["rematch_game"], json!(rematch));
    watcher.request(json!({"t": "watch", "game": rematch})).await;
    let next = watcher.state_where(|_| true).await;
    assert_eq!(json!([next["status"], next["rematch_of"]]), json!(["playing", game]));
    running.stop().await.unwrap();
}
