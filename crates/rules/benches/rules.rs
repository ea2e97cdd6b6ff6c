//! Benchmarks of the rules library, split by concern: perft, listing legal moves, making
//! moves. Each group has a baseline measured in the same run (a plain perft that lists every
//! move with the public generator and plays it, counting the last ply by list length; a fresh list per position; the checked door for
//! making moves), so the figures read as ratios that hold on a busy machine.
//!
//! `cargo bench -p checkers-rules` runs them all and ends with a one-line summary of the
//! perft speed-up over the plain perft.

use std::hint::black_box;
use std::time::Instant;

use checkers_rules::{MoveList, Perft, PerftMode, Position, Variant};
use criterion::{BenchmarkId, Criterion, Throughput};

/// Positions with kings, where flying kings and long captures cost the most.
const KING_POSITIONS: [(Variant, &str); 2] = [
    (Variant::English, "B:W18,19,21,23,24,26,29,K31:B1,2,5,6,8,10,12,K27"),
    (Variant::Russian, "W:W18,21,22,23,25,26,27,K30:B5,6,7,9,10,12,13,K3"),
];

/// Perft the plain way: list every move with the public generator (one reused list per ply),
/// play each, and count the last ply by the length of its list. `lists` has one list a ply.
fn plain_perft(position: &Position, lists: &mut [MoveList]) -> u64 {
    let Some((list, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    position.generate_moves(list);
    if deeper.is_empty() {
        return list.len() as u64;
    }
    list.iter().map(|mv| plain_perft(&position.play_unchecked(mv), deeper)).sum()
}

fn plain_lists(depth: u32) -> Vec<MoveList> {
    (0..depth).map(|_| MoveList::new()).collect()
}

/// Positions from deterministic games (a fixed, varied choice of move at each ply), so the
/// listing and making benchmarks see openings, middle games with captures and endings.
fn sample_positions(variant: Variant, count: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    let mut game = 0usize;
    while out.len() < count {
        let mut position = Position::start(variant);
        for ply in 0..120usize {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(position);
            position = position.play_unchecked(&moves[(ply * 7 + game * 3 + ply / 5) % moves.len()]);
        }
        game += 1;
    }
    out.truncate(count);
    out
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let cases = [
        (Variant::English, Position::start(Variant::English), 8),
        (Variant::Russian, Position::start(Variant::Russian), 8),
        (KING_POSITIONS[0].0, king_position(0), 6),
        (KING_POSITIONS[1].0, king_position(1), 6),
    ];
    for (i, (variant, position, depth)) in cases.iter().enumerate() {
        let leaves = Perft::new(PerftMode::Moves).count(position, *depth);
        group.throughput(Throughput::Elements(leaves));
        let name = format!("{variant} {} depth {depth}", if i < 2 { "start" } else { "kings" });
        group.bench_with_input(BenchmarkId::new("library", &name), position, |b, p| {
            let mut perft = Perft::new(PerftMode::Moves);
            b.iter(|| perft.count(black_box(p), *depth))
        });
        group.bench_with_input(BenchmarkId::new("plain baseline", &name), position, |b, p| {
            let mut lists = plain_lists(*depth);
            b.iter(|| plain_perft(black_box(p), &mut lists))
        });
    }
    group.finish();
}

fn king_position(i: usize) -> Position {
    let (variant, fen) = KING_POSITIONS[i];
    Position::from_fen(variant, fen).expect("benchmark FEN is valid")
}

fn bench_listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal moves");
    for variant in Variant::ALL {
        let positions = sample_positions(variant, 1000);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(BenchmarkId::new("generate_moves into one list", variant), |b| {
            let mut list = MoveList::new();
            b.iter(|| {
                let mut n = 0;
                for p in &positions {
                    black_box(p).generate_moves(&mut list);
                    n += list.len();
                }
                n
            })
        });
        group.bench_function(BenchmarkId::new("legal_moves, a new list each (baseline)", variant), |b| {
            b.iter(|| positions.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>())
        });
        group.bench_function(BenchmarkId::new("count_legal_moves", variant), |b| {
            b.iter(|| positions.iter().map(|p| black_box(p).count_legal_moves()).sum::<u64>())
        });
    }
    group.finish();
}

fn bench_making(c: &mut Criterion) {
    let mut group = c.benchmark_group("make moves");
    for variant in Variant::ALL {
        let positions = sample_positions(variant, 1000);
        let pairs: Vec<_> = positions
            .iter()
            .flat_map(|p| p.legal_moves().to_vec().into_iter().map(move |m| (*p, m)))
            .collect();
        group.throughput(Throughput::Elements(pairs.len() as u64));
        group.bench_function(BenchmarkId::new("play_unchecked", variant), |b| {
            b.iter(|| {
                pairs.iter().map(|(p, m)| black_box(p).play_unchecked(m).hash_key()).fold(0, |a, h| a ^ h)
            })
        });
        group.bench_function(BenchmarkId::new("try_play, checked (baseline)", variant), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter_map(|(p, m)| black_box(p).try_play(m).ok())
                    .fold(0, |a, q| a ^ q.hash_key())
            })
        });
    }
    group.finish();
}

/// Times the library perft against the plain one back to back and prints the ratio (quick:
/// a second or two).
fn print_perft_ratio() {
    for variant in Variant::ALL {
        let start = Position::start(variant);
        let depth = 7;
        let best_of = |f: &dyn Fn() -> u64| {
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    black_box(f());
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min)
        };
        let library = best_of(&|| Perft::new(PerftMode::Moves).count(&start, depth));
        let plain = best_of(&|| plain_perft(&start, &mut plain_lists(depth)));
        let leaves = Perft::new(PerftMode::Moves).count(&start, depth);
        assert_eq!(leaves, plain_perft(&start, &mut plain_lists(depth)), "the two perfts disagree");
        let leaves = leaves as f64;
        println!(
            "perft({depth}) {variant}: library {:.1} M leaves/s, plain {:.1} M leaves/s, {:.1}x",
            leaves / library / 1e6,
            leaves / plain / 1e6,
            plain / library
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_perft(&mut c);
    bench_listing(&mut c);
    bench_making(&mut c);
    c.final_summary();
    print_perft_ratio();
}
