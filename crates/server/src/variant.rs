//! The variants the site plays, by the names the protocol, the database and the pages use:
//! English and Russian on the rules library's 8x8 code ([`Variant`]), and every variant of its
//! boards of any size ([`BoardVariant`]: International and its family, the national 8x8 games,
//! Canadian on 12x12, Turkish). Stored names are these names, so a variant added here needs no
//! change to the database.

use std::fmt;
use std::str::FromStr;

use checkers_rules::board::{BoardVariant, Dark8, Geometry, RuleSet};
use checkers_rules::{excerpt, with_board_variant, Color, SquareNotation, Variant};
use serde::Serialize;
use thiserror::Error;

/// A variant the site plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameVariant {
    /// English or Russian, on the 8x8 code the engine was first written for.
    Eight(Variant),
    /// Any variant of the boards of any size.
    Board(BoardVariant),
}

/// A name that is no variant of the site's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown variant `{}` (expected one of {})", excerpt(.0), GameVariant::names(", "))]
pub struct UnknownVariant(pub String);

impl GameVariant {
    /// English checkers, the variant of a game that names none.
    pub const ENGLISH: GameVariant = GameVariant::Eight(Variant::English);

    /// Every variant: English and Russian first, then the boards' variants in the order the
    /// rules document them.
    pub const ALL: [GameVariant; 16] = {
        let mut all = [GameVariant::ENGLISH; 16];
        all[1] = GameVariant::Eight(Variant::Russian);
        let mut i = 0;
        while i < BoardVariant::ALL.len() {
            all[i + 2] = GameVariant::Board(BoardVariant::ALL[i]);
            i += 1;
        }
        all
    };

    /// The name on the wire, in the database and on the command line (`english`,
    /// `international`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GameVariant::Eight(variant) => variant.name(),
            GameVariant::Board(variant) => variant.name(),
        }
    }

    /// The variant's name as its players say it: `English checkers`, `Frysk!`.
    pub fn title(self) -> &'static str {
        match self {
            GameVariant::Eight(Variant::English) => "English checkers",
            GameVariant::Eight(Variant::Russian) => "Russian draughts",
            GameVariant::Board(variant) => match variant {
                BoardVariant::International => "International draughts",
                BoardVariant::Brazilian => "Brazilian draughts",
                BoardVariant::Canadian => "Canadian draughts",
                BoardVariant::Frisian => "Frisian draughts",
                BoardVariant::Frysk => "Frysk!",
                BoardVariant::Antidraughts => "Antidraughts",
                BoardVariant::Breakthrough => "Breakthrough",
                BoardVariant::Italian => "Italian draughts",
                BoardVariant::Spanish => "Spanish draughts",
                BoardVariant::Portuguese => "Portuguese draughts",
                BoardVariant::Czech => "Czech draughts",
                BoardVariant::Pool => "Pool checkers",
                BoardVariant::Thai => "Thai draughts",
                BoardVariant::Turkish => "Turkish draughts",
            },
        }
    }

    /// Every variant's name, separated by `separator`.
    pub fn names(separator: &str) -> String {
        GameVariant::ALL.map(GameVariant::name).join(separator)
    }

    /// The position of the variant in [`GameVariant::ALL`].
    pub fn index(self) -> usize {
        GameVariant::ALL.iter().position(|&v| v == self).unwrap_or(0)
    }
}

/// What a page needs to draw a variant's board and name its squares (`GET /api/variants`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardLayout {
    pub name: &'static str,
    pub title: &'static str,
    /// `white` or `black`: the side that moves first, whose win the result `1-0` is.
    pub first: &'static str,
    /// Squares along a side of the board: 8, 10 or 12.
    pub side: u32,
    /// Whether pieces stand on every square (Turkish) rather than the dark ones.
    pub full: bool,
    /// `numbers` or `names`: how the variant's players write squares in moves (`c3`, `21`).
    pub notation: &'static str,
    /// Where square `n` (the protocol's numbers, 1 first) is: `[file, rank]`, file 0 the left
    /// edge (a) and rank 0 White's back row, as White sees the board.
    pub squares: Vec<[u32; 2]>,
    /// The start position's FEN.
    pub start_fen: String,
}

