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
    clear_for_full_redraw(&mut terminal)?;
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
            clear_for_full_redraw(terminal)?;
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

/// Clears the screen and makes the next draw write every cell, without asking the
/// terminal where its cursor is. Ratatui's `Terminal::clear` asks (`ESC [6n`), but the
/// reply comes back on the input the event thread reads: the screen froze for two
/// seconds, still showing the old value (한자 after choosing 한글), and the program ended
/// with "the cursor position could not be read" when no key followed (issue 12 item 7).
pub fn clear_for_full_redraw<B: ratatui::backend::Backend>(
    terminal: &mut Terminal<B>,
) -> Result<(), B::Error> {
    terminal
        .backend_mut()
        .clear_region(ratatui::backend::ClearType::All)?;
    // After a draw the next buffer is blank and the other holds the last frame: one more
    // swap blanks that one too, so the next draw differs from blank in every drawn cell.
    terminal.swap_buffers();
    Ok(())
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
                None => {
                    let threads = app.config.cpu_threads;
                    workers::spawn_builtin(pool, id, *game, limits, threads, stop, sender.clone())
                }
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
            Effect::StartAnalysis(job) => {
                let spec = job
                    .engine
                    .and_then(|i| app.settings.engines.get(i).cloned());
                workers::spawn_analysis(*job, spec, app.settings.language, sender.clone());
            }
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
                    threads: app.config.cpu_threads,
                    stop,
                    language: app.settings.language,
                };
                workers::spawn_live(pool, search, sender.clone());
            }
            Effect::ResetEngines => pool.reset(),
            Effect::Autosave(text) => {
                if let Some(path) = autosave::default_path() {
                    if let Err(error) = autosave::write_atomically(&path, &text) {
                        // Say what is wrong, not "File exists (os error 17)".
                        let detail = autosave::write_problem(&path, &error, app.settings.language);
                        log::error!(target: "files", "autosave: {detail}");
                        app.show_error(Key::StatusAutosaveFailed, &detail);
                    }
                }
            }
            Effect::SaveRecord { record, target } => save_record(app, *record, &target),
            Effect::ListRecords => app.set_record_choices(library::record_files()),
            Effect::OpenRecord { id, request, stop } => {
                workers::spawn_record_reader(id, request, stop, sender.clone());
            }
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

/// Opens a record named at the open prompt on the calling thread, as the worker of
/// [`Effect::OpenRecord`] would (for tests and tools without an event loop; the app's
/// other waiting effects are dropped). A record that breaks off opens up to the problem,
/// an unreadable one leaves the screen as it was with the reason.
pub fn open_record(app: &mut App, name: &str) {
    app.start_opening(library::OpenRequest::Typed(name.to_string()));
    for effect in app.take_effects() {
        if let Effect::OpenRecord { id, request, .. } = effect {
            if let Some(file) = library::read_for_opening(&request, &mut |_| true) {
                app.record_read(id, file);
            }
        }
    }
}

