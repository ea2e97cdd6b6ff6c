//! Positions on a board of any geometry: three words and nothing more.

use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use super::bits::{Bits, EachBit};
use super::error::BoardPositionError;
use super::fmjd::FmjdReferee;
use super::geometry::{Dark10, Dark12, Dark8, Geometry};
use super::movegen::MajorityCapture;
use super::rules::{MoveRules, Referee};
use crate::position::{Color, Piece, Role};

/// The word of a rule set's board.
pub(crate) type BitsOf<V> = <<V as RuleSet>::Geometry as Geometry>::Bits;

/// A rule set of the International family, as a type: its board and start are constants, so
/// each variant's positions are a type of their own and its generator is compiled for it.
///
/// What differs between variants is named by associated types: the board, the move rules
/// and the referee, so a variant that plays by the International family's moves but ends its
/// games otherwise names [`MajorityCapture`] and a referee of its own.
pub trait RuleSet: Copy + Eq + Hash + fmt::Debug + Default + Send + Sync + 'static {
    /// The board.
    type Geometry: Geometry;
    /// How the moves are found.
    type Moves: MoveRules<Self>;
    /// When a game ends.
    type Referee: Referee<Self>;
    /// The name on the command line and in the protocols.
    const NAME: &'static str;
    /// Rows of men each side starts with.
    const START_ROWS: u32;
    /// The side that moves first from the start position.
    const FIRST: Color = Color::White;
    /// Rows left empty behind each side's men at the start (Turkish leaves its back row empty).
    const EMPTY_BACK_ROWS: u32 = 0;
}

/// International draughts (FMJD) on the 10x10 board: White on 31-50 moves first, Black on
/// 1-20 (docs/rules.md, "International draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl RuleSet for International {
    type Geometry = Dark10;
    type Moves = MajorityCapture;
    type Referee = FmjdReferee;
    const NAME: &'static str = "international";
    const START_ROWS: u32 = 4;
}

/// Brazilian draughts: International rules on the 8x8 board, White on 21-32 moves first,
/// Black on 1-12 (docs/rules.md, "Brazilian draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl RuleSet for Brazilian {
    type Geometry = Dark8;
    type Moves = MajorityCapture;
    type Referee = FmjdReferee;
    const NAME: &'static str = "brazilian";
    const START_ROWS: u32 = 3;
}

/// Canadian draughts: International rules on the 12x12 board, thirty men a side, White on
/// 43-72 moves first, Black on 1-30 (docs/rules.md, "Canadian draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Canadian;

impl RuleSet for Canadian {
    type Geometry = Dark12;
    type Moves = MajorityCapture;
    type Referee = FmjdReferee;
    const NAME: &'static str = "canadian";
    const START_ROWS: u32 = 5;
}

/// A position of rule set `V`: the pieces of each side and the side to move, always valid
/// (built only by [`Board::start`], [`Board::from_setup`] or by playing legal moves).
///
/// Three words: White's pieces, Black's pieces, and the kings of both, whose spare bit
/// (`Geometry::SPARE`, no square) is set when Black is to move. 24 bytes on 10x10.
pub struct Board<V: RuleSet> {
    pub(crate) white: BitsOf<V>,
    pub(crate) black: BitsOf<V>,
    pub(crate) kings: BitsOf<V>,
    rules: PhantomData<V>,
}

// Written out so that the rule set's marker type needs no bounds of its own.
impl<V: RuleSet> Clone for Board<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: RuleSet> Copy for Board<V> {}
impl<V: RuleSet> PartialEq for Board<V> {
    fn eq(&self, other: &Self) -> bool {
        (self.white, self.black, self.kings) == (other.white, other.black, other.kings)
    }
}
impl<V: RuleSet> Eq for Board<V> {}
impl<V: RuleSet> Hash for Board<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.white, self.black, self.kings).hash(state);
    }
}

/// The pieces and side to move of a position not yet validated (what a FEN parser gives),
/// squares by number.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardSetup {
    pub white_men: Vec<u32>,
    pub white_kings: Vec<u32>,
    pub black_men: Vec<u32>,
    pub black_kings: Vec<u32>,
    /// `None` when the text named no side (an error on validation).
    pub turn: Option<Color>,
}

