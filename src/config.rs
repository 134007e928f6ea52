//! The user's settings: `config.toml` read key by key, merged as
//! defaults < file < command-line flags in [`merge`], and saved back by editing
//! only the changed keys so the user's comments and order survive ([`save_changes`]).
//!
//! A bad value costs only its own key: the problem is reported as one line naming
//! the file, line, column and key, and that key keeps its default while every other
//! key keeps the file's value. Unknown keys are warned about, never fatal.

use crate::action::{action_named, parse_key, Action, ACTION_NAMES};
use crate::i18n::Language;
use crate::rules::any::{GameKind, Variant};
use crate::rules::janggi::Setup;
use crate::rules::notation::Notation;
use crate::rules::shogi::Handicap;
use crate::untrusted::MAX_SETTINGS_BYTES;
use crossterm::event::KeyCode;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml_edit::{Item, Table, Value};

mod problem;
pub use problem::{Expected, Fallback, Found, Location, Problem, ProblemKind};

/// The example configuration, every option at its default (also `qipan config example`).
pub const EXAMPLE: &str = include_str!("../config.example.toml");

/// The built-in theme names, in the order the settings screen cycles through them.
pub const THEME_NAMES: [&str; 4] = ["wood", "dark", "contrast", "sixteen"];

/// The interface language asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanguageChoice {
    /// Follow the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    Auto,
    /// This language.
    Fixed(Language),
}

impl LanguageChoice {
    /// The language to use now (reads the environment for `Auto`).
    pub fn resolve(self) -> Language {
        match self {
            LanguageChoice::Auto => Language::from_environment(),
            LanguageChoice::Fixed(language) => language,
        }
    }

    /// The config spelling: `auto`, `en`, `ko`, `zh` or `ja`.
    pub fn id(self) -> &'static str {
        match self {
            LanguageChoice::Auto => "auto",
            LanguageChoice::Fixed(language) => language.code(),
        }
    }
}

/// Which side the CPU plays in a new game by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuSide {
    /// Nobody: two people at one keyboard.
    None,
    /// The side that moves first (Cho, Red, Sente).
    First,
    /// The side that moves second.
    Second,
    /// Both sides (watch the CPU play itself).
    Both,
}

/// The engine protocol an external engine speaks; one `[[engines]]` table is the
/// client's own [`EngineSpec`](crate::protocol::client::EngineSpec), so the config and
/// `--engine` describe engines the same way.
pub use crate::protocol::client::{EngineProtocol, EngineSpec as EngineConfig};

/// The default move notation per game; `None` follows the interface language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NotationChoices {
    /// Xiangqi.
    pub xiangqi: Option<Notation>,
    /// Shogi.
    pub shogi: Option<Notation>,
    /// Janggi and gungjanggi.
    pub janggi: Option<Notation>,
}

impl NotationChoices {
    /// The choice for a game.
    pub fn for_game(&self, game: GameKind) -> Option<Notation> {
        match game {
            GameKind::Xiangqi => self.xiangqi,
            GameKind::Shogi => self.shogi,
            GameKind::Janggi => self.janggi,
        }
    }

    /// Sets the choice for a game.
    pub fn set(&mut self, game: GameKind, notation: Option<Notation>) {
        match game {
            GameKind::Xiangqi => self.xiangqi = notation,
            GameKind::Shogi => self.shogi = notation,
            GameKind::Janggi => self.janggi = notation,
        }
    }
}

/// Time controls per game, read with [`crate::clock::TimeControl`]'s text form (`none`, `10m`,
/// `5m+3s`, `10m 3x30s`); the start screen offers them first.
pub use crate::setup::TimeDefaults;

