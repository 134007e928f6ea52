//! The transposition table: what earlier searches learned about a position, keyed
//! by the rules' zobrist hash, so transpositions and the next iteration reuse it.

use super::eval::MATE_BOUND;
use crate::rules::Move;

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

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
pub const BUCKET_SIZE: usize = 4;

/// A fixed-size, always-allocated table of buckets, indexed by the low bits of the key.
///
/// A key may live in any entry of its bucket. A new position replaces the bucket's least
/// valuable entry: an empty one, else one left by an older search, else the shallowest,
/// so deep results of the current search survive the flood of shallow ones.
pub struct TranspositionTable {
    buckets: Vec<[Entry; BUCKET_SIZE]>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power of two buckets; at least 1 MB).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.clamp(1, 4096) * 1024 * 1024;
        let wanted = bytes / std::mem::size_of::<[Entry; BUCKET_SIZE]>();
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        TranspositionTable {
            buckets: vec![[Entry::default(); BUCKET_SIZE]; count],
            mask: count - 1,
            age: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); BUCKET_SIZE]);
    }

    /// Marks the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The entry for `key`, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[key as usize & self.mask]
            .iter()
            .find(|entry| entry.bound != Bound::Empty && entry.key == key)
            .copied()
    }

    /// Stores a search result; `ply` converts mate scores to "from this position".
    ///
    /// An entry already held for `key` is overwritten unless it is deeper by more than
    /// two plies, of this search, and the new result is not exact; its move is kept when
    /// the new result has none.
    #[inline]
    pub fn store(&mut self, key: u64, best: Move, score: i32, depth: i32, bound: Bound, ply: i32) {
        let age = self.age;
        let bucket = &mut self.buckets[key as usize & self.mask];
        let same = bucket
            .iter()
            .position(|entry| entry.bound != Bound::Empty && entry.key == key);
        let index = match same {
            Some(index) => {
                let slot = &bucket[index];
                let replace =
                    slot.age != age || bound == Bound::Exact || depth + 2 >= slot.depth as i32;
                if !replace {
                    return;
                }
                index
            }
            None => {
                // The least valuable entry: empty, else older searches', else shallowest.
                let worth = |entry: &Entry| -> i32 {
                    if entry.bound == Bound::Empty {
                        return i32::MIN;
                    }
                    let stale = if entry.age != age { 256 } else { 0 };
                    entry.depth as i32 - stale
                };
                let mut victim = 0;
                for index in 1..BUCKET_SIZE {
                    if worth(&bucket[index]) < worth(&bucket[victim]) {
                        victim = index;
                    }
                }
                victim
            }
        };
        let slot = &mut bucket[index];
        let best = if best == Move::default() && same.is_some() {
            slot.best
        } else {
            best
        };
        *slot = Entry {
            key,
            best,
            score: score_to_table(score, ply) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age,
        };
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
    fn a_bucket_holds_several_positions_with_the_same_index() {
        let mut table = TranspositionTable::new(1);
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
        let mut table = TranspositionTable::new(1);
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
        let mut table = TranspositionTable::new(1);
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
        let mut table = TranspositionTable::new(1);
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
}
