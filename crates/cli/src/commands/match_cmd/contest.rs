//! What a match needs of a variant, as one trait ([`Contest`]): its positions and games (the
//! rules library's, which referee every move), its PDN records, and how a Hub engine writes
//! its positions and moves. English and Russian play on the 8x8 types ([`Checkers`]), every
//! other variant on its board ([`Boards`]); the match itself is written once.

use std::marker::PhantomData;

use anyhow::{bail, Context};
use checkers_engine::hub::{
    board_move_from_hub, board_move_to_hub, board_to_hub, move_from_hub, move_to_hub, position_to_hub,
    Numbering,
};
use checkers_engine::{BoardEngine, SearchPosition};
use checkers_rules::board::{Board, BoardGame, BoardOutcome};
use checkers_rules::{
    read_board_pdn, read_pdn, write_board_pdn, write_pdn, BoardPdnGame, Color, Game, Outcome, PdnGame,
    PdnResult, PdnTagError, Position, Variant,
};

/// A variant's games as a match plays and records them.
pub trait Contest: Copy + Send + Sync + 'static {
    type Position: SearchPosition;
    type Game: Clone + Send;
    type Record: MatchRecord<Self::Position>;

    /// The variant's name on the command line.
    fn name(self) -> &'static str;
    /// The variant's start position.
    fn start(self) -> Self::Position;
    /// A game from `start`.
    fn new_game(self, start: Self::Position) -> Self::Game;
    /// Plays a move; false if it is not legal or the game is over.
    fn play(game: &mut Self::Game, mv: <Self::Position as SearchPosition>::Move) -> bool;
    /// Every position of the game, the start first and the current one last.
    fn positions(game: &Self::Game) -> &[Self::Position];
    fn moves(game: &Self::Game) -> &[<Self::Position as SearchPosition>::Move];
    /// How the game ended by the rules, as PDN gives a result, and why; `None` while it goes on.
    fn outcome(game: &Self::Game) -> Option<(PdnResult, String)>;
    /// The game as a PDN record (its start, moves and result; no tags yet).
    fn record(self, game: &Self::Game, result: PdnResult) -> anyhow::Result<Self::Record>;
    /// The variant's records in a PDN file's text (an error names anything else in it).
    fn read_records(self, text: &str) -> anyhow::Result<Vec<Self::Record>>;
    fn write_records(records: &[Self::Record]) -> String;

    /// The Hub protocol's text of a position, of a move and back (standard numbering).
    fn hub_position(self, position: &Self::Position) -> anyhow::Result<String>;
    fn hub_move(self, position: &Self::Position, mv: &<Self::Position as SearchPosition>::Move) -> String;
    fn hub_parse(
        self,
        position: &Self::Position,
        text: &str,
    ) -> Result<<Self::Position as SearchPosition>::Move, String>;
}

/// A PDN record as a match writes and reads it.
pub trait MatchRecord<P: SearchPosition>: Clone + Send {
    fn start(&self) -> P;
    fn moves(&self) -> &[P::Move];
    /// The position before each move.
    fn positions(&self) -> Vec<P>;
    fn result(&self) -> PdnResult;
    fn tag(&self, name: &str) -> Option<&str>;
    fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError>;
    fn comment(&self, index: usize) -> Option<&str>;
    fn set_comment(&mut self, index: usize, text: &str) -> bool;
}

/// The game of a PDN result, for the first player's points.
fn result_of(winner: Option<Color>) -> PdnResult {
    winner.map_or(PdnResult::Draw, PdnResult::Win)
}

/// English checkers and Russian draughts.
#[derive(Clone, Copy, Debug)]
pub struct Checkers(pub Variant);

impl Contest for Checkers {
    type Position = Position;
    type Game = Game;
    type Record = PdnGame;

    fn name(self) -> &'static str {
        self.0.name()
    }
    fn start(self) -> Position {
        Position::start(self.0)
    }
    fn new_game(self, start: Position) -> Game {
        Game::from_position(start)
    }
    fn play(game: &mut Game, mv: checkers_rules::Move) -> bool {
        game.play(mv).is_ok()
    }
    fn positions(game: &Game) -> &[Position] {
        game.positions()
    }
    fn moves(game: &Game) -> &[checkers_rules::Move] {
        game.moves()
    }
    fn outcome(game: &Game) -> Option<(PdnResult, String)> {
        let outcome = game.outcome()?;
        let winner = match outcome {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        };
        Some((result_of(winner), outcome.to_string()))
    }
    fn record(self, game: &Game, result: PdnResult) -> anyhow::Result<PdnGame> {
        let mut record = PdnGame::from_position(game.start());
        for mv in game.moves() {
            record.push(*mv).context("a played move does not replay")?;
        }
        record.set_result(result);
        Ok(record)
    }
    fn read_records(self, text: &str) -> anyhow::Result<Vec<PdnGame>> {
        let records = read_pdn(text)?;
        if let Some(other) = records.iter().find(|r| r.variant() != self.0) {
            bail!("it holds a game of {}, not of {}", other.variant(), self.0);
        }
        Ok(records)
    }
    fn write_records(records: &[PdnGame]) -> String {
        write_pdn(records)
    }
    fn hub_position(self, position: &Position) -> anyhow::Result<String> {
        Ok(position_to_hub(position, Numbering::Standard))
    }
    fn hub_move(self, _position: &Position, mv: &checkers_rules::Move) -> String {
        move_to_hub(mv, self.0, Numbering::Standard)
    }
    fn hub_parse(self, position: &Position, text: &str) -> Result<checkers_rules::Move, String> {
        move_from_hub(position, text, Numbering::Standard).map_err(|reason| reason.to_string())
    }
}

