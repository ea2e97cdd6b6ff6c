//! The registry of live games: it finds a game's actor, or loads the game from the database
//! and starts one, and it keeps what clients follow across games: the lobby of open games and
//! the list of games (read from the database's index). It enforces the quotas on creating
//! games, deletes the games nobody joined in time, and at start-up brings back only what must
//! run (games whose clock runs or whose computer may be to move): every other game is loaded
//! when asked for, and an idle one leaves memory again. Requests about a game go through here
//! to its actor (`actor`); reviews and lines of finished games to the review queue (`review`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use checkers_rules::Color;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::actor::{Actor, Command, GameHandle, JoinRequest, Reply, SiteRule};
use crate::cluster::{Cluster, LobbyWire, Notice, Owner, RemoteGame};

mod nodes;
use crate::computer::ComputerPool;
use crate::error::{ApiError, ErrorCode};
use crate::lifecycle::{release_freed_memory, shrink, ClientKey, GameLimits, Ledger};
use crate::live::{side, ClockSpec, LiveGame, MoveRequest, Seat, Status};
use crate::pairing::AccountId;
use crate::presence::{Presence, SeatPresence};
use crate::protocol::{DrawAction, Listing, LobbyEntry};
use crate::rated::{seat_account, speed_of, Account};
use crate::review::{Reviewed, Reviews};
use crate::rules::AnyGame;
use crate::store::{now_ms, GameSummary, ListCursor, Store, StoreError};
use crate::token::{hash_token, new_game_id, new_invite_secret, new_seat_token};
use crate::variant::GameVariant;

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
    pub variant: GameVariant,
    pub opponent: Opponent,
    /// The creator's colour; `None` for a random one.
    pub color: Option<Color>,
    pub clock: Option<ClockSpec>,
    pub name: Option<String>,
    /// The address of the client asking: quotas count by it.
    pub client: IpAddr,
    /// The account logged in on the client's connection, if any: the seat is its own.
    pub account: Option<Account>,
    /// A rated game (checked by [`crate::rated::check_rateable`] before it comes here).
    pub rated: bool,
}

/// What authorises a request for a seat: the seat's token, or the account holding the seat
/// (a logged-in connection of that account, on any device).
#[derive(Clone, Copy, Debug)]
pub enum SeatKey<'a> {
    Token(&'a str),
    Account(AccountId),
}

/// A seat taken: the game, the colour, and the token that moves it (known only to its holder);
/// for the creator of a friend game, the secret of its invitation too.
#[derive(Clone, Debug)]
pub struct Seated {
    pub game: String,
    pub color: Color,
    pub token: String,
    pub invite: Option<String>,
}

/// How often, at most, the list of games is sent again (games move many times a second).
const GAMES_LIST_PERIOD: Duration = Duration::from_secs(1);
/// Most games in a page of the list of games, and in the pushed list.
pub const GAMES_PAGE: usize = 100;
/// Open games the lobby shows, the newest.
const LOBBY_LEN: usize = 200;
/// Waiting games deleted together when their time is up.
const EXPIRY_BATCH: usize = 500;
/// Games that must have left memory (and half of those it held) before the memory they took
/// is handed back to the system (a game takes about 10 KB).
const RELEASE_AFTER: usize = 200;

