//! qipan (棋盤): a terminal game client and rules engine for xiangqi, shogi,
//! janggi and gungjanggi.
//!
//! `rules` is pure (no I/O); `protocol` speaks engine protocols over any
//! reader and writer; `bench` measures the rules engine. The terminal client
//! is `app` (the model), `ui` (drawing) and `tui` (terminal and event loop),
//! with its strings in `i18n`. `tree` is a game as a tree of moves (variations,
//! comments, marks) that the app plays and `record` keeps on disk (the autosave),
//! `folders` says where on each platform, and `logging` is the optional log file.

pub mod action;
pub mod analysis;
pub mod app;
pub mod bench;
pub mod clock;
pub mod config;
pub mod engine;
pub mod folders;
pub mod i18n;
pub mod logging;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod setup;
pub mod theme;
pub mod tree;
pub mod tui;
pub mod ui;
pub mod untrusted;
pub mod workers;
