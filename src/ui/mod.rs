//! Pure rendering of an [`App`]: the start screen, the board with its panels,
//! and the popups. Nothing here changes the app.

pub mod benchmark;
pub mod board;
pub mod clocks;
pub mod glyphs;
mod gungjanggi;
mod learn;
pub mod live;
pub mod review;
pub mod settings;
pub mod theme;
pub mod variations;

use crate::app::keymap::KEY_HELP;
use crate::app::{
    native_side_name, reason_key, side_key, App, GlyphSet, Overlay, Play, Player, Question, Screen,
    StartField, StartOptions,
};
use crate::i18n::{Key, Language};
use crate::rules::any::{AnyPosition, GameKind, Piece, PieceKind};
use crate::rules::notation::format_move_after;
use crate::rules::{EndReason, Outcome, Position, Side};
use board::{board_dimensions, BoardSize, BoardStyle, HitTarget, Marks};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};
use ratatui::Frame;
use theme::Theme;
use unicode_width::UnicodeWidthStr;

/// The narrowest side panel.
const MIN_PANEL_WIDTH: u16 = 24;
/// The width of the shogi hand column.
const HAND_WIDTH: u16 = 9;

/// Where the parts of the game screen go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLayout {
    /// The title row.
    pub title: Rect,
    /// The board picture.
    pub board: Rect,
    /// The board size chosen.
    pub size: BoardSize,
    /// The shogi hands column.
    pub hands: Option<Rect>,
    /// The side panel.
    pub panel: Rect,
    /// The status row.
    pub status: Rect,
    /// The key-hint row.
    pub hints: Rect,
}

/// The game screen's layout, or the size needed when the terminal is too small.
pub fn game_layout(game: GameKind, glyphs: GlyphSet, area: Rect) -> Result<GameLayout, (u16, u16)> {
    let hand_width = if game == GameKind::Shogi {
        HAND_WIDTH
    } else {
        0
    };
    let mut needed = (0, 0);
    for size in BoardSize::ALL {
        let (width, height) = board_dimensions(game, size, glyphs);
        let need_width = 1 + width + hand_width + 1 + MIN_PANEL_WIDTH;
        let need_height = height + 3;
        needed = (need_width, need_height);
        if area.width < need_width || area.height < need_height {
            continue;
        }
        let spare_rows = area.height - need_height;
        let board = Rect::new(area.x + 1, area.y + 1 + spare_rows / 2, width, height);
        let hands =
            (hand_width > 0).then(|| Rect::new(board.right() + 1, board.y, hand_width - 1, height));
        let panel_x = board.right() + hand_width + 1;
        let panel = Rect::new(panel_x, area.y + 1, area.right() - panel_x, area.height - 3);
        return Ok(GameLayout {
            title: Rect::new(area.x, area.y, area.width, 1),
            board,
            size,
            hands,
            panel,
            status: Rect::new(area.x, area.bottom() - 2, area.width, 1),
            hints: Rect::new(area.x, area.bottom() - 1, area.width, 1),
        });
    }
    Err(needed)
}

/// An interface text as the glyph set can show it: with `--ascii` (Latin glyphs) the
/// words written in CJK characters or Hangul (`qipan 棋盤`, `Shogi 将棋`, `79졸78,`)
/// are left out, for terminals without CJK fonts.
pub fn shown_text(glyphs: GlyphSet, text: &str) -> std::borrow::Cow<'_, str> {
    if glyphs != GlyphSet::Latin || text.is_ascii() {
        return text.into();
    }
    let wide = |word: &&str| word.width() > word.chars().count();
    text.split(' ')
        .filter(|word| !wide(word))
        .collect::<Vec<_>>()
        .join(" ")
        .into()
}

/// ASCII for the symbols the screens use, drawn with `--ascii` (Latin glyphs) so that
/// every cell on screen is ASCII: box lines, arrows, bullets, the prompt's cursor.
fn ascii_symbol(symbol: &str) -> Option<&'static str> {
    let mut chars = symbol.chars();
    let c = chars.next()?;
    if c.is_ascii() || chars.next().is_some() {
        return None;
    }
    Some(match c {
        '─' | '━' | '—' | '–' | '═' => "-",
        '│' | '┃' | '║' | '▏' => "|",
        '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' | '╭' | '╮' | '╰' | '╯' => {
            "+"
        }
        '·' | '•' | '∙' => ".",
        '▶' | '›' | '→' | '»' | '▸' => ">",
        '◀' | '‹' | '←' | '«' | '◂' => "<",
        '↑' | '▲' => "^",
        '↓' | '▼' | '△' => "v",
        '…' => "~",
        '×' => "x",
        '±' => "+-",
        _ => return None,
    })
}

/// With Latin glyphs, puts the ASCII likeness in place of every symbol on screen.
fn make_ascii(buffer: &mut Buffer, area: Rect) {
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buffer[(x, y)];
            if let Some(ascii) = ascii_symbol(cell.symbol()) {
                cell.set_symbol(ascii);
            }
        }
    }
}

/// True while the screen is too small to show the game: the "terminal too small"
/// message is all there is to see.
pub fn too_small(app: &App, area: Rect) -> bool {
    match (&app.screen, &app.play) {
        (Screen::Game, Some(play)) => {
            game_layout(play.game.variant().kind(), app.settings.glyphs, area).is_err()
        }
        _ => false,
    }
}

/// Draws the app into a frame.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    render_buffer(app, area, frame.buffer_mut());
}

/// Draws the app into a buffer area (used by the frame and by tests).
pub fn render_buffer(app: &App, area: Rect, buffer: &mut Buffer) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    match (&app.screen, &app.play) {
        (Screen::Game, Some(play)) => render_game(app, play, area, buffer),
        _ => render_start(app, area, buffer),
    }
    render_overlay(app, area, buffer);
    if app.settings.glyphs == GlyphSet::Latin {
        make_ascii(buffer, area);
    }
    blank_control_characters(buffer, area);
}

/// The last guard before the terminal: a cell whose symbol holds a control character
/// (text from a file or an engine that escaped cleaning) is drawn as `?`, so no escape
/// sequence can ever reach the terminal through a frame.
fn blank_control_characters(buffer: &mut Buffer, area: Rect) {
    let area = area.intersection(buffer.area);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buffer[(x, y)];
            if cell.symbol().chars().any(crate::untrusted::is_control) {
                cell.set_symbol("?");
            }
        }
    }
}

/// What is under a mouse click at a screen cell.
pub fn hit_test(app: &App, area: Rect, column: u16, row: u16) -> Option<HitTarget> {
    let play = app.play.as_ref().filter(|_| app.screen == Screen::Game)?;
    let game = play.game.variant().kind();
    let layout = game_layout(game, app.settings.glyphs, area).ok()?;
    let board = &layout.board;
    if board.contains((column, row).into()) {
        let theme = app_theme(app, game);
        let canvas = board::draw(
            play.shown_position(),
            &Marks::default(),
            board_style(app, play, layout.size, &theme),
        );
        let (x, y) = (column - board.x, row - board.y);
        return canvas
            .hits
            .iter()
            .find(|hit| hit.y == y && x + 1 >= hit.x && x <= hit.x + hit.width)
            .map(|hit| hit.target);
    }
    let hands = layout.hands?;
    if !hands.contains((column, row).into()) {
        return None;
    }
    let position = play.shown_position();
    for (side, top) in hand_sides(play) {
        for (line_row, _, index) in hand_rows(position, side, hands, top, &app.settings) {
            if line_row == row {
                return index.map(|i| HitTarget::Hand(side, i));
            }
        }
    }
    None
}

fn board_style<'a>(app: &App, play: &Play, size: BoardSize, theme: &'a Theme) -> BoardStyle<'a> {
    BoardStyle {
        size,
        glyphs: app.settings.glyphs,
        flipped: play.flipped,
        theme,
    }
}

/// The app's theme (its palette) for a game.
pub fn app_theme(app: &App, game: GameKind) -> Theme {
    Theme::from_palette(&app.palette, game)
}

