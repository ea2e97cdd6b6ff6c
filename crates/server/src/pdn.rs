//! PDN export of a game: tags, then the moves numbered in pairs, wrapped, ending with the
//! result.

use checkers_rules::{PdnGame, PdnResult};

use crate::live::{LiveGame, PlayerKind, Seat};

/// `YYYY.MM.DD` of a time in milliseconds since the Unix epoch (UTC).
pub fn pdn_date(ms: i64) -> String {
    checkers_rules::pdn_date(ms.div_euclid(86_400_000))
}

fn player_name(seat: &Seat) -> String {
    match (&seat.name, seat.kind) {
        (Some(name), _) => name.clone(),
        (None, PlayerKind::Computer { level }) => format!("Computer (level {level})"),
        (None, PlayerKind::Human) => "?".to_string(),
    }
}

/// The game as a PDN record (tags, moves, result), written out by the rules crate's PDN
/// writer, so it reads back with the same reader as every other record of ours.
pub fn game_record(game: &LiveGame) -> PdnGame {
    let mut record = PdnGame::from_position(game.game.start());
    for mv in game.game.moves() {
        // Every stored move was refereed by the same rules, so none can be refused here.
        if record.push(*mv).is_err() {
            break;
        }
    }
    let tags = [
        ("Event", "Checkers Online".to_string()),
        ("Site", format!("game {}", game.id)),
        ("Date", pdn_date(game.created_ms)),
        ("White", player_name(&game.seats[0])),
        ("Black", player_name(&game.seats[1])),
    ];
    for (name, value) in tags {
        let _ = record.set_tag(name, &value);
    }
    if let Some(clock) = game.clock {
        let _ =
            record.set_tag("TimeControl", &format!("{}+{}", clock.base_ms / 1000, clock.increment_ms / 1000));
    }
    if let Some(outcome) = game.outcome() {
        let _ = record.set_tag("Termination", &outcome.to_string());
    }
    record.set_result(match (game.aborted, game.outcome()) {
        (true, _) | (false, None) => PdnResult::Unknown,
        (false, Some(outcome)) => outcome.winner().map_or(PdnResult::Draw, PdnResult::Win),
    });
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(pdn_date(0), "1970.01.01");
        assert_eq!(pdn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pdn_date(1_796_083_200_000), "2026.12.01");
    }
}
