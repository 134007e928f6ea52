//! The autosave: the game in progress as a small UTF-8 text file, rewritten
//! atomically (a temporary file in the same folder, then a rename) after every move.
//!
//! ```text
//! qipan-autosave 1
//! variant janggi
//! start rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1
//! players human cpu:3
//! moves a4b4 e9e9 b1c3
//! flipped no
//! flip-every-turn no
//! notation korean-hangul
//! clock 5m 30x30s | 0 29 30000 | 187000 30 30000
//! ```
//!
//! `start` is a Fairy-Stockfish FEN (SFEN for shogi). `moves` are in the engine's coordinates ([`Position::move_to_uci`]) and are replayed
//! through [`Game::play`] on loading, so a hand-edited or damaged file gives an error
//! naming the file, the line and the field, never a panic. `judging <ply>` (gungjanggi)
//! records the ply at which an accepted draw offer started the judging phase.
//! `clock` (timed games only) is the time control, then for each side, first player
//! first, its main time left, byoyomi periods left and the current period's time left
//! (times in milliseconds), so a resumed game continues with the clocks as they were.
//! `times` (when some move has one) gives each move's time in milliseconds, `-` when
//! unknown (`times 3000 - 65250`), so the resumed game's record keeps them.
//! `tree` (written by every version that has variations) is the whole game tree in
//! [`super::tree_text`]'s form, and `line` the current line as child indices from the
//! start (`line 0 0 1`): `moves` is then the part of that line played so far. A file
//! without them (from before the tree) is read as one line.

use crate::clock::{SideTime, TimeControl};
use crate::i18n::{Key, Language};
use crate::rules::any::{AnyPosition, Variant};
use crate::rules::game::Game;
use crate::rules::notation::Notation;
use crate::rules::Position;
use crate::tree::{GameTree, NodeId};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The first line of every autosave.
pub const HEADER: &str = "qipan-autosave 1";

/// The environment variable that overrides where the autosave lives (tests, portable setups).
pub const PATH_VARIABLE: &str = crate::folders::AUTOSAVE_VARIABLE;

/// Who plays a side of a saved game: `human`, `cpu:3`, or `engine:NAME` (an external
/// engine by its configured name; spaces in it written `%20`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The built-in CPU at this level (1–10).
    Computer(u8),
    /// An external engine, by name.
    Engine(String),
}

impl Seat {
    /// The autosave word for the seat.
    fn to_text(&self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Computer(level) => format!("cpu:{level}"),
            Seat::Engine(name) => {
                format!("engine:{}", name.replace('%', "%25").replace(' ', "%20"))
            }
        }
    }

    /// Reads an autosave word; `None` when it is not one.
    fn from_text(text: &str) -> Option<Seat> {
        if text == "human" {
            return Some(Seat::Human);
        }
        if let Some(name) = text.strip_prefix("engine:") {
            let name = crate::untrusted::escape(&name.replace("%20", " ").replace("%25", "%"));
            return (!name.is_empty()).then_some(Seat::Engine(name));
        }
        let level: u8 = text.strip_prefix("cpu:")?.parse().ok()?;
        (1..=10).contains(&level).then_some(Seat::Computer(level))
    }
}

/// The game in progress with what is needed to continue it exactly.
#[derive(Clone, Debug)]
pub struct SavedGame {
    /// The game: start position and moves.
    pub game: Game,
    /// Who plays each side, first player first.
    pub players: [Seat; 2],
    /// True when the second player sits at the bottom.
    pub flipped: bool,
    /// Hotseat: the board turns after every move.
    pub flip_every_turn: bool,
    /// The move list's notation; `None` for the interface language's default.
    pub notation: Option<Notation>,
    /// The clocks when the game was saved; `None` in an untimed game (and in files
    /// written before clocks existed).
    pub clock: Option<SavedClock>,
    /// The time each move took (index 0 = first move, `None` unknown); empty when no
    /// move has one. Written as the `times` line so a resumed game's record keeps them.
    pub move_times: Vec<Option<Duration>>,
    /// The whole game tree: variations, comments, marks and times.
    pub tree: GameTree,
    /// The current line through the tree, first move first; `game` has played its start.
    pub line: Vec<NodeId>,
}

impl SavedGame {
    /// The tree and line of a game saved as one line (files from before the tree):
    /// the game's moves with their times.
    pub fn single_line(game: &Game, move_times: &[Option<Duration>]) -> (GameTree, Vec<NodeId>) {
        let mut tree = GameTree::from_game(game);
        let line = tree.main_line();
        for (&id, &time) in line.iter().zip(move_times) {
            tree.annotation_mut(id).time = time;
        }
        (tree, line)
    }
}

/// The clocks of a saved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedClock {
    /// The time control.
    pub control: TimeControl,
    /// Each side's time left when the game was saved, first player first.
    pub times: [SideTime; 2],
}

/// Why an autosave could not be read.
#[derive(Debug)]
pub enum AutosaveError {
    /// The file could not be read.
    Io {
        /// The file's name.
        file: String,
        /// The error.
        error: io::Error,
    },
    /// The file was read but is not a valid autosave.
    Invalid {
        /// The file's name.
        file: String,
        /// The line (from 1), when the problem is on one line.
        line: Option<usize>,
        /// What is wrong, e.g. `bad fen: rank 7 has 10 files`.
        message: String,
    },
}

impl fmt::Display for AutosaveError {
    /// One line, with the file's name and any quoted text escaped ([`crate::untrusted`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            AutosaveError::Io { file, error } => format!("{file}: {error}"),
            AutosaveError::Invalid {
                file,
                line: Some(line),
                message,
            } => format!("{file} line {line}: {message}"),
            AutosaveError::Invalid {
                file,
                line: None,
                message,
            } => format!("{file}: {message}"),
        };
        f.write_str(&crate::untrusted::escape(&text))
    }
}

impl std::error::Error for AutosaveError {}

/// Where the autosave lives: `$QIPAN_AUTOSAVE`, else `autosave.txt` in the platform's
/// state folder ([`crate::folders`]); `None` when no home folder can be found.
pub fn default_path() -> Option<PathBuf> {
    crate::folders::autosave_path()
}

/// Writes a saved game to `path` atomically.
pub fn save(path: &Path, saved: &SavedGame) -> io::Result<()> {
    write_atomically(path, &to_text(saved))
}

/// Writes `text` to `path` atomically: a new temporary file with a unique name in the
/// same folder (created if missing), flushed to disk, then renamed over `path`, and on
/// Unix the folder flushed too so the rename survives a power cut. A reader sees the old
/// file or the new one, never half of one, and writers at once (threads, or several
/// qipan processes) never mix their texts: the last rename wins whole.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    write_bytes_atomically(path, text.as_bytes())
}

/// [`write_atomically`] for bytes in another encoding (a Shift_JIS `.kif`).
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&folder)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "autosave.txt".to_string());
    // The temporary file is removed if anything below fails (dropped unpersisted).
    let mut temporary = temporary_file(&folder, &name)?;
    temporary.write_all(bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|error| error.error)?;
    sync_folder(&folder)
}

/// Flushes a folder's entries (the rename) to disk.
#[cfg(unix)]
fn sync_folder(folder: &Path) -> io::Result<()> {
    std::fs::File::open(folder)?.sync_all()
}

/// Elsewhere the rename is as durable as the file system makes it.
#[cfg(not(unix))]
fn sync_folder(_folder: &Path) -> io::Result<()> {
    Ok(())
}

/// How the names of qipan's temporary files end: `.NAME.RANDOM.qipan-tmp`.
const TEMPORARY_SUFFIX: &str = ".qipan-tmp";

