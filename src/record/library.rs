//! Where saved records go: the `games/` folder the save key writes to (in the
//! platform's data folder) and the `history/` folder that keeps every finished game
//! (beside the autosave) — see [`crate::folders`] — with file names made from the
//! local date, the time and the rule set.

use crate::folders;
use jiff::civil::{Date, DateTime};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The environment variable that overrides the folder the save key writes to.
pub const GAMES_VARIABLE: &str = folders::GAMES_VARIABLE;

/// The folder saved games go to: `$QIPAN_GAMES_DIR`, else `games/` in the data folder.
pub fn games_dir() -> Option<PathBuf> {
    folders::games_folder()
}

/// The folder finished games are recorded in: `history/` beside the autosave.
pub fn history_dir() -> Option<PathBuf> {
    folders::history_folder()
}

/// The folders the open prompt looks in and browses: the games, the history, and the
/// games folder of earlier versions when it is another.
fn browsed_folders() -> Vec<PathBuf> {
    [games_dir(), history_dir(), folders::former_games_folder()]
        .into_iter()
        .flatten()
        .collect()
}

/// Where a name typed at the save prompt goes: a path with a folder is taken as it is,
/// a bare name goes into `folder`; `extension` is added when the name has none.
pub fn save_path(name: &str, folder: &Path, extension: &str) -> PathBuf {
    let typed = Path::new(name.trim());
    let mut path = if typed.is_absolute() || typed.components().count() > 1 {
        typed.to_path_buf()
    } else {
        folder.join(typed)
    };
    if path.extension().is_none() {
        path.set_extension(extension);
    }
    path
}

/// The local date and time now (the system's time zone; UTC when it cannot be found).
pub fn local_now() -> DateTime {
    jiff::ZonedDateTime::now().datetime()
}

/// The history file name of a game that ended at `time`: `2026-11-30_10-52-01_janggi.pgn`.
pub fn history_file_name(time: DateTime, variant_id: &str, extension: &str) -> String {
    format!(
        "{}_{variant_id}.{extension}",
        time.strftime("%Y-%m-%d_%H-%M-%S")
    )
}

/// Writes `text` to a new file in `folder` (created if missing) named for a game that
/// ended at `time` ([`history_file_name`]); never overwrites: when that name is taken (two
/// games ended within the same second) a counter is added (`…_janggi-2.pgn`), and the
/// file is made with `create_new`, so two writers can never take the same name.
/// Returns the path written.
pub fn create_history_file(
    folder: &Path,
    time: DateTime,
    variant_id: &str,
    extension: &str,
    text: &str,
) -> std::io::Result<PathBuf> {
    use std::io::Write;
    std::fs::create_dir_all(folder)?;
    let base = history_file_name(time, variant_id, extension);
    let stem = base.strip_suffix(&format!(".{extension}")).unwrap_or(&base);
    for counter in 1..=HISTORY_NAME_ATTEMPTS {
        let name = match counter {
            1 => base.clone(),
            _ => format!("{stem}-{counter}.{extension}"),
        };
        let path = folder.join(name);
        let mut file = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        };
        let written = file
            .write_all(text.as_bytes())
            .and_then(|()| file.sync_all());
        if let Err(error) = written {
            drop(file);
            let _ = std::fs::remove_file(&path);
            return Err(error);
        }
        return Ok(path);
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("{base}: {HISTORY_NAME_ATTEMPTS} files of that name already"),
    ))
}

/// How many names [`create_history_file`] tries for one second of one rule set.
const HISTORY_NAME_ATTEMPTS: u32 = 10_000;

/// The PGN date of `date`: `2026.11.30`.
pub fn pgn_date(date: Date) -> String {
    date.strftime("%Y.%m.%d").to_string()
}

/// Splits a game number off a name typed at the open prompt: `big.pgn #3` is game 3 of
/// `big.pgn`; a name without one is game 1.
pub fn split_game_number(text: &str) -> (&str, usize) {
    let text = text.trim();
    if let Some((name, number)) = text.rsplit_once('#') {
        if let Ok(number) = number.trim().parse::<usize>() {
            if !name.trim().is_empty() && number > 0 {
                return (name.trim_end(), number);
            }
        }
    }
    (text, 1)
}

/// Where a name typed at the open prompt points: a path as given when it has a folder
/// or exists, else the file of that name in the games folder, then in the history folder.
pub fn open_path(name: &str) -> PathBuf {
    let typed = Path::new(name.trim());
    if typed.is_absolute() || typed.components().count() > 1 || typed.exists() {
        return typed.to_path_buf();
    }
    for folder in browsed_folders() {
        let candidate = folder.join(typed);
        if candidate.exists() {
            return candidate;
        }
    }
    typed.to_path_buf()
}

/// A record the player asked to open: a name typed at the open prompt (looked up as
/// [`open_path`] says, `#N` picks game N), or a file named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenRequest {
    /// What was typed at the open prompt.
    Typed(String),
    /// `qipan open FILE --game N`: the path as given and the game's number (from 1).
    File {
        /// The file.
        path: PathBuf,
        /// The game of the file, from 1.
        number: usize,
    },
}

