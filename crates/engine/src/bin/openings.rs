//! `checkers-openings VARIANT PLIES DEPTH MARGIN COUNT`: an opening set for matches in a
//! variant played on the rules library's boards (International, Frisian, ...): `COUNT`
//! openings of `PLIES` plies whose end positions a search of `DEPTH` plies scores within
//! `MARGIN` hundredths of a man of level (see `src/openings.rs`). Prints the set, ready to be
//! saved as `crates/cli/data/openings/VARIANT.txt`; progress goes to stderr.

use std::time::Instant;

use checkers_engine::{generate_openings, BoardEngine, OpeningPlan};
use checkers_rules::board::{Board, BoardVariant};
use checkers_rules::with_board_variant;

const USAGE: &str =
    "usage: checkers-openings VARIANT PLIES DEPTH MARGIN COUNT (a board variant: international, ...)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| args.get(i).and_then(|text| text.parse::<usize>().ok());
    let variant = args.first().and_then(|v| v.parse::<BoardVariant>().ok());
    let (Some(variant), Some(plies), Some(depth), Some(margin), Some(count)) =
        (variant, number(1), number(2), number(3), number(4))
    else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    if args.len() != 5 || !(1..=8).contains(&plies) || !(1..=30).contains(&depth) || count == 0 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let plan = OpeningPlan { plies, depth: depth as u32, margin: margin as i32, count };
    with_board_variant!(variant, V => print_set::<V>(plan, &args.join(" ")));
}

fn print_set<V: BoardEngine>(plan: OpeningPlan, command: &str) {
    let started = Instant::now();
    let start = Board::<V>::start();
    let (set, scored) = generate_openings(&start, plan, &mut |i, total| {
        if i % 200 == 0 {
            eprintln!("{i} of {total} end positions scored, {:.0} s", started.elapsed().as_secs_f64());
        }
    });
    println!(
        "# Opening set, {}: {} openings of {} plies, each end position within {} hundredths of a man of level",
        V::NAME,
        set.len(),
        plan.plies,
        plan.margin
    );
    println!(
        "# by a search of depth {} (of {scored} distinct end positions), picked evenly in move order.",
        plan.depth
    );
    println!("# Made by `cargo run --release -p checkers-engine --features tune --bin checkers-openings -- {command}`.");
    for opening in set {
        let mut board = start;
        let mut words = Vec::new();
        for mv in &opening.moves {
            words.push(mv.to_pdn(&board));
            board = board.play_unchecked(mv);
        }
        println!("{}", words.join(" "));
    }
}
