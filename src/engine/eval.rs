//! What the search needs to know about each game, beyond the rules' `Position` trait:
//! the static evaluation, piece values for move ordering, the position-level game
//! ends, how repetition is judged, and a null move.
//!
//! Every answer about legality and game end comes from the rules engine; this
//! module only translates the rules' verdicts into search scores.

use super::tuned;
use super::tuned_relations;
use crate::rules::any::AnyPosition;
use crate::rules::board9x10::{nearest, LINES};
use crate::rules::janggi::{JanggiPosition, JanggiRepetition};
use crate::rules::shogi::{self, ShogiPosition};
use crate::rules::xiangqi::{self, kind, XiangqiPosition};
use crate::rules::{zobrist, ExchangeMoves, Move, MoveList, Position, Side};

/// Scores at or beyond this size are mates (`MATE - plies`).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A game decided without mate (perpetual check lost, KJA points at bikjang or repetition).
/// The search scores it like a mate at the ply where it happens, as Fairy-Stockfish does.
pub const DECIDED: i32 = 20_000;

/// How a game treats a position that comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Xiangqi, shogi: the repetition ends the game at `threshold` occurrences; a side that
    /// checked on every move of the cycle loses, otherwise it is a draw.
    Judged {
        /// Occurrences that end the game (3 in xiangqi, 4 in shogi).
        threshold: usize,
    },
    /// Janggi (KJA, traditional, casual): a move repeating a position by perpetual check is
    /// illegal; otherwise `threshold` occurrences end the game (scored by the position).
    PerpetualCheckIllegal {
        /// Occurrences that end the game.
        threshold: usize,
    },
    /// Janggi modern: any move that repeats an earlier position is illegal.
    AnyRepeatIllegal,
}

/// The game-specific knowledge the generic search uses. One implementation per game,
/// so the search is monomorphised and the hot paths never dispatch.
pub trait EngineRules: Position + Send + Sync + 'static {
    /// The concrete position inside an [`AnyPosition`], when it is of this game.
    fn from_any(any: &AnyPosition) -> Option<&Self>;
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;
    /// The evaluation the levels' ladder was measured with (levels 1–9 search through
    /// [`Perceived`](super::perception), which asks this): kept apart so a stronger
    /// evaluation for level 10 leaves every level's play, and its measured strength, as
    /// it was.
    fn ladder_evaluate(&self) -> i32 {
        self.evaluate()
    }
    /// The key for the transposition table and repetition: the zobrist hash plus any
    /// state the hash leaves out.
    fn search_key(&self) -> u64 {
        self.hash()
    }
    /// A key of what the static evaluation tends to misjudge the same way over and over
    /// (shogi: both kings' squares and both hands; janggi: where the generals, guards and
    /// soldiers stand), under which the search learns a
    /// correction from its own results; `None` where the game keeps none under a key.
    fn correction_key(&self) -> Option<u64> {
        None
    }
    /// Ordering value of the piece a move takes (0 for a quiet move).
    fn victim_value(&self, mv: Move) -> i32;
    /// Ordering value of the piece that moves.
    fn attacker_value(&self, mv: Move) -> i32;
    /// True for a capture that likely loses material: a more valuable piece takes one the
    /// opponent defends. The quiescence search skips it and move ordering tries it late.
    fn losing_capture(&self, mv: Move) -> bool {
        let _ = mv;
        false
    }
    /// True for moves the quiescence search looks at (captures; shogi also promotions of
    /// rooks and bishops).
    fn is_tactical(&self, mv: Move) -> bool;
    /// A game end that this position alone decides (beyond having no legal move), as a
    /// score for the side to move: move limits, insufficient material, janggi's accepted
    /// bikjang and double pass.
    fn position_end(&self) -> Option<i32>;
    /// How a repeated position is judged.
    fn repetition_rule(&self) -> RepetitionRule;
    /// The score of a drawn-looking end for the side to move (janggi KJA rules decide it by
    /// points; 0 everywhere else).
    fn drawn_end_value(&self) -> i32 {
        0
    }
    /// The position after the side to move passes, when null-move pruning may try it.
    fn null_move(&self) -> Option<Self>;
    /// True when the side to move has enough pieces that a zugzwang is unlikely.
    fn null_move_safe(&self) -> bool;
    /// Material value of the piece on `square` in an exchange (0 when empty; a king is
    /// worth more than everything else together, so it only takes last).
    fn exchange_piece_value(&self, square: u8) -> i32;
    /// Material value of the piece `mv` moves (or drops) in an exchange: by default the
    /// piece on its origin (games with drops override it).
    fn exchange_mover_value(&self, mv: Move) -> i32 {
        self.exchange_piece_value(mv.from)
    }
    /// Appends the side to move's pseudo-legal captures onto `square` (pins ignored,
    /// promotions not doubled): the recaptures of a static exchange.
    fn captures_to(&self, square: u8, moves: &mut ExchangeMoves);
    /// True when a static exchange needs no more than [`EngineRules::attackers_among`]:
    /// a capture only empties the capturer's square and changes no other piece's reach
    /// (shogi). False where the exchange is played out with the rules' own moves
    /// (xiangqi's and janggi's cannon screens, the levels' perceived positions).
    const EXCHANGE_BY_ATTACKERS: bool = false;
    /// The squares of `attacker`'s pieces attacking `square` once the pieces outside
    /// `remaining` are taken off the board; read only where
    /// [`EngineRules::EXCHANGE_BY_ATTACKERS`] holds (none by default).
    fn attackers_among(&self, square: u8, attacker: Side, remaining: u128) -> u128 {
        let _ = (square, attacker, remaining);
        0
    }
    /// Appends the legal captures (board moves onto an opponent's piece, promoting or
    /// not): exactly the legal moves with a positive [`EngineRules::victim_value`],
    /// generated without the quiet moves (the move picker's first stage).
    fn capture_moves(&self, moves: &mut MoveList);
    /// Appends the legal moves with no [`EngineRules::victim_value`], in the order of
    /// [`Position::legal_moves`], after the moves already in `moves` (the move picker's
    /// quiet stage, which has the captures already).
    fn quiet_moves(&self, moves: &mut MoveList) {
        let kept = moves.len();
        self.legal_moves(moves);
        moves.retain_after(kept, |mv| self.victim_value(mv) == 0);
    }
    /// Whether `mv` is a legal move here, as the rules decide it, when they can say so
    /// more cheaply than by generating every legal move; `None` when they cannot (then
    /// the move picker waits for the generation before trying a hash move or killer).
    fn quick_legality(&self, mv: Move) -> Option<bool> {
        let _ = mv;
        None
    }
    /// Late-move pruning, when the position is not improving, cuts after half as many
    /// quiet moves (measured by nodes to a fixed depth: a gain in xiangqi and shogi, a
    /// loss in janggi).
    const EAGER_LATE_MOVE_PRUNING: bool = false;
    /// Late root moves are reduced like an interior principal-variation node's, and the
    /// root's moves after the best are ordered by the nodes their refutation took in the
    /// last iteration (the reductions then fall on the quickly refuted ones). Measured in
    /// session 27: shogi −32% nodes to depth and +26 ± 31 Elo at 100 ms; xiangqi lost at
    /// 40,000 nodes (41.9% of 124 games), so only shogi turns it on.
    const ROOT_REDUCTIONS: bool = false;
    /// The correction history also learns under the move that led to a position (from
    /// and to squares, or the dropped kind and square), as Stockfish's continuation
    /// correction: how a reply to that move tends to be misjudged. Measured in sessions
    /// 31–32 at 40,000 nodes: shogi +40 ± 34 against the build before (400 games, with the
    /// mended update); janggi +16 ± 34 against the mend's first form, itself +29 ± 34
    /// against the build before, and without this table −18 ± 34 (session 33); xiangqi
    /// (which has no keyed table, so this is its only correction) +30 ± 20 over 800 games
    /// (sessions 31 and 32). On in all three games.
    const CONTINUATION_CORRECTION: bool = false;
    /// A check is searched a ply deeper only when the checking move loses no material by
    /// exchange, decided at the move as Stockfish 11 does (the root's moves too, from
    /// session 41); when false every position in check is searched a ply deeper. Alone,
    /// against main at 40,000 nodes (session 40, 200 games): shogi +24 ± 48, janggi
    /// −7 ± 48. Together with [`Self::INTERNAL_ITERATIVE_REDUCTION`] (measured there),
    /// on in shogi and janggi. Extending the root's checks as well (session 41): shogi
    /// 100-1-99 at 40,000 nodes and 4% fewer nodes to depth 9; janggi finds the win in
    /// three of `tests/engine.rs`'s mate suite at depth 4 with it, at depth 10 without.
    const CHECK_EXTENSION_BY_EXCHANGE: bool = false;
    /// A principal-variation or expected cut node at depth 4 or more with no move in the
    /// table is searched a ply shallower (internal iterative reduction). Session 40, with
    /// the exchange-checked extension, against main: shogi +38 ± 48 at 40,000 nodes and
    /// +38 ± 48 at `go movetime 100` (200 games each); xiangqi −3 ± 42 at 40,000 nodes
    /// though 26% fewer nodes to its depth, so off there. Janggi, with the extension (20%
    /// fewer nodes to depth 10 once the root's checks are extended too): at 40,000 nodes
    /// +7 ± 48 (session 40), +53 ± 49 and, root checks extended, +28 ± 48 (session 41),
    /// 325-0-275 over the 600 games (+29 ± 28), so on in shogi and janggi.
    const INTERNAL_ITERATIVE_REDUCTION: bool = false;
    /// The search hands out a node's moves in stages ([`super::picker`]): the hash move
    /// before any generation, captures, refutations, then the quiet moves. When false,
    /// every legal move is generated and scored at once and handed out best first, as
    /// before the picker (janggi: with the staged order it lost both self-play matches
    /// against the one-generation order at equal nodes, 25–35 of 60 and 65–75 of 140).
    const STAGED_MOVE_ORDER: bool = true;
    /// Below the root the search asks [`Self::gives_check_unplayed`] of every move, not
    /// only of the quiet moves pruning would drop unplayed, instead of looking at the
    /// played position's king: where telling is the cheaper of the two (janggi, xiangqi).
    const CHECK_TOLD_BEFORE_PLAYING: bool = false;
    /// Whether the legal move `mv` gives check, when the game can tell without playing it
    /// (`None`: play it and look). The search asks before making a quiet move that
    /// late-move pruning or futility would drop unless it checks.
    fn gives_check_unplayed(&self, mv: Move) -> Option<bool> {
        let _ = mv;
        None
    }
    /// A legal move that checkmates at once, where the game looks for one before
    /// searching a node (`None`: no such move, or the game does not look). Shogi does:
    /// a mate by a drop hides among a hundred-odd moves that the search would order by
    /// history and prune near the leaves. The levels'
    /// [`Perceived`](super::perception::Perceived) positions do not look.
    fn mate_in_one(&self) -> Option<Move> {
        None
    }
    /// Appends the legal non-captures that give check, which the quiescence search looks
    /// at on its first ply; none by default (shogi's, where mates come by drops, pay).
    fn quiet_checks(&self, moves: &mut MoveList) {
        let _ = moves;
    }
    /// Appends the legal moves the quiescence search looks at: exactly the legal moves
    /// for which [`EngineRules::is_tactical`] holds, generated without the others.
    fn tactical_moves(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for &mv in all.iter() {
            if self.is_tactical(mv) {
                moves.push(mv);
            }
        }
    }
}

