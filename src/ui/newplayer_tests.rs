//! Screens a new player trips over (issue 12): ASCII with `--ascii`, popups that clear
//! what they cover, the promotion popup, the move numbers of shogi.

use super::benchmark::midgame;
use super::*;
use crate::app::{Action, Settings, StartOptions};
use crate::rules::any::Variant;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const GAMES: [GameKind; 3] = [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi];

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

fn settings(language: Language, glyphs: GlyphSet) -> Settings {
    Settings {
        language,
        glyphs,
        ..Settings::default()
    }
}

/// Every screen and popup of a game, in one language and glyph set.
fn every_screen(language: Language, glyphs: GlyphSet) -> Vec<(String, App)> {
    let mut screens = Vec::new();
    for game in GAMES {
        let mut start = App::new(settings(language, glyphs));
        start.options = StartOptions::for_game(game);
        screens.push((format!("{game:?} start"), start));
        let app = midgame(settings(language, glyphs), game);
        for (name, actions) in [
            ("midgame", vec![]),
            ("help", vec![Action::Help]),
            ("settings", vec![Action::Settings]),
            ("quit question", vec![Action::Quit]),
            ("prompt", vec![Action::OpenPrompt, Action::PromptChar('h')]),
            ("new game", vec![Action::NewGame, Action::Yes]),
            ("resign", vec![Action::Resign, Action::Yes]),
        ] {
            let mut app = midgame(settings(language, glyphs), game);
            for action in actions {
                app.update(action);
            }
            screens.push((format!("{game:?} {name}"), app));
        }
        drop(app);
    }
    // Shogi's promotion question and a handicap game.
    let position = Variant::Shogi
        .position_from_fen("4k4/9/9/9/9/9/1B7/9/4K4 b - 1")
        .expect("a shogi position");
    let mut promotion = App::from_position(settings(language, glyphs), position);
    let bishop = (0..81u8)
        .find(|&square| {
            promotion
                .play
                .as_ref()
                .unwrap()
                .game
                .position()
                .piece_on(square)
                .is_some_and(|p| p.kind == PieceKind::Bishop)
        })
        .expect("the bishop");
    promotion.update(Action::ClickSquare(bishop));
    let target = promotion
        .play
        .as_ref()
        .and_then(|p| p.targets.iter().find(|m| m.is_promotion()).map(|m| m.to))
        .expect("a promoting move");
    promotion.update(Action::ClickSquare(target));
    assert!(matches!(promotion.overlay, Some(Overlay::Promotion { .. })));
    screens.push(("shogi promotion".to_string(), promotion));
    screens
}

// ----- item 8: --ascii is ASCII everywhere --------------------------------------

