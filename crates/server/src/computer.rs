//! The computer opponent: engine searches run on a bounded set of blocking threads, so a long
//! think never holds up the async workers that serve other games.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_engine::review::{review_game, MoveReview};
use checkers_engine::{Engine, EngineOptions, Level, Limits, SearchInfo, StopHandle};
use checkers_rules::{Color, Game, Move, Position};
use tokio::sync::Semaphore;

/// The clock the computer plays on, if the game has one.
#[derive(Clone, Copy, Debug)]
pub struct ThinkClock {
    pub remaining_ms: i64,
    pub increment_ms: i64,
}

/// Transposition table size of each pooled engine.
const ENGINE_HASH_MB: usize = 16;

/// At most `threads` engine searches at once, each on its own pooled engine; further requests
/// wait their turn.
#[derive(Clone)]
pub struct ComputerPool {
    permits: Arc<Semaphore>,
    engines: Arc<Mutex<Vec<Engine>>>,
}

impl std::fmt::Debug for ComputerPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ComputerPool({} free)", self.permits.available_permits())
    }
}

impl ComputerPool {
    pub fn new(threads: usize) -> ComputerPool {
        // Solved in the background; the first search that needs it waits.
        std::thread::spawn(|| {
            for variant in [checkers_rules::Variant::English, checkers_rules::Variant::Russian] {
                Engine::prepare_endgame(variant);
            }
        });
        ComputerPool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            engines: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Runs `job` on a blocking thread with an engine from the pool, when a permit is free.
    async fn with_engine<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        let engines = self.engines.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let taken = engines.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut engine =
                taken.unwrap_or_else(|| Engine::new(EngineOptions { hash_mb: ENGINE_HASH_MB, threads: 1 }));
            let result = job(&mut engine);
            engines.lock().unwrap_or_else(|e| e.into_inner()).push(engine);
            result
        })
        .await
        .ok()
    }

    /// The computer's move in `game` at `level` (1-9), or `None` if it has none (or the
    /// search failed, which the caller treats as "play any legal move"). On a clock, the
    /// search is cut short after a tenth of the time left, so the computer never flags.
    pub async fn think(&self, game: Game, level: u8, clock: Option<ThinkClock>, seed: u64) -> Option<Move> {
        let stop = StopHandle::new();
        let timer = clock.map(|c| {
            let stop = stop.clone();
            let budget = (c.remaining_ms / 10 + c.increment_ms / 2).clamp(50, 30_000) as u64;
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(budget)).await;
                stop.stop();
            })
        });
        let chosen =
            self.with_engine(move |engine| choose_move(engine, &game, level, seed, &stop)).await.flatten();
        if let Some(timer) = timer {
            timer.abort();
        }
        chosen
    }

    /// Every move of `game` judged by the engine at `nodes` a position (the same review every
    /// time: the engine starts it afresh). `None` if the pool is shut down.
    pub async fn review(&self, game: Game, nodes: u64) -> Option<Vec<MoveReview>> {
        self.with_engine(move |engine| {
            review_game(engine, &game.start(), game.moves(), &Limits::nodes(nodes), &mut |_| {})
        })
        .await
    }

    /// The engine's `count` best moves in `position` (reached through `history`), each with
    /// its score and line, from a search of `nodes` (the same lines every time: the engine
    /// starts afresh). Best first; one line when the move is forced, none when there is no
    /// move. `None` if the pool is shut down.
    pub async fn lines(
        &self,
        position: Position,
        history: Vec<Position>,
        nodes: u64,
        count: usize,
    ) -> Option<Vec<SearchInfo>> {
        self.with_engine(move |engine| {
            engine.new_game();
            let mut infos: Vec<SearchInfo> = Vec::new();
            let limits = Limits::nodes(nodes);
            let result =
                engine.search_lines(&position, &history, &limits, &StopHandle::new(), count, &mut |info| {
                    infos.push(info.clone())
                });
            // The deepest iteration finished ranks all its lines (a stopped one reports none).
            let deepest = infos.last().map_or(0, |i| i.depth);
            infos.retain(|i| i.depth == deepest);
            if infos.is_empty() {
                if let Some(mv) = result.best_move {
                    infos.push(SearchInfo {
                        line: 1,
                        depth: result.depth,
                        seldepth: result.seldepth,
                        score: result.score,
                        nodes: result.nodes,
                        elapsed: result.elapsed,
                        pv: vec![mv],
                    });
                }
            }
            infos
        })
        .await
    }

    /// Whether the computer, playing `side` at `level`, accepts a draw offered in `game`.
    pub async fn accepts_draw(&self, game: Game, level: u8, side: Color) -> bool {
        self.with_engine(move |engine| {
            let positions = game.positions();
            let history = &positions[..positions.len() - 1];
            level_of(level).accepts_draw(engine, &game.position(), history, side)
        })
        .await
        .unwrap_or(false)
    }
}

fn level_of(level: u8) -> Level {
    Level::new(u32::from(level)).unwrap_or(Level::MIN)
}

/// The one place the server asks the engine for a move.
pub fn choose_move(
    engine: &mut Engine,
    game: &Game,
    level: u8,
    seed: u64,
    stop: &StopHandle,
) -> Option<Move> {
    let positions = game.positions();
    let history = &positions[..positions.len() - 1];
    // The players are people: the top levels vary their openings from game to game.
    level_of(level).choose_move_varied(engine, &game.position(), history, seed, stop)
}
