//! Hub positions and moves on the boards of any size (every variant but English and Russian),
//! in both numberings.
//!
//! A position is `W` or `B` (the side to move), then one letter a square in the order of the
//! variant's square numbers: 50 on 10x10, 72 on 12x12, 32 on 8x8, and 64 on Turkish's board
//! (a8, b8, ..., h1, as its numbers run). pydraughts' `li_fen_to_hub_fen` writes its internal
//! board in the same order for every variant it has but English (checked in the tests), so
//! positions read the same in both numberings.
//!
//! Moves are `from-to` and `fromxtoxcaptured...` in the standard numbering: the variant's
//! square numbers, or on Turkish's board the square names (`a3-a4`, `a6xa4xa5`), as
//! [`BoardMove::to_hub`] writes them. pydraughts writes moves in each variant's own numbering
//! (`move_to_variant`), which is ours but for two: Brazilian counts from a1 (as pydraughts'
//! Russian: square `n` of its numbering is square `n` of ours with the rows counted from the
//! other end) and Turkish numbers its squares rank by rank from a1 (a1 = 1, h1 = 8, h8 = 64),
//! with numbers, not names.

use checkers_rules::board::{
    Antidraughts, Board, BoardMove, BoardSetup, Brazilian, Breakthrough, Canadian, Czech, Frisian, Frysk,
    Geometry, International, Italian, Pool, Portuguese, RuleSet, Spanish, Thai, Turkish,
};
use checkers_rules::{Color, Role};

use super::error::{HubError, MoveTextError};
use super::numbering::Numbering;

/// Whether `numbering` writes `V`'s squares in moves as pydraughts does for Brazilian and
/// Turkish: by number, rows counted from White's side.
fn rows_from_white<V: RuleSet>(numbering: Numbering) -> bool {
    numbering == Numbering::Pydraughts && matches!(V::NAME, "brazilian" | "turkish")
}

/// The square in the same place with the rows counted from the other end of the board, each
/// row keeping its order (an involution).
fn flip_rows<G: Geometry>(number: u32) -> u32 {
    let per_row = G::ROW_SQUARES;
    let rows = G::SQUARES / per_row;
    let (row, column) = ((number - 1) / per_row, (number - 1) % per_row);
    (rows - 1 - row) * per_row + column + 1
}

/// The square that move text in `numbering` names, if it names one of `V`'s.
fn square_from_wire<V: RuleSet>(text: &str, numbering: Numbering) -> Option<u32> {
    type G<V> = <V as RuleSet>::Geometry;
    if rows_from_white::<V>(numbering) {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: u32 = text.parse().ok().filter(|n| (1..=G::<V>::SQUARES).contains(n))?;
        Some(flip_rows::<G<V>>(number))
    } else {
        G::<V>::square_by_name(text)
    }
}

/// How `numbering` names `V`'s squares, for error messages: `1-50`, `a1 to h8`.
fn squares_named<V: RuleSet>(numbering: Numbering) -> String {
    type G<V> = <V as RuleSet>::Geometry;
    if G::<V>::ALGEBRAIC && !rows_from_white::<V>(numbering) {
        G::<V>::square_names()
    } else {
        format!("1-{}", G::<V>::SQUARES)
    }
}

/// How a variant's PDN FEN is read in a `pos` line.
pub trait HubFen: RuleSet {
    /// The position FEN text gives, or why it gives none.
    fn read_fen(text: &str) -> Result<Board<Self>, String> {
        Board::<Self>::from_fen(text).map_err(|e| e.to_string())
    }
}

macro_rules! plain_fen {
    ($($variant:ty),*) => { $(impl HubFen for $variant {})* };
}

plain_fen!(International, Brazilian, Canadian, Antidraughts, Breakthrough);
plain_fen!(Italian, Spanish, Portuguese, Czech, Pool, Thai, Turkish);

/// Frisian and Frysk! take lidraughts' fields too: its move counters are skipped and the
/// last field sets each side's run of quiet king moves (`W:W45,K28:B1:+0+328`).
impl HubFen for Frisian {
    fn read_fen(text: &str) -> Result<Board<Self>, String> {
        Board::<Self>::from_frisian_fen(text).map_err(|e| e.to_string())
    }
}

impl HubFen for Frysk {
    fn read_fen(text: &str) -> Result<Board<Self>, String> {
        Board::<Self>::from_frisian_fen(text).map_err(|e| e.to_string())
    }
}

