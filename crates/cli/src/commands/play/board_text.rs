//! Squares and moves of the boards of any size as the terminal game's player reads and types
//! them: numbers on most boards; names `a1`-`h8` where the variant's players use them
//! (Turkish, whose board has only names; Brazilian and Czech, whose PDN is written with names,
//! and where numbers are read too); and the refusal of text that names no legal move, with
//! the reason and what can be played instead.

use checkers_rules::board::{
    Board, BoardMove, BoardMoveTextError, BoardVariant, Geometry, MoveRules, RuleSet,
};
use checkers_rules::{excerpt, Color, SquareNotation};

use super::variant::{Names, Typed};

type G<V> = <V as RuleSet>::Geometry;

/// Whether the player of `V` names squares `a1`-`h8`: as the variant's PDN is written.
pub fn uses_names<V: RuleSet>() -> bool {
    G::<V>::ALGEBRAIC
        || BoardVariant::of::<V>().is_some_and(|v| v.pdn_notation() == SquareNotation::Algebraic)
}

/// A square's name as the player of `V` types it: `32`, or `c3`.
pub fn square_name<V: RuleSet>(square: u32) -> String {
    if uses_names::<V>() {
        let (file, rank) = G::<V>::coords(square);
        format!("{}{}", char::from(b'a' + file as u8), rank + 1)
    } else {
        square.to_string()
    }
}

/// The square a word names: a number (not on Turkish's board, whose squares have names
/// only), or a name where the player names squares.
pub fn square_by_text<V: RuleSet>(text: &str) -> Option<u32> {
    let text = text.trim();
    let mut chars = text.chars();
    let first = chars.next()?;
    if first.is_ascii_digit() {
        if G::<V>::ALGEBRAIC || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return text.parse().ok().filter(|n| (1..=G::<V>::SQUARES).contains(n));
    }
    let rank = chars.as_str();
    if !uses_names::<V>() || !first.is_ascii_lowercase() || rank.is_empty() || rank.len() > 2 {
        return None;
    }
    if !rank.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: i32 = rank.parse().ok()?;
    G::<V>::at(i32::from(first as u8 - b'a'), rank - 1)
}

