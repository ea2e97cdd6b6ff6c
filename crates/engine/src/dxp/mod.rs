//! DXP, the DamExchange protocol (Harm Jetten and Jan-Jaap van Horssen's design, described
//! on mesander.nl/damexchange), by which International draughts programs and GUIs play each
//! other: the messages as Rust types ([`Message`]) and the stream framing ([`FrameReader`]:
//! each message ends with a NUL). No I/O and no thread here.
//!
//! DXP carries 10x10 boards only: squares are two digits `01`-`50` in a MOVE and a position
//! is fifty letters, and no message names the variant, which both programs must be set to
//! beforehand. So it plays the International family's 10x10 variants: International,
//! Frisian, Frysk!, Antidraughts and Breakthrough ([`dxp_variant`]). A GAMEREQ whose position
//! does not fit the board is declined.

mod error;
mod frame;
mod message;

pub use error::MessageError;
pub use frame::{frame, FrameReader};
pub use message::{
    color_letter, piece_letter, AcceptCode, BackAnswer, BackRequest, DxpPosition, EndReason, GameAccept,
    GameEnd, GameRequest, Message, MoveMessage, Text, DEFAULT_PORT, MAX_CAPTURED, MAX_CHAT_LEN,
    MAX_MESSAGE_LEN, MAX_POSITION_SQUARES, NAME_LEN, PROTOCOL_VERSION,
};

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
