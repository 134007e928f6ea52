//! CSA shogi records, versions 2.2 and 3.0 (FORMATS.md §3.8).
//!
//! Reads `V2.2`/`V3.0`, player names (`N+`, `N-`), `$KEY:value` fields, the start as `PI`
//! (the even start minus listed pieces) or `P1`…`P9` ranks with `P+`/`P-` pieces and hands
//! (`00AL` = every remaining piece), the side to move, moves (`+7776FU`, the piece named
//! after the move, so promotion is read by comparing with the origin), `T` times (the
//! move's time, [`GameRecord::move_times`]), `%` end words and `'` comments. Several statements may share a line, joined by `,`. A `/` line
//! ends the first game; later games in the file are not read.
//!
//! Headers keep the format's names: `N+`, `N-` and `$EVENT`-style keys (with the `$`).

use super::kif::{self, file_rank_of, import_error, square_of};
use super::{times, GameRecord, ImportError};
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::shogi::{self, kind, ShogiPosition};
use crate::rules::{EndReason, Move, Outcome, Position, Side};

/// CSA piece codes, index = qipan's shogi kind number.
const CODES: [&str; 15] = [
    "", "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

/// How many of each unpromoted kind a set holds (index = kind number).
const SET_COUNTS: [u8; 8] = [0, 18, 4, 4, 4, 4, 2, 2];

/// The kind number of a CSA piece code.
fn kind_of_code(code: &str) -> Option<u8> {
    CODES
        .iter()
        .position(|&c| !c.is_empty() && c == code)
        .map(|k| k as u8)
}

/// A CSA square `77` (file, rank); `None` for `00` or a malformed pair.
fn square_from(text: &str) -> Option<u8> {
    let mut chars = text.chars();
    let file = chars.next()?.to_digit(10)? as u8;
    let rank = chars.next()?.to_digit(10)? as u8;
    ((1..=9).contains(&file) && (1..=9).contains(&rank)).then(|| square_of(file, rank))
}

/// The start position being read: board codes, hands, and whether anything was given.
struct Setup {
    board: [u8; 81],
    hands: [[u8; 8]; 2],
    given: bool,
    /// A `'手数＝N` comment before the position: N moves were played before it (SFEN
    /// move N + 1), as KIF says under a diagram. CSA has no field for it.
    moves_before: Option<u32>,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            board: [0; 81],
            hands: [[0; 8]; 2],
            given: false,
            moves_before: None,
        }
    }

    /// `PI82HI22KA`: the even start without the listed pieces.
    fn initial(&mut self, rest: &str) -> Result<(), String> {
        self.board = *ShogiPosition::start().board();
        self.hands = [[0; 8]; 2];
        self.given = true;
        let chars: Vec<char> = rest.chars().collect();
        if !chars.len().is_multiple_of(4) {
            return Err("PI lists pieces as 4 characters each (82HI)".to_string());
        }
        for group in chars.chunks(4) {
            let square: String = group[..2].iter().collect();
            let code: String = group[2..].iter().collect();
            let group: String = group.iter().collect();
            let square =
                square_from(&square).ok_or(format!("{group}: not a square on the board"))?;
            let kind_number =
                kind_of_code(&code).ok_or(format!("{group}: not a CSA piece code"))?;
            let code = self.board[square as usize];
            if code == 0 || shogi::kind_of(code) != kind_number {
                return Err(format!("{group}: no such piece in the even start"));
            }
            self.board[square as usize] = 0;
        }
        Ok(())
    }

    /// `P3-FU-FU * …`: one rank, file 9 first, cells `+XX`, `-XX` or ` * `.
    fn rank(&mut self, rank: u8, rest: &str) -> Result<(), String> {
        self.given = true;
        let chars: Vec<char> = rest.chars().collect();
        let mut cells = Vec::new();
        let mut index = 0;
        while index < chars.len() {
            match chars[index] {
                ' ' => index += 1,
                '*' => {
                    cells.push(0);
                    index += 1;
                }
                sign @ ('+' | '-') => {
                    let code: String = chars.iter().skip(index + 1).take(2).collect();
                    let kind_number =
                        kind_of_code(&code).ok_or(format!("'{code}' is not a CSA piece code"))?;
                    let side = if sign == '+' {
                        Side::First
                    } else {
                        Side::Second
                    };
                    cells.push(shogi::piece(side, kind_number));
                    index += 3;
                }
                other => return Err(format!("'{other}' is not a board cell")),
            }
        }
        if cells.len() != 9 {
            return Err(format!("rank {rank} has {} cells, not 9", cells.len()));
        }
        for (column, code) in cells.into_iter().enumerate() {
            self.board[square_of(9 - column as u8, rank) as usize] = code;
        }
        Ok(())
    }

    /// `P+00KI00FU`, `P-00AL`, `P+55KA`: pieces for one side, in hand (`00`) or on the board.
    fn pieces(&mut self, side: Side, rest: &str) -> Result<(), String> {
        self.given = true;
        let chars: Vec<char> = rest.chars().collect();
        if !chars.len().is_multiple_of(4) {
            return Err("pieces are 4 characters each (00FU)".to_string());
        }
        for group in chars.chunks(4) {
            let square: String = group[..2].iter().collect();
            let code: String = group[2..].iter().collect();
            let (square, code) = (square.as_str(), code.as_str());
            let group: String = group.iter().collect();
            if code == "AL" && square == "00" {
                self.all_remaining(side);
                continue;
            }
            let kind_number =
                kind_of_code(code).ok_or(format!("'{code}' is not a CSA piece code"))?;
            if square == "00" {
                if !(kind::PAWN..=kind::ROOK).contains(&kind_number) {
                    return Err(format!("{group}: only unpromoted pieces go in hand"));
                }
                let count = &mut self.hands[side.index()][kind_number as usize];
                *count = count.saturating_add(1);
            } else {
                let square = square_from(square).ok_or(format!("{group}: not a square"))?;
                self.board[square as usize] = shogi::piece(side, kind_number);
            }
        }
        Ok(())
    }

    /// `00AL`: every piece of a set not on the board nor in a hand goes to `side`'s hand.
    fn all_remaining(&mut self, side: Side) {
        for hand_kind in kind::PAWN..=kind::ROOK {
            let on_board = self
                .board
                .iter()
                .filter(|&&code| code != 0 && shogi::unpromoted(shogi::kind_of(code)) == hand_kind)
                .count() as u8;
            let in_hands = self.hands[0][hand_kind as usize] + self.hands[1][hand_kind as usize];
            let left =
                SET_COUNTS[hand_kind as usize].saturating_sub(on_board.saturating_add(in_hands));
            self.hands[side.index()][hand_kind as usize] += left;
        }
    }

    /// The position with `side` to move, checked by the rules engine.
    fn position(&self, side: Side) -> Result<ShogiPosition, String> {
        let mut placement = String::new();
        for rank in 1..=9u8 {
            if rank > 1 {
                placement.push('/');
            }
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let code = self.board[square_of(file, rank) as usize];
                if code == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    placement.push_str(&empty.to_string());
                    empty = 0;
                }
                placement.push_str(&shogi::piece_letter(code));
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
        }
        let mut hand = String::new();
        for who in [Side::First, Side::Second] {
            for hand_kind in shogi::HAND_KINDS {
                let count = self.hands[who.index()][hand_kind as usize];
                if count > 1 {
                    hand.push_str(&count.to_string());
                }
                if count > 0 {
                    let letter = shogi::hand_letter(hand_kind);
                    hand.push(if who == Side::First {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        let side = if side == Side::First { 'b' } else { 'w' };
        let number = self.moves_before.map_or(1, |moves| moves.saturating_add(1));
        ShogiPosition::from_sfen(&format!("{placement} {side} {hand} {number}"))
            .map_err(|error| format!("not a valid position: {error}"))
    }
}

/// What a `%` end word means for `game`; `None` when it is not one, `Some(None)` for an end
/// without a result (%CHUDAN, %FUZUMI, …).
fn special_outcome(word: &str, game: &Game) -> Option<Option<Outcome>> {
    let to_move = game.position().side_to_move();
    let on_board = game.outcome();
    Some(Some(match word {
        "%TORYO" => Outcome::win(to_move.opponent(), EndReason::Resignation),
        "%TSUMI" => on_board.unwrap_or(Outcome::win(to_move.opponent(), EndReason::Checkmate)),
        "%SENNICHITE" => on_board
            .filter(|o| {
                matches!(
                    o.reason(),
                    EndReason::Repetition | EndReason::PerpetualCheck
                )
            })
            .unwrap_or(Outcome::draw(EndReason::Repetition)),
        "%JISHOGI" => Outcome::draw(EndReason::Impasse),
        "%KACHI" => Outcome::win(to_move, EndReason::Impasse),
        "%TIME_UP" => Outcome::win(to_move.opponent(), EndReason::Timeout),
        "%HIKIWAKE" => Outcome::draw(EndReason::Agreement),
        "%MAX_MOVES" => Outcome::draw(EndReason::MoveLimit),
        "%ILLEGAL_MOVE" => Outcome::win(to_move.opponent(), EndReason::Foul),
        "%+ILLEGAL_ACTION" => Outcome::win(Side::Second, EndReason::Foul),
        "%-ILLEGAL_ACTION" => Outcome::win(Side::First, EndReason::Foul),
        "%CHUDAN" | "%FUZUMI" | "%MATTA" | "%ERROR" => return Some(None),
        _ => return None,
    }))
}

/// The `%` word for a result, given the side to move at the end.
fn outcome_special(outcome: Outcome, to_move: Side) -> Option<&'static str> {
    Some(match outcome {
        Outcome::Win { winner, reason, .. } => match reason {
            EndReason::Resignation if winner != to_move => "%TORYO",
            // The side not to move resigned: CSA has no word for it, and a foul by that
            // side at least keeps the winner (it reads back as a foul).
            EndReason::Resignation if winner == Side::First => "%-ILLEGAL_ACTION",
            EndReason::Resignation => "%+ILLEGAL_ACTION",
            EndReason::Foul if winner != to_move => "%ILLEGAL_MOVE",
            EndReason::Foul if winner == Side::First => "%-ILLEGAL_ACTION",
            EndReason::Foul => "%+ILLEGAL_ACTION",
            EndReason::Checkmate | EndReason::Stalemate => "%TSUMI",
            EndReason::Timeout => "%TIME_UP",
            EndReason::Impasse if winner == to_move => "%KACHI",
            EndReason::Impasse => "%ILLEGAL_MOVE",
            EndReason::PerpetualCheck | EndReason::Repetition => "%SENNICHITE",
            _ => return None,
        },
        Outcome::Draw { reason, .. } => match reason {
            EndReason::Repetition => "%SENNICHITE",
            EndReason::Impasse => "%JISHOGI",
            EndReason::Agreement => "%HIKIWAKE",
            EndReason::MoveLimit => "%MAX_MOVES",
            _ => return None,
        },
    })
}

/// Reads a CSA file (V2.2 or V3.0, UTF-8 or Shift_JIS). A bad statement returns an error
/// naming its line (and move number for a move), with the game read so far.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let text = kif::decode(bytes);
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut early_comments: Vec<String> = Vec::new();
    let mut setup = Setup::new();
    let mut record: Option<GameRecord> = None;
    // True right after a move, whose `T` line may follow; a `T` after `%TORYO` is the
    // time spent resigning, which no move keeps.
    let mut after_move = false;
    'lines: for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = raw.trim_end();
        if let Some(comment) = line.strip_prefix('\'') {
            if comment.starts_with("CSA encoding") || comment.starts_with("CSA Encoding") {
                continue;
            }
            let comment = comment.strip_prefix('*').unwrap_or(comment).to_string();
            let moves_before = comment
                .strip_prefix("手数＝")
                .and_then(|digits| digits.trim().parse::<u32>().ok());
            if let (None, Some(moves)) = (&record, moves_before) {
                setup.moves_before = Some(moves);
                continue;
            }
            match record.as_mut() {
                Some(current) => {
                    let ply = current.game.moves().len();
                    current.comments.push((ply, comment));
                }
                None => early_comments.push(comment),
            }
            continue;
        }
        for statement in line.split(',') {
            let statement = statement.trim();
            if statement.is_empty() {
                continue;
            }
            if statement == "/" {
                break 'lines;
            }
            let fail = |record: Option<&GameRecord>, reason: String, move_number: Option<usize>| {
                import_error(
                    file,
                    line_number,
                    move_number,
                    statement,
                    reason,
                    record.cloned(),
                )
            };
            let first = statement.chars().next().unwrap_or(' ');
            if let Some(current) = record.as_mut() {
                match first {
                    '+' | '-' if statement.len() > 1 => {
                        if let Err(reason) = read_move(current, statement) {
                            let number = current.game.moves().len() + 1;
                            return Err(fail(Some(current), reason, Some(number)));
                        }
                        after_move = true;
                        continue;
                    }
                    'T' => {
                        let Some(time) = times::parse_seconds(&statement[1..]) else {
                            let number = current.game.moves().len();
                            return Err(fail(
                                Some(current),
                                "not a move time (T12, T12.345)".to_string(),
                                Some(number.max(1)),
                            ));
                        };
                        if std::mem::take(&mut after_move) {
                            let ply = current.game.moves().len();
                            times::set(&mut current.move_times, ply, time);
                        }
                        continue;
                    }
                    '%' => {
                        after_move = false;
                        match special_outcome(statement, &current.game) {
                            Some(result) => {
                                if current.result.is_none() {
                                    if let Some(outcome) = result {
                                        current.game.declare(outcome);
                                    }
                                    current.result = result;
                                }
                            }
                            None => {
                                let number = current.game.moves().len() + 1;
                                return Err(fail(
                                    Some(current),
                                    "not a CSA end word".to_string(),
                                    Some(number),
                                ));
                            }
                        }
                        continue;
                    }
                    'N' | '$' | 'V' => {
                        // Fields after the moves (WCSC broadcasts add $END_TIME) are kept.
                        if let Some(field) = header_field(statement) {
                            current.headers.push(field);
                            continue;
                        }
                    }
                    _ => {}
                }
                return Err(fail(Some(current), "not a CSA move line".to_string(), None));
            }
            // Before the first move: information, position, side to move.
            if let Some(field) = header_field(statement) {
                headers.push(field);
                continue;
            }
            if statement.starts_with('V') {
                continue;
            }
            let result = if let Some(rest) = statement.strip_prefix("PI") {
                setup.initial(rest)
            } else if let Some(rest) = statement.strip_prefix("P+") {
                setup.pieces(Side::First, rest)
            } else if let Some(rest) = statement.strip_prefix("P-") {
                setup.pieces(Side::Second, rest)
            } else if let Some(rest) = statement.strip_prefix('P') {
                match rest.chars().next().and_then(|c| c.to_digit(10)) {
                    Some(rank @ 1..=9) => setup.rank(rank as u8, &rest[1..]),
                    _ => Err("not a CSA position line".to_string()),
                }
            } else if statement == "+" || statement == "-" {
                if !setup.given {
                    setup.initial("").ok();
                }
                let side = if statement == "+" {
                    Side::First
                } else {
                    Side::Second
                };
                let position = setup
                    .position(side)
                    .map_err(|reason| fail(None, reason, None))?;
                let mut fresh = GameRecord::new(Game::new(AnyPosition::Shogi(position)));
                fresh.headers = std::mem::take(&mut headers);
                fresh.comments = early_comments.drain(..).map(|c| (0, c)).collect();
                record = Some(fresh);
                Ok(())
            } else if first == '+' || first == '-' {
                Err("a move before the side to move (+ or -) line".to_string())
            } else if first == 'T' || first == '%' {
                Err("before the side to move (+ or -) line".to_string())
            } else {
                Err("not a CSA line".to_string())
            };
            result.map_err(|reason| fail(None, reason, None))?;
        }
    }
    match record {
        Some(record) => Ok(record),
        None => Err(ImportError {
            file: file.to_string(),
            line: None,
            move_number: None,
            text: String::new(),
            reason: "no side to move (+ or -) line: not a CSA record".to_string(),
            partial: None,
            game: None,
        }),
    }
}