/// Every option with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Interface language.
    pub language: LanguageChoice,
    /// The rule set the start screen offers first; `None` follows the interface language
    /// (Korean → janggi, Chinese → xiangqi, Japanese → shogi, English → xiangqi).
    pub game: Option<Variant>,
    /// Cho's janggi setup.
    pub cho_setup: Setup,
    /// Han's janggi setup.
    pub han_setup: Setup,
    /// The shogi handicap the start screen offers first.
    pub handicap: Handicap,
    /// Move notation per game.
    pub notation: NotationChoices,
    /// True for Latin letters and ASCII lines instead of CJK glyphs.
    pub latin_glyphs: bool,
    /// True for Hangul piece names (janggi, xiangqi) instead of hanja.
    pub hangul_glyphs: bool,
    /// True when the terminal draws ambiguous-width box characters two columns wide.
    pub wide_ambiguous: bool,
    /// Theme: a built-in name, a user theme name, or a path to a theme file.
    pub theme: String,
    /// The user's key bindings: action and its keys (code, Ctrl held).
    pub keys: Vec<(Action, Vec<(KeyCode, bool)>)>,
    /// CPU strength, 1 to 10.
    pub cpu_level: u8,
    /// Which side the CPU plays by default.
    pub cpu_side: CpuSide,
    /// Threads of the built-in engine's untimed-by-nodes searches (level 10, live
    /// analysis), 1 to [`MAX_CPU_THREADS`]; by default the machine's cores, at most 4.
    pub cpu_threads: usize,
    /// Time controls per game.
    pub clock: TimeDefaults,
    /// Where the autosave goes; `None` for the XDG state folder.
    pub autosave_folder: Option<PathBuf>,
    /// Where saved games go; `None` for the XDG data folder.
    pub games_folder: Option<PathBuf>,
    /// Ring the terminal bell when the opponent moves.
    pub bell: bool,
    /// The file the log goes to (`log = "FILE"`, `--log FILE`); `None`: no log.
    pub log_file: Option<PathBuf>,
    /// External engines.
    pub engines: Vec<EngineConfig>,
    /// The external engine live analysis asks (`[analysis] engine`, an `[[engines]]`
    /// name); `None`: the hint engine when it plays the game, else the built-in one.
    pub analysis_engine: Option<String>,
}

/// The most threads `cpu.threads` takes (the engine's own limit).
pub const MAX_CPU_THREADS: usize = crate::engine::Engine::MAX_THREADS;

/// The built-in engine's threads when the config names none: the machine's cores, at
/// most 4 (two threads measured about +100 Elo over one on two cores, tools/STRENGTH.md).
pub fn default_cpu_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get().min(4))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            language: LanguageChoice::Auto,
            game: None,
            cho_setup: Setup::HorseElephantElephantHorse,
            han_setup: Setup::HorseElephantElephantHorse,
            handicap: Handicap::Even,
            notation: NotationChoices::default(),
            latin_glyphs: false,
            hangul_glyphs: false,
            wide_ambiguous: false,
            theme: "wood".to_string(),
            keys: Vec::new(),
            cpu_level: 3,
            cpu_side: CpuSide::None,
            cpu_threads: default_cpu_threads(),
            clock: TimeDefaults::default(),
            autosave_folder: None,
            games_folder: None,
            bell: false,
            log_file: None,
            engines: Vec::new(),
            analysis_engine: None,
        }
    }
}

/// The command-line flags that override the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `--lang`.
    pub language: Option<String>,
    /// `--ascii`.
    pub ascii: bool,
    /// `--wide-lines`.
    pub wide_lines: bool,
    /// `--theme`.
    pub theme: Option<String>,
}

/// The config file's text and the name to give it in messages.
#[derive(Clone, Copy, Debug)]
pub struct FileText<'a> {
    /// The file name as messages show it (`config.toml`).
    pub name: &'a str,
    /// Its contents.
    pub text: &'a str,
}

/// The merged settings and every problem found on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The settings.
    pub config: Config,
    /// Problems in the file, in file order: bad values (that key uses its default),
    /// unknown keys; shown in the configured language with [`Problem::text`].
    pub warnings: Vec<Problem>,
}

