//! A deliberately simple reference move generator for Turkish draughts, written straight from
//! docs/rules.md ("Turkish draughts").
//!
//! It shares no code with the library: an 8x8 array of cells indexed by file and rank, plain
//! recursion over every jump and every landing square on a copy of the board from which each
//! captured piece is taken at once, no pruning, and the majority rule applied at the end by
//! keeping the captures that take the most pieces. The only contact with the library is
//! reading a board into the array through `piece_at` and `turn`, and the documented square
//! numbering (1 = a8, 8 = h8, ..., 64 = h1). It is slow on purpose; being obviously right is
//! its whole job.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::{BTreeMap, BTreeSet};

use checkers_rules::board::{Board, BoardMove, Turkish};
use checkers_rules::{Color, Role};

/// A square as `(file, rank)`: file 0 = a, rank 0 = rank 1 (White's side).
pub type Coord = (i32, i32);

const DIRECTIONS: [Coord; 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// The documented number of a square: rank 8 first, a to h, so a8 = 1 and h1 = 64.
pub fn number_of((f, r): Coord) -> u32 {
    ((7 - r) * 8 + f + 1) as u32
}

pub fn coord_of(n: u32) -> Coord {
    let i = n as i32 - 1;
    (i % 8, 7 - i / 8)
}

/// `c3` for `(2, 2)`.
pub fn name((f, r): Coord) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn on_board((f, r): Coord) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// A move as docs/rules.md defines it: start, end, captured squares (by number, ascending),
/// crowning.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
    pub crowns: bool,
}

impl RefMove {
    /// The library's move in the same terms.
    pub fn of(mv: &BoardMove<Turkish>) -> RefMove {
        RefMove { from: mv.from(), to: mv.to(), captured: mv.captured(), crowns: mv.crowns() }
    }

    /// `e1xh3xc5xa4xe3xg3`: start, end, then the captured squares in number order.
    pub fn hub(&self) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        let mut out = format!("{}{sep}{}", name(coord_of(self.from)), name(coord_of(self.to)));
        for &c in &self.captured {
            out.push('x');
            out.push_str(&name(coord_of(c)));
        }
        out
    }
}

/// What the reference finds in a position: the legal moves and, for each capture, the long
/// form of every route that makes it (`e1xe5xa5xa3xh3`).
#[derive(Debug, Default)]
pub struct Generated {
    pub moves: BTreeSet<RefMove>,
    pub capture_texts: BTreeMap<RefMove, BTreeSet<String>>,
}

type Cells = [[Option<(Color, Role)>; 8]; 8];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    /// `cells[file][rank]`.
    cells: Cells,
    pub turn: Color,
}

/// One finished capture: the move and the squares its piece stopped on.
struct Found {
    mv: RefMove,
    route: Vec<Coord>,
}

impl RefBoard {
    pub fn from_board(board: &Board<Turkish>) -> RefBoard {
        let mut cells: Cells = [[None; 8]; 8];
        for n in 1..=64 {
            let (f, r) = coord_of(n);
            cells[f as usize][r as usize] = board.piece_at(n).map(|p| (p.color, p.role));
        }
        RefBoard { cells, turn: board.turn() }
    }

    pub fn at(&self, (f, r): Coord) -> Option<(Color, Role)> {
        self.cells[f as usize][r as usize]
    }

    fn set(cells: &mut Cells, (f, r): Coord, piece: Option<(Color, Role)>) {
        cells[f as usize][r as usize] = piece;
    }

    fn forward(&self) -> i32 {
        if self.turn == Color::White {
            1
        } else {
            -1
        }
    }

    fn last_rank(&self) -> i32 {
        if self.turn == Color::White {
            7
        } else {
            0
        }
    }

    fn is_enemy(&self, cells: &Cells, c: Coord) -> bool {
        on_board(c) && cells[c.0 as usize][c.1 as usize].is_some_and(|(color, _)| color != self.turn)
    }

    fn is_empty(cells: &Cells, c: Coord) -> bool {
        on_board(c) && cells[c.0 as usize][c.1 as usize].is_none()
    }

