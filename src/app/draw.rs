//! When the CPU (or an external engine) accepts a draw offer.
//!
//! The rule: the opponent accepts when each of its last [`SEARCHES_CONSIDERED`]
//! searches in this game ended with a score of at most [`EQUAL_MARGIN_CENTIPAWNS`]
//! from its own point of view — the position is dead equal or worse for it — and
//! none of them saw a mate for it. With fewer searches behind it (the opening), or
//! with any of them clearly better for it, it plays on. Scores come from the
//! searches' last progress reports, so an engine that reports nothing never agrees.

use crate::engine::Score;
use crate::rules::Side;

/// How many of the CPU's latest searches must agree the position is not better for it.
pub const SEARCHES_CONSIDERED: usize = 3;

/// A score up to this many centipawns above zero still counts as dead equal.
pub const EQUAL_MARGIN_CENTIPAWNS: i32 = 10;

/// The final score of one CPU search: the ply it was searched at, the side searching
/// and the score from that side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The number of moves played before the searched position.
    pub ply: usize,
    /// The side that searched (and moved).
    pub side: Side,
    /// The score from that side's point of view.
    pub score: Score,
}

/// True when `side` should accept a draw given the game's evaluations (oldest first).
pub fn accepts_draw(evaluations: &[Evaluation], side: Side) -> bool {
    let own: Vec<Score> = evaluations
        .iter()
        .filter(|e| e.side == side)
        .map(|e| e.score)
        .collect();
    if own.len() < SEARCHES_CONSIDERED {
        return false;
    }
    own[own.len() - SEARCHES_CONSIDERED..]
        .iter()
        .all(|score| match *score {
            Score::Centipawns(cp) => cp <= EQUAL_MARGIN_CENTIPAWNS,
            Score::Mate(moves) => moves < 0,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evaluations(side: Side, scores: &[Score]) -> Vec<Evaluation> {
        scores
            .iter()
            .enumerate()
            .map(|(index, &score)| Evaluation {
                ply: index * 2,
                side,
                score,
            })
            .collect()
    }

    #[test]
    fn equal_or_worse_over_the_last_searches_accepts() {
        let equal = evaluations(
            Side::Second,
            &[
                Score::Centipawns(300),
                Score::Centipawns(5),
                Score::Centipawns(-3),
                Score::Centipawns(10),
            ],
        );
        assert!(accepts_draw(&equal, Side::Second));
        // The other side has no searches of its own.
        assert!(!accepts_draw(&equal, Side::First));
        let losing = evaluations(
            Side::First,
            &[
                Score::Centipawns(-200),
                Score::Mate(-4),
                Score::Centipawns(-900),
            ],
        );
        assert!(accepts_draw(&losing, Side::First));
    }

    #[test]
    fn better_for_the_cpu_or_too_early_declines() {
        let better = evaluations(
            Side::First,
            &[
                Score::Centipawns(0),
                Score::Centipawns(11),
                Score::Centipawns(0),
            ],
        );
        assert!(!accepts_draw(&better, Side::First));
        let mating = evaluations(
            Side::First,
            &[Score::Centipawns(0), Score::Mate(3), Score::Centipawns(0)],
        );
        assert!(!accepts_draw(&mating, Side::First));
        let early = evaluations(Side::First, &[Score::Centipawns(0), Score::Centipawns(0)]);
        assert!(!accepts_draw(&early, Side::First));
    }
}
