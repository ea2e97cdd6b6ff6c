//! Games: a start position, the moves played, and the outcome with its reason.
//!
//! The outcome is decided after every move, in this order: the side to move has no legal move
//! (it loses); a lone king against a lone king that neither side can force the capture of
//! (Russian: draw; see [`is_drawn_king_against_king`]); threefold
//! repetition; the variant's move-count rules. Agreement, resignation and loss on time are
//! declared by the players (or a clock) rather than found on the board.
//!
//! Move counts follow docs/rules.md: "N moves" means N moves of each side (2N plies), except the
//! three-kings rule, which counts the stronger side's own moves.

use std::fmt;

use thiserror::Error;

use crate::fen::SquareNotation;
use crate::moves::{Move, MoveList};
use crate::notation::{IllegalReason, MoveTextError};
use crate::position::{Color, Position, Variant};
use crate::square::SquareSet;
use crate::two_kings::is_drawn_king_against_king;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser, to move, had no legal move (no pieces left, or all blocked).
    NoLegalMove,
    Resignation,
    /// The loser's clock ran out.
    Time,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Agreement,
    /// The same position, with the same side to move, for the third time.
    ThreefoldRepetition,
    /// English: 40 moves by each side with no capture and no man moved.
    FortyMoveRule,
    /// Russian: a lone king against a lone king, neither able to force the capture of the other
    /// (a king that can, such as Kd4 to move against Ka1, plays on and wins).
    KingAgainstKing,
    /// Russian: three or more kings failed to capture a lone king within 15 of their moves.
    ThreeKingsAgainstKing,
    /// Russian: 15 moves in which only kings moved and nothing was captured.
    KingsOnlyFifteenMoves,
    /// Russian: both sides with kings and equal forces, 30 moves (4-5 pieces a side) or 60
    /// moves (6-7 pieces a side) without a capture.
    EqualForcesNoCapture,
    /// Russian: two or three pieces, at least one a king, failed to win against a lone king
    /// within 5 moves (three pieces only when the lone king holds the long diagonal a1-h8).
    FewPiecesAgainstKing,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw { reason: DrawReason },
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Whether the players (or a clock) declared this end, rather than the board: an agreed
    /// draw, a resignation, a loss on time.
    pub fn is_declared(&self) -> bool {
        matches!(
            self,
            Outcome::Draw { reason: DrawReason::Agreement }
                | Outcome::Win { reason: WinReason::Resignation | WinReason::Time, .. }
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let loser = winner.opponent().name();
                let why = match reason {
                    WinReason::NoLegalMove => format!("{loser} has no legal move"),
                    WinReason::Resignation => format!("{loser} resigned"),
                    WinReason::Time => format!("{loser} ran out of time"),
                };
                write!(f, "{} wins: {why}", winner.name())
            }
            Outcome::Draw { reason } => {
                let why = match reason {
                    DrawReason::Agreement => "by agreement",
                    DrawReason::ThreefoldRepetition => "the same position occurred three times",
                    DrawReason::FortyMoveRule => "40 moves each without a capture or a man moving",
                    DrawReason::KingAgainstKing => "a lone king against a lone king",
                    DrawReason::ThreeKingsAgainstKing => {
                        "three kings could not catch a lone king in 15 moves"
                    }
                    DrawReason::KingsOnlyFifteenMoves => "15 moves of kings only without a capture",
                    DrawReason::EqualForcesNoCapture => "equal forces with kings and no capture for too long",
                    DrawReason::FewPiecesAgainstKing => {
                        "too few pieces to win against a lone king within 5 moves"
                    }
                };
                write!(f, "Draw: {why}")
            }
        }
    }
}

/// Why a game did not accept a move or a declaration.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    #[error("{} is not a legal move here: {reason}", .attempted.to_short(SquareNotation::Numeric))]
    IllegalMove { attempted: Move, reason: IllegalReason },
    #[error(transparent)]
    MoveText(#[from] MoveTextError),
}

