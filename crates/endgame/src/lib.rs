//! Endgame databases: the result with best play (win, loss or draw for the side to move) of
//! every position with at most a few pieces, built in memory by retrograde analysis on the
//! rules library's move generator, so they agree with the rules by construction.
//!
//! A database is built from the smallest endings up: a capture leads to fewer pieces and a
//! crowning to fewer men, so every move out of a group of positions with the same pieces
//! (a *slice*) lands in a slice already solved or in the slice itself. Within a slice, the
//! positions are solved backwards from the lost ones: a predecessor of a loss is a win, and a
//! position all of whose moves lead to wins for the opponent is a loss. What is left when
//! nothing more follows is a draw (the game goes round in circles).
//!
//! A solved database can be saved to disk and read back by the same build
//! ([`Database::cached`]), which takes milliseconds where solving takes about a second.
//!
//! Values are game-theoretic and count no moves: they know nothing of the Russian rules that
//! call a game drawn after so many king moves, so a Russian "win" may be one those rules cut
//! short. This crate depends only on `checkers-rules`; it knows nothing of search.

mod index;
mod store;

use std::collections::VecDeque;

use checkers_rules::{Color, MoveList, Position, SquareSet, Variant};
use thiserror::Error;

use index::{Material, SliceIndex};
pub use store::{cache_file, LoadError, SOURCE_FINGERPRINT};

/// The result of a position with best play, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

