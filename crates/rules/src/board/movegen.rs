//! Legal moves of the International family on any geometry, on bitboards.
//!
//! Written once against [`Geometry`] and compiled per rule set and side to move (`S`), so
//! steps, rows and board masks are constants in the loops. Quiet moves go a whole direction
//! at a time; captures are followed piece by piece, the captured pieces staying on the board
//! until the move ends (they block, and none is taken twice), the moving piece's start square
//! counting as empty. Only the captures that take the most pieces are kept: each sink keeps
//! the largest count seen so far and drops what takes fewer.

use super::bits::{shift, Bits, EachBit};
use super::geometry::Geometry;
use super::moves::{BoardMove, BoardMoves};
use super::perft::BoardPerft;
use super::position::{BitsOf, Board, RuleSet};
use super::rules::MoveRules;

/// The side to move, as a type: its directions and crowning row become constants.
pub(crate) trait Side {
    const WHITE: bool;
    type Opponent: Side;
}

pub(crate) struct White;
pub(crate) struct Black;

impl Side for White {
    const WHITE: bool = true;
    type Opponent = Black;
}

impl Side for Black {
    const WHITE: bool = false;
    type Opponent = White;
}

#[inline(always)]
pub(crate) fn all_dirs<G: Geometry>() -> [i32; 4] {
    [G::UP_RIGHT, G::UP_LEFT, G::DOWN_RIGHT, G::DOWN_LEFT]
}

#[inline(always)]
fn forward<G: Geometry, S: Side>() -> [i32; 2] {
    if S::WHITE {
        [G::UP_RIGHT, G::UP_LEFT]
    } else {
        [G::DOWN_RIGHT, G::DOWN_LEFT]
    }
}

#[inline(always)]
fn crown_row<G: Geometry, S: Side>() -> G::Bits {
    if S::WHITE {
        G::TOP_ROW
    } else {
        G::BOTTOM_ROW
    }
}

/// `gen` and every square its pieces reach by sliding through `empty` in direction `d` (a
/// Kogge-Stone fill: steps of 1, 2, 4 and, on boards larger than 8x8, 8 squares).
#[inline(always)]
fn slide_fill<G: Geometry>(gen: G::Bits, empty: G::Bits, d: i32) -> G::Bits {
    let mut g = gen;
    let mut p = empty;
    g |= p & shift(g, d);
    p &= shift(p, d);
    g |= p & shift(g, 2 * d);
    p &= shift(p, 2 * d);
    g |= p & shift(g, 4 * d);
    if G::SIDE > 8 {
        p &= shift(p, 4 * d);
        g |= p & shift(g, 8 * d);
    }
    g
}

/// The parts of a position a generator needs, seen from the side to move.
#[derive(Clone, Copy)]
pub(crate) struct View<B> {
    men: B,
    kings: B,
    enemy: B,
    empty: B,
}

#[inline(always)]
pub(crate) fn view<V: RuleSet, S: Side>(board: &Board<V>) -> View<BitsOf<V>> {
    let (own, enemy) = if S::WHITE { (board.white, board.black) } else { (board.black, board.white) };
    View {
        men: own & !board.kings,
        kings: own & board.kings,
        enemy,
        empty: <V::Geometry as Geometry>::BOARD & !(own | enemy),
    }
}

/// Whether the side to move has a capture (so every legal move is one).
#[inline(always)]
pub(crate) fn has_capture<G: Geometry>(v: &View<G::Bits>) -> bool {
    let pieces = v.men | v.kings;
    let mut found = G::Bits::ZERO;
    for d in all_dirs::<G>() {
        found |= shift(shift(pieces, d) & v.enemy, d) & v.empty;
    }
    if !found.is_zero() {
        return true;
    }
    if !v.kings.is_zero() {
        for d in all_dirs::<G>() {
            let reach = slide_fill::<G>(v.kings, v.empty, d);
            found |= shift(shift(reach, d) & v.enemy, d) & v.empty;
        }
    }
    !found.is_zero()
}

