//! `checkers worker`: an engine worker, finding the computer moves, reviews and lines that
//! `checkers serve --engine-workers external` nodes put in the PostgreSQL job queue.

/// Which database's queue to serve, on how many engine threads.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PostgreSQL database the nodes share (postgres://user:pass@host/db).
    #[arg(long)]
    db: String,
    /// Engine threads, each taking jobs (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let threads =
        args.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
    checkers_server::computer::jobs::run_worker(&args.db, threads)?;
    Ok(())
}
