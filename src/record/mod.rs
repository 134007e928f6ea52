//! Game records on disk. `record` may use the rules engine and `std::fs`; it draws
//! nothing and knows nothing of the terminal.
//!
//! [`autosave`] keeps the game in progress so that a crash, a kill or a closed
//! terminal never loses it. The record formats (PGN for xiangqi and janggi, KIF, KI2
//! and CSA for shogi, `.gib` for janggi) all read into and write from one
//! [`GameRecord`]: a [`Game`] (start position and legal moves, replayed through the
//! rules engine) plus what the file said about it.
//!
//! [`read_all_file`] reads every game of a file that holds several ([`games`]).
//! [`read_file`] picks the reader by extension ([`Format::from_extension`]) or, for
//! other names, by content ([`Format::sniff`]); [`write()`] renders a record in a format.
//! [`pgn`] and [`gib`] are the xiangqi/janggi formats, [`position_line`] the FEN and
//! engine `position … moves …` forms, [`text`] what the text readers share, and
//! [`library`] where the interface saves records.

pub mod autosave;
pub mod csa;
pub mod dhtmlxq;
pub mod encoding;
pub mod games;
pub mod gib;
pub mod ki2;
pub mod kif;
pub mod library;
pub mod pgn;
pub mod position_line;
pub mod summary;
pub mod text;
pub mod times;
#[cfg(test)]
mod tree_tests;
pub mod tree_text;
pub mod xqf;

pub use games::{read_all_bytes, read_all_file, read_nth_bytes, read_nth_file, PickedGame};

use crate::i18n::{Key, Language};
use crate::rules::game::Game;
use crate::rules::Outcome;
use crate::tree::{GameTree, NodeId};
use crate::untrusted;
use std::fmt;
use std::time::Duration;

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
    /// The time each move took, as the file states it (KIF's 消費時間 column, CSA's `T`
    /// lines, PGN's `[%emt …]`) or the clock measured it: index 0 is the first move,
    /// `None` where no time is known. Empty when no move states one, and never longer
    /// than the moves; [`times`] reads and writes it.
    pub move_times: Vec<Option<Duration>>,
    /// The whole game as a tree: its main line is `game`'s moves, with the variations,
    /// comments, marks (NAGs) and times the file holds. Readers that know variations
    /// (PGN, KIF) fill it; for the others [`read_bytes`] builds it from the fields
    /// above. Writers take [`GameRecord::full_tree`].
    pub tree: GameTree,
}

impl GameRecord {
    /// A record of `game` with no headers, comments or stated result.
    pub fn new(game: Game) -> GameRecord {
        let tree = GameTree::from_game(&game);
        GameRecord {
            headers: Vec::new(),
            comments: Vec::new(),
            result: None,
            move_times: Vec::new(),
            tree,
            game,
        }
    }

    /// A record of a whole tree: the game is its main line (replayed through the rules
    /// engine; the index of a refused move and why otherwise), and the main line's
    /// comments and times fill `comments` and `move_times`.
    pub fn from_tree(tree: GameTree) -> Result<GameRecord, (usize, crate::rules::IllegalMove)> {
        let main = tree.main_line();
        let game = tree.game_along(&main)?;
        let mut record = GameRecord::new(game);
        for (ply, id) in std::iter::once(NodeId::ROOT)
            .chain(main.iter().copied())
            .enumerate()
        {
            let annotation = &tree.node(id).annotation;
            for comment in &annotation.comments {
                record.comments.push((ply, comment.clone()));
            }
            if let Some(time) = annotation.time {
                times::set(&mut record.move_times, ply, time);
            }
        }
        record.tree = tree;
        Ok(record)
    }

    /// The tree to write: [`GameRecord::tree`] when its main line is the game's moves
    /// (else a tree of the game alone), with the main line's `comments` and
    /// `move_times` filled in where the tree says nothing there.
    pub fn full_tree(&self) -> GameTree {
        let mut tree = if self.tree.moves_of(&self.tree.main_line()) == self.game.moves() {
            self.tree.clone()
        } else {
            GameTree::from_game(&self.game)
        };
        let main = tree.main_line();
        let node_at = |ply: usize| match ply {
            0 => Some(NodeId::ROOT),
            _ => main.get(ply - 1).copied(),
        };
        for ply in 0..=main.len() {
            let Some(id) = node_at(ply) else { continue };
            if tree.node(id).annotation.comments.is_empty() {
                let said = self.comments.iter().filter(|(at, _)| *at == ply);
                let bodies = said.map(|(_, body)| body.clone());
                tree.annotation_mut(id).comments.extend(bodies);
            }
        }
        for (index, time) in self.move_times.iter().enumerate() {
            if let (Some(id), Some(time)) = (node_at(index + 1), time) {
                tree.annotation_mut(id).time.get_or_insert(*time);
            }
        }
        tree
    }

