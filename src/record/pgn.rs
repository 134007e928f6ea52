//! PGN for xiangqi and janggi (and gungjanggi): the xqbase dialect (`[Game "Chinese
//! Chess"]`, `[Format "ICCS"|"WXF"|"Chinese"]`), pychess-variants' (`[Variant "Janggi"]`,
//! Fairy-Stockfish SAN) and qipan's own (`[Variant "<qipan id>"]`, Korean coordinates for
//! janggi). FORMATS.md §2.6 and §4.3.
//!
//! Reading takes tag pairs, `FEN`, `Variant`/`Game`, movetext in any notation of the
//! game (the `Format` tag's first, then detected per move), `{…}` and `;` comments (a
//! `[%emt 0:00:05]` command in one is the move's time, [`GameRecord::move_times`]), NAGs
//! (`$1`…, and `!`, `?`, `!!`, `??`, `!?`, `?!` after a move) and `( … )` variations,
//! nested, into [`GameRecord::tree`]. Writing puts the whole tree back the same way.
//! Only the first game of a file is read.

use super::text::{self, decode, Legacy, MoveReader};
use super::{times, GameRecord, ImportError};
use crate::rules::any::{AnyPosition, GameKind, Variant};
use crate::rules::game::Game;
use crate::rules::notation::{format_move, Notation};
use crate::rules::{EndReason, Position, Side};
use crate::tree::{nag_of_mark, GameTree, NodeId};

/// Tags the writer produces itself; others are copied from the record's headers.
const OWN_TAGS: [&str; 8] = [
    "Game",
    "Variant",
    "FEN",
    "SetUp",
    "Format",
    "Result",
    "PlyCount",
    JUDGING_TAG,
];

/// Gungjanggi: the ply at which an accepted draw offer started the judging phase
/// (rule 8), which no move shows. A qipan extension, like the autosave's `judging`.
const JUDGING_TAG: &str = "JudgingPly";

/// The first ply whose position is in the gungjanggi judging phase, if any.
fn judging_ply(game: &Game) -> Option<usize> {
    game.positions().iter().position(is_judging)
}

fn is_judging(position: &AnyPosition) -> bool {
    matches!(position, AnyPosition::Janggi(janggi) if janggi.gungjanggi_state().judging)
}

/// Starts the judging phase at `ply` when the moves have not started it themselves.
fn start_judging_at(game: &mut Game, ply: Option<usize>) {
    if ply == Some(game.moves().len())
        && game.variant().is_gungjanggi()
        && !is_judging(game.position())
    {
        game.accept_draw();
    }
}

/// One piece of a PGN file, with the line it starts on.
#[derive(Debug)]
enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
    /// `$n`, or a mark (`!?`) written alone or after a move.
    Nag(u8),
    /// `(`: a variation replacing the last move begins.
    Open,
    /// `)`: the variation ends.
    Close,
}

/// How deep variations may nest (deeper ones are refused, not read without end).
const MOST_NESTING: usize = 64;

/// Splits a move word's trailing mark (`h2e2!?`) off: the move and the mark's NAG.
fn split_mark(word: &str) -> (&str, Option<u8>) {
    let cut = word.trim_end_matches(['!', '?']);
    match nag_of_mark(&word[cut.len()..]) {
        Some(nag) if !cut.is_empty() => (cut, Some(nag)),
        _ => (word, None),
    }
}

