use checkers_rules::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().unwrap();
    let d: u32 = args[2].parse().unwrap();
    let p = Position::start(v);
    for depth in 1..=d {
        let t = std::time::Instant::now();
        let n = Perft::new(PerftMode::Moves).count(&p, depth);
        let np = Perft::new(PerftMode::Paths).count(&p, depth);
        println!("{depth} {n} paths {np} {:.2}s", t.elapsed().as_secs_f64());
    }
}
