//! Legal move generation on bitboards.
//!
//! Quiet moves of men and short kings are generated a whole direction at a time; captures are
//! followed piece by piece. Captured pieces stay on the board until the move ends (they block
//! and cannot be jumped twice), and the moving piece's start square counts as empty.

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

#[inline(always)]
fn forward_dirs(color: Color) -> [i32; 2] {
    match color {
        Color::White => [NE, NW],
        Color::Black => [SE, SW],
    }
}

#[inline(always)]
fn crown_row(color: Color) -> u64 {
    match color {
        Color::White => TOP_ROW,
        Color::Black => BOTTOM_ROW,
    }
}

#[inline(always)]
fn square_of(bit: u64) -> Square {
    Square::from_index(bit.trailing_zeros())
}

/// The parts of a position a generator needs, seen from the side to move.
#[derive(Clone, Copy)]
struct Sides {
    color: Color,
    men: u64,
    kings: u64,
    enemy: u64,
    empty: u64,
}

impl Sides {
    #[inline(always)]
    fn of(pos: &Position) -> Sides {
        let own = pos.side_bits(pos.turn);
        let enemy = pos.side_bits(pos.turn.opponent());
        Sides {
            color: pos.turn,
            men: own & !pos.kings,
            kings: own & pos.kings,
            enemy,
            empty: DARK & !(own | enemy),
        }
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
        let s = Sides::of(self);
        match self.variant {
            Variant::English => {
                english_captures(&s, list, true);
                if list.is_empty() {
                    quiet_moves(&s, false, list);
                }
            }
            Variant::Russian => {
                russian_captures(&s, list);
                if list.is_empty() {
                    quiet_moves(&s, true, list);
                }
            }
        }
    }

    /// Fills `list` with the captures only (empty if there is none).
    pub fn generate_captures(&self, list: &mut MoveList) {
        list.clear();
        let s = Sides::of(self);
        match self.variant {
            Variant::English => english_captures(&s, list, true),
            Variant::Russian => russian_captures(&s, list),
        }
    }

    /// Whether the side to move has a capture (so every legal move is a capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        let s = Sides::of(self);
        match self.variant {
            Variant::English => english_jumpers_exist(&s),
            Variant::Russian => russian_jumpers_exist(&s),
        }
    }

    /// Whether the side to move has any legal move at all.
    pub fn has_legal_move(&self) -> bool {
        let s = Sides::of(self);
        if self.has_capture() {
            return true;
        }
        let movers = s.men;
        for d in forward_dirs(s.color) {
            if shift(movers, d) & s.empty != 0 {
                return true;
            }
        }
        ALL_DIRS.iter().any(|&d| shift(s.kings, d) & s.empty != 0)
    }

    /// The number of legal moves, counted without listing quiet moves one by one (the bulk
    /// count that perft uses at its last ply).
    pub fn count_legal_moves(&self) -> u64 {
        if self.has_capture() {
            let mut list = MoveList::new();
            self.generate_captures(&mut list);
            return list.len() as u64;
        }
        self.count_quiet_moves()
    }

    /// The number of quiet moves, by popcounts; meaningful only when there is no capture.
    #[inline]
    pub(crate) fn count_quiet_moves(&self) -> u64 {
        let s = Sides::of(self);
        let mut n = 0u64;
        for d in forward_dirs(s.color) {
            n += u64::from((shift(s.men, d) & s.empty).count_ones());
        }
        if s.kings != 0 {
            for d in ALL_DIRS {
                let mut k = shift(s.kings, d) & s.empty;
                n += u64::from(k.count_ones());
                if self.variant.flying_kings() {
                    while k != 0 {
                        k = shift(k, d) & s.empty;
                        n += u64::from(k.count_ones());
                    }
                }
            }
        }
        n
    }

    /// Counts English capture moves as *paths*: every distinct jump route once, as OEIS
    /// A133046 counts them. Equal to the number of capture moves in every other variant.
    pub(crate) fn generate_capture_paths(&self, list: &mut MoveList) {
        list.clear();
        let s = Sides::of(self);
        match self.variant {
            Variant::English => english_captures(&s, list, false),
            Variant::Russian => russian_captures(&s, list),
        }
    }
}

