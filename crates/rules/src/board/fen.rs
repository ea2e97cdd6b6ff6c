//! PDN FEN on boards of any size: `W:W31-50:B1-20`.
//!
//! Reading is two steps, as on 8x8: [`parse_board_fen`] checks the syntax and gives a
//! [`BoardSetup`]; [`Board::from_setup`] checks it against the rules. Squares are numbers
//! (1-50 on 10x10), singly or as ranges (`31-50`, `K1-3`), `K` before a king; the two piece
//! lists may come in either order and either may be empty. Algebraic names, which some 8x8
//! FEN uses, are not squares here and are refused as such, except on a board whose squares
//! are named so ([`Geometry::ALGEBRAIC`], Turkish draughts): there FEN names squares
//! `a1`-`h8` (`W:Wa2,b2:Ba7`, as pydraughts writes Turkish FEN) and a range runs through
//! the square numbers between its ends (`a2-h2` is the second rank).

use super::error::{BoardFenError, BoardFenLoadError};
use super::geometry::Geometry;
use super::position::{Board, BoardSetup, RuleSet};
use crate::position::{Color, Piece, Role};

/// Checks the syntax of FEN text for the board `G` and returns what it says, without
/// validating the position.
pub fn parse_board_fen<G: Geometry>(text: &str) -> Result<BoardSetup, BoardFenError> {
    let text = text.trim().trim_matches('"').trim().trim_end_matches('.');
    if text.is_empty() {
        return Err(BoardFenError::Empty);
    }
    let fields: Vec<&str> = text.split(':').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(BoardFenError::FieldCount(fields.len()));
    }
    let mut setup = BoardSetup {
        turn: Some(match fields[0] {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(BoardFenError::BadTurn(other.to_string())),
        }),
        ..BoardSetup::default()
    };
    let mut seen = [false; 2];
    for field in &fields[1..] {
        let mut chars = field.chars();
        let color = match chars.next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => return Err(BoardFenError::BadColor(field.to_string())),
        };
        let idx = usize::from(color == Color::Black);
        if seen[idx] {
            return Err(BoardFenError::ColorTwice(if idx == 0 { "white" } else { "black" }));
        }
        seen[idx] = true;
        let list = chars.as_str().trim();
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let item = item.trim();
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest.trim()),
                None => (false, item),
            };
            let squares = parse_item::<G>(body)?;
            let target = match (color, king) {
                (Color::White, false) => &mut setup.white_men,
                (Color::White, true) => &mut setup.white_kings,
                (Color::Black, false) => &mut setup.black_men,
                (Color::Black, true) => &mut setup.black_kings,
            };
            target.extend(squares);
        }
    }
    Ok(setup)
}

/// A square number of the board `G`, if `text` names one.
fn square_number<G: Geometry>(text: &str) -> Option<u32> {
    G::square_by_name(text.trim())
}

/// One list item: a square or a range `a-b`.
fn parse_item<G: Geometry>(body: &str) -> Result<Vec<u32>, BoardFenError> {
    let named = || BoardFenError::BadSquareName { text: body.to_string(), names: G::square_names() };
    if let Some((a, b)) = body.split_once('-') {
        let range = || {
            if G::ALGEBRAIC {
                named()
            } else {
                BoardFenError::BadRange { text: body.to_string(), squares: G::SQUARES }
            }
        };
        let lo = square_number::<G>(a).ok_or_else(range)?;
        let hi = square_number::<G>(b).ok_or_else(range)?;
        if lo > hi {
            return Err(range());
        }
        return Ok((lo..=hi).collect());
    }
    square_number::<G>(body).map(|n| vec![n]).ok_or_else(|| {
        if G::ALGEBRAIC {
            named()
        } else {
            BoardFenError::BadSquare { text: body.to_string(), side: G::SIDE, squares: G::SQUARES }
        }
    })
}

impl<V: RuleSet> Board<V> {
    /// Reads FEN text and validates the position.
    pub fn from_fen(text: &str) -> Result<Board<V>, BoardFenLoadError> {
        let setup = parse_board_fen::<V::Geometry>(text)?;
        Ok(Board::from_setup(&setup)?)
    }

    /// This position as FEN, each side's squares ascending (by number), `K` before a king:
    /// `W:W31,32,...,50:B1,2,...,20` for the International start.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        out.push(self.turn().letter());
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(color.letter());
            let items: Vec<String> = (1..=<V::Geometry as Geometry>::SQUARES)
                .filter_map(|n| match self.piece_at(n) {
                    Some(Piece { color: c, role }) if c == color => {
                        let name = <V::Geometry as Geometry>::square_name(n);
                        Some(if role == Role::King { format!("K{name}") } else { name })
                    }
                    _ => None,
                })
                .collect();
            out.push_str(&items.join(","));
        }
        out
    }
}
