//! Storage: games, seats and every move with its clock readings, in SQLite (a file, the
//! default) or PostgreSQL, through sqlx's `Any` driver so one set of queries serves both.
//!
//! The schema is created by embedded migrations (`migrations/`), run at start-up. Queries use
//! `$1`-style parameters and plain types (text and 64-bit integers), which both databases read
//! the same way.
//!
//! Every write goes through one writer task (group commit): it takes all the changes waiting
//! at that moment, from any number of games, writes them in one transaction and only after
//! its commit answers each caller. A change is one unit (a move's row and its game's row go
//! together); when [`Store::record_move`] returns `Ok`, the move survives any crash of the
//! server. Under load, one commit serves hundreds of moves instead of one. If a batch fails,
//! each change in it is tried again in a transaction of its own, so one bad change cannot
//! take the others down with it. Reads use a pool of their own. On SQLite (WAL mode), a
//! checkpointer task copies the WAL back into the database file beside the writer, so the
//! checkpoint's fsyncs do not stall commits.

mod accounts;
mod lists;
mod ratings;

use std::borrow::Cow;
use std::net::IpAddr;
use std::time::Duration;

use checkers_rules::Color;
use futures_util::future::BoxFuture;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyConnection, AnyPool, Connection, Executor, FromRow, Row};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

use crate::database_url::{normalise_url, redact, scrub};
use crate::live::{
    color_name, parse_color, side, ClockSpec, LiveGame, MoveRecord, PlayerKind, Seat, Status, ABANDONED,
    ABORTED,
};
use crate::rules::{AnyGame, Declared};
use crate::variant::GameVariant;

pub use accounts::{is_unique_violation, SessionRow, StoredAccount};
pub use lists::{GameSummary, ListCursor, WaitingGame};
pub use ratings::{
    BeforeAfter, GameFilter, GameOutcome, LeaderboardRow, StoredRating, UserGame, UserGamesCursor,
};

/// What went wrong with the database. Each says all it knows in its own message, with no
/// `source` to print after it: sqlx's errors already repeat their causes in their messages,
/// so the causes are joined here once each (see [`causes`]).
#[derive(Debug, Error)]
pub enum StoreError {
    /// The database could not be opened: `url` is shown without its password, and `cause` has
    /// it taken out wherever it appeared.
    #[error("cannot open database {url}: {cause}")]
    Open { url: String, cause: String },
    #[error("database: {}", causes(.0))]
    Db(sqlx::Error),
    #[error("stored game {id} cannot be loaded: {why}")]
    Corrupt { id: String, why: String },
    /// The URL, shown without its password.
    #[error("unsupported database URL `{0}` (expected a SQLite file path, sqlite://... or postgres://...)")]
    BadUrl(String),
    #[error("the database writer has stopped")]
    WriterStopped,
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::Db(e)
    }
}

/// An error's message followed by each of its causes that the messages before it do not
/// already say (sqlx's messages include their sources' text, which a plain chain would print
/// two or three times).
pub fn causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}

