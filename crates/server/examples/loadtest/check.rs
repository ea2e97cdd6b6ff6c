//! The load generator's check of the database against what the clients were told, and its
//! figures; shared with the chaos run (`examples/chaos`).

use std::collections::HashMap;
use std::time::Duration;

use checkers_server::live::Status;
use checkers_server::Store;

use crate::play::{percentile, Played, Stats};

/// The database against the clients.
#[derive(Default)]
pub struct Check {
    pub checked: usize,
    /// Confirmed (or recovered) moves missing from the database, or stored as another move.
    pub lost: usize,
    /// Plies stored more than once.
    pub doubled: usize,
    /// Moves stored that no client knew were committed.
    pub extra: usize,
    /// Games not finished in the database (counted when asked), among those that did not fail.
    pub unfinished: usize,
}

impl Check {
    /// Every game in `told` in the database; with `finished`, each must have ended too.
    pub async fn run(store: &Store, told: &HashMap<String, Played>, finished: bool) -> anyhow::Result<Check> {
        let mut c = Check::default();
        for (game, played) in told {
            let stored = store.move_records(game).await?;
            c.checked += 1;
            let known = played.confirmed.iter().chain(&played.recovered);
            for (ply, text) in known.clone() {
                match stored.iter().filter(|r| u64::from(r.ply) == *ply).count() {
                    0 => c.lost += 1,
                    1 => {}
                    _ => c.doubled += 1,
                }
                if stored.iter().any(|r| u64::from(r.ply) == *ply && &r.pdn != text) {
                    c.lost += 1;
                }
            }
            // Moves stored that nobody was told of (possible only if a reply was lost in
            // transit).
            c.extra += stored.len().saturating_sub(known.count());
            if finished && played.failure.is_none() {
                let status = store.load_game(game).await?.map(|g| g.status);
                if status != Some(Status::Finished) {
                    c.unfinished += 1;
                }
            }
        }
        Ok(c)
    }

    /// Whether every confirmed move is in place, once.
    pub fn sound(&self) -> bool {
        self.lost == 0 && self.doubled == 0
    }

    pub fn print(&self) {
        println!(
            "database check: {} games, {} moves lost or different, {} doubled, {} unconfirmed extra",
            self.checked, self.lost, self.doubled, self.extra
        );
    }
}

/// The move and game-end figures.
pub fn print_figures(s: &Stats, games: usize, failed: usize, elapsed: Duration, kind: &str) {
    let mut rtt = s.round_trips_us.clone();
    rtt.sort_unstable();
    let total_moves = rtt.len();
    println!("games {games} (failed {failed}), moves confirmed {total_moves}, errors {}", s.errors);
    println!(
        "elapsed {:.1} s, {:.0} moves/s",
        elapsed.as_secs_f64(),
        total_moves as f64 / elapsed.as_secs_f64().max(0.001)
    );
    println!(
        "move round trip ms: p50 {:.2}  p90 {:.2}  p95 {:.2}  p99 {:.2}  max {:.2}",
        percentile(&rtt, 50.0),
        percentile(&rtt, 90.0),
        percentile(&rtt, 95.0),
        percentile(&rtt, 99.0),
        percentile(&rtt, 100.0)
    );
    let mut ends = s.ends_us.clone();
    ends.sort_unstable();
    println!(
        "game end ({kind}, {} games) round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        ends.len(),
        percentile(&ends, 50.0),
        percentile(&ends, 90.0),
        percentile(&ends, 99.0),
        percentile(&ends, 100.0)
    );
}

/// What the clients did to ride out nodes dying, and what the spectators saw.
pub fn print_failover(s: &Stats, watchers: bool) {
    let f = &s.failover;
    println!(
        "failover: {} reconnections, {} sent again after `unavailable` or `storage`, {} moves in flight sent again, \
         {} found committed after a lost confirmation or a `stale` answer (timed to the state that \
         showed them), {} found replaced, {} silences, {} set-ups tried again, {} games given up before \
         their first move",
        f.reconnections,
        f.unavailable,
        f.resent,
        f.recovered,
        f.replaced,
        f.silences,
        f.setup_retries,
        f.abandoned
    );
    if watchers {
        let mut watch = s.watch_us.clone();
        watch.sort_unstable();
        println!(
            "watch latency ms ({} moves seen, {} before the mover's confirmation): p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            watch.len(),
            s.watched_early,
            percentile(&watch, 50.0),
            percentile(&watch, 90.0),
            percentile(&watch, 99.0),
            percentile(&watch, 100.0)
        );
    }
}
