//! The engine job queue on the real PostgreSQL (skipped without one, as the other
//! PostgreSQL tests are): two workers never hold the same job, a job whose worker stopped
//! renewing its lease is taken by another, and only the holder's result is written and
//! announced with NOTIFY; the real `checkers worker` finds moves, and a worker killed with
//! SIGKILL while holding a job has it finished by another once its lease runs out; and a
//! game against the computer on `checkers serve --engine-workers external`, played through
//! worker processes (refused on SQLite).

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use checkers_server::computer::jobs::{EngineJob, Found, JobQueue, Lookup, CHANNEL};
use checkers_server::Store;
use common::{
    checkers_binary, first_legal, move_message, play_line, seated_pair, Client, PgSchema, ServerProcess,
};
use serde_json::json;

fn job(game_id: &str, ply: i64) -> EngineJob {
    EngineJob {
        game_id: game_id.to_string(),
        ply,
        variant: "english".to_string(),
        moves: String::new(),
        level: 3,
        budget_ms: Some(500),
        ..EngineJob::default()
    }
}

fn found(mv: &str) -> Found {
    Found { result: Some(mv.to_string()), score: None, took_ms: 5 }
}

#[tokio::test]
async fn a_job_whose_lease_ran_out_is_taken_again_and_only_its_holder_finishes_it() {
    let Some(schema) = PgSchema::new().await else { return };
    let store = Store::open(&schema.url).await.expect("the store opens and migrates");
    let queue = JobQueue::connect(&schema.url).await.expect("the queue connects");
    let mut listener = sqlx::postgres::PgListener::connect(&schema.url).await.expect("a listener connects");
    listener.listen(CHANNEL).await.expect("it listens");

    queue.submit(&job("g1", 0)).await.unwrap();
    queue.submit(&job("g1", 0)).await.unwrap(); // the same job again: still one
    queue.submit(&job("g2", 4)).await.unwrap();

    let short = Duration::from_millis(300);
    let first = queue.take("worker-a", short).await.unwrap().expect("a job to take");
    assert_eq!((first.job.game_id.as_str(), first.attempts), ("g1", 1));
    let second = queue.take("worker-b", Duration::from_secs(60)).await.unwrap().expect("the other job");
    assert_eq!(second.job.game_id, "g2");
    assert_eq!(queue.take("worker-b", short).await.unwrap(), None, "both jobs are held");

    // Worker a renews once, then stops (as if killed): its lease runs out.
    assert!(queue.renew(&first.job, "worker-a", short).await.unwrap());
    tokio::time::sleep(Duration::from_millis(700)).await;
    let again = queue.take("worker-c", Duration::from_secs(60)).await.unwrap().expect("the expired job");
    assert_eq!((again.job.clone(), again.attempts), (first.job.clone(), 2));
    assert!(!queue.renew(&first.job, "worker-a", short).await.unwrap(), "a's lease is gone");
    assert!(!queue.finish(&first.job, "worker-a", &found("11-15")).await.unwrap(), "a no longer holds it");
    assert_eq!(queue.result("g1", 0).await.unwrap(), None);

    assert!(queue.finish(&again.job, "worker-c", &found("9-13")).await.unwrap());
    // The channel is the database's, shared with the other tests' schemas.
    let heard = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let heard = listener.recv().await.unwrap();
            if heard.payload() == "g1:0" {
                break;
            }
        }
    });
    heard.await.expect("a NOTIFY of g1:0");
    assert_eq!(queue.result("g1", 0).await.unwrap(), Some(Some("9-13".to_string())));
    assert!(queue.finish(&second.job, "worker-b", &Found::default()).await.unwrap());
    assert_eq!(queue.result("g2", 4).await.unwrap(), Some(None));
    assert_eq!(queue.take("worker-a", short).await.unwrap(), None, "done jobs are not taken");

    queue.forget("g1").await.unwrap();
    assert_eq!(queue.result("g1", 0).await.unwrap(), None);
    queue.close().await;
    store.close().await;
}

