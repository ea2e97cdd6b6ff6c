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

use super::game::{PdnGame, ROSTER};

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
        let mut out = String::new();
        let tag_line = |out: &mut String, name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag_value(value)));
        };
        let in_roster = |name: &str| ROSTER.contains(&name);
        for (name, value) in self.tags().iter().filter(|(n, _)| in_roster(n)) {
            tag_line(&mut out, name, value);
        }
        tag_line(&mut out, "Result", self.result().to_pdn(variant));
        tag_line(&mut out, "GameType", &variant.pdn_game_type().to_string());
        if self.start() != Position::start(variant) {
            tag_line(&mut out, "SetUp", "1");
            tag_line(&mut out, "FEN", &to_fen_with(&self.start(), notation));
        }
        for (name, value) in self.tags().iter().filter(|(n, _)| !in_roster(n)) {
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
        if let Some(text) = self.opening_comment() {
            push_comment(&mut units, text);
        }
        let offset = usize::from(self.start().turn() != variant.first_to_move());
        let mut pos = self.start();
        for (i, mv) in self.moves().iter().enumerate() {
            let mut text = mv.to_pdn(&pos, notation);
            if notation == SquareNotation::Algebraic && variant == Variant::Russian {
                text = text.replace('x', ":");
            }
            let ply = i + offset;
            let unit = if ply % 2 == 0 {
                format!("{}. {text}", ply / 2 + 1)
            } else if i == 0 {
                format!("{}... {text}", ply / 2 + 1)
            } else {
                text
            };
            units.push(unit);
            if let Some(text) = self.comment(i) {
                push_comment(&mut units, text);
            }
            pos = pos.play_unchecked(mv);
        }
        units.push(self.result().to_pdn(variant).to_string());

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
}

/// Several games as one PDN text, separated by blank lines.
pub fn write_pdn(games: &[PdnGame]) -> String {
    write_pdn_with(games, SquareNotation::Numeric)
}

/// Several games as one PDN text, squares in `notation`.
pub fn write_pdn_with(games: &[PdnGame], notation: SquareNotation) -> String {
    games.iter().map(|g| g.to_pdn_with(notation)).collect::<Vec<_>>().join("\n")
}

fn escape_tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
