//! Positions: who stands where and who is to move, as a small `Copy` value.

use std::fmt;
use std::str::FromStr;

use crate::error::{PositionError, VariantError};
use crate::square::{Square, SquareSet, DARK};

/// The rule sets this library plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// American/English checkers (straight checkers): short kings, men capture forward only,
    /// crowning ends the move. Black moves first.
    English,
    /// Russian draughts: flying kings, men capture backwards, Turkish strike, promotion during
    /// a capture. White moves first.
    Russian,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::English, Variant::Russian];

    /// The name used on the command line and in the Hub protocol.
    pub fn name(self) -> &'static str {
        match self {
            Variant::English => "english",
            Variant::Russian => "russian",
        }
    }

    /// The PDN `GameType` number (21 English, 25 Russian).
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::English => 21,
            Variant::Russian => 25,
        }
    }

    /// The variant of a PDN `GameType` number.
    pub fn from_pdn_game_type(n: u32) -> Option<Variant> {
        match n {
            21 => Some(Variant::English),
            25 => Some(Variant::Russian),
            _ => None,
        }
    }

    /// The side that moves first from the start position.
    pub fn first_to_move(self) -> Color {
        match self {
            Variant::English => Color::Black,
            Variant::Russian => Color::White,
        }
    }

    pub(crate) fn flying_kings(self) -> bool {
        self == Variant::Russian
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = VariantError;
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        match s.to_ascii_lowercase().as_str() {
            "english" | "american" | "checkers" => Ok(Variant::English),
            "russian" => Ok(Variant::Russian),
            _ => Err(VariantError(s.to_string())),
        }
    }
}

/// A side. White (called Red in English checkers) starts on squares 21-32 at the bottom and
/// moves up; Black starts on 1-12 at the top and moves down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// `W` or `B`, as in FEN.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// A man or a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Man,
    King,
}

/// A piece: its colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

/// Rank 8 (squares 1-4), where White men are crowned.
pub(crate) const TOP_ROW: u64 = 0xAA00_0000_0000_0000;
/// Rank 1 (squares 29-32), where Black men are crowned.
pub(crate) const BOTTOM_ROW: u64 = 0x0000_0000_0000_0055;

/// The most pieces one side may have on the 8x8 board.
pub const MAX_PIECES_PER_SIDE: u32 = 12;

/// A position: the pieces, the side to move and the variant whose rules apply.
///
/// Built only through [`Position::start`], [`Position::from_setup`] (which validates) or by
/// playing legal moves, so a `Position` is always valid.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
    pub(crate) turn: Color,
    pub(crate) variant: Variant,
}

/// The pieces and side to move of a position that has not been validated yet (what a FEN
/// parser produces).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    pub white_men: Vec<Square>,
    pub white_kings: Vec<Square>,
    pub black_men: Vec<Square>,
    pub black_kings: Vec<Square>,
    /// `None` when the text named no side (treated as an error on validation).
    pub turn: Option<Color>,
}

impl Position {
    /// The start position of a variant.
    pub fn start(variant: Variant) -> Position {
        let black: u64 = (1..=12).filter_map(Square::from_number).map(|s| s.bit()).sum();
        let white: u64 = (21..=32).filter_map(Square::from_number).map(|s| s.bit()).sum();
        Position { white, black, kings: 0, turn: variant.first_to_move(), variant }
    }

