//! A game's actor: one task per game in memory, owning its [`LiveGame`] and handling one
//! command at a time, so the moves of a game are strictly ordered.
//!
//! A change is made on a copy, committed to the database, and only then kept and pushed to
//! every subscriber: a client never hears of a move that a crash could lose. The actor also
//! runs the game's clock (waking when the side to move would run out), asks the computer
//! pool for moves when the computer is to play (charging its clock for its search only),
//! answers draw offers to the computer from what it already thought where it can, keeps track
//! of which players are there (for claims against one who left), unloads its game once idle
//! (nobody watches, no clock runs, the computer is not to move), and deletes it if nobody
//! joined it in time.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use checkers_engine::DrawAnswer;
use checkers_rules::Color;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::computer::{Judgements, ThinkClock, Thought};
use crate::error::ApiError;
use crate::live::{side, LiveGame, MoveRequest, PlayerKind, Refusal, Status};
use crate::pairing::AccountId;
use crate::pdn::game_record;
use crate::presence::{Absences, Presence};
use crate::protocol::{state_text, DrawAction, ServerMessage, TakebackAction};
use crate::rated::{check_join, seat_account, Account};
use crate::registry::Registry;
use crate::rules::{AnyGame, AnyMove, GameRecord};
use crate::store::now_ms;
use crate::token::new_game_id;

/// Where an actor answers a command.
pub type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// What a game's actor is asked to do.
pub enum Command {
    // The game's `state` message as of now.
    Snapshot { reply: oneshot::Sender<Arc<str>> },
    SeatOf { token_hash: String, reply: oneshot::Sender<Option<Color>> },
    // The seat token hash of the seat an account holds, which authorises it as the token would.
    SeatOfAccount { account: AccountId, reply: oneshot::Sender<Option<String>> },
    Join { request: JoinRequest, reply: Reply<Color> },
    Move { token_hash: String, request: MoveRequest, ply: Option<u32>, reply: Reply<u32> },
    Draw { token_hash: String, action: DrawAction, reply: Reply<()> },
    Resign { token_hash: String, reply: Reply<()> },
    // A rule of the site's that a player invokes (see `SiteRule`).
    Rule { token_hash: String, rule: SiteRule, reply: Reply<()> },
    // `client`: the address asking, whose game a rematch against the computer counts as.
    Rematch { token_hash: String, client: IpAddr, reply: Reply<Option<String>> },
    Pdn { reply: oneshot::Sender<GameRecord> },
    // The game's moves so far, and whether it is over.
    Record { reply: oneshot::Sender<(AnyGame, bool)> },
    // Nobody joined in time: deletes the game if it still waits (answers whether it did) and
    // stops the actor.
    Expire { reply: Reply<bool> },
    // Ends the game if it has gone unplayed for too long (see `LiveGame::end_if_unplayed`);
    // answers whether it did.
    EndUnplayed { reply: Reply<bool> },
    // Another node follows the game, its players' connections there being `connected`
    // (White's, Black's); `None`: it follows no more.
    Follow { node: String, connected: Option<[bool; 2]> },
}

/// A request for a free seat: the seat wanted, the new seat token's hash, the player's name,
/// the hash of the invitation's secret given, if any (a friend game needs it), and the
/// player's account, if logged in (a rated game needs one).
pub struct JoinRequest {
    pub wanted: Option<Color>,
    pub token_hash: String,
    pub name: Option<String>,
    pub invite_hash: Option<String>,
    pub account: Option<Account>,
}

/// What a player asks of the site's rules of play (see `docs/protocol.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteRule {
    /// Ends the game with no result, before both sides have moved.
    Abort,
    /// Claims a timed game the opponent has left: a win, or a draw if `draw`.
    Claim { draw: bool },
    /// Asks to take back one's last move, or answers the opponent's request.
    Takeback(TakebackAction),
}

/// How to reach a game's actor: its commands, and the states it pushes.
#[derive(Clone)]
pub struct GameHandle {
    pub commands: mpsc::Sender<Command>,
    pub updates: broadcast::Sender<Arc<str>>,
    /// The seated players' connections following the game.
    pub presence: Arc<Presence>,
    /// A stand-in for a game another node runs (see `cluster`), not an actor.
    pub remote: bool,
}