/// The side's name as the panel shows it: 紅 Red, ▲先手 Sente, 楚 Cho (without CJK in the
/// Latin set); Chinese and Japanese say it once in their own words: 红方, ▲先手.
pub fn side_name(language: Language, glyphs: GlyphSet, game: GameKind, side: Side) -> String {
    let word = language.text(side_key(game, side));
    if glyphs == GlyphSet::Latin {
        word.to_string()
    } else if language.names_sides_in_hanzi() {
        // 红方 or 先手 already is the native name; shogi keeps its ▲/△ mark.
        let mark = native_side_name(game, side)
            .chars()
            .next()
            .filter(|c| matches!(c, '▲' | '△'));
        mark.into_iter().chain(word.chars()).collect()
    } else {
        format!("{} {}", native_side_name(game, side), word)
    }
}

fn player_text(app: &App, player: Player) -> String {
    let language = app.settings.language;
    match player {
        Player::Human => language.text(Key::Human).to_string(),
        Player::Computer { level } => language.computer_level(level),
        Player::Engine { index } => match app.settings.engines.get(index) {
            Some(spec) => spec.name.clone(),
            None => language.format(Key::EngineNumber, &[&(index + 1).to_string()]),
        },
    }
}

/// Who plays a side as the panel names them: an opened record's player by the name
/// its headers give, else the player here (a person, the CPU, an engine).
fn shown_player(app: &App, play: &Play, side: Side) -> String {
    let name = play.record.as_ref().and_then(|record| record.player(side));
    match name.and_then(|name| record_text(app.settings.glyphs, name)) {
        Some(name) => name,
        None => player_text(app, play.player(side)),
    }
}

/// A record's text as the glyph set can show it: whole, or with `--ascii` its ASCII
/// part only (`친선대국 · 2016-12-06` → `2016-12-06`); `None` when nothing readable is left.
fn record_text(glyphs: GlyphSet, text: &str) -> Option<String> {
    if glyphs != GlyphSet::Latin {
        return Some(text.to_string());
    }
    let ascii: String = text
        .chars()
        .map(|c| if c.is_ascii() { c } else { ' ' })
        .collect();
    let words: Vec<&str> = ascii.split_whitespace().collect();
    let shown = words.join(" ");
    shown
        .chars()
        .any(|c| c.is_ascii_alphanumeric())
        .then_some(shown)
}

/// A record's path as the open prompt lists it: its folder and file name.
fn short_path(path: &str) -> String {
    let path = std::path::Path::new(path);
    let name = path.file_name().map(|n| n.to_string_lossy().to_string());
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_string());
    match (folder, name) {
        (Some(folder), Some(name)) => format!("{folder}/{name}"),
        (None, Some(name)) => name,
        _ => path.display().to_string(),
    }
}

/// The result in words: "Red wins by checkmate".
pub fn outcome_text(
    language: Language,
    glyphs: GlyphSet,
    game: GameKind,
    outcome: &Outcome,
) -> String {
    let reason = language.text(reason_key(outcome.reason()));
    if let (Some(winner), EndReason::Timeout) = (outcome.winner(), outcome.reason()) {
        // Say who ran out of time, then who wins.
        let loser = side_name(language, glyphs, game, winner.opponent());
        let name = side_name(language, glyphs, game, winner);
        return format!(
            "{} · {}",
            language.format(Key::RanOutOfTime, &[&loser]),
            language.format(Key::Wins, &[&name])
        );
    }
    if language == Language::Korean {
        let text = korean_outcome_text(game, outcome, reason);
        // 기물승 and 후수승 name both material totals in Korean too.
        return match gungjanggi::outcome_totals(language, outcome) {
            Some(totals) => format!("{text} · {totals}"),
            None => text,
        };
    }
    match outcome.winner() {
        Some(winner) => {
            let name = side_name(language, glyphs, game, winner);
            let text = format!("{} {}", language.format(Key::Wins, &[&name]), reason);
            // 기물승 and 후수승 name both material totals.
            match gungjanggi::outcome_totals(language, outcome) {
                Some(totals) => format!("{text} · {totals}"),
                None => text,
            }
        }
        None => format!("{} {}", language.text(Key::Draw), reason),
    }
}

/// The result as a Korean player writes it: `한 외통승`, `빅장 무승부`, `점수 우세로 한
/// 승`, `동점이라 후수 한 승` (the side by its word alone, the reason where Korean puts it).
fn korean_outcome_text(game: GameKind, outcome: &Outcome, reason: &str) -> String {
    let language = Language::Korean;
    let Some(winner) = outcome.winner() else {
        return language.format(Key::DrawBy, &[reason]);
    };
    let name = language.text(side_key(game, winner));
    let on_points = game == GameKind::Janggi
        && matches!(
            outcome.reason(),
            EndReason::Repetition | EndReason::Bikjang | EndReason::MoveLimit
        );
    match outcome.reason() {
        EndReason::Checkmate => language.format(Key::WinsByCheckmate, &[name]),
        EndReason::Resignation => language.format(Key::WinsByResignation, &[name]),
        EndReason::SecondPlayer => language.format(Key::WinsAsSecondOnEqualPoints, &[name]),
        _ if on_points => format!("{} ({reason})", language.format(Key::WinsOnPoints, &[name])),
        _ => format!("{} ({reason})", language.format(Key::Wins, &[name])),
    }
}

fn title_line(app: &App, title: String, area: Rect, buffer: &mut Buffer) {
    let theme = app_theme(app, GameKind::Xiangqi);
    let help = format!("? {} ", app.text(Key::HelpTitle));
    Paragraph::new(Line::from(vec![
        Span::styled(
            format!(
                " {} ",
                shown_text(app.settings.glyphs, app.text(Key::AppTitle))
            ),
            theme.highlight,
        ),
        Span::styled(format!(" {title}"), theme.title),
    ]))
    .render(area, buffer);
    let help_width = board::text_width(&help, false);
    if area.width > help_width {
        let x = area.right() - help_width;
        buffer.set_string(x, area.y, help, theme.dim);
    }
}

// ----- the game screen ----------------------------------------------------

fn render_game(app: &App, play: &Play, area: Rect, buffer: &mut Buffer) {
    let game = play.game.variant().kind();
    let theme = app_theme(app, game);
    let layout = match game_layout(game, app.settings.glyphs, area) {
        Ok(layout) => layout,
        Err((width, height)) => {
            let text = app.settings.language.format(
                Key::TooSmall,
                &[
                    &width.to_string(),
                    &height.to_string(),
                    &area.width.to_string(),
                    &area.height.to_string(),
                ],
            );
            let y = area.y + area.height / 2;
            Paragraph::new(text)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true })
                .style(theme.error)
                .render(
                    Rect::new(
                        area.x,
                        y.saturating_sub(1).max(area.y),
                        area.width,
                        area.height.min(3),
                    ),
                    buffer,
                );
            return;
        }
    };
    let language = app.settings.language;
    let options = &play.options;
    let rules_name = options
        .game()
        .rule_sets
        .iter()
        .find(|(v, _)| *v == play.game.variant())
        .map(|(_, key)| language.text(*key))
        .unwrap_or("");
    let glyph_set = app.settings.glyphs;
    let mut title = format!(
        "{} · {}",
        shown_text(glyph_set, language.text(options.game().name)),
        rules_name
    );
    // A handicap by its name, a position of the game's own (a record's, a typed SFEN)
    // as such: never "standard · 平手".
    match crate::setup::NamedStart::of(play.game.start()) {
        crate::setup::NamedStart::Standard => {}
        crate::setup::NamedStart::Handicap(handicap) if glyph_set == GlyphSet::Latin => {
            title.push_str(&format!(" · {}", handicap.english()));
        }
        // 香落ち needs no English beside it for readers of kanji (as on the start screen).
        crate::setup::NamedStart::Handicap(handicap) if language.names_sides_in_hanzi() => {
            title.push_str(&format!(" · {}", handicap.japanese()));
        }
        crate::setup::NamedStart::Handicap(handicap) => {
            title.push_str(&format!(
                " · {} {}",
                handicap.japanese(),
                handicap.english()
            ));
        }
        // A game of one rule set says "custom position" in its place: "standard · custom
        // position" would contradict itself.
        crate::setup::NamedStart::Custom if options.game().rule_sets.len() == 1 => {
            title = format!(
                "{} · {}",
                shown_text(glyph_set, language.text(options.game().name)),
                language.text(Key::CustomStart)
            );
        }
        crate::setup::NamedStart::Custom => {
            title.push_str(&format!(" · {}", language.text(Key::CustomStart)));
        }
    }
    title_line(app, title, layout.title, buffer);

    let position = play.shown_position();
    let mut marks = Marks::of_play(play);
    marks.best_move = live::best_move(app, play);
    let canvas = board::draw(
        position,
        &marks,
        board_style(app, play, layout.size, &theme),
    );
    canvas.render(layout.board, buffer);
    if let Some(hands) = layout.hands {
        render_hands(app, play, hands, &theme, buffer);
    }
    // Live analysis takes the bottom of the side panel, under the move list.
    let live_rows = live::panel_height(app, layout.panel.height);
    let mut panel = layout.panel;
    panel.height -= live_rows;
    render_panel(app, play, panel, buffer);
    if live_rows > 0 {
        let area = Rect::new(panel.x, panel.bottom(), panel.width, live_rows);
        live::render(app, play, area, &theme, buffer);
    }
    render_status(app, play, layout.status, &theme, buffer);
    match thinking_text(app, play, layout.hints.width) {
        Some(text) => Paragraph::new(text)
            .style(theme.thinking)
            .render(layout.hints, buffer),
        None => Paragraph::new(format!(" {}", app.text(Key::GameHints)))
            .style(theme.dim)
            .render(layout.hints, buffer),
    }
}

