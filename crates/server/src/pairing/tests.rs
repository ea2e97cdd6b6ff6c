use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::*;

const RUSSIAN_BLITZ: PoolKey = PoolKey {
    variant: GameVariant::Eight(checkers_rules::Variant::Russian),
    clock: PoolClock { minutes: 3, increment_s: 2 },
};

fn address(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(10, 0, 0, n))
}

/// A player from address `n` (and account `n`) rated `rating`, joined at `joined_ms`.
fn seeker(n: u8, rating: f64, joined_ms: i64) -> Seeker {
    Seeker { account: Some(i64::from(n)), address: address(n), rating, rd: 60.0, joined_ms }
}

/// The ratings of each pairing's players.
fn paired_ratings(pairings: &[Pairing]) -> Vec<(f64, f64)> {
    pairings.iter().map(|p| (p.players[0].1.rating, p.players[1].1.rating)).collect()
}

fn pools_with(seekers: &[Seeker]) -> Pools {
    let mut pools = Pools::new();
    for s in seekers {
        pools.join(RUSSIAN_BLITZ, *s).unwrap();
    }
    pools
}

#[test]
fn the_closest_rating_wins_and_the_odd_one_waits() {
    let mut pools = pools_with(&[seeker(1, 1500.0, 0), seeker(2, 1550.0, 0), seeker(3, 1580.0, 0)]);
    assert_eq!(paired_ratings(&pools.pair_round(0)), [(1550.0, 1580.0)]);
    assert_eq!(pools.waiting(RUSSIAN_BLITZ), 1);
    assert_eq!(pools.pair_round(1000), []);
    assert_eq!(pools.leave(SeekId(0)).map(|(pool, s)| (pool, s.rating)), Some((RUSSIAN_BLITZ, 1500.0)));
    assert!(pools.is_empty());
}

#[test]
fn ranges_widen_with_waiting() {
    assert_eq!(rating_range(0), 100.0);
    assert_eq!(rating_range(4_999), 100.0);
    assert_eq!(rating_range(5_000), 150.0);
    assert_eq!(rating_range(59_999), 650.0);
    assert_eq!(rating_range(60_000), f64::INFINITY);
    assert_eq!(rating_range(-5_000), 100.0, "joining after the round counts as no wait");
    let mut pools = pools_with(&[seeker(1, 1500.0, 0), seeker(2, 1720.0, 0)]);
    for now in [0, 5_000, 10_000, 14_999] {
        assert_eq!(pools.pair_round(now), [], "at {now} ms the ranges are ±{}", rating_range(now));
    }
    assert_eq!(paired_ratings(&pools.pair_round(15_000)), [(1500.0, 1720.0)]);
}

#[test]
fn both_ranges_must_accept_the_pair() {
    // The first has waited a minute and accepts anyone; the second only once it has waited
    // 20 s (±300).
    let mut pools = pools_with(&[seeker(1, 1500.0, 0), seeker(2, 1800.0, 60_000)]);
    assert_eq!(pools.pair_round(60_000), []);
    assert_eq!(pools.pair_round(79_999), []);
    assert_eq!(paired_ratings(&pools.pair_round(80_000)), [(1500.0, 1800.0)]);
}

#[test]
fn the_smallest_acceptable_gap_is_paired_even_past_a_neighbour() {
    // 1560 shares the address of 1500, and its range (±100) does not reach 1700: 1500 and
    // 1700, who have waited a minute, are paired past it.
    let mut pools = Pools::new();
    pools.join(RUSSIAN_BLITZ, seeker(1, 1500.0, 0)).unwrap();
    pools.join(RUSSIAN_BLITZ, Seeker { account: Some(7), ..seeker(1, 1560.0, 60_000) }).unwrap();
    pools.join(RUSSIAN_BLITZ, seeker(3, 1700.0, 0)).unwrap();
    assert_eq!(paired_ratings(&pools.pair_round(60_000)), [(1500.0, 1700.0)]);
    assert_eq!(pools.waiting(RUSSIAN_BLITZ), 1);
}

#[test]
fn one_address_is_never_paired_with_itself() {
    let same_place = |account, rating| Seeker { account: Some(account), ..seeker(1, rating, 0) };
    let mut pools = pools_with(&[same_place(10, 1500.0), same_place(11, 1500.0)]);
    assert_eq!(pools.pair_round(120_000), []);
    pools.join(RUSSIAN_BLITZ, seeker(2, 1900.0, 120_000)).unwrap();
    assert_eq!(pools.pair_round(120_000), [], "the newcomer's ±100 reaches neither");
    assert_eq!(pools.pair_round(149_999), []);
    let pairs = pools.pair_round(150_000);
    assert_eq!(paired_ratings(&pairs), [(1500.0, 1900.0)]);
    assert_eq!(pools.waiting(RUSSIAN_BLITZ), 1);
}