/// The number of quiet moves, by popcounts; meaningful only when there is no capture.
#[inline(always)]
pub(crate) fn count_quiet<G: Geometry, S: Side>(v: &View<G::Bits>) -> u64 {
    let [f1, f2] = forward::<G, S>();
    let mut n = (shift(v.men, f1) & v.empty).count() + (shift(v.men, f2) & v.empty).count();
    if !v.kings.is_zero() {
        for d in all_dirs::<G>() {
            // Kings on one line block each other, so the squares they reach are disjoint.
            n += (slide_fill::<G>(v.kings, v.empty, d) & !v.kings).count();
        }
    }
    u64::from(n)
}

/// Calls `f(from, to, is_king, crowns)` for every quiet move: men direction by direction,
/// then each king.
#[inline(always)]
pub(crate) fn for_each_quiet<G: Geometry, S: Side>(
    v: &View<G::Bits>,
    mut f: impl FnMut(G::Bits, G::Bits, bool, bool),
) {
    for d in forward::<G, S>() {
        for to in EachBit(shift(v.men, d) & v.empty) {
            f(shift(to, -d), to, false, !(to & crown_row::<G, S>()).is_zero());
        }
    }
    for from in EachBit(v.kings) {
        for d in all_dirs::<G>() {
            let mut to = shift(from, d) & v.empty;
            while !to.is_zero() {
                f(from, to, true, false);
                to = shift(to, d) & v.empty;
            }
        }
    }
}

/// The position after a quiet move of the side `S` (`to` is empty: bit flips suffice).
#[inline(always)]
pub(crate) fn after_quiet<V: RuleSet, S: Side>(
    board: &Board<V>,
    from: BitsOf<V>,
    to: BitsOf<V>,
    is_king: bool,
    crowns: bool,
) -> Board<V> {
    let moved = from ^ to;
    let mut kings = board.kings ^ <V::Geometry as Geometry>::SPARE;
    if is_king {
        kings ^= moved;
    } else if crowns {
        kings |= to;
    }
    if S::WHITE {
        Board::from_words(board.white ^ moved, board.black, kings)
    } else {
        Board::from_words(board.white, board.black ^ moved, kings)
    }
}

/// The position after a capture of the side `S`.
#[inline(always)]
pub(crate) fn after_capture<V: RuleSet, S: Side>(board: &Board<V>, mv: &BoardMove<V>) -> Board<V> {
    let (from, to) = (mv.start_bit(), mv.end_bit());
    let becomes_king = mv.crowns || !(board.kings & from).is_zero();
    let mut kings = (board.kings & !(from | mv.captured)) ^ <V::Geometry as Geometry>::SPARE;
    if becomes_king {
        kings |= to;
    }
    if S::WHITE {
        Board::from_words((board.white & !from) | to, board.black & !mv.captured, kings)
    } else {
        Board::from_words(board.white & !mv.captured, (board.black & !from) | to, kings)
    }
}

// ---------------------------------------------------------------------------------------------
// Captures.

/// Where finished captures go. Each sink keeps only the captures of the most pieces seen so
/// far. `step`/`back` bracket each landing so a recorder can keep the route; elsewhere they
/// compile to nothing.
pub(crate) trait CaptureSink<V: RuleSet> {
    #[inline(always)]
    fn step(&mut self, _landing: BitsOf<V>) {}
    #[inline(always)]
    fn back(&mut self) {}
    fn finish(&mut self, from: BitsOf<V>, to: BitsOf<V>, captured: BitsOf<V>, crowns: bool);
    /// Captures by men in direction `d` that take one piece and end on `landings`.
    #[inline(always)]
    fn single_jumps(&mut self, landings: BitsOf<V>, d: i32, crown_row: BitsOf<V>) {
        for land in EachBit(landings) {
            let over = shift(land, -d);
            self.finish(shift(over, -d), land, over, !(land & crown_row).is_zero());
        }
    }
}

/// Collects the captures of the most pieces into a list, each move once.
pub(crate) struct ListSink<'a, V: RuleSet> {
    pub(crate) list: &'a mut BoardMoves<V>,
    pub(crate) best: u32,
}

impl<V: RuleSet> CaptureSink<V> for ListSink<'_, V> {
    #[inline(always)]
    fn finish(&mut self, from: BitsOf<V>, to: BitsOf<V>, captured: BitsOf<V>, crowns: bool) {
        let n = captured.count();
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
        }
        let mv = BoardMove::new(from, to, captured, crowns);
        // Only a move taking two or more pieces can be reached by two routes.
        if n >= 2 {
            self.list.push_unique(mv);
        } else {
            self.list.push(mv);
        }
    }
}

