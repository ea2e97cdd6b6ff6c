//! Writing the PDN of the boards of any size, in the canonical form of the 8x8 writer (the
//! same layout: roster tags, `Result`, `GameType`, `SetUp` and `FEN` for a start that is not
//! the variant's, the other tags; numbered moves, comments, 80 columns, the result).
//!
//! What is the variant's own: the `GameType` number and the result set
//! ([`BoardVariant::pdn_game_type`], [`BoardVariant::pdn_result_style`]), and the notation
//! ([`BoardVariant::pdn_notation`]): names (`c3-d4`) for Brazilian and Czech unless numbers
//! are asked for, names always for Turkish, numbers for the others. A move is written in its
//! short form (`from-to`, `fromxto`) when that names it alone, otherwise as its whole route
//! (`28x19x10`, the FMJD's stops for a king). Reading the text gives back an equal game.

use crate::board::{Board, BoardVariant, RuleSet};
use crate::fen::SquareNotation;

use super::board_game::BoardPdnGame;
use super::game::ResultStyle;
use super::squares::{names_allowed, numbers_to_names};
use super::writer::write_game_text;

impl<V: RuleSet> BoardPdnGame<V> {
    /// This game as PDN text, in the variant's notation.
    pub fn to_pdn(&self) -> String {
        let notation = BoardVariant::of::<V>().map_or(SquareNotation::Numeric, BoardVariant::pdn_notation);
        self.to_pdn_with(notation)
    }

    /// This game as PDN text, squares in `notation` where the board allows both: numbers or
    /// names on the 8x8 dark-square boards; names only on Turkish's board, numbers only on
    /// 10x10 and 12x12.
    pub fn to_pdn_with(&self, notation: SquareNotation) -> String {
        let variant = BoardVariant::of::<V>();
        let style = variant.map_or(ResultStyle::Default, BoardVariant::pdn_result_style);
        let result = self.result().to_pdn_first(V::FIRST, style);
        let names = notation == SquareNotation::Algebraic && names_allowed::<V::Geometry>();
        let squares = |text: String| if names { numbers_to_names::<V::Geometry>(&text) } else { text };
        let mut derived = vec![("Result", result.to_string())];
        if let Some(variant) = variant {
            derived.push(("GameType", variant.pdn_game_type().to_string()));
        }
        if self.start() != Board::start() {
            derived.push(("SetUp", "1".to_string()));
            derived.push(("FEN", squares(self.start().to_fen())));
        }
        let mut moves = Vec::with_capacity(self.moves().len());
        let mut pos = self.start();
        for mv in self.moves() {
            let short = mv.to_short();
            let text = if pos.parse_move(&short).as_ref() == Ok(mv) { short } else { mv.to_pdn(&pos) };
            moves.push(squares(text));
            pos = pos.play_unchecked(mv);
        }
        let second_starts = self.start().turn() != V::FIRST;
        write_game_text(self.record(), &derived, &moves, second_starts, result)
    }
}

/// Several games of the board variant `V` as one PDN text, separated by blank lines.
pub fn write_board_pdn<V: RuleSet>(games: &[BoardPdnGame<V>]) -> String {
    games.iter().map(BoardPdnGame::to_pdn).collect::<Vec<_>>().join("\n")
}
