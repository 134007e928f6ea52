//! Issue 12 item 6: every text colour against its background reaches the WCAG AA
//! contrast of 4.5:1 in every built-in theme, in true colour and in 256 colours.
//!
//! Text with no background of its own sits on what is under it: the board for the board's
//! text, the terminal's own background for the panels — taken as a dark terminal's
//! (black, with light grey text), which is what every built-in theme is drawn for.

use super::theme::Theme;
use crate::config::THEME_NAMES;
use crate::rules::any::GameKind;
use crate::theme::{rgb_of, ColorDepth, ColorMode, Palette, ThemeSpec};
use ratatui::style::{Modifier, Style};

/// The terminal's default colours, as a dark terminal shows them.
const TERMINAL_FOREGROUND: (u8, u8, u8) = (229, 229, 229);
const TERMINAL_BACKGROUND: (u8, u8, u8) = (0, 0, 0);

fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// The WCAG contrast ratio of two colours.
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// The colours a style is seen in: text and background, reversed when it says so.
fn seen(style: Style) -> ((u8, u8, u8), (u8, u8, u8)) {
    let fg = style.fg.and_then(rgb_of).unwrap_or(TERMINAL_FOREGROUND);
    let bg = style.bg.and_then(rgb_of).unwrap_or(TERMINAL_BACKGROUND);
    if style.add_modifier.contains(Modifier::REVERSED) {
        (bg, fg)
    } else {
        (fg, bg)
    }
}

/// Every (what, style) pair of text on its background a theme draws.
fn text_roles(theme: &Theme, game: GameKind) -> Vec<(String, Style)> {
    let mut pairs = Vec::new();
    let board = theme.board;
    for (name, role) in [
        ("board", theme.board),
        ("river", theme.river),
        ("coordinates", theme.coordinates),
        ("legal_target", theme.legal_target),
    ] {
        pairs.push((format!("{name} on board"), board.patch(role)));
    }
    for (side_name, side) in [
        ("first_side", theme.first_side),
        ("second_side", theme.second_side),
    ] {
        // The board, and (in shogi) the shaded promotion zone under a piece. Pieces
        // under the cursor and the other marks are told apart by the mark, not tested here.
        let mut grounds = vec![("board", Style::new())];
        if game == GameKind::Shogi {
            grounds.push(("zone", theme.zone));
        }
        for (ground_name, ground) in grounds {
            // Shogi draws a piece's colours over its square's ground; the intersection
            // boards put the ground's style over the piece.
            pairs.push((
                format!("{side_name} under {ground_name}"),
                board.patch(side).patch(ground),
            ));
            pairs.push((
                format!("{side_name} over {ground_name}"),
                board.patch(ground).patch(Style { bg: None, ..side }),
            ));
        }
        // A piece on a square of live analysis's best move, both ways of drawing it.
        pairs.push((
            format!("{side_name} under best_move"),
            board.patch(side).patch(theme.best_move),
        ));
        pairs.push((
            format!("{side_name} over best_move"),
            board
                .patch(theme.best_move)
                .patch(Style { bg: None, ..side }),
        ));
    }
    for (name, role) in [
        ("warning", theme.warning),
        ("highlight", theme.highlight),
        ("popup", theme.popup),
        ("popup_border", theme.popup_border),
        ("heading", theme.heading),
        ("status", theme.status),
        ("error", theme.error),
        ("title", theme.title),
        ("dim", theme.dim),
        ("review", theme.review),
        ("thinking", theme.thinking),
        ("hand", theme.hand),
        ("hand highlighted", theme.hand.patch(theme.highlight)),
        ("first_label", theme.first_label),
        ("second_label", theme.second_label),
    ] {
        pairs.push((name.to_string(), role));
    }
    pairs
}

#[test]
fn every_text_role_reaches_four_and_a_half_to_one_in_every_theme() {
    let mut failures = Vec::new();
    for name in THEME_NAMES {
        let spec = ThemeSpec::built_in(name).expect("a built-in theme");
        for depth in [ColorDepth::TrueColor, ColorDepth::Ansi256] {
            let palette = Palette::new(
                &spec,
                ColorMode {
                    depth,
                    no_color: false,
                },
            );
            for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
                let theme = Theme::from_palette(&palette, game);
                for (what, style) in text_roles(&theme, game) {
                    let (fg, bg) = seen(style);
                    let ratio = contrast(fg, bg);
                    if ratio < 4.5 {
                        failures.push(format!(
                            "{name} {depth:?} {game:?} {what}: {fg:?} on {bg:?} is {ratio:.2}:1"
                        ));
                    }
                }
            }
        }
    }
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} below 4.5:1:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_contrast_formula_matches_the_standard() {
    assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
    assert!((contrast((119, 119, 119), (255, 255, 255)) - 4.48).abs() < 0.01);
}

/// The board's highlights in the order the board draws them, each later one over the
/// earlier: last move, hint, picked piece, king in check, capture target, cursor.
const HIGHLIGHTS: [&str; 6] = [
    "last_move",
    "hint",
    "selected",
    "check",
    "capture_target",
    "cursor",
];