    /// The time of the move that made `ply` (1-based: ply 1 is the first move), if known.
    pub fn move_time(&self, ply: usize) -> Option<Duration> {
        times::get(&self.move_times, ply)
    }

    /// Escapes the control characters of the headers and comments ([`untrusted`]), so
    /// no text of a file can reach a terminal raw; comments keep their newlines.
    pub fn clean_text(&mut self) {
        for (name, value) in &mut self.headers {
            untrusted::clean_in_place(name);
            untrusted::clean_in_place(value);
        }
        for (_, comment) in &mut self.comments {
            untrusted::clean_lines_in_place(comment);
        }
        for id in self.tree.preorder() {
            for comment in &mut self.tree.annotation_mut(id).comments {
                untrusted::clean_lines_in_place(comment);
            }
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
    /// The 1-based number of the game in a file of several ([`read_all_bytes`]); `None`
    /// for a file's only game. (A `u32` keeps the error small enough to return by value.)
    pub game: Option<u32>,
}

impl ImportError {
    /// An error at `line` (if any) about `text`, before any move was read.
    pub fn new(
        file: &str,
        line: Option<usize>,
        text: &str,
        reason: impl Into<String>,
    ) -> ImportError {
        ImportError {
            file: file.to_string(),
            line,
            move_number: None,
            text: text.to_string(),
            reason: reason.into(),
            partial: None,
            game: None,
        }
    }
}

impl ImportError {
    /// The error in `language`: where it is (file, game of several, line, move) and the
    /// text, then the reason (the reader's English phrase).
    pub fn text(&self, language: Language) -> String {
        let mut places = Vec::new();
        if let Some(game) = self.game {
            places.push(language.format(Key::ImportGame, &[&game.to_string()]));
        }
        if let Some(line) = self.line {
            places.push(language.format(Key::ImportLine, &[&line.to_string()]));
        }
        if let Some(number) = self.move_number {
            places.push(language.format(Key::ImportMove, &[&number.to_string()]));
        }
        // The file's name and text are quoted escaped and cut: they come from outside.
        let mut text = untrusted::escape(&self.file);
        if !places.is_empty() {
            text.push_str(": ");
            text.push_str(&places.join(", "));
        }
        if !self.text.is_empty() {
            text.push_str(": ");
            text.push_str(&untrusted::quote(&self.text, untrusted::QUOTE_CHARS));
        }
        text.push_str(": ");
        text.push_str(&untrusted::quote(&self.reason, 4 * untrusted::QUOTE_CHARS));
        text
    }
}

impl fmt::Display for ImportError {
    /// `game.kif: line 37, move 24: 同歩: no previous move ends on a square`, with
    /// `game 2, ` before the line in a file of several games.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text(Language::English))
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
    /// XQStudio's binary xiangqi record (`.xqf`), read only.
    Xqf,
}

impl Format {
    /// The format a file name's extension names (`game.pgn`, `GAME.KIFU`), if any.
    pub fn from_extension(path: &str) -> Option<Format> {
        let extension = std::path::Path::new(path)
            .extension()?
            .to_str()?
            .to_ascii_lowercase();
        Some(match extension.as_str() {
            "pgn" => Format::Pgn,
            "kif" | "kifu" => Format::Kif,
            "ki2" | "ki2u" => Format::Ki2,
            "csa" => Format::Csa,
            "gib" => Format::Gib,
            "fen" | "sfen" => Format::Fen,
            "usi" | "uci" => Format::Usi,
            "xqf" => Format::Xqf,
            _ => return None,
        })
    }

    /// The format a `--to` word names (`pgn`, `fen`, `usi`, `kif`, `csa`, …).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::from_extension(&format!("x.{}", name.trim()))
    }

    /// Guesses the format from the content, for files whose extension says nothing.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"XQ") && bytes.len() >= 0x400 {
            return Some(Format::Xqf);
        }
        let content = text::decode(bytes, text::Legacy::Korean);
        let content = content.trim_start();
        if dhtmlxq::is_dhtmlxq(content) {
            return Some(Format::Pgn);
        }
        let first_line = content.lines().next().unwrap_or("").trim();
        let gib_keys = [
            "초대국자",
            "한대국자",
            "초차림",
            "한차림",
            "대국결과",
            "초포진",
        ];
        // As tags (`[초대국자 "…"]` at a line's start), not words in a PGN's comment.
        let gib_tag = |line: &str| {
            let line = line.trim_start();
            gib_keys.iter().any(|key| {
                line.strip_prefix('[')
                    .is_some_and(|rest| rest.starts_with(key))
            })
        };
        if content.lines().any(gib_tag) {
            return Some(Format::Gib);
        }
        if ["手合割", "先手：", "後手：", "手数----", "#KIF"]
            .iter()
            .any(|key| content.contains(key))
        {
            return Some(
                if content.contains("手数----") || content.contains("#KIF") {
                    Format::Kif
                } else {
                    Format::Ki2
                },
            );
        }
        if first_line.starts_with("V2") || first_line.starts_with("'") && content.contains("\nPI") {
            return Some(Format::Csa);
        }
        if first_line.starts_with('[') || first_line.starts_with("1.") {
            return Some(Format::Pgn);
        }
        if first_line.starts_with("position") || first_line.starts_with("setoption") {
            return Some(Format::Usi);
        }
        if first_line.matches('/').count() >= 8 && content.lines().count() == 1 {
            return Some(Format::Fen);
        }
        None
    }

    /// The format's name as users write it (`PGN`, `KIF`, `.gib`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::Kif => "KIF",
            Format::Ki2 => "KI2",
            Format::Csa => "CSA",
            Format::Gib => ".gib",
            Format::Fen => "FEN",
            Format::Usi => "USI",
            Format::Xqf => "XQF",
        }
    }

    /// The usual file extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Kif => "kifu",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Gib => "gib",
            Format::Fen => "fen",
            Format::Usi => "usi",
            Format::Xqf => "xqf",
        }
    }
}