/// Splits PGN text into tags, comments, words, NAGs and variation brackets.
fn tokenize(text: &str, file: &str) -> Result<Vec<(usize, Token)>, ImportError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut index = 0;
    let mut line = 1;
    let mut depth = 0usize;
    let mut line_start = true;
    let error = |line: usize, text: String, reason: &str| ImportError {
        file: file.to_string(),
        line: Some(line),
        move_number: None,
        text,
        reason: reason.to_string(),
        partial: None,
        game: None,
    };
    while index < chars.len() {
        let c = chars[index];
        if c == '\n' {
            line += 1;
            line_start = true;
            index += 1;
            continue;
        }
        if c.is_whitespace() {
            index += 1;
            continue;
        }
        let at_line_start = line_start;
        line_start = false;
        match c {
            '%' if at_line_start => {
                while index < chars.len() && chars[index] != '\n' {
                    index += 1;
                }
            }
            '{' => {
                let start_line = line;
                let mut end = index + 1;
                while end < chars.len() && chars[end] != '}' {
                    if chars[end] == '\n' {
                        line += 1;
                    }
                    end += 1;
                }
                if end == chars.len() {
                    return Err(error(
                        start_line,
                        "{".to_string(),
                        "comment is never closed",
                    ));
                }
                let body: String = chars[index + 1..end].iter().collect();
                let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
                tokens.push((start_line, Token::Comment(body)));
                index = end + 1;
            }
            ';' => {
                let mut end = index + 1;
                while end < chars.len() && chars[end] != '\n' {
                    end += 1;
                }
                let body: String = chars[index + 1..end].iter().collect();
                tokens.push((line, Token::Comment(body.trim().to_string())));
                index = end;
            }
            '(' => {
                depth += 1;
                if depth > MOST_NESTING {
                    return Err(error(line, "(".to_string(), "variations nest too deep"));
                }
                tokens.push((line, Token::Open));
                index += 1;
            }
            ')' => {
                // A stray `)` closes nothing and is dropped.
                if depth > 0 {
                    tokens.push((line, Token::Close));
                }
                depth = depth.saturating_sub(1);
                index += 1;
            }
            '[' if depth == 0 => {
                let mut end = index + 1;
                let mut in_string = false;
                while end < chars.len() && chars[end] != '\n' {
                    match chars[end] {
                        '\\' if in_string => end += 1,
                        '"' => in_string = !in_string,
                        ']' if !in_string => break,
                        _ => {}
                    }
                    end += 1;
                }
                let raw: String = chars[index..end.min(chars.len())].iter().collect();
                if end >= chars.len() || chars[end] != ']' {
                    return Err(error(line, raw, "tag pair is not closed with ]"));
                }
                let (name, value) = parse_tag(&raw[1..]).ok_or_else(|| {
                    error(line, raw.clone() + "]", "not a tag pair [Name \"value\"]")
                })?;
                tokens.push((line, Token::Tag(name, value)));
                index = end + 1;
            }
            _ => {
                let mut end = index;
                while end < chars.len()
                    && !chars[end].is_whitespace()
                    && !"{};()[".contains(chars[end])
                {
                    end += 1;
                }
                if end == index {
                    // A stray `]` or `[` inside a variation.
                    index += 1;
                    continue;
                }
                let word: String = chars[index..end].iter().collect();
                if let Some(number) = word.strip_prefix('$') {
                    if let Ok(nag) = number.parse::<u8>() {
                        tokens.push((line, Token::Nag(nag)));
                    }
                } else if let Some(nag) = nag_of_mark(&word) {
                    tokens.push((line, Token::Nag(nag)));
                } else {
                    let (mv, mark) = split_mark(&word);
                    tokens.push((line, Token::Word(mv.to_string())));
                    if let Some(nag) = mark {
                        tokens.push((line, Token::Nag(nag)));
                    }
                }
                index = end;
            }
        }
    }
    Ok(tokens)
}

/// `Name "value"` (without the brackets) with `\"` and `\\` escapes.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let inner = inner.trim();
    let name_end = inner.find(|c: char| c.is_whitespace() || c == '"')?;
    let name = &inner[..name_end];
    if name.is_empty() {
        return None;
    }
    let rest = inner[name_end..].trim();
    let rest = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    for c in rest.chars() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// The variant a file names in its `Variant` or `Game` tag.
fn variant_from_tags(tags: &[(String, String)]) -> Result<Option<Variant>, String> {
    let find = |name: &str| {
        tags.iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim())
    };
    if let Some(name) = find("Variant") {
        return match Variant::from_name(name) {
            Some(variant) => Ok(Some(variant)),
            None => match name.to_ascii_lowercase().as_str() {
                "chinese chess" | "chinese" => Ok(Some(Variant::Xiangqi)),
                _ => Err(format!("unknown variant {name:?}")),
            },
        };
    }
    if let Some(game) = find("Game") {
        let lower = game.to_ascii_lowercase();
        if lower.contains("chinese") || lower.contains("xiangqi") || game.contains("象棋") {
            return Ok(Some(Variant::Xiangqi));
        }
        if lower.contains("janggi") || lower.contains("korean") || game.contains("장기") {
            return Ok(Some(Variant::Janggi(
                crate::rules::janggi::JanggiRules::KJA,
            )));
        }
        if lower.contains("shogi") || game.contains("将棋") {
            return Ok(Some(Variant::Shogi));
        }
    }
    Ok(None)
}