#[tokio::test]
async fn a_job_for_other_moves_replaces_the_old_one_and_results_carry_time_and_score() {
    let Some(schema) = PgSchema::new().await else { return };
    let store = Store::open(&schema.url).await.expect("the store opens and migrates");
    let queue = JobQueue::connect(&schema.url).await.expect("the queue connects");
    let lease = Duration::from_secs(60);
    let mut before = job("g", 1);
    before.moves = "11-15".to_string();
    queue.submit(&before).await.unwrap();
    let held = queue.take("worker-a", lease).await.unwrap().expect("the job");
    assert_eq!(queue.lookup(&before).await.unwrap(), Lookup::Open);

    // A takeback, and another move at the same ply: the job is asked for again.
    let mut after = job("g", 1);
    after.moves = "9-13".to_string();
    queue.submit(&after).await.unwrap();
    assert_eq!(queue.lookup(&before).await.unwrap(), Lookup::Missing);
    assert!(!queue.renew(&held.job, "worker-a", lease).await.unwrap(), "the old job is gone");
    assert!(!queue.finish(&held.job, "worker-a", &found("22-18")).await.unwrap());
    let again = queue.take("worker-b", lease).await.unwrap().expect("the new job");
    assert_eq!((again.job.clone(), again.attempts), (after.clone(), 1));
    let answer = Found { result: Some("22-17".to_string()), score: Some("-35".to_string()), took_ms: 7 };
    assert!(queue.finish(&again.job, "worker-b", &answer).await.unwrap());
    assert_eq!(queue.lookup(&after).await.unwrap(), Lookup::Done(answer.clone()));
    queue.submit(&after).await.unwrap(); // the same job again: its result stays
    assert_eq!(queue.lookup(&after).await.unwrap(), Lookup::Done(answer));

    // Cancelling leaves a result alone, and takes an open job out.
    queue.cancel(&after).await.unwrap();
    assert!(matches!(queue.lookup(&after).await.unwrap(), Lookup::Done(_)));
    let open = job("h", 0);
    queue.submit(&open).await.unwrap();
    queue.cancel(&open).await.unwrap();
    assert_eq!(queue.lookup(&open).await.unwrap(), Lookup::Missing);
    // Old results are swept.
    queue.sweep(checkers_server::store::now_ms() + 1).await.unwrap();
    assert_eq!(queue.lookup(&after).await.unwrap(), Lookup::Missing);
    queue.close().await;
    store.close().await;
}

#[tokio::test]
async fn the_queue_table_is_created_on_sqlite_too() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&common::sqlite_file(&dir)).await.expect("SQLite migrates with the job table");
    store.close().await;
}

/// A `checkers worker` child process, killed with SIGKILL when dropped, so a test that fails
/// leaves none behind.
struct Worker(Child);