/// How long the first connection to the database may take: a host that does not answer is
/// reported after this, not after the pool's half minute.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why opening the database failed, before the URL is put in front of it.
#[derive(Debug, Error)]
enum OpenFailure {
    #[error("no answer within {} s", CONNECT_TIMEOUT.as_secs())]
    NoAnswer,
    #[error("{}", causes(.0))]
    Db(sqlx::Error),
    #[error("migration: {}", causes(.0))]
    Migrate(sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for OpenFailure {
    fn from(e: sqlx::Error) -> OpenFailure {
        OpenFailure::Db(e)
    }
}

impl From<sqlx::migrate::MigrateError> for OpenFailure {
    fn from(e: sqlx::migrate::MigrateError) -> OpenFailure {
        OpenFailure::Migrate(e)
    }
}

/// The embedded migrations, in order. A released migration is never edited: a change to the
/// schema is a new one.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "games seats moves", include_str!("../migrations/0001_games.sql")),
    (2, "open offers", include_str!("../migrations/0002_offers.sql")),
    (3, "private games, creators, the list's index", include_str!("../migrations/0003_lifecycle.sql")),
    (4, "accounts, sessions, ratings, rated games", include_str!("../migrations/0004_accounts.sql")),
    (5, "the site's rules of play", include_str!("../migrations/0005_site_rules.sql")),
    (6, "the engine job queue", include_str!("../migrations/0006_engine_jobs.sql")),
    (7, "nodes and the games each runs", include_str!("../migrations/0007_cluster.sql")),
    (
        8,
        "engine jobs of every kind, search times and scores",
        include_str!("../migrations/0008_engine_job_results.sql"),
    ),
    (
        9,
        "quick pairing and who is online, shared by the nodes",
        include_str!("../migrations/0009_shared_pairing.sql"),
    ),
    (10, "direct links between nodes", include_str!("../migrations/0010_cluster_links.sql")),
];

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

/// Most changes the writer puts in one transaction.
const MAX_BATCH: usize = 512;
/// Changes that may wait for the writer before callers wait to hand theirs over.
const WRITE_QUEUE: usize = 4096;

/// The database behind the server.
#[derive(Clone, Debug)]
pub struct Store {
    /// For reads; writes go through `writes` to the writer task.
    pool: AnyPool,
    writes: mpsc::Sender<Change>,
    is_sqlite: bool,
}

/// Which connections a pool holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Writer,
    Reader,
}

fn pool_options(is_sqlite: bool, role: Role, connections: u32) -> AnyPoolOptions {
    AnyPoolOptions::new().max_connections(connections).after_connect(move |conn, _meta| {
        Box::pin(async move {
            if is_sqlite {
                // WAL with synchronous=NORMAL: a commit is in the WAL file when it returns, so
                // it survives the death of the process (kill -9), which is what we promise;
                // only a power cut or an OS crash could lose the last commits, and FULL (an
                // fsync per commit) would cost that on every batch.
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute("PRAGMA busy_timeout = 5000").await?;
                if role == Role::Writer {
                    // A checkpoint's fsyncs in the middle of a commit would hold up every move
                    // waiting for it: the checkpointer task does them beside the writer. But
                    // the WAL starts over only once a checkpoint has caught up with the
                    // writer, which under steady load takes the writer's own checkpoint: this
                    // bound (20,000 pages, 80 MB) makes that rare, and cheap, as the
                    // checkpointer has already copied and synced nearly everything.
                    conn.execute("PRAGMA wal_autocheckpoint = 20000").await?;
                }
            }
            Ok(())
        })
    })
}

impl Store {
    /// Connects (creating a SQLite file if needed), brings the schema up to date and starts
    /// the writer task (so it must be called inside a tokio runtime). Gives up on a database
    /// that does not answer within [`CONNECT_TIMEOUT`]; the error never shows the password.
    pub async fn open(url_text: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = normalise_url(url_text)?;
        Store::connect(&url).await.map_err(|failure| StoreError::Open {
            url: redact(url_text),
            cause: scrub(&failure.to_string(), url_text),
        })
    }

    async fn connect(url: &str) -> Result<Store, OpenFailure> {
        // One connection on its own first, so that a wrong address, port or password is
        // reported as such at once; the pools would only time out, after half a minute.
        let first = tokio::time::timeout(CONNECT_TIMEOUT, AnyConnection::connect(url))
            .await
            .map_err(|_| OpenFailure::NoAnswer)??;
        first.close().await?;
        let is_sqlite = url.starts_with("sqlite:");
        // One writer connection: SQLite has one writer at a time anyway, and the writer task
        // batches everything. An in-memory SQLite database exists only on its one connection,
        // so there the reads share it.
        let write_pool = pool_options(is_sqlite, Role::Writer, 1).connect(url).await?;
        Migrator::new(Embedded).await?.run(&write_pool).await?;
        let pool = if url.contains(":memory:") {
            write_pool.clone()
        } else {
            pool_options(is_sqlite, Role::Reader, if is_sqlite { 4 } else { 8 }).connect(url).await?
        };
        let (writes, queue) = mpsc::channel(WRITE_QUEUE);
        if is_sqlite && !url.contains(":memory:") {
            tokio::spawn(checkpointer(pool.clone(), writes.downgrade()));
        }
        tokio::spawn(writer(write_pool, queue));
        Ok(Store { pool, writes, is_sqlite })
    }