/// The notation a `Format` tag names, if qipan knows it.
fn notation_from_format(format: &str) -> Option<Notation> {
    match format.trim().to_ascii_lowercase().as_str() {
        "iccs" => Some(Notation::Iccs),
        "wxf" => Some(Notation::Wxf),
        "chinese" => Some(Notation::Chinese { simplified: true }),
        "korean" => Some(Notation::Korean { hangul: true }),
        "uci" | "engine" => Some(Notation::Engine),
        _ => None,
    }
}

/// A notation named on the command line (`iccs`, `wxf`, `chinese`,
/// `chinese-traditional`, `korean`, `korean-hanja`, `uci`), or as a `Format` tag.
pub fn notation_from_name(name: &str) -> Option<Notation> {
    match name.trim().to_ascii_lowercase().as_str() {
        "chinese-traditional" | "traditional" => Some(Notation::Chinese { simplified: false }),
        "korean-hanja" | "hanja" => Some(Notation::Korean { hangul: false }),
        other => notation_from_format(other),
    }
}

/// The name the `Format` tag gives a notation.
fn format_name(notation: Notation) -> &'static str {
    match notation {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese { .. } => "Chinese",
        Notation::Korean { .. } => "Korean",
        Notation::Japanese => "Japanese",
        Notation::Hodges => "Hodges",
        Notation::Usi => "USI",
        Notation::Engine => "UCI",
    }
}

fn is_move_number(word: &str) -> bool {
    // `1. ... h9g7`: the dots that stand for Red's move when Black moves first.
    if !word.is_empty() && word.chars().all(|c| c == '.' || c == '…') {
        return true;
    }
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `12.h2e2` (no space after the number: invalid PGN, but common) without the number.
fn strip_move_number(word: &str) -> &str {
    let digits_end = word
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(word.len());
    if digits_end > 0 && word[digits_end..].starts_with('.') {
        word[digits_end..].trim_start_matches('.')
    } else {
        word
    }
}

/// A FEN tag with its side field as Chinese databases write it, made plain: `-b` and
/// `- r` (a dash before the side) become `b` and `r` (`r` is read as Red).
fn fen_side_dialects(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if let Some(side) = fields.get(1).and_then(|f| f.strip_prefix('-')) {
        if matches!(side, "w" | "r" | "b") {
            fields[1] = side;
        } else if side.is_empty() && matches!(fields.get(2), Some(&("w" | "r" | "b"))) {
            fields.remove(1);
        }
    }
    fields.join(" ")
}

/// A result token's winner: `Some(None)` for a draw, `Some(Some(side))` for a win.
fn result_of(word: &str) -> Option<Option<Option<Side>>> {
    match word {
        "1-0" => Some(Some(Some(Side::First))),
        "0-1" => Some(Some(Some(Side::Second))),
        "1/2-1/2" | "½-½" => Some(Some(None)),
        "*" => Some(None),
        _ => None,
    }
}

/// The reason a `Termination` tag gives, when qipan knows it.
fn termination_reason(tags: &[(String, String)]) -> Option<EndReason> {
    let value = tags
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("Termination"))?
        .1
        .to_ascii_lowercase();
    if value.contains("time") {
        Some(EndReason::Timeout)
    } else if value.contains("resign") {
        Some(EndReason::Resignation)
    } else if value.contains("agree") {
        Some(EndReason::Agreement)
    } else if ["infraction", "illegal", "foul"]
        .iter()
        .any(|word| value.contains(word))
    {
        Some(EndReason::Foul)
    } else {
        None
    }
}

/// Guesses the game from movetext and FEN when no tag names it: Hangul or janggi
/// coordinates mean janggi, anything else xiangqi.
fn sniff_variant(words: &[&str], fen: Option<&str>) -> Variant {
    let janggi = Variant::Janggi(crate::rules::janggi::JanggiRules::KJA);
    let hangul = |c: char| ('\u{AC00}'..='\u{D7A3}').contains(&c);
    if words.iter().any(|w| w.chars().any(hangul)) {
        return janggi;
    }
    // Korean coordinates in hanja: `79卒78`.
    if words.iter().any(|w| {
        let digits = w.chars().filter(char::is_ascii_digit).count();
        digits == 4
            && w.chars().any(|c| "卒兵馬象車包士將楚漢".contains(c))
            && w.starts_with(|c: char| c.is_ascii_digit())
    }) {
        return janggi;
    }
    if let Some(fen) = fen {
        if janggi.position_from_fen(fen).is_ok() && Variant::Xiangqi.position_from_fen(fen).is_err()
        {
            return janggi;
        }
    }
    Variant::Xiangqi
}