impl<V: RuleSet> Board<V> {
    /// The most pieces one side can have: the men of the start position.
    pub const MAX_PIECES: u32 = V::START_ROWS * <V::Geometry as Geometry>::ROW_SQUARES;

    #[inline(always)]
    pub(crate) fn from_words(white: BitsOf<V>, black: BitsOf<V>, kings: BitsOf<V>) -> Board<V> {
        Board { white, black, kings, rules: PhantomData }
    }

    /// The start position: Black's men on the first squares (the top of the board, from
    /// square 1 where the numbers run from Black's side), White's on the last, after
    /// `EMPTY_BACK_ROWS` empty rows on each side, and `V::FIRST` to move. Rows are taken by
    /// layout, so a board numbered from White's side gets the same picture.
    pub fn start() -> Board<V> {
        let men = Self::MAX_PIECES as usize;
        let skip = (V::EMPTY_BACK_ROWS * <V::Geometry as Geometry>::ROW_SQUARES) as usize;
        let squares: Vec<BitsOf<V>> = EachBit(<V::Geometry as Geometry>::BOARD).collect();
        let fold = |bits: &[BitsOf<V>]| bits.iter().fold(BitsOf::<V>::ZERO, |acc, &b| acc | b);
        let last = squares.len() - skip;
        let (black, white) = (fold(&squares[skip..skip + men]), fold(&squares[last - men..last]));
        Board::from_words(white, black, BitsOf::<V>::ZERO).with_turn(V::FIRST)
    }

    /// Validates a setup: a side to move, every square on the board and named once, at most
    /// [`Board::MAX_PIECES`] a side, no man on the row where it would be crowned.
    pub fn from_setup(setup: &BoardSetup) -> Result<Board<V>, BoardPositionError> {
        let turn = setup.turn.ok_or(BoardPositionError::NoSideToMove)?;
        let mut occupied = BitsOf::<V>::ZERO;
        let mut fold = |squares: &[u32]| {
            let mut set = BitsOf::<V>::ZERO;
            for &number in squares {
                let index =
                    <V::Geometry as Geometry>::index_of(number).ok_or(BoardPositionError::NoSuchSquare {
                        square: number,
                        squares: <V::Geometry as Geometry>::SQUARES,
                    })?;
                let bit = BitsOf::<V>::bit(index);
                if !(occupied & bit).is_zero() {
                    return Err(BoardPositionError::SquareTwice(number));
                }
                occupied |= bit;
                set |= bit;
            }
            Ok(set)
        };
        let white_men = fold(&setup.white_men)?;
        let white_kings = fold(&setup.white_kings)?;
        let black_men = fold(&setup.black_men)?;
        let black_kings = fold(&setup.black_kings)?;
        for (men, color, row) in [
            (white_men, Color::White, <V::Geometry as Geometry>::TOP_ROW),
            (black_men, Color::Black, <V::Geometry as Geometry>::BOTTOM_ROW),
        ] {
            let wrong = men & row;
            if !wrong.is_zero() {
                let square = <V::Geometry as Geometry>::number_of(wrong.lowest_index());
                return Err(BoardPositionError::ManOnCrowningRow { square, color });
            }
        }
        let (white, black) = (white_men | white_kings, black_men | black_kings);
        for (color, bits) in [(Color::White, white), (Color::Black, black)] {
            if bits.count() > Self::MAX_PIECES {
                return Err(BoardPositionError::TooManyPieces {
                    color,
                    count: bits.count(),
                    most: Self::MAX_PIECES,
                });
            }
        }
        let mut kings = white_kings | black_kings;
        if turn == Color::Black {
            kings |= <V::Geometry as Geometry>::SPARE;
        }
        Ok(Board::from_words(white, black, kings))
    }

