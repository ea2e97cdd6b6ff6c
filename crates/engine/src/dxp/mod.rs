//! DXP, the DamExchange protocol (Harm Jetten and Jan-Jaap van Horssen's design, described
//! on mesander.nl/damexchange), by which International draughts programs and GUIs play each
//! other: the messages as Rust types ([`Message`]), the stream framing ([`FrameReader`]:
//! each message ends with a NUL), and a conversation as a state machine ([`Session`]), with
//! the engine choosing the moves ([`Player`]). No I/O and no thread here: the
//! `checkers dxp` command does the TCP, and tests drive sessions message by message.
//!
//! DXP carries 10x10 boards only: squares are two digits `01`-`50` in a MOVE and a position
//! is fifty letters, and no message names the variant, which both programs must be set to
//! beforehand. So it plays the International family's 10x10 variants: International,
//! Frisian, Frysk!, Antidraughts and Breakthrough ([`dxp_variant`]). A GAMEREQ whose position
//! does not fit the board is declined.
//!
//! How we answer what the specification leaves open (docs/protocol.md, "DXP"):
//! - a message we cannot read: a CHAT `error: ...` naming the fault; nothing else changes;
//! - an illegal MOVE: a CHAT naming it, then our GAMEEND (reason `0`): the game is over;
//! - on our turn in a game the rules have ended (no legal move, a draw rule, a variant's own
//!   end), our GAMEEND with the result from our side (`1` we lose, `2` draw, `3` we win);
//! - BACKREQ: honoured when it names a position of the game (`K0`), otherwise `K2`;
//! - a GAMEREQ during a game: declined (`2`).
//!
//! ```
//! use checkers_engine::dxp::{Message, Next, Role, Session};
//! use checkers_rules::board::International;
//! use std::time::Duration;
//!
//! let mut follower = Session::<International>::new(Role::Follower, "checkers");
//! // Scan asks for a game from the start, 5 minutes each, the follower playing Black.
//! let reply = follower.receive(Ok(format!("R01{:<32}Z005000A", "Scan 2.0").as_bytes()));
//! assert_eq!(reply.send[0].to_wire(), format!("A{:<32}0", "checkers"));
//! assert_eq!(reply.next, Next::Wait); // White, the initiator, moves first
//! let reply = follower.receive(Ok(b"M0003322800")); // 32-28, in 3 seconds
//! assert_eq!(reply.next, Next::Think);
//! let (position, _history) = follower.to_move().unwrap();
//! let reply = follower.play(position.parse_move("19-23").unwrap(), Duration::from_secs(2)).unwrap();
//! assert_eq!(reply.send, [Message::parse(b"M0002192300").unwrap()]);
//! ```

mod error;
mod frame;
mod message;
mod player;
mod session;
mod table;

pub use error::{MessageError, SessionError};
pub use frame::{frame, FrameReader};
pub use message::{
    color_letter, piece_letter, AcceptCode, BackAnswer, BackRequest, DxpPosition, EndReason, GameAccept,
    GameEnd, GameRequest, Message, MoveMessage, Text, DEFAULT_PORT, MAX_CAPTURED, MAX_CHAT_LEN,
    MAX_MESSAGE_LEN, MAX_POSITION_SQUARES, NAME_LEN, PROTOCOL_VERSION,
};
pub use player::{Player, Thinking, DEFAULT_MOVE_TIME};
pub use session::{Event, GameSettings, Next, Reply, Role, Session};
pub use table::{board_from_dxp, dxp_position, FinishedGame};

use checkers_rules::board::BoardVariant;

/// The variants DXP can carry: those played on the 10x10 board of squares 1-50.
pub const DXP_VARIANTS: [BoardVariant; 5] = [
    BoardVariant::International,
    BoardVariant::Frisian,
    BoardVariant::Frysk,
    BoardVariant::Antidraughts,
    BoardVariant::Breakthrough,
];

/// `variant` if DXP can carry it, otherwise why not.
pub fn dxp_variant(variant: BoardVariant) -> Result<BoardVariant, String> {
    if DXP_VARIANTS.contains(&variant) && variant.squares() == 50 {
        return Ok(variant);
    }
    let names: Vec<&str> = DXP_VARIANTS.iter().map(|v| v.name()).collect();
    Err(format!(
        "DXP carries only the 10x10 board (squares 01-50, positions of 50 letters): {} is played on {} squares; \
         DXP plays {}",
        variant.name(),
        variant.squares(),
        names.join(", ")
    ))
}
