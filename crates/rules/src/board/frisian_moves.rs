//! Legal moves of Frisian draughts and Frysk! on the 10x10 board, on bitboards
//! (docs/rules.md, "Frisian draughts").
//!
//! Men step one square diagonally forward, kings fly diagonally. Both capture in eight
//! directions: the four diagonals, and along files and ranks, where the next square is the
//! next dark one, two squares away: a man jumps a piece on that square to the one beyond, a
//! king flies along the line as along a diagonal. Captured pieces stay on the board until the
//! move ends (they block, and none is taken twice); the start square counts as empty. The
//! capture of the highest value is compulsory, a man counting 100 and a king 199 (so `n`
//! kings are worth less than `2n` men and more than `2n - 1`), and between captures of equal
//! value one by a king goes before one by a man. A man is crowned only where its move ends.
//! A king that has made three quiet moves in a row may not make a fourth while its side has
//! men; the position carries that run ([`KingMoves`](super::KingMoves), frisian.rs).

use super::bits::{shift, Bits, EachBit};
use super::frisian::{blocked_king, FrisianFamily};
use super::geometry::{Dark10, Geometry};
use super::moves::{BoardMove, BoardMoves};
use super::position::Board;
use super::rules::MoveRules;
use crate::position::Color;

const BOARD: u64 = Dark10::BOARD;

/// The squares of the 10x10 board except those in column `skip` (0-4) of their row.
const fn all_but_column(skip: u32) -> u64 {
    let mut bits = 0u64;
    let mut i = 0;
    while i < 50 {
        if i % 5 != skip {
            bits |= 1 << (i + i / 10);
        }
        i += 1;
    }
    bits
}

/// One rank up (towards square 1) on the same file: two rows, so 11 bits in Scan's layout
/// (two rows of five and their ghost). Off the top or bottom it leaves the board's bits.
const UP: i32 = Dark10::UP_LEFT + Dark10::UP_RIGHT;
/// One file right on the same rank: the next square of the row, one bit on. Only the last
/// square of a row must not step right (it would land on the next row), and only the first
/// must not step left.
const RIGHT: i32 = 1;

/// The eight capture directions as (layout step, squares a step may start from), each next
/// to its opposite (`d ^ 1`).
const DIRECTIONS: [(i32, u64); 8] = [
    (Dark10::UP_RIGHT, BOARD),
    (Dark10::DOWN_LEFT, BOARD),
    (Dark10::UP_LEFT, BOARD),
    (Dark10::DOWN_RIGHT, BOARD),
    (UP, BOARD),
    (-UP, BOARD),
    (RIGHT, all_but_column(4)),
    (-RIGHT, all_but_column(0)),
];

const DIAGONALS: [i32; 4] = [Dark10::UP_RIGHT, Dark10::DOWN_LEFT, Dark10::UP_LEFT, Dark10::DOWN_RIGHT];

/// The squares one step from `bits` in direction `d` (an index of [`DIRECTIONS`]); steps off
/// the board land on no square of [`BOARD`].
#[inline(always)]
fn step(bits: u64, d: usize) -> u64 {
    let (by, from) = DIRECTIONS[d];
    shift(bits & from, by)
}

/// What the generator needs of a position, seen from the side to move.
struct Sides {
    white: bool,
    men: u64,
    kings: u64,
    enemy: u64,
    enemy_kings: u64,
    empty: u64,
    /// The king that may not make a quiet move now (or none).
    blocked: u64,
}

fn sides<V: FrisianFamily>(board: &Board<V>) -> Sides {
    let white = board.turn() == Color::White;
    let (own, enemy) = (board.side_bits(board.turn()), board.side_bits(board.turn().opponent()));
    let kings = board.kings & BOARD;
    Sides {
        white,
        men: own & !kings,
        kings: own & kings,
        enemy,
        enemy_kings: enemy & kings,
        empty: BOARD & !(own | enemy),
        blocked: blocked_king(board),
    }
}

/// A capture's priority: its value (a man 100, a king 199) times two, plus one when a king
/// makes it, so the largest key is the capture the rules oblige.
fn capture_key(captured: u64, enemy_kings: u64, by_king: bool) -> u32 {
    let kings = (captured & enemy_kings).count();
    let men = captured.count() - kings;
    2 * (100 * men + 199 * kings) + u32::from(by_king)
}

/// Where finished captures go, each with its key; `step`/`back` bracket each landing so a
/// recorder can keep the route.
trait Sink {
    fn step(&mut self, _landing: u64) {}
    fn back(&mut self) {}
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool, key: u32);
}

