//! Game records on disk. `record` may use the rules engine and `std::fs`; it draws
//! nothing and knows nothing of the terminal.
//!
//! [`autosave`] keeps the game in progress so that a crash, a kill or a closed
//! terminal never loses it.

pub mod autosave;
