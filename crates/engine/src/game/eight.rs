//! English checkers and Russian draughts: the 8x8 positions of the rules library, with their
//! networks and fitted tables, endgame databases and opening books.

use checkers_endgame::{Database, Value};
use checkers_rules::{
    is_drawn_king_against_king, lone_kings_plies_to_capture, lone_kings_result, Color, LoneKingsResult, Move,
    MoveList, Position, Variant,
};

use super::{MoveBuffer, SearchMove, SearchPosition, SearchRules};
use crate::book::book;
use crate::endgame;
use crate::eval::{evaluate, evaluate_tables};
use crate::score::Score;

impl SearchMove for Move {
    #[inline(always)]
    fn start_slot(&self) -> u32 {
        self.from().rank() * 8 + self.from().file()
    }
    #[inline(always)]
    fn end_slot(&self) -> u32 {
        self.to().rank() * 8 + self.to().file()
    }
    #[inline(always)]
    fn is_capture(&self) -> bool {
        Move::is_capture(self)
    }
    #[inline(always)]
    fn crowns(&self) -> bool {
        Move::crowns(self)
    }
    #[inline(always)]
    fn captured_count(&self) -> u32 {
        self.captured().len()
    }
}

impl MoveBuffer<Move> for MoveList {
    #[inline(always)]
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline(always)]
    fn as_slice(&self) -> &[Move] {
        MoveList::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Move] {
        MoveList::as_mut_slice(self)
    }
    fn retain(&mut self, keep: impl FnMut(&Move) -> bool) {
        MoveList::retain(self, keep);
    }
}

impl SearchPosition for Position {
    type Move = Move;
    type Moves = MoveList;
    const SLOT_BITS: u32 = 6;

    #[inline(always)]
    fn hash_key(&self) -> u64 {
        Position::hash_key(self)
    }
    #[inline(always)]
    fn turn(&self) -> Color {
        Position::turn(self)
    }
    #[inline(always)]
    fn piece_count(&self) -> u32 {
        self.pieces(Color::White).len() + self.pieces(Color::Black).len()
    }
    #[inline(always)]
    fn generate_moves(&self, list: &mut MoveList) {
        Position::generate_moves(self, list);
    }
    #[inline(always)]
    fn generate_captures(&self, list: &mut MoveList) {
        Position::generate_captures(self, list);
    }
    #[inline(always)]
    fn play_unchecked(&self, mv: &Move) -> Position {
        Position::play_unchecked(self, mv)
    }
    #[inline(always)]
    fn moves_man(&self, mv: &Move) -> bool {
        self.men_of(self.turn()).contains(mv.from())
    }
    fn king_move_between(previous: &Position, next: &Position) -> bool {
        previous.men_of(Color::White) == next.men_of(Color::White)
            && previous.men_of(Color::Black) == next.men_of(Color::Black)
            && previous.kings().len() == next.kings().len()
            && previous.turn() != next.turn()
    }
    #[inline(always)]
    fn drawn_by_position(&self) -> bool {
        self.variant() == Variant::Russian && is_drawn_king_against_king(self)
    }
    fn exact_ending(&self) -> Option<(u32, bool)> {
        // The database's wins are not trusted in Russian (the move-count draws), but a lone
        // king against a lone king is exact and over within three plies.
        if self.variant() != Variant::Russian {
            return None;
        }
        let plies = lone_kings_plies_to_capture(self)?;
        Some((plies, lone_kings_result(self) == Some(LoneKingsResult::Win)))
    }

    #[inline(always)]
    fn evaluate(&self, tables_only: bool) -> i32 {
        if tables_only {
            evaluate_tables(self)
        } else {
            evaluate(self)
        }
    }
    #[inline(always)]
    fn evaluation_salt(&self) -> u64 {
        match self.variant() {
            Variant::English => 0,
            Variant::Russian => 0x6a09_e667_f3bc_c909,
        }
    }
    fn search_rules(&self) -> SearchRules {
        let english = self.variant() == Variant::English;
        SearchRules {
            // English: the 40-move rule; Russian: 15 moves of kings alone without a capture.
            quiet_ply_limit: if english { 80 } else { 30 },
            repetition_draws: true,
            truncation: english,
            counter_moves: english,
        }
    }
    fn tables_below_top_level(&self) -> bool {
        self.variant() == Variant::Russian
    }
    fn opening_pieces(&self) -> u32 {
        16
    }

    fn endgame_database(&self) -> Option<&'static Database> {
        Some(endgame::database(self.variant()))
    }
    #[inline(always)]
    fn probe_database(&self, database: &Database) -> Option<Value> {
        database.probe(self)
    }
    fn database_wins_hold(&self) -> bool {
        endgame::wins_hold(self.variant())
    }
    fn book_moves(&self) -> Option<Vec<(Move, Score)>> {
        let moves = book(self.variant()).playable(self)?;
        Some(moves.iter().map(|m| (m.mv, m.score)).collect())
    }
}
