//! A game on the server: the rules state, the seats, the clocks and the offers between the
//! players. Pure logic with no I/O, so every rule of play is testable without sockets.
//!
//! The game's actor changes a game by cloning it, changing the clone, committing the change
//! to the database and only then keeping the clone; a refused or failed change leaves the game
//! as it was.

use checkers_engine::Level;
use checkers_rules::Color;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rules::{AnyGame, AnyMove, Declared, End};

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A seat is still empty.
    Waiting,
    Playing,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "waiting" => Some(Status::Waiting),
            "playing" => Some(Status::Playing),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// Who sits on a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Human,
    Computer { level: u8 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub kind: PlayerKind,
    pub name: Option<String>,
    /// SHA-256 of the seat token; `None` while a human seat is empty.
    pub token_hash: Option<String>,
}

impl Seat {
    pub fn human(name: Option<String>, token_hash: Option<String>) -> Seat {
        Seat { kind: PlayerKind::Human, name, token_hash }
    }
    pub fn computer(level: u8) -> Seat {
        Seat {
            kind: PlayerKind::Computer { level },
            name: Some(format!("Computer (level {level})")),
            token_hash: None,
        }
    }
    pub fn is_taken(&self) -> bool {
        matches!(self.kind, PlayerKind::Computer { .. }) || self.token_hash.is_some()
    }
}

/// A Fischer clock: each side starts with `base_ms` and gains `increment_ms` per move. As on
/// lichess, no clock runs until both sides have made their first move: those two moves cost no
/// time and gain no increment, and the first mover's clock starts with the second move of the
/// game (see [`LiveGame::both_moved`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockSpec {
    pub base_ms: i64,
    pub increment_ms: i64,
}

/// The most a clock may start with (3 hours) and gain per move (3 minutes).
pub const MAX_BASE_MS: i64 = 3 * 3600 * 1000;
pub const MAX_INCREMENT_MS: i64 = 180 * 1000;

/// Why a request was refused. The game is unchanged whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refusal {
    #[error("the game is over")]
    GameOver,
    #[error("the game has not started: a seat is still empty")]
    NotStarted,
    #[error("it is {0}'s turn")]
    NotYourTurn(&'static str),
    #[error("{0}")]
    IllegalMove(String),
    #[error("the move was for ply {expected}, but the game is at ply {actual}")]
    StalePly { expected: u32, actual: u32 },
    #[error("no seat is free in this game")]
    NoFreeSeat,
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("a rematch can be asked for only once the game is over")]
    RematchTooEarly,
    #[error("the rematch has already been arranged")]
    RematchArranged,
    #[error("only a player seated in the game can ask for a rematch")]
    RematchNotHuman,
    #[error("both sides have moved: the game can no longer be aborted")]
    TooLateToAbort,
    #[error("only a timed game whose opponent has left it, after both sides have moved, can be claimed")]
    NothingToClaim,
    #[error("{0}")]
    Takeback(&'static str),
}

/// Why a stored move cannot be replayed: the stored game is not one the rules allow.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error("stored move {text} (ply {ply}) is not legal")]
    NotLegal { ply: u32, text: String },
    /// The rules refused the move (the game was already over).
    #[error("stored move {text} (ply {ply}) cannot be played: {refusal}")]
    Refused { ply: u32, text: String, refusal: String },
}

/// A move as a client names it: text, or squares.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct MoveRequest {
    pub text: Option<String>,
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub captured: Option<Vec<u32>>,
}

/// What a played move adds to the record: enough to replay it and to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Index of the move in the game, 0 for the first.
    pub ply: u32,
    /// Hub form (`from-to` or `fromxtoxcaptured...`): names the move uniquely for replay.
    pub hub: String,
    /// PDN long form, as shown to people.
    pub pdn: String,
    pub fen_after: String,
    pub white_ms: i64,
    pub black_ms: i64,
    pub played_ms: i64,
}

