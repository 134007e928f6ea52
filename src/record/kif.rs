//! KIF (柿木 Kakinoki format) shogi records, FORMATS.md §3.6.
//!
//! Reads UTF-8 and Shift_JIS/CP932 files: header fields (`先手：…`), a `手合割` handicap
//! name or a BOD board diagram as the start, numbered move lines with origins
//! (`   1 ７六歩(77)   ( 0:16/00:00:16)`, the time kept in [`GameRecord::move_times`]
//! and written back with each side's running total), end words (投了, 千日手, …), `*` comments. Bookmarks
//! (`&`) are skipped. Variations are `変化：N手` blocks after the main line, each
//! branching from the line read just before it at move N (a `+` after a move says it
//! has variations); they go into [`GameRecord::tree`] and are written back the same way,
//! deepest branch first so every block branches from the line before it.
//! Writes UTF-8 KIF with a `#KIF version=2.0 encoding=UTF-8` first line.
//!
//! The header and start-position part is shared with KI2 ([`super::ki2`]), which has the
//! same preamble, so it lives here as crate-internal helpers.

use super::{GameRecord, ImportError};
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::notation::{parse_move_after, NotationError};
use crate::rules::shogi::{self, kind, Handicap, ShogiPosition};
use crate::rules::{EndReason, Move, Outcome, Position, Side};
use crate::tree::{GameTree, NodeId};

/// Decodes a Japanese record file: UTF-8 when it starts with a UTF-8 byte-order mark,
/// when an early line declares `encoding=UTF-8`, or when the bytes are valid UTF-8;
/// Shift_JIS (CP932) otherwise, the traditional encoding of `.kif`, `.ki2` and `.csa`.
pub(crate) fn decode(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        log::debug!(target: "record", "encoding: UTF-8 (byte-order mark)");
        return String::from_utf8_lossy(rest).into_owned();
    }
    let declared = declared_encoding(bytes);
    if declared.as_deref() == Some("utf-8") || declared.as_deref() == Some("utf8") {
        log::debug!(target: "record", "encoding: UTF-8 (declared)");
        return String::from_utf8_lossy(bytes).into_owned();
    }
    if declared.is_none() {
        if let Ok(text) = std::str::from_utf8(bytes) {
            log::debug!(target: "record", "encoding: UTF-8 (valid UTF-8, none declared)");
            return text.to_string();
        }
    }
    log::debug!(
        target: "record",
        "encoding: Shift_JIS/CP932 ({})",
        declared.as_deref().map_or("not UTF-8, none declared".to_string(), |name| format!("declared {name}"))
    );
    // encoding_rs's SHIFT_JIS is the WHATWG one, i.e. Windows code page 932.
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(bytes);
    text.into_owned()
}

/// The `encoding=` value of the first few lines (`#KIF version=2.0 encoding=UTF-8`,
/// `'CSA encoding=SHIFT_JIS`), lower-cased; only ASCII bytes are looked at.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    for line in bytes.split(|&b| b == b'\n').take(5) {
        let line: String = line
            .iter()
            .filter(|b| b.is_ascii())
            .map(|&b| b as char)
            .collect();
        let lower = line.to_ascii_lowercase();
        if let Some(at) = lower.find("encoding=") {
            let value: String = lower[at + "encoding=".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            return Some(value);
        }
    }
    None
}

/// Piece names in KIF and KI2 move text, two-character promoted names first so they win.
const MOVE_PIECE_NAMES: [(&str, u8); 19] = [
    ("成銀", kind::PROMOTED_SILVER),
    ("成桂", kind::PROMOTED_KNIGHT),
    ("成香", kind::PROMOTED_LANCE),
    ("玉", kind::KING),
    ("王", kind::KING),
    ("飛", kind::ROOK),
    ("龍", kind::DRAGON),
    ("竜", kind::DRAGON),
    ("角", kind::BISHOP),
    ("馬", kind::HORSE),
    ("金", kind::GOLD),
    ("銀", kind::SILVER),
    ("全", kind::PROMOTED_SILVER),
    ("桂", kind::KNIGHT),
    ("圭", kind::PROMOTED_KNIGHT),
    ("香", kind::LANCE),
    ("杏", kind::PROMOTED_LANCE),
    ("歩", kind::PAWN),
    ("と", kind::PROMOTED_PAWN),
];

/// The name a KIF move gives a piece kind (index = kind number). Moving promoted minor
/// pieces get the one-glyph names 杏 圭 全, which every reader accepts (cshogi's KIF
/// reader knows no two-character 成銀).
const MOVE_NAMES: [&str; 15] = [
    "", "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "杏", "圭", "全", "馬", "龍",
];

/// The one-character glyph of a piece kind on a BOD board (index = kind number).
const BOARD_GLYPHS: [char; 15] = [
    '・', '歩', '香', '桂', '銀', '金', '角', '飛', '玉', 'と', '杏', '圭', '全', '馬', '龍',
];

/// Kanji numerals one to nine.
const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Full-width digits one to nine.
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A digit 1–9 written in ASCII, full width or as a kanji numeral.
fn any_digit(c: char) -> Option<u8> {
    if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
        return Some(d as u8);
    }
    WIDE_DIGITS
        .iter()
        .chain(KANJI_DIGITS.iter())
        .position(|&k| k == c)
        .map(|i| (i % 9) as u8 + 1)
}

/// A kanji number 1–99 (`七`, `十`, `十七`, `二十`), or ASCII/full-width digits.
fn kanji_number(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(value) = text.parse::<u32>() {
        return Some(value);
    }
    let chars: Vec<char> = text.chars().collect();
    match chars.iter().position(|&c| c == '十') {
        None if chars.len() == 1 => any_digit(chars[0]).map(u32::from),
        None => None,
        Some(at) => {
            let tens = match &chars[..at] {
                [] => 1,
                [d] => u32::from(any_digit(*d)?),
                _ => return None,
            };
            let ones = match &chars[at + 1..] {
                [] => 0,
                [d] => u32::from(any_digit(*d)?),
                _ => return None,
            };
            Some(tens * 10 + ones)
        }
    }
}

