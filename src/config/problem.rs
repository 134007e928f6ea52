//! Problems found in a config or theme file, kept as data so that they can be shown
//! in the player's language: the file, line, column and key stay as written (they are
//! what the player must find), only the words around them are translated.

use crate::i18n::{Key, Language};
use std::fmt;
use toml_edit::{Item, Value};

/// Where a problem is: a file (or the flag a value came from), and the line and
/// column in it when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file name as messages show it (`config.toml`), or `--theme` for the flag.
    pub file: String,
    /// The 1-based line and column (in characters), when the problem has a place.
    pub line_column: Option<(u32, u32)>,
}

impl Location {
    /// A whole file (or flag), without a line.
    pub fn file(file: &str) -> Location {
        Location {
            file: file.to_string(),
            line_column: None,
        }
    }

    /// The place of a byte offset in `text`, or the whole file without an offset.
    pub fn at(file: &str, text: &str, offset: Option<usize>) -> Location {
        Location {
            file: file.to_string(),
            line_column: offset.map(|offset| small(super::line_column(text, offset))),
        }
    }

    fn text(&self, language: Language) -> String {
        match self.line_column {
            Some((line, column)) => language.format(
                Key::ProblemLineColumn,
                &[&self.file, &line.to_string(), &column.to_string()],
            ),
            None => self.file.clone(),
        }
    }
}

/// A line and column as stored in a [`Location`] (a file of four billion lines is
/// not a config file; such a count saturates).
pub(crate) fn small((line, column): (usize, usize)) -> (u32, u32) {
    let small = |number: usize| u32::try_from(number).unwrap_or(u32::MAX);
    (small(line), small(column))
}

/// What a key should hold, in words either language can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// One of these names.
    OneOf(Vec<String>),
    /// One of these theme names, or a path to a theme file.
    OneOfOrThemePath(Vec<String>),
    /// Any string.
    Text,
    /// `true` or `false`.
    TrueOrFalse,
    /// A table, standard or inline.
    Table,
    /// A whole number in this range (both ends included).
    WholeNumber {
        /// The smallest allowed.
        from: i64,
        /// The largest allowed.
        to: i64,
    },
    /// A colour: `#rrggbb`, an ANSI name or a 256-colour index.
    Colour,
    /// A list of strings.
    ListOfStrings,
    /// A list of key names such as `["u", "Ctrl-z"]`.
    KeyNames,
    /// A time control such as `10m 3x30s`.
    TimeControl,
    /// `[[engines]]` tables.
    EngineTables,
    /// Any value (not a table).
    AnyValue,
    /// A table of engine options, `name = value`.
    OptionsTable,
    /// A theme role's table, `{ fg = …, bg = …, modifiers = […] }`.
    RoleTable,
    /// A text modifier's name (`bold`, `dim`, …).
    Modifier,
    /// A list of modifier names.
    ModifierList,
}

impl Expected {
    fn text(&self, language: Language) -> String {
        let plain = |key| language.text(key).to_string();
        match self {
            Expected::OneOf(names) => language.format(Key::ExpectedOneOf, &[&names.join(", ")]),
            Expected::OneOfOrThemePath(names) => {
                language.format(Key::ExpectedOneOfOrThemePath, &[&names.join(", ")])
            }
            Expected::Text => plain(Key::ExpectedString),
            Expected::TrueOrFalse => plain(Key::ExpectedTrueOrFalse),
            Expected::Table => plain(Key::ExpectedTable),
            Expected::WholeNumber { from, to } => language.format(
                Key::ExpectedWholeNumber,
                &[&from.to_string(), &to.to_string()],
            ),
            Expected::Colour => plain(Key::ExpectedColour),
            Expected::ListOfStrings => plain(Key::ExpectedStringList),
            Expected::KeyNames => plain(Key::ExpectedKeyNames),
            Expected::TimeControl => plain(Key::ExpectedTimeControl),
            Expected::EngineTables => plain(Key::ExpectedEngineTables),
            Expected::AnyValue => plain(Key::ExpectedValue),
            Expected::OptionsTable => plain(Key::ExpectedOptionsTable),
            Expected::RoleTable => plain(Key::ExpectedRoleTable),
            Expected::Modifier => plain(Key::ExpectedModifier),
            Expected::ModifierList => plain(Key::ExpectedModifierList),
        }
    }
}

/// What a bad key holds instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A value as the player wrote it (`12`, `[1, 2]`), a string in double quotes
    /// (`"blu"`) without its escapes, so that any language shows it the same.
    Value(String),
    /// A table.
    Table,
    /// Nothing at all.
    Nothing,
}

