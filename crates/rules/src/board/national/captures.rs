//! Captures of the national 8x8 games: every capture of the side to move, followed jump by
//! jump, kept or dropped by the variant's capture-choice rule.
//!
//! One search for all six variants; what differs is read from the variant's
//! [`NationalVariant`] constants, which are known at compile time, so each variant's search
//! is compiled with its own rules in its loops.

use super::super::bits::{shift, Bits};
use super::super::geometry::Geometry;
use super::super::moves::{BoardMove, BoardMoves};
use super::super::position::{BitsOf, RuleSet};
use super::{CaptureChoice, NationalVariant};

/// The position as the side to move sees it.
#[derive(Clone, Copy)]
pub(super) struct Scene<B> {
    pub(super) men: B,
    pub(super) kings: B,
    pub(super) enemy: B,
    pub(super) enemy_kings: B,
    pub(super) empty: B,
    /// The two forward directions of the side to move.
    pub(super) forward: [i32; 2],
    /// The row where the side to move crowns.
    pub(super) crown_row: B,
}

/// The four diagonal directions of the board `G`.
#[inline(always)]
pub(super) fn all_dirs<G: Geometry>() -> [i32; 4] {
    [G::UP_RIGHT, G::UP_LEFT, G::DOWN_RIGHT, G::DOWN_LEFT]
}

/// The longest capture has 12 jumps on 8x8 (every enemy piece), so 13 squares.
const MAX_ROUTE: usize = 16;

/// The squares a capture has stopped on so far (layout indices, the start first).
#[derive(Clone, Copy)]
pub(super) struct Route {
    squares: [u8; MAX_ROUTE],
    len: usize,
}

impl Route {
    fn push(&mut self, index: u32) {
        if self.len < MAX_ROUTE {
            self.squares[self.len] = index as u8;
            self.len += 1;
        }
    }
    pub(super) fn indices(&self) -> &[u8] {
        &self.squares[..self.len]
    }
}

/// Where finished captures go, each with its priority under the capture-choice rule (higher
/// comes first) and its route.
pub(super) trait CaptureSink<V: RuleSet> {
    fn finish(&mut self, mv: BoardMove<V>, priority: u32, route: &Route);
}

/// Keeps the captures of the highest priority in a list, each move once.
pub(super) struct BestList<'a, V: RuleSet> {
    pub(super) list: &'a mut BoardMoves<V>,
    pub(super) best: u32,
}

impl<V: RuleSet> CaptureSink<V> for BestList<'_, V> {
    #[inline(always)]
    fn finish(&mut self, mv: BoardMove<V>, priority: u32, _route: &Route) {
        if priority < self.best {
            return;
        }
        if priority > self.best {
            self.best = priority;
            self.list.clear();
        }
        self.list.push_unique(mv);
    }
}

/// Keeps every route of the captures of the highest priority.
pub(super) struct BestRoutes<V: RuleSet> {
    pub(super) routes: Vec<(BoardMove<V>, Route)>,
    pub(super) best: u32,
}

impl<V: RuleSet> CaptureSink<V> for BestRoutes<V> {
    fn finish(&mut self, mv: BoardMove<V>, priority: u32, route: &Route) {
        if priority < self.best {
            return;
        }
        if priority > self.best {
            self.best = priority;
            self.routes.clear();
        }
        self.routes.push((mv, *route));
    }
}

/// A capture under way.
#[derive(Clone, Copy)]
struct Jump<B> {
    from: B,
    at: B,
    king: bool,
    /// Pieces taken so far.
    captured: B,
    /// Kings among them.
    kings_taken: u32,
    /// Bit `15 - i` set when the `i`-th piece taken (from 0) is a king: a larger value means
    /// kings met earlier (Italian rules' last priority).
    order: u32,
    /// Squares the piece may pass or land on: empty ones and its start square (and, where
    /// captured pieces come off at once, theirs).
    empty: B,
    /// Enemy pieces still on the board.
    enemy: B,
    route: Route,
}

impl<B: Bits> Jump<B> {
    /// The enemy piece this jump may take on `over` (zero when it may not).
    #[inline(always)]
    fn takeable<V: NationalVariant>(&self, over: B, scene: &Scene<B>) -> B {
        let mut target = over & self.enemy & !self.captured;
        if !self.king && !V::MEN_TAKE_KINGS {
            target &= !scene.enemy_kings;
        }
        target
    }

