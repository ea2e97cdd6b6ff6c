//! The national 8x8 games: Italian, Spanish, Portuguese, Czech, Pool (American pool checkers)
//! and Thai, on one move generator ([`NationalMoves`]) and one referee ([`NationalReferee`]),
//! each parameterised by the variant's [`NationalVariant`] constants (docs/rules.md has a
//! section per variant with its source and the points settled).
//!
//! What the constants choose:
//!
//! | variant | men take backwards | kings | men take kings | taken pieces | choice of capture |
//! | --- | --- | --- | --- | --- | --- |
//! | Italian | no | one step | no | off at the end | most pieces, then with a king, then most kings, then kings met first |
//! | Spanish, Portuguese | no | fly | yes | off at the end | most pieces, then most kings |
//! | Czech | no | fly | yes | off at the end | with a king when a king can take, else free |
//! | Pool | yes | fly | yes | off at the end | free |
//! | Thai | no | fly, land right behind | yes | off at once | free |
//!
//! A move stays what the rest of the core knows ([`BoardMove`]: start, end, captured set,
//! crowning); routes that make one move are one move, and a move is legal when any of its
//! routes is among the preferred ones.

mod captures;
mod referee;
mod variants;

use super::bits::{shift, Bits};
use super::geometry::Geometry;
use super::moves::{BoardMove, BoardMoves};
use super::position::{BitsOf, Board, RuleSet};
use super::rules::MoveRules;
use crate::position::Color;
use captures::{all_dirs, captures, has_capture, BestList, BestRoutes, Scene};

pub use referee::NationalReferee;
pub use variants::{Czech, Italian, ItalianBoard, Pool, Portuguese, Spanish, SpanishBoard, Thai};

/// How a player chooses among the captures on offer (capture itself is always compulsory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureChoice {
    /// Any capture (Pool, Thai).
    Free,
    /// A capture by a king when a king can capture, otherwise any (Czech).
    KingFirst,
    /// The most pieces, then the most kings among them (Spanish, Portuguese).
    Majority,
    /// The most pieces; then a capture by a king; then the most kings; then the capture that
    /// meets kings first (Italian, FID rules art. 6.6-6.9).
    Italian,
}

/// A national 8x8 game's rules as constants: the move generator and the referee read them at
/// compile time.
pub trait NationalVariant: RuleSet {
    /// Men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture along whole diagonals (otherwise one square, as men).
    const FLYING_KINGS: bool;
    /// A flying king that captures lands on the square right behind the piece it takes.
    const KING_LANDS_BEHIND: bool;
    /// Men may capture kings.
    const MEN_TAKE_KINGS: bool;
    /// Captured pieces come off as they are taken (so a square is free again at once);
    /// otherwise they stay, blocking, until the move ends and none is taken twice.
    const REMOVE_AT_ONCE: bool;
    /// A man that reaches its crowning row during a capture is crowned and the move ends
    /// there; otherwise it jumps on as a man if it can and is crowned only where it stops.
    const CROWN_ENDS_CAPTURE: bool;
    /// How a player chooses among captures.
    const CHOICE: CaptureChoice;
    /// The draw by repetition: the same position with the same side to move for this many
    /// times.
    const REPETITIONS: usize;
    /// The draw when only kings have moved, without capturing, for this many plies (`None`:
    /// no such rule).
    const KING_MOVE_PLIES: Option<usize>;
}

/// The move rules of the national 8x8 games, read from the variant's [`NationalVariant`]
/// constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NationalMoves;

fn scene<V: NationalVariant>(board: &Board<V>) -> Scene<BitsOf<V>> {
    let white = board.turn() == Color::White;
    let (own, enemy) = if white { (board.white, board.black) } else { (board.black, board.white) };
    let kings = board.kings & <V::Geometry as Geometry>::BOARD;
    let g = |up: bool| -> [i32; 2] {
        type G<V> = <V as RuleSet>::Geometry;
        if up {
            [G::<V>::UP_RIGHT, G::<V>::UP_LEFT]
        } else {
            [G::<V>::DOWN_RIGHT, G::<V>::DOWN_LEFT]
        }
    };
    Scene {
        men: own & !kings,
        kings: own & kings,
        enemy,
        enemy_kings: enemy & kings,
        empty: <V::Geometry as Geometry>::BOARD & !(own | enemy),
        forward: g(white),
        crown_row: if white {
            <V::Geometry as Geometry>::TOP_ROW
        } else {
            <V::Geometry as Geometry>::BOTTOM_ROW
        },
    }
}

