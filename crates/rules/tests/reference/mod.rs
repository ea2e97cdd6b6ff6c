//! A deliberately simple reference move generator, written straight from docs/rules.md.
//!
//! It shares no code with the library: a plain 8x8 array of cells, coordinates as
//! `(file, rank)` pairs, and plain recursion over jumps. The only contact with the library is
//! reading a [`Position`] into the array (`piece_at`, `Square::all`, `Square::from_coords`)
//! and naming squares by their numbers. It is slow on purpose; being obviously right is its
//! whole job.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::{BTreeMap, BTreeSet};

use checkers_rules::{Color, Move, Position, Role, Square, Variant};

/// A square as `(file, rank)`: file 0 = a, rank 0 = rank 1 (White's side).
pub type Coord = (i32, i32);

const ALL_DIRECTIONS: [Coord; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// A move as docs/rules.md defines it: start, end, captured set (square numbers, ascending), and
/// whether the piece ends as a newly crowned king.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
    pub crowns: bool,
}

impl RefMove {
    /// The same description of a library move, read through its public accessors.
    pub fn of(mv: &Move) -> RefMove {
        let mut captured: Vec<u32> = mv.captured().into_iter().map(|s| s.number()).collect();
        captured.sort_unstable();
        RefMove { from: mv.from().number(), to: mv.to().number(), captured, crowns: mv.crowns() }
    }

    /// The Hub protocol text: `from-to`, or `fromxtoxc1xc2...` with captured squares ascending.
    pub fn hub(&self) -> String {
        if self.captured.is_empty() {
            return format!("{}-{}", self.from, self.to);
        }
        let mut parts = vec![self.from.to_string(), self.to.to_string()];
        parts.extend(self.captured.iter().map(u32::to_string));
        parts.join("x")
    }
}

/// One leg of a capture: the piece jumped, where the capturer lands, and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Leg {
    over: Coord,
    land: Coord,
    direction: Coord,
}

/// Everything the reference says about a position.
#[derive(Debug, Default)]
pub struct Generated {
    /// The legal moves.
    pub moves: BTreeSet<RefMove>,
    /// For each capture move, the texts (square numbers joined by `x`) of its routes, written
    /// by the convention of docs/rules.md: every square the piece stops on, except that where a
    /// flying king goes on capturing in the same direction the stop named is the square just
    /// beyond the piece it captured.
    pub capture_texts: BTreeMap<RefMove, BTreeSet<String>>,
    /// The number of distinct jump routes (landing sequences) over all captures: what
    /// `perft --paths` counts at depth 1.
    pub capture_paths: usize,
}

/// The board as a plain array, with the side to move and the rules to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `cells[file][rank]`.
    cells: [[Option<(Color, Role)>; 8]; 8],
    turn: Color,
    variant: Variant,
}

fn on_board((f, r): Coord) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn plus((f, r): Coord, (df, dr): Coord) -> Coord {
    (f + df, r + dr)
}

/// The standard number of a dark square.
pub fn number_of((f, r): Coord) -> u32 {
    Square::from_coords(f as u32, r as u32).expect("reference only walks dark squares").number()
}

fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

fn crowning_rank(color: Color) -> i32 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

impl Board {
    pub fn from_position(position: &Position) -> Board {
        let mut cells = [[None; 8]; 8];
        for square in Square::all() {
            if let Some(piece) = position.piece_at(square) {
                cells[square.file() as usize][square.rank() as usize] = Some((piece.color, piece.role));
            }
        }
        Board { cells, turn: position.turn(), variant: position.variant() }
    }

    fn at(&self, (f, r): Coord) -> Option<(Color, Role)> {
        self.cells[f as usize][r as usize]
    }

    fn set(&mut self, (f, r): Coord, cell: Option<(Color, Role)>) {
        self.cells[f as usize][r as usize] = cell;
    }