    pub fn is_sqlite(&self) -> bool {
        self.is_sqlite
    }

    /// Closes the read connections; the writer closes its own once every handle is dropped.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Waits until every change handed to the writer before this call is committed (or has
    /// failed): the writer takes changes in order.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.write(Vec::new()).await
    }

    /// Hands a change to the writer and waits until it is committed (or has failed).
    async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (done, committed) = oneshot::channel();
        self.writes.send(Change { writes, done }).await.map_err(|_| StoreError::WriterStopped)?;
        committed.await.map_err(|_| StoreError::WriterStopped)?
    }

    /// Saves a new game and its seats, with the address of the client that created it.
    pub async fn create_game(&self, game: &LiveGame, creator: Option<IpAddr>) -> Result<(), StoreError> {
        self.write(new_game_writes(game, creator)).await
    }

    /// Saves many new games in one transaction (to set up a database with many games at once).
    pub async fn create_games(&self, games: &[LiveGame], creator: Option<IpAddr>) -> Result<(), StoreError> {
        self.write(games.iter().flat_map(|game| new_game_writes(game, creator)).collect()).await
    }

    /// Deletes games that still wait for an opponent, with their seats, in one transaction. A
    /// game no longer waiting is left as it is.
    pub async fn delete_waiting_games(&self, ids: &[String]) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        self.write(ids.iter().map(|id| Write::DeleteWaiting(id.clone())).collect()).await
    }

    /// Saves a rematch: the new game and the old game's link to it.
    pub async fn create_rematch(&self, old: &LiveGame, new: &LiveGame) -> Result<(), StoreError> {
        let mut writes = new_game_writes(new, None);
        writes.push(Write::UpdateGame(GameRow::of(old)));
        self.write(writes).await
    }

    /// Saves a seat taken by a player who joined, and the game's new status.
    pub async fn save_seat(&self, game: &LiveGame, color: Color) -> Result<(), StoreError> {
        self.write(vec![Write::Seat(SeatRow::of(game, color)), Write::UpdateGame(GameRow::of(game))]).await
    }

    /// Saves the game's row (status, result, clocks, open offers) after a change that makes no
    /// move: a resignation, a draw offer or its answer, a flag, a rematch request. The result
    /// of a rated game is committed with both players' new ratings (see `rated`).
    pub async fn save_game(&self, game: &LiveGame) -> Result<(), StoreError> {
        self.write(ratings::with_rating(game, vec![Write::UpdateGame(GameRow::of(game))])).await
    }

    /// Saves moves taken back: the game's moves from its new ply on are deleted, and its row
    /// saved, in one transaction.
    pub async fn take_back(&self, game: &LiveGame) -> Result<(), StoreError> {
        self.write(vec![
            Write::DeleteMovesFrom { game_id: game.id.clone(), ply: game.ply() },
            Write::UpdateGame(GameRow::of(game)),
        ])
        .await
    }

    /// Saves a move and the game's new state in one transaction.
    pub async fn record_move(&self, game: &LiveGame, record: &MoveRecord) -> Result<(), StoreError> {
        let writes = vec![
            Write::Move { game_id: game.id.clone(), record: record.clone() },
            Write::UpdateGame(GameRow::of(game)),
        ];
        // A rated game's result and both ratings in one transaction.
        self.write(ratings::with_rating(game, writes)).await
    }

    /// Loads a game with its seats and moves, replayed through the rules.
    pub async fn load_game(&self, id: &str) -> Result<Option<LiveGame>, StoreError> {
        let Some(row) =
            sqlx::query("SELECT * FROM games WHERE id = $1").bind(id).fetch_optional(&self.pool).await?
        else {
            return Ok(None);
        };
        let seats = sqlx::query(
            "SELECT s.*, r.rating, r.rd, r.volatility, r.last_rated_ms FROM seats s JOIN games g ON g.id = s.game_id \
             LEFT JOIN ratings r ON r.account_id = s.account_id AND r.variant = g.variant AND r.speed = g.speed \
             WHERE s.game_id = $1",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let moves = self.move_records(id).await?;
        build_game(id, &row, &seats, &moves)
            .map(Some)
            .map_err(|why| StoreError::Corrupt { id: id.to_string(), why })
    }

    /// The moves of a game as stored, in order.
    pub async fn move_records(&self, id: &str) -> Result<Vec<MoveRecord>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT ply, hub, pdn, fen_after, white_ms, black_ms, played_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }
}