/// A king's worth in an exchange: more than any army.
const EXCHANGE_KING: i32 = 20_000;

/// The exchange value of a xiangqi or janggi piece code (0 for an empty point; the
/// king counts as [`EXCHANGE_KING`]), from that game's value table.
fn palace_exchange_value(code: u8, values: &[i32]) -> i32 {
    match code {
        0 => 0,
        code if xiangqi::kind_of(code) == kind::KING => EXCHANGE_KING,
        code => values[xiangqi::kind_of(code) as usize],
    }
}

/// The fitted evaluation of a 9×10 game ([`super::tuned`]): its tables and weights.
struct FittedModel {
    /// Each kind's value on each square counted from its owner's side, material included,
    /// with every piece on the board.
    square_values: &'static [[i16; 90]; 8],
    /// How much each square value changes by the endgame (no chariot, horse or cannon
    /// left); a position gets its share of it by its phase ([`phase_weight`], [`FULL_PHASE`]).
    endgame_shifts: &'static [[i16; 90]; 8],
    chariot_mobility: i32,
    horse_mobility: i32,
    king_safety: i32,
    /// Janggi's cannons fade as the board empties; 0 in xiangqi.
    cannon_fade: i32,
    cannon_reach: i32,
    /// A cannon on the enemy king's file or rank, by the pieces between (0, 1 or 2).
    cannon_facing_king: [i32; 3],
    tempo: i32,
    /// The threat terms (0 in xiangqi): see [`Threats`].
    threats: Threats,
    /// Each kind's threat value (by kind code) for the threat terms.
    threat_values: [i32; 8],
    /// Janggi: its cannon rules (screens and targets that are not cannons) and its king's
    /// defenders (advisors next to the general, at most 2); xiangqi counts advisors and
    /// elephants (at most 4).
    janggi: bool,
}

/// Janggi's terms read off the attacks of every piece ([`JanggiPosition::attacks_from`]):
/// each elephant's reach, and the pieces attacked, counted by their threat value
/// ([`JANGGI_THREAT_VALUES`]) for the side to move and for the side waiting apart, since
/// the side to move can save its own piece or take the other's.
struct Threats {
    /// Per square an elephant attacks that holds no own piece.
    elephant_mobility: i32,
    /// Per threat value of the mover's pieces attacked and not defended.
    hanging_mover: i32,
    /// The same for the waiting side's pieces.
    hanging_waiter: i32,
    /// Per threat value of the mover's defended pieces attacked by a piece of lower value.
    attacked_by_lesser_mover: i32,
    /// The same for the waiting side's pieces.
    attacked_by_lesser_waiter: i32,
}

/// Janggi's threat value of each kind (by kind code; the general is never counted as
/// attacked, nor as a lesser attacker): soldier 2, advisor and elephant 3, horse 5,
/// cannon 7, chariot 13, as `tools/tune_eval.py` weighs them.
const JANGGI_THREAT_VALUES: [i32; 8] = [0, 0, 3, 3, 5, 13, 7, 2];

/// The phase weight of the pieces that make a middlegame: chariots 4, horses and cannons 2,
/// so the start position counts [`FULL_PHASE`].
#[inline]
fn phase_weight(piece_kind: u8) -> i32 {
    match piece_kind {
        kind::CHARIOT => 4,
        kind::HORSE | kind::CANNON => 2,
        _ => 0,
    }
}

/// The phase of a full board; the endgame share of a position is
/// `1 - min(phase, FULL_PHASE) / FULL_PHASE`.
const FULL_PHASE: i32 = 32;

/// Squares a chariot on `square` reaches along its four lines (mobility): the empty
/// squares up to the first piece, and that piece's square.
#[inline]
fn rook_mobility(occupied: u128, square: u8) -> i32 {
    let mut count = 0;
    for (direction, lines) in LINES.iter().enumerate() {
        let line = lines[square as usize];
        count += match nearest(line & occupied, direction) {
            Some(blocker) => (line ^ lines[blocker as usize]).count_ones(),
            None => line.count_ones(),
        };
    }
    count as i32
}

/// Squares a xiangqi cannon on `square` reaches along its four lines: its slides to empty
/// squares and its capture over one screen. Palace diagonals are left out (as the fit
/// leaves them out). Janggi's cannon reach is read off its attacks instead
/// ([`JanggiPosition::attacks_from`]).
#[inline]
fn xiangqi_cannon_reach(board: &[u8; 90], occupied: u128, square: u8, side: Side) -> i32 {
    let mut count = 0;
    for (direction, lines) in LINES.iter().enumerate() {
        let line = lines[square as usize];
        let Some(screen) = nearest(line & occupied, direction) else {
            // No screen: the cannon slides to the edge.
            count += line.count_ones() as i32;
            continue;
        };
        let beyond = lines[screen as usize];
        // The empty squares before the screen.
        count += (line ^ beyond).count_ones() as i32 - 1;
        if let Some(target) = nearest(beyond & occupied, direction) {
            if xiangqi::owner(board[target as usize]) != side {
                count += 1;
            }
        }
    }
    count
}

/// Pieces strictly between two squares of one file or rank, read off [`LINES`].
#[inline]
fn pieces_between(occupied: u128, from: u8, to: u8) -> usize {
    let direction = match (from % 9 == to % 9, to > from) {
        (false, true) => 0,
        (true, true) => 1,
        (false, false) => 2,
        (true, false) => 3,
    };
    let between = LINES[direction][from as usize] ^ LINES[direction][to as usize];
    (between & occupied & !(1u128 << to)).count_ones() as usize
}

/// Horse destinations from `square` with the leg free and no own piece there (xiangqi and
/// janggi horses move alike).
#[inline]
fn horse_mobility(board: &[u8; 90], square: u8, side: Side) -> i32 {
    let file = (square % 9) as i32;
    let rank = (square / 9) as i32;
    let mut count = 0;
    for (leg_file, leg_rank, ends) in [
        (1, 0, [(2, 1), (2, -1)]),
        (-1, 0, [(-2, 1), (-2, -1)]),
        (0, 1, [(1, 2), (-1, 2)]),
        (0, -1, [(1, -2), (-1, -2)]),
    ] {
        let (f, r) = (file + leg_file, rank + leg_rank);
        if !(0..9).contains(&f) || !(0..10).contains(&r) || board[(r * 9 + f) as usize] != 0 {
            continue;
        }
        for (df, dr) in ends {
            let (f, r) = (file + df, rank + dr);
            if (0..9).contains(&f) && (0..10).contains(&r) {
                let code = board[(r * 9 + f) as usize];
                if code == 0 || xiangqi::owner(code) != side {
                    count += 1;
                }
            }
        }
    }
    count
}

/// The fitted evaluation of a xiangqi or janggi board for the side to move: square
/// values tapered by the phase, chariot, horse and cannon mobility, cannons facing the
/// enemy king, defenders missing against attackers, janggi's fading cannons and the tempo,
/// term for term as `tools/tune_eval.py` fits them.
fn fitted_evaluation(
    model: &FittedModel,
    board: &[u8; 90],
    own: [u128; 2],
    kings: [u8; 2],
    side_to_move: Side,
    attacks_from: Option<impl Fn(u8) -> u128>,
) -> i32 {
    let occupied = own[0] | own[1];
    let mut tally = AttackTally::default();
    let mut score = [0i32; 2];
    let mut endgame_shift = [0i32; 2];
    let mut defenders = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut cannons = [0i32; 2];
    let pieces = occupied.count_ones() as i32;
    let mut phase = 0;
    for side in [Side::First, Side::Second] {
        let index = side.index();
        let mut remaining = own[index];
        while remaining != 0 {
            let square = remaining.trailing_zeros() as u8;
            remaining &= remaining - 1;
            let code = board[square as usize];
            let piece_kind = xiangqi::kind_of(code);
            phase += phase_weight(piece_kind);
            let relative = if side == Side::First {
                square
            } else {
                (9 - square / 9) * 9 + square % 9
            } as usize;
            score[index] += model.square_values[piece_kind as usize][relative] as i32;
            endgame_shift[index] += model.endgame_shifts[piece_kind as usize][relative] as i32;
            // Janggi reads its mobility off each piece's attacks, which its threat terms need
            // anyway; the palace diagonals are left out of the mobility (as the fit leaves them).
            let attacks = attacks_from.as_ref().map(|attacks_from| {
                let attacks = attacks_from(square);
                tally.add(piece_kind, index, attacks, own[index]);
                attacks
            });
            match piece_kind {
                kind::CHARIOT => {
                    let mobility = match attacks {
                        Some(attacks) => (attacks & CROSS[square as usize]).count_ones() as i32,
                        None => rook_mobility(occupied, square),
                    };
                    score[index] += model.chariot_mobility * mobility;
                    attackers[index] += 2;
                }
                kind::HORSE => {
                    let mobility = match attacks {
                        Some(attacks) => (attacks & !own[index]).count_ones() as i32,
                        None => horse_mobility(board, square, side),
                    };
                    score[index] += model.horse_mobility * mobility;
                    attackers[index] += 1;
                }
                kind::CANNON => {
                    attackers[index] += 1;
                    cannons[index] += 1;
                    let reach = match attacks {
                        Some(attacks) if model.janggi => {
                            (attacks & CROSS[square as usize] & !own[index]).count_ones() as i32
                        }
                        // Xiangqi, which has no attack sets here: its cannon slides and captures.
                        _ => xiangqi_cannon_reach(board, occupied, square, side),
                    };
                    score[index] += model.cannon_reach * reach;
                    let king = kings[1 - index];
                    if king < 90 && (king % 9 == square % 9 || king / 9 == square / 9) {
                        if let Some(weight) = model
                            .cannon_facing_king
                            .get(pieces_between(occupied, square, king))
                        {
                            score[index] += weight;
                        }
                    }
                }
                kind::ADVISOR if model.janggi => {
                    let king = kings[index];
                    if (square as i32 % 9 - king as i32 % 9).abs() <= 1
                        && (square as i32 / 9 - king as i32 / 9).abs() <= 1
                    {
                        defenders[index] += 1;
                    }
                }
                kind::ADVISOR | kind::ELEPHANT if !model.janggi => defenders[index] += 1,
                _ => {}
            }
        }
    }
    let full = if model.janggi { 2 } else { 4 };
    let fade = (32 - pieces).max(0);
    for side in 0..2 {
        let missing = full - defenders[side].min(full);
        score[side] -= model.king_safety * missing * attackers[1 - side];
        score[side] -= model.cannon_fade * cannons[side] * fade;
    }
    if attacks_from.is_some() {
        let threats = &model.threats;
        let [elephant_mobility, hanging, attacked_by_lesser] =
            tally.counts(board, own, &model.threat_values);
        let mover = side_to_move.index();
        for index in 0..2 {
            let (hanging_weight, lesser_weight) = if index == mover {
                (threats.hanging_mover, threats.attacked_by_lesser_mover)
            } else {
                (threats.hanging_waiter, threats.attacked_by_lesser_waiter)
            };
            score[index] += threats.elephant_mobility * elephant_mobility[index]
                - hanging_weight * hanging[index]
                - lesser_weight * attacked_by_lesser[index];
        }
    }
    let endgame_share = FULL_PHASE - phase.min(FULL_PHASE);
    let first =
        score[0] - score[1] + (endgame_shift[0] - endgame_shift[1]) * endgame_share / FULL_PHASE;
    model.tempo
        + if side_to_move == Side::First {
            first
        } else {
            -first
        }
}