impl Worker {
    /// SIGKILL: no shutdown code runs.
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `checkers worker` process on `url`, on one thread and a lease of `lease_ms`,
/// and a pause of `pause_ms` (0: none) before each search.
fn start_worker(url: &str, lease_ms: u64, pause_ms: u64) -> Worker {
    let child = Command::new(checkers_binary())
        .args(["worker", "--db", url, "--threads", "1"])
        .env("CHECKERS_WORKER_LEASE_MS", lease_ms.to_string())
        .env("CHECKERS_WORKER_PAUSE_MS", pause_ms.to_string())
        .stdout(Stdio::null())
        .spawn()
        .expect("checkers worker starts");
    Worker(child)
}

/// Waits (generously, for a loaded machine) until `check` gives something.
async fn wait_for<T, F: std::future::Future<Output = Option<T>>>(
    what: &str,
    mut check: impl FnMut() -> F,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_worker_killed_mid_job_has_it_finished_by_another() {
    let Some(schema) = PgSchema::new().await else { return };
    let store = Store::open(&schema.url).await.expect("the store opens and migrates");
    let queue = JobQueue::connect(&schema.url).await.expect("the queue connects");

    // A quick job first: the worker finds a legal move for it.
    // It holds each job 2 s before searching (renewing its lease), so it is killed mid-job.
    let mut first = start_worker(&schema.url, 1_000, 2_000);
    let mut quick = job("quick", 1);
    quick.moves = "11-15".to_string();
    queue.submit(&quick).await.unwrap();
    let found = wait_for("the quick move", || async { queue.result("quick", 1).await.unwrap() }).await;
    let mut game = checkers_server::computer::jobs::job_game(&quick).unwrap();
    game.play_text(found.as_deref().expect("white has moves")).expect("the worker's move is legal");

    // Another job: the worker is killed while it holds it.
    let long = job("long", 0);
    queue.submit(&long).await.unwrap();
    let lookup = sqlx::PgPool::connect(&schema.url).await.unwrap();
    wait_for("the worker to take the long job", || async {
        let status: String = sqlx::query_scalar("SELECT status FROM engine_jobs WHERE game_id = 'long'")
            .fetch_one(&lookup)
            .await
            .unwrap();
        (status == "running").then_some(())
    })
    .await;
    first.kill();

    let mut second = start_worker(&schema.url, 1_000, 0);
    let found = wait_for("the long move", || async { queue.result("long", 0).await.unwrap() }).await;
    assert!(found.is_some(), "the second worker found a move");
    let attempts: i64 = sqlx::query_scalar("SELECT attempts FROM engine_jobs WHERE game_id = 'long'")
        .fetch_one(&lookup)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "taken once by the killed worker and once by the second");
    second.kill();
    lookup.close().await;
    queue.close().await;
    store.close().await;
}

/// The status, holder and attempts of the job of `game`'s `ply`, and its result.
type JobRow = (String, Option<String>, i64, Option<String>);

async fn job_row(lookup: &sqlx::PgPool, game: &str, ply: i64) -> Option<JobRow> {
    sqlx::query_as("SELECT status, worker, attempts, result FROM engine_jobs WHERE game_id = $1 AND ply = $2")
        .bind(game)
        .bind(ply)
        .fetch_optional(lookup)
        .await
        .unwrap()
}

/// Whether a worker id names `worker`'s process (ids are `pid-token`).
fn is_held_by(holder: &Option<String>, worker: &Worker) -> bool {
    holder.as_deref().is_some_and(|h| h.starts_with(&format!("{}-", worker.0.id())))
}

/// Whether the WebSocket brings a state at `ply` within `patience`.
async fn moves_within(client: &mut Client, ply: u64, patience: Duration) -> bool {
    tokio::time::timeout(patience, client.state_where(|g| g["ply"].as_u64() >= Some(ply))).await.is_ok()
}

/// The real `checkers serve --engine-workers external` and real `checkers worker` processes:
/// the computer does not move until a worker runs (a forged `NOTIFY` changes nothing); a
/// worker killed with SIGKILL mid-think has the move found by a second one; every computer
/// move is a worker's result, and legal; the computer's clock is charged the worker's search,
/// not the wait for it; and the game's jobs leave the queue when it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_is_played_by_external_workers() {
    let Some(schema) = PgSchema::new().await else { return };
    let server = ServerProcess::try_start_with(&schema.url, &["--engine-workers", "external"])
        .unwrap_or_else(|why| panic!("{why}"));
    let lookup = sqlx::PgPool::connect(&schema.url).await.unwrap();
    let mut me = Client::connect(server.addr).await;
    // The human plays White, so the computer (Black) moves first; on a clock, to see its charge.
    let created = me
        .request(json!({"t": "create", "opponent": "computer", "level": 2, "color": "white",
                        "clock": {"base": 600, "increment": 0}}))
        .await;
    let game = created["game"].as_str().expect("a game").to_string();
    let token = created["token"].as_str().expect("a seat").to_string();

    // No worker: the job waits in the queue, and the computer does not move.
    let waiting = wait_for("the computer's job", || async { job_row(&lookup, &game, 0).await }).await;
    assert_eq!((waiting.0.as_str(), waiting.2), ("waiting", 0));
    for payload in [format!("{game}:0"), "nonsense".to_string()] {
        sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(payload).execute(&lookup).await.unwrap();
    }
    assert!(!moves_within(&mut me, 1, Duration::from_secs(2)).await, "the computer moved without a worker");

    // A worker takes the job and is killed mid-think (it holds each job for ten minutes) while
    // a second worker runs: the second finds the move once the first one's lease runs out.
    let mut first = start_worker(&schema.url, 1_500, 600_000);
    wait_for("the first worker to hold the job", || async {
        job_row(&lookup, &game, 0).await.filter(|row| is_held_by(&row.1, &first))
    })
    .await;
    let mut second = start_worker(&schema.url, 1_500, 0);
    first.kill();
    let mut state = me.state_at(1).await;
    let (status, holder, attempts, result) = job_row(&lookup, &game, 0).await.expect("the first job");
    assert_eq!((status.as_str(), attempts), ("done", 2), "taken by the killed worker, then the second");
    assert!(is_held_by(&holder, &second), "{holder:?}");
    assert_eq!(result.as_deref(), state["moves"][0].as_str(), "the computer played the worker's move");

