//! The computer opponent: engine searches run on the pool's own threads, so a long think
//! never holds up the async workers that serve other games, and they are shared fairly.
//!
//! Every job waits in one queue per requester (the client address that started the game),
//! the requesters served in turn (`schedule`), in two lanes: short jobs (levels 1-7, a
//! tight clock, a draw judgement: milliseconds) and long ones (levels 8-9, reviews, lines).
//! One worker per engine thread runs either lane, taking whichever job was asked for first;
//! one more runs only short jobs, so a level-1 reply never waits behind level-9 searches.
//! Under overload a long search is cut short, the more the more jobs wait, so a crowd gets
//! shallower moves rather than late ones. A computer's clock is charged for its own search
//! only, never for the wait ([`Thought::took`]); and a client may have at most
//! [`MAX_COMPUTER_GAMES`] games against the computer in play at once.
//!
//! With [`EngineWorkers::External`] (PostgreSQL only), the computer's moves, reviews and
//! lines are not searched here but by `checkers worker` processes, through the database's job
//! queue (`jobs`, `remote`, `results`); the node's own threads then run only draw answers.

pub mod jobs;
mod remote;
mod results;
mod schedule;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use checkers_engine::review::MoveReview;
use checkers_engine::{Choice, Engine, EngineOptions, Level, Limits, Score, SearchInfo, StopHandle};
use checkers_rules::Color;
use tokio::sync::oneshot;

use crate::error::{ApiError, ErrorCode};
use crate::registry::lock;
use crate::rules::{AnyGame, AnyMove, Engines};
use remote::Remote;
pub use remote::{EngineWorkers, WorkersError};
use schedule::{Lane, Schedule};

/// The clock the computer plays on, if the game has one.
#[derive(Clone, Copy, Debug)]
pub struct ThinkClock {
    /// The computer's time left when its turn began (waiting for an engine is not charged).
    pub remaining_ms: i64,
    pub increment_ms: i64,
}

impl ThinkClock {
    /// How long the computer may think: a tenth of its time left and half its increment,
    /// between 50 ms and 30 s, and never more than half its time left, so it never flags.
    pub fn budget(self) -> Duration {
        let ms =
            (self.remaining_ms / 10 + self.increment_ms / 2).clamp(50, 30_000).min(self.remaining_ms / 2);
        Duration::from_millis(ms.max(1) as u64)
    }
}

/// Games against the computer one client (one address) may have in play at once.
pub const MAX_COMPUTER_GAMES: usize = 4;
/// Transposition table size of each worker's engine.
const ENGINE_HASH_MB: usize = 16;
/// The highest level whose searches are short (a few milliseconds; level 8 takes tens).
const SHORT_LEVEL: u8 = 7;
/// A search on a clock that leaves it at most this long is short, whatever the level.
const SHORT_THINK: Duration = Duration::from_millis(50);
/// Under overload, long searches are cut so that the jobs waiting would all have run
/// within about this long...
const LONG_WAIT_TARGET: Duration = Duration::from_secs(2);
/// ... but no search is cut shorter than this (about level 8's nodes on a fast machine).
const MIN_THINK: Duration = Duration::from_millis(50);
/// Nodes of the search that judges a draw offer when no search of a move has: a few ms.
const DRAW_JUDGE_NODES: u64 = 20_000;

/// Whose turn a job waits for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requester {
    /// The client address that started the game.
    Client(IpAddr),
    /// A game whose client is not known (one resumed after a restart): it waits its own turn.
    Game(String),
    /// The reviews and lines of finished games, all together.
    Reviews,
}

/// A job for an engine: it is given the longest it may think under overload, if limited.
type Job = Box<dyn FnOnce(&mut Engines, Option<Duration>) + Send>;

struct Queue {
    schedule: Schedule<Requester, Job>,
    closed: bool,
}

/// What the workers share.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Workers that run long jobs too (the engine threads asked for).
    general: usize,
    jobs_run: AtomicU64,
}

/// Who plays the computer in which game, for the cap and the turns.
#[derive(Default)]
struct Players {
    client_of: HashMap<String, IpAddr>,
    games_of: HashMap<IpAddr, usize>,
}

struct Inner {
    shared: Arc<Shared>,
    players: Mutex<Players>,
    /// The job queue the computer's moves go to, with external engine workers.
    remote: Option<Remote>,
}

impl Drop for Inner {
    /// The last handle is gone: the workers end (and the jobs still waiting are dropped).
    fn drop(&mut self) {
        let mut queue = lock(&self.shared.queue);
        queue.closed = true;
        queue.schedule.clear();
        self.shared.ready.notify_all();
    }
}

