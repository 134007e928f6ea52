//! Perft: counting the leaves of the legal move tree, the standard proof that
//! move generation is right (compared with Fairy-Stockfish's counts).

use super::{MoveList, Position};

/// Counts the leaf nodes `depth` plies deep (depth 0 = 1).
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_moves();
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        total += child.perft(depth - 1);
    }
    total
}

/// Below this many plies a subtree is counted in one go ([`Position::perft`], fast); above
/// it the count asks `should_stop` before each move, so a deep perft can be stopped.
const UNSTOPPABLE_DEPTH: u32 = 3;

/// Counts like [`perft`], asking `should_stop` between the moves of every node more than
/// `UNSTOPPABLE_DEPTH` plies from the leaves; `None` when it was stopped.
pub fn perft_stoppable<P: Position>(
    position: &P,
    depth: u32,
    should_stop: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(position.perft(depth));
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        if should_stop() {
            return None;
        }
        let mut child = position.clone();
        child.play_unchecked(mv);
        total += perft_stoppable(&child, depth - 1, should_stop)?;
    }
    Some(total)
}

/// Perft split by root move as [`divide`] gives it, each root move handed to `each` as
/// soon as it is counted; stops (returning `false`) as soon as `should_stop` says so.
pub fn divide_stoppable<P: Position>(
    position: &P,
    depth: u32,
    should_stop: &dyn Fn() -> bool,
    each: &mut dyn FnMut(String, u64),
) -> bool {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let count = if depth <= 1 {
            Some(1)
        } else {
            perft_stoppable(&child, depth - 1, should_stop)
        };
        match count {
            Some(count) if !should_stop() => each(position.move_to_uci(mv), count),
            _ => return false,
        }
    }
    true
}

/// Perft split by root move, as `go perft` prints it: (move in UCI form, count).
pub fn divide<P: Position>(position: &P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let count = if depth <= 1 {
                1
            } else {
                child.perft(depth - 1)
            };
            (position.move_to_uci(mv), count)
        })
        .collect()
}
