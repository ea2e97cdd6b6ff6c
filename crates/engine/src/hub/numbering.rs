//! Square numberings on the wire (standard and pydraughts') and the conversions of positions
//! and moves between Hub text and the rules' types.

use checkers_rules::{Color, Move, Position, Setup, Square, SquareSet, Variant};

use super::error::{HubError, MoveTextError};

/// How squares are numbered on the wire (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Numbering {
    /// The numbering of docs/rules.md for positions and moves.
    #[default]
    Standard,
    /// pydraughts' `HubEngine`: its internal board for positions, the variant's numbering
    /// for moves.
    Pydraughts,
}

impl Numbering {
    pub fn name(self) -> &'static str {
        match self {
            Numbering::Standard => "standard",
            Numbering::Pydraughts => "pydraughts",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Numbering> {
        match text {
            "standard" => Some(Numbering::Standard),
            "pydraughts" => Some(Numbering::Pydraughts),
            _ => None,
        }
    }

    /// The standard square of a square number as this numbering writes it in moves.
    fn move_square(self, variant: Variant, number: u32) -> Option<Square> {
        match (self, variant) {
            (Numbering::Pydraughts, Variant::Russian) => {
                (1..=32).contains(&number).then(|| flip_ranks(number)).and_then(Square::from_number)
            }
            _ => Square::from_number(number),
        }
    }

    /// The number this numbering writes in moves for a standard square.
    fn move_number(self, variant: Variant, square: Square) -> u32 {
        match (self, variant) {
            (Numbering::Pydraughts, Variant::Russian) => flip_ranks(square.number()),
            _ => square.number(),
        }
    }

    /// Whether positions come turned half a turn with the colours swapped.
    fn position_rotated(self, variant: Variant) -> bool {
        self == Numbering::Pydraughts && variant == Variant::English
    }
}

/// Numbers the squares rank by rank from the other end of the board: 1-4 (rank 8) become
/// 29-32 and so on, each rank keeping its left-to-right order. It is its own inverse.
fn flip_ranks(number: u32) -> u32 {
    let (row, column) = ((number - 1) / 4, (number - 1) % 4);
    (7 - row) * 4 + column + 1
}

/// Reads a Hub position (`W` + 32 letters), or PDN FEN, for `variant`.
pub fn position_from_hub(text: &str, variant: Variant, numbering: Numbering) -> Result<Position, HubError> {
    let bad = |reason: String| HubError::BadPosition { text: text.to_string(), reason };
    if text.contains(':') {
        return Position::from_fen(variant, text).map_err(|e| bad(e.to_string()));
    }
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 33 {
        return Err(bad(format!(
            "expected 33 letters (W or B, then one of w b W B e for each of squares 1-32), found {}",
            chars.len()
        )));
    }
    let rotated = numbering.position_rotated(variant);
    let color = |c: Color| if rotated { c.opponent() } else { c };
    let turn = match chars[0] {
        'W' => color(Color::White),
        'B' => color(Color::Black),
        other => return Err(bad(format!("side to move must be W or B, found `{other}`"))),
    };
    let mut setup = Setup { turn: Some(turn), ..Setup::default() };
    for (i, &letter) in chars[1..].iter().enumerate() {
        let index = i as u32 + 1;
        let square = Square::from_number(if rotated { 33 - index } else { index })
            .ok_or_else(|| bad(format!("no square {index}")))?;
        let list = match letter {
            'e' | 'E' | '.' => continue,
            'w' => match color(Color::White) {
                Color::White => &mut setup.white_men,
                Color::Black => &mut setup.black_men,
            },
            'W' => match color(Color::White) {
                Color::White => &mut setup.white_kings,
                Color::Black => &mut setup.black_kings,
            },
            'b' => match color(Color::Black) {
                Color::White => &mut setup.white_men,
                Color::Black => &mut setup.black_men,
            },
            'B' => match color(Color::Black) {
                Color::White => &mut setup.white_kings,
                Color::Black => &mut setup.black_kings,
            },
            other => {
                return Err(bad(format!("square letter {index} must be one of w b W B e, found `{other}`")))
            }
        };
        list.push(square);
    }
    Position::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))
}

/// Writes a position as a Hub position (`W` + 32 letters) in `numbering`.
pub fn position_to_hub(position: &Position, numbering: Numbering) -> String {
    let rotated = numbering.position_rotated(position.variant());
    let color = |c: Color| if rotated { c.opponent() } else { c };
    let mut out = String::with_capacity(33);
    out.push(color(position.turn()).letter());
    for index in 1..=32u32 {
        let Some(square) = Square::from_number(if rotated { 33 - index } else { index }) else {
            continue;
        };
        out.push(match position.piece_at(square) {
            None => 'e',
            Some(piece) => {
                let letter = if color(piece.color) == Color::White { 'w' } else { 'b' };
                if position.kings().contains(square) {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                }
            }
        });
    }
    out
}

