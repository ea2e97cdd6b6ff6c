//! PDN export of a game: tags, then the moves numbered in pairs, wrapped, ending with the
//! result; and move text as each variant's players write it, everywhere the server writes
//! moves (the game's state, its PDN, reviews and the engine's lines).

use checkers_rules::{Move, PdnGame, PdnResult, Position, SquareNotation, Variant};

use crate::live::{LiveGame, PlayerKind, Seat};
use crate::rules::GameRecord;

/// `YYYY.MM.DD` of a time in milliseconds since the Unix epoch (UTC).
pub fn pdn_date(ms: i64) -> String {
    checkers_rules::pdn_date(ms.div_euclid(86_400_000))
}

/// How a variant's squares are written: numbers (1-32) in English, a1-h8 in Russian, as its
/// players, lidraughts and PDN's GameType 25 write them.
pub fn notation(variant: Variant) -> SquareNotation {
    match variant {
        Variant::English => SquareNotation::Numeric,
        Variant::Russian => SquareNotation::Algebraic,
    }
}

/// A move's long form as the variant's players write it: `11-15` and `9x18x27` in English,
/// `c3-d4` and `c3:e5:g3` in Russian.
pub fn move_text(position: &Position, mv: &Move) -> String {
    customary(position.variant(), mv.to_pdn(position, notation(position.variant())))
}

/// The engine's line from `position`, its moves written by [`move_text`] and separated by
/// spaces.
pub fn line_text(position: &Position, line: &[Move]) -> String {
    let variant = position.variant();
    customary(variant, checkers_engine::line_text(position, line, notation(variant)))
}

/// Moves written in [`notation`]`(variant)` (the rules write captures with `x`), with Russian
/// captures joined by `:` instead. An algebraic square has no `x` in it, so only the
/// separators change.
pub fn customary(variant: Variant, text: String) -> String {
    match variant {
        Variant::English => text,
        Variant::Russian => text.replace('x', ":"),
    }
}

/// The game's PDN text, squares as the variant writes them (Russian: algebraic, captures with
/// `:`, the FEN tag algebraic too).
pub fn pdn_text(record: &PdnGame) -> String {
    record.to_pdn_with(notation(record.variant()))
}

fn player_name(seat: &Seat) -> String {
    match (&seat.name, seat.kind) {
        (Some(name), _) => name.clone(),
        (None, PlayerKind::Computer { level }) => format!("Computer (level {level})"),
        (None, PlayerKind::Human) => "?".to_string(),
    }
}

/// The game as a PDN record (tags, moves, result), written out by the rules crate's PDN
/// writer of its variant, so it reads back with the same reader as every other record of ours.
pub fn game_record(game: &LiveGame) -> GameRecord {
    let mut record = game.game.record();
    let tags = [
        ("Event", "Checkers Online".to_string()),
        ("Site", format!("game {}", game.id)),
        ("Date", pdn_date(game.created_ms)),
        ("White", player_name(&game.seats[0])),
        ("Black", player_name(&game.seats[1])),
    ];
    for (name, value) in tags {
        record.set_tag(name, &value);
    }
    if let Some(clock) = game.clock {
        record.set_tag("TimeControl", &format!("{}+{}", clock.base_ms / 1000, clock.increment_ms / 1000));
    }
    if let Some(end) = game.outcome() {
        record.set_tag("Termination", &end.message);
    }
    record.set_result(match (game.aborted, game.outcome()) {
        (true, _) | (false, None) => PdnResult::Unknown,
        (false, Some(end)) => end.winner.map_or(PdnResult::Draw, PdnResult::Win),
    });
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_moves_are_algebraic_with_colons_for_captures_and_english_ones_numbers() {
        let english = Position::start(Variant::English);
        let texts: Vec<String> = english.legal_moves().iter().map(|m| move_text(&english, m)).collect();
        assert!(texts.contains(&"11-15".to_string()), "{texts:?}");
        let russian = Position::start(Variant::Russian);
        let texts: Vec<String> = russian.legal_moves().iter().map(|m| move_text(&russian, m)).collect();
        assert!(texts.contains(&"c3-d4".to_string()), "{texts:?}");
        let capture = Position::from_fen(Variant::Russian, "W:Wc3:Bd4,f6").unwrap();
        let texts: Vec<String> = capture.legal_moves().iter().map(|m| move_text(&capture, m)).collect();
        assert_eq!(texts, ["c3:e5:g7"]);
        assert_eq!(line_text(&capture, capture.legal_moves().as_slice()), "c3:e5:g7");
    }

    #[test]
    fn dates() {
        assert_eq!(pdn_date(0), "1970.01.01");
        assert_eq!(pdn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pdn_date(1_796_083_200_000), "2026.12.01");
    }
}
