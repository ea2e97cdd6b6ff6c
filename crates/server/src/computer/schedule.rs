//! The order engine jobs run in: one queue per requester (a client address, say), the
//! requesters served in turn, in two lanes: short jobs and long ones. Pure bookkeeping, with
//! no threads and no engine, so the order is testable on its own; the pool's workers take
//! their jobs from it.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::time::Instant;

/// How long a job is expected to hold an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A few milliseconds: the low levels, a tight clock, a draw judgement.
    Short,
    /// Up to about a second, or more: the top levels' searches, reviews and lines.
    Long,
}

/// Requesters taking turns: each turn runs the next job of the requester at the front, who
/// then goes to the back if it has more.
struct RoundRobin<K, J> {
    turns: VecDeque<K>,
    queues: HashMap<K, VecDeque<(Instant, J)>>,
    len: usize,
}

impl<K: Clone + Eq + Hash, J> RoundRobin<K, J> {
    fn new() -> RoundRobin<K, J> {
        RoundRobin { turns: VecDeque::new(), queues: HashMap::new(), len: 0 }
    }

    fn push(&mut self, who: K, job: J, now: Instant) {
        let queue = self.queues.entry(who.clone()).or_default();
        if queue.is_empty() {
            self.turns.push_back(who);
        }
        queue.push_back((now, job));
        self.len += 1;
    }

    /// When the job that runs next was asked for.
    fn next_since(&self) -> Option<Instant> {
        let who = self.turns.front()?;
        self.queues.get(who)?.front().map(|(since, _)| *since)
    }

    fn pop(&mut self) -> Option<J> {
        let who = self.turns.pop_front()?;
        let queue = self.queues.get_mut(&who)?;
        let (_, job) = queue.pop_front()?;
        if queue.is_empty() {
            self.queues.remove(&who);
        } else {
            self.turns.push_back(who);
        }
        self.len -= 1;
        Some(job)
    }
}

/// The jobs waiting for an engine, per lane and requester.
pub struct Schedule<K, J> {
    short: RoundRobin<K, J>,
    long: RoundRobin<K, J>,
}

impl<K: Clone + Eq + Hash, J> Schedule<K, J> {
    pub fn new() -> Schedule<K, J> {
        Schedule { short: RoundRobin::new(), long: RoundRobin::new() }
    }

    pub fn push(&mut self, who: K, lane: Lane, job: J) {
        let now = Instant::now();
        match lane {
            Lane::Short => self.short.push(who, job, now),
            Lane::Long => self.long.push(who, job, now),
        }
    }

    /// The next job for a worker. A worker that may run long jobs takes, of the two lanes'
    /// next jobs, the one asked for first; a short-only worker takes only short jobs, so a
    /// short job never waits for a long one to end.
    pub fn pop(&mut self, takes_long: bool) -> Option<(Lane, J)> {
        let long_first = takes_long
            && match (self.short.next_since(), self.long.next_since()) {
                (Some(short), Some(long)) => long < short,
                (None, Some(_)) => true,
                _ => false,
            };
        if long_first {
            self.long.pop().map(|job| (Lane::Long, job))
        } else {
            self.short.pop().map(|job| (Lane::Short, job))
        }
    }

    /// Jobs waiting in `lane`.
    pub fn waiting(&self, lane: Lane) -> usize {
        match lane {
            Lane::Short => self.short.len,
            Lane::Long => self.long.len,
        }
    }

    /// Forgets every waiting job.
    pub fn clear(&mut self) {
        *self = Schedule::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(schedule: &mut Schedule<&'static str, u32>, takes_long: bool) -> Vec<u32> {
        std::iter::from_fn(|| schedule.pop(takes_long).map(|(_, job)| job)).collect()
    }

    #[test]
    fn requesters_take_turns_whatever_the_order_they_asked_in() {
        let mut s = Schedule::new();
        for job in 0..4 {
            s.push("crowd", Lane::Long, job);
        }
        s.push("other", Lane::Long, 10);
        s.push("third", Lane::Long, 20);
        s.push("other", Lane::Long, 11);
        assert_eq!(s.waiting(Lane::Long), 7);
        assert_eq!(drain(&mut s, true), vec![0, 10, 20, 1, 11, 2, 3]);
        assert_eq!(s.waiting(Lane::Long), 0);
    }

    #[test]
    fn a_short_only_worker_never_takes_a_long_job() {
        let mut s = Schedule::new();
        s.push("crowd", Lane::Long, 1);
        assert_eq!(s.pop(false), None);
        s.push("probe", Lane::Short, 2);
        assert_eq!(s.pop(false), Some((Lane::Short, 2)));
        assert_eq!(s.pop(true), Some((Lane::Long, 1)));
    }

    #[test]
    fn a_worker_for_both_lanes_takes_the_job_asked_for_first() {
        let mut s = Schedule::new();
        s.push("a", Lane::Long, 1);
        std::thread::sleep(std::time::Duration::from_millis(2));
        s.push("b", Lane::Short, 2);
        s.push("a", Lane::Long, 3);
        assert_eq!(drain(&mut s, true), vec![1, 2, 3]);
        s.push("a", Lane::Long, 4);
        s.clear();
        assert_eq!((s.pop(true), s.waiting(Lane::Long)), (None, 0));
    }
}
