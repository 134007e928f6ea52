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
    pub(crate) fn at(file: &str, text: &str, offset: Option<usize>) -> Location {
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
    pub(crate) fn of(item: &Item) -> Found {
        match item {
            Item::Value(Value::String(text)) => Found::text(text.value()),
            Item::Value(value) => Found::Value(value.to_string().trim().to_string()),
            Item::Table(_) | Item::ArrayOfTables(_) => Found::Table,
            Item::None => Found::Nothing,
        }
    }

    /// A string found, shown in double quotes.
    pub(crate) fn text(text: &str) -> Found {
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
    /// The lines of the broken section are skipped; the rest of the file is read.
    SectionSkipped,
}

impl Fallback {
    fn text(self, language: Language) -> &'static str {
        match self {
            Fallback::EveryDefault => language.text(Key::FallbackEveryDefault),
            Fallback::WoodTheme => language.text(Key::FallbackWood),
            Fallback::SectionSkipped => language.text(Key::FallbackSectionSkipped),
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
    /// Two `[[engines]]` tables have one name; the later one is ignored.
    DuplicateEngine {
        /// The name both use.
        name: String,
    },
    /// `[keys]` leaves an action with no key at all (`undo = []`).
    ActionWithoutKey {
        /// The action's config name.
        action: String,
    },
    /// `[keys]` gives an action the key that quits, so quit keeps only Ctrl-C.
    QuitKeyTaken {
        /// The action's config name.
        action: String,
        /// The key, as the config writes it.
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
            ProblemKind::DuplicateEngine { name } => {
                language.format(Key::ProblemDuplicateEngine, &[&at, name])
            }
            ProblemKind::ActionWithoutKey { action } => {
                language.format(Key::ProblemActionWithoutKey, &[&at, action])
            }
            ProblemKind::QuitKeyTaken { action, key } => {
                language.format(Key::ProblemQuitKeyTaken, &[&at, action, key])
            }
        };
        // Keys, values and file names come from the user's files: escaped, cut.
        crate::untrusted::quote(
            &line.replace(['\n', '\r'], " "),
            4 * crate::untrusted::QUOTE_CHARS,
        )
    }
}

/// English, as `qipan config check` showed it before there were languages.
impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text(Language::English))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_hangul(text: &str) -> bool {
        text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
    }

    fn at(line: u32, column: u32) -> Location {
        Location {
            file: "qipan.toml".to_string(),
            line_column: Some((line, column)),
        }
    }

    /// Every kind of problem, each with a key (or name) that the text must keep.
    fn every_kind() -> Vec<(Problem, &'static str)> {
        let expected = [
            Expected::OneOf(vec!["auto".to_string(), "en".to_string()]),
            Expected::OneOfOrThemePath(vec!["wood".to_string(), "mine".to_string()]),
            Expected::Text,
            Expected::TrueOrFalse,
            Expected::Table,
            Expected::WholeNumber { from: 1, to: 10 },
            Expected::Colour,
            Expected::ListOfStrings,
            Expected::KeyNames,
            Expected::TimeControl,
            Expected::EngineTables,
            Expected::AnyValue,
            Expected::OptionsTable,
            Expected::RoleTable,
            Expected::Modifier,
            Expected::ModifierList,
        ];
        let mut problems: Vec<(Problem, &'static str)> = expected
            .into_iter()
            .map(|expected| {
                let kind = ProblemKind::Expected {
                    key: "cpu.level".to_string(),
                    expected,
                    found: Found::text("열"),
                };
                (Problem { at: at(3, 5), kind }, "cpu.level")
            })
            .collect();
        for found in [Found::Value("12".to_string()), Found::Table, Found::Nothing] {
            let kind = ProblemKind::Expected {
                key: "bell".to_string(),
                expected: Expected::TrueOrFalse,
                found,
            };
            problems.push((Problem { at: at(3, 5), kind }, "bell"));
        }
        let kinds = [
            (
                ProblemKind::UnknownKey {
                    key: "colour".to_string(),
                },
                "colour",
            ),
            (
                ProblemKind::InvalidToml {
                    message: "expected `=`".to_string(),
                    fallback: Fallback::EveryDefault,
                },
                "expected `=`",
            ),
            (
                ProblemKind::InvalidToml {
                    message: "expected `=`".to_string(),
                    fallback: Fallback::WoodTheme,
                },
                "expected `=`",
            ),
            (
                ProblemKind::EngineNeeds {
                    key: "command".to_string(),
                },
                "command",
            ),
            (
                ProblemKind::Unreadable {
                    error: "permission denied".to_string(),
                    fallback: Fallback::EveryDefault,
                },
                "permission denied",
            ),
            (
                ProblemKind::UnknownTheme {
                    name: "paper".to_string(),
                },
                "paper",
            ),
            (
                ProblemKind::UnknownRoleField {
                    key: "grid.fgg".to_string(),
                },
                "grid.fgg",
            ),
        ];
        for (kind, name) in kinds {
            problems.push((Problem { at: at(3, 5), kind }, name));
        }
        problems
    }

    #[test]
    fn every_kind_reads_as_korean_and_keeps_the_place_and_key() {
        for (problem, name) in every_kind() {
            let korean = problem.text(Language::Korean);
            assert!(has_hangul(&korean), "{korean}");
            assert!(korean.starts_with("qipan.toml: 3행 5열: "), "{korean}");
            assert!(korean.contains(name), "{korean} lacks {name}");
            // Only the player's own words and the parser's or system's stay English.
            let frame = korean.replace(name, "");
            for word in [
                "expected", "found", "key ", "unknown", "ignored", "using", "needs",
            ] {
                assert!(!frame.contains(word), "{korean} has the English {word:?}");
            }
            let english = problem.text(Language::English);
            assert!(!has_hangul(&english.replace("\"열\"", "")), "{english}");
            assert!(english.starts_with("qipan.toml: line 3, column 5: "));
            assert!(english.contains(name), "{english} lacks {name}");
            assert_eq!(problem.to_string(), english);
            assert_ne!(korean, english);
        }
    }

    #[test]
    fn every_kind_reads_in_chinese_and_japanese_and_keeps_the_place_and_key() {
        let places = [
            (Language::Chinese, "qipan.toml: 第 3 行第 5 列: "),
            (Language::Japanese, "qipan.toml: 3行 5列: "),
        ];
        for (problem, name) in every_kind() {
            for (language, place) in places {
                let text = problem.text(language);
                assert!(text.starts_with(place), "{text}");
                assert!(text.contains(name), "{text} lacks {name}");
                let frame = text.replace(name, "");
                for word in [
                    "expected", "found", "key ", "unknown", "ignored", "using", "needs",
                ] {
                    assert!(!frame.contains(word), "{text} has the English {word:?}");
                }
                assert!(!has_hangul(&frame.replace("\"열\"", "")), "{text}");
            }
        }
        let problem = Problem {
            at: at(3, 5),
            kind: ProblemKind::Expected {
                key: "cpu.level".to_string(),
                expected: Expected::WholeNumber { from: 1, to: 10 },
                found: Found::Value("12".to_string()),
            },
        };
        assert_eq!(
            problem.text(Language::Japanese),
            "qipan.toml: 3行 5列: キー \"cpu.level\": 1 から 10 までの整数が必要ですが、書かれている値は 12 です"
        );
        assert_eq!(
            problem.text(Language::Chinese),
            "qipan.toml: 第 3 行第 5 列: 键 \"cpu.level\": 应为 1 到 10 的整数，实际为 12"
        );
    }

    #[test]
    fn what_was_expected_and_found_are_said_in_the_language() {
        let problem = Problem {
            at: at(3, 5),
            kind: ProblemKind::Expected {
                key: "cpu.level".to_string(),
                expected: Expected::WholeNumber { from: 1, to: 10 },
                found: Found::text("열"),
            },
        };
        assert_eq!(
            problem.text(Language::Korean),
            "qipan.toml: 3행 5열: 키 \"cpu.level\": 1부터 10까지의 정수가 필요한데 적힌 값은 \"열\"입니다"
        );
        assert_eq!(
            problem.to_string(),
            "qipan.toml: line 3, column 5: key \"cpu.level\": expected a whole number from 1 to 10, found \"열\""
        );
        let table = Problem {
            at: Location::file("t.toml"),
            kind: ProblemKind::Expected {
                key: "xiangqi".to_string(),
                expected: Expected::Table,
                found: Found::Value("3".to_string()),
            },
        };
        assert_eq!(
            table.text(Language::Korean),
            "t.toml: 키 \"xiangqi\": 테이블이 필요한데 적힌 값은 3입니다"
        );
    }

    #[test]
    fn a_problem_is_one_line_even_when_its_key_is_not() {
        let problem = Problem {
            at: Location::file("config.toml"),
            kind: ProblemKind::UnknownKey {
                key: "odd\nkey\r".to_string(),
            },
        };
        for language in Language::ALL {
            assert!(!problem.text(language).contains(['\n', '\r']));
        }
    }
}
