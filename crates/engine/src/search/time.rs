//! Time planning: when a search under a move time or a game clock stops.

use std::time::{Duration, Instant};

use crate::limits::Limits;

/// When to stop: the hard deadline ends the search mid-iteration; past the soft one no new
/// iteration starts.
pub(super) struct TimePlan {
    pub(super) soft: Option<Instant>,
    pub(super) hard: Option<Instant>,
}

impl TimePlan {
    pub(super) fn new(limits: &Limits, started: Instant) -> TimePlan {
        if limits.infinite {
            return TimePlan { soft: None, hard: None };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(t) = limits.movetime {
            let margin = (t / 20).min(Duration::from_millis(20));
            // A fixed time per move saves nothing for later moves: search until the hard
            // deadline, whose unfinished iteration can still change the move.
            hard = Some(t.saturating_sub(margin).max(Duration::from_millis(1)));
        }
        if let Some(clock) = limits.clock {
            let moves = clock.moves_to_go.unwrap_or(24).clamp(1, 60);
            let reserve = Duration::from_millis(30).min(clock.remaining / 4);
            let usable = clock.remaining.saturating_sub(reserve);
            let target = (usable / moves + clock.increment * 3 / 4).min(usable / 2);
            let cap = (target * 3).min(usable / 3 + clock.increment / 2).max(Duration::from_millis(1));
            soft = Some(target * 6 / 10);
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        TimePlan { soft: soft.map(|d| started + d), hard: hard.map(|d| started + d) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_move_time_is_spent_whole_and_a_clock_is_budgeted() {
        let start = Instant::now();
        let plan = TimePlan::new(&Limits::movetime(Duration::from_millis(500)), start);
        assert_eq!(plan.soft, None, "no iteration is skipped to save time for later moves");
        assert_eq!(plan.hard, Some(start + Duration::from_millis(480)));

        let clock = Limits::clock(Duration::from_secs(60), Duration::ZERO);
        let plan = TimePlan::new(&clock, start);
        let (soft, hard) = (plan.soft.unwrap() - start, plan.hard.unwrap() - start);
        assert!(soft < hard && hard < Duration::from_secs(20), "soft {soft:?}, hard {hard:?}");
        assert_eq!(TimePlan::new(&Limits::infinite(), start).hard, None);
    }
}