/// Sleeps until a wall-clock time (ms since the epoch); never wakes for `None`.
async fn sleep_until_ms(deadline: Option<i64>) {
    match deadline {
        Some(at) => tokio::time::sleep(Duration::from_millis((at - now_ms()).max(0) as u64)).await,
        None => std::future::pending().await,
    }
}

/// The computer's move once its search ends; never wakes when no search runs.
async fn wait_for_move(think: &mut Option<(u32, oneshot::Receiver<Thought>)>) -> Option<Thought> {
    match think.as_mut() {
        Some((_, rx)) => rx.await.ok(),
        None => std::future::pending().await,
    }
}

/// The task that owns a game in memory.
pub struct Actor {
    registry: Arc<Registry>,
    game: LiveGame,
    updates: broadcast::Sender<Arc<str>>,
    /// A computer search in flight: the ply it is for and where its move will arrive.
    think: Option<(u32, oneshot::Receiver<Thought>)>,
    /// What the computer thought of the latest positions, for answering draw offers.
    judgements: Judgements,
    /// The game has been deleted (it expired): the actor stops.
    deleted: bool,
    presence: Arc<Presence>,
    absences: Absences,
    /// The other nodes following the game, with their players' connections (see `cluster`).
    followers: HashMap<String, [bool; 2]>,
}

impl Actor {
    /// An actor for `game`, not yet running, with the handle that reaches it and the queue
    /// its commands arrive on.
    pub fn new(
        registry: Arc<Registry>,
        game: LiveGame,
        updates: broadcast::Sender<Arc<str>>,
        presence: Arc<Presence>,
    ) -> (Actor, GameHandle, mpsc::Receiver<Command>) {
        let (commands, receiver) = mpsc::channel(64);
        let handle =
            GameHandle { commands, updates: updates.clone(), presence: presence.clone(), remote: false };
        // Nobody follows the game yet: both players are away from the start.
        let now = now_ms();
        let actor = Actor {
            registry,
            game,
            updates,
            think: None,
            judgements: Judgements::default(),
            deleted: false,
            presence,
            absences: Absences::since(now),
            followers: HashMap::new(),
        };
        (actor, handle, receiver)
    }

