//! The settings popup: one row per setting with its value, the focused row
//! highlighted; the theme row's changes show at once behind and inside it.

use super::theme::Theme;
use super::{centered, clear_popup, popup_block};
use crate::app::settings_screen::SettingRow;
use crate::app::App;
use crate::i18n::Key;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

/// The width of the label column.
const LABEL_WIDTH: usize = 14;

/// Draws the settings popup with `row` focused.
pub fn render(app: &App, row: usize, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let language = app.settings.language;
    let mut lines = vec![Line::from("")];
    for (index, &setting) in SettingRow::ALL.iter().enumerate() {
        let focused = index == row;
        let label = language.text(setting.label());
        let padding = LABEL_WIDTH.saturating_sub(label.width());
        let value = app.setting_value(setting);
        let (left, right) = if focused {
            ("◀ ", " ▶")
        } else {
            ("  ", "  ")
        };
        let value_style = if focused {
            theme.highlight
        } else {
            theme.popup
        };
        lines.push(Line::from(vec![
            Span::styled(if focused { " › " } else { "   " }, theme.heading),
            Span::styled(format!("{label}{}", " ".repeat(padding)), theme.popup),
            Span::styled(left, theme.heading),
            Span::styled(value, value_style),
            Span::styled(right, theme.heading),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(
        Line::styled(language.text(Key::SettingsHints), theme.popup).alignment(Alignment::Center),
    );
    let height = lines.len() as u16 + 2;
    let rect = centered(area, 60, height);
    clear_popup(rect, buffer);
    Paragraph::new(lines)
        .style(theme.popup)
        .block(popup_block(language.text(Key::SettingsTitle), theme))
        .render(rect, buffer);
}