/// The thinking line for the bottom row while a search reports and the line is on.
pub fn thinking_text(app: &App, play: &Play, width: u16) -> Option<String> {
    let report = play.thinking.as_ref().filter(|_| app.show_thinking)?;
    let line = crate::app::thinking::thinking_line(
        app.settings.language,
        report,
        play.game.position(),
        play.game.moves().last().copied(),
        play.notation_for(app.settings.language, app.settings.glyphs),
        usize::from(width.saturating_sub(1)),
    );
    Some(format!(" {line}"))
}

/// The sides of the hands column: (side, drawn at the top).
fn hand_sides(play: &Play) -> [(Side, bool); 2] {
    let top = if play.flipped {
        Side::First
    } else {
        Side::Second
    };
    [(top, true), (top.opponent(), false)]
}

/// The heading of a side's hand: `▲先手` (Chinese readers `△后手` in their own
/// characters, as the panel names them), `Sente` with Latin letters.
fn hand_heading(language: Language, glyphs: GlyphSet, side: Side) -> String {
    if glyphs == GlyphSet::Latin || language.names_sides_in_hanzi() {
        side_name(language, glyphs, GameKind::Shogi, side)
    } else {
        native_side_name(GameKind::Shogi, side).to_string()
    }
}

/// The rows of a hand in the hands column: (screen row, text, index into the hand or `None` for the heading).
fn hand_rows(
    position: &AnyPosition,
    side: Side,
    area: Rect,
    top: bool,
    settings: &crate::app::Settings,
) -> Vec<(u16, String, Option<usize>)> {
    let (language, glyphs) = (settings.language, settings.glyphs);
    let heading = hand_heading(language, glyphs, side);
    let mut rows = vec![(heading, None)];
    for (index, (kind, count)) in position.hand(side).into_iter().enumerate() {
        rows.push((board::hand_entry(kind, count, side, glyphs), Some(index)));
    }
    let half = area.height / 2;
    let rows: Vec<_> = rows.into_iter().take(half as usize).collect();
    if top {
        rows.into_iter()
            .enumerate()
            .map(|(i, (text, index))| (area.y + i as u16, text, index))
            .collect()
    } else {
        let start = area.bottom() - rows.len() as u16;
        rows.into_iter()
            .enumerate()
            .map(|(i, (text, index))| (start + i as u16, text, index))
            .collect()
    }
}

fn render_hands(app: &App, play: &Play, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let position = play.shown_position();
    let mover = position.side_to_move();
    for (side, top) in hand_sides(play) {
        for (row, text, index) in hand_rows(position, side, area, top, &app.settings) {
            let mut style = match index {
                None => theme.side_label(side),
                Some(_) => theme.hand,
            };
            let selected_kind = match play.selection {
                Some(crate::app::Selection::Hand(kind)) => Some(kind),
                _ => None,
            };
            if let Some(index) = index {
                let kind = position.hand(side).get(index).map(|(k, _)| *k);
                if side == mover && (play.review.is_none() || play.learn.is_some()) {
                    if play.hand_cursor == Some(index) {
                        style = style.patch(theme.highlight);
                    } else if selected_kind.is_some() && selected_kind == kind {
                        style = style.patch(theme.selected);
                    }
                }
            }
            let line = if index.is_some() {
                format!(" {text}")
            } else {
                text
            };
            buffer.set_stringn(area.x, row, line, area.width as usize, style);
        }
    }
}

fn render_panel(app: &App, play: &Play, area: Rect, buffer: &mut Buffer) {
    let language = app.settings.language;
    let glyphs = app.settings.glyphs;
    let game = play.game.variant().kind();
    let theme = app_theme(app, game);
    if let Some(exercises) = &play.learn {
        learn::render_panel(app, play, exercises, area, &theme, buffer);
        return;
    }
    let position = play.shown_position();
    let mover = position.side_to_move();
    let mut lines: Vec<Line> = Vec::new();
    let outcome = play.game.outcome();
    let top_side = if play.flipped {
        Side::First
    } else {
        Side::Second
    };
    let gungjanggi_status = gungjanggi::shown_status(play);
    for side in [top_side, top_side.opponent()] {
        let marker = if side == mover && outcome.is_none() {
            "▶ "
        } else {
            "  "
        };
        let mut spans = vec![
            Span::styled(marker, theme.title),
            Span::styled(
                side_name(language, glyphs, game, side),
                theme.side_label(side),
            ),
            Span::styled(format!("  {}", shown_player(app, play, side)), theme.dim),
        ];
        // The clock sits at the end of the player's line, or under it when the panel is narrow.
        if let Some(face) = clocks::clock_face(app, play, side, &theme) {
            let used: u16 = spans
                .iter()
                .map(|s| board::text_width(&s.content, false))
                .sum();
            let face_width = board::text_width(&face.content, false);
            if used + 1 + face_width <= area.width {
                let gap = area.width - used - face_width;
                spans.push(Span::raw(" ".repeat(gap as usize)));
                spans.push(face);
                lines.push(Line::from(spans));
            } else {
                lines.push(Line::from(spans));
                lines.push(Line::from(vec![Span::raw("    "), face]));
            }
        } else {
            lines.push(Line::from(spans));
        }
        if let Some(status) = &gungjanggi_status {
            lines.extend(gungjanggi::side_lines(
                language, status, side, area.width, &theme,
            ));
        }
    }
    // An opened record's event and date, under its players.
    let event_line = play.record.as_ref().and_then(|record| record.event_line());
    if let Some(line) = event_line.and_then(|line| record_text(app.settings.glyphs, &line)) {
        lines.push(Line::styled(
            format!(
                "  {}",
                cut_to_width(&line, usize::from(area.width.saturating_sub(2)))
            ),
            theme.dim,
        ));
    }
    // The state of play.
    if let Some(outcome) = outcome.filter(|_| play.review.is_none()) {
        let text = language.format(
            Key::GameFinished,
            &[&outcome_text(language, glyphs, game, &outcome)],
        );
        // A result with material totals may not fit: it wraps between words.
        for line in gungjanggi::word_wrap(&text, area.width) {
            lines.push(Line::styled(line, theme.error));
        }
    } else if app.paused() {
        lines.push(Line::styled(
            format!(" {} ", language.text(Key::Paused)),
            theme.warning,
        ));
    } else if play.review.is_some() {
        let total = play.game.moves().len().to_string();
        lines.push(Line::styled(
            language.format(Key::Reviewing, &[&play.shown_ply().to_string(), &total]),
            theme.review,
        ));
    } else if app.thinking() {
        let dots = ["·  ", "·· ", "···"][(app.ticks / 3 % 3) as usize];
        lines.push(Line::styled(
            format!("{} {dots}", language.text(Key::Thinking)),
            theme.thinking,
        ));
    } else if position.bikjang_pending() && gungjanggi_status.is_some() {
        lines.extend(gungjanggi::pending_lines(language, &theme));
    } else if position.bikjang_pending() {
        lines.push(Line::styled(
            language.text(Key::BikjangPending),
            theme.error,
        ));
    } else if position.in_check() {
        lines.push(Line::styled(language.text(Key::InCheck), theme.error));
    } else {
        lines.push(Line::from(""));
    }
    // The judging phase: why it began, what wins now, the countdown to material.
    let over = outcome.is_some() && play.review.is_none();
    if let Some(judging) = gungjanggi_status.and_then(|status| status.judging) {
        if !over {
            lines.extend(gungjanggi::judging_lines(
                language, &judging, area.width, &theme,
            ));
        }
    }
    // Captured pieces and the janggi score.
    if game != GameKind::Shogi {
        let captured = play.captured();
        lines.push(Line::styled(
            language.text(Key::CapturedHeading),
            theme.title,
        ));
        for side in [top_side, top_side.opponent()] {
            let mut spans = vec![Span::styled(
                format!(
                    " {} ",
                    // Chinese and Japanese readers get their own word (红方, not the
                    // board's traditional 紅); Korean keeps the board's 楚/漢.
                    if glyphs == GlyphSet::Latin || language.names_sides_in_hanzi() {
                        language.text(side_key(game, side))
                    } else {
                        native_side_name(game, side)
                    }
                ),
                theme.side_label(side),
            )];
            let pieces: Vec<String> = captured[side.index()]
                .iter()
                .map(|&kind| {
                    glyphs::piece(
                        game,
                        Piece {
                            side: side.opponent(),
                            kind,
                        },
                        glyphs,
                    )
                    .to_string()
                })
                .collect();
            spans.push(Span::styled(
                pieces.join(""),
                theme.side_label(side.opponent()),
            ));
            lines.push(Line::from(spans));
        }
        // Points decide nothing under the traditional and casual rules: not shown there.
        let counts_points = match play.game.variant() {
            crate::rules::any::Variant::Janggi(rules) => {
                rules.scoring || rules.gungjanggi.is_some()
            }
            _ => false,
        };
        if let Some(scores) = position.janggi_scores().filter(|_| counts_points) {
            let text = scores.to_string();
            let mut parts = text.split(' ');
            let (first, second) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            lines.push(Line::from(vec![
                Span::styled(
                    format!(
                        "{} ",
                        language.text(
                            gungjanggi_status
                                .as_ref()
                                .map_or(Key::ScoreHeading, gungjanggi::material_heading)
                        )
                    ),
                    theme.title,
                ),
                Span::styled(
                    format!("{} {first}", language.text(side_key(game, Side::First))),
                    theme.side_label(Side::First),
                ),
                Span::raw("  "),
                Span::styled(
                    format!("{} {second}", language.text(side_key(game, Side::Second))),
                    theme.side_label(Side::Second),
                ),
            ]));
        }
    }
    lines.push(Line::styled(language.text(Key::MovesHeading), theme.title));
    let used = lines.len() as u16;
    // The evaluation graph of an analysed game takes the foot of the panel.
    let graph = review::graph_rows(play, area, area.height.saturating_sub(used));
    let room = area.height.saturating_sub(used + graph) as usize;
    lines.extend(move_list_lines(
        play,
        app.settings.language,
        app.settings.glyphs,
        room,
        area.width,
        &theme,
    ));
    Paragraph::new(lines).render(area, buffer);
    if graph > 0 {
        let graph_area = Rect::new(area.x, area.bottom() - graph, area.width, graph);
        review::render_graph(app, play, graph_area, &theme, buffer);
    }
}

