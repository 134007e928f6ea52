//! qipan (棋盤): a terminal game client and rules engine for xiangqi, shogi,
//! janggi and gungjanggi.
//!
//! `rules` is pure (no I/O); `protocol` speaks engine protocols over any
//! reader and writer; `bench` measures the rules engine.

pub mod bench;
pub mod engine;
pub mod protocol;
pub mod rules;