/// Reads a Hub position (`W` or `B`, then a letter a square), or PDN FEN, for `V`.
pub fn board_from_hub<V: HubFen>(text: &str) -> Result<Board<V>, HubError> {
    type G<V> = <V as RuleSet>::Geometry;
    let bad = |reason: String| HubError::BadPosition { text: text.to_string(), reason };
    if text.contains(':') {
        return V::read_fen(text).map_err(bad);
    }
    let squares = G::<V>::SQUARES;
    let letters: Vec<char> = text.trim().chars().collect();
    if letters.len() != squares as usize + 1 {
        let order = if G::<V>::ALGEBRAIC { " (a8, b8, ... h1)" } else { "" };
        return Err(bad(format!(
            "expected {} letters (W or B, then one of w b W B e for each of squares 1-{squares}{order}), found {}",
            squares + 1,
            letters.len()
        )));
    }
    let turn = match letters[0] {
        'W' => Color::White,
        'B' => Color::Black,
        other => return Err(bad(format!("side to move must be W or B, found `{other}`"))),
    };
    let mut setup = BoardSetup { turn: Some(turn), ..BoardSetup::default() };
    for (number, &letter) in (1..).zip(&letters[1..]) {
        let list = match letter {
            'e' | 'E' | '.' => continue,
            'w' => &mut setup.white_men,
            'W' => &mut setup.white_kings,
            'b' => &mut setup.black_men,
            'B' => &mut setup.black_kings,
            other => {
                return Err(bad(format!("square letter {number} must be one of w b W B e, found `{other}`")))
            }
        };
        list.push(number);
    }
    Board::from_setup(&setup).map_err(|e| bad(e.to_string()))
}

/// Writes a position as a Hub position: `W` or `B`, then a letter a square.
pub fn board_to_hub<V: RuleSet>(board: &Board<V>) -> String {
    let squares = <V::Geometry as Geometry>::SQUARES;
    let mut out = String::with_capacity(squares as usize + 1);
    out.push(board.turn().letter());
    for number in 1..=squares {
        out.push(match board.piece_at(number) {
            None => 'e',
            Some(piece) => {
                let letter = if piece.color == Color::White { 'w' } else { 'b' };
                if piece.role == Role::King {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                }
            }
        });
    }
    out
}

/// Writes a move as Hub text in `numbering`, the captured squares in ascending order of their
/// numbers there.
pub fn board_move_to_hub<V: RuleSet>(mv: &BoardMove<V>, numbering: Numbering) -> String {
    if !rows_from_white::<V>(numbering) {
        return mv.to_hub();
    }
    let number = |square: u32| flip_rows::<V::Geometry>(square);
    let separator = if mv.is_capture() { "x" } else { "-" };
    let mut out = format!("{}{separator}{}", number(mv.from()), number(mv.to()));
    let mut captured: Vec<u32> = mv.captured().into_iter().map(number).collect();
    captured.sort_unstable();
    for square in captured {
        out.push_str(&format!("x{square}"));
    }
    out
}

