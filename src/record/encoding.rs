//! The bytes a record file is written in: the encoding its extension promises.
//!
//! By long convention `.kif` and `.ki2` files are Shift_JIS (Windows code page 932) and
//! `.kifu` / `.ki2u` are their UTF-8 forms; cshogi, Kifu for Windows and most shogi
//! software choose the decoder by the extension alone, so a UTF-8 `.kif` fails in them.
//! Everything else qipan writes is UTF-8. A text that Shift_JIS cannot hold (a Korean
//! player's name) is never written as mojibake: the caller learns which character and
//! line stopped it, and can write the UTF-8 sibling (`.kifu`) instead.

use std::path::{Path, PathBuf};

/// How a record file's text becomes bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileEncoding {
    /// UTF-8, no byte-order mark.
    Utf8,
    /// Shift_JIS as Windows writes it (code page 932), for `.kif` and `.ki2`.
    ShiftJis,
}

impl FileEncoding {
    /// The encoding a file of this name is expected in: Shift_JIS for `.kif` and `.ki2`
    /// (any letter case), UTF-8 for every other name.
    pub fn for_path(path: &Path) -> FileEncoding {
        let extension = path
            .extension()
            .and_then(|extension| extension.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("kif" | "ki2") => FileEncoding::ShiftJis,
            _ => FileEncoding::Utf8,
        }
    }

    /// The name KIF's `#KIF version=2.0 encoding=…` line uses for this encoding.
    pub fn kif_name(self) -> &'static str {
        match self {
            FileEncoding::Utf8 => "UTF-8",
            FileEncoding::ShiftJis => "Shift_JIS",
        }
    }
}

/// A character that the chosen encoding has no bytes for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The first such character.
    pub character: char,
    /// Its line in the text, from 1.
    pub line: usize,
}

/// The bytes of `text` in `encoding`, or the first character it cannot hold.
pub fn encode(text: &str, encoding: FileEncoding) -> Result<Vec<u8>, Unencodable> {
    match encoding {
        FileEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        FileEncoding::ShiftJis => {
            // encoding_rs's SHIFT_JIS is the WHATWG one, i.e. code page 932 (with the NEC
            // and IBM extensions Windows programs write and read).
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mut buffer = [0u8; 4];
            for (index, line) in text.lines().enumerate() {
                for character in line.chars() {
                    let single = character.encode_utf8(&mut buffer);
                    if encoding_rs::SHIFT_JIS.encode(single).2 {
                        return Err(Unencodable {
                            character,
                            line: index + 1,
                        });
                    }
                }
            }
            // Unreachable in practice (an error is always some character), but never
            // write replacement text: report the first character of the text.
            Err(Unencodable {
                character: text.chars().next().unwrap_or('\u{fffd}'),
                line: 1,
            })
        }
    }
}

/// The UTF-8 sibling of a Shift_JIS record name: `game.kif` → `game.kifu`,
/// `game.ki2` → `game.ki2u`; other names are returned as they are.
pub fn utf8_sibling(path: &Path) -> PathBuf {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .unwrap_or("");
    match extension.to_ascii_lowercase().as_str() {
        "kif" | "ki2" => path.with_extension(format!("{extension}u")),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_decides_the_encoding() {
        for (name, expected) in [
            ("a.kif", FileEncoding::ShiftJis),
            ("a.KIF", FileEncoding::ShiftJis),
            ("a.ki2", FileEncoding::ShiftJis),
            ("a.kifu", FileEncoding::Utf8),
            ("a.ki2u", FileEncoding::Utf8),
            ("a.csa", FileEncoding::Utf8),
            ("a.pgn", FileEncoding::Utf8),
            ("kif", FileEncoding::Utf8),
        ] {
            assert_eq!(FileEncoding::for_path(Path::new(name)), expected, "{name}");
        }
    }

    #[test]
    fn shift_jis_holds_what_kif_files_use() {
        let text = "先手：羽生善治\n   1 ７六歩(77)   ( 0:01/00:00:01)\n▲△・ｖ玉";
        let bytes = encode(text, FileEncoding::ShiftJis).expect("all of it is in CP932");
        assert_ne!(bytes, text.as_bytes(), "really re-encoded");
        let (back, _, errors) = encoding_rs::SHIFT_JIS.decode(&bytes);
        assert!(!errors);
        assert_eq!(back, text);
    }

    #[test]
    fn a_character_shift_jis_lacks_is_named_with_its_line() {
        let text = "先手：qipan\n後手：김철수\n";
        assert_eq!(
            encode(text, FileEncoding::ShiftJis),
            Err(Unencodable {
                character: '김',
                line: 2
            })
        );
        assert!(encode(text, FileEncoding::Utf8).is_ok());
    }

    #[test]
    fn utf8_siblings() {
        assert_eq!(utf8_sibling(Path::new("d/g.kif")), Path::new("d/g.kifu"));
        assert_eq!(utf8_sibling(Path::new("g.KI2")), Path::new("g.KI2u"));
        assert_eq!(utf8_sibling(Path::new("g.pgn")), Path::new("g.pgn"));
    }
}
