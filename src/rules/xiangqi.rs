//! Xiangqi (Chinese chess): board, move generation, check and the history-free rules.
//!
//! Repetition and the move limit need the game's history and live in
//! [`super::game`]; this module answers questions about one position.

use super::board9x10::{
    board_move_name, check_piece_counts, moves_of_pieces, nearest_on_line, open_file_between,
    orthogonal_direction, parse_board_move, split_fen, with_move_made, within_reach, PieceMoves,
    LINES,
};
use super::fen::{parse_placement, write_placement};
use super::geometry::{
    file_of, offset, rank_of, square_at, square_name, BlockableJump, BoardTables, SquareSet,
    DIAGONAL, ORTHOGONAL, TABLES_9X10,
};
use super::zobrist;
use super::{FenError, IllegalMove, Move, MoveList, Position, Side};
use std::sync::LazyLock;

/// Piece kinds of the 9×10 games (xiangqi and janggi share the numbering).
pub mod kind {
    /// General / king.
    pub const KING: u8 = 1;
    /// Advisor / guard.
    pub const ADVISOR: u8 = 2;
    /// Elephant.
    pub const ELEPHANT: u8 = 3;
    /// Horse.
    pub const HORSE: u8 = 4;
    /// Chariot.
    pub const CHARIOT: u8 = 5;
    /// Cannon.
    pub const CANNON: u8 = 6;
    /// Soldier.
    pub const SOLDIER: u8 = 7;
}

/// Added to a kind to make the second player's piece code.
pub const SECOND: u8 = 8;

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
    code & 7
}

/// The FEN letter of a piece code (K A B N R C P, lowercase for the second player).
pub fn piece_letter(code: u8) -> char {
    let letter = match kind_of(code) {
        kind::KING => 'K',
        kind::ADVISOR => 'A',
        kind::ELEPHANT => 'B',
        kind::HORSE => 'N',
        kind::CHARIOT => 'R',
        kind::CANNON => 'C',
        _ => 'P',
    };
    if owner(code) == Side::Second {
        letter.to_ascii_lowercase()
    } else {
        letter
    }
}

/// Reads a FEN letter (K A B/E N/H R C P, either case) into a piece code.
pub fn piece_from_letter(letter: char) -> Option<u8> {
    let kind = match letter.to_ascii_uppercase() {
        'K' => kind::KING,
        'A' => kind::ADVISOR,
        'B' | 'E' => kind::ELEPHANT,
        'N' | 'H' => kind::HORSE,
        'R' => kind::CHARIOT,
        'C' => kind::CANNON,
        'P' => kind::SOLDIER,
        _ => return None,
    };
    let side = if letter.is_ascii_uppercase() {
        Side::First
    } else {
        Side::Second
    };
    Some(piece(side, kind))
}

/// The palace (3×3 at the centre of each back rank) of a side.
pub fn palace(side: Side) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let base = match side {
        Side::First => 0,
        Side::Second => 7,
    };
    for rank in base..base + 3 {
        for file in 3..6 {
            set.insert(square_at(file, rank));
        }
    }
    set
}

/// True when a square is on `side`'s half of the board (before the river).
#[inline]
pub const fn own_half(side: Side, square: u8) -> bool {
    match side {
        Side::First => rank_of(square) <= 4,
        Side::Second => rank_of(square) >= 5,
    }
}

pub(super) struct XiangqiTables {
    palace: [SquareSet; 2],
    king_steps: Vec<Vec<u8>>,
    advisor_steps: Vec<Vec<u8>>,
    /// Elephant jumps: target and eye (midpoint), any square; own-half filter at use.
    elephant_jumps: Vec<Vec<(u8, u8)>>,
    /// Soldier steps per side.
    soldier_steps: [Vec<Vec<u8>>; 2],
    /// Squares where a move can change whether the king on this square is attacked.
    sensitive: Vec<SquareSet>,
}