fn quiet_moves(s: &Sides, flying: bool, list: &mut MoveList) {
    let crown = crown_row(s.color);
    for d in forward_dirs(s.color) {
        let mut targets = shift(s.men, d) & s.empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets ^= to;
            list.push(Move {
                from: square_of(shift(to, -d)),
                to: square_of(to),
                crowns: to & crown != 0,
                captured: 0,
            });
        }
    }
    if s.kings == 0 {
        return;
    }
    if flying {
        let mut kings = s.kings;
        while kings != 0 {
            let from = kings & kings.wrapping_neg();
            kings ^= from;
            for d in ALL_DIRS {
                let mut to = shift(from, d) & s.empty;
                while to != 0 {
                    list.push(Move { from: square_of(from), to: square_of(to), crowns: false, captured: 0 });
                    to = shift(to, d) & s.empty;
                }
            }
        }
    } else {
        for d in ALL_DIRS {
            let mut targets = shift(s.kings, d) & s.empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                list.push(Move {
                    from: square_of(shift(to, -d)),
                    to: square_of(to),
                    crowns: false,
                    captured: 0,
                });
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// English captures: short jumps; men forward only; crowning ends the move.

#[inline(always)]
fn english_jumpers_exist(s: &Sides) -> bool {
    for d in forward_dirs(s.color) {
        if shift(shift(s.men | s.kings, d) & s.enemy, d) & s.empty != 0 {
            return true;
        }
    }
    if s.kings != 0 {
        for d in backward_dirs(s.color) {
            if shift(shift(s.kings, d) & s.enemy, d) & s.empty != 0 {
                return true;
            }
        }
    }
    false
}

/// The pieces among `pieces` with an adjacent enemy and an empty square behind it, in one of
/// `dirs`.
#[inline(always)]
fn jumpers<const N: usize>(pieces: u64, enemy: u64, empty: u64, dirs: [i32; N]) -> u64 {
    let mut found = 0;
    for d in dirs {
        found |= shift(shift(empty, -d) & enemy, -d);
    }
    pieces & found
}

#[inline(always)]
fn backward_dirs(color: Color) -> [i32; 2] {
    forward_dirs(color.opponent())
}

/// `unique`: list each move once (perft "moves"); otherwise every route (perft "paths").
fn english_captures<S: CaptureSink>(s: &Sides, list: &mut S, unique: bool) {
    if !english_jumpers_exist(s) {
        return;
    }
    let crown = crown_row(s.color);
    let mut men = s.men & jumpers(s.men, s.enemy, s.empty, forward_dirs(s.color));
    while men != 0 {
        let from = men & men.wrapping_neg();
        men ^= from;
        let ctx = JumpContext { from, empty: s.empty | from, enemy: s.enemy, crown, unique };
        english_man_jumps(&ctx, forward_dirs(s.color), from, 0, list);
    }
    let mut kings = s.kings & jumpers(s.kings, s.enemy, s.empty, ALL_DIRS);
    while kings != 0 {
        let from = kings & kings.wrapping_neg();
        kings ^= from;
        let ctx = JumpContext { from, empty: s.empty | from, enemy: s.enemy, crown, unique };
        english_king_jumps(&ctx, from, 0, list);
    }
}

/// Where finished captures go: a move list in the fast generator, a route recorder when
/// move text needs the squares a capture stops on. `step`/`back` bracket each landing so a
/// recorder can keep the route; for a move list they compile to nothing.
pub(crate) trait CaptureSink {
    #[inline(always)]
    fn step(&mut self, _landing: u64) {}
    #[inline(always)]
    fn back(&mut self) {}
    fn finish(&mut self, mv: Move, unique: bool);
}

impl CaptureSink for MoveList {
    #[inline(always)]
    fn finish(&mut self, mv: Move, unique: bool) {
        if unique && mv.captured.count_ones() >= 2 {
            self.push_capture_unique(mv);
        } else {
            self.push(mv);
        }
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
    fn finish(&mut self, mv: Move, _unique: bool) {
        let mut route = vec![mv.from];
        route.extend_from_slice(&self.path);
        self.routes.push((mv, route));
    }
}

impl Position {
    /// All capture routes, not merged into moves, with their stopping squares.
    pub(crate) fn capture_routes(&self) -> Vec<(Move, Vec<Square>)> {
        let mut rec = RouteRecorder::default();
        let s = Sides::of(self);
        match self.variant {
            Variant::English => english_captures(&s, &mut rec, false),
            Variant::Russian => russian_captures(&s, &mut rec),
        }
        rec.routes
    }
}

struct JumpContext {
    from: u64,
    /// Empty squares, counting the moving piece's start square as empty.
    empty: u64,
    enemy: u64,
    crown: u64,
    unique: bool,
}

impl JumpContext {
    #[inline(always)]
    fn finish<S: CaptureSink>(&self, at: u64, captured: u64, crowns: bool, out: &mut S) {
        let mv = Move { from: square_of(self.from), to: square_of(at), crowns, captured };
        out.finish(mv, self.unique);
    }
}

fn english_man_jumps<S: CaptureSink>(
    ctx: &JumpContext,
    dirs: [i32; 2],
    at: u64,
    captured: u64,
    list: &mut S,
) {
    let mut jumped = false;
    for d in dirs {
        let over = shift(at, d) & ctx.enemy & !captured;
        if over == 0 {
            continue;
        }
        let land = shift(over, d) & ctx.empty;
        if land == 0 {
            continue;
        }
        jumped = true;
        list.step(land);
        if land & ctx.crown != 0 {
            ctx.finish(land, captured | over, true, list);
        } else {
            english_man_jumps(ctx, dirs, land, captured | over, list);
        }
        list.back();
    }
    if !jumped && captured != 0 {
        ctx.finish(at, captured, false, list);
    }
}

fn english_king_jumps<S: CaptureSink>(ctx: &JumpContext, at: u64, captured: u64, list: &mut S) {
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
        list.step(land);
        english_king_jumps(ctx, land, captured | over, list);
        list.back();
    }
    if !jumped && captured != 0 {
        ctx.finish(at, captured, false, list);
    }
}

// ---------------------------------------------------------------------------------------------
// Russian captures: men capture both ways, kings fly, Turkish strike, promotion mid-capture.

#[inline(always)]
fn russian_jumpers_exist(s: &Sides) -> bool {
    let pieces = s.men | s.kings;
    for d in ALL_DIRS {
        if shift(shift(pieces, d) & s.enemy, d) & s.empty != 0 {
            return true;
        }
    }
    if s.kings != 0 {
        for d in ALL_DIRS {
            // Slide every king through empty squares, then look for an enemy with a gap behind.
            let mut ray = shift(s.kings, d);
            let mut reach = ray & s.empty;
            while reach != 0 {
                ray |= shift(reach, d);
                reach = shift(reach, d) & s.empty;
            }
            if shift(ray & s.enemy, d) & s.empty != 0 {
                return true;
            }
        }
    }
    false
}

fn russian_captures<S: CaptureSink>(s: &Sides, list: &mut S) {
    if !russian_jumpers_exist(s) {
        return;
    }
    let crown = crown_row(s.color);
    let mut men = jumpers(s.men, s.enemy, s.empty, ALL_DIRS);
    while men != 0 {
        let from = men & men.wrapping_neg();
        men ^= from;
        let ctx = JumpContext { from, empty: s.empty | from, enemy: s.enemy, crown, unique: true };
        russian_man_jumps(&ctx, from, 0, list);
    }
    let mut kings = s.kings;
    while kings != 0 {
        let from = kings & kings.wrapping_neg();
        kings ^= from;
        let ctx = JumpContext { from, empty: s.empty | from, enemy: s.enemy, crown, unique: true };
        russian_king_jumps(&ctx, from, 0, false, list);
    }
}

fn russian_man_jumps<S: CaptureSink>(ctx: &JumpContext, at: u64, captured: u64, list: &mut S) {
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
        list.step(land);
        if land & ctx.crown != 0 {
            // Crowned mid-capture: goes on as a king in the same move.
            russian_king_jumps(ctx, land, captured | over, true, list);
        } else {
            russian_man_jumps(ctx, land, captured | over, list);
        }
        list.back();
    }
    if !jumped && captured != 0 {
        ctx.finish(at, captured, false, list);
    }
}

/// The first occupied square from `at` in direction `d`, if it is an enemy piece not yet
/// captured with an empty square right behind it.
#[inline(always)]
fn king_target(ctx: &JumpContext, at: u64, d: i32, captured: u64) -> u64 {
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

fn king_can_capture(ctx: &JumpContext, at: u64, captured: u64) -> bool {
    ALL_DIRS.iter().any(|&d| king_target(ctx, at, d, captured) != 0)
}

fn russian_king_jumps<S: CaptureSink>(
    ctx: &JumpContext,
    at: u64,
    captured: u64,
    crowned: bool,
    list: &mut S,
) {
    let mut jumped = false;
    for d in ALL_DIRS {
        let over = king_target(ctx, at, d, captured);
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
            if king_can_capture(ctx, l, now_captured) {
                going_on |= l;
            }
        }
        if going_on != 0 {
            let mut rest = going_on;
            while rest != 0 {
                let l = rest & rest.wrapping_neg();
                rest ^= l;
                list.step(l);
                russian_king_jumps(ctx, l, now_captured, crowned, list);
                list.back();
            }
        } else {
            let mut rest = landings;
            while rest != 0 {
                let l = rest & rest.wrapping_neg();
                rest ^= l;
                list.step(l);
                ctx.finish(l, now_captured, crowned, list);
                list.back();
            }
        }
    }
    if !jumped && captured != 0 {
        ctx.finish(at, captured, crowned, list);
    }
}