/// Index of a colour in two-element arrays: White 0, Black 1.
pub fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub fn parse_color(text: &str) -> Option<Color> {
    match text {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The stable code of a game end's reason, as stored and sent to clients.
pub fn reason_code(end: &End) -> &'static str {
    end.reason
}

/// What the computer's clock is charged for a move beyond its search: handing the move over
/// and committing it.
pub const COMPUTER_MOVE_OVERHEAD_MS: i64 = 10;

/// The reason code of a game its opponent claimed after a player left it.
pub const ABANDONED: &str = "abandoned";

/// The reason code of a game that ended before it began: its creator withdrew it, or a player
/// aborted it before both sides had moved. Stored as the game's `reason`, with result `*`.
pub const ABORTED: &str = "aborted";

#[derive(Clone, Debug)]
pub struct LiveGame {
    pub id: String,
    /// The game by the rules of its variant.
    pub game: AnyGame,
    /// PDN long form of each move played, in order, as the variant writes it
    /// ([`crate::pdn::move_text`]).
    pub pdn_moves: Vec<String>,
    /// White's seat, then Black's.
    pub seats: [Seat; 2],
    /// Shown in the lobby while waiting for an opponent (otherwise joined by link only).
    pub listed: bool,
    /// A friend game's: SHA-256 of its invitation's secret, without which nobody may join it.
    /// A game with one is private (never in a list of games), and so is its rematch.
    pub invite_hash: Option<String>,
    pub clock: Option<ClockSpec>,
    /// Time left, White then Black, as of `turn_started_ms`.
    pub remaining_ms: [i64; 2],
    /// When the side to move's clock started running; `None` while it is stopped (always
    /// before both sides have made their first move).
    pub turn_started_ms: Option<i64>,
    /// When the side to move's turn began, clock or no clock: when the game began, or the
    /// last move was played. `None` before the game begins.
    pub turn_began_ms: Option<i64>,
    pub status: Status,
    /// Withdrawn before anyone joined, or aborted by a player before both sides had moved (no
    /// winner, no rules outcome, never rated).
    pub aborted: bool,
    pub draw_offer: Option<Color>,
    /// A player gone from the game long enough for the opponent to claim it (see
    /// [`LiveGame::claim`]): kept up to date by the game's actor, which knows who is
    /// connected; never stored.
    pub gone: Option<Color>,
    /// The player who left the game, when the opponent claimed it (a win, or a draw).
    pub abandoned_by: Option<Color>,
    /// The colour whose takeback request stands (see [`LiveGame::ask_takeback`]).
    pub takeback_offer: Option<Color>,
    pub rematch_offers: [bool; 2],
    pub rematch_game: Option<String>,
    pub rematch_of: Option<String>,
    pub created_ms: i64,
    /// The accounts at the board, whether the game is rated, and its rating change.
    pub accounts: crate::rated::GameAccounts,
}

impl LiveGame {
    /// A new game from `start` (a position, or a game without moves), waiting for its empty
    /// seats (if any).
    pub fn new(
        id: String,
        start: impl Into<AnyGame>,
        seats: [Seat; 2],
        clock: Option<ClockSpec>,
        listed: bool,
        now_ms: i64,
    ) -> LiveGame {
        let base = clock.map_or(0, |c| c.base_ms);
        let mut game = LiveGame {
            id,
            game: start.into(),
            pdn_moves: Vec::new(),
            seats,
            listed,
            invite_hash: None,
            clock,
            remaining_ms: [base, base],
            turn_started_ms: None,
            turn_began_ms: None,
            status: Status::Waiting,
            aborted: false,
            draw_offer: None,
            gone: None,
            abandoned_by: None,
            takeback_offer: None,
            rematch_offers: [false, false],
            rematch_game: None,
            rematch_of: None,
            created_ms: now_ms,
            accounts: crate::rated::GameAccounts::default(),
        };
        game.start_if_seated(now_ms);
        game
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.turn()
    }
    pub fn ply(&self) -> u32 {
        self.game.plies() as u32
    }
    pub fn outcome(&self) -> Option<End> {
        self.game.outcome()
    }

    /// The seat whose token hashes to `token_hash`.
    pub fn seat_of(&self, token_hash: &str) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.seats[side(c)].token_hash.as_deref() == Some(token_hash))
    }

    /// Whether the game is kept out of every list (a friend game, or a rematch of one).
    pub fn is_private(&self) -> bool {
        self.invite_hash.is_some()
    }

    /// Whether both sides have made their first move: from then on the clocks run.
    pub fn both_moved(&self) -> bool {
        self.ply() >= 2
    }

    /// The side a computer plays, if the computer is to move now.
    pub fn computer_to_move(&self) -> Option<u8> {
        if self.status != Status::Playing {
            return None;
        }
        match self.seats[side(self.turn())].kind {
            PlayerKind::Computer { level } => Some(level),
            PlayerKind::Human => None,
        }
    }

    fn start_if_seated(&mut self, now_ms: i64) {
        if self.status == Status::Waiting && self.seats.iter().all(Seat::is_taken) {
            self.status = Status::Playing;
            self.listed = false;
            self.turn_began_ms = Some(now_ms);
            // A game set up in a finished position ends at once.
            if self.game.is_over() {
                self.finish();
            }
        }
    }

    fn finish(&mut self) {
        self.status = Status::Finished;
        self.turn_started_ms = None;
        self.draw_offer = None;
        self.gone = None;
        self.takeback_offer = None;
        self.listed = false;
    }

    /// Takes the free human seat (the one asked for, if free) with this token.
    pub fn join(
        &mut self,
        wanted: Option<Color>,
        token_hash: String,
        name: Option<String>,
        now_ms: i64,
    ) -> Result<Color, Refusal> {
        if self.status != Status::Waiting {
            return Err(Refusal::NoFreeSeat);
        }
        let free = |c: Color| !self.seats[side(c)].is_taken();
        let color = match wanted {
            Some(c) if free(c) => c,
            _ => [Color::White, Color::Black].into_iter().find(|&c| free(c)).ok_or(Refusal::NoFreeSeat)?,
        };
        self.seats[side(color)] = Seat::human(name, Some(token_hash));
        self.start_if_seated(now_ms);
        Ok(color)
    }

    /// Time left for each side at `now_ms` (the running clock counted down).
    pub fn clocks_at(&self, now_ms: i64) -> [i64; 2] {
        let mut left = self.remaining_ms;
        if let Some(start) = self.turn_started_ms {
            let turn = side(self.turn());
            left[turn] = (left[turn] - (now_ms - start).max(0)).max(0);
        }
        left
    }

    /// On loading a game after a restart: a running clock goes on from its last stored
    /// reading (the one saved with the last move, or when the game began), as if it had
    /// been stopped meanwhile. Nobody is charged for the time the server was down; the
    /// price is that the part of the turn spent before the crash is not charged either.
    pub fn resume_clock(&mut self, now_ms: i64) {
        if self.turn_started_ms.is_some() {
            self.turn_started_ms = Some(now_ms);
        }
    }

    /// When the side to move runs out of time, if its clock is running. Never while the
    /// computer is to move: its clock is charged for its own search only, when it moves
    /// ([`LiveGame::play_computer`]), not for waiting for an engine.
    pub fn flag_deadline_ms(&self) -> Option<i64> {
        let start = self.turn_started_ms?;
        if self.computer_to_move().is_some() {
            return None;
        }
        Some(start + self.remaining_ms[side(self.turn())])
    }

    /// Ends the game on time if the side to move has run out at `now_ms`. Returns whether
    /// it did.
    pub fn check_flag(&mut self, now_ms: i64) -> bool {
        if self.status != Status::Playing {
            return false;
        }
        match self.flag_deadline_ms() {
            Some(deadline) if now_ms >= deadline => {
                let loser = self.turn();
                self.remaining_ms[side(loser)] = 0;
                // The game is playing, so not over: the declaration cannot fail.
                self.game.declare(Declared::Time(loser));
                self.finish();
                true
            }
            _ => false,
        }
    }

    /// Finds the legal move a request names.
    pub fn resolve_move(&self, request: &MoveRequest) -> Result<AnyMove, Refusal> {
        if let Some(text) = &request.text {
            return self.game.read_move(text).map_err(Refusal::IllegalMove);
        }
        let square = |n: Option<u32>, what: &str| {
            n.ok_or_else(|| Refusal::IllegalMove(format!("the move names no {what} square")))
        };
        let (from, to) = (square(request.from, "start")?, square(request.to, "end")?);
        self.game.find_move(from, to, request.captured.as_deref()).map_err(Refusal::IllegalMove)
    }

    /// Plays a move for `mover` at `now_ms`: checks turn, legality and the clock, then
    /// updates everything and returns what the record needs.
    pub fn play(&mut self, mover: Color, mv: AnyMove, now_ms: i64) -> Result<MoveRecord, Refusal> {
        self.play_charging(mover, mv, now_ms, None)
    }

    /// Plays the computer's move at `now_ms`, after a search of `thought_ms`. Its clock is
    /// charged that search and [`COMPUTER_MOVE_OVERHEAD_MS`] (at most the time since its turn
    /// began), never the wait for an engine, and never all its time left: its search stops
    /// well within that, and any more is the server's doing.
    pub fn play_computer(
        &mut self,
        mv: AnyMove,
        now_ms: i64,
        thought_ms: i64,
    ) -> Result<MoveRecord, Refusal> {
        let mover = self.turn();
        let charge = self.turn_started_ms.map(|start| {
            let charge = (thought_ms.max(0) + COMPUTER_MOVE_OVERHEAD_MS).min((now_ms - start).max(0));
            charge.min(self.remaining_ms[side(mover)] - 1).max(0)
        });
        self.play_charging(mover, mv, now_ms, charge)
    }

    /// [`LiveGame::play`], charging the mover's clock `charge` (by default, the time since
    /// its turn began).
    fn play_charging(
        &mut self,
        mover: Color,
        mv: AnyMove,
        now_ms: i64,
        charge: Option<i64>,
    ) -> Result<MoveRecord, Refusal> {
        match self.status {
            Status::Finished => return Err(Refusal::GameOver),
            Status::Waiting => return Err(Refusal::NotStarted),
            Status::Playing => {}
        }
        let turn = self.turn();
        if turn != mover {
            return Err(Refusal::NotYourTurn(turn.name()));
        }
        if self.check_flag(now_ms) {
            return Err(Refusal::GameOver);
        }
        let ply = self.game.plies();
        let pdn = self.game.describe(ply, &mv).map(|info| info.text).unwrap_or_default();
        self.game.play(&mv).map_err(Refusal::IllegalMove)?;
        if let Some(spec) = self.clock {
            if let Some(start) = self.turn_started_ms {
                let used = charge.unwrap_or((now_ms - start).max(0));
                self.remaining_ms[side(mover)] = self.remaining_ms[side(mover)] - used + spec.increment_ms;
            }
            if self.both_moved() {
                self.turn_started_ms = Some(now_ms);
            }
        }
        self.turn_began_ms = Some(now_ms);
        self.pdn_moves.push(pdn.clone());
        // Moving instead of answering declines the opponent's draw offer, and any takeback
        // request (it was for the moves as they stood).
        if self.draw_offer == Some(mover.opponent()) {
            self.draw_offer = None;
        }
        self.takeback_offer = None;
        if self.game.is_over() {
            self.finish();
        }
        Ok(MoveRecord {
            ply: self.ply() - 1,
            hub: mv.hub().to_string(),
            pdn,
            fen_after: self.game.fen(),
            white_ms: self.remaining_ms[0],
            black_ms: self.remaining_ms[1],
            played_ms: now_ms,
        })
    }

    /// Replays a stored move (on loading a game): no turn or clock checks beyond legality.
    pub fn replay(&mut self, record: &MoveRecord) -> Result<(), ReplayError> {
        let ply = self.game.plies();
        let info = self
            .game
            .legal_move(&record.hub)
            .and_then(|mv| self.game.describe(ply, &mv))
            .ok_or_else(|| ReplayError::NotLegal { ply: record.ply, text: record.hub.clone() })?;
        let pdn = info.text;
        self.game.play(&info.mv).map_err(|refusal| ReplayError::Refused {
            ply: record.ply,
            text: record.hub.clone(),
            refusal,
        })?;
        self.pdn_moves.push(pdn);
        self.remaining_ms = [record.white_ms, record.black_ms];
        Ok(())
    }

    /// `color` offers a draw (or accepts the opponent's standing offer). Returns whether the
    /// game ended in a draw.
    pub fn offer_draw(&mut self, color: Color, now_ms: i64) -> Result<bool, Refusal> {
        self.require_playing()?;
        if self.check_flag(now_ms) {
            return Err(Refusal::GameOver);
        }
        if self.draw_offer == Some(color.opponent()) {
            return self.accept_draw(color, now_ms).map(|_| true);
        }
        self.draw_offer = Some(color);
        Ok(false)
    }

    pub fn accept_draw(&mut self, color: Color, now_ms: i64) -> Result<(), Refusal> {
        self.require_playing()?;
        if self.draw_offer != Some(color.opponent()) {
            return Err(Refusal::NoDrawOffer);
        }
        self.stop_clock(now_ms);
        self.game.declare(Declared::Draw);
        self.finish();
        Ok(())
    }

    pub fn decline_draw(&mut self, color: Color) -> Result<(), Refusal> {
        self.require_playing()?;
        if self.draw_offer != Some(color.opponent()) {
            return Err(Refusal::NoDrawOffer);
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `color` resigns; in a game nobody has joined yet, this withdraws it instead.
    pub fn resign(&mut self, color: Color, now_ms: i64) -> Result<(), Refusal> {
        match self.status {
            Status::Finished => Err(Refusal::GameOver),
            Status::Waiting => {
                self.aborted = true;
                self.finish();
                Ok(())
            }
            Status::Playing => {
                if self.check_flag(now_ms) {
                    return Err(Refusal::GameOver);
                }
                self.stop_clock(now_ms);
                self.game.declare(Declared::Resignation(color));
                self.finish();
                Ok(())
            }
        }
    }

    /// `color` asks for a rematch. When both players have asked (or the opponent is the
    /// computer), returns the new game: colours swapped, same variant, clock and players
    /// (each keeps their seat token).
    pub fn ask_rematch(
        &mut self,
        color: Color,
        new_id: String,
        now_ms: i64,
    ) -> Result<Option<LiveGame>, Refusal> {
        if self.status != Status::Finished || self.aborted {
            return Err(Refusal::RematchTooEarly);
        }
        if self.rematch_game.is_some() {
            return Err(Refusal::RematchArranged);
        }
        if self.seats[side(color)].kind != PlayerKind::Human {
            return Err(Refusal::RematchNotHuman);
        }
        self.rematch_offers[side(color)] = true;
        let opponent = &self.seats[side(color.opponent())];
        let agreed = matches!(opponent.kind, PlayerKind::Computer { .. })
            || self.rematch_offers[side(color.opponent())];
        if !agreed {
            return Ok(None);
        }
        let swapped = [self.seats[1].clone(), self.seats[0].clone()];
        let start = self.game.truncated(0);
        let mut next = LiveGame::new(new_id.clone(), start, swapped, self.clock, false, now_ms);
        next.rematch_of = Some(self.id.clone());
        next.invite_hash = self.invite_hash.clone();
        next.accounts = self.accounts.for_rematch();
        self.rematch_game = Some(new_id);
        Ok(Some(next))
    }

    fn require_playing(&self) -> Result<(), Refusal> {
        match self.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(Refusal::NotStarted),
            Status::Finished => Err(Refusal::GameOver),
        }
    }

    fn stop_clock(&mut self, now_ms: i64) {
        // The computer's clock is charged only for a search that ended in a move.
        if self.computer_to_move().is_none() {
            self.remaining_ms = self.clocks_at(now_ms);
        }
        self.turn_started_ms = None;
    }

    /// Whether move `ply` (0: the first) was the computer's answer from its opening book.
    /// Worked out again rather than stored: a level plays from its book exactly when the book
    /// holds the position, so this holds for games read back after a restart too.
    pub fn played_from_book(&self, ply: usize) -> bool {
        let Some(mover) = self.game.turn_at(ply) else { return false };
        match self.seats[side(mover)].kind {
            PlayerKind::Computer { level } => {
                Level::new(u32::from(level)).is_some_and(|level| self.game.opens_from_book(ply, level))
            }
            PlayerKind::Human => false,
        }
    }
}

mod site;
#[cfg(test)]
mod tests;
