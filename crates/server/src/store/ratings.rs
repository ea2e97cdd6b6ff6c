//! Ratings and a player's games: the Glicko-2 change a rated game's result makes, committed
//! in the result's own transaction (read, computed and written by the writer task, so that
//! two games of one player ending together are rated one after the other); each account's
//! ratings and results, the leaderboards, and the games an account played.

use std::sync::{Arc, Mutex, OnceLock};

use checkers_rules::Color;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, FromRow, Row};

use super::{column, now_ms, Store, StoreError, Write};
use crate::live::LiveGame;
use crate::pairing::AccountId;
use crate::rated::{needs_rating, speed_of, RatingChange};
use crate::rating::{rate_game, Rating, Score, SpeedClass, Standing};
use crate::variant::GameVariant;

/// Leaderboard rows read before the provisional ones are left out (the RD grows while idle,
/// so a stored RD under 110 may be provisional by now).
const LEADERBOARD_SCAN: i64 = 2000;

/// `writes` of a game, with its rating change when its result is to be rated.
pub(super) fn with_rating(game: &LiveGame, mut writes: Vec<Write>) -> Vec<Write> {
    if needs_rating(game) {
        if let (Some(white), Some(black), Some(speed), Some(outcome)) =
            (game.accounts.seats[0], game.accounts.seats[1], speed_of(game.clock), game.outcome())
        {
            let white_score = match outcome.winner {
                Some(Color::White) => Score::Win,
                Some(Color::Black) => Score::Loss,
                None => Score::Draw,
            };
            writes.push(Write::Rate(RateGame {
                game_id: game.id.clone(),
                variant: game.game.variant(),
                speed,
                accounts: [white, black],
                white_score,
                computed: Mutex::new(None),
                slot: game.accounts.change.clone(),
            }));
        }
    }
    writes
}

/// A rated game's result, to be rated in the transaction that commits it.
pub(super) struct RateGame {
    game_id: String,
    variant: GameVariant,
    speed: SpeedClass,
    accounts: [AccountId; 2],
    white_score: Score,
    /// The change made in the transaction, handed to `slot` once it commits.
    computed: Mutex<Option<RatingChange>>,
    slot: Arc<OnceLock<RatingChange>>,
}

/// One account's rating in a variant and speed class, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    pub standing: Standing,
    pub games: i64,
}

impl StoredRating {
    pub const NEW: StoredRating = StoredRating { standing: Standing::NEW, games: 0 };
}

fn stored_rating(row: &AnyRow) -> Result<StoredRating, sqlx::Error> {
    Ok(StoredRating {
        standing: Standing {
            rating: Rating {
                rating: row.try_get("rating")?,
                rd: row.try_get("rd")?,
                volatility: row.try_get("volatility")?,
            },
            last_rated_ms: Some(row.try_get("last_rated_ms")?),
        },
        games: row.try_get("games")?,
    })
}

const READ_RATING: &str = "SELECT rating, rd, volatility, games, last_rated_ms FROM ratings \
                           WHERE account_id = $1 AND variant = $2 AND speed = $3";

impl RateGame {
    pub(super) async fn run(&self, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let mut stored = [StoredRating::NEW; 2];
        for (account, stored) in self.accounts.iter().zip(&mut stored) {
            let row = sqlx::query(READ_RATING)
                .bind(account)
                .bind(self.variant.name())
                .bind(self.speed.name())
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(row) = row {
                *stored = stored_rating(&row)?;
            }
        }
        let (white, black) = rate_game(stored[0].standing, stored[1].standing, self.white_score, now);
        let before = [stored[0].standing.rating_at(now).rating, stored[1].standing.rating_at(now).rating];
        for ((account, old), new) in self.accounts.iter().zip(&stored).zip([white, black]) {
            sqlx::query(
                "INSERT INTO ratings (account_id, variant, speed, rating, rd, volatility, games, last_rated_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (account_id, variant, speed) DO UPDATE SET rating = excluded.rating, \
                   rd = excluded.rd, volatility = excluded.volatility, games = excluded.games, \
                   last_rated_ms = excluded.last_rated_ms",
            )
            .bind(account)
            .bind(self.variant.name())
            .bind(self.speed.name())
            .bind(new.rating)
            .bind(new.rd)
            .bind(new.volatility)
            .bind(old.games + 1)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        }
        let after = [white.rating, black.rating];
        sqlx::query(
            "UPDATE games SET white_rating_before = $2, white_rating_after = $3, black_rating_before = $4, \
               black_rating_after = $5 WHERE id = $1",
        )
        .bind(&self.game_id)
        .bind(before[0])
        .bind(after[0])
        .bind(before[1])
        .bind(after[1])
        .execute(conn)
        .await?;
        *crate::registry::lock(&self.computed) = Some(RatingChange { before, after });
        Ok(())
    }

