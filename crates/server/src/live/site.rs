//! The site's own rules of play, beside the rules of the game: aborting a game before both
//! sides have moved.

use super::{LiveGame, Refusal, Status};

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
