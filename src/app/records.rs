//! Records in the interface: opening a record for review, playing on from a past
//! position (the history is cut there), the save prompt, the automatic record of a
//! finished game, and showing the position's FEN. No I/O: files are written by the
//! event loop from [`Effect::SaveRecord`].

use super::{App, Effect, Overlay, Play, Player, StartOptions, Status};
use crate::i18n::Key;
use crate::record::games::ReadProgress;
use crate::record::library::{OpenRequest, OpenedFile};
use crate::record::GameRecord;
use crate::rules::any::{AnyPosition, GameKind};
use crate::rules::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A record being read on a worker thread: what the status line shows meanwhile, and
/// the flag that stops the worker.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The id the worker answers with; an answer with another id is stale.
    pub id: u64,
    /// The record's name as the player knows it.
    pub name: String,
    /// Set to stop the worker (Esc, quitting).
    pub stop: Arc<AtomicBool>,
    /// How far the read has come, once the worker has said.
    pub progress: Option<ReadProgress>,
}

/// Where [`Effect::SaveRecord`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveTarget {
    /// A name typed at the save prompt (a bare name goes into the games folder).
    Named(String),
    /// The history folder, under a date-time-variant file name.
    History,
    /// A file the user agreed to replace (full path).
    Replace(String),
}

/// An opened record's end is the file's, not a game finished here: nothing goes to the
/// history folder for it and no game-over question covers the board.
fn play_as_read(app: &mut App) {
    if let Some(play) = &mut app.play {
        play.history_recorded = true;
    }
    app.effects.retain(|effect| {
        !matches!(
            effect,
            Effect::SaveRecord {
                target: SaveTarget::History,
                ..
            }
        )
    });
    if matches!(app.overlay, Some(Overlay::GameOver { .. })) {
        app.overlay = None;
    }
}

/// The longest file name the save prompt takes.
const SAVE_NAME_LIMIT: usize = 200;

impl App {
    /// A new hotseat app on a game read from a record, shown at its last position so the
    /// user can step back through it or play on. `problem` is shown in the status line
    /// (a record that broke off: the moves before the problem are loaded).
    pub fn from_record(
        settings: super::Settings,
        record: GameRecord,
        problem: Option<&str>,
    ) -> App {
        let mut app = App::new(settings);
        app.open_record(record, problem);
        app
    }

    /// Shows a record (read by `qipan open`) at its last position, both sides human;
    /// `problem` is the error that cut it short, if any.
    pub fn open_record(&mut self, record: GameRecord, problem: Option<&str>) {
        let variant = record.game.variant();
        self.options = StartOptions::for_variant(variant);
        let players = [Player::Human, Player::Human];
        // The whole tree (variations, comments, marks, times) comes along; the main line
        // is the current line.
        let tree = record.full_tree();
        let summary = crate::record::summary::RecordSummary::of(&record);
        let stated = record.result;
        self.begin(record.game, players, None);
        if let Some(play) = &mut self.play {
            let line = tree.main_line();
            play.adopt_tree(tree, line);
        }
        self.show_what_the_record_is(summary, stated);
        match problem {
            Some(problem) => self.show_error(Key::StatusOpenedPartly, problem),
            None => {
                let moves = self.play.as_ref().map_or(0, |p| p.game.moves().len());
                let text = self
                    .settings
                    .language
                    .format(Key::StatusOpened, &[&moves.to_string()]);
                self.status = Some(Status { text, error: false });
            }
        }
    }

    /// Starts reading a record on a worker ([`Effect::OpenRecord`]): the status line
    /// shows the progress, Esc cancels, and [`App::record_read`] opens what was read.
    /// A read already under way is cancelled first. Returns the opening's id.
    pub fn start_opening(&mut self, request: OpenRequest) -> u64 {
        if let Some(earlier) = self.opening.take() {
            earlier.stop.store(true, Ordering::Relaxed);
        }
        let id = self.next_search_id;
        self.next_search_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.opening = Some(Opening {
            id,
            name: crate::untrusted::escape(&request.shown_name()),
            stop: Arc::clone(&stop),
            progress: None,
        });
        self.show_opening_progress();
        self.effects.push(Effect::OpenRecord { id, request, stop });
        id
    }

