//! Legal move generation on bitboards.
//!
//! Quiet moves of men and short kings are generated a whole direction at a time; captures are
//! followed piece by piece. Captured pieces stay on the board until the move ends (they block
//! and cannot be jumped twice), and the moving piece's start square counts as empty.
//!
//! Every generator is compiled once per rule set ([`Rules`]) and side to move ([`Side`]), so
//! directions, crowning rows and capture rules are constants in the loops that perft and the
//! engine run millions of times a second. A new variant on the 8x8 board is a new `Rules`
//! type.

use crate::moves::{Move, MoveList};
use crate::position::{Color, Position, Variant, BOTTOM_ROW, TOP_ROW};
use crate::square::{Square, DARK};

/// Diagonal steps on the rank-by-rank `u64` layout.
const NE: i32 = 9;
const NW: i32 = 7;
const SE: i32 = -7;
const SW: i32 = -9;
const ALL_DIRS: [i32; 4] = [NE, NW, SE, SW];

/// Shifts a bitboard one diagonal step. Stepping off the left or right edge lands on a light
/// square (or off the board), so masking the result with dark squares is all the edge
/// handling needed.
#[inline(always)]
fn shift(bb: u64, dir: i32) -> u64 {
    if dir > 0 {
        bb << dir
    } else {
        bb >> -dir
    }
}

/// `gen` and every square its pieces reach by sliding through `empty` in direction `dir`
/// (a Kogge-Stone fill: three steps cover the seven a diagonal can have). Wrapping shifts
/// land on light squares, which are never empty, so no edge masks are needed.
#[inline(always)]
fn slide_fill(gen: u64, empty: u64, dir: i32) -> u64 {
    let mut g = gen;
    let mut p = empty;
    g |= p & shift(g, dir);
    p &= shift(p, dir);
    g |= p & shift(g, 2 * dir);
    p &= shift(p, 2 * dir);
    g | (p & shift(g, 4 * dir))
}

#[inline(always)]
fn square_of(bit: u64) -> Square {
    Square::from_index(bit.trailing_zeros())
}

/// The number of squares in two sets of dark squares. Where the target has no popcount
/// instruction this beats two software popcounts: each aligned pair of bits holds exactly one
/// dark square, so counting a pair is an OR, and the two sets are summed before the fold.
#[inline(always)]
fn count_dark2(a: u64, b: u64) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return a.count_ones() + b.count_ones();
    }
    const PAIRS: u64 = 0x5555_5555_5555_5555;
    let x = ((a | (a >> 1)) & PAIRS) + ((b | (b >> 1)) & PAIRS);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    let x = (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

#[inline(always)]
fn has_two_or_more(bits: u64) -> bool {
    bits & bits.wrapping_sub(1) != 0
}

/// The side to move, as a type: its directions and crowning row become constants.
pub(crate) trait Side {
    const FORWARD: [i32; 2];
    const CROWN_ROW: u64;
    type Opponent: Side;
    fn own(position: &Position) -> u64;
    fn enemy(position: &Position) -> u64;
    /// The position with these pieces and the opponent to move.
    fn next(position: &Position, own: u64, enemy: u64, kings: u64) -> Position;
}

pub(crate) struct White;
pub(crate) struct Black;

impl Side for White {
    const FORWARD: [i32; 2] = [NE, NW];
    const CROWN_ROW: u64 = TOP_ROW;
    type Opponent = Black;
    #[inline(always)]
    fn own(position: &Position) -> u64 {
        position.white
    }
    #[inline(always)]
    fn enemy(position: &Position) -> u64 {
        position.black
    }
    #[inline(always)]
    fn next(position: &Position, own: u64, enemy: u64, kings: u64) -> Position {
        Position { white: own, black: enemy, kings, turn: Color::Black, variant: position.variant }
    }
}

impl Side for Black {
    const FORWARD: [i32; 2] = [SE, SW];
    const CROWN_ROW: u64 = BOTTOM_ROW;
    type Opponent = White;
    #[inline(always)]
    fn own(position: &Position) -> u64 {
        position.black
    }
    #[inline(always)]
    fn enemy(position: &Position) -> u64 {
        position.white
    }
    #[inline(always)]
    fn next(position: &Position, own: u64, enemy: u64, kings: u64) -> Position {
        Position { white: enemy, black: own, kings, turn: Color::White, variant: position.variant }
    }
}

/// A rule set, as a type: what differs between variants becomes a constant.
pub(crate) trait Rules {
    /// Kings move and capture any distance along a diagonal.
    const FLYING_KINGS: bool;
    const MEN_CAPTURE_BACKWARDS: bool;
    /// A man reaching the far row during a capture stops there (English); otherwise it goes
    /// on capturing as a king (Russian).
    const CROWNING_ENDS_MOVE: bool;
}

pub(crate) struct EnglishRules;
pub(crate) struct RussianRules;

impl Rules for EnglishRules {
    const FLYING_KINGS: bool = false;
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const CROWNING_ENDS_MOVE: bool = true;
}

impl Rules for RussianRules {
    const FLYING_KINGS: bool = true;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const CROWNING_ENDS_MOVE: bool = false;
}

/// Calls `$f::<Rules, Side>($args)` for the variant and side to move of `$pos`.
macro_rules! dispatch {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match ($pos.variant, $pos.turn) {
            (Variant::English, Color::White) => $f::<EnglishRules, White>($($arg),*),
            (Variant::English, Color::Black) => $f::<EnglishRules, Black>($($arg),*),
            (Variant::Russian, Color::White) => $f::<RussianRules, White>($($arg),*),
            (Variant::Russian, Color::Black) => $f::<RussianRules, Black>($($arg),*),
        }
    };
}

