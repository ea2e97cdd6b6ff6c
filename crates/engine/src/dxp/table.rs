//! A game being played over DXP: the board game, our colour and the game's terms; how a
//! MOVE message names a legal move, how BACKREQ goes back, and how a finished game is kept.

use std::time::Duration;

use checkers_rules::board::{Board, BoardGame, BoardMove, BoardOutcome, BoardSetup, Geometry, RuleSet};
use checkers_rules::{BoardPdnGame, Color, PdnResult, Role};

use super::message::{BackRequest, DxpPosition, MoveMessage, MAX_CAPTURED};
use crate::limits::Clock;

/// The squares of the board of `V`.
pub(super) fn squares<V: RuleSet>() -> u32 {
    <V::Geometry as Geometry>::SQUARES
}

/// A position as a GAMEREQ carries it.
pub fn dxp_position<V: RuleSet>(board: &Board<V>) -> DxpPosition {
    DxpPosition { to_move: board.turn(), squares: (1..=squares::<V>()).map(|n| board.piece_at(n)).collect() }
}

/// A GAMEREQ's position on the board of `V`, or why it is none.
pub fn board_from_dxp<V: RuleSet>(position: &DxpPosition) -> Result<Board<V>, String> {
    if position.squares.len() != squares::<V>() as usize {
        return Err(format!(
            "the position has {} squares; {} is played on {}",
            position.squares.len(),
            V::NAME,
            squares::<V>()
        ));
    }
    let mut setup = BoardSetup { turn: Some(position.to_move), ..BoardSetup::default() };
    for (number, piece) in (1..).zip(&position.squares) {
        if let Some(piece) = piece {
            let list = match (piece.color, piece.role) {
                (Color::White, Role::Man) => &mut setup.white_men,
                (Color::White, Role::King) => &mut setup.white_kings,
                (Color::Black, Role::Man) => &mut setup.black_men,
                (Color::Black, Role::King) => &mut setup.black_kings,
            };
            list.push(number);
        }
    }
    Board::from_setup(&setup).map_err(|e| format!("the position is not one of {}: {e}", V::NAME))
}

/// A game in progress.
#[derive(Clone, Debug)]
pub(super) struct Table<V: RuleSet> {
    /// The game's number in this conversation, from 1.
    pub number: u32,
    pub game: BoardGame<V>,
    pub ours: Color,
    pub peer: String,
    /// Thinking time of each side for the whole game, in minutes (0: none given).
    pub minutes: u16,
    /// The number of moves of the game (0: no limit).
    pub max_moves: u16,
    /// The time our moves took.
    pub our_time: Duration,
}

impl<V: RuleSet> Table<V> {
    pub fn our_turn(&self) -> bool {
        self.game.position().turn() == self.ours
    }

    /// Whether the game has had its number of moves (a move being a move of each side).
    pub fn move_limit_reached(&self) -> bool {
        self.max_moves > 0 && self.game.moves().len() >= 2 * usize::from(self.max_moves)
    }

    /// Our clock, when the game has a thinking time: what is left of it, and the moves left
    /// to play when the game has a number of moves.
    pub fn clock(&self) -> Option<Clock> {
        if self.minutes == 0 {
            return None;
        }
        let total = Duration::from_secs(u64::from(self.minutes) * 60);
        let ours = self.game.moves().len() / 2;
        let moves_to_go =
            (self.max_moves > 0).then(|| (u32::from(self.max_moves)).saturating_sub(ours as u32).max(1));
        Some(Clock { remaining: total.saturating_sub(self.our_time), increment: Duration::ZERO, moves_to_go })
    }

