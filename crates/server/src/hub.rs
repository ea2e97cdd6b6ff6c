//! The hub: one task (an actor) per game in memory, the registry that finds or loads them,
//! and the lobby of open games.
//!
//! Each game's actor owns its [`LiveGame`] and handles one command at a time, so moves in a
//! game are strictly ordered. A change is made on a copy, committed to the database, and only
//! then kept and pushed to every subscriber: a client never hears of a move that a crash
//! could lose. The actor also runs the game's clock (waking when the side to move would run
//! out) and asks the computer pool for moves when the computer is to play.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use checkers_engine::line_text;
use checkers_engine::review::{score_text, tally, MoveReview, Verdict};
use checkers_rules::{Color, Game, Move, PdnGame, Position, SquareNotation, Variant};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::computer::{ComputerPool, ThinkClock};
use crate::live::{side, ClockSpec, LiveGame, MoveRequest, PlayerKind, Refusal, Seat, Status};
use crate::pdn::game_record;
use crate::store::{now_ms, GameSummary, Store, StoreError};
use crate::token::{hash_token, new_game_id, new_seat_token};

/// An error reply: a stable code and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { code, message: message.into() }
    }
    fn not_found(id: &str) -> ApiError {
        ApiError::new("not_found", format!("there is no game {id}"))
    }
    fn not_your_seat() -> ApiError {
        ApiError::new("not_your_seat", "this seat token does not hold a seat in this game")
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let code = match r {
            Refusal::GameOver => "game_over",
            Refusal::NotStarted => "not_started",
            Refusal::NotYourTurn(_) => "not_your_turn",
            Refusal::IllegalMove(_) => "illegal_move",
            Refusal::StalePly { .. } => "stale",
            Refusal::NoFreeSeat => "no_free_seat",
            Refusal::NoDrawOffer => "no_draw_offer",
            Refusal::RematchTooEarly | Refusal::RematchArranged | Refusal::RematchNotHuman => {
                "rematch_refused"
            }
        };
        ApiError::new(code, r.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        eprintln!("checkers serve: storage error: {e}");
        ApiError::new("storage", "the game could not be saved; nothing was changed, try again")
    }
}

/// Who the opponent of a new game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Computer {
        level: u8,
    },
    /// Joined through the game's link only.
    Friend,
    /// Listed in the lobby for anyone.
    Open,
}

/// What a player asks for when creating a game.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub variant: Variant,
    pub opponent: Opponent,
    /// The creator's colour; `None` for a random one.
    pub color: Option<Color>,
    pub clock: Option<ClockSpec>,
    pub name: Option<String>,
}

