//! Frisian draughts and Frysk! (docs/rules.md, "Frisian draughts"): the rule sets, the run of
//! quiet king moves each position carries, making a move, FEN with that run, and the end of
//! the game as lidraughts rules it.
//!
//! # The king-move limit in the position
//!
//! A side that still has men may not move the same king more than three times in a row
//! without capturing (Article 17 of the Frisian rules). Which moves are legal therefore
//! depends on the moves before, so a Frisian position carries, for each side, how many quiet
//! moves in a row it has made with one king (0-3) and that king's square: lidraughts' `KingMoves`, which
//! its FEN writes as a last field `+<black count><black king>+<white count><white king>`.
//! The run lives in bits no square uses: bits 54-61 of each side's own word (54-55 the
//! count, 56-61 the king's layout index), so [`Board<Frisian>`](Board) stays three words and
//! 24 bytes like every 10x10 position, equality and hashing see the run (two positions whose
//! runs differ have different legal moves), and nothing changes for the other variants,
//! whose words never have those bits set. Readers of the pieces mask with the board
//! (`Board::side_bits`, `to_setup`).
//!
//! The run is kept canonical: zero for a side without men (the limit does not bind it), and
//! zero once the king it follows is captured (the next king move starts a new run either
//! way), so equal runs mean equal futures.

use thiserror::Error;

use super::bits::Bits;
use super::error::BoardFenLoadError;
use super::fmjd::king_only_plies;
use super::frisian_moves::FrisianMoves;
use super::game::{BoardDrawReason, BoardOutcome};
use super::geometry::{Dark10, Geometry};
use super::moves::BoardMove;
use super::position::{Board, RuleSet};
use super::rules::{no_legal_move_loses, Referee};
use crate::position::{Color, Role};

/// A rule set that plays by Frisian rules on the 10x10 board: [`Frisian`] and [`Frysk`].
pub trait FrisianFamily: RuleSet<Geometry = Dark10> {}

/// Frisian draughts (lidraughts' `frisian`): the International start, captures also along
/// files and ranks, the capture of the highest value compulsory, a king's quiet moves
/// limited (docs/rules.md, "Frisian draughts").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frisian;

impl RuleSet for Frisian {
    type Geometry = Dark10;
    type Moves = FrisianMoves;
    type Referee = FrisianReferee;
    const NAME: &'static str = "frisian";
    const START_ROWS: u32 = 4;
}

impl FrisianFamily for Frisian {}

/// Frysk! (lidraughts' `frysk`): Frisian rules with five men a side, White on 46-50, Black on
/// 1-5 (docs/rules.md, "Frysk!").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frysk;

impl RuleSet for Frysk {
    type Geometry = Dark10;
    type Moves = FrisianMoves;
    type Referee = FrisianReferee;
    const NAME: &'static str = "frysk";
    const START_ROWS: u32 = 1;
}

impl FrisianFamily for Frysk {}

/// One side's run of quiet moves with one king: how many in a row (0-3) and the square of
/// that king (`None` when the count is 0). At 3 that king may make no quiet move while its
/// side has men.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingMoves {
    pub count: u32,
    pub king: Option<u32>,
}

/// Why a run of king moves does not fit a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KingMovesError {
    #[error("a king makes at most 3 quiet moves in a row, not {0}")]
    TooMany(u32),
    #[error("a run of {count} king moves names no king")]
    NoKing { count: u32 },
    #[error("square {square} holds no {color:?} king to have made the run")]
    NotAKing { square: u32, color: Color },
    #[error("the king-move field `{0}` is not `+<count>[<square>]+<count>[<square>]`")]
    Syntax(String),
}

