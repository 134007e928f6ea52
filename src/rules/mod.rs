//! The rules engine: boards, pieces, legal moves, game end, positions in and out.
//!
//! Pure by design: no I/O, no terminal, no threads, no clocks. Everything the
//! interface and the CPU need to know about a game comes from here.

pub mod any;
pub mod board9x10;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod gungjanggi;
pub mod janggi;
pub mod notation;
pub mod perft;
pub mod shogi;
pub mod xiangqi;
pub mod zobrist;

use std::fmt;

/// The two players. `First` moves first: Red in xiangqi, Sente in shogi, Cho in janggi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Red (xiangqi), Sente/Black (shogi), Cho (janggi): uppercase in FEN, bottom of the board.
    First = 0,
    /// Black (xiangqi), Gote/White (shogi), Han (janggi): lowercase in FEN, top of the board.
    Second = 1,
}

impl Side {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The word used by the engine protocols' `Outcome:` line.
    pub const fn protocol_name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

/// A move, shared by every game.
///
/// `from` and `to` are square indices (`rank * 9 + file`, rank 0 at the first
/// player's side). A drop stores the dropped piece kind in `from` and sets
/// [`Move::DROP`]; a janggi pass has `from == to` (the king's square twice).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Origin square, or the dropped piece kind for a drop.
    pub from: u8,
    /// Destination square.
    pub to: u8,
    /// [`Move::PROMOTE`] and [`Move::DROP`] bits.
    pub flags: u8,
}

impl Move {
    /// The piece promotes at the end of this move (shogi; `+` in engine notation).
    pub const PROMOTE: u8 = 1;
    /// The move drops a piece from the hand (shogi; `P@e5`).
    pub const DROP: u8 = 2;

    /// A plain move from one square to another.
    #[inline]
    pub const fn new(from: u8, to: u8) -> Move {
        Move { from, to, flags: 0 }
    }

    /// A move that promotes on arrival.
    #[inline]
    pub const fn promoting(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            flags: Move::PROMOTE,
        }
    }

    /// A drop of a piece kind (the game's own kind number) on `to`.
    #[inline]
    pub const fn drop(kind: u8, to: u8) -> Move {
        Move {
            from: kind,
            to,
            flags: Move::DROP,
        }
    }

    /// True for a drop from the hand.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.flags & Move::DROP != 0
    }

    /// True when the piece promotes at the end of the move.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.flags & Move::PROMOTE != 0
    }

    /// True for a pass (janggi): from and to are the same square and it is not a drop.
    #[inline]
    pub const fn is_pass(self) -> bool {
        !self.is_drop() && self.from == self.to
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({}->{}{}{})",
            self.from,
            self.to,
            if self.is_drop() { " drop" } else { "" },
            if self.is_promotion() { "+" } else { "" }
        )
    }
}

/// The most legal moves any position of any supported game can have (shogi's record is 593).
pub const MAX_MOVES: usize = 640;

/// A fixed-capacity list of moves that lives on the stack: move generation never allocates.
/// The capacity defaults to [`MAX_MOVES`], enough for any position's moves; a short list
/// ([`ExchangeMoves`]) serves where few moves can come, and costs less to create (a list
/// starts zeroed, and the static exchange makes one at every capture it judges).
#[derive(Clone)]
pub struct MoveList<const CAPACITY: usize = MAX_MOVES> {
    moves: [Move; CAPACITY],
    len: usize,
}

/// The moves onto one square (a static exchange's recaptures): fewer than 40 in any
/// position of any game (every piece of one side that reaches the square).
pub type ExchangeMoves = MoveList<40>;

impl<const CAPACITY: usize> Default for MoveList<CAPACITY> {
    fn default() -> Self {
        MoveList {
            moves: [Move::default(); CAPACITY],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList::default()
    }
}

impl<const CAPACITY: usize> MoveList<CAPACITY> {
    /// Appends a move. The capacity is larger than any legal position needs.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < CAPACITY);
        if self.len < CAPACITY {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// Number of moves held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no move is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut write = 0;
        for read in 0..self.len {
            let mv = self.moves[read];
            if keep(mv) {
                self.moves[write] = mv;
                write += 1;
            }
        }
        self.len = write;
    }

