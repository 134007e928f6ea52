//! The save prompt (issue 18 item 3): it asks before replacing a file, refuses folders
//! and folders that do not exist with a clear message, and says the full path written.

mod scratch;

use qipan::app::records::SaveTarget;
use qipan::app::{Action, App, Effect, Overlay, Question, Settings, StartOptions};
use qipan::rules::any::GameKind;
use qipan::tui::save_record;

/// A fresh folder for one test, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    scratch::folder(&format!("qipan-save-{name}"))
}

fn new_app() -> App {
    App::with_game(
        Settings::default(),
        StartOptions::for_game(GameKind::Xiangqi),
    )
}

fn save(app: &mut App, name: &str) {
    let record = app.game_record().expect("a game");
    save_record(app, record, &SaveTarget::Named(name.to_string()));
}

fn status(app: &App) -> String {
    app.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn an_existing_file_is_replaced_only_when_the_player_agrees() {
    let scratch_folder = scratch("overwrite");
    let folder = scratch_folder.path();
    let path = folder.join("mine.pgn");
    std::fs::write(&path, "precious").unwrap();
    let mut app = new_app();
    save(&mut app, path.to_str().unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Overwrite)));
    let full = std::fs::canonicalize(&path).unwrap().display().to_string();
    assert_eq!(app.save_to_replace.as_deref(), Some(full.as_str()));
    // No: the file stays as it was.
    app.update(Action::No);
    assert_eq!(app.overlay, None);
    assert!(app
        .take_effects()
        .iter()
        .all(|e| !matches!(e, Effect::SaveRecord { .. })));
    // Yes: the record replaces it, and the full path is said.
    save(&mut app, path.to_str().unwrap());
    app.update(Action::Yes);
    let (record, target) = app
        .take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::SaveRecord { record, target } => Some((record, target)),
            _ => None,
        })
        .expect("a save after yes");
    save_record(&mut app, *record, &target);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("[Game \"Chinese Chess\"]"));
    assert!(status(&app).contains(&full), "{}", status(&app));
}

#[test]
fn folders_are_refused_and_missing_folders_never_made() {
    let scratch_folder = scratch("folders");
    let folder = scratch_folder.path();
    for name in [
        folder.display().to_string(),
        format!("{}/", folder.display()),
        format!("{}/.", folder.display()),
        "/".to_string(),
    ] {
        let mut app = new_app();
        save(&mut app, &name);
        let text = status(&app);
        assert!(text.contains("is a folder"), "{name}: {text}");
        assert!(app.status.as_ref().unwrap().error);
    }
    let missing = folder.join("no").join("such").join("game.pgn");
    let mut app = new_app();
    save(&mut app, missing.to_str().unwrap());
    assert!(status(&app).contains("does not exist"), "{}", status(&app));
    assert!(!folder.join("no").exists());
    // A new file: written, and the status names its full path.
    let mut app = new_app();
    let path = folder.join("new");
    save(&mut app, path.to_str().unwrap());
    let written = folder.join("new.pgn");
    assert!(written.is_file());
    let full = std::fs::canonicalize(&written)
        .unwrap()
        .display()
        .to_string();
    assert!(status(&app).contains(&full), "{}", status(&app));
}