/// How old a temporary file of qipan's must be before it counts as left by a save that
/// was killed: a save takes milliseconds, so a minute is safely past any save still
/// being written by another qipan.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// A new temporary file with a unique name beside the file `name` in `folder`.
fn temporary_file(folder: &Path, name: &str) -> io::Result<tempfile::NamedTempFile> {
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(TEMPORARY_SUFFIX)
        .rand_bytes(8);
    // The finished file gets the usual permissions (the umask's), as a plain create
    // would give it, not the private ones of a file in a shared temporary folder.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(folder)
}

/// True for the name of a temporary file qipan makes: `.NAME.RANDOM.qipan-tmp`, or
/// `.NAME.PID.tmp` from versions before this one.
fn is_own_temporary_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    if let Some(stem) = rest.strip_suffix(TEMPORARY_SUFFIX) {
        return stem
            .rsplit_once('.')
            .is_some_and(|(base, random)| !base.is_empty() && !random.is_empty());
    }
    if let Some(stem) = rest.strip_suffix(".tmp") {
        return stem.rsplit_once('.').is_some_and(|(base, pid)| {
            !base.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        });
    }
    false
}

/// Removes the temporary files that saves killed half-way (`kill -9`, a power cut) left
/// in `folder`: qipan's own names only, and only those untouched for a minute, so a
/// save another qipan is writing right now is never taken. Returns how many went.
pub fn remove_stale_temporary_files(folder: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !is_own_temporary_name(&name.to_string_lossy()) {
            continue;
        }
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let age = metadata
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok());
        if metadata.is_file()
            && age.is_some_and(|age| age >= STALE_AFTER)
            && std::fs::remove_file(entry.path()).is_ok()
        {
            log::info!(target: "files", "removed a stale temporary file: {}", entry.path().display());
            removed += 1;
        }
    }
    removed
}

/// Reads the autosave at `path`; any damage is an error ([`from_text`]).
pub fn load(path: &Path) -> Result<SavedGame, AutosaveError> {
    let file = file_label(path);
    let text = read_text(path, &file)?;
    from_text(&text, &file)
}

/// Reads the autosave at `path` as far as it is sound ([`recover`]); bytes that are not
/// UTF-8 are read as replacement characters (they fail only the field they are in).
pub fn load_recovering(path: &Path) -> Result<Recovered, AutosaveError> {
    let file = file_label(path);
    let text = read_text(path, &file)?;
    recover(&text, &file)
}

/// The most an autosave may hold: far above any game (a tree of 200,000 words is a few
/// MiB), small enough that a wrong file cannot fill memory.
const MOST_AUTOSAVE_BYTES: u64 = 64 << 20;

/// The text of an autosave file: a regular file of a sane size, decoded leniently.
fn read_text(path: &Path, file: &str) -> Result<String, AutosaveError> {
    use std::io::Read;
    let io_error = |error: io::Error| AutosaveError::Io {
        file: file.to_string(),
        error,
    };
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    if !metadata.is_file() {
        return Err(AutosaveError::Invalid {
            file: file.to_string(),
            line: None,
            message: "not a regular file".to_string(),
        });
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|opened| opened.take(MOST_AUTOSAVE_BYTES).read_to_end(&mut bytes))
        .map_err(io_error)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    })
}

/// Why writing `path` failed, said so the player can act on it: a folder on the way
/// that is a file is named as such (the system says only "File exists" or "Not a
/// directory"); anything else is the path and the system's reason.
pub fn write_problem(path: &Path, error: &io::Error, language: Language) -> String {
    match path.ancestors().skip(1).find(|folder| folder.is_file()) {
        Some(folder) => language.format(Key::FolderIsAFile, &[&folder.display().to_string()]),
        None => format!("{}: {error}", path.display()),
    }
}

/// Moves a damaged autosave aside so the next game's autosave cannot destroy it:
/// `autosave.txt` becomes `autosave.txt.damaged-20261201-054312` beside it (a counter is
/// added if that name is taken). Returns the new path.
pub fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().map_or_else(
        || "autosave.txt".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let stamp = super::library::local_now()
        .strftime("%Y%m%d-%H%M%S")
        .to_string();
    for counter in 1..100 {
        let suffix = if counter == 1 {
            String::new()
        } else {
            format!("-{counter}")
        };
        let aside = path.with_file_name(format!("{name}.damaged-{stamp}{suffix}"));
        if aside.exists() {
            continue;
        }
        std::fs::rename(path, &aside)?;
        return Ok(aside);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many damaged autosaves kept already",
    ))
}

/// Deletes the autosave at `path`; a missing file is not an error.
pub fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// The name errors use for a file: its last component.
fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The autosave text of a game.
pub fn to_text(saved: &SavedGame) -> String {
    let game = &saved.game;
    let mut moves = Vec::with_capacity(game.moves().len());
    for (position, &mv) in game.positions().iter().zip(game.moves()) {
        moves.push(position.move_to_uci(mv));
    }
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut text = format!(
        "{HEADER}\nvariant {}\nstart {}\nplayers {} {}\nmoves {}\n",
        game.variant().id(),
        start_text(game.start()),
        saved.players[0].to_text(),
        saved.players[1].to_text(),
        moves.join(" "),
    );
    if let Some(ply) = judging_ply(game) {
        text.push_str(&format!("judging {ply}\n"));
    }
    text.push_str(&format!(
        "flipped {}\nflip-every-turn {}\n",
        yes_no(saved.flipped),
        yes_no(saved.flip_every_turn)
    ));
    if let Some(notation) = saved.notation {
        text.push_str(&format!("notation {}\n", notation_id(notation)));
    }
    if let Some(clock) = saved.clock.filter(|c| c.control.is_timed()) {
        text.push_str(&format!("clock {}", clock.control));
        for time in clock.times {
            text.push_str(&format!(
                " | {} {} {}",
                time.main.as_millis(),
                time.periods,
                time.period.as_millis()
            ));
        }
        text.push('\n');
    }
    if saved.move_times.iter().any(Option::is_some) {
        let times: Vec<String> = saved
            .move_times
            .iter()
            .take(game.moves().len())
            .map(|time| time.map_or("-".to_string(), |t| t.as_millis().to_string()))
            .collect();
        text.push_str(&format!("times {}\n", times.join(" ")));
    }
    text.push_str(&format!("tree {}\n", super::tree_text::write(&saved.tree)));
    let indices: Vec<String> = saved
        .line
        .iter()
        .map(|&id| {
            let parent = saved.tree.node(id).parent().unwrap_or(NodeId::ROOT);
            let index = saved.tree.children(parent).iter().position(|&c| c == id);
            index.unwrap_or(0).to_string()
        })
        .collect();
    text.push_str(&format!("line {}\n", indices.join(" ")));
    text
}