/// The games in memory, and the lists clients follow.
pub struct Registry {
    pub(crate) store: Store,
    pub(crate) computer: ComputerPool,
    pub(crate) limits: GameLimits,
    games: Mutex<HashMap<String, GameHandle>>,
    /// Serialises loading games from the database, so a game never gets two actors, and
    /// keeps games from being loaded while waiting ones are deleted.
    loading: tokio::sync::Mutex<()>,
    /// The open games waiting for an opponent, in memory or not.
    open_games: Mutex<HashMap<String, LobbyEntry>>,
    lobby: watch::Sender<Arc<Listing<LobbyEntry>>>,
    /// The games waiting for an opponent, and the games each client created lately.
    ledger: Mutex<Ledger>,
    /// A game changed since the list of games was last read.
    games_list_stale: AtomicBool,
    games_list: watch::Sender<Arc<Listing<GameSummary>>>,
    reviews: Reviews,
    /// The quick-pairing pools, who is online, the challenges.
    pub(crate) matchmaking: crate::matchmaking::Matchmaking,
    /// The other nodes, on PostgreSQL (see `cluster`).
    cluster: OnceLock<Arc<Cluster>>,
    /// Bumped when this node must drop every game it runs (its lease was lost): each actor
    /// stops.
    pub(crate) fence: watch::Sender<u64>,
    /// Games changed here since the other nodes were last told.
    announce_list: AtomicBool,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these locks cannot leave the maps half-changed (each
    // change is one insert or remove), so a poisoned lock is still safe to use.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    /// The registry, with its tasks that send the list of games again as it changes and
    /// delete the games nobody joined in time.
    pub fn new(store: Store, computer: ComputerPool, limits: GameLimits) -> Arc<Registry> {
        let (lobby, _) = watch::channel(Arc::new(Listing::new(Vec::new())));
        let (games_list, _) = watch::channel(Arc::new(Listing::new(Vec::new())));
        let registry = Arc::new(Registry {
            store,
            reviews: Reviews::new(computer.clone()),
            computer,
            limits,
            games: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            open_games: Mutex::new(HashMap::new()),
            lobby,
            ledger: Mutex::new(Ledger::default()),
            games_list_stale: AtomicBool::new(true),
            games_list,
            matchmaking: crate::matchmaking::Matchmaking::default(),
            cluster: OnceLock::new(),
            fence: watch::Sender::new(0),
            announce_list: AtomicBool::new(false),
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(refresh_games_list(Arc::downgrade(&registry)));
            runtime.spawn(expire_waiting_games(Arc::downgrade(&registry), registry.limits.sweep_period()));
            runtime.spawn(crate::matchmaking::pair_rounds(Arc::downgrade(&registry)));
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

    /// Reads what start-up must know before the first client comes, without loading any game:
    /// the games waiting for an opponent (the lobby, when each expires, whose each is) and the
    /// games each address created in the last hour. Returns the number of waiting games.
    pub async fn recall_waiting(&self) -> Result<usize, StoreError> {
        let created = self.store.creations_since(now_ms() - 3600 * 1000).await?;
        {
            let mut ledger = lock(&self.ledger);
            for (creator, at) in created {
                ledger.count_creation(ClientKey::of(creator), at);
            }
        }
        self.recall_waiting_games().await
    }

    /// Reads the games waiting for an opponent into the lobby and the games to expire (those
    /// known already stay as they are); returns their number.
    pub(crate) async fn recall_waiting_games(&self) -> Result<usize, StoreError> {
        let waiting = self.store.waiting_games().await?;
        let mut ledger = lock(&self.ledger);
        let mut open = lock(&self.open_games);
        for game in &waiting {
            let expires = self.limits.expiry_ms(game.created_ms, game.private);
            ledger.add_waiting(&game.id, game.creator.map(ClientKey::of), expires, false);
            if let Some(entry) = &game.lobby {
                open.insert(game.id.clone(), entry.clone());
            }
        }
        self.lobby.send_replace(Arc::new(lobby_listing(&open)));
        Ok(waiting.len())
    }

    /// Loads the games in play that must run without anyone asking: those whose clock runs,
    /// so a flag falls on time, and those with a computer seat, which may be to move. (A
    /// running clock goes on from its last stored reading when its game is loaded, so nobody
    /// is charged for the downtime.) Run once the server listens; returns the number loaded.
    pub async fn resume_playing(self: &Arc<Self>) -> Result<usize, StoreError> {
        if self.cluster().is_some() {
            // Only the games no live node runs.
            return Ok(self.take_orphans().await);
        }
        let ids = self.store.games_to_resume().await?;
        let mut resumed = 0;
        for id in ids {
            match self.handle(&id).await {
                Ok(_) => resumed += 1,
                Err(e) => tracing::warn!("cannot resume game {id}: {}", e.message),
            }
        }
        Ok(resumed)
    }

    /// The lobby: the open games, updated whenever the list changes.
    pub fn lobby(&self) -> watch::Receiver<Arc<Listing<LobbyEntry>>> {
        self.lobby.subscribe()
    }

    /// The first page of the list of games (each entry as in `/api/games`), sent again at
    /// most once a second while games change.
    pub fn games_list(&self) -> watch::Receiver<Arc<Listing<GameSummary>>> {
        self.games_list.subscribe()
    }

    /// A page of the list of public games: at most `limit` (up to [`GAMES_PAGE`]), after
    /// `after` if given.
    pub async fn list_games(
        &self,
        after: Option<&ListCursor>,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        self.store.list_games(after, limit.clamp(1, GAMES_PAGE) as i64).await
    }

    /// Number of games held in memory.
    pub fn games_in_memory(&self) -> usize {
        lock(&self.games).len()
    }

    /// Engine jobs waiting now: computer moves (and judgements) for a worker, and reviews or
    /// lines for their turn in the review queue.
    pub fn engine_jobs_waiting(&self) -> (usize, usize) {
        (self.computer.jobs_waiting(), self.reviews.waiting())
    }

    /// Number of games waiting for an opponent, in memory or not.
    pub fn games_waiting(&self) -> usize {
        lock(&self.ledger).waiting_count()
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
        if let Some(cluster) = self.cluster() {
            match cluster.claim(id).await.map_err(StoreError::from)? {
                Owner::ThisNode => {}
                Owner::Node(owner) => {
                    let handle = RemoteGame::start(self.clone(), cluster.clone(), id, owner);
                    lock(&self.games).insert(id.to_string(), handle.clone());
                    return Ok(handle);
                }
            }
        }
        let Some(mut game) = self.store.load_game(id).await? else {
            if let Some(cluster) = self.cluster() {
                cluster.release(id).await;
            }
            return Err(ApiError::not_found(id));
        };
        // A game is loaded only when no actor holds it: after a restart, once it was
        // unloaded, idle, or taken over from a node that died, so a running clock was not
        // running here in the meantime (and nobody is charged for the gap).
        game.resume_clock(now_ms());
        Ok(self.spawn(game))
    }

    /// Starts an actor for a game and registers it (before the game shows in any list, so
    /// that whoever sees it there finds it here).
    pub(crate) fn spawn(self: &Arc<Self>, game: LiveGame) -> GameHandle {
        self.spawn_attached(game, broadcast::channel(16).0, Arc::default())
    }

    /// Starts an actor for a game whose subscribers and players' connections are already
    /// counted (a game a stand-in followed, now taken over here).
    pub(crate) fn spawn_attached(
        self: &Arc<Self>,
        game: LiveGame,
        updates: broadcast::Sender<Arc<str>>,
        presence: Arc<Presence>,
    ) -> GameHandle {
        let (actor, handle, commands) = Actor::new(self.clone(), game, updates, presence);
        let game = actor.game();
        lock(&self.games).insert(game.id.clone(), handle.clone());
        self.update_lobby(game);
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

    /// Creates a game and seats its creator, within the quotas of the creator's address.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<Seated, ApiError> {
        let client = ClientKey::of(request.client);
        let waits = !matches!(request.opponent, Opponent::Computer { .. });
        let now = now_ms();
        lock(&self.ledger).admit(client, now, &self.limits, waits)?;
        let created = self.create_admitted(request, now).await;
        if created.is_err() {
            lock(&self.ledger).refund(client, now, waits);
        }
        created
    }

    async fn create_admitted(self: &Arc<Self>, request: NewGame, now: i64) -> Result<Seated, ApiError> {
        let color = request.color.unwrap_or(if now % 2 == 0 { Color::White } else { Color::Black });
        let token = new_seat_token();
        let mut seats = [Seat::human(None, None), Seat::human(None, None)];
        let name = request.account.as_ref().map(|a| a.name.clone()).or(request.name);
        seats[side(color)] = Seat::human(name, Some(hash_token(&token)));
        if let Opponent::Computer { level } = request.opponent {
            seats[side(color.opponent())] = Seat::computer(level);
        }
        let listed = request.opponent == Opponent::Open;
        let id = new_game_id();
        let mut game =
            LiveGame::new(id.clone(), AnyGame::new(request.variant), seats, request.clock, listed, now);
        let invite = (request.opponent == Opponent::Friend).then(new_invite_secret);
        game.invite_hash = invite.as_deref().map(hash_token);
        game.accounts.rated = request.rated;
        let shown = self.shown_rating(request.account.as_ref(), request.variant, request.clock).await;
        seat_account(&mut game, color, request.account.as_ref(), shown);
        if let Opponent::Computer { .. } = request.opponent {
            self.computer.admit_game(request.client, &id)?;
        }
        if let Err(e) = self.own_new(&id).await {
            self.computer.release_game(&id);
            return Err(e);
        }
        if let Err(e) = self.store.create_game(&game, Some(request.client)).await {
            self.computer.release_game(&id);
            return Err(e.into());
        }
        if game.status == Status::Waiting {
            let expires = self.limits.expiry_ms(game.created_ms, game.is_private());
            lock(&self.ledger).add_waiting(&id, Some(ClientKey::of(request.client)), expires, true);
        }
        self.spawn(game);
        self.games_list_stale.store(true, Ordering::Release);
        Ok(Seated { game: id, color, token, invite })
    }

    /// The rating an account shows beside its name in a game of `variant` on `clock` (none
    /// untimed, or when it cannot be read).
    pub(crate) async fn shown_rating(
        &self,
        account: Option<&Account>,
        variant: GameVariant,
        clock: Option<ClockSpec>,
    ) -> Option<crate::rating::Rating> {
        let (account, speed) = (account?, speed_of(clock)?);
        match self.store.rating(account.id, variant, speed).await {
            Ok(stored) => Some(stored.standing.rating_at(now_ms())),
            Err(e) => {
                tracing::warn!("reading a rating: {e}");
                None
            }
        }
    }

    /// Takes a free seat in a game (joined through its link or the lobby); a friend game needs
    /// its invitation's secret, a rated game an account.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        wanted: Option<Color>,
        name: Option<String>,
        invite: Option<&str>,
        account: Option<Account>,
    ) -> Result<Seated, ApiError> {
        let token = new_seat_token();
        let (reply, rx) = oneshot::channel();
        let invite_hash = invite.map(hash_token);
        let name = account.as_ref().map(|a| a.name.clone()).or(name);
        let request = JoinRequest { wanted, token_hash: hash_token(&token), name, invite_hash, account };
        let command = Command::Join { request, reply };
        let color = self.send(id, command, rx).await??;
        Ok(Seated { game: id.to_string(), color, token, invite: None })
    }

    /// Subscribes to a game's updates; returns them with the current state and the seat the
    /// key holds, if any, with its player counted as there while the guard lives.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        key: Option<SeatKey<'_>>,
    ) -> Result<(broadcast::Receiver<Arc<str>>, Arc<str>, Option<Color>, Option<SeatPresence>), ApiError>
    {
        let handle = self.handle(id).await?;
        let updates = handle.updates.subscribe();
        let (reply, rx) = oneshot::channel();
        let state = self.send(id, Command::Snapshot { reply }, rx).await?;
        let seat = match key {
            Some(key) => match self.seat_hash(id, key).await {
                Ok(token_hash) => {
                    let (reply, rx) = oneshot::channel();
                    self.send(id, Command::SeatOf { token_hash, reply }, rx).await?
                }
                Err(_) => None,
            },
            None => None,
        };
        // A seated player following the game is there for it (see `presence`).
        let presence = seat.map(|color| handle.presence.enter(color));
        Ok((updates, state, seat, presence))
    }

    /// The hash of the seat token that `key` stands for: the token's own, or that of the seat
    /// the account holds in the game (`not_your_seat` if it holds none).
    async fn seat_hash(self: &Arc<Self>, id: &str, key: SeatKey<'_>) -> Result<String, ApiError> {
        match key {
            SeatKey::Token(token) => Ok(hash_token(token)),
            SeatKey::Account(account) => {
                let (reply, rx) = oneshot::channel();
                self.send(id, Command::SeatOfAccount { account, reply }, rx).await?.ok_or_else(|| {
                    ApiError::new(ErrorCode::NotYourSeat, "your account holds no seat in this game")
                })
            }
        }
    }

    /// Sends the command `make` builds from the seat token hash that `key` stands for, and
    /// waits for the actor's answer.
    async fn seat_command<T>(
        self: &Arc<Self>,
        id: &str,
        key: SeatKey<'_>,
        make: impl FnOnce(String, Reply<T>) -> Command,
    ) -> Result<T, ApiError> {
        let token_hash = self.seat_hash(id, key).await?;
        let (reply, rx) = oneshot::channel();
        self.send(id, make(token_hash, reply), rx).await?
    }

    /// Plays a move for the seat `key` holds. Returns the new ply count once committed.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        key: SeatKey<'_>,
        request: MoveRequest,
        ply: Option<u32>,
    ) -> Result<u32, ApiError> {
        self.seat_command(id, key, |token_hash, reply| Command::Move { token_hash, request, ply, reply })
            .await
    }

    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        key: SeatKey<'_>,
        action: DrawAction,
    ) -> Result<(), ApiError> {
        self.seat_command(id, key, |token_hash, reply| Command::Draw { token_hash, action, reply }).await
    }

