//! The site's own rules of play, beside the rules of the game: aborting a game before both
//! sides have moved, claiming a timed game the opponent has left, ending a game unplayed for
//! long.

use checkers_rules::Color;

use super::{side, LiveGame, PlayerKind, Refusal, Status};

impl LiveGame {
    /// Whether the game may still be aborted: it has not begun, or not both sides have moved.
    pub fn abortable(&self) -> bool {
        match self.status {
            Status::Waiting => true,
            Status::Playing => !self.both_moved(),
            Status::Finished => false,
        }
    }

    /// A player aborts the game: no result, never rated. Allowed until both sides have moved
    /// (no clock runs until then, so none is charged).
    pub fn abort(&mut self) -> Result<(), Refusal> {
        if self.status == Status::Finished {
            return Err(Refusal::GameOver);
        }
        if !self.abortable() {
            return Err(Refusal::TooLateToAbort);
        }
        self.aborted = true;
        self.finish();
        Ok(())
    }
}

impl LiveGame {
    /// Whether `color`'s player, once gone long enough, may be claimed against: the game is
    /// timed and in play, both sides have moved, and both players are people.
    pub fn claimable_against(&self, color: Color) -> bool {
        self.status == Status::Playing
            && self.clock.is_some()
            && self.both_moved()
            && self.seats[side(color)].kind == PlayerKind::Human
            && self.seats[side(color.opponent())].kind == PlayerKind::Human
    }

    /// `color` claims the game its opponent has left ([`LiveGame::gone`]): a win, or a draw
    /// if `draw`.
    pub fn claim(&mut self, color: Color, draw: bool, now_ms: i64) -> Result<(), Refusal> {
        self.require_playing()?;
        if self.check_flag(now_ms) {
            return Err(Refusal::GameOver);
        }
        let left = color.opponent();
        if self.gone != Some(left) || !self.claimable_against(left) {
            return Err(Refusal::NothingToClaim);
        }
        self.stop_clock(now_ms);
        let _ = if draw { self.game.agree_draw() } else { self.game.resign(left) };
        self.abandoned_by = Some(left);
        self.finish();
        Ok(())
    }
}

impl LiveGame {
    /// Ends the game if no clock runs in it and nobody has played for `limit_ms` at `now_ms`,
    /// as lichess ends an abandoned game: aborted if not both sides have moved, else lost by
    /// the side to move (reason `abandoned`). The computer is never waited for. Returns
    /// whether it ended the game.
    pub fn end_if_unplayed(&mut self, now_ms: i64, limit_ms: i64) -> bool {
        let unplayed = self.turn_began_ms.is_some_and(|began| now_ms.saturating_sub(began) >= limit_ms);
        if self.status != Status::Playing
            || self.turn_started_ms.is_some()
            || self.computer_to_move().is_some()
            || !unplayed
        {
            return false;
        }
        if self.abortable() {
            self.aborted = true;
        } else {
            let loser = self.position().turn();
            let _ = self.game.resign(loser);
            self.abandoned_by = Some(loser);
        }
        self.finish();
        true
    }
}