/// An error with no line or move: an unreadable file, an unsupported format.
fn file_error(file: &str, reason: impl Into<String>) -> ImportError {
    ImportError::new(file, None, "", reason)
}

/// The reason given for a file with no game in it (empty, or only blank space).
pub const NO_GAME: &str = "no game in file";

/// True when `bytes` hold nothing but blank space, byte-order marks, NULs and the
/// end-of-file marks old programs add (`0x1A`, `0xFF`): no game, whatever the format.
fn holds_nothing(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.chars()
        .all(|c| c.is_whitespace() || matches!(c, '\u{feff}' | '\0' | '\u{1a}' | '\u{fffd}'))
}

/// Reads a record file: the format from the extension, else from the content.
pub fn read_file(path: &std::path::Path) -> Result<GameRecord, ImportError> {
    let (bytes, name, format) = games::file_bytes(path)?;
    read_bytes(&bytes, &name, format)
}

/// Reads a record in a known format; its [`GameRecord::tree`] holds everything read.
pub fn read_bytes(bytes: &[u8], file: &str, format: Format) -> Result<GameRecord, ImportError> {
    if holds_nothing(bytes) {
        // Every format says so alike, instead of an empty game read from nothing.
        return Err(file_error(file, NO_GAME));
    }
    // Whatever the reader kept of the file's text is made safe for the terminal here,
    // once for every format, before the tree is built from it.
    match read_format(bytes, file, format) {
        Ok(mut record) => {
            record.clean_text();
            record.tree = record.full_tree();
            Ok(record)
        }
        Err(mut error) => {
            if let Some(partial) = &mut error.partial {
                partial.clean_text();
            }
            Err(error)
        }
    }
}

fn read_format(bytes: &[u8], file: &str, format: Format) -> Result<GameRecord, ImportError> {
    match format {
        Format::Pgn => pgn::read(bytes, file),
        Format::Gib => gib::read(bytes, file),
        Format::Fen | Format::Usi => position_line::read(bytes, file),
        Format::Kif => kif::read(bytes, file),
        Format::Ki2 => ki2::read(bytes, file),
        Format::Csa => csa::read(bytes, file),
        Format::Xqf => xqf::read(bytes, file),
    }
}

