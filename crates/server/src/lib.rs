//! # checkers-server
//!
//! The online game: an HTTP and WebSocket server (axum on tokio) where people play each other or
//! the computer, watch games live and download them as PDN, with the web page compiled in. It plays
//! every variant the rules library has (English, Russian, International and its family, the
//! national 8x8 games, Turkish). The rules library referees every move; the engine plays the
//! computer's side on threads of its own, shared fairly between clients (their searches take turns,
//! the quick ones never wait behind the long ones, and a client has at most four games against the
//! computer at once), or, on PostgreSQL if asked, in `checkers worker` processes on any machine (a
//! job queue); every game, seat and move is kept in a database (a SQLite file by default,
//! PostgreSQL given a `postgres://` URL) and a move is confirmed only once committed, so a restart,
//! even after `kill -9`, loses no confirmed move and unfinished games go on (a running clock
//! resumes from its last stored reading: nobody is charged for the downtime). Only games that must
//! run are in memory: a game is loaded when asked for and leaves memory once idle, start-up loads
//! none before it listens, games nobody joins are deleted after a while, and games where no clock
//! runs end once unplayed for a week. Each client address may create so many games an hour and have
//! so many waiting. Players may play anonymously or sign up for an account; rated games between
//! accounts, on a clock, change both players' Glicko-2 ratings in the transaction of their result.
//! On PostgreSQL any number of nodes share the games: each live game is run by one node, the others
//! pass it their clients' messages, and a dead node's games are taken over within seconds
//! (`cluster`).
//!
//! It depends on the rules library and the engine; neither may depend on it. The command line
//! starts it (`checkers serve`), and nothing here reads the command line itself.
//!
//! ## Layout
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`registry`] | the registry of live games: finds or loads a game's actor, the lobby of open games, the list of games, quotas and expiry; `registry/nodes.rs` its part in a cluster (stand-ins, games taken over) |
//! | [`cluster`] | several nodes on one PostgreSQL database: leases, game owners, failover; `cluster/bus.rs` the messages between nodes over `LISTEN`/`NOTIFY`, `cluster/calls.rs` a game's commands as calls to its owner, `cluster/remote.rs` the stand-in of a game another node runs, `cluster/pairing.rs` the pools, who is online and challenges in the database |
//! | [`lifecycle`] | the quotas per client address and the lifetimes of games ([`GameLimits`]: expiry, idle unloading, claims, games unplayed for long), and their bookkeeping |
//! | `actor` | a game's actor: one task per game in memory, which orders its moves, commits each before anyone hears of it, runs its clock and asks the computer to move |
//! | [`variant`] | the sixteen variants by the names the protocol and the database use ([`variant::GameVariant`]), and each board's layout for the page (`GET /api/variants`) |
//! | [`rules`] | a game of any variant behind one type ([`rules::AnyGame`]: English and Russian on the 8x8 positions, the others on the rules library's boards), with what the server asks of it: FEN, legal moves as the page shows them, moves read from a client, ends as reason codes, PDN, and the engine's moves, reviews and lines, each search compiled for its position type |
//! | [`live`] | a game on the server as pure logic (seats, clocks, offers, refusals; the site's rules in `live/site.rs`: abort, claims, games unplayed for long, takebacks), testable without sockets |
//! | `review` | the engine's reviews and best lines of finished games, queued one at a time and kept |
//! | `analysis` | the analysis board's positions (a FEN or a PDN game): legal moves and the engine's lines, through the review queue |
//! | [`protocol`] | the wire format: client and server messages, the HTTP API's JSON bodies |
//! | [`error`] | the error replies: [`ErrorCode`] and [`ApiError`] |
//! | `ws` | one WebSocket connection: limits on size and rate, answers, pushes |
//! | `web` | the HTTP routes and the embedded page (gzip, entity tags), rate limits, the `Origin` check |
//! | `serve` | the accept loop: the header-read timeout, the cap on connections per client |
//! | [`drain`] | the node's phase (starting, ready, draining) behind `/readyz`, and the drain that closes WebSockets with 1001 |
//! | [`metrics`] | the Prometheus metrics at `/metrics`: connections, live games, moves, move round trip, commits, engine queues, failovers |
//! | [`limits`] | what one client may ask: [`ClientLimits`], token buckets, the client's address |
//! | [`lifecycle`] | games' quotas per client address and how long waiting games live: [`GameLimits`] |
//! | [`store`] | the database: migrations, group commit, loading games back, the list of games from its index, errors that never show the password |
//! | `database_url` | what follows `--db` made a URL, and shown back without its password |
//! | [`computer`] | the engine's workers: per-client queues taken in turn, short and long searches, the computer's clock charged for its search only, the cap on games against it; `computer::jobs`, the PostgreSQL queue of computer moves for `checkers worker` processes (leases, `FOR UPDATE SKIP LOCKED`, `NOTIFY`); `computer/remote.rs`, a node's side of it with external workers ([`computer::EngineWorkers`]): moves, reviews and lines submitted, results awaited on `NOTIFY` and a poll; `computer/results.rs`, reviews and lines as a job's result text |
//! | `presence` | which seated players follow their game: connections counted per seat, for claims against a player who left |
//! | [`pdn`], [`token`] | PDN export; seat tokens, invitations and game ids |
//! | `accounts`, [`password`] | accounts and sessions: sign-up, log-in and out, the limits per name and address; names, passwords and their Argon2id hashes, on blocking threads |
//! | `api` | the HTTP API of accounts and players: the session cookie, profiles, a player's games, leaderboards |
//! | [`pages`] | pages rendered on the server: a player's profile at `/@/{name}` (with an SVG rating graph), the leaderboards at `/leaderboard` |
//! | [`rated`] | the accounts at a game's board, rated games, the rating change shown at the end |
//! | [`rating`] | Glicko-2 ratings and speed classes, as pure arithmetic; applied to rated games by the store, in the result's transaction |
//! | [`pairing`] | quick-pairing pools: who waits and who is paired with whom, as pure logic |
//! | `matchmaking` | the pools on the WebSocket (`seek`, a round every half second), who is online, direct challenges (`challenge`, `accept`, `decline`); in a cluster, shared by the nodes through the database (`cluster::pairing`) |
//!
//! ## The protocol in brief
//!
//! The full description, every field and every code, is `docs/protocol.md`.
//!
//! HTTP: the page at `/`, `/g/{id}` and `/games`; the WebSocket at `/ws`; a game as PDN at
//! `/games/{id}.pdn`; live and recent public games at `/api/games` (paged with `?before=`);
//! for a finished game, the engine's review at `/games/{id}/review` (and as PDN with comments
//! at `/games/{id}/review.pdn`) and its three best moves in a position at
//! `/games/{id}/lines?ply=N`. Errors are JSON `{"code", "message"}` with status 404
//! `not_found`, 409 `not_finished`, 400 `bad_ply` or `bad_request`, 429 `rate_limited` (with
//! `Retry-After`), 403 `forbidden` or 503 (`busy`, `unavailable`, `storage`). Each client
//! address must send its headers within 10 s, holds at most 64 connections, is rate-limited on
//! the list and the engine's endpoints and holds at most two places in the review queue; a
//! browser page of another site may not open the WebSocket (unless its origin is allowed).
//! Every answer says `nosniff`.
//!
//! Accounts: `POST /api/accounts` signs up, `POST /api/session` logs in and `DELETE
//! /api/session` out (an HttpOnly, SameSite=Lax session cookie; sessions in the database by
//! their token's hash); `/api/users/{name}` gives a player's ratings and results,
//! `/api/users/{name}/games` (and `games.pdn`) their games, `/api/leaderboard` the best
//! players of a variant and speed. The WebSocket knows the account of the cookie sent with
//! its upgrade: its seats are its own on every device, and it may create rated games.
//! Players `seek` a game in a quick-pairing pool, and accounts `challenge` each other.
//!
//! WebSocket: every message is one JSON object with a type field `t`. A client message may
//! carry an `id`, echoed as `re` in the reply. Clients `create` a game (against the
//! `computer`, a `friend` who joins with the game's invitation, or an `open` seat in the
//! lobby), `join`, `watch`, `move`, `draw` (`offer`, `accept`, `decline`), `resign`,
//! `abort` (before both sides have moved), `claim` (a timed game the opponent left),
//! `takeback` (`offer`, `accept`, `decline`; casual games only), ask for
//! a `rematch`, follow the `lobby` or the `games`, and `ping`. The server answers `seated`,
//! `watching`, `ok`, `rematch`, `pong` or `error` (with an [`ErrorCode`]), and pushes each
//! watched game's `state`, the `lobby` and the `games` as they change. Client messages are at
//! most 4096 bytes and rate-limited; a refused message changes nothing. Ids are strings of at
//! most 64 bytes or integers within ±(2^53 - 1). A frame the WebSocket protocol forbids
//! closes the connection with the close code that says why (1007, 1002, 1009).

