//! Game records on disk. `record` may use the rules engine and `std::fs`; it draws
//! nothing and knows nothing of the terminal.
//!
//! [`autosave`] keeps the game in progress so that a crash, a kill or a closed
//! terminal never loses it. The record formats (PGN for xiangqi and janggi, KIF, KI2
//! and CSA for shogi, `.gib` for janggi) all read into and write from one
//! [`GameRecord`]: a [`Game`] (start position and legal moves, replayed through the
//! rules engine) plus what the file said about it.

pub mod autosave;
pub mod gib;
pub mod pgn;
pub mod text;

use crate::rules::game::Game;
use crate::rules::Outcome;
use std::fmt;

/// A game read from or written to a record file.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Start position and the moves, every one checked by the rules engine.
    pub game: Game,
    /// Header fields in file order (`("Event", "…")`, `("先手", "…")`), names as the
    /// format spells them; writers map the ones they know and keep the rest where the
    /// format allows.
    pub headers: Vec<(String, String)>,
    /// Comments: `(ply, text)`, the comment following the move that made `ply`
    /// (ply 0: before the first move).
    pub comments: Vec<(usize, String)>,
    /// The result the file states, when it states one (a resignation, a time loss, an
    /// agreed draw). A result the rules decide on the board is in [`Game::outcome`] too.
    pub result: Option<Outcome>,
}

impl GameRecord {
    /// A record of `game` with no headers, comments or stated result.
    pub fn new(game: Game) -> GameRecord {
        GameRecord {
            game,
            headers: Vec::new(),
            comments: Vec::new(),
            result: None,
        }
    }

    /// The value of the first header called `name` (exact, case-sensitive match).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Why a record could not be read, with the moves that were read before the problem
/// so the user can still review them (never silently dropped or invented).
#[derive(Clone, Debug)]
pub struct ImportError {
    /// The file's name as the user gave it (or `-` for standard input).
    pub file: String,
    /// The 1-based line of the problem, when it has one.
    pub line: Option<usize>,
    /// The 1-based move number of the problem, when a move was being read.
    pub move_number: Option<usize>,
    /// The text that could not be understood (a move, a header line), possibly empty.
    pub text: String,
    /// Why, in one short English phrase (`no previous move ends on a square`).
    pub reason: String,
    /// The game up to the last good move, when the header and start position were read.
    pub partial: Option<Box<GameRecord>>,
}

impl fmt::Display for ImportError {
    /// `game.kif: line 37, move 24: 同歩: no previous move ends on a square`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(formatter, ": line {line}")?;
            if let Some(number) = self.move_number {
                write!(formatter, ", move {number}")?;
            }
        } else if let Some(number) = self.move_number {
            write!(formatter, ": move {number}")?;
        }
        if !self.text.is_empty() {
            write!(formatter, ": {}", self.text)?;
        }
        write!(formatter, ": {}", self.reason)
    }
}

impl std::error::Error for ImportError {}

/// The record file formats qipan reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN for xiangqi and janggi (`.pgn`).
    Pgn,
    /// Shogi KIF (`.kif`, `.kifu`).
    Kif,
    /// Shogi KI2 (`.ki2`), read only.
    Ki2,
    /// Shogi CSA (`.csa`).
    Csa,
    /// Korean janggi program records (`.gib`), read only.
    Gib,
    /// The final position as a FEN (SFEN for shogi).
    Fen,
    /// A `position … moves …` line in the engine dialect (USI for shogi).
    Usi,
}