/// The bytes of a record file at `path`: the format from its extension, and the encoding
/// the extension promises ([`encoding::FileEncoding::for_path`]: Shift_JIS for `.kif` and
/// `.ki2`, whose `#KIF` line then says so; UTF-8 otherwise). CSA is V2.2 when its text is
/// ASCII and V3.0 with its UTF-8 declaration when not (V2.2 readers assume Shift_JIS).
/// An error names the file and says what is wrong; a character Shift_JIS lacks is
/// [`WriteError::Unencodable`], so the caller can offer the UTF-8 sibling instead.
pub fn write_for_file(record: &GameRecord, path: &std::path::Path) -> Result<Vec<u8>, WriteError> {
    let shown = path.display().to_string();
    let format = Format::from_extension(&shown).ok_or_else(|| {
        WriteError::Other(format!(
            "{shown}: unknown record extension (use .pgn, .fen, .usi, .kif, .kifu, .ki2, .csa)"
        ))
    })?;
    let text = write(record, format).map_err(|why| WriteError::Other(format!("{shown}: {why}")))?;
    encode_for_file(&text, path)
}

/// The bytes of a record's text (as [`write()`] made it) for a file at `path`: Shift_JIS
/// for `.kif` and `.ki2` (a `#KIF … encoding=UTF-8` first line then names Shift_JIS),
/// UTF-8 otherwise.
pub fn encode_for_file(text: &str, path: &std::path::Path) -> Result<Vec<u8>, WriteError> {
    use encoding::FileEncoding;
    let chosen = FileEncoding::for_path(path);
    let utf8_line = format!(
        "#KIF version=2.0 encoding={}",
        FileEncoding::Utf8.kif_name()
    );
    let text = match text.strip_prefix(&utf8_line) {
        Some(rest) => std::borrow::Cow::Owned(format!(
            "#KIF version=2.0 encoding={}{rest}",
            chosen.kif_name()
        )),
        None => std::borrow::Cow::Borrowed(text),
    };
    encoding::encode(&text, chosen).map_err(|unencodable| WriteError::Unencodable {
        file: path.display().to_string(),
        character: unencodable.character,
        line: unencodable.line,
    })
}

/// Why a record file could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The text holds a character the file's encoding (Shift_JIS) has no bytes for.
    Unencodable {
        /// The file's name as given.
        file: String,
        /// The first character that does not fit.
        character: char,
        /// Its line in the record's text, from 1.
        line: usize,
    },
    /// Any other reason, already a whole message naming the file.
    Other(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Unencodable {
                file,
                character,
                line,
            } => write!(
                formatter,
                "{file}: '{}' (line {line}) cannot be written in Shift_JIS, the encoding .kif \
                 and .ki2 files use; write .kifu or .ki2u (UTF-8) instead",
                character.escape_debug()
            ),
            WriteError::Other(message) => formatter.write_str(message),
        }
    }
}

/// Writes a record in `format` (UTF-8): PGN with the game's default notation, the final
/// position for FEN, the engine's `position … moves …` line for USI, KIF/KI2/CSA for
/// shogi. An error names a format that does not fit the game.
pub fn write(record: &GameRecord, format: Format) -> Result<String, String> {
    match format {
        Format::Pgn => {
            if record.game.variant().kind() == crate::rules::any::GameKind::Shogi {
                return Err("shogi games are written as KIF or CSA, not PGN".to_string());
            }
            Ok(pgn::write(
                record,
                pgn::default_notation(record.game.variant()),
            ))
        }
        Format::Fen => Ok(position_line::final_fen(&record.game) + "\n"),
        Format::Usi => Ok(position_line::write(&record.game)),
        Format::Kif | Format::Ki2 | Format::Csa => {
            if record.game.variant().kind() != crate::rules::any::GameKind::Shogi {
                return Err(format!(
                    "{} is a shogi format; write xiangqi and janggi games as PGN",
                    format.name()
                ));
            }
            Ok(match format {
                Format::Kif => kif::write(record),
                Format::Ki2 => ki2::write(record),
                _ => csa::write(record),
            })
        }
        Format::Gib => Err("writing .gib is not supported; write janggi games as PGN".to_string()),
        Format::Xqf => Err("writing XQF is not supported; write xiangqi games as PGN".to_string()),
    }
}