/// Reads the first game of a PGN file (UTF-8, or GBK / CP949 sniffed).
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let korean_hint = bytes.windows(6).any(|w| w.eq_ignore_ascii_case(b"janggi"));
    let content = decode(
        bytes,
        if korean_hint {
            Legacy::Korean
        } else {
            Legacy::Chinese
        },
    );
    if super::dhtmlxq::is_dhtmlxq(&content) {
        return super::dhtmlxq::read(&content, file);
    }
    let tokens = tokenize(&content, file)?;
    let fail = |line: Option<usize>, text: &str, reason: String| {
        ImportError::new(file, line, text, reason)
    };

    // Header: tags until the first movetext token.
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut tag_lines: Vec<usize> = Vec::new();
    let mut body_start = tokens.len();
    for (position, (line, token)) in tokens.iter().enumerate() {
        match token {
            Token::Tag(name, value) => {
                headers.push((name.clone(), value.clone()));
                tag_lines.push(*line);
            }
            _ => {
                body_start = position;
                break;
            }
        }
    }
    let tag_line = |name: &str| {
        headers
            .iter()
            .position(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|index| tag_lines[index])
    };
    let fen = headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("FEN"))
        .map(|(_, value)| fen_side_dialects(value.trim()));
    let words: Vec<&str> = tokens[body_start..]
        .iter()
        .filter_map(|(_, token)| match token {
            Token::Word(word) => Some(word.as_str()),
            _ => None,
        })
        .collect();
    // The game ends at the next game's tags.
    let body_end = tokens[body_start..]
        .iter()
        .position(|(_, token)| matches!(token, Token::Tag(..)))
        .map_or(tokens.len(), |index| body_start + index);
    let variant = match variant_from_tags(&headers) {
        Ok(Some(variant)) => variant,
        Ok(None) => sniff_variant(&words, fen.as_deref()),
        Err(reason) => {
            let line = tag_line("Variant");
            let text = headers
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case("Variant"))
                .map_or(String::new(), |(_, value)| value.clone());
            return Err(fail(line, &text, reason));
        }
    };
    let start = match &fen {
        Some(fen) if !fen.is_empty() => variant
            .position_from_outside(fen)
            .map_err(|error| fail(tag_line("FEN"), fen, format!("bad FEN: {error}")))?,
        _ => variant.start(),
    };
    let mut reader = MoveReader {
        declared: headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case("Format"))
            .and_then(|(_, value)| notation_from_format(value)),
        ranks: None,
    };
    let judging_from: Option<usize> = headers
        .iter()
        .find(|(key, _)| key == JUDGING_TAG)
        .and_then(|(_, value)| value.trim().parse().ok());
    if start.game() == GameKind::Xiangqi {
        reader.settle_ranks(
            words
                .iter()
                .filter(|w| result_of(w).is_none() && !is_move_number(w))
                .map(|w| strip_move_number(w)),
        );
    }
    log::debug!(
        target: "record",
        "{file}: PGN of {}, notation {:?} by the Format tag (else per move), coordinates {:?}",
        variant.id(),
        reader.declared,
        reader.ranks
    );
    let mut record = GameRecord::new(Game::new(start));
    record.headers = headers;
    let first_moves_second = record.game.start().side_to_move() == Side::Second;
    let mut stated: Option<Option<Option<Side>>> = None;
    // The tree: the main line's tip, and the variations open around it.
    let mut tree = GameTree::new(record.game.start().clone());
    let mut main_at = NodeId::ROOT;
    let mut branches: Vec<Branch> = Vec::new();
    for (line, token) in &tokens[body_start..body_end] {
        if !branches.is_empty() || matches!(token, Token::Open) {
            let read = read_variation_token(
                &mut tree,
                &mut branches,
                main_at,
                &record.game,
                token,
                &mut reader,
            );
            if let Err(reason) = read {
                let text = match token {
                    Token::Word(word) => word.clone(),
                    _ => String::new(),
                };
                return Err(ImportError {
                    file: file.to_string(),
                    line: Some(*line),
                    move_number: None,
                    text,
                    reason: format!("in a variation: {reason}"),
                    partial: Some(Box::new(record)),
                    game: None,
                });
            }
            continue;
        }
        match token {
            Token::Tag(..) | Token::Open | Token::Close => break,
            Token::Nag(nag) => tree.annotation_mut(main_at).nags.push(*nag),
            Token::Comment(body) => {
                let ply = record.game.moves().len();
                // Before the first move no move took the time: the text stays as it is.
                let (time, body) = match ply {
                    0 => (None, body.clone()),
                    _ => times::take_emt(body),
                };
                if let Some(time) = time {
                    times::set(&mut record.move_times, ply, time);
                    tree.annotation_mut(main_at).time = Some(time);
                }
                if !body.is_empty() {
                    tree.annotation_mut(main_at).comments.push(body.clone());
                    record.comments.push((ply, body));
                }
            }
            Token::Word(word) => {
                if let Some(result) = result_of(word) {
                    stated = Some(result);
                    break;
                }
                if is_move_number(word) {
                    continue;
                }
                // `1.h2e2` (no space) is invalid PGN but common.
                let mv_text = strip_move_number(word);
                start_judging_at(&mut record.game, judging_from);
                let ply = record.game.moves().len();
                let move_number = (ply + usize::from(first_moves_second)) / 2 + 1;
                let position = record.game.position().clone();
                let played = reader
                    .read(&position, mv_text)
                    .and_then(|mv| record.game.play(mv).map_err(|e| e.describe().to_string()));
                if let Err(reason) = played {
                    return Err(ImportError {
                        file: file.to_string(),
                        line: Some(*line),
                        move_number: Some(move_number),
                        text: mv_text.to_string(),
                        reason,
                        partial: Some(Box::new(record)),
                        game: None,
                    });
                }
                let mv = *record.game.moves().last().expect("just played");
                main_at = tree.add_move(main_at, mv).0;
            }
        }
    }
    record.tree = tree;
    start_judging_at(&mut record.game, judging_from);
    if let Some(Some(winner)) = stated {
        record.result = Some(text::stated_outcome(
            winner,
            record.game.outcome(),
            termination_reason(&record.headers),
        ));
    }
    Ok(record)
}