    /// The pieces and side to move as a [`BoardSetup`], squares ascending.
    pub fn to_setup(&self) -> BoardSetup {
        let list = |bits: BitsOf<V>| -> Vec<u32> {
            let mut squares: Vec<u32> = EachBit(bits & <V::Geometry as Geometry>::BOARD)
                .map(|b| <V::Geometry as Geometry>::number_of(b.lowest_index()))
                .collect();
            squares.sort_unstable();
            squares
        };
        BoardSetup {
            white_men: list(self.white & !self.kings),
            white_kings: list(self.white & self.kings),
            black_men: list(self.black & !self.kings),
            black_kings: list(self.black & self.kings),
            turn: Some(self.turn()),
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        if (self.kings & <V::Geometry as Geometry>::SPARE).is_zero() {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece on square `number` (`None` for an empty square or a number off the board).
    pub fn piece_at(&self, number: u32) -> Option<Piece> {
        let bit = BitsOf::<V>::bit(<V::Geometry as Geometry>::index_of(number)?);
        let color = if !(self.white & bit).is_zero() {
            Color::White
        } else if !(self.black & bit).is_zero() {
            Color::Black
        } else {
            return None;
        };
        let role = if (self.kings & bit).is_zero() { Role::Man } else { Role::King };
        Some(Piece { color, role })
    }

    /// The number of pieces of `color`.
    pub fn piece_count(&self, color: Color) -> u32 {
        self.side_bits(color).count()
    }

    /// The squares of `color`'s pieces (masked with the board: Frisian keeps a run of king
    /// moves in bits of these words that are no square).
    #[inline(always)]
    pub(crate) fn side_bits(&self, color: Color) -> BitsOf<V> {
        let word = match color {
            Color::White => self.white,
            Color::Black => self.black,
        };
        word & <V::Geometry as Geometry>::BOARD
    }

    /// `color`'s men as a layout word (bit `i` is the square with layout index `i`;
    /// [`Geometry::number_of`] names it): for evaluations that work on whole words.
    #[inline(always)]
    pub fn men_bits(&self, color: Color) -> BitsOf<V> {
        self.side_bits(color) & !self.kings
    }

    /// `color`'s kings as a layout word (see [`Board::men_bits`]).
    #[inline(always)]
    pub fn kings_bits(&self, color: Color) -> BitsOf<V> {
        self.side_bits(color) & self.kings
    }

    /// A 64-bit key of the position for hash tables: the three words mixed, so the side to
    /// move and (Frisian) the runs of king moves count, as they do for equality. Positions
    /// that differ get different keys but for chance collisions (about one in 2^64 a pair).
    #[inline(always)]
    pub fn hash_key(&self) -> u64 {
        let word = |bits: BitsOf<V>, salt: u64| {
            let (low, high) = bits.halves();
            mix64(low ^ salt) ^ mix64(high ^ salt.rotate_left(32)).rotate_left(17)
        };
        word(self.white, 0x9e37_79b9_7f4a_7c15)
            ^ word(self.black, 0xc2b2_ae3d_27d4_eb4f).rotate_left(21)
            ^ word(self.kings, 0x1656_67b1_9e37_79f9).rotate_left(42)
    }

    /// The same pieces with the other side to move (for analysis; not a legal move).
    pub fn with_turn(self, turn: Color) -> Board<V> {
        let kings = self.kings & !<V::Geometry as Geometry>::SPARE;
        let spare = if turn == Color::Black { <V::Geometry as Geometry>::SPARE } else { BitsOf::<V>::ZERO };
        Board::from_words(self.white, self.black, kings | spare)
    }

    /// Text picture of the board, Black at the top: `w`/`b` men, `W`/`B` kings, `.` empty
    /// dark squares (for debugging and tests).
    pub fn diagram(&self) -> String {
        let side = <V::Geometry as Geometry>::SIDE;
        let mut rows = vec![vec![' '; side as usize]; side as usize];
        for number in 1..=<V::Geometry as Geometry>::SQUARES {
            let (file, rank) = <V::Geometry as Geometry>::coords(number);
            rows[(side - 1 - rank) as usize][file as usize] = match self.piece_at(number) {
                None => '.',
                Some(Piece { color: Color::White, role: Role::Man }) => 'w',
                Some(Piece { color: Color::White, role: Role::King }) => 'W',
                Some(Piece { color: Color::Black, role: Role::Man }) => 'b',
                Some(Piece { color: Color::Black, role: Role::King }) => 'B',
            };
        }
        let mut out = String::new();
        for row in rows {
            let line: Vec<String> = row.iter().map(char::to_string).collect();
            out.push_str(line.join(" ").trim_end());
            out.push('\n');
        }
        out.push_str(&format!("{} to move\n", self.turn().name()));
        out
    }
}

/// A 64-bit finaliser (splitmix64's): every input bit reaches every output bit.
#[inline(always)]
fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl<V: RuleSet> fmt::Debug for Board<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", V::NAME, self.to_fen())
    }
}
