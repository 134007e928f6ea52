//! The terminal: raw mode, alternate screen and mouse capture, restored on
//! every way out (quit, Ctrl-C, SIGTERM/SIGHUP on Unix, Ctrl-Break and closing the
//! console on Windows, panic); the event loop with a tick; the CPU worker threads.

use crate::app::keymap::action_for_key;
use crate::app::records::SaveTarget;
use crate::app::{Action, App, Effect, Overlay, Question};
use crate::i18n::Key;
use crate::record::{autosave, library, Format, GameRecord};
use crate::rules::any::GameKind;
use crate::ui::{self, board::HitTarget};
use crate::workers::{self, EnginePool, ExternalSearch, LiveSearch};
use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How often the app gets a [`Action::Tick`].
const TICK: Duration = Duration::from_millis(100);

/// Puts the terminal back as it was. Safe to call more than once.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
}

/// Restores the terminal when dropped, whatever way the loop ends.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Runs the interactive client until the user quits.
pub fn run(mut app: App) -> io::Result<()> {
    // A request to end (a signal, the console closing) only sets a flag; the loop sees
    // it within one tick and leaves through the guard, so the terminal is restored and
    // the last autosave written in the main thread.
    let terminate = Arc::new(AtomicBool::new(false));
    watch_for_termination(&terminate)?;
    install_panic_hook();
    enable_raw_mode()?;
    let _guard = TerminalGuard;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        cursor::Hide
    )?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let (sender, receiver) = channel();
    let pool = EnginePool::new();
    // Terminal events are read on their own thread: when the terminal goes away,
    // crossterm's reader can spin on end-of-file without returning, and the loop
    // must still see the signal flag and leave.
    let (event_sender, events) = channel();
    thread::spawn(move || {
        while let Ok(event) = event::read() {
            if event_sender.send(event).is_err() {
                break;
            }
        }
    });
    let result = event_loop(
        &mut terminal,
        &mut app,
        &terminate,
        &sender,
        &receiver,
        &events,
        &pool,
    );
    stop_all(&mut app, &sender, &pool);
    // Dropping the pool ends the external engines.
    drop(pool);
    #[cfg(windows)]
    console::finished();
    result
}

/// SIGTERM, SIGHUP and SIGINT set `flag` (Ctrl-C itself arrives as a key in raw mode).
#[cfg(unix)]
fn watch_for_termination(flag: &Arc<AtomicBool>) -> io::Result<()> {
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(signal, Arc::clone(flag))?;
    }
    Ok(())
}

/// Ctrl-C, Ctrl-Break, closing the console window, logging off and shutting down set
/// `flag`.
#[cfg(windows)]
fn watch_for_termination(flag: &Arc<AtomicBool>) -> io::Result<()> {
    console::install(flag)
}

/// Elsewhere only the keys end the client.
#[cfg(not(any(unix, windows)))]
fn watch_for_termination(_flag: &Arc<AtomicBool>) -> io::Result<()> {
    Ok(())
}

/// The Windows console's control events.
#[cfg(windows)]
mod console {
    use std::io;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    use std::time::{Duration, Instant};
    use windows_sys::core::BOOL;
    use windows_sys::Win32::System::Console::{
        SetConsoleCtrlHandler, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
    };

    /// The flag the event loop watches.
    static TERMINATE: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    /// Set once the loop has saved and restored the terminal.
    static FINISHED: AtomicBool = AtomicBool::new(false);