impl OpenRequest {
    /// The name the player knows the record by, for the status line.
    pub fn shown_name(&self) -> String {
        match self {
            OpenRequest::Typed(name) => name.trim().to_string(),
            OpenRequest::File { path, .. } => path.display().to_string(),
        }
    }

    /// The file to read and the game of it.
    fn resolve(&self) -> (PathBuf, usize) {
        match self {
            OpenRequest::File { path, number } => (path.clone(), *number),
            OpenRequest::Typed(name) => {
                // A file whose own name ends in `#N` is still that file.
                let whole = open_path(name);
                if whole.exists() {
                    (whole, 1)
                } else {
                    let (name, number) = split_game_number(name);
                    (open_path(name), number)
                }
            }
        }
    }
}

/// A record file read for opening: which file and game, and what reading found.
#[derive(Clone, Debug)]
pub struct OpenedFile {
    /// The file as read (for messages).
    pub path: String,
    /// The game asked for, from 1.
    pub number: usize,
    /// The game and the count of games, or why the file could not be read.
    pub picked: Result<super::PickedGame, super::ImportError>,
}

/// Reads the record `request` names (on a worker: see [`crate::workers`]), telling
/// `watch` how far it has come; `None` when `watch` said stop.
pub fn read_for_opening(
    request: &OpenRequest,
    watch: &mut dyn FnMut(super::games::ReadProgress) -> bool,
) -> Option<OpenedFile> {
    let (path, number) = request.resolve();
    let picked = match super::games::read_nth_file_watched(&path, number, watch) {
        Ok(Some(picked)) => Ok(picked),
        Ok(None) => return None,
        Err(error) => Err(error),
    };
    Some(OpenedFile {
        path: path.display().to_string(),
        number,
        picked,
    })
}

/// The record files of the games and history folders (paths), newest first, at most 200:
/// what the open prompt offers to browse.
pub fn record_files() -> Vec<String> {
    let mut files: Vec<(SystemTime, PathBuf)> = Vec::new();
    for folder in browsed_folders() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let known = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| super::Format::from_extension(&format!("x.{e}")).is_some());
            if !known || !path.is_file() {
                continue;
            }
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            files.push((modified, path));
        }
    }
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    files
        .into_iter()
        .take(200)
        .map(|(_, path)| path.display().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_number_is_split_off_the_typed_name() {
        assert_eq!(split_game_number("big.pgn #3"), ("big.pgn", 3));
        assert_eq!(
            split_game_number(" games/big.pgn#12 "),
            ("games/big.pgn", 12)
        );
        assert_eq!(split_game_number("big.pgn"), ("big.pgn", 1));
        assert_eq!(split_game_number("a#b.pgn"), ("a#b.pgn", 1));
        assert_eq!(split_game_number("big.pgn #0"), ("big.pgn #0", 1));
        assert_eq!(split_game_number("#4"), ("#4", 1));
    }

    /// Issue 18 item 2: games ending within the same second never overwrite each other.
    #[test]
    fn history_files_of_the_same_second_never_overwrite_each_other() {
        let folder = std::env::temp_dir().join(format!("qipan-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        let time = jiff::civil::date(2026, 11, 30).at(10, 52, 1, 0);
        let paths: Vec<PathBuf> = (0..4)
            .map(|n| {
                create_history_file(&folder, time, "janggi", "pgn", &format!("game {n}")).unwrap()
            })
            .collect();
        let names: Vec<String> = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "2026-11-30_10-52-01_janggi.pgn",
                "2026-11-30_10-52-01_janggi-2.pgn",
                "2026-11-30_10-52-01_janggi-3.pgn",
                "2026-11-30_10-52-01_janggi-4.pgn",
            ]
        );
        for (n, path) in paths.iter().enumerate() {
            assert_eq!(std::fs::read_to_string(path).unwrap(), format!("game {n}"));
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn dates_in_file_names_and_records() {
        let time = jiff::civil::date(2026, 11, 30).at(9, 5, 1, 0);
        assert_eq!(
            history_file_name(time, "janggi", "pgn"),
            "2026-11-30_09-05-01_janggi.pgn"
        );
        assert_eq!(pgn_date(jiff::civil::date(2024, 2, 29)), "2024.02.29");
        assert_eq!(pgn_date(jiff::civil::date(987, 1, 2)), "0987.01.02");
    }

    #[test]
    fn save_paths() {
        let folder = Path::new("/games");
        assert_eq!(
            save_path("mine", folder, "pgn"),
            Path::new("/games/mine.pgn")
        );
        assert_eq!(save_path("a.txt", folder, "pgn"), Path::new("/games/a.txt"));
        assert_eq!(
            save_path("/tmp/x", folder, "kifu"),
            Path::new("/tmp/x.kifu")
        );
        assert_eq!(
            save_path("sub/x.pgn", folder, "pgn"),
            Path::new("sub/x.pgn")
        );
    }
}
