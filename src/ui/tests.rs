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
