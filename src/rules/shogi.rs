//! Shogi: the board, pieces in hand, move generation (promotion, drops, nifu,
//! dead pieces, uchifuzume) and positions in SFEN and Fairy-Stockfish FEN form.
//!
//! Sennichite and impasse claims need the game's history and live in
//! [`super::game`]; this module answers questions about one position.
//! Squares are `rank * 9 + file` as everywhere in qipan: rank 0 is Sente's
//! back rank (shogi rank `i`), file 0 is file `a` (shogi file 9).

use super::fen::{parse_counter, parse_placement, write_placement};
use super::geometry::{file_of, offset, parse_square_prefix, rank_of, square_at, square_name};
use super::zobrist;
use super::{FenError, IllegalMove, Move, MoveList, Position, Side};
use std::sync::LazyLock;

/// Piece kinds: the low four bits of a piece code. Hand kinds are `PAWN..=ROOK`.
pub mod kind {
    /// Pawn (歩).
    pub const PAWN: u8 = 1;
    /// Lance (香).
    pub const LANCE: u8 = 2;
    /// Knight (桂).
    pub const KNIGHT: u8 = 3;
    /// Silver general (銀).
    pub const SILVER: u8 = 4;
    /// Gold general (金).
    pub const GOLD: u8 = 5;
    /// Bishop (角).
    pub const BISHOP: u8 = 6;
    /// Rook (飛).
    pub const ROOK: u8 = 7;
    /// King (玉/王).
    pub const KING: u8 = 8;
    /// Promoted pawn, tokin (と).
    pub const PROMOTED_PAWN: u8 = 9;
    /// Promoted lance (杏).
    pub const PROMOTED_LANCE: u8 = 10;
    /// Promoted knight (圭).
    pub const PROMOTED_KNIGHT: u8 = 11;
    /// Promoted silver (全).
    pub const PROMOTED_SILVER: u8 = 12;
    /// Horse, the promoted bishop (馬).
    pub const HORSE: u8 = 13;
    /// Dragon, the promoted rook (龍).
    pub const DRAGON: u8 = 14;
}

use kind::*;

/// Added to a kind to make Gote's piece code.
pub const SECOND: u8 = 16;

/// The bits of a piece code that hold the kind.
const KIND_BITS: u8 = 15;

/// The hand kinds in SFEN writing order (R B G S N L P).
pub const HAND_KINDS: [u8; 7] = [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN];

/// Fairy-Stockfish's order of hand pieces inside the FEN brackets (`[GNLPSRB…]`).
const FAIRY_HAND_ORDER: [u8; 7] = [GOLD, KNIGHT, LANCE, PAWN, SILVER, ROOK, BISHOP];

/// How many of each unpromoted kind a set holds (index = kind; the king is checked apart).
const SET_COUNTS: [u32; 8] = [0, 18, 4, 4, 4, 4, 2, 2];

/// Plural names of the hand kinds, for error messages (index = kind).
const KIND_PLURALS: [&str; 8] = [
    "", "pawns", "lances", "knights", "silvers", "golds", "bishops", "rooks",
];

/// Uppercase letters of the unpromoted kinds (index = kind; index 0 unused).
const LETTERS: [char; 9] = ['?', 'P', 'L', 'N', 'S', 'G', 'B', 'R', 'K'];

/// The standard start position in SFEN.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The standard start position in Fairy-Stockfish FEN form.
pub const START_FEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";

/// The piece code of a kind for a side.
#[inline]
pub const fn piece(side: Side, kind: u8) -> u8 {
    match side {
        Side::First => kind,
        Side::Second => kind | SECOND,
    }
}

/// The side owning a (non-empty) piece code.
#[inline]
pub const fn owner(code: u8) -> Side {
    if code & SECOND != 0 {
        Side::Second
    } else {
        Side::First
    }
}

/// The kind of a piece code.
#[inline]
pub const fn kind_of(code: u8) -> u8 {
    code & KIND_BITS
}

/// The kind a piece becomes when it promotes; `None` for gold, king and promoted pieces.
#[inline]
pub const fn promoted(kind: u8) -> Option<u8> {
    match kind {
        PAWN => Some(PROMOTED_PAWN),
        LANCE => Some(PROMOTED_LANCE),
        KNIGHT => Some(PROMOTED_KNIGHT),
        SILVER => Some(PROMOTED_SILVER),
        BISHOP => Some(HORSE),
        ROOK => Some(DRAGON),
        _ => None,
    }
}

/// The kind a piece turns back into when captured (promoted pieces go to hand unpromoted).
#[inline]
pub const fn unpromoted(kind: u8) -> u8 {
    match kind {
        PROMOTED_PAWN => PAWN,
        PROMOTED_LANCE => LANCE,
        PROMOTED_KNIGHT => KNIGHT,
        PROMOTED_SILVER => SILVER,
        HORSE => BISHOP,
        DRAGON => ROOK,
        other => other,
    }
}

/// The SFEN letters of a piece code: `p`, `K`, `+P`, `+b` (lowercase for Gote).
pub fn piece_letter(code: u8) -> String {
    let kind = kind_of(code);
    let base = unpromoted(kind);
    let letter = LETTERS.get(base as usize).copied().unwrap_or('?');
    let letter = if owner(code) == Side::Second {
        letter.to_ascii_lowercase()
    } else {
        letter
    };
    if kind != base {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

/// Reads a placement letter (uppercase = Sente) with an optional preceding `+` into a piece code.
pub fn piece_from_letter(letter: char, promote: bool) -> Option<u8> {
    let base = match letter.to_ascii_uppercase() {
        'K' => KING,
        other => hand_kind_from_letter(other)?,
    };
    let kind = if promote { promoted(base)? } else { base };
    let side = if letter.is_ascii_uppercase() {
        Side::First
    } else {
        Side::Second
    };
    Some(piece(side, kind))
}

/// Reads a hand piece letter (P L N S G B R, either case) into a hand kind.
pub fn hand_kind_from_letter(letter: char) -> Option<u8> {
    match letter.to_ascii_uppercase() {
        'P' => Some(PAWN),
        'L' => Some(LANCE),
        'N' => Some(KNIGHT),
        'S' => Some(SILVER),
        'G' => Some(GOLD),
        'B' => Some(BISHOP),
        'R' => Some(ROOK),
        _ => None,
    }
}

/// The uppercase letter of a hand kind (`P` … `R`), as drops are written in both notations.
pub fn hand_letter(hand_kind: u8) -> char {
    LETTERS.get(hand_kind as usize).copied().unwrap_or('?')
}

/// The English name of a side as used in error messages.
const fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Sente",
        Side::Second => "Gote",
    }
}

/// The USI name of a square: file digit (9 = file `a`) then rank letter (`a` = the top rank).
pub fn usi_square_name(square: u8) -> String {
    format!(
        "{}{}",
        9 - file_of(square),
        (b'a' + 8 - rank_of(square)) as char
    )
}

/// Reads a USI square (`7g`) from two bytes.
fn parse_usi_square(file: u8, rank: u8) -> Option<u8> {
    if !(b'1'..=b'9').contains(&file) || !(b'a'..=b'i').contains(&rank) {
        return None;
    }
    Some(square_at(9 - (file - b'0'), 8 - (rank - b'a')))
}

// ---------------------------------------------------------------------------
// Precomputed tables
// ---------------------------------------------------------------------------

/// Squares on the board.
const SQUARE_COUNT: usize = 81;
/// Every square of the board as a bit set.
const BOARD_MASK: u128 = (1u128 << SQUARE_COUNT) - 1;
/// "No square": never equal to a real square.
const NO_SQUARE: u8 = u8::MAX;

/// The eight directions as (file, rank) steps; `direction ^ 1` is the opposite one.
/// Order: north (towards Gote), south, west, east, north-east, south-west, north-west, south-east.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (-1, 0),
    (1, 0),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];
/// Directions along which square indices increase (north, east, north-east, north-west).
const INCREASING_DIRECTIONS: u8 = 0b0101_1001;
const NORTH: u8 = 1;
const ORTHOGONALS: u8 = 0b0000_1111;
const DIAGONALS: u8 = 0b1111_0000;
const NORTH_EAST: u8 = 16;
const NORTH_WEST: u8 = 64;
/// Gold movement for Sente: orthogonal steps plus the two forward diagonals.
const GOLD_STEPS: u8 = ORTHOGONALS | NORTH_EAST | NORTH_WEST;
/// Silver movement for Sente: forward, and the four diagonals.
const SILVER_STEPS: u8 = NORTH | DIAGONALS;

/// Mirrors a set of Sente directions into Gote's (north ↔ south).
const fn mirror_directions(directions: u8) -> u8 {
    const MIRRORED: [u8; 8] = [1, 0, 2, 3, 7, 6, 5, 4];
    let mut out = 0;
    let mut direction = 0;
    while direction < 8 {
        if directions & (1 << direction) != 0 {
            out |= 1 << MIRRORED[direction];
        }
        direction += 1;
    }
    out
}

/// The single bit of a square.
#[inline(always)]
const fn bit(square: u8) -> u128 {
    1u128 << square
}

/// The nearest square of a non-empty set along a direction (the set lies on one ray).
#[inline(always)]
fn nearest(direction: usize, set: u128) -> u8 {
    if INCREASING_DIRECTIONS & (1 << direction) != 0 {
        set.trailing_zeros() as u8
    } else {
        (127 - set.leading_zeros()) as u8
    }
}

struct ShogiTables {
    /// `rays[square][direction]`: every square from `square` outwards, `square` excluded.
    rays: [[u128; 8]; SQUARE_COUNT],
    /// `neighbour[square][direction]`: the adjacent square, or [`NO_SQUARE`].
    neighbour: [[u8; 8]; SQUARE_COUNT],
    /// `steps[code][square]`: the squares a piece reaches in one non-sliding step (knight jumps included).
    steps: [[u128; SQUARE_COUNT]; 32],
    /// Directions in which a piece code steps one square.
    step_directions: [u8; 32],
    /// Directions in which a piece code slides any distance.
    slide_directions: [u8; 32],
    /// The promotion zone (the enemy camp) of each side.
    zone: [u128; 2],
    /// Each side's last rank (pawns and lances must promote there).
    last_rank: [u128; 2],
    /// Each side's last two ranks (knights must promote there).
    last_two_ranks: [u128; 2],
    /// `drop_area[side][kind]`: where a piece of that kind may be dropped (dead squares removed).
    drop_area: [[u128; 8]; 2],
    /// `files[set]`: every square on the files in a 9-bit set of files.
    files: [u128; 512],
}

static TABLES: LazyLock<Box<ShogiTables>> = LazyLock::new(build_tables);

