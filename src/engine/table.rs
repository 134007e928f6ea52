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

/// A fixed-size, always-allocated table of entries, indexed by the low bits of the key.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power of two entries; at least 1 MB).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.clamp(1, 4096) * 1024 * 1024;
        let wanted = bytes / std::mem::size_of::<Entry>();
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        TranspositionTable {
            entries: vec![Entry::default(); count],
            mask: count - 1,
            age: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// Marks the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The entry for `key`, if one is stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask];
        (entry.bound != Bound::Empty && entry.key == key).then_some(entry)
    }

    /// Stores a search result; `ply` converts mate scores to "from this position".
    #[inline]
    pub fn store(&mut self, key: u64, best: Move, score: i32, depth: i32, bound: Bound, ply: i32) {
        let slot = &mut self.entries[key as usize & self.mask];
        let replace = slot.key != key
            || slot.age != self.age
            || bound == Bound::Exact
            || depth + 2 >= slot.depth as i32;
        if !replace {
            return;
        }
        let best = if best == Move::default() && slot.key == key {
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
            age: self.age,
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
