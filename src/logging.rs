//! The log for when things go wrong: `--log FILE` (or `log = "FILE"` in the config)
//! appends engine traffic, record-reading decisions (encoding, dialect) and errors to
//! a file, one timestamped line each, through the `log` facade. Off by default: with no
//! logger installed every `log::…!` call is a no-op and no file is made.
//!
//! ```text
//! 2026-12-01T05:12:09.284+09:00 DEBUG engine: to fsf: go movetime 1000
//! 2026-12-01T05:12:10.291+09:00 DEBUG engine: from fsf: bestmove h3e3
//! ```

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;

/// Longest message written (longer ones are cut), so a flooding engine cannot fill the disk
/// line by line.
const LONGEST_MESSAGE: usize = 4096;

/// A logger that appends to one file.
struct FileLogger {
    file: Mutex<File>,
}

impl log::Log for FileLogger {
    fn enabled(&self, _metadata: &log::Metadata) -> bool {
        true
    }

    fn log(&self, record: &log::Record) {
        let message = escape_controls(&record.args().to_string());
        let line = format!(
            "{} {:<5} {}: {message}\n",
            jiff::ZonedDateTime::now().strftime("%Y-%m-%dT%H:%M:%S%.3f%:z"),
            record.level(),
            record.target(),
        );
        if let Ok(mut file) = self.file.lock() {
            // A log that cannot be written must not stop the game.
            let _ = file.write_all(line.as_bytes());
        }
    }

    fn flush(&self) {
        if let Ok(mut file) = self.file.lock() {
            let _ = file.flush();
        }
    }
}

/// The message with control characters written as escapes (`\x1b`, `\n`), cut to
/// [`LONGEST_MESSAGE`] bytes: one line per record, safe to print on a terminal.
fn escape_controls(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(LONGEST_MESSAGE));
    for character in message.chars() {
        if out.len() >= LONGEST_MESSAGE {
            out.push('…');
            break;
        }
        match character {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Starts logging to `path` (appending; the file and its folder are made when missing).
/// Once per process; a second call is an error.
pub fn start(path: &Path) -> io::Result<()> {
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    let file = File::options().create(true).append(true).open(path)?;
    let logger = FileLogger {
        file: Mutex::new(file),
    };
    log::set_boxed_logger(Box::new(logger))
        .map_err(|_| io::Error::other("a log is already being written"))?;
    log::set_max_level(log::LevelFilter::Debug);
    log::info!(target: "qipan", "qipan {} started", env!("CARGO_PKG_VERSION"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_long_messages_cut() {
        assert_eq!(escape_controls("a\x1b[2Jb\x07"), "a\\x1b[2Jb\\x07");
        assert_eq!(escape_controls("one\ntwo"), "one\\ntwo");
        assert_eq!(escape_controls("\u{9b}"), "\\x9b");
        let long = escape_controls(&"x".repeat(10_000));
        assert!(long.len() <= LONGEST_MESSAGE + '…'.len_utf8());
        assert!(long.ends_with('…'));
    }
}
