//! A game as the engine protocols write it, and a lone position:
//!
//! ```text
//! setoption name UCI_Variant value janggi
//! position fen rnba1abnr/4k4/… w - - 0 1 moves a4b4 e9e9
//! ```
//!
//! shogi: `position sfen … moves 7g7f 3c3d` (USI). A FEN file holds one position,
//! optionally after a variant name (`janggi rnba1abnr/…`). Without a variant the game is
//! guessed: the first rule set whose FEN reads and under which every move is legal
//! (xiangqi, then janggi, then shogi), since a 10-rank FEN can be either game.

use super::{GameRecord, ImportError};
use crate::rules::any::{AnyPosition, Variant};
use crate::rules::game::Game;
use crate::rules::janggi::JanggiRules;
use crate::rules::Position;

/// The final position of a game: FSF FEN, SFEN for shogi.
pub fn final_fen(game: &Game) -> String {
    fen_of(game.position())
}

fn fen_of(position: &AnyPosition) -> String {
    match position {
        AnyPosition::Shogi(shogi) => shogi.sfen(),
        other => other.fen(),
    }
}

/// The lines `qipan uci` (or `qipan usi` for shogi) reads to reach the game's position.
pub fn write(game: &Game) -> String {
    let start = game.start();
    let shogi = matches!(start, AnyPosition::Shogi(_));
    let mut out = String::new();
    if !shogi {
        out.push_str(&format!(
            "setoption name UCI_Variant value {}\n",
            game.variant().protocol_name()
        ));
    }
    out.push_str(if shogi {
        "position sfen "
    } else {
        "position fen "
    });
    out.push_str(&fen_of(start));
    if !game.moves().is_empty() {
        out.push_str(" moves");
        for (position, mv) in game.positions().iter().zip(game.moves()) {
            out.push(' ');
            out.push_str(&match position {
                AnyPosition::Shogi(p) => p.move_to_usi(*mv),
                other => other.move_to_uci(*mv),
            });
        }
    }
    out.push('\n');
    out
}

/// True when a 10-rank FEN has a king in a palace centre with the back-rank centre
/// empty, as every janggi start has (`…/4k4/…` and `RNBA1ABNR`): xiangqi and janggi
/// FENs use the same letters, and a lone position cannot be told apart by legality.
fn looks_like_janggi(fen: &str) -> bool {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return false;
    }
    let centre = |rank: &str| -> Option<char> {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(empty) = c.to_digit(10) {
                if (file..file + empty).contains(&4) {
                    return Some('1');
                }
                file += empty;
            } else if c != '+' {
                if file == 4 {
                    return Some(c);
                }
                file += 1;
            }
        }
        None
    };
    (centre(ranks[1]) == Some('k') && centre(ranks[0]) == Some('1'))
        || (centre(ranks[8]) == Some('K') && centre(ranks[9]) == Some('1'))
}

/// Reads a FEN file or `setoption` / `position` lines.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let content = super::text::decode(bytes, super::text::Legacy::Chinese);
    let error = |line: Option<usize>, text: &str, reason: String| {
        ImportError::new(file, line, text, reason)
    };
    let mut variant: Option<Variant> = None;
    let mut position_line: Option<(usize, String)> = None;
    for (index, line) in content.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "setoption" {
            if let Some(value) = words.iter().position(|w| *w == "value") {
                let name = words.get(value + 1).copied().unwrap_or("");
                if words.iter().any(|w| w.eq_ignore_ascii_case("UCI_Variant")) {
                    variant = Some(Variant::from_name(name).ok_or_else(|| {
                        error(Some(index + 1), name, format!("unknown variant {name:?}"))
                    })?);
                }
            }
            continue;
        }
        if position_line.is_some() {
            return Err(error(
                Some(index + 1),
                line,
                "only one position per file".to_string(),
            ));
        }
        position_line = Some((index + 1, line.to_string()));
    }
    let Some((line_number, line)) = position_line else {
        return Err(error(None, "", "no position in the file".to_string()));
    };
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words[0] == "position" {
        words.remove(0);
    } else if let Some(named) = Variant::from_name(words[0]) {
        variant = Some(named);
        words.remove(0);
    }
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (&words[..], &[][..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") => None,
        Some(&"fen") | Some(&"sfen") => Some(setup[1..].join(" ")),
        Some(_) => Some(setup.join(" ")),
        None => return Err(error(Some(line_number), &line, "no position".to_string())),
    };
    let candidates: Vec<Variant> = match variant {
        Some(v) => vec![v],
        None if fen.as_deref().is_some_and(looks_like_janggi) => vec![
            Variant::Janggi(JanggiRules::KJA),
            Variant::Xiangqi,
            Variant::Shogi,
        ],
        // Nine ranks is shogi's board: try it first, so that a bad SFEN is refused with
        // shogi's reason rather than "expected 10 ranks".
        None if fen.as_deref().is_some_and(|fen| {
            fen.split_whitespace()
                .next()
                .unwrap_or("")
                .matches('/')
                .count()
                == 8
        }) =>
        {
            vec![
                Variant::Shogi,
                Variant::Xiangqi,
                Variant::Janggi(JanggiRules::KJA),
            ]
        }
        None => vec![
            Variant::Xiangqi,
            Variant::Janggi(JanggiRules::KJA),
            Variant::Shogi,
        ],
    };
    let mut best: Option<ImportError> = None;
    for candidate in candidates {
        let start = match &fen {
            None => candidate.start(),
            Some(fen) => match candidate.position_from_outside(fen) {
                Ok(start) => start,
                Err(problem) => {
                    if best.is_none() {
                        best = Some(error(Some(line_number), fen, format!("bad FEN: {problem}")));
                    }
                    continue;
                }
            },
        };
        let mut record = GameRecord::new(Game::new(start));
        let mut failure = None;
        for (index, text) in moves.iter().enumerate() {
            let position = record.game.position().clone();
            let parsed = match &position {
                AnyPosition::Shogi(p) => p.parse_usi(text).or_else(|| p.parse_uci(text)),
                other => other.parse_uci(text),
            };
            let played = match parsed {
                Some(mv) => record.game.play(mv).map_err(|e| e.describe().to_string()),
                None => Err("not a move in engine coordinates".to_string()),
            };
            if let Err(reason) = played {
                failure = Some((index, text.to_string(), reason));
                break;
            }
        }
        match failure {
            None => return Ok(record),
            Some((index, text, reason)) => {
                let moved = index;
                if best.as_ref().is_none_or(|b| {
                    b.partial
                        .as_ref()
                        .is_none_or(|p| p.game.moves().len() < moved)
                }) {
                    best = Some(ImportError {
                        file: file.to_string(),
                        line: Some(line_number),
                        move_number: Some(index + 1),
                        text,
                        reason,
                        partial: Some(Box::new(record)),
                        game: None,
                    });
                }
            }
        }
    }
    Err(best.unwrap_or_else(|| error(Some(line_number), &line, "not a position".to_string())))
}
