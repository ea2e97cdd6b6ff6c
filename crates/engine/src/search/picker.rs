//! The move picker: hands out a node's moves best first, doing no more ordering work than the
//! node turns out to need.

use super::ordering::{generated_index, is_killer};

/// A move handed out by the [`MovePicker`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Pick {
    /// Its place in the order: 0 for the first move tried.
    pub number: usize,
    /// Its index in the generator's list.
    pub generated: usize,
    pub is_killer: bool,
}

/// Hands out a node's moves best first by their ordering keys (see [`super::ordering`]),
/// bringing each one's key to its place in the node's key list, so that the keys of the
/// moves tried stay in the order tried. The moves themselves stay in the generator's order.
///
/// Most nodes end after the first move: it is picked by one selection scan. A node whose
/// first move failed to cut will likely try them all: the rest are sorted once. A node found
/// futile after its first move tries only its killers and crowning moves: those are picked
/// one scan at a time ([`MovePicker::pick_one_at_a_time`]).
pub(super) struct MovePicker {
    next: usize,
    one_at_a_time: bool,
}

impl MovePicker {
    #[inline(always)]
    pub fn new() -> MovePicker {
        MovePicker { next: 0, one_at_a_time: false }
    }

    /// Picks each of the remaining moves by a scan of its own instead of sorting them: the
    /// node will stop after a few.
    #[inline(always)]
    pub fn pick_one_at_a_time(&mut self) {
        self.one_at_a_time = true;
    }

    /// The best move not handed out yet, none when all have been. `order` is the node's list
    /// of ordering keys, one for each move; `scratch` is room for sorting them.
    #[inline(always)]
    pub fn next(&mut self, order: &mut [i64], scratch: &mut Vec<i64>) -> Option<Pick> {
        let i = self.next;
        if i >= order.len() {
            return None;
        }
        if i == 0 || self.one_at_a_time {
            select_best(&mut order[i..]);
        } else if i == 1 {
            sort_descending(&mut order[1..], scratch);
        }
        self.next = i + 1;
        let key = order[i];
        Some(Pick { number: i, generated: generated_index(key), is_killer: is_killer(key) })
    }
}

/// Brings the largest key to the front, in one scan by selections (where it is, the branch
/// predictor cannot guess; keys are unique).
#[inline(always)]
fn select_best(keys: &mut [i64]) {
    let (mut best, mut pick) = (keys[0], 0);
    for (j, &k) in keys.iter().enumerate().skip(1) {
        let better = k > best;
        best = if better { k } else { best };
        pick = if better { j } else { pick };
    }
    keys.swap(0, pick);
}

/// Sorts unique keys largest first. Each key's place is the number of keys above it: more
/// comparisons than a sort makes, but none that branches.
#[inline(always)]
fn sort_descending(keys: &mut [i64], scratch: &mut Vec<i64>) {
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for &key in keys.iter() {
        let place = keys.iter().fold(0, |above, &other| above + usize::from(other > key));
        scratch[place] = key;
    }
    keys.copy_from_slice(scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_come_out_best_first_either_way() {
        let keys: Vec<i64> =
            [5i64, 40, 7, 300, 2, 41].iter().enumerate().map(|(i, p)| p << 16 | i as i64).collect();
        let expected = [3, 5, 1, 2, 0, 4];
        for one_at_a_time in [false, true] {
            let mut order = keys.clone();
            let mut picker = MovePicker::new();
            let mut scratch = Vec::new();
            let mut seen = Vec::new();
            while let Some(pick) = picker.next(&mut order, &mut scratch) {
                assert_eq!(pick.number, seen.len());
                seen.push(pick.generated);
                if one_at_a_time {
                    picker.pick_one_at_a_time();
                }
            }
            assert_eq!(seen, expected, "one at a time: {one_at_a_time}");
            assert_eq!(order.iter().map(|&k| generated_index(k)).collect::<Vec<_>>(), expected);
        }
    }
}
