//! The settings screen: language, glyphs, ambiguous width, theme (seen at once),
//! notation, CPU level and bell. Changes take effect at once for this session;
//! `s` saves the changed keys into the config file.

use super::{App, Effect, Overlay, Player, Status};
use crate::config::{changes_between, LanguageChoice, THEME_NAMES};
use crate::i18n::{Key, Language};
use crate::rules::any::GameKind;
use crate::rules::notation::Notation;

/// A row of the settings screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingRow {
    /// Interface language: auto, English, Korean, Chinese, Japanese.
    Language,
    /// CJK or Latin glyphs.
    Glyphs,
    /// Ambiguous-width characters narrow or wide.
    AmbiguousWidth,
    /// Colour theme.
    Theme,
    /// The move notation of the game on screen.
    Notation,
    /// The CPU's level.
    CpuLevel,
    /// The bell when the CPU moves.
    Bell,
}

impl SettingRow {
    /// Every row, top to bottom.
    pub const ALL: [SettingRow; 7] = [
        SettingRow::Language,
        SettingRow::Glyphs,
        SettingRow::AmbiguousWidth,
        SettingRow::Theme,
        SettingRow::Notation,
        SettingRow::CpuLevel,
        SettingRow::Bell,
    ];

    /// The row's label.
    pub fn label(self) -> Key {
        match self {
            SettingRow::Language => Key::SettingLanguage,
            SettingRow::Glyphs => Key::SettingGlyphs,
            SettingRow::AmbiguousWidth => Key::SettingWidth,
            SettingRow::Theme => Key::SettingTheme,
            SettingRow::Notation => Key::SettingNotation,
            SettingRow::CpuLevel => Key::SettingCpuLevel,
            SettingRow::Bell => Key::SettingBell,
        }
    }
}

/// The value `delta` steps from `current` in `all`, wrapping round.
fn step<T: Clone + PartialEq>(all: &[T], current: T, delta: i32) -> T {
    let index = all.iter().position(|x| *x == current).unwrap_or(0) as i32;
    all[(index + delta).rem_euclid(all.len() as i32) as usize].clone()
}

/// The interface name of a notation.
pub fn notation_key(notation: Notation) -> Key {
    match notation {
        Notation::Chinese { simplified: false } => Key::NotationChineseTraditional,
        Notation::Chinese { simplified: true } => Key::NotationChineseSimplified,
        Notation::Wxf => Key::NotationWxf,
        Notation::Iccs => Key::NotationIccs,
        Notation::Japanese => Key::NotationJapanese,
        Notation::Hodges => Key::NotationHodges,
        Notation::Usi => Key::NotationUsi,
        Notation::Korean { hangul: true } => Key::NotationKoreanHangul,
        Notation::Korean { hangul: false } => Key::NotationKoreanHanja,
        Notation::Engine => Key::NotationEngine,
    }
}

/// The interface name of a built-in theme (`None` for a user's theme, shown by its name).
pub fn theme_key(name: &str) -> Option<Key> {
    match name {
        "wood" => Some(Key::ThemeWood),
        "dark" => Some(Key::ThemeDark),
        "contrast" => Some(Key::ThemeContrast),
        "sixteen" => Some(Key::ThemeSixteen),
        _ => None,
    }
}

impl App {
    /// The game whose notation the settings screen shows: the one on screen.
    pub fn settings_game(&self) -> GameKind {
        match &self.play {
            Some(play) => play.game.variant().kind(),
            None => self.options.game().kind,
        }
    }

