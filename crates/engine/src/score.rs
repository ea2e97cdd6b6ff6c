//! Search scores: hundredths of a man from the side to move's point of view, or a forced win
//! or loss a known number of plies away.

use std::fmt;

/// A score from the point of view of the side to move: positive is good for it.
///
/// Ordinary scores are in hundredths of a man (a man is worth about 100). Scores near
/// [`Score::WIN`] are forced wins (`WIN - n` wins in `n` plies), near `-WIN` forced losses.
/// `Display` writes one token: `35`, `-120`, `win7` (wins in 7 plies) or `loss6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// The value of a win on the spot; wins further away score a ply less each.
    pub const WIN: i32 = 30_000;
    /// Scores beyond `WIN - MAX_PLIES_TO_END` in size are forced results.
    pub(crate) const MAX_PLIES_TO_END: i32 = 1_000;
    /// The smallest size of a forced result's score.
    pub(crate) const DECISIVE: i32 = Score::WIN - Score::MAX_PLIES_TO_END;
    /// An even game.
    pub const DRAW: Score = Score(0);

    /// An ordinary score of `value` hundredths of a man (a man is worth about 100), clamped
    /// below the range of forced results.
    pub fn hundredths(value: i32) -> Score {
        let bound = Score::WIN - Score::MAX_PLIES_TO_END - 1;
        Score(value.clamp(-bound, bound))
    }
    /// A forced win for the side to move in `plies` plies.
    pub fn win_in(plies: u32) -> Score {
        Score(Score::WIN - plies.min(Score::MAX_PLIES_TO_END as u32) as i32)
    }
    /// A forced loss for the side to move in `plies` plies.
    pub fn loss_in(plies: u32) -> Score {
        Score(-Score::win_in(plies).0)
    }
    /// The raw value (hundredths of a man, or near ±`WIN` for forced results).
    pub fn value(self) -> i32 {
        self.0
    }
    pub fn is_win(self) -> bool {
        self.0 >= Score::DECISIVE
    }
    pub fn is_loss(self) -> bool {
        self.0 <= -Score::DECISIVE
    }
    /// A forced win or loss.
    pub fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }
    /// Plies to the end of the game for a forced result.
    pub fn plies_to_end(self) -> Option<u32> {
        self.is_decisive().then(|| (Score::WIN - self.0.abs()) as u32)
    }
    /// The score seen from the other side.
    pub fn flipped(self) -> Score {
        Score(-self.0)
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        self.flipped()
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.is_win() => write!(f, "win{n}"),
            Some(n) => write!(f, "loss{n}"),
            None => write!(f, "{}", self.0),
        }
    }
}

/// What was wrong with a score's text.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a score (a whole number of hundredths of a man, `winN` or `lossN`)")]
pub struct ScoreParseError;

impl std::str::FromStr for Score {
    type Err = ScoreParseError;
    /// Reads what `Display` writes.
    fn from_str(text: &str) -> Result<Score, ScoreParseError> {
        let plies = |n: &str| n.parse::<u32>().ok().filter(|&n| n <= Score::MAX_PLIES_TO_END as u32);
        if let Some(n) = text.strip_prefix("win") {
            return plies(n).map(Score::win_in).ok_or(ScoreParseError);
        }
        if let Some(n) = text.strip_prefix("loss") {
            return plies(n).map(Score::loss_in).ok_or(ScoreParseError);
        }
        let value: i32 = text.parse().map_err(|_| ScoreParseError)?;
        let score = Score::hundredths(value);
        // A number in the range of forced results is not what `Display` writes.
        (score.0 == value).then_some(score).ok_or(ScoreParseError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_token() {
        assert_eq!(Score::hundredths(35).to_string(), "35");
        assert_eq!(Score::hundredths(-120).to_string(), "-120");
        assert_eq!(Score::win_in(7).to_string(), "win7");
        assert_eq!(Score::loss_in(6).to_string(), "loss6");
        assert!(Score::win_in(3) > Score::win_in(5));
        assert!(Score::hundredths(1_000_000) < Score::win_in(900));
        assert_eq!(-Score::win_in(4), Score::loss_in(4));
    }

    #[test]
    fn scores_read_back_what_they_write() {
        for score in
            [Score::hundredths(35), Score::hundredths(-120), Score::DRAW, Score::win_in(7), Score::loss_in(6)]
        {
            assert_eq!(score.to_string().parse(), Ok(score));
        }
        for bad in ["", "win", "loss-3", "3.5", "+", "29500", "win1001", "12 "] {
            assert_eq!(bad.parse::<Score>(), Err(ScoreParseError), "{bad:?}");
        }
    }
}