    /// Keeps the first `kept` moves and, of those after them, only the ones for which
    /// `keep` is true, in order (a generator appending to a list, then filtering what
    /// it appended).
    #[inline]
    pub fn retain_after(&mut self, kept: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut index = 0;
        self.retain(|mv| {
            index += 1;
            index <= kept || keep(mv)
        });
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in search).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// True when `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a, const CAPACITY: usize> IntoIterator for &'a MoveList<CAPACITY> {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Why a game ended (the reason words are the protocol's kebab-case names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A repetition decided by perpetual check (the checking side loses).
    PerpetualCheck,
    /// A repetition without perpetual check.
    Repetition,
    /// Janggi: the generals faced each other and the facing was accepted.
    Bikjang,
    /// Too many plies without a capture (or in total).
    MoveLimit,
    /// Neither side can win any more.
    InsufficientMaterial,
    /// Shogi impasse (jishogi) declaration or count.
    Impasse,
    /// Janggi: both players passed in a row.
    DoublePass,
    /// A player resigned.
    Resignation,
    /// A player broke a rule the board cannot show (a record's 反則負け, CSA's
    /// `%ILLEGAL_MOVE`): the game is lost off the board.
    Foul,
    /// A player ran out of time.
    Timeout,
    /// The players agreed to a draw.
    Agreement,
    /// Gungjanggi: the first check of the judging phase wins.
    FirstCheck,
    /// Gungjanggi: material decides after the judging phase.
    Material,
    /// Gungjanggi: equal material, the second player wins.
    SecondPlayer,
}

impl EndReason {
    /// The kebab-case word used on the protocol's `Outcome:` line.
    pub const fn protocol_name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::Repetition => "repetition",
            EndReason::Bikjang => "bikjang",
            EndReason::MoveLimit => "move-limit",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Impasse => "impasse",
            EndReason::DoublePass => "double-pass",
            EndReason::Resignation => "resignation",
            EndReason::Foul => "foul",
            EndReason::Timeout => "timeout",
            EndReason::Agreement => "agreement",
            EndReason::FirstCheck => "first-check",
            EndReason::Material => "material",
            EndReason::SecondPlayer => "second-player",
        }
    }
}

/// Scores that decided a game (janggi KJA points, shogi impasse points), first player first.
///
/// Janggi scores are kept in half points so Han's 1.5 stays exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scores {
    /// The first player's score, in half points when `halves` is true.
    pub first: i32,
    /// The second player's score, in half points when `halves` is true.
    pub second: i32,
    /// True when the numbers are half points (janggi's 1.5 deom).
    pub halves: bool,
}

impl fmt::Display for Scores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |f: &mut fmt::Formatter<'_>, value: i32| -> fmt::Result {
            if self.halves {
                if value % 2 == 0 {
                    write!(f, "{}", value / 2)
                } else {
                    write!(f, "{}.5", value / 2)
                }
            } else {
                write!(f, "{value}")
            }
        };
        show(f, self.first)?;
        write!(f, " ")?;
        show(f, self.second)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won, for `reason`; `scores` when points decided it.
    Win {
        /// The side that won.
        winner: Side,
        /// Why.
        reason: EndReason,
        /// The points that decided it, if any.
        scores: Option<Scores>,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: EndReason,
        /// The points, if any were counted.
        scores: Option<Scores>,
    },
}

impl Outcome {
    /// A win without scores.
    pub const fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome::Win {
            winner,
            reason,
            scores: None,
        }
    }

    /// A draw without scores.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome::Draw {
            reason,
            scores: None,
        }
    }

    /// The winner, if any.
    pub const fn winner(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub const fn reason(&self) -> EndReason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason, .. } => *reason,
        }
    }
}

impl fmt::Display for Outcome {
    /// The protocol form: `first wins by checkmate`, `draw by repetition`, `second wins by bikjang 30 31.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scores = match self {
            Outcome::Win {
                winner,
                reason,
                scores,
            } => {
                write!(
                    f,
                    "{} wins by {}",
                    winner.protocol_name(),
                    reason.protocol_name()
                )?;
                scores
            }
            Outcome::Draw { reason, scores } => {
                write!(f, "draw by {}", reason.protocol_name())?;
                scores
            }
        };
        if let Some(scores) = scores {
            write!(f, " {scores}")?;
        }
        Ok(())
    }
}

