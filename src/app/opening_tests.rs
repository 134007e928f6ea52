//! Opening a record reads it on a worker thread (issue 18 item 8): the app shows the
//! progress, Esc cancels without touching the game on screen, quitting works while the
//! worker reads, and a FIFO or a device cannot hold anything up. The tests drive the
//! open prompt as a player does and wait for the worker's messages themselves.

use super::*;
use crate::record::games::ReadProgress;
use crate::record::library::OpenRequest;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

/// A fresh folder for this test's files.
fn folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("qipan-opening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// A PGN file of `games` xiangqi games (game N has N moves, at most four), padded with
/// a long comment so it takes several chunks to read.
fn pgn_file(folder: &Path, games: usize) -> PathBuf {
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10"];
    let mut text = String::new();
    for game in 1..=games {
        text.push_str(&format!(
            "[Event \"game {game}\"]\n[Game \"Chinese Chess\"]\n\n"
        ));
        text.push_str(&format!("{{{}}}\n", "padding ".repeat(40_000)));
        let line = moves[..game.min(moves.len())].join(" ");
        text.push_str(&format!("1. {line} *\n\n"));
    }
    let path = folder.join("many.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

/// Types `name` at the open prompt and presses Enter; returns what the app asked the
/// event loop to read.
fn open_by_prompt(app: &mut App, name: &str) -> (u64, OpenRequest, Arc<AtomicBool>) {
    app.update(Action::OpenFile);
    app.take_effects();
    for c in name.chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
    app.take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::OpenRecord { id, request, stop } => Some((id, request, stop)),
            _ => None,
        })
        .expect("the open prompt asks for a read")
}

/// Feeds the worker's messages to the app as the event loop does, until it answers
/// [`Action::RecordRead`] (waiting on the channel, never on a clock). Returns the
/// progress reports and the status lines they showed.
fn deliver_until_read(app: &mut App, receiver: &Receiver<Action>) -> Vec<(ReadProgress, String)> {
    let mut reports = Vec::new();
    loop {
        // The timeout only turns a worker that never answers into a failure.
        let action = receiver
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the worker answers");
        let done = matches!(action, Action::RecordRead { .. });
        let progress = match &action {
            Action::RecordProgress { progress, .. } => Some(*progress),
            _ => None,
        };
        app.update(action);
        if let Some(progress) = progress {
            reports.push((progress, app.status.clone().unwrap().text));
        }
        if done {
            return reports;
        }
    }
}

fn moves_of(app: &App) -> Vec<String> {
    let game = &app.play.as_ref().expect("a game").game;
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(position, &mv)| position.move_to_uci(mv))
        .collect()
}

fn status_of(app: &App) -> Status {
    app.status.clone().expect("a status line")
}

/// A finished xiangqi game (one move, resigned): a record may be opened over it.
fn finished_game() -> App {
    let mut app = App::with_game(
        Settings::default(),
        StartOptions::for_variant(crate::rules::any::Variant::Xiangqi),
    );
    let mv = app.play.as_ref().unwrap().game.position().parse_uci("h3e3");
    app.play_move(mv.unwrap());
    app.update(Action::Resign);
    app.update(Action::Yes);
    app.overlay = None;
    app.take_effects();
    app
}