/// Finds the legal move that Hub move text in `numbering` names in `board`: `from-to`, or
/// `fromxto` followed by the captured squares in any order; `fromxto` alone when it names one
/// capture.
pub fn board_move_from_hub<V: RuleSet>(
    board: &Board<V>,
    text: &str,
    numbering: Numbering,
) -> Result<BoardMove<V>, MoveTextError> {
    let text = text.trim();
    let capture = text.contains(['x', 'X', ':']);
    let parts: Vec<&str> = text.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || (!capture && parts.len() != 2) {
        return Err(MoveTextError::Shape);
    }
    let mut squares = Vec::with_capacity(parts.len());
    for part in &parts {
        let square = square_from_wire::<V>(part.trim(), numbering).ok_or_else(|| {
            MoveTextError::NotASquare { text: part.to_string(), squares: squares_named::<V>(numbering) }
        })?;
        squares.push(square);
    }
    let (from, to) = (squares[0], squares[1]);
    let mut captured: Vec<u32> = squares[2..].to_vec();
    captured.sort_unstable();
    if captured.windows(2).any(|pair| pair[0] == pair[1]) {
        return Err(MoveTextError::CapturedTwice);
    }
    let legal = board.legal_moves();
    let joining: Vec<&BoardMove<V>> = legal.iter().filter(|m| m.from() == from && m.to() == to).collect();
    if joining.is_empty() {
        return Err(MoveTextError::Illegal(board.illegal_reason(from).to_string()));
    }
    if joining.iter().all(|m| m.is_capture() != capture) {
        return Err(MoveTextError::WrongSeparator);
    }
    let named: Vec<&BoardMove<V>> = joining
        .iter()
        .copied()
        .filter(|m| m.is_capture() == capture && (squares.len() == 2 || m.captured() == captured))
        .collect();
    match named.as_slice() {
        [mv] => Ok(**mv),
        [] => Err(MoveTextError::Illegal(format!(
            "no capture from {} to {} takes those pieces; it can be {}",
            parts[0].trim(),
            parts[1].trim(),
            joining.iter().map(|m| board_move_to_hub(*m, numbering)).collect::<Vec<_>>().join(" or ")
        ))),
        several => Err(MoveTextError::Ambiguous(
            several.iter().map(|m| board_move_to_hub(*m, numbering)).collect::<Vec<_>>().join(" or "),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::board::{Brazilian, Canadian, Frysk, International, Italian, Turkish};

    fn hub_moves<V: RuleSet>(board: &Board<V>, numbering: Numbering) -> Vec<String> {
        let mut all: Vec<String> =
            board.legal_moves().iter().map(|m| board_move_to_hub(m, numbering)).collect();
        all.sort();
        all
    }

    /// Each start position as pydraughts 0.6.7 writes it (`Game.initial_hub_fen`), and its
    /// legal moves as pydraughts' `Move.hub_move` gives them.
    #[test]
    fn start_positions_and_moves_read_as_pydraughts_writes_them() {
        let international = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        assert_eq!(board_to_hub(&Board::<International>::start()), international);
        assert_eq!(board_from_hub::<International>(international), Ok(Board::<International>::start()));
        let moves = hub_moves(&Board::<International>::start(), Numbering::Pydraughts);
        assert_eq!(moves[..4], ["31-26", "31-27", "32-27", "32-28"]);
        assert_eq!(moves, hub_moves(&Board::<International>::start(), Numbering::Standard));

        let frysk = format!("W{}{}{}", "b".repeat(5), "e".repeat(40), "w".repeat(5));
        assert_eq!(board_to_hub(&Board::<Frysk>::start()), frysk);

        let eight = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        assert_eq!(board_from_hub::<Brazilian>(eight), Ok(Board::<Brazilian>::start()));
        let brazilian = Board::<Brazilian>::start();
        assert_eq!(
            hub_moves(&brazilian, Numbering::Pydraughts),
            ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        );
        assert_eq!(
            hub_moves(&brazilian, Numbering::Standard),
            ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
        );
        let italian = Board::<Italian>::start();
        assert_eq!(board_from_hub::<Italian>(eight), Ok(italian));
        let expected = ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"];
        assert_eq!(hub_moves(&italian, Numbering::Pydraughts), expected);
        assert_eq!(hub_moves(&italian, Numbering::Standard), expected);

        let turkish = format!(
            "W{}{}{}{}{}",
            "e".repeat(8),
            "b".repeat(16),
            "e".repeat(16),
            "w".repeat(16),
            "e".repeat(8)
        );
        assert_eq!(board_to_hub(&Board::<Turkish>::start()), turkish);
        assert_eq!(board_from_hub::<Turkish>(&turkish), Ok(Board::<Turkish>::start()));
        let start = Board::<Turkish>::start();
        let pydraughts = hub_moves(&start, Numbering::Pydraughts);
        assert_eq!(pydraughts, ["17-25", "18-26", "19-27", "20-28", "21-29", "22-30", "23-31", "24-32"]);
        assert_eq!(hub_moves(&start, Numbering::Standard)[..2], ["a3-a4", "b3-b4"]);

        let canadian = board_to_hub(&Board::<Canadian>::start());
        assert_eq!(canadian, format!("W{}{}{}", "b".repeat(30), "e".repeat(12), "w".repeat(30)));
        assert_eq!(board_from_hub::<Canadian>(&canadian), Ok(Board::<Canadian>::start()));
    }

    #[test]
    fn moves_round_trip_in_both_numberings() {
        for numbering in [Numbering::Standard, Numbering::Pydraughts] {
            let turkish = Board::<Turkish>::from_fen("W:WKa1,d4:Bd5,c4,e4,d3,a6").unwrap();
            for mv in turkish.legal_moves().iter() {
                let text = board_move_to_hub(mv, numbering);
                assert_eq!(board_move_from_hub(&turkish, &text, numbering), Ok(*mv), "{text}");
            }
            let brazilian = Board::<Brazilian>::from_fen("W:WK29,14:B18,K11,7").unwrap();
            for mv in brazilian.legal_moves().iter() {
                let text = board_move_to_hub(mv, numbering);
                assert_eq!(board_move_from_hub(&brazilian, &text, numbering), Ok(*mv), "{text}");
            }
        }
        // A Turkish strike: names in the standard numbering, numbers from a1 in pydraughts'.
        let turkish = Board::<Turkish>::from_fen("W:Wd4:Bd5,c4,e4,d3").unwrap();
        assert_eq!(hub_moves(&turkish, Numbering::Standard), ["d4xb4xc4", "d4xd6xd5", "d4xf4xe4"]);
        assert_eq!(hub_moves(&turkish, Numbering::Pydraughts), ["28x26x27", "28x30x29", "28x44x36"]);
        // Captured squares in any order, and `fromxto` alone when it names one capture.
        let international = Board::<International>::from_fen("W:W32:B27,17").unwrap();
        let mv = board_move_from_hub(&international, "32x12x17x27", Numbering::Standard).unwrap();
        assert_eq!(board_move_to_hub(&mv, Numbering::Standard), "32x12x17x27");
        assert_eq!(board_move_from_hub(&international, "32x12", Numbering::Standard), Ok(mv));
        assert_eq!(board_move_from_hub(&international, "32X12X27X17", Numbering::Pydraughts), Ok(mv));
    }

    #[test]
    fn bad_positions_and_moves_are_refused_with_reasons() {
        let error = |text: &str| board_from_hub::<International>(text).unwrap_err().to_string();
        assert!(error("Wbbb").contains(
            "expected 51 letters (W or B, then one of w b W B e for each of squares 1-50), found 4"
        ));
        assert!(error(&format!("X{}", "e".repeat(50))).contains("side to move must be W or B"));
        assert!(error(&format!("W{}z", "e".repeat(49))).contains("square letter 50 must be"));
        assert!(
            error(&format!("Ww{}", "e".repeat(49))).contains("crowning row"),
            "{}",
            error(&format!("Ww{}", "e".repeat(49)))
        );
        assert!(error("W:W51:B1").contains("51"), "{}", error("W:W51:B1"));
        let turkish = board_from_hub::<Turkish>("W").unwrap_err().to_string();
        assert!(turkish.contains("expected 65 letters") && turkish.contains("(a8, b8, ... h1)"), "{turkish}");
        assert!(board_from_hub::<Canadian>(&"W".repeat(50)).unwrap_err().to_string().contains("expected 73"));

        let start = Board::<International>::start();
        let error = |text: &str| board_move_from_hub(&start, text, Numbering::Standard).unwrap_err();
        assert_eq!(error("51-46").to_string(), "`51` is not a square 1-50");
        assert_eq!(error("31-26-21"), MoveTextError::Shape);
        assert_eq!(error("31x26"), MoveTextError::WrongSeparator);
        assert!(matches!(error("31-25"), MoveTextError::Illegal(_)));
        assert_eq!(error("31-25").to_string(), "31 can go to 26 or 27");
        assert_eq!(error("20-24").to_string(), "the piece on 20 is not yours; White is to move");
        let taking = Board::<International>::from_fen("W:W32:B27,17").unwrap();
        let refused = board_move_from_hub(&taking, "32x12x27", Numbering::Standard).unwrap_err();
        assert_eq!(refused.to_string(), "no capture from 32 to 12 takes those pieces; it can be 32x12x17x27");
        assert_eq!(
            board_move_from_hub(&taking, "32x12x27x27", Numbering::Standard),
            Err(MoveTextError::CapturedTwice)
        );
        let turkish = Board::<Turkish>::start();
        let error = |text: &str, n| board_move_from_hub(&turkish, text, n).unwrap_err().to_string();
        assert_eq!(error("17-25", Numbering::Standard), "`17` is not a square a1 to h8");
        assert_eq!(error("a3-a4", Numbering::Pydraughts), "`a3` is not a square 1-64");
        assert_eq!(error("65-57", Numbering::Pydraughts), "`65` is not a square 1-64");
        for n in 1..=64 {
            assert_eq!(
                flip_rows::<<Turkish as RuleSet>::Geometry>(flip_rows::<<Turkish as RuleSet>::Geometry>(n)),
                n
            );
        }
    }
}
