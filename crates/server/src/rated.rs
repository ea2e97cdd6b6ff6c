//! Accounts at the board and rated games: which account holds each seat of a game, whether
//! the game is rated, the ratings shown beside the players, and the rating change its result
//! made. A rated game is between two accounts, on a clock; the computer never rates. Its
//! change is computed and committed by the store in the transaction of its result
//! (`store/ratings.rs`), and shown to both players in the game's final `state`.

use std::sync::{Arc, OnceLock};

use checkers_rules::Color;

use crate::error::{ApiError, ErrorCode};
use crate::live::{side, ClockSpec, LiveGame, Status};
use crate::pairing::AccountId;
use crate::rating::{Rating, SpeedClass};

/// An account as the server knows it once logged in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    pub name: String,
}

/// Both players' ratings (the number alone) before and after a rated game (White, then
/// Black).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub before: [f64; 2],
    pub after: [f64; 2],
}

/// A game's accounts and rating.
#[derive(Clone, Debug, Default)]
pub struct GameAccounts {
    /// The account holding each seat (White, then Black), if any.
    pub seats: [Option<AccountId>; 2],
    /// The rating each account had in the game's variant and speed class when it was loaded
    /// or seated, shown beside the players (rounded).
    pub shown: [Option<Rating>; 2],
    /// Whether the game is rated.
    pub rated: bool,
    /// The change a rated game's result made, set by the store once it has committed it
    /// (shared between the copies the actor makes of the game: it is set on the copy being
    /// committed, and only when the commit succeeded).
    pub change: Arc<OnceLock<RatingChange>>,
}

impl GameAccounts {
    /// The accounts of a rematch: the seats swapped, rated if the game was, no change yet.
    pub fn for_rematch(&self) -> GameAccounts {
        GameAccounts {
            seats: [self.seats[1], self.seats[0]],
            shown: [self.shown[1], self.shown[0]],
            rated: self.rated,
            change: Arc::default(),
        }
    }

    /// The rating change, once committed.
    pub fn change(&self) -> Option<&RatingChange> {
        self.change.get()
    }
}

/// A game's speed class: `None` untimed.
pub fn speed_of(clock: Option<ClockSpec>) -> Option<SpeedClass> {
    clock.map(|c| SpeedClass::from_clock_ms(c.base_ms, c.increment_ms))
}

/// Refuses a rated game that cannot be one: asked by an anonymous player, without a clock, or
/// against the computer.
pub fn check_rateable(
    account: Option<&Account>,
    clock: Option<ClockSpec>,
    computer: bool,
) -> Result<(), ApiError> {
    let why = if computer {
        "games against the computer are never rated"
    } else if account.is_none() {
        "rated games are for accounts: sign up or log in first"
    } else if clock.is_none() {
        "untimed games are never rated: give the game a clock"
    } else {
        return Ok(());
    };
    Err(ApiError::new(ErrorCode::NotRateable, why))
}

/// Refuses a player who may not take a seat in `game`: a rated game is joined by an account
/// only, and never by the account holding the other seat.
pub fn check_join(game: &LiveGame, account: Option<&Account>) -> Result<(), ApiError> {
    if !game.accounts.rated || game.status != Status::Waiting {
        return Ok(());
    }
    let Some(account) = account else {
        return Err(ApiError::new(ErrorCode::LoginRequired, "a rated game is joined by a logged-in account"));
    };
    if game.accounts.seats.contains(&Some(account.id)) {
        return Err(ApiError::new(ErrorCode::NotRateable, "an account cannot play itself in a rated game"));
    }
    Ok(())
}

/// Records the account that took the seat `color`.
pub fn seat_account(game: &mut LiveGame, color: Color, account: Option<&Account>, shown: Option<Rating>) {
    game.accounts.seats[side(color)] = account.map(|a| a.id);
    game.accounts.shown[side(color)] = account.and(shown);
}

/// Whether committing `game` must rate it: a rated game just finished with a result (not
/// withdrawn or aborted) whose change is not yet made.
pub fn needs_rating(game: &LiveGame) -> bool {
    game.accounts.rated
        && game.status == Status::Finished
        && !game.aborted
        && game.outcome().is_some()
        && game.accounts.change().is_none()
        && game.accounts.seats.iter().all(Option::is_some)
}
