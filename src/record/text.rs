//! Helpers shared by the text record formats: decoding legacy encodings, reading one
//! move of a record in whatever notation it is written in, and naming results.

use crate::rules::any::{AnyPosition, GameKind, PieceKind};
use crate::rules::notation::{parse_move, parse_move_in, Notation, NotationError};
use crate::rules::{EndReason, Move, MoveList, Outcome, Position, Side};

/// The legacy encoding to try when a file is not UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legacy {
    /// Chinese GBK / GB18030 (xiangqi records from Chinese software).
    Chinese,
    /// Korean EUC-KR / CP949 (janggi `.gib` files).
    Korean,
}

/// Decodes a record: UTF-8 (a byte-order mark is dropped) when the bytes are valid
/// UTF-8; else GBK/GB18030 or EUC-KR/CP949, whichever reads as more xiangqi or janggi
/// move text (both encodings accept most byte pairs, so "no errors" proves nothing),
/// `prefer` breaking ties. Unreadable bytes become U+FFFD rather than failing the file.
pub fn decode(bytes: &[u8], prefer: Legacy) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        log::debug!(target: "record", "encoding: UTF-8");
        return text.to_string();
    }
    let chinese = encoding_rs::GB18030.decode_without_bom_handling(bytes).0;
    let korean = encoding_rs::EUC_KR.decode_without_bom_handling(bytes).0;
    let chinese_score = chinese_move_words(&chinese) * 2 + usize::from(prefer == Legacy::Chinese);
    let korean_score = korean_move_words(&korean) * 2 + usize::from(prefer == Legacy::Korean);
    log::debug!(
        target: "record",
        "not UTF-8: GB18030 scores {chinese_score}, EUC-KR/CP949 {korean_score} (prefers {prefer:?})"
    );
    if korean_score > chinese_score {
        log::debug!(target: "record", "encoding: EUC-KR/CP949");
        korean.into_owned()
    } else {
        log::debug!(target: "record", "encoding: GB18030");
        chinese.into_owned()
    }
}

/// How many xiangqi move verbs (进退平, traditional 進) the text has.
fn chinese_move_words(text: &str) -> usize {
    text.chars().filter(|c| "进退平進".contains(*c)).count()
}

/// How many janggi moves (`79졸78`: two digits, a Hangul piece or 한수쉼) the text has,
/// plus Korean record headers.
fn korean_move_words(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let pieces = "졸병마상차포사장궁";
    let moves = chars
        .windows(3)
        .filter(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit() && pieces.contains(w[2]))
        .count();
    moves + text.matches("한수쉼").count() + text.matches("대국").count()
}

/// How a record writes xiangqi coordinates once known: ICCS ranks 0–9 or the engine's
/// ranks 1–10 (FORMATS.md §2.3: one convention per file, never guessed per move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoordinateRanks {
    /// Ranks 0–9 (ICCS, UCCI, Pikafish).
    FromZero,
    /// Ranks 1–10 (Fairy-Stockfish UCI mode).
    FromOne,
}

/// Reads moves of one record: remembers the file's notation and coordinate convention.
#[derive(Clone, Debug, Default)]
pub struct MoveReader {
    /// The notation the file declares (`[Format "WXF"]`), tried first.
    pub declared: Option<Notation>,
    /// The xiangqi coordinate convention, once a move has settled it.
    pub ranks: Option<CoordinateRanks>,
}