/// Squares a king reaches from `kings` in direction `d` without capturing (one step for kings
/// that do not fly).
#[inline(always)]
fn king_reach<V: NationalVariant>(kings: BitsOf<V>, empty: BitsOf<V>, d: i32) -> BitsOf<V> {
    let mut reach = shift(kings, d) & empty;
    if V::FLYING_KINGS {
        for _ in 0..6 {
            reach |= shift(reach, d) & empty;
        }
    }
    reach
}

/// The number of quiet moves (meaningful when there is no capture).
fn count_quiet<V: NationalVariant>(s: &Scene<BitsOf<V>>) -> u64 {
    let mut n = 0;
    for d in s.forward {
        n += (shift(s.men, d) & s.empty).count();
    }
    if !s.kings.is_zero() {
        for d in all_dirs::<V::Geometry>() {
            if V::FLYING_KINGS {
                // Kings on one line block each other, so the squares each reaches are its own.
                let mut each = s.kings;
                while !each.is_zero() {
                    let king = each.lowest();
                    each ^= king;
                    n += king_reach::<V>(king, s.empty, d).count();
                }
            } else {
                n += (shift(s.kings, d) & s.empty).count();
            }
        }
    }
    u64::from(n)
}

fn push_quiet<V: NationalVariant>(s: &Scene<BitsOf<V>>, list: &mut BoardMoves<V>) {
    for d in s.forward {
        let mut each = shift(s.men, d) & s.empty;
        while !each.is_zero() {
            let to = each.lowest();
            each ^= to;
            list.push(BoardMove::new(shift(to, -d), to, BitsOf::<V>::ZERO, !(to & s.crown_row).is_zero()));
        }
    }
    let mut kings = s.kings;
    while !kings.is_zero() {
        let from = kings.lowest();
        kings ^= from;
        for d in all_dirs::<V::Geometry>() {
            let mut to = shift(from, d) & s.empty;
            while !to.is_zero() {
                list.push(BoardMove::new(from, to, BitsOf::<V>::ZERO, false));
                if !V::FLYING_KINGS {
                    break;
                }
                to = shift(to, d) & s.empty;
            }
        }
    }
}

impl<V: NationalVariant> MoveRules<V> for NationalMoves {
    fn generate(board: &Board<V>, list: &mut BoardMoves<V>) {
        let s = scene(board);
        if has_capture::<V>(&s) {
            captures::<V, _>(&s, &mut BestList { list, best: 0 });
        } else {
            push_quiet::<V>(&s, list);
        }
    }

    fn capture_routes(board: &Board<V>) -> Vec<(BoardMove<V>, Vec<u32>)> {
        let s = scene(board);
        let mut best = BestRoutes { routes: Vec::new(), best: 0 };
        if has_capture::<V>(&s) {
            captures::<V, _>(&s, &mut best);
        }
        let number = |i: &u8| <V::Geometry as Geometry>::number_of(u32::from(*i));
        best.routes
            .into_iter()
            .map(|(mv, route)| (mv, route.indices().iter().map(number).collect()))
            .collect()
    }

    fn has_capture(board: &Board<V>) -> bool {
        has_capture::<V>(&scene(board))
    }

    fn has_legal_move(board: &Board<V>) -> bool {
        let s = scene(board);
        has_capture::<V>(&s) || count_quiet::<V>(&s) != 0
    }

    fn count_legal_moves(board: &Board<V>) -> u64 {
        let s = scene(board);
        if has_capture::<V>(&s) {
            let mut list = BoardMoves::new();
            captures::<V, _>(&s, &mut BestList { list: &mut list, best: 0 });
            list.len() as u64
        } else {
            count_quiet::<V>(&s)
        }
    }
}
