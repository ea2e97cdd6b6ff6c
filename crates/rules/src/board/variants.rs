//! The variants of boards of any size as a value chosen at run time ([`BoardVariant`]), for
//! callers that learn the variant from their input (a command line, a protocol message), and
//! [`with_board_variant!`](crate::with_board_variant) to run code written once against
//! [`RuleSet`](super::RuleSet) for the variant named: each arm is compiled for its rule set,
//! so the choice costs one `match`, not a call through a pointer at every move.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::shown::excerpt;

/// A variant played on [`Board`](super::Board), by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardVariant {
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
}

/// A name that is no variant of boards of any size.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{}` is not a variant of these boards (known: {})", excerpt(.0), BoardVariant::names())]
pub struct UnknownBoardVariant(pub String);

impl BoardVariant {
    /// Every variant, in the order the documentation lists them.
    pub const ALL: [BoardVariant; 14] = [
        BoardVariant::International,
        BoardVariant::Brazilian,
        BoardVariant::Canadian,
        BoardVariant::Frisian,
        BoardVariant::Frysk,
        BoardVariant::Antidraughts,
        BoardVariant::Breakthrough,
        BoardVariant::Italian,
        BoardVariant::Spanish,
        BoardVariant::Portuguese,
        BoardVariant::Czech,
        BoardVariant::Pool,
        BoardVariant::Thai,
        BoardVariant::Turkish,
    ];

    /// The name on the command line and in the protocols (the rule set's `NAME`).
    pub fn name(self) -> &'static str {
        crate::with_board_variant!(self, V => <V as super::RuleSet>::NAME)
    }

    /// Squares on a side of the board.
    pub fn board_side(self) -> u32 {
        crate::with_board_variant!(self, V => <<V as super::RuleSet>::Geometry as super::Geometry>::SIDE)
    }

    /// The number of squares pieces stand on.
    pub fn squares(self) -> u32 {
        crate::with_board_variant!(self, V => <<V as super::RuleSet>::Geometry as super::Geometry>::SQUARES)
    }

    /// Whether the variant's squares are named `a1`-`h8` rather than numbered (Turkish).
    pub fn algebraic(self) -> bool {
        crate::with_board_variant!(self, V => <<V as super::RuleSet>::Geometry as super::Geometry>::ALGEBRAIC)
    }

    fn names() -> String {
        Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
    }
}

impl FromStr for BoardVariant {
    type Err = UnknownBoardVariant;
    fn from_str(name: &str) -> Result<BoardVariant, UnknownBoardVariant> {
        Self::ALL.into_iter().find(|v| v.name() == name).ok_or_else(|| UnknownBoardVariant(name.to_string()))
    }
}

impl fmt::Display for BoardVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with the type `$v` standing for the rule set of `$variant` (a
/// [`BoardVariant`]): `with_board_variant!(variant, V => Board::<V>::start().to_fen())`.
#[macro_export]
macro_rules! with_board_variant {
    ($variant:expr, $v:ident => $body:expr) => {
        match $variant {
            $crate::board::BoardVariant::International => {
                type $v = $crate::board::International;
                $body
            }
            $crate::board::BoardVariant::Brazilian => {
                type $v = $crate::board::Brazilian;
                $body
            }
            $crate::board::BoardVariant::Canadian => {
                type $v = $crate::board::Canadian;
                $body
            }
            $crate::board::BoardVariant::Frisian => {
                type $v = $crate::board::Frisian;
                $body
            }
            $crate::board::BoardVariant::Frysk => {
                type $v = $crate::board::Frysk;
                $body
            }
            $crate::board::BoardVariant::Antidraughts => {
                type $v = $crate::board::Antidraughts;
                $body
            }
            $crate::board::BoardVariant::Breakthrough => {
                type $v = $crate::board::Breakthrough;
                $body
            }
            $crate::board::BoardVariant::Italian => {
                type $v = $crate::board::Italian;
                $body
            }
            $crate::board::BoardVariant::Spanish => {
                type $v = $crate::board::Spanish;
                $body
            }
            $crate::board::BoardVariant::Portuguese => {
                type $v = $crate::board::Portuguese;
                $body
            }
            $crate::board::BoardVariant::Czech => {
                type $v = $crate::board::Czech;
                $body
            }
            $crate::board::BoardVariant::Pool => {
                type $v = $crate::board::Pool;
                $body
            }
            $crate::board::BoardVariant::Thai => {
                type $v = $crate::board::Thai;
                $body
            }
            $crate::board::BoardVariant::Turkish => {
                type $v = $crate::board::Turkish;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn names_round_trip_and_pick_the_rule_set() {
        for variant in BoardVariant::ALL {
            assert_eq!(variant.name().parse::<BoardVariant>(), Ok(variant));
        }
        assert_eq!(BoardVariant::International.board_side(), 10);
        assert_eq!(BoardVariant::Canadian.board_side(), 12);
        assert_eq!((BoardVariant::Canadian.squares(), BoardVariant::Turkish.squares()), (72, 64));
        assert!(BoardVariant::Turkish.algebraic() && !BoardVariant::Italian.algebraic());
        let fen = crate::with_board_variant!(BoardVariant::Brazilian, V => Board::<V>::start().to_fen());
        assert_eq!(fen, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
        let err = "checkers".parse::<BoardVariant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "`checkers` is not a variant of these boards (known: international, brazilian, canadian, frisian, frysk, antidraughts, breakthrough, italian, spanish, portuguese, czech, pool, thai, turkish)"
        );
    }
}