/// The attacks of every piece of a 9×10 position, gathered for its threat terms.
#[derive(Default)]
struct AttackTally {
    /// Every square each side attacks.
    attacked: [u128; 2],
    /// Every square each side's pieces of each kind attack.
    by_kind: [[u128; 8]; 2],
    elephant_mobility: [i32; 2],
}

impl AttackTally {
    /// Adds the attacks of one piece of kind `piece_kind` and side `index`.
    #[inline]
    fn add(&mut self, piece_kind: u8, index: usize, attacks: u128, own: u128) {
        self.attacked[index] |= attacks;
        self.by_kind[index][piece_kind as usize] |= attacks;
        if piece_kind == kind::ELEPHANT {
            self.elephant_mobility[index] += (attacks & !own).count_ones() as i32;
        }
    }

    /// Per side: elephant mobility, the threat values (`values`, by kind) of its hanging
    /// pieces (attacked, not defended), and of its defended pieces attacked by a piece of
    /// lower threat value. Generals are never counted, nor counted as lesser attackers.
    fn counts(&self, board: &[u8; 90], own: [u128; 2], values: &[i32; 8]) -> [[i32; 2]; 3] {
        let mut hanging = [0i32; 2];
        let mut attacked_by_lesser = [0i32; 2];
        for index in 0..2 {
            let enemy = 1 - index;
            let mut targets = own[index] & self.attacked[enemy];
            while targets != 0 {
                let square = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let piece_kind = xiangqi::kind_of(board[square as usize]);
                if piece_kind == kind::KING {
                    continue;
                }
                let value = values[piece_kind as usize];
                let bit = 1u128 << square;
                if self.attacked[index] & bit == 0 {
                    hanging[index] += value;
                    continue;
                }
                let lesser = (kind::ADVISOR..=kind::SOLDIER)
                    .filter(|&attacker| values[attacker as usize] < value)
                    .fold(0u128, |set, attacker| {
                        set | self.by_kind[enemy][attacker as usize]
                    });
                if lesser & bit != 0 {
                    attacked_by_lesser[index] += value;
                }
            }
        }
        [self.elephant_mobility, hanging, attacked_by_lesser]
    }
}

/// The threat counts of a janggi position per side (index 0 the first player): elephant
/// mobility, the threat values of its hanging pieces, and of its defended pieces attacked
/// by a lesser piece (`Threats`), as the evaluation counts them.
pub fn janggi_threat_counts(position: &JanggiPosition) -> [[i32; 2]; 3] {
    let own = [
        position.occupied_by(Side::First),
        position.occupied_by(Side::Second),
    ];
    let board = position.board();
    let mut tally = AttackTally::default();
    let mut remaining = own[0] | own[1];
    while remaining != 0 {
        let square = remaining.trailing_zeros() as u8;
        remaining &= remaining - 1;
        let code = board[square as usize];
        let index = xiangqi::owner(code).index();
        tally.add(
            xiangqi::kind_of(code),
            index,
            position.attacks_from(square),
            own[index],
        );
    }
    tally.counts(board, own, &JANGGI_THREAT_VALUES)
}

/// Each square's file and rank (itself left out): where a chariot's or cannon's
/// orthogonal moves lie, apart from the palace diagonals.
static CROSS: [u128; 90] = cross_table();

/// Builds [`CROSS`] at compile time.
const fn cross_table() -> [u128; 90] {
    let mut table = [0u128; 90];
    let mut square = 0;
    while square < 90 {
        table[square] = LINES[0][square] | LINES[1][square] | LINES[2][square] | LINES[3][square];
        square += 1;
    }
    table
}

/// Xiangqi's fitted model.
const XIANGQI_MODEL: FittedModel = FittedModel {
    square_values: &tuned::XIANGQI_SQUARE_VALUES,
    endgame_shifts: &tuned::XIANGQI_ENDGAME_SHIFTS,
    chariot_mobility: tuned::XIANGQI_CHARIOT_MOBILITY,
    horse_mobility: tuned::XIANGQI_HORSE_MOBILITY,
    king_safety: tuned::XIANGQI_KING_SAFETY,
    cannon_fade: 0,
    cannon_reach: tuned::XIANGQI_CANNON_REACH,
    cannon_facing_king: [
        tuned::XIANGQI_CANNON_FACING_KING,
        tuned::XIANGQI_CANNON_FACING_KING_OVER_ONE,
        tuned::XIANGQI_CANNON_FACING_KING_OVER_TWO,
    ],
    tempo: tuned::XIANGQI_TEMPO,
    threats: Threats {
        elephant_mobility: 0,
        hanging_mover: 0,
        hanging_waiter: 0,
        attacked_by_lesser_mover: 0,
        attacked_by_lesser_waiter: 0,
    },
    threat_values: [0; 8],
    janggi: false,
};

/// Janggi's fitted model.
const JANGGI_MODEL: FittedModel = FittedModel {
    square_values: &tuned::JANGGI_SQUARE_VALUES,
    endgame_shifts: &tuned::JANGGI_ENDGAME_SHIFTS,
    chariot_mobility: tuned::JANGGI_CHARIOT_MOBILITY,
    horse_mobility: tuned::JANGGI_HORSE_MOBILITY,
    king_safety: tuned::JANGGI_KING_SAFETY,
    cannon_fade: tuned::JANGGI_CANNON_FADE,
    cannon_reach: tuned::JANGGI_CANNON_REACH,
    cannon_facing_king: [
        tuned::JANGGI_CANNON_FACING_KING,
        tuned::JANGGI_CANNON_FACING_KING_OVER_ONE,
        tuned::JANGGI_CANNON_FACING_KING_OVER_TWO,
    ],
    tempo: tuned::JANGGI_TEMPO,
    threats: Threats {
        elephant_mobility: tuned::JANGGI_ELEPHANT_MOBILITY,
        hanging_mover: tuned::JANGGI_HANGING_MOVER,
        hanging_waiter: tuned::JANGGI_HANGING_WAITER,
        attacked_by_lesser_mover: tuned::JANGGI_ATTACKED_BY_LESSER_MOVER,
        attacked_by_lesser_waiter: tuned::JANGGI_ATTACKED_BY_LESSER_WAITER,
    },
    threat_values: JANGGI_THREAT_VALUES,
    janggi: true,
};

// ---------------------------------------------------------------------------
// Xiangqi
// ---------------------------------------------------------------------------

/// Xiangqi values in centipawns by kind (R 9, C 4.5, H 4, A 2, E 2, P 1) for move ordering
/// and exchanges; the evaluation's own values are fitted ([`XIANGQI_MODEL`]).
const XIANGQI_VALUES: [i32; 8] = [0, 0, 200, 200, 400, 900, 450, 100];

impl EngineRules for XiangqiPosition {
    const CONTINUATION_CORRECTION: bool = true;
    const EAGER_LATE_MOVE_PRUNING: bool = true;
    const CHECK_TOLD_BEFORE_PLAYING: bool = true;

    fn gives_check_unplayed(&self, mv: Move) -> Option<bool> {
        Some(self.gives_check(mv))
    }

    fn from_any(any: &AnyPosition) -> Option<&Self> {
        match any {
            AnyPosition::Xiangqi(p) => Some(p),
            _ => None,
        }
    }

    fn evaluate(&self) -> i32 {
        let kings = [
            self.king_square(Side::First),
            self.king_square(Side::Second),
        ];
        let own = [
            self.occupied_by(Side::First),
            self.occupied_by(Side::Second),
        ];
        fitted_evaluation(
            &XIANGQI_MODEL,
            self.board(),
            own,
            kings,
            self.side_to_move(),
            None::<fn(u8) -> u128>,
        )
    }

    fn victim_value(&self, mv: Move) -> i32 {
        let code = self.piece_at(mv.to);
        if code == 0 {
            0
        } else {
            XIANGQI_VALUES[xiangqi::kind_of(code) as usize].max(100)
        }
    }

    fn attacker_value(&self, mv: Move) -> i32 {
        let piece_kind = xiangqi::kind_of(self.piece_at(mv.from));
        if piece_kind == kind::KING {
            1000
        } else {
            XIANGQI_VALUES[piece_kind as usize]
        }
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }

    fn losing_capture(&self, mv: Move) -> bool {
        let victim = self.victim_value(mv);
        victim > 0
            && self.attacker_value(mv) > victim + 50
            && self.is_attacked(mv.to, self.side_to_move().opponent())
    }

    fn position_end(&self) -> Option<i32> {
        // The rules' own tests: the 120-ply limit and material that cannot cross the river.
        if self.halfmove_clock() >= crate::rules::game::XIANGQI_MOVE_LIMIT
            || self.insufficient_material()
        {
            Some(0)
        } else {
            None
        }
    }

    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Judged { threshold: 3 }
    }

    fn null_move(&self) -> Option<Self> {
        let mut next = self.clone();
        next.play_null_move();
        Some(next)
    }

    fn exchange_piece_value(&self, square: u8) -> i32 {
        palace_exchange_value(self.piece_at(square), &XIANGQI_VALUES)
    }

    fn captures_to(&self, square: u8, moves: &mut ExchangeMoves) {
        self.pseudo_legal_moves_to(square, moves);
    }

    fn tactical_moves(&self, moves: &mut MoveList) {
        self.legal_captures(moves);
    }

    fn capture_moves(&self, moves: &mut MoveList) {
        self.legal_captures(moves);
    }

    fn quiet_moves(&self, moves: &mut MoveList) {
        self.legal_quiet_moves(moves);
    }

    fn quick_legality(&self, mv: Move) -> Option<bool> {
        Some(self.check_move(mv).is_ok())
    }

    fn null_move_safe(&self) -> bool {
        let side = self.side_to_move();
        self.board().iter().any(|&code| {
            code != 0
                && xiangqi::owner(code) == side
                && matches!(
                    xiangqi::kind_of(code),
                    kind::CHARIOT | kind::HORSE | kind::CANNON
                )
        })
    }
}

