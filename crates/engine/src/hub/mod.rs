//! The Hub protocol (version 2, as Fabien Letouzey's Scan describes it) for the 8x8 variants:
//! the engine's side of the conversation, as a state machine from one input line to the
//! output lines and the one thing the caller must do next (start or stop a search, build the
//! engine, quit). It does no I/O and starts no thread: the `checkers hub` command drives it
//! from standard input, and tests drive it line by line.
//!
//! Positions are `W`/`B` (side to move) followed by one letter per square 1-32 (`w`, `b`
//! men, `W`, `B` kings, `e` empty); PDN FEN is accepted too. Moves are `from-to`, captures
//! `from x to x captured...` (captured squares in any order on input, ascending on output).
//!
//! Two numberings are understood (parameter `numbering`):
//! - `standard`: every square in the numbering of docs/rules.md.
//! - `pydraughts`: what pydraughts' `HubEngine` (the client lidraughts bots run on) sends. Its
//!   positions come from its internal board (`li_fen_to_hub_fen`), where White always moves
//!   first and owns the high numbers, while its moves are in the variant's own numbering. In
//!   English checkers the position is therefore turned half a turn with the colours swapped
//!   (letter `i` is square `33 - i`, `w` is a Black piece, `W` to move means Black to move)
//!   and the moves are standard. In Russian draughts the position is standard and the moves
//!   count from a1: square `n` is on rank `(n - 1) / 4 + 1`, the `(n - 1) % 4`-th dark square
//!   of that rank (1 = a1, 4 = g1, 5 = b2, 32 = h8).
//!
//! The variants on boards of any size have their names ([`HubVariant`], with the aliases
//! pydraughts, lidraughts and Scan send) and their positions and moves in both numberings
//! (`board_from_hub`, `board_move_from_hub`, ...: see that module).

mod board_numbering;
mod error;
mod job;
mod numbering;
mod session;
mod sync_session;
mod variant;
mod wire;

pub use board_numbering::{board_from_hub, board_move_from_hub, board_move_to_hub, board_to_hub, HubFen};
pub use error::{HubError, MoveTextError};
pub use job::{GoMode, SearchJob};
pub use numbering::{move_from_hub, move_to_hub, position_from_hub, position_to_hub, Numbering};
pub use session::{Action, Hub, Reply, HUB_MAX_HASH_MB, HUB_MAX_THREADS};
pub use sync_session::SyncSession;
pub use variant::HubVariant;
pub use wire::{error_line, quote, score_to_hub, HubLine, MAX_LINE_BYTES};