/// A kanji numeral for a hand count (2–18: 二 … 十八).
fn kanji_count(count: u8) -> String {
    let tens = count / 10;
    let ones = count % 10;
    let mut text = String::new();
    if tens > 0 {
        if tens > 1 {
            text.push(KANJI_DIGITS[tens as usize - 1]);
        }
        text.push('十');
    }
    if ones > 0 {
        text.push(KANJI_DIGITS[ones as usize - 1]);
    }
    text
}

/// The square of a KIF/CSA file and rank (both 1–9).
pub(crate) fn square_of(file: u8, rank: u8) -> u8 {
    (9 - rank) * 9 + (9 - file)
}

/// The KIF/CSA file and rank (both 1–9) of a square.
pub(crate) fn file_rank_of(square: u8) -> (u8, u8) {
    (9 - square % 9, 9u8.saturating_sub(square / 9))
}

/// The value of a full-width digit (`０`–`９`).
fn full_width_digit(character: char) -> Option<u32> {
    ('０'..='９')
        .contains(&character)
        .then(|| character as u32 - '０' as u32)
}

/// Builds an import error.
pub(crate) fn import_error(
    file: &str,
    line: usize,
    move_number: Option<usize>,
    text: &str,
    reason: impl Into<String>,
    partial: Option<GameRecord>,
) -> ImportError {
    ImportError {
        file: file.to_string(),
        line: Some(line),
        move_number,
        text: text.trim().to_string(),
        reason: reason.into(),
        partial: partial.map(Box::new),
        game: None,
    }
}

/// The header and start-position part shared by KIF and KI2: `key：value` fields, the
/// `手合割` name, a BOD diagram with its hands, and the `先手番`/`後手番` line.
#[derive(Default)]
pub(crate) struct Preamble {
    /// Header fields in file order (the position fields are kept apart).
    pub headers: Vec<(String, String)>,
    /// Comments before the first move (ply 0).
    pub comments: Vec<String>,
    handicap: Option<(usize, String)>,
    board_rows: Vec<(usize, String)>,
    /// `手数＝N` near a board diagram: N moves were played before it (SFEN move N + 1).
    moves_before: Option<u32>,
    hands: [Option<(usize, String)>; 2],
    second_to_move: bool,
}

impl Preamble {
    /// A record of the start position alone, for a file whose header has no moves after it.
    pub fn into_record(self, file: &str) -> Result<GameRecord, ImportError> {
        let start = self.start(file)?;
        let mut record = GameRecord::new(Game::new(AnyPosition::Shogi(start)));
        record.headers = self.headers;
        record.comments = self.comments.into_iter().map(|c| (0, c)).collect();
        Ok(record)
    }

    /// Reads one preamble line; false when it is not one (a move, an unknown line).
    pub fn read_line(&mut self, line_number: usize, line: &str) -> bool {
        let trimmed = line.trim();
        if let Some(comment) = trimmed.strip_prefix('*') {
            self.comments.push(comment.to_string());
            return true;
        }
        if trimmed.starts_with('#') || trimmed.starts_with('&') {
            return true;
        }
        if trimmed.starts_with('|') {
            self.board_rows.push((line_number, trimmed.to_string()));
            return true;
        }
        // The frame and file numbers of a board diagram, and the `手数＝31  △２四同歩  まで`
        // line some programs put above one.
        if let Some(rest) = trimmed.strip_prefix("手数＝") {
            let digits: String = rest
                .chars()
                .map_while(|c| c.to_digit(10).or_else(|| full_width_digit(c)))
                .filter_map(|d| char::from_digit(d, 10))
                .collect();
            self.moves_before = digits.parse().ok();
            return true;
        }
        if trimmed.starts_with("+--") || trimmed.starts_with('９') || trimmed.starts_with('9') {
            return true;
        }
        match trimmed {
            "先手番" | "下手番" => {
                self.second_to_move = false;
                return true;
            }
            "後手番" | "上手番" => {
                self.second_to_move = true;
                return true;
            }
            _ => {}
        }
        let Some((key, value)) = split_header(trimmed) else {
            return false;
        };
        match key {
            "手合割" => self.handicap = Some((line_number, value.to_string())),
            "先手の持駒" | "下手の持駒" => {
                self.hands[0] = Some((line_number, value.to_string()))
            }
            "後手の持駒" | "上手の持駒" => {
                self.hands[1] = Some((line_number, value.to_string()))
            }
            _ => self.headers.push((key.to_string(), value.to_string())),
        }
        true
    }

