//! What the terminal game needs of a variant, as two small traits: [`TerminalPosition`] for
//! its positions (the texts a player reads and types, the board's picture, the record's
//! text) and [`TerminalGame`] for its games (moves played, taken back, declared, and how
//! the game ended). The 8x8 positions of English and Russian (`checkers.rs`) and the boards
//! of every other variant (`boards.rs`) implement them; the game loop and the commands are
//! written once against them.

use checkers_engine::SearchPosition;
use checkers_rules::{Color, Piece};

use super::board::Letters;

/// What a player is told about the variant: its name, how to type a move, how squares are
/// named.
#[derive(Clone, Debug)]
pub struct About {
    /// `English checkers`, `International draughts`.
    pub title: &'static str,
    /// A move from the start, as the player types it.
    pub example: String,
    /// The welcome's second line: how the squares are named on the board to the right.
    pub squares: &'static str,
    /// The paragraph of `help` on moves.
    pub help_moves: String,
    /// After "`X` is not a square: ": what the squares are.
    pub square_names: String,
    /// The letters of the side that is not Black unless `--letters` says otherwise.
    pub letters: Letters,
    /// The side that moves first in the variant.
    pub first: Color,
}

/// The picture of a position, square by square, for the board drawing (`board.rs`).
#[derive(Clone, Debug)]
pub struct Grid {
    /// Squares along a side.
    pub side: u32,
    /// Whether files and ranks are labelled beside the board (boards whose squares have
    /// names, `a1`-`h8`).
    pub coordinates: bool,
    /// `cells[rank][file]`, rank 0 on White's side, file 0 on the left (the a file): `None`
    /// for a square no piece stands on.
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// One square of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub piece: Option<Piece>,
    /// The square's number or name, as the player types it.
    pub name: String,
    /// A start or end square of the last move.
    pub marked: bool,
}

impl Grid {
    /// An empty picture of a board of `side` squares a side.
    pub fn new(side: u32, coordinates: bool) -> Grid {
        Grid { side, coordinates, cells: vec![vec![None; side as usize]; side as usize] }
    }

    /// Places a square at `file` and `rank` (ignored off the board).
    pub fn set(&mut self, file: u32, rank: u32, cell: Cell) {
        if let Some(row) = self.cells.get_mut(rank as usize) {
            if let Some(place) = row.get_mut(file as usize) {
                *place = Some(cell);
            }
        }
    }
}

/// What a player typed, read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed<M> {
    /// A legal move.
    Move(M),
    /// Not a move here: what to tell the player (a whole sentence).
    Refused(String),
    /// Not move text at all (a single word, or words): maybe a square, maybe nothing.
    NotMoveText,
}

/// A result declared by the players rather than reached on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    Draw,
    Resignation,
    Time,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// The reason as it is announced and recorded: `Black wins: Red resigned`.
    pub text: String,
}

/// The side names of the game (Black, and Red or White).
pub type Names<'a> = &'a dyn Fn(Color) -> &'static str;

/// A position of a variant the terminal game plays: what the player sees of it and how what
/// the player types is read.
pub trait TerminalPosition: SearchPosition {
    /// The variant's games.
    type Game: TerminalGame<Position = Self>;

    /// What the player is told about the variant of this position.
    fn about(&self) -> About;

    /// The position's picture, with the start and end squares of `last` marked.
    fn grid(&self, last: Option<&Self::Move>) -> Grid;

    /// A move of this position as the player reads it (every stop: `9x18x27`).
    fn move_text(&self, mv: &Self::Move) -> String;

    /// The square a move starts on, as a number (the order of `moves`).
    fn move_start(mv: &Self::Move) -> u32;

    /// Reads a line as a move here; `names` names the sides in refusals.
    fn read_move(&self, text: &str, names: Names) -> Typed<Self::Move>;

    /// The square a single word names, as a number, if it names one.
    fn square(&self, text: &str) -> Option<u32>;

    /// A square's name as the player types it.
    fn square_name(&self, square: u32) -> String;

    /// Why no move of the side to move starts on `square` (it has none there).
    fn no_move_from(&self, square: u32, names: Names) -> String;

    /// `color`'s pieces on the board, and how many of them are kings.
    fn pieces(&self, color: Color) -> (u32, u32);

    /// Starts whatever the engine can get ready while the player reads the board.
    fn prepare_engine(&self) {}
}

/// A game of a variant: its positions and moves, taking moves back, and its end.
pub trait TerminalGame: Sized {
    type Position: TerminalPosition<Game = Self>;

    fn from_position(start: Self::Position) -> Self;
    fn start(&self) -> Self::Position;
    fn position(&self) -> Self::Position;
    fn moves(&self) -> &[<Self::Position as SearchPosition>::Move];
    /// Every position of the game, the start first.
    fn positions(&self) -> &[Self::Position];
    /// The legal moves now (none once the game is over).
    fn legal_moves(&self) -> Vec<<Self::Position as SearchPosition>::Move>;
    fn is_over(&self) -> bool;
    /// How the game ended, in words naming the sides as `names` does.
    fn ending(&self, names: Names) -> Option<Ending>;
    /// Plays a legal move, or says why it cannot (not legal, or the game is over).
    fn play(&mut self, mv: <Self::Position as SearchPosition>::Move) -> Result<(), String>;
    /// Takes back the last move (false if there is none).
    fn undo(&mut self) -> bool;
    /// Takes back a declared result (an agreed draw, a resignation), if the game has one.
    fn withdraw_declaration(&mut self) -> Option<Declared>;
    fn resign(&mut self, color: Color) -> bool;
    fn agree_draw(&mut self) -> bool;
    /// The game as PDN: `tags` (Event, Date, Black, White), its moves in the variant's
    /// notation, its result and, when it is over, the reason as a comment after the last
    /// move.
    fn to_pdn(&self, tags: &[(&str, &str)], ending: Option<&Ending>) -> String;
}