/// Text the player typed (a move or FEN) with every square name (`c3`: a file `a`-`h`, then
/// one rank digit, not followed by another digit) replaced by the square's number, for the
/// rules library's readers (on Brazilian and Czech boards, which the library reads in
/// numbers; Turkish's reader reads names itself). A name that is no square (`a2`) is left as
/// it is, for the reader to refuse.
fn names_to_numbers<V: RuleSet>(text: &str) -> String {
    if G::<V>::ALGEBRAIC || !uses_names::<V>() {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let rank = chars.get(i + 1).and_then(|d| d.to_digit(10));
        let more_digits = chars.get(i + 2).is_some_and(char::is_ascii_digit);
        if let (true, Some(rank), false) = (('a'..='h').contains(&c), rank, more_digits) {
            if let Some(number) = G::<V>::at(i32::from(c as u8 - b'a'), rank as i32 - 1) {
                out.push_str(&number.to_string());
                i += 2;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// A move as the player of `V` reads it: every stop (`28x19x10`, `c3xe5xg3`).
pub fn move_text<V: RuleSet>(board: &Board<V>, mv: &BoardMove<V>) -> String {
    let sep = if mv.is_capture() { "x" } else { "-" };
    mv.route(board).into_iter().map(square_name::<V>).collect::<Vec<_>>().join(sep)
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// What the squares are, after "`X` is not a square: ".
pub fn square_names<V: RuleSet>() -> String {
    let squares = G::<V>::SQUARES;
    if G::<V>::ALGEBRAIC {
        "squares are a1 to h8 (see the board on the right)".to_string()
    } else if uses_names::<V>() {
        format!("squares are the dark ones, a1 to h8, or numbers 1 to {squares} (see the board on the right)")
    } else {
        format!("squares are numbered 1 to {squares} (see the board on the right)")
    }
}

/// Reads a line as a move on `board`, or says why it is not one.
pub fn read_move<V: RuleSet>(board: &Board<V>, text: &str, names: Names) -> Typed<BoardMove<V>> {
    let numbered = names_to_numbers::<V>(text);
    let shown = excerpt(text.trim());
    match board.parse_move(&numbered) {
        Ok(mv) => Typed::Move(mv),
        Err(BoardMoveTextError::Illegal { .. }) => {
            let squares: Vec<u32> = numbered
                .split(|c: char| matches!(c, '-' | 'x' | 'X' | ':') || c.is_whitespace())
                .filter(|word| !word.is_empty())
                .filter_map(<G<V> as Geometry>::square_by_name)
                .collect();
            let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
                return Typed::NotMoveText;
            };
            Typed::Refused(format!("{shown} is not a move: {}.", refusal(board, from, to, names)))
        }
        Err(BoardMoveTextError::Ambiguous { candidates, .. }) => {
            let mut candidates: Vec<String> = board
                .legal_moves()
                .iter()
                .filter(|mv| candidates.contains(&mv.to_pdn(board)))
                .map(|mv| move_text(board, mv))
                .collect();
            candidates.sort();
            Typed::Refused(format!("{shown} could be {}: type the whole route.", candidates.join(" or ")))
        }
        Err(BoardMoveTextError::BadSquare { text, .. } | BoardMoveTextError::BadSquareName { text, .. }) => {
            Typed::Refused(format!("`{}` is not a square: {}.", excerpt(&text), square_names::<V>()))
        }
        Err(BoardMoveTextError::Syntax(_)) => Typed::NotMoveText,
    }
}

/// Why no legal move goes from `from` to `to`, with what can be played instead (the 8x8
/// library's reasons, said the same way).
pub fn refusal<V: RuleSet>(board: &Board<V>, from: u32, to: u32, names: Names) -> String {
    let legal = board.legal_moves();
    let name = square_name::<V>;
    if legal.is_empty() {
        return "the game is over: there is no legal move".to_string();
    }
    match board.piece_at(from) {
        None => return format!("there is no piece on {}", name(from)),
        Some(piece) if piece.color != board.turn() => {
            return format!("the piece on {} is not yours; {} is to move", name(from), names(board.turn()))
        }
        _ => {}
    }
    let from_here: Vec<&BoardMove<V>> = legal.iter().filter(|mv| mv.from() == from).collect();
    let capture = legal.iter().any(BoardMove::is_capture);
    if from_here.is_empty() {
        return if capture { compulsory(board) } else { format!("the piece on {} cannot move", name(from)) };
    }
    if capture {
        if from_here.iter().any(|mv| mv.to() == to) {
            let mut own: Vec<String> = from_here.iter().map(|mv| move_text(board, mv)).collect();
            own.sort();
            return format!("that route is not one of the captures: {}", or_list(&own));
        }
        return capture_goes_on(board, from, to).unwrap_or_else(|| compulsory(board));
    }
    let mut targets: Vec<u32> = from_here.iter().map(|mv| mv.to()).collect();
    targets.sort_unstable();
    targets.dedup();
    let targets: Vec<String> = targets.into_iter().map(name).collect();
    format!("{} can go to {}", name(from), or_list(&targets))
}

/// A capture must be made, and the one typed is none of them: the captures, with the number
/// of pieces when they all take the same number and more than one.
fn compulsory<V: RuleSet>(board: &Board<V>) -> String {
    let legal = board.legal_moves();
    let mut captures: Vec<String> = legal.iter().map(|mv| move_text(board, mv)).collect();
    captures.sort();
    captures.dedup();
    let counts: Vec<u32> = legal.iter().map(BoardMove::captured_count).collect();
    match counts.first() {
        Some(&n) if n > 1 && counts.iter().all(|&c| c == n) => {
            format!("a capture of {n} pieces is compulsory: {}", or_list(&captures))
        }
        _ => format!("a capture is compulsory: {}", or_list(&captures)),
    }
}

/// When `to` is a stop in the middle of a capture from `from` (the first leg of a longer
/// capture): where the capture goes on.
fn capture_goes_on<V: RuleSet>(board: &Board<V>, from: u32, to: u32) -> Option<String> {
    let mut next: Vec<u32> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    for (mv, route) in <V::Moves as MoveRules<V>>::capture_routes(board) {
        let Some(at) = route.iter().position(|&s| s == to) else { continue };
        if route[0] != from || at == 0 || at + 1 == route.len() {
            continue;
        }
        next.push(route[at + 1]);
        let text = move_text(board, &mv);
        if !moves.contains(&text) {
            moves.push(text);
        }
    }
    next.sort_unstable();
    next.dedup();
    moves.sort();
    let next: Vec<String> = next.into_iter().map(square_name::<V>).collect();
    (!next.is_empty()).then(|| {
        format!(
            "the capture goes on from {} to {} ({})",
            square_name::<V>(to),
            or_list(&next),
            or_list(&moves)
        )
    })
}

/// Why the side to move has no move from `square` (a square the player typed alone).
pub fn no_move_from<V: RuleSet>(board: &Board<V>, square: u32, names: Names) -> String {
    refusal(board, square, square, names)
}

/// A position from FEN as the player of `V` writes it (names read as numbers where the
/// player names squares).
pub fn board_from_fen<V: RuleSet>(text: &str) -> anyhow::Result<Board<V>> {
    Ok(Board::<V>::from_fen(&names_to_numbers::<V>(text))?)
}

/// The side names' first words in the rules library's sentences, as the game names them.
pub fn renamed(text: &str, names: Names) -> String {
    match text.split_once(" wins: ") {
        Some((winner, why)) => {
            let color = if winner == Color::White.name() { Color::White } else { Color::Black };
            format!("{} wins: {why}", names(color))
        }
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::board::{Brazilian, International, Italian, Turkish};

    #[test]
    fn squares_by_number_or_name() {
        assert_eq!(square_by_text::<International>("50"), Some(50));
        assert_eq!(square_by_text::<International>("51"), None);
        assert_eq!(square_by_text::<International>("c3"), None);
        assert_eq!(square_by_text::<Brazilian>("c3"), Some(22));
        assert_eq!(square_by_text::<Brazilian>("22"), Some(22));
        assert_eq!(square_by_text::<Brazilian>("a2"), None, "a light square");
        assert_eq!(square_by_text::<Turkish>("a1"), Some(57));
        assert_eq!(square_by_text::<Turkish>("57"), None, "Turkish squares have names only");
        assert_eq!(square_by_text::<Italian>("32"), Some(32));
        assert_eq!(square_name::<Brazilian>(22), "c3");
        assert_eq!(square_name::<Turkish>(57), "a1");
        assert_eq!(square_name::<International>(46), "46");
        assert_eq!(names_to_numbers::<Brazilian>("c3-d4 22x17 i9 C3"), "22-18 22x17 i9 C3");
        assert_eq!(names_to_numbers::<Brazilian>("d4xf6Xh8:a1"), "18x11X4:29");
        assert_eq!(names_to_numbers::<Brazilian>("W:Wd4,Ke3:Bc33"), "W:W18,K23:Bc33");
        assert_eq!(names_to_numbers::<International>("c3-d4"), "c3-d4");
    }
}
