//! Styles by role for one game: the renderer asks for `board`, `cursor`,
//! `first_side`…, never for a colour. The styles come from the app's
//! [`Palette`] (the configured theme, made ready for the terminal).

use crate::rules::any::GameKind;
use crate::rules::Side;
use crate::theme::Palette;
use ratatui::style::Style;

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
    /// The first player's name in panels.
    pub first_label: Style,
    /// The second player's name in panels.
    pub second_label: Style,
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
    /// The squares of a hinted move (the hint key).
    pub hint: Style,
    /// The squares of live analysis's best move.
    pub best_move: Style,
    /// A king in check.
    pub check: Style,
    /// Pieces in hand.
    pub hand: Style,
    /// Status line.
    pub status: Style,
    /// Warnings such as a clock running low.
    pub warning: Style,
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
    /// Popup borders.
    pub popup_border: Style,
    /// Headings inside popups.
    pub heading: Style,
    /// "Reviewing move n of m".
    pub review: Style,
    /// "Thinking…".
    pub thinking: Style,
}

impl Theme {
    /// The built-in `wood` theme for a game in true colour (tests and tools).
    pub fn for_game(game: GameKind) -> Theme {
        Theme::from_palette(&Palette::default(), game)
    }

    /// The styles of a palette for a game (side colours differ per game).
    pub fn from_palette(palette: &Palette, game: GameKind) -> Theme {
        let role = |name: &str| palette.role(name);
        let side = |name: &str| palette.side_role(game, name);
        Theme {
            board: role("board"),
            grid: role("grid"),
            palace: role("palace"),
            river: role("river"),
            zone: role("zone"),
            coordinates: role("coordinates"),
            first_side: side("first_side"),
            second_side: side("second_side"),
            first_label: side("first_label"),
            second_label: side("second_label"),
            cursor: role("cursor"),
            selected: role("selected"),
            legal_target: role("legal_target"),
            capture_target: role("capture_target"),
            last_move: role("last_move"),
            hint: role("hint"),
            best_move: role("best_move"),
            check: role("check"),
            hand: role("hand"),
            status: role("status"),
            warning: role("warning"),
            error: role("error"),
            title: role("title"),
            dim: role("dim"),
            highlight: role("highlight"),
            popup: role("popup"),
            popup_border: role("popup_border"),
            heading: role("heading"),
            review: role("review"),
            thinking: role("thinking"),
        }
    }

    /// The panel style of a side's name.
    pub fn side_label(&self, side: Side) -> Style {
        match side {
            Side::First => self.first_label,
            Side::Second => self.second_label,
        }
    }
}
