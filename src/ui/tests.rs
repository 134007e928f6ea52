//! Snapshot tests of whole screens (ratatui `TestBackend` + insta).

use super::benchmark::midgame;
use super::*;
use crate::app::Settings;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn snapshot(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

const GAMES: [GameKind; 3] = [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi];
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn settings(glyphs: GlyphSet) -> Settings {
    Settings {
        language: Language::English,
        glyphs,
        ..Settings::default()
    }
}

#[test]
fn start_screens() {
    for game in GAMES {
        for glyphs in [GlyphSet::Cjk, GlyphSet::Latin] {
            for (width, height) in SIZES {
                let mut app = App::new(settings(glyphs));
                app.options = StartOptions::for_game(game);
                let name = format!("start_{game:?}_{glyphs:?}_{width}x{height}").to_lowercase();
                insta::assert_snapshot!(name, snapshot(&app, width, height));
            }
        }
    }
}

#[test]
fn midgames() {
    for game in GAMES {
        for glyphs in [GlyphSet::Cjk, GlyphSet::Latin] {
            for (width, height) in SIZES {
                let app = midgame(settings(glyphs), game);
                let name = format!("midgame_{game:?}_{glyphs:?}_{width}x{height}").to_lowercase();
                insta::assert_snapshot!(name, snapshot(&app, width, height));
            }
        }
    }
}

#[test]
fn korean_midgame_with_help_and_game_over() {
    let korean = Settings {
        language: Language::Korean,
        glyphs: GlyphSet::Cjk,
        ..Settings::default()
    };
    let mut app = midgame(korean, GameKind::Janggi);
    app.update(crate::app::Action::Help);
    insta::assert_snapshot!("help_janggi_korean_100x30", snapshot(&app, 100, 30));
    app.update(crate::app::Action::Cancel);
    app.update(crate::app::Action::Resign);
    app.update(crate::app::Action::Yes);
    insta::assert_snapshot!("game_over_janggi_korean_80x24", snapshot(&app, 80, 24));
}

#[test]
fn any_size_renders_without_panicking() {
    for game in GAMES {
        for glyphs in GlyphSet::ALL {
            let mut app = midgame(settings(glyphs), game);
            for (width, height) in [
                (1, 1),
                (10, 5),
                (40, 12),
                (79, 23),
                (80, 24),
                (200, 60),
                (467, 145),
            ] {
                snapshot(&app, width, height);
            }
            app.update(crate::app::Action::Help);
            snapshot(&app, 20, 8);
            app.update(crate::app::Action::Cancel);
            app.update(crate::app::Action::OpenPrompt);
            snapshot(&app, 30, 10);
        }
    }
}

#[test]
fn too_small_says_what_is_needed() {
    let app = midgame(settings(GlyphSet::Cjk), GameKind::Xiangqi);
    let screen = snapshot(&app, 60, 20);
    assert!(screen.contains("too small"), "{screen}");
}

#[test]
fn clicks_find_squares() {
    let app = midgame(settings(GlyphSet::Cjk), GameKind::Shogi);
    let area = Rect::new(0, 0, 80, 24);
    let layout = game_layout(GameKind::Shogi, GlyphSet::Cjk, area).unwrap();
    let mut found = 0;
    for row in layout.board.y..layout.board.bottom() {
        for column in layout.board.x..layout.board.right() {
            if let Some(HitTarget::Square(_)) = hit_test(&app, area, column, row) {
                found += 1;
            }
        }
    }
    assert!(found >= 81, "{found}");
}

#[test]
fn a_frame_at_120_by_40_is_fast() {
    for (name, micros) in benchmark::frame_times(settings(GlyphSet::Cjk), 120, 40) {
        // Generous bound for debug builds on a busy machine; the release figure is far lower.
        assert!(micros < 20_000.0, "{name}: {micros} µs");
    }
}

/// A midgame with clocks: the side to move in byoyomi (its last period when `last`),
/// the other with main time left.
fn timed_midgame(settings: Settings, game: GameKind, last: bool) -> App {
    use crate::clock::{Clock, SideTime, TimeSource};
    use std::time::Duration;
    let mut app = midgame(settings, game);
    app.time = TimeSource::manual();
    let now = app.now();
    let play = app.play.as_mut().unwrap();
    let mover = play.game.position().side_to_move();
    let mut times = [SideTime {
        main: Duration::from_secs(187),
        periods: 30,
        period: Duration::from_secs(30),
    }; 2];
    times[mover.index()] = SideTime {
        main: Duration::ZERO,
        periods: if last { 1 } else { 29 },
        period: Duration::from_secs(30),
    };
    let mut clock = Clock::with_times(crate::clock::GUNGJANGGI_DEFAULT, times);
    clock.start(mover, now);
    play.clock = Some(clock);
    // 23 s into the period: 7 s left, the warning style.
    app.time.advance(Duration::from_secs(23));
    app
}

#[test]
fn timed_games_show_both_clocks_at_80x24() {
    for game in GAMES {
        for glyphs in [GlyphSet::Cjk, GlyphSet::Latin] {
            let app = timed_midgame(settings(glyphs), game, false);
            let screen = snapshot(&app, 80, 24);
            assert!(screen.contains("3:07"), "{screen}");
            // With --ascii the period count is written `x29` (every cell ASCII).
            let periods = if glyphs == GlyphSet::Latin {
                "7s x29"
            } else {
                "7s ×29"
            };
            assert!(screen.contains(periods), "{screen}");
            let name = format!("timed_{game:?}_{glyphs:?}_80x24").to_lowercase();
            insta::assert_snapshot!(name, screen);
        }
    }
}

#[test]
fn the_last_period_and_seconds_use_the_warning_style() {
    let app = timed_midgame(settings(GlyphSet::Cjk), GameKind::Janggi, true);
    let area = Rect::new(0, 0, 80, 24);
    let mut buffer = Buffer::empty(area);
    render_buffer(&app, area, &mut buffer);
    let warning = Theme::for_game(GameKind::Janggi).warning;
    let text: String = (0..80)
        .flat_map(|x| (0..24).map(move |y| (x, y)))
        .filter(|&(x, y)| Some(buffer[(x, y)].bg) == warning.bg)
        .map(|(x, y)| buffer[(x, y)].symbol().to_string())
        .collect::<Vec<_>>()
        .join("");
    assert!(text.contains("7s"), "warning cells: {text:?}");
    // The other side's clock, with main time left, is not in the warning style.
    assert!(!text.contains("3:07"), "{text:?}");
}

#[test]
fn paused_and_time_loss_are_shown_in_both_languages() {
    for language in Language::ALL {
        let settings = Settings {
            language,
            glyphs: GlyphSet::Cjk,
            ..Settings::default()
        };
        let mut app = timed_midgame(settings, GameKind::Janggi, true);
        app.update(crate::app::Action::Pause);
        let screen = snapshot(&app, 80, 24);
        assert!(screen.contains(language.text(Key::Paused)), "{screen}");
        app.update(crate::app::Action::Pause);
        app.time.advance(std::time::Duration::from_secs(60));
        app.update(crate::app::Action::Tick);
        let mover = app.play.as_ref().unwrap().game.position().side_to_move();
        let loser = side_name(language, GlyphSet::Cjk, GameKind::Janggi, mover);
        let expected = language.format(Key::RanOutOfTime, &[&loser]);
        let screen = snapshot(&app, 100, 30);
        assert!(screen.contains(&expected), "{expected}\n{screen}");
    }
}

#[test]
fn timed_games_render_at_any_size_and_wrap_the_clock_when_narrow() {
    for game in GAMES {
        for language in Language::ALL {
            let settings = Settings {
                language,
                glyphs: GlyphSet::CjkWideLines,
                ..Settings::default()
            };
            let app = timed_midgame(settings, game, true);
            for (width, height) in [(1, 1), (40, 12), (79, 23), (80, 24), (467, 145)] {
                let area = Rect::new(0, 0, width, height);
                let mut buffer = Buffer::empty(area);
                render_buffer(&app, area, &mut buffer);
            }
        }
    }
    // At 75 columns the shogi panel is too narrow for name and clock on one line.
    let app = timed_midgame(settings(GlyphSet::Cjk), GameKind::Shogi, false);
    let screen = snapshot(&app, 75, 24);
    let clock_line = screen
        .lines()
        .find(|l| l.contains("7s ×29"))
        .expect(&screen);
    assert!(!clock_line.contains("Sente"), "{screen}");
}

/// Every colour on screen comes from the theme: with `NO_COLOR` no cell has one, and
/// the two sides' pieces still look different (bold against reversed).
#[test]
fn no_color_draws_without_colours_and_keeps_sides_apart() {
    use crate::theme::{ColorDepth, ColorMode};
    use ratatui::style::Color;
    for game in GAMES {
        let mut app = midgame(settings(GlyphSet::Cjk), game);
        let mode = ColorMode {
            depth: ColorDepth::TrueColor,
            no_color: true,
        };
        app.set_theme("wood", None, mode);
        app.update(crate::app::Action::Help);
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        terminal.draw(|frame| render(&app, frame)).unwrap();
        let buffer = terminal.backend().buffer();
        for cell in buffer.content() {
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{game:?}");
        }
        let theme = app_theme(&app, game);
        assert_ne!(theme.first_side, theme.second_side);
    }
}

/// The theme chosen reaches the board: the wood and dark boards differ in colour.
#[test]
fn the_board_is_drawn_in_the_chosen_theme() {
    use crate::theme::ColorMode;
    let draw = |theme: &str| {
        let mut app = midgame(settings(GlyphSet::Cjk), GameKind::Janggi);
        app.set_theme(theme, None, ColorMode::default());
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        terminal.draw(|frame| render(&app, frame)).unwrap();
        terminal.backend().buffer().clone()
    };
    let (wood, dark) = (draw("wood"), draw("dark"));
    let board_cell = |buffer: &Buffer| {
        buffer
            .content()
            .iter()
            .find(|cell| cell.symbol() == "┼")
            .map(|cell| cell.bg)
    };
    assert_eq!(
        board_cell(&wood),
        Some(ratatui::style::Color::Rgb(222, 184, 135))
    );
    assert_eq!(
        board_cell(&dark),
        Some(ratatui::style::Color::Rgb(38, 38, 38))
    );
}

#[test]
fn settings_screen_in_both_languages() {
    for language in Language::ALL {
        let mut app = midgame(
            Settings {
                language,
                glyphs: GlyphSet::Cjk,
                ..Settings::default()
            },
            GameKind::Xiangqi,
        );
        app.config.language = crate::config::LanguageChoice::Fixed(language);
        app.update(crate::app::Action::Settings);
        app.update(crate::app::Action::Down);
        let name = format!("settings_xiangqi_{language:?}_80x24").to_lowercase();
        insta::assert_snapshot!(name, snapshot(&app, 80, 24));
    }
}

/// With room beside the board, the settings move aside so the theme's preview stays in view.
#[test]
fn settings_leave_the_board_in_view() {
    let mut app = midgame(settings(GlyphSet::Cjk), GameKind::Janggi);
    app.update(crate::app::Action::Settings);
    insta::assert_snapshot!("settings_janggi_game_120x40", snapshot(&app, 120, 40));
    let mut start = App::new(settings(GlyphSet::Cjk));
    start.update(crate::app::Action::Settings);
    insta::assert_snapshot!("settings_start_120x40", snapshot(&start, 120, 40));
}

#[test]
fn help_descriptions_wrap_under_their_own_column() {
    use unicode_width::UnicodeWidthStr;
    let text = "open a record: your saved and finished games, or any PGN/KIF/CSA/.gib file";
    let lines = super::hanging_lines(text, 14, 14, 40);
    assert!(lines.len() > 1, "{lines:?}");
    assert!(lines[0].width() + 14 <= 40, "{lines:?}");
    for line in &lines[1..] {
        assert!(line.width() <= 40, "{lines:?}");
        assert!(line.starts_with(&" ".repeat(14)), "{lines:?}");
        assert!(!line[14..].starts_with(' '), "{lines:?}");
    }
    let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
    assert_eq!(words.join(" "), text);
    // CJK without spaces is cut between characters, each line inside the width.
    let chinese = "將帥不能在同一直線上直接對面否則先走者勝";
    let lines = super::hanging_lines(chinese, 2, 2, 20);
    assert!(lines.iter().all(|l| l.width() <= 20), "{lines:?}");
    assert_eq!(lines[0].width(), 18, "{lines:?}");
    let rejoined: String = lines.iter().map(|l| l.trim_start()).collect();
    assert_eq!(rejoined, chinese);
}
