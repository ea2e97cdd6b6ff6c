//! Boards of any size: board geometry as a compile-time parameter, and the International
//! family's rules on it: International draughts (FMJD, 10x10), Brazilian (8x8) and Canadian
//! (12x12), Frisian and Frysk!, Antidraughts and Breakthrough (10x10, as lidraughts plays
//! them), and games played by them ([`BoardGame`], each variant's referee deciding the end);
//! and the national 8x8 games (Italian, Spanish, Portuguese, Czech, Pool, Thai) on one
//! generator parameterised by each variant's constants ([`NationalMoves`], [`NationalReferee`]).
//! Turkish draughts ([`Turkish`]) is played on the full 8x8 board, with its own move rules
//! and referee.
//!
//! # Design
//!
//! - **[`Geometry`]** is a type whose associated constants say everything a move generator
//!   needs about a board: the word its squares live in (`type Bits`, a `u64` or a `u128`,
//!   behind the small [`Bits`] trait), the number of squares, the four diagonal steps as
//!   shifts, the board mask, the two crowning rows, and a spare bit. All dark-square boards
//!   share one layout, Scan's: the squares in number order with one ghost bit after every two
//!   rows, so a diagonal step is the same shift on every square and a step off an edge lands
//!   on a ghost or outside the board, never on an empty square. 10x10 ([`Dark10`]) is a
//!   `u64` with 54 bits used, 12x12 ([`Dark12`]) a `u128` with 77, and 8x8 ([`Dark8`], for
//!   the International-family variants played on it) a `u64` with 35. Turkish draughts' board
//!   of all 64 squares ([`Full8`]) has a ghost bit after every row, so its orthogonal steps
//!   are shifts too: a `u128` with 72 bits used.
//! - **[`RuleSet`]** is a type per variant: its geometry, its move rules ([`MoveRules`]) and
//!   its referee ([`Referee`]) as associated types, its name and its start: [`International`]
//!   on 10x10, [`Brazilian`] on 8x8 and [`Canadian`] on 12x12, all three with
//!   [`MajorityCapture`] and [`FmjdReferee`]; [`Antidraughts`] and [`Breakthrough`], the same
//!   moves with referees of their own; [`Frisian`] and [`Frysk`], with their own move rules
//!   ([`FrisianMoves`]: captures along files and ranks too, the value rule, the limit on a
//!   king's quiet moves, whose run each position carries in bits no square uses) and
//!   [`FrisianReferee`].
//!   Each variant's positions are a type of their own, so a position can't be handed to
//!   another variant's rules by mistake, and every generator is compiled per rule set and
//!   side to move with the geometry's constants in its loops, as the 8x8 code is compiled per
//!   variant.
//! - **[`Board<V>`](Board)** is a position: White's pieces, Black's pieces and the kings,
//!   three words, with the side to move in the kings word's spare bit. A `Copy` value of 24
//!   bytes on 8x8 and 10x10, 48 on 12x12. Moves ([`BoardMove`]) are start, end, the captured set as
//!   a word and whether the man is crowned, as on 8x8.
//! - English and Russian keep their own tuned 8x8 code ([`crate::Position`]) unchanged: that
//!   code's layout (rank by rank, shifts of 7 and 9) is faster for them than a generic one
//!   would have to prove to be, and the issue's first constraint is that they lose no speed.
//!   Moving them onto this core is a later step, taken only when a benchmark shows no loss.
//!
//! Public squares are the standard numbers (1-50 on 10x10, square 1 at the top left, Black's
//! side; 1-64 on the full board, a8 first); layout indices stay inside the crate. Move text
//! and FEN write the numbers, or the names `a1`-`h8` on a board whose players use them
//! ([`Geometry::ALGEBRAIC`], Turkish).
//!
//! ```
//! use checkers_rules::board::{board_perft, Board, International};
//! let start = Board::<International>::start();
//! assert_eq!(start.to_fen(), Board::<International>::from_fen("W:W31-50:B1-20").unwrap().to_fen());
//! assert_eq!(start.legal_moves().len(), 9);
//! assert_eq!(board_perft(&start, 4), 4265);
//! ```

mod antidraughts;
mod bits;
mod error;
mod fen;
mod fmjd;
mod frisian;
mod frisian_moves;
mod game;
mod geometry;
mod movegen;
mod moves;
mod national;
mod notation;
mod perft;
mod position;
mod rules;
mod turkish;
mod variants;

pub use antidraughts::{Antidraughts, AntidraughtsReferee, Breakthrough, BreakthroughReferee};
pub use bits::{Bits, EachBit};
pub use error::{BoardFenError, BoardFenLoadError, BoardPositionError};
pub use fen::parse_board_fen;
pub use fmjd::FmjdReferee;
pub use frisian::{
    Frisian, FrisianFamily, FrisianFenError, FrisianReferee, Frysk, KingMoves, KingMovesError,
};
pub use frisian_moves::FrisianMoves;
pub use game::{BoardDrawReason, BoardGame, BoardGameError, BoardOutcome, BoardWinReason};
pub use geometry::{Dark10, Dark12, Dark8, Full8, Geometry};
pub use movegen::MajorityCapture;
pub use moves::{BoardIllegalMove, BoardMove, BoardMoves};
pub use national::{
    CaptureChoice, Czech, Italian, ItalianBoard, NationalMoves, NationalReferee, NationalVariant, Pool,
    Portuguese, Spanish, SpanishBoard, Thai,
};
pub use notation::{BoardIllegalReason, BoardMoveTextError};
pub use perft::{board_perft, board_perft_divide, BoardPerft};
pub use position::{Board, BoardSetup, Brazilian, Canadian, International, RuleSet};
pub use rules::{MoveRules, Referee};
pub use turkish::{Turkish, TurkishMoves, TurkishReferee};
pub use variants::{BoardVariant, UnknownBoardVariant};
