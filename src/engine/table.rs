//! The transposition table: what earlier searches learned about a position, keyed
//! by the rules' zobrist hash, so transpositions and the next iteration reuse it.

use super::eval::MATE_BOUND;
use crate::rules::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Asks the processor to start loading the cache line of `item` (a hint that changes no
/// result: the search prefetches the table's bucket and the evaluation cache's slot of a
/// position as soon as it has played the move that leads there).
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let address: *const T = item;
        // SAFETY: a prefetch never faults and reads nothing into the program; the address
        // is that of a live value anyway, and SSE (which has the instruction) is part of
        // every x86_64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    Empty,
    /// The exact score.
    Exact,
    /// The score is at least this (a beta cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

/// One stored position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// The full search key (zobrist hash) of the position.
    pub key: u64,
    /// The best or refuting move found.
    pub best: Move,
    /// The score, mate scores counted from this position.
    pub score: i16,
    /// The depth searched.
    pub depth: i8,
    /// How to read `score`.
    pub bound: Bound,
    /// The search that stored it (older entries are replaced first).
    pub age: u8,
}

/// Entries per bucket: four 16-byte slots fill one 64-byte cache line.
pub const BUCKET_SIZE: usize = 4;

/// A fixed-size, always-allocated table of buckets, indexed by the low bits of the key.
///
/// A key may live in any entry of its bucket. A new position replaces the bucket's least
/// valuable entry: an empty one, else one left by an older search, else the shallowest,
/// so deep results of the current search survive the flood of shallow ones.
///
/// Several search threads share one table without locks: each entry is two atomic words,
/// its packed content and the key XORed with that content, so an entry torn by two
/// threads writing at once no longer matches its key and reads as absent.
pub struct TranspositionTable {
    /// The buckets in use are `buckets[first..]`; those before only align them.
    buckets: Vec<Bucket>,
    /// Index of the first bucket in use: on Linux the one at a huge-page boundary.
    first: usize,
    mask: usize,
    age: u8,
}

/// Bytes of a huge page on Linux (x86_64 and aarch64 with 4 KB base pages).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const HUGE_PAGE_BYTES: usize = 2 * 1024 * 1024;

/// One bucket's entries, aligned to a cache line so that a probe reads one line (the one
/// [`TranspositionTable::prefetch`] asked for), never two.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET_SIZE]);

/// One entry as stored: the key XORed with the packed data, and the packed data.
#[derive(Default)]
struct Slot {
    checked_key: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry held here and its key, if the two words agree (not torn) and it is not empty.
    #[inline]
    fn read(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.checked_key.load(Ordering::Relaxed) ^ data;
        let entry = unpack(key, data);
        (entry.bound != Bound::Empty).then_some(entry)
    }

    #[inline]
    fn write(&self, entry: &Entry) {
        let data = pack(entry);
        self.checked_key.store(entry.key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.checked_key.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// An entry's content (all but the key) in one word: move from, to, flags, score, depth,
/// bound, age, a byte each (the score two).
#[inline]
fn pack(entry: &Entry) -> u64 {
    let bound = match entry.bound {
        Bound::Empty => 0u64,
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    entry.best.from as u64
        | (entry.best.to as u64) << 8
        | (entry.best.flags as u64) << 16
        | (entry.score as u16 as u64) << 24
        | (entry.depth as u8 as u64) << 40
        | bound << 48
        | (entry.age as u64) << 56
}

/// The inverse of [`pack`], for `key`.
#[inline]
fn unpack(key: u64, data: u64) -> Entry {
    Entry {
        key,
        best: Move {
            from: data as u8,
            to: (data >> 8) as u8,
            flags: (data >> 16) as u8,
        },
        score: (data >> 24) as u16 as i16,
        depth: (data >> 40) as u8 as i8,
        bound: match (data >> 48) as u8 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::Empty,
        },
        age: (data >> 56) as u8,
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power of two buckets; at least 1 MB).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.clamp(1, 4096) * 1024 * 1024;
        let wanted = bytes / std::mem::size_of::<Bucket>();
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        let (buckets, first) = allocate_buckets(count);
        TranspositionTable {
            buckets,
            first,
            mask: count - 1,
            age: 0,
        }
    }

    /// The bucket where `key` lives.
    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET_SIZE] {
        &self.buckets[self.first + (key as usize & self.mask)].0
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for slot in self.buckets[self.first..]
            .iter()
            .flat_map(|bucket| &bucket.0)
        {
            slot.clear();
        }
    }

    /// Marks the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Asks the processor to start loading `key`'s bucket into the cache, so that a probe
    /// made a little later (after the work between playing a move and searching it) does
    /// not wait for memory. A hint only: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry for `key`, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .iter()
            .filter_map(Slot::read)
            .find(|entry| entry.key == key)
    }

