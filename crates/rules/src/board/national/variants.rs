//! The six national 8x8 games as rule sets, and the two numberings of the mirrored board
//! that Italian, Spanish and Portuguese players use.
//!
//! Italian, Spanish and Portuguese boards are mirrored: the dark corner is at each player's
//! right, not left. Mirroring the board is a symmetry of the game, so these variants keep
//! [`Dark8`]'s bit layout seen in a mirror (a layout step that is up and to the right on
//! `Dark8` is up and to the left here) and differ only in how squares are named:
//! [`ItalianBoard`] numbers 1-32 from the top left (FID, White on 21-32), [`SpanishBoard`]
//! from White's bottom right (White on 1-12).

use super::super::geometry::{Dark8, Geometry};
use super::super::position::RuleSet;
use super::referee::NationalReferee;
use super::{CaptureChoice, NationalMoves, NationalVariant};
use crate::position::Color;

/// The Dark8 square number in the same layout place as `number` read across the row the
/// other way (an involution).
fn across(number: u32) -> u32 {
    let i = number - 1;
    4 * (i / 4) + (3 - i % 4) + 1
}

/// File and rank of square `number` when squares are numbered from the top left of a board
/// whose top left corner is dark.
fn mirrored_coords(number: u32) -> (u32, u32) {
    let i = number - 1;
    let row_from_top = i / 4;
    (2 * (i % 4) + row_from_top % 2, 7 - row_from_top)
}

/// The inverse of [`mirrored_coords`].
fn mirrored_at(file: i32, rank: i32) -> Option<u32> {
    if !(0..8).contains(&file) || !(0..8).contains(&rank) || (file + rank) % 2 == 0 {
        return None;
    }
    Some((7 - rank as u32) * 4 + file as u32 / 2 + 1)
}

/// The mirrored 8x8 board with the FID's numbering (Italian draughts): the dark corner at
/// each player's right, squares 1-32 from the top left (Black's side), left to right, row by
/// row; square 1 is a8, 32 is h1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ItalianBoard;

impl Geometry for ItalianBoard {
    type Bits = u64;
    const SIDE: u32 = 8;
    const SQUARES: u32 = 32;
    const UP_RIGHT: i32 = Dark8::UP_LEFT;
    const UP_LEFT: i32 = Dark8::UP_RIGHT;
    const DOWN_RIGHT: i32 = Dark8::DOWN_LEFT;
    const DOWN_LEFT: i32 = Dark8::DOWN_RIGHT;
    const BOARD: u64 = Dark8::BOARD;
    const TOP_ROW: u64 = Dark8::TOP_ROW;
    const BOTTOM_ROW: u64 = Dark8::BOTTOM_ROW;
    const SPARE: u64 = Dark8::SPARE;

    fn index_of(number: u32) -> Option<u32> {
        (1..=32).contains(&number).then(|| Dark8::index_of(across(number)).expect("a square"))
    }
    fn number_of(index: u32) -> u32 {
        across(Dark8::number_of(index))
    }
    fn coords(number: u32) -> (u32, u32) {
        mirrored_coords(number)
    }
    fn at(file: i32, rank: i32) -> Option<u32> {
        mirrored_at(file, rank)
    }
}

/// The mirrored 8x8 board numbered as Spanish and Portuguese players do: square 1 at White's
/// bottom right (h1), right to left, row by row up to 32 at the top left (a8); White's men
/// start on 1-12.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpanishBoard;

impl Geometry for SpanishBoard {
    type Bits = u64;
    const SIDE: u32 = 8;
    const SQUARES: u32 = 32;
    const UP_RIGHT: i32 = ItalianBoard::UP_RIGHT;
    const UP_LEFT: i32 = ItalianBoard::UP_LEFT;
    const DOWN_RIGHT: i32 = ItalianBoard::DOWN_RIGHT;
    const DOWN_LEFT: i32 = ItalianBoard::DOWN_LEFT;
    const BOARD: u64 = Dark8::BOARD;
    const TOP_ROW: u64 = Dark8::TOP_ROW;
    const BOTTOM_ROW: u64 = Dark8::BOTTOM_ROW;
    const SPARE: u64 = Dark8::SPARE;

    fn index_of(number: u32) -> Option<u32> {
        (1..=32).contains(&number).then(|| ItalianBoard::index_of(33 - number).expect("a square"))
    }
    fn number_of(index: u32) -> u32 {
        33 - ItalianBoard::number_of(index)
    }
    fn coords(number: u32) -> (u32, u32) {
        mirrored_coords(33 - number)
    }
    fn at(file: i32, rank: i32) -> Option<u32> {
        mirrored_at(file, rank).map(|n| 33 - n)
    }
}