static TABLES: LazyLock<XiangqiTables> = LazyLock::new(|| {
    let palace = [palace(Side::First), palace(Side::Second)];
    let mut king_steps = vec![Vec::new(); 90];
    let mut advisor_steps = vec![Vec::new(); 90];
    let mut elephant_jumps = vec![Vec::new(); 90];
    let mut soldier_steps = [vec![Vec::new(); 90], vec![Vec::new(); 90]];
    let mut sensitive = vec![SquareSet::EMPTY; 90];
    for square in 0..90u8 {
        let in_palace = palace.iter().find(|p| p.contains(square)).copied();
        if let Some(p) = in_palace {
            for step in ORTHOGONAL {
                if let Some(to) = offset(square, step, 10).filter(|&t| p.contains(t)) {
                    king_steps[square as usize].push(to);
                }
            }
            for step in DIAGONAL {
                if let Some(to) = offset(square, step, 10).filter(|&t| p.contains(t)) {
                    advisor_steps[square as usize].push(to);
                }
            }
        }
        for step in DIAGONAL {
            if let Some(eye) = offset(square, step, 10) {
                if let Some(target) = offset(eye, step, 10) {
                    elephant_jumps[square as usize].push((target, eye));
                }
            }
        }
        for side in [Side::First, Side::Second] {
            let forward = if side == Side::First { 1 } else { -1 };
            let steps = &mut soldier_steps[side.index()][square as usize];
            if let Some(to) = offset(square, (0, forward), 10) {
                steps.push(to);
            }
            if !own_half(side, square) {
                for sideways in [-1, 1] {
                    if let Some(to) = offset(square, (sideways, 0), 10) {
                        steps.push(to);
                    }
                }
            }
        }
        let mut set = SquareSet::EMPTY;
        for other in 0..90u8 {
            if file_of(other) == file_of(square) || rank_of(other) == rank_of(square) {
                set.insert(other);
            }
        }
        for step in DIAGONAL {
            if let Some(leg) = offset(square, step, 10) {
                set.insert(leg);
            }
        }
        sensitive[square as usize] = set;
    }
    XiangqiTables {
        palace,
        king_steps,
        advisor_steps,
        elephant_jumps,
        soldier_steps,
        sensitive,
    }
});

/// A xiangqi position: the board, the side to move and the counters.
#[derive(Clone, PartialEq, Eq)]
pub struct XiangqiPosition {
    board: [u8; 90],
    occupied: [u128; 2],
    kings: [u8; 2],
    side: Side,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

impl std::fmt::Debug for XiangqiPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "XiangqiPosition({})", self.fen())
    }
}

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Default for XiangqiPosition {
    fn default() -> Self {
        Self::from_fen(START_FEN).expect("the start position is valid")
    }
}

impl XiangqiPosition {
    /// Reads a Fairy-Stockfish / UCCI FEN (`w`/`r` = Red, `b` = Black; B/E and N/H both read).
    pub fn from_fen(fen: &str) -> Result<XiangqiPosition, FenError> {
        let (placement, side, halfmove, fullmove) = split_fen(fen)?;
        let cells = parse_placement(placement, 10, &|c, promoted| {
            if promoted {
                None
            } else {
                piece_from_letter(c)
            }
        })?;
        let mut board = [0u8; 90];
        board.copy_from_slice(&cells);
        let mut kings = [u8::MAX; 2];
        for (square, &code) in board.iter().enumerate() {
            if code != 0 && kind_of(code) == kind::KING {
                let who = owner(code);
                let name = if who == Side::First { "Red" } else { "Black" };
                if kings[who.index()] != u8::MAX {
                    return Err(FenError::new(format!("two kings for {name}")));
                }
                if !TABLES.palace[who.index()].contains(square as u8) {
                    return Err(FenError::new(format!(
                        "the {name} king on {} is outside its palace",
                        square_name(square as u8)
                    )));
                }
                kings[who.index()] = square as u8;
            }
        }
        for (index, name) in ["Red", "Black"].iter().enumerate() {
            if kings[index] == u8::MAX {
                return Err(FenError::new(format!("no king for {name}")));
            }
        }
        Ok(Self::from_parts(board, side, halfmove, fullmove))
    }

