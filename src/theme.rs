//! Themes: styles by role (`board`, `cursor`, `first_side`…), never by colour
//! in the renderer. Built-in themes are TOML files compiled in; a user theme
//! may set only some roles and takes the rest from its `base`.
//!
//! A [`Palette`] is a theme made ready for one terminal: RGB colours brought down
//! to the nearest of 256 colours, or to the 16 by hue and lightness, or to a
//! theme's own 16-colour version ([`ColorDepth`]), or dropped
//! altogether under `NO_COLOR`, where the sides and marks are told apart by
//! bold, reverse and underline alone.

use crate::config::{
    invalid_toml, Expected, Fallback, Found, Location, Problem, ProblemKind, THEME_NAMES,
};
use crate::rules::any::GameKind;
use ratatui::style::{Color, Modifier, Style};
use std::path::Path;
use toml_edit::{Item, Table, Value};

/// The roles every screen shares, in the order of [`ThemeSpec::roles`].
pub const ROLES: [&str; 26] = [
    "board",
    "grid",
    "palace",
    "river",
    "zone",
    "coordinates",
    "cursor",
    "selected",
    "legal_target",
    "capture_target",
    "last_move",
    "hint",
    "best_move",
    "check",
    "hand",
    "status",
    "warning",
    "error",
    "title",
    "dim",
    "highlight",
    "popup",
    "popup_border",
    "heading",
    "review",
    "thinking",
];

/// The roles each game sets for itself (side colours differ per game), in the order
/// of [`ThemeSpec::sides`]: pieces on the board and side names in the panels.
pub const SIDE_ROLES: [&str; 4] = ["first_side", "second_side", "first_label", "second_label"];

/// The games with their own side roles, by table name.
pub const GAME_TABLES: [(&str, GameKind); 3] = [
    ("xiangqi", GameKind::Xiangqi),
    ("shogi", GameKind::Shogi),
    ("janggi", GameKind::Janggi),
];

/// The source of each built-in theme.
const BUILT_IN: [(&str, &str); 4] = [
    ("wood", include_str!("../themes/wood.toml")),
    ("dark", include_str!("../themes/dark.toml")),
    ("contrast", include_str!("../themes/contrast.toml")),
    ("sixteen", include_str!("../themes/sixteen.toml")),
];

/// One role: colours and text modifiers, each optional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RoleStyle {
    /// Text colour.
    pub fg: Option<Color>,
    /// Background colour.
    pub bg: Option<Color>,
    /// Bold, reverse, underline….
    pub modifiers: Modifier,
}

/// A theme as written: every role's style, before it meets a terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeSpec {
    /// Shared roles, indexed like [`ROLES`]; `None` when the file did not set it.
    pub roles: [Option<RoleStyle>; ROLES.len()],
    /// Per game (indexed like [`GAME_TABLES`]), its side roles (indexed like [`SIDE_ROLES`]).
    pub sides: [[Option<RoleStyle>; SIDE_ROLES.len()]; 3],
    /// The built-in theme to draw with on a 16-colour terminal instead of converting this
    /// one's colours (`sixteen_colours = "sixteen"`): some palettes have no good 16-colour
    /// likeness, and a theme made for 16 looks intended.
    pub sixteen_colours: Option<String>,
}

impl ThemeSpec {
    fn empty() -> ThemeSpec {
        ThemeSpec {
            roles: [None; ROLES.len()],
            sides: [[None; SIDE_ROLES.len()]; 3],
            sixteen_colours: None,
        }
    }

