//! The analysis board's positions, in any variant: anyone gives a FEN (with its variant) or a
//! PDN game (its last position, in the variant its `GameType` names) and gets the legal moves there, each with the position after it (so that a
//! page without the rules can play both sides), and the engine's three best lines. Queued and
//! limited as reviews are (`review`). A position is tied to no game: the page opens the board
//! from finished games only, as the reviews, and never from a game in play.

use checkers_rules::{read_any_pdn, with_board_variant, AnyPdnGame, PdnError};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::live::color_name;
use crate::protocol::{BestLine, VariantName};
use crate::rules::AnyGame;
use crate::variant::GameVariant;

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
pub fn requested_position(body: &str) -> Result<AnyGame, ApiError> {
    if body.len() > MAX_REQUEST {
        return Err(ApiError::bad_request(format!("an analysis request is at most {MAX_REQUEST} bytes")));
    }
    let request: AnalysisRequest = serde_json::from_str(body).map_err(|e| {
        ApiError::bad_request(format!("give {{\"variant\", \"fen\"}} or {{\"pdn\"}} as JSON: {e}"))
    })?;
    match (request.variant, request.fen, request.pdn) {
        (Some(VariantName(variant)), Some(fen), None) => AnyGame::from_fen(variant, fen.trim())
            .map_err(|e| ApiError::bad_request(format!("not a position: {e}"))),
        (None, None, Some(pdn)) => {
            last_position(&pdn).map_err(|e| ApiError::bad_request(format!("not a PDN game: {e}")))
        }
        _ => Err(ApiError::bad_request("give a position as {\"variant\", \"fen\"}, or a game as {\"pdn\"}")),
    }
}

/// The last position of the first game of PDN text (the start of English checkers for none),
/// as a game of its own from there.
fn last_position(pdn: &str) -> Result<AnyGame, PdnError> {
    let first = read_any_pdn(pdn)?.into_iter().next();
    Ok(match first {
        None => AnyGame::new(GameVariant::ENGLISH),
        Some(AnyPdnGame::Checkers(game)) => AnyGame::from(game.end_position()),
        Some(AnyPdnGame::Board(game)) => with_board_variant!(game.variant(), V => {
            game.get::<V>().map_or_else(|| AnyGame::new(game.variant().into()), |g| AnyGame::from(g.end_position()))
        }),
    })
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
    /// The body for `position` (a game whose position now is analysed).
    pub fn new(position: &AnyGame, nodes: u64, depth: u32, lines: Vec<BestLine>) -> AnalysisBody {
        let legal = position
            .legal()
            .into_iter()
            .map(|m| AnalysisMove {
                fen: position.fen_after(&m.mv).unwrap_or_default(),
                text: m.text,
                from: m.from,
                to: m.to,
                route: m.route,
                captured: m.captured,
            })
            .collect();
        AnalysisBody {
            variant: position.variant().name(),
            fen: position.fen(),
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
        let start = AnyGame::new(GameVariant::Eight(Variant::Russian));
        let fen = format!("{{\"variant\":\"russian\",\"fen\":\"{}\"}}", start.fen());
        assert_eq!(requested_position(&fen).unwrap().fen(), start.fen());
        let pdn = r#"{"pdn":"[GameType \"25\"]\n\n1. c3-d4 f6-e5 *"}"#;
        let after = requested_position(pdn).unwrap();
        assert_eq!((after.variant(), after.turn()), (GameVariant::Eight(Variant::Russian), start.turn()));
        assert_ne!(after.fen(), start.fen());
    }

    #[test]
    fn every_variants_positions_come_from_their_fen_or_pdn() {
        let body = r#"{"variant":"international","fen":"W:W31-50:B1-20"}"#;
        let start = requested_position(body).unwrap();
        assert_eq!((start.variant().name(), start.legal().len()), ("international", 9));
        let pdn = r#"{"pdn":"[GameType \"20\"]\n\n1. 32-28 19-23 *"}"#;
        let after = requested_position(pdn).unwrap();
        assert_eq!((after.variant().name(), after.plies()), ("international", 0));
        assert!(after.fen().contains("28"), "{}", after.fen());
        let brazilian = requested_position(r#"{"variant":"brazilian","fen":"W:Wc3:Bf6"}"#).unwrap();
        let mut texts: Vec<String> = brazilian.legal().into_iter().map(|m| m.text).collect();
        texts.sort();
        assert_eq!(texts, ["c3-b4", "c3-d4"]);
        let refused =
            requested_position(r#"{"variant":"international","fen":"W:W51:B1"}"#).err().map(|e| e.code);
        assert_eq!(refused, Some(ErrorCode::BadRequest));
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
