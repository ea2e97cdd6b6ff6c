//! The variants on the rules library's boards of any size in the terminal game
//! (International and its family on 10x10, Brazilian on 8x8, Canadian on 12x12, the national
//! 8x8 games, Turkish on its board of 64 squares): `Board<V>` and `BoardGame<V>` for every
//! rule set the engine plays.

use checkers_engine::BoardEngine;
use checkers_rules::board::{
    Bits, Board, BoardGame, BoardMove, BoardOutcome, BoardVariant, Geometry, RuleSet,
};
use checkers_rules::{BoardPdnGame, Color, WinReason};

use super::board::Letters;
use super::board_text::{self, move_text, square_by_text, square_name, uses_names};
use super::variant::{About, Cell, Declared, Ending, Grid, Names, TerminalGame, TerminalPosition, Typed};

type G<V> = <V as RuleSet>::Geometry;

/// The variant's name as its players say it.
fn title(variant: Option<BoardVariant>) -> &'static str {
    match variant {
        Some(BoardVariant::International) | None => "International draughts",
        Some(BoardVariant::Brazilian) => "Brazilian draughts",
        Some(BoardVariant::Canadian) => "Canadian draughts",
        Some(BoardVariant::Frisian) => "Frisian draughts",
        Some(BoardVariant::Frysk) => "Frysk!",
        Some(BoardVariant::Antidraughts) => "Antidraughts",
        Some(BoardVariant::Breakthrough) => "Breakthrough",
        Some(BoardVariant::Italian) => "Italian draughts",
        Some(BoardVariant::Spanish) => "Spanish draughts",
        Some(BoardVariant::Portuguese) => "Portuguese draughts",
        Some(BoardVariant::Czech) => "Czech draughts",
        Some(BoardVariant::Pool) => "Pool checkers",
        Some(BoardVariant::Thai) => "Thai draughts",
        Some(BoardVariant::Turkish) => "Turkish draughts",
    }
}

/// A move from the start of `V` to show the player: the middle one of the first player's
/// moves in square order.
fn example<V: RuleSet>() -> (String, Option<BoardMove<V>>) {
    let start = Board::<V>::start();
    let mut moves = start.legal_moves().to_vec();
    moves.sort_by_key(|mv| (mv.from(), mv.to()));
    match moves.get(moves.len() / 2) {
        Some(mv) => (move_text(&start, mv), Some(*mv)),
        None => (String::new(), None),
    }
}

/// The help's paragraph on moves, with squares of the variant's board: the example move,
/// and a capture along its line (jumping the square it goes to, then on).
fn help_moves<V: RuleSet>(example: &str, mv: Option<BoardMove<V>>) -> String {
    let name = square_name::<V>;
    let Some(mv) = mv else {
        return "Moves: the square a piece goes from, then the square it goes to.".to_string();
    };
    let (from, to) = (G::<V>::coords(mv.from()), G::<V>::coords(mv.to()));
    let (df, dr) = (to.0 as i32 - from.0 as i32, to.1 as i32 - from.1 as i32);
    let at = |steps: i32| G::<V>::at(from.0 as i32 + steps * df, from.1 as i32 + steps * dr);
    let spaced = example.replace('-', " ");
    let squares = if uses_names::<V>() { "names" } else { "numbers" };
    let mut text =
        format!("Moves: the square a piece goes from, then the square it goes to: {example} or {spaced}.\n");
    match (at(2), at(4)) {
        (Some(first), Some(second)) => text.push_str(&format!(
            "A capture: {a}x{b}, or the whole route, every square it stops on: {a}x{b}x{c}\n\
             ({a}x{c} will do when only one capture fits). Captures are compulsory.\n",
            a = name(mv.from()),
            b = name(first),
            c = name(second)
        )),
        _ => text.push_str(
            "A capture: its start and end joined by x, or every square it stops on.\n\
             Captures are compulsory.\n",
        ),
    }
    text.push_str(&format!("The {squares} are on the board to the right; `moves` lists the legal moves."));
    text
}

impl<V: BoardEngine> TerminalPosition for Board<V> {
    type Game = BoardGame<V>;

    fn about(&self) -> About {
        let (example, mv) = example::<V>();
        About {
            title: title(BoardVariant::of::<V>()),
            help_moves: help_moves::<V>(&example, mv),
            example,
            squares: if uses_names::<V>() {
                "The squares are named on the board to the right (a1-h8)."
            } else {
                "The squares are numbered on the board to the right."
            },
            square_names: board_text::square_names::<V>(),
            letters: Letters::White,
            first: V::FIRST,
        }
    }

