//! The engine job queue on the real PostgreSQL (skipped without one, as the other
//! PostgreSQL tests are): two workers never hold the same job, a job whose worker stopped
//! renewing its lease is taken by another, and only the holder's result is written and
//! announced with NOTIFY.

mod common;

use std::time::Duration;

use checkers_server::computer::jobs::{JobQueue, MoveJob, CHANNEL};
use checkers_server::Store;
use common::PgSchema;

fn job(game_id: &str, ply: i64) -> MoveJob {
    MoveJob {
        game_id: game_id.to_string(),
        ply,
        variant: "english".to_string(),
        moves: String::new(),
        level: 3,
        budget_ms: Some(500),
    }
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
    assert!(!queue.finish(&first.job, "worker-a", Some("11-15")).await.unwrap(), "a no longer holds it");
    assert_eq!(queue.result("g1", 0).await.unwrap(), None);

    assert!(queue.finish(&again.job, "worker-c", Some("9-13")).await.unwrap());
    let heard =
        tokio::time::timeout(Duration::from_secs(10), listener.recv()).await.expect("a NOTIFY").unwrap();
    assert_eq!(heard.payload(), "g1:0");
    assert_eq!(queue.result("g1", 0).await.unwrap(), Some(Some("9-13".to_string())));
    assert!(queue.finish(&second.job, "worker-b", None).await.unwrap());
    assert_eq!(queue.result("g2", 4).await.unwrap(), Some(None));
    assert_eq!(queue.take("worker-a", short).await.unwrap(), None, "done jobs are not taken");

    queue.forget("g1").await.unwrap();
    assert_eq!(queue.result("g1", 0).await.unwrap(), None);
    queue.close().await;
    store.close().await;
}

#[tokio::test]
async fn the_queue_table_is_created_on_sqlite_too() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&common::sqlite_file(&dir)).await.expect("SQLite migrates with the job table");
    store.close().await;
}
