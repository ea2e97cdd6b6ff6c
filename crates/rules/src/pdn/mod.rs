//! PDN games: reading and writing whole games (tags, start position, moves, comments, result).
//!
//! One concern per file: [`game`] the game model of English and Russian (what a game keeps,
//! and what its results mean), [`record`] the tags and comments every game keeps,
//! [`reader`] and its [`lexer`] reading PDN text as files in the wild write it (one parser
//! for every kind of game), [`writer`] writing the one canonical form, and [`error`] what can
//! be wrong in the text. The boards of any size: [`board_game`] their game model,
//! [`board_reader`] and [`board_writer`], [`game_type`] each variant's `GameType`, notation
//! and result set, [`squares`] square names on the 8x8 boards; [`any`] reads a file of games
//! of any variant.
//!
//! ```
//! use checkers_rules::{read_pdn, Color, PdnResult};
//! let games = read_pdn("[Event \"Club\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0").unwrap();
//! assert_eq!(games[0].moves().len(), 4);
//! assert_eq!(games[0].result(), PdnResult::Win(Color::Black));
//! assert_eq!(
//!     games[0].to_pdn(),
//!     "[Event \"Club\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n"
//! );
//! ```

mod any;
mod board_game;
mod board_reader;
mod board_writer;
mod error;
mod game;
mod game_type;
mod lexer;
mod reader;
mod record;
mod squares;
mod writer;

pub use any::{read_any_pdn, read_any_pdn_each, write_any_pdn, AnyBoardPdnGame, AnyPdnGame};
pub use board_game::BoardPdnGame;
pub use board_reader::{read_board_pdn, read_board_pdn_each};
pub use board_writer::write_board_pdn;
pub use error::{PdnError, PdnErrorKind, PdnTagError};
pub use game::{pdn_date, PdnGame, PdnResult, ResultStyle};
pub use reader::{read_pdn, read_pdn_each, read_pdn_game};
pub use squares::{names_allowed, names_to_numbers, numbers_to_names};
pub use writer::{write_pdn, write_pdn_with};