/// The parts of a position a generator needs, seen from the side to move.
#[derive(Clone, Copy)]
pub(crate) struct View {
    men: u64,
    kings: u64,
    enemy: u64,
    empty: u64,
}

impl View {
    #[inline(always)]
    pub(crate) fn of<S: Side>(pos: &Position) -> View {
        let own = S::own(pos);
        let enemy = S::enemy(pos);
        View { men: own & !pos.kings, kings: own & pos.kings, enemy, empty: DARK & !(own | enemy) }
    }
}

/// Whether the side to move has a capture (so every legal move is a capture).
#[inline(always)]
pub(crate) fn has_capture<R: Rules, S: Side>(v: &View) -> bool {
    let [f1, f2] = S::FORWARD;
    let forward = v.men | v.kings;
    let backward = if R::MEN_CAPTURE_BACKWARDS { v.men | v.kings } else { v.kings };
    // A jump in direction d needs an enemy one step ahead and an empty square two steps ahead.
    let mut found = shift(shift(forward, f1) & v.enemy, f1) & v.empty;
    found |= shift(shift(forward, f2) & v.enemy, f2) & v.empty;
    found |= shift(shift(backward, -f1) & v.enemy, -f1) & v.empty;
    found |= shift(shift(backward, -f2) & v.enemy, -f2) & v.empty;
    if found != 0 {
        return true;
    }
    if R::FLYING_KINGS && v.kings != 0 {
        for d in ALL_DIRS {
            let reach = slide_fill(v.kings, v.empty, d);
            found |= shift(shift(reach, d) & v.enemy, d) & v.empty;
        }
    }
    found != 0
}

/// The number of quiet moves, by popcounts; meaningful only when there is no capture.
#[inline(always)]
pub(crate) fn count_quiet<R: Rules, S: Side>(v: &View) -> u64 {
    let [f1, f2] = S::FORWARD;
    let mut n = count_dark2(shift(v.men, f1) & v.empty, shift(v.men, f2) & v.empty);
    if v.kings != 0 {
        let [d1, d2, d3, d4] = ALL_DIRS.map(|d| {
            if R::FLYING_KINGS {
                // Kings on one line block each other, so the squares they reach are disjoint.
                slide_fill(v.kings, v.empty, d) & !v.kings
            } else {
                shift(v.kings, d) & v.empty
            }
        });
        n += count_dark2(d1, d2) + count_dark2(d3, d4);
    }
    u64::from(n)
}