impl Found {
    /// What a TOML item holds, as a problem shows it.
    pub fn of(item: &Item) -> Found {
        match item {
            Item::Value(Value::String(text)) => Found::text(text.value()),
            Item::Value(value) => Found::Value(value.to_string().trim().to_string()),
            Item::Table(_) | Item::ArrayOfTables(_) => Found::Table,
            Item::None => Found::Nothing,
        }
    }

    /// A string found, shown in double quotes.
    pub fn text(text: &str) -> Found {
        Found::Value(format!("\"{text}\""))
    }

    fn shown(&self, language: Language) -> String {
        match self {
            Found::Value(text) => text.clone(),
            Found::Table => language.text(Key::FoundTable).to_string(),
            Found::Nothing => language.text(Key::FoundNothing).to_string(),
        }
    }
}

/// What is used instead of a file that cannot be used at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Every setting at its default (a config file).
    EveryDefault,
    /// The `wood` theme (a theme file).
    WoodTheme,
}

impl Fallback {
    fn text(self, language: Language) -> &'static str {
        match self {
            Fallback::EveryDefault => language.text(Key::FallbackEveryDefault),
            Fallback::WoodTheme => language.text(Key::FallbackWood),
        }
    }
}

/// The kinds of problem a config or theme file can have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// A key holds the wrong thing; it keeps its default.
    Expected {
        /// The dotted key (`cpu.level`).
        key: String,
        /// What it should hold.
        expected: Expected,
        /// What it holds.
        found: Found,
    },
    /// A key nothing reads (a typo, most likely); ignored.
    UnknownKey {
        /// The dotted key.
        key: String,
    },
    /// The file is not TOML at all.
    InvalidToml {
        /// The parser's own message (first line), kept as it is.
        message: String,
        /// What is used instead.
        fallback: Fallback,
    },
    /// An `[[engines]]` table lacks a field it needs; the engine is ignored.
    EngineNeeds {
        /// The missing field (`name`, `command`).
        key: String,
    },
    /// The file exists but cannot be read.
    Unreadable {
        /// The system's error message, kept as it is.
        error: String,
        /// What is used instead.
        fallback: Fallback,
    },
    /// A theme name that is neither built in nor a file; `wood` is used.
    UnknownTheme {
        /// The name asked for.
        name: String,
    },
    /// A theme role has a field other than `fg`, `bg` and `modifiers`.
    UnknownRoleField {
        /// The dotted key (`grid.fgg`).
        key: String,
    },
}

/// One problem in a config or theme file: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where it is.
    pub at: Location,
    /// What it is.
    pub kind: ProblemKind,
}

impl Problem {
    /// A key holding the wrong thing, at the item's place in `text`.
    pub(crate) fn expected(
        file: &str,
        text: &str,
        item: &Item,
        key: &str,
        expected: Expected,
    ) -> Problem {
        Problem {
            at: Location::at(file, text, item.span().map(|span| span.start)),
            kind: ProblemKind::Expected {
                key: key.to_string(),
                expected,
                found: Found::of(item),
            },
        }
    }

    /// The problem as one line in a language (newlines in keys or values become spaces).
    pub fn text(&self, language: Language) -> String {
        let at = self.at.text(language);
        let line = match &self.kind {
            ProblemKind::Expected {
                key,
                expected,
                found,
            } => language.format(
                Key::ProblemExpected,
                &[&at, key, &expected.text(language), &found.shown(language)],
            ),
            ProblemKind::UnknownKey { key } => language.format(Key::ProblemUnknownKey, &[&at, key]),
            ProblemKind::InvalidToml { message, fallback } => language.format(
                Key::ProblemInvalidToml,
                &[&at, message, fallback.text(language)],
            ),
            ProblemKind::EngineNeeds { key } => {
                language.format(Key::ProblemEngineNeeds, &[&at, key])
            }
            ProblemKind::Unreadable { error, fallback } => language.format(
                Key::ProblemUnreadable,
                &[&at, error, fallback.text(language)],
            ),
            ProblemKind::UnknownTheme { name } => {
                language.format(Key::ProblemUnknownTheme, &[&at, name])
            }
            ProblemKind::UnknownRoleField { key } => {
                language.format(Key::ProblemUnknownRoleField, &[&at, key])
            }
        };
        line.replace(['\n', '\r'], " ")
    }
}

/// English, as `qipan config check` showed it before there were languages.
impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text(Language::English))
    }
}
