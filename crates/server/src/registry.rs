//! The registry of live games: it finds a game's actor, or loads the game from the database
//! and starts one, and it keeps what clients follow across games: the lobby of open games and
//! the list of games in play. Requests about a game go through here to its actor (`actor`);
//! reviews and lines of finished games to the review queue (`review`).

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use checkers_rules::{Color, Game, Position, Variant};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::actor::{Actor, Command, GameHandle};
use crate::computer::ComputerPool;
use crate::error::{ApiError, ErrorCode};
use crate::live::{side, ClockSpec, LiveGame, MoveRequest, Seat, Status};
use crate::protocol::{DrawAction, Listing, LobbyEntry};
use crate::review::{Reviewed, Reviews};
use crate::store::{now_ms, GameSummary, Store, StoreError};
use crate::token::{hash_token, new_game_id, new_seat_token};

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
    /// The address of the client asking (what per-client limits count by).
    pub client: IpAddr,
}

/// A seat taken: the game, the colour, and the token that moves it (known only to its holder).
#[derive(Clone, Debug)]
pub struct Seated {
    pub game: String,
    pub color: Color,
    pub token: String,
}

/// How often, at most, the list of live games is sent again (games move many times a second).
const GAMES_LIST_PERIOD: Duration = Duration::from_secs(1);
/// Games in the pushed list of games: live ones first, then the latest finished.
const GAMES_LIST_LEN: usize = 100;

/// The games in memory, and the lists clients follow.
pub struct Registry {
    pub(crate) store: Store,
    pub(crate) computer: ComputerPool,
    games: Mutex<HashMap<String, GameHandle>>,
    /// Serialises loading games from the database, so a game never gets two actors.
    loading: tokio::sync::Mutex<()>,
    open_games: Mutex<BTreeMap<String, LobbyEntry>>,
    lobby: watch::Sender<Arc<Listing<LobbyEntry>>>,
    /// Games in memory that were in play here, as the list of games shows them.
    summaries: Mutex<HashMap<String, GameSummary>>,
    summaries_changed: AtomicBool,
    games_list: watch::Sender<Arc<Listing<GameSummary>>>,
    reviews: Reviews,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these locks cannot leave the maps half-changed (each
    // change is one insert or remove), so a poisoned lock is still safe to use.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    pub fn new(store: Store, computer: ComputerPool) -> Arc<Registry> {
        let (lobby, _) = watch::channel(Arc::new(Listing::new(Vec::new())));
        let (games_list, _) = watch::channel(Arc::new(Listing::new(Vec::new())));
        let registry = Arc::new(Registry {
            store,
            reviews: Reviews::new(computer.clone()),
            computer,
            games: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            open_games: Mutex::new(BTreeMap::new()),
            lobby,
            summaries: Mutex::new(HashMap::new()),
            summaries_changed: AtomicBool::new(false),
            games_list,
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(refresh_games_list(Arc::downgrade(&registry)));
        }
        registry
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The engine's pool (its counters are what tests read).
    pub fn computer(&self) -> &ComputerPool {
        &self.computer
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

    /// The lobby: the open games, updated whenever the list changes.
    pub fn lobby(&self) -> watch::Receiver<Arc<Listing<LobbyEntry>>> {
        self.lobby.subscribe()
    }

    /// The list of live and recently finished games (each entry as in `/api/games`), sent
    /// again at most once a second while games change.
    pub fn games_list(&self) -> watch::Receiver<Arc<Listing<GameSummary>>> {
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

    /// Starts an actor for a game and registers it (before the game shows in any list, so
    /// that whoever sees it there finds it here).
    pub(crate) fn spawn(self: &Arc<Self>, game: LiveGame) -> GameHandle {
        let (actor, handle, commands) = Actor::new(self.clone(), game);
        let game = actor.game();
        lock(&self.games).insert(game.id.clone(), handle.clone());
        self.update_lobby(game);
        // A finished game loaded only to be read (its PDN, say) is not news.
        if game.status != Status::Finished {
            self.update_summary(game);
        }
        tokio::spawn(actor.run(commands));
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
                return Err(ApiError::game_unavailable());
            }
        }
        reply.await.map_err(|_| ApiError::game_unavailable())
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
        if let Opponent::Computer { .. } = request.opponent {
            self.computer.admit_game(request.client, &id)?;
        }
        if let Err(e) = self.store.create_game(&game).await {
            self.computer.release_game(&id);
            return Err(e.into());
        }
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

    /// Asks for a rematch for the client at `client`; returns the new game's id once both
    /// sides agreed.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        client: IpAddr,
    ) -> Result<Option<String>, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(id, Command::Rematch { token_hash: hash_token(token), client, reply }, rx).await?
    }

    /// The game as PDN.
    pub async fn pdn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let (reply, rx) = oneshot::channel();
        Ok(self.send(id, Command::Pdn { reply }, rx).await?.to_pdn())
    }