    fn grid(&self, last: Option<&BoardMove<V>>) -> Grid {
        let mut grid = Grid::new(G::<V>::SIDE, uses_names::<V>());
        for number in 1..=G::<V>::SQUARES {
            let (file, rank) = G::<V>::coords(number);
            let marked = last.is_some_and(|mv| mv.from() == number || mv.to() == number);
            grid.set(
                file,
                rank,
                Cell { piece: self.piece_at(number), name: square_name::<V>(number), marked },
            );
        }
        grid
    }

    fn move_text(&self, mv: &BoardMove<V>) -> String {
        move_text(self, mv)
    }

    fn move_start(mv: &BoardMove<V>) -> u32 {
        mv.from()
    }

    fn read_move(&self, text: &str, names: Names) -> Typed<BoardMove<V>> {
        board_text::read_move(self, text, names)
    }

    fn square(&self, text: &str) -> Option<u32> {
        square_by_text::<V>(text)
    }

    fn square_name(&self, square: u32) -> String {
        square_name::<V>(square)
    }

    fn no_move_from(&self, square: u32, names: Names) -> String {
        board_text::no_move_from(self, square, names)
    }

    fn pieces(&self, color: Color) -> (u32, u32) {
        (self.piece_count(color), self.kings_bits(color).count())
    }
}

/// The game of `start` and `moves` played again (the referee decides its end again).
fn replayed<V: RuleSet>(start: Board<V>, moves: &[BoardMove<V>]) -> BoardGame<V> {
    let mut game = BoardGame::from_position(start);
    for mv in moves {
        // Each move was legal there before, and the same moves reach the same positions.
        let _ = game.play(*mv);
    }
    game
}

impl<V: BoardEngine> TerminalGame for BoardGame<V> {
    type Position = Board<V>;

    fn from_position(start: Board<V>) -> BoardGame<V> {
        BoardGame::from_position(start)
    }
    fn start(&self) -> Board<V> {
        BoardGame::start(self)
    }
    fn position(&self) -> Board<V> {
        BoardGame::position(self)
    }
    fn moves(&self) -> &[BoardMove<V>] {
        BoardGame::moves(self)
    }
    fn positions(&self) -> &[Board<V>] {
        BoardGame::positions(self)
    }
    fn legal_moves(&self) -> Vec<BoardMove<V>> {
        BoardGame::legal_moves(self).to_vec()
    }
    fn is_over(&self) -> bool {
        BoardGame::is_over(self)
    }

    fn ending(&self, names: Names) -> Option<Ending> {
        let outcome = self.outcome()?;
        let text = match outcome {
            BoardOutcome::Win { winner, reason } => {
                let loser = winner.opponent();
                let why = match reason {
                    WinReason::NoLegalMove if BoardGame::position(self).piece_count(loser) == 0 => {
                        format!("{} has no pieces left", names(loser))
                    }
                    WinReason::NoLegalMove => format!("{} cannot move", names(loser)),
                    WinReason::Resignation => format!("{} resigned", names(loser)),
                    WinReason::Time => format!("{} ran out of time", names(loser)),
                };
                format!("{} wins: {why}", names(winner))
            }
            other => board_text::renamed(&other.to_string(), names),
        };
        Some(Ending { winner: outcome.winner(), text })
    }

    fn play(&mut self, mv: BoardMove<V>) -> Result<(), String> {
        BoardGame::play(self, mv).map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> bool {
        let moves = BoardGame::moves(self);
        let Some((_, earlier)) = moves.split_last() else { return false };
        *self = replayed(BoardGame::start(self), earlier);
        true
    }

    fn withdraw_declaration(&mut self) -> Option<Declared> {
        use checkers_rules::board::BoardDrawReason;
        let declared = match self.outcome()? {
            BoardOutcome::Draw { reason: BoardDrawReason::Agreement } => Declared::Draw,
            BoardOutcome::Win { reason: WinReason::Resignation, .. } => Declared::Resignation,
            BoardOutcome::Win { reason: WinReason::Time, .. } => Declared::Time,
            _ => return None,
        };
        *self = replayed(BoardGame::start(self), BoardGame::moves(self));
        Some(declared)
    }

    fn resign(&mut self, color: Color) -> bool {
        BoardGame::resign(self, color).is_ok()
    }
    fn agree_draw(&mut self) -> bool {
        BoardGame::agree_draw(self).is_ok()
    }

    fn to_pdn(&self, tags: &[(&str, &str)], ending: Option<&Ending>) -> String {
        let mut pdn = BoardPdnGame::from_game(self);
        for (name, value) in tags {
            let _ = pdn.set_tag(name, value);
        }
        if let Some(ending) = ending {
            match BoardGame::moves(self).len() {
                0 => pdn.set_opening_comment(&ending.text),
                n => {
                    pdn.set_comment(n - 1, &ending.text);
                }
            }
        }
        pdn.to_pdn()
    }
}