/// Defaults < file < command-line flags, in this one place.
///
/// `user_themes` names the theme files found in the config folder, so `theme = "mine"`
/// is accepted when `themes/mine.toml` exists. A bad flag is an error (the user typed it
/// just now, in the file's language, else the environment's); a bad file value is a
/// warning and that key keeps its default.
pub fn merge(
    file: Option<FileText>,
    flags: &Flags,
    user_themes: &[String],
) -> Result<Loaded, String> {
    let mut config = Config::default();
    let mut warnings = Vec::new();
    if let Some(file) = file {
        let mut reader = Reader {
            file: file.name,
            text: file.text,
            warnings: Vec::new(),
            user_themes,
        };
        match toml_edit::Document::parse(file.text) {
            Ok(document) => reader.read(document.as_table(), &mut config),
            Err(_) => {
                // Keep what parses: each section that fails on its own is blanked out
                // (line for line, so every other problem keeps its place) and reported.
                let (kept, broken) = sections_that_parse(file.name, file.text);
                for problem in broken {
                    reader.warnings.push((0, problem));
                }
                match toml_edit::Document::parse(kept.as_str()) {
                    Ok(document) => {
                        let mut section_reader = Reader {
                            file: file.name,
                            text: &kept,
                            warnings: std::mem::take(&mut reader.warnings),
                            user_themes,
                        };
                        section_reader.read(document.as_table(), &mut config);
                        reader.warnings = section_reader.warnings;
                    }
                    Err(error) => reader.warnings.push((
                        0,
                        invalid_toml(file.name, file.text, &error, Fallback::EveryDefault),
                    )),
                }
            }
        }
        reader.warnings.sort_by_key(|(offset, _)| *offset);
        warnings = reader
            .warnings
            .into_iter()
            .map(|(_, problem)| problem)
            .collect();
    }
    if let Some(name) = &flags.language {
        config.language = parse_language(name).ok_or_else(|| {
            config
                .language
                .resolve()
                .format(crate::i18n::Key::ConfigUnknownLanguage, &[name])
        })?;
    }
    if flags.ascii {
        config.latin_glyphs = true;
    }
    if flags.wide_lines {
        config.latin_glyphs = false;
        config.wide_ambiguous = true;
    }
    if let Some(theme) = &flags.theme {
        config.theme = theme.clone();
    }
    Ok(Loaded { config, warnings })
}

/// The file with every section (the lines before the first `[header]`, then each
/// `[table]` or `[[array]]` with its lines) that does not parse on its own replaced by
/// blank lines, and a problem for each such section at its error's place.
fn sections_that_parse(file: &str, text: &str) -> (String, Vec<Problem>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut starts: Vec<usize> = vec![0];
    for (index, line) in lines.iter().enumerate().skip(1) {
        if line.trim_start().starts_with('[') {
            starts.push(index);
        }
    }
    starts.push(lines.len());
    let mut kept = String::with_capacity(text.len());
    let mut problems = Vec::new();
    for window in starts.windows(2) {
        let section: String = lines[window[0]..window[1]].concat();
        match toml_edit::Document::parse(section.as_str()) {
            Ok(_) => kept.push_str(&section),
            Err(error) => {
                let mut problem = invalid_toml(file, &section, &error, Fallback::SectionSkipped);
                if let Some((line, column)) = problem.at.line_column {
                    let first = u32::try_from(window[0]).unwrap_or(u32::MAX);
                    problem.at.line_column = Some((line.saturating_add(first), column));
                }
                problems.push(problem);
                for line in &lines[window[0]..window[1]] {
                    if line.ends_with('\n') {
                        kept.push('\n');
                    }
                }
            }
        }
    }
    (kept, problems)
}

/// The problem for a file that does not parse as TOML: the parser's first line, at
/// the place it names (line 1, column 1 when it names none).
pub(crate) fn invalid_toml(
    file: &str,
    text: &str,
    error: &toml_edit::TomlError,
    fallback: Fallback,
) -> Problem {
    let (line, column) = error
        .span()
        .map(|span| line_column(text, span.start))
        .unwrap_or((1, 1));
    Problem {
        at: Location {
            file: file.to_string(),
            line_column: Some(problem::small((line, column))),
        },
        kind: ProblemKind::InvalidToml {
            message: error.message().lines().next().unwrap_or("").to_string(),
            fallback,
        },
    }
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// A language setting: `auto`, or a language code with or without a region
/// (`ko`, `zh-CN`, `ja_JP`).
fn parse_language(name: &str) -> Option<LanguageChoice> {
    if name.trim().eq_ignore_ascii_case("auto") {
        Some(LanguageChoice::Auto)
    } else {
        Language::from_code(name).map(LanguageChoice::Fixed)
    }
}

/// The config spelling of a notation (`wxf`, `korean-hangul`, …).
pub fn notation_id(notation: Notation) -> &'static str {
    match notation {
        Notation::Chinese { simplified: false } => "chinese-traditional",
        Notation::Chinese { simplified: true } => "chinese-simplified",
        Notation::Wxf => "wxf",
        Notation::Iccs => "iccs",
        Notation::Japanese => "japanese",
        Notation::Hodges => "hodges",
        Notation::Usi => "usi",
        Notation::Korean { hangul: true } => "korean-hangul",
        Notation::Korean { hangul: false } => "korean-hanja",
        Notation::Engine => "engine",
    }
}

/// The config spelling of a janggi setup: its Korean name.
pub fn setup_id(setup: Setup) -> &'static str {
    setup.korean()
}