/// `N+name`, `N-name`, `$KEY:value`.
fn header_field(statement: &str) -> Option<(String, String)> {
    if let Some(name) = statement.strip_prefix("N+") {
        return Some(("N+".to_string(), name.to_string()));
    }
    if let Some(name) = statement.strip_prefix("N-") {
        return Some(("N-".to_string(), name.to_string()));
    }
    if statement.starts_with('$') {
        let (key, value) = statement.split_once(':')?;
        return Some((key.to_string(), value.to_string()));
    }
    None
}

/// Reads `+7776FU` / `-0045KA` and plays it.
fn read_move(record: &mut GameRecord, statement: &str) -> Result<(), String> {
    let chars: Vec<char> = statement.chars().collect();
    if chars.len() != 7 || !chars[1..5].iter().all(|c| c.is_ascii_digit()) {
        return Err("a CSA move is a sign, 4 digits and a piece (+7776FU)".to_string());
    }
    let side = if chars[0] == '+' {
        Side::First
    } else {
        Side::Second
    };
    let AnyPosition::Shogi(position) = record.game.position() else {
        return Err("not a shogi game".to_string());
    };
    if side != position.side_to_move() {
        return Err(format!(
            "a {} move, but {} is to move",
            chars[0],
            if side == Side::First {
                "Gote (-)"
            } else {
                "Sente (+)"
            }
        ));
    }
    let origin: String = chars[1..3].iter().collect();
    let target: String = chars[3..5].iter().collect();
    let code: String = chars[5..].iter().collect();
    let named = kind_of_code(&code).ok_or(format!("'{code}' is not a CSA piece code"))?;
    let to = square_from(&target).ok_or("the destination is not on the board")?;
    let mv = if origin == "00" {
        if !(kind::PAWN..=kind::ROOK).contains(&named) {
            return Err("only an unpromoted piece can be dropped".to_string());
        }
        Move::drop(named, to)
    } else {
        let from = square_from(&origin).ok_or("the origin is not on the board")?;
        let piece = position.piece_at(from);
        if piece == 0 || shogi::owner(piece) != side {
            return Err(format!("no piece of the side to move on {origin}"));
        }
        let on_board = shogi::kind_of(piece);
        if named == on_board {
            Move::new(from, to)
        } else if shogi::promoted(on_board) == Some(named) {
            Move::promoting(from, to)
        } else {
            return Err(format!(
                "the piece on {origin} is {}, which cannot become {code}",
                CODES[on_board as usize]
            ));
        }
    };
    record
        .game
        .play(mv)
        .map_err(|why| why.describe().to_string())
}

