//! The engine job queue on PostgreSQL (table `engine_jobs`, migrations 0006 and 0008):
//! computer moves, reviews and best lines that a node puts in the queue and `checkers worker`
//! processes on any machine find.
//!
//! A worker takes the oldest open job with `FOR UPDATE SKIP LOCKED`, so two workers never
//! take the same one, and holds it on a lease it renews while it thinks; a job whose lease
//! ran out (its worker died) is taken again by another. The lease is counted on the
//! database's clock, so the machines' clocks need not agree. A finished job's result (with the
//! search's time, and a move's score) is announced with `NOTIFY` on [`CHANNEL`] (payload:
//! `game_id:ply`); the node that asked for it reads it back (`computer/remote.rs`).

use std::time::{Duration, Instant};

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

use super::ComputerPool;
use crate::rules::AnyGame;
use crate::store::{now_ms, StoreError};
use crate::variant::GameVariant;

/// The `LISTEN`/`NOTIFY` channel on which finished jobs are announced.
pub const CHANNEL: &str = "engine_jobs";

/// The database's clock in milliseconds (PostgreSQL).
const DB_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// What a job asks a worker for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JobKind {
    /// The computer's move in a game.
    #[default]
    Move,
    /// A finished game's review: every move judged against the engine's choice.
    Review,
    /// The engine's best lines in the position the moves reach.
    Lines,
}

impl JobKind {
    /// As the table's `kind` says it.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Review => "review",
            JobKind::Lines => "lines",
        }
    }

    fn named(name: &str) -> Option<JobKind> {
        [JobKind::Move, JobKind::Review, JobKind::Lines].into_iter().find(|kind| kind.name() == name)
    }
}

/// A job for an engine worker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineJob {
    /// The game of a move; for reviews and lines, a name made from what is asked (the same
    /// question from two nodes is one job).
    pub game_id: String,
    /// The number of moves played (a move's job is for the move after them).
    pub ply: i64,
    pub kind: JobKind,
    pub variant: String,
    /// Where the game began, as FEN; `None`: the variant's starting position.
    pub start_fen: Option<String>,
    /// The game's moves from there, space-separated, in the protocol's notation.
    pub moves: String,
    /// The computer's level (moves).
    pub level: i64,
    /// How long the search may think, when the game has a clock (moves).
    pub budget_ms: Option<i64>,
    /// Nodes searched a position (reviews and lines).
    pub nodes: Option<i64>,
    /// How many best moves (lines).
    pub lines: Option<i64>,
}

/// What a worker found for a job.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// A move in the protocol's notation (`None` when the side to move has none), or a
    /// review's or lines' text (`computer/results.rs`; `None` when the worker failed).
    pub result: Option<String>,
    /// The engine's score of the position after a move, for the side that moved, as
    /// [`checkers_engine::Score`] writes it; `None` from a level that blurs its choice.
    pub score: Option<String>,
    /// How long the search took (the wait before it is not counted).
    pub took_ms: i64,
}

/// Where a node's job stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Not in the queue (never put there, forgotten, or put there for other moves: a
    /// takeback changed the game's past): it must be submitted again.
    Missing,
    /// Waiting for a worker, or held by one.
    Open,
    Done(Found),
}

/// A job a worker holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenJob {
    pub job: EngineJob,
    /// How many times it has been taken, this one included.
    pub attempts: i64,
}

/// The queue, on its own small pool of connections.
#[derive(Clone, Debug)]
pub struct JobQueue {
    pool: AnyPool,
}

impl JobQueue {
    /// Connects to a PostgreSQL database whose schema is up to date ([`crate::Store::open`]
    /// brings it so).
    pub async fn connect(url: &str) -> Result<JobQueue, StoreError> {
        sqlx::any::install_default_drivers();
        let pool = AnyPoolOptions::new().max_connections(2).connect(url).await?;
        Ok(JobQueue { pool })
    }