mod accounts;
mod actor;
mod analysis;
mod api;
pub mod cluster;
pub mod computer;
mod database_url;
pub mod drain;
pub mod error;
pub mod lifecycle;
pub mod limits;
pub mod live;
mod matchmaking;
pub mod metrics;
pub mod pages;
pub mod pairing;
pub mod password;
pub mod pdn;
mod presence;
pub mod protocol;
pub mod rated;
pub mod rating;
pub mod registry;
mod review;
pub mod rules;
mod serve;
pub mod store;
pub mod token;
pub mod variant;
mod web;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use error::{ApiError, ErrorCode};
pub use lifecycle::GameLimits;
pub use limits::ClientLimits;
pub use registry::Registry;
pub use store::Store;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on, e.g. `127.0.0.1:8080` (port 0 picks a free one).
    pub addr: String,
    /// A SQLite file path or `sqlite://` URL, or a `postgres://` URL.
    pub db: String,
    /// Engine threads for any search (default: the number of CPUs); one more runs only the
    /// quick ones (low levels, draw answers), so they never wait behind long searches.
    pub engine_threads: Option<usize>,
    /// Where the computer's moves, reviews and lines are searched: on those threads, or by
    /// `checkers worker` processes through the PostgreSQL job queue (refused on SQLite).
    pub engine_workers: computer::EngineWorkers,
    /// What one client may ask of the server (timeouts, connections, request rates).
    pub limits: ClientLimits,
    /// Origins (`https://example.com`) whose pages may open the WebSocket besides the server's
    /// own: a browser names the page's origin, and a page of another site is refused.
    pub allowed_origins: Vec<String>,
    /// Quotas per client address, how long games wait, and the times of the site's game rules
    /// (see [`lifecycle`]).
    pub game_limits: GameLimits,
    /// Whether a proxy in front of the server is trusted to say the request came over TLS
    /// (`X-Forwarded-Proto: https`), making the session cookie `Secure`. The server itself
    /// speaks plain HTTP: without a trusted proxy, the cookie is never `Secure`.
    pub trust_forwarded_proto: bool,
}

