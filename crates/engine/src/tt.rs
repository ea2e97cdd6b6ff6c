//! The transposition table: what earlier searches learned about positions, shared by all
//! search threads without locks.
//!
//! An entry is two atomic words, the data and the key xor the data, so a torn write by another
//! thread reads back as a miss rather than as another position's data (the "lockless hashing"
//! trick). Entries sit in buckets of four, one cache line; replacement prefers shallow and
//! old entries.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::game::SearchMove;
use crate::limits::MAX_HASH_MB;
use crate::score::Score;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most this (no move raised alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// A remembered move: its index in the generator's list and its start and end (slots, below
/// 128), so a stale or colliding entry is noticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveKey {
    pub index: u8,
    pub from: u8,
    pub to: u8,
}

impl MoveKey {
    /// The key of `mv`, found at `list_index` in the generator's list.
    #[inline(always)]
    pub fn new<M: SearchMove>(mv: &M, list_index: usize) -> MoveKey {
        MoveKey { index: list_index as u8, from: mv.start_slot() as u8, to: mv.end_slot() as u8 }
    }

    /// Whether `mv` starts and ends on this key's squares.
    #[inline(always)]
    pub fn matches<M: SearchMove>(self, mv: &M) -> bool {
        mv.start_slot() == u32::from(self.from) && mv.end_slot() == u32::from(self.to)
    }
}

/// A score as the table stores it: a forced result counted in plies from the node, not from
/// the root, so that it holds wherever the node is met again.
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= Score::DECISIVE {
        score + ply as i32
    } else if score <= -Score::DECISIVE {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from the root, the node being `ply` plies deep.
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= Score::DECISIVE {
        score - ply as i32
    } else if score <= -Score::DECISIVE {
        score + ply as i32
    } else {
        score
    }
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: Option<MoveKey>,
}

#[repr(C, align(64))]
struct Bucket {
    slots: [[AtomicU64; 2]; 4], // [key ^ data, data]
}

pub(crate) struct TranspositionTable {
    buckets: BucketMemory,
    generation: AtomicU8,
}

/// The buckets, in memory aligned to 2 MB and (on Linux) marked for transparent huge pages:
/// table probes are random accesses, and with 4 KB pages most of their cost is page walks.
struct BucketMemory {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: the buckets are atomics only; sharing and sending them between threads is sound.
unsafe impl Send for BucketMemory {}
unsafe impl Sync for BucketMemory {}

const HUGE_PAGE: usize = 2 * 1024 * 1024;

impl BucketMemory {
    fn new(len: usize) -> BucketMemory {
        let bytes = len * std::mem::size_of::<Bucket>();
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Bucket>() };
        let layout = std::alloc::Layout::from_size_align(bytes, align)
            .unwrap_or_else(|_| std::alloc::Layout::new::<Bucket>());
        // SAFETY: the layout has non-zero size (len >= 1). The memory is zeroed below, after
        // the huge-page advice (zeroing first would fault it in as small pages).
        let raw = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut Bucket) else {
            std::alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            extern "C" {
                fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
            }
            const MADV_HUGEPAGE: i32 = 14;
            // SAFETY: the range is exactly our allocation; the advice is only a hint.
            unsafe {
                madvise(raw as *mut std::ffi::c_void, layout.size(), MADV_HUGEPAGE);
            }
        }
        let mut memory = BucketMemory { ptr, len: layout.size() / std::mem::size_of::<Bucket>(), layout };
        memory.zero();
        memory
    }

    /// Sets every entry to empty (one `memset`, much faster than a store per atomic).
    fn zero(&mut self) {
        // SAFETY: `ptr` is valid for `layout.size()` bytes, `&mut self` rules out concurrent
        // access, and all-zero bytes are valid atomics.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr() as *mut u8, 0, self.layout.size()) };
    }
}

impl std::ops::Deref for BucketMemory {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for BucketMemory {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

const NO_MOVE: u64 = 0xFF;

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket, at most [`MAX_HASH_MB`] MB).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.clamp(1, MAX_HASH_MB) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable { buckets: BucketMemory::new(count), generation: AtomicU8::new(0) }
    }

    /// Forgets everything. (Exclusive access: no search is using the table.)
    pub fn clear(&mut self) {
        self.buckets.zero();
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 0x3F, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; any address is allowed and nothing is dereferenced.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        for slot in &bucket.slots {
            let data = slot[1].load(Ordering::Relaxed);
            if data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, best: Option<MoveKey>) {
        let bucket = self.bucket(key);
        let generation = u64::from(self.generation.load(Ordering::Relaxed));
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 || slot[0].load(Ordering::Relaxed) ^ data == key {
                // Same position: keep the old move when the new result has none.
                let best = best.or_else(|| if data == 0 { None } else { unpack(data).best });
                let packed = pack(score, depth, bound, best, generation);
                slot[1].store(packed, Ordering::Relaxed);
                slot[0].store(key ^ packed, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(data >> 58) & 0x3F) as i32;
            let worth = ((data >> 16) & 0xFF) as i32 - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let packed = pack(score, depth, bound, best, generation);
        bucket.slots[victim][1].store(packed, Ordering::Relaxed);
        bucket.slots[victim][0].store(key ^ packed, Ordering::Relaxed);
    }
}

// Layout: score i16 (bits 0-15), depth u8 (16-23), bound (24-25), move index (26-33),
// from (34-40), to (41-47), generation (58-63). Never all zero: bound is never 0.
fn pack(score: i32, depth: i32, bound: Bound, best: Option<MoveKey>, generation: u64) -> u64 {
    let (index, from, to) = match best {
        Some(m) => (u64::from(m.index), u64::from(m.from), u64::from(m.to)),
        None => (NO_MOVE, 0, 0),
    };
    (u64::from(score as i16 as u16))
        | (depth.clamp(0, 255) as u64) << 16
        | (bound as u64) << 24
        | index << 26
        | from << 34
        | to << 41
        | generation << 58
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let index = (data >> 26) & 0xFF;
    let best = (index != NO_MOVE).then_some(MoveKey {
        index: index as u8,
        from: ((data >> 34) & 0x7F) as u8,
        to: ((data >> 41) & 0x7F) as u8,
    });
    Entry { score: i32::from(data as u16 as i16), depth: ((data >> 16) & 0xFF) as i32, bound, best }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut tt = TranspositionTable::new(1);
        let mv = MoveKey { index: 3, from: 9, to: 127 };
        tt.store(12345, -29_990, 7, Bound::Lower, Some(mv));
        let e = tt.probe(12345).unwrap();
        assert_eq!((e.score, e.depth, e.bound, e.best), (-29_990, 7, Bound::Lower, Some(mv)));
        assert!(tt.probe(54321).is_none());
        tt.store(12345, 10, 8, Bound::Upper, None);
        assert_eq!(tt.probe(12345).unwrap().best, Some(mv), "keeps the move");
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }
}
