//! Move text: writing moves in PDN and Hub form, and reading what people and files write.
//!
//! PDN long form lists every square the piece stops on (`11-15`, `9x18x27`). A flying king
//! that goes on capturing in the same direction is written as stopping just beyond the piece
//! it captured (FMJD rule), so every move has one long form. Input may be the long form, the
//! short `from x to` form when it names one move, any route in between, with separators `-`,
//! `x`, `:` or spaces, and squares as numbers or (any variant) algebraic names.

use thiserror::Error;

use crate::fen::{parse_square, SquareNotation};
use crate::moves::Move;
use crate::position::{Color, Position};
use crate::shown::excerpt;
use crate::square::Square;

/// Why move text did not name a legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveTextError {
    #[error("`{}` is not move text (expected squares such as 11-15 or 9x18x27)", excerpt(.0))]
    Syntax(String),
    #[error("`{}` is not a square", excerpt(.text))]
    BadSquare { text: String },
    #[error("{} is not a legal move: {reason}", excerpt(.text))]
    Illegal { text: String, reason: IllegalReason },
    #[error("{} is ambiguous: it could be {}", excerpt(.text), candidates.join(" or "))]
    Ambiguous { text: String, candidates: Vec<String> },
}

impl Move {
    /// The squares this move stops on, start first, end last: the route that its PDN long form
    /// names.
    pub fn route(&self, position: &Position) -> Vec<Square> {
        if !self.is_capture() {
            return vec![self.from, self.to];
        }
        let routes = position.capture_routes();
        let route =
            routes.into_iter().filter(|(m, _)| m == self).map(|(_, r)| canonical_route(r, self)).min();
        route.unwrap_or_else(|| vec![self.from, self.to])
    }

    /// PDN long form: `11-15`, `9x18x27` (or `c3-d4`, `c3xe5` with algebraic squares).
    pub fn to_pdn(&self, position: &Position, notation: SquareNotation) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        self.route(position).iter().map(|s| notation.write(*s)).collect::<Vec<_>>().join(sep)
    }

    /// Short form: `from-to` or `fromxto`.
    pub fn to_short(&self, notation: SquareNotation) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        format!("{}{sep}{}", notation.write(self.from), notation.write(self.to))
    }

    /// Hub protocol form: `from-to`, or `fromxtoxc1xc2...` with captured squares ascending.
    pub fn to_hub(&self) -> String {
        if !self.is_capture() {
            return format!("{}-{}", self.from.number(), self.to.number());
        }
        let mut out = format!("{}x{}", self.from.number(), self.to.number());
        for sq in self.captured().squares() {
            out.push('x');
            out.push_str(&sq.number().to_string());
        }
        out
    }
}

/// Where a king goes on capturing in the same direction, names the square just beyond the
/// piece it captured as the stop between the two captures.
fn canonical_route(mut route: Vec<Square>, mv: &Move) -> Vec<Square> {
    if route.len() < 3 {
        return route;
    }
    let dir = |a: Square, b: Square| {
        let df = b.file() as i32 - a.file() as i32;
        let dr = b.rank() as i32 - a.rank() as i32;
        (df.signum(), dr.signum())
    };
    for i in 1..route.len() - 1 {
        let (d_in, d_out) = (dir(route[i - 1], route[i]), dir(route[i], route[i + 1]));
        if d_in != d_out {
            continue;
        }
        // Walk from the previous stop to the captured piece; the stop goes just beyond it.
        let (mut f, mut r) = (route[i - 1].file() as i32, route[i - 1].rank() as i32);
        loop {
            f += d_in.0;
            r += d_in.1;
            let Some(sq) = Square::from_coords(f as u32, r as u32) else {
                break;
            };
            if mv.captured().contains(sq) {
                if let Some(next) = Square::from_coords((f + d_in.0) as u32, (r + d_in.1) as u32) {
                    route[i] = next;
                }
                break;
            }
        }
    }
    route
}

/// Whether `c` may separate two squares of move text.
fn is_separator(c: char) -> bool {
    matches!(c, '-' | 'x' | 'X' | ':') || c.is_whitespace()
}

/// The squares named by move text: squares, each two separated by one separator (`-`, `x`,
/// `:`, spaces, or one of the three with spaces around it). Nothing may come before the first
/// square or after the last: `-1-5` and `1--5` are not `1-5`.
fn tokens(text: &str) -> Result<Vec<Square>, MoveTextError> {
    let syntax = || MoveTextError::Syntax(text.to_string());
    let mut rest = text.trim();
    let mut parts: Vec<&str> = Vec::new();
    while !rest.is_empty() {
        let end = rest.find(is_separator).unwrap_or(rest.len());
        if end == 0 {
            return Err(syntax());
        }
        parts.push(&rest[..end]);
        let after = rest[end..].trim_start();
        let after = after.strip_prefix(['-', 'x', 'X', ':']).unwrap_or(after).trim_start();
        if after.is_empty() && end < rest.len() {
            return Err(syntax()); // a separator after the last square
        }
        rest = after;
    }
    if parts.len() < 2 {
        return Err(syntax());
    }
    parts
        .iter()
        .map(|p| parse_square(p).ok_or_else(|| MoveTextError::BadSquare { text: p.to_string() }))
        .collect()
}

