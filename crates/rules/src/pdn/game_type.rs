//! Each variant's PDN `GameType` number, the notation its moves are written in and its result
//! set (docs/rules.md, "PDN games", has the table with the sources).
//!
//! The numbers are PDN 3.0's (pdn.fmjd.org, "GameType tag"), except for the three games the
//! standard does not number, which take lidraughts' numbers (its variants' `gameType`, which
//! its PDN export writes as the tag): Frysk! 97, Antidraughts 98, Breakthrough 96. pydraughts
//! writes Frysk! as 40 (Frisian), which reads as Frisian: the same rules from the FEN's start.

use crate::board::{BoardVariant, RuleSet};
use crate::fen::SquareNotation;
use crate::position::Variant;

use super::game::ResultStyle;

/// The PDN facts of one board variant: (variant, GameType, notation, result set).
const TABLE: [(BoardVariant, u32, SquareNotation, ResultStyle); 14] = {
    use BoardVariant as B;
    use ResultStyle::{Default as D, International as I};
    use SquareNotation::{Algebraic as A, Numeric as N};
    [
        (B::International, 20, N, I),
        (B::Brazilian, 26, A, D),
        (B::Canadian, 27, N, I),
        (B::Frisian, 40, N, D),
        (B::Frysk, 97, N, I),
        (B::Antidraughts, 98, N, I),
        (B::Breakthrough, 96, N, I),
        (B::Italian, 22, N, D),
        (B::Spanish, 24, N, D),
        (B::Portuguese, 28, N, D),
        (B::Czech, 29, A, D),
        (B::Pool, 23, N, D),
        (B::Thai, 31, N, D),
        (B::Turkish, 30, A, D),
    ]
};

fn row(variant: BoardVariant) -> (BoardVariant, u32, SquareNotation, ResultStyle) {
    TABLE.into_iter().find(|r| r.0 == variant).unwrap_or(TABLE[0])
}

impl BoardVariant {
    /// The PDN `GameType` number of the variant.
    pub fn pdn_game_type(self) -> u32 {
        row(self).1
    }

    /// The board variant a PDN `GameType` number names (21 and 25, English and Russian, are
    /// [`Variant`]s of the 8x8 code, not board variants).
    pub fn from_pdn_game_type(number: u32) -> Option<BoardVariant> {
        TABLE.into_iter().find(|r| r.1 == number).map(|r| r.0)
    }

    /// How the variant's players write squares, and so how its PDN is written by default:
    /// names (`c3-d4`) for Brazilian, Czech and Turkish, as PDN 3.0's GameType table gives
    /// them; numbers for the others.
    pub fn pdn_notation(self) -> SquareNotation {
        row(self).2
    }

    /// The result set the variant's PDN is written with: PDN 3.0's International set
    /// (`2-0`, `1-1`, `0-2`) for International and Canadian draughts, and for the three games
    /// only lidraughts writes (Frysk!, Antidraughts, Breakthrough), as it writes them; the
    /// default set for the others.
    pub fn pdn_result_style(self) -> ResultStyle {
        row(self).3
    }

    /// The board variant whose rule set is `V`, if `V` is one of the library's.
    pub fn of<V: RuleSet>() -> Option<BoardVariant> {
        BoardVariant::ALL.into_iter().find(|v| v.name() == V::NAME)
    }
}

/// Every GameType number read, and what it is, for error messages: `20 international, 21
/// english, ...`, ascending.
pub(super) fn known_game_types() -> String {
    let mut known: Vec<(u32, &str)> = TABLE.iter().map(|r| (r.1, r.0.name())).collect();
    known.extend(Variant::ALL.iter().map(|v| (v.pdn_game_type(), v.name())));
    known.sort_unstable();
    known.iter().map(|(n, name)| format!("{n} {name}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_number() {
        for variant in BoardVariant::ALL {
            assert_eq!(BoardVariant::from_pdn_game_type(variant.pdn_game_type()), Some(variant));
            assert_eq!(Variant::from_pdn_game_type(variant.pdn_game_type()), None);
        }
        assert_eq!(BoardVariant::from_pdn_game_type(21), None);
        assert_eq!(BoardVariant::of::<crate::board::Frysk>(), Some(BoardVariant::Frysk));
        assert_eq!(
            known_game_types(),
            "20 international, 21 english, 22 italian, 23 pool, 24 spanish, 25 russian, 26 brazilian, \
             27 canadian, 28 portuguese, 29 czech, 30 turkish, 31 thai, 40 frisian, 96 breakthrough, \
             97 frysk, 98 antidraughts"
        );
    }
}
