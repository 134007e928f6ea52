//! The boards, drawn on a canvas measured in display columns (unicode-width),
//! never in bytes or chars: a CJK glyph takes two columns, and in the
//! wide-lines glyph set so does every box-drawing character.

use super::glyphs::{self, Lines, CHINESE_NUMERALS, FULL_WIDTH_DIGITS};
use super::theme::Theme;
use crate::app::{GlyphSet, Play, Selection};
use crate::rules::any::{AnyPosition, GameKind, PieceKind};
use crate::rules::{Move, Side};
use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How big the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSize {
    /// Fits an 80×24 terminal.
    Compact,
    /// For 120×40 and up.
    Large,
}

impl BoardSize {
    /// Both sizes, largest first.
    pub const ALL: [BoardSize; 2] = [BoardSize::Large, BoardSize::Compact];
}

/// What a click on the screen points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitTarget {
    /// A board square.
    Square(u8),
    /// A piece in a hand: side and index in [`AnyPosition::hand`].
    Hand(Side, usize),
}

/// A clickable region of a picture, relative to its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// Columns covered.
    pub width: u16,
    /// What is there.
    pub target: HitTarget,
}

#[derive(Clone, Debug)]
enum Slot {
    Empty,
    Text {
        text: Cow<'static, str>,
        style: Style,
    },
    Covered,
}

/// A grid of display columns holding text and styles.
#[derive(Clone, Debug)]
pub struct Canvas {
    width: u16,
    height: u16,
    wide_ambiguous: bool,
    base: Style,
    rows: Vec<Vec<Slot>>,
    /// Clickable regions.
    pub hits: Vec<Hit>,
}

/// The display width of a text; ambiguous-width characters count two when `wide_ambiguous`.
pub fn text_width(text: &str, wide_ambiguous: bool) -> u16 {
    if wide_ambiguous {
        text.width_cjk() as u16
    } else {
        text.width() as u16
    }
}

impl Canvas {
    /// An empty canvas.
    pub fn new(width: u16, height: u16, wide_ambiguous: bool, base: Style) -> Canvas {
        Canvas {
            width,
            height,
            wide_ambiguous,
            base,
            rows: vec![vec![Slot::Empty; width as usize]; height as usize],
            hits: Vec::new(),
        }
    }

    /// Width in columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Writes a text at a column; returns its width. Text that would not fit is dropped.
    pub fn put(&mut self, x: u16, y: u16, text: impl Into<Cow<'static, str>>, style: Style) -> u16 {
        let text = text.into();
        let width = text_width(&text, self.wide_ambiguous);
        if y >= self.height || x + width > self.width || width == 0 {
            return width;
        }
        let row = &mut self.rows[y as usize];
        row[x as usize] = Slot::Text {
            text,
            style: self.base.patch(style),
        };
        for column in x + 1..x + width {
            row[column as usize] = Slot::Covered;
        }
        width
    }

    /// Patches the style of the text starting at a column.
    pub fn restyle(&mut self, x: u16, y: u16, style: Style) {
        if let Some(Slot::Text { style: old, .. }) = self
            .rows
            .get_mut(y as usize)
            .and_then(|row| row.get_mut(x as usize))
        {
            *old = old.patch(style);
        }
    }

