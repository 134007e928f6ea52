//! Files that hold several games: PGN files of many games, CSA games separated by `/`
//! lines, KIF and `.gib` games one after another. The file is split into its games first and each
//! game is read on its own, so one bad game is reported (with its number and the line in
//! the file) without losing the others.
//!
//! The single-game readers ([`super::read_file`], [`super::read_bytes`]) still read the
//! first game of such a file.

use super::{file_error, ki2, kif, text, Format, GameRecord, ImportError};

/// One game's part of a file: the line it starts on (1-based) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The file line of the part's first line.
    pub first_line: usize,
    /// The part's lines, as decoded text.
    pub text: String,
}

/// Reads a record file's bytes and its format: from the extension, else the content.
pub(super) fn file_bytes(path: &std::path::Path) -> Result<(Vec<u8>, String, Format), ImportError> {
    let name = path.display().to_string();
    let bytes = read_record_bytes(path).map_err(|reason| file_error(&name, reason))?;
    let format = file_format(&name, &bytes);
    Ok((bytes, name, format))
}

/// A record file's format: from its name's extension, else from its content.
fn file_format(name: &str, bytes: &[u8]) -> Format {
    match Format::from_extension(name) {
        Some(format) => {
            log::debug!(target: "record", "{name}: {} bytes, {format:?} by its extension", bytes.len());
            format
        }
        None => {
            let sniffed = Format::sniff(bytes);
            log::debug!(target: "record", "{name}: {} bytes, {sniffed:?} by its content (PGN when None)", bytes.len());
            sniffed.unwrap_or(Format::Pgn)
        }
    }
}

/// The most a record file may hold: far above any real record (a 100,000-game PGN is
/// about 30 MiB), small enough that `/dev/zero` or a wrong file cannot fill memory.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// Reads a record file's bytes: only a regular file (a FIFO, a device or a folder is
/// refused before anything is read, so none can block or flood qipan), and at most
/// [`MAX_RECORD_BYTES`]. The error is one English phrase.
pub fn read_record_bytes(path: &std::path::Path) -> Result<Vec<u8>, String> {
    match read_record_bytes_watched(path, &mut |_| true) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => unreachable!("a reader told to go on never stops"),
        Err(reason) => Err(reason),
    }
}

/// Looks at a record file without reading it: it must be a regular file (not a folder,
/// a FIFO or a device) of at most [`MAX_RECORD_BYTES`]. The error is one English phrase.
pub fn check_record_file(path: &std::path::Path) -> Result<std::fs::Metadata, String> {
    let metadata = std::fs::metadata(path).map_err(|error| error.to_string())?;
    if metadata.is_dir() {
        return Err("is a folder, not a record file".to_string());
    }
    if !metadata.is_file() {
        return Err("is not a regular file (a pipe or a device?)".to_string());
    }
    if metadata.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "is larger than {} MiB; no record is that big",
            MAX_RECORD_BYTES >> 20
        ));
    }
    Ok(metadata)
}

/// How far a watched read has come ([`read_nth_file_watched`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadProgress {
    /// This many bytes of the file read, of `total`.
    Bytes {
        /// Bytes read so far.
        read: u64,
        /// The file's size.
        total: u64,
    },
    /// The file was split into this many games.
    Games(usize),
}

/// The bytes read between two progress reports: small enough that a stop is seen
/// quickly, large enough that a file of 64 MiB makes a few hundred reports at most.
const READ_CHUNK: usize = 256 << 10;