    /// A built-in theme by name.
    pub fn built_in(name: &str) -> Option<ThemeSpec> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        Some(ThemeSpec::parse(&format!("{name}.toml"), text).0)
    }

    /// Reads a theme file. Returns the theme (its `base` filled in, `wood` when none is
    /// named) and every problem, in file order; a bad role keeps the base's style.
    pub fn parse(file: &str, text: &str) -> (ThemeSpec, Vec<Problem>) {
        let mut warnings = Vec::new();
        let document = match toml_edit::Document::parse(text) {
            Ok(document) => document,
            Err(error) => {
                warnings.push(invalid_toml(file, text, &error, Fallback::WoodTheme));
                return (
                    ThemeSpec::built_in("wood").unwrap_or_else(ThemeSpec::empty),
                    warnings,
                );
            }
        };
        let root = document.as_table();
        let at = |span: Option<std::ops::Range<usize>>| {
            Location::at(file, text, span.map(|span| span.start))
        };
        let theme_names = || Expected::OneOf(THEME_NAMES.map(str::to_string).to_vec());
        let own_name = file.strip_suffix(".toml").unwrap_or(file);
        let base_name = match root.get("base") {
            Some(item) => match item.as_str().filter(|name| THEME_NAMES.contains(name)) {
                Some(name) => Some(name.to_string()),
                None => {
                    warnings.push(Problem::expected(file, text, item, "base", theme_names()));
                    Some("wood".to_string())
                }
            },
            // Built-in themes set every role themselves (a test checks it).
            None if THEME_NAMES.contains(&own_name) => None,
            None => Some("wood".to_string()),
        };
        let mut spec = match base_name.filter(|name| name != own_name) {
            Some(name) => ThemeSpec::built_in(&name).unwrap_or_else(ThemeSpec::empty),
            None => ThemeSpec::empty(),
        };
        for (key, item) in root.iter() {
            if key == "base" {
                continue;
            }
            if key == "sixteen_colours" {
                match item.as_str().filter(|name| THEME_NAMES.contains(name)) {
                    Some(name) => spec.sixteen_colours = Some(name.to_string()),
                    None => warnings.push(Problem::expected(
                        file,
                        text,
                        item,
                        "sixteen_colours",
                        theme_names(),
                    )),
                }
                continue;
            }
            if let Some(index) = ROLES.iter().position(|r| *r == key) {
                match read_role(item, key, file, text) {
                    Ok(role) => spec.roles[index] = Some(role),
                    Err(problem) => warnings.push(problem),
                }
            } else if let Some(game) = GAME_TABLES.iter().position(|(g, _)| *g == key) {
                let Some(table) = item.as_table() else {
                    warnings.push(Problem::expected(file, text, item, key, Expected::Table));
                    continue;
                };
                for (role_key, role_item) in table.iter() {
                    let full = format!("{key}.{role_key}");
                    match SIDE_ROLES.iter().position(|r| *r == role_key) {
                        Some(index) => match read_role(role_item, &full, file, text) {
                            Ok(role) => spec.sides[game][index] = Some(role),
                            Err(problem) => warnings.push(problem),
                        },
                        None => warnings.push(Problem {
                            at: at(table.key(role_key).and_then(|k| k.span())),
                            kind: ProblemKind::UnknownKey { key: full },
                        }),
                    }
                }
            } else {
                warnings.push(Problem {
                    at: at(root.key(key).and_then(|k| k.span())),
                    kind: ProblemKind::UnknownKey {
                        key: key.to_string(),
                    },
                });
            }
        }
        (spec, warnings)
    }

    /// Finds and reads a theme: a built-in name, `themes/NAME.toml` in `config_folder`,
    /// or a path. Unknown names are an error (the config check has reported them).
    pub fn load(
        name: &str,
        config_folder: Option<&Path>,
    ) -> Result<(ThemeSpec, Vec<Problem>), Problem> {
        if let Some(spec) = ThemeSpec::built_in(name) {
            return Ok((spec, Vec::new()));
        }
        let path = if name.contains('/') || name.ends_with(".toml") {
            Path::new(name).to_path_buf()
        } else {
            match config_folder {
                Some(folder) => folder.join("themes").join(format!("{name}.toml")),
                // Without a config folder the name came from `--theme`.
                None => {
                    return Err(Problem {
                        at: Location::file("--theme"),
                        kind: ProblemKind::UnknownTheme {
                            name: name.to_string(),
                        },
                    })
                }
            }
        };
        let text =
            crate::untrusted::read_small_text_file(&path, crate::untrusted::MAX_SETTINGS_BYTES)
                .map_err(|error| Problem {
                    at: Location::file(&path.display().to_string()),
                    kind: ProblemKind::Unreadable {
                        error: error.to_string(),
                        fallback: Fallback::WoodTheme,
                    },
                })?;
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.to_string());
        Ok(ThemeSpec::parse(&file, &text))
    }
}

