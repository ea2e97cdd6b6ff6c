//! The weights of the board variants' evaluation ([`BoardWeights`], terms in `boards.rs`):
//! hand-set from what each game's players know (a flying king is worth about three men on
//! 10x10, two and a half on 8x8; a short Italian king less), until `checkers-tune fit-board`
//! fits a variant's and writes its line here.

use super::boards::{term, BoardWeights};

pub const INTERNATIONAL: BoardWeights = BoardWeights::hand_set(100, 300, 2, 6, 3, 12, true);
pub const BRAZILIAN: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 12, true);
pub const CANADIAN: BoardWeights = BoardWeights::hand_set(100, 300, 2, 5, 3, 12, true);
pub const FRISIAN: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 6, true);
pub const FRYSK: BoardWeights = FRISIAN;
/// Played to lose: every piece left counts against its side.
pub const ANTIDRAUGHTS: BoardWeights =
    BoardWeights::hand_set(-100, -100, 0, 0, 0, 0, false).with(term::LOPSIDED, 0).with(term::TRADE, 0);
/// Won by the first king: the men's race counts most.
pub const BREAKTHROUGH: BoardWeights = BoardWeights::hand_set(100, 300, 6, 15, 2, 0, false);
pub const ITALIAN: BoardWeights = BoardWeights::hand_set(100, 170, 2, 6, 3, 0, false);
pub const SPANISH: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 10, true);
pub const PORTUGUESE: BoardWeights = SPANISH;
pub const CZECH: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 10, true);
pub const POOL: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 10, true);
pub const THAI: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 3, 10, true);
pub const TURKISH: BoardWeights = BoardWeights::hand_set(100, 250, 2, 6, 2, 0, false);