/// [`read_record_bytes`], calling `watch` after each chunk with the bytes read so far;
/// when `watch` answers `false` the read stops and `Ok(None)` is returned.
pub fn read_record_bytes_watched(
    path: &std::path::Path,
    watch: &mut dyn FnMut(ReadProgress) -> bool,
) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    let metadata = check_record_file(path)?;
    let not_regular = || "is not a regular file (a pipe or a device?)".to_string();
    let too_big = || {
        format!(
            "is larger than {} MiB; no record is that big",
            MAX_RECORD_BYTES >> 20
        )
    };
    let file = std::fs::File::open(path).map_err(|error| error.to_string())?;
    // The file may have been replaced between the look and the open.
    if !file.metadata().is_ok_and(|opened| opened.is_file()) {
        return Err(not_regular());
    }
    let total = metadata.len();
    let mut bytes = Vec::with_capacity(total as usize);
    let mut limited = file.take(MAX_RECORD_BYTES + 1);
    let mut chunk = vec![0; READ_CHUNK];
    loop {
        let count = match limited.read(&mut chunk) {
            Ok(0) => break,
            Ok(count) => count,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.to_string()),
        };
        bytes.extend_from_slice(&chunk[..count]);
        let read = bytes.len() as u64;
        if read > MAX_RECORD_BYTES {
            return Err(too_big());
        }
        if !watch(ReadProgress::Bytes { read, total }) {
            return Ok(None);
        }
    }
    Ok(Some(bytes))
}

/// Reads every game of a record file: the format from the extension, else from the
/// content. The outer error is for a file that cannot be read at all.
pub fn read_all_file(
    path: &std::path::Path,
) -> Result<Vec<Result<GameRecord, ImportError>>, ImportError> {
    let (bytes, name, format) = file_bytes(path)?;
    Ok(read_all_bytes(&bytes, &name, format))
}

/// Reads every game of a record in a known format, in file order, each with its own
/// result. Errors of a file with several games name the game's number, and their lines
/// are lines of the whole file. Never empty: a file without any game gives the one error
/// the single-game reader gives.
pub fn read_all_bytes(
    bytes: &[u8],
    file: &str,
    format: Format,
) -> Vec<Result<GameRecord, ImportError>> {
    games_of(bytes, file, format).collect()
}

/// The games of a record, read one at a time as the iterator is advanced (as
/// [`read_all_bytes`] reads them): a caller that writes each game before asking for the
/// next holds one game at a time, however many the file has.
pub fn games_of<'a>(
    bytes: &'a [u8],
    file: &'a str,
    format: Format,
) -> Box<dyn Iterator<Item = Result<GameRecord, ImportError>> + 'a> {
    let parts = split(bytes, format);
    if parts.len() <= 1 {
        return Box::new(std::iter::once_with(move || {
            super::read_bytes(bytes, file, format)
        }));
    }
    Box::new(
        parts
            .into_iter()
            .enumerate()
            .map(move |(index, part)| read_part(&part, index + 1, file, format)),
    )
}

/// One game picked from a file: how many games the file holds, and the game asked for
/// (`None` when there is no game of that number).
#[derive(Clone, Debug)]
pub struct PickedGame {
    /// The number of games in the file (at least 1).
    pub count: usize,
    /// The game asked for, read, when the file has it.
    pub game: Option<Result<GameRecord, ImportError>>,
}

/// Reads game `number` (1-based) of a record file and counts the others without reading
/// them, so picking from a file of thousands of games stays quick.
pub fn read_nth_file(path: &std::path::Path, number: usize) -> Result<PickedGame, ImportError> {
    let (bytes, name, format) = file_bytes(path)?;
    Ok(read_nth_bytes(&bytes, &name, format, number))
}

/// Reads game `number` (1-based) of a record in a known format, as [`read_all_bytes`]
/// would read it, and counts the games.
pub fn read_nth_bytes(bytes: &[u8], file: &str, format: Format, number: usize) -> PickedGame {
    match read_nth_bytes_watched(bytes, file, format, number, &mut |_| true) {
        Some(picked) => picked,
        None => unreachable!("a reader told to go on never stops"),
    }
}