/// A variation being read: where its next move attaches, the game there, and its last
/// move (the node before it and the game before it), which a nested `(` replaces.
struct Branch {
    at: NodeId,
    game: Game,
    last: Option<(NodeId, Game)>,
}

/// Reads one token inside a variation (or the `(` that opens one from the main line,
/// whose tip is `main_at` after the game `main`).
fn read_variation_token(
    tree: &mut GameTree,
    branches: &mut Vec<Branch>,
    main_at: NodeId,
    main: &Game,
    token: &Token,
    reader: &mut MoveReader,
) -> Result<(), String> {
    match token {
        Token::Open => {
            let last = match branches.last() {
                Some(branch) => branch.last.clone(),
                None => tree.node(main_at).parent().map(|parent| {
                    let mut before = main.clone();
                    before.undo();
                    (parent, before)
                }),
            };
            let (at, game) = last.ok_or("a variation with no move before it to replace")?;
            branches.push(Branch {
                at,
                game,
                last: None,
            });
        }
        Token::Close => {
            branches.pop();
        }
        Token::Tag(..) => {}
        Token::Nag(nag) => {
            if let Some(branch) = branches.last() {
                tree.annotation_mut(branch.at).nags.push(*nag);
            }
        }
        Token::Comment(body) => {
            let Some(branch) = branches.last() else {
                return Ok(());
            };
            let at = branch.at;
            let (time, body) = match branch.last {
                Some(_) => times::take_emt(body),
                None => (None, body.clone()),
            };
            let annotation = tree.annotation_mut(at);
            if let Some(time) = time {
                annotation.time = Some(time);
            }
            if !body.is_empty() {
                annotation.comments.push(body);
            }
        }
        Token::Word(word) => {
            let Some(branch) = branches.last_mut() else {
                return Ok(());
            };
            if result_of(word).is_some() || is_move_number(word) {
                return Ok(());
            }
            let text = strip_move_number(word);
            let position = branch.game.position().clone();
            let mv = reader.read(&position, text)?;
            let before = branch.game.clone();
            branch
                .game
                .play(mv)
                .map_err(|e| format!("{text}: {}", e.describe()))?;
            let (child, _) = tree.add_move(branch.at, mv);
            branch.last = Some((branch.at, before));
            branch.at = child;
        }
    }
    Ok(())
}