/// The config spelling of a CPU side.
pub fn cpu_side_id(side: CpuSide) -> &'static str {
    match side {
        CpuSide::None => "none",
        CpuSide::First => "first",
        CpuSide::Second => "second",
        CpuSide::Both => "both",
    }
}

/// Reads a parsed document key by key into a [`Config`], collecting problems.
struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    /// Problems with the byte offset they were found at, to report them in file order.
    warnings: Vec<(usize, Problem)>,
    user_themes: &'a [String],
}

impl Reader<'_> {
    fn position(&self, span: Option<Range<usize>>) -> Location {
        Location::at(self.file, self.text, span.map(|span| span.start))
    }

    fn problem(&mut self, item: &Item, key: &str, expected: Expected) {
        let offset = item.span().map_or(0, |span| span.start);
        let problem = Problem::expected(self.file, self.text, item, key, expected);
        self.warnings.push((offset, problem));
    }

    fn unknown(&mut self, table: &Table, prefix: &str, known: &[&str]) {
        for (key, item) in table.iter() {
            if !known.contains(&key) {
                let span = table
                    .key(key)
                    .and_then(|k| k.span())
                    .or_else(|| item.span());
                let at = self.position(span.clone());
                let offset = span.map_or(0, |span| span.start);
                let kind = ProblemKind::UnknownKey {
                    key: format!("{prefix}{key}"),
                };
                self.warnings.push((offset, Problem { at, kind }));
            }
        }
    }

    /// A string value chosen from a list of names; `None` (after a warning) otherwise.
    fn choice<T: Copy>(&mut self, item: &Item, key: &str, names: &[(&str, T)]) -> Option<T> {
        let found = item.as_str().and_then(|text| {
            names
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(text.trim()))
                .map(|(_, value)| *value)
        });
        if found.is_none() {
            let list = names.iter().map(|(name, _)| name.to_string()).collect();
            self.problem(item, key, Expected::OneOf(list));
        }
        found
    }

    fn string(&mut self, item: &Item, key: &str) -> Option<String> {
        let text = item.as_str().map(str::to_string);
        if text.is_none() {
            self.problem(item, key, Expected::Text);
        }
        text
    }

    fn boolean(&mut self, item: &Item, key: &str) -> Option<bool> {
        let value = item.as_bool();
        if value.is_none() {
            self.problem(item, key, Expected::TrueOrFalse);
        }
        value
    }

    fn folder(&mut self, item: &Item, key: &str) -> Option<Option<PathBuf>> {
        let text = self.string(item, key)?;
        Some((!text.trim().is_empty()).then(|| PathBuf::from(text.trim())))
    }

    /// A table, standard (`[cpu]`) or inline (`cpu = { level = 5 }`), as an owned copy.
    fn table(&mut self, item: &Item, key: &str) -> Option<Table> {
        let table = match item {
            Item::Table(table) => Some(table.clone()),
            Item::Value(Value::InlineTable(inline)) => Some(inline.clone().into_table()),
            _ => None,
        };
        if table.is_none() {
            self.problem(item, key, Expected::Table);
        }
        table
    }

    /// The `[key]` section of `root` as a table, when present (a warning when it is not a table).
    fn section(&mut self, root: &Table, key: &str) -> Option<Table> {
        root.get(key).and_then(|item| self.table(item, key))
    }

    fn read(&mut self, root: &Table, config: &mut Config) {
        const TOP: &[&str] = &[
            "language",
            "glyphs",
            "ambiguous_width",
            "theme",
            "bell",
            "log",
            "game",
            "notation",
            "cpu",
            "clock",
            "folders",
            "keys",
            "engines",
            "analysis",
        ];
        self.unknown(root, "", TOP);
        if let Some(item) = root.get("language") {
            match item.as_str().and_then(parse_language) {
                Some(value) => config.language = value,
                None => {
                    let mut names = vec!["auto".to_string()];
                    names.extend(Language::ALL.iter().map(|l| l.code().to_string()));
                    self.problem(item, "language", Expected::OneOf(names));
                }
            }
        }
        if let Some(item) = root.get("glyphs") {
            let sets = [
                ("cjk", (false, false)),
                ("hangul", (false, true)),
                ("latin", (true, false)),
            ];
            if let Some((latin, hangul)) = self.choice(item, "glyphs", &sets) {
                config.latin_glyphs = latin;
                config.hangul_glyphs = hangul;
            }
        }
        if let Some(item) = root.get("ambiguous_width") {
            let widths = [("narrow", false), ("wide", true)];
            if let Some(value) = self.choice(item, "ambiguous_width", &widths) {
                config.wide_ambiguous = value;
            }
        }
        if let Some(item) = root.get("theme") {
            self.read_theme(item, config);
        }
        if let Some(item) = root.get("bell") {
            if let Some(value) = self.boolean(item, "bell") {
                config.bell = value;
            }
        }
        if let Some(item) = root.get("log") {
            if let Some(value) = self.folder(item, "log") {
                config.log_file = value;
            }
        }
        if let Some(table) = self.section(root, "game").as_ref() {
            self.read_game(table, config);
        }
        if let Some(table) = self.section(root, "notation").as_ref() {
            self.read_notation(table, config);
        }
        if let Some(table) = self.section(root, "cpu").as_ref() {
            self.read_cpu(table, config);
        }
        if let Some(table) = self.section(root, "clock").as_ref() {
            self.unknown(
                table,
                "clock.",
                &["xiangqi", "shogi", "janggi", "gungjanggi"],
            );
            let slots: [(&str, &mut crate::clock::TimeControl); 4] = [
                ("xiangqi", &mut config.clock.xiangqi),
                ("shogi", &mut config.clock.shogi),
                ("janggi", &mut config.clock.janggi),
                ("gungjanggi", &mut config.clock.gungjanggi),
            ];
            for (name, slot) in slots {
                if let Some(item) = table.get(name) {
                    let key = format!("clock.{name}");
                    if let Some(text) = self.string(item, &key) {
                        match text.parse() {
                            Ok(control) => *slot = control,
                            Err(_) => self.problem(item, &key, Expected::TimeControl),
                        }
                    }
                }
            }
        }
        if let Some(table) = self.section(root, "folders").as_ref() {
            self.unknown(table, "folders.", &["autosave", "games"]);
            if let Some(item) = table.get("autosave") {
                if let Some(value) = self.folder(item, "folders.autosave") {
                    config.autosave_folder = value;
                }
            }
            if let Some(item) = table.get("games") {
                if let Some(value) = self.folder(item, "folders.games") {
                    config.games_folder = value;
                }
            }
        }
        if let Some(table) = self.section(root, "keys").as_ref() {
            self.read_keys(table, config);
        }
        if let Some(item) = root.get("engines") {
            match item.as_array_of_tables() {
                Some(tables) => {
                    for table in tables.iter() {
                        let Some(engine) = self.read_engine(table) else {
                            continue;
                        };
                        if config.engines.iter().any(|known| known.name == engine.name) {
                            let at = self.position(table.span());
                            let offset = table.span().map_or(0, |span| span.start);
                            let kind = ProblemKind::DuplicateEngine { name: engine.name };
                            self.warnings.push((offset, Problem { at, kind }));
                            continue;
                        }
                        config.engines.push(engine);
                    }
                }
                // `engines = []` says "none" plainly enough.
                None if item.as_array().is_some_and(|array| array.is_empty()) => {}
                None => self.problem(item, "engines", Expected::EngineTables),
            }
        }
        // After the engines: the name must be one of them.
        if let Some(table) = self.section(root, "analysis").as_ref() {
            self.read_analysis(table, config);
        }
    }

    /// `[analysis]`: `engine`, the name of one of the `[[engines]]` (empty: the hint
    /// engine or the built-in one). Another name is a warning and the key is left out.
    fn read_analysis(&mut self, table: &Table, config: &mut Config) {
        self.unknown(table, "analysis.", &["engine"]);
        let Some(item) = table.get("engine") else {
            return;
        };
        let Some(name) = self.string(item, "analysis.engine") else {
            return;
        };
        let name = name.trim();
        if name.is_empty() {
            config.analysis_engine = None;
        } else if config.engines.iter().any(|engine| engine.name == name) {
            config.analysis_engine = Some(name.to_string());
        } else {
            let mut names: Vec<String> = config
                .engines
                .iter()
                .map(|engine| engine.name.clone())
                .collect();
            names.push("\"\"".to_string());
            self.problem(item, "analysis.engine", Expected::OneOf(names));
        }
    }

    fn read_theme(&mut self, item: &Item, config: &mut Config) {
        let Some(name) = self.string(item, "theme") else {
            return;
        };
        let is_path = name.contains('/') || name.ends_with(".toml");
        let known = THEME_NAMES.contains(&name.as_str()) || self.user_themes.contains(&name);
        if is_path || known {
            config.theme = name;
        } else {
            let mut names: Vec<String> = THEME_NAMES.map(str::to_string).to_vec();
            names.extend(self.user_themes.iter().cloned());
            self.problem(item, "theme", Expected::OneOfOrThemePath(names));
        }
    }

    fn read_game(&mut self, table: &Table, config: &mut Config) {
        self.unknown(
            table,
            "game.",
            &["variant", "cho_setup", "han_setup", "handicap"],
        );
        if let Some(item) = table.get("variant") {
            let names: Vec<(&str, Variant)> = Variant::ALL.iter().map(|v| (v.id(), *v)).collect();
            if let Some(variant) = self.choice(item, "game.variant", &names) {
                config.game = Some(variant);
            }
        }
        let setups: Vec<(&str, Setup)> = Setup::ALL.iter().map(|s| (setup_id(*s), *s)).collect();
        if let Some(item) = table.get("cho_setup") {
            if let Some(setup) = self.choice(item, "game.cho_setup", &setups) {
                config.cho_setup = setup;
            }
        }
        if let Some(item) = table.get("han_setup") {
            if let Some(setup) = self.choice(item, "game.han_setup", &setups) {
                config.han_setup = setup;
            }
        }
        if let Some(item) = table.get("handicap") {
            let handicaps: Vec<(&str, Handicap)> =
                Handicap::ALL.iter().map(|h| (h.english(), *h)).collect();
            if let Some(handicap) = self.choice(item, "game.handicap", &handicaps) {
                config.handicap = handicap;
            }
        }
    }

    fn read_notation(&mut self, table: &Table, config: &mut Config) {
        self.unknown(table, "notation.", &["xiangqi", "shogi", "janggi"]);
        for (name, game) in [
            ("xiangqi", GameKind::Xiangqi),
            ("shogi", GameKind::Shogi),
            ("janggi", GameKind::Janggi),
        ] {
            let Some(item) = table.get(name) else {
                continue;
            };
            // The interface's own names ("Western (Hodges)") are read too.
            let by_name = item.as_str().and_then(|text| {
                Notation::for_game(game)
                    .iter()
                    .find(|n| n.name().eq_ignore_ascii_case(text.trim()))
            });
            if let Some(&notation) = by_name {
                config.notation.set(game, Some(notation));
                continue;
            }
            let mut names: Vec<(&str, Option<Notation>)> = vec![("auto", None)];
            names.extend(
                Notation::for_game(game)
                    .iter()
                    .map(|&n| (notation_id(n), Some(n))),
            );
            if let Some(choice) = self.choice(item, &format!("notation.{name}"), &names) {
                config.notation.set(game, choice);
            }
        }
    }

    fn read_cpu(&mut self, table: &Table, config: &mut Config) {
        self.unknown(table, "cpu.", &["level", "side", "threads"]);
        if let Some(item) = table.get("threads") {
            let most = MAX_CPU_THREADS as i64;
            match item
                .as_integer()
                .filter(|threads| (1..=most).contains(threads))
            {
                Some(threads) => config.cpu_threads = threads as usize,
                None => self.problem(
                    item,
                    "cpu.threads",
                    Expected::WholeNumber { from: 1, to: most },
                ),
            }
        }
        if let Some(item) = table.get("level") {
            match item.as_integer().filter(|level| (1..=10).contains(level)) {
                Some(level) => config.cpu_level = level as u8,
                None => self.problem(item, "cpu.level", Expected::WholeNumber { from: 1, to: 10 }),
            }
        }
        if let Some(item) = table.get("side") {
            let sides = [
                CpuSide::None,
                CpuSide::First,
                CpuSide::Second,
                CpuSide::Both,
            ]
            .map(|side| (cpu_side_id(side), side));
            if let Some(side) = self.choice(item, "cpu.side", &sides) {
                config.cpu_side = side;
            }
        }
    }

    fn read_keys(&mut self, table: &Table, config: &mut Config) {
        let names: Vec<&str> = ACTION_NAMES.iter().map(|(name, _)| *name).collect();
        self.unknown(table, "keys.", &names);
        for (name, item) in table.iter() {
            let Some(action) = action_named(name) else {
                continue;
            };
            let key = format!("keys.{name}");
            let texts: Option<Vec<&str>> = match item.as_array() {
                Some(array) => array.iter().map(|value| value.as_str()).collect(),
                None => item.as_str().map(|text| vec![text]),
            };
            let Some(texts) = texts else {
                self.problem(item, &key, Expected::KeyNames);
                continue;
            };
            let parsed: Option<Vec<(KeyCode, bool)>> = texts.iter().map(|t| parse_key(t)).collect();
            match parsed {
                Some(keys) => {
                    let offset = item.span().map_or(0, |span| span.start);
                    let at = self.position(item.span());
                    if keys.is_empty() {
                        let kind = ProblemKind::ActionWithoutKey {
                            action: name.to_string(),
                        };
                        self.warnings.push((offset, Problem { at, kind }));
                    } else if action != Action::Quit && table.get("quit").is_none() {
                        // A key the default table gives to quit, taken by another action.
                        let quit_key = keys.iter().zip(&texts).find(|((code, control), _)| {
                            crate::action::KEYMAP.iter().any(|binding| {
                                binding.action == Action::Quit
                                    && binding.code == *code
                                    && binding.control == *control
                            })
                        });
                        if let Some((_, text)) = quit_key {
                            let kind = ProblemKind::QuitKeyTaken {
                                action: name.to_string(),
                                key: text.to_string(),
                            };
                            self.warnings.push((offset, Problem { at, kind }));
                        }
                    }
                    config.keys.push((action, keys));
                }
                None => self.problem(item, &key, Expected::KeyNames),
            }
        }
    }

    fn read_engine(&mut self, table: &Table) -> Option<EngineConfig> {
        self.unknown(
            table,
            "engines.",
            &["name", "command", "args", "protocol", "options"],
        );
        let missing = |reader: &mut Self, key: &str| {
            let at = reader.position(table.span());
            let offset = table.span().map_or(0, |span| span.start);
            let kind = ProblemKind::EngineNeeds {
                key: key.to_string(),
            };
            reader.warnings.push((offset, Problem { at, kind }));
        };
        let Some(name_item) = table.get("name") else {
            missing(self, "name");
            return None;
        };
        let name = self.string(name_item, "engines.name")?;
        if name.trim().is_empty() {
            missing(self, "name");
            return None;
        }
        let Some(command_item) = table.get("command") else {
            missing(self, "command");
            return None;
        };
        let command = self.string(command_item, "engines.command")?;
        if command.trim().is_empty() {
            missing(self, "command");
            return None;
        }
        let mut args = Vec::new();
        if let Some(item) = table.get("args") {
            let list: Option<Vec<String>> = item.as_array().and_then(|array| {
                array
                    .iter()
                    .map(|v| v.as_str().map(str::to_string))
                    .collect()
            });
            match list {
                Some(list) => args = list,
                None => self.problem(item, "engines.args", Expected::ListOfStrings),
            }
        }
        let mut protocol = EngineProtocol::Uci;
        if let Some(item) = table.get("protocol") {
            let protocols = [("uci", EngineProtocol::Uci), ("usi", EngineProtocol::Usi)];
            protocol = self.choice(item, "engines.protocol", &protocols)?;
        }
        let mut options = Vec::new();
        if let Some(item) = table.get("options") {
            match item.as_table_like() {
                Some(entries) => {
                    for (key, value) in entries.iter() {
                        let text = match value.as_value() {
                            Some(Value::String(text)) => text.value().clone(),
                            Some(other) => other.to_string().trim().to_string(),
                            None => {
                                let key = format!("engines.options.{key}");
                                self.problem(value, &key, Expected::AnyValue);
                                continue;
                            }
                        };
                        options.push((key.to_string(), text));
                    }
                }
                None => self.problem(item, "engines.options", Expected::OptionsTable),
            }
        }
        Some(EngineConfig {
            name,
            command,
            args,
            protocol,
            options,
        })
    }
}