/// Calls `f(from, to, is_king, crowns)` for every quiet move: men forward direction by
/// direction, then kings.
#[inline(always)]
pub(crate) fn for_each_quiet<R: Rules, S: Side>(v: &View, mut f: impl FnMut(u64, u64, bool, bool)) {
    for d in S::FORWARD {
        let mut targets = shift(v.men, d) & v.empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets ^= to;
            f(shift(to, -d), to, false, to & S::CROWN_ROW != 0);
        }
    }
    if v.kings == 0 {
        return;
    }
    if R::FLYING_KINGS {
        let mut kings = v.kings;
        while kings != 0 {
            let from = kings & kings.wrapping_neg();
            kings ^= from;
            for d in ALL_DIRS {
                let mut to = shift(from, d) & v.empty;
                while to != 0 {
                    f(from, to, true, false);
                    to = shift(to, d) & v.empty;
                }
            }
        }
    } else {
        for d in ALL_DIRS {
            let mut targets = shift(v.kings, d) & v.empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                f(shift(to, -d), to, true, false);
            }
        }
    }
}

/// The position after a move of the side `S` (no legality check).
#[inline(always)]
pub(crate) fn after_move<S: Side>(
    pos: &Position,
    from: u64,
    to: u64,
    captured: u64,
    crowns: bool,
) -> Position {
    let own = (S::own(pos) & !from) | to;
    let enemy = S::enemy(pos) & !captured;
    let was_king = pos.kings & from != 0;
    let mut kings = pos.kings & !(from | captured);
    if was_king || crowns {
        kings |= to;
    }
    S::next(pos, own, enemy, kings)
}

/// The position after a quiet move (`to` is empty, so bit flips suffice).
#[inline(always)]
pub(crate) fn after_quiet<S: Side>(
    pos: &Position,
    from: u64,
    to: u64,
    is_king: bool,
    crowns: bool,
) -> Position {
    let own = S::own(pos) ^ from ^ to;
    let kings = if is_king {
        pos.kings ^ from ^ to
    } else if crowns {
        pos.kings | to
    } else {
        pos.kings
    };
    S::next(pos, own, S::enemy(pos), kings)
}

/// Quiet moves into a list.
fn push_quiet<R: Rules, S: Side>(v: &View, list: &mut MoveList) {
    for_each_quiet::<R, S>(v, |from, to, _, crowns| {
        list.push(Move { from: square_of(from), to: square_of(to), crowns, captured: 0 });
    });
}

// ---------------------------------------------------------------------------------------------
// Captures.

/// Where finished captures go: a move list in the fast generator, a counter in perft, a route
/// recorder when move text needs the squares a capture stops on. `step`/`back` bracket each
/// landing so a recorder can keep the route; elsewhere they compile to nothing.
pub(crate) trait CaptureSink {
    #[inline(always)]
    fn step(&mut self, _landing: u64) {}
    #[inline(always)]
    fn back(&mut self) {}
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool);
    /// Men captures in direction `d` that take one piece and end on `landings`.
    #[inline(always)]
    fn single_jumps(&mut self, landings: u64, d: i32, crown_row: u64) {
        let mut rest = landings;
        while rest != 0 {
            let land = rest & rest.wrapping_neg();
            rest ^= land;
            let over = shift(land, -d);
            self.finish(shift(over, -d), land, over, land & crown_row != 0);
        }
    }
}

/// Collects captures into a move list; with `unique`, routes that make the same move are
/// listed once. Only a move taking two or more pieces can be reached by two routes.
pub(crate) struct ListSink<'a> {
    pub(crate) list: &'a mut MoveList,
    pub(crate) unique: bool,
}

impl CaptureSink for ListSink<'_> {
    #[inline(always)]
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool) {
        let mv = Move { from: square_of(from), to: square_of(to), crowns, captured };
        if self.unique && has_two_or_more(captured) {
            self.list.push_capture_unique(mv);
        } else {
            self.list.push(mv);
        }
    }
}

/// Counts captures without listing those that cannot repeat (one piece taken); the others
/// are kept in `multi` to drop repeated routes.
pub(crate) struct CountSink<'a> {
    pub(crate) single: u64,
    pub(crate) multi: &'a mut MoveList,
    pub(crate) unique: bool,
}

impl CaptureSink for CountSink<'_> {
    #[inline(always)]
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool) {
        if self.unique && has_two_or_more(captured) {
            let mv = Move { from: square_of(from), to: square_of(to), crowns, captured };
            self.multi.push_capture_unique(mv);
        } else {
            self.single += 1;
        }
    }
    #[inline(always)]
    fn single_jumps(&mut self, landings: u64, _d: i32, _crown_row: u64) {
        self.single += u64::from(count_dark2(landings, 0));
    }
}

