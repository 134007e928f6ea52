//! What xiangqi and janggi share: a 9×10 board of piece codes (numbered as in
//! [`super::xiangqi::kind`]), its FEN fields, the piece-count check, the lines a chariot
//! or cannon reads its reach off, the loop over a side's pieces that every move generator
//! runs ([`moves_of_pieces`]), and the make-look-unmake step of the king-safety tests.

use super::fen::parse_counter;
use super::geometry::{file_of, parse_square_prefix, rank_of, square_name, ORTHOGONAL};
use super::xiangqi::{kind_of, owner};
use super::{FenError, Move, MoveList, Side};

/// The squares beyond each square of a 9×10 board in each of the four line directions
/// (east, north, west, south), nearest first in index order for east and north, one bit
/// per square: a line piece's reach is read off these and the occupancy.
pub static LINES: [[u128; 90]; 4] = line_table();

/// Builds [`LINES`] at compile time.
const fn line_table() -> [[u128; 90]; 4] {
    let mut table = [[0u128; 90]; 4];
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let mut direction = 0;
    while direction < 4 {
        let mut square = 0;
        while square < 90 {
            let (df, dr) = steps[direction];
            let mut file = (square % 9) as i32 + df;
            let mut rank = (square / 9) as i32 + dr;
            let mut set = 0u128;
            while file >= 0 && file < 9 && rank >= 0 && rank < 10 {
                set |= 1u128 << (rank * 9 + file);
                file += df;
                rank += dr;
            }
            table[direction][square] = set;
            square += 1;
        }
        direction += 1;
    }
    table
}

/// The nearest occupied square of `blockers` along `direction` (0 east and 1 north run
/// up the square numbers, 2 west and 3 south down them).
#[inline]
pub fn nearest(blockers: u128, direction: usize) -> Option<u8> {
    if blockers == 0 {
        None
    } else if direction < 2 {
        Some(blockers.trailing_zeros() as u8)
    } else {
        Some(127 - blockers.leading_zeros() as u8)
    }
}

/// The nearest piece of `occupied` from `square` (not itself) along `direction`: the
/// first piece a chariot or a cannon on `square` meets on that file or rank.
#[inline(always)]
pub fn nearest_on_line(occupied: u128, square: u8, direction: usize) -> Option<u8> {
    nearest(LINES[direction][square as usize] & occupied, direction)
}

/// A 9×10 game's move generation one piece at a time: what [`moves_of_pieces`] needs to
/// list the side to move's moves in the one loop xiangqi and janggi share.
pub(super) trait PieceMoves {
    /// The game's move tables, fetched once for a whole generation (not once a piece).
    type Tables;

    /// This game's move tables.
    fn move_tables() -> Self::Tables;

    /// The squares of the side to move's pieces.
    fn pieces_to_move(&self) -> u128;

    /// Hands `push` every pseudo-legal move of the side to move's piece on `from`,
    /// walking only the line rays `ray_wanted` accepts.
    fn piece_moves(
        &self,
        tables: &Self::Tables,
        from: u8,
        ray_wanted: impl Fn(usize) -> bool,
        push: impl FnMut(Move),
    );
}

/// Appends the side to move's pseudo-legal moves, piece by piece in square order:
/// `rays_of(from)` says which of a piece's rays to walk (`None` skips the piece) and
/// `keep` which of its moves to append. Every generator of both games runs through it,
/// so the captures alone, or the moves onto one square, come in the full list's order.
#[inline(always)]
pub(super) fn moves_of_pieces<P: PieceMoves, Rays: Fn(usize) -> bool, const CAPACITY: usize>(
    position: &P,
    moves: &mut MoveList<CAPACITY>,
    rays_of: impl Fn(u8) -> Option<Rays>,
    keep: impl Fn(Move) -> bool,
) {
    let tables = P::move_tables();
    let mut pieces = position.pieces_to_move();
    while pieces != 0 {
        let from = pieces.trailing_zeros() as u8;
        pieces &= pieces - 1;
        let Some(ray_wanted) = rays_of(from) else {
            continue;
        };
        position.piece_moves(&tables, from, ray_wanted, |mv| {
            if keep(mv) {
                moves.push(mv);
            }
        });
    }
}

/// Whether a piece on `from` may reach `to` at all, by geometry alone: a slider (chariot
/// or cannon) anywhere on the same file or rank, and any piece within `reach` squares in
/// both directions. A cheap test before generating one piece's moves toward one square.
#[inline]
pub fn within_reach(from: u8, to: u8, slider: bool, reach: u8) -> bool {
    let files = file_of(from).abs_diff(file_of(to));
    let ranks = rank_of(from).abs_diff(rank_of(to));
    (slider && (files == 0 || ranks == 0)) || files.max(ranks) <= reach
}