// ----- files ---------------------------------------------------------------

/// The config folder: `$XDG_CONFIG_HOME/qipan` (`~/.config/qipan`) on Linux, the
/// platform's own elsewhere ([`crate::folders`]).
pub fn default_folder() -> Option<PathBuf> {
    crate::folders::config_folder()
}

/// Where the config is read from: `--config FILE`, else `config.toml` in [`default_folder`].
pub fn path(flag: Option<&Path>) -> Option<PathBuf> {
    match flag {
        Some(path) => Some(path.to_path_buf()),
        None => default_folder().map(|folder| folder.join("config.toml")),
    }
}

/// The names of the user's theme files (`themes/NAME.toml` beside the config file).
pub fn user_theme_names(config_file: &Path) -> Vec<String> {
    let Some(folder) = config_file.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(folder.join("themes")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let path = entry.path();
            (path.extension()? == "toml")
                .then(|| path.file_stem()?.to_str().map(str::to_string))
                .flatten()
        })
        .collect();
    names.sort();
    names
}

/// Reads the config at `path` (a missing file is the defaults, silently) and merges flags.
pub fn load(path: Option<&Path>, flags: &Flags) -> Result<Loaded, String> {
    let Some(path) = path else {
        return merge(None, flags, &[]);
    };
    let text = match crate::untrusted::read_small_text_file(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return merge(None, flags, &user_theme_names(path));
        }
        Err(error) => {
            let mut loaded = merge(None, flags, &[])?;
            loaded.warnings.push(Problem {
                at: Location::file(&path.display().to_string()),
                kind: ProblemKind::Unreadable {
                    error: error.to_string(),
                    fallback: Fallback::EveryDefault,
                },
            });
            return Ok(loaded);
        }
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let file = FileText {
        name: &name,
        text: &text,
    };
    merge(Some(file), flags, &user_theme_names(path))
}

