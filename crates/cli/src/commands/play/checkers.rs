//! English checkers and Russian draughts in the terminal game: the 8x8 positions and games of
//! the rules library (`Position`, `Game`), squares numbered 1-32 in English and named a1-h8
//! in Russian, where captures are written with `:` as Russian players write them.

use checkers_engine::Engine;
use checkers_rules::{
    excerpt, parse_square, Color, Game, Move, MoveTextError, Outcome, PdnGame, PdnResult, Position, Square,
    SquareNotation, Variant, WinReason,
};

use super::board::Letters;
use super::input::numbers_to_algebraic;
use super::variant::{About, Cell, Declared, Ending, Grid, Names, TerminalGame, TerminalPosition, Typed};
use crate::common::customary_notation;

/// Square numbers in rules-library messages, in the notation of the variant, and White named
/// as the game names it (Red in English unless `--letters` says otherwise).
fn localize(position: &Position, text: &str, names: Names) -> String {
    let text = text.replace("White", names(Color::White));
    match customary_notation(position.variant()) {
        SquareNotation::Numeric => text,
        SquareNotation::Algebraic => numbers_to_algebraic(&text).replace('x', ":"),
    }
}

impl TerminalPosition for Position {
    type Game = Game;

    fn about(&self) -> About {
        let first = self.variant().first_to_move();
        match self.variant() {
            Variant::English => About {
                title: "English checkers",
                example: "11-15".to_string(),
                squares: "The squares are numbered on the board to the right.",
                help_moves:
                    "Moves: the square a piece goes from, then the square it goes to: 11-15 or 11 15.\n\
                     A capture: 9x18, or a whole jump 9x18x27 (9x27 will do when only one jump\n\
                     fits). The numbers are on the board to the right. Captures are compulsory."
                        .to_string(),
                square_names: "squares are numbered 1 to 32 (see the board on the right)".to_string(),
                letters: Letters::Red,
                first,
            },
            Variant::Russian => About {
                title: "Russian draughts",
                example: "c3-d4".to_string(),
                squares: "The squares are named on the board to the right (a1-h8).",
                help_moves:
                    "Moves: the square a piece goes from, then the square it goes to: c3-d4 or c3 d4\n\
                     (numbers 1-32 work too). A capture: c3:e5, or the whole route c3:e5:g3\n\
                     (c3:g3 is enough when there is one such capture). Captures are compulsory."
                        .to_string(),
                square_names: "squares are the dark ones, a1 to h8 (see the board on the right)".to_string(),
                letters: Letters::White,
                first,
            },
        }
    }

    fn grid(&self, last: Option<&Move>) -> Grid {
        let notation = customary_notation(self.variant());
        let mut grid = Grid::new(8, self.variant() == Variant::Russian);
        for number in 1..=32 {
            let Some(square) = Square::from_number(number) else { continue };
            let marked = last.is_some_and(|mv| mv.from() == square || mv.to() == square);
            let cell = Cell { piece: self.piece_at(square), name: notation.write(square), marked };
            grid.set(square.file(), square.rank(), cell);
        }
        grid
    }

    fn move_text(&self, mv: &Move) -> String {
        let text = mv.to_pdn(self, customary_notation(self.variant()));
        match self.variant() {
            Variant::Russian => text.replace('x', ":"),
            Variant::English => text,
        }
    }

    fn move_start(mv: &Move) -> u32 {
        mv.from().number()
    }

    fn read_move(&self, text: &str, names: Names) -> Typed<Move> {
        match self.parse_move(text) {
            Ok(mv) => Typed::Move(mv),
            Err(MoveTextError::Illegal { text, reason }) => Typed::Refused(format!(
                "{} is not a move: {}.",
                excerpt(&text),
                localize(self, &reason.to_string(), names)
            )),
            Err(MoveTextError::Ambiguous { text, candidates }) => {
                let candidates: Vec<String> = candidates.iter().map(|c| localize(self, c, names)).collect();
                Typed::Refused(format!(
                    "{} could be {}: type the whole route.",
                    excerpt(&text),
                    candidates.join(" or ")
                ))
            }
            Err(MoveTextError::BadSquare { text }) => Typed::Refused(format!(
                "`{}` is not a square: {}.",
                excerpt(&text),
                self.about().square_names
            )),
            Err(MoveTextError::Syntax(_)) => Typed::NotMoveText,
        }
    }