    /// Each row as the string a terminal would show (for tests).
    pub fn row_strings(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|row| {
                let mut line = String::new();
                for slot in row {
                    match slot {
                        Slot::Empty => line.push(' '),
                        Slot::Text { text, .. } => line.push_str(text),
                        Slot::Covered => {}
                    }
                }
                line
            })
            .collect()
    }

    /// Draws the canvas into a buffer at an area's top-left corner, clipped to the area.
    pub fn render(&self, area: Rect, buffer: &mut Buffer) {
        let area = area.intersection(buffer.area);
        for (y, row) in self.rows.iter().enumerate() {
            let y = area.y + y as u16;
            if y >= area.bottom() {
                break;
            }
            let mut x = area.x;
            for slot in row {
                match slot {
                    Slot::Empty => {
                        if x < area.right() {
                            buffer[(x, y)].set_symbol(" ").set_style(self.base);
                        }
                        x += 1;
                    }
                    Slot::Covered => {}
                    Slot::Text { text, style } => {
                        for ch in text.chars() {
                            let normal = ch.width().unwrap_or(0) as u16;
                            let width = if self.wide_ambiguous {
                                ch.width_cjk().unwrap_or(0) as u16
                            } else {
                                normal
                            };
                            if width == 0 {
                                continue;
                            }
                            if x + width > area.right() {
                                x += width;
                                continue;
                            }
                            buffer[(x, y)].set_char(ch).set_style(*style);
                            for extra in 1..width {
                                let cell = &mut buffer[(x + extra, y)];
                                cell.set_symbol(" ").set_style(*style);
                                if normal < width {
                                    // The terminal draws this character two columns wide:
                                    // leave the second column to it.
                                    cell.set_diff_option(CellDiffOption::Skip);
                                }
                            }
                            x += width;
                        }
                    }
                }
            }
        }
    }
}

/// What to draw on a board besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The cursor square, when the cursor is on the board.
    pub cursor: Option<u8>,
    /// The picked piece's square.
    pub selected: Option<u8>,
    /// Legal moves of the picked piece.
    pub targets: Vec<Move>,
    /// The last move.
    pub last_move: Option<Move>,
    /// The king in check.
    pub check: Option<u8>,
    /// The hinted move (hint key), its from and to squares highlighted.
    pub hint: Option<Move>,
    /// Live analysis's best move in the shown position, its from and to squares highlighted.
    pub best_move: Option<Move>,
}

impl Marks {
    /// The marks of a game in progress.
    pub fn of_play(play: &Play) -> Marks {
        let position = play.shown_position();
        Marks {
            cursor: (play.hand_cursor.is_none()).then_some(play.cursor),
            selected: match play.selection {
                Some(Selection::Square(square)) => Some(square),
                _ => None,
            },
            targets: play.targets.clone(),
            last_move: play.shown_last_move(),
            check: position.checked_king(),
            // An exercise of "learn from your mistakes" shows its answer on its position.
            hint: play
                .hint
                .filter(|_| play.review.is_none() || play.learn.is_some()),
            best_move: None,
        }
    }
}

/// True when `square` is the from (not for drops and passes) or to square of `mv`.
fn is_on_move(mv: Move, square: u8) -> bool {
    !mv.is_pass() && ((mv.from == square && !mv.is_drop()) || mv.to == square)
}

/// Everything the board picture depends on.
#[derive(Clone, Copy, Debug)]
pub struct BoardStyle<'a> {
    /// Size.
    pub size: BoardSize,
    /// Glyph set.
    pub glyphs: GlyphSet,
    /// Second player at the bottom.
    pub flipped: bool,
    /// Colours.
    pub theme: &'a Theme,
}

/// The size in columns and rows of a game's board picture.
pub fn board_dimensions(game: GameKind, size: BoardSize, glyphs: GlyphSet) -> (u16, u16) {
    match game {
        GameKind::Shogi => {
            let (inner, separator) = shogi_cell(size, glyphs);
            (9 * inner + 10 * separator + 3, 20)
        }
        _ => {
            let (gap, rows) = intersection_spacing(size);
            (3 + 18 + 8 * gap + 3, 2 + 10 + 9 * rows)
        }
    }
}

fn intersection_spacing(size: BoardSize) -> (u16, u16) {
    match size {
        BoardSize::Compact => (2, 1),
        BoardSize::Large => (4, 2),
    }
}

fn shogi_cell(size: BoardSize, glyphs: GlyphSet) -> (u16, u16) {
    let separator = if glyphs.wide_ambiguous() { 2 } else { 1 };
    let inner = match (size, glyphs.wide_ambiguous()) {
        (BoardSize::Compact, false) => 3,
        (BoardSize::Compact, true) => 4,
        (BoardSize::Large, false) => 5,
        (BoardSize::Large, true) => 6,
    };
    (inner, separator)
}

