//! Sample games and the frame-time measurement (`qipan render-bench`).

use crate::app::{App, Settings, StartOptions};
use crate::rules::any::{AnyPosition, GameKind};
use crate::rules::Move;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::time::Instant;

/// A few opening moves of each game, in engine coordinates (USI for shogi),
/// with captures on both sides, for snapshots and the benchmark.
pub fn opening_moves(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Xiangqi => &[
            "h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "e3e7", "c8e7",
        ],
        GameKind::Shogi => &["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f", "8c8d"],
        GameKind::Janggi => &["a4b4", "i7h7", "a1a7", "a10a7"],
    }
}

/// Reads a move written as in [`opening_moves`].
pub fn parse_move(position: &AnyPosition, text: &str) -> Option<Move> {
    position.parse_uci(text).or_else(|| match position {
        AnyPosition::Shogi(shogi) => shogi.parse_usi(text),
        _ => None,
    })
}

/// A hotseat app in the middle of a game: the opening moves played.
pub fn midgame(settings: Settings, game: GameKind) -> App {
    let mut app = App::with_game(settings, StartOptions::for_game(game));
    if let Some(play) = app.play.as_mut() {
        for text in opening_moves(game) {
            let mv = parse_move(play.game.position(), text);
            let played = mv.is_some_and(|mv| play.play_and_record(mv).is_ok());
            assert!(played, "sample move {text} is legal");
        }
        play.cursor = play.game.moves().last().map_or(play.cursor, |m| m.to);
    }
    app
}

/// Mean time to draw one full frame of each sample screen, in microseconds.
pub fn frame_times(settings: Settings, width: u16, height: u16) -> Vec<(String, f64)> {
    let area = Rect::new(0, 0, width, height);
    let mut results = Vec::new();
    let mut screens = vec![("start screen".to_string(), App::new(settings.clone()))];
    for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
        screens.push((
            format!("{game:?} midgame").to_lowercase(),
            midgame(settings.clone(), game),
        ));
    }
    for (name, app) in screens {
        let mut buffer = Buffer::empty(area);
        let iterations = 300;
        // One warm-up frame.
        super::render_buffer(&app, area, &mut buffer);
        let started = Instant::now();
        for _ in 0..iterations {
            buffer.reset();
            super::render_buffer(&app, area, &mut buffer);
        }
        let micros = started.elapsed().as_secs_f64() * 1e6 / f64::from(iterations);
        results.push((name, micros));
    }
    results
}