impl MoveReader {
    /// Settles the xiangqi rank convention from a whole movetext: a `10` means ranks
    /// 1–10, a `0` anywhere else ranks 0–9 (FORMATS.md §2.3); both or neither decide nothing.
    pub fn settle_ranks<'a>(&mut self, words: impl Iterator<Item = &'a str>) {
        let (mut from_one, mut from_zero) = (false, false);
        for word in words {
            if word.contains("10") {
                from_one = true;
            } else if word.contains('0') {
                from_zero = true;
            }
        }
        self.ranks = match (from_one, from_zero) {
            (true, false) => Some(CoordinateRanks::FromOne),
            (false, true) => Some(CoordinateRanks::FromZero),
            _ => self.ranks,
        };
    }

    /// Reads one move text in `position`; the error says why in one phrase.
    pub fn read(&mut self, position: &AnyPosition, text: &str) -> Result<Move, String> {
        let text = text.trim_end_matches(['!', '?']);
        if text.is_empty() {
            return Err("empty move".to_string());
        }
        if position.game() == GameKind::Xiangqi {
            if let Some(result) = self.xiangqi_coordinates(position, text) {
                return result;
            }
        }
        let first = match self.declared {
            Some(notation) => parse_move_in(position, text, notation),
            None => parse_move(position, text),
        };
        match first {
            Ok(mv) => Ok(mv),
            Err(error) => {
                // SAN: one rank convention per file like coordinates; pychess-variants
                // and Fairy-Stockfish count 1–10, WinBoard 0–9.
                let choices = match self.ranks {
                    Some(ranks) => vec![ranks],
                    None => vec![CoordinateRanks::FromOne, CoordinateRanks::FromZero],
                };
                for ranks in choices {
                    if let Some(mv) = san_move(position, text, ranks) {
                        return Ok(mv);
                    }
                }
                if position.game() == GameKind::Janggi && text == "@@@@" {
                    if let Some(pass) = legal_moves(position).into_iter().find(|m| m.is_pass()) {
                        return Ok(pass);
                    }
                }
                Err(describe(&error))
            }
        }
    }

    /// Xiangqi coordinates (`h2e2`, `H2-E2`, `h3e3`, `a10a9`): `None` when the text is
    /// not coordinates.
    fn xiangqi_coordinates(
        &mut self,
        position: &AnyPosition,
        text: &str,
    ) -> Option<Result<Move, String>> {
        let (from, to) = split_coordinates(text)?;
        let declared = match self.declared {
            Some(Notation::Iccs) => Some(CoordinateRanks::FromZero),
            Some(Notation::Engine) => Some(CoordinateRanks::FromOne),
            _ => None,
        };
        let hint = if from.1 == 0 || to.1 == 0 {
            Some(CoordinateRanks::FromZero)
        } else if from.1 == 10 || to.1 == 10 {
            Some(CoordinateRanks::FromOne)
        } else {
            None
        };
        let settled = declared.or(self.ranks).or(hint);
        let legal = legal_moves(position);
        let reading = |ranks: CoordinateRanks| -> Option<Move> {
            let shift = match ranks {
                CoordinateRanks::FromZero => 0,
                CoordinateRanks::FromOne => 1,
            };
            let square = |(file, rank): (u8, u8)| -> Option<u8> {
                let rank = rank.checked_sub(shift)?;
                (rank < 10).then_some(rank * 9 + file)
            };
            Some(Move::new(square(from)?, square(to)?))
        };
        let choices = match settled {
            Some(ranks) => vec![ranks],
            // ICCS is the xiangqi community's convention; the engine's is the fallback.
            None => vec![CoordinateRanks::FromZero, CoordinateRanks::FromOne],
        };
        for ranks in &choices {
            if let Some(mv) = reading(*ranks) {
                if legal.contains(&mv) {
                    if self.ranks.is_none() && (settled.is_some() || *ranks == choices[1]) {
                        self.ranks = Some(*ranks);
                    }
                    return Some(Ok(mv));
                }
            }
        }
        let reason = match reading(choices[0]) {
            Some(mv) => match position.check_move(mv) {
                Err(illegal) => illegal.describe().to_string(),
                Ok(()) => "not a legal move here".to_string(),
            },
            None => "not a square of the board".to_string(),
        };
        Some(Err(reason))
    }
}

/// `h2e2`, `H2-E2`, `a10a9` as ((file, rank), (file, rank)) with the ranks as written.
fn split_coordinates(text: &str) -> Option<((u8, u8), (u8, u8))> {
    let lower = text.to_ascii_lowercase().replace('-', "");
    let bytes = lower.as_bytes();
    let square = |at: usize| -> Option<((u8, u8), usize)> {
        let file = *bytes.get(at)?;
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        let mut end = at + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() && end - at <= 2 {
            end += 1;
        }
        let digits = std::str::from_utf8(&bytes[at + 1..end]).ok()?;
        let rank: u8 = digits.parse().ok()?;
        (digits.len() == 1 || digits == "10").then_some(((file - b'a', rank), end))
    };
    let (from, next) = square(0)?;
    let (to, end) = square(next)?;
    (end == bytes.len()).then_some((from, to))
}

