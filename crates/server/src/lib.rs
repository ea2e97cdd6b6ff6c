//! # checkers-server
//!
//! The online game: an HTTP and WebSocket server (axum on tokio) where people play each other
//! or the computer, watch games live and download them as PDN, with the web page compiled in.
//! The rules library referees every move; the engine plays the computer's side on a bounded
//! pool of blocking threads; every game, seat and move is kept in a database (a SQLite file by
//! default, PostgreSQL given a `postgres://` URL) and a move is confirmed only once committed,
//! so a restart, even after `kill -9`, loses no confirmed move and unfinished games go on (a
//! running clock resumes from its last stored reading: nobody is charged for the downtime).
//!
//! It depends on the rules library and the engine; neither may depend on it. The command line
//! starts it (`checkers serve`), and nothing here reads the command line itself.
//!
//! ## HTTP
//!
//! | path | what |
//! | --- | --- |
//! | `/`, `/g/{id}`, `/games` | the web page (lobby, a game, the list of games) |
//! | `/ws` | the WebSocket below |
//! | `/games/{id}.pdn` | the game as PDN |
//! | `/api/games` | recent and live games, JSON `{"games": [...]}` |
//! | `/games/{id}/review` | the engine's review of a finished game, JSON: `moves` (each `text`, `route`, `fen` of the position after it, `score` after it for the side that played it, `verdict` `good`, `mistake` or `blunder`, the engine's move `best` and its `best_score`, `comment`), `white` and `black` (`mistakes`, `blunders`), `nodes` searched a position; 409 `not_finished` while the game is on, 404 `not_found`, 503 `busy` when eight reviews already wait (they run one at a time) |
//! | `/games/{id}/review.pdn` | the finished game as PDN with the review's comment after each move |
//! | `/games/{id}/lines?ply=N` | the engine's three best moves in the position after N moves of a finished game (0: the start), JSON: `lines` (each `move`, `score` for the side to move, `line` from the position), best first (one when the move is forced, none when there is no move), `fen`, `depth`, `nodes`; 400 `bad_ply` for a ply past the game's end or none given, otherwise as `/review` (409, 404, 503 `busy`, queued with the reviews) |
//!
//! ## The WebSocket protocol
//!
//! Every message is one JSON object with a type field `t`. A client message may carry an `id`
//! (a number or short string); the reply to it carries the same value as `re`. Client messages
//! are at most 4096 bytes and are rate-limited (a burst of 40, then 20 a second); past that
//! the client gets `rate_limited` errors and is slowed down, and one that keeps on is
//! disconnected. A refused message changes nothing.
//!
//! Client to server:
//!
//! - `{"t":"create","opponent":"computer"|"friend"|"open","level":1-9,"variant":"english"|"russian",
//!   "color":"white"|"black"|"random","clock":{"base":SECONDS,"increment":SECONDS},"name":"..."}`:
//!   a new game. `level` only against the computer; `clock` omitted for an untimed game;
//!   `friend` games are joined by link only, `open` ones are also listed in the lobby.
//!   Replies `seated`, then subscribes the connection to the game (`watching`, `state`).
//! - `{"t":"join","game":ID,"color":...,"name":...}`: takes the free seat. Replies as `create`.
//! - `{"t":"watch","game":ID,"token":TOKEN?}`: subscribes to the game's states (one game per
//!   connection at a time). Replies `watching` with the seat the token holds (or `null`), then
//!   the current `state`.
//! - `{"t":"move","game":ID,"token":TOKEN,"text":"9x18x27"}` or with
//!   `"from":9,"to":27,"captured":[14,23]` (`captured` needed only to tell two moves apart);
//!   optional `"ply":N`, the number of moves played before this one, makes a resent move
//!   harmless (`stale` if the game has moved on). Replies `{"t":"ok","ply":N+1}` after the move
//!   is committed; every subscriber then gets the new `state`.
//! - `{"t":"draw","game":ID,"token":TOKEN,"action":"offer"|"accept"|"decline"}`: an offer stands
//!   until answered or until the opponent moves; offering when the opponent has offered accepts.
//!   Offers, their answers and rematch requests are committed like moves: a restart keeps them.
//! - `{"t":"resign","game":ID,"token":TOKEN}`: before anyone joined, withdraws the game.
//! - `{"t":"rematch","game":ID,"token":TOKEN}`: once both players ask (at once against the
//!   computer), a new game with colours swapped; each keeps their seat token. Replies
//!   `{"t":"rematch","game":ID,"new_game":ID|null}`; the old game's `state` names the new game.
//! - `{"t":"lobby"}`: subscribes to the list of open games.
//! - `{"t":"games"}`: subscribes to the list of games in play and recently finished here
//!   (entries as in `/api/games`), sent again at most once a second while it changes.
//! - `{"t":"ping"}`: replies `pong`.
//!
//! Server to client:
//!
//! - `{"t":"seated","game":ID,"color":"white"|"black","token":TOKEN}`: the seat token is the
//!   only key to the seat; the server keeps only its SHA-256.
//! - `{"t":"watching","game":ID,"color":...}`.
//! - `{"t":"state","game":{...}}`: `id`, `variant`, `status` (`waiting`, `playing`,
//!   `finished`), `start_fen`, `fen`, `turn`, `ply`, `moves` (PDN long form, in order),
//!   `last_move` (`text`, `route`, `captured`, `book`: true when the computer played it from
//!   its opening book, as levels 7-9 do in the positions it holds), `legal` (each `text`, `from`, `to`, `route`:
//!   the squares the piece stops on, `captured`), `clock` (`base_ms`, `increment_ms`,
//!   `white_ms`, `black_ms` as of sending, `running`: the colour whose clock runs, or null),
//!   `players` (`white`/`black`: `kind`, `name`, `level`, `seated`), `draw_offer`,
//!   `rematch_offers`, `rematch_game`, `rematch_of`, and once over `result` (`1-0` White won,
//!   `0-1`, `1/2-1/2`, `*` withdrawn), `winner`, `reason` (a code such as `no_legal_move`,
//!   `resignation`, `time`, `agreement`, `threefold_repetition`, `forty_move_rule`) and
//!   `message` (a sentence saying who won and why).
//! - `{"t":"lobby","games":[{"id","variant","clock","name","creator_color","created_ms"}]}`.
//! - `{"t":"games","games":[{"id","variant","status","result","reason","white","black","plies",
//!   "created_ms","updated_ms"}]}`: games in play first, then the most recently changed.
//! - `{"t":"ok"}`, `{"t":"pong"}`, `{"t":"rematch",...}`.
//! - `{"t":"error","re":...,"code":CODE,"message":"..."}` with `CODE` one of `bad_request`,
//!   `too_large`, `rate_limited`, `not_found`, `not_your_seat`, `not_your_turn`,
//!   `illegal_move`, `stale`, `not_started`, `game_over`, `no_free_seat`, `no_draw_offer`,
//!   `draw_declined`, `rematch_refused`, `storage`, `unavailable`.