    /// A row's value in words, in the interface language.
    pub fn setting_value(&self, row: SettingRow) -> String {
        let language = self.settings.language;
        let config = &self.config;
        let text = |key| language.text(key).to_string();
        match row {
            SettingRow::Language => match config.language {
                LanguageChoice::Auto => text(Key::LanguageAuto),
                LanguageChoice::Fixed(language) => language.native_name().to_string(),
            },
            SettingRow::Glyphs if config.latin_glyphs => text(Key::GlyphsLatin),
            SettingRow::Glyphs if config.hangul_glyphs => text(Key::GlyphsHangul),
            SettingRow::Glyphs => text(Key::GlyphsCjk),
            SettingRow::AmbiguousWidth if config.wide_ambiguous => text(Key::WidthWide),
            SettingRow::AmbiguousWidth => text(Key::WidthNarrow),
            SettingRow::Theme => match theme_key(&config.theme) {
                Some(key) => text(key),
                None => config.theme.clone(),
            },
            SettingRow::Notation => match config.notation.for_game(self.settings_game()) {
                Some(notation) => text(notation_key(notation)),
                None => text(Key::NotationAuto),
            },
            SettingRow::CpuLevel => format!(
                "{} · {}",
                config.cpu_level,
                self.settings.language.level_name(config.cpu_level)
            ),
            SettingRow::Bell if config.bell => text(Key::On),
            SettingRow::Bell => text(Key::Off),
        }
    }

    pub(super) fn open_settings(&mut self) {
        self.overlay = Some(Overlay::Settings { row: 0 });
    }

    pub(super) fn update_settings(&mut self, row: usize, action: super::Action) {
        use super::Action;
        let last = SettingRow::ALL.len() - 1;
        let row = row.min(last);
        match action {
            Action::Up => {
                self.overlay = Some(Overlay::Settings {
                    row: row.saturating_sub(1),
                })
            }
            Action::Down => {
                self.overlay = Some(Overlay::Settings {
                    row: (row + 1).min(last),
                })
            }
            Action::Left => self.change_setting(SettingRow::ALL[row], -1),
            Action::Right | Action::Select => self.change_setting(SettingRow::ALL[row], 1),
            Action::SaveSettings => self.save_settings(),
            Action::Cancel | Action::Settings | Action::Quit => self.overlay = None,
            _ => {}
        }
    }

    /// Changes a setting by one step; it takes effect at once.
    pub fn change_setting(&mut self, row: SettingRow, delta: i32) {
        match row {
            SettingRow::Language => {
                let mut all = vec![LanguageChoice::Auto];
                all.extend(Language::ALL.map(LanguageChoice::Fixed));
                self.config.language = step(&all, self.config.language, delta);
                self.settings.language = self.config.language.resolve();
            }
            SettingRow::Glyphs => {
                // CJK characters → Hangul → Latin letters, and round (backwards with ←).
                let sets = [(false, false), (false, true), (true, false)];
                let now = (self.config.latin_glyphs, self.config.hangul_glyphs);
                let index = sets.iter().position(|s| *s == now).unwrap_or(0) as i32;
                let next = (index + delta.signum()).rem_euclid(sets.len() as i32) as usize;
                (self.config.latin_glyphs, self.config.hangul_glyphs) = sets[next];
                self.settings.glyphs = self.config.glyph_set();
            }
            SettingRow::AmbiguousWidth => {
                self.config.wide_ambiguous = !self.config.wide_ambiguous;
                self.settings.glyphs = self.config.glyph_set();
            }
            SettingRow::Theme => {
                let mut names: Vec<String> = THEME_NAMES.iter().map(|n| n.to_string()).collect();
                if let Some((name, _)) = &self.user_theme {
                    names.push(name.clone());
                }
                if !names.contains(&self.config.theme) {
                    names.push(self.config.theme.clone());
                }
                let next = step(&names, self.config.theme.clone(), delta);
                self.set_theme(&next, None, self.color_mode);
            }
            SettingRow::Notation => {
                let game = self.settings_game();
                let mut all: Vec<Option<Notation>> = vec![None];
                all.extend(Notation::for_game(game).iter().map(|&n| Some(n)));
                let next = step(&all, self.config.notation.for_game(game), delta);
                self.config.notation.set(game, next);
                if let Some(play) = &mut self.play {
                    play.notation = next;
                }
            }
            SettingRow::CpuLevel => {
                let level = (i32::from(self.config.cpu_level) - 1 + delta).rem_euclid(10) + 1;
                self.config.cpu_level = level as u8;
                // The CPU in the start choices and in the game on screen plays at the new level.
                let in_game = self
                    .play
                    .iter_mut()
                    .flat_map(|play| play.players.iter_mut());
                for player in self.options.players.iter_mut().chain(in_game) {
                    if let Player::Computer { level: l } = player {
                        *l = level as u8;
                    }
                }
            }
            SettingRow::Bell => self.config.bell = !self.config.bell,
        }
    }

