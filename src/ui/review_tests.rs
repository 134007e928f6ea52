//! Snapshots of the review (issue 13): the move list with its marks and the evaluation
//! graph at 80×24 and 120×40, in CJK and `--ascii`, and the exercise panel of "learn
//! from your mistakes". The sample games are analysed with a small node budget, so the
//! marks and the curve are the same every time.

use super::benchmark::midgame;
use super::*;
use crate::action::Action;
use crate::analysis::Budget;
use crate::app::{Effect, Settings};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn snapshot(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

/// A sample midgame (the xiangqi one gives a cannon away on move 7), analysed.
fn analysed(language: Language, glyphs: GlyphSet, game: GameKind) -> App {
    let settings = Settings {
        language,
        glyphs,
        ..Settings::default()
    };
    let mut app = midgame(settings, game);
    app.analysis_budget = Budget::Nodes(20_000);
    app.take_effects();
    app.update(Action::AnalyseGame);
    for effect in app.take_effects() {
        if let Effect::StartAnalysis(job) = effect {
            let mut answers = Vec::new();
            crate::workers::run_analysis(*job, None, language, &mut |a| answers.push(a));
            for action in answers {
                app.update(action);
            }
        }
    }
    assert!(!app.analysis_running());
    // Shown a little before the end, so the cursor is inside the graph.
    app.update(Action::HistoryBack);
    app.update(Action::HistoryBack);
    app.status = None;
    app
}

fn assert_ascii(screen: &str) {
    assert!(
        screen.is_ascii(),
        "not ASCII: {:?}\n{screen}",
        screen.chars().find(|c| !c.is_ascii())
    );
}

#[test]
fn the_review_of_a_xiangqi_game_in_cjk() {
    let app = analysed(Language::Chinese, GlyphSet::Cjk, GameKind::Xiangqi);
    let small = snapshot(&app, 80, 24);
    assert!(small.contains("形势"), "{small}");
    assert!(small.contains('?'), "{small}");
    insta::assert_snapshot!("review_xiangqi_chinese_cjk_80x24", small);
    let large = snapshot(&app, 120, 40);
    assert!(large.contains("形势"), "{large}");
    insta::assert_snapshot!("review_xiangqi_chinese_cjk_120x40", large);
}

#[test]
fn the_review_of_a_xiangqi_game_in_ascii() {
    let app = analysed(Language::English, GlyphSet::Latin, GameKind::Xiangqi);
    let small = snapshot(&app, 80, 24);
    assert_ascii(&small);
    assert!(small.contains("Evaluation"), "{small}");
    assert!(small.contains('#'), "{small}");
    insta::assert_snapshot!("review_xiangqi_english_ascii_80x24", small);
    let large = snapshot(&app, 120, 40);
    assert_ascii(&large);
    insta::assert_snapshot!("review_xiangqi_english_ascii_120x40", large);
}

#[test]
fn the_review_of_a_shogi_game_reads_its_kif_scores() {
    let app = analysed(Language::Japanese, GlyphSet::Cjk, GameKind::Shogi);
    let large = snapshot(&app, 120, 40);
    assert!(large.contains("形勢"), "{large}");
    insta::assert_snapshot!("review_shogi_japanese_cjk_120x40", large);
    let small = snapshot(&app, 80, 24);
    insta::assert_snapshot!("review_shogi_japanese_cjk_80x24", small);
}

#[test]
fn the_review_of_a_janggi_game_in_korean() {
    let app = analysed(Language::Korean, GlyphSet::Hangul, GameKind::Janggi);
    let small = snapshot(&app, 80, 24);
    insta::assert_snapshot!("review_janggi_korean_hangul_80x24", small);
}

#[test]
fn the_exercise_panel() {
    for (language, glyphs, name) in [
        (Language::Korean, GlyphSet::Cjk, "learn_xiangqi_korean_cjk"),
        (
            Language::English,
            GlyphSet::Latin,
            "learn_xiangqi_english_ascii",
        ),
    ] {
        let mut app = analysed(language, glyphs, GameKind::Xiangqi);
        app.update(Action::Learn);
        assert!(app.learning(), "{:?}", app.status);
        app.update(Action::Hint);
        app.update(Action::Hint);
        for (width, height) in [(80, 24), (120, 40)] {
            let screen = snapshot(&app, width, height);
            if glyphs == GlyphSet::Latin {
                assert_ascii(&screen);
            }
            insta::assert_snapshot!(format!("{name}_{width}x{height}"), screen);
        }
    }
}