/// Why Frisian FEN text did not give a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FrisianFenError {
    #[error(transparent)]
    Fen(#[from] BoardFenLoadError),
    #[error("king moves: {0}")]
    KingMoves(#[from] KingMovesError),
}

const RUN_SHIFT: u32 = 54;
const RUN_BITS: u64 = 0xff << RUN_SHIFT;
const _: () = assert!(RUN_BITS & (Dark10::BOARD | Dark10::SPARE) == 0, "the run uses no square");

/// The run kept in a side's word: (count, layout index of the king).
fn run_in(word: u64) -> (u32, u32) {
    let run = (word >> RUN_SHIFT) as u32;
    (run & 3, (run >> 2) & 63)
}

/// The side's word with the run `count`, `king` (a layout index; ignored when `count` is 0).
fn with_run(word: u64, count: u32, king: u32) -> u64 {
    let run = if count == 0 { 0 } else { u64::from(count.min(3) | (king << 2)) };
    (word & !RUN_BITS) | (run << RUN_SHIFT)
}

impl<V: FrisianFamily> Board<V> {
    /// `color`'s run of quiet moves with one king.
    pub fn king_moves(&self, color: Color) -> KingMoves {
        let word = if color == Color::White { self.white } else { self.black };
        match run_in(word) {
            (0, _) => KingMoves::default(),
            (count, index) => KingMoves { count, king: Some(Dark10::number_of(index)) },
        }
    }

    /// The same position with `color`'s run set to `run`, which must follow a king of
    /// `color` (a side without men keeps no run: it is set to zero).
    pub fn with_king_moves(self, color: Color, run: KingMoves) -> Result<Board<V>, KingMovesError> {
        if run.count > 3 {
            return Err(KingMovesError::TooMany(run.count));
        }
        let mut index = 0;
        if run.count > 0 {
            let square = run.king.ok_or(KingMovesError::NoKing { count: run.count })?;
            if !is_king_of(&self, square, color) {
                return Err(KingMovesError::NotAKing { square, color });
            }
            index = Dark10::index_of(square).expect("a square holding a piece");
        }
        let count = if self.has_men(color) { run.count } else { 0 };
        let (mut white, mut black) = (self.white, self.black);
        match color {
            Color::White => white = with_run(white, count, index),
            Color::Black => black = with_run(black, count, index),
        }
        Ok(Board::from_words(white, black, self.kings))
    }

    fn has_men(&self, color: Color) -> bool {
        !(self.side_bits(color) & !self.kings).is_zero()
    }

    /// FEN with the runs as lidraughts writes them, `W:W..:B..:+<black>+<white>` (a count,
    /// then the king's square in two digits when the count is not 0); plain FEN when neither
    /// side has a run.
    pub fn to_frisian_fen(&self) -> String {
        let mut fen = self.to_fen();
        let runs = [Color::Black, Color::White].map(|c| self.king_moves(c));
        if runs.iter().any(|r| r.count > 0) {
            fen.push(':');
            for run in runs {
                fen.push_str(&format!("+{}", run.count));
                if let Some(square) = run.king {
                    fen.push_str(&format!("{square:02}"));
                }
            }
        }
        fen
    }

    /// Reads FEN with or without lidraughts' extra fields: `H<n>` and `F<n>` are skipped, a
    /// last field `+<count>[<square>]+<count>[<square>]` (Black's run first) sets the runs.
    pub fn from_frisian_fen(text: &str) -> Result<Board<V>, FrisianFenError> {
        let text = text.trim().trim_matches('"').trim();
        let fields: Vec<&str> = text.split(':').collect();
        let is_counter = |f: &str| {
            let f = f.trim();
            f.len() > 1
                && (f.starts_with('H') || f.starts_with('F'))
                && f[1..].bytes().all(|b| b.is_ascii_digit())
        };
        let runs = fields.last().map(|f| f.trim()).filter(|f| f.starts_with('+'));
        let pieces: Vec<&str> =
            fields.iter().copied().filter(|f| !is_counter(f) && !f.trim().starts_with('+')).collect();
        let mut board = Board::from_fen(&pieces.join(":")).map_err(FrisianFenError::Fen)?;
        if let Some(field) = runs {
            let syntax = || KingMovesError::Syntax(field.to_string());
            let parts: Vec<&str> = field.split('+').skip(1).collect();
            if parts.len() != 2 {
                return Err(syntax().into());
            }
            for (part, color) in parts.iter().zip([Color::Black, Color::White]) {
                let (count, square) = part.split_at(part.len().min(1));
                let count: u32 = count.parse().map_err(|_| syntax())?;
                let king = match square {
                    "" => None,
                    s if s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
                    _ => return Err(syntax().into()),
                };
                let run = KingMoves { count, king: king.filter(|_| count > 0) };
                // lidraughts keeps a run whose king has since been captured; it binds nothing.
                let stale = run.king.is_some_and(|k| !is_king_of(&board, k, color));
                let run = if stale { KingMoves::default() } else { run };
                board = board.with_king_moves(color, run)?;
            }
        }
        Ok(board)
    }
}

fn is_king_of<V: FrisianFamily>(board: &Board<V>, square: u32, color: Color) -> bool {
    board.piece_at(square).is_some_and(|p| p.color == color && p.role == Role::King)
}

/// The king of the side to move that may not make a quiet move now, as a bit (or 0).
pub(crate) fn blocked_king<V: FrisianFamily>(board: &Board<V>) -> u64 {
    let color = board.turn();
    let word = if color == Color::White { board.white } else { board.black };
    match run_in(word) {
        (3, index) if board.has_men(color) => 1 << index,
        _ => 0,
    }
}

/// The position after `mv`: pieces as in every variant, then the runs. The mover's run goes
/// on (same king) or starts (another king) with a quiet king move and ends with any other
/// move; a side left without men keeps no run, and a run whose king was captured ends.
pub(crate) fn play<V: FrisianFamily>(board: &Board<V>, mv: &BoardMove<V>) -> Board<V> {
    let mover = board.turn();
    let after = board.apply(mv);
    let (from, to) = (mv.start_bit(), mv.end_bit());
    let quiet_king = !mv.is_capture() && !(board.kings & from).is_zero();
    let (mut white, mut black) = (after.white, after.black);
    let (own, enemy) = match mover {
        Color::White => (&mut white, &mut black),
        Color::Black => (&mut black, &mut white),
    };
    let (count, king) = run_in(*own);
    let (count, king) = match quiet_king {
        true if after.has_men(mover) => {
            let goes_on = count > 0 && king == from.lowest_index();
            (if goes_on { count + 1 } else { 1 }, to.lowest_index())
        }
        _ => (0, 0),
    };
    *own = with_run(*own, count, king);
    let (count, king) = run_in(*enemy);
    if count > 0 && (!after.has_men(mover.opponent()) || !(mv.captured & (1 << king)).is_zero()) {
        *enemy = with_run(*enemy, 0, 0);
    }
    Board::from_words(white, black, after.kings)
}

/// The end of a Frisian game as lidraughts rules it: the side to move without a legal move
/// loses; with no men left on the board, two kings against one draw after 7 moves each and
/// one king against one after 2 moves each (counted from the capture or crowning that made
/// the ending). There is no draw by repetition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FrisianReferee;

impl<V: FrisianFamily> Referee<V> for FrisianReferee {
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = positions.last()?;
        if let Some(outcome) = no_legal_move_loses(position) {
            return Some(outcome);
        }
        let pieces = position.side_bits(Color::White) | position.side_bits(Color::Black);
        if !(pieces & !position.kings).is_zero() {
            return None;
        }
        // With no men, every move is a king's: quiet, or a capture that made the ending.
        let plies = king_only_plies(positions, moves);
        let draw = |reason| Some(BoardOutcome::Draw { reason });
        match pieces.count() {
            3 if plies >= 14 => draw(BoardDrawReason::TwoKingsAgainstOne),
            2 if plies >= 4 => draw(BoardDrawReason::OneKingEach),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bits::EachBit;
    use super::*;

    fn numbers(bits: u64) -> Vec<u32> {
        EachBit(bits).map(|b| Dark10::number_of(b.lowest_index())).collect()
    }

    #[test]
    fn a_run_round_trips_through_the_words() {
        let board = Board::<Frisian>::from_fen("W:W31,K28:B19,K3").unwrap();
        assert_eq!(board.king_moves(Color::White), KingMoves::default());
        let run = KingMoves { count: 2, king: Some(28) };
        let board = board.with_king_moves(Color::White, run).unwrap();
        assert_eq!(board.king_moves(Color::White), run);
        assert_eq!(board.king_moves(Color::Black), KingMoves::default());
        assert_eq!(numbers(board.side_bits(Color::White)), vec![28, 31], "the run is no piece");
        assert_eq!(board.piece_count(Color::White), 2);
        assert_eq!(board.to_frisian_fen(), "W:WK28,31:BK3,19:+0+228");
        assert_eq!(Board::<Frisian>::from_frisian_fen(&board.to_frisian_fen()), Ok(board));
        assert_eq!(std::mem::size_of::<Board<Frisian>>(), 24);
    }
}
