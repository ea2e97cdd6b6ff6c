//! The game model: what a PDN game keeps, and what its results mean.
//!
//! # What is kept
//!
//! A [`PdnGame`] holds the descriptive tags (Event, Site, Date, Round, Black, White first, in
//! that order, then every other tag in the order it was read or set), the start position (from
//! the `FEN` tag, otherwise the variant's start), the moves as legal [`Move`]s, one optional
//! comment after each move (and one before the first), and the result. The tags `Result`,
//! `GameType`, `SetUp` and `FEN` are not kept as text: they are what [`PdnGame::result`],
//! [`PdnGame::variant`] and [`PdnGame::start`] say, and the writer derives them from those.
//!
//! # Results: what `1-0` means
//!
//! PDN 3.0 (pdn.fmjd.org, "PDN Tags" and "GameType tag") gives English (21) and Russian (25)
//! the *default* result set `1-0`, `0-1`, `1/2-1/2`, `0-0` (both lose), `*`; the `2-0`, `1-1`,
//! `0-2` scoring belongs to International and Canadian draughts. The standard does not say
//! which side the first figure belongs to. We follow CheckerBoard (the GUI of KingsRow and
//! Cake, whose files are most of the English checkers games in circulation): its
//! `pdn_result_to_string` writes `1-0` when **the side that moves first in the variant** wins,
//! so `1-0` is a Black win in English checkers and a White win in Russian draughts. The figures
//! thus always read "first player - second player", as the move pairs do. On input we also
//! accept `2-0`, `0-2`, `1-1` with the same orientation (as CheckerBoard reads `1-1`); the
//! writer uses only the default set.
//!
//! When the `Result` tag and the result after the moves disagree, the one after the moves wins
//! unless it is `*`.

use crate::error::IllegalMove;
use crate::moves::Move;
use crate::position::{Color, Position, Variant};

use super::error::PdnTagError;
use super::record::Record;

/// How a game ended, as PDN records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PdnResult {
    /// This side won.
    Win(Color),
    Draw,
    /// Both sides lost (`0-0`, a double forfeit).
    DoubleForfeit,
    /// Unfinished, or the result is not known (`*`).
    #[default]
    Unknown,
}

impl PdnResult {
    /// Reads a result as PDN writes it in `variant`: the first figure is the score of the side
    /// that moves first in the variant (see the module documentation).
    pub fn parse(text: &str, variant: Variant) -> Option<PdnResult> {
        PdnResult::parse_first(text, variant.first_to_move())
    }

    /// Reads a result whose first figure is the score of `first` (the side that moves first
    /// in the game's variant), in either result set.
    pub fn parse_first(text: &str, first: Color) -> Option<PdnResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(PdnResult::Win(first)),
            "0-1" | "0-2" => Some(PdnResult::Win(first.opponent())),
            "1/2-1/2" | "1-1" | "\u{bd}-\u{bd}" => Some(PdnResult::Draw),
            "0-0" => Some(PdnResult::DoubleForfeit),
            "*" => Some(PdnResult::Unknown),
            _ => None,
        }
    }

    /// The result as PDN writes it in `variant`.
    pub fn to_pdn(self, variant: Variant) -> &'static str {
        self.to_pdn_first(variant.first_to_move(), ResultStyle::Default)
    }

    /// The result in `style`, the first figure the score of `first`.
    pub fn to_pdn_first(self, first: Color, style: ResultStyle) -> &'static str {
        let international = style == ResultStyle::International;
        match self {
            PdnResult::Win(color) if color == first => ["1-0", "2-0"][usize::from(international)],
            PdnResult::Win(_) => ["0-1", "0-2"][usize::from(international)],
            PdnResult::Draw => ["1/2-1/2", "1-1"][usize::from(international)],
            PdnResult::DoubleForfeit => "0-0",
            PdnResult::Unknown => "*",
        }
    }
}

/// PDN 3.0's two result sets ("ResultType"): which figures a win and a draw are written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultStyle {
    /// `1-0`, `0-1`, `1/2-1/2`.
    Default,
    /// `2-0`, `0-2`, `1-1` (International draughts' scoring).
    International,
}

/// A game as PDN records it. See the module documentation for what is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The tags and comments.
    record: Record,
    start: Position,
    moves: Vec<Move>,
    result: PdnResult,
    /// The position after the last move (derived from `start` and `moves`).
    end: Position,
}

