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