    /// The start position: the BOD when there is one, else the `手合割` handicap, else the
    /// even start (an unknown handicap name such as 詰将棋 without a BOD also means even).
    pub fn start(&self, file: &str) -> Result<ShogiPosition, ImportError> {
        if self.board_rows.is_empty() {
            let name = self.handicap.as_ref().map(|(_, name)| name.as_str());
            return Ok(match name.map(handicap_start) {
                Some(Some(position)) => position,
                _ => Handicap::Even.position(),
            });
        }
        let first_line = self.board_rows[0].0;
        if self.board_rows.len() != 9 {
            return Err(import_error(
                file,
                first_line,
                None,
                "",
                format!(
                    "the board diagram has {} ranks, not 9",
                    self.board_rows.len()
                ),
                None,
            ));
        }
        let mut placement = String::new();
        for (index, (line_number, row)) in self.board_rows.iter().enumerate() {
            let cells = board_row(row)
                .map_err(|reason| import_error(file, *line_number, None, row, reason, None))?;
            if index > 0 {
                placement.push('/');
            }
            let mut empty = 0;
            for cell in cells {
                match cell {
                    None => empty += 1,
                    Some(code) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push_str(&shogi::piece_letter(code));
                    }
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
        }
        let mut hand = String::new();
        for (side, entry) in self.hands.iter().enumerate() {
            let Some((line_number, text)) = entry else {
                continue;
            };
            let pieces = hand_pieces(text)
                .map_err(|reason| import_error(file, *line_number, None, text, reason, None))?;
            for (hand_kind, count) in pieces {
                let letter = shogi::hand_letter(hand_kind);
                if count > 1 {
                    hand.push_str(&count.to_string());
                }
                hand.push(if side == 0 {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        let side = if self.second_to_move { 'w' } else { 'b' };
        let number = self.moves_before.map_or(1, |moves| moves.saturating_add(1));
        let sfen = format!("{placement} {side} {hand} {number}");
        ShogiPosition::from_sfen(&sfen).map_err(|error| {
            import_error(
                file,
                first_line,
                None,
                "",
                format!("the board diagram is not a valid position: {error}"),
                None,
            )
        })
    }
}

/// The start of a `手合割` name: every handicap of FORMATS.md §3.10, also written without
/// the final ち (`香落`) or with 飛 for 飛車 (`飛落ち`), and 両香落ち (both lances, shogiops).
/// `None` for names such as その他 or 詰将棋, which need a board diagram.
fn handicap_start(name: &str) -> Option<ShogiPosition> {
    let name = name.trim();
    let full = |text: &str| {
        let text = if text.ends_with('落') {
            format!("{text}ち")
        } else {
            text.to_string()
        };
        if text == "飛落ち" {
            "飛車落ち".to_string()
        } else {
            text
        }
    };
    let name = full(name);
    if name == "両香落ち" {
        return ShogiPosition::from_sfen(
            "1nsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .ok();
    }
    Handicap::ALL
        .into_iter()
        .find(|h| h.japanese() == name)
        .map(Handicap::position)
}

/// Splits `key：value` (full-width colon, or ASCII colon) into trimmed parts.
fn split_header(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('：').or_else(|| line.split_once(':'))?;
    let key = key.trim();
    if key.is_empty() || key.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((key, value.trim()))
}

/// One BOD rank `| ・ ・v玉 …|一`: nine cells, each a side mark (`v` Gote, space Sente)
/// and a glyph, file 9 first.
fn board_row(row: &str) -> Result<Vec<Option<u8>>, String> {
    let inner = row.strip_prefix('|').unwrap_or(row);
    let inner = match inner.find('|') {
        Some(end) => &inner[..end],
        None => return Err("a board rank must end with '|'".to_string()),
    };
    let mut cells = Vec::new();
    let mut gote = false;
    for c in inner.chars() {
        match c {
            'v' | 'V' => gote = true,
            ' ' | '\u{3000}' => {}
            '・' => {
                cells.push(None);
                gote = false;
            }
            glyph => {
                let kind_number = MOVE_PIECE_NAMES
                    .iter()
                    .find(|(name, _)| name.chars().count() == 1 && name.starts_with(glyph))
                    .map(|&(_, k)| k)
                    .ok_or_else(|| format!("'{glyph}' is not a piece on a board diagram"))?;
                let side = if gote { Side::Second } else { Side::First };
                cells.push(Some(shogi::piece(side, kind_number)));
                gote = false;
            }
        }
    }
    if cells.len() != 9 {
        return Err(format!("a board rank has {} cells, not 9", cells.len()));
    }
    Ok(cells)
}

/// A KIF hand (`歩十七　香四　金`, `なし`): hand kinds with counts.
fn hand_pieces(text: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut pieces = Vec::new();
    for item in text.split(|c: char| c.is_whitespace() || c == '、') {
        if item.is_empty() || item == "なし" {
            continue;
        }
        let mut chars = item.chars();
        let glyph = chars.next().unwrap_or('・');
        let hand_kind = match glyph {
            '飛' => kind::ROOK,
            '角' => kind::BISHOP,
            '金' => kind::GOLD,
            '銀' => kind::SILVER,
            '桂' => kind::KNIGHT,
            '香' => kind::LANCE,
            '歩' => kind::PAWN,
            _ => return Err(format!("'{item}' is not a piece in hand")),
        };
        let rest: String = chars.collect();
        let count = if rest.is_empty() {
            1
        } else {
            kanji_number(&rest)
                .filter(|&n| (1..=18).contains(&n))
                .ok_or_else(|| format!("'{item}' has no count from 1 to 18"))?
        };
        pieces.push((hand_kind, count as u8));
    }
    Ok(pieces)
}

/// The end words of a KIF move list, and what they mean for `game` (the side to move is
/// the one the word is about). `None` when the text is not an end word; `Some(None)` for
/// an end without a result (中断, 不詰).
pub(crate) fn end_word_outcome(word: &str, game: &Game) -> Option<Option<Outcome>> {
    let to_move = game.position().side_to_move();
    let on_board = game.outcome();
    Some(Some(match word {
        "投了" => Outcome::win(to_move.opponent(), EndReason::Resignation),
        "詰み" | "詰" => {
            on_board.unwrap_or(Outcome::win(to_move.opponent(), EndReason::Checkmate))
        }
        "千日手" => on_board
            .filter(|o| {
                matches!(
                    o.reason(),
                    EndReason::Repetition | EndReason::PerpetualCheck
                )
            })
            .unwrap_or(Outcome::draw(EndReason::Repetition)),
        "持将棋" => Outcome::draw(EndReason::Impasse),
        "切れ負け" | "時間切れ" => Outcome::win(to_move.opponent(), EndReason::Timeout),
        "反則勝ち" => Outcome::win(to_move, EndReason::Foul),
        "反則負け" => Outcome::win(to_move.opponent(), EndReason::Foul),
        "入玉勝ち" | "宣言勝ち" | "入玉宣言" => {
            Outcome::win(to_move, EndReason::Impasse)
        }
        "中断" | "不詰" | "不戦勝" | "不戦敗" | "封じ手" => return Some(None),
        _ => return None,
    }))
}

/// Reads a `まで64手で先手の勝ち` line into a result; `None` when it states none.
pub(crate) fn trailer_outcome(line: &str, game: &Game) -> Option<Outcome> {
    let named = ["先手", "下手", "後手", "上手"]
        .iter()
        .filter_map(|name| line.find(name).map(|at| (at, *name)))
        .min()
        .map(|(_, name)| {
            if name == "先手" || name == "下手" {
                Side::First
            } else {
                Side::Second
            }
        });
    let on_board = game.outcome();
    if line.contains("千日手") {
        return Some(
            on_board
                .filter(|o| {
                    matches!(
                        o.reason(),
                        EndReason::Repetition | EndReason::PerpetualCheck
                    )
                })
                .unwrap_or(Outcome::draw(EndReason::Repetition)),
        );
    }
    if line.contains("持将棋") {
        return Some(Outcome::draw(EndReason::Impasse));
    }
    if line.contains("中断") {
        return None;
    }
    let to_move = game.position().side_to_move();
    if line.contains("詰") {
        return Some(on_board.unwrap_or(Outcome::win(to_move.opponent(), EndReason::Checkmate)));
    }
    let side = named?;
    if line.contains("反則負け") {
        return Some(Outcome::win(side.opponent(), EndReason::Foul));
    }
    if line.contains("反則勝ち") {
        return Some(Outcome::win(side, EndReason::Foul));
    }
    if line.contains("勝ち") {
        if line.contains("時間切れ") || line.contains("切れ負け") {
            return Some(Outcome::win(side, EndReason::Timeout));
        }
        if line.contains("入玉") || line.contains("宣言") {
            return Some(Outcome::win(side, EndReason::Impasse));
        }
        return Some(
            on_board
                .filter(|o| o.winner() == Some(side))
                .unwrap_or(Outcome::win(side, EndReason::Resignation)),
        );
    }
    None
}

/// The KIF end word for a result, given the side to move at the end; `None` when KIF has
/// no word for it (an agreed draw, a move-limit draw).
pub(crate) fn outcome_end_word(outcome: Outcome, to_move: Side) -> Option<&'static str> {
    Some(match outcome {
        Outcome::Win { winner, reason, .. } => match reason {
            // The side not to move resigned: no end word says so; the trailer names the winner.
            EndReason::Resignation if winner == to_move => return None,
            EndReason::Resignation => "投了",
            EndReason::Foul if winner == to_move => "反則勝ち",
            EndReason::Foul => "反則負け",
            EndReason::Checkmate | EndReason::Stalemate => "詰み",
            EndReason::Timeout => "切れ負け",
            EndReason::Impasse if winner == to_move => "入玉勝ち",
            EndReason::Impasse => "反則負け",
            EndReason::PerpetualCheck | EndReason::Repetition => "千日手",
            _ => return None,
        },
        Outcome::Draw { reason, .. } => match reason {
            EndReason::Repetition => "千日手",
            EndReason::Impasse => "持将棋",
            _ => return None,
        },
    })
}

/// The `まで…` trailer line for a result after `plies` moves.
pub(crate) fn trailer_line(outcome: Outcome, plies: usize, handicap: bool) -> Option<String> {
    let name = |side: Side| match (side, handicap) {
        (Side::First, false) => "先手",
        (Side::Second, false) => "後手",
        (Side::First, true) => "下手",
        (Side::Second, true) => "上手",
    };
    let text = match outcome {
        Outcome::Win { winner, reason, .. } => match reason {
            EndReason::Timeout => format!("時間切れにより{}の勝ち", name(winner)),
            EndReason::Repetition | EndReason::PerpetualCheck => "千日手".to_string(),
            EndReason::Impasse => format!("{}の入玉勝ち", name(winner)),
            EndReason::Foul => format!("{}の反則勝ち", name(winner)),
            _ => format!("{}の勝ち", name(winner)),
        },
        Outcome::Draw { reason, .. } => match reason {
            EndReason::Repetition => "千日手".to_string(),
            EndReason::Impasse => "持将棋".to_string(),
            _ => return None,
        },
    };
    Some(format!("まで{plies}手で{text}"))
}

/// The standard start (平手 or a handicap) this position is, ignoring the move counter.
pub(crate) fn handicap_of(position: &ShogiPosition) -> Option<Handicap> {
    let key = |sfen: &str| sfen.rsplit_once(' ').map(|(head, _)| head.to_string());
    let mine = key(&position.sfen());
    Handicap::ALL.into_iter().find(|h| key(h.sfen()) == mine)
}

/// Writes the start position as KIF/KI2 preamble lines: `手合割：…` for a standard start,
/// a BOD diagram with both hands otherwise.
pub(crate) fn write_start(out: &mut String, position: &ShogiPosition) {
    // The SFEN move number (`… 301`) is kept as `手数＝300` under a diagram.
    let sfen = position.sfen();
    let number: u32 = sfen
        .rsplit_once(' ')
        .and_then(|(_, number)| number.parse().ok())
        .unwrap_or(1);
    if let Some(handicap) = handicap_of(position).filter(|_| number <= 1) {
        out.push_str(&format!("手合割：{}\n", handicap.japanese()));
        return;
    }
    let hand_line = |side: Side| {
        let items: Vec<String> = shogi::HAND_KINDS
            .iter()
            .filter_map(|&hand_kind| {
                let count = position.hand_count(side, hand_kind);
                let glyph = BOARD_GLYPHS[hand_kind as usize];
                match count {
                    0 => None,
                    1 => Some(glyph.to_string()),
                    n => Some(format!("{glyph}{}", kanji_count(n))),
                }
            })
            .collect();
        if items.is_empty() {
            "なし".to_string()
        } else {
            format!("{}\u{3000}", items.join("\u{3000}"))
        }
    };
    out.push_str(&format!("後手の持駒：{}\n", hand_line(Side::Second)));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let code = position.piece_at(square_of(file, rank));
            if code == 0 {
                out.push_str(" ・");
            } else {
                out.push(if shogi::owner(code) == Side::Second {
                    'v'
                } else {
                    ' '
                });
                out.push(BOARD_GLYPHS[shogi::kind_of(code) as usize]);
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[rank as usize - 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand_line(Side::First)));
    if number > 1 {
        out.push_str(&format!("手数＝{}\n", number - 1));
    }
    if position.side_to_move() == Side::Second {
        out.push_str("後手番\n");
    }
}

/// Header keys of other formats written under their KIF names: CSA's, and the English
/// (PGN-style) keys that pychess-variants and earlier qipan versions wrote.
const KIF_NAMES: [(&str, &str); 15] = [
    ("N+", "先手"),
    ("N-", "後手"),
    ("$EVENT", "棋戦"),
    ("$SITE", "場所"),
    ("$START_TIME", "開始日時"),
    ("$END_TIME", "終了日時"),
    ("$TIME_LIMIT", "持ち時間"),
    ("$OPENING", "戦型"),
    ("$NOTE", "備考"),
    ("Event", "棋戦"),
    ("Site", "場所"),
    ("Date", "開始日時"),
    ("Sente", "先手"),
    ("Gote", "後手"),
    ("Annotator", "記録係"),
];

/// The KIF name of a header key (itself when it has none).
pub(crate) fn kif_key(key: &str) -> &str {
    KIF_NAMES
        .iter()
        .find(|(other, _)| *other == key)
        .map_or(key, |(_, kif)| kif)
}

/// A date as KIF and CSA write it: PGN's `2026.12.01` becomes `2026/12/01`; unknown
/// parts (`??`) and any other text are kept as they are.
pub(crate) fn slash_date(value: &str) -> String {
    let bytes = value.as_bytes();
    let pgn_date = bytes.len() >= 10
        && bytes[4] == b'.'
        && bytes[7] == b'.'
        && value.is_char_boundary(10)
        && value[..10]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '?');
    if pgn_date {
        format!("{}{}", value[..10].replace('.', "/"), &value[10..])
    } else {
        value.to_string()
    }
}

/// Writes the header fields as `key：value` lines (CSA and English names mapped to KIF
/// names, one line per KIF name; line breaks inside a value become spaces so the file
/// stays readable).
pub(crate) fn write_headers(out: &mut String, headers: &[(String, String)]) {
    let mut written: Vec<String> = Vec::new();
    for (key, value) in headers {
        let Some(key) = header_key(kif_key(key)) else {
            continue;
        };
        if written.contains(&key) {
            continue;
        }
        let mut value = value.replace(['\n', '\r'], " ");
        if key.ends_with("日時") || key == "対局日" {
            value = slash_date(&value);
        }
        out.push_str(&format!("{key}：{value}\n"));
        written.push(key);
    }
}

/// A header name as KIF can write it so that it reads back as a header: no line breaks
/// or colons, ASCII digits as full-width ones (a line with an ASCII digit before its
/// colon reads as a move; a damaged name may hold one, e.g. an escaped `\x02`). `None`
/// for a name that would read as something else (empty, a comment, a board line).
fn header_key(key: &str) -> Option<String> {
    let key: String = key
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '：' | ':' => ' ',
            '0'..='9' => char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c),
            c => c,
        })
        .collect();
    let key = key.trim();
    let special = [
        "*",
        "#",
        "&",
        "|",
        "+",
        "９",
        "手数",
        "変化",
        "まで",
        "先手番",
        "後手番",
    ];
    if key.is_empty() || special.iter().any(|start| key.starts_with(start)) {
        return None;
    }
    Some(key.to_string())
}

/// Writes comments as `*` lines.
pub(crate) fn write_comments(out: &mut String, comments: &[(usize, String)], ply: usize) {
    for (_, text) in comments.iter().filter(|(at, _)| *at == ply) {
        for line in text.lines() {
            out.push('*');
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// A KIF move: destination (or 同), the piece before moving, 成/不成, and the origin in
/// brackets or 打.
pub(crate) struct KifMove {
    /// The destination square; `None` for 同 (the previous move's destination).
    pub to: Option<u8>,
    /// The kind named (before moving).
    pub kind: u8,
    /// 成 was written.
    pub promote: bool,
    /// 打 was written.
    pub drop: bool,
    /// The origin square from `(77)`.
    pub from: Option<u8>,
    /// A relative word (右 左 直 上 寄 引) was written.
    pub qualified: bool,
}

/// Reads the move text of a KIF move line (after the number); `None` when it is not
/// shaped like a move.
pub(crate) fn parse_kif_move(text: &str) -> Option<KifMove> {
    let mut rest = text.trim_start();
    let to = if let Some(after) = rest.strip_prefix('同') {
        rest = after.trim_start();
        None
    } else {
        let mut chars = rest.chars();
        let file = any_digit(chars.next()?)?;
        let rank = any_digit(chars.next()?)?;
        rest = chars.as_str();
        Some(square_of(file, rank))
    };
    let (name, kind_number) = MOVE_PIECE_NAMES
        .iter()
        .find(|(name, _)| rest.starts_with(name))?;
    rest = &rest[name.len()..];
    // Relative words are not part of KIF but some writers add them; they are redundant
    // next to the origin square.
    let before = rest.len();
    rest = rest.trim_start_matches(['右', '左', '直', '上', '寄', '引', '行', '入']);
    let qualified = rest.len() != before;
    let mut promote = false;
    if let Some(after) = rest.strip_prefix("不成") {
        rest = after;
    } else if let Some(after) = rest.strip_prefix("生") {
        rest = after;
    } else if let Some(after) = rest.strip_prefix('成') {
        promote = true;
        rest = after;
    }
    let mut drop = false;
    if let Some(after) = rest.strip_prefix('打') {
        drop = true;
        rest = after;
    }
    let mut from = None;
    if let Some(after) = rest.strip_prefix('(') {
        let mut chars = after.chars();
        let file = any_digit(chars.next()?)?;
        let rank = any_digit(chars.next()?)?;
        if chars.next()? != ')' {
            return None;
        }
        from = Some(square_of(file, rank));
    }
    Some(KifMove {
        to,
        kind: *kind_number,
        promote,
        drop,
        from,
        qualified,
    })
}

/// Turns a read KIF move into a move of the position: checks that the named piece stands
/// on the origin (or is in hand for 打); moves without an origin are read as Japanese
/// notation.
fn resolve_move(
    position: &ShogiPosition,
    any: &AnyPosition,
    parsed: &KifMove,
    text: &str,
    previous: Option<Move>,
) -> Result<Move, String> {
    let to = match parsed.to {
        Some(square) => square,
        None => match previous {
            Some(previous) => previous.to,
            None => return Err("no previous move ends on a square".to_string()),
        },
    };
    let side = position.side_to_move();
    if parsed.drop {
        if shogi::promoted(parsed.kind).is_none() && parsed.kind != kind::GOLD {
            return Err("only an unpromoted piece can be dropped".to_string());
        }
        return Ok(Move::drop(parsed.kind, to));
    }
    let Some(from) = parsed.from else {
        // No origin: Japanese notation with its relative words decides.
        return parse_move_after(any, text, previous).map_err(|error| match error {
            NotationError::Unknown(_) => "not a move".to_string(),
            NotationError::Illegal { reason, .. } => reason,
            NotationError::Ambiguous { candidates, .. } => {
                format!("ambiguous: {}", candidates.join(" or "))
            }
        });
    };
    let code = position.piece_at(from);
    if code == 0 || shogi::owner(code) != side {
        let (file, rank) = file_rank_of(from);
        return Err(format!("no piece of the side to move on {file}{rank}"));
    }
    let on_board = shogi::kind_of(code);
    if on_board != parsed.kind {
        let (file, rank) = file_rank_of(from);
        return Err(format!(
            "the piece on {file}{rank} is {}, not {}",
            MOVE_NAMES[on_board as usize], MOVE_NAMES[parsed.kind as usize]
        ));
    }
    Ok(if parsed.promote {
        Move::promoting(from, to)
    } else {
        Move::new(from, to)
    })
}

/// Reads a KIF file. Moves are replayed through the rules engine; a bad move returns an
/// error naming its line and move number, with the game up to the move before it.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let text = decode(bytes);
    let mut preamble = Preamble::default();
    let mut record: Option<GameRecord> = None;
    let mut variations_from: Option<usize> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = raw.trim_end();
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&') {
            continue;
        }
        if trimmed.starts_with("変化") {
            // Variations follow the main line to the end of the file.
            variations_from = Some(index);
            break;
        }
        if record.is_none() {
            let move_header = trimmed.starts_with("手数") && !trimmed.starts_with("手数＝");
            let moves_begin = move_header
                || trimmed.starts_with("まで")
                || trimmed.starts_with(|c: char| c.is_ascii_digit());
            if !moves_begin {
                if !preamble.read_line(line_number, line) {
                    return Err(import_error(
                        file,
                        line_number,
                        None,
                        trimmed,
                        "not a KIF header, board or move line",
                        None,
                    ));
                }
                continue;
            }
            let start = preamble.start(file)?;
            let mut fresh = GameRecord::new(Game::new(AnyPosition::Shogi(start)));
            fresh.headers = std::mem::take(&mut preamble.headers);
            fresh.comments = preamble.comments.drain(..).map(|c| (0, c)).collect();
            record = Some(fresh);
            if move_header {
                continue;
            }
        }
        let Some(current) = record.as_mut() else {
            continue;
        };
        if let Some(comment) = trimmed.strip_prefix('*') {
            let ply = current.game.moves().len();
            current.comments.push((ply, comment.to_string()));
        } else if trimmed.starts_with("まで") {
            if current.result.is_none() {
                if let Some(outcome) = trailer_outcome(trimmed, &current.game) {
                    current.game.declare(outcome);
                    current.result = Some(outcome);
                }
            }
        } else if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            read_move_line(current, file, line_number, trimmed)?;
        } else if let Some((key, value)) = split_header(trimmed) {
            // Some programs put fields such as 終了日時 after the moves.
            current.headers.push((key.to_string(), value.to_string()));
        } else {
            let number = current.game.moves().len() + 1;
            return Err(import_error(
                file,
                line_number,
                Some(number),
                trimmed,
                "not a KIF move line",
                Some(current.clone()),
            ));
        }
    }
    let mut record = match record {
        Some(record) => record,
        None => preamble.into_record(file)?,
    };
    if let Some(first) = variations_from {
        read_variations(&mut record, &text, first, file)?;
    }
    Ok(record)
}

