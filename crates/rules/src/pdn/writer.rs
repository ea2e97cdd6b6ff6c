//! Writing games as PDN text.
//!
//! [`PdnGame::to_pdn`] writes one canonical form: tags Event, Site, Date, Round, Black, White
//! (those present), then `Result`, `GameType` (`21` or `25`), `SetUp "1"` and `FEN` when the
//! game does not start from the start position, then the other tags; a blank line; the moves in
//! long form with move numbers (`1. 11-15 23-19 2. 8-11`, or `1... 23-19` when the side that
//! normally moves second starts), comments in braces, lines wrapped at 80 characters, and the
//! result. Squares are numeric unless [`PdnGame::to_pdn_with`] asks for algebraic ones (Russian
//! captures are then written with `:`, as PDN 3.0 gives for GameType 25). Reading that text
//! gives back an equal game, and writing a game read from canonical text gives the same text.

use crate::fen::{to_fen_with, SquareNotation};
use crate::position::{Position, Variant};

use super::game::PdnGame;
use super::record::{Record, ROSTER};

/// Where the writer breaks lines.
const LINE_WIDTH: usize = 80;

impl PdnGame {
    /// This game as PDN text, squares numbered 1-32.
    pub fn to_pdn(&self) -> String {
        self.to_pdn_with(SquareNotation::Numeric)
    }

    /// This game as PDN text, squares in `notation` (moves and FEN).
    pub fn to_pdn_with(&self, notation: SquareNotation) -> String {
        let variant = self.variant();
        let result = self.result().to_pdn(variant);
        let mut derived =
            vec![("Result", result.to_string()), ("GameType", variant.pdn_game_type().to_string())];
        if self.start() != Position::start(variant) {
            derived.push(("SetUp", "1".to_string()));
            derived.push(("FEN", to_fen_with(&self.start(), notation)));
        }
        let mut moves = Vec::with_capacity(self.moves().len());
        let mut pos = self.start();
        for mv in self.moves() {
            let mut text = mv.to_pdn(&pos, notation);
            if notation == SquareNotation::Algebraic && variant == Variant::Russian {
                text = text.replace('x', ":");
            }
            moves.push(text);
            pos = pos.play_unchecked(mv);
        }
        let second_starts = self.start().turn() != variant.first_to_move();
        write_game_text(self.record(), &derived, &moves, second_starts, result)
    }
}

/// Several games as one PDN text, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    write_pdn_with(games, SquareNotation::Numeric)
}

/// Several games as one PDN text, squares in `notation`.
pub fn write_pdn_with(games: &[PdnGame], notation: SquareNotation) -> String {
    games.iter().map(|g| g.to_pdn_with(notation)).collect::<Vec<_>>().join("\n")
}

/// One game's text in the canonical form, whatever its variant: the roster tags of `record`,
/// then `derived` (Result, GameType, SetUp, FEN: what the game's structure says), then its
/// other tags; a blank line; the `moves` (already written) numbered, `1...` first when the
/// side that normally moves second starts, with the comments, wrapped at 80 characters; the
/// result.
pub(super) fn write_game_text(
    record: &Record,
    derived: &[(&str, String)],
    moves: &[String],
    second_starts: bool,
    result: &str,
) -> String {
    let mut out = String::new();
    let tag_line = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag_value(value)));
    };
    let in_roster = |name: &str| ROSTER.contains(&name);
    for (name, value) in record.tags().iter().filter(|(n, _)| in_roster(n)) {
        tag_line(&mut out, name, value);
    }
    for (name, value) in derived {
        tag_line(&mut out, name, value);
    }
    for (name, value) in record.tags().iter().filter(|(n, _)| !in_roster(n)) {
        tag_line(&mut out, name, value);
    }
    out.push('\n');

    // Units that are never split across lines: a move with its number, or one word of a
    // comment.
    let mut units: Vec<String> = Vec::new();
    let push_comment = |units: &mut Vec<String>, text: &str| {
        let words: Vec<&str> = text.split(' ').collect();
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let open = if i == 0 { "{" } else { "" };
            let close = if i == last { "}" } else { "" };
            units.push(format!("{open}{word}{close}"));
        }
    };
    if let Some(text) = record.opening_comment() {
        push_comment(&mut units, text);
    }
    let offset = usize::from(second_starts);
    for (i, text) in moves.iter().enumerate() {
        let ply = i + offset;
        let unit = if ply % 2 == 0 {
            format!("{}. {text}", ply / 2 + 1)
        } else if i == 0 {
            format!("{}... {text}", ply / 2 + 1)
        } else {
            text.clone()
        };
        units.push(unit);
        if let Some(text) = record.comment(i) {
            push_comment(&mut units, text);
        }
    }
    units.push(result.to_string());

    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&unit);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

fn escape_tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