/// Every capture route of the side to move, each with the squares it stops on (start first).
#[derive(Default)]
pub(crate) struct RouteRecorder {
    path: Vec<Square>,
    pub(crate) routes: Vec<(Move, Vec<Square>)>,
}

impl CaptureSink for RouteRecorder {
    fn step(&mut self, landing: u64) {
        self.path.push(square_of(landing));
    }
    fn back(&mut self) {
        self.path.pop();
    }
    fn finish(&mut self, from: u64, to: u64, captured: u64, crowns: bool) {
        let mv = Move { from: square_of(from), to: square_of(to), crowns, captured };
        let mut route = vec![mv.from];
        route.extend_from_slice(&self.path);
        self.routes.push((mv, route));
    }
}

struct JumpContext {
    from: u64,
    /// Empty squares, counting the moving piece's start square as empty.
    empty: u64,
    enemy: u64,
}

/// The pieces among `pieces` with an adjacent enemy and an empty square behind it in
/// direction `d`.
#[inline(always)]
fn jumpers_in(pieces: u64, v: &View, d: i32) -> u64 {
    pieces & shift(shift(v.empty, -d) & v.enemy, -d)
}

/// The directions men capture in: forward, and in Russian backward too (in the order of
/// `ALL_DIRS`, which fixes the order moves are listed in).
#[inline(always)]
fn man_capture_dirs<R: Rules, S: Side>() -> &'static [i32] {
    if R::MEN_CAPTURE_BACKWARDS {
        &ALL_DIRS
    } else {
        &const { S::FORWARD }
    }
}

/// Sends every capture route of the side to move to `out` (nothing when there is none):
/// men first, then kings, each from the lowest square up.
#[inline(always)]
pub(crate) fn captures<R: Rules, S: Side, K: CaptureSink>(v: &View, out: &mut K) {
    let mut men = 0;
    for &d in man_capture_dirs::<R, S>() {
        men |= jumpers_in(v.men, v, d);
    }
    while men != 0 {
        let from = men & men.wrapping_neg();
        men ^= from;
        let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
        man_jumps::<R, S, K>(&ctx, from, 0, out);
    }
    king_captures::<R, K>(v, out);
}

#[inline(always)]
fn king_captures<R: Rules, K: CaptureSink>(v: &View, out: &mut K) {
    let mut kings = if R::FLYING_KINGS {
        v.kings
    } else {
        ALL_DIRS.iter().fold(0, |acc, &d| acc | jumpers_in(v.kings, v, d))
    };
    while kings != 0 {
        let from = kings & kings.wrapping_neg();
        kings ^= from;
        let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
        king_jumps::<R, K>(&ctx, from, 0, false, out);
    }
}

/// Every capture of the side to move, in no fixed order (for perft). Most man captures take
/// a single piece and cannot go on; those go to the sink a direction at a time, and only the
/// others are followed jump by jump.
#[inline(always)]
pub(crate) fn fast_captures<R: Rules, S: Side, K: CaptureSink>(v: &View, out: &mut K) {
    for &d in man_capture_dirs::<R, S>() {
        let jumpers = jumpers_in(v.men, v, d);
        if jumpers == 0 {
            continue;
        }
        let landings = shift(shift(jumpers, d), d);
        // From a landing square a man goes on if it can jump in any direction but back over
        // the piece it just took. The start square, now empty, lies only in that direction,
        // so the board as it stands answers the question.
        let mut going_on = 0;
        for &e in man_capture_dirs::<R, S>() {
            if e != -d {
                going_on |= jumpers_in(landings, v, e);
            }
        }
        let special = if R::CROWNING_ENDS_MOVE {
            going_on & !S::CROWN_ROW
        } else {
            going_on | (landings & S::CROWN_ROW)
        };
        out.single_jumps(landings & !special, d, S::CROWN_ROW);
        let mut rest = special;
        while rest != 0 {
            let land = rest & rest.wrapping_neg();
            rest ^= land;
            let over = shift(land, -d);
            let from = shift(over, -d);
            let ctx = JumpContext { from, empty: v.empty | from, enemy: v.enemy };
            if land & S::CROWN_ROW == 0 {
                man_jumps::<R, S, _>(&ctx, land, over, out);
            } else {
                king_jumps::<R, _>(&ctx, land, over, true, out);
            }
        }
    }
    if v.kings != 0 {
        king_captures::<R, _>(v, out);
    }
}

