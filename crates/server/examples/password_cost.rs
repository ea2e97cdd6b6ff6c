//! What one password check costs: hashes a password with the server's Argon2id parameters and
//! checks it, `ROUNDS` times each, on one thread, and prints the median times.
//!
//! `cargo run --release -p checkers-server --example password_cost`

use std::time::{Duration, Instant};

use checkers_server::password::{hash_now, verify_now, LANES, MEMORY_KIB, PASSES};

const ROUNDS: usize = 21;

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let mut hashes = Vec::new();
    let mut hashing = Vec::new();
    for _ in 0..ROUNDS {
        let start = Instant::now();
        hashes.push(hash_now("correct horse battery staple").expect("a hash"));
        hashing.push(start.elapsed());
    }
    let mut checking = Vec::new();
    for hash in &hashes {
        let start = Instant::now();
        assert!(verify_now("correct horse battery staple", hash));
        checking.push(start.elapsed());
    }
    println!("Argon2id m={MEMORY_KIB} KiB, t={PASSES}, p={LANES}, {ROUNDS} rounds on one thread:");
    println!("  hash:  median {:.1} ms", median(hashing).as_secs_f64() * 1000.0);
    println!("  check: median {:.1} ms", median(checking).as_secs_f64() * 1000.0);
}