pub mod computer;
pub mod hub;
pub mod live;
pub mod pdn;
pub mod store;
pub mod token;
mod web;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use hub::Hub;
pub use store::Store;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on, e.g. `127.0.0.1:8080` (port 0 picks a free one).
    pub addr: String,
    /// A SQLite file path or `sqlite://` URL, or a `postgres://` URL.
    pub db: String,
    /// Engine searches run at once (default: the number of CPUs).
    pub engine_threads: Option<usize>,
}

/// A server running in this process.
pub struct Running {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Stops accepting connections and waits for the server task to end.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(());
        self.task.await.context("server task")?.context("server")?;
        self.hub.store().close().await;
        Ok(())
    }
}

/// Opens the database, resumes unfinished games, binds the address and starts serving.
pub async fn start(config: &Config) -> anyhow::Result<Running> {
    let store =
        Store::open(&config.db).await.with_context(|| format!("cannot open database {}", config.db))?;
    let threads = config
        .engine_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let hub = Hub::new(store, computer::ComputerPool::new(threads));
    hub.resume_unfinished().await.context("cannot resume unfinished games")?;
    let listener =
        TcpListener::bind(&config.addr).await.with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener.local_addr()?;
    // Moves are small messages that must go out at once, not wait to be coalesced (Nagle).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let (shutdown, stopped) = oneshot::channel::<()>();
    let app = web::router(hub.clone());
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running { addr, hub, shutdown, task })
}

/// Runs the server until Ctrl-C, printing the address it listens on (first line of stdout).
pub async fn run(config: Config) -> anyhow::Result<()> {
    let running = start(&config).await?;
    println!("listening on http://{}", running.addr);
    eprintln!(
        "checkers serve: open http://{} in a browser; database {}; Ctrl-C stops",
        running.addr,
        if running.hub.store().is_sqlite() { config.db.as_str() } else { "PostgreSQL" }
    );
    tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
    running.stop().await
}

/// [`run`] on a new multi-threaded tokio runtime, for callers that are not async.
pub fn run_blocking(config: Config) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(run(config))
}
