//! The side panel of "learn from your mistakes": which exercise, the move the game had
//! there, what to find, the engine's answer once it is shown, and the keys; the
//! evaluation graph stays below when there is room.

use super::theme::Theme;
use super::{review, shown_text};
use crate::app::learn::{Learn, Verdict};
use crate::app::{side_key, App, Play};
use crate::i18n::Key;
use crate::rules::Position;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Draws the exercise panel into `area`.
pub fn render_panel(
    app: &App,
    play: &Play,
    learn: &Learn,
    area: Rect,
    theme: &Theme,
    buffer: &mut Buffer,
) {
    let language = app.settings.language;
    let glyphs = app.settings.glyphs;
    let game = play.game.variant().kind();
    let exercise = learn.exercise();
    let count = learn.exercises.len().to_string();
    let solved = learn.solved.iter().filter(|&&s| s).count().to_string();
    let notation = play.notation_for(language, glyphs);
    let mover = learn.game().position().side_to_move();
    let mut lines: Vec<Line> = vec![
        Line::styled(language.text(Key::LearnTitle), theme.title),
        Line::from(vec![
            Span::raw(language.format(
                Key::LearnExercise,
                &[&(learn.index + 1).to_string(), &count],
            )),
            Span::styled(
                format!(
                    " · {}",
                    language.format(Key::LearnSolvedCount, &[&solved, &count])
                ),
                theme.dim,
            ),
        ]),
    ];
    let played = format!(
        "{}{}",
        play.exercise_move_text(learn, exercise.played, notation),
        exercise.mark.symbol()
    );
    lines.push(Line::from(language.format(
        Key::LearnPlayed,
        &[&(exercise.ply + 1).to_string(), &played],
    )));
    lines.push(Line::styled(
        language.format(Key::LearnFind, &[language.text(side_key(game, mover))]),
        theme.side_label(mover),
    ));
    match learn.verdict {
        Some(Verdict::Right(mv)) => lines.push(Line::styled(
            language.format(
                Key::StatusLearnRight,
                &[&play.exercise_move_text(learn, mv, notation)],
            ),
            theme.status,
        )),
        Some(Verdict::Wrong(mv)) => lines.push(Line::styled(
            language.format(
                Key::StatusLearnWrong,
                &[&play.exercise_move_text(learn, mv, notation)],
            ),
            theme.error,
        )),
        Some(Verdict::Same) => lines.push(Line::styled(
            language.text(Key::StatusLearnSame),
            theme.error,
        )),
        None => {}
    }
    if learn.hint >= 2 {
        lines.push(Line::styled(app.learn_answer_text(), theme.highlight));
    }
    lines.push(Line::styled(
        shown_text(glyphs, language.text(Key::LearnKeys)).into_owned(),
        theme.dim,
    ));
    // Each line takes as many rows as it wraps into.
    let width = area.width.max(1);
    let wrapped: u16 = lines
        .iter()
        .map(|line| {
            super::board::text_width(&line.to_string(), false)
                .div_ceil(width)
                .max(1)
        })
        .sum();
    let text_rows = area.height.min(wrapped);
    Paragraph::new(lines).wrap(Wrap { trim: true }).render(
        Rect {
            height: text_rows,
            ..area
        },
        buffer,
    );
    let free = area.height.saturating_sub(text_rows);
    let graph = review::graph_rows(play, area, free + 4);
    if graph > 0 && graph <= free {
        let graph_area = Rect {
            y: area.bottom() - graph,
            height: graph,
            ..area
        };
        review::render_graph(app, play, graph_area, theme, buffer);
    }
}
