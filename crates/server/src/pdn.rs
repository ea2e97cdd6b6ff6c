//! PDN export of a game: tags, then the moves numbered in pairs, wrapped, ending with the
//! result.

use checkers_rules::Position;

use crate::live::{result_text, LiveGame, PlayerKind, Seat};

/// `YYYY.MM.DD` of a time in milliseconds since the Unix epoch (UTC).
pub fn pdn_date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn tag_value(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).map(|c| if c == '"' { '\'' } else { c }).collect()
}

fn player_name(seat: &Seat) -> String {
    match (&seat.name, seat.kind) {
        (Some(name), _) => tag_value(name),
        (None, PlayerKind::Computer { level }) => format!("Computer (level {level})"),
        (None, PlayerKind::Human) => "?".to_string(),
    }
}

/// The game as PDN text.
pub fn game_pdn(game: &LiveGame) -> String {
    let start = game.game.start();
    let variant = start.variant();
    let result = if game.aborted { "*" } else { result_text(game.outcome()) };
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| out.push_str(&format!("[{name} \"{value}\"]\n"));
    tag("Event", "Checkers Online");
    tag("Site", &format!("game {}", game.id));
    tag("Date", &pdn_date(game.created_ms));
    tag("White", &player_name(&game.seats[0]));
    tag("Black", &player_name(&game.seats[1]));
    tag("Result", result);
    tag("GameType", &variant.pdn_game_type().to_string());
    if start != Position::start(variant) {
        tag("FEN", &start.to_fen());
    }
    if let Some(clock) = game.clock {
        tag("TimeControl", &format!("{}+{}", clock.base_ms / 1000, clock.increment_ms / 1000));
    }
    if let Some(outcome) = game.outcome() {
        tag("Termination", &outcome.to_string());
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let first_is_second_side = start.turn() != variant.first_to_move();
    for (i, text) in game.pdn_moves.iter().enumerate() {
        let ply = i + usize::from(first_is_second_side);
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            tokens.push(format!("{}...", ply / 2 + 1));
        }
        tokens.push(text.clone());
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    out
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