/// How many `変化` blocks a file may hold (more are refused, not read without end).
const MOST_VARIATIONS: usize = 10_000;

/// Reads the `変化：N手` blocks from line index `first` on into the record's tree: each
/// branches at move N from the line read before it.
fn read_variations(
    record: &mut GameRecord,
    text: &str,
    first: usize,
    file: &str,
) -> Result<(), ImportError> {
    let mut tree = record.full_tree();
    // The line read last, and the block being read (as a record of its line so far).
    let mut last_line: Vec<NodeId> = tree.main_line();
    let mut block: Option<(usize, GameRecord)> = None;
    let mut blocks = 0;
    let finish =
        |tree: &mut GameTree, last_line: &mut Vec<NodeId>, branch: usize, read: GameRecord| {
            let mut at = match branch {
                0 => NodeId::ROOT,
                _ => last_line[branch - 1],
            };
            last_line.truncate(branch);
            for (index, &mv) in read.game.moves().iter().enumerate().skip(branch) {
                at = tree.add_move(at, mv).0;
                let annotation = tree.annotation_mut(at);
                annotation.time = read.move_time(index + 1);
                let said = read.comments.iter().filter(|(ply, _)| *ply == index + 1);
                annotation.comments = said.map(|(_, body)| body.clone()).collect();
                last_line.push(at);
            }
        };
    for (index, raw) in text.lines().enumerate().skip(first) {
        let line_number = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&') {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("変化") {
            if let Some((branch, read)) = block.take() {
                finish(&mut tree, &mut last_line, branch, read);
            }
            blocks += 1;
            let number = rest
                .trim_start_matches(['：', ':'])
                .trim()
                .trim_end_matches('手')
                .trim();
            let ply = kanji_number(number)
                .map(|n| n as usize)
                .filter(|&n| n >= 1 && n <= last_line.len() + 1 && blocks <= MOST_VARIATIONS)
                .ok_or_else(|| {
                    import_error(
                        file,
                        line_number,
                        None,
                        trimmed,
                        "a variation must branch at a move of the line before it",
                        Some(record.clone()),
                    )
                })?;
            let game = tree
                .game_along(&last_line[..ply - 1])
                .map_err(|_| import_error(file, line_number, None, trimmed, "bad line", None))?;
            block = Some((ply - 1, GameRecord::new(game)));
            continue;
        }
        let Some((_, current)) = block.as_mut() else {
            continue;
        };
        if let Some(comment) = trimmed.strip_prefix('*') {
            let ply = current.game.moves().len();
            current.comments.push((ply, comment.to_string()));
        } else if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            read_move_line(current, file, line_number, trimmed).map_err(|mut error| {
                error.reason = format!("in a variation: {}", error.reason);
                error.partial = Some(Box::new(record.clone()));
                error
            })?;
        }
        // Trailer lines (`まで…`) of a variation say nothing the tree keeps.
    }
    if let Some((branch, read)) = block.take() {
        finish(&mut tree, &mut last_line, branch, read);
    }
    record.tree = tree;
    Ok(())
}

