//! The game model of the boards of any size: what a PDN game of a board variant keeps.
//!
//! A [`BoardPdnGame<V>`] keeps what a [`PdnGame`](super::PdnGame) keeps, for the rule set `V`:
//! the tags (the roster first), the start position (from the `FEN` tag, otherwise the
//! variant's start), the moves, each checked legal where it was played, one optional comment
//! after each move (and one before the first), and the result, whose first figure is the score
//! of the side that moves first in the variant (White in every board variant but Pool, where
//! Black moves first; docs/rules.md, "PDN games").
//!
//! Only legality is checked, not the variant's game-end rules: a file may go on past a draw
//! our referee would call (its players or program counting otherwise). [`BoardPdnGame::to_game`]
//! replays the moves in a [`BoardGame`], which applies them.

use crate::board::{Board, BoardGame, BoardGameError, BoardIllegalMove, BoardMove, BoardOutcome, RuleSet};

use super::error::PdnTagError;
use super::game::PdnResult;
use super::record::Record;

/// A game of the board variant `V` as PDN records it. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPdnGame<V: RuleSet> {
    /// The tags and comments.
    record: Record,
    start: Board<V>,
    moves: Vec<BoardMove<V>>,
    result: PdnResult,
    /// The position after the last move (derived from `start` and `moves`).
    end: Board<V>,
}

impl<V: RuleSet> Default for BoardPdnGame<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: RuleSet> BoardPdnGame<V> {
    /// A game from the variant's start position, with no tags and no moves.
    pub fn new() -> BoardPdnGame<V> {
        BoardPdnGame::from_position(Board::start())
    }

    /// A game from `start`, with no tags and no moves.
    pub fn from_position(start: Board<V>) -> BoardPdnGame<V> {
        BoardPdnGame {
            record: Record::default(),
            start,
            moves: Vec::new(),
            result: PdnResult::Unknown,
            end: start,
        }
    }

    /// A played game's start, moves and result (a win or a draw, whatever its reason; `*`
    /// while it goes on), with no tags.
    pub fn from_game(game: &BoardGame<V>) -> BoardPdnGame<V> {
        let mut out = BoardPdnGame::from_position(game.start());
        for mv in game.moves() {
            out.push_legal(*mv);
        }
        out.result = match game.outcome() {
            Some(BoardOutcome::Draw { .. }) => PdnResult::Draw,
            Some(outcome) => outcome.winner().map_or(PdnResult::Draw, PdnResult::Win),
            None => PdnResult::Unknown,
        };
        out
    }

    /// The moves replayed in a [`BoardGame`], which decides the outcome by the variant's
    /// rules; an error if the game ended, by those rules, before the last move.
    pub fn to_game(&self) -> Result<BoardGame<V>, BoardGameError> {
        let mut game = BoardGame::from_position(self.start);
        for mv in &self.moves {
            game.play(*mv)?;
        }
        Ok(game)
    }

    /// The position the game starts from.
    pub fn start(&self) -> Board<V> {
        self.start
    }

    /// The position after the last move.
    pub fn end_position(&self) -> Board<V> {
        self.end
    }

    pub fn moves(&self) -> &[BoardMove<V>] {
        &self.moves
    }

    pub fn result(&self) -> PdnResult {
        self.result
    }

    pub fn set_result(&mut self, result: PdnResult) {
        self.result = result;
    }

    /// Plays `mv` after the last move, if it is legal there.
    pub fn push(&mut self, mv: BoardMove<V>) -> Result<(), BoardIllegalMove<V>> {
        self.end = self.end.try_play(&mv)?;
        self.moves.push(mv);
        self.record.push_move();
        Ok(())
    }

    /// The positions before each move and after the last: `moves().len() + 1` of them.
    pub fn positions(&self) -> Vec<Board<V>> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for mv in &self.moves {
            pos = pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }

    /// The tags: Event, Site, Date, Round, Black, White (those set) first, then the others.
    pub fn tags(&self) -> &[(String, String)] {
        self.record.tags()
    }

    /// The value of a tag, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.record.tag(name)
    }

    /// Sets a tag (see [`PdnGame::set_tag`](super::PdnGame::set_tag)).
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        self.record.set_tag(name, value)
    }

    /// Removes a tag; returns its value if it was set.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        self.record.remove_tag(name)
    }

    /// The comment after move `index` (0 = the first move), if any.
    pub fn comment(&self, index: usize) -> Option<&str> {
        self.record.comment(index)
    }

    /// Sets the comment after move `index` (normalised as
    /// [`PdnGame::set_comment`](super::PdnGame::set_comment) says); false if there is no such
    /// move.
    pub fn set_comment(&mut self, index: usize, text: &str) -> bool {
        self.record.set_comment(index, text)
    }

    /// The comment before the first move, if any.
    pub fn opening_comment(&self) -> Option<&str> {
        self.record.opening_comment()
    }

    /// Sets the comment before the first move.
    pub fn set_opening_comment(&mut self, text: &str) {
        self.record.set_opening_comment(text);
    }

    pub(super) fn record(&self) -> &Record {
        &self.record
    }

    pub(super) fn record_mut(&mut self) -> &mut Record {
        &mut self.record
    }

    /// Plays a move the reader found among the legal moves of the last position.
    pub(super) fn push_legal(&mut self, mv: BoardMove<V>) {
        self.end = self.end.play_unchecked(&mv);
        self.moves.push(mv);
        self.record.push_move();
    }
}