// ---------------------------------------------------------------------------
// Janggi
// ---------------------------------------------------------------------------

/// Janggi values in centipawns by kind (KJA points × 100: C 13, P 7, H 5, E 3, A 3, S 2) for
/// move ordering and exchanges; the evaluation's own values are fitted ([`JANGGI_MODEL`]).
const JANGGI_VALUES: [i32; 8] = [0, 0, 300, 300, 500, 1300, 700, 200];

/// The correction key of a 9×10 board: both kings' squares and where the pieces of the
/// kinds in `structure` stand (a bit per kind: the soldiers and the palace guards, the
/// slow-changing frame the evaluation misjudges the same way), not the fast pieces.
fn board9x10_correction_key(board: &[u8; 90], occupied: u128, structure: u8) -> u64 {
    let mut key = 0u64;
    let mut pieces = occupied;
    while pieces != 0 {
        let square = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let code = board[square] & 31;
        if structure & (1 << (code & 7)) != 0 {
            key = key.wrapping_add(zobrist::PIECE_SQUARE[code as usize][square]);
        }
    }
    key
}

/// The kinds whose squares make janggi's correction key: general, guards, soldiers
/// (janggi's elephants are attackers).
const JANGGI_STRUCTURE: u8 =
    1 << xiangqi::kind::KING | 1 << xiangqi::kind::ADVISOR | 1 << xiangqi::kind::SOLDIER;

impl EngineRules for JanggiPosition {
    const CONTINUATION_CORRECTION: bool = true;
    // Janggi's rules have no quick legality check, so the picker would generate every
    // move up front anyway; the one-generation order is kept (the staged one lost its
    // self-play matches, 90 of 200 games in all, though it needs 10% fewer nodes to
    // reach a depth: tools/STRENGTH.md, session 7).
    const STAGED_MOVE_ORDER: bool = false;
    const CHECK_TOLD_BEFORE_PLAYING: bool = true;
    const CHECK_EXTENSION_BY_EXCHANGE: bool = true;
    const INTERNAL_ITERATIVE_REDUCTION: bool = true;

    fn from_any(any: &AnyPosition) -> Option<&Self> {
        match any {
            AnyPosition::Janggi(p) => Some(p),
            _ => None,
        }
    }

    fn evaluate(&self) -> i32 {
        let kings = [
            self.king_square(Side::First),
            self.king_square(Side::Second),
        ];
        let own = [
            self.occupied_by(Side::First),
            self.occupied_by(Side::Second),
        ];
        let attacks_from = |square: u8| self.attacks_from(square);
        let fitted = fitted_evaluation(
            &JANGGI_MODEL,
            self.board(),
            own,
            kings,
            self.side_to_move(),
            Some(attacks_from),
        );
        // Han's 1.5 points (덤) count in every scored ending.
        let han = if self.rules().scoring { 150 } else { 0 };
        if self.side_to_move() == Side::First {
            fitted - han
        } else {
            fitted + han
        }
    }

    fn search_key(&self) -> u64 {
        // After a pass, a second pass ends the game: a different situation for the same board.
        if self.previous_move_was_pass() {
            self.hash() ^ 0x5bd1_e995_8c3f_27a1
        } else {
            self.hash()
        }
    }

    fn correction_key(&self) -> Option<u64> {
        let occupied = self.occupied_by(Side::First) | self.occupied_by(Side::Second);
        Some(board9x10_correction_key(
            self.board(),
            occupied,
            JANGGI_STRUCTURE,
        ))
    }

    fn victim_value(&self, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let code = self.piece_at(mv.to);
        if code == 0 {
            0
        } else {
            JANGGI_VALUES[xiangqi::kind_of(code) as usize].max(100)
        }
    }

    fn attacker_value(&self, mv: Move) -> i32 {
        let piece_kind = xiangqi::kind_of(self.piece_at(mv.from));
        if piece_kind == kind::KING {
            1500
        } else {
            JANGGI_VALUES[piece_kind as usize]
        }
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }

    fn losing_capture(&self, mv: Move) -> bool {
        let victim = self.victim_value(mv);
        victim > 0
            && self.attacker_value(mv) > victim + 50
            && self.is_attacked(mv.to, self.side_to_move().opponent())
    }

    fn position_end(&self) -> Option<i32> {
        if self.rules().gungjanggi.is_some() {
            // Gungjanggi's endings come from its judging phase; there are no draws.
            let side = self.side_to_move();
            return match self.ended_by() {
                Some(crate::rules::EndReason::FirstCheck) => Some(-DECIDED),
                Some(_) => {
                    let scores = self.gungjanggi_material();
                    let winner = if scores.first > scores.second {
                        Side::First
                    } else {
                        Side::Second
                    };
                    Some(if winner == side { DECIDED } else { -DECIDED })
                }
                None => None,
            };
        }
        if self.ended_by().is_some() {
            return Some(self.drawn_end_value());
        }
        let limit = self.rules().move_limit;
        if limit > 0 && self.halfmove_clock() >= limit {
            return Some(self.drawn_end_value());
        }
        None
    }

    fn repetition_rule(&self) -> RepetitionRule {
        match self.rules().repetition {
            JanggiRepetition::PerpetualCheckIllegal => {
                RepetitionRule::PerpetualCheckIllegal { threshold: 3 }
            }
            // Stricter than the rules (which only forbid a third occurrence or a long
            // shuttle), so the search never walks into them.
            JanggiRepetition::MoveRepetitionIllegal | JanggiRepetition::ThirdOccurrenceIllegal => {
                RepetitionRule::AnyRepeatIllegal
            }
        }
    }

    fn drawn_end_value(&self) -> i32 {
        if !self.rules().scoring {
            return 0;
        }
        // The rules' KJA points (Han's 1.5 included) decide: no ties are possible.
        let scores = self.scores();
        let first_wins = scores.first > scores.second;
        let side_wins = first_wins == (self.side_to_move() == Side::First);
        if side_wins {
            DECIDED
        } else {
            -DECIDED
        }
    }

    fn null_move(&self) -> Option<Self> {
        // Janggi has a real pass: null-move pruning plays it, so no zugzwang can fool it.
        if self.previous_move_was_pass() || self.bikjang_pending() || !self.can_pass() {
            return None;
        }
        let mut next = self.clone();
        next.play_unchecked(self.pass_move());
        Some(next)
    }

    fn null_move_safe(&self) -> bool {
        true
    }

    fn exchange_piece_value(&self, square: u8) -> i32 {
        palace_exchange_value(self.piece_at(square), &JANGGI_VALUES)
    }

    fn capture_moves(&self, moves: &mut MoveList) {
        self.legal_captures(moves);
    }

    fn captures_to(&self, square: u8, moves: &mut ExchangeMoves) {
        self.pseudo_legal_moves_to(square, moves);
    }

    fn tactical_moves(&self, moves: &mut MoveList) {
        self.legal_captures(moves);
    }

    fn gives_check_unplayed(&self, mv: Move) -> Option<bool> {
        self.gives_check(mv)
    }
}

// ---------------------------------------------------------------------------
// Shogi
// ---------------------------------------------------------------------------

/// Shogi board values by kind number (1 pawn … 14 dragon), for move ordering and
/// exchanges (the hand-made values the evaluation's fitted weights started from).
const SHOGI_BOARD_VALUES: [i32; 15] = [
    0, 90, 315, 405, 495, 540, 855, 990, 0, 540, 540, 540, 540, 945, 1395,
];
/// Values of pieces in hand (a little more: a piece in hand can go anywhere), for move
/// ordering and exchanges.
const SHOGI_HAND_VALUES: [i32; 8] = [0, 105, 350, 450, 560, 620, 950, 1100];

/// The squares around a shogi king (its 3×3 block): attacks there are what mates.
#[inline]
fn shogi_king_zone(king: u8) -> u128 {
    SHOGI_KING_ZONES.get(king as usize).copied().unwrap_or(0)
}

/// [`shogi_king_zone`] of every square, built at compile time (the evaluation asks for
/// both kings' zones at every node).
static SHOGI_KING_ZONES: [u128; 81] = shogi_king_zones();

/// Builds [`SHOGI_KING_ZONES`]: each square's 3×3 block, cut at the board's edges.
const fn shogi_king_zones() -> [u128; 81] {
    let mut zones = [0u128; 81];
    let mut king = 0;
    while king < 81 {
        let (file, rank) = ((king % 9) as i32, (king / 9) as i32);
        let mut zone = 0u128;
        let mut zone_rank = rank - 1;
        while zone_rank <= rank + 1 {
            let mut zone_file = file - 1;
            while zone_file <= file + 1 {
                if zone_rank >= 0 && zone_rank < 9 && zone_file >= 0 && zone_file < 9 {
                    zone |= 1u128 << (zone_rank * 9 + zone_file);
                }
                zone_file += 1;
            }
            zone_rank += 1;
        }
        zones[king] = zone;
        king += 1;
    }
    zones
}

/// The 81 squares of the shogi board, one bit each.
const SHOGI_BOARD_SQUARES: u128 = (1u128 << 81) - 1;

/// The weights of [`shogi_terms`] are in 1/16 centipawn.
const SHOGI_WEIGHT_UNIT: i32 = 16;

/// How many terms the shogi evaluation has ([`shogi_terms`]).
pub const SHOGI_TERMS: usize = 39;

/// Where each term sits in [`shogi_terms`] after the 13 board kinds and 7 hand kinds.
mod shogi_term {
    pub const HAND: usize = 13;
    pub const PAWN_ADVANCE: usize = 20;
    pub const SILVER_ADVANCE: usize = 21;
    pub const KNIGHT_ADVANCE: usize = 22;
    pub const BISHOP_REACH: usize = 23;
    pub const HORSE_REACH: usize = 24;
    pub const ROOK_REACH: usize = 25;
    pub const DRAGON_REACH: usize = 26;
    pub const LANCE_REACH: usize = 27;
    pub const KING_CENTRE_FILE: usize = 28;
    pub const KING_AT_HOME: usize = 29;
    pub const KING_ADVANCE: usize = 30;
    pub const KING_GUARDS: usize = 31;
    pub const KING_DANGER: usize = 32;
    pub const TEMPO: usize = 33;
    pub const MOVER_THREATENED: usize = 34;
    pub const WAITER_THREATENED: usize = 35;
    pub const MOVER_ATTACKED_BY_LESSER: usize = 36;
    pub const WAITER_ATTACKED_BY_LESSER: usize = 37;
    pub const KING_DROP_CHECKS: usize = 38;
}

/// A shogi piece kind's value tier (0 pawn, 1 lance and knight, 2 silver, 3 gold and the
/// promoted minor pieces, 4 bishop and horse, 5 rook and dragon; the king has none): a
/// piece attacked by a piece of a lower tier is lost or must move.
const SHOGI_VALUE_TIER: [u8; 15] = [0, 0, 1, 1, 2, 3, 4, 5, 6, 3, 3, 3, 3, 4, 5];