    /// The transaction committed: its change may be shown.
    pub(super) fn committed(&self) {
        if let Some(change) = crate::registry::lock(&self.computed).take() {
            let _ = self.slot.set(change);
        }
    }
}

/// The account of a seat's row, with its rating in the game's variant and speed when the
/// row has one (`load_game` reads them together).
pub(super) fn seat_account(row: &AnyRow) -> Result<Option<(AccountId, Option<Rating>)>, String> {
    let Some(account) = column::<Option<i64>>(row, "account_id")? else { return Ok(None) };
    let rating = match column::<Option<f64>>(row, "rating")? {
        Some(rating) => {
            let standing = Standing {
                rating: Rating { rating, rd: column(row, "rd")?, volatility: column(row, "volatility")? },
                last_rated_ms: column(row, "last_rated_ms")?,
            };
            Some(standing.rating_at(now_ms()))
        }
        None => Some(Rating::START),
    };
    Ok(Some((account, rating)))
}

/// Puts a loaded game's accounts, rating and rating change in place.
pub(super) fn load_accounts(
    game: &mut LiveGame,
    row: &AnyRow,
    seats: [Option<(AccountId, Option<Rating>)>; 2],
) -> Result<(), String> {
    game.accounts.rated = column::<i64>(row, "rated")? != 0;
    let timed = game.clock.is_some();
    for (i, seat) in seats.into_iter().enumerate() {
        game.accounts.seats[i] = seat.map(|(id, _)| id);
        game.accounts.shown[i] = seat.and_then(|(_, rating)| rating).filter(|_| timed);
    }
    let numbers = [
        column::<Option<f64>>(row, "white_rating_before")?,
        column::<Option<f64>>(row, "white_rating_after")?,
        column::<Option<f64>>(row, "black_rating_before")?,
        column::<Option<f64>>(row, "black_rating_after")?,
    ];
    if let [Some(wb), Some(wa), Some(bb), Some(ba)] = numbers {
        let _ = game.accounts.change.set(RatingChange { before: [wb, bb], after: [wa, ba] });
    }
    Ok(())
}

/// Which of an account's games to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    pub variant: Option<GameVariant>,
    /// `win`, `loss` or `draw`, from the account's side.
    pub result: Option<GameOutcome>,
    pub rated: Option<bool>,
}

/// A finished game's result for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    Win,
    Loss,
    Draw,
}

impl GameOutcome {
    pub fn parse(text: &str) -> Option<GameOutcome> {
        match text {
            "win" => Some(GameOutcome::Win),
            "loss" => Some(GameOutcome::Loss),
            "draw" => Some(GameOutcome::Draw),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            GameOutcome::Win => "win",
            GameOutcome::Loss => "loss",
            GameOutcome::Draw => "draw",
        }
    }
}

/// A place in an account's list of games (newest first): `CREATED_MS.ID`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserGamesCursor {
    pub created_ms: i64,
    pub id: String,
}

impl UserGamesCursor {
    pub fn parse(text: &str) -> Option<UserGamesCursor> {
        let (created, id) = text.split_once('.')?;
        let created_ms = created.parse().ok()?;
        crate::token::is_game_id(id).then(|| UserGamesCursor { created_ms, id: id.to_string() })
    }
}

