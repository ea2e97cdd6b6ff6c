//! How long each player thought. Every move a player chooses carries its time in the PDN file
//! as a comment, `{0.427s}` (as cutechess-cli writes the time of a move), and the report's
//! time per move is read back from those comments, so the games of a resumed match count too,
//! and a match between engines that stop on the clock shows whether both had the time they
//! were given.

use std::time::Duration;

use checkers_engine::{MoveBuffer, SearchPosition};
use checkers_rules::Color;

use super::contest::MatchRecord;

/// One player's thinking over some moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// Timed moves made with a choice (more than one legal move).
    pub moves: u64,
    pub total: Duration,
    pub longest: Duration,
    /// Timed moves that were the only legal one, left out of the figures above: most engines
    /// play them at once, and they would hide how long the others took.
    pub forced: u64,
}

impl Thinking {
    pub fn add_move(&mut self, time: Duration, forced: bool) {
        if forced {
            self.forced += 1;
            return;
        }
        self.moves += 1;
        self.total += time;
        self.longest = self.longest.max(time);
    }

    pub fn add(&mut self, other: Thinking) {
        self.moves += other.moves;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.forced += other.forced;
    }

    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.total.div_f64(self.moves as f64))
    }

    /// `0.427 s a move (longest 1.204 s) over 8123 moves, 712 forced moves not counted`, or
    /// `not known` without timed moves.
    pub fn describe(&self) -> String {
        match self.mean() {
            Some(mean) => format!(
                "{:.3} s a move (longest {:.3} s) over {} moves, {} forced moves not counted",
                mean.as_secs_f64(),
                self.longest.as_secs_f64(),
                self.moves,
                self.forced
            ),
            None if self.forced > 0 => format!("only {} forced moves", self.forced),
            None => "not known".to_string(),
        }
    }
}

/// The comment a chosen move carries.
pub fn move_comment(time: Duration) -> String {
    format!("{:.3}s", time.as_secs_f64())
}

/// A move's time read back from its comment; `None` for any other comment.
pub fn comment_time(text: &str) -> Option<Duration> {
    let seconds: f64 = text.trim().strip_suffix('s')?.parse().ok()?;
    // Written to the millisecond; a hand-edited file may hold anything (NaN fails this too).
    if !(0.0..1e9).contains(&seconds) {
        return None;
    }
    Some(Duration::from_millis((seconds * 1000.0).round() as u64))
}

/// The thinking of the first and of the second player in a game `checkers match` wrote: the
/// timed moves after the opening's `opening_moves`.
pub fn of_record<P: SearchPosition>(
    record: &impl MatchRecord<P>,
    opening_moves: usize,
    first_color: Color,
) -> [Thinking; 2] {
    let mut players = [Thinking::default(); 2];
    let positions = record.positions();
    for (index, before) in positions.iter().enumerate().take(record.moves().len()).skip(opening_moves) {
        let Some(time) = record.comment(index).and_then(comment_time) else { continue };
        let forced = before.legal_moves().as_slice().len() == 1;
        players[usize::from(before.turn() != first_color)].add_move(time, forced);
    }
    players
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_rules::{PdnGame, Variant};

    #[test]
    fn comments_read_back_as_the_time_written() {
        for millis in [0, 1, 427, 1204, 65_000] {
            let time = Duration::from_millis(millis);
            assert_eq!(comment_time(&move_comment(time)), Some(time));
        }
        assert_eq!(move_comment(Duration::from_micros(426_600)), "0.427s");
        for other in ["end of opening 001 09-13 21-17 05-09", "s", "-1s", "NaNs", "1e400s", "0.5", ""] {
            assert_eq!(comment_time(other), None, "{other:?}");
        }
    }

    #[test]
    fn moves_are_counted_for_the_player_who_made_them() {
        let start = checkers_rules::Position::start(Variant::English);
        let mut record = PdnGame::new(Variant::English);
        let mut position = start;
        // After 9-14 23-18, the capture 14x23 is Black's only move.
        for text in ["9-14", "23-18", "14x23", "27x18", "12-16", "18-14"] {
            let mv = position.parse_move(text).unwrap();
            record.push(mv).unwrap();
            position = position.play_unchecked(&mv);
        }
        // A one-move opening; then White (the first player here) 0.2 s and 0.4 s, Black 0.1 s
        // for a forced move, 0.3 s, and a move without a time.
        let ms = Duration::from_millis;
        record.set_comment(0, "end of opening");
        for (index, millis) in [(1, 200), (2, 100), (3, 400), (4, 300)] {
            record.set_comment(index, &move_comment(ms(millis)));
        }
        let [first, second] = of_record(&record, 1, Color::White);
        assert_eq!(first, Thinking { moves: 2, total: ms(600), longest: ms(400), forced: 0 });
        assert_eq!(second, Thinking { moves: 1, total: ms(300), longest: ms(300), forced: 1 });
        assert_eq!(first.mean(), Some(ms(300)));
        assert_eq!(
            first.describe(),
            "0.300 s a move (longest 0.400 s) over 2 moves, 0 forced moves not counted"
        );
        assert_eq!(Thinking::default().describe(), "not known");
        let only_forced = Thinking { forced: 3, ..Thinking::default() };
        assert_eq!(only_forced.describe(), "only 3 forced moves");
        let mut both = first;
        both.add(second);
        assert_eq!(both, Thinking { moves: 3, total: ms(900), longest: ms(400), forced: 1 });
        // The opening's own moves are never counted, whatever their comments.
        let [first, second] = of_record(&record, 3, Color::White);
        assert_eq!((first.moves, second.moves, second.forced), (1, 1, 0));
    }
}