/// Reads the configured theme for a terminal: its palette, its contents when it is a
/// user file, and any problems (an unreadable theme falls back to `wood`).
pub fn load_configured(
    name: &str,
    config_folder: Option<&Path>,
) -> (Option<ThemeSpec>, Vec<Problem>) {
    if ThemeSpec::built_in(name).is_some() {
        return (None, Vec::new());
    }
    match ThemeSpec::load(name, config_folder) {
        Ok((spec, warnings)) => (Some(spec), warnings),
        Err(problem) => (None, vec![problem]),
    }
}

/// Reads one role: `{ fg = "#rrggbb" | "red" | 208, bg = …, modifiers = ["bold"] }`.
fn read_role(item: &Item, key: &str, file: &str, text: &str) -> Result<RoleStyle, Problem> {
    let table: Table = match item {
        Item::Table(table) => table.clone(),
        Item::Value(Value::InlineTable(inline)) => inline.clone().into_table(),
        _ => {
            return Err(Problem::expected(
                file,
                text,
                item,
                key,
                Expected::RoleTable,
            ))
        }
    };
    let mut role = RoleStyle::default();
    for (field, value) in table.iter() {
        let full = format!("{key}.{field}");
        match field {
            "fg" | "bg" => {
                let color = parse_color(value)
                    .ok_or_else(|| Problem::expected(file, text, value, &full, Expected::Colour))?;
                if field == "fg" {
                    role.fg = Some(color);
                } else {
                    role.bg = Some(color);
                }
            }
            "modifiers" => {
                let names: Option<Vec<&str>> = value
                    .as_array()
                    .and_then(|array| array.iter().map(|v| v.as_str()).collect());
                let mut modifiers = Modifier::empty();
                for name in names.unwrap_or_default() {
                    modifiers |= parse_modifier(name).ok_or_else(|| Problem {
                        at: Location::at(file, text, value.span().map(|span| span.start)),
                        kind: ProblemKind::Expected {
                            key: full.clone(),
                            expected: Expected::Modifier,
                            found: Found::text(name),
                        },
                    })?;
                }
                if value.as_array().is_none() {
                    return Err(Problem::expected(
                        file,
                        text,
                        value,
                        &full,
                        Expected::ModifierList,
                    ));
                }
                role.modifiers = modifiers;
            }
            _ => {
                return Err(Problem {
                    at: Location::at(file, text, value.span().map(|span| span.start)),
                    kind: ProblemKind::UnknownRoleField { key: full },
                })
            }
        }
    }
    Ok(role)
}

/// The 16 ANSI colours by name, with the RGB a typical terminal (xterm) shows them in.
const ANSI: [(&str, Color, (u8, u8, u8)); 16] = [
    ("black", Color::Black, (0, 0, 0)),
    ("red", Color::Red, (205, 0, 0)),
    ("green", Color::Green, (0, 205, 0)),
    ("yellow", Color::Yellow, (205, 205, 0)),
    ("blue", Color::Blue, (0, 0, 238)),
    ("magenta", Color::Magenta, (205, 0, 205)),
    ("cyan", Color::Cyan, (0, 205, 205)),
    ("gray", Color::Gray, (229, 229, 229)),
    ("darkgray", Color::DarkGray, (127, 127, 127)),
    ("lightred", Color::LightRed, (255, 0, 0)),
    ("lightgreen", Color::LightGreen, (0, 255, 0)),
    ("lightyellow", Color::LightYellow, (255, 255, 0)),
    ("lightblue", Color::LightBlue, (92, 92, 255)),
    ("lightmagenta", Color::LightMagenta, (255, 0, 255)),
    ("lightcyan", Color::LightCyan, (0, 255, 255)),
    ("white", Color::White, (255, 255, 255)),
];

