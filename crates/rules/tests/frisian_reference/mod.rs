//! A deliberately simple reference move generator for Frisian draughts, written straight
//! from docs/rules.md ("Frisian draughts"): a map of squares as `(file, rank)` pairs, plain
//! recursion over every jump and every landing square in eight directions with no pruning,
//! and the value rule applied at the end (a man 100, a king 199; at equal value a king's
//! capture first). It also keeps each side's run of quiet king moves and applies the limit.
//!
//! It shares no code with the library: the only contact is reading a board through
//! `piece_at`, `turn` and `king_moves`. Slow on purpose; being obviously right is its job.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::{BTreeMap, BTreeSet};

use checkers_rules::board::{Board, BoardMove, FrisianFamily, KingMoves};
use checkers_rules::{Color, Role};

/// `(file, rank)`: file 0 = the left edge, rank 0 = White's bottom row.
pub type Coord = (i32, i32);

const DIAGONALS: [Coord; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Along files and ranks the next dark square is two squares away.
const LINES: [Coord; 8] = [(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 2), (0, -2), (2, 0), (-2, 0)];

pub fn coord_of(n: u32) -> Coord {
    let row = (n as i32 - 1) / 5;
    let file = 2 * ((n as i32 - 1) % 5) + if row % 2 == 0 { 1 } else { 0 };
    (file, 9 - row)
}

pub fn number_of((f, r): Coord) -> u32 {
    assert!(on_board((f, r)), "({f},{r}) is no square");
    ((9 - r) * 5 + f / 2 + 1) as u32
}

fn on_board((f, r): Coord) -> bool {
    (0..10).contains(&f) && (0..10).contains(&r) && (f + r) % 2 == 0
}

fn plus((f, r): Coord, (df, dr): Coord) -> Coord {
    (f + df, r + dr)
}

/// A move: start, end, captured squares ascending, crowning.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
    pub crowns: bool,
}

impl RefMove {
    pub fn of<V: FrisianFamily>(mv: &BoardMove<V>) -> RefMove {
        RefMove { from: mv.from(), to: mv.to(), captured: mv.captured(), crowns: mv.crowns() }
    }
    pub fn hub(&self) -> String {
        let mut text =
            format!("{}{}{}", self.from, if self.captured.is_empty() { '-' } else { 'x' }, self.to);
        for c in &self.captured {
            text.push_str(&format!("x{c}"));
        }
        text
    }
}

/// A position: pieces by square, the side to move, and each side's run (count, king).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub pieces: BTreeMap<Coord, (Color, Role)>,
    pub turn: Color,
    /// White's run, then Black's.
    pub runs: [(u32, Option<Coord>); 2],
}

fn side(color: Color) -> usize {
    usize::from(color == Color::Black)
}

/// The moves found, and every route (squares stopped on) of each capture.
pub struct Generated {
    pub moves: BTreeSet<RefMove>,
    pub routes: BTreeMap<RefMove, BTreeSet<Vec<u32>>>,
}

impl RefBoard {
    pub fn from_board<V: FrisianFamily>(board: &Board<V>) -> RefBoard {
        let mut pieces = BTreeMap::new();
        for n in 1..=50 {
            if let Some(p) = board.piece_at(n) {
                pieces.insert(coord_of(n), (p.color, p.role));
            }
        }
        let run = |c| {
            let KingMoves { count, king } = board.king_moves(c);
            (count, king.map(coord_of))
        };
        RefBoard { pieces, turn: board.turn(), runs: [run(Color::White), run(Color::Black)] }
    }

    fn has_men(&self, color: Color) -> bool {
        self.pieces.values().any(|&(c, r)| c == color && r == Role::Man)
    }

    fn value(&self, captured: &[Coord]) -> u32 {
        captured.iter().map(|c| if self.pieces[c].1 == Role::King { 199 } else { 100 }).sum()
    }

    pub fn generate(&self) -> Generated {
        let mut found: Vec<(RefMove, Vec<u32>, (u32, bool))> = Vec::new();
        for (&from, &(color, role)) in &self.pieces {
            if color != self.turn {
                continue;
            }
            let mut path = vec![from];
            let mut taken = Vec::new();
            self.jumps(role, &mut path, &mut taken, &mut found);
        }
        let mut moves = BTreeSet::new();
        let mut routes: BTreeMap<RefMove, BTreeSet<Vec<u32>>> = BTreeMap::new();
        if let Some(best) = found.iter().map(|(_, _, key)| *key).max() {
            for (mv, route, key) in found {
                if key == best {
                    moves.insert(mv.clone());
                    routes.entry(mv).or_default().insert(route);
                }
            }
            return Generated { moves, routes };
        }
        self.quiet_moves(&mut moves);
        Generated { moves, routes }
    }