    // Played on: every computer move is the second worker's result.
    let mut computer_moves = 1;
    while state["status"] == "playing" && computer_moves < 12 {
        let ply = state["ply"].as_u64().unwrap();
        let reply = me.request(move_message(&game, &token, &first_legal(&state), ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = me.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] == "finished").await;
        if state["ply"].as_u64() >= Some(ply + 2) {
            let (status, holder, _, result) = job_row(&lookup, &game, ply as i64 + 1).await.expect("its job");
            assert_eq!(status, "done");
            assert!(is_held_by(&holder, &second), "{holder:?}");
            assert_eq!(result.as_deref(), state["moves"][ply as usize + 1].as_str());
            computer_moves += 1;
        }
    }
    assert!(computer_moves >= 10 || state["status"] == "finished", "{state}");
    let mut replay = checkers_rules::Game::new(checkers_rules::Variant::English);
    for text in state["moves"].as_array().unwrap() {
        replay.play_text(text.as_str().unwrap()).expect("every move is legal");
    }

    // A worker that holds each job 3 s before searching: the computer's clock is charged its
    // search (milliseconds at level 2), not the wait.
    second.kill();
    let mut slow = start_worker(&schema.url, 10_000, 3_000);
    if state["status"] == "playing" {
        let ply = state["ply"].as_u64().unwrap();
        let before = state["clock"]["black_ms"].as_i64().unwrap();
        let asked = Instant::now();
        let reply = me.request(move_message(&game, &token, &first_legal(&state), ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = me.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] == "finished").await;
        if state["ply"].as_u64() >= Some(ply + 2) {
            assert!(asked.elapsed() >= Duration::from_secs(3));
            let charged = before - state["clock"]["black_ms"].as_i64().unwrap();
            assert!(charged < 1_000, "the computer was charged {charged} ms for a 3 s wait");
        }
    }

    // The game ends: its jobs leave the queue.
    if state["status"] == "playing" {
        let resigned = me.request(json!({"t": "resign", "game": game, "token": token})).await;
        assert_eq!(resigned["t"], "ok", "{resigned}");
    }
    wait_for("the game's jobs to be forgotten", || async {
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM engine_jobs WHERE game_id = $1")
            .bind(&game)
            .fetch_one(&lookup)
            .await
            .unwrap();
        (left == 0).then_some(())
    })
    .await;
    slow.kill();
    me.close().await;
    lookup.close().await;
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_plays_the_computer_on_a_10x10_board() {
    let Some(schema) = PgSchema::new().await else { return };
    let server = ServerProcess::try_start_with(&schema.url, &["--engine-workers", "external"])
        .unwrap_or_else(|why| panic!("{why}"));
    let lookup = sqlx::PgPool::connect(&schema.url).await.unwrap();
    let worker = start_worker(&schema.url, 1_500, 0);
    let mut me = Client::connect(server.addr).await;
    // International: White moves first; the human takes Black, so the worker opens.
    let created = me
        .request(json!({"t": "create", "opponent": "computer", "level": 2, "color": "black",
                        "variant": "international"}))
        .await;
    let game = created["game"].as_str().expect("a game").to_string();
    let token = created["token"].as_str().expect("a seat").to_string();
    let mut state = me.state_at(1).await;
    for _ in 0..4 {
        if state["status"] != "playing" {
            break;
        }
        let ply = state["ply"].as_u64().unwrap();
        let (status, holder, _, result) = job_row(&lookup, &game, ply as i64 - 1).await.expect("its job");
        assert_eq!(status, "done");
        assert!(is_held_by(&holder, &worker), "{holder:?}");
        assert_eq!(result.as_deref(), state["moves"][ply as usize - 1].as_str(), "the worker's move");
        let reply = me.request(move_message(&game, &token, &first_legal(&state), ply)).await;
        assert_eq!(reply["t"], "ok", "{reply}");
        state = me.state_where(|g| g["ply"].as_u64() >= Some(ply + 2) || g["status"] == "finished").await;
    }
    assert_eq!(state["variant"], "international");
    assert!(state["ply"].as_u64() >= Some(9) || state["status"] == "finished", "{state}");
    me.close().await;
    lookup.close().await;
    drop(worker);
    drop(server);
}

#[test]
fn external_workers_are_refused_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::sqlite_file(&dir);
    let refused =
        ServerProcess::try_start_with(&file, &["--engine-workers", "external"]).err().expect("refused");
    assert!(refused.contains("postgres://"), "{refused}");
    assert!(!std::path::Path::new(&file).exists(), "no SQLite file is made for nothing");
}