fn legal_moves(position: &AnyPosition) -> Vec<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().copied().collect()
}

/// One phrase for a notation error (the text itself is reported separately).
pub fn describe(error: &NotationError) -> String {
    match error {
        NotationError::Unknown(_) => "not a move in any notation of this game".to_string(),
        NotationError::Illegal { reason, .. } => reason.clone(),
        NotationError::Ambiguous { candidates, .. } => {
            format!("ambiguous: could be {}", candidates.join(" or "))
        }
    }
}

/// Fairy-Stockfish SAN as pychess-variants writes it for xiangqi and janggi (`Che3`,
/// `Pab4`, `Hc3`, `Cfxf10`; a janggi pass is the king to its own square, `Ke2`), or
/// WinBoard's xiangqi SAN (ranks 0–9, pawns without a letter: `Cbe2`, `c4`, `Rb0`):
/// read by matching the piece, the target and whatever origin file or rank is given.
pub fn san_move(position: &AnyPosition, text: &str, ranks: CoordinateRanks) -> Option<Move> {
    if position.game() == GameKind::Shogi {
        return None;
    }
    let text = text.trim_end_matches(['+', '#']);
    let mut chars = text.chars().peekable();
    let kind = match chars.peek()? {
        'K' => Some(PieceKind::General),
        'A' => Some(PieceKind::Advisor),
        'E' | 'B' => Some(PieceKind::Elephant),
        'H' | 'N' => Some(PieceKind::Horse),
        'R' => Some(PieceKind::Chariot),
        'C' => Some(PieceKind::Cannon),
        'P' => Some(PieceKind::Soldier),
        _ => None,
    };
    if kind.is_some() {
        chars.next();
    }
    let kind = kind.unwrap_or(PieceKind::Soldier);
    let rest: String = chars.filter(|&c| c != 'x' && c != '-').collect();
    // Squares are a file letter and 1–10; the last one is the target.
    let mut squares: Vec<(Option<u8>, Option<u8>)> = Vec::new();
    let bytes = rest.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let file = (b'a'..=b'i')
            .contains(&bytes[index])
            .then(|| bytes[index] - b'a');
        if file.is_some() {
            index += 1;
        }
        let start = index;
        while index < bytes.len() && bytes[index].is_ascii_digit() {
            index += 1;
        }
        if file.is_none() && start == index {
            return None;
        }
        let rank = if start == index {
            None
        } else {
            let value: u8 = rest[start..index].parse().ok()?;
            let rank = match ranks {
                CoordinateRanks::FromOne => value.checked_sub(1)?,
                CoordinateRanks::FromZero => value,
            };
            if rank >= position.ranks() {
                return None;
            }
            Some(rank)
        };
        squares.push((file, rank));
    }
    let (Some(to_file), Some(to_rank)) = *squares.last()? else {
        return None;
    };
    if squares.len() > 2 {
        return None;
    }
    let origin = if squares.len() == 2 {
        squares[0]
    } else {
        (None, None)
    };
    let target = to_rank * 9 + to_file;
    let side = position.side_to_move();
    let found: Vec<Move> = legal_moves(position)
        .into_iter()
        .filter(|mv| {
            mv.to == target
                && position
                    .piece_on(mv.from)
                    .is_some_and(|p| p.kind == kind && p.side == side)
                && origin.0.is_none_or(|file| mv.from % 9 == file)
                && origin.1.is_none_or(|rank| mv.from / 9 == rank)
        })
        .collect();
    match found[..] {
        [mv] => Some(mv),
        _ => None,
    }
}

/// The PGN result token of an outcome.
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.winner()) {
        Some(Some(Side::First)) => "1-0",
        Some(Some(Side::Second)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    }
}

/// The outcome a stated result means: the rules' own outcome when it agrees (a mate
/// on the board), else a result off the board with `reason`.
pub fn stated_outcome(
    winner: Option<Side>,
    rules_outcome: Option<Outcome>,
    reason: Option<EndReason>,
) -> Outcome {
    if let Some(outcome) = rules_outcome {
        if outcome.winner() == winner {
            return outcome;
        }
    }
    match winner {
        Some(side) => Outcome::win(side, reason.unwrap_or(EndReason::Resignation)),
        None => Outcome::draw(reason.unwrap_or(EndReason::Agreement)),
    }
}