    /// Stores a search result; `ply` converts mate scores to "from this position".
    ///
    /// An entry already held for `key` is overwritten unless it is deeper by more than
    /// two plies, of this search, and the new result is not exact; its move is kept when
    /// the new result has none.
    #[inline]
    pub fn store(&self, key: u64, best: Move, score: i32, depth: i32, bound: Bound, ply: i32) {
        let age = self.age;
        let bucket = self.bucket(key);
        let entries: [Option<Entry>; BUCKET_SIZE] = std::array::from_fn(|i| bucket[i].read());
        let same = entries
            .iter()
            .position(|entry| entry.is_some_and(|entry| entry.key == key));
        let index = match same {
            Some(index) => {
                let slot = entries[index].expect("found above");
                let replace =
                    slot.age != age || bound == Bound::Exact || depth + 2 >= slot.depth as i32;
                if !replace {
                    return;
                }
                index
            }
            None => {
                // The least valuable entry: empty, else older searches', else shallowest.
                let worth = |entry: &Option<Entry>| -> i32 {
                    let Some(entry) = entry else {
                        return i32::MIN;
                    };
                    let stale = if entry.age != age { 256 } else { 0 };
                    entry.depth as i32 - stale
                };
                let mut victim = 0;
                for index in 1..BUCKET_SIZE {
                    if worth(&entries[index]) < worth(&entries[victim]) {
                        victim = index;
                    }
                }
                victim
            }
        };
        let best = match (same, best == Move::default()) {
            (Some(index), true) => entries[index].expect("found above").best,
            _ => best,
        };
        bucket[index].write(&Entry {
            key,
            best,
            score: score_to_table(score, ply) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age,
        });
    }
}

/// `count` empty buckets and the index of the first: on Linux the table starts at a
/// huge-page boundary and the kernel is asked to back it with huge pages before it is
/// first written, so that its random probes do not each miss the translation cache
/// (a 16 MB table spans 4,096 small pages, more than the processor's TLB holds; huge
/// pages took 1.5–3% of the processor time to a depth away on a machine whose kernel
/// gives them only when asked, `tools/results/session40/time-to-depth.txt`). Elsewhere,
/// or if the kernel says no, the table is the same in small pages.
fn allocate_buckets(count: usize) -> (Vec<Bucket>, usize) {
    #[cfg(target_os = "linux")]
    {
        let padding = HUGE_PAGE_BYTES / std::mem::size_of::<Bucket>();
        let mut buckets: Vec<Bucket> = Vec::with_capacity(count + padding);
        let address = buckets.as_ptr() as usize;
        let first =
            (address.next_multiple_of(HUGE_PAGE_BYTES) - address) / std::mem::size_of::<Bucket>();
        let start = address + first * std::mem::size_of::<Bucket>();
        // SAFETY: madvise only gives the kernel a hint about how to back this range of
        // the vector's own (allocated, not yet written) memory; it changes no content
        // and no mapping the program relies on, and its failure is harmless.
        unsafe {
            libc::madvise(
                start as *mut libc::c_void,
                count * std::mem::size_of::<Bucket>(),
                libc::MADV_HUGEPAGE,
            );
        }
        buckets.resize_with(first + count, Bucket::default);
        (buckets, first)
    }
    #[cfg(not(target_os = "linux"))]
    {
        ((0..count).map(|_| Bucket::default()).collect(), 0)
    }
}

