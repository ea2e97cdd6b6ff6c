//! Storage: games, seats and every move with its clock readings, in SQLite (a file, the
//! default) or PostgreSQL, through sqlx's `Any` driver so one set of queries serves both.
//!
//! The schema is created by embedded migrations (`migrations/`), run at start-up. Queries use
//! `$1`-style parameters and plain types (text and 64-bit integers), which both databases read
//! the same way. A move's row and its game's updated row are written in one transaction: when
//! [`Store::record_move`] returns, the move survives any crash of the server.

use std::borrow::Cow;

use checkers_rules::{Color, Position, Variant};
use futures_util::future::BoxFuture;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};
use thiserror::Error;

use crate::live::{
    color_name, parse_color, reason_code, result_text, ClockSpec, LiveGame, MoveRecord, PlayerKind, Seat,
    Status, ABORTED,
};

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored game {id} cannot be loaded: {why}")]
    Corrupt { id: String, why: String },
    #[error("unsupported database URL `{0}` (expected a SQLite file path, sqlite://... or postgres://...)")]
    BadUrl(String),
}

/// The embedded migrations, in order.
const MIGRATIONS: &[(i64, &str, &str)] =
    &[(1, "games seats moves", include_str!("../migrations/0001_games.sql"))];

#[derive(Debug)]
struct Embedded;

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> BoxFuture<'s, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// A game as listed on the games page and in the lobby.
#[derive(Clone, Debug, serde::Serialize)]
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

/// The database behind the server.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    is_sqlite: bool,
}

/// Turns what the user typed after `--db` into a URL sqlx understands.
pub fn normalise_url(text: &str) -> Result<String, StoreError> {
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        return Ok(text.to_string());
    }
    if text.starts_with("sqlite:") {
        let mut url = text.to_string();
        if !url.contains("mode=") && !url.contains(":memory:") {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("mode=rwc");
        }
        return Ok(url);
    }
    if text.contains("://") || text.is_empty() {
        return Err(StoreError::BadUrl(text.to_string()));
    }
    Ok(format!("sqlite://{text}?mode=rwc"))
}

impl Store {
    /// Connects (creating a SQLite file if needed) and brings the schema up to date.
    pub async fn open(url_text: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = normalise_url(url_text)?;
        let is_sqlite = url.starts_with("sqlite:");
        // SQLite has one writer at a time: one connection avoids lock waits between our own
        // connections. WAL with synchronous=NORMAL keeps every committed transaction through a
        // crash of the process (kill -9); only a power cut may lose the last few.
        let options = AnyPoolOptions::new().max_connections(if is_sqlite { 1 } else { 8 }).after_connect(
            move |conn, _meta| {
                Box::pin(async move {
                    if is_sqlite {
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                    }
                    Ok(())
                })
            },
        );
        let pool = options.connect(&url).await?;
        let migrator = Migrator::new(Embedded).await?;
        migrator.run(&pool).await?;
        Ok(Store { pool, is_sqlite })
    }

    pub fn is_sqlite(&self) -> bool {
        self.is_sqlite
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Saves a new game and its seats.
    pub async fn create_game(&self, game: &LiveGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves a rematch: the new game and the old game's link to it.
    pub async fn create_rematch(&self, old: &LiveGame, new: &LiveGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, new).await?;
        update_game(&mut tx, old).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves a seat taken by a player who joined, and the game's new status.
    pub async fn save_seat(&self, game: &LiveGame, color: Color) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        upsert_seat(&mut tx, game, color).await?;
        update_game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves the game's row (status, result, clocks) after a resignation, draw or flag.
    pub async fn save_game(&self, game: &LiveGame) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        update_game(&mut conn, game).await?;
        Ok(())
    }

    /// Saves a move and the game's new state in one transaction.
    pub async fn record_move(&self, game: &LiveGame, record: &MoveRecord) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO moves (game_id, ply, hub, pdn, fen_after, white_ms, black_ms, played_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&game.id)
        .bind(i64::from(record.ply))
        .bind(&record.hub)
        .bind(&record.pdn)
        .bind(&record.fen_after)
        .bind(record.white_ms)
        .bind(record.black_ms)
        .bind(record.played_ms)
        .execute(&mut *tx)
        .await?;
        update_game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ids of games not finished (to resume after a restart).
    pub async fn unfinished_game_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status <> 'finished' ORDER BY created_ms")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get::<String, _>("id")?)).collect()
    }

