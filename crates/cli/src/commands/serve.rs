//! `checkers serve`: the online game server and its web page.

use std::fmt;
use std::time::Duration;

use tracing::Event;
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::registry::LookupSpan;

use checkers_server::GameLimits;

/// Where to listen and where to keep the games.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port; the first line printed names it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Database: a SQLite file (created if missing) or a postgres://user:pass@host/db URL.
    #[arg(long, default_value = "checkers.db")]
    db: String,
    /// Engine threads for computer opponents and reviews (default: one per CPU); one more
    /// runs only quick searches (low levels, draw answers).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    engine_threads: Option<u16>,
    /// Where the computer's moves, reviews and lines are searched: `local`, on the engine
    /// threads; `external`, by `checkers worker` processes through the PostgreSQL database's
    /// job queue (postgres:// only; draw answers stay on the engine threads).
    #[arg(long, value_enum, default_value_t = EngineWorkers::Local)]
    engine_workers: EngineWorkers,
    /// A site whose pages may also use this server's WebSocket, as its origin
    /// (`https://example.com`); repeat for several. Pages of the server's own address always may.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// Seconds an open game waits in the lobby before it is deleted, if nobody joins it.
    #[arg(long, value_name = "SECONDS", default_value_t = GameLimits::default().open_game_expiry.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    expire_open_after: u64,
    /// Seconds a friend game waits for the friend before it is deleted, if nobody joins it.
    #[arg(long, value_name = "SECONDS", default_value_t = GameLimits::default().invite_expiry.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    expire_invites_after: u64,
    /// Trust a proxy in front of the server to say a request came over TLS
    /// (`X-Forwarded-Proto: https`): the session cookie is then marked Secure.
    #[arg(long)]
    trust_forwarded_proto: bool,
    /// Seconds a player must be gone from a timed game (every connection closed) before the
    /// opponent may claim it.
    #[arg(long, value_name = "SECONDS", default_value_t = GameLimits::default().claim_after.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    claim_after: u64,
    /// Seconds a game in play where no clock runs (an untimed game, or a timed one before both
    /// sides have moved) may go unplayed before it ends.
    #[arg(long, value_name = "SECONDS", default_value_t = GameLimits::default().unplayed_end.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    end_unplayed_after: u64,
    /// How the log on stderr is written: plain text, or one JSON object a line.
    #[arg(long, value_enum, default_value_t = LogFormat::Plain)]
    log_format: LogFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EngineWorkers {
    Local,
    External,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum LogFormat {
    Plain,
    Json,
}

/// Plain lines as the server always wrote them: `checkers serve: ` and the message, then any
/// fields as `key=value`.
struct Plain;

impl<S, N> FormatEvent<S, N> for Plain
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write!(writer, "checkers serve: ")?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// Sends the server's log (info and above) to stderr in `format`.
fn start_logging(format: LogFormat) {
    let log = tracing_subscriber::fmt().with_max_level(tracing::Level::INFO).with_writer(std::io::stderr);
    // Only fails if a subscriber is set already: the log then goes there.
    let _ = match format {
        LogFormat::Plain => log.event_format(Plain).try_init(),
        LogFormat::Json => log.json().try_init(),
    };
}

pub fn run(args: Args) -> anyhow::Result<()> {
    start_logging(args.log_format);
    checkers_server::run_blocking(checkers_server::Config {
        addr: args.addr,
        db: args.db,
        engine_threads: args.engine_threads.map(usize::from),
        engine_workers: match args.engine_workers {
            EngineWorkers::Local => checkers_server::computer::EngineWorkers::Local,
            EngineWorkers::External => checkers_server::computer::EngineWorkers::External,
        },
        limits: checkers_server::ClientLimits::default(),
        allowed_origins: args.allow_origins,
        game_limits: GameLimits {
            open_game_expiry: Duration::from_secs(args.expire_open_after),
            invite_expiry: Duration::from_secs(args.expire_invites_after),
            claim_after: Duration::from_secs(args.claim_after),
            unplayed_end: Duration::from_secs(args.end_unplayed_after),
            ..GameLimits::default()
        },
        trust_forwarded_proto: args.trust_forwarded_proto,
    })
}
