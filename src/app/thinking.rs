//! What the app keeps of a CPU search in progress, and the one-line summary the
//! thinking line shows: `depth 9  +0.35  12k nps  PV: 炮二平五 馬８進７ …`.
//!
//! Pure: the worker turns the engine's [`crate::engine::SearchInfo`] into a [`SearchReport`] and
//! sends it as an action; the renderer asks [`thinking_line`] for the text.

pub use crate::engine::report::SearchReport;
use crate::engine::Score;
use crate::i18n::{Key, Language};
use crate::rules::any::AnyPosition;
use crate::rules::notation::Notation;
use crate::rules::Move;
use unicode_width::UnicodeWidthChar;

/// A score in pawns with its sign (`+0.35`, `-1.20`), or a mate distance (`M5`, `-M3`).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => {
            let sign = if cp < 0 { '-' } else { '+' };
            let abs = cp.unsigned_abs();
            format!("{sign}{}.{:02}", abs / 100, abs % 100)
        }
        Score::Mate(moves) if moves < 0 => format!("-M{}", moves.unsigned_abs()),
        Score::Mate(moves) => format!("M{moves}"),
    }
}

/// A speed with a unit prefix: `850`, `12k`, `3.4M`.
pub fn speed_text(per_second: u64) -> String {
    if per_second >= 10_000_000 {
        format!("{}M", per_second / 1_000_000)
    } else if per_second >= 1_000_000 {
        format!("{:.1}M", per_second as f64 / 1_000_000.0)
    } else if per_second >= 1_000 {
        format!("{}k", per_second / 1_000)
    } else {
        per_second.to_string()
    }
}

/// The moves of a line written in `notation`, each in the position it is played from;
/// stops at the first move that is not legal there (a stale or corrupt line). The same
/// writer as the analysis report's.
pub use crate::analysis::line_text as line_in_notation;

/// Cuts `text` to at most `width` terminal columns, ending with `…` when cut.
pub fn truncate_to_width(text: &str, width: usize) -> String {
    let full: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if full <= width {
        return text.to_string();
    }
    let mut result = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        result.push(c);
        used += w;
    }
    if width > 0 {
        result.push('…');
    }
    result
}

/// The thinking line: depth, score, speed and the principal variation in the game's
/// notation, cut to `width` columns. `position` is where the search started and
/// `previous` the move before it (for shogi's 同).
pub fn thinking_line(
    language: Language,
    report: &SearchReport,
    position: &AnyPosition,
    previous: Option<Move>,
    notation: Notation,
    width: usize,
) -> String {
    let line = line_in_notation(position, previous, &report.principal_variation, notation);
    let text = language.format(
        Key::ThinkingLine,
        &[
            &report.depth.to_string(),
            &score_text(report.score),
            &speed_text(report.nodes_per_second),
            &line.join(" "),
        ],
    );
    truncate_to_width(&text, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::notation::default_notation;
    use crate::rules::Position;

    #[test]
    fn scores_read_as_pawns_or_mates() {
        assert_eq!(score_text(Score::Centipawns(35)), "+0.35");
        assert_eq!(score_text(Score::Centipawns(-120)), "-1.20");
        assert_eq!(score_text(Score::Centipawns(0)), "+0.00");
        assert_eq!(score_text(Score::Mate(5)), "M5");
        assert_eq!(score_text(Score::Mate(-3)), "-M3");
        assert_eq!(speed_text(12_345), "12k");
        assert_eq!(speed_text(3_400_000), "3.4M");
        assert_eq!(speed_text(900), "900");
    }

    #[test]
    fn the_line_is_written_in_the_games_notation_and_fits_the_width() {
        let position = Variant::Xiangqi.start();
        let first = position.parse_uci("h3e3").unwrap();
        let mut after = position.clone();
        after.play_unchecked(first);
        let second = after.parse_uci("h10g8").unwrap();
        let report = SearchReport {
            depth: 9,
            score: Score::Centipawns(35),
            nodes: 120_000,
            nodes_per_second: 12_000,
            principal_variation: vec![first, second],
        };
        let notation = default_notation(Variant::Xiangqi, true);
        let line = thinking_line(Language::English, &report, &position, None, notation, 200);
        assert_eq!(line, "depth 9  +0.35  12k nps  PV: 炮二平五 馬８進７");
        let short = thinking_line(Language::English, &report, &position, None, notation, 30);
        let width: usize = short.chars().map(|c| c.width().unwrap_or(0)).sum();
        assert!(width <= 30, "{short} is {width} wide");
        assert!(short.ends_with('…'), "{short}");
        // An illegal move ends the written line instead of garbling it.
        let broken = line_in_notation(&position, None, &[first, first], notation);
        assert_eq!(broken.len(), 1);
    }
}
