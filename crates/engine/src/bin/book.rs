//! `checkers-book VARIANT POSITIONS DEPTH [MAX_PLIES] [PLY_COST]`: grows the variant's opening
//! book from its start position (drop-out expansion, every legal move of each position scored
//! by a full-window search of DEPTH plies) and prints it, ready to be saved as
//! `crates/engine/src/book/VARIANT.txt`. Progress goes to stderr.

use std::time::Instant;

use checkers_engine::{generate_book, BookPlan, Engine, EngineOptions};
use checkers_rules::Variant;

const USAGE: &str = "usage: checkers-book english|russian POSITIONS DEPTH [MAX_PLIES (24)] [PLY_COST (4)]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: Option<u64>| match args.get(i) {
        Some(text) => text.parse::<u64>().ok(),
        None => default,
    };
    let variant = args.first().and_then(|v| v.parse::<Variant>().ok());
    let (Some(variant), Some(positions), Some(depth), Some(max_plies), Some(ply_cost)) =
        (variant, number(1, None), number(2, None), number(3, Some(24)), number(4, Some(4)))
    else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    if !(1..=40).contains(&depth) || args.len() > 5 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let plan = BookPlan {
        positions: positions as usize,
        depth: depth as u32,
        max_plies: max_plies as usize,
        ply_cost: ply_cost.min(10_000) as i32,
    };
    let mut engine = Engine::new(EngineOptions { hash_mb: 64, threads: 1 });
    let started = Instant::now();
    let book = generate_book(variant, plan, &mut engine, &mut |position, n| {
        if n % 25 == 0 {
            eprintln!("{n} positions, {:.0} s: {}", started.elapsed().as_secs_f64(), position.to_fen());
        }
    });
    println!(
        "# Opening book, {}: {} positions, every legal move scored by a full-window search of depth {depth}",
        variant.name(),
        book.len()
    );
    println!(
        "# (`checkers-book {} {positions} {depth} {max_plies} {ply_cost}`, {:.0} s). Moves best first; scores in hundredths of a man for the side to move.",
        args[0],
        started.elapsed().as_secs_f64()
    );
    print!("{}", book.to_text());
}
