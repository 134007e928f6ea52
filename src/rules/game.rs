//! A game in progress: the start position, the moves, and every rule that
//! needs history — repetition, perpetual check, move limits, passes — plus
//! results that are not on the board (resignation, time, agreement).

use super::any::{AnyPosition, Variant};
use super::janggi::{JanggiPosition, JanggiRepetition};
use super::{EndReason, IllegalMove, Move, MoveList, Outcome, Position, Scores, Side};

/// Plies without a capture that draw a xiangqi game (60 moves each).
pub const XIANGQI_MOVE_LIMIT: u32 = 120;

/// How a shogi impasse (jishogi) claim is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpasseRule {
    /// The seed's rule: with both kings in the enemy camp either player may claim; count
    /// rook and bishop 5, other pieces 1 (board and hand); both ≥ 24 draws, under 24 loses.
    TwentyFourPoint,
    /// The CSA declaration rule (27 points for Gote, 28 for Sente, 10 pieces in the camp):
    /// a correct declaration wins, a wrong one loses.
    TwentySevenPoint,
}

/// Why an impasse claim was refused (the game goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpasseRefusal {
    /// Not a shogi game.
    NotShogi,
    /// The game is already over.
    GameOver,
    /// 24-point rule: both kings must stand in the enemy camp.
    KingsNotEntered,
}

impl std::fmt::Display for ImpasseRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ImpasseRefusal::NotShogi => "impasse is a shogi rule",
            ImpasseRefusal::GameOver => "the game is over",
            ImpasseRefusal::KingsNotEntered => "both kings must stand in the enemy camp",
        })
    }
}

/// A game: start position, moves played, and the result once there is one.
#[derive(Clone, Debug)]
pub struct Game {
    /// `positions[i]` is the position after `i` moves; `positions[0]` is the start.
    positions: Vec<AnyPosition>,
    /// The moves played.
    moves: Vec<Move>,
    /// `in_check[i]`: the side to move in `positions[i]` is in check.
    in_check: Vec<bool>,
    /// A result decided off the board (resignation, time, agreement, impasse claim).
    declared: Option<Outcome>,
    /// Gungjanggi: the ply (number of moves) at which an accepted draw offer started the
    /// judging phase, so the screen can say why it began.
    judging_agreed_at: Option<usize>,
}

impl Game {
    /// A new game from a start position.
    pub fn new(start: AnyPosition) -> Game {
        let check = start.in_check();
        Game {
            positions: vec![start],
            moves: Vec::new(),
            in_check: vec![check],
            declared: None,
            judging_agreed_at: None,
        }
    }

    /// A new game from the variant's standard start.
    pub fn from_variant(variant: Variant) -> Game {
        Game::new(variant.start())
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.positions[0].variant()
    }

    /// The position now.
    pub fn position(&self) -> &AnyPosition {
        self.positions.last().expect("a game always has a position")
    }