/// [`read_nth_bytes`], telling `watch` how many games the file holds once it is split;
/// `None` when `watch` answers `false` (the game is then not read).
fn read_nth_bytes_watched(
    bytes: &[u8],
    file: &str,
    format: Format,
    number: usize,
    watch: &mut dyn FnMut(ReadProgress) -> bool,
) -> Option<PickedGame> {
    let parts = split(bytes, format);
    if !watch(ReadProgress::Games(parts.len().max(1))) {
        return None;
    }
    if parts.len() <= 1 {
        return Some(PickedGame {
            count: 1,
            game: (number == 1).then(|| super::read_bytes(bytes, file, format)),
        });
    }
    let game = number
        .checked_sub(1)
        .and_then(|index| parts.get(index))
        .map(|part| read_part(part, number, file, format));
    Some(PickedGame {
        count: parts.len(),
        game,
    })
}

/// [`read_nth_file`] for a reader on a worker thread: `watch` hears how far the read has
/// come (bytes read, then the games found) and answers whether to go on. `Ok(None)`
/// when it said stop: nothing read so far is returned.
pub fn read_nth_file_watched(
    path: &std::path::Path,
    number: usize,
    watch: &mut dyn FnMut(ReadProgress) -> bool,
) -> Result<Option<PickedGame>, ImportError> {
    let name = path.display().to_string();
    let Some(bytes) =
        read_record_bytes_watched(path, watch).map_err(|reason| file_error(&name, reason))?
    else {
        return Ok(None);
    };
    let format = file_format(&name, &bytes);
    Ok(read_nth_bytes_watched(&bytes, &name, format, number, watch))
}

/// The games of a file in a format that can hold several; empty for the others.
fn split(bytes: &[u8], format: Format) -> Vec<Part> {
    match format {
        Format::Pgn => split_pgn(&decode_pgn(bytes)),
        Format::Csa => split_csa(&kif::decode(bytes)),
        Format::Kif => split_kif(&kif::decode(bytes)),
        Format::Ki2 => split_ki2(&kif::decode(bytes)),
        // `.gib` games are tag lines and movetext like PGN's.
        Format::Gib => split_pgn(&decode_gib(bytes)),
        _ => Vec::new(),
    }
}

/// Reads game `number` of a file of several from its part: errors name the game and the
/// line in the whole file.
fn read_part(
    part: &Part,
    number: usize,
    file: &str,
    format: Format,
) -> Result<GameRecord, ImportError> {
    // The part is already decoded: a byte-order mark makes every reader take it as
    // UTF-8, whatever encoding an `encoding=` line in it declares.
    let mut part_bytes = b"\xEF\xBB\xBF".to_vec();
    part_bytes.extend_from_slice(part.text.as_bytes());
    super::read_bytes(&part_bytes, file, format).map_err(|mut error| {
        error.line = error.line.map(|line| line + part.first_line - 1);
        error.game = u32::try_from(number).ok();
        error
    })
}

/// Decodes PGN bytes as the PGN reader does (UTF-8, else GBK or CP949 by content).
fn decode_pgn(bytes: &[u8]) -> String {
    let korean_hint = bytes.windows(6).any(|w| w.eq_ignore_ascii_case(b"janggi"));
    text::decode(
        bytes,
        if korean_hint {
            text::Legacy::Korean
        } else {
            text::Legacy::Chinese
        },
    )
}

/// Decodes `.gib` bytes as the `.gib` reader does: stray `0xFF` bytes and a trailing
/// `0x1A` dropped, then UTF-8 or CP949.
fn decode_gib(bytes: &[u8]) -> String {
    let mut cleaned: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0xFF).collect();
    while cleaned.last() == Some(&0x1A) {
        cleaned.pop();
    }
    text::decode(&cleaned, text::Legacy::Korean)
}