/// CSA field names for the KIF and English (PGN-style) header keys qipan knows.
const CSA_NAMES: [(&str, &str); 15] = [
    ("先手", "N+"),
    ("下手", "N+"),
    ("後手", "N-"),
    ("上手", "N-"),
    ("棋戦", "$EVENT"),
    ("場所", "$SITE"),
    ("開始日時", "$START_TIME"),
    ("対局日", "$START_TIME"),
    ("終了日時", "$END_TIME"),
    ("戦型", "$OPENING"),
    ("Sente", "N+"),
    ("Gote", "N-"),
    ("Event", "$EVENT"),
    ("Site", "$SITE"),
    ("Date", "$START_TIME"),
];

/// Writes a record as CSA: V2.2 when the text is ASCII, else V3.0 with its
/// `'CSA encoding=UTF-8` line — V2.2 readers assume Shift_JIS, so UTF-8 names must be
/// declared.
pub fn write(record: &GameRecord) -> String {
    let text = write_version(record, "V2.2");
    if text.is_ascii() {
        text
    } else {
        write_v3(record)
    }
}

/// Writes a record as CSA V3.0 with its `'CSA encoding=UTF-8` declaration.
pub fn write_v3(record: &GameRecord) -> String {
    let mut out = String::from("'CSA encoding=UTF-8\n");
    out.push_str(&write_version(record, "V3.0"));
    out
}

