//! Computer moves, reviews and best lines found by `checkers worker` processes (`checkers
//! serve --engine-workers external`): the node puts each in the PostgreSQL job queue
//! ([`super::jobs`]) and waits for a worker's result, woken by the queue's `NOTIFY` and
//! looking every [`POLL`] besides, so a notification lost (a dropped connection) only delays
//! it.
//!
//! A notification only wakes the game it names to read its result from the database: a
//! payload of another schema's game, or a forged one, costs a read and changes nothing; and
//! whatever the result says, the game's actor plays only a legal move. The computer's clock
//! is charged the worker's search ([`Found::took_ms`]), never the wait for a worker. A wait
//! dropped (the game moved on, the asker went away) takes its job out of the queue unless it is
//! done; a game's move jobs are forgotten when it ends or leaves the node's memory, a review or
//! lines job once read, and results nobody read (their node died) are swept after
//! [`SWEEP_AFTER`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_engine::{Choice, Score};
use tokio::sync::Notify;

use super::jobs::{EngineJob, Found, JobKind, JobQueue, Lookup, CHANNEL};
use super::Thought;
use crate::registry::lock;
use crate::rules::AnyGame;
use crate::store::{now_ms, StoreError};

/// How often a node waiting for a worker's move looks for it when no `NOTIFY` came.
pub const POLL: Duration = Duration::from_millis(500);
/// How long a finished job's result stays in the queue when its game is never forgotten.
const SWEEP_AFTER: Duration = Duration::from_secs(3600);
/// How often the node sweeps such results.
const SWEEP_EVERY: Duration = Duration::from_secs(600);
/// The pause before listening again after the listening connection failed.
const RECONNECT: Duration = Duration::from_secs(1);

/// Where a node's computer moves are searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineWorkers {
    /// On the node's own engine threads (the default, and the only choice on SQLite).
    #[default]
    Local,
    /// By `checkers worker` processes, through the job queue of the node's PostgreSQL
    /// database, with reviews and analysis lines; draw answers (short searches) still run on
    /// the node's threads.
    External,
}

/// Why a node cannot have the engine workers asked for.
#[derive(Debug, thiserror::Error)]
pub enum WorkersError {
    #[error(
        "external engine workers need a postgres:// database (their job queue is in it); with SQLite \
         the node searches on its own engine threads"
    )]
    NeedsPostgres,
    #[error("engine job queue: {0}")]
    Queue(#[from] StoreError),
}

impl EngineWorkers {
    /// Refuses external workers on a database that is not PostgreSQL (`db` as given to
    /// `--db`): before anything is created.
    pub fn check_database(self, db: &str) -> Result<(), WorkersError> {
        if self == EngineWorkers::External && !crate::database_url::is_postgres(db) {
            return Err(WorkersError::NeedsPostgres);
        }
        Ok(())
    }
}

/// The waits in progress, by `game_id:ply` (the payload of the job's `NOTIFY`), with their
/// jobs' kinds.
type Waiters = Mutex<HashMap<String, (JobKind, Arc<Notify>)>>;

