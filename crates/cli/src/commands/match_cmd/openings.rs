//! The opening sets matches are played over, embedded from `data/openings/`:
//! - published sets (taken from pydraughts' MIT-licensed ballot files): English checkers'
//!   three-move ballot (the `standard` deck), the 150 Russian tournament openings (also
//!   Brazilian draughts', as pydraughts plays them: the same moves on the same start), and for
//!   Italian draughts Ed Gilbert's 2,400 eleven-man ballots (positions, not moves);
//! - for the other variants, sets made by `checkers-openings` (its command heads each file):
//!   the level lines of a few plies from the start.
//!
//! Each opening is replayed from its start, so every move is checked by the rules library
//! and the games record the opening moves.

use anyhow::{bail, Context};
use checkers_engine::{BoardEngine, SearchPosition};
use checkers_rules::board::{Board, Dark8, Geometry};
use checkers_rules::{Move, Position, Variant};

const ENGLISH_3MOVE: &str = include_str!("../../../data/openings/english-3move.json");
const RUSSIAN_150: &str = include_str!("../../../data/openings/russian-150.json");
const ITALIAN_11: &str = include_str!("../../../data/openings/italian-11.json");

/// How many of the Italian ballots a match plays: a hundred, spread over the 2,400.
const ITALIAN_OPENINGS: usize = 100;

/// One opening: its name in the set, the position it starts from (the variant's start, or
/// a ballot's position) and its moves from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<P: SearchPosition> {
    pub name: String,
    pub start: P,
    pub moves: Vec<P::Move>,
}

impl<P: SearchPosition> Opening<P> {
    /// The position after the opening moves.
    #[cfg(test)]
    pub fn position(&self) -> P {
        self.moves.iter().fold(self.start, |p, m| p.play_unchecked(m))
    }
}

/// A short description of a variant's set, for the report.
pub fn set_name(variant: &str) -> &'static str {
    match variant {
        "english" => "English three-move ballot",
        "russian" => "Russian 150 tournament openings",
        "brazilian" => "the 150 Russian and Brazilian tournament openings",
        "italian" => "Italian eleven-man ballots, a hundred of 2,400",
        _ => "the level lines of checkers-openings",
    }
}

/// The openings of an 8x8 variant, in the order of the set.
pub fn checkers_openings(variant: Variant) -> anyhow::Result<Vec<Opening<Position>>> {
    let text = match variant {
        Variant::English => ENGLISH_3MOVE,
        Variant::Russian => RUSSIAN_150,
    };
    ballot_names(text)?
        .into_iter()
        .map(|name| replay(variant, &name).with_context(|| format!("opening `{name}`")))
        .collect()
}

/// The names of a ballot file's `standard` deck, in order.
fn ballot_names(text: &str) -> anyhow::Result<Vec<String>> {
    let data: serde_json::Value =
        serde_json::from_str(text).context("the embedded opening file is not JSON")?;
    let names = data["standard"].as_array().context("the opening file has no `standard` list")?;
    names.iter().map(|name| Ok(name.as_str().context("an opening name is not text")?.to_string())).collect()
}

/// The openings of a board variant, in the order of the set.
pub fn board_openings<V: BoardEngine>() -> anyhow::Result<Vec<Opening<Board<V>>>> {
    match V::NAME {
        "brazilian" => brazilian(),
        "italian" => italian(),
        name => {
            let text = generated_set(name).with_context(|| format!("no opening set for {name}"))?;
            let lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
            lines
                .enumerate()
                .map(|(i, line)| {
                    let start = Board::<V>::start();
                    let mut position = start;
                    let mut moves = Vec::new();
                    for word in line.split_whitespace() {
                        let mv = position
                            .parse_move(word)
                            .with_context(|| format!("opening {}: {line}", i + 1))?;
                        moves.push(mv);
                        position = position.play_unchecked(&mv);
                    }
                    Ok(Opening { name: format!("{:03} {line}", i + 1), start, moves })
                })
                .collect()
        }
    }
}

/// The set `checkers-openings` made for a variant.
fn generated_set(variant: &str) -> Option<&'static str> {
    Some(match variant {
        "international" => include_str!("../../../data/openings/international.txt"),
        "canadian" => include_str!("../../../data/openings/canadian.txt"),
        "frisian" => include_str!("../../../data/openings/frisian.txt"),
        "frysk" => include_str!("../../../data/openings/frysk.txt"),
        "antidraughts" => include_str!("../../../data/openings/antidraughts.txt"),
        "breakthrough" => include_str!("../../../data/openings/breakthrough.txt"),
        "spanish" => include_str!("../../../data/openings/spanish.txt"),
        "portuguese" => include_str!("../../../data/openings/portuguese.txt"),
        "czech" => include_str!("../../../data/openings/czech.txt"),
        "pool" => include_str!("../../../data/openings/pool.txt"),
        "thai" => include_str!("../../../data/openings/thai.txt"),
        "turkish" => include_str!("../../../data/openings/turkish.txt"),
        _ => return None,
    })
}