    /// The legal move a MOVE names: its start, end and captured squares (in any order). A
    /// capture sent without its captured squares is taken when no other legal move has the
    /// same start and end.
    pub fn find_move(&self, message: &MoveMessage) -> Result<BoardMove<V>, String> {
        let position = self.game.position();
        let name = |m: &MoveMessage| {
            let mut text = format!("{}-{}", m.from, m.to);
            for square in &m.captured {
                text.push_str(&format!("x{square}"));
            }
            text
        };
        let on_board = |square: u8| (1..=squares::<V>()).contains(&u32::from(square));
        if let Some(&off) =
            [message.from, message.to].iter().chain(&message.captured).find(|&&s| !on_board(s))
        {
            return Err(format!(
                "{}: square {off:02} is not on the board (1-{})",
                name(message),
                squares::<V>()
            ));
        }
        let mut wanted: Vec<u32> = message.captured.iter().map(|&s| u32::from(s)).collect();
        wanted.sort_unstable();
        let same_ends: Vec<BoardMove<V>> = position
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| mv.from() == u32::from(message.from) && mv.to() == u32::from(message.to))
            .collect();
        let sorted = |mv: &BoardMove<V>| {
            let mut taken = mv.captured();
            taken.sort_unstable();
            taken
        };
        if let Some(mv) = same_ends.iter().find(|mv| sorted(mv) == wanted) {
            return Ok(*mv);
        }
        if let ([only], true) = (same_ends.as_slice(), wanted.is_empty()) {
            return Ok(*only);
        }
        let why = match same_ends.first() {
            Some(mv) => format!("the move from {} to {} takes {:?}", mv.from(), mv.to(), sorted(mv)),
            None => position.illegal_reason(u32::from(message.from)).to_string(),
        };
        Err(format!("{} is not a legal move: {why}", name(message)))
    }

    /// Goes back to the position a BACKREQ names; the plies left, or why not.
    pub fn take_back(&mut self, request: BackRequest) -> Result<usize, String> {
        let start_black = i64::from(self.game.start().turn() == Color::Black);
        let black = i64::from(request.to_move == Color::Black);
        let ply = (i64::from(request.move_number) - 1) * 2 + black - start_black;
        let played = self.game.moves().len();
        if request.move_number == 0 || ply < 0 || ply > played as i64 {
            return Err(format!(
                "there is no move {} with {} to move in this game of {played} plies",
                request.move_number,
                request.to_move.name()
            ));
        }
        let ply = ply as usize;
        let mut game = BoardGame::from_position(self.game.start());
        for mv in &self.game.moves()[..ply] {
            // Each move was legal where it was played, and the game went on after it.
            if game.play(*mv).is_err() {
                return Err("the game cannot be replayed".to_string());
            }
        }
        self.game = game;
        Ok(ply)
    }

    pub fn finish(self, result: PdnResult, ending: String) -> FinishedGame<V> {
        FinishedGame {
            number: self.number,
            game: self.game,
            ours: self.ours,
            peer: self.peer,
            result,
            ending,
        }
    }
}

/// The DXP reason our GAMEEND gives for an outcome of the rules, seen from our side.
pub(super) fn result_of(outcome: BoardOutcome) -> PdnResult {
    match outcome.winner() {
        Some(winner) => PdnResult::Win(winner),
        None => PdnResult::Draw,
    }
}

/// Captured squares a MOVE lists for a move.
pub(super) fn move_message<V: RuleSet>(mv: &BoardMove<V>, seconds: u16) -> MoveMessage {
    let captured = mv.captured().into_iter().take(MAX_CAPTURED).map(|s| s as u8).collect();
    MoveMessage { seconds, from: mv.from() as u8, to: mv.to() as u8, captured }
}

/// A game that has ended: its moves, our colour, the peer, the result and how it came.
#[derive(Clone, Debug)]
pub struct FinishedGame<V: RuleSet> {
    pub number: u32,
    /// The moves as played (the outcome is the rules' if they ended the game).
    pub game: BoardGame<V>,
    pub ours: Color,
    pub peer: String,
    /// The result: the rules' when they decided the game, otherwise what the side that
    /// ended it declared (`*` when nothing was).
    pub result: PdnResult,
    /// How the game ended, in a sentence.
    pub ending: String,
}

impl<V: RuleSet> FinishedGame<V> {
    /// The game as PDN: `Event`, `Round` (the game's number), `White` and `Black` (`us` and
    /// the peer), the moves, how it ended as a comment, and the result.
    pub fn to_pdn(&self, us: &str) -> BoardPdnGame<V> {
        let mut pdn = BoardPdnGame::from_game(&self.game);
        let (white, black) = if self.ours == Color::White { (us, &*self.peer) } else { (&*self.peer, us) };
        for (tag, value) in
            [("Event", "DXP game"), ("Round", &self.number.to_string()), ("White", white), ("Black", black)]
        {
            // Names come from the wire: printable ASCII, which every tag value may hold.
            let _ = pdn.set_tag(tag, value);
        }
        pdn.set_result(self.result);
        let moves = self.game.moves().len();
        if moves == 0 || !pdn.set_comment(moves - 1, &self.ending) {
            pdn.set_opening_comment(&self.ending);
        }
        pdn
    }
}
