//! Builds a database and prints how long it took and how its positions divide.
//!
//! `cargo run --release -p checkers-endgame --example solve -- english 4`

use std::time::Instant;

use checkers_endgame::Database;
use checkers_rules::Variant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map_or(Ok(Variant::English), |v| v.parse()).expect("english or russian");
    let pieces = args.get(2).map_or(4, |n| n.parse().expect("a number of pieces"));
    let start = Instant::now();
    let db = Database::build(variant, pieces).unwrap_or_else(|e| panic!("{e}"));
    println!("{variant:?} {pieces} pieces: built in {:.2} s", start.elapsed().as_secs_f64());
    let [win, loss, draw] = db.counts();
    println!("positions (each side to move): {} won, {} lost, {} drawn", win, loss, draw);
}