    pub async fn resign(self: &Arc<Self>, id: &str, key: SeatKey<'_>) -> Result<(), ApiError> {
        self.seat_command(id, key, |token_hash, reply| Command::Resign { token_hash, reply }).await
    }

    /// Invokes a rule of the site's for the seat `key` holds (see `SiteRule`).
    pub async fn site_rule(
        self: &Arc<Self>,
        id: &str,
        key: SeatKey<'_>,
        rule: SiteRule,
    ) -> Result<(), ApiError> {
        self.seat_command(id, key, |token_hash, reply| Command::Rule { token_hash, rule, reply }).await
    }

    /// Asks for a rematch for the client at `client`; returns the new game's id once both
    /// sides agreed. The new game counts as one created by `client`.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        seat: SeatKey<'_>,
        client: IpAddr,
    ) -> Result<Option<String>, ApiError> {
        let token_hash = self.seat_hash(id, seat).await?;
        let key = ClientKey::of(client);
        let now = now_ms();
        lock(&self.ledger).admit(key, now, &self.limits, false)?;
        let (reply, rx) = oneshot::channel();
        let asked = self.send(id, Command::Rematch { token_hash, client, reply }, rx).await;
        let asked = asked.and_then(|answer| answer);
        if !matches!(asked, Ok(Some(_))) {
            lock(&self.ledger).refund(key, now, false);
        }
        asked
    }

    /// Whether there is a game `id`, in memory or stored (the game page answers 404 without).
    pub async fn exists(self: &Arc<Self>, id: &str) -> Result<bool, ApiError> {
        match self.handle(id).await {
            Ok(_) => Ok(true),
            Err(e) if e.code == ErrorCode::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The game as PDN.
    pub async fn pdn(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let (reply, rx) = oneshot::channel();
        Ok(self.send(id, Command::Pdn { reply }, rx).await?.text())
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
        Ok(record.text())
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

    /// The analysis board's answer for the position a request's `body` gives (see
    /// `analysis`), queued with the reviews.
    pub async fn analyse(self: &Arc<Self>, body: &str, client: IpAddr) -> Result<Arc<str>, ApiError> {
        let position = crate::analysis::requested_position(body)?;
        self.reviews.analyse(position, client).await
    }

    /// A finished game's record, for the engine to look at. Refused with `refusal` while the
    /// game is on: a player could otherwise ask the engine mid-game.
    async fn finished_record(self: &Arc<Self>, id: &str, refusal: &str) -> Result<AnyGame, ApiError> {
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

    /// Takes note of a change to a game: the lobby, the games waiting, the list of games.
    pub(crate) fn game_changed(&self, game: &LiveGame) {
        let mut lobby_changed = self.update_lobby(game);
        if game.status != Status::Waiting {
            lobby_changed |= lock(&self.ledger).remove_waiting(&game.id);
        }
        if let (Some(cluster), true) = (self.cluster(), lobby_changed) {
            let entry = lock(&self.open_games).get(&game.id).map(LobbyWire::of);
            let waiting = game.status == Status::Waiting;
            cluster.broadcast(&Notice::Lobby { game: game.id.clone(), entry, waiting });
        }
        self.games_list_stale.store(true, Ordering::Release);
        self.announce_list.store(true, Ordering::Release);
    }

    /// Lists the game in the lobby while it waits for an opponent (if it is open), and pushes
    /// the lobby again if that changed it (and says so).
    fn update_lobby(&self, game: &LiveGame) -> bool {
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
            self.lobby.send_replace(Arc::new(lobby_listing(&open)));
        }
        changed
    }

    /// Forgets a game its actor has let go of (it stays in the lobby and the list of games).
    pub(crate) fn unload(&self, id: &str) {
        let mut games = lock(&self.games);
        if games.get(id).is_some_and(|h| !h.remote) {
            games.remove(id);
        }
    }

    /// Deletes the waiting games whose time is up, a batch at a time. Stops at the first
    /// batch the database refuses; the next sweep tries again.
    async fn expire_due(self: &Arc<Self>) {
        loop {
            let due = lock(&self.ledger).expired(now_ms(), EXPIRY_BATCH);
            if due.is_empty() {
                return;
            }
            if !self.expire(due).await {
                return;
            }
        }
    }

    /// Deletes the games `ids` if they still wait for an opponent, and forgets them. A game in
    /// memory is deleted by its actor, in turn with any join it was sent before; the others
    /// here, while no game can be loaded. Returns whether every one was dealt with.
    async fn expire(self: &Arc<Self>, ids: Vec<String>) -> bool {
        let _loading = self.loading.lock().await;
        let (mut loaded, mut stored) = (Vec::new(), Vec::new());
        for id in ids {
            match lock(&self.games).get(&id).cloned() {
                Some(handle) => loaded.push((id, handle)),
                None => stored.push(id),
            }
        }
        let asked = loaded.into_iter().map(|(id, handle)| async move {
            let (reply, rx) = oneshot::channel();
            if handle.commands.send(Command::Expire { reply }).await.is_err() {
                // The actor has just let the game go: it is deleted from the database here.
                return (id, None);
            }
            (id, rx.await.ok())
        });
        let (mut done, mut complete) = (Vec::new(), true);
        for (id, answer) in futures_util::future::join_all(asked).await {
            match answer {
                None => stored.push(id),
                Some(Ok(deleted)) => {
                    // Its actor has stopped; a game no longer waiting is no longer to expire.
                    if deleted {
                        lock(&self.games).remove(&id);
                    }
                    done.push(id);
                }
                Some(Err(_)) => complete = false,
            }
        }
        match self.store.delete_waiting_games(&stored).await {
            Ok(()) => done.extend(stored),
            Err(e) => {
                tracing::warn!("cannot delete games nobody joined: {e}");
                complete = false;
            }
        }
        self.forget_expired(&done);
        complete
    }

    /// Ends the games in play where no clock runs that have gone unplayed for
    /// [`GameLimits::unplayed_end`], a batch at a time, loading each (its actor decides).
    /// Stops at the first error; the next sweep tries again.
    async fn end_unplayed_due(self: &Arc<Self>) {
        loop {
            let cutoff = now_ms().saturating_sub(self.limits.unplayed_end_ms());
            let due = match self.store.unplayed_games(cutoff, EXPIRY_BATCH as i64).await {
                Ok(due) => due,
                Err(e) => {
                    tracing::warn!("cannot read the games unplayed for long: {e}");
                    return;
                }
            };
            let (batch, mut ended) = (due.len(), 0);
            for id in due {
                let (reply, rx) = oneshot::channel();
                match self.send(&id, Command::EndUnplayed { reply }, rx).await.and_then(|ended| ended) {
                    Ok(true) => ended += 1,
                    // The computer is to move in it: it is not waited for.
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!("cannot end game {id}, unplayed for long: {}", e.message);
                        return;
                    }
                }
            }
            // Another batch only when this one was full and all of it ended (else the same
            // games would come back).
            if batch < EXPIRY_BATCH || ended < batch {
                return;
            }
        }
    }

    /// Forgets games deleted (or no longer waiting) everywhere they were followed.
    fn forget_expired(&self, ids: &[String]) {
        if ids.is_empty() {
            return;
        }
        let mut ledger = lock(&self.ledger);
        let mut open = lock(&self.open_games);
        let mut lobby_changed = false;
        for id in ids {
            ledger.remove_waiting(id);
            lobby_changed |= open.remove(id).is_some();
            if let Some(cluster) = self.cluster() {
                cluster.broadcast(&Notice::Lobby { game: id.clone(), entry: None, waiting: false });
            }
        }
        if lobby_changed {
            self.lobby.send_replace(Arc::new(lobby_listing(&open)));
        }
        self.games_list_stale.store(true, Ordering::Release);
    }
}

/// The lobby as sent: the newest open games, at most [`LOBBY_LEN`].
fn lobby_listing(open: &HashMap<String, LobbyEntry>) -> Listing<LobbyEntry> {
    let mut games: Vec<&LobbyEntry> = open.values().collect();
    let newest_first =
        |a: &&LobbyEntry, b: &&LobbyEntry| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id));
    if games.len() > LOBBY_LEN {
        games.select_nth_unstable_by(LOBBY_LEN, newest_first);
        games.truncate(LOBBY_LEN);
    }
    games.sort_by(newest_first);
    Listing::new(games.into_iter().cloned().collect())
}

