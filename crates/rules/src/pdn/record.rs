//! What every PDN game keeps besides its positions and moves, whatever its variant: the tags
//! (the roster first) and the comments. [`PdnGame`](super::PdnGame) and
//! [`BoardPdnGame`](super::BoardPdnGame) each hold one [`Record`] and hand its methods on.

use super::error::PdnTagError;

/// Tags written first, in this order (the PDN "seven tag roster" less Result, in the order
/// checkers players list them: Black moves first in English).
pub(super) const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "Black", "White"];

/// Tags a game keeps as structure rather than text (compared without case when reading).
const RESERVED: [&str; 4] = ["Result", "GameType", "SetUp", "FEN"];

/// A game's tags and comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Record {
    tags: Vec<(String, String)>,
    /// `comments[i]` follows move `i`: one entry a move.
    comments: Vec<Option<String>>,
    opening_comment: Option<String>,
}

impl Record {
    /// The tags: Event, Site, Date, Round, Black, White (those set) first, then the others.
    pub(super) fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    pub(super) fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag (replacing its value if it is there); control characters become spaces.
    pub(super) fn set_tag(&mut self, name: &str, value: &str) -> Result<(), PdnTagError> {
        if !is_tag_name(name) {
            return Err(PdnTagError::BadName(name.to_string()));
        }
        if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
            return Err(PdnTagError::Reserved(name.to_string()));
        }
        let value = normalize_tag_value(value);
        if let Some(slot) = self.tags.iter_mut().find(|(n, _)| n == name) {
            slot.1 = value;
            return Ok(());
        }
        let at = match ROSTER.iter().position(|r| *r == name) {
            Some(rank) => self
                .tags
                .iter()
                .take_while(|(n, _)| ROSTER.iter().position(|r| r == n).is_some_and(|i| i < rank))
                .count(),
            None => self.tags.len(),
        };
        self.tags.insert(at, (name.to_string(), value));
        Ok(())
    }

    pub(super) fn remove_tag(&mut self, name: &str) -> Option<String> {
        let i = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(i).1)
    }

    /// Makes room for the comment of one more move.
    pub(super) fn push_move(&mut self) {
        self.comments.push(None);
    }

    pub(super) fn comment(&self, index: usize) -> Option<&str> {
        self.comments.get(index).and_then(|c| c.as_deref())
    }

    /// Sets the comment after move `index`, normalised; false if there is no such move.
    pub(super) fn set_comment(&mut self, index: usize, text: &str) -> bool {
        match self.comments.get_mut(index) {
            Some(slot) => {
                *slot = normalize_comment(text);
                true
            }
            None => false,
        }
    }

    pub(super) fn opening_comment(&self) -> Option<&str> {
        self.opening_comment.as_deref()
    }

    pub(super) fn set_opening_comment(&mut self, text: &str) {
        self.opening_comment = normalize_comment(text);
    }

    /// Adds a comment read after the last move (or before the first), after any comment
    /// already there.
    pub(super) fn append_comment(&mut self, text: &str) {
        let slot = match self.comments.last_mut() {
            Some(slot) => slot,
            None => &mut self.opening_comment,
        };
        let joined = match slot {
            Some(old) => format!("{old} {text}"),
            None => text.to_string(),
        };
        *slot = normalize_comment(&joined);
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub(super) fn normalize_tag_value(value: &str) -> String {
    value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// A comment as it reads back from a file: runs of white space become one space, `}`
/// becomes `)`, and an empty comment is none.
fn normalize_comment(text: &str) -> Option<String> {
    let joined = text.replace('}', ")").split_whitespace().collect::<Vec<_>>().join(" ");
    (!joined.is_empty()).then_some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_the_roster_first() {
        let mut record = Record::default();
        record.set_tag("Annotator", "x").unwrap();
        record.set_tag("White", "w").unwrap();
        record.set_tag("Event", "e").unwrap();
        record.set_tag("Black", "b").unwrap();
        let names: Vec<&str> = record.tags().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Event", "Black", "White", "Annotator"]);
        assert!(matches!(record.set_tag("fen", "x"), Err(PdnTagError::Reserved(_))));
        assert!(matches!(record.set_tag("a b", "x"), Err(PdnTagError::BadName(_))));
    }

    #[test]
    fn comments_follow_their_move() {
        let mut record = Record::default();
        record.append_comment("before");
        record.push_move();
        record.append_comment("one  }two");
        record.append_comment("three");
        assert_eq!(record.opening_comment(), Some("before"));
        assert_eq!(record.comment(0), Some("one )two three"));
        assert!(!record.set_comment(1, "no such move"));
        assert!(record.set_comment(0, " "));
        assert_eq!(record.comment(0), None);
    }
}