/// Collects lines into parts: `starts_game(index, line)` says a line begins a new game.
/// Parts with nothing but blank lines are dropped.
fn split_lines(
    content: &str,
    mut starts_game: impl FnMut(usize, &str) -> bool,
    ignorable: impl Fn(&str) -> bool,
) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let mut current = Part {
        first_line: 1,
        text: String::new(),
    };
    for (index, line) in content.lines().enumerate() {
        if starts_game(index, line) && !current.text.trim().is_empty() {
            parts.push(std::mem::replace(
                &mut current,
                Part {
                    first_line: index + 1,
                    text: String::new(),
                },
            ));
        }
        current.text.push_str(line);
        current.text.push('\n');
    }
    parts.push(current);
    parts.retain(|part| part.text.lines().any(|line| !ignorable(line)));
    parts
}

/// Splits PGN text into games: a tag line (`[…`) after movetext starts the next game.
/// Brace comments may span lines and hide brackets.
pub fn split_pgn(content: &str) -> Vec<Part> {
    let mut in_comment = false;
    let mut movetext_seen = false;
    split_lines(
        content,
        |_, line| {
            let trimmed = line.trim_start();
            let starts = !in_comment && movetext_seen && trimmed.starts_with('[');
            if starts {
                movetext_seen = false;
            }
            let opened_in_comment = in_comment;
            // Follow `{…}` comments through the line; `;` comments end it.
            for c in line.chars() {
                match c {
                    '}' if in_comment => in_comment = false,
                    '{' if !in_comment => in_comment = true,
                    ';' if !in_comment => break,
                    _ => {}
                }
            }
            let is_movetext = !opened_in_comment
                && !trimmed.is_empty()
                && !trimmed.starts_with('[')
                && !trimmed.starts_with('%');
            if is_movetext || opened_in_comment {
                movetext_seen = true;
            }
            starts
        },
        |line| line.trim().is_empty() || line.trim_start().starts_with('%'),
    )
}

/// Splits CSA text at lines holding only `/`; the `/` line ends the game before it.
pub fn split_csa(content: &str) -> Vec<Part> {
    let mut after_separator = false;
    split_lines(
        content,
        |_, line| {
            let starts = after_separator;
            after_separator = line.trim() == "/";
            starts
        },
        |line| {
            let trimmed = line.trim();
            trimmed.is_empty() || trimmed == "/" || trimmed.starts_with('\'')
        },
    )
}

/// Header keys that begin a KIF game when they come after another game's moves.
const KIF_GAME_STARTS: [&str; 9] = [
    "開始日時",
    "対局日",
    "手合割",
    "棋戦",
    "先手",
    "後手",
    "下手",
    "上手",
    "表題",
];

/// Splits KI2 text into games: after a game's moves, a header that begins a game
/// (`開始日時：`, `手合割：`, `先手：`, …) or a board diagram starts the next one; the `#`
/// comment lines right before it go with it.
pub fn split_ki2(content: &str) -> Vec<Part> {
    let lines: Vec<&str> = content.lines().collect();
    let mut starts_game = vec![false; lines.len()];
    let mut moves_seen = false;
    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        let header = line
            .split_once('：')
            .is_some_and(|(key, _)| KIF_GAME_STARTS.contains(&key.trim()));
        if moves_seen && (header || line.starts_with("+---")) {
            let mut start = index;
            while start > 0 && lines[start - 1].trim_start().starts_with('#') {
                start -= 1;
            }
            starts_game[start] = true;
            moves_seen = false;
        }
        if ki2::is_move_line(line) {
            moves_seen = true;
        }
    }
    split_lines(
        content,
        |index, _| starts_game[index],
        |line| line.trim().is_empty(),
    )
}