fn write_version(record: &GameRecord, version: &str) -> String {
    let mut out = format!("{version}\n");
    let mut written: Vec<String> = Vec::new();
    // Names first, then the `$` fields, as the CSA standard orders them.
    let mut headers: Vec<&(String, String)> = record.headers.iter().collect();
    headers.sort_by_key(|(key, _)| {
        let csa_key = CSA_NAMES
            .iter()
            .find(|(kif, _)| kif == key)
            .map_or(key.as_str(), |(_, csa)| csa);
        !csa_key.starts_with('N')
    });
    for (key, value) in headers {
        let key = CSA_NAMES
            .iter()
            .find(|(kif, _)| kif == key)
            .map_or(key.as_str(), |(_, csa)| csa);
        let mut value = value.replace(['\n', '\r', ','], " ");
        if key.ends_with("_TIME") {
            value = super::kif::slash_date(&value);
        }
        let line = match key {
            "N+" | "N-" => format!("{key}{value}"),
            _ if key.starts_with('$') && !key.contains(':') => format!("{key}:{value}"),
            _ => continue,
        };
        // One line per field even when the record has it under two names (先手 and 下手,
        // Event and 棋戦).
        let field = if key.starts_with('$') {
            format!("{key}:")
        } else {
            key.to_string()
        };
        if written.iter().any(|w| w.starts_with(&field)) {
            continue;
        }
        written.push(line.clone());
        out.push_str(&line);
        out.push('\n');
    }
    let game = &record.game;
    let start = match game.start() {
        AnyPosition::Shogi(position) => position.clone(),
        _ => ShogiPosition::start(),
    };
    // The SFEN move number (`… 301`) is kept as a `'手数＝300` comment, as KIF keeps it.
    let number: u32 = start
        .sfen()
        .rsplit_once(' ')
        .and_then(|(_, number)| number.parse().ok())
        .unwrap_or(1);
    if number > 1 {
        out.push_str(&format!("'手数＝{}\n", number - 1));
    }
    write_position(&mut out, &start);
    write_comments(&mut out, &record.comments, 0);
    for (index, &mv) in game.moves().iter().enumerate() {
        let AnyPosition::Shogi(position) = &game.positions()[index] else {
            continue;
        };
        out.push(if position.side_to_move() == Side::First {
            '+'
        } else {
            '-'
        });
        let (to_file, to_rank) = file_rank_of(mv.to);
        let kind_after = if mv.is_drop() {
            out.push_str("00");
            mv.from
        } else {
            let (file, rank) = file_rank_of(mv.from);
            out.push_str(&format!("{file}{rank}"));
            let kind_now = shogi::kind_of(position.piece_at(mv.from));
            if mv.is_promotion() {
                shogi::promoted(kind_now).unwrap_or(kind_now)
            } else {
                kind_now
            }
        };
        out.push_str(&format!(
            "{to_file}{to_rank}{}\n",
            CODES.get(kind_after as usize).copied().unwrap_or("FU")
        ));
        if let Some(time) = record.move_time(index + 1) {
            // V2.2 counts whole seconds; V3.0 allows milliseconds.
            let seconds = if version == "V2.2" {
                time.as_secs().to_string()
            } else {
                times::format_seconds(time)
            };
            out.push_str(&format!("T{seconds}\n"));
        }
        write_comments(&mut out, &record.comments, index + 1);
    }
    if let Some(outcome) = record.result.or(game.outcome()) {
        if let Some(word) = outcome_special(outcome, game.position().side_to_move()) {
            out.push_str(word);
            out.push('\n');
        }
    }
    out
}

