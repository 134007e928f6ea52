//! The CPU opponent: search and evaluation over the rules engine.
//!
//! `best_move` is the one entry point the interface and the protocols use; it
//! runs on the caller's thread and stops as soon as `stop` is set.

use crate::rules::any::{AnyPosition, PieceKind};
use crate::rules::game::Game;
use crate::rules::{Move, MoveList, Position, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long or how deep to think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub movetime: Option<Duration>,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Progress of a search, reported after each completed depth.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// The score of the best line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The best line, first move first.
    pub principal_variation: Vec<Move>,
}

const MATE: i32 = 1_000_000;

/// Material value of a piece kind, in hundredths of a pawn.
pub fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General | PieceKind::King => 0,
        PieceKind::Advisor => 200,
        PieceKind::Elephant => 200,
        PieceKind::Horse => 400,
        PieceKind::Chariot => 900,
        PieceKind::Cannon => 450,
        PieceKind::Soldier => 100,
        PieceKind::Pawn => 100,
        PieceKind::Lance => 350,
        PieceKind::Knight => 400,
        PieceKind::Silver => 550,
        PieceKind::Gold => 600,
        PieceKind::Bishop => 800,
        PieceKind::Rook => 1000,
        PieceKind::Tokin
        | PieceKind::PromotedLance
        | PieceKind::PromotedKnight
        | PieceKind::PromotedSilver => 600,
        PieceKind::PromotedBishop => 1050,
        PieceKind::Dragon => 1250,
    }
}

/// Material balance from the side to move's point of view (pieces in hand count too).
pub fn evaluate(position: &AnyPosition) -> i32 {
    let mut total = 0;
    for square in 0..position.ranks() * 9 {
        if let Some(piece) = position.piece_on(square) {
            let value = piece_value(piece.kind);
            total += if piece.side == Side::First {
                value
            } else {
                -value
            };
        }
    }
    for side in [Side::First, Side::Second] {
        for (kind, count) in position.hand(side) {
            let value = piece_value(kind) * count as i32;
            total += if side == Side::First { value } else { -value };
        }
    }
    if position.side_to_move() == Side::First {
        total
    } else {
        -total
    }
}

struct Searcher<'a> {
    stop: &'a AtomicBool,
    limits: Limits,
    started: Instant,
    nodes: u64,
    aborted: bool,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(1024) {
            let time_up = self
                .limits
                .movetime
                .is_some_and(|t| self.started.elapsed() >= t);
            let nodes_up = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if time_up || nodes_up || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn negamax(&mut self, game: &mut Game, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = game.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == game.position().side_to_move() => MATE - ply,
                Some(_) => -(MATE - ply),
                None => 0,
            };
        }
        if depth == 0 || self.out_of_budget() {
            return evaluate(game.position());
        }
        let moves = game.legal_moves();
        let mut best = -MATE;
        for &mv in moves.iter() {
            game.push_unchecked(mv);
            let score = -self.negamax(game, depth - 1, -beta, -alpha, ply + 1);
            game.undo();
            if self.aborted {
                return best.max(score);
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Finds a move for the side to move of `game` within `limits`; `report` hears each completed depth.
///
/// Returns `None` only when the game is over or there is no legal move.
pub fn best_move(
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> Option<Move> {
    let moves: MoveList = game.legal_moves();
    let first = *moves.as_slice().first()?;
    let mut searcher = Searcher {
        stop,
        limits,
        started: Instant::now(),
        nodes: 0,
        aborted: false,
    };
    let mut work = game.clone();
    let mut best = first;
    let max_depth = limits.depth.unwrap_or(64).max(1);
    for depth in 1..=max_depth {
        let mut alpha = -MATE - 1;
        let mut depth_best = None;
        // Search the previous best first.
        let mut ordered: Vec<Move> = moves.iter().copied().collect();
        if let Some(index) = ordered.iter().position(|&m| m == best) {
            ordered.swap(0, index);
        }
        for mv in ordered {
            work.push_unchecked(mv);
            let score = -searcher.negamax(&mut work, depth - 1, -MATE - 1, -alpha, 1);
            work.undo();
            if searcher.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                depth_best = Some(mv);
            }
        }
        if searcher.aborted {
            break;
        }
        if let Some(mv) = depth_best {
            best = mv;
            let score = if alpha.abs() > MATE - 1000 {
                let plies = MATE - alpha.abs();
                Score::Mate(if alpha > 0 {
                    (plies + 1) / 2
                } else {
                    -(plies / 2)
                })
            } else {
                Score::Centipawns(alpha)
            };
            report(&SearchInfo {
                depth,
                score,
                nodes: searcher.nodes,
                elapsed: searcher.started.elapsed(),
                principal_variation: vec![mv],
            });
            if matches!(score, Score::Mate(_)) {
                break;
            }
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && depth >= 4
        {
            break;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;

    #[test]
    fn finds_a_mate_in_one_in_xiangqi() {
        // Red chariot a1 to a10 mates: the chariot on a9 holds rank 9, the one on a10 rank 10.
        let position = Variant::Xiangqi
            .position_from_fen("4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1")
            .unwrap();
        let game = Game::new(position);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mv = best_move(&game, limits, &stop, &mut |_| {}).unwrap();
        let mut after = game.clone();
        after.play(mv).unwrap();
        assert!(
            after.outcome().is_some(),
            "expected mate, got {}",
            game.position().move_to_uci(mv)
        );
    }
}