    /// Puts a job in the queue; a job already there for the same game, ply and moves stays as
    /// it is (waiting, held or done). One for the same ply after other moves (a takeback
    /// changed the game's past) is replaced, and whoever held it can no longer finish it.
    pub async fn submit(&self, job: &EngineJob) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO engine_jobs (game_id, ply, variant, moves, level, budget_ms, created_ms, kind, \
             start_fen, nodes, lines) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (game_id, ply) DO UPDATE SET \
             variant = EXCLUDED.variant, moves = EXCLUDED.moves, level = EXCLUDED.level, \
             budget_ms = EXCLUDED.budget_ms, created_ms = EXCLUDED.created_ms, kind = EXCLUDED.kind, \
             start_fen = EXCLUDED.start_fen, nodes = EXCLUDED.nodes, lines = EXCLUDED.lines, status = 'waiting', \
             worker = NULL, lease_until_ms = NULL, attempts = 0, result = NULL, took_ms = NULL, \
             score = NULL, finished_ms = NULL \
             WHERE engine_jobs.moves <> EXCLUDED.moves",
        )
        .bind(&job.game_id)
        .bind(job.ply)
        .bind(&job.variant)
        .bind(&job.moves)
        .bind(job.level)
        .bind(job.budget_ms)
        .bind(now_ms())
        .bind(job.kind.name())
        .bind(job.start_fen.as_deref())
        .bind(job.nodes)
        .bind(job.lines)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes the oldest job that is waiting, or whose lease ran out, for `worker`, on a
    /// lease of `lease`. `None` when there is none.
    pub async fn take(&self, worker: &str, lease: Duration) -> Result<Option<TakenJob>, StoreError> {
        let row = sqlx::query(&format!(
            "UPDATE engine_jobs SET status = 'running', worker = $1, lease_until_ms = {DB_NOW_MS} + $2, \
             attempts = attempts + 1 \
             WHERE (game_id, ply) = (SELECT game_id, ply FROM engine_jobs \
                 WHERE status = 'waiting' OR (status = 'running' AND lease_until_ms < {DB_NOW_MS}) \
                 ORDER BY created_ms LIMIT 1 FOR UPDATE SKIP LOCKED) \
             RETURNING game_id, ply, kind, variant, start_fen, moves, level, budget_ms, nodes, lines, attempts"
        ))
        .bind(worker)
        .bind(lease_ms(lease))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(TakenJob {
            job: EngineJob {
                game_id: row.try_get("game_id")?,
                ply: row.try_get("ply")?,
                // Written by this code only; a kind it does not know is done as a move, and
                // the node that asked reads no result from it.
                kind: JobKind::named(row.try_get("kind")?).unwrap_or_default(),
                variant: row.try_get("variant")?,
                start_fen: row.try_get("start_fen")?,
                moves: row.try_get("moves")?,
                level: row.try_get("level")?,
                budget_ms: row.try_get("budget_ms")?,
                nodes: row.try_get("nodes")?,
                lines: row.try_get("lines")?,
            },
            attempts: row.try_get("attempts")?,
        }))
    }

    /// Extends `worker`'s lease on a job by `lease` from now. `false` when the worker no
    /// longer holds it (its lease ran out and another took it, or it is done).
    pub async fn renew(&self, job: &EngineJob, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "UPDATE engine_jobs SET lease_until_ms = {DB_NOW_MS} + $1 \
             WHERE game_id = $2 AND ply = $3 AND worker = $4 AND status = 'running'"
        ))
        .bind(lease_ms(lease))
        .bind(&job.game_id)
        .bind(job.ply)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Writes what was found (`found.mv` `None`: the side to move has none) and announces it.
    /// `false` when `worker` no longer held the job (another finished or holds it, or it was
    /// replaced or forgotten): nothing changes.
    pub async fn finish(&self, job: &EngineJob, worker: &str, found: &Found) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE engine_jobs SET status = 'done', result = $1, took_ms = $2, score = $3, finished_ms = $4 \
             WHERE game_id = $5 AND ply = $6 AND worker = $7 AND status = 'running' AND moves = $8",
        )
        .bind(found.result.as_deref())
        .bind(found.took_ms)
        .bind(found.score.as_deref())
        .bind(now_ms())
        .bind(&job.game_id)
        .bind(job.ply)
        .bind(worker)
        .bind(&job.moves)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        // Sent at the commit: a listener that hears it finds the result written.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{}:{}", job.game_id, job.ply))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The move found for a game's ply: `None` while the job is not done, `Some(None)` when
    /// the side to move had no move.
    pub async fn result(&self, game_id: &str, ply: i64) -> Result<Option<Option<String>>, StoreError> {
        let row =
            sqlx::query("SELECT result FROM engine_jobs WHERE game_id = $1 AND ply = $2 AND status = 'done'")
                .bind(game_id)
                .bind(ply)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|row| row.try_get::<Option<String>, _>("result")).transpose().map_err(StoreError::from)
    }

    /// Where `job` stands: done (with what was found), open, or missing (see [`Lookup`]).
    pub async fn lookup(&self, job: &EngineJob) -> Result<Lookup, StoreError> {
        let row = sqlx::query(
            "SELECT status, result, took_ms, score FROM engine_jobs WHERE game_id = $1 AND ply = $2 AND moves = $3",
        )
        .bind(&job.game_id)
        .bind(job.ply)
        .bind(&job.moves)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(Lookup::Missing) };
        if row.try_get::<String, _>("status")? != "done" {
            return Ok(Lookup::Open);
        }
        Ok(Lookup::Done(Found {
            result: row.try_get("result")?,
            score: row.try_get("score")?,
            took_ms: row.try_get::<Option<i64>, _>("took_ms")?.unwrap_or(0),
        }))
    }

    /// Takes `job` out of the queue unless it is done (nobody wants its move any more): a
    /// worker holding it stops at its next renewal.
    pub async fn cancel(&self, job: &EngineJob) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM engine_jobs WHERE game_id = $1 AND ply = $2 AND moves = $3 AND status <> 'done'",
        )
        .bind(&job.game_id)
        .bind(job.ply)
        .bind(&job.moves)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes the results finished before `before_ms` (milliseconds since the epoch): read
    /// long ago, or by nobody (the node that asked died, and the game was resumed elsewhere).
    pub async fn sweep(&self, before_ms: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM engine_jobs WHERE status = 'done' AND finished_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes a game's jobs (the game ended, or left the node's memory).
    pub async fn forget(&self, game_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM engine_jobs WHERE game_id = $1").bind(game_id).execute(&self.pool).await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn lease_ms(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2)
}

