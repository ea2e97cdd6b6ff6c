//! `checkers`: the one command a user runs. Each subcommand lives in `commands/`, owns its
//! arguments, and returns errors to this edge, which prints one line and exits with 2.

mod commands;
mod common;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "checkers",
    version,
    about = "English checkers and Russian draughts: play, analyse, perft, and more"
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
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => commands::moves::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Analyse(args) => commands::analyse::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Hub(args) => commands::hub::run(args),
    };
    if let Err(err) = result {
        eprintln!("error: {err:#}");
        std::process::exit(2);
    }
}
