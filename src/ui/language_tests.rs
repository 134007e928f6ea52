//! The Chinese and Japanese interfaces at 80×24: snapshots of the screens a xiangqi
//! player in Chinese and a shogi player in Japanese see, and checks that the one-line
//! texts fit the screen (CJK characters take two columns each).

use super::benchmark::{midgame, parse_move};
use super::*;
use crate::app::{Action, Settings, StartOptions};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const LANGUAGES: [(Language, GameKind); 2] = [
    (Language::Chinese, GameKind::Xiangqi),
    (Language::Japanese, GameKind::Shogi),
];

fn snapshot(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

fn settings(language: Language) -> Settings {
    Settings {
        language,
        glyphs: GlyphSet::Cjk,
        ..Settings::default()
    }
}

fn name(screen: &str, language: Language, game: GameKind) -> String {
    format!("{screen}_{game:?}_{language:?}_80x24").to_lowercase()
}

#[test]
fn start_screens() {
    for (language, game) in LANGUAGES {
        let mut app = App::new(settings(language));
        app.options = StartOptions::for_game(game);
        let screen = snapshot(&app);
        assert!(screen.contains(language.text(Key::StartButton)), "{screen}");
        insta::assert_snapshot!(name("start", language, game), screen);
    }
    // Janggi's setups in hanja (not Hangul) for readers of Chinese characters.
    for language in [Language::Chinese, Language::Japanese] {
        let mut app = App::new(settings(language));
        app.options = StartOptions::for_game(GameKind::Janggi);
        let screen = snapshot(&app);
        assert!(screen.contains("馬象象馬 HEEH"), "{screen}");
        assert!(!screen.contains("마상상마"), "{screen}");
        insta::assert_snapshot!(name("start", language, GameKind::Janggi), screen);
    }
}

#[test]
fn games_with_the_panel() {
    for (language, game) in LANGUAGES {
        let app = midgame(settings(language), game);
        let screen = snapshot(&app);
        let mover = app.play.as_ref().unwrap().game.position().side_to_move();
        let side = side_name(language, GlyphSet::Cjk, game, mover);
        assert!(
            screen.contains(&language.format(Key::ToMove, &[&side])),
            "{screen}"
        );
        insta::assert_snapshot!(name("midgame", language, game), screen);
    }
}

#[test]
fn help() {
    for (language, game) in LANGUAGES {
        let mut app = midgame(settings(language), game);
        app.update(Action::Help);
        let screen = snapshot(&app);
        assert!(screen.contains(language.text(Key::HelpKeys)), "{screen}");
        insta::assert_snapshot!(name("help", language, game), screen);
    }
}

#[test]
fn game_over() {
    for (language, game) in LANGUAGES {
        let mut app = midgame(settings(language), game);
        app.update(Action::Resign);
        app.update(Action::Yes);
        let screen = snapshot(&app);
        assert!(
            screen.contains(language.text(Key::ChoiceReview)),
            "{screen}"
        );
        insta::assert_snapshot!(name("game_over", language, game), screen);
    }
}

#[test]
fn open_prompt() {
    for (language, game) in LANGUAGES {
        let mut app = App::new(settings(language));
        app.options = StartOptions::for_game(game);
        app.update(Action::OpenFile);
        app.set_record_choices(vec![
            "/home/player/.local/share/qipan/games/2026-11-30-1402.pgn".to_string(),
        ]);
        let screen = snapshot(&app);
        assert!(
            screen.contains(language.text(Key::OpenPromptTitle)),
            "{screen}"
        );
        insta::assert_snapshot!(name("open_prompt", language, game), screen);
    }
}

#[test]
fn promotion_question() {
    for language in [Language::Japanese, Language::Chinese] {
        let mut app = App::with_game(settings(language), StartOptions::for_game(GameKind::Shogi));
        let play = app.play.as_mut().unwrap();
        for text in ["7g7f", "3c3d"] {
            let mv = parse_move(play.game.position(), text).unwrap();
            play.play_and_record(mv).unwrap();
        }
        let position = play.game.position();
        let plain = parse_move(position, "8h2b").unwrap();
        let promoting = parse_move(position, "8h2b+").unwrap();
        app.overlay = Some(crate::app::Overlay::Promotion {
            plain,
            promoting,
            promote: true,
        });
        let screen = snapshot(&app);
        assert!(screen.contains(language.text(Key::PromoteNo)), "{screen}");
        insta::assert_snapshot!(name("promotion", language, GameKind::Shogi), screen);
    }
}

/// The footer and pop-up lines are never wrapped: in every language they fit 78
/// columns (an 80-column screen less its margins).
#[test]
fn one_line_texts_fit_eighty_columns() {
    for language in Language::ALL {
        for key in [
            Key::StartHints,
            Key::GameHints,
            Key::SettingsHints,
            Key::HelpClose,
            Key::YesNo,
            Key::PromptHint,
            Key::OpenPromptHint,
            Key::SavePromptHint,
        ] {
            let text = language.text(key);
            assert!(text.width() <= 78, "{key:?} in {language:?}: {text}");
        }
    }
}

/// Japanese and Chinese paragraphs fill each line (they break between characters, not
/// only at spaces), and no line starts with a closing mark such as `。` or `、`.
#[test]
fn cjk_paragraphs_fill_their_lines_and_keep_closing_marks_behind() {
    for language in [Language::Chinese, Language::Japanese] {
        for key in [
            Key::RulesXiangqi,
            Key::RulesShogi,
            Key::RulesJanggi,
            Key::RulesGungjanggi,
        ] {
            let text = language.text(key);
            for width in [30, 47, 76] {
                let lines = super::hanging_lines(text, 2, 2, width);
                for (index, line) in lines.iter().enumerate() {
                    assert!(line.width() <= width, "{key:?} {width}: {lines:#?}");
                    let first = line.trim_start().chars().next();
                    assert!(
                        !first.is_some_and(super::is_closing_mark),
                        "{key:?} {width}: line {index} starts with a closing mark: {lines:#?}"
                    );
                    // Every line but the last is nearly full (a carried character, or a
                    // word of Latin letters that did not fit, leaves a little room).
                    if index + 1 < lines.len() {
                        assert!(line.width() + 10 >= width, "{key:?} {width}: {lines:#?}");
                    }
                }
                let rejoined: String = lines.iter().map(|l| l.trim()).collect();
                let compact: String = text.chars().filter(|c| *c != ' ').collect();
                assert_eq!(rejoined.replace(' ', ""), compact, "{key:?} {width}");
            }
        }
    }
    let lines = super::hanging_lines("一二三四五六七八九。十", 0, 0, 18);
    assert_eq!(lines, ["一二三四五六七八", "九。十"]);
}

/// Wide characters at every size and in every overlay: drawing never panics, even
/// where a two-column character would straddle the edge of an area.
#[test]
fn every_game_and_overlay_renders_at_any_size() {
    let games = [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi];
    for language in [Language::Chinese, Language::Japanese] {
        for game in games {
            let mut app = midgame(settings(language), game);
            let overlays = [
                Action::Help,
                Action::Settings,
                Action::OpenPrompt,
                Action::Resign,
                Action::OfferDraw,
            ];
            for overlay in overlays {
                app.update(overlay);
                for (width, height) in [(1, 1), (9, 3), (33, 11), (61, 17), (79, 23), (81, 25)] {
                    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
                    terminal.draw(|frame| render(&app, frame)).unwrap();
                }
                app.update(Action::Cancel);
            }
        }
    }
}

/// Every value the start screen can show fits its column at 80×24 with the ◀ ▶
/// around it: each game, rule set, setup, handicap, player and time control.
#[test]
fn every_start_screen_value_fits_beside_its_label() {
    for language in Language::ALL {
        let mut app = App::new(settings(language));
        for _game in 0..4 {
            let fields = app.start_fields();
            for (row, field) in fields.iter().enumerate() {
                if matches!(
                    field,
                    crate::app::StartField::Start | crate::app::StartField::Continue
                ) {
                    continue;
                }
                app.start_row = row;
                // Step through the row's values (and back to the first).
                for _ in 0..17 {
                    let screen = snapshot(&app);
                    let focused = screen.lines().find(|l| l.contains('›')).expect("a row");
                    assert!(focused.contains('▶'), "{language:?} {field:?}: {focused}");
                    if *field != crate::app::StartField::Game {
                        app.update(Action::Right);
                    }
                }
                if *field != crate::app::StartField::Game {
                    for _ in 0..17 {
                        app.update(Action::Left);
                    }
                }
            }
            app.start_row = 0;
            app.update(Action::Right);
        }
    }
}