/// A seat taken: the game, the colour, and the token that moves it (known only to its holder).
#[derive(Clone, Debug)]
pub struct Seated {
    pub game: String,
    pub color: Color,
    pub token: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

enum Command {
    Snapshot { reply: oneshot::Sender<Arc<str>> },
    SeatOf { token_hash: String, reply: oneshot::Sender<Option<Color>> },
    Join { wanted: Option<Color>, token_hash: String, name: Option<String>, reply: Reply<Color> },
    Move { token_hash: String, request: MoveRequest, ply: Option<u32>, reply: Reply<u32> },
    Draw { token_hash: String, action: DrawAction, reply: Reply<()> },
    Resign { token_hash: String, reply: Reply<()> },
    Rematch { token_hash: String, reply: Reply<Option<String>> },
    Pdn { reply: oneshot::Sender<PdnGame> },
    // The game's moves so far, and whether it is over.
    Record { reply: oneshot::Sender<(Game, bool)> },
}

/// Squares in reviews as in the game's state: numbers, in both variants.
const NOTATION: SquareNotation = SquareNotation::Numeric;
/// Nodes the engine searches in each position of a reviewed game (about 0.02 s).
const REVIEW_NODES: u64 = 200_000;
/// Reviews kept in memory; past this many, the memory starts again empty.
const REVIEWS_KEPT: usize = 1_000;
/// Nodes the engine searches for a finished game's position's best lines (about 0.05 s).
const LINES_NODES: u64 = 300_000;
/// How many of a position's best moves the lines show.
const LINES_SHOWN: usize = 3;
/// Positions' lines kept in memory; past this many, the memory starts again empty.
const LINES_KEPT: usize = 10_000;

/// A finished game's review, kept: as the page reads it, and each move's comment for the PDN
/// download.
struct Reviewed {
    json: Arc<str>,
    comments: Vec<String>,
}

impl Reviewed {
    /// The JSON gives per move its text, its route and the position after it (so the page can
    /// step through the game), the score after it for the side that played it, the verdict,
    /// the engine's move and what it kept, and the comment; and per side the count of
    /// mistakes and blunders and the average loss.
    fn new(id: &str, game: &Game, reviews: &[MoveReview]) -> Reviewed {
        let pairs = || reviews.iter().zip(game.positions().windows(2));
        let comments: Vec<String> =
            pairs().map(|(review, pair)| review.comment(&pair[0], NOTATION)).collect();
        let moves: Vec<Value> = pairs()
            .zip(&comments)
            .map(|((review, pair), comment)| {
                let (before, after) = (&pair[0], &pair[1]);
                let verdict = match review.verdict {
                    Verdict::Good => "good",
                    Verdict::Mistake => "mistake",
                    Verdict::Blunder => "blunder",
                };
                let route: Vec<u32> = review.played.route(before).iter().map(|sq| sq.number()).collect();
                json!({
                    "text": review.played.to_pdn(before, NOTATION),
                    "route": route,
                    "fen": after.to_fen(),
                    "score": score_text(review.score),
                    "verdict": verdict,
                    "best": review.best.to_pdn(before, NOTATION),
                    "best_score": score_text(review.best_score),
                    "comment": comment,
                })
            })
            .collect();
        let side = |color| {
            let t = tally(reviews, color);
            // Men lost a move on average, to two decimals.
            json!({"mistakes": t.mistakes, "blunders": t.blunders, "average_loss": (t.average_loss).round() / 100.0})
        };
        let json = json!({
            "game": id,
            "nodes": REVIEW_NODES,
            "moves": moves,
            "white": side(Color::White),
            "black": side(Color::Black),
        });
        Reviewed { json: Arc::from(json.to_string()), comments }
    }
}

/// Review requests waiting or running at once; past this, more are refused as `busy`.
const REVIEW_QUEUE: usize = 8;

/// Reviews run one at a time, with a bounded number waiting.
struct ReviewQueue {
    places: tokio::sync::Semaphore,
    turn: tokio::sync::Mutex<()>,
}

impl ReviewQueue {
    fn new(places: usize) -> ReviewQueue {
        ReviewQueue { places: tokio::sync::Semaphore::new(places), turn: tokio::sync::Mutex::new(()) }
    }

    /// A place in the queue, or `busy` when it is full.
    fn try_place(&self) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
        self.places.try_acquire().map_err(|_| {
            ApiError::new("busy", "the engine is busy with other reviews: try again in a minute")
        })
    }

    /// A place in the queue, then the turn once the work ahead is done; both held until the
    /// returned pair is dropped.
    async fn enter(
        &self,
    ) -> Result<(tokio::sync::SemaphorePermit<'_>, tokio::sync::MutexGuard<'_, ()>), ApiError> {
        let place = self.try_place()?;
        Ok((place, self.turn.lock().await))
    }
}

/// Keeps `value` under `key`; past `bound` entries the memory starts again empty.
fn keep<K: Eq + std::hash::Hash, V>(kept: &Mutex<HashMap<K, V>>, bound: usize, key: K, value: V) {
    let mut kept = lock(kept);
    if kept.len() >= bound {
        kept.clear();
    }
    kept.insert(key, value);
}

/// How to reach a game's actor.
#[derive(Clone)]
struct GameHandle {
    commands: mpsc::Sender<Command>,
    updates: broadcast::Sender<Arc<str>>,
}

/// How long a finished game nobody watches stays in memory.
const IDLE_UNLOAD: Duration = Duration::from_secs(600);
/// How often, at most, the list of live games is sent again (games move many times a second).
const GAMES_LIST_PERIOD: Duration = Duration::from_secs(1);
/// Games in the pushed list of games: live ones first, then the latest finished.
const GAMES_LIST_LEN: usize = 100;

