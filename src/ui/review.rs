//! The review in the side panel: the move marks of the move list (`?!`, `?`, `??`
//! coloured by the theme) and the evaluation graph over the whole current line — a
//! braille chart of the first player's winning chance (0–100 %, so a won game stays
//! on the chart) with the shown ply as a cursor, or `#` columns under `--ascii`.

use super::theme::Theme;
use crate::app::{App, GlyphSet, Play};
use crate::i18n::Key;
use crate::rules::Side;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget};

/// The marks of move `ply` (0 = the first move) of the current line, as the move list
/// writes them after the move: its NAGs (`?!`, `?`, `??`, `!`, `!!`, `!?`), styled by
/// how bad they are. Empty when the move has none.
pub fn move_marks(play: &Play, ply: usize, theme: &Theme) -> Vec<Span<'static>> {
    let node = play.node_at(ply + 1);
    play.tree
        .node(node)
        .annotation
        .nags
        .iter()
        .filter_map(|&nag| {
            let mark = crate::tree::mark_of(nag)?;
            Some(Span::styled(mark, mark_style(nag, theme)))
        })
        .collect()
}

/// The style of a move mark: a blunder as an error, a mistake or inaccuracy as a
/// warning, good moves in the status colour.
fn mark_style(nag: u8, theme: &Theme) -> Style {
    match nag {
        4 => theme.error.add_modifier(Modifier::BOLD),
        2 => theme.warning.add_modifier(Modifier::BOLD),
        6 => theme.warning,
        _ => theme.status,
    }
}

/// The fewest rows the graph is drawn in (its heading and three chart rows).
const GRAPH_MIN_ROWS: u16 = 4;
/// The most rows it takes.
const GRAPH_MAX_ROWS: u16 = 10;
/// The narrowest panel it is drawn in.
const GRAPH_MIN_WIDTH: u16 = 16;

/// The rows the evaluation graph takes at the foot of a panel of `area`, when `free`
/// rows are left below the panel's other lines: none when the current line has no
/// analysis or the panel is too small; otherwise up to half of what is free, so the
/// move list keeps at least four rows.
pub fn graph_rows(play: &Play, area: Rect, free: u16) -> u16 {
    if area.width < GRAPH_MIN_WIDTH || !play.line_evaluations().iter().any(Option::is_some) {
        return 0;
    }
    let rows = (free.saturating_sub(4) / 2).min(GRAPH_MAX_ROWS);
    if rows < GRAPH_MIN_ROWS {
        0
    } else {
        rows
    }
}

/// The first player's winning chance after each ply of the current line (index 0: the
/// start, taken as even), holding the last known value where a ply has no evaluation.
fn curve(play: &Play) -> Vec<f64> {
    let kind = play.game.variant().kind();
    let mut last = 50.0;
    let mut points = vec![last];
    for evaluation in play.line_evaluations() {
        if let Some(evaluation) = evaluation {
            last = evaluation.win_percent(kind, Side::First);
        }
        points.push(last);
    }
    points
}

/// Draws the graph into `area`: a heading with the evaluation after the shown ply, then
/// the chart.
pub fn render_graph(app: &App, play: &Play, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    if area.height < 2 || area.width < 2 {
        return;
    }
    let kind = play.game.variant().kind();
    let shown = play.shown_ply();
    let evaluations = play.line_evaluations();
    let mut heading = vec![Span::styled(
        app.settings.language.text(Key::GraphHeading).to_string(),
        theme.title,
    )];
    let now = shown
        .checked_sub(1)
        .and_then(|index| evaluations.get(index).copied().flatten());
    if let Some(evaluation) = now {
        heading.push(Span::raw(" "));
        heading.push(Span::styled(evaluation.text(kind), theme.status));
    }
    Paragraph::new(Line::from(heading)).render(Rect { height: 1, ..area }, buffer);
    let chart = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    let points = curve(play);
    if app.settings.glyphs == GlyphSet::Latin {
        ascii_chart(&points, shown, chart, theme, buffer);
    } else {
        let marked = play
            .line
            .iter()
            .enumerate()
            .filter(|&(_, &id)| crate::app::review::mark_of_node(&play.tree, id).is_some())
            .map(|(index, _)| ((index + 1) as f64, points[index + 1]))
            .collect::<Vec<_>>();
        braille_chart(&points, &marked, shown, chart, theme, buffer);
    }
}

/// The chart in braille: the curve, the even line, the cursor on the shown ply, and a
/// dot on every marked move.
fn braille_chart(
    points: &[f64],
    marked: &[(f64, f64)],
    shown: usize,
    area: Rect,
    theme: &Theme,
    buffer: &mut Buffer,
) {
    let last = (points.len() - 1).max(1) as f64;
    let curve: Vec<(f64, f64)> = points
        .iter()
        .enumerate()
        .map(|(ply, &value)| (ply as f64, value))
        .collect();
    let even = [(0.0, 50.0), (last, 50.0)];
    let cursor = [(shown as f64, 0.0), (shown as f64, 100.0)];
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.dim)
            .data(&even),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.highlight.remove_modifier(Modifier::REVERSED))
            .data(&cursor),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.status)
            .data(&curve),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.error)
            .data(marked),
    ];
    Chart::new(datasets)
        .x_axis(Axis::default().bounds([0.0, last]))
        .y_axis(Axis::default().bounds([0.0, 100.0]))
        .render(area, buffer);
}

/// The chart in ASCII: a column of `#` from the even line towards the side ahead for
/// every screen column, `-` for the even line, the shown ply's column in the cursor style.
fn ascii_chart(points: &[f64], shown: usize, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let width = usize::from(area.width);
    let height = usize::from(area.height);
    let last = points.len() - 1;
    let middle = (height - 1) as f64 / 2.0;
    let row_of = |value: f64| -> usize {
        let row = (100.0 - value) / 100.0 * (height - 1) as f64;
        row.round().clamp(0.0, (height - 1) as f64) as usize
    };
    let ply_of = |column: usize| -> usize {
        if width <= 1 {
            0
        } else {
            (column * last + (width - 1) / 2) / (width - 1)
        }
    };
    let cursor_column = (0..width).min_by_key(|&column| ply_of(column).abs_diff(shown));
    for column in 0..width {
        let value = points[ply_of(column)];
        let top = row_of(value);
        let even = middle.round() as usize;
        let (from, to) = if top <= even {
            (top, even)
        } else {
            (even, top)
        };
        let cursor = Some(column) == cursor_column;
        for row in 0..height {
            let filled = row >= from && row <= to && top != even;
            let symbol = if filled {
                "#"
            } else if cursor {
                "|"
            } else if row == even {
                "-"
            } else {
                " "
            };
            let style = if cursor {
                theme.highlight
            } else if filled {
                theme.status
            } else {
                theme.dim
            };
            let x = area.x + column as u16;
            let y = area.y + row as u16;
            buffer[(x, y)].set_symbol(symbol).set_style(style);
        }
    }
}