impl Position {
    /// Reads move text and finds the legal move it names.
    ///
    /// The text names a move when its first square is the start, its last the end, and any
    /// squares between are stops of one of the move's routes, in order.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        let squares = tokens(text)?;
        let shown = text.trim().to_string();
        let legal = self.legal_moves();
        let (first, last) = (squares[0], squares[squares.len() - 1]);
        let mut found: Vec<Move> = Vec::new();
        let routes = if legal.iter().any(|m| m.is_capture()) { self.capture_routes() } else { Vec::new() };
        for mv in legal.iter() {
            if mv.from != first || mv.to != last {
                continue;
            }
            let matches = if squares.len() == 2 || !mv.is_capture() {
                squares.len() == 2
            } else {
                routes.iter().any(|(m, r)| m == mv && is_subsequence(&squares, r))
            };
            if matches && !found.contains(mv) {
                found.push(*mv);
            }
        }
        if found.len() > 1 {
            // Text naming every stop of a route is that route's move, even when it also reads
            // as a shortened form of another (`10x28` as one capture, or as 10x17x26x19x28).
            // A whole route names one move: each leg between two stops captures one piece.
            let whole: Vec<Move> = found
                .iter()
                .filter(|mv| routes.iter().any(|(m, r)| m == *mv && *r == squares))
                .copied()
                .collect();
            if whole.len() == 1 {
                found = whole;
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveTextError::Illegal { text: shown, reason: self.illegal_reason(first, last) }),
            _ => Err(MoveTextError::Ambiguous {
                text: shown,
                candidates: found.iter().map(|m| m.to_pdn(self, SquareNotation::Numeric)).collect(),
            }),
        }
    }

    /// The legal move with these start and end squares and, if given, this captured set
    /// (how the Hub protocol names moves).
    pub fn find_move(&self, from: Square, to: Square, captured: Option<&[Square]>) -> Option<Move> {
        let set: Option<crate::SquareSet> = captured.map(|c| c.iter().copied().collect());
        let mut candidates = self
            .legal_moves()
            .iter()
            .filter(|m| m.from == from && m.to == to && set.is_none_or(|s| m.captured() == s))
            .copied()
            .collect::<Vec<_>>();
        if candidates.len() == 1 {
            candidates.pop()
        } else {
            None
        }
    }

    /// A sentence saying why no legal move goes from `from` to `to`, naming what can be played.
    pub fn explain_illegal(&self, from: Square, to: Square) -> String {
        self.illegal_reason(from, to).to_string()
    }

    /// Why no legal move goes from `from` to `to`, with what can be played instead.
    pub fn illegal_reason(&self, from: Square, to: Square) -> IllegalReason {
        let legal = self.legal_moves();
        let n = SquareNotation::Numeric;
        if legal.is_empty() {
            return IllegalReason::NoLegalMove;
        }
        match self.piece_at(from) {
            None => return IllegalReason::NoPiece(from),
            Some(p) if p.color != self.turn() => {
                return IllegalReason::NotYours { square: from, to_move: self.turn() }
            }
            _ => {}
        }
        let captures: Vec<String> =
            legal.iter().filter(|m| m.is_capture()).map(|m| m.to_pdn(self, n)).collect();
        let from_here: Vec<&Move> = legal.iter().filter(|m| m.from == from).collect();
        if !captures.is_empty() && from_here.is_empty() {
            return IllegalReason::CaptureCompulsory { captures };
        }
        if from_here.is_empty() {
            return IllegalReason::CannotMove(from);
        }
        if !captures.is_empty() {
            let own: Vec<String> = from_here.iter().map(|m| m.to_pdn(self, n)).collect();
            if own.iter().any(|m| m.starts_with(&format!("{from}x"))) && from_here.iter().any(|m| m.to == to)
            {
                return IllegalReason::NotOneOfTheCaptures { captures: own };
            }
            if let Some(unfinished) = self.unfinished_capture(from, to) {
                return unfinished;
            }
            return IllegalReason::CaptureCompulsory { captures };
        }
        let mut targets: Vec<Square> = from_here.iter().map(|m| m.to).collect();
        targets.sort_by_key(|s| s.number());
        targets.dedup();
        IllegalReason::OtherTargets { from, targets }
    }

    /// When `to` is a stop in the middle of a capture from `from`: where the capture goes on.
    fn unfinished_capture(&self, from: Square, to: Square) -> Option<IllegalReason> {
        let mut next = Vec::new();
        let mut moves = Vec::new();
        for (mv, route) in self.capture_routes() {
            let Some(at) = route.iter().position(|s| *s == to) else { continue };
            if route[0] != from || at == 0 || at + 1 == route.len() {
                continue;
            }
            next.push(route[at + 1]);
            let text = mv.to_pdn(self, SquareNotation::Numeric);
            if !moves.contains(&text) {
                moves.push(text);
            }
        }
        next.sort_by_key(|s| s.number());
        next.dedup();
        moves.sort();
        (!next.is_empty()).then_some(IllegalReason::CaptureGoesOn { at: to, next, moves })
    }
}