/// Keeps the captures of the largest key in a list, each move once.
struct ListSink<'a, V: FrisianFamily> {
    list: &'a mut BoardMoves<V>,
    best: u32,
}

impl<V: FrisianFamily> Sink for ListSink<'_, V> {
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool, key: u32) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.list.clear();
        }
        self.list.push_unique(BoardMove::new(from, to, captured, crowns));
    }
}

/// Notes whether there is any capture.
struct AnySink(bool);

impl Sink for AnySink {
    fn finish(&mut self, _: u64, _: u64, _: u64, _: bool, _: u32) {
        self.0 = true;
    }
}

/// Every capture route with the squares it stops on and its key.
#[derive(Default)]
struct RouteSink<V: FrisianFamily> {
    path: Vec<u32>,
    routes: Vec<(BoardMove<V>, Vec<u32>, u32)>,
}

fn number(bit: u64) -> u32 {
    Dark10::number_of(bit.lowest_index())
}

impl<V: FrisianFamily> Sink for RouteSink<V> {
    fn step(&mut self, landing: u64) {
        self.path.push(number(landing));
    }
    fn back(&mut self) {
        self.path.pop();
    }
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool, key: u32) {
        let mut route = vec![number(from)];
        route.extend_from_slice(&self.path);
        self.routes.push((BoardMove::new(from, to, captured, crowns), route, key));
    }
}

/// One piece's capture search.
struct Hunt {
    from: u64,
    /// Empty squares, the moving piece's start square among them.
    empty: u64,
    enemy: u64,
    enemy_kings: u64,
    crown_row: u64,
}

impl Hunt {
    /// A man on `at` having taken `captured`: every way on from there.
    fn man<K: Sink>(&self, at: u64, captured: u64, out: &mut K) {
        let mut jumped = false;
        for d in 0..DIRECTIONS.len() {
            let over = step(at, d) & self.enemy & !captured;
            let land = step(over, d) & self.empty;
            if land.is_zero() {
                continue;
            }
            jumped = true;
            out.step(land);
            self.man(land, captured | over, out);
            out.back();
        }
        if !jumped && !captured.is_zero() {
            let key = capture_key(captured, self.enemy_kings, false);
            out.finish(self.from, at, captured, !(at & self.crown_row).is_zero(), key);
        }
    }

    /// The enemy piece a king on `at` can take in direction `d` (the first piece on the
    /// line, not yet taken, with an empty square behind it), or nothing.
    fn king_target(&self, at: u64, d: usize, captured: u64) -> u64 {
        let mut sq = step(at, d);
        while !(sq & self.empty).is_zero() {
            sq = step(sq, d);
        }
        let over = sq & self.enemy & !captured;
        if (step(over, d) & self.empty).is_zero() {
            0
        } else {
            over
        }
    }

    /// A flying king on `at` having taken `captured`: every capture on from there. Where it
    /// could land on several squares and the capture goes on from some, only those can give
    /// the capture of the highest value, so only those are followed.
    fn king<K: Sink>(&self, at: u64, captured: u64, out: &mut K) {
        let mut jumped = false;
        for d in 0..DIRECTIONS.len() {
            let over = self.king_target(at, d, captured);
            if over.is_zero() {
                continue;
            }
            jumped = true;
            let taken = captured | over;
            let mut landings = 0u64;
            let mut sq = step(over, d) & self.empty;
            while !sq.is_zero() {
                landings |= sq;
                sq = step(sq, d) & self.empty;
            }
            let going_on: u64 = EachBit(landings)
                .filter(|&l| (0..DIRECTIONS.len()).any(|e| !self.king_target(l, e, taken).is_zero()))
                .fold(0, |acc, l| acc | l);
            for l in EachBit(if going_on == 0 { landings } else { going_on }) {
                out.step(l);
                if going_on == 0 {
                    out.finish(self.from, l, taken, false, capture_key(taken, self.enemy_kings, true));
                } else {
                    self.king(l, taken, out);
                }
                out.back();
            }
        }
        if !jumped && !captured.is_zero() {
            out.finish(self.from, at, captured, false, capture_key(captured, self.enemy_kings, true));
        }
    }
}

/// Sends every capture of the side to move to `out`, whatever its value.
fn captures<K: Sink>(s: &Sides, out: &mut K) {
    let crown_row = if s.white { Dark10::TOP_ROW } else { Dark10::BOTTOM_ROW };
    for (pieces, king) in [(s.men, false), (s.kings, true)] {
        for from in EachBit(pieces) {
            let hunt =
                Hunt { from, empty: s.empty | from, enemy: s.enemy, enemy_kings: s.enemy_kings, crown_row };
            if king {
                hunt.king(from, 0, out);
            } else {
                hunt.man(from, 0, out);
            }
        }
    }
}