impl GameVariant {
    /// The variant's board as a page draws it.
    pub fn layout(self) -> BoardLayout {
        fn of<G: Geometry>(variant: GameVariant, first: Color, names: bool) -> BoardLayout {
            let start_fen = crate::rules::AnyGame::new(variant).start_fen();
            BoardLayout {
                name: variant.name(),
                title: variant.title(),
                first: if first == Color::White { "white" } else { "black" },
                side: G::SIDE,
                full: G::SQUARES == G::SIDE * G::SIDE,
                notation: if names { "names" } else { "numbers" },
                squares: (1..=G::SQUARES).map(|n| G::coords(n)).map(|(file, rank)| [file, rank]).collect(),
                start_fen,
            }
        }
        match self {
            // English and Russian number the board as the International-family 8x8 board does.
            GameVariant::Eight(variant) => {
                of::<Dark8>(self, variant.first_to_move(), variant == Variant::Russian)
            }
            GameVariant::Board(variant) => with_board_variant!(variant, V => {
                let names = variant.pdn_notation() == SquareNotation::Algebraic;
                of::<<V as RuleSet>::Geometry>(self, V::FIRST, names)
            }),
        }
    }
}

impl FromStr for GameVariant {
    type Err = UnknownVariant;

    /// A variant's name in any case; English and Russian also by the other names the rules
    /// give them (`american`, `checkers`).
    fn from_str(name: &str) -> Result<GameVariant, UnknownVariant> {
        if let Ok(variant) = name.parse::<Variant>() {
            return Ok(GameVariant::Eight(variant));
        }
        let lower = name.to_ascii_lowercase();
        BoardVariant::ALL
            .into_iter()
            .find(|v| v.name() == lower)
            .map(GameVariant::Board)
            .ok_or_else(|| UnknownVariant(name.to_string()))
    }
}

impl fmt::Display for GameVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Variant> for GameVariant {
    fn from(variant: Variant) -> GameVariant {
        GameVariant::Eight(variant)
    }
}

impl From<BoardVariant> for GameVariant {
    fn from(variant: BoardVariant) -> GameVariant {
        GameVariant::Board(variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_the_first_two_are_the_8x8_ones() {
        for (i, variant) in GameVariant::ALL.into_iter().enumerate() {
            assert_eq!(variant.name().parse::<GameVariant>(), Ok(variant));
            assert_eq!(variant.name().to_uppercase().parse::<GameVariant>(), Ok(variant));
            assert_eq!(variant.index(), i);
        }
        assert_eq!(GameVariant::ALL[..2], [GameVariant::ENGLISH, GameVariant::Eight(Variant::Russian)]);
        assert_eq!("american".parse::<GameVariant>(), Ok(GameVariant::ENGLISH));
        assert_eq!("Frysk".parse::<GameVariant>(), Ok(GameVariant::Board(BoardVariant::Frysk)));
        let refused = "chess".parse::<GameVariant>().unwrap_err().to_string();
        assert_eq!(
            refused,
            "unknown variant `chess` (expected one of english, russian, international, brazilian, canadian, \
             frisian, frysk, antidraughts, breakthrough, italian, spanish, portuguese, czech, pool, thai, turkish)"
        );
    }

    #[test]
    fn layouts_put_each_square_where_its_players_number_it() {
        let layout = |name: &str| name.parse::<GameVariant>().unwrap().layout();
        let english = layout("english");
        assert_eq!(
            (english.side, english.full, english.first, english.notation),
            (8, false, "black", "numbers")
        );
        assert_eq!((english.squares[0], english.squares[31]), ([1, 7], [6, 0]));
        assert_eq!((layout("russian").first, layout("russian").notation), ("white", "names"));
        let international = layout("international");
        assert_eq!((international.side, international.squares.len()), (10, 50));
        // 1 at b10, 46 at a1, 50 at i1.
        assert_eq!(
            [international.squares[0], international.squares[45], international.squares[49]],
            [[1, 9], [0, 0], [8, 0]]
        );
        assert_eq!(layout("canadian").squares.len(), 72);
        // Italian's board is mirrored: 1 at a8, 32 at h1, the dark corner at each player's right.
        assert_eq!([layout("italian").squares[0], layout("italian").squares[31]], [[0, 7], [7, 0]]);
        let turkish = layout("turkish");
        assert_eq!((turkish.full, turkish.squares.len(), turkish.notation), (true, 64, "names"));
        assert!(
            international.start_fen.starts_with("W:W31,32,") && international.start_fen.ends_with(",19,20")
        );
        assert_eq!((layout("brazilian").notation, layout("pool").first), ("names", "black"));
    }
}
