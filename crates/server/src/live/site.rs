//! The site's own rules of play, beside the rules of the game: aborting a game before both
//! sides have moved, claiming a timed game the opponent has left, ending a game unplayed for
//! long, takebacks in casual games.

use checkers_rules::Color;

use super::{side, LiveGame, PlayerKind, Refusal, Status};
use crate::rules::Declared;

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
        self.game.declare(if draw { Declared::Draw } else { Declared::Resignation(left) });
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
            let loser = self.turn();
            self.game.declare(Declared::Resignation(loser));
            self.abandoned_by = Some(loser);
        }
        self.finish();
        true
    }
}

impl LiveGame {
    /// Whether the game counts for ratings (chosen when it was created, between accounts);
    /// rated games have no takebacks.
    pub fn is_rated(&self) -> bool {
        self.accounts.rated
    }

    /// How many moves taking back `color`'s last move undoes: that move, and the opponent's
    /// reply if there is one. `None` if `color` has not moved.
    fn takeback_plies(&self, color: Color) -> Option<usize> {
        let plies = if self.turn() == color { 2 } else { 1 };
        (self.game.plies() >= plies).then_some(plies)
    }

    /// `color` asks to take back their last move (with the opponent's reply, if any). The
    /// computer agrees at once; a person is asked (see [`LiveGame::answer_takeback`]), and a
    /// request of theirs standing is accepted instead. Returns whether moves were taken back.
    pub fn ask_takeback(&mut self, color: Color, now_ms: i64) -> Result<bool, Refusal> {
        self.require_playing()?;
        if self.check_flag(now_ms) {
            return Err(Refusal::GameOver);
        }
        if self.is_rated() {
            return Err(Refusal::Takeback("rated games have no takebacks"));
        }
        if self.takeback_offer == Some(color.opponent()) {
            return self.answer_takeback(color, true, now_ms).map(|()| true);
        }
        let plies = self.takeback_plies(color).ok_or(Refusal::Takeback("you have no move to take back"))?;
        if let PlayerKind::Computer { .. } = self.seats[side(color.opponent())].kind {
            self.undo(plies, now_ms);
            return Ok(true);
        }
        self.takeback_offer = Some(color);
        Ok(false)
    }

    /// `color` accepts or declines the opponent's takeback request.
    pub fn answer_takeback(&mut self, color: Color, accept: bool, now_ms: i64) -> Result<(), Refusal> {
        self.require_playing()?;
        if self.takeback_offer != Some(color.opponent()) {
            return Err(Refusal::Takeback("there is no takeback request to answer"));
        }
        self.takeback_offer = None;
        if accept {
            if self.check_flag(now_ms) {
                return Err(Refusal::GameOver);
            }
            let plies =
                self.takeback_plies(color.opponent()).ok_or(Refusal::Takeback("no move to take back"))?;
            self.undo(plies, now_ms);
        }
        Ok(())
    }

    /// Takes back the last `plies` moves at `now_ms`: the clocks keep the time they show (the
    /// side to move's runs from now on, once both sides have moved), offers lapse.
    fn undo(&mut self, plies: usize, now_ms: i64) {
        self.stop_clock(now_ms);
        let kept = self.game.plies().saturating_sub(plies);
        self.game.truncate(kept);
        self.pdn_moves.truncate(kept);
        self.draw_offer = None;
        self.takeback_offer = None;
        self.turn_began_ms = Some(now_ms);
        if self.clock.is_some() && self.both_moved() {
            self.turn_started_ms = Some(now_ms);
        }
    }
}
