//! What a Hub session searches, whatever its variant: the position with the game's earlier
//! positions ([`HubGame`]), and the engine kept between searches ([`SessionEngine`]). Both hide
//! the position's type (the 8x8 [`Position`] of English and Russian, or a [`Board`] of another
//! variant), so the protocol's state machine and its driver are written once.

use std::any::Any;
use std::fmt;

use checkers_rules::board::Board;
use checkers_rules::{with_board_variant, Position};

use super::board_numbering::{board_from_hub, board_move_from_hub, board_move_to_hub};
use super::error::{HubError, MoveTextError};
use super::job::search_line;
use super::numbering::{move_from_hub, move_to_hub, position_from_hub, Numbering};
use super::variant::HubVariant;
use crate::engine::{Engine, EngineOptions};
use crate::game::{BoardEngine, MoveBuffer, SearchPosition};
use crate::limits::{Limits, StopHandle};

/// A position the Hub can search, and how its moves are written on the wire.
pub trait HubPosition: SearchPosition {
    /// `mv`, legal here, as Hub move text in `numbering`.
    fn hub_move(&self, mv: &Self::Move, numbering: Numbering) -> String;
}

impl HubPosition for Position {
    fn hub_move(&self, mv: &Self::Move, numbering: Numbering) -> String {
        move_to_hub(mv, self.variant(), numbering)
    }
}

impl<V: BoardEngine> HubPosition for Board<V> {
    fn hub_move(&self, mv: &Self::Move, numbering: Numbering) -> String {
        board_move_to_hub(mv, numbering)
    }
}

/// A position and the game's earlier positions, oldest first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line<P> {
    position: P,
    history: Vec<P>,
}

/// [`Line`] of any position type, behind a pointer.
trait AnyLine: fmt::Debug + Send + Sync {
    fn has_legal_move(&self) -> bool;
    fn no_move_wins(&self) -> bool;
    fn run(
        &self,
        engine: &mut SessionEngine,
        limits: &Limits,
        stop: &StopHandle,
        numbering: Numbering,
        emit: &mut dyn FnMut(String),
    ) -> String;
    fn clone_box(&self) -> Box<dyn AnyLine>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn AnyLine) -> bool;
}

impl<P: HubPosition> AnyLine for Line<P> {
    fn has_legal_move(&self) -> bool {
        !self.position.legal_moves().as_slice().is_empty()
    }
    fn no_move_wins(&self) -> bool {
        P::NO_MOVE_WINS
    }
    fn run(
        &self,
        engine: &mut SessionEngine,
        limits: &Limits,
        stop: &StopHandle,
        numbering: Numbering,
        emit: &mut dyn FnMut(String),
    ) -> String {
        engine.with(|engine: &mut Engine<P>| {
            search_line(engine, &self.position, &self.history, limits, stop, numbering, emit)
        })
    }
    fn clone_box(&self) -> Box<dyn AnyLine> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn AnyLine) -> bool {
        other.as_any().downcast_ref::<Line<P>>().is_some_and(|other| other == self)
    }
}

/// The position to search and the positions of the game before it, in any variant.
pub struct HubGame(Box<dyn AnyLine>);

impl HubGame {
    /// `position`, reached through `history` (oldest first).
    pub fn new<P: HubPosition>(position: P, history: Vec<P>) -> HubGame {
        HubGame(Box::new(Line { position, history }))
    }

    /// The position, if it is a `P`.
    pub fn position<P: HubPosition>(&self) -> Option<&P> {
        self.0.as_any().downcast_ref::<Line<P>>().map(|line| &line.position)
    }

    /// The game's earlier positions, oldest first, if they are `P`s.
    pub fn history<P: HubPosition>(&self) -> Option<&[P]> {
        self.0.as_any().downcast_ref::<Line<P>>().map(|line| line.history.as_slice())
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        self.0.has_legal_move()
    }

    /// Whether the side to move wins when it has no legal move (Antidraughts).
    pub fn no_move_wins(&self) -> bool {
        self.0.no_move_wins()
    }

