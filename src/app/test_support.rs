//! Helpers the app's key-sequence tests share.

use super::{Action, App, Play};

/// The game in progress (a test that calls this has started one).
pub(super) fn play(app: &App) -> &Play {
    app.play.as_ref().expect("a game")
}

/// Sends `actions` to the app in order, as key presses would.
pub(super) fn press(app: &mut App, actions: &[Action]) {
    for action in actions {
        app.update(action.clone());
    }
}

/// The status line's text ("" when there is none).
pub(super) fn status(app: &App) -> String {
    app.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}