/// Sends the first page of the list of games again whenever a game changed, at most once per
/// [`GAMES_LIST_PERIOD`], reading it from the database's index; ends with the registry.
async fn refresh_games_list(registry: Weak<Registry>) {
    let mut tick = tokio::time::interval(GAMES_LIST_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(registry) = registry.upgrade() else { break };
        if registry.announce_list.swap(false, Ordering::AcqRel) {
            if let Some(cluster) = registry.cluster() {
                cluster.broadcast(&Notice::GamesChanged { node: cluster.node().to_string() });
            }
        }
        if registry.games_list_stale.swap(false, Ordering::AcqRel) {
            match registry.list_games(None, GAMES_PAGE).await {
                Ok(games) => {
                    registry.games_list.send_replace(Arc::new(Listing::new(games)));
                }
                Err(e) => {
                    tracing::warn!("reading the list of games: {e}");
                    registry.games_list_stale.store(true, Ordering::Release);
                }
            }
        }
    }
}

/// Deletes the games nobody joined in time and ends those unplayed for long, looking every
/// `period`, and gives back the memory of games gone once many have left; ends with the
/// registry.
async fn expire_waiting_games(registry: Weak<Registry>, period: Duration) {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The most games held in memory since memory was last given back.
    let mut most_held = 0;
    loop {
        tick.tick().await;
        let Some(registry) = registry.upgrade() else { break };
        registry.expire_due().await;
        registry.end_unplayed_due().await;
        lock(&registry.ledger).prune(now_ms());
        let held = registry.games_in_memory();
        most_held = most_held.max(held);
        if most_held >= held + RELEASE_AFTER && held <= most_held / 2 {
            shrink(&mut lock(&registry.games));
            shrink(&mut lock(&registry.open_games));
            lock(&registry.ledger).shrink();
            let _ = tokio::task::spawn_blocking(release_freed_memory).await;
            most_held = held;
        }
    }
}