/// Offers the game autosaved at `path` (if there is one) on the start screen. A damaged
/// file is moved aside (the next game's autosave would otherwise write over it) and
/// what can be read of it is offered all the same, the status line saying in one line
/// what was dropped and where the damaged file went; the sound part is saved as the
/// autosave at once, so it is offered again if not continued now. A file of which
/// nothing can be read is moved aside with the reason shown.
pub fn offer_autosave(app: &mut App, path: &Path) {
    if !path.exists() {
        return;
    }
    let language = app.settings.language;
    let recovered = match autosave::load_recovering(path) {
        Ok(recovered) if recovered.problems.is_empty() => {
            return app.offer_saved_game(recovered.saved)
        }
        Ok(recovered) => recovered,
        Err(error) => {
            log::error!(target: "files", "autosave: {error}");
            let detail = match autosave::keep_aside(path) {
                Ok(aside) => {
                    let kept =
                        language.format(Key::AutosaveKeptAside, &[&aside.display().to_string()]);
                    format!("{error} — {kept}")
                }
                Err(_) => error.to_string(),
            };
            return app.show_error(Key::StatusAutosaveUnreadable, &detail);
        }
    };
    for problem in &recovered.problems {
        log::warn!(target: "files", "autosave: {}", problem.error);
    }
    let aside = match autosave::keep_aside(path) {
        Ok(aside) => aside,
        // Not moved aside: left as it is, and not offered (its autosave would replace it).
        Err(error) => {
            let first = &recovered.problems[0].error;
            let detail = format!("{first} — {}: {error}", path.display());
            return app.show_error(Key::StatusAutosaveUnreadable, &detail);
        }
    };
    if let Err(error) = autosave::save(path, &recovered.saved) {
        log::error!(target: "files", "autosave: {}", autosave::write_problem(path, &error, language));
    }
    let text = language.format(
        Key::AutosaveRestoredPartly,
        &[
            &recovered.dropped_text(language),
            &aside.display().to_string(),
        ],
    );
    app.offer_saved_game(recovered.saved);
    app.status = Some(crate::app::Status { text, error: true });
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
    // A game whose start time is unknown (resumed, opened) is dated by the save.
    if record.game.variant().kind() == GameKind::Shogi {
        if ["開始日時", "対局日", "Date"]
            .iter()
            .all(|key| record.header(key).is_none())
        {
            let date = now.date().strftime("%Y/%m/%d").to_string();
            record.headers.push(("対局日".to_string(), date));
        }
    } else if record.header("Date").is_none() {
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
                    .map_err(|error| {
                        let file = folder.join("game");
                        autosave::write_problem(&file, &error, app.settings.language)
                    })
            });
            if let Err(error) = written {
                app.show_error(Key::StatusSaveFailed, &error);
            }
            return;
        }
    };
    // The bytes the file's extension promises: a `.kif` typed at the prompt is Shift_JIS,
    // and when a name in it has no Shift_JIS form the UTF-8 `.kifu` is written instead
    // (and said), never mojibake.
    let mut path = path;
    let mut moved_for = None;
    let bytes = match crate::record::write_for_file(&record, &path) {
        Err(crate::record::WriteError::Unencodable { character, .. })
            if crate::record::encoding::utf8_sibling(&path) != path =>
        {
            let sibling = crate::record::encoding::utf8_sibling(&path);
            if sibling.exists() && !matches!(target, SaveTarget::Replace(_)) {
                return app.ask_to_replace(&full_path(&sibling));
            }
            path = sibling;
            moved_for = Some(character);
            crate::record::write_for_file(&record, &path)
        }
        other => other,
    };
    let written = bytes.map_err(|error| error.to_string()).and_then(|bytes| {
        autosave::write_bytes_atomically(&path, &bytes)
            .map_err(|error| format!("{}: {error}", path.display()))
    });
    match (written, target) {
        (Ok(()), SaveTarget::Named(_) | SaveTarget::Replace(_)) => match moved_for {
            Some(character) => app.report_saved_as_utf8(&full_path(&path), character),
            None => app.report_saved(&full_path(&path)),
        },
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

    /// A terminal that never answers where its cursor is (its reply went to the event
    /// thread), and counts the cells drawn.
    struct NoCursorReplies {
        screen: ratatui::backend::TestBackend,
        cells_drawn: usize,
    }

    impl ratatui::backend::Backend for NoCursorReplies {
        type Error = io::Error;
        fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
        where
            I: Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>,
        {
            let cells: Vec<_> = content.collect();
            self.cells_drawn += cells.len();
            let _ = self.screen.draw(cells.into_iter());
            Ok(())
        }
        fn hide_cursor(&mut self) -> io::Result<()> {
            Ok(())
        }
        fn show_cursor(&mut self) -> io::Result<()> {
            Ok(())
        }
        fn get_cursor_position(&mut self) -> io::Result<ratatui::layout::Position> {
            Err(io::Error::other(
                "The cursor position could not be read within a normal duration",
            ))
        }
        fn set_cursor_position<P: Into<ratatui::layout::Position>>(
            &mut self,
            _position: P,
        ) -> io::Result<()> {
            Ok(())
        }
        fn clear(&mut self) -> io::Result<()> {
            let _ = self.screen.clear();
            Ok(())
        }
        fn clear_region(&mut self, clear_type: ratatui::backend::ClearType) -> io::Result<()> {
            let _ = self.screen.clear_region(clear_type);
            Ok(())
        }
        fn size(&self) -> io::Result<ratatui::layout::Size> {
            Ok(self.screen.size().unwrap_or_default())
        }
        fn window_size(&mut self) -> io::Result<ratatui::backend::WindowSize> {
            Ok(self
                .screen
                .window_size()
                .unwrap_or(ratatui::backend::WindowSize {
                    columns_rows: ratatui::layout::Size::new(80, 24),
                    pixels: ratatui::layout::Size::new(0, 0),
                }))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_change_of_glyphs_redraws_the_whole_screen_without_asking_for_the_cursor() {
        let mut app = App::new(Settings::default());
        let mut terminal = Terminal::new(NoCursorReplies {
            screen: ratatui::backend::TestBackend::new(80, 24),
            cells_drawn: 0,
        })
        .unwrap();
        clear_for_full_redraw(&mut terminal).unwrap();
        terminal.draw(|frame| ui::render(&app, frame)).unwrap();
        let first = terminal.backend().cells_drawn;
        assert!(first > 0);
        // The same frame again: nothing to write.
        terminal.draw(|frame| ui::render(&app, frame)).unwrap();
        assert_eq!(terminal.backend().cells_drawn, first);
        // 한글 glyphs chosen: the screen is cleared (no cursor question, no error) and the
        // next frame writes every cell it draws, not only the changed ones.
        app.settings.glyphs = crate::app::GlyphSet::Hangul;
        clear_for_full_redraw(&mut terminal).unwrap();
        app.settings.glyphs = crate::app::GlyphSet::Cjk;
        terminal.draw(|frame| ui::render(&app, frame)).unwrap();
        assert_eq!(terminal.backend().cells_drawn, 2 * first);
        // Ratatui's own clear asks, and fails on such a terminal.
        assert!(terminal.clear().is_err());
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

    /// A fresh folder for a test's files.
    fn folder(name: &str) -> PathBuf {
        let folder = std::env::temp_dir().join(format!("qipan-tui-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    /// The text of an autosave of a hotseat xiangqi game of three moves.
    fn autosave_text() -> String {
        let mut app = App::with_game(
            Settings::default(),
            StartOptions::for_game(GameKind::Xiangqi),
        );
        for text in ["h3e3", "h10g8", "h1g3"] {
            app.update(Action::OpenPrompt);
            for c in text.chars() {
                app.update(Action::PromptChar(c));
            }
            app.update(Action::Select);
        }
        assert_eq!(app.play.as_ref().unwrap().game.moves().len(), 3);
        autosave::to_text(&app.saved_game().unwrap())
    }

    fn files_in(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Issue 18 item 1: a damaged autosave is kept aside under a dated name, what can be
    /// read of it is offered (and saved as the autosave at once), and the status line
    /// says in one line, in the player's language, what was dropped and where the file went.
    #[test]
    fn a_damaged_autosave_is_kept_aside_and_what_can_be_read_is_offered() {
        use crate::i18n::Language;
        for language in [
            Language::English,
            Language::Korean,
            Language::Chinese,
            Language::Japanese,
        ] {
            let folder = folder(&format!("damaged-{language:?}"));
            let path = folder.join("autosave.txt");
            let good = autosave_text();
            let damaged = good
                .replace("moves h3e3 h10g8 h1g3", "moves h3e3 h10g8 h1#3")
                .replace("\nplayers human human\n", "\nplayers human robot\n");
            assert_ne!(damaged, good);
            std::fs::write(&path, &damaged).unwrap();
            let mut app = App::new(Settings {
                language,
                ..Settings::default()
            });
            offer_autosave(&mut app, &path);
            // The sound part is offered: the first two moves.
            let offered = app.resume.as_ref().expect("the game is offered");
            assert_eq!(offered.game.moves().len(), 2);
            // The damaged file is kept beside, untouched, under a dated name.
            let names = files_in(&folder);
            assert_eq!(names.len(), 2, "{names:?}");
            let aside = names
                .iter()
                .find(|name| name.starts_with("autosave.txt.damaged-20"))
                .expect("kept aside");
            assert_eq!(
                std::fs::read_to_string(folder.join(aside)).unwrap(),
                damaged
            );
            // The autosave now holds the recovered game, sound.
            let now = autosave::load(&path).unwrap();
            assert_eq!(now.game.moves(), offered.game.moves());
            // One line naming what was dropped and where the damaged file went.
            let status = app.status.clone().unwrap();
            assert!(status.error);
            assert!(!status.text.contains('\n'), "{}", status.text);
            assert!(status.text.contains(aside.as_str()), "{}", status.text);
            let dropped_moves = language.format(Key::DroppedMovesFrom, &["3"]);
            assert!(status.text.contains(&dropped_moves), "{}", status.text);
            assert!(
                status.text.contains(language.text(Key::DroppedPlayers)),
                "{}",
                status.text
            );
            std::fs::remove_dir_all(&folder).unwrap();
        }
    }

    /// A file of which nothing can be read (not an autosave) is kept aside with the reason.
    #[test]
    fn an_unreadable_autosave_is_kept_aside_with_the_reason() {
        let folder = folder("unreadable");
        let path = folder.join("autosave.txt");
        std::fs::write(&path, "not an autosave\n").unwrap();
        let mut app = App::new(Settings::default());
        offer_autosave(&mut app, &path);
        assert!(app.resume.is_none());
        let status = app.status.clone().unwrap();
        assert!(status.text.contains("bad header"), "{}", status.text);
        assert!(status.text.contains("kept as "), "{}", status.text);
        assert!(!path.exists());
        assert_eq!(files_in(&folder).len(), 1);
        // A sound file is offered and left as it is.
        std::fs::write(&path, autosave_text()).unwrap();
        let mut app = App::new(Settings::default());
        offer_autosave(&mut app, &path);
        assert!(app.resume.is_some() && app.status.is_none());
        std::fs::remove_dir_all(&folder).unwrap();
    }

    /// Issue 18 item 16: an autosave folder that is a file is named as such in the
    /// player's language, not "File exists (os error 17)" or "Not a directory".
    #[test]
    fn an_autosave_folder_that_is_a_file_is_said_plainly() {
        use crate::i18n::Language;
        let folder = folder("folder-file");
        let blocker = folder.join("state");
        std::fs::write(&blocker, "a file where the folder goes").unwrap();
        for path in [
            blocker.join("autosave.txt"),
            blocker.join("deeper").join("autosave.txt"),
        ] {
            let error = autosave::write_atomically(&path, "text").unwrap_err();
            for language in [
                Language::English,
                Language::Korean,
                Language::Chinese,
                Language::Japanese,
            ] {
                let said = autosave::write_problem(&path, &error, language);
                let expected =
                    language.format(Key::FolderIsAFile, &[&blocker.display().to_string()]);
                assert_eq!(said, expected);
                assert!(!said.contains("os error"), "{said}");
            }
        }
        // Any other failure keeps the path and the system's reason.
        let other = std::io::Error::other("disk on fire");
        let path = folder.join("autosave.txt");
        let said = autosave::write_problem(&path, &other, Language::English);
        assert_eq!(said, format!("{}: disk on fire", path.display()));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
