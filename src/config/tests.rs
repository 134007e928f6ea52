//! Config: merge order, the example file, bad values, unknown keys, saving.

use super::*;

fn from_text(text: &str) -> Loaded {
    let file = FileText {
        name: "config.toml",
        text,
    };
    merge(Some(file), &Flags::default(), &[]).unwrap()
}

/// The problems as `qipan config check` prints them in English.
fn english(loaded: &Loaded) -> Vec<String> {
    loaded.warnings.iter().map(Problem::to_string).collect()
}

#[test]
fn the_example_file_is_every_default() {
    let loaded = from_text(EXAMPLE);
    assert_eq!(english(&loaded), Vec::<String>::new());
    assert_eq!(loaded.config, Config::default());
}

#[test]
fn missing_file_is_the_defaults_without_a_message() {
    let loaded = merge(None, &Flags::default(), &[]).unwrap();
    assert_eq!(loaded.config, Config::default());
    assert!(english(&loaded).is_empty());
    let missing = Path::new("/nonexistent/qipan/config.toml");
    let loaded = load(Some(missing), &Flags::default()).unwrap();
    assert_eq!(loaded.config, Config::default());
    assert!(english(&loaded).is_empty());
}

#[test]
fn defaults_then_file_then_flags() {
    let text = "language = \"ko\"\ntheme = \"dark\"\nglyphs = \"latin\"\n[cpu]\nlevel = 7\n";
    let file = FileText {
        name: "config.toml",
        text,
    };
    // The file beats the defaults.
    let loaded = merge(Some(file), &Flags::default(), &[]).unwrap();
    assert_eq!(
        loaded.config.language,
        LanguageChoice::Fixed(Language::Korean)
    );
    assert_eq!(loaded.config.theme, "dark");
    assert!(loaded.config.latin_glyphs);
    assert_eq!(loaded.config.cpu_level, 7);
    // Flags beat the file; keys without a flag keep the file's value.
    let flags = Flags {
        language: Some("en".to_string()),
        ascii: false,
        wide_lines: true,
        theme: Some("contrast".to_string()),
    };
    let loaded = merge(Some(file), &flags, &[]).unwrap();
    assert_eq!(
        loaded.config.language,
        LanguageChoice::Fixed(Language::English)
    );
    assert_eq!(loaded.config.theme, "contrast");
    assert!(!loaded.config.latin_glyphs);
    assert!(loaded.config.wide_ambiguous);
    assert_eq!(loaded.config.cpu_level, 7);
    // A bad flag is an error, not a warning.
    let bad = Flags {
        language: Some("fr".to_string()),
        ..Flags::default()
    };
    assert_eq!(
        merge(None, &bad, &[]).unwrap_err(),
        Language::from_environment().format(crate::i18n::Key::ConfigUnknownLanguage, &["fr"])
    );
    // When the file names a language, the error speaks it.
    let in_file = |text| FileText {
        name: "config.toml",
        text,
    };
    assert_eq!(
        merge(Some(in_file("language = \"en\"\n")), &bad, &[]).unwrap_err(),
        "unknown language 'fr': use en, ko, zh or ja"
    );
    assert_eq!(
        merge(Some(in_file("language = \"ko\"\n")), &bad, &[]).unwrap_err(),
        "알 수 없는 언어 'fr': en, ko, zh, ja 중 하나를 쓰세요"
    );
}

#[test]
fn a_bad_value_names_file_line_column_and_key_and_keeps_the_others() {
    let text =
        "language = \"ko\"\nbell = true\n\ntheme = \"blu\"\n[cpu]\nlevel = 12\nside = \"second\"\n";
    let loaded = from_text(text);
    assert_eq!(
        english(&loaded),
        vec![
            "config.toml: line 4, column 9: key \"theme\": expected one of wood, dark, contrast, sixteen or a theme file path, found \"blu\"".to_string(),
            "config.toml: line 6, column 9: key \"cpu.level\": expected a whole number from 1 to 10, found 12".to_string(),
        ]
    );
    // Only the bad keys fall back to their defaults.
    assert_eq!(loaded.config.theme, "wood");
    assert_eq!(loaded.config.cpu_level, 3);
    assert_eq!(
        loaded.config.language,
        LanguageChoice::Fixed(Language::Korean)
    );
    assert!(loaded.config.bell);
    assert_eq!(loaded.config.cpu_side, CpuSide::Second);
}

