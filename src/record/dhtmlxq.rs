//! DhtmlXQ, the xiangqi record embedded in web pages (东萍 dpxq.com, wxf.ca viewers) and
//! pasted from them (FORMATS.md §2.7):
//!
//! ```text
//! [DhtmlXQ]
//! [DhtmlXQ_title]…[/DhtmlXQ_title]
//! [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
//! [DhtmlXQ_movelist]7747706279678070897910227973[/DhtmlXQ_movelist]
//! [/DhtmlXQ]
//! ```
//!
//! Points are two digits `xy`: x the file from the left (Red's view), y the row from the
//! top (Black's back rank is 0). `binit` places the 32 pieces in the order
//! 车马相仕帅仕相马车炮炮兵兵兵兵兵 for Red, then Black's, `99` for a piece off the board
//! (an empty `binit` is the usual start); `movelist` is four digits a move. The file
//! does not say who moves first: the piece on the first move's start does. Comments
//! `_comment<N>` follow move N (0: before the first). Variations (`_move_…`) are skipped.

use super::{text, GameRecord, ImportError};
use crate::rules::any::Variant;
use crate::rules::game::Game;
use crate::rules::Side;

/// The FEN letters of a side's 16 pieces in `binit` order (Red; Black's are lower case).
const PIECE_ORDER: [char; 16] = [
    'R', 'N', 'B', 'A', 'K', 'A', 'B', 'N', 'R', 'C', 'C', 'P', 'P', 'P', 'P', 'P',
];

/// True when a text holds a DhtmlXQ block.
pub fn is_dhtmlxq(content: &str) -> bool {
    content.contains("[DhtmlXQ")
}

/// The value of `[DhtmlXQ_<name>]…[/DhtmlXQ_<name>]`, with the line it starts on.
fn field<'a>(content: &'a str, name: &str) -> Option<(&'a str, usize)> {
    let open = format!("[DhtmlXQ_{name}]");
    let close = format!("[/DhtmlXQ_{name}]");
    let start = content.find(&open)? + open.len();
    let end = start + content[start..].find(&close)?;
    let line = content[..start].matches('\n').count() + 1;
    Some((&content[start..end], line))
}

/// A point `xy` (file from the left, row from the top) as engine coordinates (`e3`).
fn point(x: u8, y: u8) -> Option<String> {
    (x <= 8 && y <= 9).then(|| format!("{}{}", char::from(b'a' + x), 10 - y))
}

