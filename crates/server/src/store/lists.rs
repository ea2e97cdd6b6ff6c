//! Reading many games at once: the list of public games, paged along its index, and what
//! start-up needs without loading any game (the games waiting for an opponent, the games
//! created in the last hour, the games whose clock runs or whose computer is to move).

use std::fmt;
use std::net::IpAddr;

use crate::variant::GameVariant;
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row};

use super::{column, Store, StoreError};
use crate::live::{color_name, parse_color, ClockSpec};
use crate::protocol::LobbyEntry;
use crate::token::is_game_id;

/// A game as the list of games shows it (`/api/games` and the `games` feed).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub plies: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
}

impl GameSummary {
    /// The place in the list just after this game.
    pub fn cursor(&self) -> ListCursor {
        ListCursor { live: self.status != "finished", updated_ms: self.updated_ms, id: self.id.clone() }
    }
}

impl FromRow<'_, AnyRow> for GameSummary {
    fn from_row(row: &AnyRow) -> Result<GameSummary, sqlx::Error> {
        Ok(GameSummary {
            id: row.try_get("id")?,
            variant: row.try_get("variant")?,
            status: row.try_get("status")?,
            result: row.try_get("result")?,
            reason: row.try_get("reason")?,
            white: row.try_get("white_name")?,
            black: row.try_get("black_name")?,
            plies: row.try_get("plies")?,
            created_ms: row.try_get("created_ms")?,
            updated_ms: row.try_get("updated_ms")?,
        })
    }
}

/// A place in the list of games, which is ordered live games first, then by the time of the
/// last change, newest first, then by id: the games after it are the next page. Written
/// `L.UPDATED_MS.ID`, `L` being 1 for a live game and 0 for a finished one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListCursor {
    live: bool,
    updated_ms: i64,
    id: String,
}

impl ListCursor {
    /// The cursor written as text, if it is one.
    pub fn parse(text: &str) -> Option<ListCursor> {
        let mut parts = text.splitn(3, '.');
        let live = match parts.next()? {
            "1" => true,
            "0" => false,
            _ => return None,
        };
        let updated_ms = parts.next()?.parse().ok()?;
        let id = parts.next()?;
        is_game_id(id).then(|| ListCursor { live, updated_ms, id: id.to_string() })
    }
}

impl fmt::Display for ListCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", u8::from(self.live), self.updated_ms, self.id)
    }
}

/// A game waiting for its second player, as start-up finds it in the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingGame {
    pub id: String,
    pub created_ms: i64,
    /// A friend game, waiting for whoever has its invitation.
    pub private: bool,
    /// The address of the client that created it, if known.
    pub creator: Option<IpAddr>,
    /// Its entry in the lobby, if it is listed there.
    pub lobby: Option<LobbyEntry>,
}

// Both read the index `games_list` (see the migrations): the first page, and a page after a
// cursor. The row comparison keeps the index's order, so each is one walk down the index.
const FIRST_PAGE: &str =
    "SELECT id, variant, status, result, reason, white_name, black_name, plies, created_ms, \
       updated_ms FROM games WHERE invite_hash IS NULL \
     ORDER BY live DESC, updated_ms DESC, id DESC LIMIT $1";
const PAGE_AFTER: &str =
    "SELECT id, variant, status, result, reason, white_name, black_name, plies, created_ms, \
       updated_ms FROM games WHERE invite_hash IS NULL AND (live, updated_ms, id) < ($1, $2, $3) \
     ORDER BY live DESC, updated_ms DESC, id DESC LIMIT $4";

impl Store {
    /// Public games in the list's order (see [`ListCursor`]), at most `limit` of them, after
    /// `after` if given.
    pub async fn list_games(
        &self,
        after: Option<&ListCursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let query = match after {
            None => sqlx::query_as(FIRST_PAGE).bind(limit),
            Some(c) => {
                sqlx::query_as(PAGE_AFTER).bind(i64::from(c.live)).bind(c.updated_ms).bind(&c.id).bind(limit)
            }
        };
        Ok(query.fetch_all(&self.pool).await?)
    }

