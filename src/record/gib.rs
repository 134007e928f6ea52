//! Korean `.gib` janggi records (Kakao 장기, Hangame, 장기도사), read only. FORMATS.md §4.4.
//!
//! ```text
//! [초대국자 "하여명"]
//! [한대국자 "전동하"]
//! [초차림 "상마상마"]
//! [한차림 "상마상마"]
//! [대국결과 "초 완승"]
//!
//! 1. 71졸72 2. 49병48 3. 08마87 … 13. 74상42병 … 62. 85포55장군 … 129. 한수쉼
//! ```
//!
//! The encoding is CP949 (EUC-KR) or UTF-8; stray `0xFF` bytes and a trailing `0x1A`
//! are dropped. Move numbers count plies. Moves are Korean coordinates in Hangul or
//! hanja, optionally with a side marker (`79楚卒78`), the captured piece (`74상42병`) and
//! `장군`; the piece name is checked against the board. Games start from the two
//! formations (차림, in board order as seen from Cho) under the KJA rules; a `판`
//! header (an explicit board, written differently by different programs) is refused
//! with a clear error rather than guessed. Only the first game of a file is read.

use super::text::{self, decode, Legacy, MoveReader};
use super::{GameRecord, ImportError};
use crate::rules::any::Variant;
use crate::rules::game::Game;
use crate::rules::janggi::{start_fen, JanggiRules, Setup};
use crate::rules::{EndReason, Side};

/// A formation written in board order, Hangul (`마상상마`) or hanja (`馬象象馬`).
fn formation(name: &str) -> Option<Setup> {
    let hangul: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '馬' => '마',
            '象' => '상',
            other => other,
        })
        .collect();
    Setup::parse(&hangul)
}

/// `[키 "값"]` as (key, value).
fn header(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let quote = inner.find('"')?;
    let key = inner[..quote].trim();
    let value = inner[quote + 1..].trim_end().strip_suffix('"')?;
    (!key.is_empty()).then(|| (key.to_string(), value.to_string()))
}

/// The result a `대국결과` value states: the winner from its first character (초/楚 Cho,
/// 한/漢 Han, anything else a draw or unknown) and the reason from its words.
fn stated_result(value: &str) -> (Option<Side>, Option<EndReason>) {
    let winner = match value.trim().chars().next() {
        Some('초' | '楚') => Some(Side::First),
        Some('한' | '漢') => Some(Side::Second),
        _ => None,
    };
    let reason = if value.contains("시간") {
        Some(EndReason::Timeout)
    } else if value.contains("기권") {
        Some(EndReason::Resignation)
    } else if value.contains("반칙") {
        Some(EndReason::Foul)
    } else if value.contains("판정") {
        Some(EndReason::Material)
    } else {
        None
    };
    (winner, reason)
}

/// Reads the first game of a `.gib` file.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let mut cleaned: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0xFF).collect();
    while cleaned.last() == Some(&0x1A) {
        cleaned.pop();
    }
    let content = decode(&cleaned, Legacy::Korean);
    let fail =
        |line: Option<usize>, text: &str, reason: &str| ImportError::new(file, line, text, reason);

    let mut headers: Vec<(String, String, usize)> = Vec::new();
    let mut move_lines: Vec<(usize, &str)> = Vec::new();
    for (index, line) in content.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if !move_lines.is_empty() {
                break; // the next game
            }
            let (key, value) = header(trimmed)
                .ok_or_else(|| fail(Some(number), trimmed, "not a header [이름 \"값\"]"))?;
            headers.push((key, value, number));
        } else if !trimmed.is_empty() {
            move_lines.push((number, trimmed));
        }
    }
    let find = |keys: &[&str]| {
        headers
            .iter()
            .find(|(key, _, _)| keys.contains(&key.as_str()))
    };
    if let Some((_, value, line)) = find(&["판"]) {
        return Err(fail(
            Some(*line),
            value,
            "an explicit board (판) is not supported; only formations (차림)",
        ));
    }
    let setup = |keys: &[&str]| -> Result<Setup, ImportError> {
        match find(keys) {
            None => Ok(Setup::HorseElephantElephantHorse),
            Some((_, value, line)) => formation(value).ok_or_else(|| {
                fail(
                    Some(*line),
                    value,
                    "not a formation (마상상마, 상마마상, 마상마상 or 상마상마)",
                )
            }),
        }
    };
    let cho = setup(&["초차림", "초포진"])?;
    let han = setup(&["한차림", "한포진"])?;
    let variant = Variant::Janggi(JanggiRules::KJA);
    let start = variant
        .position_from_fen(&start_fen(cho, han))
        .map_err(|error| fail(None, "", &format!("bad formation: {error}")))?;
    let mut record = GameRecord::new(Game::new(start));
    record.headers = headers
        .iter()
        .map(|(key, value, _)| (key.clone(), value.clone()))
        .collect();

    let mut reader = MoveReader::default();
    let mut in_comment = false;
    let mut comment: Vec<&str> = Vec::new();
    for (line, text) in move_lines {
        for word in text.split_whitespace() {
            // `{ … }` comments may span words and lines; each is kept after its move.
            if in_comment || word.starts_with('{') {
                in_comment = !word.ends_with('}');
                comment.push(word);
                if !in_comment {
                    let joined = comment.join(" ");
                    comment.clear();
                    let body = joined.trim_start_matches('{').trim_end_matches('}').trim();
                    if !body.is_empty() {
                        record
                            .comments
                            .push((record.game.moves().len(), body.to_string()));
                    }
                }
                continue;
            }
            let body = word
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches('.');
            let is_number = body.is_empty() || (body.len() < word.len() && word.contains('.'));
            let mv_text = if is_number && !body.is_empty() {
                body
            } else if is_number || (word.starts_with('<') && word.ends_with('>')) {
                continue;
            } else {
                word
            };
            let ply = record.game.moves().len();
            let position = record.game.position().clone();
            let played = reader
                .read(&position, mv_text)
                .and_then(|mv| record.game.play(mv).map_err(|e| e.describe().to_string()));
            if let Err(reason) = played {
                return Err(ImportError {
                    file: file.to_string(),
                    line: Some(line),
                    move_number: Some(ply + 1),
                    text: mv_text.to_string(),
                    reason,
                    partial: Some(Box::new(record)),
                    game: None,
                });
            }
        }
    }
    if let Some((_, value, _)) = find(&["대국결과"]) {
        let (winner, reason) = stated_result(value);
        let known = winner.is_some() || value.contains("무승부");
        if known {
            record.result = Some(text::stated_outcome(winner, record.game.outcome(), reason));
        }
    }
    Ok(record)
}