    /// Refuses a position no game can reach, as a FEN from outside may describe: more
    /// pieces of a kind than a set has, a soldier behind its start line, or the side not
    /// to move in check (flying general included), where `go` would answer by taking a
    /// king. [`XiangqiPosition::from_fen`] checks the board's shape only, so test
    /// corpora of composed positions still read.
    pub fn check_reachable(&self) -> Result<(), FenError> {
        let board = &self.board;
        check_piece_counts(board, ["Red", "Black"])?;
        for (square, &code) in board.iter().enumerate() {
            if code == 0 || kind_of(code) != kind::SOLDIER {
                continue;
            }
            // A soldier never moves back: it is never behind the rank it starts on.
            let rank = rank_of(square as u8);
            let (behind, name) = match owner(code) {
                Side::First => (rank < 3, "Red"),
                Side::Second => (rank > 6, "Black"),
            };
            if behind {
                return Err(FenError::new(format!(
                    "the {name} soldier on {} is behind its start line",
                    square_name(square as u8)
                )));
            }
        }
        let waiting = self.side.opponent();
        if self.is_king_attacked(waiting) {
            let name = if waiting == Side::First {
                "Red"
            } else {
                "Black"
            };
            return Err(FenError::new(format!(
                "the side not to move ({name}) is in check"
            )));
        }
        Ok(())
    }

    /// Builds a position from a board already checked to hold one king per side in its palace.
    pub(crate) fn from_parts(
        board: [u8; 90],
        side: Side,
        halfmove: u32,
        fullmove: u32,
    ) -> XiangqiPosition {
        let mut position = XiangqiPosition {
            board,
            occupied: [0; 2],
            kings: [0; 2],
            side,
            halfmove,
            fullmove,
            hash: 0,
        };
        for (square, &code) in board.iter().enumerate() {
            if code != 0 {
                position.occupied[owner(code).index()] |= 1u128 << square;
                if kind_of(code) == kind::KING {
                    position.kings[owner(code).index()] = square as u8;
                }
            }
        }
        position.hash = position.compute_hash();
        position
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for (square, &code) in self.board.iter().enumerate() {
            if code != 0 {
                hash ^= zobrist::PIECE_SQUARE[code as usize][square];
            }
        }
        if self.side == Side::Second {
            hash ^= zobrist::SECOND_TO_MOVE;
        }
        hash
    }

    /// The piece code on a square (0 = empty).
    #[inline]
    pub fn piece_at(&self, square: u8) -> u8 {
        self.board[square as usize]
    }

    /// The whole board, indexed by square.
    pub fn board(&self) -> &[u8; 90] {
        &self.board
    }

    /// The squares holding a side's pieces, one bit per square (bit `square`).
    pub fn occupied_by(&self, side: Side) -> u128 {
        self.occupied[side.index()]
    }

    /// The square of a side's king.
    pub fn king_square(&self, side: Side) -> u8 {
        self.kings[side.index()]
    }

    /// Full-move number (increments after the second player moves).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// True when `square` is attacked by `attacker` on `board` (flying general included),
    /// whose occupied squares are `occupied`.
    fn attacked_on(board: &[u8; 90], occupied: u128, square: u8, attacker: Side) -> bool {
        (0..LINES.len())
            .any(|direction| Self::line_attacked(board, occupied, square, attacker, direction))
            || TABLES_9X10.horse_attackers[square as usize]
                .iter()
                .any(|jump| Self::horse_attacks(board, jump, attacker))
            || Self::soldier_attacked(board, square, attacker)
    }

    /// True when `square`, not attacked by `attacker` before the move `mv` (a move of the
    /// other side's, not off `square`), is attacked on `board` after it (occupied squares
    /// `occupied`): the same answer as [`Self::attacked_on`] there, looking only where the
    /// move can have opened an attack. That is the files and ranks through either of its
    /// squares (a chariot or the facing general freed, a cannon given its one screen or
    /// left with one of two) and the horses whose leg it left; a capture keeps the square
    /// occupied, and no move of the other side's brings a soldier.
    fn attack_opened(
        board: &[u8; 90],
        occupied: u128,
        square: u8,
        attacker: Side,
        mv: Move,
    ) -> bool {
        let moved = 1u128 << mv.from | 1u128 << mv.to;
        (0..LINES.len()).any(|direction| {
            LINES[direction][square as usize] & moved != 0
                && Self::line_attacked(board, occupied, square, attacker, direction)
        }) || TABLES_9X10.horse_attackers[square as usize]
            .iter()
            .any(|jump| jump.block == mv.from && Self::horse_attacks(board, jump, attacker))
    }

