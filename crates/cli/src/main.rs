//! `checkers`: the one command a user runs. Each subcommand lives in `commands/`, owns its
//! arguments, and returns errors to this edge, which prints one line and exits with 2 (any
//! control character in it escaped: errors quote what they could not read). `checkers` alone
//! prints the help, as clap writes it, on standard error, also with exit code 2.

mod commands;
mod common;

use checkers_rules::escape_controls;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "checkers",
    version,
    about = "Checkers and draughts, every major variant: play, analyse, match, serve, Hub and DXP, and more",
    after_help = "Environment: CHECKERS_CACHE_DIR is where the solved endgame databases are kept \
                  between runs (about 3 MB a variant; empty: nowhere); by default `checkers` in \
                  XDG_CACHE_HOME or ~/.cache."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of a position, one a line, sorted.
    Moves(commands::moves::Args),
    /// Count move sequences of a given length (move generator test and benchmark).
    Perft(commands::perft::Args),
    /// Search a position and print the engine's lines (`info ...`) and `bestmove`.
    Analyse(commands::analyse::Args),
    /// Search fixed positions to a fixed depth: prints the node signature and speed.
    Bench(commands::bench::Args),
    /// Speak the Hub protocol (v2) on stdin/stdout, for draughts GUIs and tools.
    Hub(commands::hub::Args),
    /// Play International-family games over DXP (DamExchange) on TCP: --listen or --connect.
    Dxp(commands::dxp::Args),
    /// Play two engines or levels against each other over the opening sets: score, Elo, SPRT.
    Match(commands::match_cmd::Args),
    /// Play a game in the terminal against the computer (levels 1-9) or another person.
    Play(commands::play::Args),
    /// Review the games of a PDN file: every move judged by the engine, mistakes and blunders
    /// marked, the games written back as PDN with comments.
    Review(commands::review::Args),
    /// Run the online game server and web page (SQLite file by default, or --db postgres://...).
    Serve(commands::serve::Args),
    /// Find computer moves from the engine job queue of a PostgreSQL database (engine workers).
    Worker(commands::worker::Args),
}

fn main() {
    let cli = Cli::try_parse().unwrap_or_else(|err| exit_on_usage_error(err));
    if let Some(dir) = common::cache_dir() {
        checkers_engine::Engine::keep_endgame_in(dir);
    }
    if matches!(
        cli.command,
        Command::Moves(_) | Command::Perft(_) | Command::Analyse(_) | Command::Bench(_) | Command::Review(_)
    ) {
        end_quietly_when_the_reader_goes();
    }
    let result = match cli.command {
        Command::Moves(args) => commands::moves::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Analyse(args) => commands::analyse::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Hub(args) => commands::hub::run(args),
        Command::Dxp(args) => commands::dxp::run(args),
        Command::Match(args) => commands::match_cmd::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Review(args) => commands::review::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Worker(args) => commands::worker::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {}", escape_controls(&format!("{err:#}")));
        std::process::exit(2);
    }
}

/// Help and version go out as clap writes them (the help also when no command is given:
/// clap prints it on stderr with exit code 2); a usage error becomes one line on stderr and
/// exit code 2, like every other bad input.
fn exit_on_usage_error(err: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        err.exit();
    }
    let rendered = err.render().to_string();
    let parts: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .filter(|line| {
            !line.is_empty() && !line.starts_with("Usage:") && !line.starts_with("For more information")
        })
        .collect();
    let line = parts.join(" ");
    let line = line.strip_prefix("error: ").unwrap_or(&line);
    eprintln!("error: {} (see `checkers --help`)", escape_controls(line));
    std::process::exit(2);
}

/// Lets a closed pipe end the process, as it does other command-line tools, rather than the
/// next `println!` panicking. Only for commands that just print: `hub`, `match` and `serve`
/// talk to other processes and sockets and must see a vanished peer as an error instead.
fn end_quietly_when_the_reader_goes() {
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