/// Why no legal move goes from one square to another, and what can be played instead (moves
/// in PDN long form, squares numbered 1-32).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalReason {
    #[error("the game is over: there is no legal move")]
    NoLegalMove,
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {square} is not yours; {} is to move", .to_move.name())]
    NotYours { square: Square, to_move: Color },
    /// A capture must be made, and this is not one of them.
    #[error("a capture is compulsory: {}", or_list(.captures))]
    CaptureCompulsory { captures: Vec<String> },
    #[error("the piece on {0} cannot move")]
    CannotMove(Square),
    /// The start and end are those of a capture, the squares between are not its route.
    #[error("that route is not one of the captures: {}", or_list(.captures))]
    NotOneOfTheCaptures { captures: Vec<String> },
    /// The move ends where its capture has to go on (the first leg of a double jump).
    #[error("the capture goes on from {at} to {} ({})", or_list(.next), or_list(.moves))]
    CaptureGoesOn { at: Square, next: Vec<Square>, moves: Vec<String> },
    #[error("{from} can go to {}", or_list(.targets))]
    OtherTargets { from: Square, targets: Vec<Square> },
}

/// `a`, `a or b`, `a, b or c`.
fn or_list<T: std::fmt::Display>(items: &[T]) -> String {
    let texts: Vec<String> = items.iter().map(|item| item.to_string()).collect();
    match texts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn start_moves_in_pdn_and_hub() {
        let p = Position::start(Variant::English);
        let mut texts: Vec<String> =
            p.legal_moves().iter().map(|m| m.to_pdn(&p, SquareNotation::Numeric)).collect();
        texts.sort();
        assert_eq!(texts, ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]);
        let m = p.parse_move("11 15").unwrap();
        assert_eq!(m.to_hub(), "11-15");
        let err = p.parse_move("11-14").unwrap_err();
        assert_eq!(err.to_string(), "11-14 is not a legal move: 11 can go to 15 or 16");
    }

    #[test]
    fn move_text_is_squares_with_one_separator_between_each_two() {
        let p = Position::start(Variant::English);
        for text in ["11-15", "11x15", "11:15", "11 15", " 11 - 15 ", "11 x15", "11\t15"] {
            assert_eq!(p.parse_move(text).map(|m| m.to_hub()), Ok("11-15".to_string()), "{text}");
        }
        for text in ["-11-15", "11-15-", "11--15", "11-x15", "x11-15", "11-15 -", ":11:15", "-", "11"] {
            assert_eq!(p.parse_move(text), Err(MoveTextError::Syntax(text.to_string())), "{text}");
        }
    }

    #[test]
    fn an_unfinished_capture_is_told_to_go_on() {
        let p = Position::from_fen(Variant::English, "B:W14,23:B9").unwrap();
        for text in ["9x18", "9-18", "9 18"] {
            let Err(MoveTextError::Illegal { reason, .. }) = p.parse_move(text) else { panic!("{text}") };
            let at = Square::from_number(18).unwrap();
            let next = vec![Square::from_number(27).unwrap()];
            assert_eq!(reason, IllegalReason::CaptureGoesOn { at, next, moves: vec!["9x18x27".into()] });
        }
        let err = p.parse_move("9x18").unwrap_err();
        assert_eq!(err.to_string(), "9x18 is not a legal move: the capture goes on from 18 to 27 (9x18x27)");
        // Two ways on from the same stop; and in Russian, with algebraic squares.
        let p = Position::from_fen(Variant::English, "B:W14,22,23:B9").unwrap();
        assert_eq!(
            p.explain_illegal(Square::from_number(9).unwrap(), Square::from_number(18).unwrap()),
            "the capture goes on from 18 to 25 or 27 (9x18x25 or 9x18x27)"
        );
        let p = Position::from_fen(Variant::Russian, "W:WC3:BD4,F6").unwrap();
        let err = p.parse_move("c3:e5").unwrap_err();
        assert_eq!(err.to_string(), "c3:e5 is not a legal move: the capture goes on from 15 to 8 (22x15x8)");
        // A route that leaves the capture's squares is still refused as before.
        let err = p.parse_move("c3-b4").unwrap_err();
        assert!(err.to_string().ends_with("a capture is compulsory: 22x15x8"), "{err}");
    }

    #[test]
    fn compulsory_capture_is_explained() {
        let p = Position::from_fen(Variant::English, "B:W14,15:B9,10,11").unwrap();
        let err = p.parse_move("11-16").unwrap_err();
        assert!(err.to_string().contains("a capture is compulsory"), "{err}");
    }
}
