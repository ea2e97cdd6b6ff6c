//! Games of any variant, as a file holds them: [`read_any_pdn`] learns each game's variant
//! from its `GameType` (21 English and 25 Russian on the 8x8 code, every board variant by its
//! number, English when absent) and gives an [`AnyPdnGame`]: a [`PdnGame`] of English or
//! Russian, or an [`AnyBoardPdnGame`] holding a [`BoardPdnGame`] of the variant named.
//!
//! ```
//! use checkers_rules::board::{BoardVariant, International};
//! use checkers_rules::{read_any_pdn, AnyPdnGame};
//! let games = read_any_pdn("[GameType \"20\"]\n1. 32-28 18-23 2-0\n\n1. 11-15 *").unwrap();
//! let AnyPdnGame::Board(international) = &games[0] else { panic!() };
//! assert_eq!(international.variant(), BoardVariant::International);
//! assert_eq!(international.get::<International>().unwrap().moves().len(), 2);
//! assert!(matches!(games[1], AnyPdnGame::Checkers(_)));
//! ```

use std::any::Any;

use crate::board::{self, BoardVariant, RuleSet};
use crate::fen::SquareNotation;
use crate::position::{Color, Variant};

use super::board_game::BoardPdnGame;
use super::error::{PdnError, PdnErrorKind, PdnTagError};
use super::game::{PdnGame, PdnResult};
use super::reader::{read_all, read_each, Header, Target};
use super::record::Record;

/// A PDN game of any variant: English or Russian ([`PdnGame`], the 8x8 types the engine and
/// the server play) or a board variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPdnGame {
    Checkers(PdnGame),
    Board(AnyBoardPdnGame),
}

/// Declares [`AnyBoardPdnGame`] with one arm a board variant, and `each_board_game!` to run
/// code on whichever arm a value is.
macro_rules! board_games {
    ($($variant:ident),* $(,)?) => {
        /// A PDN game of one of the board variants, its arm the variant's rule set.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyBoardPdnGame {
            $($variant(BoardPdnGame<board::$variant>),)*
        }

        $(impl From<BoardPdnGame<board::$variant>> for AnyBoardPdnGame {
            fn from(game: BoardPdnGame<board::$variant>) -> AnyBoardPdnGame {
                AnyBoardPdnGame::$variant(game)
            }
        })*

        macro_rules! each_board_game {
            ($value:expr, $game:ident => $body:expr) => {
                match $value {
                    $(AnyBoardPdnGame::$variant($game) => $body,)*
                }
            };
        }
    };
}

board_games!(
    International,
    Brazilian,
    Canadian,
    Frisian,
    Frysk,
    Antidraughts,
    Breakthrough,
    Italian,
    Spanish,
    Portuguese,
    Czech,
    Pool,
    Thai,
    Turkish,
);

/// Reads every game in PDN text, each in the variant its `GameType` names; the first error
/// stops the reading.
pub fn read_any_pdn(text: &str) -> Result<Vec<AnyPdnGame>, PdnError> {
    read_all(text)
}

/// Reads every game in PDN text, each in its variant, going on after a bad one (as
/// [`read_pdn_each`](super::read_pdn_each) does).
pub fn read_any_pdn_each(text: &str) -> Vec<Result<AnyPdnGame, PdnError>> {
    read_each(text)
}

/// Several games of any variants as one PDN text, each in its variant's notation, separated
/// by blank lines.
pub fn write_any_pdn(games: &[AnyPdnGame]) -> String {
    games.iter().map(AnyPdnGame::to_pdn).collect::<Vec<_>>().join("\n")
}

impl AnyPdnGame {
    /// The game's PDN `GameType` number.
    pub fn game_type(&self) -> u32 {
        match self {
            AnyPdnGame::Checkers(game) => game.variant().pdn_game_type(),
            AnyPdnGame::Board(game) => game.variant().pdn_game_type(),
        }
    }

    /// The variant's name (`english`, `international`, ...).
    pub fn variant_name(&self) -> &'static str {
        match self {
            AnyPdnGame::Checkers(game) => game.variant().name(),
            AnyPdnGame::Board(game) => game.variant().name(),
        }
    }

    pub fn tags(&self) -> &[(String, String)] {
        self.record().tags()
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.record().tag(name)
    }

    pub fn result(&self) -> PdnResult {
        match self {
            AnyPdnGame::Checkers(game) => game.result(),
            AnyPdnGame::Board(game) => game.result(),
        }
    }

    /// The number of moves (plies) recorded.
    pub fn move_count(&self) -> usize {
        match self {
            AnyPdnGame::Checkers(game) => game.moves().len(),
            AnyPdnGame::Board(game) => game.move_count(),
        }
    }

    /// The game as PDN text in its variant's usual notation (numbers for English and Russian).
    pub fn to_pdn(&self) -> String {
        match self {
            AnyPdnGame::Checkers(game) => game.to_pdn(),
            AnyPdnGame::Board(game) => game.to_pdn(),
        }
    }

    fn record(&self) -> &Record {
        match self {
            AnyPdnGame::Checkers(game) => game.record(),
            AnyPdnGame::Board(game) => game.record(),
        }
    }
}

