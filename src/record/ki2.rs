//! KI2 shogi records (FORMATS.md §3.7): the KIF preamble (headers, 手合割 or a board
//! diagram), then moves in Japanese notation without numbers or origins
//! (`▲７六歩    △３四歩    ▲２二角成  △同　銀`), several per line, and a `まで…` line
//! that carries the result.
//!
//! Moves are read through the rules engine's Japanese notation reader, so the relative
//! words (右/左/直/上/寄/引), 打 and 不成 are understood exactly as the move list writes them.

use super::kif::{self, import_error, Preamble};
use super::{GameRecord, ImportError};
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::notation::{format_move_after, parse_move_after, Notation, NotationError};
use crate::rules::shogi::{self, ShogiPosition};
use crate::rules::{Move, Position, Side};
use unicode_width::UnicodeWidthStr;

/// The side marks that start a KI2 move: filled for Sente (`▲`, `▼` as some newspapers
/// and sites print it, `☗`), hollow for Gote (`△`, `▽`, `☖`).
const MARKS: [char; 6] = ['▲', '△', '☗', '☖', '▼', '▽'];
/// The marks of Sente's moves.
const SENTE_MARKS: [char; 3] = ['▲', '☗', '▼'];

/// True when a (trimmed) line is a line of KI2 moves or the closing `まで…` line.
pub(super) fn is_move_line(line: &str) -> bool {
    line.starts_with(MARKS) || line.starts_with("まで")
}

/// Reads a KI2 file (UTF-8 or Shift_JIS). A move that cannot be read returns an error with
/// its line, move number, text and reason, and the game up to the move before it.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let text = kif::decode(bytes);
    let mut preamble = Preamble::default();
    let mut record: Option<GameRecord> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('&') {
            continue;
        }
        if trimmed.starts_with("変化") {
            break;
        }
        let is_moves = trimmed.starts_with(MARKS);
        if record.is_none() && !is_moves && !trimmed.starts_with("まで") {
            if !preamble.read_line(line_number, raw) {
                return Err(import_error(
                    file,
                    line_number,
                    None,
                    trimmed,
                    "not a KI2 header, board or move line",
                    None,
                ));
            }
            continue;
        }
        let current = match record.as_mut() {
            Some(current) => current,
            None => {
                let start = preamble.start(file)?;
                let mut fresh = GameRecord::new(Game::new(AnyPosition::Shogi(start)));
                fresh.headers = std::mem::take(&mut preamble.headers);
                fresh.comments = preamble.comments.drain(..).map(|c| (0, c)).collect();
                record.insert(fresh)
            }
        };
        if is_moves {
            read_move_line(current, file, line_number, trimmed)?;
        } else if let Some(comment) = trimmed.strip_prefix('*') {
            let ply = current.game.moves().len();
            current.comments.push((ply, comment.to_string()));
        } else if trimmed.starts_with("まで") {
            if current.result.is_none() {
                if let Some(outcome) = kif::trailer_outcome(trimmed, &current.game) {
                    current.game.declare(outcome);
                    current.result = Some(outcome);
                }
            }
        } else if !preamble.read_line(line_number, raw) {
            let number = current.game.moves().len() + 1;
            return Err(import_error(
                file,
                line_number,
                Some(number),
                trimmed,
                "not a KI2 move line",
                Some(current.clone()),
            ));
        } else {
            // A header field after the moves (終了日時 and the like).
            current.headers.append(&mut preamble.headers);
        }
    }
    match record {
        Some(record) => Ok(record),
        None => preamble.into_record(file),
    }
}

/// Splits a line of moves at the side marks: `▲７六歩    △同　歩` → `▲７六歩`, `△同　歩`.
fn split_moves(line: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = line
        .char_indices()
        .filter(|(_, c)| MARKS.contains(c))
        .map(|(at, _)| at)
        .collect();
    starts.push(line.len());
    starts
        .windows(2)
        .map(|pair| line[pair[0]..pair[1]].trim())
        .collect()
}