/// How a game's move list counts: shogi players count plies (手) and janggi records
/// (.gib) number every ply too; xiangqi numbers rounds (回合), Red's and Black's move
/// under one number.
pub fn counts_plies(game: GameKind) -> bool {
    game != GameKind::Xiangqi
}

/// The number the move list shows beside the last of `plies` moves of a game whose
/// first mover is `first_mover`: the ply itself, or (xiangqi) its round. The start
/// screen's "continue" row says the same number.
pub fn shown_move_number(game: GameKind, first_mover: Side, plies: usize) -> usize {
    if counts_plies(game) {
        plies
    } else {
        (plies + usize::from(first_mover == Side::Second)).div_ceil(2)
    }
}

/// The move list, scrolled so the shown ply is visible. Shogi and janggi: two plies a
/// line from ply 1, each with its own number (`1 ▲７六歩   2 △３四歩`), so a handicap
/// game's first move (Gote's) opens the first line instead of standing under an empty
/// Sente column; one ply a line where two do not fit. Xiangqi: one round a line, Red's
/// move then Black's (`1. 炮二平五   马８进７`).
fn move_list_lines(
    play: &Play,
    language: Language,
    glyph_set: GlyphSet,
    room: usize,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if room == 0 {
        return Vec::new();
    }
    // The whole current line: the moves played, then (dimmed) those redo replays.
    let moves = play.line_moves();
    let played = play.game.moves().len();
    let mut positions = play.game.positions().to_vec();
    for &mv in moves.iter().skip(played) {
        let mut next = positions.last().expect("a start position").clone();
        next.play_unchecked(mv);
        positions.push(next);
    }
    let game = play.game.variant().kind();
    let first_mover = play.game.start().side_to_move();
    let shown = play.shown_ply();
    let by_ply = counts_plies(game);
    // Each ply's number takes as many digits as the last one needs (at least two).
    let digits = moves.len().max(10).to_string().len();
    let number_width = digits + if game == GameKind::Shogi { 1 } else { 2 };
    // Xiangqi: one number a line; by ply: one number a ply, two plies a line when they fit.
    let per_row = if by_ply && usize::from(width) < 2 * (number_width + 7) + 1 {
        1
    } else {
        2
    };
    let column = if by_ply {
        (usize::from(width).saturating_sub(1) / per_row)
            .saturating_sub(number_width)
            .clamp(7, 12)
    } else {
        (width.saturating_sub(5) / 2).clamp(7, 12) as usize
    };
    // Xiangqi rounds begin with Red: a game Black begins leaves Red's first place empty.
    let offset = usize::from(!by_ply && first_mover == Side::Second);
    let total_rows = (moves.len() + offset).div_ceil(per_row);
    let focus_row = (shown.saturating_sub(1) + offset) / per_row;
    let first_row = if total_rows <= room {
        0
    } else {
        focus_row
            .saturating_sub(room - 1)
            .min(total_rows - room)
            .max(if shown == moves.len() {
                total_rows - room
            } else {
                0
            })
    };
    let notation = play.notation_for(language, glyph_set);
    let text_of = |ply: usize| -> String {
        if let Some(word) = gungjanggi::pass_word(language, &positions[ply], moves[ply], notation) {
            return word.to_string();
        }
        let previous = ply.checked_sub(1).map(|before| moves[before]);
        format_move_after(&positions[ply], moves[ply], notation, previous)
    };
    let mut lines = Vec::new();
    for row in first_row..total_rows.min(first_row + room) {
        let mut spans = Vec::new();
        if !by_ply {
            spans.push(Span::styled(format!("{:>3}. ", row + 1), theme.dim));
        }
        for slot in 0..per_row {
            let ply = (row * per_row + slot).checked_sub(offset);
            let text = match ply {
                Some(ply) if ply < moves.len() => text_of(ply),
                _ => String::new(),
            };
            if by_ply {
                let number = match ply {
                    Some(ply) if ply < moves.len() => ply + 1,
                    _ => break,
                };
                // Shogi writes `1 ▲７六歩` as KIF does; janggi `1. 79졸78` as .gib does.
                let dot = if game == GameKind::Shogi { "" } else { "." };
                let label = format!("{number:>digits$}{dot} ");
                spans.push(Span::styled(format!("{label:>number_width$}"), theme.dim));
            }
            let style = match ply {
                Some(ply) if ply + 1 == shown => theme.highlight,
                Some(ply) if ply >= played => theme.dim,
                _ => Style::new(),
            };
            // The move's marks (`?!`, `??`, `!?`) in their colours, then `*` where the
            // position after it has variations.
            let mut after = match ply {
                Some(ply) if ply < moves.len() => review::move_marks(play, ply, theme),
                _ => Vec::new(),
            };
            if ply.is_some_and(|ply| ply < moves.len() && play.variations_at(ply + 1).len() > 1) {
                after.push(Span::styled("*", style));
            }
            let used = text.width() + after.iter().map(|s| s.content.width()).sum::<usize>();
            // Pad by display width: CJK characters take two columns.
            let padding = column.saturating_sub(used).max(1);
            spans.push(Span::styled(text, style));
            spans.extend(after);
            spans.push(Span::styled(" ".repeat(padding), style));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The save prompt on the status line: the typed file name and where it goes.
fn render_save_prompt(app: &App, text: &str, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let language = app.settings.language;
    Paragraph::new(Line::from(vec![
        Span::styled(
            format!(" {}", language.text(Key::SavePromptLabel)),
            theme.title,
        ),
        Span::styled(format!("{text}▏"), theme.highlight),
        Span::styled(
            format!("  {}", language.text(Key::SavePromptHint)),
            theme.dim,
        ),
    ]))
    .render(area, buffer);
}

fn render_status(app: &App, play: &Play, area: Rect, theme: &Theme, buffer: &mut Buffer) {
    let language = app.settings.language;
    if let Some(Overlay::Prompt { text }) = &app.overlay {
        Paragraph::new(Line::from(vec![
            Span::styled(format!(" {}", language.text(Key::PromptLabel)), theme.title),
            Span::styled(format!("{text}▏"), theme.highlight),
            Span::styled(
                format!(
                    "  {}",
                    shown_text(app.settings.glyphs, language.text(Key::PromptHint))
                ),
                theme.dim,
            ),
        ]))
        .render(area, buffer);
        return;
    }
    if let Some(Overlay::SaveAs { text }) = &app.overlay {
        render_save_prompt(app, text, area, theme, buffer);
        return;
    }
    let game = play.game.variant().kind();
    let event = gungjanggi::event_text(language, play);
    let line = match &app.status {
        Some(status) => Line::styled(
            format!(" {}", status.text),
            if status.error {
                theme.error
            } else {
                theme.status
            },
        ),
        None if play.review.is_none() && play.game.outcome().is_some() => {
            // A finished game: its result, not whose turn it would be.
            let outcome = play.game.outcome().expect("checked above");
            Line::styled(
                format!(
                    " {}",
                    outcome_text(language, app.settings.glyphs, game, &outcome)
                ),
                theme.title,
            )
        }
        // What the last move did in gungjanggi (a bikjang called, a promotion, the
        // judging phase beginning), said at the moment it happens.
        None if event.is_some() => Line::styled(
            format!(" {}", event.as_deref().unwrap_or_default()),
            theme.warning,
        ),
        None => {
            let mover = play.shown_position().side_to_move();
            let name = side_name(language, app.settings.glyphs, game, mover);
            let mut spans = vec![Span::styled(
                format!(" {}", language.format(Key::ToMove, &[&name])),
                theme.side_label(mover),
            )];
            if play.in_progress() && play.review.is_none() && play.player(mover) == Player::Human {
                spans.push(Span::styled(
                    format!(" · {}", language.text(Key::StatusChoosePiece)),
                    theme.dim,
                ));
            }
            Line::from(spans)
        }
    };
    Paragraph::new(line).render(area, buffer);
}

// ----- the start screen ---------------------------------------------------

/// A start-screen value in at most `room` columns: a shorter form when the full one is
/// too wide (a handicap's two names), cut with `…` as the last resort.
fn start_value(app: &App, options: &StartOptions, field: StartField, room: usize) -> String {
    let value = full_start_value(app, options, field);
    if value.width() <= room || matches!(field, StartField::Start | StartField::Continue) {
        return value;
    }
    let shorter = match field {
        StartField::Handicap if app.settings.language == Language::English => {
            options.handicap().english().to_string()
        }
        StartField::Handicap => options.handicap().japanese().to_string(),
        _ => value,
    };
    cut_to_width(&shorter, room)
}

/// The text as it fits `room` columns: whole, or cut with `…` at the end, so a cut never
/// passes for the whole text.
fn cut_to_width(text: &str, room: usize) -> String {
    crate::app::thinking::truncate_to_width(text, room)
}

fn full_start_value(app: &App, options: &StartOptions, field: StartField) -> String {
    let language = app.settings.language;
    let latin = app.settings.glyphs == GlyphSet::Latin;
    let setup_text = |setup: crate::rules::janggi::Setup| {
        let letters: String = [1, 2, 6, 7]
            .iter()
            .map(|&i| match setup.back_rank().as_bytes()[i] {
                b'N' => 'H',
                _ => 'E',
            })
            .collect();
        if latin {
            letters
        } else if language.names_sides_in_hanzi() {
            // Chinese and Japanese readers read the pieces' hanja, not Hangul: 馬象象馬.
            let hanja: String = letters
                .chars()
                .map(|letter| if letter == 'H' { '馬' } else { '象' })
                .collect();
            format!("{hanja} {letters}")
        } else {
            format!("{} {letters}", setup.korean())
        }
    };
    match field {
        StartField::Game => {
            shown_text(app.settings.glyphs, language.text(options.game().name)).to_string()
        }
        StartField::Rules => {
            let rule_sets = options.game().rule_sets;
            language
                .text(rule_sets[options.rules.min(rule_sets.len() - 1)].1)
                .to_string()
        }
        StartField::HanSetup => setup_text(options.han_setup),
        StartField::ChoSetup => setup_text(options.cho_setup),
        StartField::Handicap => {
            let handicap = options.handicap();
            if latin {
                handicap.english().to_string()
            } else if language.names_sides_in_hanzi() {
                // 香落ち needs no English beside it for readers of kanji.
                handicap.japanese().to_string()
            } else {
                format!("{} {}", handicap.japanese(), handicap.english())
            }
        }
        StartField::Player(side) => player_text(app, options.players[side.index()]),
        StartField::Time => clocks::time_control_text(language, options.time),
        StartField::Start => language.text(Key::StartButton).to_string(),
        StartField::Continue => match &app.resume {
            Some(saved) => {
                let variant = saved.game.variant();
                let name = language.text(StartOptions::for_variant(variant).game().name);
                let short = name.split_whitespace().next().unwrap_or(name);
                // The number the move list ends at: plies, or xiangqi's rounds.
                let kind = variant.kind();
                let plies = saved.game.moves().len();
                let first_mover = saved.game.start().side_to_move();
                let number = shown_move_number(kind, first_mover, plies).to_string();
                let key = if counts_plies(kind) {
                    Key::ContinueSavedGame
                } else {
                    Key::ContinueSavedGameRounds
                };
                language.format(key, &[short, &number])
            }
            None => String::new(),
        },
    }
}

fn start_label(app: &App, game: GameKind, field: StartField) -> String {
    let language = app.settings.language;
    match field {
        StartField::Game => language.text(Key::FieldGame).to_string(),
        StartField::Rules => language.text(Key::FieldRules).to_string(),
        StartField::HanSetup => language.text(Key::FieldHanSetup).to_string(),
        StartField::ChoSetup => language.text(Key::FieldChoSetup).to_string(),
        StartField::Handicap => language.text(Key::FieldHandicap).to_string(),
        StartField::Player(side) => side_name(language, app.settings.glyphs, game, side),
        StartField::Time => language.text(Key::FieldTime).to_string(),
        StartField::Start | StartField::Continue => String::new(),
    }
}

fn render_start(app: &App, area: Rect, buffer: &mut Buffer) {
    let options = &app.options;
    let game = options.game().kind;
    let theme = app_theme(app, game);
    title_line(
        app,
        app.text(Key::NewGameHeading).to_string(),
        Rect::new(area.x, area.y, area.width, 1),
        buffer,
    );
    if area.height < 4 {
        return;
    }
    let fields = app.start_fields();
    let geometry = start_geometry(app, area);
    let menu = geometry.menu;
    let (board_width, board_height) =
        board_dimensions(game, BoardSize::Compact, app.settings.glyphs);
    let block = Block::bordered()
        .title(Span::styled(
            format!(" {} ", app.text(Key::NewGameHeading)),
            theme.title,
        ))
        .border_style(theme.dim);
    let inner = block.inner(menu);
    block.render(menu, buffer);
    let label_width = 10usize;
    let mut lines = Vec::new();
    for (row, &field) in fields.iter().enumerate() {
        let focused = row == app.start_row;
        let label = start_label(app, game, field);
        // The cursor mark, the label and the two arrows take the rest of the row.
        // One column stays free before the border.
        let room = (inner.width as usize).saturating_sub(1 + label_width.max(label.width()) + 5);
        let value = start_value(app, options, field, room);
        let line = if matches!(field, StartField::Start | StartField::Continue) {
            let text = format!("[ {value} ]");
            let style = if focused {
                theme.highlight.add_modifier(Modifier::BOLD)
            } else {
                theme.title
            };
            Line::from(Span::styled(text, style)).alignment(Alignment::Center)
        } else {
            let label_pad = label_width.saturating_sub(board::text_width(&label, false) as usize);
            let label_style = match field {
                StartField::Player(side) => theme.side_label(side),
                _ => theme.dim,
            };
            let value_style = if focused {
                theme.highlight
            } else {
                Style::new()
            };
            let arrows = if focused {
                ("◀ ", " ▶")
            } else {
                ("  ", "  ")
            };
            Line::from(vec![
                Span::styled(if focused { "›" } else { " " }, theme.title),
                Span::styled(format!("{label}{}", " ".repeat(label_pad)), label_style),
                Span::styled(arrows.0, theme.title),
                Span::styled(value, value_style),
                Span::styled(arrows.1, theme.title),
            ])
        };
        lines.push(line);
        lines.push(Line::from(""));
    }
    Paragraph::new(lines).render(inner, buffer);
    if let Some(preview) = geometry.preview {
        // With "continue" focused, the preview shows where the saved game stopped.
        let position = match (fields.get(app.start_row), &app.resume) {
            (Some(StartField::Continue), Some(saved)) => saved.game.position().clone(),
            _ => options.start_position(),
        };
        let canvas = board::draw(
            &position,
            &Marks::default(),
            BoardStyle {
                size: BoardSize::Compact,
                glyphs: app.settings.glyphs,
                flipped: false,
                theme: &theme,
            },
        );
        canvas.render(
            Rect::new(preview.x, preview.y, board_width, board_height),
            buffer,
        );
        render_preview_hands(app, &position, preview, area, &theme, buffer);
    }
    // A message (e.g. an autosave that could not be read) takes the hints' place until
    // the next key.
    let hints = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let (text, style) = match &app.status {
        Some(status) => (
            status.text.as_str(),
            if status.error {
                theme.error
            } else {
                theme.status
            },
        ),
        None => (app.text(Key::StartHints), theme.dim),
    };
    // A long message (a config problem with its file, line and key) is cut with `…`.
    Paragraph::new(cut_to_width(text, usize::from(area.width)))
        .alignment(Alignment::Center)
        .style(style)
        .render(hints, buffer);
}

/// The pieces in hand of a previewed shogi position (a saved game's): Gote's on the
/// row above the board, Sente's on the row below, each line led by its side's mark.
/// Nothing is drawn while both hands are empty (a start position) or where no row is free.
fn render_preview_hands(
    app: &App,
    position: &AnyPosition,
    preview: Rect,
    area: Rect,
    theme: &Theme,
    buffer: &mut Buffer,
) {
    if position.game() != GameKind::Shogi
        || [Side::First, Side::Second]
            .iter()
            .all(|&side| position.hand(side).is_empty())
    {
        return;
    }
    let glyphs = app.settings.glyphs;
    for (side, row) in [
        (Side::Second, preview.y.checked_sub(1)),
        (Side::First, Some(preview.bottom())),
    ] {
        // The title takes the first row and the hints the last.
        let Some(row) = row.filter(|&row| row > area.y && row + 1 < area.bottom()) else {
            continue;
        };
        let heading = hand_heading(app.settings.language, glyphs, side);
        let pieces: Vec<String> = position
            .hand(side)
            .into_iter()
            .map(|(kind, count)| board::hand_entry(kind, count, side, glyphs))
            .collect();
        let width = usize::from(area.right().saturating_sub(preview.x));
        let text = cut_to_width(&format!("{heading} {}", pieces.join(" ")), width);
        buffer.set_stringn(preview.x, row, &heading, width, theme.side_label(side));
        let rest = text.get(heading.len()..).unwrap_or("");
        let heading_width = board::text_width(&heading, false);
        buffer.set_stringn(
            preview.x + heading_width,
            row,
            rest,
            width.saturating_sub(usize::from(heading_width)),
            theme.hand,
        );
    }
}

/// Where the start screen's menu and preview go.
struct StartGeometry {
    menu: Rect,
    preview: Option<Rect>,
}

fn start_geometry(app: &App, area: Rect) -> StartGeometry {
    let game = app.options.game().kind;
    let fields = app.start_fields().len() as u16;
    let (board_width, board_height) =
        board_dimensions(game, BoardSize::Compact, app.settings.glyphs);
    let room_for_menu = area.width.saturating_sub(board_width + 3);
    let show_preview = room_for_menu >= 34 && area.height >= board_height + 3;
    let menu_width = if show_preview {
        room_for_menu.min(46)
    } else {
        area.width.saturating_sub(2).min(46)
    };
    let menu_height = (fields * 2 + 1).min(area.height.saturating_sub(2));
    let content_height = if show_preview {
        menu_height.max(board_height)
    } else {
        menu_height
    };
    let total_width = if show_preview {
        menu_width + 2 + board_width
    } else {
        menu_width
    };
    let left = area.x + area.width.saturating_sub(total_width) / 2;
    let top = area.y + 1 + area.height.saturating_sub(2).saturating_sub(content_height) / 2;
    let menu_top = top + content_height.saturating_sub(menu_height) / 2;
    StartGeometry {
        menu: Rect::new(left, menu_top, menu_width, menu_height),
        preview: show_preview
            .then(|| Rect::new(left + menu_width + 2, top, board_width, board_height)),
    }
}

/// The start-menu row under a screen row, for mouse clicks (an index into the fields).
pub fn start_row_at(app: &App, area: Rect, row: u16) -> Option<usize> {
    if app.screen != Screen::Start {
        return None;
    }
    let fields = app.start_fields();
    let menu = start_geometry(app, area).menu;
    let inner_top = menu.y + 1;
    if row < inner_top || row >= menu.bottom() {
        return None;
    }
    let offset = row - inner_top;
    (offset.is_multiple_of(2) && (offset / 2) < fields.len() as u16)
        .then_some((offset / 2) as usize)
}

// ----- popups -------------------------------------------------------------

/// Clears a popup's area, and any wide glyph just left of it whose second half the
/// popup's left border would otherwise hide (the terminal would draw the glyph, not the border).
pub(crate) fn clear_popup(rect: Rect, buffer: &mut Buffer) {
    Clear.render(rect, buffer);
    if rect.x == 0 {
        return;
    }
    for y in rect.y..rect.y.saturating_add(rect.height) {
        if let Some(cell) = buffer.cell_mut((rect.x - 1, y)) {
            if unicode_width::UnicodeWidthStr::width(cell.symbol()) > 1 {
                cell.set_symbol(" ");
            }
        }
    }
}

pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

pub(crate) fn popup_block(title: &str, theme: &Theme) -> Block<'static> {
    Block::bordered()
        .title(Span::styled(
            format!(" {title} "),
            theme.popup.add_modifier(Modifier::BOLD),
        ))
        .style(theme.popup)
        .border_style(theme.popup_border)
}

fn render_overlay(app: &App, area: Rect, buffer: &mut Buffer) {
    let Some(overlay) = &app.overlay else { return };
    let language = app.settings.language;
    let glyphs = app.settings.glyphs;
    let game = app
        .play
        .as_ref()
        .map(|p| p.game.variant().kind())
        .unwrap_or(app.options.game().kind);
    let theme = app_theme(app, game);
    match overlay {
        Overlay::Prompt { .. } | Overlay::SaveAs { .. } => {}
        Overlay::Settings { row } => settings::render(app, *row, area, &theme, buffer),
        Overlay::Variations { choice } => variations::render(app, *choice, area, &theme, buffer),
        Overlay::Help { scroll } => {
            // Up to 104 columns the help takes the whole width: a margin of two would
            // leave bits of the panel (a clock's last digit) beside its border.
            let width = if area.width <= 104 { area.width } else { 100 };
            let rect = centered(
                area,
                width,
                // Leave the title, status and hint lines visible.
                area.height.saturating_sub(4),
            );
            clear_popup(rect, buffer);
            let block = popup_block(
                &format!(
                    "{} — {}",
                    language.text(Key::HelpTitle),
                    language.text(Key::HelpClose)
                ),
                &theme,
            );
            let inner_width = rect.width.saturating_sub(2).max(1) as usize;
            let lines = help_lines(app, language, glyphs, game, &theme, inner_width);
            // Never scroll past the end: count the wrapped rows the text takes.
            let inner_height = rect.height.saturating_sub(2) as usize;
            let rows: usize = lines
                .iter()
                .map(|line| line.width().max(1).div_ceil(inner_width))
                .sum();
            let last_start = rows.saturating_sub(inner_height) as u16;
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false })
                .scroll(((*scroll).min(last_start), 0))
                .render(rect, buffer);
        }
        Overlay::OpenFile {
            text,
            choices,
            choice,
        } => {
            let width = area.width.saturating_sub(4).min(90);
            let rows = usize::from(area.height.saturating_sub(9)).clamp(1, 12);
            let mut lines = vec![Line::from(vec![
                Span::styled(" > ", theme.popup),
                Span::styled(format!("{text}▏"), theme.highlight),
            ])];
            lines.push(Line::from(""));
            if choices.is_empty() {
                lines.push(Line::styled(
                    format!("   {}", language.text(Key::OpenNoRecords)),
                    theme.popup,
                ));
            }
            // A window of the list that keeps the highlighted file in view.
            let first = choice.map_or(0, |c| c.saturating_sub(rows - 1));
            for (index, path) in choices.iter().enumerate().skip(first).take(rows) {
                let shown = short_path(path);
                let style = if Some(index) == *choice {
                    theme.highlight
                } else {
                    theme.popup
                };
                lines.push(Line::styled(format!("   {shown}"), style));
            }
            lines.push(Line::from(""));
            lines.push(Line::styled(
                format!(" {}", language.text(Key::OpenPromptHint)),
                theme.popup.add_modifier(Modifier::DIM),
            ));
            let height = (lines.len() as u16 + 2).min(area.height);
            let rect = centered(area, width, height);
            clear_popup(rect, buffer);
            Paragraph::new(lines)
                .block(popup_block(language.text(Key::OpenPromptTitle), &theme))
                .render(rect, buffer);
        }
        Overlay::GameOver { choice } => {
            let Some(play) = &app.play else { return };
            let Some(outcome) = play.game.outcome() else {
                return;
            };
            let mut lines = vec![
                Line::from(""),
                Line::styled(
                    outcome_text(language, glyphs, game, &outcome),
                    theme.popup.add_modifier(Modifier::BOLD),
                )
                .alignment(Alignment::Center),
            ];
            let scores = match outcome {
                Outcome::Win { scores, .. } | Outcome::Draw { scores, .. } => scores,
            };
            // Gungjanggi's 기물승 and 후수승 already name both material totals in the
            // result line: no second line that would call them points.
            let totals_said = gungjanggi::outcome_totals(language, &outcome).is_some();
            if let Some(scores) = scores.filter(|_| !totals_said) {
                let text = scores.to_string();
                let mut parts = text.split(' ');
                let first = parts.next().unwrap_or("").to_string();
                let second = parts.next().unwrap_or("").to_string();
                lines.push(
                    Line::from(language.format(
                        Key::FinalScores,
                        &[
                            language.text(side_key(game, Side::First)),
                            &first,
                            language.text(side_key(game, Side::Second)),
                            &second,
                        ],
                    ))
                    .alignment(Alignment::Center),
                );
            }
            lines.push(Line::from(""));
            let choices = [
                Key::ChoiceReview,
                Key::ChoiceNewGame,
                Key::ChoiceQuit,
                Key::ChoiceAnalyse,
            ];
            for (index, key) in choices.into_iter().enumerate() {
                let hotkey = ["r", "n", "q", "A"][index];
                let style = if index == *choice {
                    theme.highlight
                } else {
                    theme.popup
                };
                lines.push(
                    Line::styled(format!("  {hotkey}  {}  ", language.text(key)), style)
                        .alignment(Alignment::Center),
                );
            }
            let height = lines.len() as u16 + 3;
            let rect = centered(area, 48, height);
            clear_popup(rect, buffer);
            Paragraph::new(lines)
                .block(popup_block(language.text(Key::GameOverTitle), &theme))
                .render(rect, buffer);
        }
        Overlay::Confirm(question) => {
            let text = match *question {
                Question::Quit | Question::NewGame => language.text(Key::ConfirmQuit).to_string(),
                Question::Resign(side) => language.format(
                    Key::ConfirmResign,
                    &[&side_name(language, glyphs, game, side)],
                ),
                Question::Undo => language.text(Key::ConfirmUndo).to_string(),
                Question::Redo => language.text(Key::ConfirmRedo).to_string(),
                Question::DrawOffer(side)
                    if app
                        .play
                        .as_ref()
                        .is_some_and(|play| gungjanggi::is_gungjanggi(&play.game)) =>
                {
                    gungjanggi::judge_offer_text(language, glyphs, side)
                }
                Question::Overwrite => language.format(
                    Key::ConfirmOverwrite,
                    &[app.save_to_replace.as_deref().unwrap_or("")],
                ),
                Question::DrawOffer(side) => language.format(
                    Key::DrawOffer,
                    &[
                        &side_name(language, glyphs, game, side),
                        &side_name(language, glyphs, game, side.opponent()),
                    ],
                ),
            };
            let lines = vec![
                Line::from(""),
                Line::from(text).alignment(Alignment::Center),
                Line::from(""),
                Line::styled(
                    language.text(Key::YesNo),
                    theme.popup.add_modifier(Modifier::BOLD),
                )
                .alignment(Alignment::Center),
            ];
            let rect = centered(area, 52, 7);
            clear_popup(rect, buffer);
            Paragraph::new(lines)
                .wrap(Wrap { trim: true })
                .block(popup_block(
                    &shown_text(app.settings.glyphs, language.text(Key::AppTitle)),
                    &theme,
                ))
                .render(rect, buffer);
        }
        Overlay::Promotion { promote, plain, .. } => {
            let piece = app
                .play
                .as_ref()
                .and_then(|p| p.game.position().piece_on(plain.from));
            let glyph = piece.map(|p| glyphs::piece(game, p, glyphs)).unwrap_or("");
            // What the piece becomes: 角 → 馬 (B → +B with Latin glyphs).
            let promoted = piece
                .and_then(|p| {
                    let kind = p.kind.promoted()?;
                    Some(glyphs::piece(game, Piece { kind, ..p }, glyphs))
                })
                .unwrap_or("?");
            let option = |selected: bool, key: Key| {
                let style = if selected {
                    theme.highlight
                } else {
                    theme.popup
                };
                Line::styled(format!("  {}  ", language.text(key)), style)
                    .alignment(Alignment::Center)
            };
            let lines = vec![
                Line::from(format!("{glyph} → {promoted}")).alignment(Alignment::Center),
                option(*promote, Key::PromoteYes),
                option(!*promote, Key::PromoteNo),
            ];
            let rect = centered(area, 30, 5 + 1);
            clear_popup(rect, buffer);
            Paragraph::new(lines)
                .block(popup_block(language.text(Key::PromoteTitle), &theme))
                .render(rect, buffer);
        }
    }
}