#[test]
fn wrong_types_and_bad_choices_are_reported() {
    let text = "bell = \"yes\"\n[game]\nvariant = \"chess\"\ncho_setup = \"상마마상\"\n[notation]\nshogi = \"wxf\"\n";
    let loaded = from_text(text);
    let warnings = english(&loaded);
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0]
        .contains("line 1, column 8: key \"bell\": expected true or false, found \"yes\""));
    assert!(warnings[1].contains("key \"game.variant\": expected one of xiangqi, shogi, janggi"));
    assert!(warnings[1].contains("found \"chess\""));
    // WXF is a xiangqi notation, not a shogi one.
    assert!(warnings[2]
        .contains("key \"notation.shogi\": expected one of auto, japanese, hodges, usi, engine"));
    assert_eq!(loaded.config.cho_setup, Setup::ElephantHorseHorseElephant);
}

#[test]
fn unknown_keys_are_warned_not_fatal() {
    let text = "colour = \"red\"\ntheme = \"dark\"\n[cpu]\nlevle = 4\n";
    let loaded = from_text(text);
    assert_eq!(
        english(&loaded),
        vec![
            "config.toml: line 1, column 1: unknown key \"colour\" (ignored)".to_string(),
            "config.toml: line 4, column 1: unknown key \"cpu.levle\" (ignored)".to_string(),
        ]
    );
    assert_eq!(loaded.config.theme, "dark");
}

#[test]
fn invalid_syntax_in_the_top_section_is_one_line_and_its_defaults() {
    let loaded = from_text("theme = \"dark\"\nbell = tru e\n");
    let warnings = english(&loaded);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].starts_with("config.toml: line 2, column "),
        "{}",
        warnings[0]
    );
    assert!(warnings[0].contains("invalid TOML"));
    assert_eq!(loaded.config, Config::default());
}

#[test]
fn user_themes_and_paths_are_accepted() {
    let text = "theme = \"mine\"\n";
    let file = FileText {
        name: "config.toml",
        text,
    };
    let loaded = merge(Some(file), &Flags::default(), &["mine".to_string()]).unwrap();
    assert!(english(&loaded).is_empty());
    assert_eq!(loaded.config.theme, "mine");
    let loaded = from_text("theme = \"/tmp/paper.toml\"\n");
    assert_eq!(loaded.config.theme, "/tmp/paper.toml");
}

#[test]
fn keys_clocks_folders_and_engines_are_read() {
    let text = r#"
[keys]
undo = ["z", "Ctrl-z"]
help = "F2"
flip = ["Shift-Q"]

[clock]
janggi = "10m 3x30s"

[folders]
games = "/tmp/games"

[[engines]]
name = "Fairy-Stockfish"
command = "/usr/games/fairy-stockfish"
args = ["--quiet"]
protocol = "uci"
options = { Threads = 2, UCI_Variant = "janggi" }

[[engines]]
name = "broken"
"#;
    let loaded = from_text(text);
    let config = &loaded.config;
    assert_eq!(
        config.keys,
        vec![
            (
                Action::Undo,
                vec![(KeyCode::Char('z'), false), (KeyCode::Char('z'), true)]
            ),
            (Action::Help, vec![(KeyCode::F(2), false)]),
        ]
    );
    assert_eq!(config.clock.janggi.to_string(), "10m 3x30s");
    assert_eq!(config.clock.xiangqi, crate::clock::TimeControl::None);
    assert_eq!(config.games_folder, Some(PathBuf::from("/tmp/games")));
    assert_eq!(config.autosave_folder, None);
    assert_eq!(
        config.engines,
        vec![EngineConfig {
            name: "Fairy-Stockfish".to_string(),
            command: "/usr/games/fairy-stockfish".to_string(),
            args: vec!["--quiet".to_string()],
            protocol: EngineProtocol::Uci,
            options: vec![
                ("Threads".to_string(), "2".to_string()),
                ("UCI_Variant".to_string(), "janggi".to_string()),
            ],
        }]
    );
    let warnings = english(&loaded);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("key \"keys.flip\": expected a list of key names"));
    assert!(warnings[1].contains("[[engines]] needs \"command\"; engine ignored"));
}

