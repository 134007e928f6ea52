//! Styles by role: the renderer asks for `board`, `cursor`, `first_side`…,
//! never for a colour.

use crate::rules::any::GameKind;
use ratatui::style::{Color, Modifier, Style};

/// The styles of every role the screens use.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    /// The board surface.
    pub board: Style,
    /// Grid lines.
    pub grid: Style,
    /// Palace lines.
    pub palace: Style,
    /// River text.
    pub river: Style,
    /// Shaded shogi promotion zones.
    pub zone: Style,
    /// Coordinates around the board.
    pub coordinates: Style,
    /// The first player's pieces.
    pub first_side: Style,
    /// The second player's pieces.
    pub second_side: Style,
    /// The cursor.
    pub cursor: Style,
    /// The picked piece.
    pub selected: Style,
    /// An empty legal target.
    pub legal_target: Style,
    /// A legal capture.
    pub capture_target: Style,
    /// The squares of the last move.
    pub last_move: Style,
    /// A king in check.
    pub check: Style,
    /// Pieces in hand.
    pub hand: Style,
    /// Status line.
    pub status: Style,
    /// Refusals in the status line.
    pub error: Style,
    /// Headings and titles.
    pub title: Style,
    /// Quiet text (hints).
    pub dim: Style,
    /// A highlighted menu row.
    pub highlight: Style,
    /// Popups.
    pub popup: Style,
    /// Something that needs attention now: a clock in its last seconds or last period, PAUSED.
    pub warning: Style,
}

const WOOD: Color = Color::Rgb(222, 184, 135);
const WOOD_DARK: Color = Color::Rgb(201, 160, 110);
const INK: Color = Color::Rgb(60, 40, 20);

impl Theme {
    /// The built-in theme for a game (sides coloured as the game colours them).
    pub fn for_game(game: GameKind) -> Theme {
        let (first, second) = match game {
            GameKind::Xiangqi => (Color::Rgb(190, 20, 20), Color::Rgb(20, 20, 20)),
            GameKind::Janggi => (Color::Rgb(0, 90, 170), Color::Rgb(190, 20, 20)),
            GameKind::Shogi => (Color::Rgb(20, 20, 20), Color::Rgb(120, 30, 90)),
        };
        let piece = |color| Style::new().fg(color).bg(WOOD).add_modifier(Modifier::BOLD);
        Theme {
            board: Style::new().fg(INK).bg(WOOD),
            grid: Style::new().fg(INK).bg(WOOD),
            palace: Style::new().fg(INK).bg(WOOD),
            river: Style::new().fg(Color::Rgb(40, 70, 130)).bg(WOOD),
            zone: Style::new().fg(INK).bg(WOOD_DARK),
            coordinates: Style::new().fg(Color::Gray),
            first_side: piece(first),
            second_side: piece(second),
            cursor: Style::new().bg(Color::Rgb(250, 215, 60)),
            selected: Style::new().bg(Color::Rgb(120, 200, 120)),
            legal_target: Style::new()
                .fg(Color::Rgb(0, 120, 0))
                .add_modifier(Modifier::BOLD),
            capture_target: Style::new().bg(Color::Rgb(240, 130, 100)),
            last_move: Style::new().bg(Color::Rgb(170, 200, 230)),
            check: Style::new().bg(Color::Rgb(230, 60, 60)),
            hand: Style::new().add_modifier(Modifier::BOLD),
            status: Style::new(),
            error: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            title: Style::new().add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::DarkGray),
            highlight: Style::new().fg(Color::Black).bg(Color::Rgb(250, 215, 60)),
            popup: Style::new().fg(Color::White).bg(Color::Rgb(30, 40, 60)),
            warning: Style::new()
                .fg(Color::Black)
                .bg(Color::Rgb(250, 120, 60))
                .add_modifier(Modifier::BOLD),
        }
    }
}
