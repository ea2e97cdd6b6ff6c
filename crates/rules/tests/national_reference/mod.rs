//! A deliberately simple reference move generator for the national 8x8 games (Italian,
//! Spanish, Portuguese, Czech, Pool, Thai), written straight from docs/rules.md.
//!
//! It shares no code with the library: an 8x8 array of cells, squares as `(file, rank)`,
//! each variant's numbering worked out here from its rules text, plain recursion over every
//! jump and every landing square, and the capture-choice rule applied at the end by comparing
//! whole routes. The only contact with the library is reading a board through `piece_at` and
//! `turn`. It is slow on purpose; being obviously right is its whole job.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::BTreeSet;

use checkers_rules::board::{Board, BoardMove, RuleSet};
use checkers_rules::{Color, Role};

/// A square as `(file, rank)`: file 0 = a, rank 0 = White's bottom row.
pub type Coord = (i32, i32);

const DIRECTIONS: [Coord; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// How a variant names its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// a1 dark; 1-32 from the top (Black's side), each row left to right, square 1 on b8.
    Standard,
    /// a1 light (the mirrored board); 1-32 from the top left, square 1 on a8 (FID).
    ItalianMirrored,
    /// a1 light; 1-32 from White's bottom right (h1), each row right to left.
    SpanishMirrored,
}

impl Numbering {
    fn dark(self, (f, r): Coord) -> bool {
        match self {
            Numbering::Standard => (f + r) % 2 == 0,
            _ => (f + r) % 2 == 1,
        }
    }

    /// The square named `n`.
    pub fn coord(self, n: u32) -> Coord {
        let all: Vec<Coord> = self.order();
        all[n as usize - 1]
    }

    /// The name of a dark square.
    pub fn number(self, c: Coord) -> u32 {
        self.order().iter().position(|&x| x == c).expect("a dark square") as u32 + 1
    }

    /// The dark squares in number order.
    fn order(self) -> Vec<Coord> {
        let mut top_down = Vec::new();
        for r in (0..8).rev() {
            for f in 0..8 {
                if self.dark((f, r)) {
                    top_down.push((f, r));
                }
            }
        }
        if self == Numbering::SpanishMirrored {
            top_down.reverse();
        }
        top_down
    }
}

/// How a player chooses among captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Free,
    KingFirst,
    Majority,
    Italian,
}

/// One variant's rules, as docs/rules.md states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub numbering: Numbering,
    pub men_capture_backwards: bool,
    pub flying_kings: bool,
    pub king_lands_behind: bool,
    pub men_take_kings: bool,
    pub remove_at_once: bool,
    pub crowning_ends_capture: bool,
    pub choice: Choice,
}

impl Rules {
    pub fn of(variant: &str) -> Rules {
        let base = Rules {
            numbering: Numbering::Standard,
            men_capture_backwards: false,
            flying_kings: true,
            king_lands_behind: false,
            men_take_kings: true,
            remove_at_once: false,
            crowning_ends_capture: true,
            choice: Choice::Free,
        };
        match variant {
            "italian" => Rules {
                numbering: Numbering::ItalianMirrored,
                flying_kings: false,
                men_take_kings: false,
                choice: Choice::Italian,
                ..base
            },
            "spanish" | "portuguese" => {
                Rules { numbering: Numbering::SpanishMirrored, choice: Choice::Majority, ..base }
            }
            "czech" => Rules { choice: Choice::KingFirst, ..base },
            "pool" => Rules { men_capture_backwards: true, crowning_ends_capture: false, ..base },
            "thai" => Rules { king_lands_behind: true, remove_at_once: true, ..base },
            other => panic!("no national variant {other}"),
        }
    }
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
    pub fn of<V: RuleSet>(mv: &BoardMove<V>) -> RefMove {
        RefMove { from: mv.from(), to: mv.to(), captured: mv.captured(), crowns: mv.crowns() }
    }
}