/// The terms of the shogi evaluation, each as the side to move's count minus the
/// opponent's (the tempo is 1): pieces of each kind on the board and in hand, advances,
/// the reach of the long pieces, the king's file, rank and guards, and the king-danger
/// penalty (the opponent's minus one's own); then, for the side to move and for the other
/// side apart, the value (in pawns) of its pieces under threat: attacked and not defended,
/// or attacked by a pawn; then the same for its other pieces attacked by a piece of a
/// lower value tier (`SHOGI_VALUE_TIER`); then the safe checking drops of the side to
/// move minus the opponent's (squares and kinds in hand). The evaluation is their sum
/// weighted by `tuned::SHOGI_WEIGHTS`, plus the piece-square terms
/// ([`shogi_square_terms`]) weighted by their tables; `tools/tune_eval.py` fits all those
/// weights together.
pub fn shogi_terms(position: &ShogiPosition) -> [i32; SHOGI_TERMS] {
    shogi_evaluation_parts::<true>(position).0
}

/// How many piece-square terms the shogi evaluation has: one for each piece kind (the 14
/// board kinds, the king among them) on each of the 81 squares.
pub const SHOGI_SQUARE_TERMS: usize = 14 * 81;

/// A shogi square as its owner sees it: the board turned round for the second player,
/// so square 0 is the owner's own back-rank corner either way.
#[inline]
fn shogi_own_square(square: u8, side: Side) -> usize {
    if side == Side::First {
        square as usize
    } else {
        80 - square as usize
    }
}

/// The piece-square terms of a shogi position: for each kind (board kind − 1) and square
/// counted from the owner's side (`shogi_own_square`), the side to move's pieces there
/// minus the opponent's, at index `kind × 81 + square`. Weighted by
/// `tuned::SHOGI_SQUARE_WEIGHTS`; `tools/tune_eval.py` fits those weights to these terms.
pub fn shogi_square_terms(position: &ShogiPosition) -> Vec<i32> {
    let mut terms = vec![0; SHOGI_SQUARE_TERMS];
    let mover = position.side_to_move();
    for (square, &code) in position.board().iter().enumerate().take(81) {
        if code == 0 {
            continue;
        }
        let side = shogi::owner(code);
        let kind = shogi::kind_of(code) as usize - 1;
        let sign = if side == mover { 1 } else { -1 };
        terms[kind * 81 + shogi_own_square(square as u8, side)] += sign;
    }
    terms
}

/// How many king-relation and hand-step terms the shogi evaluation has
/// ([`shogi_relation_terms`]): 2 kings × 13 kinds × the places from a king, then 7 kinds
/// in hand × 8 steps.
pub const SHOGI_RELATION_TERMS: usize = 2 * 13 * SHOGI_RELATION_PLACES + 7 * 8;

/// How many places from a king the relation tables tell apart: file distances
/// 0..=reach times rank offsets −reach..=reach (`tuned_relations::SHOGI_RELATION_REACH`).
const SHOGI_RELATION_PLACES: usize =
    (tuned_relations::SHOGI_RELATION_REACH + 1) * SHOGI_RELATION_OFFSETS;

/// How many rank offsets from a king the relation tables tell apart (−reach..=reach).
const SHOGI_RELATION_OFFSETS: usize = 2 * tuned_relations::SHOGI_RELATION_REACH + 1;

/// A shogi board kind other than the king as an index 0..13 (pawn … rook, then the
/// promoted kinds), the order of the material terms and of the relation tables.
#[inline]
const fn shogi_kind_index(kind: u8) -> usize {
    (if kind < shogi::kind::KING {
        kind - 1
    } else {
        kind - 2
    }) as usize
}

/// The relation and hand-step weights (`tuned_relations`) in the order of
/// [`shogi_relation_terms`], so the evaluation's sums can be checked term by term.
pub fn shogi_relation_weights() -> impl Iterator<Item = i32> {
    tuned_relations::SHOGI_KING_RELATIONS
        .iter()
        .flatten()
        .flatten()
        .flatten()
        .chain(tuned_relations::SHOGI_HAND_STEPS.iter().flatten())
        .map(|&weight| weight as i32)
}

/// A piece's place from a king, both as their owner sees the board (`shogi_own_square`):
/// the relation tables' file distance and rank offset indices.
const fn shogi_relation_place(seen_piece: usize, seen_king: usize) -> (usize, usize) {
    let reach = tuned_relations::SHOGI_RELATION_REACH as i32;
    let file_gap = ((seen_piece % 9) as i32 - (seen_king % 9) as i32).abs();
    let distance = if file_gap < reach { file_gap } else { reach };
    let rank_gap = (seen_piece / 9) as i32 - (seen_king / 9) as i32;
    let offset = if rank_gap < -reach {
        -reach
    } else if rank_gap > reach {
        reach
    } else {
        rank_gap
    } + reach;
    (distance as usize, offset as usize)
}

/// `SHOGI_RELATION_PLACE_INDEX[king][piece]`: a piece's place from a king (both squares
/// as their owner sees them) as an index into a relation table's flattened places, so
/// the evaluation looks a relation up without arithmetic.
const SHOGI_RELATION_PLACE_INDEX: [[u8; 81]; 81] = {
    let offsets = SHOGI_RELATION_OFFSETS;
    let mut table = [[0u8; 81]; 81];
    let mut king = 0;
    while king < 81 {
        let mut piece = 0;
        while piece < 81 {
            let (distance, offset) = shogi_relation_place(piece, king);
            table[king][piece] = (distance * offsets + offset) as u8;
            piece += 1;
        }
        king += 1;
    }
    table
};

/// One king's relation table, each kind's places flattened.
type ShogiRelationTable = [[i16; SHOGI_RELATION_PLACES]; 13];

/// The two kings' relation tables with their places flattened, and an all-zero one for a
/// missing king (a problem position).
static SHOGI_RELATION_TABLES: [ShogiRelationTable; 3] = {
    let mut tables = [[[0i16; SHOGI_RELATION_PLACES]; 13]; 3];
    let offsets = SHOGI_RELATION_OFFSETS;
    let mut which = 0;
    while which < 2 {
        let mut kind = 0;
        while kind < 13 {
            let mut place = 0;
            while place < SHOGI_RELATION_PLACES {
                tables[which][kind][place] = tuned_relations::SHOGI_KING_RELATIONS[which][kind]
                    [place / offsets][place % offsets];
                place += 1;
            }
            kind += 1;
        }
        which += 1;
    }
    tables
};

/// `SHOGI_HAND_STEP_SUMS[kind − 1][count]`: the hand steps of the first `count` pieces of a
/// kind in hand (all eight past eight), summed once at compile time.
const SHOGI_HAND_STEP_SUMS: [[i32; 9]; 7] = {
    let mut sums = [[0i32; 9]; 7];
    let mut kind = 0;
    while kind < 7 {
        let mut count = 1;
        while count <= 8 {
            sums[kind][count] =
                sums[kind][count - 1] + tuned_relations::SHOGI_HAND_STEPS[kind][count - 1] as i32;
            count += 1;
        }
        kind += 1;
    }
    sums
};

/// The king-relation and hand-step terms of a shogi position, the side to move's count
/// minus the opponent's: each board piece but a king by its place from its own king
/// (first half) and from the enemy king (second half) as its owner sees the board (file
/// distance up to the reach, rank offset within ± the reach, forward positive; the places
/// of `SHOGI_RELATION_PLACE_INDEX`, which the evaluation reads too), then each kind in
/// hand by how many of it are held (the first, second, … eighth). Weighted by
/// `tuned_relations` (fitted by `tools/results/session38/fit_king_relations.py`): where a
/// piece stands from the kings says more than its square alone (a gold beside its king
/// guards it, a silver beside the enemy's attacks it).
pub fn shogi_relation_terms(position: &ShogiPosition) -> Vec<i32> {
    let mut terms = vec![0; SHOGI_RELATION_TERMS];
    let mover = position.side_to_move();
    for (square, &code) in position.board().iter().enumerate().take(81) {
        let kind = shogi::kind_of(code);
        if code == 0 || kind == shogi::kind::KING {
            continue;
        }
        let side = shogi::owner(code);
        let sign = if side == mover { 1 } else { -1 };
        let kind_index = shogi_kind_index(kind);
        let seen = shogi_own_square(square as u8, side);
        for (which, king_side) in [side, side.opponent()].into_iter().enumerate() {
            let king = position.king_square(king_side);
            if king >= 81 {
                continue;
            }
            let place = SHOGI_RELATION_PLACE_INDEX[shogi_own_square(king, side)][seen];
            terms[(which * 13 + kind_index) * SHOGI_RELATION_PLACES + place as usize] += sign;
        }
    }
    for side in [Side::First, Side::Second] {
        let sign = if side == mover { 1 } else { -1 };
        for hand_kind in shogi::HAND_KINDS {
            let count = position.hand_count(side, hand_kind) as usize;
            for step in 0..count.min(8) {
                terms[2 * 13 * SHOGI_RELATION_PLACES + (hand_kind as usize - 1) * 8 + step] += sign;
            }
        }
    }
    terms
}

