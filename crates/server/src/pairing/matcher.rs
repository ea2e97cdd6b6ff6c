//! One pool's pairing round: the greedy matching by smallest rating gap.
//!
//! Sorted by rating, every acceptable pair is a player `p` and someone above them, `q > p`.
//! Each player keeps one candidate: the lowest-rated `q` above them that is still waiting,
//! whose range reaches down to them (`rating[q] − range[q] ≤ rating[p]`) and whose address
//! differs, if `p`'s own range reaches up to it. A heap holds the candidates by gap. The
//! smallest is taken when both players still wait; when its `q` was taken by someone else,
//! `p` looks again further up. Waiting players only ever leave, so a candidate's gap never
//! improves and the first valid candidate off the heap is the smallest acceptable gap of all:
//! this is exactly the greedy matching of the module docs.
//!
//! Finding a candidate is a climb and a descent of a segment tree over the sorted players
//! that keeps, for each span of them, the lowest reach and the lowest reach among players of
//! another address than that one's, so players sharing an address cost no extra steps. A
//! candidate of the same account (which the pools do not allow) is skipped and the search goes
//! on. The round costs O(n log n): the sort, one search a player, and one more each time the
//! candidate a player found is taken by someone else first, which ordinary pools rarely see.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::net::IpAddr;

use super::{rating_range, Seeker};

/// The pairs of one round among `seekers` at `now_ms`, as indexes into `seekers` (the lower
/// rated first), smallest gap first. Ties in rating are ordered by join time, then by place in
/// `seekers`; the rule is in the module docs of [`crate::pairing`]. A seeker whose rating is
/// not a finite number is never paired.
pub fn pair_seekers(seekers: &[Seeker], now_ms: i64) -> Vec<(usize, usize)> {
    let mut keys: Vec<(f64, i64, usize)> =
        seekers.iter().enumerate().map(|(i, seeker)| (seeker.rating, seeker.joined_ms, i)).collect();
    keys.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let order: Vec<usize> = keys.iter().map(|key| key.2).collect();
    let sorted: Vec<Sorted> = order
        .iter()
        .map(|&i| {
            let seeker = &seekers[i];
            Sorted {
                rating: seeker.rating,
                range: rating_range(now_ms.saturating_sub(seeker.joined_ms)),
                address: address_key(seeker.address),
                account: seeker.account,
            }
        })
        .collect();
    let mut tree = ReachTree::new(&sorted);
    let mut heap = BinaryHeap::with_capacity(sorted.len());
    for p in 0..sorted.len() {
        heap.extend(candidate(&tree, &sorted, p, p + 1).map(Reverse));
    }
    let mut paired = vec![false; sorted.len()];
    let mut pairs = Vec::with_capacity(sorted.len() / 2);
    while let Some(Reverse(Candidate { p, q, .. })) = heap.pop() {
        if paired[p] {
            continue;
        }
        if paired[q] {
            heap.extend(candidate(&tree, &sorted, p, q + 1).map(Reverse));
            continue;
        }
        paired[p] = true;
        paired[q] = true;
        tree.remove(p);
        tree.remove(q);
        pairs.push((order[p], order[q]));
    }
    pairs
}

/// A player in rating order.
struct Sorted {
    rating: f64,
    range: f64,
    /// The client address (see [`address_key`]).
    address: u128,
    account: Option<i64>,
}

impl Sorted {
    /// How low a rating this player accepts (nothing, for a rating that is not a number).
    fn reach(&self) -> f64 {
        if self.rating.is_finite() {
            self.rating - self.range
        } else {
            f64::INFINITY
        }
    }
}

/// A client address as one number: an IPv4 address as its IPv6-mapped form, so a client seen
/// both ways is one client.
fn address_key(address: IpAddr) -> u128 {
    match address {
        IpAddr::V4(v4) => u128::from(v4.to_ipv6_mapped()),
        IpAddr::V6(v6) => u128::from(v6),
    }
}