/// Counts the captures of the most pieces: those taking one piece by number (they cannot
/// repeat), the others kept in `multi` to drop repeated routes.
pub(crate) struct CountSink<'a, V: RuleSet> {
    pub(crate) single: u64,
    pub(crate) multi: &'a mut BoardMoves<V>,
    pub(crate) best: u32,
}

impl<V: RuleSet> CountSink<'_, V> {
    #[inline(always)]
    fn raise(&mut self, n: u32) -> bool {
        if n < self.best {
            return false;
        }
        if n > self.best {
            self.best = n;
            self.single = 0;
            self.multi.clear();
        }
        true
    }
    pub(crate) fn total(&self) -> u64 {
        self.single + self.multi.len() as u64
    }
}

impl<V: RuleSet> CaptureSink<V> for CountSink<'_, V> {
    #[inline(always)]
    fn finish(&mut self, from: BitsOf<V>, to: BitsOf<V>, captured: BitsOf<V>, crowns: bool) {
        let n = captured.count();
        if !self.raise(n) {
            return;
        }
        if n >= 2 {
            self.multi.push_unique(BoardMove::new(from, to, captured, crowns));
        } else {
            self.single += 1;
        }
    }
    #[inline(always)]
    fn single_jumps(&mut self, landings: BitsOf<V>, _d: i32, _crown_row: BitsOf<V>) {
        if self.raise(1) {
            self.single += u64::from(landings.count());
        }
    }
}

/// Every capture route of the side to move, each with the squares it stops on (start
/// first, as square numbers), whatever it takes; the caller keeps the largest.
pub(crate) struct RouteRecorder<V: RuleSet> {
    path: Vec<u32>,
    pub(crate) routes: Vec<(BoardMove<V>, Vec<u32>)>,
}

impl<V: RuleSet> Default for RouteRecorder<V> {
    fn default() -> Self {
        RouteRecorder { path: Vec::new(), routes: Vec::new() }
    }
}

fn number<V: RuleSet>(bit: BitsOf<V>) -> u32 {
    <V::Geometry as Geometry>::number_of(bit.lowest_index())
}

impl<V: RuleSet> CaptureSink<V> for RouteRecorder<V> {
    fn step(&mut self, landing: BitsOf<V>) {
        self.path.push(number::<V>(landing));
    }
    fn back(&mut self) {
        self.path.pop();
    }
    fn finish(&mut self, from: BitsOf<V>, to: BitsOf<V>, captured: BitsOf<V>, crowns: bool) {
        let mut route = vec![number::<V>(from)];
        route.extend_from_slice(&self.path);
        self.routes.push((BoardMove::new(from, to, captured, crowns), route));
    }
}

struct JumpContext<B> {
    from: B,
    /// Empty squares, counting the moving piece's start square as empty.
    empty: B,
    enemy: B,
}

/// The pieces among `pieces` with an adjacent enemy and an empty square behind it in
/// direction `d`.
#[inline(always)]
fn jumpers_in<B: Bits>(pieces: B, v: &View<B>, d: i32) -> B {
    pieces & shift(shift(v.empty, -d) & v.enemy, -d)
}

/// Sends every capture of the side to move to `out` (nothing when there is none): men
/// first, then kings, each from the lowest square up.
pub(crate) fn captures<V: RuleSet, S: Side, K: CaptureSink<V>>(v: &View<BitsOf<V>>, out: &mut K) {
    let mut men = BitsOf::<V>::ZERO;
    for d in all_dirs::<V::Geometry>() {
        men |= jumpers_in(v.men, v, d);
    }
    for from in EachBit(men) {
        let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
        man_jumps::<V, S, K>(&ctx, from, BitsOf::<V>::ZERO, out);
    }
    king_captures::<V, K>(v, out);
}

#[inline(always)]
fn king_captures<V: RuleSet, K: CaptureSink<V>>(v: &View<BitsOf<V>>, out: &mut K) {
    for from in EachBit(v.kings) {
        let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
        king_jumps::<V, K>(&ctx, from, BitsOf::<V>::ZERO, out);
    }
}