/// The shogi evaluation's terms ([`shogi_terms`]) and the weighted sum of its piece-square
/// terms for the side to move (in the weights' 1/16 centipawn), computed together from one
/// walk over each side's pieces (its pawns' attacks then taken at once).
fn shogi_evaluation_parts<const RELATIONS: bool>(
    position: &ShogiPosition,
) -> ([i32; SHOGI_TERMS], i32) {
    use shogi_term as term;
    let board = position.board();
    let kings = [
        position.king_square(Side::First),
        position.king_square(Side::Second),
    ];
    let zones = [shogi_king_zone(kings[0]), shogi_king_zone(kings[1])];
    let occupied = [
        position.occupied_by(Side::First),
        position.occupied_by(Side::Second),
    ];
    let mut terms = [0i32; SHOGI_TERMS];
    // King danger per side: weighted enemy attacks on the squares around its king.
    let mut danger = [0i32; 2];
    let mut attackers = [0i32; 2];
    // Own attacks on the own king's zone.
    let mut cover = [0i32; 2];
    // Squares each side's pieces other than the king attack.
    let mut attacked = [0u128; 2];
    // Squares each side's pieces of each value tier attack.
    let mut tier_attacks = [[0u128; 7]; 2];
    // Each side's weighted piece-square terms (1/16 centipawn).
    let mut square_score = [0i32; 2];
    // Each side's pawns.
    let mut pawns = [0u128; 2];
    for side in [Side::First, Side::Second] {
        let index = side.index();
        let sign = if side == Side::First { 1 } else { -1 };
        let enemy = 1 - index;
        // Each king's relation table and its places as this side sees the board (the zero
        // table for a missing king, as in a problem).
        let relation = |which: usize, king: u8| {
            if king < 81 {
                (
                    &SHOGI_RELATION_TABLES[which],
                    &SHOGI_RELATION_PLACE_INDEX[shogi_own_square(king, side)],
                )
            } else {
                (&SHOGI_RELATION_TABLES[2], &SHOGI_RELATION_PLACE_INDEX[0])
            }
        };
        let (own_table, own_places) = relation(0, kings[index]);
        let (enemy_table, enemy_places) = relation(1, kings[enemy]);
        let mut pieces = occupied[index];
        while pieces != 0 {
            let square = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let code = board[square as usize];
            let piece_kind = shogi::kind_of(code);
            square_score[index] += tuned::SHOGI_SQUARE_WEIGHTS[piece_kind as usize - 1]
                [shogi_own_square(square, side)];
            let rank = square / 9;
            // Ranks counted from the owner's side (0 = own back rank).
            let forward = if side == Side::First { rank } else { 8 - rank } as i32;
            if piece_kind == shogi::kind::KING {
                // The king hides on its back ranks; the centre file is where attacks come.
                if square % 9 == 4 {
                    terms[term::KING_CENTRE_FILE] += sign;
                }
                if forward <= 1 {
                    terms[term::KING_AT_HOME] += sign;
                } else {
                    terms[term::KING_ADVANCE] += sign * forward;
                }
                continue;
            }
            let kind_index = shogi_kind_index(piece_kind);
            terms[kind_index] += sign;
            if RELATIONS {
                let seen = shogi_own_square(square, side);
                square_score[index] += own_table[kind_index][own_places[seen] as usize] as i32
                    + enemy_table[kind_index][enemy_places[seen] as usize] as i32;
            }
            if piece_kind == shogi::kind::PAWN {
                // Pawns (half the pieces) attack one square each: their attacks are counted
                // for all of a side's pawns at once below.
                terms[term::PAWN_ADVANCE] += sign * forward;
                pawns[index] |= 1u128 << square;
                continue;
            }
            let attacks = position.attacks_from(square);
            let reach = (attacks & !occupied[index]).count_ones() as i32;
            match piece_kind {
                shogi::kind::BISHOP => terms[term::BISHOP_REACH] += sign * (reach - 5),
                shogi::kind::HORSE => terms[term::HORSE_REACH] += sign * (reach - 8),
                shogi::kind::ROOK => terms[term::ROOK_REACH] += sign * (reach - 6),
                shogi::kind::DRAGON => terms[term::DRAGON_REACH] += sign * (reach - 10),
                shogi::kind::LANCE => terms[term::LANCE_REACH] += sign * (reach - 2),
                // Silvers and knights belong forward, golds near home.
                shogi::kind::SILVER => terms[term::SILVER_ADVANCE] += sign * forward.min(4),
                shogi::kind::KNIGHT => terms[term::KNIGHT_ADVANCE] += sign * forward.min(4),
                _ => {}
            }
            let hits = (attacks & zones[enemy]).count_ones() as i32;
            if hits > 0 {
                attackers[enemy] += 1;
                danger[enemy] += hits
                    * match piece_kind {
                        shogi::kind::DRAGON | shogi::kind::HORSE => 5,
                        shogi::kind::ROOK | shogi::kind::BISHOP => 3,
                        shogi::kind::PAWN => 1,
                        _ => 3,
                    };
            }
            cover[index] += (attacks & zones[index]).count_ones() as i32;
            attacked[index] |= attacks;
            tier_attacks[index][SHOGI_VALUE_TIER[piece_kind as usize] as usize] |= attacks;
            // A guard stands next to its king, inside the king's zone.
            if matches!(
                piece_kind,
                shogi::kind::GOLD
                    | shogi::kind::SILVER
                    | shogi::kind::PROMOTED_PAWN
                    | shogi::kind::PROMOTED_SILVER
                    | shogi::kind::PROMOTED_KNIGHT
                    | shogi::kind::PROMOTED_LANCE
            ) && zones[index] & (1u128 << square) != 0
            {
                terms[term::KING_GUARDS] += sign;
            }
        }
    }
    // Each pawn attacks the square in front of it (no pawn stands on its last rank, and
    // the mask keeps an unlikely one from reaching past the board).
    for side in [Side::First, Side::Second] {
        let index = side.index();
        let enemy = 1 - index;
        let attacks = if side == Side::First {
            pawns[index] << 9
        } else {
            pawns[index] >> 9
        } & SHOGI_BOARD_SQUARES;
        let hits = (attacks & zones[enemy]).count_ones() as i32;
        attackers[enemy] += hits;
        danger[enemy] += hits;
        cover[index] += (attacks & zones[index]).count_ones() as i32;
        attacked[index] |= attacks;
        tier_attacks[index][SHOGI_VALUE_TIER[shogi::kind::PAWN as usize] as usize] |= attacks;
    }
    let empty = !(occupied[0] | occupied[1]) & SHOGI_BOARD_SQUARES;
    // Safe checking drops against each side's king (summed over the kinds in hand).
    let mut drop_checks = [0i32; 2];
    for side in [Side::First, Side::Second] {
        let index = side.index();
        let enemy = 1 - index;
        let sign = if side == Side::First { 1 } else { -1 };
        // Where a drop would check the enemy king and no enemy piece but the king could
        // take it (next to the king only when one of ours backs the drop up).
        let safe = empty & !attacked[enemy] & !(zones[enemy] & !attacked[index]);
        for hand_kind in shogi::HAND_KINDS {
            let count = position.hand_count(side, hand_kind) as i32;
            if count == 0 {
                continue;
            }
            terms[term::HAND + hand_kind as usize - 1] += sign * count;
            if RELATIONS {
                square_score[index] +=
                    SHOGI_HAND_STEP_SUMS[hand_kind as usize - 1][(count as usize).min(8)];
            }
            // Pieces in hand can be dropped next to the enemy king at once.
            danger[enemy] += match hand_kind {
                shogi::kind::ROOK => 6 * count,
                shogi::kind::BISHOP | shogi::kind::GOLD | shogi::kind::SILVER => 4 * count,
                shogi::kind::PAWN => count.min(3),
                _ => 2 * count,
            };
            let checks = (position.check_squares(side, hand_kind) & safe).count_ones() as i32;
            drop_checks[enemy] += checks;
            danger[enemy] += checks.min(4)
                * match hand_kind {
                    shogi::kind::ROOK | shogi::kind::GOLD => 4,
                    shogi::kind::BISHOP | shogi::kind::SILVER => 3,
                    shogi::kind::PAWN => 1,
                    _ => 2,
                };
        }
    }
    let mut penalty = [0i32; 2];
    for index in 0..2 {
        // A single attacker rarely breaks a castle; attacks add up more than linearly.
        let weight = match attackers[index] {
            0 => 1,
            1 => 2,
            2 => 3,
            _ => 4,
        };
        let units = (danger[index] * weight / 4 - cover[index] / 2).max(0);
        penalty[index] = (units * units / 2).min(1_600);
    }
    terms[term::KING_DANGER] = penalty[1] - penalty[0];
    // Safe checking drops count again, linearly: a check the king cannot simply take
    // is often the first move of a mate.
    terms[term::KING_DROP_CHECKS] = drop_checks[1] - drop_checks[0];
    if position.side_to_move() == Side::Second {
        for value in terms.iter_mut() {
            *value = -*value;
        }
    }
    terms[term::TEMPO] = 1;
    let mover = position.side_to_move().index();
    for (index, slot, lesser_slot) in [
        (
            mover,
            term::MOVER_THREATENED,
            term::MOVER_ATTACKED_BY_LESSER,
        ),
        (
            1 - mover,
            term::WAITER_THREATENED,
            term::WAITER_ATTACKED_BY_LESSER,
        ),
    ] {
        let enemy = 1 - index;
        let pawn_attacks = tier_attacks[enemy][0];
        // Own pieces but the king (a king zone holds its king: kings defend and attack
        // the squares around them).
        let pieces = occupied[index] & !(1u128 << kings[index].min(127));
        let hanging = pieces & (attacked[enemy] | zones[enemy]) & !(attacked[index] | zones[index]);
        let mut threatened = hanging | pieces & pawn_attacks;
        // Defended pieces attacked by a lesser piece other than a pawn (counted above).
        let outranked = pieces & !threatened;
        let mut value = 0;
        while threatened != 0 {
            let square = threatened.trailing_zeros() as usize;
            threatened &= threatened - 1;
            let kind = shogi::kind_of(board[square]);
            // A defended pawn attacked by a pawn is an even trade, not a threat.
            if kind != shogi::kind::PAWN || hanging & (1u128 << square) != 0 {
                value += SHOGI_BOARD_VALUES[kind as usize];
            }
        }
        terms[slot] = value / 90;
        // Enemy attacks by pieces below each tier.
        let mut below = [0u128; 7];
        for tier in 1..7 {
            below[tier] = below[tier - 1] | tier_attacks[enemy][tier - 1];
        }
        let mut value = 0;
        let mut targets = outranked & below[6];
        while targets != 0 {
            let square = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let kind = shogi::kind_of(board[square]) as usize;
            if below[SHOGI_VALUE_TIER[kind] as usize] & (1u128 << square) != 0 {
                value += SHOGI_BOARD_VALUES[kind];
            }
        }
        terms[lesser_slot] = value / 90;
    }
    (terms, square_score[mover] - square_score[1 - mover])
}

/// The shogi evaluation in centipawns from its terms and its weighted table sum.
#[inline]
fn shogi_weighted_sum((terms, mut sum): ([i32; SHOGI_TERMS], i32)) -> i32 {
    for (weight, term) in tuned::SHOGI_WEIGHTS.iter().zip(terms.iter()) {
        sum += weight * term;
    }
    sum / SHOGI_WEIGHT_UNIT
}

impl EngineRules for ShogiPosition {
    const EAGER_LATE_MOVE_PRUNING: bool = true;
    const ROOT_REDUCTIONS: bool = true;
    const CONTINUATION_CORRECTION: bool = true;
    const CHECK_EXTENSION_BY_EXCHANGE: bool = true;
    const INTERNAL_ITERATIVE_REDUCTION: bool = true;

    fn from_any(any: &AnyPosition) -> Option<&Self> {
        match any {
            AnyPosition::Shogi(p) => Some(p),
            _ => None,
        }
    }

    fn evaluate(&self) -> i32 {
        shogi_weighted_sum(shogi_evaluation_parts::<true>(self))
    }

    fn ladder_evaluate(&self) -> i32 {
        // Session 37's evaluation, without the king relations and hand steps.
        shogi_weighted_sum(shogi_evaluation_parts::<false>(self))
    }