    /// True when the legal move `mv` leaves the opponent's general attacked, told without
    /// playing it (for the CPU, which asks of every move it searches). The opponent is not
    /// in check before the move, and a legal move never leaves the generals facing, so a
    /// check comes only from a horse or soldier on its new square or through what the move
    /// changed on the general's files, ranks and horse legs ([`Self::attack_opened`],
    /// which finds a chariot or cannon on its new square too).
    pub fn gives_check(&self, mv: Move) -> bool {
        let attacker = self.side;
        let king = self.kings[attacker.opponent().index()];
        let moved_kind = kind_of(self.board[mv.from as usize]);
        let sensitive = TABLES.sensitive[king as usize];
        let near_king = sensitive.contains(mv.from) || sensitive.contains(mv.to);
        // A soldier attacks only squares next to it, on the general's file or rank.
        if !near_king && moved_kind != kind::HORSE {
            return false;
        }
        let occupied = self.occupied_after(mv);
        let mut board = self.board;
        with_move_made(&mut board, mv, |board| {
            let direct = match moved_kind {
                kind::HORSE => TABLES_9X10.horse_attackers[king as usize]
                    .iter()
                    .any(|jump| jump.target == mv.to && board[jump.block as usize] == 0),
                kind::SOLDIER => {
                    TABLES.soldier_steps[attacker.index()][mv.to as usize].contains(&king)
                }
                _ => false,
            };
            direct || (near_king && Self::attack_opened(board, occupied, king, attacker, mv))
        })
    }

    /// Along the file or rank from `square` in `direction`: a chariot (or the facing
    /// general) of `attacker`'s first, or its cannon over one screen.
    #[inline(always)]
    fn line_attacked(
        board: &[u8; 90],
        occupied: u128,
        square: u8,
        attacker: Side,
        direction: usize,
    ) -> bool {
        let Some(first) = nearest_on_line(occupied, square, direction) else {
            return false;
        };
        let code = board[first as usize];
        if code == piece(attacker, kind::CHARIOT) || code == piece(attacker, kind::KING) {
            return true;
        }
        nearest_on_line(occupied, first, direction)
            .is_some_and(|second| board[second as usize] == piece(attacker, kind::CANNON))
    }

    /// True when `attacker`'s horse stands on the jump's far end with its leg empty.
    #[inline(always)]
    fn horse_attacks(board: &[u8; 90], jump: &BlockableJump, attacker: Side) -> bool {
        board[jump.target as usize] == piece(attacker, kind::HORSE)
            && board[jump.block as usize] == 0
    }

    /// True when a soldier of `attacker`'s attacks `square`: from the square behind it
    /// (as `attacker` sees it), or from beside it once across the river.
    #[inline(always)]
    fn soldier_attacked(board: &[u8; 90], square: u8, attacker: Side) -> bool {
        let soldier = piece(attacker, kind::SOLDIER);
        let toward_attacker: i8 = if attacker == Side::First { -1 } else { 1 };
        if offset(square, (0, toward_attacker), 10)
            .is_some_and(|from| board[from as usize] == soldier)
        {
            return true;
        }
        !own_half(attacker, square)
            && [-1, 1].into_iter().any(|sideways| {
                offset(square, (sideways, 0), 10)
                    .is_some_and(|from| board[from as usize] == soldier)
            })
    }

    /// True when `square` is attacked by `attacker`'s chariots, cannons, horses, soldiers or
    /// flying general (advisors and elephants are not counted); the CPU uses it to spot
    /// captures of defended pieces.
    pub fn is_attacked(&self, square: u8, attacker: Side) -> bool {
        (square as usize) < 90
            && Self::attacked_on(&self.board, self.all_occupied(), square, attacker)
    }

    /// True when `side`'s king is attacked (or faces the other king).
    pub fn is_king_attacked(&self, side: Side) -> bool {
        Self::attacked_on(
            &self.board,
            self.all_occupied(),
            self.kings[side.index()],
            side.opponent(),
        )
    }