/// Mate scores are stored as distance from the stored position, not from the root.
#[inline]
pub fn score_to_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`score_to_table`].
#[inline]
pub fn score_from_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that share one bucket (the same low bits) but differ.
    fn same_bucket_keys(table: &TranspositionTable, count: usize) -> Vec<u64> {
        (1..=count as u64)
            .map(|n| (n << 40) | (5 & table.mask as u64))
            .collect()
    }

    #[test]
    fn buckets_fill_cache_lines_and_the_table_starts_at_a_huge_page_on_linux() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let table = TranspositionTable::new(4);
        let count = table.mask + 1;
        assert_eq!(count * 64, 4 * 1024 * 1024);
        assert_eq!(table.buckets.len(), table.first + count);
        let start = table.buckets[table.first..].as_ptr() as usize;
        if cfg!(target_os = "linux") {
            assert_eq!(start % HUGE_PAGE_BYTES, 0);
        } else {
            assert_eq!(table.first, 0);
        }
        // The last key's bucket is the last one allocated, and usable.
        table.store(u64::MAX, Move::new(1, 2), 5, 3, Bound::Exact, 0);
        assert_eq!(table.probe(u64::MAX).map(|entry| entry.score), Some(5));
    }

    #[test]
    fn a_bucket_holds_several_positions_with_the_same_index() {
        let table = TranspositionTable::new(1);
        let keys = same_bucket_keys(&table, BUCKET_SIZE);
        for (depth, &key) in keys.iter().enumerate() {
            table.store(key, Move::new(1, 2), 10, depth as i32 + 1, Bound::Exact, 0);
        }
        for (depth, &key) in keys.iter().enumerate() {
            let entry = table.probe(key).expect("every key of the bucket is kept");
            assert_eq!(entry.depth as usize, depth + 1);
        }
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry_of_this_search() {
        let table = TranspositionTable::new(1);
        let keys = same_bucket_keys(&table, BUCKET_SIZE + 1);
        let depths = [9, 2, 7, 5];
        for (&key, &depth) in keys.iter().zip(&depths) {
            table.store(key, Move::new(1, 2), 0, depth, Bound::Lower, 0);
        }
        table.store(keys[BUCKET_SIZE], Move::new(3, 4), 0, 1, Bound::Upper, 0);
        assert!(table.probe(keys[1]).is_none(), "depth 2 was the shallowest");
        for index in [0, 2, 3, BUCKET_SIZE] {
            assert!(table.probe(keys[index]).is_some(), "key {index} kept");
        }
    }

    #[test]
    fn entries_of_an_older_search_go_first_however_deep() {
        let mut table = TranspositionTable::new(1);
        let keys = same_bucket_keys(&table, BUCKET_SIZE + 1);
        table.store(keys[0], Move::new(1, 2), 0, 30, Bound::Exact, 0);
        table.new_search();
        for &key in &keys[1..BUCKET_SIZE] {
            table.store(key, Move::new(1, 2), 0, 1, Bound::Exact, 0);
        }
        table.store(keys[BUCKET_SIZE], Move::new(1, 2), 0, 1, Bound::Exact, 0);
        assert!(
            table.probe(keys[0]).is_none(),
            "the old deep entry was replaced"
        );
        assert!(table.probe(keys[BUCKET_SIZE]).is_some());
    }

    #[test]
    fn a_shallow_bound_does_not_overwrite_a_much_deeper_result_of_this_search() {
        let table = TranspositionTable::new(1);
        table.store(77, Move::new(1, 2), 50, 10, Bound::Lower, 0);
        table.store(77, Move::default(), -20, 3, Bound::Upper, 0);
        let entry = table.probe(77).unwrap();
        assert_eq!(
            (entry.depth, entry.score, entry.best),
            (10, 50, Move::new(1, 2))
        );
        // A result two plies shallower replaces it, keeping the move when it has none.
        table.store(77, Move::default(), 5, 8, Bound::Upper, 0);
        let entry = table.probe(77).unwrap();
        assert_eq!(
            (entry.depth, entry.score, entry.best),
            (8, 5, Move::new(1, 2))
        );
    }

    #[test]
    fn mate_scores_are_stored_from_the_position_and_read_back_from_the_root() {
        let table = TranspositionTable::new(1);
        let mate_in_three_plies_from_ply_four = MATE_BOUND + 500;
        table.store(
            9,
            Move::new(1, 2),
            mate_in_three_plies_from_ply_four,
            5,
            Bound::Exact,
            4,
        );
        let stored = table.probe(9).unwrap().score as i32;
        assert_eq!(
            score_from_table(stored, 4),
            mate_in_three_plies_from_ply_four
        );
        assert_eq!(
            score_from_table(stored, 2),
            mate_in_three_plies_from_ply_four + 2
        );
    }

    #[test]
    fn every_field_comes_back_as_stored_and_a_torn_entry_reads_as_absent() {
        let table = TranspositionTable::new(1);
        let key = 0xdead_beef_0123_4567;
        let best = Move {
            from: 200,
            to: 89,
            flags: Move::PROMOTE | Move::DROP,
        };
        table.store(key, best, -29_999, -1, Bound::Upper, 0);
        let entry = table.probe(key).unwrap();
        assert_eq!(
            (entry.best, entry.score, entry.depth, entry.bound, entry.age),
            (best, -29_999, -1, Bound::Upper, 0)
        );
        // Another thread's write lands between the two words: the key no longer checks out.
        let slot = table
            .bucket(key)
            .iter()
            .find(|slot| slot.read().is_some())
            .unwrap();
        slot.data.fetch_xor(1 << 30, Ordering::Relaxed);
        assert!(table.probe(key).is_none());
    }

    #[test]
    fn threads_writing_one_bucket_at_once_never_read_a_mixed_entry() {
        let table = TranspositionTable::new(1);
        // Keys as the rules make them (random bits), all in one bucket. (Keys that differ
        // only where the packed data differs could pass a torn read off as another key;
        // zobrist keys make that a 2^-64 chance.)
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let keys: Vec<u64> = (0..2 * BUCKET_SIZE)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                (state & !(table.mask as u64)) | 5
            })
            .collect();
        // Each key's entry says which key it is, in its move and its score.
        let entry_for = |index: usize| (Move::new(index as u8 + 1, index as u8), index as i32);
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let (table, keys) = (&table, &keys);
                scope.spawn(move || {
                    for round in 0..20_000 {
                        let index = (round * 7 + thread * 3) % keys.len();
                        let (best, score) = entry_for(index);
                        table.store(keys[index], best, score, round as i32 % 20, Bound::Exact, 0);
                        let probed = (round * 5 + thread) % keys.len();
                        if let Some(entry) = table.probe(keys[probed]) {
                            let (best, score) = entry_for(probed);
                            assert_eq!((entry.best, entry.score as i32), (best, score));
                        }
                    }
                });
            }
        });
    }
}
