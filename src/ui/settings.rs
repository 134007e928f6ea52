//! The settings popup: one row per setting with its value, the focused row
//! highlighted; the theme row's changes show at once behind and inside it.

use super::theme::Theme;
use super::{centered, clear_popup, game_layout, popup_block, start_geometry};
use crate::app::settings_screen::SettingRow;
use crate::app::{App, Screen};
use crate::i18n::Key;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

/// The width of the label column.
const LABEL_WIDTH: usize = 14;

/// The narrowest the popup may be when it moves aside for the board.
const NARROWEST: u16 = 44;

/// Where the popup goes so the board stays in view (the theme's preview): over the
/// game's side panel, or over the start screen's menu; `None` when there is no room.
fn beside_the_board(app: &App, area: Rect, height: u16) -> Option<Rect> {
    let y = area.y + area.height.saturating_sub(height) / 2;
    match (&app.screen, &app.play) {
        (Screen::Game, Some(play)) => {
            let game = play.game.variant().kind();
            let layout = game_layout(game, app.settings.glyphs, area).ok()?;
            let panel = layout.panel;
            (panel.width >= NARROWEST).then(|| Rect::new(panel.x, y, panel.width.min(52), height))
        }
        _ => {
            let geometry = start_geometry(app, area);
            let preview = geometry.preview?;
            let width = preview.x.saturating_sub(geometry.menu.x + 1).min(52);
            (width >= NARROWEST).then(|| Rect::new(geometry.menu.x, y, width, height))
        }
    }
}

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
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = beside_the_board(app, area, height).unwrap_or_else(|| centered(area, 52, height));
    clear_popup(rect, buffer);
    Paragraph::new(lines)
        .style(theme.popup)
        .block(popup_block(language.text(Key::SettingsTitle), theme))
        .render(rect, buffer);
}