    /// The status line while a record is read: its name, how far, and that Esc cancels.
    fn show_opening_progress(&mut self) {
        let Some(opening) = &self.opening else { return };
        let language = self.settings.language;
        let name = opening.name.as_str();
        let text = match opening.progress {
            None => language.format(Key::StatusOpening, &[name]),
            Some(ReadProgress::Bytes { read, total }) => {
                let mebibytes = |bytes: u64| format!("{:.1}", bytes as f64 / (1u64 << 20) as f64);
                language.format(
                    Key::StatusOpeningBytes,
                    &[name, &mebibytes(read), &mebibytes(total.max(read))],
                )
            }
            Some(ReadProgress::Games(count)) => {
                language.format(Key::StatusOpeningGames, &[name, &count.to_string()])
            }
        };
        self.status = Some(Status { text, error: false });
    }

    /// The reading worker's progress report (stale ones, of a cancelled read, are ignored).
    pub(super) fn opening_progress(&mut self, id: u64, progress: ReadProgress) {
        match &mut self.opening {
            Some(opening) if opening.id == id => opening.progress = Some(progress),
            _ => return,
        }
        self.show_opening_progress();
    }

    /// Keys while a record is read: Esc cancels it, quitting stops it and goes on to
    /// quit; every other key waits. True when the key was handled here.
    pub(super) fn update_while_opening(&mut self, action: &super::Action) -> bool {
        use super::Action;
        match action {
            Action::Cancel => {
                let name = self.opening.as_ref().map(|o| o.name.clone());
                self.cancel_opening();
                if let Some(name) = name {
                    let text = self
                        .settings
                        .language
                        .format(Key::StatusOpeningCancelled, &[&name]);
                    self.status = Some(Status { text, error: false });
                }
                true
            }
            Action::Quit | Action::ForceQuit => {
                self.cancel_opening();
                false
            }
            _ => true,
        }
    }