    /// A finished game as PDN with the engine's review as a comment after each move. `client`
    /// (the asker's address) is held to its share of the review queue.
    pub async fn review_pdn(self: &Arc<Self>, id: &str, client: IpAddr) -> Result<String, ApiError> {
        let review = self.reviewed(id, client).await?;
        let (reply, rx) = oneshot::channel();
        let mut record = self.send(id, Command::Pdn { reply }, rx).await?;
        for (i, comment) in review.comments.iter().enumerate() {
            record.set_comment(i, comment);
        }
        Ok(record.to_pdn())
    }

    /// The engine's review of a finished game, as JSON (see `docs/protocol.md`).
    pub async fn review(self: &Arc<Self>, id: &str, client: IpAddr) -> Result<Arc<str>, ApiError> {
        Ok(self.reviewed(id, client).await?.json.clone())
    }

    /// The engine's best moves in the position after `ply` moves of a finished game (0: the
    /// start), as JSON (see `docs/protocol.md`); kept once made. Refused while the game is
    /// on, as reviews are, and queued with them.
    pub async fn lines(self: &Arc<Self>, id: &str, ply: usize, client: IpAddr) -> Result<Arc<str>, ApiError> {
        let record = self.finished_record(id, "a game's positions are analysed once it is over");
        self.reviews.lines(id, ply, client, record).await
    }

    /// A finished game's record, for the engine to look at. Refused with `refusal` while the
    /// game is on: a player could otherwise ask the engine mid-game.
    async fn finished_record(self: &Arc<Self>, id: &str, refusal: &str) -> Result<Game, ApiError> {
        let (reply, rx) = oneshot::channel();
        let (game, over) = self.send(id, Command::Record { reply }, rx).await?;
        if !over {
            return Err(ApiError::new(ErrorCode::NotFinished, refusal));
        }
        Ok(game)
    }

    /// A finished game's review, kept once made. Refused while the game is on.
    async fn reviewed(self: &Arc<Self>, id: &str, client: IpAddr) -> Result<Arc<Reviewed>, ApiError> {
        let record = self.finished_record(id, "a game is reviewed once it is over");
        self.reviews.review(id, client, record).await
    }

    /// Lists the game in the lobby while it waits for an opponent (if it is open), and pushes
    /// the lobby again if that changed it.
    pub(crate) fn update_lobby(&self, game: &LiveGame) {
        let mut open = lock(&self.open_games);
        let changed = if game.listed && game.status == Status::Waiting {
            let creator = [Color::White, Color::Black]
                .into_iter()
                .find(|&c| game.seats[side(c)].is_taken())
                .unwrap_or(Color::White);
            let entry = LobbyEntry::of(game, creator);
            open.insert(game.id.clone(), entry.clone()) != Some(entry)
        } else {
            open.remove(&game.id).is_some()
        };
        if changed {
            // Newest first, at most 200 shown.
            let mut games: Vec<LobbyEntry> = open.values().cloned().collect();
            games.sort_by_key(|g| std::cmp::Reverse(g.created_ms));
            games.truncate(200);
            self.lobby.send_replace(Arc::new(Listing::new(games)));
        }
    }

    pub(crate) fn update_summary(&self, game: &LiveGame) {
        lock(&self.summaries).insert(game.id.clone(), GameSummary::of(game, now_ms()));
        self.summaries_changed.store(true, Ordering::Release);
    }

    /// The list of games: games in play first, then the most recently changed.
    fn games_list_now(&self) -> Listing<GameSummary> {
        let summaries = lock(&self.summaries);
        let mut games: Vec<&GameSummary> = summaries.values().collect();
        games.sort_by_key(|g| (g.status == "finished", std::cmp::Reverse(g.updated_ms)));
        games.truncate(GAMES_LIST_LEN);
        Listing::new(games.into_iter().cloned().collect())
    }

    /// Forgets a game its actor has let go of.
    pub(crate) fn unload(&self, id: &str) {
        lock(&self.games).remove(id);
        if lock(&self.summaries).remove(id).is_some() {
            self.summaries_changed.store(true, Ordering::Release);
        }
    }
}

/// Sends the list of games again whenever it changed, at most once per [`GAMES_LIST_PERIOD`];
/// ends with the registry.
async fn refresh_games_list(registry: Weak<Registry>) {
    let mut tick = tokio::time::interval(GAMES_LIST_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(registry) = registry.upgrade() else { break };
        if registry.summaries_changed.swap(false, Ordering::AcqRel) {
            let listing = registry.games_list_now();
            registry.games_list.send_replace(Arc::new(listing));
        }
    }
}