/// The notation qipan writes by default: ICCS for xiangqi (FORMATS.md §2.6), Korean
/// coordinates in Hangul for janggi (§6.5).
pub fn default_notation(variant: Variant) -> Notation {
    match variant.kind() {
        GameKind::Janggi => Notation::Korean { hangul: true },
        GameKind::Xiangqi => Notation::Iccs,
        GameKind::Shogi => Notation::Usi,
    }
}

/// The PGN tag of a header another format named: .gib's Korean keys (`초대국자`,
/// `대국일자` …) and KIF's become `Cho`, `Date` … with PGN's `YYYY.MM.DD` dates, so PGN
/// readers that take only ASCII tag names (python-chess, pychess-variants) read them.
fn pgn_tag<'a>(name: &'a str, value: &str) -> (&'a str, String) {
    const TAGS: [(&str, &str); 15] = [
        ("대회명", "Event"),
        ("대국장소", "Site"),
        ("대국일자", "Date"),
        ("회전", "Round"),
        ("초대국자", "Cho"),
        ("한대국자", "Han"),
        ("총수", "PlyCount"),
        ("초차림", "ChoSetup"),
        ("한차림", "HanSetup"),
        ("棋戦", "Event"),
        ("場所", "Site"),
        ("開始日時", "Date"),
        ("先手", "Sente"),
        ("後手", "Gote"),
        ("$EVENT", "Event"),
    ];
    let tag = TAGS
        .iter()
        .find(|(other, _)| *other == name)
        .map_or(name, |(_, tag)| tag);
    if tag != "Date" {
        return (tag, value.to_string());
    }
    // 2016-12-06, 2016/12/06 10:00:00 → 2016.12.06
    let date: String = value.chars().take(10).collect();
    let bytes = date.as_bytes();
    let dated = bytes.len() == 10
        && matches!(bytes[4], b'-' | b'/' | b'.')
        && bytes[7] == bytes[4]
        && date
            .chars()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit() || c == '?');
    if dated {
        (tag, date.replace(['-', '/'], "."))
    } else {
        (tag, value.to_string())
    }
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// What the movetext writer does next (an explicit stack, so deep variations never
/// recurse).
enum Step {
    /// The continuation after this node: its main move, its variations, then on.
    Continue {
        at: NodeId,
        position: AnyPosition,
        ply: usize,
        numbered: bool,
    },
    /// A variation: `(`, its first move (numbered), then its continuation and `)`.
    Variation {
        id: NodeId,
        position: AnyPosition,
        ply: usize,
    },
    /// `)`.
    Close,
}

/// A move's words: `12.` or `12...` when asked or when the first player moves, the move,
/// its NAGs, its time (`{[%emt 0:00:05]}`) and its comments.
fn move_words(
    tree: &GameTree,
    id: NodeId,
    position: &mut AnyPosition,
    ply: usize,
    numbered: bool,
    notation: Notation,
    words: &mut Vec<String>,
) {
    let Some(mv) = tree.move_of(id) else { return };
    let first_moves_second = tree.start().side_to_move() == Side::Second;
    let number = (ply + usize::from(first_moves_second)) / 2 + 1;
    let written = format_move(position, mv, notation);
    if position.side_to_move() == Side::First {
        words.push(format!("{number}. {written}"));
    } else if numbered {
        words.push(format!("{number}... {written}"));
    } else {
        words.push(written);
    }
    position.play_unchecked(mv);
    annotation_words(&tree.node(id).annotation, words);
}

fn annotation_words(annotation: &crate::tree::Annotation, words: &mut Vec<String>) {
    words.extend(annotation.nags.iter().map(|nag| format!("${nag}")));
    if let Some(time) = annotation.time {
        words.push(format!("{{[%emt {}]}}", times::format_clock(time)));
    }
    for body in &annotation.comments {
        words.push(format!("{{{}}}", body.replace('}', ")")));
    }
}