/// The engine workers and their queues. Cheap to clone; clones share the pool.
#[derive(Clone)]
pub struct ComputerPool {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for ComputerPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let queue = lock(&self.inner.shared.queue);
        let (short, long) = (queue.schedule.waiting(Lane::Short), queue.schedule.waiting(Lane::Long));
        write!(
            f,
            "ComputerPool({} workers, {short} short and {long} long jobs waiting)",
            self.inner.shared.general + 1
        )
    }
}

/// The computer's move and how long its search took (what its clock is charged).
#[derive(Clone, Debug)]
pub struct Thought {
    /// `None` when it has no move (or the search failed: the caller plays any legal move).
    pub choice: Option<Choice<AnyMove>>,
    pub took: Duration,
}

impl ComputerPool {
    /// A pool of `threads` workers for any job and one more for short jobs only.
    pub fn new(threads: usize) -> ComputerPool {
        ComputerPool::with_remote(threads, None)
    }

    /// A node's pool: [`ComputerPool::new`], whose computer moves go, with external
    /// `workers`, to the job queue of the PostgreSQL database at `db` (its schema up to date).
    pub async fn for_node(
        threads: usize,
        workers: EngineWorkers,
        db: &str,
    ) -> Result<ComputerPool, WorkersError> {
        workers.check_database(db)?;
        let remote = match workers {
            EngineWorkers::Local => None,
            EngineWorkers::External => Some(Remote::connect(&crate::database_url::normalise_url(db)?).await?),
        };
        Ok(ComputerPool::with_remote(threads, remote))
    }