    /// The state after taking `over` and landing on `land`.
    #[inline(always)]
    fn after<V: NationalVariant>(&self, over: B, land: B, scene: &Scene<B>) -> Jump<B> {
        let mut next = *self;
        let taken = self.captured.count();
        next.captured = self.captured | over;
        if !(over & scene.enemy_kings).is_zero() {
            next.kings_taken += 1;
            if taken < 16 {
                next.order |= 1 << (15 - taken);
            }
        }
        if V::REMOVE_AT_ONCE {
            next.enemy = self.enemy & !over;
            next.empty = self.empty | over;
        }
        next.at = land;
        next.route.push(land.lowest_index());
        next
    }
}

/// The captures' priority under the variant's rule: higher is preferred, equal is free choice.
#[inline(always)]
fn priority<V: NationalVariant, B: Bits>(jump: &Jump<B>) -> u32 {
    let count = jump.captured.count();
    let king = u32::from(jump.king);
    match V::CHOICE {
        CaptureChoice::Free => 0,
        CaptureChoice::KingFirst => king,
        CaptureChoice::Majority => (count << 8) | jump.kings_taken,
        CaptureChoice::Italian => (count << 24) | (king << 23) | (jump.kings_taken << 16) | jump.order,
    }
}

/// Directions a piece of this kind captures in.
#[inline(always)]
fn capture_dirs<V: NationalVariant>(king: bool, scene: &Scene<BitsOf<V>>) -> ([i32; 4], usize) {
    let all = all_dirs::<V::Geometry>();
    if king || V::MEN_CAPTURE_BACKWARDS {
        (all, 4)
    } else {
        ([scene.forward[0], scene.forward[1], 0, 0], 2)
    }
}

/// The first piece met from `at` in direction `d` by a king that flies, and the square
/// right behind it, if that piece may be taken and that square is free.
#[inline(always)]
fn flying_target<V: NationalVariant>(
    jump: &Jump<BitsOf<V>>,
    at: BitsOf<V>,
    d: i32,
    scene: &Scene<BitsOf<V>>,
) -> Option<(BitsOf<V>, BitsOf<V>)> {
    let mut sq = shift(at, d);
    while !(sq & jump.empty).is_zero() {
        sq = shift(sq, d);
    }
    let over = jump.takeable::<V>(sq, scene);
    let land = shift(over, d) & jump.empty;
    (!over.is_zero() && !land.is_zero()).then_some((over, land))
}

/// The piece taken and the first landing square of a capture from `at` in direction `d`.
#[inline(always)]
fn target<V: NationalVariant>(
    jump: &Jump<BitsOf<V>>,
    at: BitsOf<V>,
    d: i32,
    scene: &Scene<BitsOf<V>>,
) -> Option<(BitsOf<V>, BitsOf<V>)> {
    if jump.king && V::FLYING_KINGS {
        return flying_target::<V>(jump, at, d, scene);
    }
    let over = jump.takeable::<V>(shift(at, d), scene);
    let land = shift(over, d) & jump.empty;
    (!over.is_zero() && !land.is_zero()).then_some((over, land))
}

/// Whether the piece of `jump`, standing on `at`, can take one more piece.
fn can_go_on<V: NationalVariant>(jump: &Jump<BitsOf<V>>, at: BitsOf<V>, scene: &Scene<BitsOf<V>>) -> bool {
    if !jump.king && V::CROWN_ENDS_CAPTURE && !(at & scene.crown_row).is_zero() {
        return false;
    }
    let (dirs, n) = capture_dirs::<V>(jump.king, scene);
    dirs[..n].iter().any(|&d| target::<V>(jump, at, d, scene).is_some())
}

