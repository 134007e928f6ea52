//! Perft: counting the leaves of the legal move tree, the standard proof that
//! move generation is right (compared with Fairy-Stockfish's counts).

use super::{MoveList, Position};

/// Counts the leaf nodes `depth` plies deep (depth 0 = 1).
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        total += child.perft(depth - 1);
    }
    total
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