    /// Every occupied square, one bit per square.
    #[inline]
    fn all_occupied(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// The occupied squares once the board move `mv` is made, as [`with_move_made`]
    /// leaves the board.
    #[inline]
    fn occupied_after(&self, mv: Move) -> u128 {
        (self.all_occupied() & !(1u128 << mv.from)) | 1u128 << mv.to
    }

    /// Appends every pseudo-legal move (legal except for leaving the king attacked).
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        self.pseudo_legal_moves_kept(moves, |_| true);
    }

    /// Appends the pseudo-legal moves that `keep` accepts, in the order of
    /// [`Self::pseudo_legal_moves`] (the captures alone, for the quiescence search,
    /// without listing the quiet moves first).
    #[inline(always)]
    fn pseudo_legal_moves_kept(&self, moves: &mut MoveList, keep: impl Fn(Move) -> bool) {
        moves_of_pieces(self, moves, |_| Some(|_: usize| true), keep);
    }

    /// Appends the pseudo-legal moves onto `square`, in the order of
    /// [`Self::pseudo_legal_moves`]: an exchange on one square needs only these, and
    /// generating every move of the side for them cost more than the exchange itself.
    pub fn pseudo_legal_moves_to<const CAPACITY: usize>(
        &self,
        square: u8,
        moves: &mut MoveList<CAPACITY>,
    ) {
        let rays_toward_square = |from: u8| {
            let slider = matches!(
                kind_of(self.board[from as usize]),
                kind::CHARIOT | kind::CANNON
            );
            if !within_reach(from, square, slider, 2) {
                return None;
            }
            // A slider's moves onto `square` lie on the one ray toward it.
            let toward = orthogonal_direction(from, square);
            Some(move |ray: usize| Some(ray) == toward)
        };
        moves_of_pieces(self, moves, rays_toward_square, |mv| mv.to == square);
    }

    /// True when the pseudo-legal move keeps the mover's king safe (no check, no facing generals).
    #[inline]
    fn is_safe(&mut self, mv: Move, in_check: bool) -> bool {
        let side = self.side;
        let king = self.kings[side.index()];
        if !in_check && mv.from != king {
            let sensitive = TABLES.sensitive[king as usize];
            if !sensitive.contains(mv.from) && !sensitive.contains(mv.to) {
                return true;
            }
            // Not in check: only what the move changed on the king's lines and horse legs
            // can attack it now.
            let occupied = self.occupied_after(mv);
            return with_move_made(&mut self.board, mv, |board| {
                !Self::attack_opened(board, occupied, king, side.opponent(), mv)
            });
        }
        let king_square = if mv.from == king { mv.to } else { king };
        let occupied = self.occupied_after(mv);
        with_move_made(&mut self.board, mv, |board| {
            !Self::attacked_on(board, occupied, king_square, side.opponent())
        })
    }

    /// Appends the pseudo-legal moves that `keep` accepts and that leave the king safe
    /// (the CPU's quiescence search wants the captures alone, its move picker the quiet
    /// moves after the captures: neither tests the king's safety after the other moves).
    fn legal_moves_filtered(&self, moves: &mut MoveList, keep: impl Fn(Move) -> bool) {
        // Generated into the list itself and filtered there (a second list would start
        // zeroed, 640 moves of it, at every call).
        let start = moves.len();
        self.pseudo_legal_moves_kept(moves, keep);
        let in_check = self.in_check();
        let mut scratch = self.clone();
        moves.retain_after(start, |mv| scratch.is_safe(mv, in_check));
    }

    /// Appends the legal captures only: the same moves as [`Position::legal_moves`]
    /// keeps when filtered by [`XiangqiPosition::is_capture`].
    pub fn legal_captures(&self, moves: &mut MoveList) {
        self.legal_moves_filtered(moves, |mv| self.board[mv.to as usize] != 0);
    }

    /// Appends the legal moves that capture nothing, in the order of
    /// [`Position::legal_moves`].
    pub fn legal_quiet_moves(&self, moves: &mut MoveList) {
        self.legal_moves_filtered(moves, |mv| self.board[mv.to as usize] == 0);
    }

