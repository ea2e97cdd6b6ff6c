//! Benchmarks of International draughts (10x10) in the rules library: perft from the start
//! position to depth 8 and 9 (the published 6,483,961 and 41,022,423 leaves), perft from a
//! position full of kings, and listing legal moves.
//!
//! `cargo bench -p checkers-rules --bench international` runs them and ends with one line per
//! depth: leaves, best time of three single-thread runs and leaves a second (the figure
//! docs/benchmarks.md gives).

use std::hint::black_box;
use std::time::Instant;

use checkers_rules::board::{Board, BoardMoves, BoardPerft, International};
use criterion::{BenchmarkId, Criterion, Throughput};

type Intl = Board<International>;

/// Kings of both sides among men: flying-king captures with many landing squares.
const KINGS: &str = "W:WK47,31,32,33,36,38,39,42,44:BK4,6,11,13,14,16,17,19,20";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("international perft");
    group.sample_size(10);
    let kings = Intl::from_fen(KINGS).expect("benchmark FEN is valid");
    for (name, board, depth) in
        [("start", Intl::start(), 8), ("start", Intl::start(), 9), ("kings", kings, 6)]
    {
        let leaves = BoardPerft::new().count(&board, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(name, depth), &board, |b, p| {
            let mut perft = BoardPerft::new();
            b.iter(|| perft.count(black_box(p), depth))
        });
    }
    group.finish();
}

/// Positions of deterministic games (a fixed, varied choice at each ply).
fn sample_positions(count: usize) -> Vec<Intl> {
    let mut out = Vec::with_capacity(count);
    let mut game = 0usize;
    while out.len() < count {
        let mut board = Intl::start();
        for ply in 0..150usize {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(board);
            board = board.play_unchecked(&moves[(ply * 7 + game * 3 + ply / 5) % moves.len()]);
        }
        game += 1;
    }
    out.truncate(count);
    out
}

fn bench_listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("international legal moves");
    let positions = sample_positions(1000);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("generate_moves into one list", |b| {
        let mut list = BoardMoves::new();
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    black_box(p).generate_moves(&mut list);
                    list.len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).count_legal_moves()).sum::<u64>())
    });
    group.finish();
}

/// Best of three single-thread runs of perft from the start.
fn print_perft_speed() {
    for depth in [8, 9] {
        let start = Intl::start();
        let mut leaves = 0;
        let best = (0..3)
            .map(|_| {
                let t = Instant::now();
                leaves = BoardPerft::new().count(black_box(&start), depth);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        println!(
            "international perft({depth}): {leaves} leaves in {best:.3} s, {:.1} M leaves/s (one thread, best of 3)",
            leaves as f64 / best / 1e6
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_perft(&mut c);
    bench_listing(&mut c);
    c.final_summary();
    print_perft_speed();
}