    fn with_remote(threads: usize, remote: Option<Remote>) -> ComputerPool {
        // Solved in the background; the first search that needs it waits.
        std::thread::spawn(|| {
            for variant in [checkers_rules::Variant::English, checkers_rules::Variant::Russian] {
                Engine::prepare_endgame(variant);
            }
        });
        let general = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { schedule: Schedule::new(), closed: false }),
            ready: Condvar::new(),
            general,
            jobs_run: AtomicU64::new(0),
        });
        for worker in 0..=general {
            let shared = shared.clone();
            let takes_long = worker < general;
            std::thread::Builder::new()
                .name(format!("engine-{worker}"))
                .spawn(move || work(&shared, takes_long))
                .expect("an engine thread starts");
        }
        ComputerPool { inner: Arc::new(Inner { shared, players: Mutex::default(), remote }) }
    }

    /// Engine jobs started so far (searches, judgements, reviews): what tests count.
    pub fn jobs_run(&self) -> u64 {
        self.inner.shared.jobs_run.load(Ordering::Relaxed)
    }

    /// Long jobs waiting for a worker now: how loaded the pool is.
    pub fn long_jobs_waiting(&self) -> usize {
        lock(&self.inner.shared.queue).schedule.waiting(Lane::Long)
    }

    /// Jobs of either lane waiting for a worker now, and the moves this node waits for
    /// external workers to find.
    pub fn jobs_waiting(&self) -> usize {
        let remote = self.inner.remote.as_ref().map_or(0, Remote::waiting);
        let queue = lock(&self.inner.shared.queue);
        queue.schedule.waiting(Lane::Short) + queue.schedule.waiting(Lane::Long) + remote
    }

    /// Counts `game`, against the computer, among `client`'s games in play; refused with
    /// `too_many_computer_games` when the client already has [`MAX_COMPUTER_GAMES`].
    pub fn admit_game(&self, client: IpAddr, game: &str) -> Result<(), ApiError> {
        let mut players = lock(&self.inner.players);
        let games = players.games_of.entry(client).or_default();
        if *games >= MAX_COMPUTER_GAMES {
            return Err(ApiError::new(
                ErrorCode::TooManyComputerGames,
                format!(
                    "you already have {MAX_COMPUTER_GAMES} games against the computer in play: finish or resign \
                     one first"
                ),
            ));
        }
        *games += 1;
        players.client_of.insert(game.to_string(), client);
        Ok(())
    }

    /// The game is over (or gone from memory): it no longer counts among its client's, and
    /// its jobs leave the queue of external workers.
    pub fn release_game(&self, game: &str) {
        if let Some(remote) = &self.inner.remote {
            remote.forget(game);
        }
        let mut players = lock(&self.inner.players);
        if let Some(client) = players.client_of.remove(game) {
            if let Some(games) = players.games_of.get_mut(&client) {
                *games -= 1;
                if *games == 0 {
                    players.games_of.remove(&client);
                }
            }
        }
    }

    fn requester(&self, game: &str) -> Requester {
        match lock(&self.inner.players).client_of.get(game) {
            Some(client) => Requester::Client(*client),
            None => Requester::Game(game.to_string()),
        }
    }

    /// Runs `job` on a worker when its turn comes; `None` if the pool has shut down or the
    /// job failed.
    async fn run<T: Send + 'static>(
        &self,
        who: Requester,
        lane: Lane,
        job: impl FnOnce(&mut Engines, Option<Duration>) -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |engine, overload| {
            // Nobody waits for it any more (the game moved on): skip it.
            if !tx.is_closed() {
                let _ = tx.send(job(engine, overload));
            }
        });
        let shared = &self.inner.shared;
        lock(&shared.queue).schedule.push(who, lane, job);
        shared.ready.notify_all();
        rx.await.ok()
    }

    /// The computer's move in game `id` (`game`) at `level` (1-9). On a clock, the search
    /// is cut short by [`ThinkClock::budget`], counted from when it starts, not from when it
    /// was asked for; under overload, sooner. With external workers, a worker searches it
    /// (seeded by the game and ply, not `seed`), and this waits for one as long as it takes.
    pub async fn think(
        &self,
        id: &str,
        game: AnyGame,
        level: u8,
        clock: Option<ThinkClock>,
        seed: u64,
    ) -> Thought {
        let budget = clock.map(ThinkClock::budget);
        match &self.inner.remote {
            Some(remote) => remote.think(remote::move_job(id, &game, level, budget), &game).await,
            None => self.think_for(id, game, level, budget, seed).await,
        }
    }

    /// [`ComputerPool::think`] with the search's time budget given (a job of the queue).
    pub async fn think_for(
        &self,
        id: &str,
        game: AnyGame,
        level: u8,
        budget: Option<Duration>,
        seed: u64,
    ) -> Thought {
        let lane = if level <= SHORT_LEVEL || budget.is_some_and(|b| b <= SHORT_THINK) {
            Lane::Short
        } else {
            Lane::Long
        };
        let runtime = tokio::runtime::Handle::current();
        let stop = StopHandle::new();
        // Dropped by a caller that no longer wants the move: a search under way stops.
        let _unwanted = StopOnDrop(stop.clone());
        let job = move |engines: &mut Engines, overload: Option<Duration>| {
            let started = Instant::now();
            let timer = match (budget, overload) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
            .map(|limit| {
                let stop = stop.clone();
                runtime.spawn(async move {
                    tokio::time::sleep(limit).await;
                    stop.stop();
                })
            });
            let choice = game.choose_move(engines, level_of(level), seed, &stop);
            if let Some(timer) = timer {
                timer.abort();
            }
            Thought { choice, took: started.elapsed() }
        };
        let none = Thought { choice: None, took: Duration::ZERO };
        self.run(self.requester(id), lane, job).await.unwrap_or(none)
    }

    /// What the computer, playing `side` in game `id` (`game`), thinks of the position now,
    /// from a short search (a short job: a few milliseconds). `None` if the pool is down.
    pub async fn judge(&self, id: &str, game: AnyGame, side: Color) -> Option<Score> {
        self.run(self.requester(id), Lane::Short, move |engines, _| {
            game.judge(engines, side, &Limits::nodes(DRAW_JUDGE_NODES))
        })
        .await
    }

    /// Every move of `game` judged by the engine at `nodes` a position (the same review every
    /// time: the engine starts it afresh). `None` if the pool is shut down (or a worker's
    /// result does not fit the game). With external workers, a worker reviews it.
    pub async fn review(&self, game: AnyGame, nodes: u64) -> Option<Vec<MoveReview<AnyMove>>> {
        if let Some(remote) = &self.inner.remote {
            let found = remote.run(remote::review_job(&game, nodes)).await;
            return results::read_review(&game, &found.result?);
        }
        self.run(Requester::Reviews, Lane::Long, move |engines, _| {
            game.review(engines, &Limits::nodes(nodes))
        })
        .await
    }

    /// The engine's `count` best moves in `game`'s position now (reached through its moves),
    /// each with its score and line, from a search of `nodes` (the same lines every time: the
    /// engine starts afresh). Best first; one line when the move is forced, none when there is
    /// no move. `None` if the pool is shut down (or a worker's result does not fit). With
    /// external workers, a worker finds them.
    pub async fn lines(&self, game: AnyGame, nodes: u64, count: usize) -> Option<Vec<SearchInfo<AnyMove>>> {
        if let Some(remote) = &self.inner.remote {
            let found = remote.run(remote::lines_job(&game, nodes, count)).await;
            return results::read_lines(&game, &found.result?);
        }
        self.run(Requester::Reviews, Lane::Long, move |engines, _| {
            game.lines(engines, &Limits::nodes(nodes), count)
        })
        .await
    }
}

/// How long a long search may think when `waiting` long jobs wait for `workers` workers:
/// unlimited while they would all start within one search, else cut so that they would all
/// have run within about [`LONG_WAIT_TARGET`], but never below [`MIN_THINK`].
fn overload_limit(waiting: usize, workers: usize) -> Option<Duration> {
    if waiting < workers.max(1) {
        return None;
    }
    Some((LONG_WAIT_TARGET * workers as u32 / waiting as u32).max(MIN_THINK))
}

