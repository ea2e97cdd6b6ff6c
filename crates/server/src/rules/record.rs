//! A game's PDN record in any variant: the rules library's [`PdnGame`] for English and Russian,
//! its [`BoardPdnGame`] for the other variants (each written with its `GameType`, notation and
//! result set), with the few things the server does to a record: tags, the result, a comment
//! after a move, and the text.

use checkers_rules::board::RuleSet;
use checkers_rules::{BoardPdnGame, PdnGame, PdnResult};

/// What the server does to a board variant's record, whatever its variant.
pub trait BoardRecord: Send + Sync {
    fn set_tag(&mut self, name: &str, value: &str);
    fn set_result(&mut self, result: PdnResult);
    fn set_comment(&mut self, index: usize, text: &str);
    fn to_pdn(&self) -> String;
    fn clone_box(&self) -> Box<dyn BoardRecord>;
}

impl<V: RuleSet> BoardRecord for BoardPdnGame<V> {
    fn set_tag(&mut self, name: &str, value: &str) {
        // The server's tag names and values are all ones PDN takes.
        let _ = BoardPdnGame::set_tag(self, name, value);
    }
    fn set_result(&mut self, result: PdnResult) {
        BoardPdnGame::set_result(self, result);
    }
    fn set_comment(&mut self, index: usize, text: &str) {
        BoardPdnGame::set_comment(self, index, text);
    }
    fn to_pdn(&self) -> String {
        BoardPdnGame::to_pdn(self)
    }
    fn clone_box(&self) -> Box<dyn BoardRecord> {
        Box::new(self.clone())
    }
}

/// A game's PDN record.
pub enum GameRecord {
    Eight(PdnGame),
    Board(Box<dyn BoardRecord>),
}

impl Clone for GameRecord {
    fn clone(&self) -> GameRecord {
        match self {
            GameRecord::Eight(record) => GameRecord::Eight(record.clone()),
            GameRecord::Board(record) => GameRecord::Board(record.clone_box()),
        }
    }
}

impl std::fmt::Debug for GameRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_pdn())
    }
}

impl GameRecord {
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self {
            GameRecord::Eight(record) => {
                let _ = record.set_tag(name, value);
            }
            GameRecord::Board(record) => record.set_tag(name, value),
        }
    }

    pub fn set_result(&mut self, result: PdnResult) {
        match self {
            GameRecord::Eight(record) => record.set_result(result),
            GameRecord::Board(record) => record.set_result(result),
        }
    }

    /// Sets the comment after move `index` (0 = the first).
    pub fn set_comment(&mut self, index: usize, text: &str) {
        match self {
            GameRecord::Eight(record) => {
                record.set_comment(index, text);
            }
            GameRecord::Board(record) => record.set_comment(index, text),
        }
    }

    /// The record as PDN in the variant's customary notation (Russian in algebraic notation
    /// with `:` for captures; every other variant as its PDN is written).
    pub fn text(&self) -> String {
        match self {
            GameRecord::Eight(record) => crate::pdn::pdn_text(record),
            GameRecord::Board(record) => record.to_pdn(),
        }
    }

    /// The record as the rules library writes it by default (Russian in numbers).
    pub fn to_pdn(&self) -> String {
        match self {
            GameRecord::Eight(record) => record.to_pdn(),
            GameRecord::Board(record) => record.to_pdn(),
        }
    }
}
