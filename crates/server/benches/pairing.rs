//! A pairing round over 10,000 waiting players (the issue asks for under 10 ms a round):
//! all in one pool, spread over every pool, all behind one address (nobody can be paired, the
//! search's worst case), and all just joined (±100 only). Each round runs on a fresh copy of
//! the pools; the copy is not timed.
//!
//! `cargo bench -p checkers-server --bench pairing` runs them and ends with a summary, each
//! case's best of 30 rounds.

use std::hint::black_box;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Instant;

use checkers_rules::Variant;
use checkers_server::pairing::{pair_seekers, PoolKey, Pools, Seeker, POOL_CLOCKS};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};

const PLAYERS: usize = 10_000;
const NOW_MS: i64 = 1_000_000;

/// splitmix64: a fixed, well-mixed sequence, so every run sees the same players.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// How the benchmark's players wait.
#[derive(Clone, Copy)]
enum Crowd {
    /// Joined up to 90 s ago (a third accept anyone), each from an address of their own.
    Mixed,
    /// Joined up to 90 s ago, all from one address.
    OneAddress,
    /// All joined just now.
    Fresh,
}

/// `PLAYERS` seekers with ratings spread about 1500 (standard deviation about 300).
fn crowd(kind: Crowd) -> Vec<Seeker> {
    let mut numbers = Numbers(45);
    (0..PLAYERS)
        .map(|i| {
            let spread = numbers.unit() + numbers.unit() + numbers.unit() - 1.5;
            let waited_ms = match kind {
                Crowd::Fresh => 0,
                Crowd::Mixed | Crowd::OneAddress => (numbers.next() % 90_000) as i64,
            };
            let address = match kind {
                Crowd::OneAddress => IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)),
                Crowd::Mixed | Crowd::Fresh => IpAddr::V4(Ipv4Addr::from(0x0A00_0000 + i as u32)),
            };
            Seeker {
                account: Some(i as i64),
                address,
                rating: 1500.0 + 600.0 * spread,
                rd: 50.0 + 300.0 * numbers.unit(),
                joined_ms: NOW_MS - waited_ms,
            }
        })
        .collect()
}

fn every_pool() -> Vec<PoolKey> {
    Variant::ALL
        .iter()
        .flat_map(|&variant| POOL_CLOCKS.map(|clock| PoolKey { variant: variant.into(), clock }))
        .collect()
}

/// The pools holding `seekers`, in one pool or dealt round every pool.
fn pools(seekers: &[Seeker], spread: bool) -> Pools {
    let keys = if spread { every_pool() } else { every_pool()[..1].to_vec() };
    let mut pools = Pools::new();
    for (i, seeker) in seekers.iter().enumerate() {
        pools.join(keys[i % keys.len()], *seeker).expect("the benchmark's pools exist");
    }
    pools
}

/// The benchmark's cases: a name, the players, and whether they are dealt round every pool.
fn cases() -> [(&'static str, Vec<Seeker>, bool); 4] {
    [
        ("10,000 in one pool", crowd(Crowd::Mixed), false),
        ("10,000 over 12 pools", crowd(Crowd::Mixed), true),
        ("10,000 behind one address", crowd(Crowd::OneAddress), false),
        ("10,000 just joined", crowd(Crowd::Fresh), false),
    ]
}

fn bench_rounds(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairing round");
    group.throughput(Throughput::Elements(PLAYERS as u64));
    for (name, seekers, spread) in cases() {
        let full = pools(&seekers, spread);
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_batched(
                || full.clone(),
                |mut pools| pools.pair_round(black_box(NOW_MS)),
                BatchSize::LargeInput,
            )
        });
    }
    let mixed = crowd(Crowd::Mixed);
    group
        .bench_function("pair_seekers alone, 10,000", |b| b.iter(|| pair_seekers(black_box(&mixed), NOW_MS)));
    group.finish();
}

/// Each case timed plainly, best of 30 rounds (the least disturbed by other work on the
/// machine), with how many it paired.
fn print_summary() {
    for (name, seekers, spread) in cases() {
        let full = pools(&seekers, spread);
        let mut best = f64::INFINITY;
        let mut paired = 0;
        for _ in 0..30 {
            let mut pools = full.clone();
            let started = Instant::now();
            paired = black_box(pools.pair_round(NOW_MS)).len();
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!("pairing round, {name}: best {:.2} ms, {paired} pairs", best * 1000.0);
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_rounds(&mut c);
    c.final_summary();
    print_summary();
}