/// Finds the legal move that Hub move text names in `position`.
pub fn move_from_hub(position: &Position, text: &str, numbering: Numbering) -> Result<Move, MoveTextError> {
    let variant = position.variant();
    let text = text.trim();
    let capture = text.contains(['x', 'X', ':']);
    let parts: Vec<&str> = text.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || (!capture && parts.len() != 2) {
        return Err(MoveTextError::Shape);
    }
    let mut squares = Vec::with_capacity(parts.len());
    for part in &parts {
        let square =
            part.trim().parse::<u32>().ok().and_then(|n| numbering.move_square(variant, n)).ok_or_else(
                || MoveTextError::NotASquare { text: part.to_string(), squares: "1-32".to_string() },
            )?;
        squares.push(square);
    }
    let (from, to) = (squares[0], squares[1]);
    let captured: Option<&[Square]> = match (capture, squares.len()) {
        (false, _) => Some(&[]),
        // `fromxto` alone: accepted when it names one capture.
        (true, 2) => None,
        (true, _) => Some(&squares[2..]),
    };
    if let Some(list) = captured {
        let set: SquareSet = list.iter().copied().collect();
        if set.len() as usize != list.len() {
            return Err(MoveTextError::CapturedTwice);
        }
    }
    match position.find_move(from, to, captured) {
        Some(mv) if mv.is_capture() == capture => Ok(mv),
        Some(_) => Err(MoveTextError::WrongSeparator),
        None => Err(MoveTextError::Illegal(position.explain_illegal(from, to))),
    }
}

