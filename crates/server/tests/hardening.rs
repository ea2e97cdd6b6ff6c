//! The server against hostile clients, over real sockets: connections that never finish their
//! headers, one address holding too many connections, clients looping on the endpoints that
//! cost work, frames the WebSocket protocol forbids, other sites' pages, and the protocol's
//! small print (move text, request ids, `nosniff`). Several clients are played from distinct
//! loopback addresses, 127.0.0.N.

mod common;
mod raw;

use std::net::SocketAddr;
use std::time::Duration;

use checkers_server::limits::Rate;
use checkers_server::{start, ClientLimits, Config, Running};
use common::Client;
use raw::{close_code, closed_within, frame, get_from, tcp_from, ws_handshake};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

async fn server(dir: &tempfile::TempDir, limits: ClientLimits, allowed_origins: Vec<String>) -> Running {
    let db = dir.path().join("games.db").display().to_string();
    let config = Config {
        addr: "127.0.0.1:0".into(),
        db,
        engine_threads: Some(1),
        limits,
        allowed_origins,
        ..Config::default()
    };
    start(&config).await.expect("server starts")
}

/// ClientLimits that let the tests' own requests through: only what a test is about binds.
fn generous() -> ClientLimits {
    let plenty = Rate { burst: 1e6, per_second: 1e6 };
    ClientLimits { list_requests: plenty, engine_requests: plenty, ..ClientLimits::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_do_not_finish_their_headers_are_closed_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let limits = ClientLimits { header_read_timeout: Duration::from_secs(1), ..generous() };
    let running = server(&dir, limits, Vec::new()).await;
    let addr = running.addr;
    let patience = Duration::from_secs(8);

    // Slowloris: half a request, then silence.
    let mut silent = tcp_from(addr, 2).await;
    silent.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    // A header trickled a byte at a time: what arrives does not reset the deadline.
    let mut trickle = tcp_from(addr, 3).await;
    trickle.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").await.unwrap();
    let trickling = tokio::spawn(async move {
        let started = std::time::Instant::now();
        while trickle.write_all(b"a").await.is_ok() && started.elapsed() < Duration::from_secs(8) {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        started.elapsed()
    });
    // A keep-alive connection left idle after its answer.
    let mut idle = tcp_from(addr, 4).await;
    idle.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).await.unwrap();

    let waited = closed_within(&mut silent, patience).await;
    assert!(waited.is_some_and(|w| w >= Duration::from_millis(900)), "the silent connection: {waited:?}");
    let waited = closed_within(&mut idle, patience).await;
    assert!(waited.is_some(), "the idle keep-alive connection was never closed");
    let trickled = trickling.await.unwrap();
    assert!(trickled < Duration::from_secs(6), "the trickle was cut after {trickled:?}");
    // Others are served all along.
    assert_eq!(get_from(addr, 5, "/healthz").await.status, 200);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_past_its_share_of_connections_is_closed_and_others_still_connect() {
    let dir = tempfile::tempdir().unwrap();
    let limits = ClientLimits {
        connections_per_client: 8,
        header_read_timeout: Duration::from_secs(60),
        ..generous()
    };
    let running = server(&dir, limits, Vec::new()).await;
    let addr = running.addr;
    // 127.0.0.2 holds four WebSockets and four silent connections.
    let mut sockets = Vec::new();
    for _ in 0..4 {
        let mut client = Client::connect_from(addr, 2).await;
        assert_eq!(client.request(json!({"t": "ping"})).await["t"], "pong");
        sockets.push(client);
    }
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(tcp_from(addr, 2).await);
    }
    // Its ninth connection is closed at once, a WebSocket cannot open, a request is not served.
    let mut ninth = tcp_from(addr, 2).await;
    let closed = closed_within(&mut ninth, Duration::from_secs(5)).await;
    assert!(closed.is_some(), "the ninth connection of one address stayed open");
    let tcp = tcp_from(addr, 2).await;
    let upgrade = tokio_tungstenite::client_async(format!("ws://{addr}/ws"), tcp).await;
    assert!(upgrade.is_err(), "a WebSocket past the share opened");
    assert_eq!(get_from(addr, 2, "/healthz").await.status, 0);
    // Another address is served, WebSocket and HTTP.
    let mut other = Client::connect_from(addr, 3).await;
    assert_eq!(other.request(json!({"t": "ping"})).await["t"], "pong");
    assert_eq!(get_from(addr, 3, "/healthz").await.status, 200);
    // A WebSocket closed gives its place back.
    sockets.pop().unwrap().close().await;
    let mut served = false;
    for _ in 0..50 {
        if get_from(addr, 2, "/healthz").await.status == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served, "the place of a closed WebSocket was not given back");
    drop(silent);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_looping_client_is_rate_limited_while_another_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, ClientLimits::default(), Vec::new()).await;
    let addr = running.addr;
    // The list, and the engine's endpoints (one allowance for the three).
    for path in ["/api/games", "/games/nosuchgame/lines?ply=0"] {
        let mut served = 0;
        let refused = loop {
            let reply = get_from(addr, 2, path).await;
            if reply.status == 429 || served > 200 {
                break reply;
            }
            served += 1;
        };
        assert_eq!(refused.status, 429, "{path}: {served} requests in a row were served");
        assert!(served >= 5, "{path}: refused after {served}");
        let wait: u64 = refused.header("retry-after").and_then(|s| s.parse().ok()).unwrap_or(0);
        assert!(wait >= 1, "{path}: {refused:?}");
        assert!(refused.body.contains("\"code\":\"rate_limited\""), "{path}: {refused:?}");
        // Another address is not held to the first one's allowance.
        let other = get_from(addr, 3, path).await;
        assert_ne!(other.status, 429, "{path}: {other:?}");
    }
    assert_eq!(get_from(addr, 2, "/games/nosuchgame/review").await.status, 429);
    // The PDN download words its refusal as its other errors, in plain text.
    let refused = loop {
        let reply = get_from(addr, 4, "/games/nosuchgame/review.pdn").await;
        if reply.status == 429 {
            break reply;
        }
    };
    assert!(refused.body.starts_with("too many requests"), "{refused:?}");
    assert!(refused.header("retry-after").is_some(), "{refused:?}");
    running.stop().await.unwrap();
}

