//! English and Russian on the rules library's 8x8 code ([`Position`], [`Game`]), as the server
//! has always played them: squares 1-32, English moves in numbers, Russian ones in algebraic
//! notation with `:` for captures (`crate::pdn`), and the refusals' wording unchanged.

use checkers_rules::{Color, DrawReason, Game, Move, Outcome, PdnGame, PdnResult, Position, Square};

use super::position::{Declared, VariantRules};
use super::record::GameRecord;
use super::End;
use crate::variant::GameVariant;

/// The stable code of an outcome's reason, as stored and sent to clients.
fn reason_code(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => super::win_code(*reason),
        Outcome::Draw { reason } => match reason {
            DrawReason::Agreement => "agreement",
            DrawReason::ThreefoldRepetition => "threefold_repetition",
            DrawReason::FortyMoveRule => "forty_move_rule",
            DrawReason::KingAgainstKing => "king_against_king",
            DrawReason::ThreeKingsAgainstKing => "three_kings_against_king",
            DrawReason::KingsOnlyFifteenMoves => "kings_only_fifteen_moves",
            DrawReason::EqualForcesNoCapture => "equal_forces_no_capture",
            DrawReason::FewPiecesAgainstKing => "few_pieces_against_king",
        },
    }
}

fn square(n: u32) -> Result<Square, String> {
    Square::from_number(n).ok_or_else(|| format!("{n} is not a square (1-32)"))
}

impl VariantRules for Position {
    type Game = Game;

    fn variant(&self) -> GameVariant {
        GameVariant::Eight(Position::variant(self))
    }
    fn first_mover(&self) -> Color {
        Position::variant(self).first_to_move()
    }
    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_text(&self, mv: &Move) -> String {
        crate::pdn::move_text(self, mv)
    }
    fn route(&self, mv: &Move) -> Vec<u32> {
        mv.route(self).iter().map(|sq| sq.number()).collect()
    }
    fn ends(mv: &Move) -> (u32, u32) {
        (mv.from().number(), mv.to().number())
    }
    fn captured(mv: &Move) -> Vec<u32> {
        mv.captured().squares().iter().map(|sq| sq.number()).collect()
    }
    fn hub(mv: &Move) -> String {
        mv.to_hub()
    }

    /// The legal move named by Hub move text (`11-15`, `9x27x14x23`).
    fn legal_by_hub(&self, text: &str) -> Option<Move> {
        let squares: Vec<Square> = text
            .split(['-', 'x'])
            .map(|p| p.parse().ok().and_then(Square::from_number))
            .collect::<Option<Vec<_>>>()?;
        if squares.len() < 2 {
            return None;
        }
        let captured = if text.contains('x') { Some(&squares[2..]) } else { None };
        self.find_move(squares[0], squares[1], captured)
    }

    fn read_move(&self, text: &str) -> Result<Move, String> {
        self.parse_move(text).map_err(|e| e.to_string())
    }

    fn find_move(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<Move, String> {
        let (from, to) = (square(from)?, square(to)?);
        let captured = match captured {
            None => None,
            Some(list) => Some(list.iter().map(|&n| square(n)).collect::<Result<Vec<_>, _>>()?),
        };
        if let Some(mv) = Position::find_move(self, from, to, captured.as_deref()) {
            return Ok(mv);
        }
        let candidates = self.legal_moves().iter().filter(|m| m.from() == from && m.to() == to).count();
        if candidates > 1 && captured.is_none() {
            Err(format!("{from}x{to} is ambiguous: say which pieces it captures"))
        } else {
            Err(format!("{}-{} is not a legal move: {}", from, to, self.explain_illegal(from, to)))
        }
    }

    fn new_game(start: Position) -> Game {
        Game::from_position(start)
    }
    fn start(game: &Game) -> Position {
        game.start()
    }
    fn positions(game: &Game) -> &[Position] {
        game.positions()
    }
    fn moves(game: &Game) -> &[Move] {
        game.moves()
    }
    fn play(game: &mut Game, mv: Move) -> Result<(), String> {
        game.play(mv).map_err(|e| e.to_string())
    }
    fn declare(game: &mut Game, declared: Declared) -> bool {
        match declared {
            Declared::Resignation(color) => game.resign(color).is_ok(),
            Declared::Time(color) => game.lose_on_time(color).is_ok(),
            Declared::Draw => game.agree_draw().is_ok(),
        }
    }
    fn outcome(game: &Game) -> Option<End> {
        let outcome = game.outcome()?;
        Some(End { winner: outcome.winner(), reason: reason_code(&outcome), message: outcome.to_string() })
    }
    fn record(game: &Game) -> GameRecord {
        let mut record = PdnGame::from_position(game.start());
        for mv in game.moves() {
            // Every move was refereed by the same rules, so none can be refused here.
            if record.push(*mv).is_err() {
                break;
            }
        }
        record.set_result(match game.outcome() {
            None => PdnResult::Unknown,
            Some(outcome) => outcome.winner().map_or(PdnResult::Draw, PdnResult::Win),
        });
        GameRecord::Eight(record)
    }
}
