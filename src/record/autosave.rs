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

/// Reads the autosave at `path`.
pub fn load(path: &Path) -> Result<SavedGame, AutosaveError> {
    let file = file_label(path);
    let text = std::fs::read_to_string(path).map_err(|error| AutosaveError::Io {
        file: file.clone(),
        error,
    })?;
    from_text(&text, &file)
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

/// Reads the `tree` and `line` lines: the tree, and the current line, which must begin
/// with the moves played.
fn read_tree(
    tree_field: (usize, &str),
    line_field: Option<(usize, &str)>,
    game: &Game,
) -> Result<(GameTree, Vec<NodeId>), (usize, String)> {
    let (number, value) = tree_field;
    let tree = super::tree_text::read(value, game.start())
        .map_err(|reason| (number, format!("bad tree: {reason}")))?;
    let mut line = Vec::new();
    let mut at = NodeId::ROOT;
    if let Some((number, value)) = line_field {
        for word in value.split_whitespace() {
            let child = word
                .parse::<usize>()
                .ok()
                .and_then(|index| tree.children(at).get(index).copied())
                .ok_or_else(|| (number, format!("bad line: no variation '{word}' here")))?;
            line.push(child);
            at = child;
        }
    }
    line.extend(tree.main_continuation(at));
    let played = game.moves().len();
    if line.len() < played || tree.moves_of(&line[..played]) != game.moves() {
        return Err((
            number,
            "bad tree: its line does not begin with the moves played".to_string(),
        ));
    }
    Ok((tree, line))
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

/// Reads autosave text; `file` names the file in error messages.
pub fn from_text(text: &str, file: &str) -> Result<SavedGame, AutosaveError> {
    let invalid = |line: Option<usize>, message: String| AutosaveError::Invalid {
        file: file.to_string(),
        line,
        message,
    };
    // A byte-order mark (an editor may add one) is not part of the header.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
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
        if fields.iter().any(|(k, _, _)| *k == key) {
            return Err(invalid(Some(number), format!("'{key}' given twice")));
        }
        fields.push((key, number, value.trim()));
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
    let (line, value) = required("players")?;
    let parts: Vec<&str> = value.split_whitespace().collect();
    if parts.len() != 2 {
        return Err(invalid(
            Some(line),
            format!("bad players: expected two, found {}", parts.len()),
        ));
    }
    let mut players = [Seat::Human, Seat::Human];
    for (slot, part) in players.iter_mut().zip(&parts) {
        *slot = Seat::from_text(part)
            .ok_or_else(|| invalid(Some(line), format!("bad players: '{part}'")))?;
    }
    let judging = match field("judging") {
        Some((line, value)) => Some(
            value
                .parse::<usize>()
                .map_err(|_| invalid(Some(line), format!("bad judging: '{value}'")))?,
        ),
        None => None,
    };
    let (line, value) = required("moves")?;
    let mut game = Game::new(start);
    for (index, text) in value.split_whitespace().enumerate() {
        if judging == Some(index) {
            game.accept_draw();
        }
        let number = index + 1;
        let mv = game.position().parse_uci(text).ok_or_else(|| {
            invalid(
                Some(line),
                format!("bad moves: move {number} '{text}' is not a move here"),
            )
        })?;
        game.play(mv).map_err(|reason| {
            invalid(
                Some(line),
                format!("bad moves: move {number} '{text}' is illegal: {reason}"),
            )
        })?;
    }
    if judging.is_some_and(|ply| ply == game.moves().len()) {
        game.accept_draw();
    }
    let flag = |key: &str| -> Result<bool, AutosaveError> {
        match field(key) {
            None => Ok(false),
            Some((_, "yes")) => Ok(true),
            Some((_, "no")) => Ok(false),
            Some((line, other)) => Err(invalid(
                Some(line),
                format!("bad {key}: expected yes or no, found '{other}'"),
            )),
        }
    };
    let flipped = flag("flipped")?;
    let flip_every_turn = flag("flip-every-turn")?;
    let notation = match field("notation") {
        None => None,
        Some((line, value)) => {
            let notation = NOTATIONS
                .iter()
                .find(|(_, id)| *id == value)
                .map(|(n, _)| *n)
                .filter(|n| Notation::for_game(variant.kind()).contains(n))
                .ok_or_else(|| invalid(Some(line), format!("bad notation: '{value}'")))?;
            Some(notation)
        }
    };
    let clock = match field("clock") {
        None => None,
        Some((line, value)) => Some(parse_clock(value).map_err(|m| invalid(Some(line), m))?),
    };
    let move_times = match field("times") {
        None => Vec::new(),
        Some((line, value)) => {
            parse_times(value, game.moves().len()).map_err(|m| invalid(Some(line), m))?
        }
    };
    let (tree, line) = match field("tree") {
        Some(tree_field) => read_tree(tree_field, field("line"), &game)
            .map_err(|(line, message)| invalid(Some(line), message))?,
        None => SavedGame::single_line(&game, &move_times),
    };
    Ok(SavedGame {
        game,
        players,
        flipped,
        flip_every_turn,
        notation,
        clock,
        move_times,
        tree,
        line,
    })
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
}