    /// Checks a move and says why it is illegal, if it is.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if mv.is_drop() || mv.is_promotion() || mv.from >= 90 || mv.to >= 90 {
            return Err(IllegalMove::NotAMove);
        }
        let code = self.board[mv.from as usize];
        if code == 0 || owner(code) != self.side {
            return Err(IllegalMove::NoPieceToMove);
        }
        let mut moves = MoveList::new();
        self.pseudo_legal_moves(&mut moves);
        if !moves.contains(mv) {
            return Err(IllegalMove::NotAMove);
        }
        let mut after = self.clone();
        after.play_unchecked(mv);
        let king = after.kings[self.side.index()];
        let other = after.kings[self.side.opponent().index()];
        if open_file_between(&after.board, king, other) {
            return Err(IllegalMove::FlyingGeneral);
        }
        if after.is_king_attacked(self.side) {
            return Err(IllegalMove::LeavesKingInCheck);
        }
        Ok(())
    }

    /// Parses a move in Fairy-Stockfish UCI form (`h3e3`, `a10a9`) into a move of this position (not yet checked).
    pub fn parse_uci(&self, text: &str) -> Option<Move> {
        parse_board_move(text)
    }

    /// True when neither side has a piece that can cross the river (chariot, horse, cannon, soldier).
    pub fn insufficient_material(&self) -> bool {
        !self.board.iter().any(|&code| {
            matches!(
                kind_of(code),
                kind::CHARIOT | kind::HORSE | kind::CANNON | kind::SOLDIER
            ) && code != 0
        })
    }

    /// True when the move captures a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to as usize] != 0
    }

    /// Hands the turn to the other side without moving: not a xiangqi move, but the
    /// CPU's null-move pruning asks "what if I could pass?" to prove a position good.
    pub fn play_null_move(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::SECOND_TO_MOVE;
        self.halfmove += 1;
    }
}

impl PieceMoves for XiangqiPosition {
    type Tables = (&'static XiangqiTables, &'static BoardTables);

    #[inline(always)]
    fn move_tables() -> Self::Tables {
        (&TABLES, &TABLES_9X10)
    }

    #[inline(always)]
    fn pieces_to_move(&self) -> u128 {
        self.occupied[self.side.index()]
    }

