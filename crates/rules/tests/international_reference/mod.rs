//! A deliberately simple reference move generator for International draughts, written
//! straight from docs/rules.md ("International draughts"), on a board of any even side: the
//! same rules on 8x8 and 12x12 are Brazilian and Canadian draughts.
//!
//! It shares no code with the library: a plain array of cells, squares as
//! `(file, rank)` pairs, plain recursion over every jump and every landing square with no
//! pruning, and the majority rule applied at the end by keeping the captures that take the
//! most pieces. The only contact with the library is reading a board into the array through
//! `piece_at` and `turn`. It is slow on purpose; being obviously right is its whole job.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::{BTreeMap, BTreeSet};

use checkers_rules::board::{Board, BoardMove, Geometry, RuleSet};
use checkers_rules::{Color, Role};

/// A square as `(file, rank)`: file 0 = the left edge, rank 0 = White's bottom row.
pub type Coord = (i32, i32);

const DIRECTIONS: [Coord; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Square number `n` (1-50) of the 10x10 board.
pub fn coord_of(n: u32) -> Coord {
    coord_in(10, n)
}

/// The number of a dark square of the 10x10 board.
pub fn number_of(c: Coord) -> u32 {
    number_in(10, c)
}

/// Square number `n` on a board of `side` squares a side: `side / 2` squares a row from the
/// top left, rows starting on file b and file a in turn.
pub fn coord_in(side: i32, n: u32) -> Coord {
    let half = side / 2;
    let row = (n as i32 - 1) / half;
    let col = (n as i32 - 1) % half;
    let file = 2 * col + if row % 2 == 0 { 1 } else { 0 };
    (file, side - 1 - row)
}

/// The number of a dark square on a board of `side` squares a side.
pub fn number_in(side: i32, (f, r): Coord) -> u32 {
    let row = side - 1 - r;
    assert!((0..side).contains(&f) && (0..side).contains(&r) && (f + r) % 2 == 0, "({f},{r}) is no square");
    (row * (side / 2) + f / 2 + 1) as u32
}

fn plus((f, r): Coord, (df, dr): Coord) -> Coord {
    (f + df, r + dr)
}

/// A move as docs/rules.md defines it: start, end, captured squares ascending, crowning.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
    pub crowns: bool,
}

impl RefMove {
    /// The same description of a library move, read through its public accessors.
    pub fn of<V: RuleSet>(mv: &BoardMove<V>) -> RefMove {
        RefMove { from: mv.from(), to: mv.to(), captured: mv.captured(), crowns: mv.crowns() }
    }

    /// Hub form: `from-to`, or `fromxtoxc1xc2...` with captured squares ascending.
    pub fn hub(&self) -> String {
        if self.captured.is_empty() {
            return format!("{}-{}", self.from, self.to);
        }
        let mut parts = vec![self.from.to_string(), self.to.to_string()];
        parts.extend(self.captured.iter().map(u32::to_string));
        parts.join("x")
    }
}

/// Everything the reference says about a position.
#[derive(Debug, Default)]
pub struct Generated {
    pub moves: BTreeSet<RefMove>,
    /// For each capture, the texts of its routes: every square the piece stops on joined by
    /// `x`, except that where a king goes on capturing in the same direction the stop named is
    /// the square just beyond the piece it captured.
    pub capture_texts: BTreeMap<RefMove, BTreeSet<String>>,
}

/// One leg of a capture: the piece jumped, where the capturer lands, and the direction.
#[derive(Clone, Copy, Debug)]
struct Leg {
    over: Coord,
    land: Coord,
    direction: Coord,
}

/// The board as a plain array, with the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    /// Squares along a side.
    pub side: i32,
    /// `cells[file][rank]`.
    pub cells: Vec<Vec<Option<(Color, Role)>>>,
    pub turn: Color,
}

fn forward(color: Color) -> i32 {
    if color == Color::White {
        1
    } else {
        -1
    }
}

impl RefBoard {
    pub fn from_board<V: RuleSet>(board: &Board<V>) -> RefBoard {
        let side = <V::Geometry as Geometry>::SIDE as i32;
        let mut cells = vec![vec![None; side as usize]; side as usize];
        for n in 1..=<V::Geometry as Geometry>::SQUARES {
            if let Some(piece) = board.piece_at(n) {
                let (f, r) = coord_in(side, n);
                cells[f as usize][r as usize] = Some((piece.color, piece.role));
            }
        }
        RefBoard { side, cells, turn: board.turn() }
    }

    fn on_board(&self, (f, r): Coord) -> bool {
        (0..self.side).contains(&f) && (0..self.side).contains(&r)
    }

    fn number(&self, c: Coord) -> u32 {
        number_in(self.side, c)
    }

    fn coord(&self, n: u32) -> Coord {
        coord_in(self.side, n)
    }