    /// Stops the record being read, if any: its worker stops at its next check and
    /// whatever it still sends is ignored, so nothing half-read is opened.
    pub(super) fn cancel_opening(&mut self) {
        if let Some(opening) = self.opening.take() {
            opening.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The reading worker has finished: the record it read is opened
    /// ([`App::open_record`]), or the status line says why not. An answer for a read
    /// that was cancelled or replaced changes nothing.
    pub fn record_read(&mut self, id: u64, file: OpenedFile) {
        if self.opening.as_ref().map(|o| o.id) != Some(id) {
            return;
        }
        self.opening = None;
        let language = self.settings.language;
        let picked = match file.picked {
            Ok(picked) => picked,
            Err(error) => {
                log::error!(target: "record", "{error}");
                return self.show_error(Key::StatusOpenFailed, &error.text(language));
            }
        };
        let Some(game) = picked.game else {
            let text = language.format(
                Key::StatusNoSuchGame,
                &[
                    &crate::untrusted::escape(&file.path),
                    &file.number.to_string(),
                    &picked.count.to_string(),
                ],
            );
            self.status = Some(Status { text, error: true });
            return;
        };
        match game {
            Ok(record) => self.open_record(record, None),
            Err(mut error) => {
                log::warn!(target: "record", "{error}");
                let text = error.text(language);
                match error.partial.take() {
                    Some(partial) => self.open_record(*partial, Some(&text)),
                    None => return self.show_error(Key::StatusOpenFailed, &text),
                }
            }
        }
        self.note_game_of(file.number, picked.count);
    }

    /// An opened record as what it is: its players, event and date beside the board,
    /// and the result it states as the game's end (a resignation, a time loss), not as
    /// a game still to be played. It is a file already: its end is not copied into the
    /// history folder, and no game-over question comes up over it.
    fn show_what_the_record_is(
        &mut self,
        summary: crate::record::summary::RecordSummary,
        stated: Option<crate::rules::Outcome>,
    ) {
        let Some(play) = &mut self.play else { return };
        play.record = Some(summary);
        let at_the_end = play.game.moves().len() == play.line.len();
        if let (Some(outcome), None, true) = (stated, play.game.outcome(), at_the_end) {
            play.game.declare(outcome);
            self.stop_clock();
        }
        play_as_read(self);
    }

    /// After [`App::open_record`] of game `number` of a file holding `count` games: the
    /// status line says which one it is and how to open another (unless a problem is shown).
    pub fn note_game_of(&mut self, number: usize, count: usize) {
        if count <= 1 || self.status.as_ref().is_some_and(|s| s.error) {
            return;
        }
        let moves = self.play.as_ref().map_or(0, |p| p.game.moves().len());
        let text = self.settings.language.format(
            Key::StatusOpenedGameOf,
            &[&number.to_string(), &count.to_string(), &moves.to_string()],
        );
        self.status = Some(Status { text, error: false });
    }

    /// Called when a move is about to be made while a past position is shown: the game
    /// goes back to that position (the moves after it wait on the redo list, so `r`
    /// replays them and playing the same move keeps the old line) and play goes on.
    pub(super) fn branch_from_review(&mut self) {
        self.stop_search();
        let Some(play) = &mut self.play else { return };
        let Some(ply) = play.review.take() else {
            return;
        };
        // The moves after it stay on the current line (redo replays them); a different
        // move makes a variation. A result declared at the end stays with that line.
        play.keep_declared_result();
        while play.game.moves().len() > ply {
            if play.game.undo().is_none() {
                break;
            }
        }
        play.selection = None;
        play.targets.clear();
        play.history_recorded = false;
        self.overlay = None;
        let text = self
            .settings
            .language
            .format(Key::StatusBranched, &[&(ply + 1).to_string()]);
        self.status = Some(Status { text, error: false });
        self.after_change_without_game_over();
    }

    /// The game as a record: players and the result in headers the writers know, and
    /// each move's time when the game was timed.
    pub fn game_record(&self) -> Option<GameRecord> {
        let play = self.play.as_ref()?;
        let mut record = GameRecord::new(play.game.clone());
        // The whole tree is written; the line played is its main line.
        let mut tree = play.tree.clone();
        for &id in &play.line[..play.game.moves().len().min(play.line.len())] {
            tree.promote(id);
        }
        let name = |player: Player| match player {
            Player::Human => "Human".to_string(),
            Player::Computer { level } => format!("qipan level {level}"),
            Player::Engine { index } => self
                .settings
                .engines
                .get(index)
                .map_or_else(|| "engine".to_string(), |spec| spec.name.clone()),
        };
        // Each game's own header names: PGN's for xiangqi and janggi, KIF's for shogi (the
        // KIF and CSA writers map them; 下手/上手 when the start is a handicap).
        let kind = play.game.variant().kind();
        let handicap = kind == GameKind::Shogi
            && play.game.start().side_to_move() == crate::rules::Side::Second;
        let (first, second) = match kind {
            GameKind::Xiangqi => ("Red", "Black"),
            GameKind::Janggi => ("Cho", "Han"),
            GameKind::Shogi if handicap => ("下手", "上手"),
            GameKind::Shogi => ("先手", "後手"),
        };
        // An opened record keeps its own players, event, site and date (under its own
        // header names, which the writers map); a side it names no one for is named by
        // its player kind, as a game played here is.
        let identity = play.record.as_ref().map(|summary| &summary.identity);
        match identity.and_then(|identity| identity.event.clone()) {
            Some(event) => record.headers.push(event),
            None if kind != GameKind::Shogi => {
                record.headers.push(("Event".into(), "qipan".into()))
            }
            None => {}
        }
        for (index, header) in [first, second].into_iter().enumerate() {
            match identity.and_then(|identity| identity.players[index].clone()) {
                Some(kept) => record.headers.push(kept),
                None => record
                    .headers
                    .push((header.into(), name(play.players[index]))),
            }
        }
        if let Some(identity) = identity {
            record.headers.extend(
                [&identity.site, &identity.date]
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        if let Some(started) = play.started {
            record.headers.extend(start_headers(kind, started));
        }
        record.result = play.game.outcome();
        record.move_times = play.move_times();
        crate::record::times::tidy(&mut record.move_times, play.game.moves().len());
        if tree.moves_of(&tree.main_line()) == play.game.moves() {
            record.tree = tree;
        } else {
            record.tree = with_main_line_cut(tree, play.game.moves().len());
        }
        Some(record)
    }

    /// The save key: asks for a file name.
    pub(super) fn open_save_prompt(&mut self) {
        if self.play.is_some() {
            self.overlay = Some(Overlay::SaveAs {
                text: String::new(),
            });
        }
    }

    /// Keys while the save prompt is open.
    pub(super) fn update_save_prompt(&mut self, action: super::Action, mut text: String) {
        use super::Action;
        match action {
            Action::PromptChar(c) => {
                if text.chars().count() < SAVE_NAME_LIMIT {
                    text.push(c);
                }
                self.overlay = Some(Overlay::SaveAs { text });
            }
            Action::PromptBackspace => {
                text.pop();
                self.overlay = Some(Overlay::SaveAs { text });
            }
            Action::Select => {
                self.overlay = None;
                let name = text.trim();
                if name.is_empty() {
                    self.show_error(Key::StatusSaveFailed, self.text(Key::SaveNameMissing));
                    return;
                }
                if let Some(record) = self.game_record() {
                    self.effects.push(Effect::SaveRecord {
                        record: Box::new(record),
                        target: SaveTarget::Named(name.to_string()),
                    });
                }
            }
            Action::Cancel => self.overlay = None,
            _ => {}
        }
    }

    /// Opens the open prompt and asks the event loop for the list of saved games. A game
    /// in progress is never replaced by accident: it must end (or `n`) first.
    pub(super) fn open_open_prompt(&mut self) {
        if self.screen == super::Screen::Game && self.play.as_ref().is_some_and(Play::in_progress) {
            self.refuse_text(Key::StatusOpenNeedsNoGame, &[]);
            return;
        }
        self.overlay = Some(Overlay::OpenFile {
            text: String::new(),
            choices: Vec::new(),
            choice: None,
        });
        self.effects.push(Effect::ListRecords);
    }

    /// The record files the open prompt offers (paths, newest first).
    pub fn set_record_choices(&mut self, files: Vec<String>) {
        if let Some(Overlay::OpenFile { choices, .. }) = &mut self.overlay {
            *choices = files;
        }
    }

    /// Keys while the open prompt is open: type a name, or ↑↓ through the saved games.
    pub(super) fn update_open_prompt(
        &mut self,
        action: super::Action,
        mut text: String,
        choices: Vec<String>,
        mut choice: Option<usize>,
    ) {
        use super::Action;
        match action {
            Action::PromptChar(c) => {
                if text.chars().count() < SAVE_NAME_LIMIT {
                    text.push(c);
                }
                choice = None;
            }
            Action::PromptBackspace => {
                text.pop();
                choice = None;
            }
            Action::Down | Action::Up if !choices.is_empty() => {
                let last = choices.len() - 1;
                let next = match (choice, action == Action::Down) {
                    (None, true) => 0,
                    (None, false) => last,
                    (Some(i), true) => (i + 1).min(last),
                    (Some(i), false) => i.saturating_sub(1),
                };
                choice = Some(next);
                text = choices[next].clone();
            }
            Action::Select => {
                self.overlay = None;
                let name = text.trim();
                if name.is_empty() {
                    self.show_error(Key::StatusOpenFailed, self.text(Key::SaveNameMissing));
                } else {
                    self.start_opening(OpenRequest::Typed(name.to_string()));
                }
                return;
            }
            Action::Cancel => {
                self.overlay = None;
                return;
            }
            _ => {}
        }
        self.overlay = Some(Overlay::OpenFile {
            text,
            choices,
            choice,
        });
    }

    /// Queues the record of a game that has just ended for the history folder (once per game).
    pub(super) fn record_finished_game(&mut self) {
        let record = match &self.play {
            Some(play) if !play.history_recorded && !play.in_progress() => self.game_record(),
            _ => None,
        };
        if let (Some(record), Some(play)) = (record, &mut self.play) {
            play.history_recorded = true;
            self.effects.push(Effect::SaveRecord {
                record: Box::new(record),
                target: SaveTarget::History,
            });
        }
    }

    /// Shows the FEN (SFEN for shogi) of the position on the board in the status line.
    pub(super) fn show_position_fen(&mut self) {
        let Some(play) = &self.play else { return };
        let fen = position_fen(play);
        let text = self.settings.language.format(Key::StatusFen, &[&fen]);
        self.status = Some(Status { text, error: false });
    }

    /// Reports a record written by the event loop.
    /// The file a name typed at the save prompt points to exists: asks before replacing
    /// it ([`super::Question::Overwrite`]).
    pub fn ask_to_replace(&mut self, path: &str) {
        self.save_to_replace = Some(path.to_string());
        self.overlay = Some(Overlay::Confirm(super::Question::Overwrite));
    }

    /// The answer to the overwrite question: yes writes the record over the file.
    pub(super) fn answer_overwrite(&mut self, yes: bool) {
        let Some(path) = self.save_to_replace.take() else {
            return;
        };
        if let (true, Some(record)) = (yes, self.game_record()) {
            self.effects.push(Effect::SaveRecord {
                record: Box::new(record),
                target: SaveTarget::Replace(path),
            });
        }
    }

    pub fn report_saved(&mut self, path: &str) {
        let text = self.settings.language.format(Key::StatusSaved, &[path]);
        self.status = Some(Status { text, error: false });
    }

    /// Says the record went to its UTF-8 name (`.kifu`) because `character` has no
    /// Shift_JIS form, the encoding the `.kif` name asked for.
    pub fn report_saved_as_utf8(&mut self, path: &str, character: char) {
        let character = crate::untrusted::escape(&character.to_string());
        let text = self
            .settings
            .language
            .format(Key::StatusSavedAsUtf8, &[path, &character]);
        self.status = Some(Status { text, error: false });
    }
}

/// The FEN of the shown position: SFEN for shogi, Fairy-Stockfish FEN otherwise.
fn position_fen(play: &Play) -> String {
    match play.shown_position() {
        AnyPosition::Shogi(shogi) => shogi.sfen(),
        other => other.fen(),
    }
}

/// The tree with its main line ending after `ply` moves. A record's main line is the
/// game; the moves taken back and not replayed after its end cannot be a variation of
/// anything there, so the saved record leaves them out (as before the tree; the
/// autosave keeps them).
fn with_main_line_cut(tree: crate::tree::GameTree, ply: usize) -> crate::tree::GameTree {
    let main = tree.main_line();
    let mut tree = tree;
    if let Some(&first_after) = main.get(ply) {
        tree.delete(first_after);
    }
    tree
}

/// The start-time headers of a game that began at `started` (local time): KIF's
/// `開始日時：2026/12/01 09:30:05` for shogi (CSA writes it as `$START_TIME`), PGN's
/// `[Date "2026.12.01"]` and `[Time "09:30:05"]` otherwise. None of these formats holds a
/// time-zone offset, so the local time is written as players read it.
pub fn start_headers(kind: GameKind, started: jiff::civil::DateTime) -> Vec<(String, String)> {
    match kind {
        GameKind::Shogi => vec![(
            "開始日時".to_string(),
            started.strftime("%Y/%m/%d %H:%M:%S").to_string(),
        )],
        _ => vec![
            ("Date".to_string(), started.strftime("%Y.%m.%d").to_string()),
            ("Time".to_string(), started.strftime("%H:%M:%S").to_string()),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Settings, StartOptions};
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::game::Game;

    fn typed(app: &mut App, text: &str) {
        app.update(Action::OpenPrompt);
        for c in text.chars() {
            app.update(Action::PromptChar(c));
        }
        app.update(Action::Select);
    }

    fn moves(app: &App) -> Vec<String> {
        let game = &app.play.as_ref().unwrap().game;
        game.positions()
            .iter()
            .zip(game.moves())
            .map(|(p, m)| p.move_to_uci(*m))
            .collect()
    }

    fn xiangqi_app() -> App {
        App::with_game(
            Settings::default(),
            StartOptions::for_variant(Variant::Xiangqi),
        )
    }

    #[test]
    fn a_move_while_reviewing_cuts_the_history_and_plays_on() {
        let mut app = xiangqi_app();
        for mv in ["h3e3", "h10g8", "h1g3", "i10h10"] {
            typed(&mut app, mv);
        }
        app.update(Action::HistoryBack);
        app.update(Action::HistoryBack);
        assert_eq!(app.play.as_ref().unwrap().review, Some(2));
        typed(&mut app, "b1c3");
        assert_eq!(moves(&app), ["h3e3", "h10g8", "b1c3"]);
        assert_eq!(app.play.as_ref().unwrap().review, None);
        // The cut line is gone once a different move is played.
        app.update(Action::Redo);
        assert_eq!(moves(&app).len(), 3);
        // Playing the same move as the old line keeps the rest for redo.
        app.update(Action::HistoryStart);
        typed(&mut app, "h3e3");
        assert_eq!(moves(&app), ["h3e3"]);
        app.update(Action::Redo);
        assert_eq!(moves(&app), ["h3e3", "h10g8"]);
    }

    #[test]
    fn the_open_key_waits_for_the_game_in_progress() {
        let mut app = xiangqi_app();
        typed(&mut app, "h3e3");
        app.update(Action::OpenFile);
        assert!(app.overlay.is_none());
        assert!(app.status.as_ref().is_some_and(|s| s.error));
        app.update(Action::Resign);
        app.update(Action::Yes);
        app.overlay = None;
        app.update(Action::OpenFile);
        assert!(matches!(app.overlay, Some(Overlay::OpenFile { .. })));
        assert!(matches!(
            app.take_effects().last(),
            Some(Effect::ListRecords)
        ));
        app.update(Action::Cancel);
        assert!(app.overlay.is_none());
    }

    #[test]
    fn hash_and_a_number_jumps_to_that_move() {
        let mut app = xiangqi_app();
        for mv in ["h3e3", "h10g8", "h1g3", "i10h10"] {
            typed(&mut app, mv);
        }
        typed(&mut app, "#1");
        assert_eq!(app.play.as_ref().unwrap().review, Some(1));
        typed(&mut app, "#0");
        assert_eq!(app.play.as_ref().unwrap().review, Some(0));
        typed(&mut app, "#4");
        assert_eq!(app.play.as_ref().unwrap().review, None);
        typed(&mut app, "#9");
        assert!(app.status.as_ref().is_some_and(|s| s.error));
        assert_eq!(moves(&app).len(), 4);
    }

    #[test]
    fn enter_on_an_empty_point_while_reviewing_keeps_the_game() {
        let mut app = xiangqi_app();
        for mv in ["h3e3", "h10g8"] {
            typed(&mut app, mv);
        }
        app.update(Action::HistoryStart);
        // The cursor on an empty point of the start position (the centre of the river).
        app.play.as_mut().unwrap().cursor = 4 * 9 + 4;
        app.update(Action::Select);
        assert_eq!(moves(&app), ["h3e3", "h10g8"]);
        assert_eq!(app.play.as_ref().unwrap().review, Some(0));
        assert!(app.status.as_ref().is_some_and(|s| s.error));
        // Picking Red's cannon on h3 (rank 2, file 7) starts the branch.
        app.play.as_mut().unwrap().cursor = 2 * 9 + 7;
        app.update(Action::Select);
        assert_eq!(app.play.as_ref().unwrap().review, None);
        assert!(moves(&app).is_empty());
    }

    #[test]
    fn a_finished_game_is_reviewed_and_played_on_from_before_the_end() {
        let mut app = xiangqi_app();
        typed(&mut app, "h3e3");
        app.update(Action::Resign);
        app.update(Action::Yes);
        assert!(!app.play.as_ref().unwrap().in_progress());
        app.overlay = None;
        app.update(Action::HistoryStart);
        typed(&mut app, "b1c3");
        assert_eq!(moves(&app), ["b1c3"]);
        assert!(app.play.as_ref().unwrap().in_progress());
    }

    #[test]
    fn the_save_key_asks_for_a_name_and_emits_the_record() {
        let mut app = xiangqi_app();
        typed(&mut app, "h3e3");
        app.take_effects();
        app.update(Action::Save);
        assert!(matches!(app.overlay, Some(Overlay::SaveAs { .. })));
        for c in "my game".chars() {
            app.update(Action::PromptChar(c));
        }
        app.update(Action::PromptBackspace);
        app.update(Action::Select);
        let effects = app.take_effects();
        let saved: Vec<_> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::SaveRecord { record, target } => Some((record, target)),
                _ => None,
            })
            .collect();
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0].1, &SaveTarget::Named("my gam".to_string()));
        assert_eq!(saved[0].0.game.moves().len(), 1);
        assert_eq!(saved[0].0.header("Red"), Some("Human"));
        // An empty name saves nothing and says so.
        app.update(Action::Save);
        app.update(Action::Select);
        assert!(app.take_effects().is_empty());
        assert!(app.status.as_ref().unwrap().error);
    }

    #[test]
    fn the_save_prompt_is_drawn_on_the_status_line() {
        use ratatui::backend::TestBackend;
        use ratatui::Terminal;
        let mut app = xiangqi_app();
        app.update(Action::Save);
        for c in "my game".chars() {
            app.update(Action::PromptChar(c));
        }
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal
            .draw(|frame| crate::ui::render(&app, frame))
            .unwrap();
        let screen = terminal.backend().to_string();
        assert!(screen.contains("Save as: my game"), "{screen}");
        // Letters that are keys elsewhere (q quits, n starts a new game) are typed.
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(
            super::super::keymap::action_for_key(&app, q),
            Some(Action::PromptChar('q'))
        );
        app.update(Action::PromptChar('q'));
        assert!(!app.quit);
        assert_eq!(
            app.overlay,
            Some(Overlay::SaveAs {
                text: "my gameq".to_string()
            })
        );
    }

    #[test]
    fn a_finished_game_is_recorded_once_for_the_history() {
        let mut app = xiangqi_app();
        typed(&mut app, "h3e3");
        app.update(Action::Resign);
        app.update(Action::Yes);
        let history = |effects: Vec<Effect>| {
            effects
                .into_iter()
                .filter(|e| {
                    matches!(
                        e,
                        Effect::SaveRecord {
                            target: SaveTarget::History,
                            ..
                        }
                    )
                })
                .count()
        };
        assert_eq!(history(app.take_effects()), 1);
        app.overlay = None;
        app.update(Action::Undo);
        app.update(Action::Redo);
        assert_eq!(history(app.take_effects()), 0);
    }

    #[test]
    fn the_fen_key_shows_the_shown_position() {
        let mut app = xiangqi_app();
        typed(&mut app, "h3e3");
        app.update(Action::ShowFen);
        let text = app.status.as_ref().unwrap().text.clone();
        assert_eq!(
            text,
            "FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
        );
        app.update(Action::HistoryStart);
        app.update(Action::ShowFen);
        assert!(app.status.as_ref().unwrap().text.ends_with(" w - - 0 1"));
        let mut shogi = App::with_game(
            Settings::default(),
            StartOptions::for_variant(Variant::Shogi),
        );
        shogi.update(Action::ShowFen);
        assert_eq!(
            shogi.status.as_ref().unwrap().text,
            "FEN: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
    }

    #[test]
    fn an_opened_record_is_shown_at_its_end() {
        let mut game = Game::from_variant(Variant::Xiangqi);
        for text in ["h3e3", "h10g8"] {
            let mv = game.position().parse_uci(text).unwrap();
            game.play(mv).unwrap();
        }
        let app = App::from_record(Settings::default(), GameRecord::new(game), None);
        let play = app.play.as_ref().unwrap();
        assert_eq!(play.review, None);
        assert_eq!(play.game.moves().len(), 2);
        assert!(app.status.as_ref().unwrap().text.contains("2 moves"));
        let broken = App::from_record(
            Settings::default(),
            GameRecord::new(Game::from_variant(Variant::Xiangqi)),
            Some("x.pgn: line 3, move 2: zz: not a move"),
        );
        assert!(broken.status.as_ref().unwrap().text.contains("line 3"));
    }
    /// A timed game of `variant` against nobody but the test, on a manual clock.
    fn timed_hotseat(variant: Variant, control: &str) -> App {
        let mut app = App::new(Settings::default());
        app.time = crate::clock::TimeSource::manual();
        app.options = StartOptions {
            players: [Player::Human, Player::Human],
            time: control.parse().unwrap(),
            ..StartOptions::for_variant(variant)
        };
        app.start_game();
        app
    }

    /// Thinks for `seconds`, then plays `text`.
    fn think_and_play(app: &mut App, seconds: u64, text: &str) {
        app.time.advance(std::time::Duration::from_secs(seconds));
        app.update(Action::Tick);
        let position = app.play.as_ref().unwrap().game.position().clone();
        let mv = crate::ui::benchmark::parse_move(&position, text).expect(text);
        app.play_move(mv);
    }

    /// The record the save prompt hands to the event loop.
    fn saved_record(app: &mut App) -> GameRecord {
        app.take_effects();
        app.update(Action::Save);
        for c in "timed".chars() {
            app.update(Action::PromptChar(c));
        }
        app.update(Action::Select);
        app.take_effects()
            .into_iter()
            .find_map(|effect| match effect {
                Effect::SaveRecord { record, .. } => Some(*record),
                _ => None,
            })
            .expect("a record to save")
    }

    #[test]
    fn a_timed_games_saved_record_has_each_moves_time() {
        use std::time::Duration;
        let mut app = timed_hotseat(Variant::Shogi, "10m");
        think_and_play(&mut app, 3, "7g7f");
        think_and_play(&mut app, 65, "3c3d");
        // A pause does not count as thinking.
        app.time.advance(Duration::from_secs(2));
        app.update(Action::Pause);
        app.time.advance(Duration::from_secs(100));
        app.update(Action::Pause);
        think_and_play(&mut app, 5, "2g2f");
        let record = saved_record(&mut app);
        let secs = |n| Some(Duration::from_secs(n));
        assert_eq!(record.move_times, vec![secs(3), secs(65), secs(7)]);
        let kif = crate::record::kif::write(&record);
        assert!(kif.contains(" ( 0:03/00:00:03)\n"), "{kif}");
        assert!(kif.contains(" ( 1:05/00:01:05)\n"), "{kif}");
        assert!(kif.contains(" ( 0:07/00:00:10)\n"), "{kif}");

        // Taking a move back drops its time; the move played instead has its own.
        app.undo();
        assert_eq!(app.play.as_ref().unwrap().move_times().len(), 2);
        think_and_play(&mut app, 9, "6g6f");
        let record = saved_record(&mut app);
        assert_eq!(record.move_times, vec![secs(3), secs(65), secs(9)]);

        let mut janggi = timed_hotseat(
            Variant::Janggi(crate::rules::janggi::JanggiRules::KJA),
            "5m",
        );
        think_and_play(&mut janggi, 4, "a4b4");
        think_and_play(&mut janggi, 12, "a7b7");
        // A resumed game (the autosave) keeps the times of the moves before it.
        let saved = janggi.saved_game().unwrap();
        assert_eq!(saved.move_times.len(), 2);
        let mut resumed = timed_hotseat(Variant::Shogi, "5m");
        resumed.resume_saved(saved);
        assert_eq!(resumed.play.as_ref().unwrap().move_times().len(), 2);
        let record = saved_record(&mut janggi);
        let pgn = crate::record::write(&record, crate::record::Format::Pgn).unwrap();
        assert!(pgn.contains("{[%emt 0:00:04]}"), "{pgn}");
        assert!(pgn.contains("{[%emt 0:00:12]}"), "{pgn}");
    }

    #[test]
    fn untimed_games_and_opened_records_keep_what_they_have() {
        let mut app = App::with_game(
            Settings::default(),
            StartOptions::for_variant(Variant::Xiangqi),
        );
        let mv = app
            .play
            .as_ref()
            .unwrap()
            .game
            .position()
            .parse_uci("h3e3")
            .unwrap();
        app.play_move(mv);
        assert!(app.game_record().unwrap().move_times.is_empty());

        let mut game = Game::from_variant(Variant::Xiangqi);
        for text in ["h3e3", "h10g8"] {
            let mv = game.position().parse_uci(text).unwrap();
            game.play(mv).unwrap();
        }
        let mut record = GameRecord::new(game);
        record.move_times = vec![None, Some(std::time::Duration::from_secs(8))];
        let app = App::from_record(Settings::default(), record.clone(), None);
        assert_eq!(app.game_record().unwrap().move_times, record.move_times);
    }

    #[test]
    fn a_saved_opened_record_keeps_its_players_event_site_and_date() {
        let gib = "[대회명 \"친선대국\"]\n[대국일자 \"2016-12-06\"]\n[대국장소 \"서울\"]\n[초대국자 \"하여명\"]\n[한대국자 \"전동하\"]\n[초차림 \"상마상마\"]\n[한차림 \"상마상마\"]\n\n1. 71졸72 2. 49병48\n";
        let record = crate::record::read_bytes(gib.as_bytes(), "test", crate::record::Format::Gib)
            .expect("a record");
        let app = App::from_record(Settings::default(), record, None);
        let saved = app.game_record().unwrap();
        let pgn = crate::record::write(&saved, crate::record::Format::Pgn).unwrap();
        for tag in [
            "[Event \"친선대국\"]",
            "[Site \"서울\"]",
            "[Date \"2016.12.06\"]",
            "[Cho \"하여명\"]",
            "[Han \"전동하\"]",
        ] {
            assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
        }
        assert!(
            !pgn.contains("Human") && !pgn.contains("\"qipan\""),
            "{pgn}"
        );

        // A KIF record saved as KIF: its own names; a side it does not name keeps the
        // player kind.
        let kif = "開始日時：2024/05/01\n棋戦：名人戦\n場所：東京\n手合割：平手\n先手：羽生善治\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
        let record = crate::record::read_bytes(kif.as_bytes(), "test", crate::record::Format::Kif)
            .expect("a record");
        let app = App::from_record(Settings::default(), record, None);
        let written = crate::record::kif::write(&app.game_record().unwrap());
        for line in [
            "先手：羽生善治",
            "後手：Human",
            "棋戦：名人戦",
            "場所：東京",
            "開始日時：2024/05/01",
        ] {
            assert!(written.contains(line), "{line} missing:\n{written}");
        }

        // A game played here keeps today's headers.
        let app = App::with_game(
            Settings::default(),
            StartOptions::for_variant(Variant::Xiangqi),
        );
        let pgn =
            crate::record::write(&app.game_record().unwrap(), crate::record::Format::Pgn).unwrap();
        assert!(
            pgn.contains("[Event \"qipan\"]") && pgn.contains("[Red \"Human\"]"),
            "{pgn}"
        );
    }
}