#[test]
fn saving_changes_only_the_changed_keys_and_keeps_comments() {
    let text = "# my settings\nlanguage = \"en\"   # English please\n\n# looks\ntheme = \"wood\" # the default\n\n[cpu]\n# strength\nlevel = 3\n";
    let before = from_text(text).config;
    let mut after = before.clone();
    after.theme = "dark".to_string();
    after.cpu_level = 5;
    after.bell = true;
    let changes = changes_between(&before, &after);
    assert_eq!(changes.len(), 3);
    let saved = save_changes(text, &changes).unwrap();
    assert_eq!(
        saved,
        "# my settings\nlanguage = \"en\"   # English please\n\n# looks\ntheme = \"dark\" # the default\nbell = true\n\n[cpu]\n# strength\nlevel = 5\n"
    );
    // And it reads back as what was saved.
    assert_eq!(from_text(&saved).config, after);
}

#[test]
fn saving_into_an_empty_file_creates_the_tables() {
    let mut after = Config::default();
    after.notation.set(GameKind::Shogi, Some(Notation::Hodges));
    let saved = save_changes("", &changes_between(&Config::default(), &after)).unwrap();
    assert_eq!(saved, "[notation]\nshogi = \"hodges\"\n");
    assert_eq!(from_text(&saved).config, after);
}

#[test]
fn line_and_column_count_characters() {
    assert_eq!(line_column("a\nbc", 3), (2, 2));
    assert_eq!(line_column("한 = 1", 4), (1, 3));
}

