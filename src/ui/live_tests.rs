//! Snapshots of the live analysis panel: at 80×24 and 120×40, in CJK with each game's
//! own notation and language, and with `--ascii`. The lines come from the built-in
//! engine limited by nodes (deterministic); the speed is fixed, since it is a clock's.

use super::benchmark::midgame;
use super::*;
use crate::action::Action;
use crate::app::Settings;
use crate::engine::report::SearchReport;
use crate::engine::{Engine, Limits};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::sync::atomic::AtomicBool;
use unicode_width::UnicodeWidthStr;

fn snapshot(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

fn rows(app: &App, width: u16, height: u16) -> Vec<String> {
    let area = Rect::new(0, 0, width, height);
    let mut buffer = Buffer::empty(area);
    render_buffer(app, area, &mut buffer);
    (0..height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < width {
                let symbol = buffer[(x, y)].symbol();
                row.push_str(symbol);
                x += symbol.width().max(1) as u16;
            }
            row
        })
        .collect()
}

/// A midgame with live analysis on and `lines` lines found by a small search.
fn analysed(language: Language, glyphs: GlyphSet, game: GameKind, lines: usize) -> App {
    let settings = Settings {
        language,
        glyphs,
        ..Settings::default()
    };
    let mut app = midgame(settings, game);
    app.update(Action::ToggleLiveAnalysis);
    while app.live.lines < lines {
        app.update(Action::MoreLines);
    }
    while app.live.lines > lines {
        app.update(Action::FewerLines);
    }
    let id = app.live.search.as_ref().expect("a live search").id;
    let limits = Limits {
        nodes: Some(6_000),
        multipv: lines as u32,
        ..Limits::default()
    };
    let game_now = app.play.as_ref().unwrap().game.clone();
    let outcome = Engine::new(1)
        .search_lines(&game_now, limits, &AtomicBool::new(false), &mut |_| {})
        .expect("moves to search");
    let reports = outcome
        .lines
        .iter()
        .map(|info| SearchReport {
            nodes_per_second: 250_000,
            ..SearchReport::from_info(info)
        })
        .collect();
    app.update(Action::LiveFinished {
        search: id,
        lines: reports,
    });
    app.take_effects();
    app
}

#[test]
fn the_live_analysis_panel() {
    for (language, glyphs, game, lines, (width, height)) in [
        (
            Language::Chinese,
            GlyphSet::Cjk,
            GameKind::Xiangqi,
            3,
            (80, 24),
        ),
        (
            Language::Japanese,
            GlyphSet::Cjk,
            GameKind::Shogi,
            3,
            (80, 24),
        ),
        (
            Language::Japanese,
            GlyphSet::Cjk,
            GameKind::Shogi,
            5,
            (120, 40),
        ),
        (
            Language::Korean,
            GlyphSet::Cjk,
            GameKind::Janggi,
            3,
            (80, 24),
        ),
        (
            Language::Korean,
            GlyphSet::Cjk,
            GameKind::Janggi,
            5,
            (120, 40),
        ),
        (
            Language::English,
            GlyphSet::Latin,
            GameKind::Xiangqi,
            5,
            (80, 24),
        ),
        (
            Language::English,
            GlyphSet::Latin,
            GameKind::Shogi,
            3,
            (120, 40),
        ),
    ] {
        let app = analysed(language, glyphs, game, lines);
        let screen = rows(&app, width, height);
        let text = screen.join("\n");
        // The best move is named in the panel and drawn on the board.
        let best = app.live.best_move().expect("a best move");
        assert!(app.live.shown.len() == lines, "{text}");
        assert!(best != crate::rules::Move::default());
        for row in &screen {
            assert_eq!(row.width(), usize::from(width), "{row}");
        }
        if glyphs == GlyphSet::Latin {
            assert!(text.is_ascii(), "--ascii draws only ASCII:\n{text}");
        }
        let name =
            format!("live_{game:?}_{language:?}_{lines}_lines_{width}x{height}").to_lowercase();
        insta::assert_snapshot!(name, snapshot(&app, width, height));
    }
}

#[test]
fn the_panel_says_why_it_waits_and_marks_the_best_move_on_the_board() {
    // Waiting for the CPU.
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(Settings::default(), options);
    app.update(Action::ToggleLiveAnalysis);
    let mv = crate::ui::benchmark::parse_move(app.play.as_ref().unwrap().game.position(), "h3e3")
        .unwrap();
    app.update(Action::ClickSquare(mv.from));
    app.update(Action::ClickSquare(mv.to));
    let text = rows(&app, 80, 24).join("\n");
    assert!(text.contains("Waiting: the CPU is thinking"), "{text}");
    insta::assert_snapshot!("live_waiting_for_the_cpu_80x24", snapshot(&app, 80, 24));
    // The best move's squares take the best_move style; off, no square does.
    let mut app = analysed(Language::English, GlyphSet::Cjk, GameKind::Shogi, 1);
    let area = Rect::new(0, 0, 120, 40);
    let theme = app_theme(&app, GameKind::Shogi);
    let marked = |app: &App| {
        let mut buffer = Buffer::empty(area);
        render_buffer(app, area, &mut buffer);
        let layout = game_layout(GameKind::Shogi, app.settings.glyphs, area).unwrap();
        let board = layout.board;
        (board.top()..board.bottom())
            .flat_map(|y| (board.left()..board.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| buffer[(x, y)].bg == theme.best_move.bg.unwrap())
            .count()
    };
    assert!(marked(&app) > 0, "the best move is drawn");
    app.update(Action::ToggleLiveAnalysis);
    assert_eq!(marked(&app), 0);
}