/// A node's side of the job queue.
pub(super) struct Remote {
    queue: JobQueue,
    waiters: Arc<Waiters>,
    /// Games this node put jobs in the queue for: their jobs are forgotten when they end.
    games: Mutex<HashSet<String>>,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl Remote {
    /// Connects to the queue of the PostgreSQL database at `url` (its schema up to date) and
    /// starts listening for finished jobs.
    pub(super) async fn connect(url: &str) -> Result<Remote, StoreError> {
        let queue = JobQueue::connect(url).await?;
        let waiters = Arc::new(Waiters::default());
        let listener = tokio::spawn(listen(url.to_string(), waiters.clone(), queue.clone()));
        Ok(Remote { queue, waiters, games: Mutex::default(), listener })
    }

    /// Moves this node waits for a worker to find.
    pub(super) fn waiting(&self) -> usize {
        lock(&self.waiters).values().filter(|(kind, _)| *kind == JobKind::Move).count()
    }

    /// Puts `job` (a move of `game`) in the queue and waits for its result, however long it
    /// takes (no worker running: for ever).
    pub(super) async fn think(&self, job: EngineJob, game: &AnyGame) -> Thought {
        thought(game, self.run(job).await)
    }

    /// Puts `job` in the queue and waits for what a worker finds, however long it takes.
    pub(super) async fn run(&self, job: EngineJob) -> Found {
        let key = format!("{}:{}", job.game_id, job.ply);
        let wake = Arc::new(Notify::new());
        lock(&self.waiters).insert(key.clone(), (job.kind, wake.clone()));
        if job.kind == JobKind::Move {
            lock(&self.games).insert(job.game_id.clone());
        }
        let mut pending = Pending { remote: self, key, wake: wake.clone(), job: Some(job.clone()) };
        let mut submitted = false;
        let mut failing = false;
        loop {
            let step = async {
                if !submitted {
                    self.queue.submit(&job).await?;
                    submitted = true;
                }
                self.queue.lookup(&job).await
            };
            match step.await {
                Ok(Lookup::Done(found)) => {
                    pending.job = None;
                    // A game's moves stay until it ends; nothing else asks for the others.
                    if job.kind != JobKind::Move {
                        self.delete(job.game_id.clone());
                    }
                    return found;
                }
                Ok(Lookup::Open) => failing = false,
                // Forgotten or replaced meanwhile (another node's doing): asked for again.
                Ok(Lookup::Missing) => submitted = false,
                Err(e) => {
                    if !failing {
                        tracing::warn!("engine job queue, game {}: {e}", job.game_id);
                    }
                    failing = true;
                }
            }
            tokio::select! {
                _ = wake.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// The game ended or left memory: its jobs leave the queue.
    pub(super) fn forget(&self, game_id: &str) {
        if lock(&self.games).remove(game_id) {
            self.delete(game_id.to_string());
        }
    }

    /// Deletes the jobs of `game_id`, in the background.
    fn delete(&self, game_id: String) {
        let queue = self.queue.clone();
        spawn_if_running(async move {
            if let Err(e) = queue.forget(&game_id).await {
                tracing::warn!("engine job queue, forgetting game {game_id}: {e}");
            }
        });
    }
}

/// A wait in progress: when it ends, its waker goes, and its job too if nobody read it.
struct Pending<'a> {
    remote: &'a Remote,
    key: String,
    wake: Arc<Notify>,
    /// The job, until its result is read.
    job: Option<EngineJob>,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        let mut waiters = lock(&self.remote.waiters);
        // Another wait for the same move may have taken the place since.
        if waiters.get(&self.key).is_some_and(|(_, w)| Arc::ptr_eq(w, &self.wake)) {
            waiters.remove(&self.key);
        }
        drop(waiters);
        if let Some(job) = self.job.take() {
            let queue = self.remote.queue.clone();
            spawn_if_running(async move {
                if let Err(e) = queue.cancel(&job).await {
                    tracing::warn!("engine job queue, cancelling a job of game {}: {e}", job.game_id);
                }
            });
        }
    }
}

/// Runs `task` on the current tokio runtime, if there is one (a pool dropped at the end of a
/// runtime has nobody left to tidy up for).
fn spawn_if_running(task: impl std::future::Future<Output = ()> + Send + 'static) {
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(task);
    }
}

/// A job of `kind` on `game`: its start and moves, as a worker rebuilds it.
fn game_job(kind: JobKind, game: &AnyGame) -> EngineJob {
    let start = game.start_fen();
    let moves = game.move_texts();
    EngineJob {
        ply: moves.len() as i64,
        kind,
        variant: game.variant().to_string(),
        start_fen: (start != AnyGame::new(game.variant()).start_fen()).then_some(start),
        moves: moves.join(" "),
        ..EngineJob::default()
    }
}

/// The job of finding the computer's move in game `game_id`.
pub(super) fn move_job(game_id: &str, game: &AnyGame, level: u8, budget: Option<Duration>) -> EngineJob {
    EngineJob {
        game_id: game_id.to_string(),
        level: i64::from(level),
        budget_ms: budget.map(|b| i64::try_from(b.as_millis()).unwrap_or(i64::MAX)),
        ..game_job(JobKind::Move, game)
    }
}

/// Names a review or lines job by what it asks: the same question is the same job.
fn named(mut job: EngineJob) -> EngineJob {
    let question = format!(
        "{}|{}|{}|{}|{:?}|{:?}",
        job.kind.name(),
        job.variant,
        job.start_fen.as_deref().unwrap_or(""),
        job.moves,
        job.nodes,
        job.lines
    );
    job.game_id = format!("{}-{}", job.kind.name(), &crate::token::hash_token(&question)[..32]);
    job
}

/// The job of reviewing `game` at `nodes` a position.
pub(super) fn review_job(game: &AnyGame, nodes: u64) -> EngineJob {
    named(EngineJob { nodes: Some(nodes as i64), ..game_job(JobKind::Review, game) })
}

/// The job of finding the `count` best lines in `game`'s position now (a worker rebuilds the
/// positions from its start and moves).
pub(super) fn lines_job(game: &AnyGame, nodes: u64, count: usize) -> EngineJob {
    named(EngineJob {
        nodes: Some(nodes as i64),
        lines: Some(count as i64),
        ..game_job(JobKind::Lines, game)
    })
}

/// What a worker found, as the actor takes it: a move that does not read as a legal move of
/// `game`'s position now is no move (the actor then plays any legal one).
fn thought(game: &AnyGame, found: Found) -> Thought {
    let mv = found.result.and_then(|text| game.read_move(&text).ok());
    let score = found.score.and_then(|text| text.parse::<Score>().ok());
    Thought {
        choice: mv.map(|mv| Choice { mv, score }),
        took: Duration::from_millis(u64::try_from(found.took_ms).unwrap_or(0)),
    }
}

/// Listens for finished jobs and wakes their waits, listening again whenever the connection
/// fails (what was announced meanwhile is found by the waits' polls); and now and then
/// sweeps old results out of the queue.
async fn listen(url: String, waiters: Arc<Waiters>, queue: JobQueue) {
    let mut sweep = tokio::time::interval(SWEEP_EVERY);
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect(&url).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!("engine job queue: cannot listen for finished jobs: {e}");
                tokio::time::sleep(RECONNECT).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!("engine job queue: cannot listen for finished jobs: {e}");
            tokio::time::sleep(RECONNECT).await;
            continue;
        }
        loop {
            tokio::select! {
                heard = listener.recv() => match heard {
                    Ok(notification) => {
                        if let Some((_, wake)) = lock(&waiters).get(notification.payload()) {
                            wake.notify_one();
                        }
                    }
                    Err(e) => {
                        tracing::warn!("engine job queue: listening for finished jobs: {e}");
                        break;
                    }
                },
                _ = sweep.tick() => {
                    let before = now_ms() - SWEEP_AFTER.as_millis() as i64;
                    if let Err(e) = queue.sweep(before).await {
                        tracing::warn!("engine job queue: sweeping old results: {e}");
                    }
                }
            }
        }
        tokio::time::sleep(RECONNECT).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::GameVariant;
    use checkers_rules::board::BoardVariant;
    use checkers_rules::Variant;

