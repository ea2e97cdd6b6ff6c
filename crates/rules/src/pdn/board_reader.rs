//! Reading the PDN of the boards of any size: [`read_board_pdn`] for games of one board
//! variant, known in advance.
//!
//! The text is read as [`read_pdn`](super::read_pdn) reads it (the same parser and lexer);
//! what differs is the variant and its notation. `GameType` must be the variant's (or
//! absent); `FEN` is the board's FEN (docs/rules.md, "Positions"), lidraughts' extra fields
//! (`:H0:F1`) ignored; moves are the board's move text, and on the 8x8 dark-square boards
//! squares may also be named (`c3-d4`, `c3:e5`), as Brazilian and Czech players write them.
//! Results are read in either PDN result set (`1-0` or `2-0`), the first figure the score of
//! the side that moves first in the variant.

use crate::board::{Board, BoardFenLoadError, BoardMoveTextError, BoardVariant, Geometry, RuleSet};
use crate::position::{Color, Variant};
use crate::shown::excerpt;

use super::board_game::BoardPdnGame;
use super::error::{PdnError, PdnErrorKind};
use super::game::PdnResult;
use super::reader::{read_all, read_each, Header, Target};
use super::record::Record;
use super::squares::{names_allowed, names_to_numbers, without_lidraughts_fields};

/// Reads every game of the board variant `V` in PDN text; the first error stops the reading.
/// A game whose `GameType` names another variant is an error
/// ([`PdnErrorKind::WrongGameType`]); [`read_any_pdn`](super::read_any_pdn) reads games of
/// any variant.
pub fn read_board_pdn<V: RuleSet>(text: &str) -> Result<Vec<BoardPdnGame<V>>, PdnError> {
    read_all(text)
}

/// Reads every game of the board variant `V` in PDN text, going on after a bad one (as
/// [`read_pdn_each`](super::read_pdn_each) does).
pub fn read_board_pdn_each<V: RuleSet>(text: &str) -> Vec<Result<BoardPdnGame<V>, PdnError>> {
    read_each(text)
}

/// The position of a `FEN` tag on the board of `V`.
pub(super) fn board_fen<V: RuleSet>(fen: &str) -> Result<Board<V>, BoardFenLoadError> {
    let fen = without_lidraughts_fields(fen);
    if names_allowed::<V::Geometry>() {
        Board::from_fen(&names_to_numbers::<V::Geometry>(&fen))
    } else {
        Board::from_fen(&fen)
    }
}

/// Why a GameType is not `V`'s: another variant's, or no variant's.
pub(super) fn not_this_game_type<V: RuleSet>(number: u32) -> PdnErrorKind {
    let name = BoardVariant::from_pdn_game_type(number)
        .map(BoardVariant::name)
        .or_else(|| Variant::from_pdn_game_type(number).map(Variant::name));
    match name {
        Some(found_variant) => {
            PdnErrorKind::WrongGameType { found: number, found_variant, expected: V::NAME }
        }
        None => PdnErrorKind::UnknownGameType(number),
    }
}

/// What move text on the board of `G` looks like, for an error.
fn move_text_example<G: Geometry>() -> &'static str {
    if G::ALGEBRAIC {
        "expected squares such as a3-a4 or d1xd5xh5"
    } else if names_allowed::<G>() {
        "expected squares such as 22-18, 18x11 or c3-d4"
    } else {
        "expected squares such as 32-28 or 28x19x10"
    }
}

impl<V: RuleSet> Target for BoardPdnGame<V> {
    fn begin(header: &Header) -> Result<BoardPdnGame<V>, (usize, PdnErrorKind)> {
        if let Some((number, line)) = header.game_type()? {
            if BoardVariant::of::<V>().map(BoardVariant::pdn_game_type) != Some(number) {
                return Err((line, not_this_game_type::<V>(number)));
            }
        }
        let start = match header.fen()? {
            Some((fen, line)) => board_fen::<V>(fen)
                .map_err(|error| (line, PdnErrorKind::BadBoardFen { fen: fen.to_string(), error }))?,
            None => Board::start(),
        };
        Ok(BoardPdnGame::from_position(start))
    }

    fn record_mut(&mut self) -> &mut Record {
        BoardPdnGame::record_mut(self)
    }

    fn first_player(&self) -> Color {
        V::FIRST
    }

    fn starting_side(&self) -> Color {
        self.start().turn()
    }

    fn moves_played(&self) -> usize {
        self.moves().len()
    }

    fn play(&mut self, text: &str, number: String) -> Result<(), PdnErrorKind> {
        let squares = if names_allowed::<V::Geometry>() {
            names_to_numbers::<V::Geometry>(text)
        } else {
            text.to_string()
        };
        let text = text.to_string();
        match self.end_position().parse_move(&squares) {
            Ok(mv) => {
                self.push_legal(mv);
                Ok(())
            }
            Err(e) => Err(match e {
                BoardMoveTextError::Illegal { reason, .. } => {
                    PdnErrorKind::IllegalMove { number, text, reason: reason.to_string() }
                }
                BoardMoveTextError::Ambiguous { candidates, .. } => {
                    PdnErrorKind::AmbiguousMove { number, text, candidates }
                }
                BoardMoveTextError::Syntax(_) => PdnErrorKind::NotAMove {
                    number,
                    text,
                    detail: move_text_example::<V::Geometry>().to_string(),
                },
                BoardMoveTextError::BadSquare { text: square, .. }
                | BoardMoveTextError::BadSquareName { text: square, .. } => {
                    let names = if names_allowed::<V::Geometry>() {
                        format!("numbers 1-{} or names such as c3", <V::Geometry as Geometry>::SQUARES)
                    } else {
                        <V::Geometry as Geometry>::square_names()
                    };
                    let detail =
                        format!("`{}` is not a square of this board (squares are {names})", excerpt(&square));
                    PdnErrorKind::NotAMove { number, text, detail }
                }
            }),
        }
    }

    fn set_result(&mut self, result: PdnResult) {
        BoardPdnGame::set_result(self, result);
    }
}