/// Reads the `tree` and `line` lines as far as they are sound: the tree up to its first
/// bad word, and the current line, which always begins with the moves played (they are
/// added to the tree where a damaged tree lacks them). The problems come with their
/// file lines.
fn recover_tree(
    tree_field: (usize, &str),
    line_field: Option<(usize, &str)>,
    game: &Game,
) -> (GameTree, Vec<NodeId>, Vec<(usize, String)>) {
    let (number, value) = tree_field;
    let mut problems = Vec::new();
    let (mut tree, problem) = super::tree_text::read_partly(value, game.start());
    if let Some(reason) = problem {
        problems.push((number, format!("bad tree: {reason}")));
    }
    let mut line = Vec::new();
    let mut at = NodeId::ROOT;
    let tree_sound = problems.is_empty();
    if let Some((number, value)) = line_field {
        for word in value.split_whitespace() {
            let child = word
                .parse::<usize>()
                .ok()
                .and_then(|index| tree.children(at).get(index).copied());
            let Some(child) = child else {
                // In a damaged tree the line fails where the tree was cut: one problem.
                if !tree_sound {
                    break;
                }
                problems.push((
                    number,
                    format!("bad line: no variation '{}' here", shorten(word)),
                ));
                break;
            };
            line.push(child);
            at = child;
        }
    }
    line.extend(tree.main_continuation(at));
    let played = game.moves();
    if line.len() < played.len() || tree.moves_of(&line[..played.len()]) != played {
        if problems.is_empty() {
            problems.push((
                number,
                "bad tree: its line does not begin with the moves played".to_string(),
            ));
        }
        // The moves played are the game: the tree takes them where it lacks them.
        let mut at = NodeId::ROOT;
        line.clear();
        for &mv in played {
            at = tree.add_move(at, mv).0;
            line.push(at);
        }
        line.extend(tree.main_continuation(at));
    }
    (tree, line, problems)
}

/// Reads the value of a `times` line: a move's time in milliseconds, or `-`, per move.
fn parse_times(value: &str, moves: usize) -> Result<Vec<Option<Duration>>, String> {
    let mut times = Vec::new();
    for word in value.split_whitespace() {
        if word == "-" {
            times.push(None);
            continue;
        }
        let millis: u64 = word
            .parse()
            .map_err(|_| format!("bad times: '{word}' is not milliseconds or '-'"))?;
        times.push(Some(Duration::from_millis(millis)));
    }
    if times.len() > moves {
        return Err(format!(
            "bad times: {} times for {moves} moves",
            times.len()
        ));
    }
    Ok(times)
}

/// Reads the value of a `clock` line: `<control> | <main ms> <periods> <period ms> | …`.
fn parse_clock(value: &str) -> Result<SavedClock, String> {
    let parts: Vec<&str> = value.split('|').map(str::trim).collect();
    let [control, first, second] = parts.as_slice() else {
        return Err(format!(
            "bad clock: expected a time control and two sides' times separated by '|', found {} parts",
            parts.len()
        ));
    };
    let control: TimeControl = control.parse().map_err(|e| format!("bad clock: {e}"))?;
    let limits = control.initial();
    // Longer than any control allows: a damaged number, not a clock.
    let longest = Duration::from_secs(100 * 3600);
    let side = |text: &str| -> Result<SideTime, String> {
        let numbers: Vec<&str> = text.split_whitespace().collect();
        let bad =
            || format!("bad clock: expected '<main ms> <periods> <period ms>', found '{text}'");
        let [main, periods, period] = numbers.as_slice() else {
            return Err(bad());
        };
        let main = Duration::from_millis(main.parse().map_err(|_| bad())?);
        let periods: u32 = periods.parse().map_err(|_| bad())?;
        let period = Duration::from_millis(period.parse().map_err(|_| bad())?);
        if main > longest || periods > limits.periods || period > limits.period {
            return Err(format!(
                "bad clock: '{text}' is more time than the control '{control}' gives"
            ));
        }
        Ok(SideTime {
            main,
            periods,
            period,
        })
    };
    Ok(SavedClock {
        control,
        times: [side(first)?, side(second)?],
    })
}

/// The start position as written: FSF FEN, but SFEN for shogi (Fairy-Stockfish's shogi
/// FEN does not keep the move number of a position with Gote to move exactly).
fn start_text(position: &AnyPosition) -> String {
    match position {
        AnyPosition::Shogi(shogi) => shogi.sfen(),
        other => other.fen(),
    }
}

/// The first ply whose position is in the gungjanggi judging phase, if any.
fn judging_ply(game: &Game) -> Option<usize> {
    game.positions().iter().position(|position| match position {
        AnyPosition::Janggi(janggi) => janggi.gungjanggi_state().judging,
        _ => false,
    })
}

const NOTATIONS: [(Notation, &str); 10] = [
    (
        Notation::Chinese { simplified: false },
        "chinese-traditional",
    ),
    (Notation::Chinese { simplified: true }, "chinese-simplified"),
    (Notation::Wxf, "wxf"),
    (Notation::Iccs, "iccs"),
    (Notation::Japanese, "japanese"),
    (Notation::Hodges, "hodges"),
    (Notation::Usi, "usi"),
    (Notation::Korean { hangul: true }, "korean-hangul"),
    (Notation::Korean { hangul: false }, "korean-hanja"),
    (Notation::Engine, "engine"),
];

fn notation_id(notation: Notation) -> &'static str {
    NOTATIONS
        .iter()
        .find(|(n, _)| *n == notation)
        .map_or("engine", |(_, id)| id)
}

/// What a damaged autosave cost: a field dropped (its default used instead) or the
/// moves from some point on. The player is told these in one line ([`Dropped::text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// Who plays each side (both human now).
    Players,
    /// The clocks (the game goes on untimed).
    Clock,
    /// The time each move took.
    MoveTimes,
    /// The moves from this move (from 1) on.
    MovesFrom(usize),
    /// Variations, comments and marks after the damage in the tree line.
    Tree,
    /// A setting of the board or the move list (`flipped`, `notation`, `judging`…).
    Setting(String),
    /// A line qipan does not know (dropped; a newer version's, or damage).
    UnknownLine(String),
    /// A key given a second time (the first is kept).
    SecondLine(String),
}

impl Dropped {
    /// What was dropped, in `language`, as a phrase for [`Key::AutosaveRestoredPartly`].
    pub fn text(&self, language: Language) -> String {
        let shown = |key: &str| crate::untrusted::escape(&key.chars().take(24).collect::<String>());
        match self {
            Dropped::Players => language.text(Key::DroppedPlayers).to_string(),
            Dropped::Clock => language.text(Key::DroppedClock).to_string(),
            Dropped::MoveTimes => language.text(Key::DroppedMoveTimes).to_string(),
            Dropped::MovesFrom(number) => {
                language.format(Key::DroppedMovesFrom, &[&number.to_string()])
            }
            Dropped::Tree => language.text(Key::DroppedTree).to_string(),
            Dropped::Setting(key) => language.format(Key::DroppedSetting, &[&shown(key)]),
            Dropped::UnknownLine(key) => language.format(Key::DroppedUnknownLine, &[&shown(key)]),
            Dropped::SecondLine(key) => language.format(Key::DroppedSecondLine, &[&shown(key)]),
        }
    }
}

/// One problem of a damaged autosave: what it cost, and where and why (for the log).
#[derive(Debug)]
pub struct Problem {
    /// What was dropped.
    pub dropped: Dropped,
    /// The file, the line and what was wrong.
    pub error: AutosaveError,
}

/// An autosave read as far as it is sound: the game to resume and what the damage cost.
#[derive(Debug)]
pub struct Recovered {
    /// The game, with defaults where fields were dropped.
    pub saved: SavedGame,
    /// Every problem, in file order; empty for a sound file.
    pub problems: Vec<Problem>,
}

impl Recovered {
    /// What was dropped, in `language`, as one phrase list (each kind once).
    pub fn dropped_text(&self, language: Language) -> String {
        let mut phrases: Vec<String> = Vec::new();
        for problem in &self.problems {
            let phrase = problem.dropped.text(language);
            if !phrases.contains(&phrase) {
                phrases.push(phrase);
            }
        }
        language.list(&phrases)
    }
}