impl Default for Config {
    /// What `checkers serve` uses when given no options.
    fn default() -> Config {
        Config {
            addr: "127.0.0.1:8080".into(),
            db: "checkers.db".into(),
            engine_threads: None,
            engine_workers: computer::EngineWorkers::Local,
            limits: ClientLimits::default(),
            allowed_origins: Vec::new(),
            game_limits: GameLimits::default(),
            trust_forwarded_proto: false,
        }
    }
}

/// A server running in this process.
pub struct Running {
    pub addr: SocketAddr,
    pub registry: Arc<Registry>,
    drain: drain::Drain,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Stops accepting connections and waits for the server task to end.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(());
        self.task.await.context("server task")?.context("server")?;
        // The other nodes take its games at once rather than after its lease.
        self.registry.leave_cluster().await.context("handing the games over to the other nodes")?;
        self.registry.store().close().await;
        Ok(())
    }

    /// Starts draining: `/readyz` answers 503, new WebSockets are refused and those open are
    /// closed with 1001 (going away), each once its message in hand is answered.
    pub fn begin_drain(&self) {
        self.drain.start();
    }

    /// Drains the node (see [`Running::begin_drain`]), keeps listening for
    /// [`drain::DRAIN_GRACE`] so a load balancer sees it go, waits for the changes already
    /// handed to the database to be committed, and stops. Every game is in the database: a
    /// server started again on it resumes them.
    pub async fn drain(self) -> anyhow::Result<()> {
        self.begin_drain();
        tokio::time::sleep(drain::DRAIN_GRACE).await;
        self.registry.store().flush().await.context("committing the last changes")?;
        self.stop().await
    }
}