/// Every capture of the side to move, in no fixed order (for perft). Most captures by men
/// take one piece and cannot go on; those go to the sink a direction at a time, and only the
/// others are followed jump by jump.
#[inline(always)]
pub(crate) fn fast_captures<V: RuleSet, S: Side, K: CaptureSink<V>>(v: &View<BitsOf<V>>, out: &mut K) {
    let dirs = all_dirs::<V::Geometry>();
    for d in dirs {
        let jumpers = jumpers_in(v.men, v, d);
        if jumpers.is_zero() {
            continue;
        }
        let landings = shift(shift(jumpers, d), d);
        // From its landing square a man goes on if it can jump in any direction but back
        // over the piece it took. The start square, now empty, lies only that way, so the
        // board as it stands answers the question.
        let mut going_on = BitsOf::<V>::ZERO;
        for e in dirs {
            if e != -d {
                going_on |= jumpers_in(landings, v, e);
            }
        }
        out.single_jumps(landings & !going_on, d, crown_row::<V::Geometry, S>());
        for land in EachBit(going_on) {
            let over = shift(land, -d);
            let from = shift(over, -d);
            let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
            out.step(land);
            man_jumps::<V, S, K>(&ctx, land, over, out);
            out.back();
        }
    }
    if !v.kings.is_zero() {
        king_captures::<V, K>(v, out);
    }
}

/// A man on `at` having taken `captured`: jumps on in every direction it can; a man that
/// reaches the last row and jumps on stays a man, and is crowned only where it stops.
fn man_jumps<V: RuleSet, S: Side, K: CaptureSink<V>>(
    ctx: &JumpContext<BitsOf<V>>,
    at: BitsOf<V>,
    captured: BitsOf<V>,
    out: &mut K,
) {
    let mut jumped = false;
    for d in all_dirs::<V::Geometry>() {
        let over = shift(at, d) & ctx.enemy & !captured;
        if over.is_zero() {
            continue;
        }
        let land = shift(over, d) & ctx.empty;
        if land.is_zero() {
            continue;
        }
        jumped = true;
        out.step(land);
        man_jumps::<V, S, K>(ctx, land, captured | over, out);
        out.back();
    }
    if !jumped && !captured.is_zero() {
        out.finish(ctx.from, at, captured, !(at & crown_row::<V::Geometry, S>()).is_zero());
    }
}

/// The first occupied square from `at` in direction `d`, if it is an enemy piece not yet
/// captured with an empty square right behind it.
#[inline(always)]
fn flying_target<B: Bits>(ctx: &JumpContext<B>, at: B, d: i32, captured: B) -> B {
    let mut sq = shift(at, d);
    while !(sq & ctx.empty).is_zero() {
        sq = shift(sq, d);
    }
    let over = sq & ctx.enemy & !captured;
    if !over.is_zero() && !(shift(over, d) & ctx.empty).is_zero() {
        over
    } else {
        B::ZERO
    }
}

fn king_can_capture<G: Geometry>(ctx: &JumpContext<G::Bits>, at: G::Bits, captured: G::Bits) -> bool {
    all_dirs::<G>().iter().any(|&d| !flying_target(ctx, at, d, captured).is_zero())
}

/// A flying king on `at` having taken `captured`: every capture on from there. Where it could
/// land on several squares and the capture goes on from some, only those can lead to a
/// capture of the most pieces, so only those are followed.
fn king_jumps<V: RuleSet, K: CaptureSink<V>>(
    ctx: &JumpContext<BitsOf<V>>,
    at: BitsOf<V>,
    captured: BitsOf<V>,
    out: &mut K,
) {
    let mut jumped = false;
    for d in all_dirs::<V::Geometry>() {
        let over = flying_target(ctx, at, d, captured);
        if over.is_zero() {
            continue;
        }
        jumped = true;
        let now_captured = captured | over;
        let mut landings = BitsOf::<V>::ZERO;
        let mut sq = shift(over, d) & ctx.empty;
        while !sq.is_zero() {
            landings |= sq;
            sq = shift(sq, d) & ctx.empty;
        }
        let mut going_on = BitsOf::<V>::ZERO;
        for l in EachBit(landings) {
            if king_can_capture::<V::Geometry>(ctx, l, now_captured) {
                going_on |= l;
            }
        }
        let chosen = if going_on.is_zero() { landings } else { going_on };
        for l in EachBit(chosen) {
            out.step(l);
            if going_on.is_zero() {
                out.finish(ctx.from, l, now_captured, false);
            } else {
                king_jumps::<V, K>(ctx, l, now_captured, out);
            }
            out.back();
        }
    }
    if !jumped && !captured.is_zero() {
        out.finish(ctx.from, at, captured, false);
    }
}