/// Reads one numbered move line (`  12 同　銀(31)   ( 0:03/00:00:07)`) into the record.
fn read_move_line(
    record: &mut GameRecord,
    file: &str,
    line_number: usize,
    line: &str,
) -> Result<(), ImportError> {
    let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
    let body = line[digits..].trim_start();
    // `同 銀` with an ASCII space is common; keep the move text in one piece.
    let joined;
    let body = match body.strip_prefix('同') {
        Some(rest) => {
            joined = format!("同{}", rest.trim_start());
            joined.as_str()
        }
        None => body,
    };
    let number: usize = line[..digits].parse().unwrap_or(0);
    let expected = record.game.moves().len() + 1;
    // The move text ends at the time stamp or a run of spaces.
    let move_text = body
        .split([' ', '\t'])
        .next()
        .unwrap_or("")
        .trim_end_matches('+');
    let fail = |record: &GameRecord, reason: String| {
        import_error(
            file,
            line_number,
            Some(number.max(1)),
            move_text,
            reason,
            Some(record.clone()),
        )
    };
    let end_word = move_text.trim_end_matches('\u{3000}');
    if let Some(result) = end_word_outcome(end_word, &record.game) {
        if record.result.is_none() {
            if let Some(outcome) = result {
                record.game.declare(outcome);
            }
            record.result = result;
        }
        return Ok(());
    }
    if number != expected {
        return Err(fail(
            record,
            format!("move number {number} where {expected} was expected"),
        ));
    }
    let Some(parsed) = parse_kif_move(move_text) else {
        return Err(fail(record, "not a KIF move".to_string()));
    };
    let AnyPosition::Shogi(position) = record.game.position().clone() else {
        return Err(fail(record, "not a shogi game".to_string()));
    };
    let previous = record.game.moves().last().copied();
    let any = record.game.position().clone();
    // Without an origin the text goes to the Japanese reader, which wants no 不成 noise.
    let notation_text = move_text.replace("不成", "");
    let mv = resolve_move(&position, &any, &parsed, &notation_text, previous)
        .map_err(|reason| fail(record, reason))?;
    if let Err(why) = record.game.play(mv) {
        return Err(fail(record, why.describe().to_string()));
    }
    // The 消費時間 column after the move text: `( 0:16/00:01:05)`.
    let column = body
        .split_once([' ', '\t'])
        .map_or("", |(_, rest)| rest)
        .trim()
        .trim_end_matches('+')
        .trim_end();
    if let Some(time) = super::times::parse_kif_column(column) {
        let ply = record.game.moves().len();
        super::times::set(&mut record.move_times, ply, time);
    }
    Ok(())
}