/// The pieces of a game for the help: a sample piece of each kind and its description.
fn help_pieces(game: GameKind) -> Vec<(Vec<PieceKind>, Key)> {
    match game {
        GameKind::Xiangqi | GameKind::Janggi => {
            let janggi = game == GameKind::Janggi;
            let pick = |xiangqi: Key, janggi_key: Key| if janggi { janggi_key } else { xiangqi };
            vec![
                (
                    vec![PieceKind::General],
                    pick(Key::PieceXiangqiGeneral, Key::PieceJanggiGeneral),
                ),
                (
                    vec![PieceKind::Advisor],
                    pick(Key::PieceXiangqiAdvisor, Key::PieceJanggiAdvisor),
                ),
                (
                    vec![PieceKind::Elephant],
                    pick(Key::PieceXiangqiElephant, Key::PieceJanggiElephant),
                ),
                (
                    vec![PieceKind::Horse],
                    pick(Key::PieceXiangqiHorse, Key::PieceJanggiHorse),
                ),
                (
                    vec![PieceKind::Chariot],
                    pick(Key::PieceXiangqiChariot, Key::PieceJanggiChariot),
                ),
                (
                    vec![PieceKind::Cannon],
                    pick(Key::PieceXiangqiCannon, Key::PieceJanggiCannon),
                ),
                (
                    vec![PieceKind::Soldier],
                    pick(Key::PieceXiangqiSoldier, Key::PieceJanggiSoldier),
                ),
            ]
        }
        GameKind::Shogi => vec![
            (vec![PieceKind::King], Key::PieceShogiKing),
            (
                vec![PieceKind::Rook, PieceKind::Dragon],
                Key::PieceShogiRook,
            ),
            (
                vec![PieceKind::Bishop, PieceKind::PromotedBishop],
                Key::PieceShogiBishop,
            ),
            (vec![PieceKind::Gold], Key::PieceShogiGold),
            (vec![PieceKind::Silver], Key::PieceShogiSilver),
            (vec![PieceKind::Knight], Key::PieceShogiKnight),
            (vec![PieceKind::Lance], Key::PieceShogiLance),
            (vec![PieceKind::Pawn], Key::PieceShogiPawn),
            (
                vec![
                    PieceKind::PromotedSilver,
                    PieceKind::PromotedKnight,
                    PieceKind::PromotedLance,
                    PieceKind::Tokin,
                ],
                Key::PieceShogiPromoted,
            ),
        ],
    }
}