/// Reads every move of one KI2 line into the record.
fn read_move_line(
    record: &mut GameRecord,
    file: &str,
    line_number: usize,
    line: &str,
) -> Result<(), ImportError> {
    for token in split_moves(line) {
        let number = record.game.moves().len() + 1;
        let fail = |record: &GameRecord, reason: String| {
            import_error(
                file,
                line_number,
                Some(number),
                token,
                reason,
                Some(record.clone()),
            )
        };
        let mark_side = if token.starts_with(SENTE_MARKS) {
            Side::First
        } else {
            Side::Second
        };
        let to_move = record.game.position().side_to_move();
        if record.game.outcome().is_some() {
            return Err(fail(record, "the game is over".to_string()));
        }
        if mark_side != to_move {
            let (mark, side) = match to_move {
                Side::First => ("△", "Sente (▲)"),
                Side::Second => ("▲", "Gote (△)"),
            };
            return Err(fail(
                record,
                format!("a {mark} move, but {side} is to move"),
            ));
        }
        let position = record.game.position().clone();
        let previous = record.game.moves().last().copied();
        if let Some(mv) = only_candidate(&record.game, token, previous) {
            if let Err(why) = record.game.play(mv) {
                return Err(fail(record, why.describe().to_string()));
            }
            continue;
        }
        let mut attempt = parse_move_after(&position, token, previous);
        if attempt.is_err() {
            // Some writers add 打 to every drop, also where no board piece could move there.
            if let Some(plain) = token.strip_suffix('打') {
                if let Ok(mv) = parse_move_after(&position, plain, previous) {
                    attempt = Ok(mv);
                }
            }
        }
        let mv = attempt.map_err(|error| {
            fail(
                record,
                match error {
                    NotationError::Unknown(_) => "not a move".to_string(),
                    NotationError::Illegal { reason, .. } => reason,
                    NotationError::Ambiguous { candidates, .. } => {
                        format!("ambiguous: {}", candidates.join(" or "))
                    }
                },
            )
        })?;
        if let Err(why) = record.game.play(mv) {
            return Err(fail(record, why.describe().to_string()));
        }
    }
    Ok(())
}

/// The fast path for the common move: without relative words, the destination, the piece
/// and 成/打 leave one legal move. `None` sends the move to the full Japanese reader, which
/// checks relative words and explains errors (it writes every legal move in every notation,
/// about a hundred times slower).
fn only_candidate(game: &Game, token: &str, previous: Option<Move>) -> Option<Move> {
    let text = token.trim_start_matches(MARKS);
    let parsed = kif::parse_kif_move(text)?;
    if parsed.qualified || parsed.from.is_some() {
        return None;
    }
    let to = parsed.to.or(previous.map(|p| p.to))?;
    let AnyPosition::Shogi(position) = game.position() else {
        return None;
    };
    let legal = game.legal_moves();
    let mut found = legal.iter().filter(|m| {
        m.to == to
            && if m.is_drop() {
                m.from == parsed.kind && !parsed.promote
            } else {
                !parsed.drop
                    && shogi::kind_of(position.piece_at(m.from)) == parsed.kind
                    && m.is_promotion() == parsed.promote
            }
    });
    let first = *found.next()?;
    found.next().is_none().then_some(first)
}

/// Writes a record as UTF-8 KI2: headers, 手合割 or a board diagram, six moves a line in
/// Japanese notation (a line also ends after a commented move, whose `*` lines follow),
/// and the `まで…` line with the result (`中断` when there is none).
pub fn write(record: &GameRecord) -> String {
    let mut out = String::new();
    kif::write_headers(&mut out, &record.headers);
    let game = &record.game;
    let start = match game.start() {
        AnyPosition::Shogi(position) => position.clone(),
        _ => ShogiPosition::start(),
    };
    kif::write_start(&mut out, &start);
    kif::write_comments(&mut out, &record.comments, 0);
    let mut line = String::new();
    let mut on_line = 0;
    let mut previous = None;
    for (index, &mv) in game.moves().iter().enumerate() {
        let text = format_move_after(&game.positions()[index], mv, Notation::Japanese, previous);
        previous = Some(mv);
        let width = text.width();
        line.push_str(&text);
        line.push_str(&" ".repeat(12usize.saturating_sub(width).max(1)));
        on_line += 1;
        let ply = index + 1;
        let commented = record.comments.iter().any(|(at, _)| *at == ply);
        if on_line == 6 || commented || ply == game.moves().len() {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
            on_line = 0;
        }
        kif::write_comments(&mut out, &record.comments, ply);
    }
    let plies = game.moves().len();
    let handicap = start.side_to_move() == Side::Second;
    let trailer = record
        .result
        .or(game.outcome())
        .and_then(|outcome| kif::trailer_line(outcome, plies, handicap))
        .unwrap_or_else(|| format!("まで{plies}手で中断"));
    out.push_str(&trailer);
    out.push('\n');
    out
}