/// Brazilian draughts over the 150 Russian tournament openings: each replayed by the Russian
/// rules (whose moves the names give), each move then found among the Brazilian moves of the
/// same squares. An opening whose moves Brazilian rules forbid would be refused.
fn brazilian<V: BoardEngine>() -> anyhow::Result<Vec<Opening<Board<V>>>> {
    let start = Board::<V>::start();
    checkers_openings(Variant::Russian)?
        .into_iter()
        .map(|russian| {
            let mut before = Position::start(Variant::Russian);
            let mut position = start;
            let mut moves = Vec::new();
            for mv in &russian.moves {
                let number = |sq: checkers_rules::Square| Dark8::at(sq.file() as i32, sq.rank() as i32);
                let (from, to) = (number(mv.from()), number(mv.to()));
                let found = position
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| Some(m.from()) == from && Some(m.to()) == to);
                let Some(found) = found else {
                    bail!(
                        "opening `{}`: {} is not a Brazilian move",
                        russian.name,
                        mv.to_pdn(&before, checkers_rules::SquareNotation::Algebraic)
                    );
                };
                moves.push(found);
                position = position.play_unchecked(&found);
                before = before.play_unchecked(mv);
            }
            Ok(Opening { name: russian.name, start, moves })
        })
        .collect()
}

/// Italian draughts over a hundred of Ed Gilbert's eleven-man ballots, spread evenly over the
/// 2,400 (each a position, White to move).
fn italian<V: BoardEngine>() -> anyhow::Result<Vec<Opening<Board<V>>>> {
    let data: serde_json::Value =
        serde_json::from_str(ITALIAN_11).context("the embedded opening file is not JSON")?;
    let names = ballot_names(ITALIAN_11)?;
    let step = (names.len() / ITALIAN_OPENINGS).max(1);
    names
        .iter()
        .step_by(step)
        .take(ITALIAN_OPENINGS)
        .map(|name| {
            let fen =
                data["all"][name.as_str()].as_str().with_context(|| format!("ballot {name} has no FEN"))?;
            let start = Board::<V>::from_fen(fen).with_context(|| format!("ballot {name}: {fen}"))?;
            Ok(Opening { name: format!("ballot {name}"), start, moves: Vec::new() })
        })
        .collect()
}

/// Reads an opening's moves from its name: English `001 09-13 21-17 05-09` (PDN moves after
/// the number), Russian `1-I cd4 ba5 dc5` (the start square's file, then the target square)
/// or `5-VII Free` (no moves).
fn replay(variant: Variant, name: &str) -> anyhow::Result<Opening<Position>> {
    let start = Position::start(variant);
    let mut position = start;
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
    Ok(Opening { name: name.to_string(), start, moves })
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
    use checkers_rules::board::{BoardVariant, Brazilian, Italian};
    use checkers_rules::{parse_fen, with_board_variant, Color};

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
        let english = checkers_openings(Variant::English).unwrap();
        assert_eq!(english.len(), 157);
        assert!(english.iter().all(|o| o.moves.len() == 3));
        assert_eq!(english[0].name, "001 09-13 21-17 05-09");
        let russian = checkers_openings(Variant::Russian).unwrap();
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
            for opening in checkers_openings(variant).unwrap() {
                if opening.position() != data_fen(variant, &opening.name) {
                    differ.push(opening.name);
                }
            }
            match variant {
                Variant::English => assert!(differ.is_empty(), "{differ:?}"),
                Variant::Russian => assert!(differ.iter().all(|n| n.starts_with("2-IV ")), "{differ:?}"),
            }
        }
        let p = checkers_openings(Variant::Russian).unwrap()[0].position();
        assert_eq!(p.turn(), Color::Black);
    }

    #[test]
    fn every_board_variant_has_its_openings() {
        for variant in BoardVariant::ALL {
            let count = with_board_variant!(variant, V => {
                let set = board_openings::<V>().unwrap_or_else(|e| panic!("{variant}: {e:#}"));
                let ends: std::collections::HashSet<Board<V>> = set.iter().map(Opening::position).collect();
                assert_eq!(ends.len(), set.len(), "{variant}: distinct openings");
                set.len()
            });
            let expected = match variant {
                BoardVariant::Brazilian => 150,
                BoardVariant::Antidraughts => 85,
                _ => 100,
            };
            assert_eq!(count, expected, "{variant}");
        }
        // Brazilian's first opening is the Russian one's, on the same squares: c3-d4 is 22-18.
        let brazilian = board_openings::<Brazilian>().unwrap();
        assert_eq!(brazilian[0].moves[0].to_pdn(&brazilian[0].start), "22-18");
        // Every Italian ballot is a position with eleven men a side, White to move.
        for name in ballot_names(ITALIAN_11).unwrap() {
            let data: serde_json::Value = serde_json::from_str(ITALIAN_11).unwrap();
            let board = Board::<Italian>::from_fen(data["all"][name.as_str()].as_str().unwrap()).unwrap();
            assert_eq!(
                (board.piece_count(Color::White), board.piece_count(Color::Black)),
                (11, 11),
                "{name}"
            );
            assert_eq!(board.turn(), Color::White, "{name}");
        }
    }
}