/// GETs `path` while no worker runs: no answer comes, its job of `kind` waiting in the queue;
/// then starts a worker and gives the answer, once the job has left the queue.
async fn asked_of_a_worker(
    server: &ServerProcess,
    schema: &PgSchema,
    lookup: &sqlx::PgPool,
    path: String,
    kind: &str,
) -> (u16, String) {
    let addr = server.addr;
    // A build of the worker without optimisation takes tens of seconds over a review.
    let answer =
        tokio::task::spawn_blocking(move || common::http_get_within(addr, &path, Duration::from_secs(300)));
    let count = |status: &'static str| async move {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM engine_jobs WHERE kind = $1 AND status LIKE $2")
            .bind(kind)
            .bind(status)
            .fetch_one(lookup)
            .await
            .unwrap()
    };
    wait_for(&format!("a {kind} job"), || async { (count("waiting").await == 1).then_some(()) }).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!answer.is_finished(), "the {kind} came without a worker");
    let _worker = start_worker(&schema.url, 10_000, 0);
    let answer = answer.await.unwrap();
    wait_for(&format!("the {kind} job to leave the queue"), || async {
        (count("%").await == 0).then_some(())
    })
    .await;
    answer
}

/// Reviews and best lines on `checkers serve --engine-workers external` come from a worker:
/// without one they wait in the queue; with one, they are what the node's own engine finds
/// (the same blunder and the same best move as the in-process review test finds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_and_lines_are_found_by_external_workers() {
    let Some(schema) = PgSchema::new().await else { return };
    let server = ServerProcess::try_start_with(&schema.url, &["--engine-workers", "external"])
        .unwrap_or_else(|why| panic!("{why}"));
    let lookup = sqlx::PgPool::connect(&schema.url).await.unwrap();
    // Ann plays Black (first in English), Bob White; Ann's 11-16 walks into a shot.
    let (mut ann, ann_token, mut bob, bob_token, game) =
        seated_pair(server.addr, "friend", "english", "black").await;
    let line = ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "11-16"];
    play_line(&game, &line, (&mut ann, &ann_token), (&mut bob, &bob_token)).await;
    let resigned = ann.request(json!({"t": "resign", "game": game, "token": ann_token})).await;
    assert_eq!(resigned["t"], "ok", "{resigned}");

    let review = format!("/games/{game}/review");
    let (status, body) = asked_of_a_worker(&server, &schema, &lookup, review, "review").await;
    assert_eq!(status, 200, "{body}");
    let review: serde_json::Value = serde_json::from_str(&body).unwrap();
    let moves = review["moves"].as_array().unwrap();
    let texts: Vec<&str> = moves.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, line);
    let shot = &moves[6];
    assert_eq!((shot["verdict"].as_str(), shot["best"].as_str()), (Some("blunder"), Some("15-18")), "{shot}");
    assert_eq!(review["black"]["blunders"], 1, "{review}");

    let lines = format!("/games/{game}/lines?ply=6");
    let (status, body) = asked_of_a_worker(&server, &schema, &lookup, lines, "lines").await;
    assert_eq!(status, 200, "{body}");
    let analysed: serde_json::Value = serde_json::from_str(&body).unwrap();
    let firsts: Vec<&str> =
        analysed["lines"].as_array().unwrap().iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "{analysed}");
    assert_eq!(firsts[0], "15-18", "{analysed}");
    ann.close().await;
    bob.close().await;
    lookup.close().await;
    drop(server);
}
