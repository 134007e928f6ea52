//! Text from outside qipan — record files, engines, configs, themes, file names — made
//! safe to print or draw. A control character in such text could move the cursor, clear
//! the screen or set the terminal title when it reaches the terminal; here every one is
//! shown escaped (`\x1b`) instead, and quotes are cut to a sensible length with `…`.
//!
//! One module, std only, below every other: readers clean what they keep, error
//! messages clean what they quote, and the drawing and printing ends guard once more.

use std::fmt::Write as _;

/// How many characters of a file's or an engine's text an error message quotes.
pub const QUOTE_CHARS: usize = 80;

/// True for a character that must never reach a terminal raw: the C0 controls (below
/// U+0020), DEL (U+007F) and the C1 controls (U+0080–U+009F).
pub fn is_control(character: char) -> bool {
    character.is_control()
}

/// True when `text` holds no character [`is_control`] rejects, newlines excepted when
/// `newlines` is true.
pub fn is_clean(text: &str, newlines: bool) -> bool {
    text.chars()
        .all(|character| !is_control(character) || (newlines && character == '\n'))
}

/// `text` with every control character written as an escape (`\x1b`, `\x7f`, `\x9b`);
/// a tab becomes a space. Newlines are escaped too: the result is one line.
pub fn escape(text: &str) -> String {
    escape_with(text, false)
}

/// Like [`escape`], but keeps newlines (for comments and multi-line text); a carriage
/// return before a newline is dropped.
pub fn escape_keeping_newlines(text: &str) -> String {
    escape_with(text, true)
}

fn escape_with(text: &str, newlines: bool) -> String {
    if is_clean(text, newlines) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '\n' if newlines => out.push('\n'),
            '\r' if newlines && characters.peek() == Some(&'\n') => {}
            '\t' => out.push(' '),
            character if is_control(character) => {
                let _ = write!(out, "\\x{:02x}", u32::from(character));
            }
            character => out.push(character),
        }
    }
    out
}

/// `text` escaped ([`escape`]) and cut to at most `limit` characters, with `…` where it
/// was cut: what an error message quotes of a line it could not read.
pub fn quote(text: &str, limit: usize) -> String {
    let escaped = escape(text);
    if escaped.chars().count() <= limit {
        return escaped;
    }
    let mut cut: String = escaped.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Replaces `text` in place with its escaped form ([`escape`]) when it needs it.
pub fn clean_in_place(text: &mut String) {
    if !is_clean(text, false) {
        *text = escape(text);
    }
}

/// Replaces `text` in place with its escaped form keeping newlines.
pub fn clean_lines_in_place(text: &mut String) {
    if !is_clean(text, true) {
        *text = escape_keeping_newlines(text);
    }
}

/// The most a configuration or theme file may hold (real ones are a few KiB).
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// Reads a small text file from outside (a config, a theme): only a regular file (a FIFO
/// or `/dev/zero` is refused before it is read, so none can block or fill memory), at
/// most `limit` bytes, as UTF-8. A missing file keeps its `NotFound` kind.
pub fn read_small_text_file(path: &std::path::Path, limit: u64) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        let what = if metadata.is_dir() {
            "is a folder, not a file"
        } else {
            "is not a regular file (a pipe or a device?)"
        };
        return Err(Error::new(ErrorKind::InvalidInput, what));
    }
    let too_big = || {
        Error::new(
            ErrorKind::InvalidData,
            format!("is larger than {} KiB", limit >> 10),
        )
    };
    if metadata.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidData, "is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(escape("a\x1b]0;title\x07b"), "a\\x1b]0;title\\x07b");
        assert_eq!(
            escape("del\x7f c1\u{9b}2J nul\0"),
            "del\\x7f c1\\x9b2J nul\\x00"
        );
        assert_eq!(escape("tab\there"), "tab here");
        assert_eq!(escape("two\nlines"), "two\\x0alines");
        assert_eq!(escape_keeping_newlines("two\r\nlines\r"), "two\nlines\\x0d");
        assert_eq!(escape("漢字 한글 ☗"), "漢字 한글 ☗");
    }

    #[test]
    fn quotes_are_cut_with_an_ellipsis() {
        assert_eq!(quote("short", 10), "short");
        let long = "x".repeat(500);
        let quoted = quote(&long, QUOTE_CHARS);
        assert_eq!(quoted.chars().count(), QUOTE_CHARS);
        assert!(quoted.ends_with('…'));
        assert!(is_clean(&quote("\x1b[2J", 3), false));
    }

    /// Issue 18 item 12: `/dev/zero` as a config or theme is refused at once, never read.
    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_as_a_settings_file() {
        let error = read_small_text_file("/dev/zero".as_ref(), 1024).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }

    #[test]
    fn settings_files_are_regular_and_small() {
        let folder = std::env::temp_dir();
        let error = read_small_text_file(&folder, 1024).unwrap_err();
        assert!(error.to_string().contains("folder"), "{error}");
        let big = folder.join(format!("qipan-big-{}.toml", std::process::id()));
        std::fs::write(&big, vec![b'#'; 2048]).unwrap();
        assert!(read_small_text_file(&big, 1024).is_err());
        assert_eq!(read_small_text_file(&big, 4096).unwrap().len(), 2048);
        std::fs::remove_file(&big).unwrap();
    }
}