impl std::fmt::Display for UserGamesCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.created_ms, self.id)
    }
}

/// One of an account's games, as `/api/users/{name}/games` lists it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UserGame {
    pub id: String,
    pub variant: String,
    /// The speed class, `null` for an untimed game.
    pub speed: Option<String>,
    pub rated: bool,
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub winner: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The account's colour in the game.
    pub color: String,
    /// `win`, `loss` or `draw` for the account once finished; `null` before, or when aborted.
    pub outcome: Option<&'static str>,
    pub plies: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// The account's rating before and after, for a rated game once rated.
    pub rating: Option<BeforeAfter>,
}

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BeforeAfter {
    pub before: f64,
    pub after: f64,
}

impl UserGame {
    pub fn cursor(&self) -> UserGamesCursor {
        UserGamesCursor { created_ms: self.created_ms, id: self.id.clone() }
    }
}

impl FromRow<'_, AnyRow> for UserGame {
    fn from_row(row: &AnyRow) -> Result<UserGame, sqlx::Error> {
        let color: String = row.try_get("color")?;
        let winner: Option<String> = row.try_get("winner")?;
        let status: String = row.try_get("status")?;
        let reason: Option<String> = row.try_get("reason")?;
        let finished = status == "finished" && reason.as_deref() != Some(crate::live::ABORTED);
        let outcome = finished.then(|| match &winner {
            None => GameOutcome::Draw,
            Some(w) if *w == color => GameOutcome::Win,
            Some(_) => GameOutcome::Loss,
        });
        let (before, after) = if color == "white" {
            (row.try_get::<Option<f64>, _>("white_rating_before")?, row.try_get("white_rating_after")?)
        } else {
            (row.try_get::<Option<f64>, _>("black_rating_before")?, row.try_get("black_rating_after")?)
        };
        Ok(UserGame {
            id: row.try_get("id")?,
            variant: row.try_get("variant")?,
            speed: row.try_get("speed")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            status,
            result: row.try_get("result")?,
            reason,
            winner,
            white: row.try_get("white_name")?,
            black: row.try_get("black_name")?,
            color,
            outcome: outcome.map(GameOutcome::name),
            plies: row.try_get("plies")?,
            created_ms: row.try_get("created_ms")?,
            updated_ms: row.try_get("updated_ms")?,
            rating: before.zip(after).map(|(before, after)| BeforeAfter { before, after }),
        })
    }
}

/// A leaderboard's line.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LeaderboardRow {
    pub name: String,
    pub rating: f64,
    pub rd: f64,
    pub games: i64,
}

/// The SQL condition of a finished game's outcome for the seat `s` of game `g`.
fn outcome_condition(outcome: GameOutcome) -> &'static str {
    match outcome {
        GameOutcome::Win => "g.status = 'finished' AND g.winner = s.color",
        GameOutcome::Loss => "g.status = 'finished' AND g.winner IS NOT NULL AND g.winner <> s.color",
        GameOutcome::Draw => "g.status = 'finished' AND g.winner IS NULL AND g.reason <> 'aborted'",
    }
}