#[test]
fn a_record_is_read_on_a_worker_with_progress_then_opened() {
    let folder = folder("progress");
    let path = pgn_file(&folder, 3);
    let mut app = App::new(Settings::default());
    let (id, request, stop) = open_by_prompt(&mut app, &format!("{}#2", path.display()));
    // Before the worker has said anything, the status line says what is read and how
    // to cancel; the start screen is still there.
    let status = status_of(&app);
    assert!(status.text.starts_with("Reading "), "{}", status.text);
    assert!(status.text.contains("Esc cancels"), "{}", status.text);
    assert!(app.play.is_none() && app.opening.is_some());
    let (sender, receiver) = channel();
    let worker = crate::workers::spawn_record_reader(id, request, stop, sender);
    let reports = deliver_until_read(&mut app, &receiver);
    worker.join().unwrap();
    // Bytes first (the first at once), then the games found.
    let Some((ReadProgress::Bytes { read, total }, shown)) = reports.first() else {
        panic!("no bytes reported: {reports:?}");
    };
    assert!(*read > 0 && *total >= *read, "{read} of {total}");
    assert!(shown.contains(" MiB"), "{shown}");
    let (last, shown) = reports.last().unwrap();
    assert_eq!(*last, ReadProgress::Games(3));
    assert!(shown.contains("3 games found"), "{shown}");
    // Game 2 is open, and the status line says which of how many.
    assert!(app.opening.is_none());
    assert_eq!(moves_of(&app), ["h3e3", "h10g8"]);
    let status = status_of(&app);
    assert!(!status.error);
    assert!(status.text.contains("Game 2 of 3"), "{}", status.text);
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn esc_cancels_the_read_and_leaves_the_current_game_untouched() {
    let folder = folder("cancel");
    let path = pgn_file(&folder, 2);
    let mut app = finished_game();
    let before = moves_of(&app);
    let (id, request, stop) = open_by_prompt(&mut app, &path.display().to_string());
    // While it reads, keys that would change the game wait.
    for action in [Action::Undo, Action::NewGame, Action::HistoryStart] {
        app.update(action);
    }
    assert_eq!(moves_of(&app), before);
    assert_eq!(app.play.as_ref().unwrap().review, None);
    app.update(Action::Cancel);
    assert!(app.opening.is_none());
    assert!(stop.load(Ordering::Relaxed), "the worker is told to stop");
    let cancelled = status_of(&app);
    assert!(cancelled.text.contains("cancelled"), "{}", cancelled.text);
    // The worker told to stop sends nothing at all.
    let (sender, receiver) = channel();
    crate::workers::spawn_record_reader(id, request.clone(), Arc::clone(&stop), sender)
        .join()
        .unwrap();
    assert!(receiver.try_recv().is_err());
    // A worker that finished the moment Esc was pressed: its answer is stale and
    // changes nothing (nothing half-read is ever applied).
    let (sender, receiver) = channel();
    crate::workers::spawn_record_reader(id, request, Arc::new(AtomicBool::new(false)), sender)
        .join()
        .unwrap();
    let late: Vec<Action> = receiver.try_iter().collect();
    assert!(late.iter().any(|a| matches!(a, Action::RecordRead { .. })));
    for action in late {
        app.update(action);
    }
    assert_eq!(moves_of(&app), before);
    assert_eq!(status_of(&app), cancelled);
    // And the keys work again.
    app.update(Action::HistoryStart);
    assert_eq!(app.play.as_ref().unwrap().review, Some(0));
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn quitting_works_while_a_record_is_read() {
    for quit in [Action::Quit, Action::ForceQuit] {
        let mut app = App::new(Settings::default());
        let (_, _, stop) = open_by_prompt(&mut app, "whatever.pgn");
        app.update(quit.clone());
        assert!(app.quit, "{quit:?}");
        assert!(stop.load(Ordering::Relaxed), "{quit:?}");
        assert!(app.opening.is_none());
    }
}

/// The reader stops at its next check when told to: after a chunk, or before the file
/// is parsed, and gives nothing back.
#[test]
fn the_reader_stops_at_its_next_check() {
    let folder = folder("stop");
    let path = pgn_file(&folder, 4);
    let request = OpenRequest::File {
        path: path.clone(),
        number: 1,
    };
    let mut calls = 0;
    let read = crate::record::library::read_for_opening(&request, &mut |_| {
        calls += 1;
        false
    });
    assert!(read.is_none());
    assert_eq!(calls, 1, "stopped after the first chunk");
    // Stopped once the games are counted: the game is not read.
    let read = crate::record::library::read_for_opening(&request, &mut |progress| {
        !matches!(progress, ReadProgress::Games(_))
    });
    assert!(read.is_none());
    // Told to go on, it reads game 1 and counts four.
    let read = crate::record::library::read_for_opening(&request, &mut |_| true).unwrap();
    assert_eq!(read.picked.unwrap().count, 4);
    std::fs::remove_dir_all(folder).unwrap();
}

/// A FIFO (which would block the open until a writer comes) and `/dev/zero` (which never
/// ends) are refused by the worker at once; the app says why and stays as it was.
#[cfg(unix)]
#[test]
fn a_fifo_and_a_device_are_refused_without_reading() {
    let folder = folder("fifo");
    let fifo = folder.join("pipe.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|status| status.success());
    let mut names = vec!["/dev/zero".to_string()];
    if made {
        names.push(fifo.display().to_string());
    } else {
        eprintln!("skipping the FIFO: mkfifo is not available");
    }
    for name in names {
        if !Path::new(&name).exists() {
            continue;
        }
        let mut app = finished_game();
        let before = moves_of(&app);
        let (id, request, stop) = open_by_prompt(&mut app, &name);
        let (sender, receiver) = channel();
        let worker = crate::workers::spawn_record_reader(id, request, stop, sender);
        deliver_until_read(&mut app, &receiver);
        worker.join().unwrap();
        let status = status_of(&app);
        assert!(status.error, "{name}: {}", status.text);
        assert!(
            status.text.contains("not a regular file"),
            "{name}: {}",
            status.text
        );
        assert_eq!(moves_of(&app), before);
    }
    std::fs::remove_dir_all(folder).unwrap();
}

/// A record past the size cap is refused with the cap named, before it is read whole.
#[test]
fn a_record_past_the_cap_is_refused_with_a_clear_message() {
    let folder = folder("cap");
    let path = folder.join("huge.pgn");
    let file = std::fs::File::create(&path).unwrap();
    // A sparse file: large to look at, nothing on disk.
    file.set_len(crate::record::games::MAX_RECORD_BYTES + 1)
        .unwrap();
    drop(file);
    let mut app = App::new(Settings::default());
    let (id, request, stop) = open_by_prompt(&mut app, &path.display().to_string());
    let (sender, receiver) = channel();
    let worker = crate::workers::spawn_record_reader(id, request, stop, sender);
    let reports = deliver_until_read(&mut app, &receiver);
    worker.join().unwrap();
    assert!(reports.is_empty(), "nothing was read: {reports:?}");
    let status = status_of(&app);
    assert!(
        status.error && status.text.contains("64 MiB"),
        "{}",
        status.text
    );
    assert!(app.play.is_none());
    std::fs::remove_dir_all(folder).unwrap();
}

/// The progress and the cancel are said in every language.
#[test]
fn the_progress_is_said_in_every_language() {
    use crate::i18n::Language;
    for language in [
        Language::Korean,
        Language::English,
        Language::Chinese,
        Language::Japanese,
    ] {
        let mut app = App::new(Settings {
            language,
            ..Settings::default()
        });
        let (id, _, _) = open_by_prompt(&mut app, "기보.pgn");
        let starting = status_of(&app).text;
        app.update(Action::RecordProgress {
            opening: id,
            progress: ReadProgress::Bytes {
                read: 3 << 20,
                total: 12 << 20,
            },
        });
        let bytes = status_of(&app).text;
        assert!(bytes.contains("3.0") && bytes.contains("12.0"), "{bytes}");
        app.update(Action::RecordProgress {
            opening: id,
            progress: ReadProgress::Games(8000),
        });
        let games = status_of(&app).text;
        assert!(games.contains("8000"), "{games}");
        app.update(Action::Cancel);
        let cancelled = status_of(&app).text;
        for text in [&starting, &bytes, &games, &cancelled] {
            assert!(text.contains("기보.pgn"), "{language:?}: {text}");
        }
        if language != Language::English {
            assert!(!cancelled.contains("cancelled"), "{cancelled}");
        }
    }
}

/// The progress is on screen at 80×24, on the start screen and over a game, and in
/// `--ascii` mode every character of it is ASCII.
#[test]
fn the_progress_is_drawn_on_the_status_line() {
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    for glyphs in [GlyphSet::Cjk, GlyphSet::Latin] {
        for mut app in [App::new(Settings::default()), finished_game()] {
            app.settings.glyphs = glyphs;
            let (id, _, _) = open_by_prompt(&mut app, "big.kif");
            app.update(Action::RecordProgress {
                opening: id,
                progress: ReadProgress::Bytes {
                    read: 5 << 20,
                    total: 20 << 20,
                },
            });
            let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
            terminal
                .draw(|frame| crate::ui::render(&app, frame))
                .unwrap();
            let screen = terminal.backend().to_string();
            assert!(
                screen.contains("Reading big.kif: 5.0 of 20.0 MiB"),
                "{screen}"
            );
            if glyphs == GlyphSet::Latin {
                assert!(screen.is_ascii(), "{screen}");
            }
        }
    }
}