    fn correction_key(&self) -> Option<u64> {
        let mut key =
            self.king_square(Side::First) as u64 * 81 + self.king_square(Side::Second) as u64;
        for side in [Side::First, Side::Second] {
            for kind in shogi::kind::PAWN..=shogi::kind::ROOK {
                key = key
                    .wrapping_mul(19)
                    .wrapping_add(self.hand_count(side, kind) as u64);
            }
        }
        Some(key.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn victim_value(&self, mv: Move) -> i32 {
        if mv.is_drop() {
            return 0;
        }
        let code = self.piece_at(mv.to);
        if code == 0 {
            0
        } else {
            SHOGI_BOARD_VALUES[shogi::kind_of(code) as usize].max(100)
        }
    }

    fn attacker_value(&self, mv: Move) -> i32 {
        if mv.is_drop() {
            return SHOGI_HAND_VALUES[(mv.from & 7) as usize];
        }
        let piece_kind = shogi::kind_of(self.piece_at(mv.from));
        if piece_kind == shogi::kind::KING {
            2000
        } else {
            SHOGI_BOARD_VALUES[piece_kind as usize]
        }
    }

    fn is_tactical(&self, mv: Move) -> bool {
        if self.is_capture(mv) {
            return true;
        }
        // Promoting a rook or bishop is worth a look even without a capture.
        mv.is_promotion()
            && matches!(
                shogi::kind_of(self.piece_at(mv.from)),
                shogi::kind::ROOK | shogi::kind::BISHOP
            )
    }

    fn losing_capture(&self, mv: Move) -> bool {
        let victim = self.victim_value(mv);
        victim > 0
            && self.attacker_value(mv) > victim + 50
            && self.is_attacked(mv.to, self.side_to_move().opponent())
    }

    fn position_end(&self) -> Option<i32> {
        None
    }

    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Judged { threshold: 4 }
    }

    fn null_move(&self) -> Option<Self> {
        let mut next = self.clone();
        next.play_null_move();
        Some(next)
    }

    fn null_move_safe(&self) -> bool {
        // Shogi has no zugzwang worth the name while pieces can be dropped.
        true
    }

    fn exchange_piece_value(&self, square: u8) -> i32 {
        match self.piece_at(square) {
            0 => 0,
            code if shogi::kind_of(code) == shogi::kind::KING => EXCHANGE_KING,
            code => SHOGI_BOARD_VALUES[shogi::kind_of(code) as usize],
        }
    }

    fn exchange_mover_value(&self, mv: Move) -> i32 {
        if mv.is_drop() {
            SHOGI_HAND_VALUES[(mv.from & 7) as usize]
        } else {
            self.exchange_piece_value(mv.from)
        }
    }

    const EXCHANGE_BY_ATTACKERS: bool = true;

    fn attackers_among(&self, square: u8, attacker: Side, remaining: u128) -> u128 {
        ShogiPosition::attackers_among(self, square, attacker, remaining)
    }

    fn captures_to(&self, square: u8, moves: &mut ExchangeMoves) {
        let mut pieces = self.attackers_of(square, self.side_to_move());
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            moves.push(Move::new(from, square));
        }
    }

    fn capture_moves(&self, moves: &mut MoveList) {
        self.legal_board_moves_to(self.occupied_by(self.side_to_move().opponent()), moves);
    }

    fn quiet_moves(&self, moves: &mut MoveList) {
        self.legal_quiet_moves(moves);
    }

    fn quick_legality(&self, mv: Move) -> Option<bool> {
        Some(self.check_move(mv).is_ok())
    }

    fn quiet_checks(&self, moves: &mut MoveList) {
        self.legal_quiet_checks(moves);
    }

    fn gives_check_unplayed(&self, mv: Move) -> Option<bool> {
        Some(self.gives_check(mv))
    }

    fn mate_in_one(&self) -> Option<Move> {
        ShogiPosition::mate_in_one(self)
    }

    fn tactical_moves(&self, moves: &mut MoveList) {
        // Captures, and promotions of rooks and bishops: board moves only, never drops.
        self.legal_tactical_moves(moves);
    }
}