    /// Loads a game with its seats and moves, replayed through the rules.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>, StoreError> {
        let Some(row) =
            sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?
        else {
            return Ok(None);
        };
        let seats =
            sqlx::query("SELECT * FROM seats WHERE game_id = $1").bind(id).fetch_all(&self.pool).await?;
        let moves = self.move_records(id).await?;
        build_game(id, &row, &seats, &moves)
            .map(Some)
            .map_err(|why| StoreError::Corrupt { id: id.to_string(), why })
    }

    /// The moves of a game as stored, in order.
    pub async fn move_records(&self, id: &str) -> Result<Vec<MoveRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT ply, hub, pdn, fen_after, white_ms, black_ms, played_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRecord {
                    ply: u32::try_from(r.try_get::<i64, _>("ply")?).unwrap_or(u32::MAX),
                    hub: r.try_get("hub")?,
                    pdn: r.try_get("pdn")?,
                    fen_after: r.try_get("fen_after")?,
                    white_ms: r.try_get("white_ms")?,
                    black_ms: r.try_get("black_ms")?,
                    played_ms: r.try_get("played_ms")?,
                })
            })
            .collect()
    }

    /// The most recently active games, live ones first.
    pub async fn recent_games(&self, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.variant, g.status, g.result, g.reason, g.created_ms, g.updated_ms, \
               (SELECT name FROM seats s WHERE s.game_id = g.id AND s.color = 'white') AS white, \
               (SELECT name FROM seats s WHERE s.game_id = g.id AND s.color = 'black') AS black, \
               (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g \
             ORDER BY CASE WHEN g.status = 'finished' THEN 1 ELSE 0 END, g.updated_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(GameSummary {
                    id: r.try_get("id")?,
                    variant: r.try_get("variant")?,
                    status: r.try_get("status")?,
                    result: r.try_get("result")?,
                    reason: r.try_get("reason")?,
                    white: r.try_get("white")?,
                    black: r.try_get("black")?,
                    plies: r.try_get("plies")?,
                    created_ms: r.try_get("created_ms")?,
                    updated_ms: r.try_get("updated_ms")?,
                })
            })
            .collect()
    }
}

async fn insert_game(conn: &mut sqlx::AnyConnection, game: &LiveGame) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, variant, start_fen, listed, clock_base_ms, clock_increment_ms, status, \
           result, winner, reason, white_ms, black_ms, turn_started_ms, rematch_of, rematch_id, created_ms, updated_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
    )
    .bind(&game.id)
    .bind(game.game.variant().name())
    .bind(game.game.start().to_fen())
    .bind(i64::from(game.listed))
    .bind(game.clock.map(|c| c.base_ms))
    .bind(game.clock.map(|c| c.increment_ms))
    .bind(game.status.as_str())
    .bind(result_of(game))
    .bind(winner_of(game))
    .bind(reason_of(game))
    .bind(game.remaining_ms[0])
    .bind(game.remaining_ms[1])
    .bind(game.turn_started_ms)
    .bind(&game.rematch_of)
    .bind(&game.rematch_game)
    .bind(game.created_ms)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    for color in [Color::White, Color::Black] {
        upsert_seat(conn, game, color).await?;
    }
    Ok(())
}

async fn upsert_seat(
    conn: &mut sqlx::AnyConnection,
    game: &LiveGame,
    color: Color,
) -> Result<(), StoreError> {
    let seat = &game.seats[crate::live::side(color)];
    let (kind, level) = match seat.kind {
        PlayerKind::Human => ("human", None),
        PlayerKind::Computer { level } => ("computer", Some(i64::from(level))),
    };
    sqlx::query("DELETE FROM seats WHERE game_id = $1 AND color = $2")
        .bind(&game.id)
        .bind(color_name(color))
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO seats (game_id, color, kind, level, name, token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&game.id)
    .bind(color_name(color))
    .bind(kind)
    .bind(level)
    .bind(&seat.name)
    .bind(&seat.token_hash)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn update_game(conn: &mut sqlx::AnyConnection, game: &LiveGame) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE games SET listed = $2, status = $3, result = $4, winner = $5, reason = $6, white_ms = $7, \
           black_ms = $8, turn_started_ms = $9, rematch_id = $10, updated_ms = $11 WHERE id = $1",
    )
    .bind(&game.id)
    .bind(i64::from(game.listed))
    .bind(game.status.as_str())
    .bind(result_of(game))
    .bind(winner_of(game))
    .bind(reason_of(game))
    .bind(game.remaining_ms[0])
    .bind(game.remaining_ms[1])
    .bind(game.turn_started_ms)
    .bind(&game.rematch_game)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