    fn own_pieces(&self) -> Vec<(Coord, Role)> {
        let mut out = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                if let Some((color, role)) = self.at((f, r)) {
                    if color == self.turn {
                        out.push(((f, r), role));
                    }
                }
            }
        }
        out
    }

    /// The legal moves: captures if any capture exists, otherwise quiet moves.
    pub fn generate(&self) -> Generated {
        let mut generated = Generated::default();
        for (from, role) in self.own_pieces() {
            // The moving piece's start square counts as empty during its sequence.
            let mut board = self.clone();
            board.set(from, None);
            let mut legs = Vec::new();
            board.follow_captures(from, from, role, false, &mut legs, &mut generated);
        }
        if generated.moves.is_empty() {
            for (from, role) in self.own_pieces() {
                self.quiet_moves(from, role, &mut generated.moves);
            }
        }
        generated
    }

    fn quiet_moves(&self, from: Coord, role: Role, out: &mut BTreeSet<RefMove>) {
        let flying = self.variant == Variant::Russian;
        for direction in ALL_DIRECTIONS {
            if role == Role::Man && direction.1 != forward(self.turn) {
                continue;
            }
            let mut to = plus(from, direction);
            while on_board(to) && self.at(to).is_none() {
                let crowns = role == Role::Man && to.1 == crowning_rank(self.turn);
                out.insert(RefMove { from: number_of(from), to: number_of(to), captured: vec![], crowns });
                if role == Role::Man || !flying {
                    break;
                }
                to = plus(to, direction);
            }
        }
    }

    /// The jumps a piece of `role` standing on `at` can make, given the pieces already
    /// captured in this move (still on the board: they block and can't be jumped again).
    /// Each is the jumped piece, the direction, and the squares it may land on.
    fn jumps(&self, at: Coord, role: Role, legs: &[Leg]) -> Vec<(Coord, Coord, Vec<Coord>)> {
        let already = |sq: Coord| legs.iter().any(|leg| leg.over == sq);
        let enemy = self.turn.opponent();
        let mut out = Vec::new();
        for direction in ALL_DIRECTIONS {
            let men_capture_backwards = self.variant == Variant::Russian;
            if role == Role::Man && !men_capture_backwards && direction.1 != forward(self.turn) {
                continue;
            }
            let flying = role == Role::King && self.variant == Variant::Russian;
            // Find the first occupied square along the diagonal (the adjacent one, unless
            // the king flies over empty squares).
            let mut over = plus(at, direction);
            if flying {
                while on_board(over) && self.at(over).is_none() {
                    over = plus(over, direction);
                }
            }
            if !on_board(over) || already(over) {
                continue;
            }
            match self.at(over) {
                Some((color, _)) if color == enemy => {}
                _ => continue,
            }
            let mut landings = Vec::new();
            let mut land = plus(over, direction);
            while on_board(land) && self.at(land).is_none() {
                landings.push(land);
                if !flying {
                    break;
                }
                land = plus(land, direction);
            }
            if !landings.is_empty() {
                out.push((over, direction, landings));
            }
        }
        out
    }

    /// Follows every capture route from `at`; records each finished one.
    fn follow_captures(
        &self,
        from: Coord,
        at: Coord,
        role: Role,
        crowned: bool,
        legs: &mut Vec<Leg>,
        out: &mut Generated,
    ) {
        let jumps = self.jumps(at, role, legs);
        if jumps.is_empty() {
            if !legs.is_empty() {
                self.record(from, at, crowned, legs, out);
            }
            return;
        }
        for (over, direction, landings) in jumps {
            // A king that could land on several squares must land on one from which the
            // capture goes on, if there is such a square.
            let mut chosen = landings.clone();
            if landings.len() > 1 {
                legs.push(Leg { over, land: at, direction });
                let going_on: Vec<Coord> =
                    landings.iter().copied().filter(|&l| !self.jumps(l, role, legs).is_empty()).collect();
                legs.pop();
                if !going_on.is_empty() {
                    chosen = going_on;
                }
            }
            for land in chosen {
                legs.push(Leg { over, land, direction });
                let reaches_crown = role == Role::Man && land.1 == crowning_rank(self.turn);
                match (reaches_crown, self.variant) {
                    // English: crowning ends the move.
                    (true, Variant::English) => self.record(from, land, true, legs, out),
                    // Russian: crowned at once, goes on capturing as a king if it can.
                    (true, _) => self.follow_captures(from, land, Role::King, true, legs, out),
                    (false, _) => self.follow_captures(from, land, role, crowned, legs, out),
                }
                legs.pop();
            }
        }
    }

    fn record(&self, from: Coord, to: Coord, crowns: bool, legs: &[Leg], out: &mut Generated) {
        let mut captured: Vec<u32> = legs.iter().map(|leg| number_of(leg.over)).collect();
        captured.sort_unstable();
        let mv = RefMove { from: number_of(from), to: number_of(to), captured, crowns };
        let mut stops = vec![number_of(from)];
        for (i, leg) in legs.iter().enumerate() {
            let goes_on_straight = legs.get(i + 1).is_some_and(|next| next.direction == leg.direction);
            let named = if goes_on_straight { plus(leg.over, leg.direction) } else { leg.land };
            stops.push(number_of(named));
        }
        let text = stops.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
        out.capture_paths += 1;
        out.capture_texts.entry(mv.clone()).or_default().insert(text);
        out.moves.insert(mv);
    }

    /// The board after a move (which must be one of this board's legal moves).
    pub fn play(&self, mv: &RefMove) -> Board {
        let coord = |n: u32| {
            let sq = Square::from_number(n).expect("move squares are squares");
            (sq.file() as i32, sq.rank() as i32)
        };
        let mut next = self.clone();
        let piece = next.at(coord(mv.from)).expect("a piece moves");
        next.set(coord(mv.from), None);
        for &c in &mv.captured {
            next.set(coord(c), None);
        }
        let role = if mv.crowns { Role::King } else { piece.1 };
        next.set(coord(mv.to), Some((piece.0, role)));
        next.turn = self.turn.opponent();
        next
    }
}