/// Splits KIF text into games: after a game's moves, a `#KIF` line, a header that begins
/// a game (`開始日時：`, `手合割：`, `先手：`, …), a board diagram or a second moves header
/// starts the next one; the `#` comment lines right before it go with it.
pub fn split_kif(content: &str) -> Vec<Part> {
    let lines: Vec<&str> = content.lines().collect();
    let mut moves_seen = false;
    let mut starts: Vec<usize> = Vec::new();
    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        let header_key = line
            .split_once('：')
            .map(|(key, _)| key.trim())
            .filter(|key| KIF_GAME_STARTS.contains(key));
        let begins = line.starts_with("#KIF")
            || header_key.is_some()
            || line.starts_with("+---")
            || line.starts_with("手数----");
        if moves_seen && begins {
            // Comment lines just above belong to the new game.
            let mut start = index;
            while start > 0 && lines[start - 1].trim_start().starts_with('#') {
                start -= 1;
            }
            starts.push(start);
            moves_seen = false;
        }
        // The moves header counts too, so a game without moves still ends at the next.
        if line.starts_with(|c: char| c.is_ascii_digit())
            || line.starts_with("まで")
            || line.starts_with("手数----")
        {
            moves_seen = true;
        }
    }
    // `starts` is in line order: one pass, each start looked at once (a `contains` per
    // line made files of thousands of games quadratic).
    let mut next_start = starts.iter().copied().peekable();
    split_lines(
        content,
        |index, _| {
            while next_start.next_if(|&start| start < index).is_some() {}
            next_start.next_if_eq(&index).is_some()
        },
        |line| line.trim().is_empty(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_lines(parts: &[Part]) -> Vec<usize> {
        parts.iter().map(|part| part.first_line).collect()
    }

    #[test]
    fn pgn_games_split_at_the_tags_after_movetext() {
        let text = "[Event \"a\"]\n[Round \"1\"]\n\n1. h2e2 {a [bracket]\n[not a tag]} *\n\n\
                    [Event \"b\"]\n\n1. c3c4 *\n[Event \"c\"]\n1. a0a1 *\n\n";
        let parts = split_pgn(text);
        assert_eq!(first_lines(&parts), vec![1, 7, 10]);
        assert!(parts[0].text.contains("[not a tag]"));
        assert_eq!(split_pgn("1. h2e2 *\n").len(), 1);
        assert_eq!(split_pgn("").len(), 0);
    }

    #[test]
    fn csa_games_split_at_slash_lines() {
        let text = "V2.2\nPI\n+\n+7776FU\n/\nV2.2\nPI\n+\n+2726FU\n/\n\n";
        let parts = split_csa(text);
        assert_eq!(first_lines(&parts), vec![1, 6]);
        assert!(parts[1].text.starts_with("V2.2\nPI"));
    }

    /// A KIF file of `count` games, each a header, a moves header and two moves.
    fn many_kif_games(count: usize) -> String {
        let mut text = String::new();
        for number in 0..count {
            text.push_str(&format!(
                "# game {number}\n先手：A{number}\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n"
            ));
        }
        text
    }

    /// Issue 18 item 13: every game of a KIF file of thousands is found, each starting
    /// on its own line (the time is measured by `benches/records.rs`, not asserted).
    #[test]
    fn eight_thousand_kif_games_split_into_eight_thousand_parts() {
        let parts = split_kif(&many_kif_games(8000));
        assert_eq!(parts.len(), 8000);
        let lines: Vec<usize> = parts.iter().map(|part| part.first_line).collect();
        assert_eq!(lines[..3], [1, 7, 13]);
        assert_eq!(lines[7999], 7999 * 6 + 1);
        assert!(parts[7999].text.contains("先手：A7999"));
    }

    #[test]
    fn kif_games_split_where_a_new_header_follows_moves() {
        let text = "# one\n先手：A\n手数----指手--\n   1 ７六歩(77)\nまで1手で中断\n終了日時：x\n\
                    # two\n#KIF version=2.0\n先手：B\n手数----指手--\n   1 ２六歩(27)\n";
        let parts = split_kif(text);
        assert_eq!(first_lines(&parts), vec![1, 7]);
        assert!(parts[0].text.contains("終了日時"));
        let no_moves =
            "手合割：平手\n手数----指手--\n#KIF\n手合割：平手\n手数----指手--\n   1 ７六歩(77)\n";
        assert_eq!(first_lines(&split_kif(no_moves)), vec![1, 3]);
    }
}