fn result_of(game: &LiveGame) -> Option<String> {
    if game.aborted {
        return Some("*".to_string());
    }
    game.outcome().map(|o| result_text(game.game.variant(), Some(o)).to_string())
}
fn winner_of(game: &LiveGame) -> Option<String> {
    game.outcome().and_then(|o| o.winner()).map(|c| color_name(c).to_string())
}
fn reason_of(game: &LiveGame) -> Option<String> {
    if game.aborted {
        return Some(ABORTED.to_string());
    }
    game.outcome().map(|o| reason_code(&o).to_string())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn build_game(id: &str, row: &AnyRow, seats: &[AnyRow], moves: &[MoveRecord]) -> Result<LiveGame, String> {
    let text = |name: &str| row.try_get::<String, _>(name).map_err(|e| format!("{name}: {e}"));
    let opt_int = |name: &str| row.try_get::<Option<i64>, _>(name).map_err(|e| format!("{name}: {e}"));
    let int = |name: &str| row.try_get::<i64, _>(name).map_err(|e| format!("{name}: {e}"));
    let variant: Variant = text("variant")?.parse().map_err(|e| format!("{e}"))?;
    let start = Position::from_fen(variant, &text("start_fen")?).map_err(|e| e.to_string())?;
    let clock = match (opt_int("clock_base_ms")?, opt_int("clock_increment_ms")?) {
        (Some(base_ms), Some(increment_ms)) => Some(ClockSpec { base_ms, increment_ms }),
        _ => None,
    };
    let mut seat_list = [Seat::human(None, None), Seat::human(None, None)];
    for s in seats {
        let get = |name: &str| s.try_get::<Option<String>, _>(name).map_err(|e| format!("seat {name}: {e}"));
        let color = get("color")?.as_deref().and_then(parse_color).ok_or("seat colour")?;
        let kind = match get("kind")?.as_deref() {
            Some("computer") => {
                let level = s.try_get::<Option<i64>, _>("level").map_err(|e| e.to_string())?.unwrap_or(1);
                PlayerKind::Computer { level: level.clamp(1, 9) as u8 }
            }
            _ => PlayerKind::Human,
        };
        seat_list[crate::live::side(color)] =
            Seat { kind, name: get("name")?, token_hash: get("token_hash")? };
    }
    let status = Status::parse(&text("status")?).ok_or("status")?;
    let listed = int("listed")? != 0;
    let created_ms = int("created_ms")?;
    let mut game = LiveGame::new(id.to_string(), start, seat_list, clock, listed, created_ms);
    for record in moves {
        game.replay(record)?;
    }
    game.status = status;
    game.listed = listed;
    game.remaining_ms = [int("white_ms")?, int("black_ms")?];
    game.turn_started_ms = opt_int("turn_started_ms")?;
    game.rematch_of = row.try_get::<Option<String>, _>("rematch_of").map_err(|e| e.to_string())?;
    game.rematch_game = row.try_get::<Option<String>, _>("rematch_id").map_err(|e| e.to_string())?;
    if status == Status::Finished && !game.game.is_over() {
        // Declared outcomes are not found on the board: apply the stored one.
        let winner = row.try_get::<Option<String>, _>("winner").map_err(|e| e.to_string())?;
        let loser = winner.as_deref().and_then(parse_color).map(|c| c.opponent());
        let reason = row.try_get::<Option<String>, _>("reason").map_err(|e| e.to_string())?;
        match (reason.as_deref(), loser) {
            (Some("resignation"), Some(l)) => {
                let _ = game.game.resign(l);
            }
            (Some("time"), Some(l)) => {
                let _ = game.game.lose_on_time(l);
            }
            (Some("agreement"), _) => {
                let _ = game.game.agree_draw();
            }
            _ => game.aborted = true,
        }
    }
    Ok(game)
}