    #[inline(always)]
    fn piece_moves(
        &self,
        &(tables, board_tables): &Self::Tables,
        from: u8,
        ray_wanted: impl Fn(usize) -> bool,
        mut push: impl FnMut(Move),
    ) {
        let side = self.side;
        let own = self.occupied[side.index()];
        let target_ok = |to: u8| own & (1u128 << to) == 0;
        let code = self.board[from as usize];
        match kind_of(code) {
            kind::KING => {
                for &to in &tables.king_steps[from as usize] {
                    if target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
            kind::ADVISOR => {
                for &to in &tables.advisor_steps[from as usize] {
                    if target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
            kind::ELEPHANT => {
                for &(to, eye) in &tables.elephant_jumps[from as usize] {
                    if own_half(side, to) && self.board[eye as usize] == 0 && target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
            kind::HORSE => {
                for jump in &board_tables.horse_moves[from as usize] {
                    if self.board[jump.block as usize] == 0 && target_ok(jump.target) {
                        push(Move::new(from, jump.target));
                    }
                }
            }
            kind::CHARIOT => {
                for (index, ray) in board_tables.rays[from as usize].iter().enumerate() {
                    if !ray_wanted(index) {
                        continue;
                    }
                    for &to in ray.as_slice() {
                        let target = self.board[to as usize];
                        if target == 0 {
                            push(Move::new(from, to));
                        } else {
                            if owner(target) != side {
                                push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
            kind::CANNON => {
                for (index, ray) in board_tables.rays[from as usize].iter().enumerate() {
                    if !ray_wanted(index) {
                        continue;
                    }
                    let mut screened = false;
                    for &to in ray.as_slice() {
                        let target = self.board[to as usize];
                        if !screened {
                            if target == 0 {
                                push(Move::new(from, to));
                            } else {
                                screened = true;
                            }
                        } else if target != 0 {
                            if owner(target) != side {
                                push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
            _ => {
                for &to in &tables.soldier_steps[side.index()][from as usize] {
                    if target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
        }
    }
}

impl Position for XiangqiPosition {
    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.legal_moves_filtered(moves, |_| true);
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let side = self.side;
        let moving = self.board[mv.from as usize];
        let captured = self.board[mv.to as usize];
        let from_bit = 1u128 << mv.from;
        let to_bit = 1u128 << mv.to;
        self.hash ^= zobrist::PIECE_SQUARE[moving as usize][mv.from as usize]
            ^ zobrist::PIECE_SQUARE[moving as usize][mv.to as usize]
            ^ zobrist::SECOND_TO_MOVE;
        if captured != 0 {
            self.hash ^= zobrist::PIECE_SQUARE[captured as usize][mv.to as usize];
            self.occupied[side.opponent().index()] &= !to_bit;
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.occupied[side.index()] ^= from_bit | to_bit;
        self.board[mv.to as usize] = moving;
        self.board[mv.from as usize] = 0;
        if kind_of(moving) == kind::KING {
            self.kings[side.index()] = mv.to;
        }
        if side == Side::Second {
            self.fullmove += 1;
        }
        self.side = side.opponent();
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
        self.halfmove
    }

    fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            write_placement(&self.board, 10, &|code| piece_letter(code).to_string()),
            if self.side == Side::First { 'w' } else { 'b' },
            self.halfmove,
            self.fullmove
        )
    }

    fn move_to_uci(&self, mv: Move) -> String {
        board_move_name(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> XiangqiPosition {
        XiangqiPosition::from_fen(fen).unwrap()
    }

    #[test]
    fn gives_check_without_playing_agrees_with_playing_every_legal_move() {
        let text = include_str!("../../tests/data/xiangqi.perft");
        let mut positions = Vec::new();
        for fen in text.lines().filter_map(|line| line.strip_prefix("fen ")) {
            let root = position(fen.trim());
            let mut moves = MoveList::new();
            root.legal_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = root.clone();
                child.play_unchecked(mv);
                positions.push(child);
            }
            positions.push(root);
        }
        let (mut moves_checked, mut checks, mut discovered, mut by_horse) = (0, 0, 0, 0);
        for p in positions.iter().filter(|p| !p.in_check()) {
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            let king = p.kings[p.side_to_move().opponent().index()];
            for &mv in legal.iter() {
                let mut child = p.clone();
                child.play_unchecked(mv);
                assert_eq!(
                    p.gives_check(mv),
                    child.in_check(),
                    "{} {}",
                    p.fen(),
                    p.move_to_uci(mv)
                );
                moves_checked += 1;
                if child.in_check() {
                    checks += 1;
                    let moved = kind_of(p.board[mv.from as usize]);
                    by_horse += (moved == kind::HORSE) as usize;
                    let mut without_mover = child.clone();
                    without_mover.board[mv.to as usize] = 0;
                    let occupied = without_mover.all_occupied() & !(1u128 << mv.to);
                    if XiangqiPosition::attacked_on(
                        &without_mover.board,
                        occupied,
                        king,
                        p.side_to_move(),
                    ) {
                        discovered += 1;
                    }
                }
            }
        }
        assert!(moves_checked > 50_000, "{moves_checked} moves");
        assert!(checks > 1_000, "{checks} checks");
        assert!(by_horse > 5, "{by_horse} checks by a horse");
        assert!(discovered > 10, "{discovered} discovered checks");
    }

    #[test]
    fn start_position_perft() {
        let start = XiangqiPosition::default();
        assert_eq!(start.perft(1), 44);
        assert_eq!(start.perft(2), 1920);
        assert_eq!(start.perft(3), 79666);
    }

    #[test]
    fn fen_round_trip() {
        let start = XiangqiPosition::default();
        assert_eq!(start.fen(), START_FEN);
        let other = "r1bakabr1/9/1cn3nc1/p1p1p1pRp/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 b - - 7 4";
        assert_eq!(position(other).fen(), other);
    }

    #[test]
    fn malformed_fens_are_refused_with_a_reason() {
        let cases = [
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                "rank 1 has 10 files",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                "unknown piece 'X' on rank 1",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
                "two kings for Red",
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "no king for Black",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "side to move 'x' is not w or b",
            ),
        ];
        for (fen, message) in cases {
            assert_eq!(
                XiangqiPosition::from_fen(fen).unwrap_err().message,
                message,
                "{fen}"
            );
        }
    }

    // Flying general: the black general on e10, red general on e1, only the
    // red cannon on e5 between them. Moving the cannon off the file is illegal.
    //   e10 k
    //   e5  C
    //   e1  K
    #[test]
    fn flying_general_forbids_uncovering() {
        let p = position("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
        let from = square_at(4, 4);
        assert_eq!(
            p.check_move(Move::new(from, square_at(3, 4))),
            Err(IllegalMove::FlyingGeneral)
        );
        assert_eq!(p.check_move(Move::new(from, square_at(4, 5))), Ok(()));
    }

    // Horse blocked on its leg: red horse b1, own piece on b2 blocks the jumps to a3 and c3.
    #[test]
    fn horse_leg_blocks() {
        let p = position("3k5/9/9/9/9/9/9/9/1P7/1N2K4 w - - 0 1");
        let horse = square_at(1, 0);
        assert_eq!(
            p.check_move(Move::new(horse, square_at(0, 2))),
            Err(IllegalMove::NotAMove)
        );
        assert_eq!(p.check_move(Move::new(horse, square_at(3, 1))), Ok(()));
    }

    // Elephant eye: red elephant c1, a piece on d2 blocks c1-e3; never crosses the river.
    #[test]
    fn elephant_eye_and_river() {
        let p = position("3k5/9/9/9/9/2B6/9/9/3P5/2B1K4 w - - 0 1");
        assert_eq!(
            p.check_move(Move::new(square_at(2, 0), square_at(4, 2))),
            Err(IllegalMove::NotAMove)
        );
        assert_eq!(
            p.check_move(Move::new(square_at(2, 0), square_at(0, 2))),
            Ok(())
        );
        // c5 elephant may not jump over the river to a7/e7.
        assert_eq!(
            p.check_move(Move::new(square_at(2, 4), square_at(4, 6))),
            Err(IllegalMove::NotAMove)
        );
    }

    // Cannon needs exactly one screen to capture.
    #[test]
    fn cannon_screens() {
        let p = position("4k4/9/9/9/4p4/9/4P4/9/4C4/3K5 w - - 0 1");
        let cannon = square_at(4, 1);
        assert_eq!(p.check_move(Move::new(cannon, square_at(4, 5))), Ok(()));
        assert_eq!(
            p.check_move(Move::new(cannon, square_at(4, 3))),
            Err(IllegalMove::NotAMove)
        );
    }

    fn uci_moves(p: &XiangqiPosition) -> Vec<String> {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| p.move_to_uci(m)).collect();
        names.sort();
        names
    }

    // Moves that open an attack on the mover's own general when it is not in check: what
    // `attack_opened` must find (lists as Fairy-Stockfish 11.1 gives them).
    #[test]
    fn a_piece_on_a_horses_leg_a_cannons_screen_or_between_the_generals_is_held() {
        // The chariot on f2 is the leg of the horse on g2's jump to e1: it may only take it.
        let leg = position("3k5/9/9/9/9/9/9/9/5Rn2/4K4 w - - 0 1");
        assert_eq!(uci_moves(&leg), ["e1e2", "e1f1", "f2g2"]);
        // The chariot may not stop on e3, where it would be the cannon's screen.
        let screen = position("3k5/9/9/9/4c4/9/9/R8/9/4K4 w - - 0 1");
        let mut expected: Vec<String> = (1..=10)
            .filter(|&rank| rank != 3)
            .map(|rank| format!("a3a{rank}"))
            .chain(["b", "c", "d", "f", "g", "h", "i"].map(|file| format!("a3{file}3")))
            .chain(["e1e2".to_string(), "e1f1".to_string()])
            .collect();
        expected.sort();
        assert_eq!(uci_moves(&screen), expected);
        // The cannon between the generals may not leave their file.
        let between = position("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
        assert_eq!(
            uci_moves(&between),
            ["e1d1", "e1e2", "e1f1", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"]
        );
    }
}