/// The movetext of a whole tree (without the result): the main line with each
/// variation in `( … )` right after the move it replaces.
fn movetext_words(tree: &GameTree, notation: Notation) -> Vec<String> {
    let mut words = Vec::new();
    let root = &tree.node(NodeId::ROOT).annotation;
    for body in &root.comments {
        words.push(format!("{{{}}}", body.replace('}', ")")));
    }
    let mut steps = vec![Step::Continue {
        at: NodeId::ROOT,
        position: tree.start().clone(),
        ply: 0,
        numbered: true,
    }];
    while let Some(step) = steps.pop() {
        match step {
            Step::Close => words.push(")".to_string()),
            Step::Variation {
                id,
                mut position,
                ply,
            } => {
                words.push("(".to_string());
                move_words(tree, id, &mut position, ply, true, notation, &mut words);
                steps.push(Step::Close);
                steps.push(Step::Continue {
                    at: id,
                    position,
                    ply: ply + 1,
                    numbered: !tree.node(id).annotation.is_empty(),
                });
            }
            Step::Continue {
                at,
                position,
                ply,
                numbered,
            } => {
                let children = tree.children(at);
                let Some(&main) = children.first() else {
                    continue;
                };
                let mut after = position.clone();
                move_words(tree, main, &mut after, ply, numbered, notation, &mut words);
                // After a comment or a variation, the next move says its number again.
                steps.push(Step::Continue {
                    at: main,
                    position: after,
                    ply: ply + 1,
                    numbered: children.len() > 1 || !tree.node(main).annotation.is_empty(),
                });
                for &alternative in children[1..].iter().rev() {
                    steps.push(Step::Variation {
                        id: alternative,
                        position: position.clone(),
                        ply,
                    });
                }
            }
        }
    }
    words
}

/// Writes a record as PGN (UTF-8) with moves in `notation` (a notation of another game
/// falls back to the engine's coordinates).
pub fn write(record: &GameRecord, notation: Notation) -> String {
    let game = &record.game;
    let variant = game.variant();
    let notation = if Notation::for_game(variant.kind()).contains(&notation) {
        notation
    } else {
        Notation::Engine
    };
    let mut out = String::new();
    let game_name = match variant.kind() {
        GameKind::Xiangqi => "Chinese Chess",
        GameKind::Janggi => "Janggi",
        GameKind::Shogi => "Shogi",
    };
    out.push_str(&format!("[Game \"{game_name}\"]\n"));
    out.push_str(&format!("[Variant \"{}\"]\n", variant.id()));
    let mut written: Vec<&str> = Vec::new();
    // Header names no PGN tag can carry (only ASCII letters, digits and `_` are safe in
    // every reader) go into a comment before the first move, so nothing is lost.
    let mut untagged: Vec<String> = Vec::new();
    for (name, value) in &record.headers {
        let (name, value) = pgn_tag(name, value);
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain && !name.is_empty() && !value.is_empty() {
            untagged.push(format!("{name}: {value}").replace(['{', '}'], ""));
        }
        if plain
            && !OWN_TAGS.iter().any(|own| own.eq_ignore_ascii_case(name))
            && !written.contains(&name)
        {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
            written.push(name);
        }
    }
    let outcome = record.result.or_else(|| game.outcome());
    out.push_str(&format!("[Result \"{}\"]\n", text::result_token(outcome)));
    // A loss off the board that the result alone would read back as a resignation.
    let has_termination = record
        .headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("Termination"));
    let termination = match outcome.map(|o| o.reason()) {
        Some(EndReason::Timeout) => Some("time forfeit"),
        Some(EndReason::Foul) => Some("rules infraction"),
        _ => None,
    };
    if let (Some(termination), false) = (termination, has_termination) {
        out.push_str(&format!("[Termination \"{termination}\"]\n"));
    }
    let start_fen = game.start().fen();
    if start_fen != variant.start().fen() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", escape(&start_fen)));
    }
    out.push_str(&format!("[Format \"{}\"]\n", format_name(notation)));
    if let Some(ply) = judging_ply(game) {
        out.push_str(&format!("[{JUDGING_TAG} \"{ply}\"]\n"));
    }
    out.push('\n');

    let tree = record.full_tree();
    let mut words = movetext_words(&tree, notation);
    if !untagged.is_empty() {
        words.insert(0, format!("{{{}}}", untagged.join("; ")));
    }
    words.push(text::result_token(outcome).to_string());
    let mut line_length = 0;
    for word in words {
        let width = word.chars().count();
        if line_length > 0 && line_length + 1 + width > 79 {
            out.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            out.push(' ');
            line_length += 1;
        }
        out.push_str(&word);
        line_length += width;
    }
    out.push('\n');
    out
}
