//! Text protocols for other programs: UCI in Fairy-Stockfish's dialect.

pub mod uci;
