//! The evaluation cache: each search thread's memory of the evaluations it gave moments ago.

use crate::game::SearchPosition;

/// Evaluations of recently seen positions, one search thread's: a third to a half of the
/// evaluations a search asks for are of positions it evaluated moments before (transposed
/// leaves, a parent's truncation and futility tests), and the English network makes a node
/// about an eighth slower. An entry is a position's key with its low bits (the entry's
/// index) replaced by the evaluation, so it fits in eight bytes and the table in the core's
/// second-level cache. The key is the position's hash key with the variant and the evaluator
/// mixed in: the hash key leaves the variant out, and an engine may search both variants, at
/// several levels, without clearing this.
pub(super) struct EvalCache {
    entries: Box<[u64]>,
}

const EVAL_CACHE_BITS: u32 = 15;
const EVAL_CACHE_MASK: u64 = (1 << EVAL_CACHE_BITS) - 1;

impl EvalCache {
    pub(super) fn new() -> EvalCache {
        // Every bit set: only a key whose upper 48 bits are all ones (odds 2^-48) would read
        // an empty entry, as -1.
        EvalCache { entries: vec![u64::MAX; 1 << EVAL_CACHE_BITS].into_boxed_slice() }
    }

    #[inline(always)]
    pub(super) fn evaluate<P: SearchPosition>(&mut self, position: &P, tables_only: bool) -> i32 {
        let evaluator = if tables_only { 0xbb67_ae85_84ca_a73b } else { 0 };
        let key = position.hash_key() ^ position.evaluation_salt() ^ evaluator;
        let slot = &mut self.entries[(key & EVAL_CACHE_MASK) as usize];
        let tag = key & !0xffff;
        if *slot & !0xffff == tag {
            return i32::from(*slot as u16 as i16);
        }
        let score = position.evaluate(tables_only);
        if let Ok(short) = i16::try_from(score) {
            *slot = tag | u64::from(short as u16);
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_tables};
    use checkers_rules::{Position, Variant};

    #[test]
    fn the_evaluation_table_keeps_the_variants_and_the_evaluators_apart() {
        let fen = "W:W22,25,27,29:B11,14,18";
        let english = Position::from_fen(Variant::English, fen).unwrap();
        let russian = Position::from_fen(Variant::Russian, fen).unwrap();
        assert_eq!(english.hash_key(), russian.hash_key(), "the hash key leaves the variant out");
        assert_ne!(evaluate(&english), evaluate(&russian));
        assert_ne!(evaluate(&russian), evaluate_tables(&russian));
        let mut table = EvalCache::new();
        for _ in 0..2 {
            assert_eq!(table.evaluate(&english, false), evaluate(&english));
            assert_eq!(table.evaluate(&russian, false), evaluate(&russian));
            assert_eq!(table.evaluate(&russian, true), evaluate_tables(&russian));
            assert_eq!(table.evaluate(&english, true), evaluate_tables(&english));
        }
    }
}