impl AnyBoardPdnGame {
    pub fn variant(&self) -> BoardVariant {
        each_board_game!(self, game => variant_of(game))
    }

    /// The game, if it is of the rule set `V`: `any.get::<International>()`.
    pub fn get<V: RuleSet>(&self) -> Option<&BoardPdnGame<V>> {
        let game: &dyn Any = each_board_game!(self, game => game);
        game.downcast_ref()
    }

    /// The game, if it is of the rule set `V`, to change.
    pub fn get_mut<V: RuleSet>(&mut self) -> Option<&mut BoardPdnGame<V>> {
        let game: &mut dyn Any = each_board_game!(self, game => game);
        game.downcast_mut()
    }

    pub fn tags(&self) -> &[(String, String)] {
        self.record().tags()
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.record().tag(name)
    }

    /// Sets a tag (see [`PdnGame::set_tag`]).
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        each_board_game!(self, game => game.set_tag(name, value))
    }

    pub fn result(&self) -> PdnResult {
        each_board_game!(self, game => game.result())
    }

    /// The number of moves (plies) recorded.
    pub fn move_count(&self) -> usize {
        each_board_game!(self, game => game.moves().len())
    }

    /// The game as PDN text in its variant's notation.
    pub fn to_pdn(&self) -> String {
        each_board_game!(self, game => game.to_pdn())
    }

    /// The game as PDN text, squares in `notation` where its board allows
    /// ([`BoardPdnGame::to_pdn_with`]).
    pub fn to_pdn_with(&self, notation: SquareNotation) -> String {
        each_board_game!(self, game => game.to_pdn_with(notation))
    }

    fn record(&self) -> &Record {
        each_board_game!(self, game => game.record())
    }
}

/// The board variant of a game of the rule set `V` (every arm's is one of the library's).
fn variant_of<V: RuleSet>(_: &BoardPdnGame<V>) -> BoardVariant {
    BoardVariant::of::<V>().unwrap_or(BoardVariant::International)
}

impl Target for AnyBoardPdnGame {
    fn begin(header: &Header) -> Result<AnyBoardPdnGame, (usize, PdnErrorKind)> {
        let (number, line) = header.game_type()?.unwrap_or((0, 0));
        let variant =
            BoardVariant::from_pdn_game_type(number).ok_or((line, PdnErrorKind::UnknownGameType(number)))?;
        crate::with_board_variant!(variant, V => BoardPdnGame::<V>::begin(header).map(AnyBoardPdnGame::from))
    }

    fn record_mut(&mut self) -> &mut Record {
        each_board_game!(self, game => game.record_mut())
    }

    fn first_player(&self) -> Color {
        each_board_game!(self, game => game.first_player())
    }

    fn starting_side(&self) -> Color {
        each_board_game!(self, game => game.starting_side())
    }

    fn moves_played(&self) -> usize {
        self.move_count()
    }

    fn play(&mut self, text: &str, number: String) -> Result<(), PdnErrorKind> {
        each_board_game!(self, game => game.play(text, number))
    }

    fn set_result(&mut self, result: PdnResult) {
        each_board_game!(self, game => game.set_result(result))
    }
}

impl Target for AnyPdnGame {
    fn begin(header: &Header) -> Result<AnyPdnGame, (usize, PdnErrorKind)> {
        match header.game_type()? {
            Some((number, line)) if Variant::from_pdn_game_type(number).is_none() => {
                if BoardVariant::from_pdn_game_type(number).is_none() {
                    return Err((line, PdnErrorKind::UnknownGameType(number)));
                }
                AnyBoardPdnGame::begin(header).map(AnyPdnGame::Board)
            }
            _ => PdnGame::begin(header).map(AnyPdnGame::Checkers),
        }
    }

    fn record_mut(&mut self) -> &mut Record {
        match self {
            AnyPdnGame::Checkers(game) => Target::record_mut(game),
            AnyPdnGame::Board(game) => game.record_mut(),
        }
    }

    fn first_player(&self) -> Color {
        match self {
            AnyPdnGame::Checkers(game) => game.first_player(),
            AnyPdnGame::Board(game) => game.first_player(),
        }
    }

    fn starting_side(&self) -> Color {
        match self {
            AnyPdnGame::Checkers(game) => game.starting_side(),
            AnyPdnGame::Board(game) => game.starting_side(),
        }
    }

    fn moves_played(&self) -> usize {
        self.move_count()
    }

    fn play(&mut self, text: &str, number: String) -> Result<(), PdnErrorKind> {
        match self {
            AnyPdnGame::Checkers(game) => game.play(text, number),
            AnyPdnGame::Board(game) => game.play(text, number),
        }
    }

    fn set_result(&mut self, result: PdnResult) {
        match self {
            AnyPdnGame::Checkers(game) => Target::set_result(game, result),
            AnyPdnGame::Board(game) => game.set_result(result),
        }
    }
}