/// One worker: takes the jobs its lane allows, in the schedule's order, until the pool
/// closes. Its engine is made on its first job (and made afresh after a job panicked).
fn work(shared: &Shared, takes_long: bool) {
    let mut engines: Option<Engines> = None;
    loop {
        let (job, overload) = {
            let mut queue = lock(&shared.queue);
            loop {
                if queue.closed {
                    return;
                }
                if let Some((lane, job)) = queue.schedule.pop(takes_long) {
                    let overload = match lane {
                        Lane::Long => overload_limit(queue.schedule.waiting(Lane::Long), shared.general),
                        Lane::Short => None,
                    };
                    break (job, overload);
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        shared.jobs_run.fetch_add(1, Ordering::Relaxed);
        let engines_now = engines
            .get_or_insert_with(|| Engines::new(EngineOptions { hash_mb: ENGINE_HASH_MB, threads: 1 }));
        if catch_unwind(AssertUnwindSafe(|| job(engines_now, overload))).is_err() {
            engines = None;
        }
    }
}

/// Stops a search when dropped.
struct StopOnDrop(StopHandle);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

fn level_of(level: u8) -> Level {
    Level::new(u32::from(level)).unwrap_or(Level::MIN)
}

/// What the computer thought of its game's latest positions, for answering draw offers
/// without searching again: kept from its moves' searches and from earlier judgements.
#[derive(Debug, Default)]
pub struct Judgements {
    /// Positions by their FEN.
    recent: VecDeque<(String, Score)>,
}

/// Positions a game's [`Judgements`] keeps (the game moves on; old ones are not asked about).
const JUDGEMENTS_KEPT: usize = 8;

impl Judgements {
    /// The computer's score of `position` (its FEN), for its own side, if known.
    pub fn get(&self, position: &str) -> Option<Score> {
        self.recent.iter().find(|(p, _)| p == position).map(|(_, score)| *score)
    }

    pub fn keep(&mut self, position: String, score: Score) {
        if self.recent.len() >= JUDGEMENTS_KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((position, score));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_budget_never_reaches_the_time_left() {
        let budget =
            |remaining_ms, increment_ms| ThinkClock { remaining_ms, increment_ms }.budget().as_millis();
        assert_eq!(budget(10_000, 0), 1_000);
        assert_eq!(budget(60_000, 4_000), 8_000);
        assert_eq!(budget(3_600_000, 0), 30_000);
        assert_eq!(budget(300, 0), 50);
        assert_eq!(budget(60, 0), 30);
        assert_eq!(budget(1, 0), 1);
    }

    #[test]
    fn long_searches_are_cut_only_when_many_wait() {
        assert_eq!(overload_limit(0, 2), None);
        assert_eq!(overload_limit(1, 2), None);
        assert_eq!(overload_limit(2, 2), Some(LONG_WAIT_TARGET));
        assert_eq!(overload_limit(8, 2), Some(Duration::from_millis(500)));
        assert_eq!(overload_limit(400, 2), Some(MIN_THINK));
    }

    #[test]
    fn the_cap_counts_games_in_play_per_client() {
        let pool = ComputerPool::new(1);
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.10".parse().unwrap(), "127.0.0.11".parse().unwrap());
        for n in 0..MAX_COMPUTER_GAMES {
            pool.admit_game(a, &format!("g{n}")).unwrap();
        }
        let refused = pool.admit_game(a, "extra").unwrap_err();
        assert_eq!(refused.code, ErrorCode::TooManyComputerGames);
        assert!(pool.admit_game(b, "other").is_ok(), "another client has its own cap");
        assert_eq!(pool.requester("g0"), Requester::Client(a));
        assert_eq!(pool.requester("resumed"), Requester::Game("resumed".into()));
        pool.release_game("g0");
        pool.release_game("g0");
        assert!(pool.admit_game(a, "extra").is_ok(), "a game over frees its place, once");
        assert!(pool.admit_game(a, "more").is_err());
    }

    #[test]
    fn judgements_keep_the_latest_positions() {
        let mut kept = Judgements::default();
        let mut game = AnyGame::new(crate::variant::GameVariant::ENGLISH);
        let first = game.fen();
        for n in 0..=JUDGEMENTS_KEPT as i32 {
            kept.keep(game.fen(), Score::hundredths(n));
            let mv = game.legal()[0].mv.clone();
            game.play(&mv).unwrap();
        }
        assert_eq!(kept.get(&first), None, "the oldest is forgotten");
        assert_eq!(kept.recent.len(), JUDGEMENTS_KEPT);
    }
}