/// Appends the moves the quiescence search considers.
pub fn tactical_moves<P: EngineRules>(position: &P, moves: &mut MoveList) {
    position.tactical_moves(moves);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playouts::random_playouts;
    use crate::rules::janggi::JanggiRules;

    /// The FENs of a perft data file (`tests/data/<name>.perft`).
    fn perft_fens(text: &str) -> Vec<&str> {
        text.lines()
            .filter_map(|line| line.trim().strip_prefix("fen "))
            .collect()
    }

    #[test]
    fn a_shogi_king_zone_is_the_king_square_and_its_neighbours_on_the_board() {
        for king in 0..81u8 {
            let zone = shogi_king_zone(king);
            for square in 0..81u8 {
                let files = (king % 9).abs_diff(square % 9);
                let ranks = (king / 9).abs_diff(square / 9);
                let inside = files <= 1 && ranks <= 1;
                assert_eq!(zone & (1u128 << square) != 0, inside, "{king} {square}");
            }
            assert_eq!(zone >> 81, 0, "{king}");
        }
        // A corner king has three neighbours, an edge king five, a central king eight.
        assert_eq!(shogi_king_zone(0).count_ones(), 4);
        assert_eq!(shogi_king_zone(4).count_ones(), 6);
        assert_eq!(shogi_king_zone(40).count_ones(), 9);
        // No king on the board (tsume positions): no zone.
        assert_eq!(shogi_king_zone(81), 0);
        assert_eq!(shogi_king_zone(255), 0);
    }

    /// Walks the legal move tree `depth` plies deep and, at every node, checks that the
    /// quiescence generator gives exactly the legal moves that are tactical (none lost,
    /// none doubled, none added); returns the nodes visited.
    fn check_tree<P: EngineRules>(position: &P, depth: u32) -> u64 {
        let mut all = MoveList::new();
        position.legal_moves(&mut all);
        let expected: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&mv| position.is_tactical(mv))
            .collect();
        // Appended after what the list holds, in the order of the legal moves (the
        // quiescence search's ordering breaks ties by it).
        let mut staged = MoveList::new();
        staged.push(Move::new(0, 1));
        position.tactical_moves(&mut staged);
        assert_eq!(staged.as_slice()[0], Move::new(0, 1));
        assert_eq!(
            &staged.as_slice()[1..],
            expected.as_slice(),
            "tactical moves of {}",
            position.fen()
        );
        let mut nodes = 1;
        if depth > 0 {
            for &mv in all.iter() {
                let mut child = position.clone();
                child.play_unchecked(mv);
                nodes += check_tree(&child, depth - 1);
            }
        }
        nodes
    }

    #[test]
    fn xiangqi_tactical_generation_matches_the_filtered_legal_moves() {
        let text = include_str!("../../tests/data/xiangqi.perft");
        let mut nodes = 0;
        for fen in perft_fens(text) {
            let position = XiangqiPosition::from_fen(fen).unwrap();
            nodes += check_tree(&position, 2);
        }
        assert!(nodes > 10_000, "{nodes} nodes checked");
    }

    #[test]
    fn janggi_tactical_generation_matches_the_filtered_legal_moves() {
        let mut nodes = 0;
        for (text, rules) in [
            (
                include_str!("../../tests/data/janggi.perft"),
                JanggiRules::KJA,
            ),
            (
                include_str!("../../tests/data/janggitraditional.perft"),
                JanggiRules::TRADITIONAL,
            ),
        ] {
            for fen in perft_fens(text) {
                let position = JanggiPosition::from_fen(fen, rules).unwrap();
                nodes += check_tree(&position, 2);
            }
        }
        assert!(nodes > 10_000, "{nodes} nodes checked");
    }

    /// The shogi evaluation terms at `indices` (`shogi_term`) of the position `fen`.
    fn shogi_terms_at<const N: usize>(fen: &str, indices: [usize; N]) -> [i32; N] {
        let terms = shogi_terms(&ShogiPosition::from_any(fen).unwrap());
        indices.map(|index| terms[index])
    }

    #[test]
    fn shogi_threat_terms_count_hanging_pieces_and_pawn_attacks_for_each_side_apart() {
        let terms = |fen: &str| {
            let [mover, waiter] = shogi_terms_at(
                fen,
                [shogi_term::MOVER_THREATENED, shogi_term::WAITER_THREATENED],
            );
            (mover, waiter)
        };
        // A rook attacked by a pawn (and undefended: 990 / 90 = 11 pawns); the pawn
        // hangs to the rook (1 pawn). Whose move it is decides which term holds which.
        assert_eq!(terms("4k4/9/9/9/4p4/4R4/9/9/4K4 b - 1"), (11, 1));
        assert_eq!(terms("4k4/9/9/9/4p4/4R4/9/9/4K4 w - 1"), (1, 11));
        // A silver attacked by a gold but defended by its own gold: no threat; the
        // attacking gold is undefended and hangs to the silver (540 / 90 = 6 pawns).
        assert_eq!(terms("4k4/9/9/9/4g4/4S4/4G4/9/4K4 b - 1"), (0, 6));
        // A defended pawn facing a pawn is an even trade, not a threat.
        assert_eq!(terms("4k4/9/9/4g4/4p4/4P4/4G4/9/4K4 b - 1"), (0, 0));
    }

    #[test]
    fn shogi_threat_terms_count_defended_pieces_attacked_by_a_lesser_piece_apart() {
        let terms = |fen: &str| {
            shogi_terms_at(
                fen,
                [
                    shogi_term::MOVER_THREATENED,
                    shogi_term::WAITER_THREATENED,
                    shogi_term::MOVER_ATTACKED_BY_LESSER,
                    shogi_term::WAITER_ATTACKED_BY_LESSER,
                ],
            )
        };
        // A rook defended by its gold but attacked by a silver (990 / 90 = 11 pawns);
        // the silver hangs to the rook (495 / 90 = 5 pawns).
        assert_eq!(terms("4k4/9/9/4s4/4R4/4G4/9/9/4K4 b - 1"), [0, 5, 11, 0]);
        assert_eq!(terms("4k4/9/9/4s4/4R4/4G4/9/9/4K4 w - 1"), [5, 0, 0, 11]);
        // Undefended, the rook is counted once, as hanging.
        assert_eq!(terms("4k4/9/9/4s4/4R4/9/9/9/4K4 b - 1"), [11, 5, 0, 0]);
        // A gold defended and attacked by a gold: the same tier, no threat.
        assert_eq!(terms("4k4/9/9/4g4/4G4/4G4/9/9/4K4 b - 1"), [0, 6, 0, 0]);
    }

    #[test]
    fn shogi_drop_check_term_counts_the_safe_checking_drops() {
        let checks = |fen: &str| shogi_terms_at(fen, [shogi_term::KING_DROP_CHECKS])[0];
        // A silver before the second player's king backs up three checking gold drops
        // (the gold could not drop safely on the king's sides, which the silver does not
        // reach); the term is the side to move's count minus the opponent's.
        assert_eq!(checks("4k4/9/4S4/9/9/9/9/9/4K4 b G 1"), 3);
        assert_eq!(checks("4k4/9/4S4/9/9/9/9/9/4K4 w G 1"), -3);
        // Without the silver no drop checks safely: the king would take the piece.
        assert_eq!(checks("4k4/9/9/9/9/9/9/9/4K4 b G 1"), 0);
        // Each kind in hand counts its own squares: a bishop adds both diagonals, the
        // two squares next to the king that the silver covers and six further off.
        assert_eq!(checks("4k4/9/4S4/9/9/9/9/9/4K4 b GB 1"), 11);
    }

    /// The same shogi position seen from the other side: the board turned round, the
    /// colours of the pieces on it and in hand swapped, the other side to move (SFEN).
    fn shogi_colours_swapped(sfen: &str) -> String {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let swap_case = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| {
                // Tokens: a run of empty squares, a piece, or '+' and a piece.
                let mut tokens: Vec<String> = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    if c == '+' {
                        promoted = true;
                    } else {
                        let prefix = if promoted { "+" } else { "" };
                        tokens.push(format!("{prefix}{}", swap_case(c)));
                        promoted = false;
                    }
                }
                tokens.reverse();
                tokens.concat()
            })
            .collect();
        let side = if fields[1] == "b" { "w" } else { "b" };
        let hand: String = fields[2].chars().map(swap_case).collect();
        format!("{} {side} {hand} {}", ranks.join("/"), fields[3])
    }

    #[test]
    fn shogi_relations_count_each_piece_from_both_kings_as_its_owner_sees_the_board() {
        // First's gold stands just before its king; Second's gold beside its own king.
        let fen = "3gk4/9/9/9/9/9/9/4G4/4K4[] w - - 0 1";
        let terms = shogi_relation_terms(&ShogiPosition::from_any(fen).unwrap());
        let offsets = SHOGI_RELATION_OFFSETS;
        let reach = tuned_relations::SHOGI_RELATION_REACH;
        let gold = 4;
        let index = |which: usize, distance: usize, offset: isize| {
            (which * 13 + gold) * SHOGI_RELATION_PLACES
                + distance * offsets
                + (offset + reach as isize) as usize
        };
        let mut expected = vec![0; SHOGI_RELATION_TERMS];
        // The mover's gold: one rank ahead of its king; the enemy king far ahead (clamped).
        expected[index(0, 0, 1)] += 1;
        expected[index(1, 0, -(reach as isize))] += 1;
        // The waiter's gold: one file from its king on its rank; the mover's king far ahead
        // of it as the waiter sees the board.
        expected[index(0, 1, 0)] -= 1;
        expected[index(1, 1, -(reach as isize))] -= 1;
        assert_eq!(terms, expected);
        // Hands: the first and second pawn, the first rook, each counted once.
        let fen = "4k4/9/9/9/9/9/9/9/4K4[PPr] w - - 0 1";
        let terms = shogi_relation_terms(&ShogiPosition::from_any(fen).unwrap());
        let hands = &terms[2 * 13 * SHOGI_RELATION_PLACES..];
        assert_eq!(&hands[..3], &[1, 1, 0]);
        assert_eq!(&hands[6 * 8..6 * 8 + 2], &[-1, 0]);
        assert_eq!(hands.iter().map(|term| term.abs()).sum::<i32>(), 3);
    }

    #[test]
    fn shogi_evaluation_is_the_weighted_sum_of_its_terms_and_the_same_for_either_colour() {
        let text = include_str!("../../tests/data/shogi.perft");
        let fens = perft_fens(text);
        assert!(fens.len() > 100);
        for fen in fens {
            let position = ShogiPosition::from_any(fen).unwrap();
            let core: i32 = shogi_terms(&position)
                .iter()
                .zip(tuned::SHOGI_WEIGHTS.iter())
                .map(|(term, weight)| term * weight)
                .sum();
            let squares: i32 = shogi_square_terms(&position)
                .iter()
                .zip(tuned::SHOGI_SQUARE_WEIGHTS.iter().flatten())
                .map(|(term, weight)| term * weight)
                .sum();
            let relations: i32 = shogi_relation_terms(&position)
                .iter()
                .zip(shogi_relation_weights())
                .map(|(&term, weight)| term * weight)
                .sum();
            assert_eq!(
                position.evaluate(),
                (core + squares + relations) / SHOGI_WEIGHT_UNIT,
                "{fen}"
            );
            // The levels' evaluation leaves the relations out.
            assert_eq!(
                position.ladder_evaluate(),
                (core + squares) / SHOGI_WEIGHT_UNIT,
                "{fen}"
            );
            // Every term is counted from its owner's side: swapping the colours (and who
            // moves) leaves the side to move's evaluation as it was.
            let swapped = shogi_colours_swapped(fen);
            let mirror = ShogiPosition::from_any(&swapped).unwrap();
            assert_eq!(position.evaluate(), mirror.evaluate(), "{fen} / {swapped}");
        }
        // The tables are not all zero (else the sums above prove nothing about them).
        assert!(tuned::SHOGI_SQUARE_WEIGHTS
            .iter()
            .flatten()
            .any(|&w| w != 0));
        assert!(shogi_relation_weights().filter(|&w| w != 0).count() > 500);
    }

    #[test]
    fn shogi_tactical_generation_matches_the_filtered_legal_moves() {
        let text = include_str!("../../tests/data/shogi.perft");
        let mut nodes = 0;
        for fen in perft_fens(text) {
            let position = ShogiPosition::from_any(fen).unwrap();
            nodes += check_tree(&position, 1);
        }
        assert!(nodes > 5_000, "{nodes} nodes checked");
    }

    #[test]
    fn shogi_correction_key_follows_the_kings_and_the_hands_not_the_other_pieces() {
        let key = |sfen: &str| ShogiPosition::from_sfen(sfen).unwrap().correction_key();
        let start = key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        // A pawn pushed and the rook moved: the same kings and hands, the same key.
        let pushed = key("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B3R3/LNSGKGSNL b - 1");
        assert!(start.is_some());
        assert_eq!(start, pushed);
        // A pawn in hand, or a king moved, is another key.
        let pawn_in_hand = key("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
        let king_moved = key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3K1R1/LNSG1GSNL b - 1");
        assert_ne!(start, pawn_in_hand);
        assert_ne!(start, king_moved);
        // The same pawn in the other side's hand is another key again.
        let pawn_in_other_hand =
            key("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b p 1");
        assert_ne!(pawn_in_hand, pawn_in_other_hand);
    }

    #[test]
    fn janggi_correction_key_follows_the_generals_soldiers_and_guards_not_the_fast_pieces() {
        let key = |fen: &str| {
            JanggiPosition::from_fen(fen, JanggiRules::KJA)
                .unwrap()
                .correction_key()
        };
        let start = key(crate::rules::janggi::START_FEN);
        assert!(start.is_some());
        // A cannon or an elephant moved, a chariot gone: the same frame, the same key.
        for same in [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/4K4/RNBA1ABNR b - - 1 1",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/4K4/RNBA1A1NR b - - 1 1",
            "rnba1abn1/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        ] {
            assert_eq!(start, key(same), "{same}");
        }
        // A soldier gone (either side's) or stepped, a guard or a general moved: another key.
        let others = [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "rnba1abnr/4k4/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P2PP1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3AK4/RNB2ABNR b - - 1 1",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3K5/RNBA1ABNR b - - 1 1",
        ]
        .map(key);
        for (index, other) in others.iter().enumerate() {
            assert_ne!(start, *other, "{index}");
        }
        assert_ne!(others[0], others[1]);
        // Xiangqi keeps no correction under a key (its screens found no gain), only the
        // one under the last move.
        assert_eq!(XiangqiPosition::default().correction_key(), None);
    }

    /// Plays random games from `start` and checks at every position that the captures
    /// the quiescence search and the move picker are given are the legal moves that
    /// capture, in the order of the full generation.
    fn captures_are_the_legal_moves_that_capture<P: EngineRules>(start: &P) -> usize {
        let mut checked = 0;
        random_playouts(start, 0x9E37_79B9_7F4A_7C15, 40, 160, |position, legal| {
            let expected: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&mv| position.victim_value(mv) > 0)
                .collect();
            let mut captures = MoveList::new();
            position.capture_moves(&mut captures);
            assert_eq!(captures.as_slice(), expected.as_slice());
            let mut tactical = MoveList::new();
            position.tactical_moves(&mut tactical);
            assert_eq!(tactical.as_slice(), expected.as_slice());
            checked += expected.len();
        });
        checked
    }

    #[test]
    fn nine_by_ten_captures_are_the_legal_moves_that_capture_in_generation_order() {
        assert!(captures_are_the_legal_moves_that_capture(&XiangqiPosition::default()) > 1_000);
        for rules in [
            JanggiRules::KJA,
            JanggiRules::GUNGJANGGI,
            JanggiRules::GUNGJANGGI_DAN,
        ] {
            assert!(
                captures_are_the_legal_moves_that_capture(&JanggiPosition::start(rules)) > 1_000
            );
        }
    }

    #[test]
    fn shogi_tells_a_check_without_playing_as_playing_does() {
        let mut checks = 0;
        let mut discovered = 0;
        random_playouts(
            &ShogiPosition::start(),
            0x5851_F42D_4C95_7F2D,
            60,
            240,
            |position, legal| {
                for &mv in legal.iter() {
                    let mut child = position.clone();
                    child.play_unchecked(mv);
                    let checks_by_playing = child.in_check();
                    assert_eq!(
                        position.gives_check_unplayed(mv),
                        Some(checks_by_playing),
                        "{} {mv:?}",
                        position.sfen()
                    );
                    if checks_by_playing {
                        checks += 1;
                        let king = child.king_square(child.side_to_move());
                        if child.attacks_from(mv.to) & (1u128 << king) == 0 {
                            discovered += 1;
                        }
                    }
                }
            },
        );
        assert!(checks > 2_000, "{checks} checks");
        assert!(discovered > 20, "{discovered} discovered checks");
    }

    /// Plays random games from `start` and checks at every position that the move
    /// picker's quiet moves are the legal moves that take nothing, in generation order,
    /// appended after what the list held.
    fn quiet_moves_are_the_legal_moves_that_take_nothing<P: EngineRules>(start: &P) {
        let mut checked = 0;
        random_playouts(start, 0x2545_F491_4F6C_DD1D, 40, 200, |position, legal| {
            let quiet: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&mv| position.victim_value(mv) == 0)
                .collect();
            // Appended after what the list holds already, as the move picker asks.
            let mut moves = MoveList::new();
            moves.push(Move::new(0, 1));
            position.quiet_moves(&mut moves);
            assert_eq!(moves.as_slice()[0], Move::new(0, 1));
            assert_eq!(&moves.as_slice()[1..], quiet.as_slice());
            checked += quiet.len();
        });
        assert!(checked > 10_000, "only {checked} moves compared");
    }

    #[test]
    fn quiet_moves_are_the_legal_moves_that_take_nothing_in_generation_order() {
        quiet_moves_are_the_legal_moves_that_take_nothing(&ShogiPosition::default());
        quiet_moves_are_the_legal_moves_that_take_nothing(&XiangqiPosition::default());
        quiet_moves_are_the_legal_moves_that_take_nothing(&JanggiPosition::start(JanggiRules::KJA));
    }
}