    /// Validates a setup against the rules of `variant`: at most 12 pieces a side, no square
    /// used twice, no man on the row where it would be crowned.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, PositionError> {
        let turn = setup.turn.ok_or(PositionError::NoSideToMove)?;
        // Folding the lists into sets is where a square named twice, even in one list,
        // shows; the other checks are those of `from_sets`.
        let mut occupied = 0u64;
        let mut fold = |squares: &[Square]| {
            let mut set = 0u64;
            for &sq in squares {
                if occupied & sq.bit() != 0 {
                    return Err(PositionError::SquareTwice(sq));
                }
                occupied |= sq.bit();
                set |= sq.bit();
            }
            Ok(SquareSet(set))
        };
        let sets = [
            fold(&setup.white_men)?,
            fold(&setup.white_kings)?,
            fold(&setup.black_men)?,
            fold(&setup.black_kings)?,
        ];
        Position::from_sets(variant, turn, sets)
    }

    /// Validates pieces given as four sets, as [`Position::from_setup`] does but without
    /// building lists: for programs that enumerate many positions (endgame databases).
    pub fn from_sets(
        variant: Variant,
        turn: Color,
        [white_men, white_kings, black_men, black_kings]: [SquareSet; 4],
    ) -> Result<Position, PositionError> {
        let mut occupied = 0u64;
        for set in [white_men, white_kings, black_men, black_kings] {
            let twice = occupied & set.0;
            if twice != 0 {
                return Err(PositionError::SquareTwice(Square::from_index(twice.trailing_zeros())));
            }
            occupied |= set.0;
        }
        for (men, color, crown) in [(white_men, Color::White, TOP_ROW), (black_men, Color::Black, BOTTOM_ROW)]
        {
            if men.0 & crown != 0 {
                let square = Square::from_index((men.0 & crown).trailing_zeros());
                return Err(PositionError::ManOnCrowningRow { square, color });
            }
        }
        let (white, black) = (white_men.0 | white_kings.0, black_men.0 | black_kings.0);
        for (color, bits) in [(Color::White, white), (Color::Black, black)] {
            if bits.count_ones() > MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces { color, count: bits.count_ones() });
            }
        }
        Ok(Position { white, black, kings: white_kings.0 | black_kings.0, turn, variant })
    }

    /// The pieces and side to move as an unvalidated [`Setup`] (squares in number order).
    pub fn to_setup(&self) -> Setup {
        let list = |bits: u64| SquareSet(bits).squares();
        Setup {
            white_men: list(self.white & !self.kings),
            white_kings: list(self.white & self.kings),
            black_men: list(self.black & !self.kings),
            black_kings: list(self.black & self.kings),
            turn: Some(self.turn),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        let color = if self.white & bit != 0 {
            Color::White
        } else if self.black & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings & bit != 0 { Role::King } else { Role::Man };
        Some(Piece { color, role })
    }
    /// All squares holding pieces of `color`.
    pub fn pieces(&self, color: Color) -> SquareSet {
        SquareSet(self.side_bits(color))
    }
    /// The kings of both sides.
    pub fn kings(&self) -> SquareSet {
        SquareSet(self.kings)
    }
    /// The squares with no piece.
    pub fn empty_squares(&self) -> SquareSet {
        SquareSet(DARK & !(self.white | self.black))
    }
    /// Men of `color`.
    pub fn men_of(&self, color: Color) -> SquareSet {
        SquareSet(self.side_bits(color) & !self.kings)
    }
    /// Kings of `color`.
    pub fn kings_of(&self, color: Color) -> SquareSet {
        SquareSet(self.side_bits(color) & self.kings)
    }

    /// The same pieces with the other side to move (for analysis tools; not a legal move).
    pub fn with_turn(self, turn: Color) -> Position {
        Position { turn, ..self }
    }

    pub(crate) fn side_bits(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// A 64-bit hash of the pieces and side to move, for repetition checks and
    /// transposition tables. Not cryptographic; stable across runs and platforms.
    pub fn hash_key(&self) -> u64 {
        #[inline]
        fn mix(mut x: u64) -> u64 {
            // splitmix64 finaliser
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        }
        let side = if self.turn == Color::White { 0x9e37_79b9_7f4a_7c15 } else { 0 };
        mix(self.white ^ side)
            ^ mix(self.black.rotate_left(17) ^ 0x2545_f491_4f6c_dd1d)
            ^ mix(self.kings.rotate_left(41) ^ 0x632b_e59b_d9b4_e019)
    }

    /// Text picture of the board, Black at the top (for debugging and tests).
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = match Square::from_coords(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece { color: Color::White, role: Role::Man }) => 'w',
                        Some(Piece { color: Color::White, role: Role::King }) => 'W',
                        Some(Piece { color: Color::Black, role: Role::Man }) => 'b',
                        Some(Piece { color: Color::Black, role: Role::King }) => 'B',
                    },
                };
                out.push(c);
                if file < 7 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out.push_str(&format!("{} to move\n", self.turn.name()));
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant, crate::fen::to_fen(self))
    }
}