/// The RGB a terminal shows a colour in: named ANSI colours as xterm shows them, the
/// 256-colour palette by its definition; `None` for the terminal's own default colour.
pub fn rgb_of(color: Color) -> Option<(u8, u8, u8)> {
    match color {
        Color::Reset => None,
        Color::Rgb(r, g, b) => Some((r, g, b)),
        Color::Indexed(index) => Some(rgb_of_index(index)),
        named => ANSI
            .iter()
            .find(|(_, c, _)| *c == named)
            .map(|(_, _, rgb)| *rgb),
    }
}

fn parse_color(item: &Item) -> Option<Color> {
    if let Some(index) = item.as_integer() {
        return u8::try_from(index).ok().map(Color::Indexed);
    }
    let text = item.as_str()?.trim().to_ascii_lowercase();
    if let Some(hex) = text.strip_prefix('#') {
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some(Color::Rgb(channel(0)?, channel(2)?, channel(4)?));
    }
    if text == "default" || text == "reset" {
        return Some(Color::Reset);
    }
    let text = text.replace(['_', '-', ' '], "").replace("grey", "gray");
    ANSI.iter()
        .find(|(name, _, _)| *name == text)
        .map(|(_, color, _)| *color)
}

fn parse_modifier(name: &str) -> Option<Modifier> {
    Some(match name.to_ascii_lowercase().as_str() {
        "bold" => Modifier::BOLD,
        "dim" => Modifier::DIM,
        "italic" => Modifier::ITALIC,
        "underlined" | "underline" => Modifier::UNDERLINED,
        "reversed" | "reverse" => Modifier::REVERSED,
        "crossed_out" => Modifier::CROSSED_OUT,
        _ => return None,
    })
}

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorDepth {
    /// 24-bit RGB.
    TrueColor,
    /// The xterm 256-colour palette.
    Ansi256,
    /// The 16 ANSI colours.
    Ansi16,
}

/// What the terminal can show: its colour depth, and whether colour is wanted at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorMode {
    /// Colour depth.
    pub depth: ColorDepth,
    /// True under `NO_COLOR`: modifiers only.
    pub no_color: bool,
}

impl Default for ColorMode {
    fn default() -> Self {
        ColorMode {
            depth: ColorDepth::TrueColor,
            no_color: false,
        }
    }
}

impl ColorMode {
    /// Decides from the values of `COLORTERM`, `TERM` and `NO_COLOR`: truecolor when
    /// COLORTERM says `truecolor` or `24bit`, 256 when TERM mentions `256color`, else 16;
    /// no colour when NO_COLOR is set and not empty.
    pub fn from_values(
        colorterm: Option<&str>,
        term: Option<&str>,
        no_color: Option<&str>,
    ) -> ColorMode {
        let colorterm = colorterm.unwrap_or("").to_ascii_lowercase();
        let depth = if colorterm == "truecolor" || colorterm == "24bit" {
            ColorDepth::TrueColor
        } else if term.unwrap_or("").contains("256color") {
            ColorDepth::Ansi256
        } else {
            ColorDepth::Ansi16
        };
        ColorMode {
            depth,
            no_color: no_color.is_some_and(|value| !value.is_empty()),
        }
    }

    /// Decides from the environment (see [`ColorMode::from_values`]).
    pub fn from_environment() -> ColorMode {
        let var = |name: &str| std::env::var(name).ok();
        ColorMode::from_values(
            var("COLORTERM").as_deref(),
            var("TERM").as_deref(),
            var("NO_COLOR").as_deref(),
        )
    }