#[test]
fn with_ascii_glyphs_every_screen_is_ascii() {
    let mut failures = Vec::new();
    for (name, app) in every_screen(Language::English, GlyphSet::Latin) {
        for (width, height) in [(80, 24), (120, 40)] {
            let text = screen(&app, width, height);
            let odd: String = text.chars().filter(|c| !c.is_ascii()).collect();
            if !odd.is_empty() {
                failures.push(format!("{name} {width}x{height}: {odd:?}\n{text}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- item 9: the promotion popup says what the piece becomes -------------------

#[test]
fn the_promotion_popup_shows_the_promoted_piece_in_every_glyph_set() {
    for (glyphs, expected) in [
        (GlyphSet::Cjk, "角 → 馬"),
        (GlyphSet::CjkWideLines, "角 → 馬"),
        (GlyphSet::Latin, "B > +B"),
    ] {
        let screens = every_screen(Language::English, glyphs);
        let (_, app) = screens
            .iter()
            .find(|(name, _)| name == "shogi promotion")
            .expect("the promotion screen");
        let text = screen(app, 80, 24);
        assert!(text.contains(expected), "{glyphs:?}:\n{text}");
    }
}

// ----- item 7: popups clear every cell they cover --------------------------------

const LANGUAGES: [Language; 4] = [
    Language::Korean,
    Language::English,
    Language::Chinese,
    Language::Japanese,
];

/// The rectangle of the popup drawn on a buffer, found by its border's corners in the
/// popup border's style.
fn popup_rect(buffer: &Buffer, border: Style) -> Option<Rect> {
    let area = buffer.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let cell = &buffer[(x, y)];
            if cell.symbol() == "┌"
                && Some(cell.fg) == border.fg
                && border.bg.is_none_or(|bg| bg == cell.bg)
            {
                let right = (x + 1..area.width).find(|&c| buffer[(c, y)].symbol() == "┐")?;
                let bottom = (y + 1..area.height).find(|&r| buffer[(x, r)].symbol() == "└")?;
                return Some(Rect::new(x, y, right - x + 1, bottom - y + 1));
            }
        }
    }
    None
}

#[test]
fn popups_cover_every_cell_in_every_language() {
    for language in LANGUAGES {
        for width in [80u16, 81, 100, 120] {
            for (name, actions) in [
                ("help", vec![Action::Help]),
                ("settings", vec![Action::Settings]),
                // Japanese and back: the popup is drawn anew over what was there.
                (
                    "settings after a language change",
                    vec![Action::Settings, Action::Down, Action::Right, Action::Left],
                ),
                ("quit", vec![Action::Quit]),
            ] {
                // A timed game: its clocks stand at the right edge of the panel.
                let mut app = midgame(settings(language, GlyphSet::Cjk), GameKind::Janggi);
                let now = app.now();
                if let Some(play) = app.play.as_mut() {
                    let mut clock =
                        crate::clock::Clock::new("10m 3x30s".parse().expect("a time control"));
                    clock.start(play.game.position().side_to_move(), now);
                    play.clock = Some(clock);
                }
                for action in actions {
                    app.update(action);
                }
                let area = Rect::new(0, 0, width, 24);
                let mut buffer = Buffer::empty(area);
                render_buffer(&app, area, &mut buffer);
                let theme = app_theme(&app, GameKind::Janggi);
                let rect = popup_rect(&buffer, theme.popup_border)
                    .unwrap_or_else(|| panic!("{name}: a popup"));
                for y in rect.top()..rect.bottom() {
                    for x in rect.left()..rect.right() {
                        let cell = &buffer[(x, y)];
                        // The second column of a wide character is drawn by it.
                        let covered = x > 0 && buffer[(x - 1, y)].symbol().width() > 1;
                        assert!(
                            covered
                                || cell.bg != ratatui::style::Color::Reset
                                || theme.popup.bg.is_none(),
                            "{language:?} {name} {width}: a hole at {x},{y}: {cell:?}"
                        );
                    }
                }
                // Nothing of the panel is left right beside the popup on narrow screens.
                if rect.right() < width && width <= 100 {
                    for y in rect.top()..rect.bottom() {
                        let beside: String = (rect.right()..width)
                            .map(|x| buffer[(x, y)].symbol().to_string())
                            .collect();
                        assert!(
                            beside.trim().is_empty() || rect.width < width - 10,
                            "{language:?} {name} {width}: {beside:?} beside the popup"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_longest_start_value_keeps_off_the_border() {
    for language in LANGUAGES {
        for handicap in 0..crate::rules::shogi::Handicap::ALL.len() {
            let mut app = App::new(settings(language, GlyphSet::Cjk));
            app.options = StartOptions::for_game(GameKind::Shogi);
            app.options.handicap = handicap;
            app.start_row = 1;
            let area = Rect::new(0, 0, 80, 24);
            let mut buffer = Buffer::empty(area);
            render_buffer(&app, area, &mut buffer);
            let rect =
                popup_rect(&buffer, app_theme(&app, GameKind::Shogi).dim).expect("the start menu");
            for y in rect.top() + 1..rect.bottom() - 1 {
                let inside = &buffer[(rect.right() - 2, y)];
                assert_eq!(
                    inside.symbol(),
                    " ",
                    "{language:?} handicap {handicap}: row {y} touches the border"
                );
            }
        }
    }
}

#[test]
fn a_change_of_language_or_glyphs_redraws_the_whole_screen() {
    use crate::tui::needs_full_redraw;
    let english = (Language::English, GlyphSet::Cjk);
    assert!(!needs_full_redraw(english, english));
    assert!(needs_full_redraw(
        english,
        (Language::Japanese, GlyphSet::Cjk)
    ));
    assert!(needs_full_redraw(
        english,
        (Language::English, GlyphSet::Latin)
    ));
}

// ----- item 16: no points where they decide nothing ---------------------------------

#[test]
fn the_score_is_shown_only_under_rules_that_count_points() {
    use crate::rules::janggi::JanggiRules;
    for (rules, shown) in [
        (JanggiRules::KJA, true),
        (JanggiRules::MODERN, true),
        (JanggiRules::TRADITIONAL, false),
        (JanggiRules::CASUAL, false),
    ] {
        let app = App::with_game(
            settings(Language::English, GlyphSet::Cjk),
            StartOptions::for_variant(Variant::Janggi(rules)),
        );
        let text = screen(&app, 80, 24);
        assert_eq!(text.contains("Score"), shown, "{}:\n{text}", rules.id);
    }
}

// ----- item 13: Korean wording ---------------------------------------------------------

#[test]
fn results_are_written_as_a_korean_player_writes_them() {
    use crate::rules::EndReason;
    let korean = |outcome: Outcome| {
        outcome_text(Language::Korean, GlyphSet::Cjk, GameKind::Janggi, &outcome)
    };
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::Checkmate)),
        "한 외통승"
    );
    assert_eq!(
        korean(Outcome::win(Side::First, EndReason::Resignation)),
        "초 기권승"
    );
    assert_eq!(korean(Outcome::draw(EndReason::Bikjang)), "빅장 무승부");
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::Repetition)),
        "점수 우세로 한 승 (반복)"
    );
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::SecondPlayer)),
        "동점이라 후수 한 승 (후수승)"
    );
    assert_eq!(
        Language::Korean.text(Key::ConfirmQuit),
        "대국은 저장됩니다. 종료할까요?"
    );
    assert!(!Language::Korean
        .text(Key::IllegalNotWrittenHere)
        .contains("적히는"));
}

#[test]
fn the_korean_clock_counts_in_seconds_of_its_own() {
    let mut app = midgame(settings(Language::Korean, GlyphSet::Cjk), GameKind::Janggi);
    let now = app.now();
    if let Some(play) = app.play.as_mut() {
        let mut clock = crate::clock::Clock::new("0s 30x30s".parse().expect("a time control"));
        clock.start(play.game.position().side_to_move(), now);
        play.clock = Some(clock);
    }
    let text = screen(&app, 80, 24);
    assert!(text.contains("30초 ×30"), "{text}");
    let mut app = midgame(settings(Language::Japanese, GlyphSet::Cjk), GameKind::Shogi);
    if let Some(play) = app.play.as_mut() {
        let mut clock = crate::clock::Clock::new("0s 30x30s".parse().expect("a time control"));
        clock.start(play.game.position().side_to_move(), now);
        play.clock = Some(clock);
    }
    assert!(screen(&app, 80, 24).contains("30秒 ×30"));
}

#[test]
fn korean_help_breaks_lines_between_words() {
    for width in 20..60 {
        let text = Language::Korean.text(Key::RulesShogi);
        let lines = hanging_lines(text, 2, 2, width);
        let words: Vec<&str> = text.split(' ').collect();
        for line in &lines {
            for piece in line.split(' ').filter(|p| !p.is_empty()) {
                assert!(
                    words.contains(&piece),
                    "width {width}: {piece:?} is a broken word"
                );
            }
        }
    }
    let lines = hanging_lines("기보 열기: PGN/KIF/CSA/.gib 파일", 2, 2, 24);
    assert!(
        lines.iter().any(|l| l.contains("PGN/KIF/CSA/.gib")),
        "{lines:?}"
    );
}

#[test]
fn the_hangul_piece_set_draws_janggi_in_hangul_two_columns_each() {
    use crate::rules::any::Piece;
    for kind in [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ] {
        for side in [Side::First, Side::Second] {
            for game in [GameKind::Janggi, GameKind::Xiangqi] {
                let glyph = glyphs::piece(game, Piece { side, kind }, GlyphSet::Hangul);
                assert_eq!(glyph.width(), 2, "{glyph}");
                assert!(
                    glyph
                        .chars()
                        .all(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)),
                    "{glyph}"
                );
            }
        }
    }
    let general = |side| {
        glyphs::piece(
            GameKind::Janggi,
            Piece {
                side,
                kind: PieceKind::General,
            },
            GlyphSet::Hangul,
        )
    };
    assert_eq!((general(Side::First), general(Side::Second)), ("초", "한"));
    let app = App::with_game(
        settings(Language::Korean, GlyphSet::Hangul),
        StartOptions::for_game(GameKind::Janggi),
    );
    let text = screen(&app, 80, 24);
    assert!(
        text.contains('차') && text.contains('졸') && text.contains('병'),
        "{text}"
    );
    // The settings offer it by name (and "한자" no longer claims Hangul).
    assert_eq!(Language::Korean.text(Key::GlyphsCjk), "한자");
    assert_eq!(Language::Korean.text(Key::GlyphsHangul), "한글");
}

/// Issue 12 item 17: a config problem too long for the start screen's last line ends in
/// `…`, so the player sees that there is more (`qipan config check` says it all).
#[test]
fn a_long_message_on_the_start_screen_is_cut_with_an_ellipsis() {
    let mut app = App::new(settings(Language::English, GlyphSet::Cjk));
    let detail = "config.toml: line 7, column 9: key \"cpu.level\": expected a whole number from 1 to 10, found \"ten\" (and more words than any terminal line holds)";
    app.show_error(Key::StatusOpenFailed, detail);
    let text = screen(&app, 80, 24);
    let last = text
        .lines()
        .rev()
        .find(|line| line.contains("config.toml"))
        .unwrap();
    assert!(last.contains('…'), "{last}");
}
