//! Snapshots of the variation list and of a move list with variations.

use super::benchmark::midgame;
use super::*;
use crate::action::Action;
use crate::app::Settings;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn snapshot(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

/// A midgame stepped back three plies with another move played there: the old line
/// is a variation beside the new one.
fn branched(language: Language, glyphs: GlyphSet, game: GameKind) -> App {
    let settings = Settings {
        language,
        glyphs,
        ..Settings::default()
    };
    let mut app = midgame(settings, game);
    for _ in 0..3 {
        app.update(Action::HistoryBack);
    }
    let play = app.play.as_ref().unwrap();
    let shown = play.shown_position().clone();
    let taken = play.next_on_line();
    let mut moves = crate::rules::MoveList::new();
    shown.legal_moves(&mut moves);
    let other = *moves
        .iter()
        .find(|&&m| Some(m) != taken && !m.is_pass() && !m.is_drop())
        .expect("another move");
    app.update(Action::ClickSquare(other.from));
    app.update(Action::ClickSquare(other.to));
    assert_eq!(
        app.play
            .as_ref()
            .unwrap()
            .variations_at(play_ply(&app) - 1)
            .len(),
        2
    );
    app
}

fn play_ply(app: &App) -> usize {
    app.play.as_ref().unwrap().game.moves().len()
}

#[test]
fn the_move_list_marks_positions_with_variations() {
    let app = branched(Language::English, GlyphSet::Latin, GameKind::Xiangqi);
    let screen = snapshot(&app, 80, 24);
    assert!(screen.contains('*'), "{screen}");
    insta::assert_snapshot!("variation_made_xiangqi_latin_80x24", screen);
}

#[test]
fn the_variation_list() {
    for (language, glyphs, game, size) in [
        (
            Language::English,
            GlyphSet::Latin,
            GameKind::Xiangqi,
            (80, 24),
        ),
        (Language::Korean, GlyphSet::Cjk, GameKind::Janggi, (80, 24)),
        (
            Language::Japanese,
            GlyphSet::Cjk,
            GameKind::Shogi,
            (120, 40),
        ),
        (
            Language::Chinese,
            GlyphSet::Cjk,
            GameKind::Xiangqi,
            (80, 24),
        ),
    ] {
        let mut app = branched(language, glyphs, game);
        app.update(Action::HistoryBack);
        app.update(Action::Variations);
        let (width, height) = size;
        let name = format!("variations_{game:?}_{language:?}_{width}x{height}").to_lowercase();
        insta::assert_snapshot!(name, snapshot(&app, width, height));
    }
}