fn highlight_style(theme: &Theme, name: &str) -> Style {
    match name {
        "last_move" => theme.last_move,
        "hint" => theme.hint,
        "selected" => theme.selected,
        "check" => theme.check,
        "capture_target" => theme.capture_target,
        _ => theme.cursor,
    }
}

/// What stands on a point or square, and which highlights it can be under at once.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Content {
    /// A piece of the first or second side (own pieces are picked, the opponent's
    /// captured; only a king is in check).
    Piece(crate::rules::Side),
    /// The legal-target mark on an empty point or square.
    Target,
}
// The grid lines of an empty point are lines, not text: under the cursor the point is
// read from the brackets (checked below), under the other highlights from the highlight.

/// Can these highlights be on one square with this content at once?
fn possible(content: Content, on: &[&str]) -> bool {
    let has = |name: &str| on.contains(&name);
    match content {
        // A picked piece is not a capture target; a king in check is not one either.
        Content::Piece(_) => {
            !(has("selected") && has("capture_target") || has("check") && has("capture_target"))
        }
        // Nothing is picked, in check or captured on an empty point.
        Content::Target => !has("selected") && !has("check") && !has("capture_target"),
    }
}

/// The style a content is drawn in under `on`, exactly as `board.rs` composes it.
fn drawn_style(
    theme: &Theme,
    game: GameKind,
    ground: Style,
    content: Content,
    on: &[&str],
) -> Style {
    let side_style = |side: crate::rules::Side| match side {
        crate::rules::Side::First => theme.first_side,
        crate::rules::Side::Second => theme.second_side,
    };
    let layers = |skip: &str| {
        let skip = skip.to_string();
        HIGHLIGHTS
            .iter()
            .filter(move |name| on.contains(name) && **name != skip)
            .map(|name| highlight_style(theme, name))
    };
    if game == GameKind::Shogi {
        // The content on the square's ground, then every highlight over it.
        let content_style = match content {
            Content::Piece(side) => ground.patch(Style {
                bg: None,
                ..side_style(side)
            }),
            Content::Target => ground.patch(theme.legal_target),
        };
        layers("").fold(content_style, |style, layer| style.patch(layer))
    } else {
        // The glyph in its own style on the board, each highlight restyling it; the
        // capture mark comes right after the piece.
        let base = match content {
            Content::Piece(side) => theme.board.patch(side_style(side)),
            Content::Target => theme.board.patch(theme.legal_target),
        };
        let base = if on.contains(&"capture_target") {
            base.patch(theme.capture_target)
        } else {
            base
        };
        layers("capture_target").fold(base, |style, layer| style.patch(layer))
    }
}

#[test]
fn every_glyph_under_every_board_highlight_reaches_four_and_a_half_to_one() {
    use crate::rules::Side;
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in THEME_NAMES {
        let spec = ThemeSpec::built_in(name).expect("a built-in theme");
        for depth in [ColorDepth::TrueColor, ColorDepth::Ansi256] {
            let palette = Palette::new(
                &spec,
                ColorMode {
                    depth,
                    no_color: false,
                },
            );
            for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
                let theme = Theme::from_palette(&palette, game);
                let mut grounds = vec![("board", theme.board)];
                let contents = [
                    Content::Piece(Side::First),
                    Content::Piece(Side::Second),
                    Content::Target,
                ];
                if game == GameKind::Shogi {
                    grounds.push(("zone", theme.zone));
                }
                for (ground_name, ground) in &grounds {
                    for content in &contents {
                        // Every set of highlights that can meet on one square, the
                        // cursor's brackets (drawn in the cursor's style) with them.
                        for mask in 1u32..(1 << HIGHLIGHTS.len()) {
                            let on: Vec<&str> = HIGHLIGHTS
                                .iter()
                                .enumerate()
                                .filter(|(index, _)| mask & (1 << index) != 0)
                                .map(|(_, name)| *name)
                                .collect();
                            if !possible(*content, &on) {
                                continue;
                            }
                            let style = drawn_style(&theme, game, *ground, *content, &on);
                            let (fg, bg) = seen(style);
                            let ratio = contrast(fg, bg);
                            checked += 1;
                            if ratio < 4.5 {
                                failures.push(format!(
                                    "{name} {depth:?} {game:?} {content:?} on {ground_name} under {}: {fg:?} on {bg:?} is {ratio:.2}:1",
                                    on.join("+")
                                ));
                            }
                        }
                    }
                }
                let bracket = theme.board.patch(theme.cursor);
                let (fg, bg) = seen(bracket);
                if contrast(fg, bg) < 4.5 {
                    failures.push(format!(
                        "{name} {depth:?} {game:?} cursor brackets: {fg:?} on {bg:?} is {:.2}:1",
                        contrast(fg, bg)
                    ));
                }
            }
        }
    }
    failures.dedup();
    assert!(checked > 1000, "only {checked} combinations checked");
    assert!(
        failures.is_empty(),
        "{} below 4.5:1:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
