//! How the loaded [`Config`] shapes the app: language and glyphs, the start
//! screen's first choices, the key table, and the warnings shown on the start screen.

use super::keymap::merged_keymap;
use super::{App, GlyphSet, Player, Settings, StartOptions, Status};
use crate::config::{Config, CpuSide, Problem};
use crate::theme::{ColorMode, Palette, ThemeSpec};
use std::path::PathBuf;

impl Config {
    /// The glyph set the config asks for.
    pub fn glyph_set(&self) -> GlyphSet {
        match (self.latin_glyphs, self.hangul_glyphs, self.wide_ambiguous) {
            (true, _, _) => GlyphSet::Latin,
            (false, true, true) => GlyphSet::HangulWideLines,
            (false, true, false) => GlyphSet::Hangul,
            (false, false, true) => GlyphSet::CjkWideLines,
            (false, false, false) => GlyphSet::Cjk,
        }
    }

    /// The session settings the config asks for (reads the environment for `language = "auto"`).
    pub fn settings(&self) -> Settings {
        Settings {
            language: self.language.resolve(),
            glyphs: self.glyph_set(),
            engines: self.engines.clone(),
            hint_engine: None,
            analysis_engine: self.analysis_engine_index(&self.engines),
        }
    }

    /// Where the `[analysis] engine` is among `engines` (the config's, or those after
    /// the `--engine` flags changed them); `None` when it is not set or not there.
    pub fn analysis_engine_index(&self, engines: &[crate::config::EngineConfig]) -> Option<usize> {
        let name = self.analysis_engine.as_deref()?;
        engines.iter().position(|engine| engine.name == name)
    }

    /// The start screen's first choices: game, setups, handicap and who the CPU plays.
    pub fn start_options(&self) -> StartOptions {
        let game = self
            .game
            .unwrap_or_else(|| self.language.resolve().default_variant());
        let mut options = StartOptions::for_variant(game);
        options.cho_setup = self.cho_setup;
        options.han_setup = self.han_setup;
        options.handicap = crate::rules::shogi::Handicap::ALL
            .iter()
            .position(|&h| h == self.handicap)
            .unwrap_or(0);
        let cpu = Player::Computer {
            level: self.cpu_level.clamp(1, 10),
        };
        options.time_defaults = self.clock;
        options.time = self.clock.for_choice(options.game());
        options.players = match self.cpu_side {
            CpuSide::None => [Player::Human, Player::Human],
            CpuSide::First => [cpu, Player::Human],
            CpuSide::Second => [Player::Human, cpu],
            CpuSide::Both => [cpu, cpu],
        };
        options
    }
}

impl App {
    /// A new app on the start screen set up by a config: its settings, first choices and
    /// keys; `warnings` (problems in the config and theme files) are shown on the status
    /// line in the configured language: the first one, and how many more there are.
    pub fn from_config(config: Config, path: Option<PathBuf>, warnings: &[Problem]) -> App {
        let mut app = App::new(config.settings());
        app.options = config.start_options();
        app.apply_config(config);
        app.config_path = path;
        if !warnings.is_empty() {
            let language = app.settings.language;
            let text = match warnings {
                [only] => only.text(language),
                [first, rest @ ..] => language.format(
                    crate::i18n::Key::ConfigMoreProblems,
                    &[&first.text(language), &rest.len().to_string()],
                ),
                [] => String::new(),
            };
            app.status = Some(Status { text, error: true });
        }
        app
    }

    /// Uses a theme on a terminal of this colour mode. `spec` is the theme's contents
    /// when it is not a built-in (a user file, already read).
    pub fn set_theme(&mut self, name: &str, spec: Option<ThemeSpec>, mode: ColorMode) {
        self.color_mode = mode;
        let spec = match (ThemeSpec::built_in(name), spec) {
            (Some(built_in), _) => built_in,
            (None, Some(spec)) => {
                self.user_theme = Some((name.to_string(), spec.clone()));
                spec
            }
            (None, None) => match &self.user_theme {
                Some((user_name, spec)) if user_name == name => spec.clone(),
                _ => Palette::default_spec(),
            },
        };
        self.palette = Palette::new(&spec, mode);
        self.config.theme = name.to_string();
    }

