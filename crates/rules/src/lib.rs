//! # checkers-rules
//!
//! The exact rules of English (American) checkers and Russian draughts, shaped so that more
//! draughts variants can join on the same core. It holds positions as small `Copy` values on
//! bitboards, generates legal moves (compulsory and multi-jump captures, crowning, flying
//! kings, Turkish strike, promotion during a capture), keeps games with their history and
//! decides their outcome (with every lone king against lone king solved once), and reads and writes FEN, move text and PDN.
//!
//! The [`board`] module makes board geometry a compile-time parameter and holds the rules on
//! it: International draughts (10x10) and its family (Brazilian on 8x8, Canadian on 12x12,
//! Frisian, Frysk!, Antidraughts, Breakthrough), the national 8x8 games (Italian, Spanish,
//! Portuguese, Czech, Pool, Thai) and Turkish (all 64 squares of 8x8) have their positions,
//! legal moves, FEN, move text, perft and games there, and their games are read and written
//! as PDN ([`read_board_pdn`], [`write_board_pdn`]; [`read_any_pdn`] reads a file of games of
//! any variant, each by its `GameType`); they are not yet a [`Variant`] of the engine, the
//! server or the command line's game commands.
//!
//! Everything else in the project stands on this crate: the engine searches with it, the
//! terminal game and the server referee with it. It therefore does no I/O and must never
//! depend on the engine, the server, the command line or any async or database crate.
//!
//! ```
//! use checkers_rules::{Position, Variant};
//! let start = Position::start(Variant::English);
//! assert_eq!(start.legal_moves().len(), 7);
//! assert_eq!(checkers_rules::perft(&start, 6), 36768);
//! ```

pub mod board;
mod error;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod pdn;
mod perft;
mod position;
mod shown;
mod square;
mod two_kings;

pub use error::{FenError, FenLoadError, IllegalMove, PositionError, VariantError};
pub use fen::{parse_fen, parse_square, to_fen, to_fen_with, SquareNotation};
pub use game::{DrawReason, Game, GameError, Outcome, WinReason};
pub use moves::{Move, MoveList};
pub use notation::{IllegalReason, MoveTextError};
pub use pdn::{
    names_allowed, names_to_numbers, numbers_to_names, pdn_date, read_any_pdn, read_any_pdn_each,
    read_board_pdn, read_board_pdn_each, read_pdn, read_pdn_each, read_pdn_game, write_any_pdn,
    write_board_pdn, write_pdn, write_pdn_with, AnyBoardPdnGame, AnyPdnGame, BoardPdnGame, PdnError,
    PdnErrorKind, PdnGame, PdnResult, PdnTagError, ResultStyle,
};
pub use perft::{perft, perft_divide, Perft, PerftMode, PerftTable};
pub use position::{Color, Piece, Position, Role, Setup, Variant, MAX_PIECES_PER_SIDE};
pub use shown::{escape_controls, excerpt};
pub use square::{Square, SquareIter, SquareSet};
pub use two_kings::{
    is_drawn_king_against_king, lone_kings_plies_to_capture, lone_kings_result, LoneKingsResult,
};