/// Word-wraps `text` to `width` columns: the first line after `first` columns the
/// caller has already used, the following ones indented by `indent` spaces (a hanging
/// indent, so a long description stays in its column). A word longer than a line is cut
/// between characters. Chinese and Japanese break between any two characters, so a
/// word with wide characters fills the line it starts on; a closing mark (`。`, `、`,
/// `)`) never begins a line, it takes the character before it along.
fn hanging_lines(text: &str, first: usize, indent: usize, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let char_width = |character: char| character.width().unwrap_or(0);
    let mut lines = vec![String::new()];
    let mut used = first;
    let mut has_content = false;
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        // Chinese and Japanese run on without spaces and break between any two
        // characters; Korean puts spaces between words and breaks only there (a word
        // with Hangul in it stays whole), as do Latin words (`PGN/KIF/CSA/.gib`).
        let hangul = word.chars().any(is_hangul);
        let breakable = !hangul && word.chars().any(|character| char_width(character) == 2)
            || word.width() + indent > width;
        if has_content {
            let needed = if breakable {
                word.chars().next().map_or(0, char_width)
            } else {
                word.width()
            };
            if used + 1 + needed <= width {
                lines.last_mut().expect("a line").push(' ');
                used += 1;
            } else {
                lines.push(" ".repeat(indent));
                used = indent;
                has_content = false;
            }
        }
        for character in word.chars() {
            let character_width = char_width(character);
            if has_content && used + character_width > width {
                let line = lines.last_mut().expect("a line");
                let carried = if is_closing_mark(character) && line.trim().chars().count() > 1 {
                    line.pop().filter(|c| *c != ' ')
                } else {
                    None
                };
                lines.push(" ".repeat(indent));
                used = indent;
                if let Some(carried) = carried {
                    lines.last_mut().expect("a line").push(carried);
                    used += char_width(carried);
                }
            }
            lines.last_mut().expect("a line").push(character);
            used += character_width;
            has_content = true;
        }
    }
    lines
}