fn build_tables() -> Box<ShogiTables> {
    let mut tables = Box::new(ShogiTables {
        rays: [[0; 8]; SQUARE_COUNT],
        neighbour: [[NO_SQUARE; 8]; SQUARE_COUNT],
        steps: [[0; SQUARE_COUNT]; 32],
        step_directions: [0; 32],
        slide_directions: [0; 32],
        zone: [0; 2],
        last_rank: [0; 2],
        last_two_ranks: [0; 2],
        drop_area: [[0; 8]; 2],
        files: [0; 512],
    });
    for square in 0..SQUARE_COUNT as u8 {
        for (direction, &step) in DIRECTIONS.iter().enumerate() {
            let mut current = square;
            while let Some(next) = offset(current, step, 9) {
                tables.rays[square as usize][direction] |= bit(next);
                if current == square {
                    tables.neighbour[square as usize][direction] = next;
                }
                current = next;
            }
        }
    }
    for side in [Side::First, Side::Second] {
        let orient = |directions: u8| match side {
            Side::First => directions,
            Side::Second => mirror_directions(directions),
        };
        for kind in PAWN..=DRAGON {
            let code = piece(side, kind) as usize;
            let (steps, slides) = match kind {
                PAWN => (NORTH, 0),
                LANCE => (0, NORTH),
                SILVER => (SILVER_STEPS, 0),
                GOLD | PROMOTED_PAWN | PROMOTED_LANCE | PROMOTED_KNIGHT | PROMOTED_SILVER => {
                    (GOLD_STEPS, 0)
                }
                BISHOP => (0, DIAGONALS),
                ROOK => (0, ORTHOGONALS),
                KING => (ORTHOGONALS | DIAGONALS, 0),
                HORSE => (ORTHOGONALS, DIAGONALS),
                DRAGON => (DIAGONALS, ORTHOGONALS),
                _ => (0, 0), // knight: jumps, below
            };
            tables.step_directions[code] = orient(steps);
            tables.slide_directions[code] = orient(slides);
            let forward: i8 = if side == Side::First { 1 } else { -1 };
            for square in 0..SQUARE_COUNT as u8 {
                let mut targets = 0;
                for (direction, &step) in DIRECTIONS.iter().enumerate() {
                    if tables.step_directions[code] & (1 << direction) != 0 {
                        if let Some(to) = offset(square, step, 9) {
                            targets |= bit(to);
                        }
                    }
                }
                if kind == KNIGHT {
                    for sideways in [-1, 1] {
                        if let Some(to) = offset(square, (sideways, 2 * forward), 9) {
                            targets |= bit(to);
                        }
                    }
                }
                tables.steps[code][square as usize] = targets;
            }
        }
        for square in 0..SQUARE_COUNT as u8 {
            // Ranks counted from the side's own back rank: 0 (own) .. 8 (the enemy's back rank).
            let depth = match side {
                Side::First => rank_of(square),
                Side::Second => 8 - rank_of(square),
            };
            let index = side.index();
            if depth >= 6 {
                tables.zone[index] |= bit(square);
            }
            if depth == 8 {
                tables.last_rank[index] |= bit(square);
            }
            if depth >= 7 {
                tables.last_two_ranks[index] |= bit(square);
            }
        }
        let index = side.index();
        for kind in PAWN..=ROOK {
            tables.drop_area[index][kind as usize] = match kind {
                PAWN | LANCE => BOARD_MASK & !tables.last_rank[index],
                KNIGHT => BOARD_MASK & !tables.last_two_ranks[index],
                _ => BOARD_MASK,
            };
        }
    }
    for set in 0..512usize {
        let mut squares = 0;
        for square in 0..SQUARE_COUNT as u8 {
            if set & (1 << file_of(square)) != 0 {
                squares |= bit(square);
            }
        }
        tables.files[set] = squares;
    }
    tables
}

/// Where move generation sends its moves: a list, or a counter (perft's last level).
trait MoveSink {
    /// Takes a drop of `hand_kind` on every square of `targets`.
    fn add_drops(&mut self, hand_kind: u8, targets: u128);
    /// Takes a move from `from` to every square of `targets`, promoting when `promote` is true.
    fn add_moves(&mut self, from: u8, targets: u128, promote: bool);
}

impl MoveSink for MoveList {
    #[inline]
    fn add_drops(&mut self, hand_kind: u8, mut targets: u128) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.push(Move::drop(hand_kind, to));
        }
    }

    #[inline]
    fn add_moves(&mut self, from: u8, mut targets: u128, promote: bool) {
        let flags = if promote { Move::PROMOTE } else { 0 };
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.push(Move { from, to, flags });
        }
    }
}

/// Counts moves without storing them.
struct MoveCounter(u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn add_drops(&mut self, _hand_kind: u8, targets: u128) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline]
    fn add_moves(&mut self, _from: u8, targets: u128, _promote: bool) {
        self.0 += targets.count_ones() as u64;
    }
}

// ---------------------------------------------------------------------------
// The position
// ---------------------------------------------------------------------------

/// A shogi position: board, both hands, side to move and the ply counters.
#[derive(Clone, PartialEq, Eq)]
pub struct ShogiPosition {
    board: [u8; SQUARE_COUNT],
    occupied: [u128; 2],
    /// `hands[side][hand kind]`, kinds `PAWN..=ROOK` (index 0 unused).
    hands: [[u8; 8]; 2],
    kings: [u8; 2],
    /// Per side, the files (bit = file index) holding an unpromoted pawn: the nifu test.
    pawn_files: [u16; 2],
    side: Side,
    /// Plies played before this position (SFEN move number − 1).
    ply: u32,
    plies_since_capture: u32,
    hash: u64,
}

impl std::fmt::Debug for ShogiPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ShogiPosition({})", self.sfen())
    }
}

impl Default for ShogiPosition {
    fn default() -> Self {
        Self::start()
    }
}

/// Reads a hand field (`2Pb`, letters repeated or counted); `-` and the empty text mean no pieces.
fn parse_hand(text: &str) -> Result<[[u8; 8]; 2], FenError> {
    let mut hands = [[0u8; 8]; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(digit) = c.to_digit(10) {
            count = Some(count.unwrap_or(0).saturating_mul(10).saturating_add(digit));
            continue;
        }
        let Some(hand_kind) = hand_kind_from_letter(c) else {
            return Err(FenError::new(format!("hand: unknown piece '{c}'")));
        };
        let number = count.take().unwrap_or(1);
        if number == 0 {
            return Err(FenError::new(format!("hand: count 0 before '{c}'")));
        }
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        let total = (hands[side.index()][hand_kind as usize] as u32).saturating_add(number);
        if total > SET_COUNTS[hand_kind as usize] {
            return Err(FenError::new(format!(
                "hand: {total} {} for {} (a set has {})",
                KIND_PLURALS[hand_kind as usize],
                side_name(side),
                SET_COUNTS[hand_kind as usize]
            )));
        }
        hands[side.index()][hand_kind as usize] = total as u8;
    }
    if count.is_some() {
        return Err(FenError::new("hand: a count must be followed by a piece"));
    }
    Ok(hands)
}

/// Reads the board field with shogi letters.
fn parse_board(text: &str) -> Result<[u8; SQUARE_COUNT], FenError> {
    let cells = parse_placement(text, 9, &piece_from_letter)?;
    let mut board = [0u8; SQUARE_COUNT];
    if cells.len() != SQUARE_COUNT {
        return Err(FenError::new("board has the wrong size"));
    }
    board.copy_from_slice(&cells);
    Ok(board)
}

impl ShogiPosition {
    /// The standard start position (平手), Sente to move.
    pub fn start() -> ShogiPosition {
        Self::from_sfen(START_SFEN).expect("the start position is valid")
    }

