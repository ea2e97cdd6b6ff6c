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

/// Italian draughts (FID): the mirrored board numbered from the top left, Black on 1-12,
/// White on 21-32 and moving first; men move and take forwards only and never take kings,
/// kings move one square; the capture priorities of FID art. 6 (docs/rules.md, "Italian
/// draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl super::super::position::RuleSet for Italian {
    type Geometry = ItalianBoard;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "italian";
    const START_ROWS: u32 = 3;
}

impl NationalVariant for Italian {
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = false;
    const KING_LANDS_BEHIND: bool = false;
    const MEN_TAKE_KINGS: bool = false;
    const REMOVE_AT_ONCE: bool = false;
    const CROWN_ENDS_CAPTURE: bool = true;
    const CHOICE: CaptureChoice = CaptureChoice::Italian;
    const REPETITIONS: usize = 4;
    const KING_MOVE_PLIES: Option<usize> = Some(80);
}

/// Spanish draughts: the mirrored board numbered from White's bottom right, White on 1-12
/// moving first, Black on 21-32; men take forwards only, kings fly; the most pieces, then
/// the most kings, must be taken (docs/rules.md, "Spanish draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spanish;

impl super::super::position::RuleSet for Spanish {
    type Geometry = SpanishBoard;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "spanish";
    const START_ROWS: u32 = 3;
}

impl NationalVariant for Spanish {
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = false;
    const MEN_TAKE_KINGS: bool = true;
    const REMOVE_AT_ONCE: bool = false;
    const CROWN_ENDS_CAPTURE: bool = true;
    const CHOICE: CaptureChoice = CaptureChoice::Majority;
    const REPETITIONS: usize = 3;
    const KING_MOVE_PLIES: Option<usize> = Some(40);
}

/// Portuguese draughts (damas clássicas): Spanish moves on the same board and numbering
/// (docs/rules.md, "Portuguese draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Portuguese;

impl super::super::position::RuleSet for Portuguese {
    type Geometry = SpanishBoard;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "portuguese";
    const START_ROWS: u32 = 3;
}

impl NationalVariant for Portuguese {
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = false;
    const MEN_TAKE_KINGS: bool = true;
    const REMOVE_AT_ONCE: bool = false;
    const CROWN_ENDS_CAPTURE: bool = true;
    const CHOICE: CaptureChoice = CaptureChoice::Majority;
    const REPETITIONS: usize = 3;
    const KING_MOVE_PLIES: Option<usize> = Some(40);
}

/// Czech draughts: the standard board and numbering ([`Dark8`]: Black on 1-12, White on 21-32
/// and moving first); men take forwards only, kings fly; a king must make the capture when a
/// king can, otherwise any capture (docs/rules.md, "Czech draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl super::super::position::RuleSet for Czech {
    type Geometry = Dark8;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "czech";
    const START_ROWS: u32 = 3;
}

impl NationalVariant for Czech {
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = false;
    const MEN_TAKE_KINGS: bool = true;
    const REMOVE_AT_ONCE: bool = false;
    const CROWN_ENDS_CAPTURE: bool = true;
    const CHOICE: CaptureChoice = CaptureChoice::KingFirst;
    const REPETITIONS: usize = 3;
    const KING_MOVE_PLIES: Option<usize> = None;
}

/// American pool checkers (APCA): the standard board and numbering ([`Dark8`], as English
/// checkers: Black on 1-12 moves first, White on 21-32); men take both ways, kings fly, any
/// capture may be chosen (docs/rules.md, "Pool checkers").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl super::super::position::RuleSet for Pool {
    type Geometry = Dark8;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "pool";
    const START_ROWS: u32 = 3;
    const FIRST: Color = Color::Black;
}

impl NationalVariant for Pool {
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = false;
    const MEN_TAKE_KINGS: bool = true;
    const REMOVE_AT_ONCE: bool = false;
    const CROWN_ENDS_CAPTURE: bool = false;
    const CHOICE: CaptureChoice = CaptureChoice::Free;
    const REPETITIONS: usize = 3;
    const KING_MOVE_PLIES: Option<usize> = None;
}

/// Thai draughts (Mak-hos): the standard board and numbering ([`Dark8`]), eight men a side on
/// the two nearest rows (Black 1-8, White 25-32, White first); men take forwards only; kings
/// fly but land right behind the piece they take; taken pieces come off at once; any capture
/// may be chosen (docs/rules.md, "Thai draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thai;

impl super::super::position::RuleSet for Thai {
    type Geometry = Dark8;
    type Moves = NationalMoves;
    type Referee = NationalReferee;
    const NAME: &'static str = "thai";
    const START_ROWS: u32 = 2;
}

impl NationalVariant for Thai {
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_BEHIND: bool = true;
    const MEN_TAKE_KINGS: bool = true;
    const REMOVE_AT_ONCE: bool = true;
    const CROWN_ENDS_CAPTURE: bool = true;
    const CHOICE: CaptureChoice = CaptureChoice::Free;
    const REPETITIONS: usize = 3;
    const KING_MOVE_PLIES: Option<usize> = None;
}