/// True for Hangul syllables and letters.
fn is_hangul(character: char) -> bool {
    matches!(character, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

/// Punctuation that closes a phrase and so may not begin a line in Chinese or Japanese.
fn is_closing_mark(character: char) -> bool {
    matches!(
        character,
        '。' | '、'
            | '，'
            | '．'
            | '：'
            | '；'
            | '！'
            | '？'
            | '）'
            | '」'
            | '』'
            | ')'
            | ':'
            | ','
            | '.'
            | '!'
            | '?'
            | '…'
            | 'ー'
            | 'っ'
            | 'ゃ'
            | 'ゅ'
            | 'ょ'
            | 'ッ'
            | 'ャ'
            | 'ュ'
            | 'ョ'
    )
}

fn help_lines(
    app: &App,
    language: Language,
    glyphs: GlyphSet,
    game: GameKind,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let heading = theme.heading;
    let variant = app
        .play
        .as_ref()
        .map(|p| p.game.variant())
        .unwrap_or(app.options.variant());
    let gungjanggi = variant.is_gungjanggi();
    let mut lines = vec![Line::styled(language.text(Key::HelpKeys), heading)];
    for &(keys, key) in KEY_HELP {
        let keys = if key == Key::KeyMouse {
            language.text(Key::MouseLabel).to_string()
        } else {
            crate::app::keymap::help_keys(&app.keymap, &app.config.keys, (keys, key))
        };
        let label = format!(
            "  {keys}{}",
            " ".repeat(12usize.saturating_sub(keys.width()))
        );
        let column = label.width();
        // Gungjanggi has no draws: its draw key asks to judge; its pass has limits.
        let key = match key {
            Key::KeyDraw if gungjanggi => Key::KeyJudge,
            Key::KeyPass if gungjanggi => Key::KeyPassGungjanggi,
            other => other,
        };
        // Long descriptions continue under themselves, not under the keys.
        let mut description = hanging_lines(language.text(key), column, 14, width).into_iter();
        lines.push(Line::from(vec![
            Span::styled(label, theme.popup.add_modifier(Modifier::BOLD)),
            Span::raw(description.next().unwrap_or_default()),
        ]));
        lines.extend(description.map(Line::from));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(language.text(Key::HelpPieces), heading));
    for (kinds, key) in help_pieces(game) {
        let mut spans = vec![Span::raw("  ")];
        for side in [Side::First, Side::Second] {
            let mut seen = Vec::new();
            for &kind in &kinds {
                let glyph = glyphs::piece(game, Piece { side, kind }, glyphs);
                if !seen.contains(&glyph) {
                    seen.push(glyph);
                    spans.push(Span::styled(glyph, theme.side_label(side)));
                }
            }
            spans.push(Span::raw(" "));
        }
        spans.push(Span::raw(" "));
        let column = Line::from(spans.clone()).width();
        let text = shown_text(glyphs, language.text(key));
        let mut description = hanging_lines(&text, column, column, width).into_iter();
        spans.push(Span::raw(description.next().unwrap_or_default()));
        lines.push(Line::from(spans));
        lines.extend(description.map(Line::from));
    }
    if gungjanggi {
        // Both forms of the king (and in Manual 2 of soldier and advisor), and what
        // promotion changes.
        let dan = matches!(variant, crate::rules::any::Variant::Janggi(rules)
            if rules.gungjanggi.is_some_and(|g| g.dan));
        for (forms, key) in gungjanggi::help_piece_entries(glyphs, dan) {
            let mut spans = vec![Span::raw("  ")];
            for (text, side) in forms {
                spans.push(Span::styled(text, theme.side_label(side)));
                spans.push(Span::raw(" "));
            }
            spans.push(Span::raw(" "));
            let column = Line::from(spans.clone()).width();
            let mut description =
                hanging_lines(language.text(key), column, column.min(14), width).into_iter();
            spans.push(Span::raw(description.next().unwrap_or_default()));
            lines.push(Line::from(spans));
            lines.extend(description.map(Line::from));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(language.text(Key::HelpRules), heading));
    let rules = match game {
        GameKind::Xiangqi => Key::RulesXiangqi,
        GameKind::Shogi => Key::RulesShogi,
        // Gungjanggi's own rules replace janggi's scoring paragraph.
        GameKind::Janggi if gungjanggi => Key::RulesGungjanggi,
        GameKind::Janggi => Key::RulesJanggi,
    };
    lines.extend(paragraph_lines(
        &shown_text(glyphs, language.text(rules)),
        width,
    ));
    lines
}

/// A help paragraph, indented by two columns on every line.
fn paragraph_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    hanging_lines(text, 2, 2, width)
        .into_iter()
        .enumerate()
        .map(|(index, line)| {
            Line::from(if index == 0 {
                format!("  {line}")
            } else {
                line
            })
        })
        .collect()
}

#[cfg(test)]
mod contrast_tests;
#[cfg(test)]
mod gungjanggi_tests;
#[cfg(test)]
mod language_tests;
#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod newplayer_tests;
#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod variation_tests;