pub struct Hub {
    store: Store,
    computer: ComputerPool,
    games: Mutex<HashMap<String, GameHandle>>,
    /// Serialises loading games from the database, so a game never gets two actors.
    loading: tokio::sync::Mutex<()>,
    open_games: Mutex<BTreeMap<String, Value>>,
    lobby: watch::Sender<Arc<str>>,
    /// Games in memory that were in play here, as the list of games shows them.
    summaries: Mutex<HashMap<String, GameSummary>>,
    summaries_changed: AtomicBool,
    games_list: watch::Sender<Arc<str>>,
    /// Reviews of finished games by id ([`Hub::review`]).
    reviews: Mutex<HashMap<String, Arc<Reviewed>>>,
    /// The engine's lines in finished games' positions, by id and ply ([`Hub::lines`]).
    lines: Mutex<HashMap<(String, usize), Arc<str>>>,
    review_queue: ReviewQueue,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these locks cannot leave the maps half-changed (each
    // change is one insert or remove), so a poisoned lock is still safe to use.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub fn new(store: Store, computer: ComputerPool) -> Arc<Hub> {
        let (lobby, _) = watch::channel(Arc::from(json!({"t": "lobby", "games": []}).to_string()));
        let (games_list, _) = watch::channel(Arc::from(json!({"t": "games", "games": []}).to_string()));
        let hub = Arc::new(Hub {
            store,
            computer,
            games: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            open_games: Mutex::new(BTreeMap::new()),
            lobby,
            summaries: Mutex::new(HashMap::new()),
            summaries_changed: AtomicBool::new(false),
            games_list,
            reviews: Mutex::new(HashMap::new()),
            lines: Mutex::new(HashMap::new()),
            review_queue: ReviewQueue::new(REVIEW_QUEUE),
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(refresh_games_list(Arc::downgrade(&hub)));
        }
        hub
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every unfinished game so clocks run and computers move again after a restart.
    pub async fn resume_unfinished(self: &Arc<Self>) -> Result<usize, StoreError> {
        let ids = self.store.unfinished_game_ids().await?;
        let mut resumed = 0;
        for id in ids {
            match self.handle(&id).await {
                Ok(_) => resumed += 1,
                Err(e) => eprintln!("checkers serve: cannot resume game {id}: {}", e.message),
            }
        }
        Ok(resumed)
    }

    /// The lobby: a message listing open games, updated whenever the list changes.
    pub fn lobby(&self) -> watch::Receiver<Arc<str>> {
        self.lobby.subscribe()
    }

    /// The list of live and recently finished games (`{"t":"games","games":[...]}`, each entry
    /// as in `/api/games`), sent again at most once a second while games change.
    pub fn games_list(&self) -> watch::Receiver<Arc<str>> {
        self.games_list.subscribe()
    }

    /// Number of games held in memory.
    pub fn games_in_memory(&self) -> usize {
        lock(&self.games).len()
    }

    async fn handle(self: &Arc<Self>, id: &str) -> Result<GameHandle, ApiError> {
        if let Some(h) = lock(&self.games).get(id) {
            if !h.commands.is_closed() {
                return Ok(h.clone());
            }
        }
        if !crate::token::is_game_id(id) {
            return Err(ApiError::not_found(id));
        }
        let _loading = self.loading.lock().await;
        if let Some(h) = lock(&self.games).get(id) {
            if !h.commands.is_closed() {
                return Ok(h.clone());
            }
        }
        let mut game = self.store.load_game(id).await?.ok_or_else(|| ApiError::not_found(id))?;
        // A game is loaded only when no actor holds it: after a restart, or once it finished
        // and was unloaded, so a running clock was not running here in the meantime.
        game.resume_clock(now_ms());
        Ok(self.spawn(game))
    }

    fn spawn(self: &Arc<Self>, game: LiveGame) -> GameHandle {
        let (commands, receiver) = mpsc::channel(64);
        let (updates, _) = broadcast::channel(16);
        let handle = GameHandle { commands, updates: updates.clone() };
        lock(&self.games).insert(game.id.clone(), handle.clone());
        self.update_lobby(&game);
        // A finished game loaded only to be read (its PDN, say) is not news.
        if game.status != Status::Finished {
            self.update_summary(&game);
        }
        let actor = Actor { hub: self.clone(), game, updates, think: None };
        tokio::spawn(actor.run(receiver));
        handle
    }

    /// Sends a command to a game's actor, reloading the game once if its actor had just
    /// unloaded it.
    async fn send<T>(
        self: &Arc<Self>,
        id: &str,
        command: Command,
        reply: oneshot::Receiver<T>,
    ) -> Result<T, ApiError> {
        let handle = self.handle(id).await?;
        if let Err(mpsc::error::SendError(command)) = handle.commands.send(command).await {
            lock(&self.games).remove(id);
            let handle = self.handle(id).await?;
            if handle.commands.send(command).await.is_err() {
                return Err(ApiError::new("unavailable", "the game is unavailable; try again"));
            }
        }
        reply.await.map_err(|_| ApiError::new("unavailable", "the game is unavailable; try again"))
    }

    /// Creates a game and seats its creator.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<Seated, ApiError> {
        let now = now_ms();
        let color = request.color.unwrap_or(if now % 2 == 0 { Color::White } else { Color::Black });
        let token = new_seat_token();
        let mut seats = [Seat::human(None, None), Seat::human(None, None)];
        seats[side(color)] = Seat::human(request.name, Some(hash_token(&token)));
        if let Opponent::Computer { level } = request.opponent {
            seats[side(color.opponent())] = Seat::computer(level);
        }
        let listed = request.opponent == Opponent::Open;
        let id = new_game_id();
        let game =
            LiveGame::new(id.clone(), Position::start(request.variant), seats, request.clock, listed, now);
        self.store.create_game(&game).await?;
        self.spawn(game);
        Ok(Seated { game: id, color, token })
    }

    /// Takes a free seat in a game (joined through its link or the lobby).
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        wanted: Option<Color>,
        name: Option<String>,
    ) -> Result<Seated, ApiError> {
        let token = new_seat_token();
        let (reply, rx) = oneshot::channel();
        let command = Command::Join { wanted, token_hash: hash_token(&token), name, reply };
        let color = self.send(id, command, rx).await??;
        Ok(Seated { game: id.to_string(), color, token })
    }