    /// Runs on a thread of its own that Windows starts for each event. For a closing
    /// console Windows ends the process as soon as this returns, so it waits (at most
    /// four seconds, within the five Windows allows) for the loop to finish its work.
    unsafe extern "system" fn handler(event: u32) -> BOOL {
        let Some(flag) = TERMINATE.get() else {
            return 0;
        };
        flag.store(true, Ordering::Relaxed);
        if matches!(
            event,
            CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT
        ) {
            let deadline = Instant::now() + Duration::from_secs(4);
            while !FINISHED.load(Ordering::Relaxed) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        1
    }

    /// Installs the handler that sets `flag`.
    pub fn install(flag: &Arc<AtomicBool>) -> io::Result<()> {
        let _ = TERMINATE.set(Arc::clone(flag));
        // SAFETY: `handler` is a function that lives as long as the program and only
        // touches atomics and a `OnceLock` set before it is installed.
        if unsafe { SetConsoleCtrlHandler(Some(handler), 1) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Tells a waiting handler that the client has finished.
    pub fn finished() {
        FINISHED.store(true, Ordering::Relaxed);
    }
}

/// Stops the CPU and writes the last autosave (with the clocks as they stand now).
fn stop_all(app: &mut App, sender: &Sender<Action>, pool: &EnginePool) {
    app.update(Action::ForceQuit);
    run_effects(app, sender, pool);
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    terminate: &AtomicBool,
    sender: &Sender<Action>,
    receiver: &Receiver<Action>,
    events: &Receiver<Event>,
    pool: &EnginePool,
) -> io::Result<()> {
    let mut next_tick = Instant::now() + TICK;
    let mut drawn_with = (app.settings.language, app.settings.glyphs);
    loop {
        if terminate.load(Ordering::Relaxed) {
            return Ok(());
        }
        while let Ok(action) = receiver.try_recv() {
            app.update(action);
        }
        run_effects(app, sender, pool);
        if app.quit {
            return Ok(());
        }
        // After the language or glyphs change, wide characters give way to narrow ones
        // (and back): the terminal blanks the other half of a wide character in its own
        // colours, so only a whole redraw leaves no holes in the popups.
        let shown_with = (app.settings.language, app.settings.glyphs);
        if needs_full_redraw(drawn_with, shown_with) {
            terminal.clear()?;
        }
        drawn_with = shown_with;
        terminal.draw(|frame| ui::render(app, frame))?;
        let timeout = next_tick.saturating_duration_since(Instant::now());
        let received = match events.recv_timeout(timeout) {
            Ok(event) => Some(event),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
            // The reader stopped: the terminal is gone.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        };
        if let Some(event) = received {
            let area = {
                let size = terminal.size()?;
                Rect::new(0, 0, size.width, size.height)
            };
            if let Some(action) = event_action(app, area, event) {
                app.update(action);
            }
        }
        if Instant::now() >= next_tick {
            app.update(Action::Tick);
            next_tick = Instant::now() + TICK;
        }
    }
}

/// The action of a terminal event on a screen of this size. While the screen is too
/// small to show the game (the "terminal too small" message), only quitting (and the
/// quit question's answer) and resizing do anything: nothing may be played blind.
pub fn event_action(app: &App, area: Rect, event: Event) -> Option<Action> {
    let action = match event {
        Event::Key(key) => action_for_key(app, key),
        Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
            mouse_action(app, area, mouse.column, mouse.row)
        }
        Event::Resize(_, _) => Some(Action::Resize),
        _ => None,
    }?;
    if !ui::too_small(app, area) {
        return Some(action);
    }
    let answering_quit = app.overlay == Some(Overlay::Confirm(Question::Quit));
    match action {
        Action::Quit | Action::ForceQuit | Action::Resize => Some(action),
        Action::Yes | Action::No | Action::Cancel | Action::Select if answering_quit => {
            Some(action)
        }
        _ => None,
    }
}

/// True when the screen must be drawn whole, not by difference: the language or the
/// glyph set changed since the last frame (see the event loop).
pub fn needs_full_redraw(
    before: (crate::i18n::Language, crate::app::GlyphSet),
    now: (crate::i18n::Language, crate::app::GlyphSet),
) -> bool {
    before != now
}

/// The action of a left click at a screen cell.
pub fn mouse_action(app: &App, area: Rect, column: u16, row: u16) -> Option<Action> {
    if app.overlay.is_some() {
        return None;
    }
    if let Some(index) = ui::start_row_at(app, area, row) {
        return Some(Action::ClickStartRow(index));
    }
    match ui::hit_test(app, area, column, row)? {
        HitTarget::Square(square) => Some(Action::ClickSquare(square)),
        HitTarget::Hand(side, index) => Some(Action::ClickHand(side, index)),
    }
}

/// Does the work the app asked for: each CPU search on its own thread (external
/// engines from `pool`); the autosave
/// written (atomically) or removed at [`autosave::default_path`].
pub fn run_effects(app: &mut App, sender: &Sender<Action>, pool: &EnginePool) {
    for effect in app.take_effects() {
        match effect {
            Effect::StartSearch {
                id,
                game,
                limits,
                stop,
                engine,
            } => match engine {
                None => workers::spawn_builtin(id, *game, limits, stop, sender.clone()),
                Some(index) => {
                    let search = ExternalSearch {
                        id,
                        index,
                        spec: app.settings.engines.get(index).cloned(),
                        game: *game,
                        limits,
                        stop,
                        language: app.settings.language,
                    };
                    workers::spawn_external(pool, search, sender.clone());
                }
            },
            Effect::StartLiveAnalysis {
                id,
                game,
                lines,
                node_limit,
                stop,
                engine,
            } => {
                let search = LiveSearch {
                    id,
                    engine: engine.map(|index| (index, app.settings.engines.get(index).cloned())),
                    game: *game,
                    lines,
                    node_limit,
                    stop,
                    language: app.settings.language,
                };
                workers::spawn_live(pool, search, sender.clone());
            }
            Effect::ResetEngines => pool.reset(),
            Effect::Autosave(text) => {
                if let Some(path) = autosave::default_path() {
                    if let Err(error) = autosave::write_atomically(&path, &text) {
                        let detail = match path.parent().filter(|folder| folder.is_file()) {
                            // Say what is wrong, not "File exists (os error 17)".
                            Some(folder) => app
                                .settings
                                .language
                                .format(Key::FolderIsAFile, &[&folder.display().to_string()]),
                            None => format!("{}: {error}", path.display()),
                        };
                        log::error!(target: "files", "autosave: {detail}");
                        app.show_error(Key::StatusAutosaveFailed, &detail);
                    }
                }
            }
            Effect::SaveRecord { record, target } => save_record(app, *record, &target),
            Effect::ListRecords => app.set_record_choices(library::record_files()),
            Effect::OpenRecord(name) => open_record(app, &name),
            Effect::SaveConfig(changes) => {
                let result = match app.config_path.clone() {
                    Some(path) => crate::config::save_to_file(&path, &changes),
                    None => Err(app.text(Key::NoConfigFolder).to_string()),
                };
                app.config_saved(result);
            }
            Effect::Bell => {
                use std::io::Write;
                let mut out = io::stdout();
                let _ = out.write_all(b"\x07").and_then(|()| out.flush());
            }
            Effect::RemoveAutosave => {
                if let Some(path) = autosave::default_path() {
                    if let Err(error) = autosave::remove(&path) {
                        let detail = format!("{}: {error}", path.display());
                        log::error!(target: "files", "autosave: {detail}");
                        app.show_error(Key::StatusAutosaveFailed, &detail);
                    }
                }
            }
        }
    }
}

/// Reads a record named at the open prompt and shows it; a record that breaks off opens
/// up to the problem, an unreadable one leaves the screen as it was with the reason.
pub fn open_record(app: &mut App, name: &str) {
    // A file whose own name ends in `#N` is still that file.
    let whole = library::open_path(name);
    let (path, number) = if whole.exists() {
        (whole, 1)
    } else {
        let (name, number) = library::split_game_number(name);
        (library::open_path(name), number)
    };
    let picked = match crate::record::read_nth_file(&path, number) {
        Ok(picked) => picked,
        Err(error) => {
            log::error!(target: "record", "{error}");
            let text = error.text(app.settings.language);
            return app.show_error(Key::StatusOpenFailed, &text);
        }
    };
    let Some(game) = picked.game else {
        let text = app.settings.language.format(
            Key::StatusNoSuchGame,
            &[
                &path.display().to_string(),
                &number.to_string(),
                &picked.count.to_string(),
            ],
        );
        app.status = Some(crate::app::Status { text, error: true });
        return;
    };
    match game {
        Ok(record) => app.open_record(record, None),
        Err(mut error) => {
            log::warn!(target: "record", "{error}");
            let text = error.text(app.settings.language);
            match error.partial.take() {
                Some(partial) => app.open_record(*partial, Some(&text)),
                None => return app.show_error(Key::StatusOpenFailed, &text),
            }
        }
    }
    app.note_game_of(number, picked.count);
}

/// A path as the user should read it: absolute, with `.` and `..` resolved where the
/// folder exists.
fn full_path(path: &Path) -> String {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Writes a game record, PGN (KIF for shogi) with today's date: to a name typed at the
/// save prompt — never a folder, never a folder that does not exist, and never over an
/// existing file without asking (then [`SaveTarget::Replace`]) — or to the history folder
/// under a name of its own. Says the full path written, or why not.
pub fn save_record(app: &mut App, mut record: GameRecord, target: &SaveTarget) {
    let now = library::local_now();
    if record.header("Date").is_none() {
        record
            .headers
            .push(("Date".to_string(), library::pgn_date(now.date())));
    }
    let format = if record.game.variant().kind() == GameKind::Shogi {
        Format::Kif
    } else {
        Format::Pgn
    };
    let path = match target {
        SaveTarget::Named(name) => {
            let folder = library::games_dir().unwrap_or_else(|| PathBuf::from("."));
            let path = library::save_path(name, &folder, format.extension());
            let shown = full_path(&path);
            let language = app.settings.language;
            let typed = Path::new(name.trim());
            // A name with a folder of its own must name one that exists: a typo never
            // creates folders. (A bare name goes into the games folder, made if missing.)
            let own_folder = typed.is_absolute() || typed.components().count() > 1;
            let as_typed = if own_folder {
                typed.to_path_buf()
            } else {
                folder.join(typed)
            };
            let names_folder = name.trim_end().ends_with(['/', std::path::MAIN_SEPARATOR])
                || as_typed.is_dir()
                || path.is_dir();
            if names_folder {
                let text = language.format(Key::SaveIsFolder, &[&full_path(&as_typed)]);
                return app.show_error(Key::StatusSaveFailed, &text);
            }
            if let Some(parent) = path
                .parent()
                .filter(|parent| own_folder && !parent.is_dir())
            {
                let text = language.format(Key::SaveFolderMissing, &[&full_path(parent)]);
                return app.show_error(Key::StatusSaveFailed, &text);
            }
            if path.exists() {
                return app.ask_to_replace(&shown);
            }
            path
        }
        SaveTarget::Replace(path) => PathBuf::from(path),
        SaveTarget::History => {
            let Some(folder) = library::history_dir() else {
                return;
            };
            // A new file of its own, never one of an earlier game.
            let written = crate::record::write(&record, format).and_then(|text| {
                let variant = record.game.variant().id();
                library::create_history_file(&folder, now, variant, format.extension(), &text)
                    .map_err(|error| format!("{}: {error}", folder.display()))
            });
            if let Err(error) = written {
                app.show_error(Key::StatusSaveFailed, &error);
            }
            return;
        }
    };
    let written = crate::record::write(&record, format).and_then(|text| {
        autosave::write_atomically(&path, &text)
            .map_err(|error| format!("{}: {error}", path.display()))
    });
    match (written, target) {
        (Ok(()), SaveTarget::Named(_) | SaveTarget::Replace(_)) => {
            app.report_saved(&full_path(&path))
        }
        (Ok(()), SaveTarget::History) => {}
        (Err(error), _) => {
            log::error!(target: "files", "save: {error}");
            app.show_error(Key::StatusSaveFailed, &error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Settings, StartOptions};
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn only_quit_and_resize_act_while_the_terminal_is_too_small() {
        let app = App::with_game(
            Settings::default(),
            StartOptions::for_game(GameKind::Janggi),
        );
        let small = Rect::new(0, 0, 30, 8);
        assert!(ui::too_small(&app, small));
        for code in [
            KeyCode::Enter,
            KeyCode::Left,
            KeyCode::Char(':'),
            KeyCode::Char('u'),
        ] {
            assert_eq!(event_action(&app, small, key(code)), None, "{code:?}");
        }
        assert_eq!(
            event_action(&app, small, key(KeyCode::Char('q'))),
            Some(Action::Quit)
        );
        assert_eq!(
            event_action(&app, small, Event::Resize(80, 24)),
            Some(Action::Resize)
        );
        // At a size that shows the board, the keys work again.
        let big = Rect::new(0, 0, 80, 24);
        assert!(!ui::too_small(&app, big));
        assert_eq!(
            event_action(&app, big, key(KeyCode::Enter)),
            Some(Action::Select)
        );
    }
}