/// One changed setting to write back: a dotted key path and its new value.
#[derive(Clone, Debug)]
pub struct Change {
    /// The key path, e.g. `["theme"]` or `["cpu", "level"]`.
    pub path: Vec<&'static str>,
    /// The new value.
    pub value: Value,
}

/// Writes `changes` into the text of a config file, touching nothing else: comments,
/// blank lines and key order survive, and a changed value keeps its trailing comment.
pub fn save_changes(text: &str, changes: &[Change]) -> Result<String, String> {
    let mut document: toml_edit::DocumentMut = text
        .parse()
        .map_err(|error: toml_edit::TomlError| error.message().to_string())?;
    for change in changes {
        let Some((last, parents)) = change.path.split_last() else {
            continue;
        };
        let mut table = document.as_table_mut();
        for part in parents {
            let entry = table
                .entry(part)
                .or_insert_with(|| Item::Table(Table::new()));
            table = match entry.as_table_mut() {
                Some(table) => table,
                None => return Err(format!("key \"{part}\" is not a table")),
            };
        }
        let mut value = change.value.clone();
        match table.get_mut(last) {
            // Replace the value in place: the key keeps the comments above it, the
            // value keeps its spacing and trailing comment.
            Some(item) => {
                if let Some(old) = item.as_value() {
                    *value.decor_mut() = old.decor().clone();
                }
                *item = Item::Value(value);
            }
            None => {
                table.insert(last, Item::Value(value));
            }
        }
    }
    Ok(document.to_string())
}

