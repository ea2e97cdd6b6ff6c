//! The life of games on the server, over real sockets, on SQLite and on PostgreSQL: a friend
//! game is in no list and is joined with its invitation only; the quotas per client address
//! answer with their errors, also after a restart; games nobody joins expire and disappear,
//! and idle games leave memory and come back when asked for; a restart with 10,000 waiting
//! games listens within a second and a running clock's flag still falls on time. A heavier
//! check, memory back where it started once 10,000 waiting games have expired, is run by hand
//! (`--ignored`; docs/benchmarks.md has its figures).

mod common;

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use checkers_rules::{Position, Variant};
use checkers_server::live::{LiveGame, Seat};
use checkers_server::token::{hash_token, new_game_id};
use checkers_server::{GameLimits, Store};
use common::{first_legal, http_get, move_message, server, sqlite_file, Client, PgSchema, ServerProcess};
use serde_json::{json, Value};

/// Whether a list message (`lobby`, `games`) or body names the game.
fn lists(list: &Value, game: &str) -> bool {
    list["games"].as_array().expect("a list of games").iter().any(|g| g["id"] == json!(game))
}

/// Follows the `games` feed until its list satisfies `done`; returns that list.
async fn games_feed_where(client: &mut Client, done: impl Fn(&Value) -> bool) -> Value {
    let first = client.request(json!({"t": "games"})).await;
    if done(&first) {
        return first;
    }
    loop {
        let message = client.next().await.expect("the connection stays open");
        if message["t"] == "games" && done(&message) {
            return message;
        }
    }
}