    /// Reads a USI SFEN (`<board> b - 1`; `b` = Sente). A leading `sfen` word and the
    /// word `startpos` are accepted; the hand and the move number may be missing.
    pub fn from_sfen(text: &str) -> Result<ShogiPosition, FenError> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.first() == Some(&"sfen") {
            fields.remove(0);
        }
        if fields.as_slice() == ["startpos"] {
            return Ok(Self::start());
        }
        let Some(&placement) = fields.first() else {
            return Err(FenError::new("empty SFEN"));
        };
        let board = parse_board(placement)?;
        let side = match fields.get(1).copied() {
            None | Some("b") => Side::First,
            Some("w") => Side::Second,
            Some(other) => {
                return Err(FenError::new(format!(
                    "side to move '{other}' is not b or w"
                )))
            }
        };
        let hands = parse_hand(fields.get(2).copied().unwrap_or("-"))?;
        let move_number = match fields.get(3) {
            Some(text) => parse_counter(text, "move number")?.max(1),
            None => 1,
        };
        if let Some(extra) = fields.get(4) {
            return Err(FenError::new(format!("unexpected field '{extra}'")));
        }
        Self::from_parts(board, hands, side, move_number - 1, 0)
    }

    /// Reads a Fairy-Stockfish FEN (`<board>[PPb] w - - 0 1`; `w` = Sente). The hand may be
    /// `[]` or `[-]`; the castling and en-passant fields and both counters may be missing.
    pub fn from_fen(text: &str) -> Result<ShogiPosition, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = fields.first() else {
            return Err(FenError::new("empty FEN"));
        };
        let (placement, hand) = match first.find('[') {
            Some(open) => {
                let Some(inner) = first[open + 1..].strip_suffix(']') else {
                    return Err(FenError::new("hand: missing ']' after the pieces in hand"));
                };
                let placement = &first[..open];
                (placement.strip_suffix('/').unwrap_or(placement), inner)
            }
            None => (first, ""),
        };
        let board = parse_board(placement)?;
        let hands = parse_hand(hand)?;
        let side = match fields.get(1).copied() {
            None | Some("w") => Side::First,
            Some("b") => Side::Second,
            Some(other) => {
                return Err(FenError::new(format!(
                    "side to move '{other}' is not w or b"
                )))
            }
        };
        let mut index = 2;
        while index < 4 && fields.get(index) == Some(&"-") {
            index += 1;
        }
        let halfmove = match fields.get(index) {
            Some(text) => parse_counter(text, "halfmove clock")?,
            None => 0,
        };
        let fullmove = match fields.get(index + 1) {
            Some(text) => parse_counter(text, "fullmove number")?.max(1),
            None => 1,
        };
        if let Some(extra) = fields.get(index + 2) {
            return Err(FenError::new(format!("unexpected field '{extra}'")));
        }
        let ply = (fullmove - 1)
            .saturating_mul(2)
            .saturating_add(u32::from(side == Side::Second));
        Self::from_parts(board, hands, side, ply, halfmove)
    }

    /// Reads either form: a `[` after the board (or five or more fields) means a
    /// Fairy-Stockfish FEN, anything else an SFEN (`startpos` and `sfen …` included).
    pub fn from_any(text: &str) -> Result<ShogiPosition, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        match fields.first() {
            Some(first) if first.contains('[') || (fields.len() >= 5 && *first != "sfen") => {
                Self::from_fen(text)
            }
            _ => Self::from_sfen(text),
        }
    }

    /// Builds and validates a position: one king each, no dead piece, no nifu, no more
    /// pieces than a set holds, and the side that just moved not left in check.
    fn from_parts(
        board: [u8; SQUARE_COUNT],
        hands: [[u8; 8]; 2],
        side: Side,
        ply: u32,
        plies_since_capture: u32,
    ) -> Result<ShogiPosition, FenError> {
        let tables = &**TABLES;
        let mut position = ShogiPosition {
            board,
            occupied: [0; 2],
            hands,
            kings: [NO_SQUARE; 2],
            pawn_files: [0; 2],
            side,
            ply,
            plies_since_capture,
            hash: 0,
        };
        let mut totals = [0u32; 8];
        for hand in &hands {
            for hand_kind in PAWN..=ROOK {
                totals[hand_kind as usize] += hand[hand_kind as usize] as u32;
            }
        }
        for square in 0..SQUARE_COUNT as u8 {
            let code = board[square as usize];
            if code == 0 {
                continue;
            }
            let who = owner(code);
            let index = who.index();
            let kind = kind_of(code);
            position.occupied[index] |= bit(square);
            if kind == KING {
                if position.kings[index] != NO_SQUARE {
                    return Err(FenError::new(format!("two kings for {}", side_name(who))));
                }
                position.kings[index] = square;
                continue;
            }
            totals[unpromoted(kind) as usize] += 1;
            match kind {
                PAWN | LANCE if tables.last_rank[index] & bit(square) != 0 => {
                    let name = if kind == PAWN { "pawn" } else { "lance" };
                    return Err(FenError::new(format!("a {name} on the last rank")));
                }
                KNIGHT if tables.last_two_ranks[index] & bit(square) != 0 => {
                    return Err(FenError::new("a knight on the last two ranks"));
                }
                _ => {}
            }
            if kind == PAWN {
                let file_bit = 1u16 << file_of(square);
                if position.pawn_files[index] & file_bit != 0 {
                    return Err(FenError::new(format!(
                        "two pawns on file {} for {} (nifu)",
                        9 - file_of(square),
                        side_name(who)
                    )));
                }
                position.pawn_files[index] |= file_bit;
            }
        }
        // A side may have no king: tsume problems leave the attacker without one, as
        // Fairy-Stockfish and the KIF/SFEN conventions allow. Such a side is never in check.
        for hand_kind in PAWN..=ROOK {
            let total = totals[hand_kind as usize];
            let limit = SET_COUNTS[hand_kind as usize];
            if total > limit {
                return Err(FenError::new(format!(
                    "{total} {} on the board and in hand (a set has {limit})",
                    KIND_PLURALS[hand_kind as usize]
                )));
            }
        }
        let waiting = side.opponent();
        if position.attacked(
            tables,
            position.kings[waiting.index()],
            side,
            position.all_occupied(),
            NO_SQUARE,
        ) {
            return Err(FenError::new(format!(
                "the side not to move ({}) is in check",
                side_name(waiting)
            )));
        }
        position.hash = position.compute_hash();
        Ok(position)
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for (square, &code) in self.board.iter().enumerate() {
            if code != 0 {
                hash ^= zobrist::PIECE_SQUARE[code as usize][square];
            }
        }
        for side in 0..2 {
            for hand_kind in PAWN..=ROOK {
                let count = self.hands[side][hand_kind as usize] as usize;
                hash ^= zobrist::HAND[side][hand_kind as usize][count];
            }
        }
        if self.side == Side::Second {
            hash ^= zobrist::SECOND_TO_MOVE;
        }
        hash
    }

    /// The position as a USI SFEN: hand in R B G S N L P order, Sente first; move number = ply + 1.
    pub fn sfen(&self) -> String {
        let mut hand = String::new();
        for side in [Side::First, Side::Second] {
            for hand_kind in HAND_KINDS {
                let count = self.hands[side.index()][hand_kind as usize];
                if count > 1 {
                    hand.push_str(&count.to_string());
                }
                if count > 0 {
                    let letter = hand_letter(hand_kind);
                    hand.push(if side == Side::First {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        format!(
            "{} {} {} {}",
            write_placement(&self.board, 9, &piece_letter),
            if self.side == Side::First { 'b' } else { 'w' },
            hand,
            self.ply.saturating_add(1)
        )
    }

    /// The piece code on a square (0 = empty).
    #[inline]
    pub fn piece_at(&self, square: u8) -> u8 {
        self.board.get(square as usize).copied().unwrap_or(0)
    }

    /// The whole board, indexed by square.
    pub fn board(&self) -> &[u8; SQUARE_COUNT] {
        &self.board
    }

    /// How many pieces of a hand kind (`PAWN..=ROOK`) a side holds; 0 for any other kind.
    pub fn hand_count(&self, side: Side, hand_kind: u8) -> u8 {
        if (PAWN..=ROOK).contains(&hand_kind) {
            self.hands[side.index()][hand_kind as usize]
        } else {
            0
        }
    }

    /// The square of a side's king.
    pub fn king_square(&self, side: Side) -> u8 {
        self.kings[side.index()]
    }

    /// Plies played before this position (the SFEN move number minus one).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// True when the move takes a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && self.piece_at(mv.to) != 0
    }

    /// Hands the turn to the other side without moving: not a shogi move, but the
    /// CPU's null-move pruning asks "what if I could pass?" to prove a position good.
    pub fn play_null_move(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::SECOND_TO_MOVE;
        self.ply = self.ply.saturating_add(1);
    }

    #[inline(always)]
    fn all_occupied(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// True when `square` is attacked by `attacker`, on the board with occupancy
    /// `occupied` (which may differ from the real one for make-and-test), ignoring
    /// any attacker on `ignored` (the square a tested move lands on).
    #[inline]
    fn attacked(
        &self,
        tables: &ShogiTables,
        square: u8,
        attacker: Side,
        occupied: u128,
        ignored: u8,
    ) -> bool {
        self.attackers_on::<true>(tables, square, attacker, occupied, ignored) != 0
    }

    /// The squares of `attacker`'s pieces that attack `square` on the board with
    /// occupancy `occupied`, less `ignored`; with `FIRST_ONLY`, only the first one found
    /// (enough for [`Self::attacked`], which asks whether there is any).
    #[inline(always)]
    fn attackers_on<const FIRST_ONLY: bool>(
        &self,
        tables: &ShogiTables,
        square: u8,
        attacker: Side,
        occupied: u128,
        ignored: u8,
    ) -> u128 {
        let square_index = square as usize;
        if square_index >= SQUARE_COUNT {
            // No king on the board (tsume): nothing to attack.
            return 0;
        }
        let mut found = 0u128;
        let knight = piece(attacker, KNIGHT);
        // A knight of the attacker reaches `square` from where a defending knight on it would land.
        let mut knights =
            tables.steps[piece(attacker.opponent(), KNIGHT) as usize][square_index] & occupied;
        while knights != 0 {
            let from = knights.trailing_zeros() as u8;
            knights &= knights - 1;
            if from != ignored && self.board[from as usize] == knight {
                found |= bit(from);
                if FIRST_ONLY {
                    return found;
                }
            }
        }
        for direction in 0..8 {
            let hits = tables.rays[square_index][direction] & occupied;
            if hits == 0 {
                continue;
            }
            let from = nearest(direction, hits);
            if from == ignored {
                continue;
            }
            let code = self.board[from as usize];
            if code == 0 || owner(code) != attacker {
                continue;
            }
            let mut reach = tables.slide_directions[code as usize];
            if from == tables.neighbour[square_index][direction] {
                reach |= tables.step_directions[code as usize];
            }
            if reach & (1 << (direction ^ 1)) != 0 {
                found |= bit(from);
                if FIRST_ONLY {
                    return found;
                }
            }
        }
        found
    }

    /// The squares of `attacker`'s pieces that attack `square` on the current board: the
    /// pieces that could capture there, which the engine's exchanges take in turn.
    pub fn attackers_of(&self, square: u8, attacker: Side) -> u128 {
        self.attackers_on::<false>(&TABLES, square, attacker, self.all_occupied(), NO_SQUARE)
    }

    /// The squares of `attacker`'s pieces that attack `square` once the pieces outside
    /// `remaining` are taken off the board: the recaptures of a static exchange whose
    /// spent pieces are gone, found without playing the captures.
    pub fn attackers_among(&self, square: u8, attacker: Side, remaining: u128) -> u128 {
        let occupied = self.all_occupied() & remaining;
        self.attackers_on::<false>(&TABLES, square, attacker, occupied, NO_SQUARE)
    }

    /// True when `side`'s king is attacked.
    pub fn is_king_attacked(&self, side: Side) -> bool {
        self.attacked(
            &TABLES,
            self.kings[side.index()],
            side.opponent(),
            self.all_occupied(),
            NO_SQUARE,
        )
    }

    /// True when `square` is attacked by a piece of `attacker` (for highlights and the UI).
    pub fn is_attacked(&self, square: u8, attacker: Side) -> bool {
        (square as usize) < SQUARE_COUNT
            && self.attacked(&TABLES, square, attacker, self.all_occupied(), NO_SQUARE)
    }

    /// Squares the piece on `square` attacks on the current board (none for an empty square);
    /// the engine's evaluation measures mobility and pressure near the kings with it.
    pub fn attacks_from(&self, square: u8) -> u128 {
        match self.board.get(square as usize) {
            Some(&code) if code != 0 => self.reach(&TABLES, square, code, self.all_occupied()),
            _ => 0,
        }
    }

    /// Squares from which a piece of `kind` of `attacker`'s would attack the other side's
    /// king on the current board: where that king's own piece of the kind, standing on the
    /// king's square, would reach. None for the king, or when the king is not on the board.
    /// Move generation finds checking moves with it, the evaluation threats of checks.
    pub fn check_squares(&self, attacker: Side, kind: u8) -> u128 {
        let king = self.kings[attacker.opponent().index()];
        if king as usize >= SQUARE_COUNT || !(PAWN..=DRAGON).contains(&kind) || kind == KING {
            return 0;
        }
        self.reach(
            &TABLES,
            king,
            piece(attacker.opponent(), kind),
            self.all_occupied(),
        )
    }

    /// True when the legal move `mv` leaves the opponent in check, found without playing
    /// it: the moved or dropped piece attacks the enemy king from its new square, or its
    /// old square opened a line from one of the mover's sliders. The engine's search prunes
    /// quiet moves that give no check near the leaves, so it asks before making them.
    pub fn gives_check(&self, mv: Move) -> bool {
        let tables = &**TABLES;
        let us = self.side;
        let king = self.kings[us.opponent().index()];
        if king as usize >= SQUARE_COUNT || mv.to as usize >= SQUARE_COUNT {
            return false;
        }
        let (code, vacated) = if mv.is_drop() {
            (piece(us, mv.from & 7), 0)
        } else {
            let Some(&code) = self.board.get(mv.from as usize) else {
                return false;
            };
            match promoted(kind_of(code)) {
                Some(promoted_kind) if mv.is_promotion() => {
                    (piece(us, promoted_kind), bit(mv.from))
                }
                _ => (code, bit(mv.from)),
            }
        };
        let occupied = (self.all_occupied() & !vacated) | bit(mv.to);
        if self.reach(tables, mv.to, code, occupied) & bit(king) != 0 {
            return true;
        }
        // A discovered check comes only along the king's line through the vacated square:
        // the first piece on it is then a slider of the mover's aimed at the king.
        for direction in 0..8 {
            let ray = tables.rays[king as usize][direction];
            if ray & vacated == 0 {
                continue;
            }
            let hits = ray & occupied;
            if hits == 0 {
                return false;
            }
            let first = nearest(direction, hits);
            let code = self.board[first as usize];
            return first != mv.to
                && owner(code) == us
                && tables.slide_directions[code as usize] & (1 << (direction ^ 1)) != 0;
        }
        false
    }

    /// Squares holding `side`'s pieces, one bit per square.
    pub fn occupied_by(&self, side: Side) -> u128 {
        self.occupied[side.index()]
    }

    /// Squares a piece on `from` reaches on the current board (own pieces not removed).
    #[inline]
    fn reach(&self, tables: &ShogiTables, from: u8, code: u8, occupied: u128) -> u128 {
        let mut targets = tables.steps[code as usize][from as usize];
        let mut directions = tables.slide_directions[code as usize];
        while directions != 0 {
            let direction = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            let ray = tables.rays[from as usize][direction];
            let blockers = ray & occupied;
            targets |= if blockers == 0 {
                ray
            } else {
                ray & !tables.rays[nearest(direction, blockers) as usize][direction]
            };
        }
        targets
    }

    /// Own pieces standing alone between the own king and an enemy slider aimed at it.
    fn pinned_pieces(&self, tables: &ShogiTables, us: Side, occupied: u128) -> u128 {
        self.line_blockers(tables, us, us, occupied)
    }

    /// Pieces of `blocker` standing alone between `king_side`'s king and a slider of
    /// `king_side`'s opponent aimed at it: with `blocker` the king's side, the pinned
    /// pieces; with the opponent, the pieces whose move may uncover a check.
    fn line_blockers(
        &self,
        tables: &ShogiTables,
        king_side: Side,
        blocker: Side,
        occupied: u128,
    ) -> u128 {
        let king = self.kings[king_side.index()] as usize;
        if king >= SQUARE_COUNT {
            return 0;
        }
        let mut blockers = 0;
        for direction in 0..8 {
            let hits = tables.rays[king][direction] & occupied;
            if hits == 0 {
                continue;
            }
            let between = nearest(direction, hits);
            if owner(self.board[between as usize]) != blocker {
                continue;
            }
            let beyond = tables.rays[between as usize][direction] & occupied;
            if beyond == 0 {
                continue;
            }
            let code = self.board[nearest(direction, beyond) as usize];
            if owner(code) != king_side
                && tables.slide_directions[code as usize] & (1 << (direction ^ 1)) != 0
            {
                blockers |= bit(between);
            }
        }
        blockers
    }

    /// Empty squares between the own king and the enemy sliders checking it (where a drop may block).
    fn blocking_squares(&self, tables: &ShogiTables, us: Side, occupied: u128) -> u128 {
        let king = self.kings[us.index()] as usize;
        let mut squares = 0;
        for direction in 0..8 {
            let hits = tables.rays[king][direction] & occupied;
            if hits == 0 {
                continue;
            }
            let from = nearest(direction, hits);
            let code = self.board[from as usize];
            if owner(code) != us
                && tables.slide_directions[code as usize] & (1 << (direction ^ 1)) != 0
            {
                squares |= tables.rays[king][direction]
                    & !tables.rays[from as usize][direction]
                    & !bit(from);
            }
        }
        squares
    }

    /// True when a piece of kind `kind` moving to `to` must promote (it could never move again).
    #[inline(always)]
    fn must_promote(tables: &ShogiTables, us: Side, kind: u8, to: u8) -> bool {
        match kind {
            PAWN | LANCE => tables.last_rank[us.index()] & bit(to) != 0,
            KNIGHT => tables.last_two_ranks[us.index()] & bit(to) != 0,
            _ => false,
        }
    }

    /// The square where a pawn of the side to move would give check to the enemy king, if any.
    #[inline]
    fn pawn_check_square(&self, tables: &ShogiTables) -> u8 {
        let enemy_king = self.kings[self.side.opponent().index()] as usize;
        if enemy_king >= SQUARE_COUNT {
            return NO_SQUARE;
        }
        // A Sente pawn attacks northwards, so it checks from the square south of the king.
        let direction = if self.side == Side::First { 1 } else { 0 };
        tables.neighbour[enemy_king][direction]
    }

    /// True when dropping a pawn on `to` checkmates (uchifuzume), the drop being otherwise legal.
    fn pawn_drop_mates(&self, to: u8) -> bool {
        let mut after = self.clone();
        after.play_unchecked(Move::drop(PAWN, to));
        after.in_check() && !after.has_legal_move()
    }

    /// True when the side to move has at least one legal move. In check, the answers
    /// are tried without a move list, cheapest first: a king's step, a capture of a
    /// single checker; only an interposition is left to the move generator. The pawn
    /// drop mate test asks this after every pawn drop that checks, and the engine's
    /// mate in one after every check it tries.
    pub fn has_legal_move(&self) -> bool {
        let tables = &**TABLES;
        let us = self.side;
        let them = us.opponent();
        let king = self.kings[us.index()];
        if (king as usize) < SQUARE_COUNT {
            let occupied = self.all_occupied();
            let mut steps = self.reach(tables, king, self.board[king as usize], occupied)
                & !self.occupied[us.index()];
            while steps != 0 {
                let to = steps.trailing_zeros() as u8;
                steps &= steps - 1;
                let occupied_after = (occupied & !bit(king)) | bit(to);
                if !self.attacked(tables, to, them, occupied_after, to) {
                    return true;
                }
            }
            let checkers = self.attackers_on::<false>(tables, king, them, occupied, NO_SQUARE);
            if checkers != 0 {
                // Two checkers: only the king could answer, and it cannot.
                if checkers & (checkers - 1) != 0 {
                    return false;
                }
                let checker = checkers.trailing_zeros() as u8;
                let mut capturers = self
                    .attackers_on::<false>(tables, checker, us, occupied, NO_SQUARE)
                    & !bit(king);
                while capturers != 0 {
                    let from = capturers.trailing_zeros() as u8;
                    capturers &= capturers - 1;
                    if !self.attacked(tables, king, them, occupied & !bit(from), checker) {
                        return true;
                    }
                }
                // Nothing can come between a knight, or a piece next to the king, and it.
                let next_to_king = tables.steps[self.board[king as usize] as usize][king as usize]
                    & bit(checker)
                    != 0;
                if next_to_king || kind_of(self.board[checker as usize]) == KNIGHT {
                    return false;
                }
            }
        }
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0 > 0
    }

    /// Generates every legal move into `sink`.
    #[inline]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_within(sink, BOARD_MASK, true);
    }

    /// Appends the legal moves of the pieces on the board (no drops) that land on a
    /// square of `targets`: with the opponent's squares, the legal captures. The same
    /// moves as [`Position::legal_moves`] keeps when so filtered, without generating the
    /// drops and the other moves (the CPU's quiescence search wants captures alone).
    pub fn legal_board_moves_to(&self, targets: u128, moves: &mut MoveList) {
        self.generate_within(moves, targets & BOARD_MASK, false);
    }

    /// Appends the legal captures and the legal promotions of rooks and bishops (the
    /// CPU's quiescence moves), in the order of [`Position::legal_moves`], without
    /// generating the other moves: only rooks and bishops are given empty squares, those
    /// where they may promote.
    pub fn legal_tactical_moves(&self, moves: &mut MoveList) {
        let them = self.occupied[self.side.opponent().index()];
        let empty = !self.all_occupied() & BOARD_MASK;
        let zone = TABLES.zone[self.side.index()];
        let start = moves.len();
        self.generate_masked(
            moves,
            |from, code| {
                if !matches!(kind_of(code), ROOK | BISHOP) {
                    them
                } else if zone & bit(from) != 0 {
                    them | empty
                } else {
                    them | (empty & zone)
                }
            },
            |_| 0,
        );
        moves.retain_after(start, |mv| mv.is_promotion() || them & bit(mv.to) != 0);
    }

    /// Appends the legal moves that capture nothing: board moves onto empty squares and
    /// drops, in the order of [`Position::legal_moves`] (the move picker's quiet moves,
    /// without generating the captures a second time).
    pub fn legal_quiet_moves(&self, moves: &mut MoveList) {
        self.generate_within(moves, !self.all_occupied() & BOARD_MASK, true);
    }

    /// The legal moves landing on `within`, drops included when `drops` is true.
    #[inline]
    fn generate_within<S: MoveSink>(&self, sink: &mut S, within: u128, drops: bool) {
        self.generate_masked(sink, |_, _| within, |_| if drops { within } else { 0 });
    }

    /// Appends the legal moves that are not captures and give check: drops and board
    /// moves (promoting or not, checking directly or by uncovering a slider), exactly
    /// the legal non-captures after which the opponent's king is attacked. The CPU's
    /// quiescence search looks at them in shogi, where mates come by drops; they are
    /// generated from the squares that attack the enemy king, not from every move.
    pub fn legal_quiet_checks(&self, moves: &mut MoveList) {
        let tables = &**TABLES;
        let us = self.side;
        let them = us.opponent();
        let enemy_king = self.kings[them.index()];
        if enemy_king as usize >= SQUARE_COUNT {
            return;
        }
        let occupied = self.all_occupied();
        let empty = !occupied & BOARD_MASK;
        // `attackers_from[kind]`: where a piece of that kind of ours would attack the king.
        let mut attackers_from = [0u128; 16];
        for kind in PAWN..=DRAGON {
            attackers_from[kind as usize] = self.check_squares(us, kind);
        }
        let uncovering = self.line_blockers(tables, them, us, occupied);
        let mut candidates = MoveList::new();
        self.generate_masked(
            &mut candidates,
            |from, code| {
                if uncovering & bit(from) != 0 {
                    return empty;
                }
                let kind = kind_of(code);
                let mut squares = attackers_from[kind as usize];
                if let Some(promoted_kind) = promoted(kind) {
                    squares |= attackers_from[promoted_kind as usize];
                }
                squares & empty
            },
            |hand_kind| attackers_from[hand_kind as usize] & empty,
        );
        for &mv in candidates.iter() {
            if self.gives_check(mv) {
                moves.push(mv);
            }
        }
    }

    /// A legal move that checkmates at once by a contact check, if the side to move has
    /// one and is not in check itself: a piece dropped or moved next to the enemy king
    /// and attacking it, or a knight's check. Mates by a distant piece or a discovered
    /// check are not looked for. Never a pawn drop: that mate is illegal (uchifuzume).
    /// Shogi engines ask before searching a node, where a mate by a gold dropped on the
    /// king's head hides among a hundred-odd moves; every answer is verified by playing
    /// it, so what this misses is left to the search, and what it finds is a mate.
    pub fn mate_in_one(&self) -> Option<Move> {
        let tables = &**TABLES;
        let us = self.side;
        let them = us.opponent();
        let enemy_king = self.kings[them.index()];
        if enemy_king as usize >= SQUARE_COUNT || self.in_check() {
            return None;
        }
        let occupied = self.all_occupied();
        let own = self.occupied[us.index()];
        let hand = &self.hands[us.index()];
        let zone = tables.zone[us.index()];
        let mated_by = |mv: Move| {
            let mut after = self.clone();
            after.play_unchecked(mv);
            after.is_king_attacked(them) && !after.is_king_attacked(us) && !after.has_legal_move()
        };
        // The king's flights: the squares next to it, free of its own pieces, that no
        // piece of ours attacks. A check mates only if each one but the checker's square
        // is covered by the checker or by a line the mover's leaving opens (a cheap test
        // before playing the move).
        let without_king = occupied & !bit(enemy_king);
        let mut flights = None;
        let mut flights = || {
            *flights.get_or_insert_with(|| {
                let mut around = tables.steps[piece(them, KING) as usize][enemy_king as usize]
                    & !self.occupied[them.index()];
                let mut free = 0;
                while around != 0 {
                    let square = around.trailing_zeros() as u8;
                    around &= around - 1;
                    if !self.attacked(tables, square, us, without_king, NO_SQUARE) {
                        free |= bit(square);
                    }
                }
                free
            })
        };
        let may_mate = |flights: u128, code: u8, to: u8, vacated: u128| {
            let occupied_after = (without_king & !vacated) | bit(to);
            let mut open = flights & !bit(to) & !self.reach(tables, to, code, occupied_after);
            if vacated == 0 {
                return open == 0;
            }
            while open != 0 {
                let square = open.trailing_zeros() as u8;
                open &= open - 1;
                if !self.attacked(tables, square, us, occupied_after, NO_SQUARE) {
                    return false;
                }
            }
            true
        };
        let mut next_to_king = tables.steps[piece(them, KING) as usize][enemy_king as usize] & !own;
        while next_to_king != 0 {
            let to = next_to_king.trailing_zeros() as u8;
            next_to_king &= next_to_king - 1;
            // A checker next to the king must be defended, or the king takes it: a drop by
            // any of these, a move by another of them (or one its leaving uncovers).
            let attackers = self.attackers_on::<false>(tables, to, us, occupied, NO_SQUARE);
            if attackers == 0 {
                continue;
            }
            let Some(toward_king) = (0..8u8)
                .find(|&direction| tables.neighbour[to as usize][direction as usize] == enemy_king)
            else {
                continue;
            };
            let attacks_king = |code: u8| {
                (tables.step_directions[code as usize] | tables.slide_directions[code as usize])
                    & (1 << toward_king)
                    != 0
            };
            if occupied & bit(to) == 0 {
                for hand_kind in [GOLD, SILVER, ROOK, BISHOP, LANCE] {
                    if hand[hand_kind as usize] > 0
                        && tables.drop_area[us.index()][hand_kind as usize] & bit(to) != 0
                        && attacks_king(piece(us, hand_kind))
                        && may_mate(flights(), piece(us, hand_kind), to, 0)
                        && mated_by(Move::drop(hand_kind, to))
                    {
                        return Some(Move::drop(hand_kind, to));
                    }
                }
            }
            let mut movers = attackers;
            while movers != 0 {
                let from = movers.trailing_zeros() as u8;
                movers &= movers - 1;
                let code = self.board[from as usize];
                let kind = kind_of(code);
                if kind == KING {
                    continue;
                }
                let defended = attackers & !bit(from) != 0 || {
                    let occupied_after = occupied & !bit(from);
                    self.attackers_on::<true>(tables, to, us, occupied_after, from) != 0
                };
                if !defended {
                    continue;
                }
                if !Self::must_promote(tables, us, kind, to)
                    && attacks_king(code)
                    && may_mate(flights(), code, to, bit(from))
                {
                    let mv = Move::new(from, to);
                    if mated_by(mv) {
                        return Some(mv);
                    }
                }
                if let Some(promoted_kind) = promoted(kind) {
                    let promoted_code = piece(us, promoted_kind);
                    if zone & (bit(from) | bit(to)) != 0
                        && attacks_king(promoted_code)
                        && may_mate(flights(), promoted_code, to, bit(from))
                    {
                        let mv = Move::promoting(from, to);
                        if mated_by(mv) {
                            return Some(mv);
                        }
                    }
                }
            }
        }
        // A knight's check cannot be blocked, and the king cannot take it.
        let mut knight_squares =
            tables.steps[piece(them, KNIGHT) as usize][enemy_king as usize] & !own;
        while knight_squares != 0 {
            let to = knight_squares.trailing_zeros() as u8;
            knight_squares &= knight_squares - 1;
            if occupied & bit(to) == 0
                && hand[KNIGHT as usize] > 0
                && tables.drop_area[us.index()][KNIGHT as usize] & bit(to) != 0
                && mated_by(Move::drop(KNIGHT, to))
            {
                return Some(Move::drop(KNIGHT, to));
            }
            let knight = piece(us, KNIGHT);
            let mut knights = tables.steps[piece(them, KNIGHT) as usize][to as usize] & own;
            while knights != 0 {
                let from = knights.trailing_zeros() as u8;
                knights &= knights - 1;
                if self.board[from as usize] == knight
                    && !Self::must_promote(tables, us, KNIGHT, to)
                    && mated_by(Move::new(from, to))
                {
                    return Some(Move::new(from, to));
                }
            }
        }
        None
    }

    /// The legal moves of the piece `code` on `from` landing on `board_within(from, code)`,
    /// and the drops of each hand kind landing on `drop_within(hand_kind)`.
    #[inline]
    fn generate_masked<S: MoveSink>(
        &self,
        sink: &mut S,
        board_within: impl Fn(u8, u8) -> u128,
        drop_within: impl Fn(u8) -> u128,
    ) {
        let tables = &**TABLES;
        let us = self.side;
        let them = us.opponent();
        let own = self.occupied[us.index()];
        let occupied = own | self.occupied[them.index()];
        let king = self.kings[us.index()];
        let in_check = self.attacked(tables, king, them, occupied, NO_SQUARE);
        // Moves of these pieces are tested by making them; all others are legal as generated.
        let tested = if in_check {
            own
        } else {
            self.pinned_pieces(tables, us, occupied) | if king == NO_SQUARE { 0 } else { bit(king) }
        };
        let zone = tables.zone[us.index()];
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let code = self.board[from as usize];
            let mut targets =
                self.reach(tables, from, code, occupied) & !own & board_within(from, code);
            if tested & bit(from) != 0 {
                let mut candidates = targets;
                while candidates != 0 {
                    let to = candidates.trailing_zeros() as u8;
                    candidates &= candidates - 1;
                    let king_after = if from == king { to } else { king };
                    let occupied_after = (occupied & !bit(from)) | bit(to);
                    if self.attacked(tables, king_after, them, occupied_after, to) {
                        targets &= !bit(to);
                    }
                }
            }
            let kind = kind_of(code);
            if promoted(kind).is_none() {
                sink.add_moves(from, targets, false);
                continue;
            }
            let promoting = if zone & bit(from) != 0 {
                targets
            } else {
                targets & zone
            };
            let must_promote = match kind {
                PAWN | LANCE => tables.last_rank[us.index()],
                KNIGHT => tables.last_two_ranks[us.index()],
                _ => 0,
            };
            sink.add_moves(from, promoting, true);
            sink.add_moves(from, targets & !must_promote, false);
        }
        let hand = &self.hands[us.index()];
        if hand[1..].iter().all(|&count| count == 0) {
            return;
        }
        let mut empty = !occupied & BOARD_MASK;
        if in_check {
            empty &= self.blocking_squares(tables, us, occupied);
            let mut squares = empty;
            while squares != 0 {
                let to = squares.trailing_zeros() as u8;
                squares &= squares - 1;
                if self.attacked(tables, king, them, occupied | bit(to), to) {
                    empty &= !bit(to);
                }
            }
            if empty == 0 {
                return;
            }
        }
        for hand_kind in PAWN..=ROOK {
            if hand[hand_kind as usize] == 0 {
                continue;
            }
            let mut targets =
                empty & tables.drop_area[us.index()][hand_kind as usize] & drop_within(hand_kind);
            if targets == 0 {
                continue;
            }
            if hand_kind == PAWN {
                targets &= !tables.files[self.pawn_files[us.index()] as usize];
                let check_square = self.pawn_check_square(tables);
                if check_square != NO_SQUARE
                    && targets & bit(check_square) != 0
                    && self.pawn_drop_mates(check_square)
                {
                    targets &= !bit(check_square);
                }
            }
            sink.add_drops(hand_kind, targets);
        }
    }

    /// Checks a move and says why it is illegal, if it is.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let tables = &**TABLES;
        let us = self.side;
        let them = us.opponent();
        let occupied = self.all_occupied();
        let king = self.kings[us.index()];
        if mv.to as usize >= SQUARE_COUNT {
            return Err(IllegalMove::NotAMove);
        }
        if mv.is_drop() {
            let hand_kind = mv.from;
            if !(PAWN..=ROOK).contains(&hand_kind) {
                return Err(IllegalMove::NotInHand);
            }
            if mv.is_promotion() {
                return Err(IllegalMove::CannotPromote);
            }
            if self.hands[us.index()][hand_kind as usize] == 0 {
                return Err(IllegalMove::NotInHand);
            }
            if occupied & bit(mv.to) != 0 {
                return Err(IllegalMove::NotAMove);
            }
            if tables.drop_area[us.index()][hand_kind as usize] & bit(mv.to) == 0 {
                return Err(IllegalMove::DeadPiece);
            }
            if hand_kind == PAWN && self.pawn_files[us.index()] & (1 << file_of(mv.to)) != 0 {
                return Err(IllegalMove::TwoPawns);
            }
            if self.attacked(tables, king, them, occupied | bit(mv.to), mv.to) {
                return Err(IllegalMove::LeavesKingInCheck);
            }
            if hand_kind == PAWN
                && mv.to == self.pawn_check_square(tables)
                && self.pawn_drop_mates(mv.to)
            {
                return Err(IllegalMove::DropPawnMate);
            }
            return Ok(());
        }
        if mv.from as usize >= SQUARE_COUNT {
            return Err(IllegalMove::NoPieceToMove);
        }
        let code = self.board[mv.from as usize];
        if code == 0 || owner(code) != us {
            return Err(IllegalMove::NoPieceToMove);
        }
        let own = self.occupied[us.index()];
        if self.reach(tables, mv.from, code, occupied) & !own & bit(mv.to) == 0 {
            return Err(IllegalMove::NotAMove);
        }
        let kind = kind_of(code);
        let zone = tables.zone[us.index()];
        let may_promote = promoted(kind).is_some() && zone & (bit(mv.from) | bit(mv.to)) != 0;
        if mv.is_promotion() && !may_promote {
            return Err(IllegalMove::CannotPromote);
        }
        if !mv.is_promotion() && Self::must_promote(tables, us, kind, mv.to) {
            return Err(IllegalMove::MustPromote);
        }
        let king_after = if mv.from == king { mv.to } else { king };
        let occupied_after = (occupied & !bit(mv.from)) | bit(mv.to);
        if self.attacked(tables, king_after, them, occupied_after, mv.to) {
            return Err(IllegalMove::LeavesKingInCheck);
        }
        Ok(())
    }

    /// Parses a move in Fairy-Stockfish UCI form (`c3c4`, `b2h8+`, `P@e5`; a trailing `=`
    /// means no promotion) into a move of this position (not yet checked).
    pub fn parse_uci(&self, text: &str) -> Option<Move> {
        let bytes = text.as_bytes();
        if bytes.get(1) == Some(&b'@') {
            let hand_kind = hand_kind_from_letter(bytes[0] as char)?;
            let (to, used) = parse_square_prefix(&text[2..], 9)?;
            return (2 + used == text.len()).then_some(Move::drop(hand_kind, to));
        }
        let (from, used) = parse_square_prefix(text, 9)?;
        let (to, used_to) = parse_square_prefix(&text[used..], 9)?;
        match &text[used + used_to..] {
            "" | "=" => Some(Move::new(from, to)),
            "+" => Some(Move::promoting(from, to)),
            _ => None,
        }
    }

    /// Parses a USI move (`7g7f`, `8h2b+`, `P*5e`) into a move of this position (not yet checked).
    pub fn parse_usi(&self, text: &str) -> Option<Move> {
        let bytes = text.as_bytes();
        match bytes {
            [letter, b'*', file, rank] => {
                let hand_kind = hand_kind_from_letter(*letter as char)?;
                Some(Move::drop(hand_kind, parse_usi_square(*file, *rank)?))
            }
            [from_file, from_rank, to_file, to_rank, rest @ ..] => {
                let from = parse_usi_square(*from_file, *from_rank)?;
                let to = parse_usi_square(*to_file, *to_rank)?;
                match rest {
                    [] => Some(Move::new(from, to)),
                    [b'+'] => Some(Move::promoting(from, to)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Writes a move in USI form (`7g7f`, `8h2b+`, `P*5e`).
    pub fn move_to_usi(&self, mv: Move) -> String {
        if mv.is_drop() {
            format!("{}*{}", hand_letter(mv.from), usi_square_name(mv.to))
        } else {
            format!(
                "{}{}{}",
                usi_square_name(mv.from),
                usi_square_name(mv.to),
                if mv.is_promotion() { "+" } else { "" }
            )
        }
    }

    /// Impasse (jishogi) points of a side: rook and bishop (promoted or not) 5, every other
    /// piece but the king 1, counting the whole board and the hand.
    pub fn impasse_points(&self, side: Side) -> u32 {
        self.camp_points(side, BOARD_MASK)
    }

    /// Points of `side`'s pieces on the squares of `area` plus its hand (the king excluded).
    fn camp_points(&self, side: Side, area: u128) -> u32 {
        let value = |kind: u8| match unpromoted(kind) {
            BISHOP | ROOK => 5,
            KING => 0,
            _ => 1,
        };
        let mut points = 0;
        let mut pieces = self.occupied[side.index()] & area;
        while pieces != 0 {
            let square = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            points += value(kind_of(self.board[square]));
        }
        for hand_kind in PAWN..=ROOK {
            points += value(hand_kind) * self.hands[side.index()][hand_kind as usize] as u32;
        }
        points
    }

    /// True when both kings stand in their enemy's camp (an impasse may then be claimed).
    pub fn both_kings_in_enemy_camp(&self) -> bool {
        let tables = &**TABLES;
        [Side::First, Side::Second].iter().all(|side| {
            let king = self.kings[side.index()];
            king != NO_SQUARE && tables.zone[side.index()] & bit(king) != 0
        })
    }

    /// The CSA 27-point declaration rule: true when `side` (to move) may declare and win:
    /// king in the enemy camp and not in check, at least 10 other own pieces in that camp,
    /// and points of the pieces there plus the hand at least 28 (Sente) or 27 (Gote).
    pub fn declaration_wins(&self, side: Side) -> bool {
        let tables = &**TABLES;
        if side != self.side {
            return false;
        }
        let camp = tables.zone[side.index()];
        let king = self.kings[side.index()];
        if king == NO_SQUARE || camp & bit(king) == 0 || self.in_check() {
            return false;
        }
        let pieces_in_camp = self.occupied[side.index()] & camp & !bit(king);
        if pieces_in_camp.count_ones() < 10 {
            return false;
        }
        let needed = if side == Side::First { 28 } else { 27 };
        self.camp_points(side, camp) >= needed
    }
}

impl Position for ShogiPosition {
    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let index = us.index();
        let to = mv.to;
        if mv.is_drop() {
            let hand_kind = mv.from & 7;
            let code = piece(us, hand_kind);
            let count = &mut self.hands[index][hand_kind as usize];
            let before = *count as usize;
            *count = count.saturating_sub(1);
            self.hash ^= zobrist::HAND[index][hand_kind as usize][before]
                ^ zobrist::HAND[index][hand_kind as usize][*count as usize]
                ^ zobrist::PIECE_SQUARE[code as usize][to as usize];
            self.board[to as usize] = code;
            self.occupied[index] |= bit(to);
            if hand_kind == PAWN {
                self.pawn_files[index] |= 1 << file_of(to);
            }
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        } else {
            let from = mv.from;
            let code = self.board[from as usize];
            let captured = self.board[to as usize];
            if captured != 0 {
                let them = us.opponent().index();
                let captured_kind = kind_of(captured);
                self.hash ^= zobrist::PIECE_SQUARE[captured as usize][to as usize];
                self.occupied[them] &= !bit(to);
                if captured_kind == PAWN {
                    self.pawn_files[them] &= !(1 << file_of(to));
                }
                let hand_kind = unpromoted(captured_kind) as usize;
                if hand_kind <= ROOK as usize {
                    let count = &mut self.hands[index][hand_kind];
                    let before = *count as usize;
                    *count = (*count + 1).min(19);
                    self.hash ^= zobrist::HAND[index][hand_kind][before]
                        ^ zobrist::HAND[index][hand_kind][*count as usize];
                }
                self.plies_since_capture = 0;
            } else {
                self.plies_since_capture = self.plies_since_capture.saturating_add(1);
            }
            let kind = kind_of(code);
            let new_code = match promoted(kind) {
                Some(promoted_kind) if mv.is_promotion() => {
                    if kind == PAWN {
                        self.pawn_files[index] &= !(1 << file_of(from));
                    }
                    piece(us, promoted_kind)
                }
                _ => code,
            };
            self.hash ^= zobrist::PIECE_SQUARE[code as usize][from as usize]
                ^ zobrist::PIECE_SQUARE[new_code as usize][to as usize];
            self.board[from as usize] = 0;
            self.board[to as usize] = new_code;
            self.occupied[index] ^= bit(from) | bit(to);
            if kind == KING {
                self.kings[index] = to;
            }
        }
        self.hash ^= zobrist::SECOND_TO_MOVE;
        self.side = us.opponent();
        self.ply = self.ply.saturating_add(1);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.is_king_attacked(self.side)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn halfmove_clock(&self) -> u32 {
        self.plies_since_capture
    }

    fn fen(&self) -> String {
        let mut hand = String::new();
        for side in [Side::First, Side::Second] {
            for hand_kind in FAIRY_HAND_ORDER {
                let letter = hand_letter(hand_kind);
                let letter = if side == Side::First {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                for _ in 0..self.hands[side.index()][hand_kind as usize] {
                    hand.push(letter);
                }
            }
        }
        format!(
            "{}[{}] {} - - {} {}",
            write_placement(&self.board, 9, &piece_letter),
            hand,
            if self.side == Side::First { 'w' } else { 'b' },
            self.plies_since_capture,
            self.ply / 2 + 1
        )
    }

    /// Counts the legal moves without storing them (perft's last level).
    fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    fn move_to_uci(&self, mv: Move) -> String {
        if mv.is_drop() {
            format!("{}@{}", hand_letter(mv.from), square_name(mv.to))
        } else {
            format!(
                "{}{}{}",
                square_name(mv.from),
                square_name(mv.to),
                if mv.is_promotion() { "+" } else { "" }
            )
        }
    }
}

// ---------------------------------------------------------------------------
// Handicaps
// ---------------------------------------------------------------------------

/// The standard handicaps (手合割). Gote (上手) gives the pieces and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap, Sente moves first.
    Even,
    /// 香落ち: Gote without the lance on 1a.
    Lance,
    /// 右香落ち: Gote without the lance on 9a.
    RightLance,
    /// 角落ち: Gote without the bishop.
    Bishop,
    /// 飛車落ち: Gote without the rook.
    Rook,
    /// 飛香落ち: Gote without the rook and the 1a lance.
    RookLance,
    /// 二枚落ち: Gote without rook and bishop.
    TwoPiece,
    /// 三枚落ち: rook, bishop and the 1a lance.
    ThreePiece,
    /// 四枚落ち: rook, bishop and both lances.
    FourPiece,
    /// 五枚落ち: four-piece plus the 8a knight.
    FivePiece,
    /// 左五枚落ち: four-piece plus the 2a knight.
    LeftFivePiece,
    /// 六枚落ち: rook, bishop, both knights and both lances.
    SixPiece,
    /// 左七枚落ち: six-piece plus the 3a silver.
    LeftSevenPiece,
    /// 右七枚落ち: six-piece plus the 7a silver.
    RightSevenPiece,
    /// 八枚落ち: six-piece plus both silvers.
    EightPiece,
    /// 十枚落ち: only the king and the pawns remain to Gote.
    TenPiece,
}

impl Handicap {
    /// Every handicap, from the smallest to the largest.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPiece,
        Handicap::ThreePiece,
        Handicap::FourPiece,
        Handicap::FivePiece,
        Handicap::LeftFivePiece,
        Handicap::SixPiece,
        Handicap::LeftSevenPiece,
        Handicap::RightSevenPiece,
        Handicap::EightPiece,
        Handicap::TenPiece,
    ];

    /// The start position as an SFEN (every handicap has Gote to move: `w - 1`).
    pub const fn sfen(self) -> &'static str {
        match self {
            Handicap::Even => START_SFEN,
            Handicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RightLance => {
                "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
            }
            Handicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TwoPiece => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::ThreePiece => "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FourPiece => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FivePiece => "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::LeftFivePiece => "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::SixPiece => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::LeftSevenPiece => "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RightSevenPiece => "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::EightPiece => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TenPiece => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        }
    }

    /// The KIF name (`香落ち`), as written in the `手合割` header.
    pub const fn japanese(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPiece => "二枚落ち",
            Handicap::ThreePiece => "三枚落ち",
            Handicap::FourPiece => "四枚落ち",
            Handicap::FivePiece => "五枚落ち",
            Handicap::LeftFivePiece => "左五枚落ち",
            Handicap::SixPiece => "六枚落ち",
            Handicap::LeftSevenPiece => "左七枚落ち",
            Handicap::RightSevenPiece => "右七枚落ち",
            Handicap::EightPiece => "八枚落ち",
            Handicap::TenPiece => "十枚落ち",
        }
    }

    /// The English name (`lance`, `two-piece`).
    pub const fn english(self) -> &'static str {
        match self {
            Handicap::Even => "even",
            Handicap::Lance => "lance",
            Handicap::RightLance => "right lance",
            Handicap::Bishop => "bishop",
            Handicap::Rook => "rook",
            Handicap::RookLance => "rook and lance",
            Handicap::TwoPiece => "two-piece",
            Handicap::ThreePiece => "three-piece",
            Handicap::FourPiece => "four-piece",
            Handicap::FivePiece => "five-piece",
            Handicap::LeftFivePiece => "left five-piece",
            Handicap::SixPiece => "six-piece",
            Handicap::LeftSevenPiece => "left seven-piece",
            Handicap::RightSevenPiece => "right seven-piece",
            Handicap::EightPiece => "eight-piece",
            Handicap::TenPiece => "ten-piece",
        }
    }

    /// The start position of this handicap.
    pub fn position(self) -> ShogiPosition {
        ShogiPosition::from_sfen(self.sfen()).expect("handicap positions are valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> ShogiPosition {
        ShogiPosition::from_any(sfen).unwrap_or_else(|error| panic!("{sfen}: {error}"))
    }

    fn usi(position: &ShogiPosition, text: &str) -> Move {
        position.parse_usi(text).unwrap()
    }

    fn legal_usi(position: &ShogiPosition) -> Vec<String> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves.iter().map(|&mv| position.move_to_usi(mv)).collect()
    }

    #[test]
    fn start_position_perft() {
        let start = ShogiPosition::start();
        assert_eq!(start.perft(1), 30);
        assert_eq!(start.perft(2), 900);
        assert_eq!(start.perft(3), 25470);
        assert_eq!(start.perft(4), 719731);
    }

    /// Perft counts of random middle-game positions, taken from cshogi (which
    /// refuses uchifuzume); the first twelve have a pawn-drop mate available.
    #[test]
    fn perft_matches_cshogi() {
        let data = include_str!("../../tests/data/shogi_perft.txt");
        for line in data.lines().filter(|line| !line.starts_with('#')) {
            let mut fields = line.split(';');
            let p = position(fields.next().unwrap());
            assert_eq!(p.sfen(), line.split(';').next().unwrap());
            for (depth, expected) in fields.enumerate() {
                let expected: u64 = expected.parse().unwrap();
                assert_eq!(
                    p.perft(depth as u32 + 1),
                    expected,
                    "{line} depth {}",
                    depth + 1
                );
            }
        }
    }

    #[test]
    fn legal_moves_pass_check_move_and_hash_stays_incremental() {
        let data = include_str!("../../tests/data/shogi_perft.txt");
        for line in data.lines().filter(|line| !line.starts_with('#')) {
            let p = position(line.split(';').next().unwrap());
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            assert_eq!(moves.len() as u64, p.count_legal_moves());
            for &mv in moves.iter() {
                assert_eq!(p.check_move(mv), Ok(()), "{line} {}", p.move_to_usi(mv));
                assert_eq!(p.parse_usi(&p.move_to_usi(mv)), Some(mv));
                assert_eq!(p.parse_uci(&p.move_to_uci(mv)), Some(mv));
                let mut child = p.clone();
                child.play_unchecked(mv);
                assert_eq!(child.hash(), child.compute_hash());
                let reread = ShogiPosition::from_sfen(&child.sfen()).unwrap();
                assert_eq!(reread.sfen(), child.sfen());
                assert_eq!(reread.hash(), child.hash());
                let from_fen = ShogiPosition::from_fen(&child.fen()).unwrap();
                assert_eq!(
                    from_fen.sfen().split(' ').take(3).collect::<Vec<_>>(),
                    child.sfen().split(' ').take(3).collect::<Vec<_>>()
                );
            }
            // Every other candidate is refused.
            for from in 0..81u8 {
                for to in 0..81u8 {
                    for mv in [Move::new(from, to), Move::promoting(from, to)] {
                        if !moves.contains(mv) {
                            assert!(p.check_move(mv).is_err(), "{line} {}", p.move_to_usi(mv));
                        }
                    }
                }
            }
            for hand_kind in PAWN..=ROOK {
                for to in 0..81u8 {
                    let mv = Move::drop(hand_kind, to);
                    assert_eq!(moves.contains(mv), p.check_move(mv).is_ok(), "{line}");
                }
            }
        }
    }

    /// Every legal non-capture that leaves the opponent in check, found by playing them all.
    fn quiet_checks_by_playing(p: &ShogiPosition) -> Vec<Move> {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let mut checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut child = p.clone();
                child.play_unchecked(mv);
                !p.is_capture(mv) && child.in_check()
            })
            .collect();
        checks.sort_by_key(|mv| (mv.from, mv.to, mv.flags));
        checks
    }

    /// Every position one legal move after `position`, in the move list's order.
    fn children(position: &ShogiPosition) -> Vec<ShogiPosition> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = position.clone();
                child.play_unchecked(mv);
                child
            })
            .collect()
    }

    /// The positions of the perft file and every position one move after them.
    fn perft_positions_and_their_children() -> Vec<ShogiPosition> {
        let data = include_str!("../../tests/data/shogi_perft.txt");
        let mut positions = Vec::new();
        for line in data.lines().filter(|line| !line.starts_with('#')) {
            let root = position(line.split(';').next().unwrap());
            positions.extend(children(&root));
            positions.push(root);
        }
        positions
    }

    #[test]
    fn gives_check_without_playing_agrees_with_playing_every_legal_move() {
        let mut moves_checked = 0;
        let mut checks = 0;
        let mut discovered = 0;
        for p in perft_positions_and_their_children() {
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            let king = p.king_square(p.side_to_move().opponent());
            for &mv in legal.iter() {
                let mut child = p.clone();
                child.play_unchecked(mv);
                assert_eq!(p.gives_check(mv), child.in_check(), "{} {mv:?}", p.sfen());
                moves_checked += 1;
                if child.in_check() {
                    checks += 1;
                    if child.attacks_from(mv.to) & bit(king) == 0 {
                        discovered += 1;
                    }
                }
            }
        }
        assert!(moves_checked > 200_000, "{moves_checked} moves");
        assert!(checks > 5_000, "{checks} checks");
        assert!(discovered > 5, "{discovered} discovered checks");
    }

    /// The legal moves after which the opponent is in check with no legal move, found
    /// by playing every move and generating every reply.
    fn mates_by_playing(p: &ShogiPosition) -> Vec<Move> {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut child = p.clone();
                child.play_unchecked(mv);
                let mut replies = MoveList::new();
                child.legal_moves(&mut replies);
                child.in_check() && replies.is_empty()
            })
            .collect()
    }

    /// The perft positions and their children, the tsume problems, every position after
    /// a check in them (in check: the answers are few), and every position after that
    /// check's answer (where mates in three become mates in one).
    fn positions_near_mates() -> Vec<ShogiPosition> {
        let mut positions = perft_positions_and_their_children();
        let tsume = include_str!("../../tests/data/tsume.txt");
        for line in tsume.lines().filter(|line| !line.starts_with('#')) {
            // A few problems break nifu on the defender's side, which qipan refuses.
            let Ok(root) = ShogiPosition::from_sfen(line.split(';').next().unwrap()) else {
                continue;
            };
            for child in children(&root) {
                if child.in_check() {
                    positions.extend(children(&child));
                    positions.push(child);
                }
            }
            positions.push(root);
        }
        positions
    }

    #[test]
    fn has_legal_move_agrees_with_the_move_list() {
        let (mut in_check, mut mated) = (0, 0);
        for p in positions_near_mates() {
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            assert_eq!(p.has_legal_move(), !moves.is_empty(), "{}", p.sfen());
            in_check += p.in_check() as u32;
            mated += moves.is_empty() as u32;
        }
        assert!(in_check > 1_000, "{in_check} positions in check");
        assert!(mated > 50, "{mated} positions mated");
    }

    #[test]
    fn mate_in_one_is_found_exactly_where_a_move_mates() {
        let positions = positions_near_mates();
        let mut with_mate = 0;
        let mut without = 0;
        let mut distant_only = 0;
        for p in &positions {
            let mates = mates_by_playing(p);
            let king = p.king_square(p.side_to_move().opponent());
            // The mates it looks for: the moved piece checks from next to the king, or a
            // knight checks.
            let contact = |mv: &Move| {
                let mut after = p.clone();
                after.play_unchecked(*mv);
                let next_to_king =
                    (mv.to / 9).abs_diff(king / 9) <= 1 && (mv.to % 9).abs_diff(king % 9) <= 1;
                after.attacks_from(mv.to) & bit(king) != 0
                    && (next_to_king || kind_of(after.piece_at(mv.to)) == KNIGHT)
            };
            match p.mate_in_one() {
                Some(mv) => {
                    assert!(mates.contains(&mv), "{} {}", p.sfen(), p.move_to_usi(mv));
                    with_mate += 1;
                }
                // In check, the search does not ask (it extends the check instead).
                None => {
                    assert!(
                        p.in_check() || !mates.iter().any(contact),
                        "{} misses a contact mate",
                        p.sfen()
                    );
                    without += 1;
                    distant_only += !mates.is_empty() as u32;
                }
            }
        }
        assert!(with_mate > 500, "{with_mate} positions with a mate in one");
        assert!(without > 5_000, "{without} positions without");
        // Some mates are left to the search (a distant or discovered check), not most.
        assert!(
            distant_only * 4 < with_mate,
            "{distant_only} mates not looked for"
        );
        // A pawn drop may not mate: the one mating move here is not offered.
        let pawn_drop_only = position("7nk/7p1/8G/9/9/9/9/9/4K4 b P 1");
        assert_eq!(pawn_drop_only.mate_in_one(), None);
        let moved_pawn = position("7nk/7p1/8P/8L/9/9/9/9/4K4 b - 1");
        let mate = moved_pawn
            .mate_in_one()
            .map(|mv| moved_pawn.move_to_usi(mv));
        assert!(
            matches!(mate.as_deref(), Some("1c1b" | "1c1b+")),
            "{mate:?}"
        );
    }

    #[test]
    fn quiet_checks_are_exactly_the_legal_non_captures_that_give_check() {
        let mut positions = 0;
        let mut checks = 0;
        for p in perft_positions_and_their_children() {
            let expected = quiet_checks_by_playing(&p);
            let mut generated = MoveList::new();
            p.legal_quiet_checks(&mut generated);
            let mut got: Vec<Move> = generated.iter().copied().collect();
            got.sort_by_key(|mv| (mv.from, mv.to, mv.flags));
            assert_eq!(got, expected, "{}", p.sfen());
            positions += 1;
            checks += got.len();
        }
        assert!(positions > 5_000, "{positions} positions");
        assert!(checks > 5_000, "{checks} checks");
    }

    #[test]
    fn sfen_and_fen_round_trips() {
        let start = ShogiPosition::start();
        assert_eq!(start.sfen(), START_SFEN);
        assert_eq!(start.fen(), START_FEN);
        assert_eq!(position(START_FEN), start);
        assert_eq!(position("startpos"), start);
        let sfen = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6";
        assert_eq!(position(sfen).sfen(), sfen);
        let fen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b - - 0 2";
        let sfen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
        assert_eq!(position(fen).sfen(), sfen);
        assert_eq!(position(sfen).fen(), fen);
        assert_eq!(position(fen), position(sfen));
        // Played from the start: 7g7f 3c3d 8h2b+.
        let mut p = ShogiPosition::start();
        for text in ["7g7f", "3c3d", "8h2b+"] {
            let mv = usi(&p, text);
            assert_eq!(p.check_move(mv), Ok(()));
            p.play_unchecked(mv);
        }
        assert_eq!(p.sfen(), sfen);
        assert_eq!(p.fen(), fen);
        // Counted hands, both sides, written R B G S N L P; FSF order inside brackets.
        let p = position("4k4/9/9/9/9/9/9/9/4K4 w G3PRl2b 14");
        assert_eq!(p.sfen(), "4k4/9/9/9/9/9/9/9/4K4 w RG3P2bl 14");
        assert_eq!(p.fen(), "4k4/9/9/9/9/9/9/9/4K4[GPPPRlbb] b - - 0 7");
        // A tsume start: Sente (the attacker) has no king and is never in check.
        let tsume = position("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1");
        assert!(!tsume.in_check());
        assert_eq!(
            tsume.count_legal_moves(),
            0,
            "Sente has nothing to move or drop"
        );
        let p = position("4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1");
        assert_eq!(p.hand_count(Side::Second, PAWN), 18);
        assert_eq!(position(&p.fen()).sfen(), p.sfen());
        // Missing or odd counters are accepted.
        assert_eq!(
            position("4k4/9/9/9/9/9/9/9/4K4 w").sfen(),
            "4k4/9/9/9/9/9/9/9/4K4 w - 1"
        );
        assert_eq!(
            position("4k4/9/9/9/9/9/9/9/4K4 b - 0").sfen(),
            "4k4/9/9/9/9/9/9/9/4K4 b - 1"
        );
        assert_eq!(
            position("4k4/9/9/9/9/9/9/9/4K4[-] w").fen(),
            "4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1"
        );
        assert_eq!(
            position("4k4/9/9/9/9/9/9/9/4K4/[Pp] b 5 9").fen(),
            "4k4/9/9/9/9/9/9/9/4K4[Pp] b - - 5 9"
        );
    }

    #[test]
    fn handicaps_parse_with_gote_to_move() {
        for handicap in Handicap::ALL {
            let p = handicap.position();
            assert_eq!(p.sfen(), handicap.sfen(), "{}", handicap.english());
            let expected = if handicap == Handicap::Even {
                Side::First
            } else {
                Side::Second
            };
            assert_eq!(p.side_to_move(), expected, "{}", handicap.japanese());
            assert!(p.count_legal_moves() > 0);
        }
        assert_eq!(Handicap::Lance.japanese(), "香落ち");
        assert_eq!(
            Handicap::TwoPiece.sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
    }

    #[test]
    fn malformed_positions_are_refused_with_a_reason() {
        let cases = [
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "rank 3 has 10 files",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNx b - 1",
                "unknown piece 'x' on rank 1",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+K b - 1",
                "unknown piece '+K' on rank 1",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/4K4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "two kings for Sente",
            ),
            ("4k4/9/9/9/9/9/9/9/4K4 b K 1", "hand: unknown piece 'K'"),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b 2 1",
                "hand: a count must be followed by a piece",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
                "hand: 19 pawns for Sente (a set has 18)",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
                "hand: 3 rooks for Sente (a set has 2)",
            ),
            (
                "4k4/9/9/9/9/9/9/R8/4K4 b 2R 1",
                "3 rooks on the board and in hand (a set has 2)",
            ),
            ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "a pawn on the last rank"),
            ("4k4/9/9/9/9/9/9/9/l3K4 b - 1", "a lance on the last rank"),
            (
                "4k4/N8/9/9/9/9/9/9/4K4 b - 1",
                "a knight on the last two ranks",
            ),
            (
                "4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1",
                "two pawns on file 5 for Sente (nifu)",
            ),
            (
                "4k4/9/9/9/9/9/9/4r4/4K4 w - 1",
                "the side not to move (Sente) is in check",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 x - 1",
                "side to move 'x' is not b or w",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b - x",
                "move number 'x' is not a number",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4[P b - - 0 1",
                "hand: missing ']' after the pieces in hand",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4[] x - - 0 1",
                "side to move 'x' is not w or b",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4[] w - - 0 1 7",
                "unexpected field '7'",
            ),
            ("", "empty SFEN"),
        ];
        for (text, message) in cases {
            assert_eq!(
                ShogiPosition::from_any(text).unwrap_err().message,
                message,
                "{text}"
            );
        }
    }

    /// No input, however broken, makes the readers or the move parsers panic.
    #[test]
    fn random_text_never_panics() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet: Vec<char> = "lnsgkbrpLNSGKBRP+/0123456789 []-wb@*=abcdefghi歩\u{0}"
            .chars()
            .collect();
        let seeds = [
            START_SFEN,
            START_FEN,
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
        ];
        let mut valid = 0;
        for round in 0..20000 {
            let text: String = if round % 2 == 0 {
                let length = (next() % 40) as usize;
                (0..length)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            } else {
                let mut chars: Vec<char> = seeds[round % seeds.len()].chars().collect();
                for _ in 0..1 + next() % 3 {
                    let index = (next() % chars.len() as u64) as usize;
                    chars[index] = alphabet[(next() % alphabet.len() as u64) as usize];
                }
                chars.into_iter().collect()
            };
            let start = ShogiPosition::start();
            let _ = start.parse_usi(&text);
            let _ = start.parse_uci(&text);
            for result in [
                ShogiPosition::from_any(&text),
                ShogiPosition::from_sfen(&text),
                ShogiPosition::from_fen(&text),
            ]
            .into_iter()
            .flatten()
            {
                assert_eq!(position(&result.sfen()).sfen(), result.sfen());
                assert_eq!(position(&result.fen()).fen(), result.fen());
                valid += 1;
                let _ = result.perft(2);
            }
        }
        assert!(valid > 100, "only {valid} random texts were positions");
    }

    // Nifu: Sente has a pawn on 5g and another in hand.
    //   9 8 7 6 5 4 3 2 1
    //   . . . . k . . . .  a
    //   . . . . . . . . .  b … f
    //   . . . . P . . . .  g
    //   . . . . . . . . .  h
    //   . . . . K . . . .  i      Sente hand: P
    // P*5e is a second pawn on file 5; P*4e is fine. With a tokin (+P) on 5g
    // instead, P*5e is fine.
    #[test]
    fn nifu_is_refused_but_a_tokin_does_not_count() {
        let p = position("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
        assert_eq!(p.check_move(usi(&p, "P*5e")), Err(IllegalMove::TwoPawns));
        assert!(!legal_usi(&p).contains(&"P*5e".to_string()));
        assert_eq!(p.check_move(usi(&p, "P*4e")), Ok(()));
        let tokin = position("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
        assert_eq!(tokin.check_move(usi(&tokin, "P*5e")), Ok(()));
        assert!(legal_usi(&tokin).contains(&"P*5e".to_string()));
    }

    // Uchifuzume: Gote's king on 1a is boxed in by its own knight (2a) and pawn (2b);
    // Sente's gold on 1c guards 1b.
    //   9 8 7 6 5 4 3 2 1
    //   . . . . . . . n k  a
    //   . . . . . . . p .  b
    //   . . . . . . . . G  c
    //   …
    //   . . . . K . . . .  i      Sente hand: P
    // P*1b would mate: refused. Without the gold, P*1b is only a check (the king
    // takes it) and is legal.
    #[test]
    fn pawn_drop_mate_is_refused_but_a_pawn_drop_check_is_not() {
        let p = position("7nk/7p1/8G/9/9/9/9/9/4K4 b P 1");
        assert_eq!(
            p.check_move(usi(&p, "P*1b")),
            Err(IllegalMove::DropPawnMate)
        );
        assert!(!legal_usi(&p).contains(&"P*1b".to_string()));
        assert!(legal_usi(&p).contains(&"P*1d".to_string()));
        let check_only = position("7nk/7p1/9/9/9/9/9/9/4K4 b P 1");
        let mv = usi(&check_only, "P*1b");
        assert_eq!(check_only.check_move(mv), Ok(()));
        assert!(legal_usi(&check_only).contains(&"P*1b".to_string()));
        let mut after = check_only.clone();
        after.play_unchecked(mv);
        assert!(after.in_check());
    }

    // A moved pawn may mate: Sente's pawn 1c goes to 1b, backed by the lance on 1d.
    //   9 8 7 6 5 4 3 2 1
    //   . . . . . . . n k  a
    //   . . . . . . . p .  b
    //   . . . . . . . . P  c
    //   . . . . . . . . L  d
    //   …
    //   . . . . K . . . .  i
    #[test]
    fn a_moved_pawn_may_mate() {
        let p = position("7nk/7p1/8P/8L/9/9/9/9/4K4 b - 1");
        for text in ["1c1b", "1c1b+"] {
            let mv = usi(&p, text);
            assert_eq!(p.check_move(mv), Ok(()), "{text}");
            let mut after = p.clone();
            after.play_unchecked(mv);
            assert!(after.in_check() && !after.has_legal_move(), "{text} mates");
        }
    }

    // Forced promotion: Sente's pawn on 5b and knight on 2d.
    //   9 8 7 6 5 4 3 2 1
    //   k . . . . . . . .  a
    //   . . . . P . . . .  b
    //   . . . . . . . . .  c
    //   . . . . . . . N .  d
    //   …
    //   . . . . K . . . .  i
    // 5b5a and 2d1b/2d3b must promote.
    #[test]
    fn pawn_and_knight_must_promote_on_the_last_ranks() {
        let p = position("k8/4P4/9/7N1/9/9/9/9/4K4 b - 1");
        let moves = legal_usi(&p);
        assert!(moves.contains(&"5b5a+".to_string()));
        assert!(!moves.contains(&"5b5a".to_string()));
        assert_eq!(p.check_move(usi(&p, "5b5a")), Err(IllegalMove::MustPromote));
        for target in ["2d1b", "2d3b"] {
            assert!(moves.contains(&format!("{target}+")));
            assert!(!moves.contains(&target.to_string()));
            assert_eq!(p.check_move(usi(&p, target)), Err(IllegalMove::MustPromote));
        }
    }

    // Optional promotion: Sente's silvers on 5d (entering the zone) and 3c (leaving it to 4d),
    // gold on 7d (never promotes).
    //   9 8 7 6 5 4 3 2 1
    //   k . . . . . . . .  a
    //   . . . . . . . . .  b
    //   . . . . . . S . .  c
    //   . . G . S . . . .  d
    //   …
    //   . . . . K . . . .  i
    #[test]
    fn promotion_is_optional_entering_or_leaving_the_zone() {
        let p = position("k8/9/6S2/2G1S4/9/9/9/9/4K4 b - 1");
        let moves = legal_usi(&p);
        for text in ["5d5c", "5d5c+", "3c4d", "3c4d+", "3c2b", "3c2b+"] {
            assert!(moves.contains(&text.to_string()), "{text}");
        }
        assert!(!moves.contains(&"5d4e+".to_string()));
        assert_eq!(
            p.check_move(usi(&p, "5d4e+")),
            Err(IllegalMove::CannotPromote)
        );
        assert_eq!(
            p.check_move(usi(&p, "7d7c+")),
            Err(IllegalMove::CannotPromote)
        );
        assert_eq!(p.check_move(usi(&p, "7d7c")), Ok(()));
    }

    // Dead drops: Sente holds a pawn, a lance and a knight; Gote's king on 9a.
    //   9 8 7 6 5 4 3 2 1
    //   k . . . . . . . .  a
    //   …
    //   . . . . K . . . .  i      Sente hand: N L P
    // No pawn or lance on rank a, no knight on ranks a and b.
    #[test]
    fn dead_drops_are_refused() {
        let p = position("k8/9/9/9/9/9/9/9/4K4 b NLP 1");
        for text in ["P*5a", "L*5a", "N*5a", "N*5b"] {
            assert_eq!(
                p.check_move(usi(&p, text)),
                Err(IllegalMove::DeadPiece),
                "{text}"
            );
            assert!(!legal_usi(&p).contains(&text.to_string()));
        }
        for text in ["P*5b", "L*5b", "N*5c"] {
            assert_eq!(p.check_move(usi(&p, text)), Ok(()), "{text}");
        }
        assert_eq!(p.check_move(usi(&p, "G*5a")), Err(IllegalMove::NotInHand));
        assert_eq!(
            p.check_move(usi(&p, "5a5b")),
            Err(IllegalMove::NoPieceToMove)
        );
        assert_eq!(p.check_move(usi(&p, "5i3i")), Err(IllegalMove::NotAMove));
        let pinned = position("k3r4/9/9/9/9/9/9/4G4/4K4 b - 1");
        assert_eq!(
            pinned.check_move(usi(&pinned, "5h4h")),
            Err(IllegalMove::LeavesKingInCheck)
        );
        assert_eq!(pinned.check_move(usi(&pinned, "5h5g")), Ok(()));
    }

    #[test]
    fn move_notations() {
        let p = ShogiPosition::start();
        let mv = usi(&p, "7g7f");
        assert_eq!(p.move_to_uci(mv), "c3c4");
        assert_eq!(p.parse_uci("c3c4"), Some(mv));
        assert_eq!(p.parse_uci("c3c4="), Some(mv));
        assert_eq!(
            p.parse_uci("b2h8+"),
            Some(Move::promoting(square_at(1, 1), square_at(7, 7)))
        );
        assert_eq!(
            p.move_to_usi(Move::promoting(square_at(1, 1), square_at(7, 7))),
            "8h2b+"
        );
        assert_eq!(p.parse_uci("P@e5"), Some(Move::drop(PAWN, square_at(4, 4))));
        assert_eq!(p.parse_usi("P*5e"), Some(Move::drop(PAWN, square_at(4, 4))));
        assert_eq!(p.move_to_uci(Move::drop(PAWN, square_at(4, 4))), "P@e5");
        assert_eq!(p.move_to_usi(Move::drop(ROOK, square_at(4, 4))), "R*5e");
        for bad in [
            "", "c3", "c3c4x", "j1a1", "a0a1", "K@e5", "P@e10", "7g7", "7g7f=", "0a1a",
        ] {
            assert_eq!(p.parse_uci(bad), None, "{bad}");
            assert_eq!(p.parse_usi(bad), None, "{bad}");
        }
        assert_eq!(piece_letter(piece(Side::Second, PAWN)), "p");
        assert_eq!(piece_letter(piece(Side::First, PROMOTED_PAWN)), "+P");
        assert_eq!(piece_letter(piece(Side::Second, DRAGON)), "+r");
        assert!(p.is_capture(Move::new(square_at(7, 1), square_at(7, 7))) || !p.is_capture(mv));
    }

    #[test]
    fn impasse_points_and_declaration() {
        let start = ShogiPosition::start();
        // Rook 5 + bishop 5 + 17 small pieces.
        assert_eq!(start.impasse_points(Side::First), 27);
        assert_eq!(start.impasse_points(Side::Second), 27);
        assert!(!start.both_kings_in_enemy_camp());
        // Sente's king on 5b with ten pieces in the camp (rook, bishop, 8 golds/silvers) and
        // 12 pawns in hand: 5 + 5 + 8 + 12 = 30 points.
        //   9 8 7 6 5 4 3 2 1
        //   G G G G . S S S S  a
        //   R B . . K . . . .  b
        //   …
        //   . . . . k . . . .  i       Sente hand: 12P
        let p = position("GGGG1SSSS/RB2K4/9/9/9/9/9/9/4k4 b 12P 1");
        assert!(p.declaration_wins(Side::First));
        assert!(!p.declaration_wins(Side::Second));
        assert!(p.both_kings_in_enemy_camp());
        assert_eq!(p.impasse_points(Side::First), 30);
        let short = position("GGGG1SSSS/RB2K4/9/9/9/9/9/9/4k4 b 9P 1");
        assert!(
            !short.declaration_wins(Side::First),
            "27 points are not enough for Sente"
        );
    }

    /// `cargo test --release --lib shogi::tests::perft_speed -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn perft_speed() {
        let start = ShogiPosition::start();
        let began = std::time::Instant::now();
        let nodes = start.perft(5);
        let seconds = began.elapsed().as_secs_f64();
        assert_eq!(nodes, 19_861_490);
        println!(
            "perft 5: {nodes} nodes in {seconds:.3} s = {:.1} M nodes/s",
            nodes as f64 / seconds / 1e6
        );
    }
}