/// Writes a record as UTF-8 KIF: the encoding line, headers, 手合割 or a board diagram, the
/// numbered moves with origins (同 for a recapture), comments, the end word and the
/// `まで…` trailer. The record must be a shogi game (the dispatcher checks the game kind).
pub fn write(record: &GameRecord) -> String {
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    write_headers(&mut out, &record.headers);
    let game = &record.game;
    let start = match game.start() {
        AnyPosition::Shogi(position) => position.clone(),
        _ => ShogiPosition::start(),
    };
    write_start(&mut out, &start);
    out.push_str("手数----指手---------消費時間--\n");
    let tree = record.full_tree();
    for comment in &tree.node(NodeId::ROOT).annotation.comments {
        write_comment_lines(&mut out, comment);
    }
    let main = tree.main_line();
    write_line(&mut out, &tree, &main, 0);
    let plies = game.moves().len();
    if let Some(outcome) = record.result.or(game.outcome()) {
        let to_move = game.position().side_to_move();
        if let Some(word) = outcome_end_word(outcome, to_move) {
            out.push_str(&format!("{:>4} {}\n", plies + 1, word));
        }
        let handicap = start.side_to_move() == Side::Second;
        if let Some(trailer) = trailer_line(outcome, plies, handicap) {
            out.push_str(&trailer);
            out.push('\n');
        }
    }
    write_variations(&mut out, &tree, main);
    out
}