    /// Subscribes to a game's updates; returns them with the current state and the seat the
    /// token holds, if any.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(broadcast::Receiver<Arc<str>>, Arc<str>, Option<Color>), ApiError> {
        let handle = self.handle(id).await?;
        let updates = handle.updates.subscribe();
        let (reply, rx) = oneshot::channel();
        let state = self.send(id, Command::Snapshot { reply }, rx).await?;
        let seat = match token {
            Some(token) => {
                let (reply, rx) = oneshot::channel();
                self.send(id, Command::SeatOf { token_hash: hash_token(token), reply }, rx).await?
            }
            None => None,
        };
        Ok((updates, state, seat))
    }

    /// Plays a move for the seat `token` holds. Returns the new ply count once committed.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        request: MoveRequest,
        ply: Option<u32>,
    ) -> Result<u32, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(id, Command::Move { token_hash: hash_token(token), request, ply, reply }, rx).await?
    }

    pub async fn draw(self: &Arc<Self>, id: &str, token: &str, action: DrawAction) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(id, Command::Draw { token_hash: hash_token(token), action, reply }, rx).await?
    }

    pub async fn resign(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(id, Command::Resign { token_hash: hash_token(token), reply }, rx).await?
    }

    /// Asks for a rematch; returns the new game's id once both sides agreed.
    pub async fn rematch(self: &Arc<Self>, id: &str, token: &str) -> Result<Option<String>, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(id, Command::Rematch { token_hash: hash_token(token), reply }, rx).await?
    }

    /// The game as PDN.
    pub async fn pdn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let (reply, rx) = oneshot::channel();
        Ok(self.send(id, Command::Pdn { reply }, rx).await?.to_pdn())
    }

    /// A finished game as PDN with the engine's review as a comment after each move.
    pub async fn review_pdn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let review = self.reviewed(id).await?;
        let (reply, rx) = oneshot::channel();
        let mut record = self.send(id, Command::Pdn { reply }, rx).await?;
        for (i, comment) in review.comments.iter().enumerate() {
            record.set_comment(i, comment);
        }
        Ok(record.to_pdn())
    }

    /// The engine's review of a finished game, as JSON (see the protocol in `lib.rs`).
    pub async fn review(self: &Arc<Self>, id: &str) -> Result<Arc<str>, ApiError> {
        Ok(self.reviewed(id).await?.json.clone())
    }

    /// The engine's best moves in the position after `ply` moves of a finished game (0: the
    /// start), as JSON (see the protocol in `lib.rs`); kept once made. Refused while the game
    /// is on, as reviews are, and queued with them.
    pub async fn lines(self: &Arc<Self>, id: &str, ply: usize) -> Result<Arc<str>, ApiError> {
        let key = (id.to_string(), ply);
        if let Some(known) = lock(&self.lines).get(&key) {
            return Ok(known.clone());
        }
        let game = self.finished_record(id, "a game's positions are analysed once it is over").await?;
        let mut positions = game.positions().to_vec();
        if ply >= positions.len() {
            let moves = positions.len() - 1;
            return Err(ApiError::new(
                "bad_ply",
                format!("the game has {moves} moves: ply must be 0 to {moves}"),
            ));
        }
        let position = positions[ply];
        positions.truncate(ply);
        let _turn = self.review_queue.enter().await?;
        if let Some(known) = lock(&self.lines).get(&key) {
            return Ok(known.clone()); // made while this request waited
        }
        let infos = self
            .computer
            .lines(position, positions, LINES_NODES, LINES_SHOWN)
            .await
            .ok_or_else(|| ApiError::new("unavailable", "the engine is not available"))?;
        let lines: Vec<Value> = infos
            .iter()
            .map(|info| {
                json!({
                    "move": info.pv.first().map(|m| m.to_pdn(&position, NOTATION)),
                    "score": score_text(info.score),
                    "line": line_text(&position, &info.pv, NOTATION),
                })
            })
            .collect();
        let depth = infos.first().map_or(0, |i| i.depth);
        let text: Arc<str> = Arc::from(
            json!({"game": id, "ply": ply, "fen": position.to_fen(), "nodes": LINES_NODES, "depth": depth, "lines": lines})
                .to_string(),
        );
        keep(&self.lines, LINES_KEPT, key, text.clone());
        Ok(text)
    }

    /// A finished game's record, for the engine to look at. Refused with `refusal` while the
    /// game is on: a player could otherwise ask the engine mid-game.
    async fn finished_record(self: &Arc<Self>, id: &str, refusal: &str) -> Result<Game, ApiError> {
        let (reply, rx) = oneshot::channel();
        let (game, over) = self.send(id, Command::Record { reply }, rx).await?;
        if !over {
            return Err(ApiError::new("not_finished", refusal));
        }
        Ok(game)
    }

    /// A finished game's review, kept once made, as a finished game no longer changes.
    /// Refused while the game is on.
    async fn reviewed(self: &Arc<Self>, id: &str) -> Result<Arc<Reviewed>, ApiError> {
        if let Some(known) = lock(&self.reviews).get(id) {
            return Ok(known.clone());
        }
        let game = self.finished_record(id, "a game is reviewed once it is over").await?;
        // One review at a time, a few more waiting: reviews take seconds of a core each, and
        // the computer's moves in games being played must not wait behind a crowd of them.
        let _turn = self.review_queue.enter().await?;
        if let Some(known) = lock(&self.reviews).get(id) {
            return Ok(known.clone()); // made while this request waited
        }
        let reviews = self
            .computer
            .review(game.clone(), REVIEW_NODES)
            .await
            .ok_or_else(|| ApiError::new("unavailable", "the engine is not available"))?;
        let made = Arc::new(Reviewed::new(id, &game, &reviews));
        keep(&self.reviews, REVIEWS_KEPT, id.to_string(), made.clone());
        Ok(made)
    }

    fn update_lobby(&self, game: &LiveGame) {
        let mut open = lock(&self.open_games);
        let changed = if game.listed && game.status == Status::Waiting {
            let creator = game.seats.iter().position(Seat::is_taken).unwrap_or(0);
            let entry = json!({
                "id": game.id,
                "variant": game.game.variant().name(),
                "clock": game.clock.map(|c| json!({"base_ms": c.base_ms, "increment_ms": c.increment_ms})),
                "name": game.seats[creator].name,
                "creator_color": if creator == 0 { "white" } else { "black" },
                "created_ms": game.created_ms,
            });
            open.insert(game.id.clone(), entry.clone()) != Some(entry)
        } else {
            open.remove(&game.id).is_some()
        };
        if changed {
            // Newest first, at most 200 shown.
            let mut games: Vec<&Value> = open.values().collect();
            games.sort_by_key(|g| std::cmp::Reverse(g["created_ms"].as_i64().unwrap_or(0)));
            games.truncate(200);
            let text = json!({"t": "lobby", "games": games}).to_string();
            self.lobby.send_replace(Arc::from(text));
        }
    }

    fn update_summary(&self, game: &LiveGame) {
        lock(&self.summaries).insert(game.id.clone(), GameSummary::of(game, now_ms()));
        self.summaries_changed.store(true, Ordering::Release);
    }

    /// The games list message: games in play first, then the most recently changed.
    fn games_list_message(&self) -> Arc<str> {
        let summaries = lock(&self.summaries);
        let mut games: Vec<&GameSummary> = summaries.values().collect();
        games.sort_by_key(|g| (g.status == "finished", std::cmp::Reverse(g.updated_ms)));
        games.truncate(GAMES_LIST_LEN);
        Arc::from(json!({"t": "games", "games": games}).to_string())
    }

    fn unload(&self, id: &str) {
        lock(&self.games).remove(id);
        if lock(&self.summaries).remove(id).is_some() {
            self.summaries_changed.store(true, Ordering::Release);
        }
    }
}