/// The game a job's moves make, or why they make none.
pub fn job_game(job: &EngineJob) -> Result<AnyGame, String> {
    let variant: GameVariant =
        job.variant.parse().map_err(|_| format!("unknown variant {:?}", job.variant))?;
    let mut game = match &job.start_fen {
        None => AnyGame::new(variant),
        Some(fen) => AnyGame::from_fen(variant, fen).map_err(|e| format!("{fen}: {e}"))?,
    };
    for text in job.moves.split_whitespace() {
        game.play_text(text).map_err(|e| format!("move {text}: {e}"))?;
    }
    Ok(game)
}

/// Takes one job for `worker`, does it on `pool` (as the server's own engine would),
/// renewing the lease meanwhile, and writes the result. `false` when no job waited.
pub async fn work_one(
    queue: &JobQueue,
    pool: &ComputerPool,
    worker: &str,
    lease: Duration,
) -> Result<bool, StoreError> {
    let Some(taken) = queue.take(worker, lease).await? else { return Ok(false) };
    let job = taken.job;
    let work = async {
        tokio::time::sleep(env_ms("CHECKERS_WORKER_PAUSE_MS").unwrap_or_default()).await;
        do_job(pool, &job).await
    };
    tokio::pin!(work);
    let mut renewals = tokio::time::interval(lease / 3);
    renewals.tick().await;
    let found = loop {
        tokio::select! {
            found = &mut work => break found,
            _ = renewals.tick() => {
                if !queue.renew(&job, worker, lease).await? {
                    return Ok(true); // another worker holds it now, or nobody wants it
                }
            }
        }
    };
    queue.finish(&job, worker, &found).await?;
    Ok(true)
}

