//! The opening sets matches are played over, embedded from `data/openings/` (copied from the
//! project's shared data, which takes them from pydraughts' MIT-licensed ballot files):
//! English checkers' three-move ballot (the `standard` deck) and the 150 Russian tournament
//! openings. Each opening is replayed from the start position, so every move is checked by
//! the rules library and the games record the opening moves.

use anyhow::{bail, Context};
use checkers_rules::{Move, Position, Variant};

const ENGLISH_3MOVE: &str = include_str!("../../../data/openings/english-3move.json");
const RUSSIAN_150: &str = include_str!("../../../data/openings/russian-150.json");

/// One opening: its name in the set and its moves from the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name: String,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position after the opening moves.
    #[cfg(test)]
    pub fn position(&self, variant: Variant) -> Position {
        self.moves.iter().fold(Position::start(variant), |p, m| p.play_unchecked(m))
    }
}

/// A short description of the set, for the report.
pub fn set_name(variant: Variant) -> &'static str {
    match variant {
        Variant::English => "English three-move ballot",
        Variant::Russian => "Russian 150 tournament openings",
    }
}

/// The openings of `variant`, in the order of the set.
pub fn openings(variant: Variant) -> anyhow::Result<Vec<Opening>> {
    let text = match variant {
        Variant::English => ENGLISH_3MOVE,
        Variant::Russian => RUSSIAN_150,
    };
    let data: serde_json::Value =
        serde_json::from_str(text).context("the embedded opening file is not JSON")?;
    let names = data["standard"].as_array().context("the opening file has no `standard` list")?;
    names
        .iter()
        .map(|name| {
            let name = name.as_str().context("an opening name is not text")?;
            replay(variant, name).with_context(|| format!("opening `{name}`"))
        })
        .collect()
}

/// Reads an opening's moves from its name: English `001 09-13 21-17 05-09` (PDN moves after
/// the number), Russian `1-I cd4 ba5 dc5` (the start square's file, then the target square)
/// or `5-VII Free` (no moves).
fn replay(variant: Variant, name: &str) -> anyhow::Result<Opening> {
    let mut position = Position::start(variant);
    let mut moves = Vec::new();
    for word in name.split_whitespace().skip(1) {
        let mv = match variant {
            Variant::English => position.parse_move(word)?,
            Variant::Russian if word == "Free" => continue,
            Variant::Russian => russian_short(&position, word)?,
        };
        moves.push(mv);
        position = position.play_unchecked(&mv);
    }
    Ok(Opening { name: name.to_string(), moves })
}

/// `cd4`: the move of the side to move from file c to d4.
fn russian_short(position: &Position, word: &str) -> anyhow::Result<Move> {
    let bytes = word.as_bytes();
    if bytes.len() != 3 || !(b'a'..=b'h').contains(&bytes[0]) {
        bail!("`{word}` is not a short algebraic move such as cd4");
    }
    let file = u32::from(bytes[0] - b'a');
    let target = checkers_rules::Square::from_algebraic(&word[1..])
        .with_context(|| format!("`{word}` does not name a dark square"))?;
    let found: Vec<Move> = position
        .legal_moves()
        .iter()
        .filter(|m| m.from().file() == file && m.to() == target)
        .copied()
        .collect();
    match found[..] {
        [mv] => Ok(mv),
        [] => bail!("`{word}` is not a legal move"),
        _ => bail!("`{word}` names more than one move"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::{parse_fen, Color};

    /// The FEN the data file gives for an opening, as a position (pieces and side to move).
    fn data_fen(variant: Variant, name: &str) -> Position {
        let text = match variant {
            Variant::English => ENGLISH_3MOVE,
            Variant::Russian => RUSSIAN_150,
        };
        let data: serde_json::Value = serde_json::from_str(text).unwrap();
        let fen = data["all"][name].as_str().unwrap();
        Position::from_setup(variant, &parse_fen(fen).unwrap()).unwrap()
    }

    #[test]
    fn every_opening_replays_legally() {
        let english = openings(Variant::English).unwrap();
        assert_eq!(english.len(), 157);
        assert!(english.iter().all(|o| o.moves.len() == 3));
        assert_eq!(english[0].name, "001 09-13 21-17 05-09");
        let russian = openings(Variant::Russian).unwrap();
        assert_eq!(russian.len(), 150);
        assert!(russian.iter().all(|o| o.moves.len() <= 3));
        assert_eq!(russian[0].moves[0].from().algebraic(), "c3");
        assert_eq!(russian[0].moves[0].to().algebraic(), "d4");
    }

    /// The moves agree with the FEN the file gives for each opening, except where the file's
    /// FEN belongs to another opening (`2-IV ef4 fe5 ab4` is listed with the FEN of
    /// `2-V ab4 fe5 ba5`); the moves are what the name says, so they are what we play.
    #[test]
    fn replayed_positions_match_the_data_files() {
        for variant in Variant::ALL {
            let mut differ = Vec::new();
            for opening in openings(variant).unwrap() {
                if opening.position(variant) != data_fen(variant, &opening.name) {
                    differ.push(opening.name);
                }
            }
            match variant {
                Variant::English => assert!(differ.is_empty(), "{differ:?}"),
                Variant::Russian => assert!(differ.iter().all(|n| n.starts_with("2-IV ")), "{differ:?}"),
            }
        }
        let p = openings(Variant::Russian).unwrap()[0].position(Variant::Russian);
        assert_eq!(p.turn(), Color::Black);
    }
}
