//! The Hub protocol (version 2, as Fabien Letouzey's Scan describes it) for every variant:
//! the engine's side of the conversation, as a state machine from one input line to the
//! output lines and the one thing the caller must do next (start or stop a search, build the
//! engine, quit). It does no I/O and starts no thread: the `checkers hub` command drives it
//! from standard input, and tests drive it line by line.
//!
//! The parameter `variant` names the game ([`HubVariant`]: `english`, `russian`,
//! `international`, ... and the names pydraughts, lidraughts and Scan use for them). A search
//! of any variant is a [`SearchJob`] whose position hides its type ([`HubGame`]), run with a
//! [`SessionEngine`], the engine kept between searches and rebuilt when the variant changes.
//!
//! Positions are `W`/`B` (side to move) followed by one letter per square (`w`, `b` men,
//! `W`, `B` kings, `e` empty) in the order of the variant's square numbers: 32 on 8x8, 50 on
//! 10x10, 72 on 12x12, 64 on Turkish's board; PDN FEN is accepted too. Moves are `from-to`,
//! captures `from x to x captured...` (captured squares in any order on input, ascending on
//! output); on Turkish's board squares are named (`a3-a4`, `a6xa4xa5`).
//!
//! Two numberings are understood (parameter `numbering`):
//! - `standard`: every square in the numbering of docs/rules.md.
//! - `pydraughts`: what pydraughts' `HubEngine` (the client lidraughts bots run on) sends. Its
//!   positions come from its internal board (`li_fen_to_hub_fen`), where White always moves
//!   first, while its moves are in the variant's own numbering (`move_to_variant`). In
//!   English checkers the position is therefore turned half a turn with the colours swapped
//!   (letter `i` is square `33 - i`, `w` is a Black piece, `W` to move means Black to move)
//!   and the moves are standard. In Russian draughts the position is standard and the moves
//!   count from a1: square `n` is on rank `(n - 1) / 4 + 1`, the `(n - 1) % 4`-th dark square
//!   of that rank (1 = a1, 4 = g1, 5 = b2, 32 = h8). Brazilian is numbered as Russian; Turkish
//!   positions are standard and its moves are numbers counted from a1 rank by rank (a1 = 1,
//!   h1 = 8, a2 = 9, h8 = 64); every other variant pydraughts has (International as
//!   `standard`, Frisian, Frysk!, Antidraughts, Breakthrough, Italian) is standard in both,
//!   and so are the variants pydraughts lacks.

mod board_numbering;
mod error;
mod game;
mod job;
mod numbering;
mod session;
mod sync_session;
mod variant;
mod wire;

pub use board_numbering::{board_from_hub, board_move_from_hub, board_move_to_hub, board_to_hub, HubFen};
pub use error::{HubError, MoveTextError};
pub use game::{HubGame, HubPosition, SessionEngine};
pub use job::{GoMode, SearchJob};
pub use numbering::{move_from_hub, move_to_hub, position_from_hub, position_to_hub, Numbering};
pub use session::{Action, Hub, Reply, HUB_MAX_HASH_MB, HUB_MAX_THREADS};
pub use sync_session::SyncSession;
pub use variant::HubVariant;
pub use wire::{error_line, quote, score_to_hub, HubLine, MAX_LINE_BYTES};