    fn square(&self, text: &str) -> Option<u32> {
        parse_square(text).map(Square::number)
    }

    fn square_name(&self, square: u32) -> String {
        Square::from_number(square)
            .map_or_else(|| square.to_string(), |sq| customary_notation(self.variant()).write(sq))
    }

    fn no_move_from(&self, square: u32, names: Names) -> String {
        match Square::from_number(square) {
            Some(sq) => localize(self, &self.explain_illegal(sq, sq), names),
            None => String::new(),
        }
    }

    fn pieces(&self, color: Color) -> (u32, u32) {
        (self.pieces(color).len(), self.kings_of(color).len())
    }

    fn prepare_engine(&self) {
        let variant = self.variant();
        // Solved while the board is drawn and the first move typed.
        std::thread::spawn(move || Engine::prepare_endgame(variant));
    }
}

impl TerminalGame for Game {
    type Position = Position;

    fn from_position(start: Position) -> Game {
        Game::from_position(start)
    }
    fn start(&self) -> Position {
        Game::start(self)
    }
    fn position(&self) -> Position {
        Game::position(self)
    }
    fn moves(&self) -> &[Move] {
        Game::moves(self)
    }
    fn positions(&self) -> &[Position] {
        Game::positions(self)
    }
    fn legal_moves(&self) -> Vec<Move> {
        Game::legal_moves(self).to_vec()
    }
    fn is_over(&self) -> bool {
        Game::is_over(self)
    }

    fn ending(&self, names: Names) -> Option<Ending> {
        let outcome = self.outcome()?;
        let text = match outcome {
            Outcome::Win { winner, reason } => {
                let loser = winner.opponent();
                let why = match reason {
                    WinReason::NoLegalMove if Game::position(self).pieces(loser).is_empty() => {
                        format!("{} has no pieces left", names(loser))
                    }
                    WinReason::NoLegalMove => format!("{} cannot move", names(loser)),
                    WinReason::Resignation => format!("{} resigned", names(loser)),
                    WinReason::Time => format!("{} ran out of time", names(loser)),
                };
                format!("{} wins: {why}", names(winner))
            }
            draw => draw.to_string(),
        };
        Some(Ending { winner: outcome.winner(), text })
    }

    fn play(&mut self, mv: Move) -> Result<(), String> {
        Game::play(self, mv).map_err(|e| e.to_string())
    }
    fn undo(&mut self) -> bool {
        Game::undo(self).is_some()
    }
    fn withdraw_declaration(&mut self) -> Option<Declared> {
        Some(match Game::withdraw_declaration(self)? {
            Outcome::Draw { .. } => Declared::Draw,
            Outcome::Win { reason: WinReason::Resignation, .. } => Declared::Resignation,
            Outcome::Win { .. } => Declared::Time,
        })
    }
    fn resign(&mut self, color: Color) -> bool {
        Game::resign(self, color).is_ok()
    }
    fn agree_draw(&mut self) -> bool {
        Game::agree_draw(self).is_ok()
    }

    fn to_pdn(&self, tags: &[(&str, &str)], ending: Option<&Ending>) -> String {
        let mut pdn = PdnGame::from_position(Game::start(self));
        for mv in Game::moves(self) {
            // The moves came from this game, so each is legal where it is played.
            let _ = pdn.push(*mv);
        }
        for (name, value) in tags {
            let _ = pdn.set_tag(name, value);
        }
        if let Some(ending) = ending {
            pdn.set_result(ending.winner.map_or(PdnResult::Draw, PdnResult::Win));
            match Game::moves(self).len() {
                0 => pdn.set_opening_comment(&ending.text),
                n => {
                    pdn.set_comment(n - 1, &ending.text);
                }
            }
        }
        pdn.to_pdn_with(customary_notation(Game::start(self).variant()))
    }
}
