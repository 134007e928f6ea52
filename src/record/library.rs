//! Where saved records go: the `games/` folder the save key writes to, and the
//! `history/` folder that keeps every finished game — both next to the autosave —
//! with file names made from the date, the time and the rule set.

use super::autosave;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The environment variable that overrides the folder the save key writes to.
pub const GAMES_VARIABLE: &str = "QIPAN_GAMES_DIR";

/// The folder saved games go to: `$QIPAN_GAMES_DIR`, else `games/` beside the autosave.
pub fn games_dir() -> Option<PathBuf> {
    if let Some(folder) = std::env::var_os(GAMES_VARIABLE).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(folder));
    }
    beside_autosave("games")
}

/// The folder finished games are recorded in: `history/` beside the autosave.
pub fn history_dir() -> Option<PathBuf> {
    beside_autosave("history")
}

fn beside_autosave(name: &str) -> Option<PathBuf> {
    let autosave = autosave::default_path()?;
    let folder = match autosave.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some(folder.join(name))
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

/// A UTC date and time as `(year, month, day, hour, minute, second)`.
pub fn utc_now() -> (i64, u32, u32, u32, u32, u32) {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    civil_from_seconds(seconds)
}

/// Splits seconds since 1970 into a proleptic Gregorian UTC date and time.
pub fn civil_from_seconds(seconds: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    // Days to civil date (the well-known era-based conversion).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rest / 3600) as u32,
        (rest % 3600 / 60) as u32,
        (rest % 60) as u32,
    )
}

/// The history file name of a game that ended at `time`: `2026-11-30_10-52-01_janggi.pgn`.
pub fn history_file_name(
    time: (i64, u32, u32, u32, u32, u32),
    variant_id: &str,
    extension: &str,
) -> String {
    let (year, month, day, hour, minute, second) = time;
    format!(
        "{year:04}-{month:02}-{day:02}_{hour:02}-{minute:02}-{second:02}_{variant_id}.{extension}"
    )
}

/// Writes `text` to a new file in `folder` (created if missing) named for a game that
/// ended at `time` ([`history_file_name`]); never overwrites: when that name is taken (two
/// games ended within the same second) a counter is added (`…_janggi-2.pgn`), and the
/// file is made with `create_new`, so two writers can never take the same name.
/// Returns the path written.
pub fn create_history_file(
    folder: &Path,
    time: (i64, u32, u32, u32, u32, u32),
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

/// The PGN date of `time`: `2026.11.30`.
pub fn pgn_date(time: (i64, u32, u32, u32, u32, u32)) -> String {
    format!("{:04}.{:02}.{:02}", time.0, time.1, time.2)
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
    for folder in [games_dir(), history_dir()].into_iter().flatten() {
        let candidate = folder.join(typed);
        if candidate.exists() {
            return candidate;
        }
    }
    typed.to_path_buf()
}

/// The record files of the games and history folders (paths), newest first, at most 200:
/// what the open prompt offers to browse.
pub fn record_files() -> Vec<String> {
    let mut files: Vec<(SystemTime, PathBuf)> = Vec::new();
    for folder in [games_dir(), history_dir()].into_iter().flatten() {
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
        let time = (2026, 11, 30, 10, 52, 1);
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
    fn civil_dates() {
        assert_eq!(civil_from_seconds(0), (1970, 1, 1, 0, 0, 0));
        // 2024-02-29 12:34:56 UTC, a leap day.
        assert_eq!(civil_from_seconds(1_709_210_096), (2024, 2, 29, 12, 34, 56));
        assert_eq!(
            history_file_name((2026, 11, 30, 9, 5, 1), "janggi", "pgn"),
            "2026-11-30_09-05-01_janggi.pgn"
        );
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