fn man_jumps<R: Rules, S: Side, K: CaptureSink>(ctx: &JumpContext, at: u64, captured: u64, out: &mut K) {
    let mut jumped = false;
    for &d in man_capture_dirs::<R, S>() {
        let over = shift(at, d) & ctx.enemy & !captured;
        if over == 0 {
            continue;
        }
        let land = shift(over, d) & ctx.empty;
        if land == 0 {
            continue;
        }
        jumped = true;
        out.step(land);
        if land & S::CROWN_ROW == 0 {
            man_jumps::<R, S, K>(ctx, land, captured | over, out);
        } else if R::CROWNING_ENDS_MOVE {
            out.finish(ctx.from, land, captured | over, true);
        } else {
            // Crowned mid-capture: goes on as a king in the same move.
            king_jumps::<R, K>(ctx, land, captured | over, true, out);
        }
        out.back();
    }
    if !jumped && captured != 0 {
        out.finish(ctx.from, at, captured, false);
    }
}

#[inline(always)]
fn king_jumps<R: Rules, K: CaptureSink>(
    ctx: &JumpContext,
    at: u64,
    captured: u64,
    crowned: bool,
    out: &mut K,
) {
    if R::FLYING_KINGS {
        flying_king_jumps(ctx, at, captured, crowned, out);
    } else {
        short_king_jumps(ctx, at, captured, crowned, out);
    }
}

fn short_king_jumps<K: CaptureSink>(ctx: &JumpContext, at: u64, captured: u64, crowned: bool, out: &mut K) {
    let mut jumped = false;
    for d in ALL_DIRS {
        let over = shift(at, d) & ctx.enemy & !captured;
        if over == 0 {
            continue;
        }
        let land = shift(over, d) & ctx.empty;
        if land == 0 {
            continue;
        }
        jumped = true;
        out.step(land);
        short_king_jumps(ctx, land, captured | over, crowned, out);
        out.back();
    }
    if !jumped && captured != 0 {
        out.finish(ctx.from, at, captured, crowned);
    }
}

/// The first occupied square from `at` in direction `d`, if it is an enemy piece not yet
/// captured with an empty square right behind it.
#[inline(always)]
fn flying_target(ctx: &JumpContext, at: u64, d: i32, captured: u64) -> u64 {
    let mut sq = shift(at, d);
    while sq & ctx.empty != 0 {
        sq = shift(sq, d);
    }
    let over = sq & ctx.enemy & !captured;
    if over != 0 && shift(over, d) & ctx.empty != 0 {
        over
    } else {
        0
    }
}

fn flying_king_can_capture(ctx: &JumpContext, at: u64, captured: u64) -> bool {
    ALL_DIRS.iter().any(|&d| flying_target(ctx, at, d, captured) != 0)
}

fn flying_king_jumps<K: CaptureSink>(ctx: &JumpContext, at: u64, captured: u64, crowned: bool, out: &mut K) {
    let mut jumped = false;
    for d in ALL_DIRS {
        let over = flying_target(ctx, at, d, captured);
        if over == 0 {
            continue;
        }
        jumped = true;
        let now_captured = captured | over;
        // Landing squares: every empty square behind the captured piece up to the next piece.
        let mut landings = 0u64;
        let mut sq = shift(over, d) & ctx.empty;
        while sq != 0 {
            landings |= sq;
            sq = shift(sq, d) & ctx.empty;
        }
        // Where the capture can go on from some landing squares, the king must stop on one.
        let mut going_on = 0u64;
        let mut rest = landings;
        while rest != 0 {
            let l = rest & rest.wrapping_neg();
            rest ^= l;
            if flying_king_can_capture(ctx, l, now_captured) {
                going_on |= l;
            }
        }
        let mut rest = if going_on != 0 { going_on } else { landings };
        while rest != 0 {
            let l = rest & rest.wrapping_neg();
            rest ^= l;
            out.step(l);
            if going_on != 0 {
                flying_king_jumps(ctx, l, now_captured, crowned, out);
            } else {
                out.finish(ctx.from, l, now_captured, crowned);
            }
            out.back();
        }
    }
    if !jumped && captured != 0 {
        out.finish(ctx.from, at, captured, crowned);
    }
}