/// Reads autosave text; `file` names the file in error messages. Any damage is an
/// error (the first problem [`recover`] finds).
pub fn from_text(text: &str, file: &str) -> Result<SavedGame, AutosaveError> {
    let recovered = recover(text, file)?;
    match recovered.problems.into_iter().next() {
        Some(problem) => Err(problem.error),
        None => Ok(recovered.saved),
    }
}

/// Reads autosave text as far as it is sound. Only a file that is no autosave at all (a
/// wrong first line) or whose game cannot be known (no valid `variant` or `start`) is an
/// error; any other damage costs only what it touches: a bad minor field (`players`,
/// `clock`, `times`, a setting, a duplicate or unknown line) is dropped for its default,
/// a bad move keeps the moves before it, a bad tree word keeps the nodes before it. A
/// last line without its newline was cut short: its last word is not trusted.
pub fn recover(text: &str, file: &str) -> Result<Recovered, AutosaveError> {
    let invalid = |line: Option<usize>, message: String| AutosaveError::Invalid {
        file: file.to_string(),
        line,
        message,
    };
    let mut problems = Problems {
        file,
        list: Vec::new(),
    };
    // A byte-order mark (an editor may add one) is not part of the header.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cut_short = !text.is_empty() && !text.ends_with('\n');
    let last_number = text.lines().count();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    match lines.next() {
        Some((_, HEADER)) => {}
        Some((number, other)) => {
            let shown: String = other.chars().take(40).collect();
            return Err(invalid(
                Some(number),
                format!("bad header: expected '{HEADER}', found '{shown}'"),
            ));
        }
        None => return Err(invalid(None, "empty file".to_string())),
    }
    let mut fields: Vec<(&str, usize, &str)> = Vec::new();
    for (number, line) in lines {
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let mut value = value.trim();
        if cut_short && number == last_number {
            // The file ends inside this line: the last word may be part of a longer one.
            match key {
                "moves" | "times" | "tree" | "line" => {
                    let kept = value
                        .rsplit_once(' ')
                        .map_or("", |(kept, _)| kept.trim_end());
                    if kept.len() < value.len() && key != "line" {
                        let dropped = match key {
                            "moves" => Dropped::MovesFrom(value.split_whitespace().count()),
                            "times" => Dropped::MoveTimes,
                            _ => Dropped::Tree,
                        };
                        problems.note(
                            dropped,
                            Some(number),
                            format!("bad {key}: the file ends inside this line"),
                        );
                    }
                    value = kept;
                }
                _ => {
                    let dropped = match key {
                        "players" => Dropped::Players,
                        "clock" => Dropped::Clock,
                        _ if KEYS.contains(&key) => Dropped::Setting(key.to_string()),
                        _ => Dropped::UnknownLine(key.to_string()),
                    };
                    problems.note(
                        dropped,
                        Some(number),
                        format!("bad {key}: the file ends inside this line"),
                    );
                    continue;
                }
            }
        }
        if fields.iter().any(|(k, _, _)| *k == key) {
            problems.note(
                Dropped::SecondLine(key.to_string()),
                Some(number),
                format!("'{key}' given twice"),
            );
            continue;
        }
        if !KEYS.contains(&key) {
            let shown: String = key.chars().take(24).collect();
            problems.note(
                Dropped::UnknownLine(key.to_string()),
                Some(number),
                format!("unknown line '{shown}'"),
            );
            continue;
        }
        fields.push((key, number, value));
    }
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|f| (f.1, f.2))
    };
    let required = |key: &str| field(key).ok_or_else(|| invalid(None, format!("no '{key}' line")));

    let (line, value) = required("variant")?;
    let variant = Variant::from_name(value)
        .ok_or_else(|| invalid(Some(line), format!("bad variant: unknown game '{value}'")))?;
    let (line, value) = required("start")?;
    let start = variant
        .position_from_outside(value)
        .map_err(|e| invalid(Some(line), format!("bad fen: {e}")))?;
    let players_cut = problems.list.iter().any(|p| p.dropped == Dropped::Players);
    let players = match field("players") {
        None => {
            if !players_cut {
                problems.note(Dropped::Players, None, "no 'players' line".to_string());
            }
            [Seat::Human, Seat::Human]
        }
        Some((line, value)) => parse_players(value).unwrap_or_else(|message| {
            problems.note(Dropped::Players, Some(line), message);
            [Seat::Human, Seat::Human]
        }),
    };
    let judging = match field("judging") {
        Some((line, value)) => match value.parse::<usize>() {
            Ok(ply) => Some(ply),
            Err(_) => {
                problems.note(
                    Dropped::Setting("judging".to_string()),
                    Some(line),
                    format!("bad judging: '{value}'"),
                );
                None
            }
        },
        None => None,
    };
    let mut game = Game::new(start);
    let mut moves_sound = true;
    match field("moves") {
        None => {
            moves_sound = false;
            problems.note(Dropped::MovesFrom(1), None, "no 'moves' line".to_string());
        }
        Some((line, value)) => {
            for (index, text) in value.split_whitespace().enumerate() {
                if judging == Some(index) {
                    game.accept_draw();
                }
                let number = index + 1;
                let played = match game.position().parse_uci(text) {
                    None => Err(format!(
                        "bad moves: move {number} '{}' is not a move here",
                        shorten(text)
                    )),
                    Some(mv) => game.play(mv).map_err(|reason| {
                        format!(
                            "bad moves: move {number} '{}' is illegal: {reason}",
                            shorten(text)
                        )
                    }),
                };
                if let Err(message) = played {
                    moves_sound = false;
                    problems.note(Dropped::MovesFrom(number), Some(line), message);
                    break;
                }
            }
        }
    }
    if judging.is_some_and(|ply| ply == game.moves().len()) {
        game.accept_draw();
    }
    let mut flag = |key: &str| -> bool {
        match field(key) {
            None | Some((_, "no")) => false,
            Some((_, "yes")) => true,
            Some((line, other)) => {
                problems.note(
                    Dropped::Setting(key.to_string()),
                    Some(line),
                    format!("bad {key}: expected yes or no, found '{}'", shorten(other)),
                );
                false
            }
        }
    };
    let flipped = flag("flipped");
    let flip_every_turn = flag("flip-every-turn");
    let notation = match field("notation") {
        None => None,
        Some((line, value)) => {
            let notation = NOTATIONS
                .iter()
                .find(|(_, id)| *id == value)
                .map(|(n, _)| *n)
                .filter(|n| Notation::for_game(variant.kind()).contains(n));
            if notation.is_none() {
                problems.note(
                    Dropped::Setting("notation".to_string()),
                    Some(line),
                    format!("bad notation: '{}'", shorten(value)),
                );
            }
            notation
        }
    };
    let clock = match field("clock") {
        None => None,
        Some((line, value)) => match parse_clock(value) {
            Ok(clock) => Some(clock),
            Err(message) => {
                problems.note(Dropped::Clock, Some(line), message);
                None
            }
        },
    };
    let played = game.moves().len();
    let move_times = match field("times") {
        None => Vec::new(),
        Some((line, value)) => match parse_times(value, played) {
            Ok(times) => times,
            // Moves were cut: the times of the moves kept are still good.
            Err(_) if !moves_sound => {
                let mut times = parse_times(value, usize::MAX).unwrap_or_default();
                times.truncate(played);
                times
            }
            Err(message) => {
                problems.note(Dropped::MoveTimes, Some(line), message);
                Vec::new()
            }
        },
    };
    let (tree, line) = match field("tree") {
        Some(tree_field) => {
            let (tree, line, tree_problems) = recover_tree(tree_field, field("line"), &game);
            for (line, message) in tree_problems {
                problems.note(Dropped::Tree, Some(line), message);
            }
            (tree, line)
        }
        None => SavedGame::single_line(&game, &move_times),
    };
    // In file order (a missing line last), as the player reads the file.
    let mut problems = problems.list;
    problems.sort_by_key(|problem| match &problem.error {
        AutosaveError::Invalid {
            line: Some(line), ..
        } => *line,
        _ => usize::MAX,
    });
    let saved = SavedGame {
        game,
        players,
        flipped,
        flip_every_turn,
        notation,
        clock,
        move_times,
        tree,
        line,
    };
    Ok(Recovered { saved, problems })
}