/// `p`'s best partner above it, from position `from` on, among those still waiting.
fn candidate(tree: &ReachTree, sorted: &[Sorted], p: usize, from: usize) -> Option<Candidate> {
    let me = &sorted[p];
    if !me.rating.is_finite() {
        return None;
    }
    let mut from = from;
    loop {
        let q = tree.first_reaching(from, me.rating, me.address)?;
        let gap = sorted[q].rating - me.rating;
        if gap > me.range {
            return None;
        }
        // The tree compares reaches (rating − range), which may round differently from the
        // gap at a range's very edge: the rule is the gap.
        let same_account = me.account.is_some() && me.account == sorted[q].account;
        if same_account || gap > sorted[q].range {
            from = q + 1;
            continue;
        }
        return Some(Candidate { gap, p, q });
    }
}

/// A possible pair, ordered by gap, then by the positions.
struct Candidate {
    gap: f64,
    p: usize,
    q: usize,
}

impl Ord for Candidate {
    fn cmp(&self, other: &Candidate) -> Ordering {
        self.gap.total_cmp(&other.gap).then(self.p.cmp(&other.p)).then(self.q.cmp(&other.q))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Candidate) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Candidate) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

/// A segment tree over the players in rating order, for "the first waiting player from
/// position `from` on whose reach is at most `rating` and whose address is not `address`".
struct ReachTree {
    /// Leaves start at `size`; node `i` covers its children `2i` and `2i + 1`.
    nodes: Vec<Node>,
    size: usize,
}

/// The lowest reach in a node's span and its address, and the lowest reach there among other
/// addresses than that one.
#[derive(Clone, Copy, PartialEq)]
struct Node {
    lowest: f64,
    lowest_elsewhere: f64,
    address: u128,
}

/// An empty span. Its address is a real one, but an empty span's reach is nothing, which
/// merges correctly whether or not addresses match.
const EMPTY: Node = Node { lowest: f64::INFINITY, lowest_elsewhere: f64::INFINITY, address: u128::MAX };

impl Node {
    fn merge(left: Node, right: Node) -> Node {
        if left.address == right.address {
            Node {
                lowest: left.lowest.min(right.lowest),
                address: left.address,
                lowest_elsewhere: left.lowest_elsewhere.min(right.lowest_elsewhere),
            }
        } else {
            // The other side's lowest has another address, and nothing on that side is lower.
            let (low, high) = if left.lowest <= right.lowest { (left, right) } else { (right, left) };
            Node {
                lowest: low.lowest,
                address: low.address,
                lowest_elsewhere: low.lowest_elsewhere.min(high.lowest),
            }
        }
    }

    /// Whether someone in the span reaches down to `rating` from another address.
    fn reaches(&self, rating: f64, address: u128) -> bool {
        (self.address != address && self.lowest <= rating) || self.lowest_elsewhere <= rating
    }
}

impl ReachTree {
    fn new(sorted: &[Sorted]) -> ReachTree {
        let size = sorted.len().next_power_of_two();
        let mut nodes = vec![EMPTY; 2 * size];
        for (i, player) in sorted.iter().enumerate() {
            nodes[size + i] =
                Node { lowest: player.reach(), address: player.address, lowest_elsewhere: f64::INFINITY };
        }
        for i in (1..size).rev() {
            nodes[i] = Node::merge(nodes[2 * i], nodes[2 * i + 1]);
        }
        ReachTree { nodes, size }
    }

    fn remove(&mut self, position: usize) {
        let mut i = self.size + position;
        self.nodes[i] = EMPTY;
        while i > 1 {
            i /= 2;
            let merged = Node::merge(self.nodes[2 * i], self.nodes[2 * i + 1]);
            if merged == self.nodes[i] {
                break; // nothing above changes either
            }
            self.nodes[i] = merged;
        }
    }

    /// The first position at or after `from` that reaches: climb from `from`'s leaf to the
    /// first span on its right that reaches, then go down to its first leaf that reaches.
    fn first_reaching(&self, from: usize, rating: f64, address: u128) -> Option<usize> {
        if from >= self.size {
            return None;
        }
        let mut i = self.size + from;
        while !self.nodes[i].reaches(rating, address) {
            // The next span to the right: up past every right child, then across.
            while i % 2 == 1 {
                i /= 2;
                if i == 0 {
                    return None;
                }
            }
            i += 1;
        }
        while i < self.size {
            i *= 2;
            if !self.nodes[i].reaches(rating, address) {
                i += 1;
            }
        }
        Some(i - self.size)
    }
}