    fn game_of(variant: GameVariant, moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::new(variant);
        for text in moves {
            game.play_text(text).unwrap();
        }
        game
    }

    #[test]
    fn a_job_carries_the_games_moves_in_the_protocols_notation() {
        let mut game = game_of(GameVariant::Eight(Variant::Russian), &["c3-d4", "f6-e5"]);
        let job = move_job("g", &game, 3, Some(Duration::from_millis(1500)));
        assert_eq!((job.ply, job.variant.as_str(), job.moves.as_str()), (2, "russian", "c3-d4 f6-e5"));
        assert_eq!((job.level, job.budget_ms), (3, Some(1500)));
        let rebuilt = super::super::jobs::job_game(&job).unwrap();
        assert_eq!(rebuilt.fen(), game.fen());
        // A capture, written with `:` as Russian players do, reads back.
        game.play_text("d4:f6").unwrap();
        let job = move_job("g", &game, 3, None);
        assert_eq!(super::super::jobs::job_game(&job).unwrap().fen(), game.fen());
        assert_eq!(job.start_fen, None);
    }

    #[test]
    fn a_board_variants_job_carries_its_moves_as_its_players_write_them() {
        let game = game_of(GameVariant::Board(BoardVariant::Brazilian), &["c3-d4", "f6-e5"]);
        let job = move_job("g", &game, 3, None);
        assert_eq!((job.variant.as_str(), job.moves.as_str()), ("brazilian", "c3-d4 f6-e5"));
        assert_eq!(super::super::jobs::job_game(&job).unwrap().fen(), game.fen());
        let game = game_of(GameVariant::Board(BoardVariant::International), &["32-28", "19-23"]);
        let job = move_job("g", &game, 3, None);
        assert_eq!((job.variant.as_str(), job.moves.as_str()), ("international", "32-28 19-23"));
        assert_eq!(super::super::jobs::job_game(&job).unwrap().moves(), game.moves());
    }

