//! Move text on boards of any size, in numbers: `32-28`, `28x19`, `28x19x10` (every square
//! the piece stops on). Where a flying king captures twice along one line, the square named
//! between the two captures is the one just beyond the first captured piece (the FMJD rule),
//! so every move has one long form. Input may be the long form, the short form `from x to`
//! when it names one move, or any route in between; one separator (`-`, `x`, `:` or spaces)
//! between each two squares.
//!
//! On a board whose squares are named ([`Geometry::ALGEBRAIC`], Turkish draughts) the same
//! forms use the names: `a3-a4`, `a6xa4`, `d1xd5xh5`; the Hub form lists the captured squares
//! in square-number order (rank 8 first).

use thiserror::Error;

use super::geometry::Geometry;
use super::moves::BoardMove;
use super::position::{Board, RuleSet};
use crate::position::Color;
use crate::shown::excerpt;

/// Why move text did not name a legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardMoveTextError {
    #[error("`{}` is not move text (expected squares such as 32-28 or 28x19x10)", excerpt(.0))]
    Syntax(String),
    #[error("`{}` is not a square (squares are numbers 1-{squares})", excerpt(.text))]
    BadSquare { text: String, squares: u32 },
    #[error("{} is not a legal move: {reason}", excerpt(.text))]
    Illegal { text: String, reason: BoardIllegalReason },
    #[error("{} is ambiguous: it could be {}", excerpt(.text), candidates.join(" or "))]
    Ambiguous { text: String, candidates: Vec<String> },
    /// Not a square of a board whose squares have names (Turkish draughts: `a1`-`h8`).
    #[error("`{}` is not a square (squares are {names})", excerpt(.text))]
    BadSquareName { text: String, names: String },
}

/// Why no legal move goes from one square to another, and what can be played instead (moves
/// in long form).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardIllegalReason {
    #[error("the game is over: there is no legal move")]
    NoLegalMove,
    #[error("there is no piece on {0}")]
    NoPiece(u32),
    #[error("the piece on {square} is not yours; {} is to move", .to_move.name())]
    NotYours { square: u32, to_move: Color },
    /// A capture must be made and this is not one of the legal ones; `pieces` is how many
    /// each takes when they all take as many (always in majority-capture variants).
    #[error("{} is compulsory: {}", capture_of(*.pieces), or_list(.captures))]
    CaptureCompulsory { pieces: Option<u32>, captures: Vec<String> },
    #[error("the piece on {0} cannot move")]
    CannotMove(u32),
    #[error("{from} can go to {}", or_list(.targets))]
    OtherTargets { from: u32, targets: Vec<u32> },
}

/// `a capture of 2 pieces`, or `a capture` when the legal captures take different numbers.
fn capture_of(pieces: Option<u32>) -> String {
    match pieces {
        Some(1) => "a capture of 1 piece".to_string(),
        Some(n) => format!("a capture of {n} pieces"),
        None => "a capture".to_string(),
    }
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

impl<V: RuleSet> BoardMove<V> {
    /// The squares this move stops on, start first, end last: the route its long form names.
    pub fn route(&self, board: &Board<V>) -> Vec<u32> {
        if !self.is_capture() {
            return vec![self.from(), self.to()];
        }
        let routes = board.capture_routes();
        let route =
            routes.into_iter().filter(|(m, _)| m == self).map(|(_, r)| canonical_route::<V>(r, self)).min();
        route.unwrap_or_else(|| vec![self.from(), self.to()])
    }

    /// Long form: `32-28`, `28x19x10`.
    pub fn to_pdn(&self, board: &Board<V>) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        self.route(board).into_iter().map(name::<V>).collect::<Vec<_>>().join(sep)
    }

    /// Short form: `from-to` or `fromxto`.
    pub fn to_short(&self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        format!("{}{sep}{}", name::<V>(self.from()), name::<V>(self.to()))
    }

    /// Hub protocol form: `from-to`, or `fromxtoxc1xc2...` with the captured squares
    /// ascending, which names a move uniquely.
    pub fn to_hub(&self) -> String {
        let mut out = self.to_short();
        for square in self.captured() {
            out.push('x');
            out.push_str(&name::<V>(square));
        }
        out
    }
}

/// A square's name in move text.
fn name<V: RuleSet>(square: u32) -> String {
    <V::Geometry as Geometry>::square_name(square)
}