    fn save_settings(&mut self) {
        let changes = changes_between(&self.saved_config, &self.config);
        let text = if changes.is_empty() {
            self.text(Key::SettingsUnchanged).to_string()
        } else if self.config_path.is_none() {
            let reason = self.text(Key::NoConfigFolder);
            self.show_error(Key::SettingsSaveFailed, reason);
            return;
        } else {
            self.effects.push(Effect::SaveConfig(changes));
            return;
        };
        self.status = Some(Status { text, error: false });
    }

    /// The event loop's answer to [`Effect::SaveConfig`]: the file was written (the
    /// saved state is now the current one) or it could not be.
    pub fn config_saved(&mut self, result: Result<(), String>) {
        match result {
            Ok(()) => {
                self.saved_config = self.config.clone();
                let path = self
                    .config_path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                let text = self.settings.language.format(Key::SettingsSaved, &[&path]);
                self.status = Some(Status { text, error: false });
            }
            Err(error) => self.show_error(Key::SettingsSaveFailed, &error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, GlyphSet, Settings};
    use crate::config::{save_changes, Config};

    fn app() -> App {
        let mut app = App::from_config(Config::default(), Some("/tmp/qipan-test.toml".into()), &[]);
        app.settings = Settings {
            language: Language::English,
            glyphs: GlyphSet::Cjk,
            ..Settings::default()
        };
        app
    }

    #[test]
    fn o_opens_settings_and_changes_take_effect_at_once() {
        let mut app = app();
        app.update(Action::Settings);
        assert_eq!(app.overlay, Some(Overlay::Settings { row: 0 }));
        // Language: auto → English → 한국어.
        app.update(Action::Right);
        app.update(Action::Right);
        assert_eq!(app.settings.language, Language::Korean);
        // Glyphs: CJK characters → Hangul → Latin.
        app.update(Action::Down);
        app.update(Action::Right);
        assert_eq!(app.settings.glyphs, GlyphSet::Hangul);
        app.update(Action::Right);
        assert_eq!(app.settings.glyphs, GlyphSet::Latin);
        // Theme: wood → dark, seen at once in the palette.
        app.update(Action::Down);
        app.update(Action::Down);
        let before = app.palette.clone();
        app.update(Action::Right);
        assert_eq!(app.config.theme, "dark");
        assert_ne!(app.palette, before);
        app.update(Action::Left);
        assert_eq!(app.config.theme, "wood");
        app.update(Action::Left);
        assert_eq!(app.config.theme, "sixteen");
        // CPU level wraps 1..10.
        app.update(Action::Down);
        app.update(Action::Down);
        for _ in 0..8 {
            app.update(Action::Right);
        }
        assert_eq!(app.config.cpu_level, 1);
        app.update(Action::Cancel);
        assert_eq!(app.overlay, None);
    }

    #[test]
    fn saving_sends_only_the_changes_and_they_keep_the_users_comments() {
        let mut app = app();
        app.update(Action::Settings);
        app.update(Action::SaveSettings);
        assert!(
            app.take_effects().is_empty(),
            "nothing changed, nothing to write"
        );
        for _ in 0..6 {
            app.update(Action::Down);
        }
        app.update(Action::Right); // bell on
        app.update(Action::SaveSettings);
        let effects = app.take_effects();
        let [Effect::SaveConfig(changes)] = effects.as_slice() else {
            panic!("expected one save, got {effects:?}");
        };
        let file = "# mine\ntheme = \"dark\" # dark is nice\n";
        let saved = save_changes(file, changes).unwrap();
        assert_eq!(
            saved,
            "# mine\ntheme = \"dark\" # dark is nice\nbell = true\n"
        );
        app.config_saved(Ok(()));
        assert_eq!(app.saved_config, app.config);
        assert!(app
            .status
            .as_ref()
            .unwrap()
            .text
            .contains("/tmp/qipan-test.toml"));
    }

    #[test]
    fn saving_without_a_config_folder_says_why_in_the_language() {
        let mut app = app();
        app.config_path = None;
        app.settings.language = Language::Korean;
        app.update(Action::Settings);
        for _ in 0..6 {
            app.update(Action::Down);
        }
        app.update(Action::Right); // bell on
        app.update(Action::SaveSettings);
        assert!(app.take_effects().is_empty());
        let status = app.status.expect("the failure is shown");
        assert!(status.error);
        assert!(
            status.text.contains("설정 폴더가 없습니다"),
            "{}",
            status.text
        );
    }

    #[test]
    fn notation_changes_the_game_on_screen() {
        let mut app = app();
        app.options = crate::app::StartOptions::for_game(GameKind::Shogi);
        app.start_game();
        app.update(Action::Settings);
        for _ in 0..4 {
            app.update(Action::Down);
        }
        app.update(Action::Right);
        assert_eq!(app.config.notation.shogi, Some(Notation::Japanese));
        assert_eq!(
            app.play.as_ref().unwrap().notation,
            Some(Notation::Japanese)
        );
        assert_eq!(app.setting_value(SettingRow::Notation), "Japanese");
    }

    #[test]
    fn the_language_row_cycles_all_four_named_in_their_own_script() {
        let mut app = app();
        app.update(Action::Settings);
        let mut seen = Vec::new();
        for _ in 0..5 {
            app.update(Action::Right);
            seen.push((
                app.settings.language,
                app.setting_value(SettingRow::Language),
            ));
        }
        let named = |language: Language| (language, language.native_name().to_string());
        assert_eq!(
            seen[..4],
            [
                named(Language::English),
                named(Language::Korean),
                named(Language::Chinese),
                named(Language::Japanese),
            ]
        );
        assert_eq!(app.config.language, LanguageChoice::Auto, "wraps to auto");
        assert_eq!(seen[2].1, "中文");
        assert_eq!(seen[3].1, "日本語");
        // Left goes back the other way: auto → 日本語.
        app.update(Action::Left);
        assert_eq!(app.settings.language, Language::Japanese);
        assert_eq!(app.text(Key::SettingsTitle), "設定");
    }

    #[test]
    fn auto_notation_follows_chinese_and_japanese() {
        use crate::rules::any::GameKind;
        use crate::rules::notation::Notation;
        for (language, game, expected) in [
            (
                Language::Chinese,
                GameKind::Xiangqi,
                Notation::Chinese { simplified: true },
            ),
            (Language::Japanese, GameKind::Shogi, Notation::Japanese),
            (Language::English, GameKind::Shogi, Notation::Hodges),
        ] {
            let settings = Settings {
                language,
                ..Settings::default()
            };
            let app = crate::ui::benchmark::midgame(settings, game);
            let play = app.play.as_ref().unwrap();
            assert_eq!(play.notation(language), expected, "{language:?}");
        }
    }

    #[test]
    fn every_setting_and_value_reads_in_korean() {
        let mut app = app();
        for language in Language::ALL {
            app.settings.language = language;
            for row in SettingRow::ALL {
                let label = language.text(row.label());
                assert!(!label.is_empty());
                if language == Language::Korean {
                    assert_ne!(label, Language::English.text(row.label()), "{row:?}");
                }
            }
        }
        app.settings.language = Language::Korean;
        assert_eq!(app.setting_value(SettingRow::Theme), "나무");
        assert_eq!(app.setting_value(SettingRow::Bell), "끔");
        for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
            for &notation in Notation::for_game(game) {
                let korean = Language::Korean.text(notation_key(notation));
                assert!(!korean.is_empty() && korean != "?", "{notation:?}");
            }
        }
    }

    #[test]
    fn cpu_level_reaches_the_game_on_screen() {
        let mut app = app();
        app.options.players = [Player::Human, Player::Computer { level: 3 }];
        app.start_game();
        app.update(Action::Settings);
        for _ in 0..5 {
            app.update(Action::Down);
        }
        app.update(Action::Right);
        let players = app.play.as_ref().unwrap().players;
        assert_eq!(players, [Player::Human, Player::Computer { level: 4 }]);
        assert_eq!(app.options.players[1], Player::Computer { level: 4 });
    }
}