    /// A colour as this terminal should be sent it.
    pub fn convert(self, color: Color) -> Color {
        match (self.depth, color) {
            (ColorDepth::TrueColor, color) => color,
            (ColorDepth::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(nearest_256((r, g, b))),
            (ColorDepth::Ansi256, color) => color,
            (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => nearest_16((r, g, b)),
            (ColorDepth::Ansi16, Color::Indexed(index)) => nearest_16(rgb_of_index(index)),
            (ColorDepth::Ansi16, color) => color,
        }
    }
}

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs().pow(2);
    // Weighted towards green, as the eye is (a cheap perceptual distance).
    2 * d(a.0, b.0) + 4 * d(a.1, b.1) + 3 * d(a.2, b.2)
}

/// The levels of the xterm 6×6×6 colour cube.
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The RGB an xterm 256-colour index stands for.
pub fn rgb_of_index(index: u8) -> (u8, u8, u8) {
    match index {
        0..=15 => ANSI[usize::from(index)].2,
        16..=231 => {
            let i = index - 16;
            (
                CUBE[usize::from(i / 36)],
                CUBE[usize::from(i / 6 % 6)],
                CUBE[usize::from(i % 6)],
            )
        }
        _ => {
            let level = 8 + 10 * (index - 232);
            (level, level, level)
        }
    }
}

/// The nearest entry of the 256-colour palette's cube and grey ramp (16–255; the first 16
/// vary between terminals, so they are not used for RGB).
pub fn nearest_256(rgb: (u8, u8, u8)) -> u8 {
    (16..=255u8)
        .min_by_key(|&index| distance(rgb, rgb_of_index(index)))
        .unwrap_or(16)
}

/// The 16-colour likeness of an RGB colour, chosen by kind rather than by raw distance
/// (which sends pale and mid tones to grey): a colour with little chroma becomes the grey
/// of its lightness (black, dark grey, grey, white); any other becomes the ANSI hue
/// nearest its own (red 0°, yellow 60°, green 120°, cyan 180°, blue 225° — xterm's blues
/// read as blue from about 205° — magenta 300°), in the light variant when it is bright.
pub fn nearest_16(rgb: (u8, u8, u8)) -> Color {
    let (r, g, b) = (i32::from(rgb.0), i32::from(rgb.1), i32::from(rgb.2));
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let chroma = max - min;
    if chroma < 48 {
        return match (max + min) / 2 {
            0..=49 => Color::Black,
            50..=149 => Color::DarkGray,
            150..=234 => Color::Gray,
            _ => Color::White,
        };
    }
    let hue = if max == r {
        (60 * (g - b) / chroma).rem_euclid(360)
    } else if max == g {
        60 * (b - r) / chroma + 120
    } else {
        60 * (r - g) / chroma + 240
    };
    let hues: [(i32, Color, Color); 6] = [
        (0, Color::Red, Color::LightRed),
        (60, Color::Yellow, Color::LightYellow),
        (120, Color::Green, Color::LightGreen),
        (180, Color::Cyan, Color::LightCyan),
        (225, Color::Blue, Color::LightBlue),
        (300, Color::Magenta, Color::LightMagenta),
    ];
    let apart = |a: i32, b: i32| {
        let d = (a - b).rem_euclid(360);
        d.min(360 - d)
    };
    let (_, normal, light) = hues
        .iter()
        .min_by_key(|(centre, _, _)| apart(hue, *centre))
        .copied()
        .unwrap_or((0, Color::White, Color::White));
    // Bright (a channel near full) or pale (every channel well lit) reads as "light".
    if max >= 240 || min >= 140 {
        light
    } else {
        normal
    }
}

/// A theme made ready for a terminal: a [`Style`] per role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    roles: [Style; ROLES.len()],
    sides: [[Style; SIDE_ROLES.len()]; 3],
}

impl Default for Palette {
    fn default() -> Self {
        Palette::new(
            &ThemeSpec::built_in("wood").unwrap_or_else(ThemeSpec::empty),
            ColorMode::default(),
        )
    }
}

impl Palette {
    /// The `wood` theme's contents (the default theme).
    pub fn default_spec() -> ThemeSpec {
        ThemeSpec::built_in("wood").unwrap_or_else(ThemeSpec::empty)
    }