/// The problems found so far in an autosave.
struct Problems<'a> {
    /// The file's name, for the errors.
    file: &'a str,
    /// The problems, in the order found.
    list: Vec<Problem>,
}

impl Problems<'_> {
    /// Notes that `dropped` was lost, with where and why.
    fn note(&mut self, dropped: Dropped, line: Option<usize>, message: String) {
        self.list.push(Problem {
            dropped,
            error: AutosaveError::Invalid {
                file: self.file.to_string(),
                line,
                message,
            },
        });
    }
}

/// The keys an autosave has; any other line is reported and dropped.
const KEYS: [&str; 12] = [
    "variant",
    "start",
    "players",
    "moves",
    "judging",
    "flipped",
    "flip-every-turn",
    "notation",
    "clock",
    "times",
    "tree",
    "line",
];

/// A word of the file as an error quotes it: at most 24 characters.
fn shorten(text: &str) -> String {
    text.chars().take(24).collect()
}

/// Reads the value of a `players` line: two seats.
fn parse_players(value: &str) -> Result<[Seat; 2], String> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    if parts.len() != 2 {
        return Err(format!("bad players: expected two, found {}", parts.len()));
    }
    let mut players = [Seat::Human, Seat::Human];
    for (slot, part) in players.iter_mut().zip(&parts) {
        *slot = Seat::from_text(part).ok_or_else(|| format!("bad players: '{}'", shorten(part)))?;
    }
    Ok(players)
}