/// Why a move was refused. The interface shows this in the status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// There is no piece of the side to move on the origin square.
    NoPieceToMove,
    /// The piece cannot move that way.
    NotAMove,
    /// The move would leave (or put) one's own king in check.
    LeavesKingInCheck,
    /// Xiangqi: the generals would face each other on an open file.
    FlyingGeneral,
    /// Shogi: a second unpromoted pawn on a file.
    TwoPawns,
    /// Shogi: a pawn drop that checkmates.
    DropPawnMate,
    /// Shogi: a piece dropped or moved where it could never move again without promoting.
    DeadPiece,
    /// Shogi: promotion is not possible for this move.
    CannotPromote,
    /// Shogi: the piece must promote here.
    MustPromote,
    /// Shogi: no such piece in hand.
    NotInHand,
    /// Janggi: passing is not allowed now (in check, or too many passes).
    CannotPass,
    /// The move would repeat a position in a way the rules forbid.
    ForbiddenRepetition,
    /// Gungjanggi: this side has already called bikjang.
    BikjangAlreadyCalled,
    /// The game is over.
    GameOver,
}

impl IllegalMove {
    /// A short English explanation.
    pub const fn describe(self) -> &'static str {
        match self {
            IllegalMove::NoPieceToMove => "no piece of yours on that square",
            IllegalMove::NotAMove => "that piece cannot move there",
            IllegalMove::LeavesKingInCheck => "leaves the king in check",
            IllegalMove::FlyingGeneral => "the generals would face each other",
            IllegalMove::TwoPawns => "nifu: a second pawn on this file",
            IllegalMove::DropPawnMate => "uchifuzume: a pawn drop may not give mate",
            IllegalMove::DeadPiece => "the piece could never move again",
            IllegalMove::CannotPromote => "this move cannot promote",
            IllegalMove::MustPromote => "the piece must promote here",
            IllegalMove::NotInHand => "no such piece in hand",
            IllegalMove::CannotPass => "passing is not allowed now",
            IllegalMove::ForbiddenRepetition => "the move would repeat the position",
            IllegalMove::BikjangAlreadyCalled => "bikjang was already called once",
            IllegalMove::GameOver => "the game is over",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A malformed position string: says which field and why, never panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// What is wrong, e.g. `rank 7 has 10 files`.
    pub message: String,
}

impl FenError {
    /// Builds an error from any message.
    pub fn new(message: impl Into<String>) -> FenError {
        FenError {
            message: message.into(),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FenError {}

/// What every game's position offers: the engine and perft are generic over it.
///
/// Positions are small plain values: make a move on a copy (`clone` then
/// [`Position::play_unchecked`]) to keep the old one.
pub trait Position: Clone {
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// Appends every legal move (history-free rules only; see [`game::Game`]).
    fn legal_moves(&self, moves: &mut MoveList);
    /// Plays a move known to be legal. The fast path for search and perft.
    fn play_unchecked(&mut self, mv: Move);
    /// True when the side to move is in check.
    fn in_check(&self) -> bool;
    /// The zobrist hash of the position (board, hands, side to move, game state).
    fn hash(&self) -> u64;
    /// The key repetition rules compare (by default the hash; gungjanggi leaves out pass counters).
    fn repetition_key(&self) -> u64 {
        self.hash()
    }
    /// Plies since the last capture.
    fn halfmove_clock(&self) -> u32;
    /// The position in its FEN form (Fairy-Stockfish form for engine protocols).
    fn fen(&self) -> String;
    /// Writes a move the way Fairy-Stockfish's UCI mode writes it (`h3e3`, `P@e5`, `b2h8+`).
    fn move_to_uci(&self, mv: Move) -> String;

    /// How many legal moves there are (perft's last level; a game may count without
    /// storing them).
    fn count_legal_moves(&self) -> u64 {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Counts leaf nodes of the legal move tree to `depth` (bulk-counted at the last level).
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }
}