/// Sends the list of games again whenever it changed, at most once per [`GAMES_LIST_PERIOD`];
/// ends with the hub.
async fn refresh_games_list(hub: Weak<Hub>) {
    let mut tick = tokio::time::interval(GAMES_LIST_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(hub) = hub.upgrade() else { break };
        if hub.summaries_changed.swap(false, Ordering::AcqRel) {
            let message = hub.games_list_message();
            hub.games_list.send_replace(message);
        }
    }
}

/// Sleeps until a wall-clock time (ms since the epoch); never wakes for `None`.
async fn sleep_until_ms(deadline: Option<i64>) {
    match deadline {
        Some(at) => tokio::time::sleep(Duration::from_millis((at - now_ms()).max(0) as u64)).await,
        None => std::future::pending().await,
    }
}

/// The computer's move once its search ends; never wakes when no search runs.
async fn wait_for_move(think: &mut Option<(u32, oneshot::Receiver<Option<Move>>)>) -> Option<Move> {
    match think.as_mut() {
        Some((_, rx)) => rx.await.ok().flatten(),
        None => std::future::pending().await,
    }
}

struct Actor {
    hub: Arc<Hub>,
    game: LiveGame,
    updates: broadcast::Sender<Arc<str>>,
    /// A computer search in flight: the ply it is for and where its move will arrive.
    think: Option<(u32, oneshot::Receiver<Option<Move>>)>,
}