#[test]
fn save_to_file_edits_the_file_in_place() {
    let folder = std::env::temp_dir().join(format!("qipan-config-{}", std::process::id()));
    let path = folder.join("config.toml");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(&path, "# keep me\n[cpu]\nlevel = 2 # easy\n").unwrap();
    let change = Change {
        path: vec!["cpu", "level"],
        value: Value::from(9),
    };
    save_to_file(&path, &[change]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, "# keep me\n[cpu]\nlevel = 9 # easy\n");
    // A missing file is created with only the change.
    let fresh = folder.join("fresh.toml");
    let _ = std::fs::remove_file(&fresh);
    let change = Change {
        path: vec!["theme"],
        value: Value::from("dark"),
    };
    save_to_file(&fresh, &[change]).unwrap();
    assert_eq!(
        std::fs::read_to_string(&fresh).unwrap(),
        "theme = \"dark\"\n"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn notations_are_read_by_id_or_by_their_interface_name() {
    let loaded = from_text("[notation]\nshogi = \"Western (Hodges)\"\nxiangqi = \"chinese-simplified\"\njanggi = \"auto\"\n");
    assert!(english(&loaded).is_empty(), "{:?}", english(&loaded));
    assert_eq!(loaded.config.notation.shogi, Some(Notation::Hodges));
    assert_eq!(
        loaded.config.notation.xiangqi,
        Some(Notation::Chinese { simplified: true })
    );
    assert_eq!(loaded.config.notation.janggi, None);
}

proptest::proptest! {
    /// Whatever the file holds, reading it never panics and every problem is one line.
    #[test]
    fn any_text_reads_without_panicking(text in "[a-z_\\[\\]=\"#{}., 0-9\n한]{0,120}") {
        let loaded = from_text(&text);
        for warning in &english(&loaded) {
            proptest::prop_assert!(!warning.contains('\n'), "{}", warning);
            proptest::prop_assert!(warning.starts_with("config.toml"), "{}", warning);
        }
        let _ = crate::theme::ThemeSpec::parse("t.toml", &text);
    }

    /// Keys that look right but hold any value never panic either.
    #[test]
    fn any_value_in_a_known_key_reads_without_panicking(value in "[a-z0-9\"\\[\\], #.+-]{0,20}") {
        for key in ["theme", "language", "bell", "glyphs"] {
            let _ = from_text(&format!("{key} = {value}\n[cpu]\nlevel = {value}\n[keys]\nundo = {value}\n"));
        }
    }
}

#[test]
fn a_value_over_several_lines_is_still_one_warning_line() {
    let loaded = from_text("theme = [\n  1,\n  2,\n]\n\"odd\\nkey\" = 1\n");
    assert_eq!(english(&loaded).len(), 2, "{:?}", english(&loaded));
    assert!(english(&loaded).iter().all(|w| !w.contains('\n')));
}

#[test]
fn line_column_never_splits_a_character() {
    assert_eq!(line_column("한", 1), (1, 1));
}

#[test]
fn engines_may_be_an_empty_list_or_tables_with_an_options_table() {
    let loaded = from_text("engines = []\n");
    assert!(english(&loaded).is_empty(), "{:?}", english(&loaded));
    let text = "[[engines]]\nname = \"a\"\ncommand = \"b\"\nprotocol = \"usi\"\n[engines.options]\nUSI_Hash = 256\n";
    let loaded = from_text(text);
    assert!(english(&loaded).is_empty(), "{:?}", english(&loaded));
    assert_eq!(loaded.config.engines[0].protocol, EngineProtocol::Usi);
    assert_eq!(
        loaded.config.engines[0].options,
        vec![("USI_Hash".to_string(), "256".to_string())]
    );
    let loaded = from_text("engines = 3\n");
    assert!(english(&loaded)[0].contains("key \"engines\": expected [[engines]] tables, found 3"));
}

#[test]
fn chinese_and_japanese_by_code_or_locale_name() {
    for (value, language) in [
        ("zh", Language::Chinese),
        ("zh-CN", Language::Chinese),
        ("zh_CN.UTF-8", Language::Chinese),
        ("ja", Language::Japanese),
        ("ja-JP", Language::Japanese),
        ("JA", Language::Japanese),
    ] {
        let loaded = from_text(&format!("language = \"{value}\"\n"));
        assert_eq!(english(&loaded), Vec::<String>::new(), "{value}");
        assert_eq!(loaded.config.language, LanguageChoice::Fixed(language));
        let flags = Flags {
            language: Some(value.to_string()),
            ..Flags::default()
        };
        let loaded = merge(None, &flags, &[]).unwrap();
        assert_eq!(loaded.config.language, LanguageChoice::Fixed(language));
    }
    assert_eq!(LanguageChoice::Fixed(Language::Chinese).id(), "zh");
    assert_eq!(LanguageChoice::Fixed(Language::Japanese).id(), "ja");
    // A language nobody speaks here lists the four codes.
    let loaded = from_text("language = \"fr\"\n");
    assert_eq!(
        english(&loaded),
        vec![
            "config.toml: line 1, column 12: key \"language\": expected one of auto, en, ko, zh, ja, found \"fr\""
                .to_string()
        ]
    );
    assert_eq!(loaded.config.language, LanguageChoice::Auto);
    // The unknown-language error speaks the file's language.
    let bad = Flags {
        language: Some("fr".to_string()),
        ..Flags::default()
    };
    let file = FileText {
        name: "config.toml",
        text: "language = \"ja\"\n",
    };
    assert_eq!(
        merge(Some(file), &bad, &[]).unwrap_err(),
        "不明な言語 'fr': en、ko、zh、ja のいずれかを指定してください"
    );
}

/// Issue 18 item 15: one syntax error (an out-of-range number, a duplicate key, a
/// broken line) costs only its own section; every other section is still read, and the
/// problem names the line of the file.
#[test]
fn a_syntax_error_costs_only_its_section() {
    let text = "theme = \"dark\"\nbell = true\n\n[cpu]\nlevel = 99999999999999999999\n\n\
                [clock]\njanggi = \"10m 3x30s\"\n\n[keys]\nundo = \"z\"\nundo = \"x\"\n";
    let loaded = from_text(text);
    let warnings = english(&loaded);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("config.toml: line 5, column "),
        "{warnings:?}"
    );
    assert!(
        warnings[1].starts_with("config.toml: line 12, column "),
        "{warnings:?}"
    );
    assert!(warnings
        .iter()
        .all(|w| w.contains("that section keeps its defaults")));
    // The sections around the broken ones were read.
    assert_eq!(loaded.config.theme, "dark");
    assert!(loaded.config.bell);
    assert_ne!(loaded.config.clock, Config::default().clock);
}

/// Issue 18 item 15: key bindings that leave an action without a key or take quit's key,
/// and engines with an empty name or command or a name used twice, are reported.
#[test]
fn unbound_actions_quit_keys_and_bad_engines_are_reported() {
    let text = "[keys]\nundo = []\nflip = \"q\"\n\n\
                [[engines]]\nname = \"fsf\"\ncommand = \"fairy-stockfish\"\n\n\
                [[engines]]\nname = \"fsf\"\ncommand = \"other\"\n\n\
                [[engines]]\nname = \"\"\ncommand = \"x\"\n\n\
                [[engines]]\nname = \"blank\"\ncommand = \"  \"\n";
    let loaded = from_text(text);
    let warnings = english(&loaded);
    let said = |words: &str| warnings.iter().any(|w| w.contains(words));
    assert!(said("\"undo\" is left with no key"), "{warnings:?}");
    assert!(
        said("\"flip\" takes \"q\", the key that quits"),
        "{warnings:?}"
    );
    assert!(said("a second engine named \"fsf\""), "{warnings:?}");
    assert!(said("[[engines]] needs \"name\""), "{warnings:?}");
    assert!(said("[[engines]] needs \"command\""), "{warnings:?}");
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    assert_eq!(loaded.config.engines.len(), 1);
    assert_eq!(loaded.config.engines[0].command, "fairy-stockfish");
}

#[test]
fn the_analysis_engine_names_one_of_the_engines() {
    let engines = "[[engines]]\nname = \"fsf\"\ncommand = \"fairy-stockfish\"\n[[engines]]\nname = \"yaneura\"\ncommand = \"yaneuraou\"\nprotocol = \"usi\"\n";
    let loaded = from_text(&format!("[analysis]\nengine = \"yaneura\"\n{engines}"));
    assert_eq!(english(&loaded), Vec::<String>::new());
    assert_eq!(loaded.config.analysis_engine.as_deref(), Some("yaneura"));
    let settings = loaded.config.settings();
    assert_eq!(settings.analysis_engine, Some(1));
    assert_eq!(settings.hint_engine, None);
    // Empty: not set.
    let loaded = from_text(&format!("{engines}[analysis]\nengine = \"\"\n"));
    assert_eq!(loaded.config.analysis_engine, None);
    assert!(english(&loaded).is_empty());
    // A name no engine has, or not a string, costs only that key.
    let loaded = from_text(&format!(
        "bell = true\n[analysis]\nengine = \"stockfish\"\nbogus = 1\n{engines}"
    ));
    assert_eq!(
        english(&loaded),
        vec![
            "config.toml: line 3, column 10: key \"analysis.engine\": expected one of fsf, yaneura, \"\", found \"stockfish\"".to_string(),
            "config.toml: line 4, column 1: unknown key \"analysis.bogus\" (ignored)".to_string(),
        ]
    );
    assert_eq!(loaded.config.analysis_engine, None);
    assert!(loaded.config.bell);
    assert_eq!(loaded.config.engines.len(), 2);
    let loaded = from_text("[analysis]\nengine = 3\n");
    assert_eq!(english(&loaded).len(), 1, "{:?}", english(&loaded));
    assert_eq!(loaded.config.analysis_engine, None);
}

#[test]
fn cpu_threads_takes_a_count_up_to_the_engines_limit_and_defaults_to_the_cores() {
    let loaded = from_text("[cpu]\nthreads = 2\n");
    assert!(english(&loaded).is_empty());
    assert_eq!(loaded.config.cpu_threads, 2);
    let loaded = from_text("[cpu]\nthreads = 0\n");
    assert_eq!(
        english(&loaded),
        vec!["config.toml: line 2, column 11: key \"cpu.threads\": expected a whole number from 1 to 64, found 0".to_string()]
    );
    assert_eq!(loaded.config.cpu_threads, super::default_cpu_threads());
    assert!((1..=4).contains(&super::default_cpu_threads()));
    assert_eq!(super::MAX_CPU_THREADS, crate::engine::Engine::MAX_THREADS);
}