/// Writes `changes` into the config file at `path` (created when missing), atomically,
/// keeping everything else in it.
pub fn save_to_file(path: &Path, changes: &[Change]) -> Result<(), String> {
    let text = match crate::untrusted::read_small_text_file(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    let saved = save_changes(&text, changes).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::record::autosave::write_atomically(path, &saved)
        .map_err(|error| format!("{}: {error}", path.display()))
}

/// The keys the settings screen can change whose values differ between two configs.
pub fn changes_between(before: &Config, after: &Config) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut text = |path: Vec<&'static str>, old: &str, new: &str| {
        if old != new {
            changes.push(Change {
                path,
                value: Value::from(new),
            });
        }
    };
    text(vec!["language"], before.language.id(), after.language.id());
    let glyphs = |c: &Config| match (c.latin_glyphs, c.hangul_glyphs) {
        (true, _) => "latin",
        (false, true) => "hangul",
        (false, false) => "cjk",
    };
    text(vec!["glyphs"], glyphs(before), glyphs(after));
    let width = |c: &Config| if c.wide_ambiguous { "wide" } else { "narrow" };
    text(vec!["ambiguous_width"], width(before), width(after));
    text(vec!["theme"], &before.theme, &after.theme);
    for (name, game) in [
        ("xiangqi", GameKind::Xiangqi),
        ("shogi", GameKind::Shogi),
        ("janggi", GameKind::Janggi),
    ] {
        let id = |c: &Config| c.notation.for_game(game).map_or("auto", notation_id);
        text(vec!["notation", name], id(before), id(after));
    }
    if before.cpu_level != after.cpu_level {
        changes.push(Change {
            path: vec!["cpu", "level"],
            value: Value::from(i64::from(after.cpu_level)),
        });
    }
    if before.bell != after.bell {
        changes.push(Change {
            path: vec!["bell"],
            value: Value::from(after.bell),
        });
    }
    changes
}

#[cfg(test)]
mod tests;