impl MatchRecord<Position> for PdnGame {
    fn start(&self) -> Position {
        PdnGame::start(self)
    }
    fn moves(&self) -> &[checkers_rules::Move] {
        PdnGame::moves(self)
    }
    fn positions(&self) -> Vec<Position> {
        PdnGame::positions(self)
    }
    fn result(&self) -> PdnResult {
        PdnGame::result(self)
    }
    fn tag(&self, name: &str) -> Option<&str> {
        PdnGame::tag(self, name)
    }
    fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        PdnGame::set_tag(self, name, value)
    }
    fn comment(&self, index: usize) -> Option<&str> {
        PdnGame::comment(self, index)
    }
    fn set_comment(&mut self, index: usize, text: &str) -> bool {
        PdnGame::set_comment(self, index, text)
    }
}

/// A variant played on the rules library's boards.
pub struct Boards<V>(PhantomData<V>);

impl<V> Clone for Boards<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Boards<V> {}

impl<V: BoardEngine> Boards<V> {
    pub fn new() -> Boards<V> {
        Boards(PhantomData)
    }
}

impl<V: BoardEngine> Contest for Boards<V> {
    type Position = Board<V>;
    type Game = BoardGame<V>;
    type Record = BoardPdnGame<V>;

    fn name(self) -> &'static str {
        V::NAME
    }
    fn start(self) -> Board<V> {
        Board::start()
    }
    fn new_game(self, start: Board<V>) -> BoardGame<V> {
        BoardGame::from_position(start)
    }
    fn play(game: &mut BoardGame<V>, mv: checkers_rules::board::BoardMove<V>) -> bool {
        game.play(mv).is_ok()
    }
    fn positions(game: &BoardGame<V>) -> &[Board<V>] {
        game.positions()
    }
    fn moves(game: &BoardGame<V>) -> &[checkers_rules::board::BoardMove<V>] {
        game.moves()
    }
    fn outcome(game: &BoardGame<V>) -> Option<(PdnResult, String)> {
        let outcome: BoardOutcome = game.outcome()?;
        Some((result_of(outcome.winner()), outcome.to_string()))
    }
    fn record(self, game: &BoardGame<V>, result: PdnResult) -> anyhow::Result<BoardPdnGame<V>> {
        let mut record = BoardPdnGame::from_game(game);
        record.set_result(result);
        Ok(record)
    }
    fn read_records(self, text: &str) -> anyhow::Result<Vec<BoardPdnGame<V>>> {
        Ok(read_board_pdn::<V>(text)?)
    }
    fn write_records(records: &[BoardPdnGame<V>]) -> String {
        write_board_pdn(records)
    }
    fn hub_position(self, position: &Board<V>) -> anyhow::Result<String> {
        Ok(board_to_hub(position))
    }
    fn hub_move(self, _position: &Board<V>, mv: &checkers_rules::board::BoardMove<V>) -> String {
        board_move_to_hub(mv, Numbering::Standard)
    }
    fn hub_parse(
        self,
        position: &Board<V>,
        text: &str,
    ) -> Result<checkers_rules::board::BoardMove<V>, String> {
        board_move_from_hub(position, text, Numbering::Standard).map_err(|reason| reason.to_string())
    }
}

impl<V: BoardEngine> MatchRecord<Board<V>> for BoardPdnGame<V> {
    fn start(&self) -> Board<V> {
        BoardPdnGame::start(self)
    }
    fn moves(&self) -> &[checkers_rules::board::BoardMove<V>] {
        BoardPdnGame::moves(self)
    }
    fn positions(&self) -> Vec<Board<V>> {
        BoardPdnGame::positions(self)
    }
    fn result(&self) -> PdnResult {
        BoardPdnGame::result(self)
    }
    fn tag(&self, name: &str) -> Option<&str> {
        BoardPdnGame::tag(self, name)
    }
    fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        BoardPdnGame::set_tag(self, name, value)
    }
    fn comment(&self, index: usize) -> Option<&str> {
        BoardPdnGame::comment(self, index)
    }
    fn set_comment(&mut self, index: usize, text: &str) -> bool {
        BoardPdnGame::set_comment(self, index, text)
    }
}
