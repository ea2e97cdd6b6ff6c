//! Every variant online, over real sockets on loopback: each board variant's game played by two
//! clients with a watcher and downloaded as PDN that the rules library reads back to the same
//! position; the computer answering in International, Canadian and Turkish; the analysis
//! board and the review on a 10x10 game; the boards' layouts for the page; and moves and
//! positions that do not fit the variant's board refused with the reason.

mod common;

use checkers_rules::board::{Board, BoardVariant, RuleSet};
use checkers_rules::{read_any_pdn, with_board_variant, AnyPdnGame};
use common::{first_legal, http_get, http_post, move_message, seated_pair, Client};
use serde_json::{json, Value};

/// What the rules library says of a variant's start: its FEN, its number of legal moves, its
/// PDN `GameType`, and the side that moves first.
fn start_of(variant: BoardVariant) -> (String, usize, u32, &'static str) {
    with_board_variant!(variant, V => {
        let start = Board::<V>::start();
        let first = if <V as RuleSet>::FIRST == checkers_rules::Color::White { "white" } else { "black" };
        (start.to_fen(), start.legal_moves().len(), variant.pdn_game_type(), first)
    })
}

/// The position at the end of the first game of PDN text, as FEN, and its number of moves.
fn end_of(pdn: &str) -> (String, usize) {
    let Some(AnyPdnGame::Board(game)) = read_any_pdn(pdn).unwrap().into_iter().next() else {
        panic!("a board variant's game: {pdn}")
    };
    with_board_variant!(game.variant(), V => {
        let game = game.get::<V>().unwrap();
        (game.end_position().to_fen(), game.moves().len())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_board_variant_is_played_watched_and_downloaded() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    for variant in BoardVariant::ALL {
        let name = variant.name();
        let (start_fen, start_moves, game_type, first) = start_of(variant);
        let (mut mover, token_first, mut other, token_second, game) =
            seated_pair(addr, "open", name, first).await;
        let mut watcher = Client::connect(addr).await;
        assert_eq!(watcher.request(json!({"t": "watch", "game": game})).await["t"], "watching");
        let mut state = watcher.state_at(0).await;
        assert_eq!((state["variant"].as_str(), state["turn"].as_str()), (Some(name), Some(first)));
        assert_eq!(state["start_fen"], start_fen, "{name}");
        assert_eq!(state["legal"].as_array().unwrap().len(), start_moves, "{name}");

        // Twelve moves, each side its first legal one, seen by the watcher in order.
        let mut tokens = [token_first.as_str(), token_second.as_str()];
        let mut told = Vec::new();
        for ply in 0..12u64 {
            if state["status"] != "playing" {
                break;
            }
            let legal = first_legal(&state);
            told.push(legal["text"].as_str().unwrap().to_string());
            let reply = mover.request(move_message(&game, tokens[0], &legal, ply)).await;
            assert_eq!(reply["t"], "ok", "{name}: {reply}");
            state = watcher.state_at(ply + 1).await;
            assert_eq!(state["last_move"]["text"], legal["text"], "{name}");
            assert_eq!(state["last_move"]["route"], legal["route"], "{name}");
            std::mem::swap(&mut mover, &mut other);
            tokens.swap(0, 1);
        }
        let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
        assert_eq!(moves, told, "{name}");
        let resigned = mover.request(json!({"t": "resign", "game": game, "token": tokens[0]})).await;
        assert_eq!(resigned["t"], "ok", "{name}: {resigned}");
        let end = watcher.state_where(|s| s["status"] == "finished").await;
        assert_eq!(end["reason"], "resignation", "{name}");

        // The PDN download names the variant, and reads back to the position the game reached.
        let (status, pdn) = http_get(addr, &format!("/games/{game}.pdn"));
        assert_eq!(status, 200, "{name}");
        assert!(pdn.contains(&format!("[GameType \"{game_type}")), "{name}: {pdn}");
        assert_eq!(end_of(&pdn), (end["fen"].as_str().unwrap().to_string(), moves.len()), "{name}: {pdn}");
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_on_every_board_size() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    for name in ["international", "canadian", "turkish", "frisian"] {
        let mut client = Client::connect(addr).await;
        let created = client
            .request(
                json!({"t": "create", "opponent": "computer", "level": 2, "variant": name, "color": "white"}),
            )
            .await;
        assert_eq!(created["t"], "seated", "{name}: {created}");
        let (game, token) = (created["game"].as_str().unwrap(), created["token"].as_str().unwrap());
        assert_eq!(created["color"], "white");
        let mut state = client.state_at(0).await;
        for ply in (0..8u64).step_by(2) {
            if state["status"] != "playing" {
                break;
            }
            assert_eq!(state["turn"], "white", "{name}: {state}");
            let reply = client.request(move_message(game, token, &first_legal(&state), ply)).await;
            assert_eq!(reply["t"], "ok", "{name}: {reply}");
            // The computer's answer comes as the next state.
            state = client.state_where(|s| s["ply"] == json!(ply + 2) || s["status"] != "playing").await;
            assert!(state["last_move"]["text"].is_string(), "{name}: {state}");
        }
        assert_eq!(state["players"]["black"]["kind"], "computer", "{name}");
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_layouts_analysis_review_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;

    // Every variant's board, for the page.
    let (status, body) = http_get(addr, "/api/variants");
    assert_eq!(status, 200);
    let layouts: Value = serde_json::from_str(&body).unwrap();
    let layouts = layouts["variants"].as_array().unwrap();
    assert_eq!(layouts.len(), 16);
    let international = layouts.iter().find(|l| l["name"] == "international").unwrap();
    assert_eq!(
        (international["side"].as_u64(), international["squares"].as_array().map(Vec::len)),
        (Some(10), Some(50))
    );
    assert_eq!(international["squares"][45], json!([0, 0]), "46 is a1");

    // A 10x10 game: a square past 50 and a move of another board are refused with the reason.
    let (mut white, token_white, mut black, token_black, game) =
        seated_pair(addr, "friend", "international", "white").await;
    let refused = white
        .request(json!({"t": "move", "game": game, "token": token_white, "from": 51, "to": 46, "ply": 0}))
        .await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("51 is not a square (1-50)"), "{refused}");
    let refused = white
        .request(json!({"t": "move", "game": game, "token": token_white, "text": "c3-d4", "ply": 0}))
        .await;
    assert_eq!(refused["code"], "illegal_move", "{refused}");
    // A short game, then a resignation: the review judges its moves.
    let line = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"];
    common::play_line(&game, &line, (&mut white, &token_white), (&mut black, &token_black)).await;
    assert_eq!(white.request(json!({"t": "resign", "game": game, "token": token_white})).await["t"], "ok");
    white.state_where(|s| s["status"] == "finished").await;
    let (status, review) =
        common::http_get_within(addr, &format!("/games/{game}/review"), std::time::Duration::from_secs(120));
    assert_eq!(status, 200, "{review}");
    let review: Value = serde_json::from_str(&review).unwrap();
    let judged = review["moves"].as_array().expect("judged moves");
    assert_eq!(judged.len(), line.len(), "{review}");
    assert_eq!(
        (judged[2]["text"].as_str(), judged[2]["best"].as_str()),
        (Some("28x19"), Some("28x19")),
        "{review}"
    );

    // The analysis board: a 10x10 FEN, and a Frisian PDN game's last position.
    let analysed = analyse(addr, &json!({"variant": "international", "fen": "W:W31-50:B1-20"}));
    assert_eq!(analysed["legal"].as_array().unwrap().len(), 9, "{analysed}");
    let frisian = analyse(addr, &json!({"pdn": "[GameType \"40\"]\n\n1. 32-28 19-23 *"}));
    assert_eq!((frisian["variant"].as_str(), frisian["turn"].as_str()), (Some("frisian"), Some("white")));
    let wrong =
        http_post(addr, "/api/analysis", &json!({"variant": "russian", "fen": "W:W31-50:B1-20"}).to_string());
    assert_eq!(wrong.0, 400, "an 8x8 variant refuses a 10x10 position: {}", wrong.1);
    running.stop().await.unwrap();
}

fn analyse(addr: std::net::SocketAddr, body: &Value) -> Value {
    let (status, text) = http_post(addr, "/api/analysis", &body.to_string());
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}