/// Reads the first DhtmlXQ block of a text.
pub fn read(content: &str, file: &str) -> Result<GameRecord, ImportError> {
    let fail =
        |line: Option<usize>, text: &str, reason: &str| ImportError::new(file, line, text, reason);
    let moves_field = field(content, "movelist");
    let move_digits: Vec<u8> = moves_field
        .map(|(value, _)| {
            value
                .bytes()
                .filter(u8::is_ascii_digit)
                .map(|b| b - b'0')
                .collect()
        })
        .unwrap_or_default();
    let moves_line = moves_field.map(|(_, line)| line);

    let start = match field(content, "binit") {
        Some((value, line)) if !value.trim().is_empty() => {
            let digits: Vec<u8> = value.trim().bytes().collect();
            if digits.len() != 64 || !digits.iter().all(u8::is_ascii_digit) {
                return Err(fail(Some(line), value.trim(), "binit must be 64 digits"));
            }
            let mut board = [[None::<char>; 9]; 10];
            for (index, pair) in digits.chunks(2).enumerate() {
                let (x, y) = (pair[0] - b'0', pair[1] - b'0');
                if (x, y) == (9, 9) {
                    continue;
                }
                if x > 8 {
                    return Err(fail(Some(line), value.trim(), "a piece off the board"));
                }
                let letter = if index < 16 {
                    PIECE_ORDER[index]
                } else {
                    PIECE_ORDER[index - 16].to_ascii_lowercase()
                };
                let cell = &mut board[usize::from(y)][usize::from(x)];
                if cell.is_some() {
                    return Err(fail(Some(line), value.trim(), "two pieces on one point"));
                }
                *cell = Some(letter);
            }
            let red_first = match move_digits.get(..2) {
                Some([x, y]) if *x <= 8 && *y <= 9 => board[usize::from(*y)][usize::from(*x)]
                    .is_none_or(|letter| letter.is_ascii_uppercase()),
                _ => true,
            };
            // The FEN writer of XQF takes ranks from Red's side: turn the rows round.
            let mut from_red = board;
            from_red.reverse();
            let placement = super::xqf::placement_of(&from_red);
            let fen = format!(
                "{} {} - - 0 1",
                placement,
                if red_first { 'w' } else { 'b' }
            );
            Variant::Xiangqi
                .position_from_fen(&fen)
                .map_err(|error| fail(Some(line), &fen, &format!("impossible position: {error}")))?
        }
        _ => Variant::Xiangqi.start(),
    };
    let mut record = GameRecord::new(Game::new(start));
    for (name, header) in [
        ("title", "Title"),
        ("event", "Event"),
        ("date", "Date"),
        ("place", "Site"),
        ("red", "Red"),
        ("black", "Black"),
        ("open", "Opening"),
    ] {
        if let Some((value, _)) = field(content, name) {
            let value = value.trim();
            if !value.is_empty() {
                record.headers.push((header.to_string(), value.to_string()));
            }
        }
    }
    if !move_digits.len().is_multiple_of(4) {
        return Err(fail(
            moves_line,
            "",
            "the move list is not four digits a move",
        ));
    }
    for (index, digits) in move_digits.chunks(4).enumerate() {
        let coordinates = point(digits[0], digits[1])
            .zip(point(digits[2], digits[3]))
            .map(|(from, to)| format!("{from}{to}"));
        let played = coordinates
            .as_deref()
            .and_then(|uci| record.game.position().parse_uci(uci))
            .ok_or("no piece can move so".to_string())
            .and_then(|mv| record.game.play(mv).map_err(|e| e.describe().to_string()));
        if let Err(reason) = played {
            return Err(ImportError {
                file: file.to_string(),
                line: moves_line,
                move_number: Some(index + 1),
                text: digits.iter().map(|d| char::from(b'0' + d)).collect(),
                reason,
                partial: Some(Box::new(record)),
                game: None,
            });
        }
    }
    for ply in 0..=record.game.moves().len() {
        if let Some((value, _)) = field(content, &format!("comment{ply}")) {
            let value = value.trim();
            if !value.is_empty() {
                record.comments.push((ply, value.to_string()));
            }
        }
    }
    if let Some((value, _)) = field(content, "result") {
        let winner = if value.contains("红胜") || value.contains("紅勝") || value == "1-0" {
            Some(Some(Side::First))
        } else if value.contains("黑胜") || value.contains("黑勝") || value == "0-1" {
            Some(Some(Side::Second))
        } else if value.contains('和') || value == "1/2-1/2" {
            Some(None)
        } else {
            None
        };
        if let Some(winner) = winner {
            record.result = Some(text::stated_outcome(winner, record.game.outcome(), None));
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    /// The example of FORMATS.md §2.7: the usual start and the opening of §2.3.
    const EXAMPLE: &str = "[DhtmlXQ]\n\
        [DhtmlXQ_title]例局[/DhtmlXQ_title]\n\
        [DhtmlXQ_red]胡荣华[/DhtmlXQ_red]\n\
        [DhtmlXQ_black]杨官璘[/DhtmlXQ_black]\n\
        [DhtmlXQ_result]红胜[/DhtmlXQ_result]\n\
        [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n\
        [DhtmlXQ_movelist]7747706279678070897910227973[/DhtmlXQ_movelist]\n\
        [DhtmlXQ_comment0]开局[/DhtmlXQ_comment0]\n\
        [DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1]\n\
        [/DhtmlXQ]\n";

    fn engine_moves(record: &GameRecord) -> Vec<String> {
        record
            .game
            .positions()
            .iter()
            .zip(record.game.moves())
            .map(|(position, mv)| position.move_to_uci(*mv))
            .collect()
    }

    #[test]
    fn the_documented_example_reads_as_the_opening() {
        let record = read(EXAMPLE, "page.html").unwrap();
        assert_eq!(
            engine_moves(&record),
            ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "h1h7"]
        );
        assert_eq!(record.game.start().fen(), Variant::Xiangqi.start().fen());
        assert_eq!(record.header("Red"), Some("胡荣华"));
        assert_eq!(record.header("Title"), Some("例局"));
        assert_eq!(
            record.comments,
            [(0, "开局".to_string()), (1, "中炮".to_string())]
        );
        assert_eq!(record.result.and_then(|o| o.winner()), Some(Side::First));
    }

    #[test]
    fn an_endgame_with_black_to_move() {
        // Red king e0 (x4 y9), Red chariot e1 (x4 y8), Black king d9 (x3 y0); the rest off.
        let mut binit = String::new();
        for index in 0..32 {
            binit.push_str(match index {
                4 => "49",
                0 => "48",
                20 => "30",
                _ => "99",
            });
        }
        let text = format!(
            "[DhtmlXQ][DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]\
             [DhtmlXQ_movelist]3031[/DhtmlXQ_movelist][/DhtmlXQ]"
        );
        let record = read(&text, "endgame.txt").unwrap();
        assert_eq!(record.game.start().side_to_move(), Side::Second);
        assert_eq!(engine_moves(&record), ["d10d9"]);
    }

    #[test]
    fn a_bad_move_keeps_the_moves_before() {
        let text = EXAMPLE.replace("7747706279678070", "7747706279677777");
        let error = read(&text, "bad.html").unwrap_err();
        assert_eq!(error.move_number, Some(4));
        assert_eq!(error.partial.unwrap().game.moves().len(), 3);
    }

    #[test]
    fn malformed_fields_are_errors_not_panics() {
        for text in [
            "[DhtmlXQ][DhtmlXQ_binit]12[/DhtmlXQ_binit][/DhtmlXQ]",
            "[DhtmlXQ][DhtmlXQ_movelist]774[/DhtmlXQ_movelist][/DhtmlXQ]",
            "[DhtmlXQ][DhtmlXQ_movelist]9999[/DhtmlXQ_movelist][/DhtmlXQ]",
            "[DhtmlXQ][DhtmlXQ_binit]x979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit][/DhtmlXQ]",
        ] {
            assert!(read(text, "bad.txt").is_err(), "{text}");
        }
    }
}