/// Polls `check` every 50 ms until it holds; fails after `patience`.
async fn eventually(what: &str, patience: Duration, check: impl Fn() -> bool) {
    let deadline = Instant::now() + patience;
    while !check() {
        assert!(Instant::now() < deadline, "{what}: not within {patience:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn code(reply: &Value) -> &str {
    assert_eq!(reply["t"], "error", "{reply}");
    reply["code"].as_str().unwrap()
}

async fn friend_games_are_private(db: &str) {
    let running = server(db, GameLimits::default()).await;
    let addr = running.addr;
    let mut ann = Client::connect_from(addr, 2).await;
    let created =
        ann.request(json!({"t": "create", "opponent": "friend", "color": "black", "name": "Ann"})).await;
    let (game, ann_token) = (created["game"].as_str().unwrap(), created["token"].as_str().unwrap());
    let invite = created["invite"].as_str().expect("the creator of a friend game gets its invitation");
    assert!(invite.len() == 32 && invite.bytes().all(|b| b.is_ascii_hexdigit()), "{invite}");

    let mut eve = Client::connect_from(addr, 3).await;
    assert!(!lists(&eve.request(json!({"t": "lobby"})).await, game));
    for refused in [
        json!({"t": "join", "game": game}),
        json!({"t": "join", "game": game, "invite": "0".repeat(32)}),
        json!({"t": "join", "game": game, "invite": ann_token}),
    ] {
        assert_eq!(code(&eve.request(refused).await), "not_invited");
    }
    // Watching by id stays open to anyone who has the id.
    assert_eq!(eve.request(json!({"t": "watch", "game": game})).await["t"], "watching");
    let mut bob = Client::connect_from(addr, 4).await;
    let joined = bob.request(json!({"t": "join", "game": game, "invite": invite, "name": "Bob"})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    assert_eq!(
        code(&eve.request(json!({"t": "join", "game": game, "invite": invite})).await),
        "no_free_seat"
    );

    // An open game started after it: once the list shows that one, it would show this one.
    let mut host = Client::connect_from(addr, 5).await;
    let open = host.request(json!({"t": "create", "opponent": "open"})).await;
    let open = open["game"].as_str().unwrap();
    let mut guest = Client::connect_from(addr, 6).await;
    assert_eq!(guest.request(json!({"t": "join", "game": open})).await["t"], "seated");
    let feed = games_feed_where(&mut eve, |list| lists(list, open)).await;
    assert!(!lists(&feed, game), "{feed}");

    // Over, and its rematch: still in no list.
    assert_eq!(ann.request(json!({"t": "resign", "game": game, "token": ann_token})).await["t"], "ok");
    ann.request(json!({"t": "rematch", "game": game, "token": ann_token})).await;
    let bob_token = joined["token"].as_str().unwrap();
    let rematch = bob.request(json!({"t": "rematch", "game": game, "token": bob_token})).await;
    let rematch = rematch["new_game"].as_str().expect("a rematch").to_string();
    let (status, body) = http_get(addr, "/api/games");
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(lists(&body, open) && !lists(&body, game) && !lists(&body, &rematch), "{body}");
    let feed = games_feed_where(&mut eve, |list| lists(list, open)).await;
    assert!(!lists(&feed, game) && !lists(&feed, &rematch), "{feed}");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_friend_games_are_in_no_list_and_joined_with_their_invitation_only() {
    let dir = tempfile::tempdir().unwrap();
    friend_games_are_private(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_friend_games_are_in_no_list_and_joined_with_their_invitation_only() {
    let Some(schema) = PgSchema::new().await else { return };
    friend_games_are_private(&schema.url).await;
}

async fn quotas_hold(db: &str) {
    let limits = GameLimits { games_per_hour: 4, waiting_games: 2, ..GameLimits::default() };
    let running = server(db, limits.clone()).await;
    let addr = running.addr;
    let mut a = Client::connect_from(addr, 2).await;
    let create = |opponent: &str| json!({"t": "create", "opponent": opponent, "level": 1, "color": "black"});
    let first = a.request(create("open")).await;
    assert_eq!(a.request(create("friend")).await["t"], "seated");
    let refused = a.request(create("open")).await;
    assert_eq!(code(&refused), "too_many_waiting");
    assert_eq!(
        refused["message"],
        "at most 2 games from one address may wait for an opponent at once: cancel one, or wait until someone joins"
    );
    // Another address has quotas of its own.
    let mut b = Client::connect_from(addr, 3).await;
    assert_eq!(b.request(create("open")).await["t"], "seated");
    // A game withdrawn waits no more; a game against the computer never waits.
    let withdraw = json!({"t": "resign", "game": first["game"], "token": first["token"]});
    assert_eq!(a.request(withdraw).await["t"], "ok");
    assert_eq!(a.request(create("open")).await["t"], "seated");
    let computer = a.request(create("computer")).await;
    assert_eq!(computer["t"], "seated", "{computer}");
    let refused = a.request(create("computer")).await;
    assert_eq!(code(&refused), "too_many_games");
    assert_eq!(
        refused["message"],
        "at most 4 games an hour may be created from one address: try again later"
    );
    // A rematch is a game created too.
    let (game, token) = (computer["game"].as_str().unwrap(), computer["token"].as_str().unwrap());
    assert_eq!(a.request(json!({"t": "resign", "game": game, "token": token})).await["t"], "ok");
    assert_eq!(
        code(&a.request(json!({"t": "rematch", "game": game, "token": token})).await),
        "too_many_games"
    );
    running.stop().await.unwrap();

    // The database remembers who waits and who created what in the last hour.
    let running = server(db, limits).await;
    let mut a = Client::connect_from(running.addr, 2).await;
    assert_eq!(code(&a.request(create("computer")).await), "too_many_games");
    let mut b = Client::connect_from(running.addr, 3).await;
    assert_eq!(b.request(create("friend")).await["t"], "seated");
    assert_eq!(code(&b.request(create("open")).await), "too_many_waiting");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_quotas_per_address_answer_with_their_errors() {
    let dir = tempfile::tempdir().unwrap();
    quotas_hold(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_quotas_per_address_answer_with_their_errors() {
    let Some(schema) = PgSchema::new().await else { return };
    quotas_hold(&schema.url).await;
}

async fn games_expire(db: &str) {
    let limits = GameLimits {
        waiting_games: 1,
        open_game_expiry: Duration::from_secs(2),
        invite_expiry: Duration::from_secs(4),
        idle_unload: Duration::from_secs(1),
        ..GameLimits::default()
    };
    let running = server(db, limits).await;
    let (addr, registry) = (running.addr, running.registry.clone());
    let began = Instant::now();
    let mut lobby = Client::connect_from(addr, 9).await;
    lobby.request(json!({"t": "lobby"})).await;
    // An open game whose creator stays to watch it, a friend game whose creator leaves, and
    // an open game that someone joins.
    let mut ann = Client::connect_from(addr, 2).await;
    let open =
        ann.request(json!({"t": "create", "opponent": "open"})).await["game"].as_str().unwrap().to_string();
    let mut bea = Client::connect_from(addr, 3).await;
    let friend =
        bea.request(json!({"t": "create", "opponent": "friend"})).await["game"].as_str().unwrap().to_string();
    bea.close().await;
    let mut cid = Client::connect_from(addr, 4).await;
    let joined =
        cid.request(json!({"t": "create", "opponent": "open"})).await["game"].as_str().unwrap().to_string();
    let mut dan = Client::connect_from(addr, 5).await;
    assert_eq!(dan.request(json!({"t": "join", "game": joined})).await["t"], "seated");
    assert_eq!(registry.games_waiting(), 2);

    // The friend game, idle and unwatched, leaves memory; it is still there when asked for.
    eventually("the idle game unloaded", Duration::from_secs(10), || registry.games_in_memory() == 2).await;
    assert_eq!(http_get(addr, &format!("/games/{friend}.pdn")).0, 200);
    assert_eq!(registry.games_in_memory(), 3, "loaded again to be read");

    // Ann hears that her game is gone, and the lobby no longer shows it.
    let notice = loop {
        let message = ann.next().await.expect("the connection stays open");
        if message["t"] == "error" {
            break message;
        }
    };
    assert_eq!(
        notice,
        json!({"t": "error", "re": null, "code": "expired",
               "message": "nobody joined this game in time, so it has been deleted"})
    );
    assert!(began.elapsed() >= Duration::from_secs(2), "expired early: {:?}", began.elapsed());
    loop {
        let message = lobby.next().await.expect("the connection stays open");
        if message["t"] == "lobby" && !lists(&message, &open) {
            break;
        }
    }
    assert_eq!(code(&ann.request(json!({"t": "join", "game": open})).await), "not_found");
    // Ann may have a game waiting again: her expired one no longer counts.
    assert_eq!(ann.request(json!({"t": "create", "opponent": "open"})).await["t"], "seated");

    // The friend game waits longer, then goes too, from memory and from the database.
    eventually("every waiting game gone", Duration::from_secs(15), || registry.games_waiting() == 0).await;
    assert!(began.elapsed() >= Duration::from_secs(4), "expired early: {:?}", began.elapsed());
    assert_eq!(code(&dan.request(json!({"t": "watch", "game": friend})).await), "not_found");
    let store = registry.store();
    for gone in [&open, &friend] {
        assert!(store.load_game(gone).await.unwrap().is_none(), "{gone} is still in the database");
    }
    assert!(store.load_game(&joined).await.unwrap().is_some(), "a game joined in time stays");
    eventually("only the game in play in memory", Duration::from_secs(10), || {
        registry.games_in_memory() == 1
    })
    .await;
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_games_nobody_joins_expire_and_idle_games_leave_memory() {
    let dir = tempfile::tempdir().unwrap();
    games_expire(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_games_nobody_joins_expire_and_idle_games_leave_memory() {
    let Some(schema) = PgSchema::new().await else { return };
    games_expire(&schema.url).await;
}

/// Open games waiting for an opponent, as a flood of `create`s from one address leaves them.
fn waiting_games(count: usize) -> Vec<LiveGame> {
    let now = checkers_server::store::now_ms();
    (0..count)
        .map(|i| {
            let seats =
                [Seat::human(Some("flood".into()), Some(hash_token("flood"))), Seat::human(None, None)];
            LiveGame::new(new_game_id(), Position::start(Variant::English), seats, None, true, now - i as i64)
        })
        .collect()
}

/// The two restarts' timings are compared with a start on the same machine: run one at a
/// time, so neither is timed while the other loads 10,000 games.
static RESTARTS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn restart_with_many_waiting_games(db: &str) {
    let _alone = RESTARTS.lock().await;
    // A timed game under way, its clock running, when the server dies.
    let starting = Instant::now();
    let server = ServerProcess::start(db);
    // How long this machine takes to start the server at all (with the schema to make): the
    // waiting games may add no more than a second to it (loading them used to add 20 s).
    let empty_start = starting.elapsed();
    let mut ann = Client::connect(server.addr).await;
    let created = ann
        .request(json!({"t": "create", "opponent": "friend", "color": "black", "clock": {"base": 10}}))
        .await;
    let game = created["game"].as_str().unwrap().to_string();
    let mut bob = Client::connect(server.addr).await;
    let joined = bob.request(json!({"t": "join", "game": game, "invite": created["invite"]})).await;
    assert_eq!(joined["t"], "seated", "{joined}");
    // Black's clock runs once both sides have made their first move.
    let tokens = [created["token"].clone(), joined["token"].clone()];
    for (ply, token) in tokens.iter().enumerate() {
        let state = ann.state_where(|g| g["status"] == "playing" && g["ply"] == json!(ply)).await;
        let token = token.as_str().unwrap();
        let reply = ann.request(move_message(&game, token, &first_legal(&state), ply as u64)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
    }
    let state = ann.state_at(2).await;
    assert_eq!(state["clock"]["running"], "black", "{state}");
    let black_ms = state["clock"]["black_ms"].as_i64().unwrap();
    server.kill_hard();

    let store = Store::open(db).await.unwrap();
    store.create_games(&waiting_games(10_000), Some(Ipv4Addr::new(192, 0, 2, 1).into())).await.unwrap();
    let restarting = Instant::now();
    let server = ServerProcess::start(db);
    let listening = restarting.elapsed();
    assert!(
        listening < empty_start + Duration::from_secs(1),
        "listening after {listening:?} with 10,000 waiting games, {empty_start:?} with none"
    );

    // The waiting games are in the lobby without being loaded, and any one can be joined.
    let mut lee = Client::connect(server.addr).await;
    let lobby = lee.request(json!({"t": "lobby"})).await;
    let entries = lobby["games"].as_array().unwrap();
    assert_eq!(entries.len(), 200, "the lobby shows the newest 200");
    assert_eq!(lee.request(json!({"t": "join", "game": entries[0]["id"]})).await["t"], "seated");

    // Nobody looks at the timed game: its flag falls on time all the same (Black's clock
    // goes on from its stored reading when the game is loaded, after the restart).
    let deadline = restarting + Duration::from_millis(black_ms as u64) + Duration::from_secs(5);
    loop {
        let stored = store.load_game(&game).await.unwrap().expect("the timed game");
        if stored.status == checkers_server::live::Status::Finished {
            assert_eq!(stored.outcome().map(|o| checkers_server::live::reason_code(&o)), Some("time"));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "Black's flag has not fallen {:?} after the restart",
            restarting.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(
        restarting.elapsed() >= Duration::from_millis(black_ms as u64),
        "the flag fell early: {:?} after the restart, with {black_ms} ms left",
        restarting.elapsed()
    );
    drop(server);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_with_10000_waiting_games_listens_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    restart_with_many_waiting_games(&sqlite_file(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restart_with_10000_waiting_games_listens_within_a_second() {
    let Some(schema) = PgSchema::new().await else { return };
    restart_with_many_waiting_games(&schema.url).await;
}

/// The resident memory of a process, in KiB (Linux).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number of KiB")
}

/// Creates `per_client` open games from each of `clients` addresses (127.1.x.y), `at_once`
/// clients at a time; each client disconnects once its games are made.
async fn flood_with_waiting_games(addr: SocketAddr, clients: u32, per_client: usize, at_once: usize) {
    let limit = std::sync::Arc::new(tokio::sync::Semaphore::new(at_once));
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            let limit = limit.clone();
            tokio::spawn(async move {
                let _turn = limit.acquire().await.unwrap();
                let ip = Ipv4Addr::from(u32::from(Ipv4Addr::new(127, 1, 0, 1)) + i);
                let mut client = Client::connect_from_ip(addr, ip).await;
                for _ in 0..per_client {
                    let created = client.request(json!({"t": "create", "opponent": "open"})).await;
                    assert_eq!(created["t"], "seated", "{created}");
                }
                client.close().await;
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
}

/// Waits until no game is listed (waiting games are listed first: all have expired), then a
/// little longer for the server to give back their memory; returns the server's RSS then.
async fn rss_once_all_expired(server: &ServerProcess, patience: Duration) -> u64 {
    let deadline = Instant::now() + patience;
    loop {
        let (_, body) = http_get(server.addr, "/api/games?limit=1");
        if body.contains("\"games\":[]") {
            break;
        }
        assert!(Instant::now() < deadline, "games still waiting after {patience:?}: {body}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    rss_kib(server.child.id())
}

/// Run by hand (`cargo build --release -p checkers`, then `cargo test --release -p
/// checkers-server --test lifecycle -- --ignored --nocapture`): 2,000 clients each leave 5
/// open games waiting (10,000 games in memory), and once those have expired the server's
/// memory is back within 20 MB of where it started: after a first, smaller round (500 games
/// made and expired) has brought in the code, the database's caches and the allocator's
/// arenas that any server that has run a while has.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "heavy: a hand-run benchmark, figures in docs/benchmarks.md"]
async fn memory_comes_back_once_10000_waiting_games_expire() {
    let dir = tempfile::tempdir().unwrap();
    let expiry = Duration::from_secs(30);
    let seconds = expiry.as_secs().to_string();
    let server = ServerProcess::try_start_with(&sqlite_file(&dir), &["--expire-open-after", &seconds])
        .unwrap_or_else(|why| panic!("{why}"));
    let pid = server.child.id();
    let cold = rss_kib(pid);
    flood_with_waiting_games(server.addr, 100, 5, 50).await;
    let started = rss_once_all_expired(&server, 3 * expiry).await;
    let creating = Instant::now();
    flood_with_waiting_games(server.addr, 2_000, 5, 50).await;
    let made = creating.elapsed();
    let peak = rss_kib(pid);
    assert!(made < expiry, "the games took {made:?} to make: some expired meanwhile");
    let after = rss_once_all_expired(&server, 3 * expiry).await;
    println!(
        "RSS: {} MB on start, {} MB after 500 games made and expired, {} MB with 10,000 games \
         waiting (made in {made:.1?}), {} MB once they expired",
        cold / 1024,
        started / 1024,
        peak / 1024,
        after / 1024
    );
    assert!(after <= started + 20 * 1024, "RSS {after} KiB, started at {started} KiB");
}
