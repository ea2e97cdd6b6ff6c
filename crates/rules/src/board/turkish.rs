//! Turkish draughts (Dama) on the full 8x8 board (docs/rules.md, "Turkish draughts").
//!
//! Every piece moves along ranks and files, never diagonally: a man one square forward or
//! sideways, capturing forward or sideways by jumping an adjacent piece; a king any distance
//! in the four directions, capturing any piece on its line with an empty square behind it and
//! landing on any empty square beyond. A captured piece comes off the board as soon as it is
//! jumped, so a later jump may cross its square; a king may not turn back (180 degrees)
//! between two jumps. Capturing is compulsory, and so is the capture of the most pieces (kings
//! count as men). A man that reaches the last rank during a capture goes on capturing as a
//! man (along that rank) and is crowned where the move ends.
//!
//! The board is [`Full8`], a geometry of its own: the [`Geometry`] of the dark-square boards
//! would leave half the squares out, and the International family's generator
//! ([`MajorityCapture`](super::MajorityCapture)) keeps captured pieces on the board until the
//! move ends, so the moves are found here, jump by jump on a board from which each captured
//! piece has gone.

use super::bits::{shift, EachBit};
use super::game::{BoardDrawReason, BoardOutcome};
use super::geometry::{Full8, Geometry};
use super::movegen::{CaptureSink, ListSink, RouteRecorder};
use super::moves::{BoardMove, BoardMoves};
use super::position::{Board, RuleSet};
use super::rules::{no_legal_move_loses, MoveRules, Referee};
use crate::position::Color;

/// Turkish draughts: sixteen men a side on the 64 squares, White on ranks 2 and 3, Black on
/// ranks 6 and 7, White moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

impl RuleSet for Turkish {
    type Geometry = Full8;
    type Moves = TurkishMoves;
    type Referee = TurkishReferee;
    const NAME: &'static str = "turkish";
    const START_ROWS: u32 = 2;
    const EMPTY_BACK_ROWS: u32 = 1;
}

const DIRS: [i32; 4] = [Full8::UP, Full8::DOWN, Full8::LEFT, Full8::RIGHT];

/// The parts of a position the generator needs, seen from the side to move.
struct View {
    men: u128,
    kings: u128,
    enemy: u128,
    empty: u128,
    /// The men's forward step.
    forward: i32,
    /// The rank where the men are crowned.
    crown: u128,
}

impl View {
    fn of(board: &Board<Turkish>) -> View {
        let (own, enemy, forward, crown) = match board.turn() {
            Color::White => (board.white, board.black, Full8::UP, Full8::TOP_ROW),
            Color::Black => (board.black, board.white, Full8::DOWN, Full8::BOTTOM_ROW),
        };
        View {
            men: own & !board.kings,
            kings: own & board.kings,
            enemy,
            empty: Full8::BOARD & !(own | enemy),
            forward,
            crown,
        }
    }

    /// A man's three directions: forward, left, right.
    fn man_dirs(&self) -> [i32; 3] {
        [self.forward, Full8::LEFT, Full8::RIGHT]
    }

    fn has_capture(&self) -> bool {
        let mut found = 0;
        for d in self.man_dirs() {
            found |= shift(shift(self.men, d) & self.enemy, d) & self.empty;
        }
        if self.kings != 0 {
            for d in DIRS {
                let reach = fill(self.kings, self.empty, d);
                found |= shift(shift(reach, d) & self.enemy, d) & self.empty;
            }
        }
        found != 0
    }

    /// The number of quiet moves (meaningful when there is no capture).
    fn count_quiet(&self) -> u64 {
        let mut n = 0;
        for d in self.man_dirs() {
            n += (shift(self.men, d) & self.empty).count_ones();
        }
        for d in DIRS {
            // Kings on one line block each other, so the squares they reach are disjoint.
            n += (fill(self.kings, self.empty, d) & !self.kings).count_ones();
        }
        u64::from(n)
    }
}

/// `gen` and every square its pieces reach by sliding through `empty` in direction `d`.
#[inline(always)]
fn fill(gen: u128, empty: u128, d: i32) -> u128 {
    let mut reach = gen;
    for _ in 0..7 {
        reach |= shift(reach, d) & empty;
    }
    reach
}

/// The first square from `at` in direction `d` that is not in `empty` (a piece, or off the
/// board: then no enemy matches it).
#[inline(always)]
fn first_blocker(at: u128, empty: u128, d: i32) -> u128 {
    let mut sq = shift(at, d);
    while sq & empty != 0 {
        sq = shift(sq, d);
    }
    sq
}

/// One capture search: the piece's start square and where finished captures go. The board
/// during the search is `empty` and `enemy` as passed down: each captured piece has left it.
struct Search<'a, K> {
    from: u128,
    crown: u128,
    forward: i32,
    out: &'a mut K,
}