/// What `pool` finds for `job`. A job no worker could do (its moves make no game) is found
/// to have no result: for a move the node then plays any legal one; for a review or lines,
/// it answers that the engine is unavailable.
async fn do_job(pool: &ComputerPool, job: &EngineJob) -> Found {
    let Ok(game) = job_game(job) else { return Found::default() };
    let nodes = job.nodes.map(|n| n.max(1) as u64);
    let started = Instant::now();
    let result = match (job.kind, nodes) {
        (JobKind::Move, _) => {
            let level = u8::try_from(job.level.clamp(1, 9)).unwrap_or(1);
            let budget = job.budget_ms.map(|ms| Duration::from_millis(ms.max(1) as u64));
            let seed = job.game_id.bytes().fold(job.ply as u64, |h, b| h.rotate_left(5) ^ u64::from(b));
            let thought = pool.think_for(&job.game_id, game.clone(), level, budget, seed).await;
            let ply = game.plies();
            return Found {
                result: thought.choice.as_ref().and_then(|c| game.describe(ply, &c.mv)).map(|info| info.text),
                score: thought.choice.and_then(|c| c.score).map(|s| s.to_string()),
                took_ms: i64::try_from(thought.took.as_millis()).unwrap_or(i64::MAX),
            };
        }
        (JobKind::Review, Some(nodes)) => {
            pool.review(game.clone(), nodes).await.map(|reviews| super::results::review_text(&game, &reviews))
        }
        (JobKind::Lines, Some(nodes)) => {
            let count = job.lines.map_or(1, |n| n.clamp(1, 32) as usize);
            let lines = pool.lines(game.clone(), nodes, count).await;
            lines.map(|lines| super::results::lines_text(&game, &lines))
        }
        (_, None) => None,
    };
    Found { result, score: None, took_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX) }
}

/// The lease a worker takes jobs on: `CHECKERS_WORKER_LEASE_MS` milliseconds if set (tests
/// shorten it), else [`DEFAULT_LEASE`].
pub fn worker_lease() -> Duration {
    env_ms("CHECKERS_WORKER_LEASE_MS").unwrap_or(DEFAULT_LEASE)
}

/// A positive number of milliseconds from the environment. `CHECKERS_WORKER_PAUSE_MS` (for
/// tests only) makes a worker hold each job that long before it searches.
fn env_ms(name: &str) -> Option<Duration> {
    let ms = std::env::var(name).ok()?.trim().parse::<u64>().ok()?;
    (ms > 0).then(|| Duration::from_millis(ms))
}

/// How long a job stays with a worker that stopped renewing it before another takes it.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);
/// How often an idle worker looks for jobs when no `NOTIFY` woke it.
const IDLE_POLL: Duration = Duration::from_millis(500);

/// `checkers worker`: takes jobs from the queue of the PostgreSQL database at `url` and does
/// them on `threads` engine threads, until the process is stopped.
pub fn run_worker(url: &str, threads: usize) -> Result<(), StoreError> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| StoreError::Open { url: String::new(), cause: e.to_string() })?;
    if !crate::database_url::is_postgres(url) {
        return Err(StoreError::Open {
            url: String::from("(not PostgreSQL)"),
            cause: String::from("engine workers need a postgres:// database"),
        });
    }
    runtime.block_on(async {
        // Brings the schema up to date, as a node would.
        crate::Store::open(url).await?.close().await;
        let url = crate::database_url::normalise_url(url)?;
        let queue = JobQueue::connect(&url).await?;
        let pool = ComputerPool::new(threads);
        let worker = format!("{}-{}", std::process::id(), crate::token::new_game_id());
        let lease = worker_lease();
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..threads.max(1) {
            let (queue, pool, worker) = (queue.clone(), pool.clone(), worker.clone());
            tasks.spawn(async move {
                loop {
                    match work_one(&queue, &pool, &worker, lease).await {
                        Ok(true) => {}
                        Ok(false) => tokio::time::sleep(IDLE_POLL).await,
                        Err(e) => {
                            tracing::warn!("engine job queue: {e}");
                            tokio::time::sleep(IDLE_POLL).await;
                        }
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        Ok(())
    })
}