/// Calls `f(from, to, crowns)` for every quiet move: men forward, then each king but the
/// blocked one.
fn for_each_quiet(s: &Sides, mut f: impl FnMut(u64, u64, bool)) {
    let (forward, crown_row) = if s.white {
        ([Dark10::UP_RIGHT, Dark10::UP_LEFT], Dark10::TOP_ROW)
    } else {
        ([Dark10::DOWN_RIGHT, Dark10::DOWN_LEFT], Dark10::BOTTOM_ROW)
    };
    for d in forward {
        for to in EachBit(shift(s.men, d) & s.empty) {
            f(shift(to, -d), to, !(to & crown_row).is_zero());
        }
    }
    for from in EachBit(s.kings & !s.blocked) {
        for d in DIAGONALS {
            let mut to = shift(from, d) & s.empty;
            while !to.is_zero() {
                f(from, to, false);
                to = shift(to, d) & s.empty;
            }
        }
    }
}

/// Frisian draughts' move rules (Frisian and Frysk!): captures in eight directions, the
/// capture of the highest value compulsory, and a king's run of quiet moves limited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FrisianMoves;

impl<V: FrisianFamily> MoveRules<V> for FrisianMoves {
    fn generate(board: &Board<V>, list: &mut BoardMoves<V>) {
        let s = sides(board);
        captures(&s, &mut ListSink { list, best: 0 });
        if list.is_empty() {
            for_each_quiet(&s, |from, to, crowns| list.push(BoardMove::new(from, to, 0, crowns)));
        }
    }

    fn capture_routes(board: &Board<V>) -> Vec<(BoardMove<V>, Vec<u32>)> {
        let mut sink = RouteSink::default();
        captures(&sides(board), &mut sink);
        let best = sink.routes.iter().map(|(_, _, key)| *key).max().unwrap_or(0);
        sink.routes.into_iter().filter(|(_, _, key)| *key == best).map(|(mv, route, _)| (mv, route)).collect()
    }

    fn has_legal_move(board: &Board<V>) -> bool {
        let s = sides(board);
        let mut any = false;
        for_each_quiet(&s, |_, _, _| any = true);
        any || {
            let mut found = AnySink(false);
            captures(&s, &mut found);
            found.0
        }
    }

    fn play(board: &Board<V>, mv: &BoardMove<V>) -> Board<V> {
        super::frisian::play(board, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every capture direction from every square reaches exactly the next dark square on
    /// that line (the diagonal neighbour, or two files or two ranks away), or no square.
    #[test]
    fn eight_directions_reach_the_next_square_on_their_line() {
        let lines = [(1, 1), (-1, -1), (-1, 1), (1, -1), (0, 2), (0, -2), (2, 0), (-2, 0)];
        for number in 1..=Dark10::SQUARES {
            let bit = 1u64 << Dark10::index_of(number).unwrap();
            let (file, rank) = Dark10::coords(number);
            for (d, (df, dr)) in lines.iter().enumerate() {
                let target = step(bit, d) & BOARD;
                let expected = Dark10::at(file as i32 + df, rank as i32 + dr);
                let found = (!target.is_zero()).then(|| number_of_bit(target));
                assert_eq!(found, expected, "square {number}, direction {d}");
            }
        }
        for d in 0..DIRECTIONS.len() {
            assert_eq!(DIRECTIONS[d].0, -DIRECTIONS[d ^ 1].0, "direction {d} sits by its opposite");
        }
    }

    fn number_of_bit(bit: u64) -> u32 {
        assert_eq!(bit.count_ones(), 1);
        number(bit)
    }

    #[test]
    fn keys_follow_the_value_rule() {
        let kings = 0b111u64;
        let key = |men: u32, taken_kings: u32, by_king| {
            let captured = (kings & ((1 << taken_kings) - 1)) | (((1u64 << men) - 1) << 8);
            capture_key(captured, kings, by_king)
        };
        assert!(key(2, 0, false) > key(0, 1, true), "two men beat one king");
        assert!(key(0, 1, false) > key(1, 0, true), "a king beats a man");
        assert!(key(0, 3, false) > key(5, 0, true), "three kings beat five men");
        assert!(key(6, 0, false) > key(0, 3, true), "six men beat three kings");
        assert!(key(1, 1, true) > key(1, 1, false), "a king's capture goes first at equal value");
    }
}