/// Draws a position with its marks.
pub fn draw(position: &AnyPosition, marks: &Marks, style: BoardStyle<'_>) -> Canvas {
    match position.game() {
        GameKind::Shogi => draw_shogi(position, marks, style),
        game => draw_intersections(game, position, marks, style),
    }
}

fn side_style(theme: &Theme, side: Side) -> Style {
    match side {
        Side::First => theme.first_side,
        Side::Second => theme.second_side,
    }
}

fn screen_file(file: u8, flipped: bool) -> u16 {
    u16::from(if flipped { 8 - file } else { file })
}

fn screen_rank(rank: u8, ranks: u8, flipped: bool) -> u16 {
    u16::from(if flipped { rank } else { ranks - 1 - rank })
}

fn step_width(lines: &Lines, wide: bool) -> u16 {
    text_width(lines.horizontal, wide)
}

fn draw_intersections(
    game: GameKind,
    position: &AnyPosition,
    marks: &Marks,
    style: BoardStyle<'_>,
) -> Canvas {
    let theme = style.theme;
    let wide = style.glyphs.wide_ambiguous();
    let lines = glyphs::lines(style.glyphs);
    let (gap, rows_between) = intersection_spacing(style.size);
    let (width, height) = board_dimensions(game, style.size, style.glyphs);
    let mut canvas = Canvas::new(width, height, wide, theme.board);
    let pitch = 2 + gap;
    let left = 3;
    let x_of = |column: u16| left + column * pitch;
    let y_of = |row: u16| 1 + row * (1 + rows_between);
    let step = step_width(&lines, wide);
    let river = game == GameKind::Xiangqi;
    let grid_right = x_of(8) + 2;

    // Horizontal lines along every point row.
    for row in 0..10 {
        let mut x = x_of(0);
        while x + step <= x_of(8) {
            canvas.put(x, y_of(row), lines.horizontal, theme.grid);
            x += step;
        }
    }
    // Vertical lines between the point rows.
    for row in 0..9u16 {
        let river_gap = river && row == 4;
        for extra in 1..=rows_between {
            let y = y_of(row) + extra;
            for column in 0..9 {
                if river_gap && column != 0 && column != 8 {
                    continue;
                }
                canvas.put(x_of(column), y, lines.vertical, theme.grid);
            }
        }
    }
    // The river.
    if river {
        let y = y_of(4) + 1 + (rows_between - 1) / 2;
        let inner_left = x_of(0) + 2;
        let inner_width = x_of(8) - inner_left;
        let (west, east) = if style.glyphs == GlyphSet::Latin {
            ("Chu He", "Han Jie")
        } else {
            ("楚  河", "漢  界")
        };
        let half = inner_width / 2;
        let west_width = text_width(west, wide);
        let east_width = text_width(east, wide);
        canvas.put(
            inner_left + (half.saturating_sub(west_width)) / 2,
            y,
            west,
            theme.river,
        );
        canvas.put(
            inner_left + half + (inner_width - half).saturating_sub(east_width) / 2,
            y,
            east,
            theme.river,
        );
    }
    // Palace diagonals.
    for (a, b) in [
        ((3, 0), (5, 2)),
        ((5, 0), (3, 2)),
        ((3, 7), (5, 9)),
        ((5, 7), (3, 9)),
    ] {
        let (ax, ay) = (
            x_of(screen_file(a.0, style.flipped)),
            y_of(screen_rank(a.1, 10, style.flipped)),
        );
        let (bx, by) = (
            x_of(screen_file(b.0, style.flipped)),
            y_of(screen_rank(b.1, 10, style.flipped)),
        );
        let (top, bottom) = if ay < by {
            ((ax, ay), (bx, by))
        } else {
            ((bx, by), (ax, ay))
        };
        let falling = bottom.0 > top.0;
        let glyph = if falling { lines.falling } else { lines.rising };
        for y in top.1 + 1..bottom.1 {
            if (y - 1) % (1 + rows_between) == 0 {
                continue; // a point row (the palace centre)
            }
            let t = f32::from(y - top.1) / f32::from(bottom.1 - top.1);
            let x = f32::from(top.0) + (f32::from(bottom.0) - f32::from(top.0)) * t;
            let mut x = x.round() as u16;
            if wide && (x - left) % 2 == 1 {
                x -= 1;
            }
            canvas.put(x, y, glyph, theme.palace);
        }
    }
    // Points and pieces.
    for square in 0..90u8 {
        let (file, rank) = (square % 9, square / 9);
        let column = screen_file(file, style.flipped);
        let row = screen_rank(rank, 10, style.flipped);
        let (x, y) = (x_of(column), y_of(row));
        let at_right = column == 8;
        let target = marks
            .targets
            .iter()
            .find(|m| m.to == square && !m.is_pass());
        match position.piece_on(square) {
            Some(piece) => {
                let glyph = glyphs::piece(game, piece, style.glyphs);
                let written = canvas.put(x, y, glyph, side_style(theme, piece.side));
                if written < 2 {
                    let filler = if at_right { " " } else { lines.horizontal };
                    if !wide {
                        canvas.put(x + 1, y, filler, theme.grid);
                    }
                }
                if position.gungjanggi_promoted(square) {
                    // A promoted king, soldier or advisor: a mark in the gap to its right.
                    let (mark_x, mark) = if style.glyphs == GlyphSet::Latin {
                        (x + 1, glyphs::promotion_mark(style.glyphs, false))
                    } else {
                        (
                            x + 2,
                            glyphs::promotion_mark(style.glyphs, wide && !at_right),
                        )
                    };
                    let mark_style = side_style(theme, piece.side).add_modifier(Modifier::BOLD);
                    canvas.put(mark_x, y, mark, mark_style);
                }
                if target.is_some() {
                    canvas.restyle(x, y, theme.capture_target);
                }
            }
            None if target.is_some() => {
                let written = canvas.put(x, y, lines.target, theme.legal_target);
                if written < 2 && !wide {
                    let filler = if at_right { " " } else { lines.horizontal };
                    canvas.put(x + 1, y, filler, theme.grid);
                }
            }
            None => {
                let vertical_index = match row {
                    0 => 0,
                    9 => 2,
                    4 if river && column != 0 && column != 8 => 2,
                    5 if river && column != 0 && column != 8 => 0,
                    _ => 1,
                };
                let horizontal_index = match column {
                    0 => 0,
                    8 => 2,
                    _ => 1,
                };
                let junction = lines.junctions[vertical_index * 3 + horizontal_index];
                canvas.put(x, y, junction, theme.grid);
                if !wide {
                    let filler = if at_right { " " } else { lines.horizontal };
                    canvas.put(x + 1, y, filler, theme.grid);
                }
            }
        }
        let mut highlight = |style: Style| {
            canvas.restyle(x, y, style);
        };
        if let Some(mv) = marks.last_move {
            if (mv.from == square && !mv.is_drop()) || mv.to == square {
                highlight(theme.last_move);
            }
        }
        if marks.hint.is_some_and(|mv| is_on_move(mv, square)) {
            highlight(theme.hint);
        }
        if marks.best_move.is_some_and(|mv| is_on_move(mv, square)) {
            highlight(theme.best_move);
        }
        if marks.selected == Some(square) {
            highlight(theme.selected);
        }
        if marks.check == Some(square) {
            highlight(theme.check);
        }
        if marks.cursor == Some(square) {
            // The cursor is the whole two-column point in brackets, `[┼─]`, so it stands
            // out from the one-column last-move mark and the target dots on any theme,
            // with or without colour.
            canvas.restyle(x, y, theme.cursor);
            canvas.restyle(x + 1, y, theme.cursor);
            if !wide {
                canvas.put(x - 1, y, "[", theme.cursor);
                // A promoted gungjanggi piece's mark stands where the closing bracket
                // would: the mark stays, in the cursor's style.
                let marked =
                    style.glyphs != GlyphSet::Latin && position.gungjanggi_promoted(square);
                if marked {
                    canvas.restyle(x + 2, y, theme.cursor);
                } else {
                    canvas.put(x + 2, y, "]", theme.cursor);
                }
            }
        }
        canvas.hits.push(Hit {
            x,
            y,
            width: 2,
            target: HitTarget::Square(square),
        });
    }
    // Coordinates.
    let bottom_side = if style.flipped {
        Side::Second
    } else {
        Side::First
    };
    for file in 0..9u8 {
        let x = x_of(screen_file(file, style.flipped));
        for (y, side) in [(0, bottom_side.opponent()), (height - 1, bottom_side)] {
            let label = file_label(game, file, side, style.glyphs);
            canvas.put(x, y, label, theme.coordinates);
        }
    }
    if game == GameKind::Janggi {
        for rank in 0..10u8 {
            let y = y_of(screen_rank(rank, 10, style.flipped));
            let label = DIGITS[usize::from((10 - rank) % 10)];
            canvas.put(1, y, label, theme.coordinates);
            canvas.put(grid_right + 1, y, label, theme.coordinates);
        }
    }
    canvas
}