    pub fn game(&self) -> &LiveGame {
        &self.game
    }

    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        self.start_thinking();
        let mut idle_since = tokio::time::Instant::now();
        let idle_unload = self.registry.limits.idle_unload;
        let mut fence = self.registry.fence.subscribe();
        // Players connected here since before it was taken over are counted at once.
        self.presence_changed();
        loop {
            let deadline = self.game.flag_deadline_ms();
            tokio::select! {
                command = commands.recv() => {
                    let Some(command) = command else { break };
                    idle_since = tokio::time::Instant::now();
                    self.handle(command).await;
                    if self.deleted {
                        break;
                    }
                }
                _ = sleep_until_ms(deadline) => self.flag_fall().await,
                _ = self.presence.changed() => self.presence_changed(),
                _ = sleep_until_ms(self.next_gone_ms()) => self.update_gone(),
                thought = wait_for_move(&mut self.think) => {
                    let ply = self.think.take().map(|(ply, _)| ply);
                    self.computer_move(ply, thought).await;
                }
                _ = tokio::time::sleep_until(idle_since + idle_unload) => {
                    if self.may_unload() {
                        self.registry.unload(&self.game.id);
                        if let Some(cluster) = self.registry.cluster() {
                            cluster.release(&self.game.id).await;
                        }
                        break;
                    }
                    idle_since = tokio::time::Instant::now();
                }
                // This node may run the game no more: another does, or will.
                _ = fence.changed() => break,
            }
        }
        self.registry.computer.release_game(&self.game.id);
    }

    /// Whether the game may leave memory: nobody follows it and nothing runs in it (no
    /// clock, no computer to move). It is loaded again when asked for.
    fn may_unload(&self) -> bool {
        self.updates.receiver_count() == 0
            && self.followers.is_empty()
            && self.think.is_none()
            && self.game.flag_deadline_ms().is_none()
            && self.game.computer_to_move().is_none()
    }

    /// Takes note of the players' connections coming and going.
    fn presence_changed(&mut self) {
        let mut connected = self.presence.connected();
        for there in self.followers.values() {
            connected = [connected[0] || there[0], connected[1] || there[1]];
        }
        self.absences.update(connected, now_ms());
        self.update_gone();
    }

    /// The player gone long enough to be claimed against at `now_ms`, if any.
    fn gone_at(&self, now_ms: i64) -> Option<Color> {
        let claim_after = self.registry.limits.claim_after_ms();
        self.absences.gone(now_ms, claim_after, |color| self.game.claimable_against(color))
    }

    /// When a player away now will have been gone long enough to be claimed against.
    fn next_gone_ms(&self) -> Option<i64> {
        if self.game.gone.is_some() {
            return None;
        }
        let claim_after = self.registry.limits.claim_after_ms();
        self.absences.next_gone_ms(claim_after, |color| self.game.claimable_against(color))
    }

    /// Tells everyone following the game when a player is gone long enough to be claimed
    /// against, and when they are back.
    fn update_gone(&mut self) {
        let gone = self.gone_at(now_ms());
        if gone != self.game.gone {
            self.game.gone = gone;
            self.publish();
        }
    }

    fn publish(&mut self) {
        // Before anyone hears the game is over, so its player may start another at once.
        if self.game.status == Status::Finished {
            self.registry.computer.release_game(&self.game.id);
        }
        let text: Arc<str> = Arc::from(state_text(&self.game, now_ms()));
        if let Some(cluster) = self.registry.cluster() {
            for node in self.followers.keys() {
                cluster.send_state(node, &self.game.id, &text);
            }
        }
        let _ = self.updates.send(text);
        self.registry.game_changed(&self.game);
        self.start_thinking();
    }

    fn start_thinking(&mut self) {
        let Some(level) = self.game.computer_to_move() else {
            // A search for a game that moved on is dropped (skipped if it has not begun).
            self.think = None;
            return;
        };
        let ply = self.game.ply();
        if self.think.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        let turn = side(self.game.turn());
        // Its time left as of its turn's start: the wait for an engine is not charged.
        let clock = self
            .game
            .clock
            .map(|c| ThinkClock { remaining_ms: self.game.remaining_ms[turn], increment_ms: c.increment_ms });
        let (mut tx, rx) = oneshot::channel();
        let pool = self.registry.computer.clone();
        let (id, game) = (self.game.id.clone(), self.game.game.clone());
        // Varied between games, repeatable within one.
        let seed =
            self.game.id.bytes().fold(u64::from(ply), |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        tokio::spawn(async move {
            let thought = tokio::select! {
                thought = pool.think(&id, game, level, clock, seed) => thought,
                // The game moved on (a resignation, say): the search is dropped, or stopped.
                _ = tx.closed() => return,
            };
            let _ = tx.send(thought);
        });
        self.think = Some((ply, rx));
    }

    async fn flag_fall(&mut self) {
        let mut next = self.game.clone();
        if next.check_flag(now_ms()) {
            match self.registry.store.save_game(&next).await {
                Ok(()) => {
                    self.game = next;
                    self.publish();
                }
                // Try again shortly: the deadline is still in the past.
                Err(e) => {
                    tracing::warn!("cannot save loss on time in {}: {e}", self.game.id);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    async fn computer_move(&mut self, ply: Option<u32>, thought: Option<Thought>) {
        if ply != Some(self.game.ply()) || self.game.computer_to_move().is_none() {
            return;
        }
        let took_ms = thought.as_ref().map_or(0, |t| t.took.as_millis() as i64);
        let choice =
            thought.and_then(|t| t.choice).filter(|c| self.game.game.legal_move(c.mv.hub()).is_some());
        let score = choice.as_ref().and_then(|c| c.score);
        let any_legal = || self.game.game.legal().into_iter().next().map(|info| info.mv);
        let Some(mv) = choice.map(|c| c.mv).or_else(any_legal) else {
            return;
        };
        let mover = self.game.turn();
        match self.commit_move(mover, mv, Some(took_ms)).await {
            // Its own score of the position its move made answers a draw offer there.
            Ok(_) => {
                if let Some(score) = score {
                    self.judgements.keep(self.game.game.fen(), score);
                }
            }
            Err(e) => {
                tracing::warn!("computer move in {} failed: {}", self.game.id, e.message);
                // Think again after a pause rather than spin on a failing database.
                tokio::time::sleep(Duration::from_millis(200)).await;
                self.start_thinking();
            }
        }
    }

    /// Plays, commits, keeps and publishes a move (the computer's after a search of
    /// `computer_ms`, charged to its clock instead of the time its turn took). On any error
    /// the game is unchanged.
    async fn commit_move(
        &mut self,
        mover: Color,
        mv: AnyMove,
        computer_ms: Option<i64>,
    ) -> Result<u32, ApiError> {
        let now = now_ms();
        let mut next = self.game.clone();
        if next.check_flag(now) {
            self.registry.store.save_game(&next).await?;
            self.game = next;
            self.publish();
            return Err(Refusal::GameOver.into());
        }
        let record = match computer_ms {
            Some(thought) => next.play_computer(mv, now, thought)?,
            None => next.play(mover, mv, now)?,
        };
        self.registry.store.record_move(&next, &record).await?;
        crate::metrics::METRICS.moves.inc();
        self.game = next;
        self.publish();
        Ok(self.game.ply())
    }

    /// Commits a change that touches only the game's row (draw, resignation).
    async fn commit_row(&mut self, next: LiveGame) -> Result<(), ApiError> {
        self.registry.store.save_game(&next).await?;
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
                let _ = reply.send(Arc::from(state_text(&self.game, now_ms())));
            }
            Command::SeatOf { token_hash, reply } => {
                let _ = reply.send(self.game.seat_of(&token_hash));
            }
            Command::SeatOfAccount { account, reply } => {
                let seat = self.game.accounts.seats.iter().position(|&a| a == Some(account));
                let _ = reply.send(seat.and_then(|i| self.game.seats[i].token_hash.clone()));
            }
            Command::Pdn { reply } => {
                let _ = reply.send(game_record(&self.game));
            }
            Command::Record { reply } => {
                let _ = reply.send((self.game.game.clone(), self.game.status == Status::Finished));
            }
            Command::Join { request, reply } => {
                let result = self.join(request).await;
                let _ = reply.send(result);
            }
            Command::Expire { reply } => {
                let result = self.expire().await;
                let _ = reply.send(result);
            }
            Command::EndUnplayed { reply } => {
                let mut next = self.game.clone();
                let result = if next.end_if_unplayed(now_ms(), self.registry.limits.unplayed_end_ms()) {
                    self.commit_row(next).await.map(|()| true)
                } else {
                    Ok(false)
                };
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
            Command::Rule { token_hash, rule, reply } => {
                let result = self.site_rule(&token_hash, rule).await;
                let _ = reply.send(result);
            }
            Command::Rematch { token_hash, client, reply } => {
                let result = self.rematch(&token_hash, client).await;
                let _ = reply.send(result);
            }
            Command::Follow { node, connected } => {
                match connected {
                    Some(connected) => self.followers.insert(node, connected),
                    None => self.followers.remove(&node),
                };
                self.presence_changed();
            }
        }
    }

    async fn join(&mut self, request: JoinRequest) -> Result<Color, ApiError> {
        let JoinRequest { wanted, token_hash, name, invite_hash, account } = request;
        if self.game.invite_hash.is_some() && invite_hash != self.game.invite_hash {
            return Err(ApiError::not_invited());
        }
        if let Some(color) = self.game.seat_of(&token_hash) {
            return Ok(color);
        }
        check_join(&self.game, account.as_ref())?;
        let shown =
            self.registry.shown_rating(account.as_ref(), self.game.game.variant(), self.game.clock).await;
        let mut next = self.game.clone();
        let color = next.join(wanted, token_hash, name, now_ms())?;
        seat_account(&mut next, color, account.as_ref(), shown);
        self.registry.store.save_seat(&next, color).await?;
        self.game = next;
        self.publish();
        Ok(color)
    }

    /// Deletes the game if it still waits for an opponent, and tells whoever watches it.
    async fn expire(&mut self) -> Result<bool, ApiError> {
        if self.game.status != Status::Waiting {
            return Ok(false);
        }
        self.registry.store.delete_waiting_games(std::slice::from_ref(&self.game.id)).await?;
        let notice = ServerMessage::error(&serde_json::Value::Null, &ApiError::expired()).to_text();
        let _ = self.updates.send(Arc::from(notice));
        self.deleted = true;
        Ok(true)
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
        let turn = self.game.turn();
        if turn != color {
            return Err(Refusal::NotYourTurn(turn.name()).into());
        }
        let mv = self.game.resolve_move(request)?;
        self.commit_move(color, mv, None).await
    }

    async fn draw(&mut self, token_hash: &str, action: DrawAction) -> Result<(), ApiError> {
        let color = self.seat(token_hash)?;
        let now = now_ms();
        let mut next = self.game.clone();
        match action {
            DrawAction::Offer => {
                if let PlayerKind::Computer { .. } = next.seats[side(color.opponent())].kind {
                    next.offer_draw(color, now)?;
                    // The computer answers at once, by its own judgement of the position.
                    if !self.computer_accepts_draw(color.opponent()).await {
                        return Err(ApiError::draw_declined());
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

    /// Whether the computer, playing `side`, accepts a draw now: judged from its own score of
    /// the position when it has one (its move's search made it, or an earlier offer's
    /// judgement), else from a short search, kept for the next offer.
    async fn computer_accepts_draw(&mut self, side: Color) -> bool {
        let position = self.game.game.fen();
        let score = match self.judgements.get(&position) {
            Some(score) => score,
            None => {
                let judged = self.registry.computer.judge(&self.game.id, self.game.game.clone(), side).await;
                let Some(score) = judged else { return false };
                self.judgements.keep(position, score);
                score
            }
        };
        self.game.game.draw_answer(score) == DrawAnswer::Accept
    }

    async fn site_rule(&mut self, token_hash: &str, rule: SiteRule) -> Result<(), ApiError> {
        let color = self.seat(token_hash)?;
        let mut next = self.game.clone();
        match rule {
            SiteRule::Abort => next.abort()?,
            SiteRule::Claim { draw } => {
                next.gone = self.gone_at(now_ms());
                next.claim(color, draw, now_ms())?;
            }
            SiteRule::Takeback(action) => {
                match action {
                    TakebackAction::Offer => next.ask_takeback(color, now_ms()).map(drop)?,
                    TakebackAction::Accept => next.answer_takeback(color, true, now_ms())?,
                    TakebackAction::Decline => next.answer_takeback(color, false, now_ms())?,
                }
                if next.ply() < self.game.ply() {
                    self.registry.store.take_back(&next).await?;
                    self.game = next;
                    self.publish();
                    return Ok(());
                }
            }
        }
        self.commit_row(next).await
    }

    async fn rematch(&mut self, token_hash: &str, client: IpAddr) -> Result<Option<String>, ApiError> {
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
                // A rematch against the computer is a new game against it for the asker.
                let computer = new_game.seats.iter().any(|s| matches!(s.kind, PlayerKind::Computer { .. }));
                if computer {
                    self.registry.computer.admit_game(client, &new_game.id)?;
                }
                if let Err(e) = self.registry.own_new(&new_game.id).await {
                    self.registry.computer.release_game(&new_game.id);
                    return Err(e);
                }
                if let Err(e) = self.registry.store.create_rematch(&next, &new_game).await {
                    self.registry.computer.release_game(&new_game.id);
                    return Err(e.into());
                }
                let new_id = new_game.id.clone();
                self.registry.spawn(new_game);
                self.game = next;
                self.publish();
                Ok(Some(new_id))
            }
        }
    }
}