impl Actor {
    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        self.start_thinking();
        let mut idle_since = tokio::time::Instant::now();
        loop {
            let deadline = self.game.flag_deadline_ms();
            tokio::select! {
                command = commands.recv() => {
                    let Some(command) = command else { break };
                    idle_since = tokio::time::Instant::now();
                    self.handle(command).await;
                }
                _ = sleep_until_ms(deadline) => self.flag_fall().await,
                mv = wait_for_move(&mut self.think) => {
                    let ply = self.think.take().map(|(ply, _)| ply);
                    self.computer_move(ply, mv).await;
                }
                _ = tokio::time::sleep_until(idle_since + IDLE_UNLOAD) => {
                    if self.game.status == Status::Finished && self.updates.receiver_count() == 0 {
                        self.hub.unload(&self.game.id);
                        break;
                    }
                    idle_since = tokio::time::Instant::now();
                }
            }
        }
    }

    fn publish(&mut self) {
        let text: Arc<str> = Arc::from(self.game.snapshot(now_ms()));
        let _ = self.updates.send(text);
        self.hub.update_lobby(&self.game);
        self.hub.update_summary(&self.game);
        self.start_thinking();
    }

    fn start_thinking(&mut self) {
        let Some(level) = self.game.computer_to_move() else { return };
        let ply = self.game.ply();
        if self.think.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        let turn = side(self.game.position().turn());
        let clock = self.game.clock.map(|c| ThinkClock {
            remaining_ms: self.game.clocks_at(now_ms())[turn],
            increment_ms: c.increment_ms,
        });
        let (tx, rx) = oneshot::channel();
        let pool = self.hub.computer.clone();
        let game = self.game.game.clone();
        // Varied between games, repeatable within one.
        let seed =
            self.game.id.bytes().fold(u64::from(ply), |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        tokio::spawn(async move {
            let _ = tx.send(pool.think(game, level, clock, seed).await);
        });
        self.think = Some((ply, rx));
    }

    async fn flag_fall(&mut self) {
        let mut next = self.game.clone();
        if next.check_flag(now_ms()) {
            match self.hub.store.save_game(&next).await {
                Ok(()) => {
                    self.game = next;
                    self.publish();
                }
                // Try again shortly: the deadline is still in the past.
                Err(e) => {
                    eprintln!("checkers serve: cannot save loss on time in {}: {e}", self.game.id);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    async fn computer_move(&mut self, ply: Option<u32>, mv: Option<Move>) {
        if ply != Some(self.game.ply()) || self.game.computer_to_move().is_none() {
            return;
        }
        let legal = self.game.position().legal_moves();
        let Some(mv) = mv.filter(|m| legal.iter().any(|l| l == m)).or_else(|| legal.iter().next().copied())
        else {
            return;
        };
        let mover = self.game.position().turn();
        if let Err(e) = self.commit_move(mover, mv).await {
            eprintln!("checkers serve: computer move in {} failed: {}", self.game.id, e.message);
            // Think again after a pause rather than spin on a failing database.
            tokio::time::sleep(Duration::from_millis(200)).await;
            self.start_thinking();
        }
    }

    /// Plays, commits, keeps and publishes a move. On any error the game is unchanged.
    async fn commit_move(&mut self, mover: Color, mv: Move) -> Result<u32, ApiError> {
        let now = now_ms();
        let mut next = self.game.clone();
        if next.check_flag(now) {
            self.hub.store.save_game(&next).await?;
            self.game = next;
            self.publish();
            return Err(Refusal::GameOver.into());
        }
        let record = next.play(mover, mv, now)?;
        self.hub.store.record_move(&next, &record).await?;
        self.game = next;
        self.publish();
        Ok(self.game.ply())
    }

    /// Commits a change that touches only the game's row (draw, resignation).
    async fn commit_row(&mut self, next: LiveGame) -> Result<(), ApiError> {
        self.hub.store.save_game(&next).await?;
        self.game = next;
        self.publish();
        Ok(())
    }

    fn seat(&self, token_hash: &str) -> Result<Color, ApiError> {
        self.game.seat_of(token_hash).ok_or_else(ApiError::not_your_seat)
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Snapshot { reply } => {
                let _ = reply.send(Arc::from(self.game.snapshot(now_ms())));
            }
            Command::SeatOf { token_hash, reply } => {
                let _ = reply.send(self.game.seat_of(&token_hash));
            }
            Command::Pdn { reply } => {
                let _ = reply.send(game_record(&self.game));
            }
            Command::Record { reply } => {
                let _ = reply.send((self.game.game.clone(), self.game.status == Status::Finished));
            }
            Command::Join { wanted, token_hash, name, reply } => {
                let result = self.join(wanted, token_hash, name).await;
                let _ = reply.send(result);
            }
            Command::Move { token_hash, request, ply, reply } => {
                let result = self.human_move(&token_hash, &request, ply).await;
                let _ = reply.send(result);
            }
            Command::Draw { token_hash, action, reply } => {
                let result = self.draw(&token_hash, action).await;
                let _ = reply.send(result);
            }
            Command::Resign { token_hash, reply } => {
                let result = async {
                    let color = self.seat(&token_hash)?;
                    let mut next = self.game.clone();
                    next.resign(color, now_ms())?;
                    self.commit_row(next).await
                }
                .await;
                let _ = reply.send(result);
            }
            Command::Rematch { token_hash, reply } => {
                let result = self.rematch(&token_hash).await;
                let _ = reply.send(result);
            }
        }
    }

    async fn join(
        &mut self,
        wanted: Option<Color>,
        token_hash: String,
        name: Option<String>,
    ) -> Result<Color, ApiError> {
        if let Some(color) = self.game.seat_of(&token_hash) {
            return Ok(color);
        }
        let mut next = self.game.clone();
        let color = next.join(wanted, token_hash, name, now_ms())?;
        self.hub.store.save_seat(&next, color).await?;
        self.game = next;
        self.publish();
        Ok(color)
    }

    async fn human_move(
        &mut self,
        token_hash: &str,
        request: &MoveRequest,
        ply: Option<u32>,
    ) -> Result<u32, ApiError> {
        let color = self.seat(token_hash)?;
        if let Some(expected) = ply {
            if expected != self.game.ply() {
                return Err(Refusal::StalePly { expected, actual: self.game.ply() }.into());
            }
        }
        match self.game.status {
            Status::Finished => return Err(Refusal::GameOver.into()),
            Status::Waiting => return Err(Refusal::NotStarted.into()),
            Status::Playing => {}
        }
        if self.game.seats[side(color)].kind != PlayerKind::Human {
            return Err(ApiError::not_your_seat());
        }
        let turn = self.game.position().turn();
        if turn != color {
            return Err(Refusal::NotYourTurn(turn.name()).into());
        }
        let mv = self.game.resolve_move(request)?;
        self.commit_move(color, mv).await
    }

    async fn draw(&mut self, token_hash: &str, action: DrawAction) -> Result<(), ApiError> {
        let color = self.seat(token_hash)?;
        let now = now_ms();
        let mut next = self.game.clone();
        match action {
            DrawAction::Offer => {
                if let PlayerKind::Computer { level } = next.seats[side(color.opponent())].kind {
                    next.offer_draw(color, now)?;
                    // The computer answers at once, by its own judgement of the position.
                    let accepts =
                        self.hub.computer.accepts_draw(next.game.clone(), level, color.opponent()).await;
                    if !accepts {
                        return Err(ApiError::new("draw_declined", "the computer declines the draw"));
                    }
                    next.accept_draw(color.opponent(), now_ms())?;
                    return self.commit_row(next).await;
                }
                // Stored, like its answer below, so a standing offer outlives a restart.
                next.offer_draw(color, now)?;
                self.commit_row(next).await
            }
            DrawAction::Accept => {
                next.accept_draw(color, now)?;
                self.commit_row(next).await
            }
            DrawAction::Decline => {
                next.decline_draw(color)?;
                self.commit_row(next).await
            }
        }
    }

    async fn rematch(&mut self, token_hash: &str) -> Result<Option<String>, ApiError> {
        let color = self.seat(token_hash)?;
        let mut next = self.game.clone();
        let new_id = new_game_id();
        match next.ask_rematch(color, new_id, now_ms())? {
            None => {
                // The request is stored so it still stands after a restart.
                self.commit_row(next).await?;
                Ok(None)
            }
            Some(new_game) => {
                self.hub.store.create_rematch(&next, &new_game).await?;
                let new_id = new_game.id.clone();
                self.hub.spawn(new_game);
                self.game = next;
                self.publish();
                Ok(Some(new_id))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_review_queue_refuses_at_once_and_frees_its_places() {
        let queue = ReviewQueue::new(2);
        let first = queue.try_place().unwrap();
        let second = queue.try_place().unwrap();
        assert_eq!(queue.try_place().err().map(|e| e.code), Some("busy"));
        drop(first);
        assert!(queue.try_place().is_ok());
        drop(second);
    }
}