impl Value {
    /// The same result seen by the other side.
    pub fn flipped(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// The most pieces a database may hold: five already take 65 MB and half a minute to solve.
pub const MAX_PIECES: u32 = 5;

/// A database that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    #[error("an endgame database holds 2 to {MAX_PIECES} pieces, not {0}")]
    Pieces(u32),
}

/// The values of every position of a variant with at most `max_pieces` pieces.
pub struct Database {
    variant: Variant,
    max_pieces: u32,
    /// Indexed by [`Material::key`]; `None` for piece counts beyond the database.
    slices: Vec<Option<Slice>>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The values themselves are megabytes of bits.
        f.debug_struct("Database")
            .field("variant", &self.variant)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// The values of one slice, two bits a position, one array for each side to move.
struct Slice {
    index: SliceIndex,
    /// `[White to move, Black to move]`.
    packed: [Vec<u8>; 2],
    /// Positions (not numbers that name none) won, lost and drawn.
    counts: [u64; 3],
}

// Two-bit codes in a packed slice.
const PACKED_DRAW: u8 = 0;
const PACKED_WIN: u8 = 1;
const PACKED_LOSS: u8 = 2;

impl Slice {
    fn get(&self, turn: Color, index: usize) -> Value {
        let byte = self.packed[side(turn)][index / 4];
        match (byte >> (2 * (index % 4))) & 3 {
            PACKED_WIN => Value::Win,
            PACKED_LOSS => Value::Loss,
            _ => Value::Draw,
        }
    }
}

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

impl Database {
    /// Solves every position of `variant` with 2 to `max_pieces` pieces (both sides on the
    /// board). Four pieces take a few seconds; five, minutes.
    pub fn build(variant: Variant, max_pieces: u32) -> Result<Database, BuildError> {
        if !(2..=MAX_PIECES).contains(&max_pieces) {
            return Err(BuildError::Pieces(max_pieces));
        }
        let mut db = Database { variant, max_pieces, slices: Vec::new() };
        db.slices.resize_with(Material::key_count(max_pieces), || None);
        for material in Material::solving_order(max_pieces) {
            let slice = db.solve(material);
            db.slices[material.key(max_pieces)] = Some(slice);
        }
        Ok(db)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The largest number of pieces of a position the database answers for.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// How many positions (each side to move counted apart) are won, lost and drawn for the
    /// side to move.
    pub fn counts(&self) -> [u64; 3] {
        let mut total = [0; 3];
        for slice in self.slices.iter().flatten() {
            // A stored slice stands for its colour-swapped twin too, unless it is its own.
            let twins = if slice.index.material().mirrored() == slice.index.material() { 1 } else { 2 };
            for (t, c) in total.iter_mut().zip(slice.counts) {
                *t += twins * c;
            }
        }
        total
    }

    /// The value of `position` for its side to move, or `None` when it has more pieces than
    /// the database holds, belongs to another variant, or one side has no pieces left.
    pub fn probe(&self, position: &Position) -> Option<Value> {
        if position.variant() != self.variant {
            return None;
        }
        let (mut sets, mut turn) = (sets_of(position), position.turn());
        let mut material = Material::of(&sets);
        if material.total() > self.max_pieces || !material.both_sides_on_board() {
            return None;
        }
        if !material.is_canonical() {
            // The stored twin: the board turned half round and the colours swapped.
            (sets, turn, material) = (mirrored(sets), turn.opponent(), material.mirrored());
        }
        let slice = self.slices[material.key(self.max_pieces)].as_ref()?;
        Some(slice.get(turn, slice.index.index(&sets)))
    }

    /// A position's value while building: it lies in a slice solved already. A side with no
    /// pieces has lost.
    fn solved(&self, position: &Position) -> Value {
        if position.pieces(position.turn()).is_empty() {
            return Value::Loss;
        }
        self.probe(position).expect("moves lead to slices solved before")
    }

    fn solve(&self, material: Material) -> Slice {
        let index = SliceIndex::new(material);
        let size = index.size();
        // Entry `2 * i + side(turn)` is position `i` with `turn` to move.
        let mut state = vec![UNKNOWN; 2 * size];
        let mut moves_left = vec![0u8; 2 * size];

        // Forward pass, split among threads: every position's moves out of the slice are
        // looked up (in slices solved before, which no thread writes); those that stay in it
        // are counted.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(16);
        let chunk = size.div_ceil(threads).max(1);
        let mut solved_here: VecDeque<usize> = std::thread::scope(|scope| {
            let workers: Vec<_> = state
                .chunks_mut(2 * chunk)
                .zip(moves_left.chunks_mut(2 * chunk))
                .enumerate()
                .map(|(n, (state, moves_left))| {
                    scope.spawn(move || self.forward(&index, n * chunk, state, moves_left))
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().expect("a solving thread panicked")).collect()
        });

        // Backward pass: each solved position settles or counts down its predecessors.
        while let Some(entry) = solved_here.pop_front() {
            let (i, turn) = (entry / 2, COLORS[entry % 2]);
            let won = state[entry] == WIN;
            let mover = turn.opponent();
            for_each_unmove(self.variant, mover, index.sets(i), |before| {
                let before = 2 * index.index(&before) + side(mover);
                let s = &mut state[before];
                if *s != UNKNOWN {
                    return;
                }
                if !won {
                    *s = WIN;
                    solved_here.push_back(before);
                    return;
                }
                let left = &mut moves_left[before];
                *left -= 1;
                if *left & !DRAW_OUT == 0 {
                    if *left & DRAW_OUT != 0 {
                        *s = DRAW;
                    } else {
                        *s = LOSS;
                        solved_here.push_back(before);
                    }
                }
            });
        }

        let mut counts = [0u64; 3];
        let mut packed = [vec![0u8; size.div_ceil(4)], vec![0u8; size.div_ceil(4)]];
        for (entry, &s) in state.iter().enumerate() {
            let (i, side) = (entry / 2, entry % 2);
            let code = match s {
                WIN => PACKED_WIN,
                LOSS => PACKED_LOSS,
                _ => PACKED_DRAW,
            };
            if s != INVALID {
                // Unknown at the end means drawn.
                counts[match s {
                    WIN => 0,
                    LOSS => 1,
                    _ => 2,
                }] += 1;
            }
            packed[side][i / 4] |= code << (2 * (i % 4));
        }
        Slice { packed, counts, index }
    }

    /// The forward pass over the positions numbered from `first`, whose entries `state` and
    /// `moves_left` hold; returns the entries it solved as wins or losses.
    fn forward(
        &self,
        index: &SliceIndex,
        first: usize,
        state: &mut [u8],
        moves_left: &mut [u8],
    ) -> Vec<usize> {
        let mut solved = Vec::new();
        // One list for the whole pass: a fresh one per position spent a fifth of the build
        // allocating.
        let mut moves = MoveList::new();
        let mut sets = index.sets(first);
        for local in 0..state.len() {
            let (i, turn) = (first + local / 2, COLORS[local % 2]);
            if local % 2 == 0 && local > 0 {
                sets = index.sets(i);
            }
            let Ok(position) = Position::from_sets(self.variant, turn, sets) else {
                state[local] = INVALID;
                continue;
            };
            let mut inside = 0u32;
            let mut draw_out = false;
            let mut won = false;
            position.generate_moves(&mut moves);
            for mv in moves.iter() {
                if !mv.is_capture() && !mv.crowns() {
                    inside += 1;
                    continue;
                }
                match self.solved(&position.play_unchecked(mv)) {
                    Value::Loss => {
                        won = true;
                        break;
                    }
                    Value::Draw => draw_out = true,
                    Value::Win => {}
                }
            }
            if won || inside == 0 {
                state[local] = if won {
                    WIN
                } else if draw_out {
                    DRAW
                } else {
                    LOSS
                };
                if state[local] != DRAW {
                    solved.push(2 * first + local);
                }
            } else {
                debug_assert!(inside < 128);
                moves_left[local] = inside as u8 | if draw_out { DRAW_OUT } else { 0 };
            }
        }
        solved
    }
}

// States while solving a slice.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
const INVALID: u8 = 4;
/// Set in a count of moves left when some move out of the slice draws.
const DRAW_OUT: u8 = 0x80;

/// `[white men, white kings, black men, black kings]`, as [`Position::from_sets`] takes them.
fn sets_of(position: &Position) -> [SquareSet; 4] {
    let kings = position.kings();
    let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
    [white.difference(kings), white.intersection(kings), black.difference(kings), black.intersection(kings)]
}

/// The same position with the board turned half round and the colours swapped: White's men
/// become Black's, and so on. The rules of both variants look the same from either side.
fn mirrored([white_men, white_kings, black_men, black_kings]: [SquareSet; 4]) -> [SquareSet; 4] {
    // Turning the board half round takes bit `rank * 8 + file` to `63 - that`.
    let turn = |s: SquareSet| SquareSet::from_bits(s.bits().reverse_bits());
    [turn(black_men), turn(black_kings), turn(white_men), turn(white_kings)]
}

/// One step in each diagonal direction (towards rank 8 for `up`); bits leaving the board or
/// wrapping to a light square are dropped.
fn step(bit: u64, direction: usize) -> u64 {
    let moved = match direction {
        0 => bit << 7,
        1 => bit << 9,
        2 => bit >> 7,
        _ => bit >> 9,
    };
    SquareSet::from_bits(moved).bits()
}

/// Calls `f` with every position (as sets) from which `mover` reaches `sets` by a move that
/// captures nothing and crowns nothing: a man one step back, a king one step (English) or any
/// free distance (Russian) in any direction.
fn for_each_unmove(variant: Variant, mover: Color, sets: [SquareSet; 4], mut f: impl FnMut([SquareSet; 4])) {
    let occupied = sets.iter().fold(0u64, |acc, s| acc | s.bits());
    let (men, kings) = match mover {
        Color::White => (0, 1),
        Color::Black => (2, 3),
    };
    // White men move up the board, so they came from below; Black men the other way.
    let back = match mover {
        Color::White => [2, 3],
        Color::Black => [0, 1],
    };
    let flying = variant == Variant::Russian;
    let mut moved = |group: usize, from: u64, to: u64| {
        let mut before = sets;
        before[group] = SquareSet::from_bits(before[group].bits() & !to | from);
        f(before);
    };
    for to in bits(sets[men].bits()) {
        for direction in back {
            let from = step(to, direction);
            if from != 0 && from & occupied == 0 {
                moved(men, from, to);
            }
        }
    }
    for to in bits(sets[kings].bits()) {
        for direction in 0..4 {
            let mut from = step(to, direction);
            while from != 0 && from & occupied == 0 {
                moved(kings, from, to);
                if !flying {
                    break;
                }
                from = step(from, direction);
            }
        }
    }
}

/// The single bits of a bitboard.
fn bits(mut b: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let low = b & b.wrapping_neg();
            b ^= low;
            low
        })
    })
}

#[cfg(test)]
mod tests;
