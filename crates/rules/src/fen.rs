//! PDN FEN: `W:W21,22,K30:B1,2,K5`.
//!
//! Reading is two steps, as in shakmaty: [`parse_fen`] checks the syntax and gives a
//! [`Setup`]; [`Position::from_setup`] checks it against the rules. Squares may be numbers
//! (1-32) or algebraic (`c3`), singly or as ranges (`21-32`, `K1-4`); the two piece lists may
//! come in either order, and either may be empty.

use crate::error::{FenError, FenLoadError};
use crate::position::{Color, Position, Setup, Variant};
use crate::square::Square;

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SquareNotation {
    /// 1-32, as in the numbered diagram of docs/rules.md.
    #[default]
    Numeric,
    /// a1-h8, as Russian players write.
    Algebraic,
}

impl SquareNotation {
    pub fn write(self, square: Square) -> String {
        match self {
            SquareNotation::Numeric => square.number().to_string(),
            SquareNotation::Algebraic => square.algebraic(),
        }
    }
}

/// Reads a square written as a number or algebraically.
pub fn parse_square(text: &str) -> Option<Square> {
    let t = text.trim();
    if t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty() && t.len() <= 2 {
        t.parse().ok().and_then(Square::from_number)
    } else {
        Square::from_algebraic(t)
    }
}

/// Checks the syntax of FEN text and returns what it says, without validating the position.
pub fn parse_fen(text: &str) -> Result<Setup, FenError> {
    let text = text.trim().trim_matches('"').trim().trim_end_matches('.');
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let fields: Vec<&str> = text.split(':').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut setup = Setup {
        turn: Some(match fields[0] {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(FenError::BadTurn(other.to_string())),
        }),
        ..Setup::default()
    };
    let mut seen = [false; 2];
    for field in &fields[1..] {
        let mut chars = field.chars();
        let color = match chars.next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => return Err(FenError::BadColor(field.to_string())),
        };
        let idx = usize::from(color == Color::Black);
        if seen[idx] {
            return Err(FenError::ColorTwice(if idx == 0 { "white" } else { "black" }));
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
            let squares = parse_item(body)?;
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

/// One list item: a square or a numeric range `a-b`.
fn parse_item(body: &str) -> Result<Vec<Square>, FenError> {
    if let Some((a, b)) = body.split_once('-') {
        let lo: u32 = a.trim().parse().map_err(|_| FenError::BadRange(body.to_string()))?;
        let hi: u32 = b.trim().parse().map_err(|_| FenError::BadRange(body.to_string()))?;
        if lo > hi || Square::from_number(lo).is_none() || Square::from_number(hi).is_none() {
            return Err(FenError::BadRange(body.to_string()));
        }
        return Ok((lo..=hi).filter_map(Square::from_number).collect());
    }
    parse_square(body).map(|s| vec![s]).ok_or_else(|| FenError::BadSquare(body.to_string()))
}

/// Writes a position as FEN with numeric squares: `W:W21,22,K30:B1,2,K5`.
pub fn to_fen(position: &Position) -> String {
    to_fen_with(position, SquareNotation::Numeric)
}

/// Writes a position as FEN, squares in the given notation, each list in square-number order.
pub fn to_fen_with(position: &Position, notation: SquareNotation) -> String {
    let mut out = String::new();
    out.push(position.turn().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let items: Vec<String> = position
            .pieces(color)
            .squares()
            .into_iter()
            .map(|sq| {
                let k = if position.kings().contains(sq) { "K" } else { "" };
                format!("{k}{}", notation.write(sq))
            })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

impl Position {
    /// Reads FEN text and validates it for `variant`.
    pub fn from_fen(variant: Variant, text: &str) -> Result<Position, FenLoadError> {
        let setup = parse_fen(text)?;
        Ok(Position::from_setup(variant, &setup)?)
    }

    /// This position as FEN with numeric squares.
    pub fn to_fen(&self) -> String {
        to_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::PositionError;

    #[test]
    fn start_position_round_trips() {
        for v in Variant::ALL {
            let p = Position::start(v);
            let fen = p.to_fen();
            assert_eq!(Position::from_fen(v, &fen).unwrap(), p);
        }
        assert_eq!(
            Position::start(Variant::English).to_fen(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
    }

    #[test]
    fn ranges_kings_order_and_algebraic() {
        let a = Position::from_fen(Variant::English, "B:B1-12:W21-32").unwrap();
        assert_eq!(a, Position::start(Variant::English));
        let b = Position::from_fen(Variant::Russian, "W:Wa1,Kc3:Bh8").unwrap();
        assert_eq!(b.to_fen(), "W:WK22,29:B4");
        assert_eq!(to_fen_with(&b, SquareNotation::Algebraic), "W:WKc3,a1:Bh8");
        let empty_side = Position::from_fen(Variant::English, "W:W:BK1").unwrap();
        assert!(empty_side.pieces(Color::White).is_empty());
    }

    #[test]
    fn syntax_errors_are_apart_from_position_errors() {
        use FenLoadError::*;
        assert!(matches!(Position::from_fen(Variant::English, ""), Err(Syntax(FenError::Empty))));
        assert!(matches!(Position::from_fen(Variant::English, "X:W1:B2"), Err(Syntax(FenError::BadTurn(_)))));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W33:B2"),
            Err(Syntax(FenError::BadSquare(_)))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:Wa2:B2"),
            Err(Syntax(FenError::BadSquare(_)))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W9-5:B2"),
            Err(Syntax(FenError::BadRange(_)))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W1:W2"),
            Err(Syntax(FenError::ColorTwice(_)))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W1:B2"),
            Err(Invalid(PositionError::ManOnCrowningRow { .. }))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W5:B5"),
            Err(Invalid(PositionError::SquareTwice(_)))
        ));
        assert!(matches!(
            Position::from_fen(Variant::English, "W:W5-17:B1"),
            Err(Invalid(PositionError::TooManyPieces { .. }))
        ));
    }
}