#[test]
fn an_ipv4_address_and_its_ipv6_mapping_are_one_address() {
    let mapped = IpAddr::V6(Ipv4Addr::new(10, 0, 0, 1).to_ipv6_mapped());
    let players =
        [seeker(1, 1500.0, 0), Seeker { account: Some(2), address: mapped, ..seeker(1, 1500.0, 0) }];
    assert_eq!(pair_seekers(&players, 100_000), []);
    let elsewhere = Seeker { address: IpAddr::V6(Ipv6Addr::LOCALHOST), ..players[1] };
    assert_eq!(pair_seekers(&[players[0], elsewhere], 100_000), [(0, 1)]);
}

#[test]
fn an_account_waits_in_one_pool_once() {
    let mut pools = Pools::new();
    let first = pools.join(RUSSIAN_BLITZ, seeker(1, 1500.0, 0)).unwrap();
    assert_eq!(first, Joined { id: SeekId(0), replaced: None });
    let again = pools.join(RUSSIAN_BLITZ, Seeker { address: address(2), ..seeker(1, 1500.0, 10) }).unwrap();
    assert_eq!(again, Joined { id: SeekId(1), replaced: Some(SeekId(0)) });
    assert_eq!(pools.pair_round(100_000), [], "an account is never paired with itself");
    let bullet = PoolKey { variant: GameVariant::ENGLISH, clock: POOL_CLOCKS[0] };
    let moved = pools.join(bullet, seeker(1, 1500.0, 20)).unwrap();
    assert_eq!(moved.replaced, Some(SeekId(1)));
    assert_eq!((pools.waiting(RUSSIAN_BLITZ), pools.waiting(bullet), pools.len()), (0, 1, 1));
    assert_eq!(pools.entry_of_account(1), Some(moved.id));
    assert_eq!(pools.leave(SeekId(1)), None, "a replaced entry has left");
    // Anonymous players replace nobody.
    let anonymous = Seeker { account: None, ..seeker(5, 1500.0, 0) };
    assert_eq!(pools.join(bullet, anonymous).unwrap().replaced, None);
    assert_eq!(pools.join(bullet, anonymous).unwrap().replaced, None);
    assert_eq!(pools.waiting(bullet), 3);
}

#[test]
fn pools_do_not_mix() {
    let mut pools = Pools::new();
    let english = PoolKey { variant: GameVariant::ENGLISH, ..RUSSIAN_BLITZ };
    let rapid = PoolKey { clock: PoolClock { minutes: 10, increment_s: 0 }, ..RUSSIAN_BLITZ };
    for (n, pool) in [(1, RUSSIAN_BLITZ), (2, english), (3, rapid)] {
        pools.join(pool, seeker(n, 1500.0, 0)).unwrap();
    }
    assert_eq!(pools.pair_round(100_000), []);
    pools.join(rapid, seeker(4, 1500.0, 0)).unwrap();
    let pairs = pools.pair_round(100_000);
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].pool, rapid);
    assert_eq!(pools.len(), 2);
}

#[test]
fn refused_joins_change_nothing() {
    let mut pools = Pools::new();
    let odd_clock = PoolKey { clock: PoolClock { minutes: 2, increment_s: 1 }, ..RUSSIAN_BLITZ };
    let odd = PoolClock { minutes: 2, increment_s: 1 };
    assert_eq!(pools.join(odd_clock, seeker(1, 1500.0, 0)), Err(PoolError::UnknownClock(odd)));
    assert_eq!(pools.join(RUSSIAN_BLITZ, seeker(1, f64::NAN, 0)), Err(PoolError::BadRating));
    assert_eq!(
        pools.join(RUSSIAN_BLITZ, Seeker { rd: f64::INFINITY, ..seeker(1, 1500.0, 0) }),
        Err(PoolError::BadRating)
    );
    assert!(pools.is_empty());
    assert_eq!(pools.waiting(odd_clock), 0);
}

#[test]
fn ties_are_broken_by_join_time_and_the_round_is_deterministic() {
    let players: Vec<Seeker> = (1..=4).map(|n| seeker(n, 1500.0, 1000 - i64::from(n))).collect();
    let pools = pools_with(&players);
    let round = |mut pools: Pools| pools.pair_round(2000);
    let pairs = round(pools.clone());
    let accounts: Vec<[Option<i64>; 2]> =
        pairs.iter().map(|p| [p.players[0].1.account, p.players[1].1.account]).collect();
    assert_eq!(accounts, [[Some(4), Some(3)], [Some(2), Some(1)]]);
    assert_eq!(round(pools), pairs);
}

