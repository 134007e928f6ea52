//! The variation list: the moves that follow the shown position (main continuation
//! first), the highlighted one marked, with the keys to switch, promote and delete.

use super::theme::Theme;
use super::{centered, clear_popup, popup_block};
use crate::app::App;
use crate::i18n::Key;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use unicode_width::UnicodeWidthStr;

/// Draws the variation list over `area`.
pub fn render(app: &App, choice: usize, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let Some(play) = &app.play else { return };
    let language = app.settings.language;
    let ply = play.shown_ply();
    let variations = play.variations_at(ply);
    let mut lines: Vec<Line> = Vec::new();
    if variations.is_empty() {
        lines.push(Line::styled(language.text(Key::VariationsEmpty), theme.dim));
    }
    let current = play.line.get(ply);
    for (index, &id) in variations.iter().enumerate() {
        let marker = if index == choice { "▶ " } else { "  " };
        let style = if index == choice {
            theme.highlight
        } else {
            theme.popup
        };
        let length = 1 + play.tree.main_continuation(id).len();
        let mut text = format!(
            "{marker}{}. {}  ({length})",
            ply + 1,
            app.variation_text(play, ply, id)
        );
        if index == 0 {
            text.push_str(&format!("  {}", language.text(Key::VariationMainLine)));
        }
        if current == Some(&id) {
            text.push_str(" *");
        }
        lines.push(Line::from(Span::styled(text, style)));
    }
    lines.push(Line::from(""));
    let hint = language.text(Key::VariationsHint);
    lines.push(Line::styled(hint, theme.dim));
    let title = language.format(Key::VariationsTitle, &[&ply.to_string()]);
    let widest = lines
        .iter()
        .map(|line| line.width())
        .chain([title.width() + 4])
        .max()
        .unwrap_or(0) as u16;
    let width = (widest + 4).min(area.width.saturating_sub(2)).max(20);
    let inner = width.saturating_sub(2).max(1) as usize;
    let rows: usize = lines
        .iter()
        .map(|line| line.width().max(1).div_ceil(inner))
        .sum();
    let rect = centered(area, width, rows as u16 + 2);
    clear_popup(rect, buffer);
    Paragraph::new(lines)
        .block(popup_block(&title, theme))
        .wrap(Wrap { trim: false })
        .render(rect, buffer);
}