    /// Every jump from `at` on `cells` (the board as the capture has left it): where the piece
    /// lands, what it takes and the direction. `last` is the direction of the previous jump.
    fn jumps(&self, cells: &Cells, at: Coord, role: Role, last: Option<Coord>) -> Vec<(Coord, Coord, Coord)> {
        let mut out = Vec::new();
        for d in DIRECTIONS {
            if last == Some((-d.0, -d.1)) {
                continue; // no turning back within a capture
            }
            match role {
                Role::Man => {
                    if d == (0, -self.forward()) {
                        continue; // men never go backwards
                    }
                    let over = (at.0 + d.0, at.1 + d.1);
                    let land = (over.0 + d.0, over.1 + d.1);
                    if self.is_enemy(cells, over) && Self::is_empty(cells, land) {
                        out.push((land, over, d));
                    }
                }
                Role::King => {
                    let mut sq = (at.0 + d.0, at.1 + d.1);
                    while Self::is_empty(cells, sq) {
                        sq = (sq.0 + d.0, sq.1 + d.1);
                    }
                    if !self.is_enemy(cells, sq) {
                        continue;
                    }
                    let over = sq;
                    let mut land = (over.0 + d.0, over.1 + d.1);
                    while Self::is_empty(cells, land) {
                        out.push((land, over, d));
                        land = (land.0 + d.0, land.1 + d.1);
                    }
                }
            }
        }
        out
    }

    /// Follows a capture from `at`, having taken `captured` along `route`.
    #[allow(clippy::too_many_arguments)]
    fn follow(
        &self,
        cells: &Cells,
        from: Coord,
        at: Coord,
        role: Role,
        last: Option<Coord>,
        captured: &mut Vec<u32>,
        route: &mut Vec<Coord>,
        found: &mut Vec<Found>,
    ) {
        let jumps = self.jumps(cells, at, role, last);
        if jumps.is_empty() {
            if !captured.is_empty() {
                let mut taken = captured.clone();
                taken.sort_unstable();
                let crowns = role == Role::Man && at.1 == self.last_rank();
                let mv = RefMove { from: number_of(from), to: number_of(at), captured: taken, crowns };
                found.push(Found { mv, route: route.clone() });
            }
            return;
        }
        for (land, over, d) in jumps {
            let mut next = *cells;
            let piece = next[at.0 as usize][at.1 as usize];
            Self::set(&mut next, at, None);
            Self::set(&mut next, over, None); // taken off at once
            Self::set(&mut next, land, piece);
            captured.push(number_of(over));
            route.push(land);
            self.follow(&next, from, land, role, Some(d), captured, route, found);
            route.pop();
            captured.pop();
        }
    }

    pub fn generate(&self) -> Generated {
        let mut found = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                if let Some((color, role)) = self.at((f, r)) {
                    if color == self.turn {
                        let mut route = vec![(f, r)];
                        self.follow(
                            &self.cells,
                            (f, r),
                            (f, r),
                            role,
                            None,
                            &mut Vec::new(),
                            &mut route,
                            &mut found,
                        );
                    }
                }
            }
        }
        let mut out = Generated::default();
        if let Some(most) = found.iter().map(|f| f.mv.captured.len()).max() {
            for f in found.into_iter().filter(|f| f.mv.captured.len() == most) {
                let text: Vec<String> = f.route.iter().copied().map(name).collect();
                out.capture_texts.entry(f.mv.clone()).or_default().insert(text.join("x"));
                out.moves.insert(f.mv);
            }
            return out;
        }
        for f in 0..8 {
            for r in 0..8 {
                let Some((color, role)) = self.at((f, r)) else { continue };
                if color != self.turn {
                    continue;
                }
                for d in DIRECTIONS {
                    if role == Role::Man && d == (0, -self.forward()) {
                        continue;
                    }
                    let mut to = (f + d.0, r + d.1);
                    while Self::is_empty(&self.cells, to) {
                        let crowns = role == Role::Man && to.1 == self.last_rank();
                        out.moves.insert(RefMove {
                            from: number_of((f, r)),
                            to: number_of(to),
                            captured: Vec::new(),
                            crowns,
                        });
                        if role == Role::Man {
                            break;
                        }
                        to = (to.0 + d.0, to.1 + d.1);
                    }
                }
            }
        }
        out
    }

    /// The board after `mv` (a move of the side to move).
    pub fn play(&self, mv: &RefMove) -> RefBoard {
        let mut next = self.clone();
        let (from, to) = (coord_of(mv.from), coord_of(mv.to));
        let piece = self.at(from);
        for &c in &mv.captured {
            Self::set(&mut next.cells, coord_of(c), None);
        }
        Self::set(&mut next.cells, from, None);
        let piece = piece.map(|(color, role)| (color, if mv.crowns { Role::King } else { role }));
        Self::set(&mut next.cells, to, piece);
        next.turn = self.turn.opponent();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.generate().moves;
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|mv| self.play(mv).perft(depth - 1)).sum()
    }
}
