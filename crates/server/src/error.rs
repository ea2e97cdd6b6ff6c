//! Refusals as clients read them: a stable code, and a sentence for people. The same error
//! answers a WebSocket message (`{"t":"error",...}`) and an HTTP request (`{"code",
//! "message"}` with a status that follows from the code).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::live::Refusal;
use crate::store::StoreError;

/// What went wrong, as a client's code can tell: the `code` of an error reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message is not one the protocol knows, or names a choice that is not one.
    BadRequest,
    /// The message is longer than the protocol allows.
    TooLarge,
    /// Too many messages: the client is slowed down, then disconnected.
    RateLimited,
    NotFound,
    /// The seat token holds no seat in this game (or a seat the computer plays).
    NotYourSeat,
    NotYourTurn,
    IllegalMove,
    /// The move was for another ply: the game has moved on.
    Stale,
    /// A seat is still empty.
    NotStarted,
    GameOver,
    NoFreeSeat,
    /// A friend game is joined with its invitation's secret only.
    NotInvited,
    /// The client's address has created as many games in the last hour as it may.
    TooManyGames,
    /// The client's address has as many games waiting for an opponent as it may.
    TooManyWaiting,
    /// Pushed to a waiting game's followers when it is deleted: nobody joined it in time.
    Expired,
    NoDrawOffer,
    /// The computer judged the offered draw and declined it.
    DrawDeclined,
    RematchRefused,
    /// Both sides have moved: the game can no longer be aborted.
    AbortRefused,
    /// The opponent has not left the game (long enough), or the game cannot be claimed.
    ClaimRefused,
    /// A rated game, nothing to take back, or no takeback request to answer.
    TakebackRefused,
    /// The client already has as many games against the computer in play as it may.
    TooManyComputerGames,
    /// The database did not take the change; nothing was changed.
    Storage,
    /// The game or the engine cannot be reached just now.
    Unavailable,
    /// HTTP only: the game is not over, so the engine may not look at it.
    NotFinished,
    /// HTTP only: no position of the game has that number of moves.
    BadPly,
    /// HTTP only: too many reviews wait already.
    Busy,
    /// HTTP only: a page of another site may not open the WebSocket.
    Forbidden,
    /// Sign-up: the name is not 3 to 20 of `A-Z a-z 0-9 _ -`.
    BadName,
    /// Sign-up: the password is shorter than 8 characters.
    WeakPassword,
    /// Sign-up: an account has that name already (ignoring case).
    NameTaken,
    /// Log-in: no account has that name and password (which of the two is not said).
    BadCredentials,
    /// A rated game asked for where none can be: an anonymous player, no clock, the computer.
    NotRateable,
    /// HTTP only: a request body that is not `application/json`.
    UnsupportedMediaType,
    /// Only a logged-in account may do this (join a rated game, challenge, a rated pool).
    LoginRequired,
}

/// An error reply: a stable code and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { code, message: message.into() }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }
    pub fn not_found(id: &str) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("there is no game {id}"))
    }
    pub fn not_your_seat() -> ApiError {
        ApiError::new(ErrorCode::NotYourSeat, "this seat token does not hold a seat in this game")
    }
    /// The game's actor is gone and could not be started again.
    pub fn game_unavailable() -> ApiError {
        ApiError::new(ErrorCode::Unavailable, "the game is unavailable; try again")
    }
    /// The engine's pool has shut down.
    pub fn engine_unavailable() -> ApiError {
        ApiError::new(ErrorCode::Unavailable, "the engine is not available")
    }
    pub fn draw_declined() -> ApiError {
        ApiError::new(ErrorCode::DrawDeclined, "the computer declines the draw")
    }
    /// Too many requests from one client: the HTTP endpoints' and the review queue's limits.
    pub fn rate_limited(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::RateLimited, message)
    }
    pub fn not_invited() -> ApiError {
        ApiError::new(
            ErrorCode::NotInvited,
            "this game is private: join it through the invitation link its creator shared",
        )
    }
    pub fn too_many_games(per_hour: u32) -> ApiError {
        ApiError::new(
            ErrorCode::TooManyGames,
            format!("at most {per_hour} games an hour may be created from one address: try again later"),
        )
    }
    pub fn too_many_waiting(waiting: u32) -> ApiError {
        ApiError::new(
            ErrorCode::TooManyWaiting,
            format!(
                "at most {waiting} games from one address may wait for an opponent at once: \
                 cancel one, or wait until someone joins"
            ),
        )
    }
    pub fn expired() -> ApiError {
        ApiError::new(ErrorCode::Expired, "nobody joined this game in time, so it has been deleted")
    }
    pub fn busy() -> ApiError {
        ApiError::new(ErrorCode::Busy, "the engine is busy with other reviews: try again in a minute")
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let code = match r {
            Refusal::GameOver => ErrorCode::GameOver,
            Refusal::NotStarted => ErrorCode::NotStarted,
            Refusal::NotYourTurn(_) => ErrorCode::NotYourTurn,
            Refusal::IllegalMove(_) => ErrorCode::IllegalMove,
            Refusal::StalePly { .. } => ErrorCode::Stale,
            Refusal::NoFreeSeat => ErrorCode::NoFreeSeat,
            Refusal::NoDrawOffer => ErrorCode::NoDrawOffer,
            Refusal::RematchTooEarly | Refusal::RematchArranged | Refusal::RematchNotHuman => {
                ErrorCode::RematchRefused
            }
            Refusal::TooLateToAbort => ErrorCode::AbortRefused,
            Refusal::NothingToClaim => ErrorCode::ClaimRefused,
            Refusal::Takeback(_) => ErrorCode::TakebackRefused,
        };
        ApiError::new(code, r.to_string())
    }
}

impl From<StoreError> for ApiError {
    /// The client hears that nothing was changed; the operator reads why on stderr.
    fn from(e: StoreError) -> ApiError {
        tracing::error!("storage error: {e}");
        ApiError::new(ErrorCode::Storage, "the game could not be saved; nothing was changed, try again")
    }
}