#[test]
fn pool_clocks_and_their_speeds() {
    let names: Vec<String> = POOL_CLOCKS.iter().map(|c| c.to_string()).collect();
    assert_eq!(names, ["1+0", "3+0", "3+2", "5+3", "10+0", "15+10"]);
    let speeds: Vec<SpeedClass> = POOL_CLOCKS.iter().map(|c| c.speed()).collect();
    use SpeedClass::*;
    assert_eq!(speeds, [Bullet, Blitz, Blitz, Blitz, Rapid, Rapid]);
    for clock in POOL_CLOCKS {
        assert_eq!(PoolClock::parse(&clock.to_string()), Some(clock));
    }
    assert_eq!(PoolClock::parse("2+1"), None);
    assert_eq!(PoolClock::parse("3+02"), None);
}

#[test]
fn a_seeker_without_a_finite_rating_is_never_paired() {
    let players = [seeker(1, f64::NAN, 0), seeker(2, 1500.0, 0), seeker(3, f64::INFINITY, 0)];
    assert_eq!(pair_seekers(&players, 100_000), []);
}

/// Whether `a` and `b` may be paired at `now_ms`, straight from the rule.
fn acceptable(a: &Seeker, b: &Seeker, now_ms: i64) -> bool {
    let gap = (a.rating - b.rating).abs();
    gap <= rating_range(now_ms - a.joined_ms)
        && gap <= rating_range(now_ms - b.joined_ms)
        && a.address != b.address
        && (a.account.is_none() || a.account != b.account)
}

/// The greedy matching by brute force: every acceptable pair, smallest gap first, ties by the
/// sorted positions.
fn brute_force(seekers: &[Seeker], now_ms: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..seekers.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&seekers[a], &seekers[b]);
        x.rating.total_cmp(&y.rating).then(x.joined_ms.cmp(&y.joined_ms)).then(a.cmp(&b))
    });
    let mut edges = Vec::new();
    for p in 0..order.len() {
        for q in p + 1..order.len() {
            let (a, b) = (&seekers[order[p]], &seekers[order[q]]);
            if acceptable(a, b, now_ms) {
                edges.push((b.rating - a.rating, p, q));
            }
        }
    }
    edges.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let mut taken = vec![false; order.len()];
    let mut pairs = Vec::new();
    for (_, p, q) in edges {
        if !taken[p] && !taken[q] {
            taken[p] = true;
            taken[q] = true;
            pairs.push((order[p], order[q]));
        }
    }
    pairs
}

/// Up to 40 seekers: ratings on a 25-point grid (so gaps land exactly on range limits),
/// joined up to 90 s before the round, from 6 addresses, with accounts that may repeat.
fn seekers() -> impl Strategy<Value = Vec<Seeker>> {
    let one = (0u32..80, 0i64..90, 1u8..=6, prop::option::of(0i64..12));
    prop::collection::vec(one, 0..40).prop_map(|list| {
        list.into_iter()
            .map(|(grid, waited_s, n, account)| Seeker {
                account,
                address: address(n),
                rating: 1000.0 + 25.0 * f64::from(grid),
                rd: 100.0,
                joined_ms: 100_000 - waited_s * 1000,
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn every_pair_is_acceptable_and_nobody_is_paired_twice(seekers in seekers()) {
        let now = 100_000;
        let pairs = pair_seekers(&seekers, now);
        let mut taken = vec![false; seekers.len()];
        for &(a, b) in &pairs {
            prop_assert!(a != b && !taken[a] && !taken[b]);
            taken[a] = true;
            taken[b] = true;
            prop_assert!(acceptable(&seekers[a], &seekers[b], now), "{:?} with {:?}", seekers[a], seekers[b]);
            prop_assert!(seekers[a].rating <= seekers[b].rating);
        }
        // Nobody left waiting would accept someone else left waiting.
        for a in (0..seekers.len()).filter(|&a| !taken[a]) {
            for b in (a + 1..seekers.len()).filter(|&b| !taken[b]) {
                prop_assert!(!acceptable(&seekers[a], &seekers[b], now));
            }
        }
        prop_assert_eq!(pairs, brute_force(&seekers, now));
    }

    #[test]
    fn fractional_ratings_match_the_brute_force(
        list in prop::collection::vec((800.0..2600.0f64, 0i64..70_000, 1u8..=4), 0..30),
    ) {
        let seekers: Vec<Seeker> = list
            .into_iter()
            .map(|(rating, waited, n)| Seeker { account: None, address: address(n), rating, rd: 80.0, joined_ms: -waited })
            .collect();
        prop_assert_eq!(pair_seekers(&seekers, 0), brute_force(&seekers, 0));
    }
}