    /// Styles for every role of `spec` on a terminal of this mode. Under `NO_COLOR` the
    /// modifiers come from the `contrast` theme, whose sides and marks differ by more than
    /// colour, so the board stays readable without any.
    pub fn new(spec: &ThemeSpec, mode: ColorMode) -> Palette {
        let replacement = if mode.no_color {
            ThemeSpec::built_in("contrast")
        } else if mode.depth == ColorDepth::Ansi16 {
            spec.sixteen_colours
                .as_deref()
                .and_then(ThemeSpec::built_in)
        } else {
            None
        };
        let spec = replacement.as_ref().unwrap_or(spec);
        let style = |role: Option<RoleStyle>| {
            let role = role.unwrap_or_default();
            let mut style = Style::new().add_modifier(role.modifiers);
            if !mode.no_color {
                if let Some(fg) = role.fg {
                    style = style.fg(mode.convert(fg));
                }
                if let Some(bg) = role.bg {
                    style = style.bg(mode.convert(bg));
                }
            }
            style
        };
        Palette {
            roles: spec.roles.map(style),
            sides: spec.sides.map(|game| game.map(style)),
        }
    }

    /// The style of a shared role (see [`ROLES`]); plain for an unknown name.
    pub fn role(&self, name: &str) -> Style {
        ROLES
            .iter()
            .position(|r| *r == name)
            .map_or(Style::new(), |index| self.roles[index])
    }