    fn crowning_rank(&self, color: Color) -> i32 {
        if color == Color::White {
            self.side - 1
        } else {
            0
        }
    }

    pub fn at(&self, (f, r): Coord) -> Option<(Color, Role)> {
        self.cells[f as usize][r as usize]
    }

    fn set(&mut self, (f, r): Coord, cell: Option<(Color, Role)>) {
        self.cells[f as usize][r as usize] = cell;
    }

    fn own_pieces(&self) -> Vec<(Coord, Role)> {
        let mut out = Vec::new();
        for f in 0..self.side {
            for r in 0..self.side {
                if let Some((color, role)) = self.at((f, r)) {
                    if color == self.turn {
                        out.push(((f, r), role));
                    }
                }
            }
        }
        out
    }

    /// The legal moves: the captures taking the most pieces if there is a capture, otherwise
    /// the quiet moves.
    pub fn generate(&self) -> Generated {
        let mut all = Generated::default();
        for (from, role) in self.own_pieces() {
            // The moving piece's start square counts as empty during its move.
            let mut board = self.clone();
            board.set(from, None);
            board.follow(from, from, role, &mut Vec::new(), &mut all);
        }
        if all.moves.is_empty() {
            for (from, role) in self.own_pieces() {
                self.quiet_moves(from, role, &mut all.moves);
            }
            return all;
        }
        let most = all.moves.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        all.moves.retain(|m| m.captured.len() == most);
        all.capture_texts.retain(|m, _| m.captured.len() == most);
        all
    }

    fn quiet_moves(&self, from: Coord, role: Role, out: &mut BTreeSet<RefMove>) {
        for direction in DIRECTIONS {
            if role == Role::Man && direction.1 != forward(self.turn) {
                continue;
            }
            let mut to = plus(from, direction);
            while self.on_board(to) && self.at(to).is_none() {
                let crowns = role == Role::Man && to.1 == self.crowning_rank(self.turn);
                out.insert(RefMove {
                    from: self.number(from),
                    to: self.number(to),
                    captured: vec![],
                    crowns,
                });
                if role == Role::Man {
                    break;
                }
                to = plus(to, direction);
            }
        }
    }

    /// Follows every capture route from `at` (captured pieces stay on the board: they block
    /// and can't be jumped again), recording each route that can't go on.
    fn follow(&self, from: Coord, at: Coord, role: Role, legs: &mut Vec<Leg>, out: &mut Generated) {
        let mut jumped = false;
        for direction in DIRECTIONS {
            // The first occupied square along the line: the adjacent one for a man; for a
            // king, the first after any number of empty squares.
            let mut over = plus(at, direction);
            if role == Role::King {
                while self.on_board(over) && self.at(over).is_none() {
                    over = plus(over, direction);
                }
            }
            if !self.on_board(over) || legs.iter().any(|leg| leg.over == over) {
                continue;
            }
            match self.at(over) {
                Some((color, _)) if color != self.turn => {}
                _ => continue,
            }
            let mut land = plus(over, direction);
            while self.on_board(land) && self.at(land).is_none() {
                jumped = true;
                legs.push(Leg { over, land, direction });
                // A man stays a man while it captures, wherever it passes.
                self.follow(from, land, role, legs, out);
                legs.pop();
                if role == Role::Man {
                    break;
                }
                land = plus(land, direction);
            }
        }
        if !jumped && !legs.is_empty() {
            self.record(from, at, role, legs, out);
        }
    }

    fn record(&self, from: Coord, to: Coord, role: Role, legs: &[Leg], out: &mut Generated) {
        let mut captured: Vec<u32> = legs.iter().map(|leg| self.number(leg.over)).collect();
        captured.sort_unstable();
        // A man is crowned when its move ends on the far row, not when it only passes it.
        let crowns = role == Role::Man && to.1 == self.crowning_rank(self.turn);
        let mv = RefMove { from: self.number(from), to: self.number(to), captured, crowns };
        let mut stops = vec![self.number(from)];
        for (i, leg) in legs.iter().enumerate() {
            let straight_on = legs.get(i + 1).is_some_and(|next| next.direction == leg.direction);
            stops.push(self.number(if straight_on { plus(leg.over, leg.direction) } else { leg.land }));
        }
        let text = stops.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
        out.capture_texts.entry(mv.clone()).or_default().insert(text);
        out.moves.insert(mv);
    }

    /// The board after a move (one of this board's legal moves).
    pub fn play(&self, mv: &RefMove) -> RefBoard {
        let mut next = self.clone();
        let (color, role) = next.at(self.coord(mv.from)).expect("a piece moves");
        next.set(self.coord(mv.from), None);
        for &c in &mv.captured {
            next.set(self.coord(c), None);
        }
        next.set(self.coord(mv.to), Some((color, if mv.crowns { Role::King } else { role })));
        next.turn = self.turn.opponent();
        next
    }

    /// Perft by listing and playing every move.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.generate().moves;
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