const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// The label of a file as a side writes it.
fn file_label(game: GameKind, file: u8, side: Side, glyph_set: GlyphSet) -> &'static str {
    let latin = glyph_set == GlyphSet::Latin;
    match (game, side) {
        // Xiangqi: Red counts 一…九 from its right, Black １…９ from its right.
        (GameKind::Xiangqi, Side::First) if latin => DIGITS[usize::from(9 - file)],
        (GameKind::Xiangqi, Side::First) => CHINESE_NUMERALS[usize::from(8 - file)],
        (GameKind::Xiangqi, Side::Second) if latin => DIGITS[usize::from(file + 1)],
        (GameKind::Xiangqi, Side::Second) => FULL_WIDTH_DIGITS[usize::from(file + 1)],
        // Janggi: 1–9 from the left as Cho sees it.
        _ => DIGITS[usize::from(file + 1)],
    }
}

fn draw_shogi(position: &AnyPosition, marks: &Marks, style: BoardStyle<'_>) -> Canvas {
    let theme = style.theme;
    let wide = style.glyphs.wide_ambiguous();
    let latin = style.glyphs == GlyphSet::Latin;
    let lines = glyphs::lines(style.glyphs);
    let (inner, separator) = shogi_cell(style.size, style.glyphs);
    let (width, height) = board_dimensions(GameKind::Shogi, style.size, style.glyphs);
    let mut canvas = Canvas::new(width, height, wide, theme.board);
    let pitch = inner + separator;
    let grid_width = 9 * pitch + separator;
    let step = step_width(&lines, wide);
    let x_of = |column: u16| column * pitch;
    let y_of = |row: u16| 1 + row * 2;

    // Separator rows.
    for line in 0..10u16 {
        let y = y_of(line);
        let vertical_index = match line {
            0 => 0,
            9 => 2,
            _ => 1,
        };
        for column in 0..10u16 {
            let horizontal_index = match column {
                0 => 0,
                9 => 2,
                _ => 1,
            };
            let x = x_of(column);
            canvas.put(
                x,
                y,
                lines.junctions[vertical_index * 3 + horizontal_index],
                theme.grid,
            );
            if column < 9 {
                let mut offset = separator;
                while offset + step <= pitch {
                    canvas.put(x + offset, y, lines.horizontal, theme.grid);
                    offset += step;
                }
            }
        }
    }
    let zone = |rank: u8| rank <= 2 || rank >= 6;
    for square in 0..81u8 {
        let (file, rank) = (square % 9, square / 9);
        let column = screen_file(file, style.flipped);
        let row = screen_rank(rank, 9, style.flipped);
        let x = x_of(column) + separator;
        let y = y_of(row) + 1;
        // Walls of the square.
        canvas.put(x - separator, y, lines.vertical, theme.grid);
        if column == 8 {
            canvas.put(x + inner, y, lines.vertical, theme.grid);
        }
        let ground = if zone(rank) { theme.zone } else { theme.board };
        // The square's highlights, in the order the intersection boards lay them on, go
        // over whatever stands on it: a highlight that sets a text colour sets the piece's
        // too, so every theme can keep its pieces readable under its highlights.
        let mut highlights = Style::new();
        if let Some(mv) = marks.last_move {
            if (mv.from == square && !mv.is_drop()) || mv.to == square {
                highlights = highlights.patch(theme.last_move);
            }
        }
        let target = marks.targets.iter().find(|m| m.to == square);
        if marks.hint.is_some_and(|mv| is_on_move(mv, square)) {
            highlights = highlights.patch(theme.hint);
        }
        if marks.best_move.is_some_and(|mv| is_on_move(mv, square)) {
            highlights = highlights.patch(theme.best_move);
        }
        if marks.selected == Some(square) {
            highlights = highlights.patch(theme.selected);
        }
        if marks.check == Some(square) {
            highlights = highlights.patch(theme.check);
        }
        if target.is_some() && position.piece_on(square).is_some() {
            highlights = highlights.patch(theme.capture_target);
        }
        if marks.cursor == Some(square) {
            highlights = highlights.patch(theme.cursor);
        }
        let cell_style = ground.patch(highlights);
        for offset in 0..inner {
            canvas.put(x + offset, y, " ", cell_style);
        }
        let content_x = x + (inner - 3) / 2;
        match position.piece_on(square) {
            Some(piece) => {
                // The side's colour and weight on the square's own background, so the
                // promotion zone and the highlights fill the whole square.
                let side = side_style(theme, piece.side);
                let piece_style = ground.patch(Style { bg: None, ..side }).patch(highlights);
                let upside_down = piece.side == Side::Second;
                let mark = if upside_down { lines.gote_mark } else { " " };
                canvas.put(content_x, y, mark, piece_style);
                let glyph = glyphs::piece(GameKind::Shogi, piece, style.glyphs);
                let written = canvas.put(content_x + 1, y, glyph, piece_style);
                for pad in written..2 {
                    canvas.put(content_x + 1 + pad, y, " ", piece_style);
                }
            }
            None if target.is_some() => {
                let written = canvas.put(
                    content_x + 1,
                    y,
                    lines.target,
                    ground.patch(theme.legal_target).patch(highlights),
                );
                if latin {
                    for pad in written..2 {
                        canvas.put(content_x + 1 + pad, y, " ", cell_style);
                    }
                }
            }
            None => {}
        }
        canvas.hits.push(Hit {
            x,
            y,
            width: inner,
            target: HitTarget::Square(square),
        });
    }
    // Coordinates: ９…１ across the top, 一…九 down the right.
    for file in 0..9u8 {
        let x = x_of(screen_file(file, style.flipped)) + separator + (inner - 3) / 2 + 1;
        let number = usize::from(9 - file);
        let label = if latin {
            DIGITS[number]
        } else {
            FULL_WIDTH_DIGITS[number]
        };
        canvas.put(x, 0, label, theme.coordinates);
    }
    for rank in 0..9u8 {
        let y = y_of(screen_rank(rank, 9, style.flipped)) + 1;
        let index = usize::from(8 - rank);
        let label = if latin {
            ["a", "b", "c", "d", "e", "f", "g", "h", "i"][index]
        } else {
            CHINESE_NUMERALS[index]
        };
        canvas.put(grid_width + 1, y, label, theme.coordinates);
    }
    canvas
}