type Cell = Option<(Color, Role)>;

/// A position: 64 cells and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    cells: [[Cell; 8]; 8],
    pub turn: Color,
    rules: Rules,
}

/// A finished capture route: where it started and ended, what it took in order (with whether
/// each was a king), and whether a king made it.
struct Route {
    from: Coord,
    to: Coord,
    taken: Vec<(Coord, bool)>,
    by_king: bool,
}

impl RefBoard {
    pub fn from_board<V: RuleSet>(board: &Board<V>) -> RefBoard {
        let rules = Rules::of(V::NAME);
        let mut cells = [[None; 8]; 8];
        for n in 1..=32 {
            if let Some(piece) = board.piece_at(n) {
                let (f, r) = rules.numbering.coord(n);
                cells[f as usize][r as usize] = Some((piece.color, piece.role));
            }
        }
        RefBoard { cells, turn: board.turn(), rules }
    }

    fn at(&self, (f, r): Coord) -> Option<Cell> {
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| self.cells[f as usize][r as usize])
    }

    fn set(&mut self, (f, r): Coord, cell: Cell) {
        self.cells[f as usize][r as usize] = cell;
    }

    fn forward(&self) -> i32 {
        if self.turn == Color::White {
            1
        } else {
            -1
        }
    }

    fn crowning_rank(&self) -> i32 {
        if self.turn == Color::White {
            7
        } else {
            0
        }
    }

    fn number(&self, c: Coord) -> u32 {
        self.rules.numbering.number(c)
    }

    /// The legal moves.
    pub fn generate(&self) -> BTreeSet<RefMove> {
        let mut routes = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                if let Some(Some((color, role))) = self.at((f, r)) {
                    if color == self.turn {
                        let mut board = self.clone();
                        board.set((f, r), None);
                        board.jumps((f, r), (f, r), role == Role::King, &mut Vec::new(), &mut routes);
                    }
                }
            }
        }
        if routes.is_empty() {
            return self.quiet_moves();
        }
        let best = routes.iter().map(|route| self.priority(route)).max().expect("a route");
        routes
            .iter()
            .filter(|route| self.priority(route) == best)
            .map(|route| {
                let mut captured: Vec<u32> = route.taken.iter().map(|(c, _)| self.number(*c)).collect();
                captured.sort_unstable();
                RefMove {
                    from: self.number(route.from),
                    to: self.number(route.to),
                    captured,
                    crowns: !route.by_king && route.to.1 == self.crowning_rank(),
                }
            })
            .collect()
    }

    /// The capture-choice rule as a value to maximise.
    fn priority(&self, route: &Route) -> (usize, bool, usize, Vec<bool>) {
        let kings = route.taken.iter().filter(|(_, king)| *king).count();
        let order: Vec<bool> = route.taken.iter().map(|(_, king)| *king).collect();
        match self.rules.choice {
            Choice::Free => (0, false, 0, Vec::new()),
            Choice::KingFirst => (0, route.by_king, 0, Vec::new()),
            Choice::Majority => (route.taken.len(), false, kings, Vec::new()),
            Choice::Italian => (route.taken.len(), route.by_king, kings, order),
        }
    }

    fn quiet_moves(&self) -> BTreeSet<RefMove> {
        let mut out = BTreeSet::new();
        for f in 0..8 {
            for r in 0..8 {
                let Some(Some((color, role))) = self.at((f, r)) else { continue };
                if color != self.turn {
                    continue;
                }
                for (df, dr) in DIRECTIONS {
                    if role == Role::Man && dr != self.forward() {
                        continue;
                    }
                    let mut to = (f + df, r + dr);
                    while self.at(to) == Some(None) {
                        out.insert(RefMove {
                            from: self.number((f, r)),
                            to: self.number(to),
                            captured: Vec::new(),
                            crowns: role == Role::Man && to.1 == self.crowning_rank(),
                        });
                        if role == Role::Man || !self.rules.flying_kings {
                            break;
                        }
                        to = (to.0 + df, to.1 + dr);
                    }
                }
            }
        }
        out
    }

    /// The pieces a piece on `at` can take next and where it may land for each: `(taken,
    /// landings)`. `taken` lists what this route has taken (still on this board unless the
    /// variant takes pieces off at once).
    fn next_jumps(&self, at: Coord, king: bool, taken: &[(Coord, bool)]) -> Vec<(Coord, Vec<Coord>)> {
        let mut out = Vec::new();
        for (df, dr) in DIRECTIONS {
            if !king && !self.rules.men_capture_backwards && dr != self.forward() {
                continue;
            }
            let mut sq = (at.0 + df, at.1 + dr);
            if king && self.rules.flying_kings {
                while self.at(sq) == Some(None) {
                    sq = (sq.0 + df, sq.1 + dr);
                }
            }
            let Some(Some((color, role))) = self.at(sq) else { continue };
            if color == self.turn || taken.iter().any(|(c, _)| *c == sq) {
                continue;
            }
            if !king && role == Role::King && !self.rules.men_take_kings {
                continue;
            }
            let mut landings = Vec::new();
            let mut land = (sq.0 + df, sq.1 + dr);
            while self.at(land) == Some(None) {
                landings.push(land);
                if !(king && self.rules.flying_kings) || self.rules.king_lands_behind {
                    break;
                }
                land = (land.0 + df, land.1 + dr);
            }
            if !landings.is_empty() {
                out.push((sq, landings));
            }
        }
        out
    }

    /// Follows every capture on from `at`.
    fn jumps(
        &self,
        from: Coord,
        at: Coord,
        king: bool,
        taken: &mut Vec<(Coord, bool)>,
        out: &mut Vec<Route>,
    ) {
        let options = self.next_jumps(at, king, taken);
        if options.is_empty() {
            if !taken.is_empty() {
                out.push(Route { from, to: at, taken: taken.clone(), by_king: king });
            }
            return;
        }
        for (over, landings) in options {
            let was_king = matches!(self.at(over), Some(Some((_, Role::King))));
            let mut board = self.clone();
            if self.rules.remove_at_once {
                board.set(over, None);
            }
            taken.push((over, was_king));
            // A flying king must land where it can take on, if there is such a square.
            let going_on: Vec<Coord> =
                landings.iter().copied().filter(|&l| board.can_go_on(l, king, taken)).collect();
            let chosen = if going_on.is_empty() { landings } else { going_on };
            for land in chosen {
                if !king && land.1 == self.crowning_rank() && self.rules.crowning_ends_capture {
                    out.push(Route { from, to: land, taken: taken.clone(), by_king: false });
                } else {
                    board.jumps(from, land, king, taken, out);
                }
            }
            taken.pop();
        }
    }

    fn can_go_on(&self, at: Coord, king: bool, taken: &[(Coord, bool)]) -> bool {
        if !king && at.1 == self.crowning_rank() && self.rules.crowning_ends_capture {
            return false;
        }
        !self.next_jumps(at, king, taken).is_empty()
    }

    /// The position after `mv` (a legal move here).
    pub fn play(&self, mv: &RefMove) -> RefBoard {
        let mut next = self.clone();
        let from = self.rules.numbering.coord(mv.from);
        let piece = self.at(from).flatten().expect("a piece to move");
        next.set(from, None);
        for &n in &mv.captured {
            next.set(self.rules.numbering.coord(n), None);
        }
        let role = if mv.crowns { Role::King } else { piece.1 };
        next.set(self.rules.numbering.coord(mv.to), Some((piece.0, role)));
        next.turn = self.turn.opponent();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.generate();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|mv| self.play(mv).perft(depth - 1)).sum()
    }

    /// The file and rank of square `n` in this variant's numbering.
    pub fn coord(&self, n: u32) -> Coord {
        self.rules.numbering.coord(n)
    }
}
