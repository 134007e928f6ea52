//! Helpers shared by the integration tests.

use qipan::rules::game::Game;

/// Plays up to `plies` pseudo-random legal moves (a fixed xorshift sequence from `seed`,
/// so every run plays the same game); stops early when the game has no legal move.
pub fn play_random(game: &mut Game, plies: usize, seed: u64) {
    let mut state = seed.max(1);
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = legal.as_slice()[(state % legal.len() as u64) as usize];
        game.play(mv).expect("legal move plays");
    }
}