/// Writes a move as Hub text in `numbering` (captured squares ascending).
pub fn move_to_hub(mv: &Move, variant: Variant, numbering: Numbering) -> String {
    let number = |s: Square| numbering.move_number(variant, s);
    if !mv.is_capture() {
        return format!("{}-{}", number(mv.from()), number(mv.to()));
    }
    let mut captured: Vec<u32> = mv.captured().into_iter().map(number).collect();
    captured.sort_unstable();
    let mut out = format!("{}x{}", number(mv.from()), number(mv.to()));
    for n in captured {
        out.push_str(&format!("x{n}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(variant: Variant) -> Position {
        Position::start(variant)
    }

    #[test]
    fn standard_positions_round_trip() {
        let english = start(Variant::English);
        let text = position_to_hub(&english, Numbering::Standard);
        assert_eq!(text, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(position_from_hub(&text, Variant::English, Numbering::Standard).unwrap(), english);
        let kings = Position::from_fen(Variant::Russian, "W:WK22,29:B4,K7").unwrap();
        let text = position_to_hub(&kings, Numbering::Standard);
        assert_eq!(text, "WeeebeeBeeeeeeeeeeeeeeWeeeeeeweee");
        assert_eq!(text.len(), 33);
        assert_eq!(position_from_hub(&text, Variant::Russian, Numbering::Standard).unwrap(), kings);
        let fen = position_from_hub("B:W21-32:B1-12", Variant::English, Numbering::Standard).unwrap();
        assert_eq!(fen, english);
    }

    #[test]
    fn bad_positions_are_refused_with_reasons() {
        let err =
            |t: &str| position_from_hub(t, Variant::English, Numbering::Standard).unwrap_err().to_string();
        assert!(err("Wbbb").contains("expected 33 letters"), "{}", err("Wbbb"));
        assert!(err(&format!("X{}", "e".repeat(32))).contains("side to move"));
        assert!(err(&format!("W{}z", "e".repeat(31))).contains("square letter 32"));
        assert!(
            err(&format!("Ww{}", "e".repeat(31))).contains("crowning row"),
            "{}",
            err(&format!("Ww{}", "e".repeat(31)))
        );
        assert!(err("W:W99:B1").contains("not a square"));
    }

    /// pydraughts' `Board('english')` sends `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` for the start
    /// (its internal White moves first and is the real Black) and moves in standard numbers.
    #[test]
    fn pydraughts_english_positions_are_turned_and_recoloured() {
        let p =
            position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", Variant::English, Numbering::Pydraughts)
                .unwrap();
        assert_eq!(p, start(Variant::English));
        // pydraughts after 12-16: its internal square 17 (= 33 - 16) holds the moved man.
        let after =
            position_from_hub("Bbbbbbbbbbbbbeeeeweeeewwwwwwwwwww", Variant::English, Numbering::Pydraughts)
                .unwrap();
        let expected =
            start(Variant::English).play_unchecked(&start(Variant::English).parse_move("12-16").unwrap());
        assert_eq!(after, expected);
        assert_eq!(position_to_hub(&expected, Numbering::Pydraughts), "Bbbbbbbbbbbbbeeeeweeeewwwwwwwwwww");
        let mv = move_from_hub(&start(Variant::English), "12-16", Numbering::Pydraughts).unwrap();
        assert_eq!(move_to_hub(&mv, Variant::English, Numbering::Pydraughts), "12-16");
    }

    /// pydraughts' `Board('russian')`: positions in standard numbering, moves from a1 = 1
    /// (its first legal move `9-13` is a3-b4, standard 21-17).
    #[test]
    fn pydraughts_russian_moves_count_from_a1() {
        let russian = start(Variant::Russian);
        let p =
            position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", Variant::Russian, Numbering::Pydraughts)
                .unwrap();
        assert_eq!(p, russian);
        let mv = move_from_hub(&russian, "9-13", Numbering::Pydraughts).unwrap();
        assert_eq!(mv.to_hub(), "21-17");
        assert_eq!(mv.from().algebraic(), "a3");
        assert_eq!(move_to_hub(&mv, Variant::Russian, Numbering::Pydraughts), "9-13");
        let mut all: Vec<String> = russian
            .legal_moves()
            .iter()
            .map(|m| move_to_hub(m, Variant::Russian, Numbering::Pydraughts))
            .collect();
        all.sort();
        assert_eq!(all, ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]);
        for n in 1..=32 {
            assert_eq!(flip_ranks(flip_ranks(n)), n);
        }
    }

    #[test]
    fn captures_name_their_captured_squares() {
        // A flying king with several captures and landing squares.
        let p = Position::from_fen(Variant::Russian, "W:WK29,14:B18,K11,7").unwrap();
        assert!(p.legal_moves().iter().all(Move::is_capture));
        for mv in p.legal_moves().iter() {
            let hub = move_to_hub(mv, Variant::Russian, Numbering::Standard);
            assert_eq!(move_from_hub(&p, &hub, Numbering::Standard), Ok(*mv));
            assert_eq!(hub, mv.to_hub());
        }
        let e = Position::from_fen(Variant::English, "B:W14,15:B9,10,11").unwrap();
        assert_eq!(move_from_hub(&e, "9x18x14", Numbering::Standard).unwrap().to_hub(), "9x18x14");
        assert_eq!(move_from_hub(&e, "9x18", Numbering::Standard).unwrap().to_hub(), "9x18x14");
        assert!(move_from_hub(&e, "9-18", Numbering::Standard).is_err());
        let illegal = move_from_hub(&e, "11-16", Numbering::Standard).unwrap_err();
        assert!(matches!(illegal, MoveTextError::Illegal(_)), "{illegal:?}");
        assert!(illegal.to_string().contains("capture"), "{illegal}");
        assert!(move_from_hub(&e, "9x18x15", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "9x18x14x14", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "x", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "99-1", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "", Numbering::Standard).is_err());
    }

    /// Each way move text can fail has its own error, and its message is the one the Hub's
    /// `error` answers have always carried.
    #[test]
    fn move_text_errors_say_what_was_wrong() {
        let e = Position::from_fen(Variant::English, "B:W14,15:B9,10,11").unwrap();
        let error = |text: &str| move_from_hub(&e, text, Numbering::Standard).unwrap_err();
        assert_eq!(error(""), MoveTextError::Shape);
        assert_eq!(error("9-18-27"), MoveTextError::Shape);
        let not_a_square =
            |text: &str| MoveTextError::NotASquare { text: text.to_string(), squares: "1-32".into() };
        assert_eq!(error("99-1"), not_a_square("99"));
        assert_eq!(error("x"), not_a_square(""));
        assert_eq!(error("9x18x14x14"), MoveTextError::CapturedTwice);
        assert!(matches!(error("9-18"), MoveTextError::Illegal(_)));
        let opening = move_from_hub(&start(Variant::English), "9x13", Numbering::Standard).unwrap_err();
        assert_eq!(opening, MoveTextError::WrongSeparator);
        assert_eq!(opening.to_string(), "a capture is written with x, a quiet move with -");
        assert!(matches!(error("9x18x15"), MoveTextError::Illegal(_)));
        assert_eq!(error("99-1").to_string(), "`99` is not a square 1-32");
        assert_eq!(error("").to_string(), "expected from-to or fromxtoxcaptured...");
        assert_eq!(error("9x18x14x14").to_string(), "a captured square is named twice");
        assert_eq!(
            error("11-16").to_string(),
            e.explain_illegal(Square::from_number(11).unwrap(), Square::from_number(16).unwrap())
        );
    }
}