/// A column of a row, with an error that names it.
fn column<'r, T>(row: &'r AnyRow, name: &str) -> Result<T, String>
where
    T: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    row.try_get(name).map_err(|e| format!("{name}: {e}"))
}

impl FromRow<'_, AnyRow> for MoveRecord {
    fn from_row(row: &AnyRow) -> Result<MoveRecord, sqlx::Error> {
        let ply: i64 = row.try_get("ply")?;
        Ok(MoveRecord {
            ply: u32::try_from(ply)
                .map_err(|e| sqlx::Error::ColumnDecode { index: "ply".to_string(), source: Box::new(e) })?,
            hub: row.try_get("hub")?,
            pdn: row.try_get("pdn")?,
            fen_after: row.try_get("fen_after")?,
            white_ms: row.try_get("white_ms")?,
            black_ms: row.try_get("black_ms")?,
            played_ms: row.try_get("played_ms")?,
        })
    }
}

/// One change, committed whole or not at all, and who waits for it.
struct Change {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// One statement of a change, with its values taken from the game when the change was made.
enum Write {
    InsertGame(GameRow),
    UpdateGame(GameRow),
    Seat(SeatRow),
    Move {
        game_id: String,
        record: MoveRecord,
    },
    /// A game nobody joined in time: gone, seats and all, if it still waits.
    DeleteWaiting(String),
    /// A rated game's result: both players' ratings, and the game's record of them.
    Rate(ratings::RateGame),
    /// Accounts and sessions.
    Account(accounts::AccountWrite),
    /// Moves taken back: those from `ply` on.
    DeleteMovesFrom {
        game_id: String,
        ply: u32,
    },
}

/// Every column of a game's row.
struct GameRow {
    id: String,
    // Set once, when the game is created.
    variant: &'static str,
    start_fen: String,
    clock: Option<ClockSpec>,
    rematch_of: Option<String>,
    created_ms: i64,
    invite_hash: Option<String>,
    /// The creating client's address; written with the new game only.
    creator: Option<String>,
    rated: bool,
    speed: Option<&'static str>,
    // Changed as the game goes on.
    listed: bool,
    status: Status,
    result: Option<String>,
    winner: Option<String>,
    reason: Option<String>,
    remaining_ms: [i64; 2],
    turn_started_ms: Option<i64>,
    rematch_id: Option<String>,
    draw_offer: Option<Color>,
    rematch_offers: [bool; 2],
    updated_ms: i64,
    // The site's rules (see `bind_site`).
    turn_began_ms: Option<i64>,
    abandoned_by: Option<Color>,
    takeback_offer: Option<Color>,
    // The game as the list of games shows it.
    names: [Option<String>; 2],
    plies: i64,
    live: bool,
}

impl GameRow {
    fn of(game: &LiveGame) -> GameRow {
        GameRow {
            id: game.id.clone(),
            variant: game.game.variant().name(),
            start_fen: game.game.start_fen(),
            clock: game.clock,
            rematch_of: game.rematch_of.clone(),
            created_ms: game.created_ms,
            invite_hash: game.invite_hash.clone(),
            creator: None,
            rated: game.accounts.rated,
            speed: crate::rated::speed_of(game.clock).map(|s| s.name()),
            listed: game.listed,
            status: game.status,
            result: result_of(game),
            winner: winner_of(game),
            reason: reason_of(game),
            remaining_ms: game.remaining_ms,
            turn_started_ms: game.turn_started_ms,
            rematch_id: game.rematch_game.clone(),
            draw_offer: game.draw_offer,
            rematch_offers: game.rematch_offers,
            updated_ms: now_ms(),
            turn_began_ms: game.turn_began_ms,
            abandoned_by: game.abandoned_by,
            takeback_offer: game.takeback_offer,
            names: [game.seats[0].name.clone(), game.seats[1].name.clone()],
            plies: i64::from(game.ply()),
            live: game.status != Status::Finished,
        }
    }
}

struct SeatRow {
    game_id: String,
    color: Color,
    seat: Seat,
    account: Option<i64>,
}

impl SeatRow {
    fn of(game: &LiveGame, color: Color) -> SeatRow {
        SeatRow {
            game_id: game.id.clone(),
            color,
            seat: game.seats[side(color)].clone(),
            account: game.accounts.seats[side(color)],
        }
    }
}

fn new_game_writes(game: &LiveGame, creator: Option<IpAddr>) -> Vec<Write> {
    let row = GameRow { creator: creator.map(|ip| ip.to_string()), ..GameRow::of(game) };
    vec![
        Write::InsertGame(row),
        Write::Seat(SeatRow::of(game, Color::White)),
        Write::Seat(SeatRow::of(game, Color::Black)),
    ]
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Binds `$1` (the id) to `$18`: the columns that change as the game goes on, in the order
/// both the insert and the update name them.
fn bind_changing<'q>(query: AnyQuery<'q>, row: &'q GameRow) -> AnyQuery<'q> {
    query
        .bind(&row.id)
        .bind(i64::from(row.listed))
        .bind(row.status.as_str())
        .bind(&row.result)
        .bind(&row.winner)
        .bind(&row.reason)
        .bind(row.remaining_ms[0])
        .bind(row.remaining_ms[1])
        .bind(row.turn_started_ms)
        .bind(&row.rematch_id)
        .bind(row.draw_offer.map(color_name))
        .bind(i64::from(row.rematch_offers[0]))
        .bind(i64::from(row.rematch_offers[1]))
        .bind(row.updated_ms)
        .bind(&row.names[0])
        .bind(&row.names[1])
        .bind(row.plies)
        .bind(i64::from(row.live))
}

/// Binds the columns of the site's rules, after those [`bind_changing`] and the insert bind.
fn bind_site<'q>(query: AnyQuery<'q>, row: &'q GameRow) -> AnyQuery<'q> {
    query
        .bind(row.turn_began_ms)
        .bind(row.abandoned_by.map(color_name))
        .bind(row.takeback_offer.map(color_name))
}

impl Write {
    async fn run(&self, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
        match self {
            Write::InsertGame(row) => {
                let insert = bind_changing(
                    sqlx::query(
                        "INSERT INTO games (id, listed, status, result, winner, reason, white_ms, black_ms, \
                           turn_started_ms, rematch_id, draw_offer, rematch_white, rematch_black, updated_ms, \
                           white_name, black_name, plies, live, \
                           variant, start_fen, clock_base_ms, clock_increment_ms, rematch_of, created_ms, \
                           invite_hash, creator, rated, speed, turn_began_ms, abandoned_by, takeback_offer) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
                           $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)",
                    ),
                    row,
                )
                .bind(row.variant)
                .bind(&row.start_fen)
                .bind(row.clock.map(|c| c.base_ms))
                .bind(row.clock.map(|c| c.increment_ms))
                .bind(&row.rematch_of)
                .bind(row.created_ms)
                .bind(&row.invite_hash)
                .bind(&row.creator)
                .bind(i64::from(row.rated))
                .bind(row.speed);
                bind_site(insert, row).execute(conn).await?;
            }
            Write::UpdateGame(row) => {
                let update = bind_changing(
                    sqlx::query(
                        "UPDATE games SET listed = $2, status = $3, result = $4, winner = $5, reason = $6, \
                           white_ms = $7, black_ms = $8, turn_started_ms = $9, rematch_id = $10, \
                           draw_offer = $11, rematch_white = $12, rematch_black = $13, updated_ms = $14, \
                           white_name = $15, black_name = $16, plies = $17, live = $18, \
                           turn_began_ms = $19, abandoned_by = $20, takeback_offer = $21 \
                         WHERE id = $1",
                    ),
                    row,
                );
                bind_site(update, row).execute(conn).await?;
            }
            Write::Seat(SeatRow { game_id, color, seat, account }) => {
                let (kind, level) = match seat.kind {
                    PlayerKind::Human => ("human", None),
                    PlayerKind::Computer { level } => ("computer", Some(i64::from(level))),
                };
                sqlx::query(
                    "INSERT INTO seats (game_id, color, kind, level, name, token_hash, account_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) \
                     ON CONFLICT (game_id, color) DO UPDATE SET kind = excluded.kind, \
                       level = excluded.level, name = excluded.name, token_hash = excluded.token_hash, \
                       account_id = excluded.account_id",
                )
                .bind(game_id)
                .bind(color_name(*color))
                .bind(kind)
                .bind(level)
                .bind(&seat.name)
                .bind(&seat.token_hash)
                .bind(account)
                .execute(conn)
                .await?;
            }
            Write::Move { game_id, record } => {
                sqlx::query(
                    "INSERT INTO moves (game_id, ply, hub, pdn, fen_after, white_ms, black_ms, played_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(game_id)
                .bind(i64::from(record.ply))
                .bind(&record.hub)
                .bind(&record.pdn)
                .bind(&record.fen_after)
                .bind(record.white_ms)
                .bind(record.black_ms)
                .bind(record.played_ms)
                .execute(conn)
                .await?;
            }
            Write::DeleteMovesFrom { game_id, ply } => {
                sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                    .bind(game_id)
                    .bind(i64::from(*ply))
                    .execute(conn)
                    .await?;
            }
            Write::DeleteWaiting(id) => {
                sqlx::query(
                    "DELETE FROM seats WHERE game_id IN (SELECT id FROM games WHERE id = $1 AND status = 'waiting')",
                )
                .bind(id)
                .execute(&mut *conn)
                .await?;
                sqlx::query("DELETE FROM games WHERE id = $1 AND status = 'waiting'")
                    .bind(id)
                    .execute(conn)
                    .await?;
            }
            Write::Rate(rate) => rate.run(conn).await?,
            Write::Account(write) => write.run(conn).await?,
        }
        Ok(())
    }
}

/// The writer task: group commit. Takes every change waiting (up to [`MAX_BATCH`]), commits
/// them in one transaction, then tells each caller. Changes that arrive during a commit wait
/// for the next one, so the batch grows with the load and no change waits for a timer.
async fn writer(pool: AnyPool, mut queue: mpsc::Receiver<Change>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queue.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit(&pool, &batch).await {
            Ok(()) => {
                for change in batch.drain(..) {
                    let _ = change.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                if let Some(change) = batch.pop() {
                    let _ = change.done.send(Err(e));
                }
            }
            // The whole batch was rolled back: try each change alone, so that only the one
            // that fails is refused.
            Err(_) => {
                for change in batch.drain(..) {
                    let result = commit(&pool, std::slice::from_ref(&change)).await;
                    let _ = change.done.send(result);
                }
            }
        }
    }
    pool.close().await;
}

/// How often the checkpointer copies the WAL back into the database file (often, so that
/// little is left unsynced for the writer's own checkpoint).
const CHECKPOINT_PERIOD: std::time::Duration = std::time::Duration::from_millis(100);

/// SQLite only: checkpoints the WAL on a reading connection, so that its fsyncs run beside
/// the writer instead of inside one of its commits (a passive checkpoint never blocks a
/// writer). Ends when the store is gone.
async fn checkpointer(pool: AnyPool, alive: mpsc::WeakSender<Change>) {
    let mut tick = tokio::time::interval(CHECKPOINT_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if alive.upgrade().is_none() || pool.is_closed() {
            break;
        }
        if let Err(e) = pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
            tracing::warn!("WAL checkpoint: {e}");
        }
    }
}

async fn commit(pool: &AnyPool, changes: &[Change]) -> Result<(), StoreError> {
    let began = std::time::Instant::now();
    let mut tx = pool.begin().await?;
    for change in changes {
        for write in &change.writes {
            write.run(&mut tx).await?;
        }
    }
    tx.commit().await?;
    crate::metrics::observe(&crate::metrics::METRICS.commit_latency, began.elapsed());
    // Only now may anyone see the rating changes this transaction made.
    for write in changes.iter().flat_map(|change| &change.writes) {
        if let Write::Rate(rate) = write {
            rate.committed();
        }
    }
    Ok(())
}

fn result_of(game: &LiveGame) -> Option<String> {
    if game.aborted {
        return Some("*".to_string());
    }
    game.outcome().map(|_| game.game.result_text().to_string())
}
fn winner_of(game: &LiveGame) -> Option<String> {
    game.outcome().and_then(|o| o.winner).map(|c| color_name(c).to_string())
}
fn reason_of(game: &LiveGame) -> Option<String> {
    if game.aborted {
        return Some(ABORTED.to_string());
    }
    if game.abandoned_by.is_some() && game.outcome().is_some() {
        return Some(ABANDONED.to_string());
    }
    game.outcome().map(|o| o.reason.to_string())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn build_game(id: &str, row: &AnyRow, seats: &[AnyRow], moves: &[MoveRecord]) -> Result<LiveGame, String> {
    let variant: GameVariant = column::<String>(row, "variant")?.parse().map_err(|e| format!("{e}"))?;
    let start = AnyGame::from_fen(variant, &column::<String>(row, "start_fen")?)?;
    let clock = match (column(row, "clock_base_ms")?, column(row, "clock_increment_ms")?) {
        (Some(base_ms), Some(increment_ms)) => Some(ClockSpec { base_ms, increment_ms }),
        _ => None,
    };
    let mut seat_list = [Seat::human(None, None), Seat::human(None, None)];
    let mut accounts = [None, None];
    for s in seats {
        let color = parse_color(&column::<String>(s, "color")?).ok_or("seat colour")?;
        let kind = match column::<String>(s, "kind")?.as_str() {
            "computer" => {
                let level = column::<Option<i64>>(s, "level")?.unwrap_or(1);
                PlayerKind::Computer { level: level.clamp(1, 9) as u8 }
            }
            _ => PlayerKind::Human,
        };
        seat_list[side(color)] =
            Seat { kind, name: column(s, "name")?, token_hash: column(s, "token_hash")? };
        accounts[side(color)] = ratings::seat_account(s)?;
    }
    let status = Status::parse(&column::<String>(row, "status")?).ok_or("status")?;
    let listed = column::<i64>(row, "listed")? != 0;
    let mut game = LiveGame::new(id.to_string(), start, seat_list, clock, listed, column(row, "created_ms")?);
    for record in moves {
        game.replay(record).map_err(|e| e.to_string())?;
    }
    game.status = status;
    game.listed = listed;
    game.invite_hash = column(row, "invite_hash")?;
    game.remaining_ms = [column(row, "white_ms")?, column(row, "black_ms")?];
    game.turn_started_ms = column(row, "turn_started_ms")?;
    game.turn_began_ms = column(row, "turn_began_ms")?;
    game.abandoned_by = column::<Option<String>>(row, "abandoned_by")?.as_deref().and_then(parse_color);
    game.takeback_offer = column::<Option<String>>(row, "takeback_offer")?.as_deref().and_then(parse_color);
    game.rematch_of = column(row, "rematch_of")?;
    game.rematch_game = column(row, "rematch_id")?;
    game.draw_offer = column::<Option<String>>(row, "draw_offer")?.as_deref().and_then(parse_color);
    game.rematch_offers =
        [column::<i64>(row, "rematch_white")? != 0, column::<i64>(row, "rematch_black")? != 0];
    ratings::load_accounts(&mut game, row, accounts)?;
    if status == Status::Finished && !game.game.is_over() {
        // Declared outcomes are not found on the board: apply the stored one.
        let loser =
            column::<Option<String>>(row, "winner")?.as_deref().and_then(parse_color).map(|c| c.opponent());
        let declared = match (column::<Option<String>>(row, "reason")?.as_deref(), loser) {
            (Some("resignation"), Some(l)) | (Some(ABANDONED), Some(l)) => Some(Declared::Resignation(l)),
            (Some("time"), Some(l)) => Some(Declared::Time(l)),
            (Some("agreement"), _) | (Some(ABANDONED), None) => Some(Declared::Draw),
            _ => None,
        };
        match declared {
            Some(declared) => {
                game.game.declare(declared);
            }
            None => game.aborted = true,
        }
    }
    Ok(game)
}