/// Follows every capture on from `jump`, sending the finished ones to `out`.
fn extend<V: NationalVariant, K: CaptureSink<V>>(
    jump: &Jump<BitsOf<V>>,
    scene: &Scene<BitsOf<V>>,
    out: &mut K,
) {
    let (dirs, n) = capture_dirs::<V>(jump.king, scene);
    let mut went_on = false;
    for &d in &dirs[..n] {
        let Some((over, first)) = target::<V>(jump, jump.at, d, scene) else { continue };
        went_on = true;
        if !(jump.king && V::FLYING_KINGS && !V::KING_LANDS_BEHIND) {
            land_on::<V, K>(&jump.after::<V>(over, first, scene), scene, out);
            continue;
        }
        // A flying king may land on any free square behind the piece; where it can take more
        // from some of them it must land on one of those.
        let mut landings = BitsOf::<V>::ZERO;
        let mut land = first;
        while !land.is_zero() {
            landings |= land;
            land = shift(land, d) & jump.empty;
        }
        let probe = jump.after::<V>(over, first, scene);
        let mut going_on = BitsOf::<V>::ZERO;
        let mut each = landings;
        while !each.is_zero() {
            let l = each.lowest();
            each ^= l;
            if can_go_on::<V>(&probe, l, scene) {
                going_on |= l;
            }
        }
        let chosen = if going_on.is_zero() { landings } else { going_on };
        let mut each = chosen;
        while !each.is_zero() {
            let l = each.lowest();
            each ^= l;
            land_on::<V, K>(&jump.after::<V>(over, l, scene), scene, out);
        }
    }
    if !went_on && !jump.captured.is_zero() {
        finish::<V, K>(jump, scene, out);
    }
}

/// The piece has just landed: a man on its crowning row stops there where the variant says
/// so; otherwise the capture goes on while it can.
#[inline(always)]
fn land_on<V: NationalVariant, K: CaptureSink<V>>(
    jump: &Jump<BitsOf<V>>,
    scene: &Scene<BitsOf<V>>,
    out: &mut K,
) {
    if !jump.king && V::CROWN_ENDS_CAPTURE && !(jump.at & scene.crown_row).is_zero() {
        finish::<V, K>(jump, scene, out);
    } else {
        extend::<V, K>(jump, scene, out);
    }
}

fn finish<V: NationalVariant, K: CaptureSink<V>>(
    jump: &Jump<BitsOf<V>>,
    scene: &Scene<BitsOf<V>>,
    out: &mut K,
) {
    let crowns = !jump.king && !(jump.at & scene.crown_row).is_zero();
    let mv = BoardMove::new(jump.from, jump.at, jump.captured, crowns);
    out.finish(mv, priority::<V, _>(jump), &jump.route);
}

/// Sends every capture of the side to move to `out`: men first, then kings, each from the
/// lowest layout square up.
pub(super) fn captures<V: NationalVariant, K: CaptureSink<V>>(scene: &Scene<BitsOf<V>>, out: &mut K) {
    for (pieces, king) in [(scene.men, false), (scene.kings, true)] {
        let mut each = pieces;
        while !each.is_zero() {
            let from = each.lowest();
            each ^= from;
            let mut route = Route { squares: [0; MAX_ROUTE], len: 0 };
            route.push(from.lowest_index());
            let jump = Jump {
                from,
                at: from,
                king,
                captured: BitsOf::<V>::ZERO,
                kings_taken: 0,
                order: 0,
                empty: scene.empty | from,
                enemy: scene.enemy,
                route,
            };
            extend::<V, K>(&jump, scene, out);
        }
    }
}

/// Whether the side to move has any capture, by whole-board shifts.
#[inline(always)]
pub(super) fn has_capture<V: NationalVariant>(scene: &Scene<BitsOf<V>>) -> bool {
    let men_targets = if V::MEN_TAKE_KINGS { scene.enemy } else { scene.enemy & !scene.enemy_kings };
    let (dirs, n) = capture_dirs::<V>(false, scene);
    for &d in &dirs[..n] {
        if !(shift(shift(scene.men, d) & men_targets, d) & scene.empty).is_zero() {
            return true;
        }
    }
    if scene.kings.is_zero() {
        return false;
    }
    for d in all_dirs::<V::Geometry>() {
        let mut reach = scene.kings;
        if V::FLYING_KINGS {
            // Six steps reach every square of a diagonal of the 8x8 board.
            for _ in 0..6 {
                reach |= shift(reach, d) & scene.empty;
            }
        }
        if !(shift(shift(reach, d) & scene.enemy, d) & scene.empty).is_zero() {
            return true;
        }
    }
    false
}