fn write_comment_lines(out: &mut String, text: &str) {
    for line in text.lines() {
        out.push('*');
        out.push_str(line);
        out.push('\n');
    }
}

/// Writes the move lines of `line[from..]` (a line from the first move), each with its
/// time column (running totals counted from the start), `+` when it has variations,
/// and its comments.
fn write_line(out: &mut String, tree: &GameTree, line: &[NodeId], from: usize) {
    let mut position = tree.start().clone();
    let mut previous: Option<Move> = None;
    let mut totals = [std::time::Duration::ZERO; 2];
    for (index, &id) in line.iter().enumerate() {
        let Some(mv) = tree.move_of(id) else { break };
        let node = tree.node(id);
        let mover = position.side_to_move().index();
        if let Some(time) = node.annotation.time {
            // Each side's running total, as Kakinoki's column counts it.
            totals[mover] = totals[mover].saturating_add(time);
        }
        if index >= from {
            let text = kif_move_text(&position, mv, previous);
            let parent = node.parent().unwrap_or(NodeId::ROOT);
            let branches = if tree.children(parent).len() > 1 {
                "+"
            } else {
                ""
            };
            match node.annotation.time {
                Some(time) => {
                    let padding = " ".repeat(13usize.saturating_sub(display_width(&text)).max(1));
                    let column = super::times::kif_column(time, totals[mover]);
                    out.push_str(&format!(
                        "{:>4} {text}{padding}{column}{branches}\n",
                        index + 1
                    ));
                }
                None => out.push_str(&format!("{:>4} {text}{branches}\n", index + 1)),
            }
            for comment in &node.annotation.comments {
                write_comment_lines(out, comment);
            }
        }
        position.play_unchecked(mv);
        previous = Some(mv);
    }
}

