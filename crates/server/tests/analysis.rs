//! The analysis board's endpoint over a real socket: a FEN or a PDN game gives the legal moves
//! (each with the position after it) and the engine's lines with their routes; bad input is a
//! clear 400; and it is rate-limited with the reviews.

mod common;

use common::{http_get, http_post as post};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_position_gets_its_moves_and_the_engines_lines() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    assert_eq!(http_get(addr, "/analysis").0, 200);

    let start_fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let (status, body) =
        post(addr, "/api/analysis", &json!({"variant": "russian", "fen": start_fen}).to_string());
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((answer["variant"].as_str(), answer["turn"].as_str()), (Some("russian"), Some("white")));
    let legal = answer["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 7);
    let c3d4 = legal.iter().find(|m| m["text"] == "c3-d4").expect("c3-d4 is legal");
    assert_eq!(c3d4["fen"], "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    let lines = answer["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{body}");
    for line in lines {
        let first = legal.iter().find(|m| m["text"] == line["move"]).expect("a line opens with a legal move");
        assert_eq!(line["route"], first["route"], "{line}");
    }

    // A PDN game: its last position, written as the variant writes moves.
    let pdn = "[GameType \"25\"]\n\n1. c3-d4 f6-e5 *";
    let (status, body) = post(addr, "/api/analysis", &json!({"pdn": pdn}).to_string());
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        answer["legal"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect::<Vec<_>>(),
        ["d4:f6"]
    );

    for bad in ["", "{}", "{\"variant\":\"russian\",\"fen\":\"<b>x</b>\"}", "{\"pdn\":\"1. 11-15 15-11 *\"}"]
    {
        let (status, body) = post(addr, "/api/analysis", bad);
        assert_eq!(status, 400, "{bad}: {body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["code"], "bad_request", "{body}");
    }
    let huge = json!({"pdn": "x".repeat(100_000)}).to_string();
    assert_eq!(post(addr, "/api/analysis", &huge).0, 413);

    // Limited with the reviews and lines: a client asking in a loop is told to wait.
    let again = json!({"variant": "russian", "fen": start_fen}).to_string();
    let statuses: Vec<u16> = (0..40).map(|_| post(addr, "/api/analysis", &again).0).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    running.stop().await.unwrap();
}