    /// The style of a game's side role (see [`SIDE_ROLES`]).
    pub fn side_role(&self, game: GameKind, name: &str) -> Style {
        let game = GAME_TABLES
            .iter()
            .position(|(_, kind)| *kind == game)
            .unwrap_or(0);
        SIDE_ROLES
            .iter()
            .position(|r| *r == name)
            .map_or(Style::new(), |index| self.sides[game][index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_theme_parses_and_sets_every_role_itself() {
        for (name, text) in BUILT_IN {
            let file = format!("{name}.toml");
            let (spec, warnings) = ThemeSpec::parse(&file, text);
            assert!(warnings.is_empty(), "{name}: {warnings:?}");
            // Built-ins have no base: what is set here is what the file itself sets.
            for (index, role) in ROLES.iter().enumerate() {
                assert!(spec.roles[index].is_some(), "{name} has no {role}");
            }
            for (game, (game_name, _)) in GAME_TABLES.iter().enumerate() {
                for (index, role) in SIDE_ROLES.iter().enumerate() {
                    assert!(
                        spec.sides[game][index].is_some(),
                        "{name} has no {game_name}.{role}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_user_theme_inherits_from_its_base() {
        let text = "base = \"dark\"\ncursor = { bg = \"#ff00ff\" }\n[shogi]\nfirst_side = { fg = \"white\", modifiers = [\"bold\"] }\n";
        let (spec, warnings) = ThemeSpec::parse("mine.toml", text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let dark = ThemeSpec::built_in("dark").unwrap();
        let cursor = ROLES.iter().position(|r| *r == "cursor").unwrap();
        assert_eq!(
            spec.roles[cursor].unwrap().bg,
            Some(Color::Rgb(255, 0, 255))
        );
        assert_ne!(spec.roles[cursor], dark.roles[cursor]);
        assert_eq!(spec.roles[0], dark.roles[0]);
        assert_eq!(spec.sides[1][0].unwrap().fg, Some(Color::White));
        assert_eq!(spec.sides[1][1], dark.sides[1][1]);
    }

    #[test]
    fn a_bad_role_is_reported_and_keeps_the_base() {
        let text = "grid = { fg = \"#12345\" }\nboard = { fg = \"red\", modifiers = [\"blink\"] }\nsparkle = 1\n";
        let (spec, problems) = ThemeSpec::parse("mine.toml", text);
        let warnings: Vec<String> = problems.iter().map(Problem::to_string).collect();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0]
            .starts_with("mine.toml: line 1, column 15: key \"grid.fg\": expected a colour"));
        assert!(warnings[1].contains("key \"board.modifiers\": expected bold"));
        assert!(warnings[2].contains("unknown key \"sparkle\""));
        // The same problems in Korean keep the file, place and key.
        let korean: Vec<String> = problems
            .iter()
            .map(|problem| problem.text(crate::i18n::Language::Korean))
            .collect();
        assert!(
            korean[0].starts_with("mine.toml: 1행 15열: 키 \"grid.fg\": 색 값("),
            "{korean:?}"
        );
        assert!(korean[1].contains("중 하나가 필요한데 적힌 값은 \"blink\"입니다"));
        assert_eq!(
            korean[2],
            "mine.toml: 3행 1열: 알 수 없는 키 \"sparkle\" (무시함)"
        );
        assert_eq!(spec.roles[1], ThemeSpec::built_in("wood").unwrap().roles[1]);
    }

    #[test]
    fn an_unusable_theme_is_reported_in_either_language() {
        let (spec, problems) = load_configured("paper", None);
        assert_eq!(spec, None);
        assert_eq!(
            problems[0].to_string(),
            "--theme: unknown theme \"paper\"; using wood"
        );
        assert_eq!(
            problems[0].text(crate::i18n::Language::Korean),
            "--theme: 알 수 없는 테마 \"paper\" (wood 테마를 씁니다)"
        );
        let missing = format!("/nonexistent-{}/paper.toml", std::process::id());
        let (_, problems) = load_configured(&missing, None);
        let english = problems[0].to_string();
        assert!(
            english.starts_with(&format!("{missing}: cannot read: ")),
            "{english}"
        );
        assert!(english.ends_with("; using wood"), "{english}");
        let (_, problems) = ThemeSpec::parse("bad.toml", "board = {\n");
        assert!(problems[0]
            .text(crate::i18n::Language::Korean)
            .starts_with("bad.toml: 1행 10열: TOML 문법 오류: "));
    }

    #[test]
    fn colour_depth_follows_colorterm_then_term() {
        let mode = |ct, term| ColorMode::from_values(ct, term, None).depth;
        assert_eq!(
            mode(Some("truecolor"), Some("xterm")),
            ColorDepth::TrueColor
        );
        assert_eq!(mode(Some("24bit"), None), ColorDepth::TrueColor);
        assert_eq!(mode(None, Some("xterm-256color")), ColorDepth::Ansi256);
        assert_eq!(
            mode(Some("yes"), Some("screen-256color")),
            ColorDepth::Ansi256
        );
        assert_eq!(mode(None, Some("xterm")), ColorDepth::Ansi16);
        assert_eq!(mode(None, None), ColorDepth::Ansi16);
    }

    #[test]
    fn colours_are_brought_down_to_the_nearest_entry() {
        let to_256 = ColorMode {
            depth: ColorDepth::Ansi256,
            no_color: false,
        };
        // Exact cube and grey entries map to themselves.
        assert_eq!(to_256.convert(Color::Rgb(255, 0, 0)), Color::Indexed(196));
        assert_eq!(to_256.convert(Color::Rgb(8, 8, 8)), Color::Indexed(232));
        assert_eq!(
            to_256.convert(Color::Rgb(215, 175, 135)),
            Color::Indexed(180)
        );
        // Near ones go to the closest: wood (222,184,135) is cube 180 (215,175,135).
        assert_eq!(
            to_256.convert(Color::Rgb(222, 184, 135)),
            Color::Indexed(180)
        );
        // Named colours are left to the terminal.
        assert_eq!(to_256.convert(Color::Red), Color::Red);
        let to_16 = ColorMode {
            depth: ColorDepth::Ansi16,
            no_color: false,
        };
        assert_eq!(to_16.convert(Color::Rgb(190, 20, 20)), Color::Red);
        assert_eq!(to_16.convert(Color::Rgb(20, 20, 20)), Color::Black);
        assert_eq!(to_16.convert(Color::Rgb(0, 0, 200)), Color::Blue);
        // Janggi's Cho blue stays a blue; pale and mid tones keep their hue, not grey.
        assert_eq!(to_16.convert(Color::Rgb(0, 90, 170)), Color::Blue);
        assert_eq!(to_16.convert(Color::Rgb(120, 200, 120)), Color::Green);
        assert_eq!(to_16.convert(Color::Rgb(255, 95, 95)), Color::LightRed);
        assert_eq!(to_16.convert(Color::Rgb(222, 184, 135)), Color::Yellow);
        assert_eq!(to_16.convert(Color::Rgb(250, 215, 60)), Color::LightYellow);
        // Greys go by lightness.
        assert_eq!(to_16.convert(Color::Rgb(127, 127, 127)), Color::DarkGray);
        assert_eq!(to_16.convert(Color::Rgb(229, 229, 229)), Color::Gray);
        assert_eq!(to_16.convert(Color::Rgb(250, 250, 250)), Color::White);
        // The 16 ANSI colours map to themselves.
        for (_, color, rgb) in ANSI {
            assert_eq!(nearest_16(rgb), color, "{rgb:?}");
        }
        assert_eq!(to_16.convert(Color::Indexed(196)), Color::LightRed);
        for index in 0..=255u8 {
            let Color::Indexed(back) = to_256.convert({
                let (r, g, b) = rgb_of_index(index.max(16));
                Color::Rgb(r, g, b)
            }) else {
                panic!("not indexed");
            };
            assert_eq!(rgb_of_index(back), rgb_of_index(index.max(16)));
        }
    }

    #[test]
    fn no_color_keeps_only_modifiers_and_the_sides_still_differ() {
        let mode = ColorMode {
            depth: ColorDepth::TrueColor,
            no_color: true,
        };
        let palette = Palette::new(&ThemeSpec::built_in("wood").unwrap(), mode);
        for role in ROLES {
            let style = palette.role(role);
            assert_eq!((style.fg, style.bg), (None, None), "{role} has a colour");
        }
        for (_, game) in GAME_TABLES {
            let first = palette.side_role(game, "first_side");
            let second = palette.side_role(game, "second_side");
            assert_eq!(
                (first.fg, first.bg, second.fg, second.bg),
                (None, None, None, None)
            );
            assert_ne!(
                first.add_modifier, second.add_modifier,
                "{game:?} sides look alike"
            );
        }
        // The marks on the board are still visible.
        for role in [
            "cursor",
            "selected",
            "legal_target",
            "last_move",
            "best_move",
            "check",
        ] {
            assert!(
                !palette.role(role).add_modifier.is_empty(),
                "{role} is invisible"
            );
        }
        assert_ne!(
            palette.role("cursor").add_modifier,
            palette.role("selected").add_modifier
        );
    }

    #[test]
    fn wood_is_drawn_with_the_sixteen_theme_on_16_colours() {
        let wood = ThemeSpec::built_in("wood").unwrap();
        let sixteen = ThemeSpec::built_in("sixteen").unwrap();
        let mode = |depth| ColorMode {
            depth,
            no_color: false,
        };
        assert_eq!(
            Palette::new(&wood, mode(ColorDepth::Ansi16)),
            Palette::new(&sixteen, mode(ColorDepth::Ansi16))
        );
        // At 256 colours wood keeps its own shades, brought to the nearest entries.
        let palette = Palette::new(&wood, mode(ColorDepth::Ansi256));
        assert_eq!(palette.role("board").bg, Some(Color::Indexed(180)));
        // Dark has no such line: its colours are converted one by one.
        let dark = Palette::new(
            &ThemeSpec::built_in("dark").unwrap(),
            mode(ColorDepth::Ansi16),
        );
        assert_eq!(dark.role("board").bg, Some(Color::Black));
        assert_eq!(
            dark.side_role(GameKind::Xiangqi, "first_side").fg,
            Some(Color::LightRed)
        );
    }

    #[test]
    fn the_sixteen_theme_uses_only_ansi_colours() {
        let spec = ThemeSpec::built_in("sixteen").unwrap();
        let all = spec.roles.iter().chain(spec.sides.iter().flatten());
        for role in all.flatten() {
            for color in [role.fg, role.bg].into_iter().flatten() {
                assert!(
                    !matches!(color, Color::Rgb(..) | Color::Indexed(_)),
                    "{color:?} is not one of the 16"
                );
            }
        }
    }

    #[test]
    fn the_contrast_theme_tells_sides_apart_without_hue() {
        let spec = ThemeSpec::built_in("contrast").unwrap();
        for game in 0..3 {
            let first = spec.sides[game][0].unwrap();
            let second = spec.sides[game][1].unwrap();
            assert_ne!(first.modifiers, second.modifiers);
        }
    }
}