/// Plays a friend game between two clients of address 127.0.0.`n`, each side its first legal
/// move, for up to `plies` moves, then resigns it if it is still on; returns its id and moves.
async fn finished_game(addr: SocketAddr, n: u8, plies: u64) -> (String, u64) {
    let mut black = Client::connect_from(addr, n).await;
    let created = black.request(json!({"t": "create", "opponent": "friend", "color": "black"})).await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut white = Client::connect_from(addr, n).await;
    let joined = white.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    let tokens = [created["token"].clone(), joined["token"].clone()];
    let mut state = black.state_where(|g| g["status"] == "playing").await;
    white.state_where(|g| g["status"] == "playing").await;
    while state["status"] == "playing" && state["ply"].as_u64() < Some(plies) {
        let ply = state["ply"].as_u64().unwrap();
        // Each side from its own connection, within its allowance of messages.
        let (mover, other) = if ply % 2 == 0 { (&mut black, &mut white) } else { (&mut white, &mut black) };
        let token = tokens[(ply % 2) as usize].as_str().unwrap();
        let reply = mover.request(common::move_message(&game, token, &state["legal"][0], ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = mover.state_at(ply + 1).await;
        other.state_at(ply + 1).await;
    }
    let played = state["ply"].as_u64().unwrap();
    if state["status"] == "playing" {
        let resigned = black.request(json!({"t": "resign", "game": game, "token": tokens[0]})).await;
        assert_eq!(resigned["t"], "ok", "{resigned}");
    }
    (game, played)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_asking_for_lines_in_a_loop_does_not_hold_the_review_queue() {
    let dir = tempfile::tempdir().unwrap();
    // No rate limit: the queue itself must share.
    let running = server(&dir, generous(), Vec::new()).await;
    let addr = running.addr;
    let (looped, looped_plies) = finished_game(addr, 2, 60).await;
    let (mine, _) = finished_game(addr, 3, 12).await;
    // Twenty requests at a time from 127.0.0.2, each position once (a kept one costs nothing),
    // and again at once when refused.
    let next = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let looping: Vec<_> = (0..20)
        .map(|_| {
            let (next, looped) = (next.clone(), looped.clone());
            tokio::spawn(async move {
                loop {
                    let ply = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if ply > looped_plies {
                        return;
                    }
                    while get_from(addr, 2, &format!("/games/{looped}/lines?ply={ply}")).await.status != 200 {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Six positions of another game, asked one after the other from 127.0.0.3, all answered.
    let mut answers = Vec::new();
    for ply in 0..6 {
        let reply = get_from(addr, 3, &format!("/games/{mine}/lines?ply={ply}")).await;
        answers.push((reply.status, reply.body));
    }
    let still_looping = looping.iter().filter(|task| !task.is_finished()).count();
    let failed: Vec<_> = answers.iter().filter(|(status, _)| *status != 200).collect();
    assert!(failed.is_empty(), "{} of 6 failed: {failed:?}", failed.len());
    assert!(still_looping > 0, "the loop ended before the six requests: the test proves nothing");
    for task in looping {
        task.abort();
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_reply_says_nosniff() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, generous(), Vec::new()).await;
    let addr = running.addr;
    for path in [
        "/games/zzzzzzzzzz.pdn",
        "/games/zzz",
        "/nosuchpage",
        "/api/games",
        "/healthz",
        "/",
        "/games/zzz/lines",
    ] {
        let reply = get_from(addr, 2, path).await;
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}: {reply:?}");
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_sites_pages_cannot_open_the_websocket_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, generous(), vec!["https://Play.Example.org/".into()]).await;
    let addr = running.addr;
    let cases = [
        (String::new(), 101),
        (format!("Origin: http://{addr}\r\n"), 101),
        ("Origin: https://play.example.org\r\n".to_string(), 101),
        ("Origin: http://evil.example\r\n".to_string(), 403),
        ("Origin: http://127.0.0.1:1\r\n".to_string(), 403),
        ("Origin: null\r\n".to_string(), 403),
    ];
    for (origin, status) in cases {
        let mut tcp = tcp_from(addr, 2).await;
        let reply = ws_handshake(&mut tcp, addr, &origin).await;
        assert_eq!(reply.status, status, "{origin}: {reply:?}");
        if status == 403 {
            assert!(reply.body.contains("\"code\":\"forbidden\""), "{reply:?}");
        }
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_the_protocol_forbids_get_a_close_frame_with_their_code() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, generous(), Vec::new()).await;
    let addr = running.addr;
    let cases: [(&str, Vec<u8>, u16); 5] = [
        ("a text frame that is not UTF-8", frame(0x81, &[0x7b, 0xff, 0xfe, 0x7d]), 1007),
        ("a reserved data opcode", frame(0x83, b"{}"), 1002),
        ("a reserved control opcode", frame(0x8b, b""), 1002),
        ("a reserved bit set", frame(0xc1, b"{\"t\":\"ping\"}"), 1002),
        ("a message over 64 KiB", frame(0x81, &vec![b' '; 70_000]), 1009),
    ];
    for (what, bytes, code) in cases {
        let mut tcp = tcp_from(addr, 2).await;
        assert_eq!(ws_handshake(&mut tcp, addr, "").await.status, 101);
        tcp.write_all(&bytes).await.unwrap();
        assert_eq!(close_code(&mut tcp).await, Some(code), "{what}");
        assert!(closed_within(&mut tcp, Duration::from_secs(10)).await.is_some(), "{what}: left open");
    }
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_text_with_a_stray_separator_is_refused_over_the_wire() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, generous(), Vec::new()).await;
    let mut client = Client::connect(running.addr).await;
    let seated =
        client.request(json!({"t": "create", "opponent": "computer", "level": 1, "color": "black"})).await;
    let (game, token) = (seated["game"].clone(), seated["token"].clone());
    client.state_at(0).await;
    for text in ["-11-15", "11--15", "11-15-"] {
        let reply = client.request(json!({"t": "move", "game": game, "token": token, "text": text})).await;
        assert_eq!(
            (reply["t"].as_str(), reply["code"].as_str()),
            (Some("error"), Some("illegal_move")),
            "{text}"
        );
    }
    let reply = client.request(json!({"t": "move", "game": game, "token": token, "text": "11 - 15"})).await;
    assert_eq!(reply["t"], "ok", "{reply}");
    assert_eq!(client.state_at(1).await["moves"], json!(["11-15"]));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ids_of_refused_messages_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let running = server(&dir, generous(), Vec::new()).await;
    let mut client = Client::connect(running.addr).await;
    client.send_text(&format!("{{\"id\":\"big\",\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000))).await;
    let reply = client.next().await.unwrap();
    assert_eq!((reply["code"].as_str(), reply["re"].clone()), (Some("too_large"), json!("big")), "{reply}");
    for n in 0..60 {
        client.send_text(&format!("{{\"id\":{n},\"t\":\"ping\"}}")).await;
    }
    let mut limited: Vec<Value> = Vec::new();
    for _ in 0..60 {
        let reply = client.next().await.unwrap();
        if reply["code"] == "rate_limited" {
            limited.push(reply["re"].clone());
        }
    }
    assert!(!limited.is_empty() && limited.iter().all(Value::is_number), "{limited:?}");
    // A number that would come back rounded is refused (once the allowance is back).
    tokio::time::sleep(Duration::from_millis(500)).await;
    client.send_text("{\"id\":9007199254740993,\"t\":\"ping\"}").await;
    let reply = client.next().await.unwrap();
    assert_eq!(reply["code"], "bad_request", "{reply}");
    running.stop().await.unwrap();
}
