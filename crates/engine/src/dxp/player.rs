//! The engine in a DXP conversation: a [`Session`] whose moves the engine chooses, each
//! search run to its end before the next message is read.

use std::time::{Duration, Instant};

use checkers_rules::board::{Board, BoardMove};

use super::error::{MessageError, SessionError};
use super::session::{Event, GameSettings, Reply, Session};
use crate::engine::{Engine, EngineOptions};
use crate::game::BoardEngine;
use crate::level::Level;
use crate::limits::{Limits, StopHandle};

/// What a search may take when neither the program nor the game gives a limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// How the engine chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thinking {
    /// As this level plays (deterministic for the seed, which each ply varies).
    Level { level: Level, seed: u64 },
    /// Searches within these limits.
    Limits(Limits),
    /// By the game's clock when its GAMEREQ gave a thinking time, otherwise for this long a
    /// move.
    Clock { otherwise: Duration },
}

/// The engine's side of a DXP conversation in the variant `V`.
pub struct Player<V: BoardEngine> {
    session: Session<V>,
    engine: Engine<Board<V>>,
    thinking: Thinking,
}

impl<V: BoardEngine> Player<V> {
    pub fn new(session: Session<V>, options: EngineOptions, thinking: Thinking) -> Player<V> {
        Player { session, engine: Engine::new(options), thinking }
    }

    pub fn session(&self) -> &Session<V> {
        &self.session
    }

    pub fn session_mut(&mut self) -> &mut Session<V> {
        &mut self.session
    }

    /// (Initiator.) Asks for a game.
    pub fn request_game(&mut self, settings: GameSettings<V>) -> Result<Reply<V>, SessionError> {
        self.session.request_game(settings)
    }

    /// Answers a message received. When the answer is [`Next::Think`], send its messages,
    /// then call [`Player::think`] for our move (so that a peer sees the answer at once).
    pub fn receive(&mut self, frame: Result<&[u8], MessageError>) -> Reply<V> {
        let reply = self.session.receive(frame);
        if reply.events.iter().any(|e| matches!(e, Event::GameStarted { .. })) {
            self.engine.new_game();
        }
        reply
    }

    /// On our turn, chooses our move and plays it: the MOVE to send. `None` when it is not
    /// our turn.
    pub fn think(&mut self) -> Option<Reply<V>> {
        let (position, history) = self.session.to_move()?;
        let history = history.to_vec();
        let started = Instant::now();
        let chosen = match self.thinking {
            Thinking::Level { level, seed } => level.choose_move(
                &mut self.engine,
                &position,
                &history,
                seed.wrapping_add(history.len() as u64),
            ),
            Thinking::Limits(limits) => self.search(&position, &history, &limits),
            Thinking::Clock { otherwise } => {
                let limits = match self.session.clock() {
                    Some(clock) => Limits { clock: Some(clock), ..Limits::default() },
                    None => Limits::movetime(otherwise),
                };
                self.search(&position, &history, &limits)
            }
        };
        // The session asks for a move only in a game that goes on, where there is a legal
        // one, and every move the engine gives is legal.
        self.session.play(chosen?, started.elapsed()).ok()
    }

    /// The connection is gone (see [`Session::connection_lost`]).
    pub fn connection_lost(&mut self) -> Reply<V> {
        self.session.connection_lost()
    }

    fn search(&mut self, position: &Board<V>, history: &[Board<V>], limits: &Limits) -> Option<BoardMove<V>> {
        self.engine.search(position, history, limits, &StopHandle::new(), &mut |_| {}).best_move
    }
}