/// Comments as `'*` lines (the move-comment convention of ShogiGUI and tsshogi).
fn write_comments(out: &mut String, comments: &[(usize, String)], ply: usize) {
    for (_, text) in comments.iter().filter(|(at, _)| *at == ply) {
        for line in text.lines() {
            out.push_str("'*");
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// `PI…` when the start is the even start minus some pieces (every handicap), else the
/// nine ranks and the hands; then the side to move.
fn write_position(out: &mut String, position: &ShogiPosition) {
    let even = ShogiPosition::start();
    let no_hands = [Side::First, Side::Second].iter().all(|&side| {
        shogi::HAND_KINDS
            .iter()
            .all(|&k| position.hand_count(side, k) == 0)
    });
    let subset = (0..81u8).all(|square| {
        let piece = position.piece_at(square);
        piece == 0 || piece == even.piece_at(square)
    });
    if no_hands && subset {
        out.push_str("PI");
        for square in 0..81u8 {
            let piece = even.piece_at(square);
            if piece != 0 && position.piece_at(square) == 0 {
                let (file, rank) = file_rank_of(square);
                out.push_str(&format!(
                    "{file}{rank}{}",
                    CODES[shogi::kind_of(piece) as usize]
                ));
            }
        }
        out.push('\n');
    } else {
        for rank in 1..=9u8 {
            out.push_str(&format!("P{rank}"));
            for file in (1..=9u8).rev() {
                let piece = position.piece_at(square_of(file, rank));
                if piece == 0 {
                    out.push_str(" * ");
                } else {
                    out.push(if shogi::owner(piece) == Side::First {
                        '+'
                    } else {
                        '-'
                    });
                    out.push_str(CODES[shogi::kind_of(piece) as usize]);
                }
            }
            out.push('\n');
        }
        for (side, sign) in [(Side::First, '+'), (Side::Second, '-')] {
            let mut line = String::new();
            for hand_kind in shogi::HAND_KINDS {
                for _ in 0..position.hand_count(side, hand_kind) {
                    line.push_str("00");
                    line.push_str(CODES[hand_kind as usize]);
                }
            }
            if !line.is_empty() {
                out.push_str(&format!("P{sign}{line}\n"));
            }
        }
    }
    out.push(if position.side_to_move() == Side::First {
        '+'
    } else {
        '-'
    });
    out.push('\n');
}
