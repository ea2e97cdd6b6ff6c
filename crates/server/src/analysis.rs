//! The analysis board's positions: anyone gives a FEN (with its variant) or a PDN game (its
//! last position) and gets the legal moves there, each with the position after it (so that a
//! page without the rules can play both sides), and the engine's three best lines. Queued and
//! limited as reviews are (`review`). A position is tied to no game: the page opens the board
//! from finished games only, as the reviews, and never from a game in play.

use checkers_rules::{read_pdn_game, Position};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::live::color_name;
use crate::pdn::move_text;
use crate::protocol::{BestLine, VariantName};

/// Largest request accepted, in bytes (a long game's PDN is a few kilobytes).
pub const MAX_REQUEST: usize = 64 * 1024;

/// `POST /api/analysis`: `{"variant", "fen"}` or `{"pdn"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    variant: Option<VariantName>,
    fen: Option<String>,
    pdn: Option<String>,
}

/// The position a request's body gives, or why it gives none.
pub fn requested_position(body: &str) -> Result<Position, ApiError> {
    if body.len() > MAX_REQUEST {
        return Err(ApiError::bad_request(format!("an analysis request is at most {MAX_REQUEST} bytes")));
    }
    let request: AnalysisRequest = serde_json::from_str(body).map_err(|e| {
        ApiError::bad_request(format!("give {{\"variant\", \"fen\"}} or {{\"pdn\"}} as JSON: {e}"))
    })?;
    match (request.variant, request.fen, request.pdn) {
        (Some(VariantName(variant)), Some(fen), None) => Position::from_fen(variant, fen.trim())
            .map_err(|e| ApiError::bad_request(format!("not a position: {e}"))),
        (None, None, Some(pdn)) => read_pdn_game(&pdn)
            .map(|game| game.end_position())
            .map_err(|e| ApiError::bad_request(format!("not a PDN game: {e}"))),
        _ => Err(ApiError::bad_request("give a position as {\"variant\", \"fen\"}, or a game as {\"pdn\"}")),
    }
}

/// The answer: the position, its legal moves and the engine's lines.
#[derive(Serialize)]
pub struct AnalysisBody {
    variant: &'static str,
    fen: String,
    turn: &'static str,
    nodes: u64,
    depth: u32,
    legal: Vec<AnalysisMove>,
    /// Best first.
    lines: Vec<BestLine>,
}

/// A legal move as the game's state gives it, with the position after it.
#[derive(Serialize)]
struct AnalysisMove {
    text: String,
    from: u32,
    to: u32,
    route: Vec<u32>,
    captured: Vec<u32>,
    fen: String,
}

impl AnalysisBody {
    pub fn new(position: &Position, nodes: u64, depth: u32, lines: Vec<BestLine>) -> AnalysisBody {
        let legal = position
            .legal_moves()
            .iter()
            .map(|m| AnalysisMove {
                text: move_text(position, m),
                from: m.from().number(),
                to: m.to().number(),
                route: m.route(position).iter().map(|sq| sq.number()).collect(),
                captured: m.captured().squares().iter().map(|sq| sq.number()).collect(),
                fen: position.play_unchecked(m).to_fen(),
            })
            .collect();
        AnalysisBody {
            variant: position.variant().name(),
            fen: position.to_fen(),
            turn: color_name(position.turn()),
            nodes,
            depth,
            legal,
            lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use checkers_rules::Variant;

    #[test]
    fn a_position_comes_from_a_fen_with_its_variant_or_from_a_pdn_game() {
        let start = Position::start(Variant::Russian);
        let fen = format!("{{\"variant\":\"russian\",\"fen\":\"{}\"}}", start.to_fen());
        assert_eq!(requested_position(&fen).unwrap(), start);
        let pdn = r#"{"pdn":"[GameType \"25\"]\n\n1. c3-d4 f6-e5 *"}"#;
        let after = requested_position(pdn).unwrap();
        assert_eq!((after.variant(), after.turn()), (Variant::Russian, start.turn()));
        assert_ne!(after, start);
    }

    #[test]
    fn anything_else_is_refused_as_a_bad_request() {
        let long = format!("{{\"pdn\":\"{}\"}}", "x".repeat(MAX_REQUEST));
        for body in [
            "",
            "null",
            "{}",
            r#"{"fen":"W:W21:B1"}"#,
            r#"{"variant":"chess","fen":"W:W21:B1"}"#,
            r#"{"variant":"english","fen":"<script>"}"#,
            r#"{"variant":"english","fen":"W:W21:B1","pdn":"1. 11-15 *"}"#,
            r#"{"pdn":"1. 11-15 15-11 *"}"#,
            r#"{"pdn":"' OR 1=1 --"}"#,
            r#"{"variant":"english","fen":"W:W21:B1","extra":1}"#,
            &long,
        ] {
            let refused = requested_position(body).err().map(|e| e.code);
            assert_eq!(refused, Some(ErrorCode::BadRequest), "{body}");
        }
    }
}
