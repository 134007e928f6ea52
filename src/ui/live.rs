//! The live analysis panel, under the move list in the side panel:
//!
//! ```text
//! Analysis · qipan  + favours Red
//! depth 12 · 1.2M nodes · 850k nps
//! 1  +0.35 炮二平五 馬８進７ 傌二進三 車９平８…
//! 2  +0.20 傌二進三 …
//! ```
//!
//! Scores are from the first player's view (as the whole-game analysis and the records
//! write them), in the game's units; the lines are written in the move list's notation
//! from the analysed position. The panel keeps its height while it is on, so the
//! screen does not jump as lines arrive; every row is cut to the width with `…`.

use super::theme::Theme;
use crate::analysis::{line_text, Evaluation};
use crate::app::live::Waiting;
use crate::app::thinking::{speed_text, truncate_to_width};
use crate::app::{side_key, App, Play};
use crate::i18n::Key;
use crate::rules::{Move, Position, Side};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// The rows the panel takes from a side panel `height` rows tall: a heading, the
/// numbers, and a row per line; at most half the side panel, so the move list stays.
/// 0 while live analysis is off.
pub fn panel_height(app: &App, height: u16) -> u16 {
    if !app.live.on {
        return 0;
    }
    let wanted = 2 + app.live.lines as u16;
    wanted.min(height / 2)
}

/// The best move to draw on the board: live analysis's first line's first move, when
/// its lines are about the shown position.
pub fn best_move(app: &App, play: &Play) -> Option<Move> {
    let subject = app.live.subject.as_ref()?;
    let shown = subject.ply == play.shown_ply() && subject.position == *play.shown_position();
    app.live.best_move().filter(|_| shown)
}

/// Draws the panel into `area`.
pub fn render(app: &App, play: &Play, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let language = app.settings.language;
    let width = usize::from(area.width);
    let live = &app.live;
    let game = play.game.variant().kind();
    let mut rows: Vec<Line> = Vec::new();
    // The heading: the engine, and which side a + score favours.
    let heading = language.format(Key::LiveHeading, &[&live.engine_name]);
    let view = language.format(
        Key::LiveScoreView,
        &[language.text(side_key(game, Side::First))],
    );
    rows.push(Line::from(vec![
        Span::styled(truncate_to_width(&heading, width), theme.title),
        Span::styled(
            truncate_to_width(
                &format!("  {view}"),
                width.saturating_sub(super::board::text_width(&heading, false) as usize),
            ),
            theme.dim,
        ),
    ]));
    // The numbers, or why there are none yet.
    let numbers = match (live.shown.first(), live.waiting) {
        (_, Waiting::ForComputer) => Line::styled(
            truncate_to_width(language.text(Key::LiveWaiting), width),
            theme.warning,
        ),
        (_, Waiting::NoMoves) => Line::styled(
            truncate_to_width(language.text(Key::LiveNoMoves), width),
            theme.dim,
        ),
        (None, Waiting::No) => Line::styled(
            truncate_to_width(language.text(Key::LiveSearching), width),
            theme.thinking,
        ),
        (Some(best), Waiting::No) => {
            let mut text = language.format(
                Key::LiveStats,
                &[
                    &best.depth.to_string(),
                    &speed_text(best.nodes),
                    &speed_text(best.nodes_per_second),
                ],
            );
            if live.finished {
                text.push_str(" · ");
                text.push_str(language.text(Key::LiveDone));
            }
            Line::styled(truncate_to_width(&text, width), theme.thinking)
        }
    };
    rows.push(numbers);
    // The lines, best first, each from the analysed position.
    if let Some(subject) = live
        .subject
        .as_ref()
        .filter(|_| live.waiting == Waiting::No)
    {
        let notation = play.notation_for(language, app.settings.glyphs);
        let mover = subject.position.side_to_move();
        for (index, report) in live.shown.iter().enumerate().take(live.lines) {
            let score = Evaluation::from_score(report.score, mover).text(game);
            let moves = line_text(
                &subject.position,
                subject.previous,
                &report.principal_variation,
                notation,
            )
            .join(" ");
            let number = format!("{} ", index + 1);
            let score = format!("{score:>6} ");
            let room = width.saturating_sub(number.len() + score.len());
            let style = if index == 0 {
                theme.title
            } else {
                Style::new()
            };
            rows.push(Line::from(vec![
                Span::styled(number, theme.dim),
                Span::styled(score, style),
                Span::styled(truncate_to_width(&moves, room), style),
            ]));
        }
    }
    Paragraph::new(rows).render(area, buffer);
}
