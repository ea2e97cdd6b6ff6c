//! What the server needs of one kind of position and its games, as one trait
//! ([`VariantRules`]), implemented for the 8x8 positions of English and Russian (`eight.rs`)
//! and for the boards of every other variant (`boards.rs`). The type-erased game
//! ([`super::AnyGame`]) is written once against it.

use std::fmt;

use checkers_engine::SearchPosition;
use checkers_rules::Color;

use super::record::GameRecord;
use super::End;
use crate::variant::GameVariant;

/// A result the players declare rather than reach on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// This side resigned.
    Resignation(Color),
    /// This side ran out of time.
    Time(Color),
    /// The players agreed a draw.
    Draw,
}

/// A variant's positions, moves and games as the server handles them: squares as numbers
/// (the rules library's public numbering: 1-32, 1-50, 1-72, or 1-64 on Turkish's board), move
/// text as the variant's players write it, and refusals as sentences.
pub trait VariantRules: SearchPosition {
    /// A game of these positions: its start, its moves, and how it ended.
    type Game: Clone + fmt::Debug + Send + Sync + 'static;

    fn variant(&self) -> GameVariant;
    /// The side that moves first in the variant.
    fn first_mover(&self) -> Color;
    /// The position as FEN (squares as the variant's FEN names them).
    fn fen(&self) -> String;

    /// A legal move's long form (every stop) as the variant's players write it.
    fn move_text(&self, mv: &Self::Move) -> String;
    /// The squares a legal move's piece stops on, start first.
    fn route(&self, mv: &Self::Move) -> Vec<u32>;
    /// A move's start and end squares.
    fn ends(mv: &Self::Move) -> (u32, u32);
    /// The squares a move captures on, ascending.
    fn captured(mv: &Self::Move) -> Vec<u32>;
    /// The Hub form of a move, which names it uniquely (stored, and replayed on loading).
    fn hub(mv: &Self::Move) -> String;
    /// The legal move whose Hub form is `text`.
    fn legal_by_hub(&self, text: &str) -> Option<Self::Move>;
    /// The legal move that move text names, or why it names none.
    fn read_move(&self, text: &str) -> Result<Self::Move, String>;
    /// The legal move from `from` to `to` (taking `captured`, when given), or why there is
    /// none.
    fn find_move(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<Self::Move, String>;

    fn new_game(start: Self) -> Self::Game;
    fn start(game: &Self::Game) -> Self;
    /// Every position of the game, the start first.
    fn positions(game: &Self::Game) -> &[Self];
    fn moves(game: &Self::Game) -> &[Self::Move];
    /// Plays a legal move, or says why it cannot (the game is over).
    fn play(game: &mut Self::Game, mv: Self::Move) -> Result<(), String>;
    /// Declares a result; false if the game is already over.
    fn declare(game: &mut Self::Game, declared: Declared) -> bool;
    fn outcome(game: &Self::Game) -> Option<End>;
    /// The game's PDN record: its start, its moves and its result (no tags).
    fn record(game: &Self::Game) -> GameRecord;
}