/// The index in [`ORTHOGONAL`] (and so in `BoardTables::rays` of a square) of the
/// direction from `from` toward `to` along a file or rank; `None` when they share
/// neither. Not the order of [`nearest`]'s directions.
#[inline]
pub fn orthogonal_direction(from: u8, to: u8) -> Option<usize> {
    let step = (
        (file_of(to) as i8 - file_of(from) as i8).signum(),
        (rank_of(to) as i8 - rank_of(from) as i8).signum(),
    );
    if from == to || (step.0 != 0 && step.1 != 0) {
        return None;
    }
    ORTHOGONAL.iter().position(|&direction| direction == step)
}

/// Splits a 9×10 FEN into placement, side and the two counters (defaults when missing).
pub fn split_fen(fen: &str) -> Result<(&str, Side, u32, u32), FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(&placement) = fields.first() else {
        return Err(FenError::new("empty FEN"));
    };
    let side = match fields.get(1).copied() {
        None | Some("w") | Some("r") => Side::First,
        Some("b") => Side::Second,
        Some(other) => {
            return Err(FenError::new(format!(
                "side to move '{other}' is not w or b"
            )))
        }
    };
    // Fields 3 and 4 (castling, en passant) may be missing when a number follows.
    let mut rest = &fields[fields.len().min(2)..];
    while let Some(first) = rest.first() {
        if first.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        if *first == "-" || rest.len() > 2 {
            rest = &rest[1..];
        } else {
            return Err(FenError::new(format!("unexpected field '{first}'")));
        }
    }
    let halfmove = match rest.first() {
        Some(text) => parse_counter(text, "halfmove clock")?,
        None => 0,
    };
    let fullmove = match rest.get(1) {
        Some(text) => parse_counter(text, "fullmove number")?.max(1),
        None => 1,
    };
    if rest.len() > 2 {
        return Err(FenError::new(format!("unexpected field '{}'", rest[2])));
    }
    Ok((placement, side, halfmove, fullmove))
}

/// How many pieces of each kind (by kind number) one side has in a full set: one king,
/// two advisors, elephants, horses, chariots and cannons, five soldiers (xiangqi and
/// janggi alike).
const SET_LIMITS: [usize; 8] = [0, 1, 2, 2, 2, 2, 2, 5];

/// The kinds' names in errors, by kind number.
const KIND_PLURALS: [&str; 8] = [
    "",
    "kings",
    "advisors",
    "elephants",
    "horses",
    "chariots",
    "cannons",
    "soldiers",
];

/// Refuses a board with more pieces of a kind for a side than a set has; `names` are
/// the sides' names, first player first.
pub fn check_piece_counts(board: &[u8; 90], names: [&str; 2]) -> Result<(), FenError> {
    let mut counts = [[0usize; 8]; 2];
    for &code in board.iter().filter(|&&code| code != 0) {
        let kind = usize::from(kind_of(code)).min(7);
        counts[owner(code).index()][kind] += 1;
    }
    for (side, name) in names.iter().enumerate() {
        for kind in 1..8 {
            if counts[side][kind] > SET_LIMITS[kind] {
                return Err(FenError::new(format!(
                    "{name} has {} {} (a set has {})",
                    counts[side][kind], KIND_PLURALS[kind], SET_LIMITS[kind]
                )));
            }
        }
    }
    Ok(())
}

/// Runs `look` on `board` with `mv` made on it (the piece on `from` moved to `to`,
/// whatever stood there taken), then puts the board back as it was. The legality
/// filters ask their "is my king attacked now?" this way, without copying a position.
#[inline]
pub fn with_move_made<R>(board: &mut [u8; 90], mv: Move, look: impl FnOnce(&[u8; 90]) -> R) -> R {
    let moving = board[mv.from as usize];
    let captured = board[mv.to as usize];
    board[mv.to as usize] = moving;
    board[mv.from as usize] = 0;
    let answer = look(board);
    board[mv.from as usize] = moving;
    board[mv.to as usize] = captured;
    answer
}

/// True when `first` and `second` stand on one file with nothing between them: the
/// kings "face" (flying general in xiangqi, bikjang in janggi).
#[inline]
pub fn open_file_between(board: &[u8; 90], first: u8, second: u8) -> bool {
    if file_of(first) != file_of(second) {
        return false;
    }
    let (low, high) = if first < second {
        (first, second)
    } else {
        (second, first)
    };
    let mut square = low + 9;
    while square < high {
        if board[square as usize] != 0 {
            return false;
        }
        square += 9;
    }
    true
}

/// Reads a board move in Fairy-Stockfish UCI form (`h3e3`, `a10a9`; janggi's pass is a
/// move to its own square, `e2e2`). Not yet checked against a position.
pub fn parse_board_move(text: &str) -> Option<Move> {
    let (from, used) = parse_square_prefix(text, 10)?;
    let (to, used_to) = parse_square_prefix(&text[used..], 10)?;
    (used + used_to == text.len()).then(|| Move::new(from, to))
}

/// Writes a board move the way [`parse_board_move`] reads it.
pub fn board_move_name(mv: Move) -> String {
    format!("{}{}", square_name(mv.from), square_name(mv.to))
}