    /// The start position.
    pub fn start(&self) -> &AnyPosition {
        &self.positions[0]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Gungjanggi: the number of moves played when an accepted draw offer started the
    /// judging phase, if one did.
    pub fn judging_agreed_at(&self) -> Option<usize> {
        self.judging_agreed_at
    }

    /// Every position, from the start to now.
    pub fn positions(&self) -> &[AnyPosition] {
        &self.positions
    }

    /// The legal moves now, with the history-aware rules applied (empty once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.outcome().is_some() {
            return moves;
        }
        self.position().legal_moves(&mut moves);
        self.filter_history_rules(&mut moves);
        moves
    }

    /// Removes moves forbidden by history (janggi repetition rules).
    fn filter_history_rules(&self, moves: &mut MoveList) {
        let AnyPosition::Janggi(position) = self.position() else {
            return;
        };
        // Only gungjanggi forbids moves by history. The janggi rule sets follow
        // Fairy-Stockfish: a repetition never removes a move; it ends the game
        // (see `janggi_outcome`), so perft and legal-move lists stay history-free.
        if position.rules().repetition != JanggiRepetition::ThirdOccurrenceIllegal {
            return;
        }
        moves.retain(|mv| {
            let mut after = position.clone();
            after.play_unchecked(mv);
            let key = after.repetition_key();
            let side = after.side_to_move();
            // Gungjanggi rule 6: no move may produce a position for the third time.
            self.positions
                .iter()
                .filter(|p| p.repetition_key() == key && p.side_to_move() == side)
                .count()
                < 2
        });
    }

    /// Janggi-modern's move-repetition rule, as Fairy-Stockfish judges it: the side that
    /// just moved loses when it has moved one piece back and forth — the piece arrived on
    /// a square without capturing, then shuttled between two squares four times (a pass
    /// may stand in for one of its moves) — while not in check, with no capture in
    /// between, and the piece is one that can reach the enemy palace.
    fn janggi_shuttle_loses(&self) -> bool {
        let plies = self.moves.len();
        // Own moves of the side that just moved: newest first.
        let own = |k: usize| -> Option<(Move, usize)> {
            let index = plies.checked_sub(1 + 2 * k)?;
            Some((self.moves[index], index))
        };
        let Some((last, last_index)) = own(0) else {
            return false;
        };
        if last.is_pass() {
            return false;
        }
        let reverse = |mv: Move| Move::new(mv.to, mv.from);
        let AnyPosition::Janggi(now) = self.position() else {
            return false;
        };
        let piece = now.piece_at(last.to);
        if matches!(
            super::xiangqi::kind_of(piece),
            super::xiangqi::kind::KING | super::xiangqi::kind::ADVISOR
        ) {
            return false;
        }
        // No capture within the window: the halfmove clock counts plies since one.
        let quiet = now.halfmove_clock() as usize;
        let mover_in_check_before = |index: usize| self.in_check[index];
        // Walk back over the mover's moves: a chain of reversals, then the arrival.
        let Some((second, second_index)) = own(1) else {
            return false;
        };
        if mover_in_check_before(last_index) || mover_in_check_before(second_index) {
            return false;
        }
        // `reference` is the move the next older one must reverse.
        let (mut count, mut reference) = if second == reverse(last) {
            (2, second)
        } else if second.is_pass() {
            (1, last)
        } else {
            return false;
        };
        let mut k = 2;
        loop {
            let Some((older, older_index)) = own(k) else {
                return false;
            };
            let span = plies - older_index;
            if span > quiet || mover_in_check_before(older_index) {
                return false;
            }
            if count < 4 {
                if older != reverse(reference) {
                    return false;
                }
                count += 1;
                reference = older;
            } else {
                // The arrival: `older` brought the piece to where the shuttle began.
                let (previous, _) = own(k - 1).expect("walked past it");
                return !self.positions[older_index].is_capture(older) && previous.from == older.to;
            }
            k += 1;
        }
    }

    /// True when every move of `side` played after `positions[from]` gave check.
    fn side_checked_throughout(&self, from: usize, side: Side) -> bool {
        (from..self.moves.len()).all(|index| {
            // Move `index` leads from positions[index] to positions[index + 1].
            self.positions[index].side_to_move() != side || self.in_check[index + 1]
        })
    }

    /// Plays a move after checking it; says why when it is illegal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.position().check_move(mv)?;
        let mut allowed = MoveList::new();
        allowed.push(mv);
        self.filter_history_rules(&mut allowed);
        if allowed.is_empty() {
            return Err(IllegalMove::ForbiddenRepetition);
        }
        self.push_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn push_unchecked(&mut self, mv: Move) {
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.in_check.push(next.in_check());
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.in_check.pop();
        self.declared = None;
        // The position where a draw offer started the judging phase is gone.
        if self.judging_agreed_at > Some(self.moves.len()) {
            self.judging_agreed_at = None;
        }
        Some(mv)
    }

    /// Ends the game with a result decided off the board.
    pub fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
    }

    /// The result decided off the board ([`Game::declare`]), if any: `None` for a game
    /// going on or one ended by the position itself.
    pub fn declared(&self) -> Option<Outcome> {
        self.declared
    }

    /// The side to move claims an impasse in shogi under `rule`; on success the game ends
    /// with the returned outcome (scores: the points counted, Sente first).
    pub fn claim_impasse(&mut self, rule: ImpasseRule) -> Result<Outcome, ImpasseRefusal> {
        if self.outcome().is_some() {
            return Err(ImpasseRefusal::GameOver);
        }
        let AnyPosition::Shogi(position) = self.position() else {
            return Err(ImpasseRefusal::NotShogi);
        };
        let claimant = position.side_to_move();
        let scores = Scores {
            first: position.impasse_points(Side::First) as i32,
            second: position.impasse_points(Side::Second) as i32,
            halves: false,
        };
        let outcome = match rule {
            ImpasseRule::TwentyFourPoint => {
                if !position.both_kings_in_enemy_camp() {
                    return Err(ImpasseRefusal::KingsNotEntered);
                }
                // The pieces total 54 points, so at most one side can be under 24.
                if scores.first >= 24 && scores.second >= 24 {
                    Outcome::Draw {
                        reason: EndReason::Impasse,
                        scores: Some(scores),
                    }
                } else {
                    Outcome::Win {
                        winner: if scores.first >= 24 {
                            Side::First
                        } else {
                            Side::Second
                        },
                        reason: EndReason::Impasse,
                        scores: Some(scores),
                    }
                }
            }
            ImpasseRule::TwentySevenPoint => Outcome::Win {
                winner: if position.declaration_wins(claimant) {
                    claimant
                } else {
                    claimant.opponent()
                },
                reason: EndReason::Impasse,
                scores: Some(scores),
            },
        };
        self.declare(outcome);
        Ok(outcome)
    }

    /// The side to move resigns.
    pub fn resign(&mut self) {
        let loser = self.position().side_to_move();
        self.declare(Outcome::win(loser.opponent(), EndReason::Resignation));
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn occurrences(&self) -> usize {
        let now = self.position();
        let key = now.repetition_key();
        let side = now.side_to_move();
        self.positions
            .iter()
            .filter(|p| p.repetition_key() == key && p.side_to_move() == side)
            .count()
    }

    /// Judges a repetition cycle: the index of the first occurrence of the current position
    /// starts the cycle. Returns the side that checked on every move of the cycle, if exactly one did.
    fn perpetual_checker(&self) -> Option<Side> {
        let now = self.position();
        let key = now.repetition_key();
        let side = now.side_to_move();
        let first = self
            .positions
            .iter()
            .position(|p| p.repetition_key() == key && p.side_to_move() == side)?;
        let first_checks = self.side_checked_throughout(first, Side::First);
        let second_checks = self.side_checked_throughout(first, Side::Second);
        match (first_checks, second_checks) {
            (true, false) => Some(Side::First),
            (false, true) => Some(Side::Second),
            _ => None,
        }
    }

    /// The result, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.declared {
            return Some(outcome);
        }
        let position = self.position();
        match position {
            AnyPosition::Xiangqi(p) => self.xiangqi_outcome(p),
            AnyPosition::Janggi(p) => self.janggi_outcome(p),
            AnyPosition::Shogi(p) => self.shogi_outcome(p),
        }
    }

    fn no_moves_outcome<P: Position>(&self, position: &P) -> Option<Outcome> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if !moves.is_empty() {
            return None;
        }
        let loser = position.side_to_move();
        let reason = if position.in_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(Outcome::win(loser.opponent(), reason))
    }

    fn xiangqi_outcome(&self, position: &super::xiangqi::XiangqiPosition) -> Option<Outcome> {
        if let Some(outcome) = self.no_moves_outcome(position) {
            return Some(outcome);
        }
        if position.halfmove_clock() >= XIANGQI_MOVE_LIMIT {
            return Some(Outcome::draw(EndReason::MoveLimit));
        }
        if self.occurrences() >= 3 {
            return Some(match self.perpetual_checker() {
                Some(checker) => Outcome::win(checker.opponent(), EndReason::PerpetualCheck),
                None => Outcome::draw(EndReason::Repetition),
            });
        }
        if position.insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        None
    }

    fn janggi_scored(position: &JanggiPosition, reason: EndReason) -> Outcome {
        let rules = position.rules();
        let scores: Scores = position.scores();
        if rules.scoring {
            let winner = if scores.first > scores.second {
                Side::First
            } else {
                Side::Second
            };
            Outcome::Win {
                winner,
                reason,
                scores: Some(scores),
            }
        } else {
            Outcome::draw(reason)
        }
    }

    /// Gungjanggi rule 10: the side with more material wins; equal material, the second player.
    fn gungjanggi_judged(position: &JanggiPosition) -> Outcome {
        let scores = position.gungjanggi_material();
        if scores.first == scores.second {
            Outcome::Win {
                winner: Side::Second,
                reason: EndReason::SecondPlayer,
                scores: Some(scores),
            }
        } else {
            Outcome::Win {
                winner: if scores.first > scores.second {
                    Side::First
                } else {
                    Side::Second
                },
                reason: EndReason::Material,
                scores: Some(scores),
            }
        }
    }

    fn gungjanggi_outcome(&self, position: &JanggiPosition) -> Option<Outcome> {
        match position.ended_by() {
            Some(EndReason::FirstCheck) => {
                let checker = position.side_to_move().opponent();
                return Some(Outcome::win(checker, EndReason::FirstCheck));
            }
            Some(_) => return Some(Self::gungjanggi_judged(position)),
            None => {}
        }
        // Rule 6: a side with no legal move (repetition and pass limits applied) loses.
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        self.filter_history_rules(&mut moves);
        if moves.is_empty() {
            let reason = if position.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Outcome::win(position.side_to_move().opponent(), reason));
        }
        None
    }

    /// The players agree to a draw: in gungjanggi this starts the judging phase instead
    /// (rule 8); elsewhere the game is drawn.
    pub fn accept_draw(&mut self) {
        if let Some(AnyPosition::Janggi(position)) = self.positions.last_mut() {
            if position.rules().gungjanggi.is_some() {
                if !position.gungjanggi_state().judging {
                    self.judging_agreed_at = Some(self.moves.len());
                }
                position.start_judging();
                if let Some(check) = self.in_check.last_mut() {
                    *check = position.in_check();
                }
                return;
            }
        }
        self.declare(Outcome::draw(EndReason::Agreement));
    }

    fn janggi_outcome(&self, position: &JanggiPosition) -> Option<Outcome> {
        if position.rules().gungjanggi.is_some() {
            return self.gungjanggi_outcome(position);
        }
        if let Some(reason) = position.ended_by() {
            return Some(Self::janggi_scored(position, reason));
        }
        // A pass is legal whenever the side to move is not in check, so no legal move
        // means checkmate.
        if let Some(outcome) = self.no_moves_outcome(position) {
            return Some(outcome);
        }
        // Fairy-Stockfish's order: the move limit, then repetition.
        let rules = position.rules();
        if rules.move_limit > 0 && position.halfmove_clock() >= rules.move_limit {
            return Some(Self::janggi_scored(position, EndReason::MoveLimit));
        }
        if rules.repetition == JanggiRepetition::MoveRepetitionIllegal
            && self.janggi_shuttle_loses()
        {
            let mover = position.side_to_move().opponent();
            return Some(Outcome::win(mover.opponent(), EndReason::Repetition));
        }
        let limit = match rules.repetition {
            JanggiRepetition::MoveRepetitionIllegal => 4,
            _ => 3,
        };
        if self.occurrences() >= limit {
            return Some(match self.perpetual_checker() {
                Some(checker) => Outcome::win(checker.opponent(), EndReason::PerpetualCheck),
                None => Self::janggi_scored(position, EndReason::Repetition),
            });
        }
        None
    }

    fn shogi_outcome(&self, position: &super::shogi::ShogiPosition) -> Option<Outcome> {
        if let Some(outcome) = self.no_moves_outcome(position) {
            // Shogi: having no legal move loses, whether in check or not.
            return Some(outcome);
        }
        if self.occurrences() >= 4 {
            return Some(match self.perpetual_checker() {
                Some(checker) => Outcome::win(checker.opponent(), EndReason::PerpetualCheck),
                None => Outcome::draw(EndReason::Repetition),
            });
        }
        None
    }
}