/// Declares a national variant: its marker type, its [`RuleSet`] and its [`NationalVariant`]
/// constants, in the order of the latter's fields.
macro_rules! national_variant {
    (
        $(#[$doc:meta])*
        $name:ident, $text:literal, $geometry:ty, rows $rows:literal, first $first:expr,
        [$back:literal, $flying:literal, $behind:literal, $take_kings:literal, $at_once:literal,
         $crown_ends:literal, $choice:expr, $repetitions:literal, $king_plies:expr]
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl RuleSet for $name {
            type Geometry = $geometry;
            type Moves = NationalMoves;
            type Referee = NationalReferee;
            const NAME: &'static str = $text;
            const START_ROWS: u32 = $rows;
            const FIRST: Color = $first;
        }

        impl NationalVariant for $name {
            const MEN_CAPTURE_BACKWARDS: bool = $back;
            const FLYING_KINGS: bool = $flying;
            const KING_LANDS_BEHIND: bool = $behind;
            const MEN_TAKE_KINGS: bool = $take_kings;
            const REMOVE_AT_ONCE: bool = $at_once;
            const CROWN_ENDS_CAPTURE: bool = $crown_ends;
            const CHOICE: CaptureChoice = $choice;
            const REPETITIONS: usize = $repetitions;
            const KING_MOVE_PLIES: Option<usize> = $king_plies;
        }
    };
}

// Constants in order: men take backwards, kings fly, kings land right behind, men take kings,
// taken pieces off at once, crowning ends a capture, choice of capture, repetitions for a
// draw, king-only plies for a draw.

national_variant! {
    /// Italian draughts (FID): the mirrored board numbered from the top left, Black on 1-12,
    /// White on 21-32 and moving first; men move and take forwards only and never take kings,
    /// kings move one square; the capture priorities of FID art. 6 (docs/rules.md, "Italian
    /// draughts").
    Italian, "italian", ItalianBoard, rows 3, first Color::White,
    [false, false, false, false, false, true, CaptureChoice::Italian, 4, Some(80)]
}

national_variant! {
    /// Spanish draughts: the mirrored board numbered from White's bottom right, White on 1-12
    /// moving first, Black on 21-32; men take forwards only, kings fly; the most pieces, then
    /// the most kings, must be taken (docs/rules.md, "Spanish draughts").
    Spanish, "spanish", SpanishBoard, rows 3, first Color::White,
    [false, true, false, true, false, true, CaptureChoice::Majority, 3, Some(40)]
}

national_variant! {
    /// Portuguese draughts (damas clássicas): Spanish moves and draws on the same board and
    /// numbering (docs/rules.md, "Portuguese draughts").
    Portuguese, "portuguese", SpanishBoard, rows 3, first Color::White,
    [false, true, false, true, false, true, CaptureChoice::Majority, 3, Some(40)]
}

national_variant! {
    /// Czech draughts: the standard board and numbering ([`Dark8`]: Black on 1-12, White on
    /// 21-32 and moving first); men take forwards only, kings fly; a king must make the capture
    /// when a king can, otherwise any capture (docs/rules.md, "Czech draughts").
    Czech, "czech", Dark8, rows 3, first Color::White,
    [false, true, false, true, false, true, CaptureChoice::KingFirst, 3, None]
}

national_variant! {
    /// American pool checkers (APCA): the standard board and numbering ([`Dark8`], as English
    /// checkers: Black on 1-12 moves first, White on 21-32); men take both ways and jump on
    /// past the king row as men, kings fly, any capture may be chosen (docs/rules.md, "Pool
    /// checkers").
    Pool, "pool", Dark8, rows 3, first Color::Black,
    [true, true, false, true, false, false, CaptureChoice::Free, 3, None]
}

national_variant! {
    /// Thai draughts (Mak-hos): the standard board and numbering ([`Dark8`]), eight men a side
    /// on the two nearest rows (Black 1-8, White 25-32, White first); men take forwards only;
    /// kings fly but land right behind the piece they take; taken pieces come off at once;
    /// any capture may be chosen (docs/rules.md, "Thai draughts").
    Thai, "thai", Dark8, rows 2, first Color::White,
    [false, true, true, true, true, true, CaptureChoice::Free, 3, None]
}