impl PdnGame {
    /// A game from the start position of `variant`, with no tags and no moves.
    pub fn new(variant: Variant) -> PdnGame {
        PdnGame::from_position(Position::start(variant))
    }

    /// A game from `start`, with no tags and no moves.
    pub fn from_position(start: Position) -> PdnGame {
        PdnGame {
            record: Record::default(),
            start,
            moves: Vec::new(),
            result: PdnResult::Unknown,
            end: start,
        }
    }

    pub fn variant(&self) -> Variant {
        self.start.variant()
    }
    /// The position the game starts from.
    pub fn start(&self) -> Position {
        self.start
    }
    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        self.end
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn result(&self) -> PdnResult {
        self.result
    }
    pub fn set_result(&mut self, result: PdnResult) {
        self.result = result;
    }

    /// Plays `mv` after the last move, if it is legal there.
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.end = self.end.try_play(&mv)?;
        self.moves.push(mv);
        self.record.push_move();
        Ok(())
    }

    /// The positions before each move and after the last: `moves().len() + 1` of them.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for mv in &self.moves {
            pos = pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }

    /// The tags: Event, Site, Date, Round, Black, White (those set) first, then the others.
    pub fn tags(&self) -> &[(String, String)] {
        self.record.tags()
    }

    /// The value of a tag, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.record.tag(name)
    }

    /// Sets a tag (replacing its value if it is there). Control characters in the value become
    /// spaces, as they would on the way through a file.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        self.record.set_tag(name, value)
    }

    /// Removes a tag; returns its value if it was set.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        self.record.remove_tag(name)
    }

    /// The comment after move `index` (0 = the first move), if any.
    pub fn comment(&self, index: usize) -> Option<&str> {
        self.record.comment(index)
    }

    /// Sets the comment after move `index`; returns false if there is no such move. The text is
    /// stored as it will read back from a file: runs of white space become one space, `}`
    /// becomes `)`, and an empty comment is none.
    pub fn set_comment(&mut self, index: usize, text: &str) -> bool {
        self.record.set_comment(index, text)
    }

    /// The comment before the first move, if any.
    pub fn opening_comment(&self) -> Option<&str> {
        self.record.opening_comment()
    }

    /// Sets the comment before the first move (normalised as in [`PdnGame::set_comment`]).
    pub fn set_opening_comment(&mut self, text: &str) {
        self.record.set_opening_comment(text);
    }

    /// The tags and comments, for the reader and the writer.
    pub(super) fn record(&self) -> &Record {
        &self.record
    }

    pub(super) fn record_mut(&mut self) -> &mut Record {
        &mut self.record
    }

    /// Plays a move the reader found among the legal moves of the last position.
    pub(super) fn push_legal(&mut self, mv: Move) {
        self.end = self.end.play_unchecked(&mv);
        self.moves.push(mv);
        self.record.push_move();
    }
}

/// The `Date` tag value (`2026.11.30`) of a day counted from 1970-01-01, in the proleptic
/// Gregorian calendar (H. Hinnant's civil-from-days algorithm).
pub fn pdn_date(days_since_epoch: i64) -> String {
    let z = days_since_epoch + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_from_the_first_players_side() {
        assert_eq!(PdnResult::parse("1-0", Variant::English), Some(PdnResult::Win(Color::Black)));
        assert_eq!(PdnResult::parse("1-0", Variant::Russian), Some(PdnResult::Win(Color::White)));
        assert_eq!(PdnResult::parse("0-2", Variant::Russian), Some(PdnResult::Win(Color::Black)));
        assert_eq!(PdnResult::parse("1-1", Variant::Russian), Some(PdnResult::Draw));
        assert_eq!(PdnResult::Win(Color::White).to_pdn(Variant::English), "0-1");
        assert_eq!(PdnResult::parse_first("2-0", Color::Black), Some(PdnResult::Win(Color::Black)));
        assert_eq!(
            PdnResult::Win(Color::Black).to_pdn_first(Color::White, ResultStyle::International),
            "0-2"
        );
        assert_eq!(PdnResult::Draw.to_pdn_first(Color::White, ResultStyle::International), "1-1");
        assert_eq!(PdnResult::DoubleForfeit.to_pdn_first(Color::White, ResultStyle::International), "0-0");
    }
}