impl<K: CaptureSink<Turkish>> Search<'_, K> {
    /// A man on `at` having taken `captured`: every capture on from there.
    fn man(&mut self, at: u128, empty: u128, enemy: u128, captured: u128) {
        let mut jumped = false;
        for d in [self.forward, Full8::LEFT, Full8::RIGHT] {
            let over = shift(at, d) & enemy;
            let land = shift(over, d) & empty;
            if land == 0 {
                continue;
            }
            jumped = true;
            self.out.step(land);
            self.man(land, (empty | at | over) & !land, enemy ^ over, captured | over);
            self.out.back();
        }
        if !jumped && captured != 0 {
            self.out.finish(self.from, at, captured, at & self.crown != 0);
        }
    }

    /// A king on `at` having taken `captured`, its last jump in direction `last` (0 before the
    /// first): every capture on from there, never straight back. Where it could land on
    /// several squares and the capture goes on from some, only those can take the most
    /// pieces, so only those are followed.
    fn king(&mut self, at: u128, empty: u128, enemy: u128, captured: u128, last: i32) {
        let mut jumped = false;
        for d in DIRS {
            if d == -last {
                continue;
            }
            let over = first_blocker(at, empty, d) & enemy;
            if over == 0 {
                continue;
            }
            let after = empty | at | over;
            let mut landings = 0;
            let mut sq = shift(over, d) & after;
            while sq != 0 {
                landings |= sq;
                sq = shift(sq, d) & after;
            }
            if landings == 0 {
                continue;
            }
            jumped = true;
            let (enemy, captured) = (enemy ^ over, captured | over);
            let going_on = EachBit(landings)
                .filter(|&l| king_can_capture(l, after & !l, enemy, d))
                .fold(0, |acc, l| acc | l);
            for l in EachBit(if going_on == 0 { landings } else { going_on }) {
                self.out.step(l);
                if going_on == 0 {
                    self.out.finish(self.from, l, captured, false);
                } else {
                    self.king(l, after & !l, enemy, captured, d);
                }
                self.out.back();
            }
        }
        if !jumped && captured != 0 {
            self.out.finish(self.from, at, captured, false);
        }
    }
}

/// Whether a king on `at`, its last jump in direction `last`, can capture again.
fn king_can_capture(at: u128, empty: u128, enemy: u128, last: i32) -> bool {
    DIRS.iter().any(|&d| {
        d != -last && {
            let over = first_blocker(at, empty, d) & enemy;
            shift(over, d) & empty != 0
        }
    })
}

/// Sends every capture of the side to move to `out`: men first, then kings, each from the
/// lowest square up.
fn captures<K: CaptureSink<Turkish>>(v: &View, out: &mut K) {
    for from in EachBit(v.men) {
        Search { from, crown: v.crown, forward: v.forward, out: &mut *out }.man(from, v.empty, v.enemy, 0);
    }
    for from in EachBit(v.kings) {
        Search { from, crown: v.crown, forward: v.forward, out: &mut *out }
            .king(from, v.empty, v.enemy, 0, 0);
    }
}

/// Turkish draughts' move rules (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishMoves;

impl MoveRules<Turkish> for TurkishMoves {
    fn generate(board: &Board<Turkish>, list: &mut BoardMoves<Turkish>) {
        let v = View::of(board);
        if v.has_capture() {
            captures(&v, &mut ListSink { list, best: 0 });
            return;
        }
        for d in v.man_dirs() {
            for to in EachBit(shift(v.men, d) & v.empty) {
                list.push(BoardMove::new(shift(to, -d), to, 0, to & v.crown != 0));
            }
        }
        for from in EachBit(v.kings) {
            for d in DIRS {
                for to in EachBit(fill(from, v.empty, d) & !from) {
                    list.push(BoardMove::new(from, to, 0, false));
                }
            }
        }
    }

    fn capture_routes(board: &Board<Turkish>) -> Vec<(BoardMove<Turkish>, Vec<u32>)> {
        let v = View::of(board);
        let mut rec = RouteRecorder::default();
        if v.has_capture() {
            captures(&v, &mut rec);
        }
        let most = rec.routes.iter().map(|(mv, _)| mv.captured_count()).max().unwrap_or(0);
        rec.routes.retain(|(mv, _)| mv.captured_count() == most);
        rec.routes
    }

    fn has_capture(board: &Board<Turkish>) -> bool {
        View::of(board).has_capture()
    }

    fn has_legal_move(board: &Board<Turkish>) -> bool {
        let v = View::of(board);
        v.has_capture() || v.count_quiet() != 0
    }

    fn count_legal_moves(board: &Board<Turkish>) -> u64 {
        let v = View::of(board);
        if v.has_capture() {
            let mut list = BoardMoves::new();
            captures(&v, &mut ListSink { list: &mut list, best: 0 });
            list.len() as u64
        } else {
            v.count_quiet()
        }
    }
}

/// When a game of Turkish draughts ends, decided after every move in this order: the side to
/// move has no legal move (it loses); one piece is left against one and the side to move
/// cannot capture (a draw); the same position for the third time (a draw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishReferee;

impl<V: RuleSet> Referee<V> for TurkishReferee {
    fn decide(positions: &[Board<V>], moves: &[BoardMove<V>]) -> Option<BoardOutcome> {
        let position = positions.last()?;
        if let Some(outcome) = no_legal_move_loses(position) {
            return Some(outcome);
        }
        let draw = |reason| Some(BoardOutcome::Draw { reason });
        let lone = |color| position.piece_count(color) == 1;
        if lone(Color::White) && lone(Color::Black) && !position.has_capture() {
            return draw(BoardDrawReason::OnePieceEach);
        }
        // Men move sideways, so a man move can be undone; only a capture can't.
        let since = moves.iter().rev().take_while(|mv| !mv.is_capture()).count();
        if positions.iter().rev().take(since + 1).filter(|p| *p == position).count() >= 3 {
            return draw(BoardDrawReason::ThreefoldRepetition);
        }
        None
    }
}
