//! `--resume`: the games a stopped match already wrote to its PDN file, read back so that the
//! match plays only the others and reports on them all. A game is known by its `Round` tag,
//! its number in the schedule, which fixes its opening, its colours and its seed; the file is
//! checked against that, so that games of other players, of another opening set or of
//! another variant are refused rather than counted.

use std::path::Path;

use anyhow::{bail, Context};
use checkers_engine::SearchPosition;
use checkers_rules::Color;

use super::contest::{Contest, MatchRecord};
use super::openings::Opening;
use super::{first_player_points, thinking, Pairing, Played};

/// The finished games in `path` (none if there is no such file yet), for the match of
/// `first` against `second` over `openings`. A game left unfinished (`*`) is not counted: it
/// is played again.
pub fn earlier_games<C: Contest>(
    path: &Path,
    contest: C,
    openings: &[Opening<C::Position>],
    (first, second): (&str, &str),
) -> anyhow::Result<Vec<Played<C>>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let records = contest
        .read_records(&text)
        .with_context(|| format!("{} is not a PDN file of games", path.display()))?;
    let mut played: Vec<Played<C>> = Vec::new();
    for record in records {
        let Some(number) = record.tag("Round").and_then(|r| r.trim().parse::<usize>().ok()) else {
            bail!(
                "a game in {} has no game number (Round tag): not a file `checkers match` wrote",
                path.display()
            );
        };
        let context = || format!("game {number} in {}", path.display());
        if number == 0 || number > openings.len() * 2 {
            bail!("{}: this match has games 1 to {}", context(), openings.len() * 2);
        }
        if played.iter().any(|g| g.number == number) {
            bail!("{}: the file holds that game twice", context());
        }
        let pairing = Pairing::numbered(number);
        let opening = &openings[pairing.opening];
        if record.tag("Opening") != Some(opening.name.as_str())
            || record.start() != opening.start
            || !record.moves().starts_with(&opening.moves)
        {
            bail!(
                "{}: its opening is not {}, the opening of that game in this match",
                context(),
                opening.name
            );
        }
        let first_color = pairing.first_color(opening.start.turn());
        let (black, white) = if first_color == Color::Black { (first, second) } else { (second, first) };
        if record.tag("Black") != Some(black) || record.tag("White") != Some(white) {
            bail!(
                "{}: it was played by {} (Black) and {} (White), not by {black} and {white}",
                context(),
                record.tag("Black").unwrap_or("?"),
                record.tag("White").unwrap_or("?")
            );
        }
        let Some(points) = first_player_points(record.result(), first_color) else { continue };
        let thinking = thinking::of_record(&record, opening.moves.len(), first_color);
        played.push(Played { number, opening: pairing.opening, record, points, thinking });
    }
    Ok(played)
}
