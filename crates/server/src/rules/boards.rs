//! Every variant of the rules library's boards of any size ([`Board`], [`BoardGame`]) as the
//! server plays it: squares by the library's numbers (1-50 on 10x10, 1-72 on 12x12, 1-64 on
//! Turkish's board, a8 first), move text as the variant's PDN writes it (numbers, or names
//! `c3-d4` for Brazilian, Czech and Turkish; a client may send either on the 8x8 boards), and
//! each variant's game ends as reason codes of their own.

use checkers_engine::BoardEngine;
use checkers_rules::board::{
    Board, BoardDrawReason, BoardGame, BoardMove, BoardOutcome, BoardVariant, BoardWinReason, Geometry,
    RuleSet,
};
use checkers_rules::{
    names_allowed, names_to_numbers, numbers_to_names, BoardPdnGame, Color, SquareNotation,
};

use super::position::{Declared, VariantRules};
use super::record::GameRecord;
use super::End;
use crate::variant::GameVariant;

type G<V> = <V as RuleSet>::Geometry;

/// The board variant whose rule set is `V`.
fn board_variant<V: RuleSet>() -> BoardVariant {
    BoardVariant::of::<V>().unwrap_or(BoardVariant::International)
}

/// Whether the variant's players name squares `a1`-`h8` where its board also has numbers
/// (Brazilian and Czech; Turkish's squares have only names, which the library writes itself).
fn writes_names<V: RuleSet>() -> bool {
    names_allowed::<G<V>>() && board_variant::<V>().pdn_notation() == SquareNotation::Algebraic
}

/// A square as the variant's players write it.
fn name<V: RuleSet>(square: u32) -> String {
    let text = G::<V>::square_name(square);
    if writes_names::<V>() {
        numbers_to_names::<G<V>>(&text)
    } else {
        text
    }
}

/// The stable code of a game end's reason, as stored and sent to clients.
fn reason_code(outcome: &BoardOutcome) -> &'static str {
    match outcome {
        BoardOutcome::Win { reason, .. } => super::win_code(*reason),
        BoardOutcome::Draw { reason } => match reason {
            BoardDrawReason::Agreement => "agreement",
            BoardDrawReason::ThreefoldRepetition => "threefold_repetition",
            BoardDrawReason::TwentyFiveMoveRule => "twenty_five_move_rule",
            BoardDrawReason::SixteenMoveRule => "sixteen_move_rule",
            BoardDrawReason::FiveMoveRule => "five_move_rule",
            BoardDrawReason::Repetition => "repetition",
            BoardDrawReason::KingMoveLimit => "king_move_limit",
            BoardDrawReason::TwoKingsAgainstOne => "two_kings_against_one",
            BoardDrawReason::OneKingEach => "one_king_each",
            BoardDrawReason::OnePieceEach => "one_piece_each",
        },
        BoardOutcome::VariantWin { reason, .. } => match reason {
            BoardWinReason::NoMovesLeft => "no_moves_left",
            BoardWinReason::FirstKing => "first_king",
        },
    }
}

impl<V: BoardEngine> VariantRules for Board<V> {
    type Game = BoardGame<V>;

    fn variant(&self) -> GameVariant {
        GameVariant::Board(board_variant::<V>())
    }
    fn first_mover(&self) -> Color {
        V::FIRST
    }
    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_text(&self, mv: &BoardMove<V>) -> String {
        let text = mv.to_pdn(self);
        if writes_names::<V>() {
            numbers_to_names::<G<V>>(&text)
        } else {
            text
        }
    }
    fn route(&self, mv: &BoardMove<V>) -> Vec<u32> {
        mv.route(self)
    }
    fn ends(mv: &BoardMove<V>) -> (u32, u32) {
        (mv.from(), mv.to())
    }
    fn captured(mv: &BoardMove<V>) -> Vec<u32> {
        mv.captured()
    }
    fn hub(mv: &BoardMove<V>) -> String {
        mv.to_hub()
    }
    fn legal_by_hub(&self, text: &str) -> Option<BoardMove<V>> {
        self.legal_moves().iter().copied().find(|mv| mv.to_hub() == text)
    }

    fn read_move(&self, text: &str) -> Result<BoardMove<V>, String> {
        let numbered =
            if names_allowed::<G<V>>() { names_to_numbers::<G<V>>(text) } else { text.to_string() };
        self.parse_move(&numbered).map_err(|e| e.to_string())
    }

    fn find_move(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<BoardMove<V>, String> {
        let squares = G::<V>::SQUARES;
        for &n in [from, to].iter().chain(captured.unwrap_or_default()) {
            if !(1..=squares).contains(&n) {
                return Err(format!("{n} is not a square (1-{squares})"));
            }
        }
        let mut found: Vec<BoardMove<V>> =
            self.legal_moves().iter().copied().filter(|mv| mv.from() == from && mv.to() == to).collect();
        if let Some(list) = captured {
            let mut wanted = list.to_vec();
            wanted.sort_unstable();
            wanted.dedup();
            found.retain(|mv| mv.captured() == wanted);
        }
        match found.as_slice() {
            [mv] => Ok(*mv),
            [_, _, ..] => Err(format!(
                "{}x{} is ambiguous: say which pieces it captures",
                name::<V>(from),
                name::<V>(to)
            )),
            [] => Err(format!(
                "{}-{} is not a legal move: {}",
                name::<V>(from),
                name::<V>(to),
                self.illegal_reason(from)
            )),
        }
    }

    fn new_game(start: Board<V>) -> BoardGame<V> {
        BoardGame::from_position(start)
    }
    fn start(game: &BoardGame<V>) -> Board<V> {
        game.start()
    }
    fn positions(game: &BoardGame<V>) -> &[Board<V>] {
        game.positions()
    }
    fn moves(game: &BoardGame<V>) -> &[BoardMove<V>] {
        game.moves()
    }
    fn play(game: &mut BoardGame<V>, mv: BoardMove<V>) -> Result<(), String> {
        game.play(mv).map_err(|e| e.to_string())
    }
    fn declare(game: &mut BoardGame<V>, declared: Declared) -> bool {
        match declared {
            Declared::Resignation(color) => game.resign(color).is_ok(),
            Declared::Time(color) => game.lose_on_time(color).is_ok(),
            Declared::Draw => game.agree_draw().is_ok(),
        }
    }
    fn outcome(game: &BoardGame<V>) -> Option<End> {
        let outcome = game.outcome()?;
        Some(End { winner: outcome.winner(), reason: reason_code(&outcome), message: outcome.to_string() })
    }
    fn record(game: &BoardGame<V>) -> GameRecord {
        GameRecord::Board(Box::new(BoardPdnGame::from_game(game)))
    }
}