/// The number of legal moves of the side to move: quiet moves by popcount, captures counted
/// without listing those that cannot repeat. `multi` is scratch space.
#[inline(always)]
pub(crate) fn count_moves<R: Rules, S: Side>(pos: &Position, unique: bool, multi: &mut MoveList) -> u64 {
    let v = View::of::<S>(pos);
    if has_capture::<R, S>(&v) {
        multi.clear();
        let mut sink = CountSink { single: 0, multi, unique };
        fast_captures::<R, S, _>(&v, &mut sink);
        sink.single + sink.multi.len() as u64
    } else {
        count_quiet::<R, S>(&v)
    }
}

/// Fills `list` with the legal moves, captures only when there is one.
fn generate<R: Rules, S: Side>(pos: &Position, list: &mut MoveList, unique: bool) {
    let v = View::of::<S>(pos);
    if has_capture::<R, S>(&v) {
        captures::<R, S, _>(&v, &mut ListSink { list, unique });
    } else {
        push_quiet::<R, S>(&v, list);
    }
}

fn generate_captures_only<R: Rules, S: Side>(pos: &Position, list: &mut MoveList, unique: bool) {
    let v = View::of::<S>(pos);
    if has_capture::<R, S>(&v) {
        captures::<R, S, _>(&v, &mut ListSink { list, unique });
    }
}

fn has_capture_at<R: Rules, S: Side>(pos: &Position) -> bool {
    has_capture::<R, S>(&View::of::<S>(pos))
}

fn count_at<R: Rules, S: Side>(pos: &Position) -> u64 {
    let mut multi = MoveList::new();
    count_moves::<R, S>(pos, true, &mut multi)
}

fn has_legal_move_at<R: Rules, S: Side>(pos: &Position) -> bool {
    let v = View::of::<S>(pos);
    has_capture::<R, S>(&v) || count_quiet::<R, S>(&v) != 0
}

fn record_routes<R: Rules, S: Side>(pos: &Position, rec: &mut RouteRecorder) {
    let v = View::of::<S>(pos);
    if has_capture::<R, S>(&v) {
        captures::<R, S, _>(&v, rec);
    }
}

impl Position {
    /// All legal moves (captures only, when any capture exists).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Fills `list` with the legal moves (clearing it first).
    #[inline]
    pub fn generate_moves(&self, list: &mut MoveList) {
        list.clear();
        dispatch!(self, generate(self, list, true));
    }

    /// Fills `list` with the captures only (empty if there is none).
    pub fn generate_captures(&self, list: &mut MoveList) {
        list.clear();
        dispatch!(self, generate_captures_only(self, list, true));
    }

    /// Whether the side to move has a capture (so every legal move is a capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        dispatch!(self, has_capture_at(self))
    }

    /// Whether the side to move has any legal move at all.
    pub fn has_legal_move(&self) -> bool {
        dispatch!(self, has_legal_move_at(self))
    }

    /// The number of legal moves, counted without listing quiet moves one by one (the bulk
    /// count that perft uses at its last ply).
    pub fn count_legal_moves(&self) -> u64 {
        dispatch!(self, count_at(self))
    }

    /// The moves perft follows when counting English jump *paths*: every distinct jump route
    /// once, as OEIS A133046 counts them. With flying kings (Russian) these are the legal
    /// moves, as the published figures count them.
    pub(crate) fn generate_capture_paths(&self, list: &mut MoveList) {
        list.clear();
        let unique = self.variant.flying_kings();
        dispatch!(self, generate(self, list, unique));
    }

    /// All capture routes, not merged into moves, with their stopping squares.
    pub(crate) fn capture_routes(&self) -> Vec<(Move, Vec<Square>)> {
        let mut rec = RouteRecorder::default();
        dispatch!(self, record_routes(self, &mut rec));
        rec.routes
    }
}