/// Opens the database, reads which games wait for an opponent (not the games themselves: any
/// game is loaded when asked for), binds the address and starts serving; then, in the
/// background, loads the games that must run (clocks running, computers to move).
pub async fn start(config: &Config) -> anyhow::Result<Running> {
    // Before a SQLite file is made for nothing.
    config.engine_workers.check_database(&config.db)?;
    // The error says which database, without its password.
    let store = Store::open(&config.db).await?;
    let threads = config
        .engine_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let computer = computer::ComputerPool::for_node(threads, config.engine_workers, &config.db).await?;
    let registry = Registry::new(store, computer, config.game_limits.clone());
    if database_url::is_postgres(&config.db) {
        let url = database_url::normalise_url(&config.db)?;
        registry.join_cluster(&url).await.context("cannot join the other nodes")?;
    }
    registry.recall_waiting().await.context("cannot read the games waiting for an opponent")?;
    let listener =
        TcpListener::bind(&config.addr).await.with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener.local_addr()?;
    if let Some(cluster) = registry.cluster() {
        cluster.listening(addr).await.context("cannot register where the other nodes reach this one")?;
    }
    let drain = drain::Drain::default();
    let resuming = registry.clone();
    tokio::spawn(async move {
        if let Err(e) = resuming.resume_playing().await {
            tracing::warn!("cannot resume the games in play: {e}");
        }
    });
    let (shutdown, stopped) = oneshot::channel::<()>();
    let app = web::router(
        registry.clone(),
        &config.limits,
        &config.allowed_origins,
        config.trust_forwarded_proto,
        drain.clone(),
    );
    let limits = config.limits.clone();
    let task = tokio::spawn(async move {
        serve::serve(listener, app, &limits, async {
            let _ = stopped.await;
        })
        .await
    });
    drain.set_ready();
    Ok(Running { addr, registry, drain, shutdown, task })
}

/// Completes on SIGTERM (never where there is no such signal).
async fn terminated() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        term.recv().await;
        Ok(())
    }
    #[cfg(not(unix))]
    std::future::pending().await
}

/// Runs the server until Ctrl-C (stops at once) or SIGTERM (drains first), printing the
/// address it listens on (first line of stdout); it logs through `tracing`, to whatever
/// subscriber the caller set up.
pub async fn run(config: Config) -> anyhow::Result<()> {
    if database_url::is_postgres(&config.db) {
        tracing::info!(
            "connecting to {} (giving up after {} s)",
            database_url::redact(&config.db),
            store::CONNECT_TIMEOUT.as_secs()
        );
    }
    let running = start(&config).await?;
    println!("listening on http://{}", running.addr);
    tracing::info!(
        "open http://{} in a browser; database {}; Ctrl-C stops, SIGTERM drains",
        running.addr,
        if running.registry.store().is_sqlite() { config.db.as_str() } else { "PostgreSQL" }
    );
    tokio::select! {
        stop = tokio::signal::ctrl_c() => {
            stop.context("waiting for Ctrl-C")?;
            running.stop().await
        }
        term = terminated() => {
            term.context("waiting for SIGTERM")?;
            tracing::info!("SIGTERM: draining");
            running.drain().await?;
            tracing::info!("drained");
            Ok(())
        }
    }
}

/// [`run`] on a new multi-threaded tokio runtime, for callers that are not async.
pub fn run_blocking(config: Config) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(run(config))
}