    /// Takes a config's session-wide parts: the key table and the notation defaults.
    pub fn apply_config(&mut self, config: Config) {
        self.keymap = merged_keymap(&config.keys);
        self.saved_config = config.clone();
        self.config = config;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keymap::action_for_key;
    use crate::app::Action;
    use crate::rules::any::{GameKind, Variant};
    use crate::rules::notation::Notation;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn unknown_key(file: &str, key: &str) -> Problem {
        Problem {
            at: crate::config::Location::file(file),
            kind: crate::config::ProblemKind::UnknownKey {
                key: key.to_string(),
            },
        }
    }

    fn press(app: &App, code: KeyCode) -> Option<Action> {
        action_for_key(app, KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn config_sets_the_start_screen_and_the_keys() {
        let mut config = Config {
            game: Some(Variant::Shogi),
            cpu_side: CpuSide::Second,
            cpu_level: 6,
            keys: vec![(Action::Undo, vec![(KeyCode::Char('z'), false)])],
            language: crate::config::LanguageChoice::Fixed(crate::i18n::Language::English),
            ..Config::default()
        };
        config.notation.set(GameKind::Shogi, Some(Notation::Usi));
        let oops = unknown_key("config.toml", "oops");
        let mut app = App::from_config(config, None, &[oops]);
        assert_eq!(app.options.variant(), Variant::Shogi);
        assert_eq!(
            app.options.players,
            [Player::Human, Player::Computer { level: 6 }]
        );
        assert_eq!(
            app.status.as_ref().map(|s| s.text.as_str()),
            Some("config.toml: unknown key \"oops\" (ignored)")
        );
        let two = [unknown_key("a.toml", "one"), unknown_key("a.toml", "two")];
        let english = Config {
            language: crate::config::LanguageChoice::Fixed(crate::i18n::Language::English),
            ..Config::default()
        };
        let other = App::from_config(english, None, &two);
        assert_eq!(
            other.status.map(|s| s.text),
            Some(
                "a.toml: unknown key \"one\" (ignored) (and 1 more: qipan config check)"
                    .to_string()
            )
        );
        // The user's key replaces the default one.
        assert_eq!(press(&app, KeyCode::Char('z')), Some(Action::Undo));
        assert_eq!(press(&app, KeyCode::Char('u')), None);
        assert_eq!(press(&app, KeyCode::Char('f')), Some(Action::Flip));
        app.options.players = [Player::Human, Player::Human];
        app.start_game();
        assert_eq!(app.play.as_ref().unwrap().notation, Some(Notation::Usi));
    }

    #[test]
    fn a_korean_config_shows_its_problems_in_korean() {
        let file = crate::config::FileText {
            name: "config.toml",
            text: "language = \"ko\"\n[cpu]\nlevel = 12\ncolour = 1\n",
        };
        let loaded = crate::config::merge(Some(file), &Default::default(), &[]).unwrap();
        let app = App::from_config(loaded.config, None, &loaded.warnings);
        assert_eq!(app.settings.language, crate::i18n::Language::Korean);
        let status = app.status.expect("the problems are shown");
        assert!(status.error);
        assert_eq!(
            status.text,
            "config.toml: 3행 9열: 키 \"cpu.level\": 1부터 10까지의 정수가 필요한데 적힌 값은 12입니다 \
             (외 1개: qipan config check)"
        );
    }

    #[test]
    fn the_help_shows_the_users_keys() {
        use crate::app::keymap::{help_keys, KEY_HELP};
        use crate::i18n::Key;
        let config = Config {
            // `f` now undoes: flipping loses its key, undo shows the user's keys.
            keys: vec![(
                Action::Undo,
                vec![(KeyCode::Char('f'), false), (KeyCode::Char('z'), true)],
            )],
            ..Config::default()
        };
        let app = App::from_config(config, None, &[]);
        let row = |key: Key| *KEY_HELP.iter().find(|(_, k)| *k == key).unwrap();
        let keys = |key| help_keys(&app.keymap, &app.config.keys, row(key));
        assert_eq!(keys(Key::KeyUndo), "f Ctrl-z");
        assert_eq!(keys(Key::KeyFlip), "");
        assert_eq!(keys(Key::KeyRedo), "r");
        assert_eq!(keys(Key::KeyMoveCursor), "←↓↑→ hjkl");
    }
}