    #[test]
    fn a_game_from_another_start_carries_it() {
        let game = game_of(GameVariant::ENGLISH, &["11-15"]);
        let mut later = AnyGame::from_fen(GameVariant::ENGLISH, &game.fen()).unwrap();
        later.play_text("23-19").unwrap();
        let job = move_job("g", &later, 1, None);
        assert_eq!((job.start_fen, job.moves.as_str()), (Some(game.fen()), "23-19"));
        let rebuilt = super::super::jobs::job_game(&move_job("g", &later, 1, None)).unwrap();
        assert_eq!((rebuilt.start_fen(), rebuilt.moves()), (later.start_fen(), later.moves()));
    }

    #[test]
    fn reviews_and_lines_are_named_by_what_they_ask() {
        let game = game_of(GameVariant::ENGLISH, &["11-15", "23-19", "8-11"]);
        let review = review_job(&game, 1000);
        assert_eq!(
            (review.kind, review.nodes, review.moves.as_str()),
            (JobKind::Review, Some(1000), "11-15 23-19 8-11")
        );
        assert!(review.game_id.starts_with("review-"), "{}", review.game_id);
        assert_eq!(review_job(&game, 1000), review, "the same question, the same job");
        assert_ne!(review_job(&game, 2000).game_id, review.game_id);

        // The lines of the position after two moves, reached through the first two positions.
        let two = game.truncated(2);
        let lines = lines_job(&two, 500, 3);
        assert_eq!((lines.kind, lines.moves.as_str(), lines.lines), (JobKind::Lines, "11-15 23-19", Some(3)));
        let rebuilt = super::super::jobs::job_game(&lines).unwrap();
        assert_eq!(rebuilt.moves(), two.moves());
        // A position given alone (the analysis board's FEN) is the game's start.
        let alone = AnyGame::from_fen(GameVariant::ENGLISH, &game.fen()).unwrap();
        let alone = lines_job(&alone, 500, 3);
        assert_eq!((alone.start_fen, alone.moves.as_str()), (Some(game.fen()), ""));
    }

    #[test]
    fn a_result_is_taken_only_as_a_legal_move() {
        let game = AnyGame::new(GameVariant::ENGLISH);
        let found = |mv: &str, score: Option<&str>| Found {
            result: Some(mv.to_string()),
            score: score.map(str::to_string),
            took_ms: 42,
        };
        let good = thought(&game, found("11-15", Some("35")));
        let choice = good.choice.expect("a legal move");
        assert_eq!(game.describe(0, &choice.mv).unwrap().text, "11-15");
        assert_eq!(choice.score, Some(Score::hundredths(35)));
        assert_eq!(good.took, Duration::from_millis(42));
        assert!(thought(&game, found("22-18", None)).choice.is_none(), "the other side's move");
        assert!(thought(&game, found("rubbish", None)).choice.is_none());
        let unscored = thought(&game, found("9-13", Some("not a score"))).choice.unwrap();
        assert_eq!(unscored.score, None);
        assert!(thought(&game, Found::default()).choice.is_none(), "no move found");
    }
}