/// A game: where it started, every move since, and how it ended (if it has).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A game from any valid position (it may already be over, e.g. with no legal move).
    pub fn from_position(start: Position) -> Game {
        let mut game = Game { positions: vec![start], moves: Vec::new(), outcome: None };
        game.outcome = game.decide();
        game
    }

    pub fn variant(&self) -> Variant {
        self.start().variant()
    }
    pub fn start(&self) -> Position {
        self.positions[0]
    }
    /// The current position.
    pub fn position(&self) -> Position {
        self.positions[self.positions.len() - 1]
    }
    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a legal move and decides whether the game is now over.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver(outcome));
        }
        let position = self.position();
        let next = position.try_play(&mv).map_err(|_| GameError::IllegalMove {
            attempted: mv,
            reason: position.illegal_reason(mv.from(), mv.to()),
        })?;
        self.positions.push(next);
        self.moves.push(mv);
        self.outcome = self.decide();
        Ok(())
    }

    /// Reads move text (see [`Position::parse_move`]), plays it, and returns the move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver(outcome));
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Takes back the last move (and any result it brought). Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.outcome = self.decide();
        Some(mv)
    }

    /// `color` resigns: the other side wins.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        self.declare(Outcome::Win { winner: color.opponent(), reason: WinReason::Resignation })
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.declare(Outcome::Draw { reason: DrawReason::Agreement })
    }

    /// `color`'s clock ran out: the other side wins.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), GameError> {
        self.declare(Outcome::Win { winner: color.opponent(), reason: WinReason::Time })
    }

    /// Takes back a declared end (see [`Outcome::is_declared`]): the game goes on from the
    /// same position, no move taken back. Returns the end taken back, or `None` when the game
    /// is not over by a declaration.
    pub fn withdraw_declaration(&mut self) -> Option<Outcome> {
        let declared = self.outcome.filter(Outcome::is_declared)?;
        self.outcome = self.decide();
        Some(declared)
    }

    fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(done) = self.outcome {
            return Err(GameError::GameOver(done));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// The positions since the last capture or man move (inclusive of the current one):
    /// the only ones that can repeat. What a search needs to see repetitions.
    pub fn positions_since_irreversible(&self) -> &[Position] {
        let mut first = self.moves.len();
        while first > 0 && self.is_reversible(first - 1) {
            first -= 1;
        }
        &self.positions[first..]
    }

    /// Whether move `i` could be undone on the board: a king moving without capturing.
    fn is_reversible(&self, i: usize) -> bool {
        let mv = &self.moves[i];
        !mv.is_capture() && self.positions[i].kings().contains(mv.from())
    }

    /// Moves of each side (in plies) since the last capture or man move.
    fn reversible_plies(&self) -> usize {
        self.positions_since_irreversible().len() - 1
    }

    /// Plies since the last change of material: a capture or a crowning (or the start).
    fn plies_since_balance_changed(&self) -> usize {
        self.moves.iter().rev().take_while(|m| !m.is_capture() && !m.crowns()).count()
    }

    /// The outcome the board itself dictates now, if any.
    fn decide(&self) -> Option<Outcome> {
        let position = self.position();
        if !position.has_legal_move() {
            return Some(Outcome::Win { winner: position.turn().opponent(), reason: WinReason::NoLegalMove });
        }
        let draw = |reason| Some(Outcome::Draw { reason });
        if is_drawn_king_against_king(&position) {
            return draw(DrawReason::KingAgainstKing);
        }
        if self.is_threefold_repetition() {
            return draw(DrawReason::ThreefoldRepetition);
        }
        match self.variant() {
            Variant::English => {
                if self.reversible_plies() >= 80 {
                    return draw(DrawReason::FortyMoveRule);
                }
            }
            Variant::Russian => {
                if let Some(reason) = self.russian_count_draw(&position) {
                    return draw(reason);
                }
            }
        }
        None
    }

    fn is_threefold_repetition(&self) -> bool {
        let current = self.position();
        self.positions_since_irreversible().iter().filter(|p| **p == current).count() >= 3
    }

    fn russian_count_draw(&self, position: &Position) -> Option<DrawReason> {
        if self.reversible_plies() >= 30 {
            return Some(DrawReason::KingsOnlyFifteenMoves);
        }
        let balance_plies = self.plies_since_balance_changed();
        if let Some((strong, lone_king)) = lone_king_against(position) {
            let strong_pieces = position.pieces(strong);
            let strong_kings = position.kings_of(strong).len();
            let strong_moves = self.moves_by_since(strong, balance_plies);
            if strong_kings >= 3 && strong_moves >= 15 {
                return Some(DrawReason::ThreeKingsAgainstKing);
            }
            if strong_pieces.len() == 2 && balance_plies >= 10 {
                return Some(DrawReason::FewPiecesAgainstKing);
            }
            if strong_pieces.len() == 3 {
                // The lone king must have held the long diagonal for the whole count.
                let on_diagonal = self
                    .positions
                    .iter()
                    .rev()
                    .take(balance_plies + 1)
                    .take_while(|p| {
                        p.kings_of(strong.opponent()).intersection(LONG_DIAGONAL) != SquareSet::EMPTY
                    })
                    .count();
                if lone_king.intersection(LONG_DIAGONAL) != SquareSet::EMPTY && on_diagonal > 10 {
                    return Some(DrawReason::FewPiecesAgainstKing);
                }
            }
        }
        let (white, black) = (position.pieces(Color::White).len(), position.pieces(Color::Black).len());
        let (white_kings, black_kings) =
            (position.kings_of(Color::White).len(), position.kings_of(Color::Black).len());
        if white == black && white_kings == black_kings && white_kings >= 1 {
            let limit = match white {
                4 | 5 => Some(60),
                6 | 7 => Some(120),
                _ => None,
            };
            // A crowning changes the balance too, so count from the last change of material.
            if limit.is_some_and(|plies| balance_plies >= plies) {
                return Some(DrawReason::EqualForcesNoCapture);
            }
        }
        None
    }

    /// How many of the last `plies` plies were moves of `color`.
    fn moves_by_since(&self, color: Color, plies: usize) -> usize {
        let n = self.positions.len();
        self.positions[n - 1 - plies..n - 1].iter().filter(|p| p.turn() == color).count()
    }
}

/// The long diagonal a1-h8 (squares 29, 25, 22, 18, 15, 11, 8, 4).
const LONG_DIAGONAL: SquareSet = SquareSet(0x8040_2010_0804_0201);

/// If one side is down to a lone king and the other has at least one king: the stronger
/// side and the lone king's square.
fn lone_king_against(position: &Position) -> Option<(Color, SquareSet)> {
    for weak in [Color::White, Color::Black] {
        let strong = weak.opponent();
        if position.pieces(weak).len() == 1
            && position.kings_of(weak).len() == 1
            && !position.kings_of(strong).is_empty()
        {
            return Some((strong, position.pieces(weak)));
        }
    }
    None
}