    /// Searches with `engine` (rebuilt for this position's type if it is another's), sending
    /// each `info` line to `emit`, and returns the `done` line.
    pub(super) fn run(
        &self,
        engine: &mut SessionEngine,
        limits: &Limits,
        stop: &StopHandle,
        numbering: Numbering,
        emit: &mut dyn FnMut(String),
    ) -> String {
        self.0.run(engine, limits, stop, numbering, emit)
    }
}

impl Clone for HubGame {
    fn clone(&self) -> HubGame {
        HubGame(self.0.clone_box())
    }
}

impl fmt::Debug for HubGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for HubGame {
    fn eq(&self, other: &HubGame) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Eq for HubGame {}

/// Reads a `pos` line's position and moves in `variant` and `numbering`.
pub(super) fn read_game(
    variant: HubVariant,
    numbering: Numbering,
    position: &str,
    moves: &str,
) -> Result<HubGame, HubError> {
    match variant {
        HubVariant::Eight(variant) => {
            let start = position_from_hub(position, variant, numbering)?;
            play(start, moves, |p, text| move_from_hub(p, text, numbering))
        }
        HubVariant::Board(variant) => with_board_variant!(variant, V => {
            let start = board_from_hub::<V>(position)?;
            play(start, moves, |b: &Board<V>, text| board_move_from_hub(b, text, numbering))
        }),
    }
}

/// Plays the moves of `moves` (separated by spaces) from `start`.
fn play<P: HubPosition>(
    start: P,
    moves: &str,
    read: impl Fn(&P, &str) -> Result<P::Move, MoveTextError>,
) -> Result<HubGame, HubError> {
    let mut history = Vec::new();
    let mut current = start;
    for (i, word) in moves.split_whitespace().enumerate() {
        let mv = read(&current, word).map_err(|reason| HubError::BadMove {
            index: i + 1,
            text: word.to_string(),
            reason,
        })?;
        history.push(current);
        current = SearchPosition::play_unchecked(&current, &mv);
    }
    Ok(HubGame::new(current, history))
}

/// An [`Engine`] of any position type.
trait AnyEngine: Send {
    fn new_game(&mut self);
    fn as_any(&self) -> &dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<P: SearchPosition> AnyEngine for Engine<P> {
    fn new_game(&mut self) {
        Engine::new_game(self);
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The engine of a Hub session, for whichever variant it plays: kept between searches (with
/// what its table learned), and rebuilt with the same options when a search is of another
/// position type than the last (the variant changed).
pub struct SessionEngine {
    options: EngineOptions,
    engine: Option<Box<dyn AnyEngine>>,
}

impl SessionEngine {
    /// Builds the engine for `variant` now (its table is allocated before any clock runs).
    pub fn new(variant: HubVariant, options: EngineOptions) -> SessionEngine {
        let engine: Box<dyn AnyEngine> = match variant {
            HubVariant::Eight(_) => Box::new(Engine::<Position>::new(options)),
            HubVariant::Board(variant) => {
                with_board_variant!(variant, V => Box::new(Engine::<Board<V>>::new(options)))
            }
        };
        SessionEngine { options, engine: Some(engine) }
    }

    /// The options it is built with.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Forgets what the engine learned (a new game).
    pub fn new_game(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
    }

    /// Runs `f` with the engine for positions of type `P`, built first if the engine is for
    /// another type.
    fn with<P: SearchPosition, R>(&mut self, f: impl FnOnce(&mut Engine<P>) -> R) -> R {
        let mut engine = match self.engine.take().map(|engine| engine.into_any().downcast::<Engine<P>>()) {
            Some(Ok(engine)) => engine,
            _ => Box::new(Engine::<P>::new(self.options)),
        };
        let result = f(&mut engine);
        self.engine = Some(engine);
        result
    }

    /// Whether the engine is built for positions of type `P`.
    pub fn is_for<P: SearchPosition>(&self) -> bool {
        self.engine.as_ref().is_some_and(|engine| engine.as_any().is::<Engine<P>>())
    }
}

impl fmt::Debug for SessionEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionEngine").field("options", &self.options).finish_non_exhaustive()
    }
}