/// The number of legal moves of the side `S`: quiet moves by popcount, captures counted
/// without listing those that take one piece. `multi` is scratch space.
#[inline(always)]
pub(crate) fn count_moves<V: RuleSet, S: Side>(board: &Board<V>, multi: &mut BoardMoves<V>) -> u64 {
    let v = view::<V, S>(board);
    if has_capture::<V::Geometry>(&v) {
        multi.clear();
        let mut sink = CountSink { single: 0, multi, best: 0 };
        fast_captures::<V, S, _>(&v, &mut sink);
        sink.total()
    } else {
        count_quiet::<V::Geometry, S>(&v)
    }
}

fn generate<V: RuleSet, S: Side>(board: &Board<V>, list: &mut BoardMoves<V>) {
    let v = view::<V, S>(board);
    if has_capture::<V::Geometry>(&v) {
        captures::<V, S, _>(&v, &mut ListSink { list, best: 0 });
    } else {
        for_each_quiet::<V::Geometry, S>(&v, |from, to, _, crowns| {
            list.push(BoardMove::new(from, to, BitsOf::<V>::ZERO, crowns));
        });
    }
}

fn has_capture_at<V: RuleSet, S: Side>(board: &Board<V>) -> bool {
    has_capture::<V::Geometry>(&view::<V, S>(board))
}

fn has_legal_move_at<V: RuleSet, S: Side>(board: &Board<V>) -> bool {
    let v = view::<V, S>(board);
    has_capture::<V::Geometry>(&v) || count_quiet::<V::Geometry, S>(&v) != 0
}

fn record_routes<V: RuleSet, S: Side>(board: &Board<V>, rec: &mut RouteRecorder<V>) {
    let v = view::<V, S>(board);
    if has_capture::<V::Geometry>(&v) {
        captures::<V, S, _>(&v, rec);
    }
}

/// Calls `$f::<V, S>($args)` for the side to move of `$board`.
macro_rules! by_side {
    ($board:expr, $f:ident($($arg:expr),*)) => {
        if (($board).kings & <V::Geometry as Geometry>::SPARE).is_zero() {
            $f::<V, White>($($arg),*)
        } else {
            $f::<V, Black>($($arg),*)
        }
    };
}

/// The International family's move rules: men move forward and capture both ways, kings
/// fly, the capture of the most pieces (kings counting as men) is compulsory, and a man only
/// passing the last row during a capture is not crowned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MajorityCapture;

impl<V: RuleSet> MoveRules<V> for MajorityCapture {
    fn generate(board: &Board<V>, list: &mut BoardMoves<V>) {
        by_side!(board, generate(board, list));
    }

    fn capture_routes(board: &Board<V>) -> Vec<(BoardMove<V>, Vec<u32>)> {
        let mut rec = RouteRecorder::default();
        by_side!(board, record_routes(board, &mut rec));
        let most = rec.routes.iter().map(|(mv, _)| mv.captured_count()).max().unwrap_or(0);
        rec.routes.retain(|(mv, _)| mv.captured_count() == most);
        rec.routes
    }

    fn has_capture(board: &Board<V>) -> bool {
        by_side!(board, has_capture_at(board))
    }

    fn has_legal_move(board: &Board<V>) -> bool {
        by_side!(board, has_legal_move_at(board))
    }

    fn count_legal_moves(board: &Board<V>) -> u64 {
        let mut multi = BoardMoves::new();
        by_side!(board, count_moves(board, &mut multi))
    }

    fn perft(perft: &mut BoardPerft<V>, board: &Board<V>, depth: u32) -> u64 {
        perft.family(board, depth)
    }
}