    /// Every game waiting for an opponent, oldest first.
    pub async fn waiting_games(&self) -> Result<Vec<WaitingGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.variant, g.clock_base_ms, g.clock_increment_ms, g.created_ms, g.listed, \
               g.invite_hash, g.creator, g.rated, s.color, s.name, s.account_id, r.rating, r.rd, r.volatility, \
               r.last_rated_ms \
             FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.token_hash IS NOT NULL \
             LEFT JOIN ratings r ON r.account_id = s.account_id AND r.variant = g.variant AND r.speed = g.speed \
             WHERE g.status = 'waiting' ORDER BY g.created_ms, g.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut games: Vec<WaitingGame> = Vec::with_capacity(rows.len());
        for row in &rows {
            let game = waiting_game(row)
                .map_err(|why| StoreError::Corrupt { id: row.try_get("id").unwrap_or_default(), why })?;
            // A waiting game has one seat taken; were there two, the first is enough.
            if games.last().is_none_or(|last| last.id != game.id) {
                games.push(game);
            }
        }
        Ok(games)
    }

    /// The address and time of each game created (with `create`) since `since_ms`, oldest first.
    pub async fn creations_since(&self, since_ms: i64) -> Result<Vec<(IpAddr, i64)>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT creator, created_ms FROM games WHERE created_ms > $1 AND creator IS NOT NULL ORDER BY created_ms",
        )
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().filter_map(|(creator, at)| Some((creator.parse().ok()?, at))).collect())
    }

    /// Ids of the games in play that need their actor without anyone asking: those whose clock
    /// runs (so that a flag falls on time) and those with a computer seat (it may be to move).
    pub async fn games_to_resume(&self) -> Result<Vec<String>, StoreError> {
        let ids: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games g WHERE status = 'playing' AND (turn_started_ms IS NOT NULL \
               OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'computer')) \
             ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// Ids of at most `limit` games in play where no clock runs whose turn began at
    /// `cutoff_ms` or before, the longest unplayed first (read from the index
    /// `games_unplayed`).
    pub async fn unplayed_games(&self, cutoff_ms: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let ids: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE status = 'playing' AND turn_started_ms IS NULL \
               AND turn_began_ms <= $1 ORDER BY turn_began_ms LIMIT $2",
        )
        .bind(cutoff_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }
}

fn waiting_game(row: &AnyRow) -> Result<WaitingGame, String> {
    let id: String = column(row, "id")?;
    let created_ms = column(row, "created_ms")?;
    let creator = column::<Option<String>>(row, "creator")?.and_then(|text| text.parse().ok());
    let private = column::<Option<String>>(row, "invite_hash")?.is_some();
    let creator_color = column::<Option<String>>(row, "color")?.as_deref().and_then(parse_color);
    let lobby = match creator_color {
        Some(color) if column::<i64>(row, "listed")? != 0 => {
            let variant: GameVariant =
                column::<String>(row, "variant")?.parse().map_err(|e| format!("{e}"))?;
            let clock = match (column(row, "clock_base_ms")?, column(row, "clock_increment_ms")?) {
                (Some(base_ms), Some(increment_ms)) => Some(ClockSpec { base_ms, increment_ms }),
                _ => None,
            };
            let shown =
                super::ratings::seat_account(row)?.and_then(|(_, rating)| rating).filter(|_| clock.is_some());
            Some(LobbyEntry {
                id: id.clone(),
                variant: variant.name(),
                clock,
                name: column(row, "name")?,
                creator_color: color_name(color),
                created_ms,
                rated: column::<i64>(row, "rated")? != 0,
                rating: shown.map(|r| r.rating.round() as i64),
                provisional: shown.map(|r| r.is_provisional()),
            })
        }
        _ => None,
    };
    Ok(WaitingGame { id, created_ms, private, creator, lobby })
}