/// Where a king goes on capturing in the same direction, names the square just beyond the
/// piece it captured as the stop between the two captures.
///
/// Each leg of a route takes one piece: the captured square on the leg that no earlier leg
/// took. (Where pieces come off the board at once, as in Turkish draughts, a leg may cross
/// squares emptied by earlier legs; on other boards each leg crosses one captured square.)
fn canonical_route<V: RuleSet>(mut route: Vec<u32>, mv: &BoardMove<V>) -> Vec<u32> {
    type G<V> = <V as RuleSet>::Geometry;
    let captured = mv.captured();
    let coords = |n: u32| {
        let (f, r) = G::<V>::coords(n);
        (f as i32, r as i32)
    };
    // One step along the line from `a` to `b`: a diagonal neighbour, or along a file or rank
    // the next square there is: two files or ranks away on a board of dark squares (Frisian),
    // the next one on a board of all squares (Turkish).
    let orthogonal = if G::<V>::SQUARES == G::<V>::SIDE * G::<V>::SIDE { 1 } else { 2 };
    let dir = |a: u32, b: u32| {
        let ((fa, ra), (fb, rb)) = (coords(a), coords(b));
        let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
        if df == 0 || dr == 0 {
            (orthogonal * df, orthogonal * dr)
        } else {
            (df, dr)
        }
    };
    let mut taken: Vec<u32> = Vec::new();
    for i in 1..route.len().saturating_sub(1) {
        let d_in = dir(route[i - 1], route[i]);
        // Walk from the previous stop to this leg's captured piece.
        let (mut f, mut r) = coords(route[i - 1]);
        let mut piece = None;
        while let Some(square) = G::<V>::at(f + d_in.0, r + d_in.1) {
            (f, r) = (f + d_in.0, r + d_in.1);
            if captured.contains(&square) && !taken.contains(&square) {
                piece = Some((f, r));
                taken.push(square);
                break;
            }
        }
        // Going on the same way, the stop goes just beyond it.
        if let Some((f, r)) = piece.filter(|_| d_in == dir(route[i], route[i + 1])) {
            if let Some(next) = G::<V>::at(f + d_in.0, r + d_in.1) {
                route[i] = next;
            }
        }
    }
    route
}

fn is_separator(c: char) -> bool {
    matches!(c, '-' | 'x' | 'X' | ':') || c.is_whitespace()
}

/// The squares named by move text: numbers, each two separated by one separator (`-`, `x`,
/// `:`, spaces, or one of the three with spaces around it).
fn tokens<G: Geometry>(text: &str) -> Result<Vec<u32>, BoardMoveTextError> {
    let syntax = || BoardMoveTextError::Syntax(text.to_string());
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
        .map(|p| {
            G::square_by_name(p).ok_or_else(|| {
                if G::ALGEBRAIC {
                    BoardMoveTextError::BadSquareName { text: p.to_string(), names: G::square_names() }
                } else {
                    BoardMoveTextError::BadSquare { text: p.to_string(), squares: G::SQUARES }
                }
            })
        })
        .collect()
}

fn is_subsequence(needle: &[u32], hay: &[u32]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

impl<V: RuleSet> Board<V> {
    /// Reads move text and finds the legal move it names: its first square is the start, its
    /// last the end, and any squares between are stops of one of the move's routes, in order.
    pub fn parse_move(&self, text: &str) -> Result<BoardMove<V>, BoardMoveTextError> {
        let squares = tokens::<V::Geometry>(text)?;
        let shown = text.trim().to_string();
        let legal = self.legal_moves();
        let (first, last) = (squares[0], squares[squares.len() - 1]);
        let routes = if self.has_capture() { self.capture_routes() } else { Vec::new() };
        let mut found: Vec<BoardMove<V>> = Vec::new();
        for mv in legal.iter().filter(|m| m.from() == first && m.to() == last) {
            let matches = squares.len() == 2
                || (mv.is_capture() && routes.iter().any(|(m, r)| m == mv && is_subsequence(&squares, r)));
            if matches && !found.contains(mv) {
                found.push(*mv);
            }
        }
        if found.len() > 1 {
            // Text naming every stop of a route is that route's move, even when it also
            // reads as a shortened form of another.
            let whole: Vec<BoardMove<V>> = found
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
            0 => Err(BoardMoveTextError::Illegal { text: shown, reason: self.illegal_reason(first) }),
            _ => Err(BoardMoveTextError::Ambiguous {
                text: shown,
                candidates: found.iter().map(|m| m.to_pdn(self)).collect(),
            }),
        }
    }

    /// Why no legal move starts on `from` as the text asked, with what can be played instead.
    pub fn illegal_reason(&self, from: u32) -> BoardIllegalReason {
        let legal = self.legal_moves();
        if legal.is_empty() {
            return BoardIllegalReason::NoLegalMove;
        }
        match self.piece_at(from) {
            None => return BoardIllegalReason::NoPiece(from),
            Some(p) if p.color != self.turn() => {
                return BoardIllegalReason::NotYours { square: from, to_move: self.turn() }
            }
            _ => {}
        }
        if legal[0].is_capture() {
            let mut captures: Vec<String> = legal.iter().map(|m| m.to_pdn(self)).collect();
            captures.sort();
            let pieces = legal[0].captured_count();
            let pieces = legal.iter().all(|m| m.captured_count() == pieces).then_some(pieces);
            return BoardIllegalReason::CaptureCompulsory { pieces, captures };
        }
        let mut targets: Vec<u32> = legal.iter().filter(|m| m.from() == from).map(|m| m.to()).collect();
        if targets.is_empty() {
            return BoardIllegalReason::CannotMove(from);
        }
        targets.sort_unstable();
        targets.dedup();
        BoardIllegalReason::OtherTargets { from, targets }
    }
}