impl Store {
    /// An account's rating in a variant and speed class (the starting one if never rated there).
    pub async fn rating(
        &self,
        account: AccountId,
        variant: GameVariant,
        speed: SpeedClass,
    ) -> Result<StoredRating, StoreError> {
        let row = sqlx::query(READ_RATING)
            .bind(account)
            .bind(variant.name())
            .bind(speed.name())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| stored_rating(&row)).transpose()?.unwrap_or(StoredRating::NEW))
    }

    /// Every rating an account has, by variant and speed name.
    pub async fn ratings(
        &self,
        account: AccountId,
    ) -> Result<Vec<(String, String, StoredRating)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, speed, rating, rd, volatility, games, last_rated_ms FROM ratings WHERE account_id = $1",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        let mut ratings = Vec::with_capacity(rows.len());
        for row in &rows {
            ratings.push((row.try_get("variant")?, row.try_get("speed")?, stored_rating(row)?));
        }
        Ok(ratings)
    }

    /// An account's finished games counted: wins, losses, draws (aborted games count nothing).
    pub async fn results(&self, account: AccountId) -> Result<[i64; 3], StoreError> {
        let count = |outcome| {
            format!(
                "CAST(COALESCE(SUM(CASE WHEN {} THEN 1 ELSE 0 END), 0) AS BIGINT)",
                outcome_condition(outcome)
            )
        };
        let query = format!(
            "SELECT {}, {}, {} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.account_id = $1",
            count(GameOutcome::Win),
            count(GameOutcome::Loss),
            count(GameOutcome::Draw)
        );
        let (wins, losses, draws): (i64, i64, i64) =
            sqlx::query_as(&query).bind(account).fetch_one(&self.pool).await?;
        Ok([wins, losses, draws])
    }

    /// A page of an account's games (not private ones, not those still waiting), newest first,
    /// after `after` if given.
    pub async fn user_games(
        &self,
        account: AccountId,
        filter: &GameFilter,
        after: Option<&UserGamesCursor>,
        limit: i64,
    ) -> Result<Vec<UserGame>, StoreError> {
        // Every parameter appears in the query, used or not, so that PostgreSQL knows its type.
        let mut conditions = vec![
            "s.account_id = $1".to_string(),
            "g.invite_hash IS NULL".to_string(),
            "g.status <> 'waiting'".to_string(),
            "($2 = '' OR g.variant = $2)".to_string(),
            "($4 = '' OR (g.created_ms, g.id) < ($3, $4))".to_string(),
        ];
        if let Some(outcome) = filter.result {
            conditions.push(outcome_condition(outcome).to_string());
        }
        if let Some(rated) = filter.rated {
            conditions.push(format!("g.rated = {}", i64::from(rated)));
        }
        let query = format!(
            "SELECT g.id, g.variant, g.speed, g.rated, g.status, g.result, g.reason, g.winner, g.white_name, \
               g.black_name, s.color, g.plies, g.created_ms, g.updated_ms, g.white_rating_before, \
               g.white_rating_after, g.black_rating_before, g.black_rating_after \
             FROM seats s JOIN games g ON g.id = s.game_id WHERE {} \
             ORDER BY g.created_ms DESC, g.id DESC LIMIT $5",
            conditions.join(" AND ")
        );
        let games = sqlx::query_as(&query)
            .bind(account)
            .bind(filter.variant.map(|v| v.name()).unwrap_or_default())
            .bind(after.map_or(0, |c| c.created_ms))
            .bind(after.map(|c| c.id.clone()).unwrap_or_default())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(games)
    }

    /// The best non-provisional players of a variant and speed class at `now_ms`, at most `limit`.
    pub async fn leaderboard(
        &self,
        variant: GameVariant,
        speed: SpeedClass,
        now_ms: i64,
        limit: usize,
    ) -> Result<Vec<LeaderboardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.last_rated_ms FROM ratings r \
             JOIN accounts a ON a.id = r.account_id WHERE r.variant = $1 AND r.speed = $2 AND r.rd <= $3 \
             ORDER BY r.rating DESC, a.name_key LIMIT $4",
        )
        .bind(variant.name())
        .bind(speed.name())
        .bind(crate::rating::PROVISIONAL_RD)
        .bind(LEADERBOARD_SCAN)
        .fetch_all(&self.pool)
        .await?;
        let mut board = Vec::new();
        for row in &rows {
            let stored = stored_rating(row)?;
            let now = stored.standing.rating_at(now_ms);
            if now.is_provisional() {
                continue;
            }
            board.push(LeaderboardRow {
                name: row.try_get("name")?,
                rating: now.rating,
                rd: now.rd,
                games: stored.games,
            });
            if board.len() == limit {
                break;
            }
        }
        Ok(board)
    }
}
