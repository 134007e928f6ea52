//! Board geometry shared by every game: squares, names, rays and jump tables.
//!
//! A square is `rank * 9 + file`; file 0 is the first player's left (`a`),
//! rank 0 the first player's back rank (`1`). Boards are 9 files wide and 9
//! (shogi) or 10 (xiangqi, janggi) ranks deep.

use std::sync::LazyLock;

/// Files on every board.
pub const FILES: usize = 9;

/// A set of squares (90 fit in a `u128`): attack maps, legal targets and UI highlights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub u128);

impl SquareSet {
    /// No squares.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The set holding one square.
    #[inline]
    pub const fn single(square: u8) -> SquareSet {
        SquareSet(1u128 << square)
    }

    /// True when `square` is in the set.
    #[inline]
    pub const fn contains(self, square: u8) -> bool {
        (self.0 >> square) & 1 != 0
    }

    /// Adds a square.
    #[inline]
    pub fn insert(&mut self, square: u8) {
        self.0 |= 1u128 << square;
    }

    /// True when no square is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Iterates over the squares in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let square = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(square)
            }
        })
    }
}

/// The file (0 = `a`) of a square.
#[inline]
pub const fn file_of(square: u8) -> u8 {
    square % 9
}

/// The rank (0 = the first player's back rank) of a square.
#[inline]
pub const fn rank_of(square: u8) -> u8 {
    square / 9
}

/// The square at a file and rank.
#[inline]
pub const fn square_at(file: u8, rank: u8) -> u8 {
    rank * 9 + file
}

/// Fairy-Stockfish's UCI name of a square: `e2`, `a10`.
pub fn square_name(square: u8) -> String {
    format!(
        "{}{}",
        (b'a' + file_of(square)) as char,
        rank_of(square) as u32 + 1
    )
}

/// Reads a square name (`e2`, `a10`) at the start of `text` on a board of `ranks` ranks.
/// Returns the square and the number of bytes read.
pub fn parse_square_prefix(text: &str, ranks: u8) -> Option<(u8, usize)> {
    let bytes = text.as_bytes();
    let file = *bytes.first()?;
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digit = |index: usize| bytes.get(index).filter(|b| b.is_ascii_digit()).copied();
    let first = digit(1)?;
    let (rank, used) = match digit(2) {
        Some(second) if first == b'1' && second == b'0' && ranks >= 10 => (10, 3),
        _ => ((first - b'0') as u32, 2),
    };
    if rank == 0 || rank > ranks as u32 {
        return None;
    }
    Some((square_at(file - b'a', (rank - 1) as u8), used))
}

/// The four orthogonal directions as (file, rank) steps: up, down, left, right (up = towards the second player).
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// The four diagonal directions as (file, rank) steps.
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The square one step away, if it is on a board of `ranks` ranks.
#[inline]
pub const fn offset(square: u8, step: (i8, i8), ranks: u8) -> Option<u8> {
    let file = file_of(square) as i8 + step.0;
    let rank = rank_of(square) as i8 + step.1;
    if file < 0 || file >= FILES as i8 || rank < 0 || rank >= ranks as i8 {
        None
    } else {
        Some(square_at(file as u8, rank as u8))
    }
}

/// A short list of squares (a ray or a jump list), stored inline.
#[derive(Clone, Copy, Debug, Default)]
pub struct SquareRun {
    /// The squares, the first `len` are used.
    pub squares: [u8; 9],
    /// How many are used.
    pub len: u8,
}

impl SquareRun {
    /// The used squares.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }

    fn push(&mut self, square: u8) {
        self.squares[self.len as usize] = square;
        self.len += 1;
    }
}

/// A jump that can be blocked: the target and the square(s) that must be empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockableJump {
    /// Where the piece lands.
    pub target: u8,
    /// The first square that must be empty.
    pub block: u8,
    /// A second square that must be empty (janggi elephant); equal to `block` when there is only one.
    pub block2: u8,
}

/// Precomputed rays and jumps for a board of a given depth.
pub struct BoardTables {
    /// `rays[square][direction]`: the squares in each orthogonal direction, nearest first.
    pub rays: Vec<[SquareRun; 4]>,
    /// Horse moves from each square (orthogonal leg, then one diagonal step outwards).
    pub horse_moves: Vec<Vec<BlockableJump>>,
    /// For each square, where an attacking horse may stand and the leg it needs empty
    /// (`target` is the horse's square, `block` the leg).
    pub horse_attackers: Vec<Vec<BlockableJump>>,
}

fn build_tables(ranks: u8) -> BoardTables {
    let squares = FILES as u8 * ranks;
    let mut rays = Vec::with_capacity(squares as usize);
    let mut horse_moves = vec![Vec::new(); squares as usize];
    let mut horse_attackers = vec![Vec::new(); squares as usize];
    for square in 0..squares {
        let mut square_rays = [SquareRun::default(); 4];
        for (direction, step) in ORTHOGONAL.iter().enumerate() {
            let mut current = square;
            while let Some(next) = offset(current, *step, ranks) {
                square_rays[direction].push(next);
                current = next;
            }
        }
        rays.push(square_rays);
        for orthogonal in ORTHOGONAL {
            let Some(leg) = offset(square, orthogonal, ranks) else {
                continue;
            };
            for diagonal in DIAGONAL {
                // Outwards: the diagonal keeps the orthogonal component.
                if (orthogonal.0 != 0 && diagonal.0 != orthogonal.0)
                    || (orthogonal.1 != 0 && diagonal.1 != orthogonal.1)
                {
                    continue;
                }
                if let Some(target) = offset(leg, diagonal, ranks) {
                    horse_moves[square as usize].push(BlockableJump {
                        target,
                        block: leg,
                        block2: leg,
                    });
                    horse_attackers[target as usize].push(BlockableJump {
                        target: square,
                        block: leg,
                        block2: leg,
                    });
                }
            }
        }
    }
    BoardTables {
        rays,
        horse_moves,
        horse_attackers,
    }
}

/// Tables for the 9×10 boards of xiangqi and janggi.
pub static TABLES_9X10: LazyLock<BoardTables> = LazyLock::new(|| build_tables(10));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for square in 0..90u8 {
            let name = square_name(square);
            assert_eq!(parse_square_prefix(&name, 10), Some((square, name.len())));
        }
        assert_eq!(parse_square_prefix("a10a9", 10), Some((81, 3)));
        assert_eq!(parse_square_prefix("a10", 9), Some((0, 2)));
        assert_eq!(parse_square_prefix("j1", 10), None);
        assert_eq!(parse_square_prefix("a0", 10), None);
    }

    #[test]
    fn horse_in_corner_has_two_moves() {
        assert_eq!(TABLES_9X10.horse_moves[0].len(), 2);
        assert_eq!(TABLES_9X10.horse_moves[square_at(4, 4) as usize].len(), 8);
    }
}