    /// Every capture on from `path`'s last square, the captured pieces staying on the board
    /// (blocking, none taken twice) and the start square empty.
    fn jumps(
        &self,
        role: Role,
        path: &mut Vec<Coord>,
        taken: &mut Vec<Coord>,
        found: &mut Vec<(RefMove, Vec<u32>, (u32, bool))>,
    ) {
        let start = path[0];
        let at = *path.last().unwrap();
        let empty = |c: Coord| on_board(c) && (c == start || !self.pieces.contains_key(&c));
        let mut jumped = false;
        for line in LINES {
            let mut over = plus(at, line);
            if role == Role::King {
                while empty(over) {
                    over = plus(over, line);
                }
            }
            let enemy = self.pieces.get(&over).is_some_and(|&(color, _)| color != self.turn);
            if !enemy || taken.contains(&over) {
                continue;
            }
            let mut land = plus(over, line);
            while empty(land) {
                jumped = true;
                taken.push(over);
                path.push(land);
                self.jumps(role, path, taken, found);
                path.pop();
                taken.pop();
                if role == Role::Man {
                    break;
                }
                land = plus(land, line);
            }
        }
        if !jumped && !taken.is_empty() {
            let last_rank = if self.turn == Color::White { 9 } else { 0 };
            let mut captured: Vec<u32> = taken.iter().map(|&c| number_of(c)).collect();
            captured.sort_unstable();
            let mv = RefMove {
                from: number_of(start),
                to: number_of(at),
                captured,
                crowns: role == Role::Man && at.1 == last_rank,
            };
            let route = path.iter().map(|&c| number_of(c)).collect();
            found.push((mv, route, (self.value(taken), role == Role::King)));
        }
    }

    fn quiet_moves(&self, moves: &mut BTreeSet<RefMove>) {
        let (count, king) = self.runs[side(self.turn)];
        let blocked = if count >= 3 && self.has_men(self.turn) { king } else { None };
        let forward = if self.turn == Color::White { 1 } else { -1 };
        let last_rank = if self.turn == Color::White { 9 } else { 0 };
        for (&from, &(color, role)) in &self.pieces {
            if color != self.turn || Some(from) == blocked {
                continue;
            }
            for (df, dr) in DIAGONALS {
                if role == Role::Man && dr != forward {
                    continue;
                }
                let mut to = plus(from, (df, dr));
                while on_board(to) && !self.pieces.contains_key(&to) {
                    let crowns = role == Role::Man && to.1 == last_rank;
                    moves.insert(RefMove {
                        from: number_of(from),
                        to: number_of(to),
                        captured: vec![],
                        crowns,
                    });
                    if role == Role::Man {
                        break;
                    }
                    to = plus(to, (df, dr));
                }
            }
        }
    }

    /// The position after `mv` (one of `generate`'s), runs included: a quiet king move goes
    /// on with its run (the same king) or starts one; any other move ends the mover's run; a
    /// side without men has none; a run whose king was captured ends.
    pub fn play(&self, mv: &RefMove) -> RefBoard {
        let mut next = self.clone();
        let (from, to) = (coord_of(mv.from), coord_of(mv.to));
        let (color, role) = next.pieces.remove(&from).expect("a piece to move");
        for &c in &mv.captured {
            next.pieces.remove(&coord_of(c));
        }
        let role = if mv.crowns { Role::King } else { role };
        next.pieces.insert(to, (color, role));
        let mine = side(color);
        next.runs[mine] = match self.runs[mine] {
            _ if role != Role::King || !mv.captured.is_empty() || mv.crowns => (0, None),
            (count, Some(king)) if count > 0 && king == from => (count + 1, Some(to)),
            _ => (1, Some(to)),
        };
        let theirs = 1 - mine;
        if let (_, Some(king)) = next.runs[theirs] {
            if mv.captured.contains(&number_of(king)) {
                next.runs[theirs] = (0, None);
            }
        }
        for color in [Color::White, Color::Black] {
            if !next.has_men(color) {
                next.runs[side(color)] = (0, None);
            }
        }
        next.turn = color.opponent();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.generate().moves;
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|mv| self.play(mv).perft(depth - 1)).sum()
    }
}
