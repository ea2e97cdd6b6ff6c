//! `checkers-perturb FILE SEED [VARIANT]`: each position of a sample file (`FEN;...` lines,
//! English unless VARIANT is `russian`) after one to four random legal moves, played on while
//! a capture is pending, printed as `FEN;0.5` for `checkers-tune rescore` to label. The network trained on game positions
//! alone never sees the lopsided positions a search walks through; these are such positions.

use checkers_rules::{to_fen, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = match args.get(2).map(|v| v.parse::<Variant>()) {
        None => Ok(Variant::English),
        Some(parsed) => parsed,
    };
    let (Some(path), Some(mut rng), Ok(variant)) =
        (args.first(), args.get(1).and_then(|s| s.parse::<u64>().ok()), variant)
    else {
        eprintln!("usage: checkers-perturb FILE SEED [english|russian]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    });
    rng |= 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for line in text.lines() {
        let Some(Ok(mut p)) = line.split(';').next().map(|fen| Position::from_fen(variant, fen)) else {
            continue;
        };
        let plies = 1 + next() % 4;
        let mut played = 0;
        let mut ok = true;
        while played < plies || p.has_capture() {
            let moves = p.legal_moves();
            if moves.is_empty() || played > 12 {
                ok = false;
                break;
            }
            p = p.play_unchecked(&moves[(next() % moves.len() as u64) as usize]);
            played += 1;
        }
        if ok && !p.legal_moves().is_empty() {
            println!("{};0.5", to_fen(&p));
        }
    }
}
