//! Random games for the engine's tests: positions a search meets, reached by moves no
//! hand-written test would think of.

use super::eval::EngineRules;
use crate::rules::MoveList;

/// Plays `games` random games of at most `plies` plies from `start`, and hands `visit`
/// each position before a move is drawn in it (the start included, the position after
/// the last of the `plies` moves not), with its legal moves. The moves come
/// from a fixed xorshift generator seeded by `seed`, so a failure repeats; a game stops
/// early where it ends.
pub(crate) fn random_playouts<P: EngineRules>(
    start: &P,
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&P, &MoveList),
) {
    let mut state = seed;
    for _ in 0..games {
        let mut position = start.clone();
        for _ in 0..plies {
            let mut legal = MoveList::new();
            position.legal_moves(&mut legal);
            visit(&position, &legal);
            if legal.is_empty() || position.position_end().is_some() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            position.play_unchecked(legal.as_slice()[state as usize % legal.len()]);
        }
    }
}