/// What the variation writer does next (an explicit stack: no recursion).
enum Pending {
    /// Write this line's block from its index `own` (its first own move), then its variations.
    Block(Vec<NodeId>, usize),
    /// Look for branch points of this line below index `next`, down to `lowest`.
    Scan(Vec<NodeId>, usize, usize),
}

/// Writes the `変化` blocks of `main`'s variations: for each line, its branch points
/// from the deepest up, each alternative's block followed by its own variations, so
/// every block branches from the line written just before it.
fn write_variations(out: &mut String, tree: &GameTree, main: Vec<NodeId>) {
    let length = main.len();
    let mut stack = vec![Pending::Scan(main, 0, length)];
    while let Some(pending) = stack.pop() {
        match pending {
            Pending::Block(line, own) => {
                out.push_str(&format!("\n変化：{}手\n", own + 1));
                write_line(out, tree, &line, own);
                let length = line.len();
                // Its own first move is one of its parent's alternatives, written there.
                stack.push(Pending::Scan(line, own + 1, length));
            }
            Pending::Scan(line, lowest, next) => {
                let Some(index) = next.checked_sub(1).filter(|&i| i >= lowest) else {
                    continue;
                };
                let parent = match index {
                    0 => NodeId::ROOT,
                    _ => line[index - 1],
                };
                let alternatives = tree.children(parent)[1..].to_vec();
                let mut blocks = Vec::new();
                for &alternative in &alternatives {
                    let mut branch = line[..index].to_vec();
                    branch.push(alternative);
                    branch.extend(tree.main_continuation(alternative));
                    blocks.push(Pending::Block(branch, index));
                }
                stack.push(Pending::Scan(line, lowest, index));
                stack.extend(blocks.into_iter().rev());
            }
        }
    }
}

/// The width of KIF text in a fixed-width font: full-width characters take two columns.
fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// One move in KIF form: `７六歩(77)`, `同　銀(31)`, `２二角成(88)`, `４五角打`.
fn kif_move_text(position: &AnyPosition, mv: Move, previous: Option<Move>) -> String {
    let mut text = String::new();
    if previous.is_some_and(|p| p.to == mv.to) {
        text.push_str("同\u{3000}");
    } else {
        let (file, rank) = file_rank_of(mv.to);
        let digit = |digits: &[char; 9], n: u8| digits.get(usize::from(n).wrapping_sub(1)).copied();
        text.push(digit(&WIDE_DIGITS, file).unwrap_or('？'));
        text.push(digit(&KANJI_DIGITS, rank).unwrap_or('？'));
    }
    if mv.is_drop() {
        text.push_str(MOVE_NAMES.get(mv.from as usize).copied().unwrap_or("歩"));
        text.push('打');
        return text;
    }
    let kind_number = match position {
        AnyPosition::Shogi(p) => shogi::kind_of(p.piece_at(mv.from)),
        _ => kind::PAWN,
    };
    text.push_str(
        MOVE_NAMES
            .get(kind_number as usize)
            .copied()
            .unwrap_or("歩"),
    );
    if mv.is_promotion() {
        text.push('成');
    }
    let (file, rank) = file_rank_of(mv.from);
    text.push_str(&format!("({file}{rank})"));
    text
}
