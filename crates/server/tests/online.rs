//! The online game over real sockets on loopback: whole games between two clients with a
//! watcher, the computer's side, hostile and out-of-turn input, and the PDN download.

mod common;

use common::{first_legal, http_get, move_message, play_line, seated_pair, Client};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_whole_game_while_a_third_watches() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    // English: Black moves first, so the creator takes Black.
    let (mut black, token_black, mut white, token_white, game) =
        seated_pair(addr, "open", "english", "black").await;
    let mut watcher = Client::connect(addr).await;
    let watching = watcher.request(json!({"t": "watch", "game": game})).await;
    assert_eq!(watching["t"], "watching");
    assert_eq!(watching["color"], Value::Null);
    let mut state = watcher.state_at(0).await;
    assert_eq!(
        state["players"]["black"]["name"], "Ann <b>",
        "names are kept as typed; the page escapes them"
    );

    // Each side plays its first legal move until the rules end the game.
    let mut told: Vec<String> = Vec::new();
    while state["status"] == "playing" {
        let ply = state["ply"].as_u64().unwrap();
        assert!(ply < 500, "the rules should have ended the game by now");
        let legal = first_legal(&state);
        told.push(legal["text"].as_str().unwrap().to_string());
        let (mover, token) =
            if state["turn"] == "black" { (&mut black, &token_black) } else { (&mut white, &token_white) };
        let reply = mover.request(move_message(&game, token, &legal, ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        assert_eq!(reply["ply"], json!(ply + 1));
        state = watcher.state_at(ply + 1).await;
        assert_eq!(state["last_move"]["text"], legal["text"]);
    }
    assert_eq!(state["status"], "finished");
    let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
    assert_eq!(moves, told, "the watcher saw every move, in order");
    assert!(
        state["result"].is_string() && state["reason"].is_string() && state["message"].is_string(),
        "{state}"
    );
    assert!(state["legal"].as_array().unwrap().is_empty());

    // Both players saw the same end.
    let end_black = black.state_at(moves.len() as u64).await;
    let end_white = white.state_at(moves.len() as u64).await;
    assert_eq!(end_black["result"], state["result"]);
    assert_eq!(end_white["fen"], state["fen"]);

    // The database holds exactly these moves, and the PDN download has them.
    let stored = running.registry.store().move_records(&game).await.unwrap();
    assert_eq!(stored.iter().map(|r| r.pdn.clone()).collect::<Vec<_>>(), moves);
    let (status, pdn) = http_get(addr, &format!("/games/{game}.pdn"));
    assert_eq!(status, 200);
    assert!(pdn.contains("[GameType \"21\"]") && pdn.contains("[Black \"Ann <b>\"]"), "{pdn}");
    assert!(pdn.contains(&format!("1. {} {}", moves[0], moves[1])), "{pdn}");
    assert!(pdn.contains(state["result"].as_str().unwrap()));
    let (status, list) = http_get(addr, "/api/games");
    assert_eq!(status, 200);
    assert!(list.contains(&game));
    assert_eq!(http_get(addr, "/games/nosuchgame.pdn").0, 404);
    assert_eq!(http_get(addr, "/games/..%2Fetc.pdn").0, 404);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_seat_out_of_turn_illegal_and_junk_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    let (mut white, token_white, mut black, token_black, game) =
        seated_pair(addr, "open", "russian", "white").await;
    // Russian: White moves first. Play one move so the game is under way.
    let reply =
        white.request(json!({"t": "move", "game": game, "token": token_white, "text": "c3-d4"})).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    let mut watcher = Client::connect(addr).await;
    watcher.request(json!({"t": "watch", "game": game})).await;
    let before = watcher.state_at(1).await;

    let refusals: Vec<(Value, &str)> = vec![
        // White again: out of turn.
        (json!({"t": "move", "game": game, "token": token_white, "text": "d4-e5"}), "not_your_turn"),
        // A token that holds no seat, trying to move Black's piece.
        (
            json!({"t": "move", "game": game, "token": "00000000000000000000000000000000", "text": "f6-g5"}),
            "not_your_seat",
        ),
        // Black moving White's piece, and a move no piece can make.
        (json!({"t": "move", "game": game, "token": token_black, "text": "d4-e5"}), "illegal_move"),
        (json!({"t": "move", "game": game, "token": token_black, "text": "h6-h5"}), "illegal_move"),
        (json!({"t": "move", "game": game, "token": token_black, "from": 99, "to": 1}), "illegal_move"),
        (json!({"t": "move", "game": game, "token": token_black, "text": "zz"}), "illegal_move"),
        // A resend of an old move.
        (json!({"t": "move", "game": game, "token": token_black, "text": "f6-g5", "ply": 0}), "stale"),
        (json!({"t": "move", "game": "nosuchgame", "token": token_black, "text": "f6-g5"}), "not_found"),
        (json!({"t": "move", "game": game}), "bad_request"),
        (json!({"t": "draw", "game": game, "token": token_black, "action": "accept"}), "no_draw_offer"),
        (json!({"t": "draw", "game": game, "token": token_black, "action": "maybe"}), "bad_request"),
        (json!({"t": "rematch", "game": game, "token": token_black}), "rematch_refused"),
        (json!({"t": "join", "game": game}), "no_free_seat"),
        (json!({"t": "create", "opponent": "computer", "level": 10}), "bad_request"),
        (json!({"t": "create", "opponent": "computer", "level": 300}), "bad_request"),
        (json!({"t": "create", "opponent": "friend", "variant": "chess"}), "bad_request"),
        (json!({"t": "create", "opponent": "friend", "clock": {"base": 1}}), "bad_request"),
        (json!({"t": "fly"}), "bad_request"),
    ];
    for (message, code) in refusals {
        let reply = black.request(message.clone()).await;
        assert_eq!(reply["t"], "error", "{message} -> {reply}");
        assert_eq!(reply["code"], code, "{message} -> {reply}");
    }
    // Junk that is not even a request.
    for junk in ["not json", "[1,2,3]", "{\"t\":", "null", "{\"no\":\"type\"}"] {
        black.send_text(junk).await;
        let reply = black.next().await.unwrap();
        assert_eq!(
            (reply["t"].as_str(), reply["code"].as_str()),
            (Some("error"), Some("bad_request")),
            "{junk}"
        );
    }
    black.send_raw(Message::Binary(vec![0, 1, 2].into())).await;
    assert_eq!(black.next().await.unwrap()["code"], "bad_request");
    let oversized =
        json!({"t": "move", "game": game, "token": token_black, "text": "x".repeat(5000)}).to_string();
    black.send_text(&oversized).await;
    assert_eq!(black.next().await.unwrap()["code"], "too_large");

    // Nothing changed: the same position, and no state was pushed to the watcher.
    let now = watcher.request(json!({"t": "watch", "game": game})).await;
    assert_eq!(now["t"], "watching");
    let after = watcher.state_at(1).await;
    assert_eq!(
        (after["fen"].clone(), after["moves"].clone()),
        (before["fen"].clone(), before["moves"].clone())
    );
    assert_eq!(running.registry.store().move_records(&game).await.unwrap().len(), 1);

    // And the game goes on with a proper move.
    let reply = black
        .request(json!({"t": "move", "game": game, "token": token_black, "text": "f6-g5", "ply": 1}))
        .await;
    assert_eq!(reply["t"], "ok", "{reply}");
    let after = watcher.state_at(2).await;
    // Russian moves are written algebraically, whichever form they were sent in (issue 45).
    assert_eq!(after["moves"], json!(["c3-d4", "f6-g5"]));

    // A flooding client is slowed, then dropped; others are served all along.
    let mut flooder = Client::connect(addr).await;
    for _ in 0..120 {
        flooder.send_text("{\"t\":\"ping\"}").await;
    }
    let mut limited = 0;
    while let Some(reply) = flooder.next().await {
        if reply["code"] == "rate_limited" {
            limited += 1;
        }
    }
    assert!(limited > 0, "the flooder was told to slow down before being dropped");
    let pong = white.request(json!({"t": "ping"})).await;
    assert_eq!(pong["t"], "pong");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offer_resignation_and_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let (mut black, token_black, mut white, token_white, game) =
        seated_pair(running.addr, "friend", "english", "black").await;
    let offer =
        black.request(json!({"t": "draw", "game": game, "token": token_black, "action": "offer"})).await;
    assert_eq!(offer["t"], "ok");
    white.state_where(|g| g["draw_offer"] == "black").await;
    let decline =
        white.request(json!({"t": "draw", "game": game, "token": token_white, "action": "decline"})).await;
    assert_eq!(decline["t"], "ok");
    black.request(json!({"t": "draw", "game": game, "token": token_black, "action": "offer"})).await;
    let accept =
        white.request(json!({"t": "draw", "game": game, "token": token_white, "action": "accept"})).await;
    assert_eq!(accept["t"], "ok", "{accept}");
    let end = white.state_where(|g| g["status"] == "finished").await;
    assert_eq!((end["result"].as_str(), end["reason"].as_str()), (Some("1/2-1/2"), Some("agreement")));

    // Rematch: when both ask, a new game with colours swapped; the same tokens hold the seats.
    let first = black.request(json!({"t": "rematch", "game": game, "token": token_black})).await;
    assert_eq!(first["new_game"], Value::Null);
    let second = white.request(json!({"t": "rematch", "game": game, "token": token_white})).await;
    let new_game = second["new_game"].as_str().expect("rematch created").to_string();
    let mut watch = Client::connect(running.addr).await;
    let seat = watch.request(json!({"t": "watch", "game": new_game, "token": token_white})).await;
    assert_eq!(seat["color"], "black");
    // White of the last game is now Black, who moves first in English checkers; then resigns.
    let state = watch.state_at(0).await;
    let reply = watch.request(move_message(&new_game, &token_white, &first_legal(&state), 0)).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    let reply = watch.request(json!({"t": "resign", "game": new_game, "token": token_black})).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    let end = watch.state_where(|g| g["status"] == "finished").await;
    // White resigned, so Black, who moves first in English, won: `1-0` as PDN writes it.
    assert_eq!((end["result"].as_str(), end["reason"].as_str()), (Some("1-0"), Some("resignation")));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_its_side() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let mut me = Client::connect(running.addr).await;
    // English, the human plays White: the computer (Black) moves first.
    let created = me
        .request(json!({"t": "create", "opponent": "computer", "level": 1, "color": "white", "clock": {"base": 600, "increment": 5}}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut state = me.state_at(1).await;
    for _ in 0..6 {
        if state["status"] != "playing" {
            break;
        }
        assert_eq!(state["turn"], "white");
        let ply = state["ply"].as_u64().unwrap();
        let reply = me.request(move_message(&game, &token, &first_legal(&state), ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = me.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] == "finished").await;
    }
    assert!(state["ply"].as_u64().unwrap() >= 7);
    assert_eq!(state["players"]["black"]["kind"], "computer");
    assert!(state["clock"]["white_ms"].as_i64().unwrap() <= 600_000 + 6 * 5_000);
    // The computer answers a draw offer at once (by its judgement), and accepts a rematch.
    let draw = me.request(json!({"t": "draw", "game": game, "token": token, "action": "offer"})).await;
    if draw["t"] == "ok" {
        me.state_where(|g| g["reason"] == "agreement").await;
    } else {
        assert_eq!(draw["code"], "draw_declined", "{draw}");
        let resigned = me.request(json!({"t": "resign", "game": game, "token": token})).await;
        assert_eq!(resigned["t"], "ok", "{resigned}");
    }
    let rematch = me.request(json!({"t": "rematch", "game": game, "token": token})).await;
    assert!(rematch["new_game"].is_string(), "{rematch}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_lists_open_games_until_joined() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let mut browser = Client::connect(running.addr).await;
    let lobby = browser.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["t"], "lobby");
    let mut host = Client::connect(running.addr).await;
    let created = host.request(json!({"t": "create", "opponent": "open", "name": "Host"})).await;
    let game = created["game"].as_str().unwrap().to_string();
    loop {
        let m = browser.next().await.unwrap();
        if m["t"] == "lobby" && m["games"].as_array().unwrap().iter().any(|g| g["id"] == json!(game)) {
            break;
        }
    }
    let joined = browser.request(json!({"t": "join", "game": game})).await;
    assert_eq!(joined["t"], "seated");
    let mut other = Client::connect(running.addr).await;
    let lobby = other.request(json!({"t": "lobby"})).await;
    assert!(lobby["games"].as_array().unwrap().iter().all(|g| g["id"] != json!(game)), "{lobby}");
    running.stop().await.unwrap();
}

/// The entry for `game` in a `games` list message, if it is there.
fn entry(message: &Value, game: &str) -> Option<Value> {
    message["games"].as_array()?.iter().find(|g| g["id"] == json!(game)).cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_of_games_follows_games_live() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let mut page = Client::connect(running.addr).await;
    let first = page.request(json!({"t": "games"})).await;
    assert_eq!(first["t"], "games", "{first}");

    // Waits for a pushed list in which the game's entry satisfies `done`.
    async fn pushed(page: &mut Client, game: &str, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = page.next().await.expect("the connection stays open");
            if message["t"] == "games" {
                if let Some(g) = entry(&message, game) {
                    if done(&g) {
                        return g;
                    }
                }
            }
        }
    }

    let (mut black, token_black, _white, _token_white, game) =
        seated_pair(running.addr, "open", "english", "black").await;
    let g = pushed(&mut page, &game, |g| g["status"] == "playing").await;
    assert_eq!(
        (g["white"].as_str(), g["black"].as_str(), g["plies"].as_i64()),
        (Some("Bob"), Some("Ann <b>"), Some(0))
    );
    black.request(json!({"t": "watch", "game": game})).await;
    let state = black.state_at(0).await;
    let reply = black.request(move_message(&game, &token_black, &first_legal(&state), 0)).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    pushed(&mut page, &game, |g| g["plies"] == json!(1)).await;
    let reply = black.request(json!({"t": "resign", "game": game, "token": token_black})).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    let g = pushed(&mut page, &game, |g| g["status"] == "finished").await;
    assert_eq!((g["result"].as_str(), g["reason"].as_str()), (Some("0-1"), Some("resignation")));

    // A page opened now gets the same list at once.
    let mut late = Client::connect(running.addr).await;
    let now = late.request(json!({"t": "games"})).await;
    assert_eq!(entry(&now, &game).map(|g| g["status"].clone()), Some(json!("finished")));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_by_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    // Ann plays Black (first in English), Bob White; Ann's 11-16 walks into a shot.
    let (mut ann, ann_token, mut bob, bob_token, game) =
        seated_pair(addr, "friend", "english", "black").await;
    let line = ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "11-16"];
    play_line(&game, &line, (&mut ann, &ann_token), (&mut bob, &bob_token)).await;
    // Not while the game is on: a player could ask the engine.
    let (status, body) = http_get(addr, &format!("/games/{game}/review"));
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("\"not_finished\""), "{body}");
    assert_eq!(http_get(addr, &format!("/games/{game}/review.pdn")).0, 409);
    assert_eq!(http_get(addr, &format!("/games/{game}/lines?ply=3")).0, 409);
    let resigned = ann.request(json!({"t": "resign", "game": game, "token": ann_token})).await;
    assert_eq!(resigned["t"], "ok", "{resigned}");
    bob.state_where(|g| g["status"] == "finished").await;

    let (status, body) = http_get(addr, &format!("/games/{game}/review"));
    assert_eq!(status, 200, "{body}");
    let review: Value = serde_json::from_str(&body).unwrap();
    let moves = review["moves"].as_array().unwrap();
    let texts: Vec<&str> = moves.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, line);
    let mut position = checkers_rules::Position::start(checkers_rules::Variant::English);
    for m in moves {
        position = position.play_unchecked(&position.parse_move(m["text"].as_str().unwrap()).unwrap());
        assert_eq!(m["fen"].as_str(), Some(position.to_fen().as_str()), "{m}");
        assert!(m["route"].as_array().is_some_and(|r| r.len() == 2), "{m}");
        assert!(["good", "mistake", "blunder"].contains(&m["verdict"].as_str().unwrap()), "{m}");
        assert!(m["comment"].as_str().unwrap().starts_with(m["score"].as_str().unwrap()), "{m}");
    }
    let shot = &moves[6];
    assert_eq!((shot["verdict"].as_str(), shot["best"].as_str()), (Some("blunder"), Some("15-18")), "{shot}");
    assert_eq!(review["black"]["blunders"], 1, "{review}");
    assert_eq!(
        (review["white"]["mistakes"].as_u64(), review["white"]["blunders"].as_u64()),
        (Some(0), Some(0))
    );
    // Black's blunder, counted as at most three men, over Black's four moves.
    let average = review["black"]["average_loss"].as_f64().unwrap();
    assert!(average > 0.4 && average <= 0.75, "{review}");
    // Kept: the same text again, at once.
    assert_eq!(http_get(addr, &format!("/games/{game}/review")), (200, body));
    // As PDN, each move followed by its comment.
    let (status, pdn) = http_get(addr, &format!("/games/{game}/review.pdn"));
    assert_eq!(status, 200, "{pdn}");
    let record = checkers_rules::read_pdn_game(&pdn).expect("the reviewed game reads back");
    assert_eq!(record.moves().len(), line.len());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(record.comment(i), m["comment"].as_str(), "move {i}");
    }
    assert_eq!(http_get(addr, "/games/nosuchgame/review").0, 404);

    // The engine's three best moves before the blunder, the review's choice first.
    let (status, body) = http_get(addr, &format!("/games/{game}/lines?ply=6"));
    assert_eq!(status, 200, "{body}");
    let analysed: Value = serde_json::from_str(&body).unwrap();
    let before = checkers_rules::Position::from_fen(
        checkers_rules::Variant::English,
        moves[5]["fen"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(
        (analysed["ply"].as_u64(), analysed["fen"].as_str()),
        (Some(6), moves[5]["fen"].as_str()),
        "{analysed}"
    );
    let lines = analysed["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{analysed}");
    let firsts: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert_eq!(firsts[0], "15-18", "{analysed}");
    assert!(firsts[1] != firsts[0] && firsts[2] != firsts[0] && firsts[1] != firsts[2], "{analysed}");
    for line in lines {
        let text = line["line"].as_str().unwrap();
        assert!(text.starts_with(line["move"].as_str().unwrap()), "{line}");
        assert!(before.parse_move(line["move"].as_str().unwrap()).is_ok(), "{line}");
        assert!(!line["score"].as_str().unwrap().is_empty(), "{line}");
    }
    assert!(analysed["depth"].as_u64().is_some_and(|d| d >= 10), "{analysed}");
    // Kept: the same text again.
    assert_eq!(http_get(addr, &format!("/games/{game}/lines?ply=6")), (200, body));
    // The start, and the position after the last move (White to move after 11-16).
    assert_eq!(http_get(addr, &format!("/games/{game}/lines?ply=0")).0, 200);
    let (status, body) = http_get(addr, &format!("/games/{game}/lines?ply=7"));
    assert_eq!(status, 200, "{body}");
    // Past the end, or no position named: refused, saying why.
    for query in ["?ply=8", "?ply=-1", "?ply=x", ""] {
        let (status, body) = http_get(addr, &format!("/games/{game}/lines{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains("\"bad_ply\""), "{query}: {body}");
    }
    assert_eq!(http_get(addr, "/games/nosuchgame/lines?ply=0").0, 404);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russian_moves_are_written_as_russian_players_write_them() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    // Russian: White moves first; Ann creates as White. Moves are taken in either notation.
    let (mut ann, ann_token, mut bob, bob_token, game) =
        seated_pair(addr, "friend", "russian", "white").await;
    let start = ann.seen.iter().rev().find(|m| m["t"] == "state").expect("the game's start")["game"].clone();
    let legal: Vec<&str> =
        start["legal"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(legal, ["a3-b4", "c3-d4", "e3-f4", "g3-h4", "c3-b4", "e3-d4", "g3-f4"]);
    let sent = ["c3-d4", "11-15", "d4xf6"];
    for (ply, text) in sent.iter().enumerate() {
        let (client, token) = if ply % 2 == 0 { (&mut ann, &ann_token) } else { (&mut bob, &bob_token) };
        let reply = client
            .request(json!({"t": "move", "game": game, "token": token, "text": text, "ply": ply}))
            .await;
        assert_eq!(reply["t"], "ok", "{text}: {reply}");
    }
    let state = bob.state_at(3).await;
    assert_eq!(state["moves"], json!(["c3-d4", "f6-e5", "d4:f6"]));
    assert_eq!(state["last_move"]["text"], "d4:f6");
    let mut answers: Vec<&str> =
        state["legal"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
    answers.sort_unstable();
    assert_eq!(answers, ["e7:g5", "g7:e5"]);
    let stored = running.registry.store().move_records(&game).await.unwrap();
    assert_eq!(stored.iter().map(|r| r.pdn.as_str()).collect::<Vec<_>>(), ["c3-d4", "f6-e5", "d4:f6"]);
    let resigned = bob.request(json!({"t": "resign", "game": game, "token": bob_token})).await;
    assert_eq!(resigned["t"], "ok", "{resigned}");
    ann.state_where(|g| g["status"] == "finished").await;

    // The PDN as GameType 25 writes it (White, first to move, won: 1-0), and it reads back.
    let (status, pdn) = http_get(addr, &format!("/games/{game}.pdn"));
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[GameType \"25\"]") && pdn.contains("[Result \"1-0\"]"), "{pdn}");
    assert!(pdn.contains("1. c3-d4 f6-e5 2. d4:f6 1-0"), "{pdn}");
    assert_eq!(checkers_rules::read_pdn_game(&pdn).expect("reads back").moves().len(), 3);
    // The review, its PDN and the engine's lines too.
    let (status, body) = http_get(addr, &format!("/games/{game}/review"));
    assert_eq!(status, 200, "{body}");
    let review: Value = serde_json::from_str(&body).unwrap();
    let texts: Vec<&str> =
        review["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["c3-d4", "f6-e5", "d4:f6"]);
    let (status, pdn) = http_get(addr, &format!("/games/{game}/review.pdn"));
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("1. c3-d4 {") && !writes_a_capture_with_x(&pdn), "{pdn}");
    let (status, body) = http_get(addr, &format!("/games/{game}/lines?ply=3"));
    assert_eq!(status, 200, "{body}");
    let lines: Value = serde_json::from_str(&body).unwrap();
    for line in lines["lines"].as_array().unwrap() {
        let first = line["move"].as_str().unwrap();
        assert!(["e7:g5", "g7:e5"].contains(&first), "{line}");
        assert!(
            line["line"].as_str().unwrap().starts_with(first)
                && !writes_a_capture_with_x(line["line"].as_str().unwrap())
        );
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_address_of_a_game_there_is_not_answers_404_without_game_controls() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    let mut ann = Client::connect(addr).await;
    let created = ann.request(json!({"t": "create", "opponent": "open", "variant": "english"})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let (status, page) = http_get(addr, &format!("/g/{game}"));
    assert_eq!(status, 200);
    assert!(page.contains("id=\"btn-resign\""), "{page}");
    for missing in ["/g/nosuchgame", "/g/x", "/g/bad%20id%3Cb%3E"] {
        let (status, page) = http_get(addr, missing);
        assert_eq!(status, 404, "{missing}");
        assert!(page.contains("No such game"), "{page}");
        assert!(!page.contains("btn-") && !page.contains("<script"), "{page}");
    }
    running.stop().await.unwrap();
}

/// Whether `text` writes a capture with an `x` after a square (`22x15`, `d4xf6`), as Russian
/// notation never does; an `x` elsewhere (a game id, a word) does not count.
fn writes_a_capture_with_x(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(3).any(|w| {
        w[0].is_ascii_digit() && w[1] == b'x' && (w[2].is_ascii_digit() || (b'a'..=b'h').contains(&w[2]))
    })
}