/// `human` → `Some(None)`, `cpu:N` (1–10) → `Some(Some(N))`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::janggi::JanggiRules;
    use crate::ui::benchmark::parse_move;

    /// A fresh, empty folder under the system's temporary folder.
    fn temp_folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("qipan-autosave-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    fn play(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let mv = parse_move(game.position(), text).expect(text);
            game.play(mv).expect(text);
        }
    }

    /// Plays `count` legal moves chosen by a fixed rule (no randomness).
    fn play_some(game: &mut Game, count: usize) {
        for step in 0..count {
            let moves = game.legal_moves();
            if moves.is_empty() {
                return;
            }
            let mv = moves
                .iter()
                .copied()
                .nth((step * 7 + 3) % moves.len())
                .unwrap();
            game.play(mv).unwrap();
        }
    }

    fn saved(game: Game) -> SavedGame {
        let (tree, line) = SavedGame::single_line(&game, &[]);
        SavedGame {
            tree,
            line,
            game,
            players: [
                Seat::Engine("Fairy Stockfish 11%".to_string()),
                Seat::Computer(3),
            ],
            flipped: true,
            flip_every_turn: false,
            notation: None,
            clock: None,
            move_times: Vec::new(),
        }
    }

    fn assert_same(loaded: &SavedGame, original: &SavedGame) {
        assert_eq!(loaded.game.variant(), original.game.variant());
        assert_eq!(loaded.game.moves(), original.game.moves());
        assert_eq!(loaded.game.positions(), original.game.positions());
        assert_eq!(loaded.players, original.players);
        assert_eq!(loaded.flipped, original.flipped);
        assert_eq!(loaded.flip_every_turn, original.flip_every_turn);
        assert_eq!(loaded.notation, original.notation);
        assert_eq!(loaded.clock, original.clock);
    }

    fn round_trip(original: &SavedGame, folder: &Path) -> SavedGame {
        let path = folder.join("autosave.txt");
        save(&path, original).unwrap();
        let loaded = load(&path).unwrap_or_else(|e| panic!("{e}\n{}", to_text(original)));
        assert_same(&loaded, original);
        loaded
    }

    /// Issue 18 item 16: an autosave with a byte-order mark reads.
    #[test]
    fn a_byte_order_mark_is_accepted() {
        let text = format!("\u{feff}{}", good_text());
        assert!(from_text(&text, "autosave.txt").is_ok());
    }

    /// Issue 18 item 1: a damaged autosave is moved aside, never left for the next game.
    #[test]
    fn a_damaged_autosave_is_kept_aside() {
        let folder = temp_folder("aside");
        let path = folder.join("autosave.txt");
        std::fs::write(&path, "damaged").unwrap();
        let aside = keep_aside(&path).unwrap();
        assert!(!path.exists());
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), "damaged");
        let name = aside.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("autosave.txt.damaged-"), "{name}");
        std::fs::write(&path, "damaged again").unwrap();
        let second = keep_aside(&path).unwrap();
        assert_ne!(second, aside);
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), "damaged");
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn every_rule_set_round_trips() {
        let folder = temp_folder("every");
        for variant in Variant::ALL {
            let mut game = Game::from_variant(variant);
            play_some(&mut game, 12);
            round_trip(&saved(game), &folder);
        }
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn janggi_pass_shogi_drop_and_promotion_round_trip() {
        let folder = temp_folder("special");
        // Janggi: a pass by each side.
        let mut game = Game::from_variant(Variant::Janggi(JanggiRules::KJA));
        play(&mut game, &["a4b4"]);
        let pass = game.legal_moves().iter().copied().find(|m| m.is_pass());
        game.play(pass.expect("han may pass")).unwrap();
        play(&mut game, &["i4h4"]);
        let mut original = saved(game);
        original.notation = Some(Notation::Korean { hangul: false });
        let loaded = round_trip(&original, &folder);
        assert!(loaded.game.moves()[1].is_pass());
        // Shogi: the bishop takes and promotes, is retaken, and is dropped again.
        let mut game = Game::from_variant(Variant::Shogi);
        play(&mut game, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert!(game.moves()[2].is_promotion());
        assert!(game.moves()[4].is_drop());
        let mut original = saved(game);
        original.flip_every_turn = true;
        original.notation = Some(Notation::Japanese);
        round_trip(&original, &folder);
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_shogi_handicap_and_the_gungjanggi_judging_phase_round_trip() {
        let folder = temp_folder("judging");
        let start = AnyPosition::Shogi(crate::rules::shogi::Handicap::Lance.position());
        let mut game = Game::new(start);
        play_some(&mut game, 6);
        round_trip(&saved(game), &folder);
        let mut game = Game::from_variant(Variant::Janggi(JanggiRules::GUNGJANGGI));
        play_some(&mut game, 4);
        game.accept_draw();
        play_some(&mut game, 3);
        let text = to_text(&saved(game.clone()));
        assert!(text.contains("\njudging 4\n"), "{text}");
        round_trip(&saved(game), &folder);
        std::fs::remove_dir_all(folder).unwrap();
    }

    fn error_of(text: &str) -> String {
        match from_text(text, "autosave.txt") {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(error) => error.to_string(),
        }
    }

    fn good_text() -> String {
        let mut game = Game::from_variant(Variant::Xiangqi);
        play(&mut game, &["h3e3", "h10g8", "h1g3"]);
        to_text(&saved(game))
    }

    fn with_line(text: &str, key: &str, value: &str) -> String {
        text.lines()
            .map(|line| {
                if line.split(' ').next() == Some(key) {
                    format!("{key} {value}")
                } else {
                    line.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn broken_files_name_the_line_and_the_field() {
        let good = good_text();
        assert!(from_text(&good, "autosave.txt").is_ok());
        let header = error_of(&good.replacen("qipan-autosave 1", "qipan-autosave 9", 1));
        assert!(
            header.starts_with("autosave.txt line 1: bad header"),
            "{header}"
        );
        let fen = error_of(&with_line(
            &good,
            "start",
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ));
        assert!(fen.starts_with("autosave.txt line 3: bad fen: "), "{fen}");
        assert!(fen.contains("10"), "{fen}");
        let illegal = error_of(&with_line(&good, "moves", "h3e3 h10g8 a1a6"));
        assert_eq!(
            illegal.split(" is").next().unwrap(),
            "autosave.txt line 5: bad moves: move 3 'a1a6'"
        );
        let nonsense = error_of(&with_line(&good, "moves", "h3e3 zz9"));
        assert!(
            nonsense.starts_with("autosave.txt line 5: bad moves: move 2 'zz9'"),
            "{nonsense}"
        );
        let variant = error_of(&with_line(&good, "variant", "chess"));
        assert!(
            variant.starts_with("autosave.txt line 2: bad variant"),
            "{variant}"
        );
        let players = error_of(&with_line(&good, "players", "human cpu:11"));
        assert!(
            players.starts_with("autosave.txt line 4: bad players"),
            "{players}"
        );
        let missing = error_of(&with_line(&good, "moves", "").replace("\nmoves ", "\n"));
        assert!(missing.contains("no 'moves' line"), "{missing}");
        assert_eq!(error_of(""), "autosave.txt: empty file");
    }

    #[test]
    fn any_truncation_or_damage_is_an_error_not_a_panic() {
        let good = good_text();
        for (index, _) in good.char_indices() {
            let _ = from_text(&good[..index], "autosave.txt");
            let mut damaged = good.clone();
            damaged.replace_range(index..=index, "#");
            let _ = from_text(&damaged, "autosave.txt");
        }
    }

    #[test]
    fn move_times_round_trip_and_bad_ones_are_errors() {
        let mut game = Game::from_variant(Variant::Shogi);
        play_some(&mut game, 4);
        let mut original = saved(game);
        original.move_times = vec![
            Some(Duration::from_millis(3_000)),
            None,
            Some(Duration::from_millis(65_250)),
        ];
        let text = to_text(&original);
        assert!(text.contains("\ntimes 3000 - 65250\n"), "{text}");
        let loaded = from_text(&text, "autosave.txt").unwrap();
        assert_eq!(loaded.move_times, original.move_times);
        // No times: no line, and an empty list back.
        assert!(!good_text().contains("times"));
        assert!(from_text(&good_text(), "autosave.txt")
            .unwrap()
            .move_times
            .is_empty());
        for (bad, why) in [
            ("times 3000 soon", "'soon' is not milliseconds"),
            ("times 1 2 3 4 5", "5 times for 4 moves"),
        ] {
            let damaged = text.replace("times 3000 - 65250", bad);
            let error = from_text(&damaged, "autosave.txt").unwrap_err().to_string();
            assert!(error.contains(why), "{error}");
        }
    }

    #[test]
    fn clocks_round_trip_and_old_files_load_untimed() {
        let folder = temp_folder("clock");
        let mut game = Game::from_variant(Variant::Janggi(JanggiRules::GUNGJANGGI));
        play_some(&mut game, 5);
        let mut original = saved(game);
        original.clock = Some(SavedClock {
            control: crate::clock::GUNGJANGGI_DEFAULT,
            times: [
                SideTime {
                    main: Duration::ZERO,
                    periods: 29,
                    period: Duration::from_millis(12_345),
                },
                SideTime {
                    main: Duration::from_millis(187_001),
                    periods: 30,
                    period: Duration::from_secs(30),
                },
            ],
        });
        let text = to_text(&original);
        assert!(
            text.contains("\nclock 5m 30x30s | 0 29 12345 | 187001 30 30000\n"),
            "{text}"
        );
        round_trip(&original, &folder);
        // A file from before clocks: no clock line, an untimed game.
        let old = good_text();
        assert!(!old.contains("clock"));
        assert!(from_text(&old, "autosave.txt").unwrap().clock.is_none());
        std::fs::remove_dir_all(folder).unwrap();
    }

    #[test]
    fn a_broken_clock_line_names_the_line_and_what_was_expected() {
        let good = good_text();
        let with_clock = |value: &str| format!("{good}clock {value}\n");
        let line = good.lines().count() + 1;
        let prefix = format!("autosave.txt line {line}: bad clock: ");
        for (value, expected) in [
            (
                "10m | 1 0 0",
                "expected a time control and two sides' times",
            ),
            ("10q | 1 0 0 | 1 0 0", "bad time '10q'"),
            (
                "10m | 1 0 | 1 0 0",
                "expected '<main ms> <periods> <period ms>', found '1 0'",
            ),
            ("10m | 1 0 0 | x 0 0", "found 'x 0 0'"),
            (
                "10m 3x30s | 1 4 0 | 1 0 0",
                "more time than the control '10m 3x30s' gives",
            ),
            (
                "10m 3x30s | 1 3 30001 | 1 0 0",
                "more time than the control",
            ),
        ] {
            let error = error_of(&with_clock(value));
            assert!(error.starts_with(&prefix), "{error}");
            assert!(error.contains(expected), "{value}: {error}");
        }
        let ok = from_text(&with_clock("5m+3s | 1000 0 0 | 299999 0 0"), "autosave.txt");
        let clock = ok.unwrap().clock.unwrap();
        assert_eq!(clock.times[1].main, Duration::from_millis(299_999));
    }

    #[test]
    fn save_replaces_atomically_and_remove_is_quiet() {
        let folder = temp_folder("files");
        let path = folder.join("deeper").join("autosave.txt");
        write_atomically(&path, "first").unwrap();
        write_atomically(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("autosave.txt")]);
        remove(&path).unwrap();
        remove(&path).unwrap();
        let missing = load(&path).unwrap_err().to_string();
        assert!(missing.starts_with("autosave.txt: "), "{missing}");
        std::fs::remove_dir_all(folder).unwrap();
    }

    /// Four writers at once into one file (threads of one process: the same process id)
    /// each use their own temporary file: every read finds one complete text, never a
    /// mix, and nothing is left beside the file.
    #[test]
    fn writers_at_once_never_mix_their_texts() {
        let folder = temp_folder("race");
        let path = folder.join("autosave.txt");
        let texts: Vec<String> = (0..4)
            .map(|writer| format!("{writer}").repeat(64 * 1024 + writer))
            .collect();
        write_atomically(&path, &texts[0]).unwrap();
        std::thread::scope(|scope| {
            for text in &texts {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..40 {
                        write_atomically(path, text).unwrap();
                    }
                });
            }
            for _ in 0..200 {
                let read = std::fs::read_to_string(&path).unwrap();
                assert!(
                    texts.contains(&read),
                    "a mixed file of {} bytes",
                    read.len()
                );
            }
        });
        let read = std::fs::read_to_string(&path).unwrap();
        assert!(texts.contains(&read));
        let names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("autosave.txt")]);
        std::fs::remove_dir_all(folder).unwrap();
    }

    /// A save killed half-way (`kill -9`) leaves its temporary file; the next start
    /// removes qipan's own stale ones (this version's and the older `.NAME.PID.tmp`)
    /// and nothing else: not a fresh one another qipan may be writing, not the user's.
    #[test]
    fn stale_temporary_files_are_removed_and_nothing_else() {
        let folder = temp_folder("stale");
        let old = std::time::SystemTime::now() - Duration::from_secs(3600);
        let make = |name: &str, stale: bool| {
            let path = folder.join(name);
            std::fs::write(&path, "half a save").unwrap();
            if stale {
                let file = std::fs::File::options().write(true).open(&path).unwrap();
                file.set_modified(old).unwrap();
            }
        };
        let stale = [
            ".autosave.txt.4242.tmp",
            ".config.toml.77.tmp",
            ".autosave.txt.Ab3xYz.qipan-tmp",
            ".2026-11-30_10-52-01_janggi.pgn.q1w2e3.qipan-tmp",
        ];
        for name in stale {
            make(name, true);
        }
        let kept = [
            "autosave.txt",
            ".autosave.txt.Zz9yY8.qipan-tmp", // fresh: maybe another qipan's save
            ".autosave.txt.notapid.tmp",      // not a name qipan makes
            "notes.tmp",
            ".hidden",
        ];
        for name in kept {
            make(name, !name.contains("Zz9"));
        }
        std::fs::create_dir(folder.join(".dir.5.tmp")).unwrap();
        assert_eq!(remove_stale_temporary_files(&folder), stale.len());
        let mut names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<_> = kept.iter().map(|name| name.to_string()).collect();
        expected.push(".dir.5.tmp".to_string());
        expected.sort();
        assert_eq!(names, expected);
        // A missing folder is nothing to clean.
        assert_eq!(remove_stale_temporary_files(&folder.join("none")), 0);
        std::fs::remove_dir_all(folder).unwrap();
    }

    /// The temporary files this version makes are ones the cleaning recognises.
    #[test]
    fn the_temporary_file_names_are_recognised() {
        let folder = temp_folder("names");
        let file = temporary_file(&folder, "autosave.txt").unwrap();
        let name = file
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(is_own_temporary_name(&name), "{name}");
        assert!(name.starts_with(".autosave.txt."), "{name}");
        drop(file);
        std::fs::remove_dir_all(folder).unwrap();
    }

    /// A saved game with every field written: players, settings, a clock, move times,
    /// and a tree with a variation and comments.
    fn full_saved() -> SavedGame {
        let mut game = Game::from_variant(Variant::Xiangqi);
        play(&mut game, &["h3e3", "h10g8", "h1g3", "i10h10", "i1h1"]);
        let mut original = saved(game.clone());
        original.notation = Some(Notation::Wxf);
        original.flip_every_turn = true;
        original.clock = Some(SavedClock {
            control: "10m".parse().unwrap(),
            times: [
                SideTime {
                    main: Duration::from_millis(500_000),
                    periods: 0,
                    period: Duration::ZERO,
                },
                SideTime {
                    main: Duration::from_millis(400_000),
                    periods: 0,
                    period: Duration::ZERO,
                },
            ],
        });
        original.move_times = (1..=5).map(|s| Some(Duration::from_secs(s))).collect();
        let (mut tree, line) = SavedGame::single_line(&game, &original.move_times);
        tree.annotation_mut(line[1])
            .comments
            .push("a fine reply".into());
        let other = game.positions()[1].parse_uci("b10c8").unwrap();
        tree.add_move(line[0], other);
        original.tree = tree;
        original.line = line;
        original
    }

    fn moves_text(game: &Game) -> Vec<String> {
        game.positions()
            .iter()
            .zip(game.moves())
            .map(|(position, &mv)| position.move_to_uci(mv))
            .collect()
    }

    /// Recovers `text`, which must be damaged; returns the game and what was dropped.
    fn recovered(text: &str) -> (SavedGame, Vec<Dropped>) {
        let recovered = recover(text, "autosave.txt").expect("something is read");
        assert!(
            !recovered.problems.is_empty(),
            "no problem found in:\n{text}"
        );
        assert!(from_text(text, "autosave.txt").is_err());
        let dropped = recovered
            .problems
            .iter()
            .map(|p| p.dropped.clone())
            .collect();
        (recovered.saved, dropped)
    }

    /// Issue 18 item 1: a bad minor field costs only that field; the moves, the tree and
    /// every other field are kept. One case per kind of field.
    #[test]
    fn a_bad_minor_field_costs_only_that_field() {
        let original = full_saved();
        let good = to_text(&original);
        assert!(recover(&good, "autosave.txt").unwrap().problems.is_empty());
        let all_moves = moves_text(&original.game);
        let with_line = |key: &str, value: &str| with_line(&good, key, value) + "\n";
        let cases: Vec<(String, Dropped)> = vec![
            (with_line("players", "human cpu:11"), Dropped::Players),
            (with_line("players", "human"), Dropped::Players),
            (with_line("clock", "10m | 1 0"), Dropped::Clock),
            (with_line("times", "1000 soon 3000"), Dropped::MoveTimes),
            (with_line("times", "1 2 3 4 5 6 7"), Dropped::MoveTimes),
            (
                with_line("notation", "klingon"),
                Dropped::Setting("notation".into()),
            ),
            (
                with_line("flip-every-turn", "perhaps"),
                Dropped::Setting("flip-every-turn".into()),
            ),
            (
                good.replace("\nflipped yes\n", "\nflipped yes\nflipped no\n"),
                Dropped::SecondLine("flipped".into()),
            ),
            (
                good.replace("\nplayers ", "\nplayers human human\nplayers "),
                Dropped::SecondLine("players".into()),
            ),
            (
                good.replace("\nflipped yes\n", "\nflipped yes\ncolour mauve\n"),
                Dropped::UnknownLine("colour".into()),
            ),
            (
                good.replace("{a\\sfine\\sreply}", "{a\\qfine}"),
                Dropped::Tree,
            ),
        ];
        for (text, expected) in cases {
            let (loaded, dropped) = recovered(&text);
            assert_eq!(dropped, vec![expected.clone()], "{text}");
            assert_eq!(moves_text(&loaded.game), all_moves, "{expected:?}");
            let kept = |field: Dropped| field != expected;
            if kept(Dropped::Players) && !matches!(expected, Dropped::SecondLine(_)) {
                assert_eq!(loaded.players, original.players, "{expected:?}");
            }
            if kept(Dropped::Clock) {
                assert_eq!(loaded.clock, original.clock, "{expected:?}");
            } else {
                assert_eq!(loaded.clock, None);
            }
            if kept(Dropped::MoveTimes) {
                assert_eq!(loaded.move_times, original.move_times, "{expected:?}");
            } else {
                assert!(loaded.move_times.is_empty());
            }
            if kept(Dropped::Setting("notation".into())) {
                assert_eq!(loaded.notation, original.notation, "{expected:?}");
            } else {
                assert_eq!(loaded.notation, None);
            }
            assert_eq!(loaded.flipped, original.flipped, "{expected:?}");
            if kept(Dropped::Tree) {
                assert_eq!(loaded.tree, original.tree, "{expected:?}");
                let line_moves = |saved: &SavedGame| saved.tree.moves_of(&saved.line);
                assert_eq!(line_moves(&loaded), line_moves(&original), "{expected:?}");
            } else {
                // The moves are kept; the variation written after the bad comment is not.
                assert_eq!(loaded.tree.moves_of(&loaded.line), original.game.moves());
                assert_eq!(loaded.tree.children(loaded.line[0]).len(), 1);
            }
        }
        // A duplicate key keeps the first value.
        let twice = good.replace("\nplayers ", "\nplayers human human\nplayers ");
        assert_eq!(recovered(&twice).0.players, [Seat::Human, Seat::Human]);
    }

    /// Issue 18 item 1: a bad move keeps the moves before it (with their times); the
    /// tree keeps every node, and the current line begins with the moves kept.
    #[test]
    fn a_bad_move_keeps_the_moves_before_it() {
        let original = full_saved();
        let good = to_text(&original);
        for (moves, kept) in [
            ("h3e3 h10g8 a1a6 i10h10 i1h1", 2),
            ("h3e3 h10g8 h1g3 zz9 i1h1", 3),
            ("#3e3 h10g8 h1g3 i10h10 i1h1", 0),
        ] {
            let text = with_line(&good, "moves", moves) + "\n";
            let (loaded, dropped) = recovered(&text);
            assert_eq!(dropped, vec![Dropped::MovesFrom(kept + 1)], "{moves}");
            assert_eq!(loaded.game.moves(), &original.game.moves()[..kept]);
            assert_eq!(loaded.move_times, original.move_times[..kept]);
            assert_eq!(loaded.tree, original.tree);
            assert_eq!(loaded.tree.moves_of(&loaded.line), original.game.moves());
            // The recovered game saves and reads back soundly.
            let again = to_text(&loaded);
            assert!(recover(&again, "a").unwrap().problems.is_empty(), "{again}");
        }
        // Without a `moves` line: the start position, nothing else lost.
        let text = good.replace(
            &format!("\nmoves {}\n", moves_text(&original.game).join(" ")),
            "\n",
        );
        let (loaded, dropped) = recovered(&text);
        assert_eq!(dropped, vec![Dropped::MovesFrom(1)]);
        assert!(loaded.game.moves().is_empty());
        assert_eq!(loaded.players, original.players);
    }

    /// Issue 18 item 1: a bad word in the tree keeps the nodes before it; the moves
    /// played are added where the damaged tree lacks them.
    #[test]
    fn a_bad_tree_word_keeps_the_nodes_before_it() {
        let original = full_saved();
        let good = to_text(&original);
        let tree_line = good.lines().find(|l| l.starts_with("tree ")).unwrap();
        let words: Vec<&str> = tree_line.split(' ').skip(1).collect();
        // Damage the fourth move of the tree.
        let index = words
            .iter()
            .enumerate()
            .filter(|(_, w)| w.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .nth(3)
            .unwrap()
            .0;
        let mut damaged_words = words.clone();
        damaged_words[index] = "q0q0";
        let text = good.replace(tree_line, &format!("tree {}", damaged_words.join(" ")));
        let (loaded, dropped) = recovered(&text);
        assert_eq!(dropped, vec![Dropped::Tree]);
        assert_eq!(loaded.game.moves(), original.game.moves());
        assert_eq!(loaded.tree.moves_of(&loaded.line), original.game.moves());
        // The variation and the comment before the damage are still there.
        assert_eq!(loaded.tree.children(loaded.line[0]).len(), 2);
        let comment = &loaded.tree.node(loaded.line[1]).annotation.comments;
        assert_eq!(comment, &vec!["a fine reply".to_string()]);
    }

    /// A file that ends inside a line was cut: the last word of that line is not trusted
    /// (`8h2b` could be the start of `8h2b+`), and a cut setting is dropped.
    #[test]
    fn a_file_cut_short_does_not_trust_its_last_word() {
        let mut game = Game::from_variant(Variant::Shogi);
        play(&mut game, &["7g7f", "3c3d", "8h2b+"]);
        let text = to_text(&saved(game.clone()));
        let moves_end = text.find("\nmoves ").unwrap() + 1;
        let moves_end = moves_end + text[moves_end..].find('\n').unwrap();
        assert_eq!(&text[moves_end - 1..moves_end], "+", "{text}");
        let cut = &text[..moves_end - 1];
        let (loaded, dropped) = recovered(cut);
        assert_eq!(dropped, vec![Dropped::MovesFrom(3)]);
        assert_eq!(loaded.game.moves(), &game.moves()[..2]);
        let players = text.find("\nplayers ").unwrap() + "\nplayers engine:Fa".len();
        let (loaded, dropped) = recovered(&text[..players]);
        assert_eq!(dropped, vec![Dropped::Players, Dropped::MovesFrom(1)]);
        assert_eq!(loaded.players, [Seat::Human, Seat::Human]);
    }

    /// What was dropped is said in every language, each kind once.
    #[test]
    fn what_was_dropped_is_said_in_every_language() {
        let good = to_text(&full_saved());
        let text = with_line(&with_line(&good, "players", "x"), "clock", "?") + "\nwho knows\n";
        let recovered = recover(&text, "autosave.txt").unwrap();
        let mut seen = Vec::new();
        for language in [
            Language::English,
            Language::Korean,
            Language::Chinese,
            Language::Japanese,
        ] {
            let said = recovered.dropped_text(language);
            assert!(said.contains("who"), "{said}");
            assert!(!said.contains('\n'), "{said}");
            assert!(!seen.contains(&said), "{said}");
            seen.push(said);
        }
        assert_eq!(
            seen[0],
            "the players (both human now), the clocks (untimed now), an unknown line 'who'"
        );
        // The problems for the log name the file and the line, in file order.
        let lines: Vec<String> = recovered
            .problems
            .iter()
            .map(|p| p.error.to_string())
            .collect();
        assert!(
            lines[0].starts_with("autosave.txt line 4: bad players"),
            "{lines:?}"
        );
        assert!(lines[2].contains("unknown line 'who'"), "{lines:?}");
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Issue 18 item 1: an autosave truncated or damaged anywhere never panics the
        /// reader, and what it recovers is a prefix of the game played, saved soundly.
        #[test]
        fn any_damage_recovers_a_prefix_of_the_game(
            kind in 0usize..3,
            choices in prop::collection::vec((0usize..64, 0usize..200), 1..24),
            played in 0usize..24,
            at in 0usize..4000,
            damage in 0usize..5,
        ) {
            let variant = [Variant::Xiangqi, Variant::Shogi, Variant::Janggi(JanggiRules::KJA)][kind];
            let tree = crate::tree::tests::generated_tree(variant, &choices);
            let line = tree.main_line();
            let played = played.min(line.len());
            let game = tree.game_along(&line[..played]).unwrap();
            let mut original = saved(game);
            original.move_times = (0..played).map(|i| (i % 2 == 0).then(|| Duration::from_millis(i as u64))).collect();
            original.tree = tree;
            original.line = line;
            let text = to_text(&original);
            let mut at = at % text.len().max(1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            let damaged = match damage {
                0 => text[..at].to_string(),
                1 => {
                    let width = text[at..].chars().next().map_or(0, char::len_utf8);
                    format!("{}#{}", &text[..at], &text[at + width..])
                }
                2 => format!("{}\n{}", &text[..at], &text[at..]),
                3 => format!("{}{}", &text[..line_start], &text[line_end..]),
                _ => format!("{}{}", &text[..line_end], &text[line_start..]),
            };
            let Ok(recovered) = recover(&damaged, "autosave.txt") else {
                return Ok(());
            };
            let moves = recovered.saved.game.moves();
            prop_assert!(moves.len() <= original.game.moves().len());
            prop_assert_eq!(moves, &original.game.moves()[..moves.len()]);
            let saved = &recovered.saved;
            prop_assert_eq!(&saved.tree.moves_of(&saved.line)[..moves.len()], moves);
            // What was recovered is sound: saved again, it reads back with no problem.
            let again = recover(&to_text(saved), "autosave.txt").unwrap();
            prop_assert!(again.problems.is_empty(), "{:?}", again.problems);
        }
    }
}