/// One entry of a shogi hand as drawn: `歩×3`.
pub fn hand_entry(kind: PieceKind, count: u8, side: Side, glyph_set: GlyphSet) -> String {
    let glyph = glyphs::piece(
        GameKind::Shogi,
        crate::rules::any::Piece { side, kind },
        glyph_set,
    );
    let times = if glyph_set == GlyphSet::Latin {
        "x"
    } else {
        "×"
    };
    if count > 1 {
        format!("{glyph}{times}{count}")
    } else {
        glyph.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::Position;

    #[test]
    fn every_board_row_has_the_same_display_width() {
        for variant in [
            Variant::Xiangqi,
            Variant::Shogi,
            Variant::Janggi(crate::rules::janggi::JanggiRules::KJA),
        ] {
            let game = variant.kind();
            let theme = Theme::for_game(game);
            let position = variant.start();
            let mut moves = crate::rules::MoveList::new();
            position.legal_moves(&mut moves);
            let marks = Marks {
                cursor: Some(4),
                selected: moves.iter().next().map(|m| m.from),
                targets: moves.iter().copied().collect(),
                last_move: moves.iter().next().copied(),
                check: Some(4),
                hint: moves.iter().nth(1).copied(),
                best_move: moves.iter().nth(2).copied(),
            };
            for glyph_set in GlyphSet::ALL {
                for size in BoardSize::ALL {
                    for flipped in [false, true] {
                        for marks in [Marks::default(), marks.clone()] {
                            let style = BoardStyle {
                                size,
                                glyphs: glyph_set,
                                flipped,
                                theme: &theme,
                            };
                            let canvas = draw(&position, &marks, style);
                            let expected = board_dimensions(game, size, glyph_set);
                            assert_eq!((canvas.width(), canvas.height()), expected);
                            let rows = canvas.row_strings();
                            assert_eq!(rows.len() as u16, expected.1);
                            for (index, row) in rows.iter().enumerate() {
                                assert_eq!(
                                    text_width(row, glyph_set.wide_ambiguous()),
                                    expected.0,
                                    "{game:?} {glyph_set:?} {size:?} flipped={flipped} row {index}: {row:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Promoted kings, promoted soldiers at both edges (a10, i10) and promoted
    /// advisors (Manual 2): the mark keeps every row's width, in every glyph set and size.
    #[test]
    fn promoted_gungjanggi_pieces_are_marked_and_rows_keep_their_width() {
        use crate::rules::janggi::JanggiRules;
        let position = Variant::Janggi(JanggiRules::GUNGJANGGI_DAN)
            .position_from_fen("+P4k2+P/9/9/9/9/9/9/9/3+A+AK3/9 w - - 0 1 Kk")
            .expect("test position");
        let theme = Theme::for_game(GameKind::Janggi);
        for glyph_set in GlyphSet::ALL {
            for size in BoardSize::ALL {
                for flipped in [false, true] {
                    let style = BoardStyle {
                        size,
                        glyphs: glyph_set,
                        flipped,
                        theme: &theme,
                    };
                    let rows = draw(&position, &Marks::default(), style).row_strings();
                    let expected = board_dimensions(GameKind::Janggi, size, glyph_set);
                    for row in &rows {
                        assert_eq!(
                            text_width(row, glyph_set.wide_ambiguous()),
                            expected.0,
                            "{glyph_set:?} {size:?} {row:?}"
                        );
                    }
                    let mark = if glyph_set == GlyphSet::Latin {
                        "*"
                    } else {
                        "+"
                    };
                    let marks: usize = rows.iter().map(|row| row.matches(mark).count()).sum();
                    let wide_marks: usize = rows.iter().map(|row| row.matches("＋").count()).sum();
                    // Latin junctions are `+`, so count `*` there; CJK: `+` or the wide `＋`.
                    assert_eq!(
                        marks + wide_marks,
                        6,
                        "{glyph_set:?} {size:?} flipped={flipped}\n{}",
                        rows.join("\n")
                    );
                }
            }
        }
        // The unpromoted start position has no mark at all.
        let start = Variant::Janggi(JanggiRules::GUNGJANGGI_DAN).start();
        let style = BoardStyle {
            size: BoardSize::Compact,
            glyphs: GlyphSet::Latin,
            flipped: false,
            theme: &theme,
        };
        assert!(draw(&start, &Marks::default(), style)
            .row_strings()
            .iter()
            .all(|row| !row.contains('*')));
    }

    /// Issue 12 item 5: the cursor on an empty point is a bracketed two-column block in
    /// the cursor's style, in every theme and under NO_COLOR, unlike the last-move mark.
    #[test]
    fn the_cursor_on_an_empty_point_is_unmistakable() {
        use crate::theme::{ColorMode, Palette, ThemeSpec};
        let variant = Variant::Janggi(crate::rules::janggi::JanggiRules::KJA);
        let position = variant.start();
        // An empty point in the middle of the board; the last move ends on another.
        let cursor = 4 * 9 + 4;
        let last_move = Move::new(3 * 9 + 2, 4 * 9 + 2);
        for name in crate::config::THEME_NAMES {
            for no_color in [false, true] {
                let mode = ColorMode {
                    no_color,
                    ..ColorMode::default()
                };
                let palette = Palette::new(&ThemeSpec::built_in(name).unwrap(), mode);
                let theme = Theme::from_palette(&palette, GameKind::Janggi);
                assert_ne!(theme.cursor, theme.last_move, "{name}");
                for glyph_set in [GlyphSet::Cjk, GlyphSet::Latin] {
                    let style = BoardStyle {
                        size: BoardSize::Compact,
                        glyphs: glyph_set,
                        flipped: false,
                        theme: &theme,
                    };
                    let marks = Marks {
                        cursor: Some(cursor),
                        last_move: Some(last_move),
                        ..Marks::default()
                    };
                    let canvas = draw(&position, &marks, style);
                    let mut buffer =
                        Buffer::empty(Rect::new(0, 0, canvas.width(), canvas.height()));
                    canvas.render(buffer.area, &mut buffer);
                    // Compact: the point of file 4 is at column 3 + 4 × 4, row 1 + 5 × 2.
                    let (x, y) = (3 + 4 * 4, 1 + 5 * 2);
                    let text: String = (x - 1..x + 3)
                        .map(|c| buffer[(c, y)].symbol().to_string())
                        .collect();
                    assert!(
                        text.starts_with('[') && text.ends_with(']'),
                        "{name} {glyph_set:?}: {text:?}"
                    );
                    for column in x - 1..x + 3 {
                        let cell = &buffer[(column, y)];
                        let expected = theme.board.patch(theme.cursor);
                        assert_eq!(
                            cell.bg,
                            expected.bg.unwrap_or(cell.bg),
                            "{name} column {column}"
                        );
                        assert!(
                            cell.modifier.contains(theme.cursor.add_modifier),
                            "{name} no_color={no_color} column {column}"
                        );
                    }
                    // The last move's point is one column in another style.
                    let (lx, ly) = (3 + 2 * 4, 1 + 5 * 2);
                    assert_ne!(buffer[(lx, ly)].style(), buffer[(x, y)].style(), "{name}");
                    assert_eq!(
                        buffer[(lx - 1, ly)].symbol(),
                        if glyph_set == GlyphSet::Latin {
                            "-"
                        } else {
                            "─"
                        }
                    );
                }
            }
        }
    }

    #[test]
    fn latin_boards_are_plain_ascii() {
        for variant in Variant::ALL {
            let theme = Theme::for_game(variant.kind());
            let style = BoardStyle {
                size: BoardSize::Compact,
                glyphs: GlyphSet::Latin,
                flipped: false,
                theme: &theme,
            };
            for row in draw(&variant.start(), &Marks::default(), style).row_strings() {
                assert!(row.is_ascii(), "{row}");
            }
        }
    }
}
