//! The model of the terminal client: screens, the game in progress, the
//! cursor and selection, players and the CPU search requests.
//!
//! Everything that can happen is an [`Action`]; [`App::update`] changes the
//! state and queues [`Effect`]s (start a CPU search, quit) for the event loop.
//! Nothing here draws: `ui` renders a `&App`. Every rule question goes to the
//! rules engine (`Game`, `AnyPosition`).

mod clocks;
pub mod draw;
pub mod keymap;
pub mod learn;
pub mod live;
pub mod preferences;
pub mod records;
pub mod review;
mod searches;
pub mod settings_screen;
pub use crate::setup;
pub mod thinking;
pub mod variations;

pub use crate::action::Action;
use crate::clock::{Clock, TimeSource};
use crate::engine::{limits_for_level, Limits, MAX_LEVEL};
use crate::i18n::{Key, Language};
use crate::protocol::client::EngineSpec;
use crate::record::autosave::{self, SavedClock, SavedGame, Seat};
use crate::rules::any::{shogi_hand_kind, AnyPosition, GameKind, PieceKind};
use crate::rules::game::Game;
use crate::rules::notation::{parse_move_after, Notation, NotationError, Refusal};
use crate::rules::{EndReason, IllegalMove, Move, Outcome, Position, Side};
use crate::tree::{GameTree, NodeId};
pub use clocks::{clock_limits, CPU_SAFETY_MARGIN};
pub use setup::{GameChoice, Player, StartField, StartOptions, TimeDefaults, GAMES};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
pub use thinking::SearchReport;

/// How pieces and lines are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlyphSet {
    /// CJK piece glyphs, box-drawing lines one column wide (the default).
    Cjk,
    /// CJK glyphs for terminals that draw ambiguous-width box characters two columns wide.
    CjkWideLines,
    /// Latin letters and plain ASCII lines (`--ascii`), for terminals without CJK fonts.
    Latin,
    /// Hangul piece names for janggi and xiangqi (차 마 상 사 졸/병 포, 초/한), shogi in
    /// kanji; lines one column wide.
    Hangul,
    /// Hangul pieces for terminals that draw box characters two columns wide.
    HangulWideLines,
}

impl GlyphSet {
    /// Every glyph set.
    pub const ALL: [GlyphSet; 5] = [
        GlyphSet::Cjk,
        GlyphSet::CjkWideLines,
        GlyphSet::Latin,
        GlyphSet::Hangul,
        GlyphSet::HangulWideLines,
    ];

    /// True when ambiguous-width characters take two columns.
    pub fn wide_ambiguous(self) -> bool {
        matches!(self, GlyphSet::CjkWideLines | GlyphSet::HangulWideLines)
    }

    /// True for the Hangul piece names.
    pub fn hangul(self) -> bool {
        matches!(self, GlyphSet::Hangul | GlyphSet::HangulWideLines)
    }
}

/// The session's settings: display (the settings screen can change them) and the
/// external engines offered as opponents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Interface language.
    pub language: Language,
    /// Glyph set.
    pub glyphs: GlyphSet,
    /// External engines the start screen offers after the CPU levels.
    pub engines: Vec<EngineSpec>,
    /// The engine the hint key and live analysis ask (index into `engines`); `None` for the built-in one.
    pub hint_engine: Option<usize>,
    /// The engine live analysis asks before the hint engine (index into `engines`,
    /// the config's `[analysis] engine`); `None` leaves it to the hint engine.
    pub analysis_engine: Option<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: Language::English,
            glyphs: GlyphSet::Cjk,
            engines: Vec::new(),
            hint_engine: None,
            analysis_engine: None,
        }
    }
}

/// The screen under any popup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// Choosing the game, rules, setups and players.
    Start,
    /// Playing or reviewing a game.
    Game,
}

/// What a yes/no question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Quit with a game in progress.
    Quit,
    /// Leave the game in progress for the start screen.
    NewGame,
    /// The given side resigns.
    Resign(Side),
    /// The given side offers a draw; the other answers.
    DrawOffer(Side),
    /// Take back a move in a timed hotseat game (both players must agree).
    Undo,
    /// Replay a taken-back move in a timed hotseat game (both players must agree).
    Redo,
    /// Replace the existing file [`App::save_to_replace`] names with the game's record.
    Overwrite,
}

/// A popup over the screen; it takes the input first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Keys and rules of the current game.
    Help {
        /// Lines scrolled down.
        scroll: u16,
    },
    /// The result, with a choice of what next.
    GameOver {
        /// 0 review, 1 new game, 2 quit, 3 analyse.
        choice: usize,
    },
    /// A yes/no question.
    Confirm(Question),
    /// Shogi: promote or not.
    Promotion {
        /// The move without promotion.
        plain: Move,
        /// The same move with promotion.
        promoting: Move,
        /// True while "promote" is highlighted.
        promote: bool,
    },
    /// The typed-move prompt.
    Prompt {
        /// What has been typed.
        text: String,
    },
    /// The save prompt: the file name typed so far.
    SaveAs {
        /// What has been typed.
        text: String,
    },
    /// The open prompt: a file name typed, or one of the saved and finished games chosen
    /// with ↑↓ (the event loop lists them after the prompt opens).
    OpenFile {
        /// What has been typed (or the chosen file).
        text: String,
        /// Record files in the games and history folders, newest first.
        choices: Vec<String>,
        /// The highlighted choice.
        choice: Option<usize>,
    },
    /// The settings screen.
    Settings {
        /// The focused row (index into [`settings_screen::SettingRow::ALL`]).
        row: usize,
    },
    /// The variations at the shown position: switch to, promote or delete one.
    Variations {
        /// The highlighted variation (index into the node's children, main first).
        choice: usize,
    },
}

/// How far the help can be scrolled down (it has fewer rows than this on any screen).
const HELP_SCROLL_LIMIT: u16 = 120;

/// Work for the event loop.
#[derive(Debug)]
pub enum Effect {
    /// Run `engine::best_move` on a worker thread and answer with [`Action::ComputerMove`].
    StartSearch {
        /// Id to answer with.
        id: u64,
        /// A copy of the game.
        game: Box<Game>,
        /// How much to think.
        limits: Limits,
        /// Set to stop the search early.
        stop: Arc<AtomicBool>,
        /// The external engine to ask (index into [`Settings::engines`]); `None` for the built-in one.
        engine: Option<usize>,
    },
    /// A new game: external engines of the last game are ended (they start again when
    /// needed) and the built-in CPU forgets what it learned.
    ResetEngines,
    /// Write this text to the autosave file (atomically); see [`crate::record::autosave`].
    Autosave(String),
    /// Delete the autosave file: the game ended or there is none to keep.
    RemoveAutosave,
    /// Write a game record (PGN, or KIF for shogi) to a named file or the history folder.
    SaveRecord {
        /// The game.
        record: Box<crate::record::GameRecord>,
        /// Where to.
        target: records::SaveTarget,
    },
    /// List the record files of the games and history folders for the open prompt
    /// ([`App::set_record_choices`]).
    ListRecords,
    /// Read this record on a worker thread, reporting [`Action::RecordProgress`] and
    /// answering [`Action::RecordRead`] (unless `stop` is set first: then nothing).
    OpenRecord {
        /// The opening's id, to answer with.
        id: u64,
        /// What to read.
        request: crate::record::library::OpenRequest,
        /// Set when the player cancels (Esc) or quits: the worker stops at its next check.
        stop: Arc<AtomicBool>,
    },
    /// Write these changed settings into the config file, keeping everything else in it.
    SaveConfig(Vec<crate::config::Change>),
    /// Ring the terminal bell (the CPU has moved and `bell = true`).
    Bell,
    /// Analyse a line on a worker ([`crate::analysis`]), answering with
    /// [`Action::AnalysisProgress`] and [`Action::AnalysisFinished`].
    StartAnalysis(Box<review::AnalysisJob>),
    /// Start a live analysis search of `game`'s position on a worker, until stopped; it
    /// answers with [`Action::LiveProgress`], [`Action::LiveFinished`] or
    /// [`Action::LiveFailed`].
    StartLiveAnalysis {
        /// Id to answer with.
        id: u64,
        /// The game up to the position to analyse (its history for the rules).
        game: Box<Game>,
        /// How many best lines (MultiPV).
        lines: u32,
        /// A node limit (tests); `None` searches until stopped.
        node_limit: Option<u64>,
        /// Set to stop the search.
        stop: Arc<AtomicBool>,
        /// The external engine to ask (index into [`Settings::engines`]); `None` for the built-in one.
        engine: Option<usize>,
    },
}

/// The current selection on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A piece on this square.
    Square(u8),
    /// A piece kind in the mover's hand.
    Hand(PieceKind),
}

/// A CPU search in progress.
#[derive(Clone, Debug)]
pub struct Search {
    /// Its id.
    pub id: u64,
    /// Its stop flag.
    pub stop: Arc<AtomicBool>,
}

/// A status-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The text, already in the interface language.
    pub text: String,
    /// True for a refusal or error.
    pub error: bool,
}

/// A game being played or reviewed.
#[derive(Clone, Debug)]
pub struct Play {
    /// The game along the current line up to the present (history-aware rules live
    /// here); rebuilt from the tree when the line changes.
    pub game: Game,
    /// Every move played or read, with its variations, comments, marks and times.
    pub tree: GameTree,
    /// The current line: tree nodes from the first move to the line's end. The game
    /// has played `line[..game.moves().len()]`; the rest is what redo replays.
    pub line: Vec<NodeId>,
    /// `Some(ply)` while reviewing the position after `ply` moves.
    pub review: Option<usize>,
    /// The board cursor.
    pub cursor: u8,
    /// `Some(index)` while the cursor is on the mover's hand.
    pub hand_cursor: Option<usize>,
    /// The picked piece.
    pub selection: Option<Selection>,
    /// The legal moves of the picked piece.
    pub targets: Vec<Move>,
    /// True when the second player sits at the bottom.
    pub flipped: bool,
    /// Hotseat: turn the board after every move so the player to move sits at the bottom.
    pub flip_every_turn: bool,
    /// Who plays each side, first player first.
    pub players: [Player; 2],
    /// The CPU search in progress.
    pub search: Option<Search>,
    /// The start options, for the title and a rematch.
    pub options: StartOptions,
    /// The notation of the move list; `None` for the interface language's default.
    pub notation: Option<Notation>,
    /// Both sides' clocks; `None` in an untimed game.
    pub clock: Option<Clock>,
    /// True once this game's end has been written to the history folder.
    pub history_recorded: bool,
    /// The latest progress report of the search in progress (cleared when it ends).
    pub thinking: Option<SearchReport>,
    /// The hint search in progress (the human's side, started by the hint key).
    pub hint_search: Option<Search>,
    /// The hinted move, shown on the board until the position changes.
    pub hint: Option<Move>,
    /// The final score of each CPU search of this game, for answering draw offers.
    pub evaluations: Vec<draw::Evaluation>,
    /// When this game began (local time), for the start-time header of its record;
    /// `None` for a resumed or opened game, whose start is not known here.
    pub started: Option<jiff::civil::DateTime>,
    /// An opened record's players, event and date, as its headers say (`None` for a
    /// game played here).
    pub record: Option<crate::record::summary::RecordSummary>,
    /// The whole-game analysis running and the last one finished.
    pub analysis: review::Review,
    /// The exercises of "learn from your mistakes", while they are shown.
    pub learn: Option<learn::Learn>,
}

impl Play {
    /// With flip-every-turn on and two people at the board, seats the side to move at the bottom.
    fn face_the_mover(&mut self) {
        if self.flip_every_turn && self.players == [Player::Human, Player::Human] {
            self.flipped = self.game.position().side_to_move() == crate::rules::Side::Second;
        }
    }

    /// The notation the move list is written in.
    pub fn notation(&self, language: Language) -> Notation {
        self.notation
            .unwrap_or_else(|| language.default_notation(self.game.variant()))
    }

    /// The notation as a glyph set can show it: with Latin glyphs (`--ascii`) an ASCII
    /// notation of the game in place of one written in CJK characters or Hangul.
    pub fn notation_for(&self, language: Language, glyphs: GlyphSet) -> Notation {
        match (self.notation(language), glyphs) {
            (Notation::Chinese { .. }, GlyphSet::Latin) => Notation::Wxf,
            (Notation::Japanese, GlyphSet::Latin) => Notation::Hodges,
            (Notation::Korean { .. }, GlyphSet::Latin) => Notation::Engine,
            (notation, _) => notation,
        }
    }

    /// The position shown: the reviewed one or the present.
    pub fn shown_position(&self) -> &AnyPosition {
        match self.review {
            Some(ply) => &self.game.positions()[ply],
            None => self.game.position(),
        }
    }

    /// The number of moves before the shown position.
    pub fn shown_ply(&self) -> usize {
        self.review.unwrap_or(self.game.moves().len())
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        let ply = self.shown_ply();
        (ply > 0).then(|| self.game.moves()[ply - 1])
    }

    /// True while the game has no result.
    pub fn in_progress(&self) -> bool {
        self.game.outcome().is_none()
    }

    /// The player of a side.
    pub fn player(&self, side: Side) -> Player {
        self.players[side.index()]
    }

    /// Pieces each side has captured (xiangqi, janggi), in capture order: `[first's, second's]`.
    pub fn captured(&self) -> [Vec<PieceKind>; 2] {
        let mut captured = [Vec::new(), Vec::new()];
        let ply = self.shown_ply();
        let positions = self.game.positions();
        for (index, &mv) in self.game.moves()[..ply].iter().enumerate() {
            let before = &positions[index];
            if before.is_capture(mv) {
                if let Some(piece) = before.piece_on(mv.to) {
                    captured[piece.side.opponent().index()].push(piece.kind);
                }
            }
        }
        captured
    }
}

/// The whole model.
#[derive(Debug)]
pub struct App {
    /// Language and glyphs.
    pub settings: Settings,
    /// The screen under any popup.
    pub screen: Screen,
    /// The start-screen choices.
    pub options: StartOptions,
    /// The focused start-screen row (index into [`StartOptions::fields`]).
    pub start_row: usize,
    /// The game, once one has started.
    pub play: Option<Play>,
    /// The popup, if any.
    pub overlay: Option<Overlay>,
    /// The status-line message.
    pub status: Option<Status>,
    /// The existing file the save prompt's overwrite question is about (full path).
    pub save_to_replace: Option<String>,
    /// Set when the program should end.
    pub quit: bool,
    /// Ticks since the start.
    pub ticks: u64,
    /// The saved game the start screen offers to continue.
    pub resume: Option<SavedGame>,
    /// Where the clocks read the time (the system clock; a manual one in tests).
    pub time: TimeSource,
    /// True while the thinking line is shown (`t` toggles it for the session).
    pub show_thinking: bool,
    /// The user's settings as loaded (and as changed on the settings screen).
    pub config: crate::config::Config,
    /// Where the config is saved to, when known.
    pub config_path: Option<std::path::PathBuf>,
    /// The config as the file has it (as loaded or last saved): saving writes the
    /// difference from this.
    pub saved_config: crate::config::Config,
    /// The key table: the defaults with the config's bindings merged in.
    pub keymap: Vec<keymap::Binding>,
    /// The theme's styles, made ready for this terminal.
    pub palette: crate::theme::Palette,
    /// The terminal's colours (depth, `NO_COLOR`), to rebuild the palette for another theme.
    pub color_mode: crate::theme::ColorMode,
    /// The configured theme when it is the user's own file (name and contents), so the
    /// settings screen can come back to it.
    pub user_theme: Option<(String, crate::theme::ThemeSpec)>,
    /// True while a popup holds the CPUs (and the clocks) of the game.
    popup_paused: bool,
    /// True when that popup paused the running clock (to restart it when it closes).
    popup_paused_clock: bool,
    /// CPU against CPU after an undo: the CPUs wait until the player resumes (`P`).
    pub cpus_held: bool,
    /// The record being read on a worker, if any ([`App::start_opening`]).
    pub opening: Option<records::Opening>,
    /// The search budget per position of "analyse this game" (the default of `qipan analyse`).
    pub analysis_budget: crate::analysis::Budget,
    /// Live analysis: its search, the lines it shows, how many.
    pub live: live::LiveAnalysis,
    effects: Vec<Effect>,
    next_search_id: u64,
}

impl App {
    /// A new app on the start screen.
    pub fn new(settings: Settings) -> App {
        App {
            settings,
            screen: Screen::Start,
            options: StartOptions::default(),
            start_row: 0,
            play: None,
            overlay: None,
            status: None,
            save_to_replace: None,
            quit: false,
            ticks: 0,
            resume: None,
            // Unit tests read a clock that only they move, so a loaded machine cannot
            // change what a timed screen shows.
            time: if cfg!(test) {
                TimeSource::manual()
            } else {
                TimeSource::System
            },
            show_thinking: true,
            config: crate::config::Config::default(),
            config_path: None,
            saved_config: crate::config::Config::default(),
            keymap: keymap::KEYMAP.to_vec(),
            palette: crate::theme::Palette::default(),
            color_mode: crate::theme::ColorMode::default(),
            user_theme: None,
            popup_paused: false,
            popup_paused_clock: false,
            cpus_held: false,
            opening: None,
            analysis_budget: crate::analysis::Budget::default(),
            live: live::LiveAnalysis::default(),
            effects: Vec::new(),
            next_search_id: 1,
        }
    }

    /// A new app already in a game with these options.
    pub fn with_game(settings: Settings, options: StartOptions) -> App {
        let mut app = App::new(settings);
        app.options = options;
        app.start_game();
        app
    }

    /// A new hotseat app playing from a given position (tests, analysis).
    pub fn from_position(settings: Settings, position: AnyPosition) -> App {
        let mut app = App::new(settings);
        // The title names the game and rule set of the position, not the start screen's.
        app.options = StartOptions::for_variant(position.variant());
        let game = Game::new(position);
        app.begin(game, [Player::Human, Player::Human], None);
        app
    }

    /// A new app continuing a saved game where it stopped (CPU players think at once
    /// when it is their turn).
    pub fn from_saved(settings: Settings, saved: SavedGame) -> App {
        let mut app = App::new(settings);
        app.resume_saved(saved);
        app
    }

    /// Offers a saved game as the first choice of the start screen.
    pub fn offer_saved_game(&mut self, saved: SavedGame) {
        self.options = StartOptions {
            players: players_of(&saved, &self.settings),
            ..StartOptions::for_variant(saved.game.variant())
        };
        self.resume = Some(saved);
        self.start_row = 0;
    }

    /// Shows an error in the status line, e.g. an autosave that could not be read or written.
    pub fn show_error(&mut self, key: Key, detail: &str) {
        self.refuse_text(key, &[detail]);
    }

    /// The rows of the start screen: "continue the saved game" first when there is one.
    pub fn start_fields(&self) -> Vec<StartField> {
        let mut fields = self.options.fields();
        if self.resume.is_some() {
            fields.insert(0, StartField::Continue);
        }
        fields
    }

    /// The game in progress as autosave data.
    pub fn saved_game(&self) -> Option<SavedGame> {
        let play = self.play.as_ref()?;
        // External engines are saved by name and found again among the configured ones.
        let seat = |player: Player| match player {
            Player::Human => Seat::Human,
            Player::Computer { level } => Seat::Computer(level),
            Player::Engine { index } => match self.settings.engines.get(index) {
                Some(spec) => Seat::Engine(spec.name.clone()),
                None => Seat::Human,
            },
        };
        Some(SavedGame {
            game: play.game.clone(),
            players: [seat(play.players[0]), seat(play.players[1])],
            flipped: play.flipped,
            flip_every_turn: play.flip_every_turn,
            notation: play.notation,
            clock: play.clock.as_ref().map(|clock| SavedClock {
                control: clock.control(),
                times: [
                    clock.time(Side::First, self.now()),
                    clock.time(Side::Second, self.now()),
                ],
            }),
            move_times: play.move_times(),
            tree: play.tree.clone(),
            line: play.line.clone(),
        })
    }

    /// Queues the autosave of the game in progress, or its removal once the game has ended.
    fn autosave(&mut self) {
        let Some(play) = &self.play else { return };
        if !play.in_progress() {
            self.effects.push(Effect::RemoveAutosave);
        } else if !play.tree.is_empty() {
            if let Some(saved) = self.saved_game() {
                self.effects
                    .push(Effect::Autosave(autosave::to_text(&saved)));
            }
        }
    }

    fn resume_saved(&mut self, saved: SavedGame) {
        let players = players_of(&saved, &self.settings);
        self.options = StartOptions {
            players,
            // A file from before clocks, or an untimed game, continues untimed.
            time: saved.clock.map_or(Default::default(), |c| c.control),
            time_defaults: self.options.time_defaults,
            ..StartOptions::for_variant(saved.game.variant())
        };
        self.begin(saved.game, players, saved.clock);
        if let Some(play) = &mut self.play {
            play.flipped = saved.flipped;
            play.flip_every_turn = saved.flip_every_turn;
            play.notation = saved.notation;
            play.adopt_tree(saved.tree, saved.line);
            play.face_the_mover();
        }
        self.autosave();
    }

    /// The interface text of a key.
    pub fn text(&self, key: Key) -> &'static str {
        self.settings.language.text(key)
    }

    /// Takes the queued effects.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    fn say(&mut self, text: String) {
        self.status = Some(Status { text, error: false });
    }

    fn refuse(&mut self, reason: IllegalMove) {
        let language = self.settings.language;
        let text = language.format(Key::StatusIllegal, &[language.text(illegal_key(reason))]);
        self.status = Some(Status { text, error: true });
    }

    fn refuse_text(&mut self, key: Key, arguments: &[&str]) {
        let text = self.settings.language.format(key, arguments);
        self.status = Some(Status { text, error: true });
    }

    /// Handles one action; live analysis then follows the position on the board.
    pub fn update(&mut self, action: Action) {
        self.handle(action);
        self.follow_live_analysis();
    }

    fn handle(&mut self, action: Action) {
        match action {
            Action::ForceQuit => {
                self.cancel_opening();
                self.stop_search();
                self.autosave();
                self.quit = true;
                return;
            }
            Action::Tick => {
                self.ticks += 1;
                self.check_flag();
                self.live_tick();
                return;
            }
            Action::Resize => return,
            Action::ComputerMove { search, mv } => {
                self.computer_move(search, mv);
                return;
            }
            Action::SearchProgress { search, report } => {
                self.search_progress(search, *report);
                return;
            }
            Action::EngineResigns { search } => {
                self.engine_ends_game(search, false);
                return;
            }
            Action::EngineDeclaresWin { search } => {
                self.engine_ends_game(search, true);
                return;
            }
            Action::EngineFailed { search, message } => {
                self.engine_failed(search, &message);
                return;
            }
            Action::LiveProgress {
                search,
                line,
                report,
            } => {
                self.live_progress(search, line, *report);
                return;
            }
            Action::LiveFinished { search, lines } => {
                self.live_finished(search, lines);
                return;
            }
            Action::LiveFailed { search, message } => {
                self.live_failed(search, &message);
                return;
            }
            Action::AnalysisProgress {
                analysis,
                done,
                total,
            } => {
                self.analysis_progress(analysis, done, total);
                return;
            }
            Action::AnalysisFinished { analysis, answer } => {
                self.analysis_finished(analysis, *answer);
                return;
            }
            Action::RecordProgress { opening, progress } => {
                self.opening_progress(opening, progress);
                return;
            }
            Action::RecordRead { opening, file } => {
                self.record_read(opening, file.take());
                return;
            }
            // While a record is read, Esc cancels it and quitting works; nothing else
            // may change what the record will be opened over.
            _ if self.opening.is_some() => {
                if self.update_while_opening(&action) {
                    return;
                }
            }
            Action::Hint => {}
            // Any other key or click cancels a hint search.
            _ => self.stop_hint_search(),
        }
        if self.overlay.is_some() {
            self.update_overlay(action);
        } else {
            match self.screen {
                Screen::Start => self.update_start(action),
                Screen::Game => self.update_game(action),
            }
        }
        self.pause_for_popups();
    }

    /// Any question or popup over the game pauses the CPUs and the clocks; they go on
    /// when it closes (a pause the player made with `P` stays).
    fn pause_for_popups(&mut self) {
        let popup = self.screen == Screen::Game
            && self
                .overlay
                .as_ref()
                .is_some_and(|o| !matches!(o, Overlay::GameOver { .. }));
        let now = self.now();
        let Some(play) = &mut self.play else {
            self.popup_paused = false;
            return;
        };
        if popup && !self.popup_paused {
            self.popup_paused = true;
            if let Some(clock) = play.clock.as_mut().filter(|c| !c.is_paused()) {
                if play.game.outcome().is_none() {
                    clock.pause(now);
                    self.popup_paused_clock = true;
                }
            }
            self.stop_search();
        } else if !popup && self.popup_paused {
            self.popup_paused = false;
            if std::mem::take(&mut self.popup_paused_clock) {
                if let Some(clock) = play.clock.as_mut().filter(|c| c.is_paused()) {
                    if play.game.outcome().is_none() {
                        clock.resume(now);
                    }
                }
            }
            self.start_search_if_needed();
        }
    }

    // ----- start screen -------------------------------------------------

    fn update_start(&mut self, action: Action) {
        let fields = self.start_fields();
        self.start_row = self.start_row.min(fields.len() - 1);
        // A start-screen message is read by the time a key is pressed.
        self.status = None;
        match action {
            Action::Up => self.start_row = self.start_row.saturating_sub(1),
            Action::Down => self.start_row = (self.start_row + 1).min(fields.len() - 1),
            Action::Left => self.change_option(fields[self.start_row], -1),
            Action::Right => self.change_option(fields[self.start_row], 1),
            Action::Select => self.start_from_row(fields[self.start_row]),
            Action::ClickStartRow(row) if row < fields.len() => {
                let button = matches!(fields[row], StartField::Start | StartField::Continue);
                if self.start_row == row || button {
                    self.start_row = row;
                    if button {
                        self.start_from_row(fields[row]);
                    } else {
                        self.change_option(fields[row], 1);
                    }
                } else {
                    self.start_row = row;
                }
            }
            Action::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Action::Settings => self.open_settings(),
            Action::OpenFile => self.open_open_prompt(),
            Action::Quit => self.quit = true,
            // Esc goes back to the game this screen was opened from (if any); only
            // `q` and Ctrl-C leave the program.
            Action::Cancel if self.play.is_some() => self.screen = Screen::Game,
            _ => {}
        }
    }

    /// Changes a start-screen row; the player rows also step through the external engines.
    fn change_option(&mut self, field: StartField, delta: i32) {
        match field {
            StartField::Player(side) => {
                // Engines that cannot play the chosen game (USI engines outside shogi) are skipped.
                let variant = self.options.variant();
                let engines = &self.settings.engines;
                let player = &mut self.options.players[side.index()];
                for _ in 0..=11 + engines.len() {
                    *player = player.step_with_engines(delta, engines.len());
                    match *player {
                        Player::Engine { index } if !engines[index].can_play(variant) => {}
                        _ => break,
                    }
                }
            }
            other => self.options.change(other, delta),
        }
    }

    /// Enter on a start-screen row: continue the saved game on its row, else a new game.
    fn start_from_row(&mut self, field: StartField) {
        match (field, self.resume.take()) {
            (StartField::Continue, Some(saved)) => self.resume_saved(saved),
            (_, resume) => {
                self.resume = resume;
                self.start_game();
            }
        }
    }

    /// Starts a game with the current start options.
    pub fn start_game(&mut self) {
        let game = Game::new(self.options.start_position());
        self.begin(game, self.options.players, None);
        if let Some(play) = &mut self.play {
            play.started = Some(crate::record::library::local_now());
        }
    }

    /// Starts playing `game`; its clocks start from `saved` (a resumed game) or afresh.
    fn begin(&mut self, game: Game, players: [Player; 2], saved: Option<SavedClock>) {
        self.stop_search();
        self.stop_analysis_quietly();
        self.turn_live_analysis_off();
        self.effects.push(Effect::ResetEngines);
        // The offer is gone once a game starts: this game's autosave replaces it.
        self.resume = None;
        self.cpus_held = false;
        let position = game.position();
        let kind = position.game();
        let cursor = start_cursor(position);
        let clock = self.new_clock(self.options.time, position.side_to_move(), saved);
        let tree = GameTree::from_game(&game);
        let line = tree.main_line();
        self.play = Some(Play {
            game,
            tree,
            line,
            review: None,
            cursor,
            hand_cursor: None,
            selection: None,
            targets: Vec::new(),
            flipped: players[0] != Player::Human && players[1] == Player::Human,
            flip_every_turn: false,
            players,
            search: None,
            options: self.options,
            notation: self.config.notation.for_game(kind),
            clock,
            history_recorded: false,
            thinking: None,
            hint_search: None,
            hint: None,
            evaluations: Vec::new(),
            started: None,
            record: None,
            analysis: review::Review::default(),
            learn: None,
        });
        self.screen = Screen::Game;
        self.overlay = None;
        self.status = None;
        self.after_change();
    }

    // ----- popups -------------------------------------------------------

    fn update_overlay(&mut self, action: Action) {
        let Some(overlay) = self.overlay.clone() else {
            return;
        };
        match overlay {
            Overlay::Help { scroll } => match action {
                Action::Up => {
                    self.overlay = Some(Overlay::Help {
                        scroll: scroll.saturating_sub(1),
                    })
                }
                Action::Down => {
                    self.overlay = Some(Overlay::Help {
                        // The renderer stops at the end of the text; this only bounds the count.
                        scroll: scroll.saturating_add(1).min(HELP_SCROLL_LIMIT),
                    })
                }
                Action::Quit => self.quit_asking(),
                _ => self.overlay = None,
            },
            Overlay::GameOver { choice } => match action {
                Action::Up => {
                    self.overlay = Some(Overlay::GameOver {
                        choice: choice.saturating_sub(1),
                    })
                }
                Action::Down => {
                    self.overlay = Some(Overlay::GameOver {
                        choice: (choice + 1).min(3),
                    })
                }
                Action::Select => self.game_over_choice(choice),
                Action::Redo | Action::Cancel => self.game_over_choice(0),
                Action::NewGame => self.game_over_choice(1),
                Action::Quit => self.game_over_choice(2),
                Action::Save => self.open_save_prompt(),
                Action::AnalyseGame => self.game_over_choice(3),
                _ => {}
            },
            Overlay::Confirm(question) => match action {
                Action::Yes | Action::Select => {
                    self.overlay = None;
                    self.answer(question, true);
                }
                Action::No | Action::Cancel => {
                    self.overlay = None;
                    self.answer(question, false);
                }
                _ => {}
            },
            Overlay::Promotion {
                plain,
                promoting,
                promote,
            } => match action {
                Action::Up | Action::Down | Action::Left | Action::Right => {
                    self.overlay = Some(Overlay::Promotion {
                        plain,
                        promoting,
                        promote: !promote,
                    });
                }
                Action::Yes => {
                    self.overlay = None;
                    self.play_move(promoting);
                }
                Action::No => {
                    self.overlay = None;
                    self.play_move(plain);
                }
                Action::Select => {
                    self.overlay = None;
                    self.play_move(if promote { promoting } else { plain });
                }
                Action::Cancel => self.overlay = None,
                _ => {}
            },
            Overlay::Prompt { mut text } => match action {
                Action::PromptChar(c) => {
                    if text.chars().count() < 16 {
                        text.push(c);
                    }
                    self.overlay = Some(Overlay::Prompt { text });
                }
                Action::PromptBackspace => {
                    text.pop();
                    self.overlay = Some(Overlay::Prompt { text });
                }
                Action::Select => {
                    self.overlay = None;
                    self.typed_move(text.trim());
                }
                Action::Cancel => self.overlay = None,
                _ => {}
            },
            Overlay::SaveAs { text } => self.update_save_prompt(action, text),
            Overlay::OpenFile {
                text,
                choices,
                choice,
            } => self.update_open_prompt(action, text, choices, choice),
            Overlay::Settings { row } => self.update_settings(row, action),
            Overlay::Variations { choice } => self.update_variations(choice, action),
        }
    }

    fn game_over_choice(&mut self, choice: usize) {
        self.overlay = None;
        match choice {
            0 => {}
            1 => self.open_start_screen(),
            3 => self.start_analysis(),
            _ => self.quit = true,
        }
    }

    fn answer(&mut self, question: Question, yes: bool) {
        match (question, yes) {
            (Question::Quit, true) => {
                self.stop_search();
                // Keep the time used since the last move for the next session.
                self.autosave();
                self.quit = true;
            }
            (Question::NewGame, true) => self.abandon_game(),
            (Question::Resign(side), true) => {
                if let Some(play) = &mut self.play {
                    play.game
                        .declare(Outcome::win(side.opponent(), EndReason::Resignation));
                }
                self.after_change();
            }
            (Question::DrawOffer(_), true) => {
                if let Some(play) = &mut self.play {
                    // Gungjanggi has no draws: an accepted offer starts its judging phase.
                    play.game.accept_draw();
                }
                self.after_change();
            }
            (Question::Undo, true) => self.undo(),
            (Question::Overwrite, yes) => self.answer_overwrite(yes),
            (Question::Redo, true) => self.redo(),
            (Question::DrawOffer(_), false) => {
                self.refuse_text(Key::StatusDrawDeclined, &[]);
            }
            _ => {}
        }
    }

    /// The player agreed to leave the game in progress for a new one: it is over. It goes
    /// to the history folder as it stands and is no longer the autosave to continue.
    fn abandon_game(&mut self) {
        self.stop_search();
        self.stop_clock();
        if let Some(play) = self.play.as_mut().filter(|p| !p.history_recorded) {
            play.history_recorded = true;
            if let Some(record) = self.game_record() {
                self.effects.push(Effect::SaveRecord {
                    record: Box::new(record),
                    target: records::SaveTarget::History,
                });
            }
        }
        self.effects.push(Effect::RemoveAutosave);
        if let Some(play) = self.play.take() {
            self.options = play.options;
        }
        self.open_start_screen();
    }

    /// The start screen over the game (kept, so Esc can go back to it while it has not
    /// been abandoned).
    fn open_start_screen(&mut self) {
        self.stop_search();
        if let Some(play) = &self.play {
            self.options = play.options;
        }
        self.screen = Screen::Start;
        self.status = None;
        self.start_row = self.start_fields().len() - 1;
    }

    fn quit_asking(&mut self) {
        let in_progress = self
            .play
            .as_ref()
            .is_some_and(|p| p.in_progress() && !p.game.moves().is_empty());
        if in_progress {
            self.overlay = Some(Overlay::Confirm(Question::Quit));
        } else {
            self.stop_search();
            self.quit = true;
        }
    }

    // ----- the game -----------------------------------------------------

    fn update_game(&mut self, action: Action) {
        if self.play.is_none() {
            self.screen = Screen::Start;
            return;
        }
        if self.learning() {
            self.update_learn(action);
            return;
        }
        match action {
            Action::Up => self.move_cursor(0, 1),
            Action::Down => self.move_cursor(0, -1),
            Action::Left => self.move_cursor(-1, 0),
            Action::Right => self.move_cursor(1, 0),
            Action::Select => self.select(),
            Action::Cancel if self.analysis_running() => self.cancel_analysis(),
            Action::Cancel => self.cancel(),
            Action::ToggleHand => self.toggle_hand(),
            // While reviewing, the prompt opens without cutting the game: `#N` jumps,
            // and only a typed move branches off the shown position.
            Action::OpenPrompt
                if self.play.as_ref().is_some_and(|p| p.review.is_some())
                    || self.can_move_now() =>
            {
                self.overlay = Some(Overlay::Prompt {
                    text: String::new(),
                });
            }
            Action::Pass => self.pass(),
            Action::Undo => self.undo_asking(),
            Action::Pause => self.toggle_pause(),
            Action::Redo => self.redo_asking(),
            Action::Flip => {
                if let Some(play) = &mut self.play {
                    play.flipped = !play.flipped;
                }
                let text = self.text(Key::StatusBoardFlipped).to_string();
                self.say(text);
                self.autosave();
            }
            Action::FlipEveryTurn => {
                let mut on = false;
                if let Some(play) = &mut self.play {
                    play.flip_every_turn = !play.flip_every_turn;
                    on = play.flip_every_turn;
                    play.face_the_mover();
                }
                let key = if on {
                    Key::StatusFlipEveryTurnOn
                } else {
                    Key::StatusFlipEveryTurnOff
                };
                let text = self.text(key).to_string();
                self.say(text);
                self.autosave();
            }
            Action::CycleNotation => self.cycle_notation(),
            Action::Save => self.open_save_prompt(),
            Action::OpenFile => self.open_open_prompt(),
            Action::ShowFen => self.show_position_fen(),
            Action::Hint => self.start_hint(),
            Action::ToggleLiveAnalysis => self.toggle_live_analysis(),
            Action::FewerLines => self.change_live_lines(-1),
            Action::MoreLines => self.change_live_lines(1),
            Action::ToggleThinking => {
                self.show_thinking = !self.show_thinking;
                let key = if self.show_thinking {
                    Key::StatusThinkingShown
                } else {
                    Key::StatusThinkingHidden
                };
                let text = self.text(key).to_string();
                self.say(text);
            }
            Action::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Action::Settings => self.open_settings(),
            Action::Variations => self.open_variations(),
            Action::AnalyseGame => self.start_analysis(),
            Action::PreviousMistake => self.jump_to_mistake(false, false),
            Action::NextMistake => self.jump_to_mistake(true, false),
            Action::PreviousMistakeOfSide => self.jump_to_mistake(false, true),
            Action::NextMistakeOfSide => self.jump_to_mistake(true, true),
            Action::Learn => self.start_learning(),
            Action::Quit => self.quit_asking(),
            Action::HistoryBack => self.review_step(-1),
            Action::HistoryForward => self.review_step(1),
            Action::HistoryStart => self.review_to(Some(0)),
            Action::HistoryEnd => self.review_to(None),
            Action::Resign => self.resign(),
            Action::OfferDraw => self.offer_draw(),
            Action::NewGame => {
                let in_progress = self
                    .play
                    .as_ref()
                    .is_some_and(|p| p.in_progress() && !p.game.moves().is_empty());
                if in_progress {
                    self.overlay = Some(Overlay::Confirm(Question::NewGame));
                } else {
                    self.open_start_screen();
                }
            }
            Action::ClickSquare(square) => {
                if let Some(play) = &mut self.play {
                    if square < play.game.position().ranks() * 9 {
                        play.cursor = square;
                        play.hand_cursor = None;
                        self.select();
                    }
                }
            }
            Action::ClickHand(side, index) => {
                let Some(play) = &mut self.play else { return };
                if play.review.is_none() && play.game.position().side_to_move() == side {
                    play.hand_cursor = Some(index);
                    self.select();
                }
            }
            _ => {}
        }
    }

    fn move_cursor(&mut self, files: i32, ranks: i32) {
        let Some(play) = &mut self.play else { return };
        let sign = if play.flipped { -1 } else { 1 };
        if let Some(index) = play.hand_cursor {
            let count = play
                .game
                .position()
                .hand(play.game.position().side_to_move())
                .len();
            if count > 0 {
                // The hand is a vertical list: up/down and left/right both walk it.
                let step = if ranks != 0 { -ranks * sign } else { files };
                let next = (index as i32 + step).clamp(0, count as i32 - 1);
                play.hand_cursor = Some(next as usize);
            }
            return;
        }
        let ranks_on_board = play.game.position().ranks() as i32;
        let file = (play.cursor % 9) as i32 + files * sign;
        let rank = (play.cursor / 9) as i32 + ranks * sign;
        let file = file.clamp(0, 8);
        let rank = rank.clamp(0, ranks_on_board - 1);
        play.cursor = (rank * 9 + file) as u8;
    }

    fn toggle_hand(&mut self) {
        let Some(play) = &mut self.play else { return };
        if play.game.variant().kind() != GameKind::Shogi {
            return;
        }
        if play.hand_cursor.is_some() {
            play.hand_cursor = None;
            return;
        }
        let position = play.game.position();
        if position.hand(position.side_to_move()).is_empty() {
            self.refuse_text(Key::StatusHandEmpty, &[]);
        } else {
            play.hand_cursor = Some(0);
        }
    }

    fn cancel(&mut self) {
        let Some(play) = &mut self.play else { return };
        play.selection = None;
        play.targets.clear();
        play.hand_cursor = None;
        self.status = None;
    }

    /// True when a human may move now; says why not in the status line otherwise.
    fn can_move_now(&mut self) -> bool {
        let Some(play) = &self.play else { return false };
        if play.review.is_some() {
            self.branch_from_review();
        }
        let Some(play) = &self.play else { return false };
        if !play.in_progress() {
            self.refuse_text(Key::StatusGameOver, &[]);
            return false;
        }
        if play.clock.as_ref().is_some_and(Clock::is_paused) {
            self.refuse_text(Key::StatusPausedHint, &[]);
            return false;
        }
        let side = play.game.position().side_to_move();
        if play.player(side) != Player::Human {
            self.refuse_text(Key::StatusWaitComputer, &[]);
            return false;
        }
        true
    }

    fn select(&mut self) {
        // While reviewing, only picking a piece of the side to move branches off; Enter
        // on an empty point or an opponent's piece leaves the game as it is.
        if let Some(play) = &self.play {
            if play.review.is_some() && play.hand_cursor.is_none() {
                let shown = play.shown_position();
                let mover = shown.side_to_move();
                if !shown.piece_on(play.cursor).is_some_and(|p| p.side == mover) {
                    self.refuse_text(Key::StatusReviewOnly, &[]);
                    return;
                }
            }
        }
        if !self.can_move_now() {
            return;
        }
        let Some(play) = &mut self.play else { return };
        if let Some(index) = play.hand_cursor.take() {
            let position = play.game.position();
            let hand = position.hand(position.side_to_move());
            if let Some(&(kind, _)) = hand.get(index) {
                play.selection = Some(Selection::Hand(kind));
                play.targets = play
                    .game
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.is_drop() && Some(m.from) == shogi_hand_kind(kind))
                    .collect();
                let text = self.text(Key::StatusChooseDrop).to_string();
                self.say(text);
            }
            return;
        }
        let square = play.cursor;
        self.choose_square(square);
    }

    fn choose_square(&mut self, square: u8) {
        let Some(play) = &mut self.play else { return };
        let position = play.game.position().clone();
        let mover = position.side_to_move();
        let own_piece = position.piece_on(square).filter(|p| p.side == mover);
        if let Some(selection) = play.selection {
            if selection == Selection::Square(square) {
                play.selection = None;
                play.targets.clear();
                self.status = None;
                return;
            }
            let candidates: Vec<Move> = play
                .targets
                .iter()
                .copied()
                .filter(|m| m.to == square && !m.is_pass())
                .collect();
            match candidates.as_slice() {
                [] => {}
                [only] => {
                    let only = *only;
                    self.play_move(only);
                    return;
                }
                several => {
                    let plain = several.iter().copied().find(|m| !m.is_promotion());
                    let promoting = several.iter().copied().find(|m| m.is_promotion());
                    if let (Some(plain), Some(promoting)) = (plain, promoting) {
                        self.overlay = Some(Overlay::Promotion {
                            plain,
                            promoting,
                            promote: true,
                        });
                    } else {
                        self.play_move(several[0]);
                    }
                    return;
                }
            }
            if own_piece.is_some() && matches!(selection, Selection::Square(_)) {
                self.pick(square);
                return;
            }
            let attempted = match selection {
                Selection::Square(from) => Move::new(from, square),
                Selection::Hand(kind) => Move::drop(shogi_hand_kind(kind).unwrap_or(0), square),
            };
            // The game names the rule, history included (a repetition, a second bikjang).
            let Some(play) = &self.play else { return };
            let reason = play
                .game
                .check_move(attempted)
                .err()
                .unwrap_or(IllegalMove::NotAMove);
            self.refuse(reason);
            return;
        }
        if own_piece.is_some() {
            self.pick(square);
        } else {
            self.refuse(IllegalMove::NoPieceToMove);
        }
    }

    fn pick(&mut self, square: u8) {
        let Some(play) = &mut self.play else { return };
        play.selection = Some(Selection::Square(square));
        play.targets = play
            .game
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !m.is_drop() && !m.is_pass() && m.from == square)
            .collect();
        if play.targets.is_empty() {
            let key = no_move_reason(play.game.position(), square);
            self.refuse_text(key, &[]);
        } else {
            let text = self.text(Key::StatusChooseTarget).to_string();
            self.say(text);
        }
    }

    /// Plays a move for the side to move (a human's, a typed one, or the CPU's).
    fn play_move(&mut self, mv: Move) {
        // In an exercise a move is tried, not played.
        if self.learning() {
            self.learn_try(mv);
            return;
        }
        // A move made after the flag fell does not count.
        if self.check_flag() {
            return;
        }
        let Some(play) = &mut self.play else { return };
        match play.game.play(mv) {
            Ok(()) => {
                // The move goes into the tree: along the line, onto an existing
                // variation, or as a new one (the old line stays).
                let made_variation = play.record_move(mv);
                self.clock_after_move();
                let Some(play) = &mut self.play else { return };
                play.selection = None;
                play.targets.clear();
                play.hand_cursor = None;
                if !mv.is_pass() {
                    play.cursor = mv.to;
                }
                self.status = None;
                if made_variation {
                    let ply = play.game.moves().len().to_string();
                    let text = self
                        .settings
                        .language
                        .format(Key::StatusVariationMade, &[&ply]);
                    self.say(text);
                }
                self.after_change();
            }
            Err(reason) => self.refuse(reason),
        }
    }

    fn typed_move(&mut self, text: &str) {
        // `#23`: jump to the position after the 23rd move (ply) of the game.
        if let Some(number) = text.strip_prefix('#') {
            let Some(play) = &self.play else { return };
            let end = play.game.moves().len();
            match number.trim().parse::<usize>() {
                Ok(ply) if ply <= end => self.review_to(Some(ply)),
                _ => self.refuse_text(Key::StatusNoSuchMove, &[text, &end.to_string()]),
            }
            return;
        }
        if self.play.as_ref().is_some_and(|p| p.review.is_some()) && !self.can_move_now() {
            return;
        }
        let Some(play) = &self.play else { return };
        let position = play.game.position();
        let previous = play.game.moves().last().copied();
        match parse_move_after(position, text, previous) {
            Ok(mv) => self.play_move(mv),
            Err(NotationError::Unknown(_)) => self.refuse_text(Key::StatusUnknownMove, &[text]),
            Err(NotationError::Illegal { refusal, .. }) => {
                let language = self.settings.language;
                let reason = match refusal {
                    Refusal::Rule(why) => language.text(illegal_key(why)).to_string(),
                    Refusal::WrongPiece { square, piece } => {
                        language.format(Key::IllegalWrongPiece, &[&square, &piece])
                    }
                    Refusal::NotWrittenHere => {
                        language.text(Key::IllegalNotWrittenHere).to_string()
                    }
                    Refusal::NotAllowed => language.text(Key::IllegalNotAllowed).to_string(),
                };
                self.refuse_text(Key::StatusMoveRefused, &[text, &reason])
            }
            Err(NotationError::Ambiguous { candidates, .. }) => {
                self.refuse_text(Key::StatusAmbiguousMove, &[text, &candidates.join(" / ")])
            }
        }
    }

    fn cycle_notation(&mut self) {
        let language = self.settings.language;
        let Some(play) = &mut self.play else { return };
        let next = play.notation(language).next(play.game.variant().kind());
        play.notation = Some(next);
        let name = language.text(settings_screen::notation_key(next));
        let text = language.format(Key::StatusNotation, &[name]);
        self.status = Some(Status { text, error: false });
        self.autosave();
    }

    fn pass(&mut self) {
        if !self.can_move_now() {
            return;
        }
        let Some(play) = &self.play else { return };
        let pass = play
            .game
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_pass());
        let third_pass = play.game.position().bikjang_pending()
            || play
                .game
                .gungjanggi_status(play.game.moves().len())
                .is_some_and(|status| {
                    let mover = play.game.position().side_to_move();
                    status.sides[mover.index()].third_pass_forbidden()
                });
        match pass {
            Some(mv) => self.play_move(mv),
            None if third_pass && play.game.variant().is_gungjanggi() => {
                let language = self.settings.language;
                let rule = language.text(Key::IllegalThirdPass);
                self.refuse_text(Key::StatusIllegal, &[rule]);
            }
            None if play.game.variant().kind() == GameKind::Janggi => {
                self.refuse(IllegalMove::CannotPass)
            }
            None => self.refuse_text(Key::StatusNoPass, &[]),
        }
    }

    fn undo(&mut self) {
        self.stop_search();
        let Some(play) = &mut self.play else { return };
        play.review = None;
        play.selection = None;
        play.targets.clear();
        // The taken-back moves stay on the current line: redo replays them. A result
        // declared at its end is kept for when the line is switched back to.
        play.keep_declared_result();
        if play.game.undo().is_none() {
            self.refuse_text(Key::StatusNothingToUndo, &[]);
            return;
        }
        // Against the CPU, take back its reply too so the human is to move again.
        let side = play.game.position().side_to_move();
        let has_human = play.players.contains(&Player::Human);
        if play.player(side) != Player::Human && has_human {
            play.game.undo();
        }
        // Scores of taken-back positions no longer speak for the game.
        let played = play.game.moves().len();
        play.evaluations.retain(|e| e.ply < played);
        self.status = None;
        self.overlay = None;
        self.clock_to_mover();
        self.hold_cpus_after_takeback();
        self.after_change_without_game_over();
    }

    fn redo(&mut self) {
        self.stop_search();
        let Some(play) = &mut self.play else { return };
        play.review = None;
        // Redo follows the current line's continuation.
        let Some(mv) = play.next_on_line() else {
            self.refuse_text(Key::StatusNothingToRedo, &[]);
            return;
        };
        if let Err(reason) = play.game.play(mv) {
            self.refuse(reason);
            return;
        }
        let side = play.game.position().side_to_move();
        if play.player(side) != Player::Human && play.players.contains(&Player::Human) {
            if let Some(mv) = play.next_on_line() {
                // A reply the history forbids now stays on the line, unplayed.
                let _ = play.game.play(mv);
            }
        }
        // Back at the end of a line whose result was declared (a resignation taken
        // back): the result comes back with it.
        play.restore_declared_result();
        play.selection = None;
        play.targets.clear();
        self.status = None;
        self.clock_to_mover();
        self.hold_cpus_after_takeback();
        self.after_change();
    }

    /// CPU against CPU: after a takeback or replay the CPUs (and clocks) wait for the
    /// player to look, until `P` resumes them.
    fn hold_cpus_after_takeback(&mut self) {
        let now = self.now();
        let Some(play) = &mut self.play else { return };
        if play.players.contains(&Player::Human) || !play.in_progress() {
            return;
        }
        self.cpus_held = true;
        if let Some(clock) = play.clock.as_mut().filter(|c| !c.is_paused()) {
            clock.pause(now);
        }
        let text = self.text(Key::StatusComputersHeld).to_string();
        self.say(text);
    }

    fn review_step(&mut self, step: i64) {
        let Some(play) = &mut self.play else { return };
        let end = play.game.moves().len() as i64;
        let now = play.review.map_or(end, |ply| ply as i64);
        let next = (now + step).clamp(0, end);
        let target = (next != end).then_some(next as usize);
        self.review_to(target);
    }

    fn review_to(&mut self, ply: Option<usize>) {
        let Some(play) = &mut self.play else { return };
        let end = play.game.moves().len();
        play.review = ply.filter(|&p| p < end);
        play.selection = None;
        play.targets.clear();
        play.hand_cursor = None;
        self.status = None;
    }

    fn human_side(&self) -> Option<Side> {
        let play = self.play.as_ref()?;
        let mover = play.game.position().side_to_move();
        if play.player(mover) == Player::Human {
            Some(mover)
        } else if play.player(mover.opponent()) == Player::Human {
            Some(mover.opponent())
        } else {
            None
        }
    }

    fn resign(&mut self) {
        let Some(play) = &self.play else { return };
        if !play.in_progress() {
            self.refuse_text(Key::StatusGameOver, &[]);
            return;
        }
        if let Some(side) = self.human_side() {
            self.overlay = Some(Overlay::Confirm(Question::Resign(side)));
        }
    }

    fn offer_draw(&mut self) {
        let Some(play) = &self.play else { return };
        if !play.in_progress() {
            self.refuse_text(Key::StatusGameOver, &[]);
            return;
        }
        let Some(side) = self.human_side() else {
            return;
        };
        if play.player(side.opponent()) == Player::Human {
            self.overlay = Some(Overlay::Confirm(Question::DrawOffer(side)));
        } else if draw::accepts_draw(&play.evaluations, side.opponent()) {
            self.stop_search();
            if let Some(play) = &mut self.play {
                play.game.accept_draw();
            }
            self.after_change();
            if self.play.as_ref().is_some_and(|p| p.in_progress()) {
                // Gungjanggi: the accepted request to judge starts its judging phase.
                let text = self.text(Key::StatusJudgeAccepted).to_string();
                self.say(text);
            }
        } else {
            // The CPU sees something better for itself and plays on.
            self.refuse_text(Key::StatusDrawDeclined, &[]);
        }
    }

    // ----- after every change: game over, CPU turn -----------------------

    fn after_change(&mut self) {
        if let Some(play) = &mut self.play {
            play.face_the_mover();
            play.hint = None;
        }
        self.autosave();
        let finished = self.play.as_ref().is_some_and(|p| !p.in_progress());
        if finished {
            self.stop_search();
            self.stop_clock();
            self.record_finished_game();
            if self.overlay.is_none() {
                self.overlay = Some(Overlay::GameOver { choice: 0 });
            }
            return;
        }
        self.start_search_if_needed();
    }

    fn after_change_without_game_over(&mut self) {
        if let Some(play) = &mut self.play {
            play.face_the_mover();
            play.hint = None;
        }
        self.autosave();
        let finished = self.play.as_ref().is_some_and(|p| !p.in_progress());
        if !finished {
            self.start_search_if_needed();
        }
    }

    fn start_search_if_needed(&mut self) {
        let id = self.next_search_id;
        let Some(play) = &mut self.play else { return };
        let paused = play.clock.as_ref().is_some_and(Clock::is_paused)
            || self.cpus_held
            || self.popup_paused;
        if play.search.is_some() || play.review.is_some() || !play.in_progress() || paused {
            return;
        }
        let side = play.game.position().side_to_move();
        let (limits, engine) = match play.player(side) {
            Player::Human => return,
            Player::Computer { level } => (cpu_limits(play.game.variant().kind(), level), None),
            Player::Engine { index } => (
                limits_for_level(play.game.variant().kind(), MAX_LEVEL, CPU_MOVE_TIME),
                Some(index),
            ),
        };
        let limits = self.limits_with_clock(limits, side);
        let Some(play) = &mut self.play else { return };
        self.next_search_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        play.search = Some(Search {
            id,
            stop: Arc::clone(&stop),
        });
        play.thinking = None;
        self.effects.push(Effect::StartSearch {
            id,
            game: Box::new(play.game.clone()),
            limits,
            stop,
            engine,
        });
    }

    fn stop_search(&mut self) {
        self.stop_hint_search();
        if let Some(play) = &mut self.play {
            if let Some(search) = play.search.take() {
                search.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn computer_move(&mut self, id: u64, mv: Option<Move>) {
        let Some(play) = &mut self.play else { return };
        if play.hint_search.as_ref().map(|s| s.id) == Some(id) {
            self.hint_found(mv);
            return;
        }
        if play.search.as_ref().map(|s| s.id) != Some(id) {
            return; // a stale answer from a search that was stopped
        }
        play.search = None;
        if let Some(report) = play.thinking.take() {
            play.evaluations.push(draw::Evaluation {
                ply: play.game.moves().len(),
                side: play.game.position().side_to_move(),
                score: report.score,
            });
        }
        let Some(mv) = mv else {
            // No move (`bestmove (none)`, `0000`, a bare `bestmove`) in a position with
            // legal moves is an engine fault: the side goes to the player. (With no legal
            // move the rules have ended the game and no search was started.)
            if !play.game.legal_moves().is_empty() {
                let side = play.game.position().side_to_move();
                let name = match play.player(side) {
                    Player::Engine { index } => self
                        .settings
                        .engines
                        .get(index)
                        .map_or_else(|| format!("#{}", index + 1), |spec| spec.name.clone()),
                    _ => "CPU".to_string(),
                };
                let message = self.settings.language.format(Key::EngineNoMove, &[&name]);
                self.hand_side_to_human(side, &message);
            }
            return;
        };
        // A CPU move never closes or steals a popup or a prompt (the quit question, the
        // save prompt): only a promotion choice, which belongs to the position it
        // changes, goes.
        if matches!(self.overlay, Some(Overlay::Promotion { .. })) {
            self.overlay = None;
        }
        self.play_move(mv);
        if self.config.bell {
            self.effects.push(Effect::Bell);
        }
    }

    /// True while the CPU is thinking.
    pub fn thinking(&self) -> bool {
        self.play.as_ref().is_some_and(|p| p.search.is_some())
    }
}

/// How long the CPU may think per move while games have no clocks: the whole of it at
/// level 10 ([`MAX_LEVEL`]), a cap for the node-limited lower levels.
pub const CPU_MOVE_TIME: Duration = Duration::from_secs(5);

/// How long the hint key's search thinks.
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// The engine limits of a CPU level in `game`: the engine's own level table
/// ([`crate::engine::limits_for_level`]) with [`CPU_MOVE_TIME`] per move.
pub fn cpu_limits(game: GameKind, level: u8) -> Limits {
    limits_for_level(game, level.clamp(1, MAX_LEVEL), CPU_MOVE_TIME)
}

/// The players of a saved game: an engine that is no longer configured becomes a
/// person, so the game can still be continued.
fn players_of(saved: &SavedGame, settings: &Settings) -> [Player; 2] {
    saved.players.clone().map(|seat| match seat {
        Seat::Human => Player::Human,
        Seat::Computer(level) => Player::Computer { level },
        Seat::Engine(name) => settings
            .engines
            .iter()
            .position(|spec| spec.name == name)
            .map_or(Player::Human, |index| Player::Engine { index }),
    })
}

/// The square the cursor starts on: the mover's general/king.
fn start_cursor(position: &AnyPosition) -> u8 {
    let mover = position.side_to_move();
    (0..position.ranks() * 9)
        .find(|&square| {
            position.piece_on(square).is_some_and(|p| {
                p.side == mover && matches!(p.kind, PieceKind::General | PieceKind::King)
            })
        })
        .unwrap_or(4)
}

/// Why the piece on `square` has no legal move, when one reason says it: a bikjang to
/// answer, a check it cannot meet, a pin (every move it has would leave the king in check).
fn no_move_reason(position: &AnyPosition, square: u8) -> Key {
    if position.bikjang_pending() {
        return Key::StatusNoMovesBikjang;
    }
    let refusals: Vec<IllegalMove> = (0..position.ranks() * 9)
        .filter(|&to| to != square)
        .filter_map(|to| position.check_move(Move::new(square, to)).err())
        .collect();
    let exposes = |reason: &IllegalMove| {
        matches!(
            reason,
            IllegalMove::LeavesKingInCheck | IllegalMove::FlyingGeneral
        )
    };
    if refusals.iter().any(exposes) {
        if position.in_check() {
            Key::StatusNoMovesCheck
        } else {
            Key::StatusNoMovesPinned
        }
    } else {
        Key::StatusNoMoves
    }
}

/// The interface key that explains an illegal move.
pub fn illegal_key(reason: IllegalMove) -> Key {
    match reason {
        IllegalMove::NoPieceToMove => Key::IllegalNoPiece,
        IllegalMove::NotAMove => Key::IllegalNotAMove,
        IllegalMove::LeavesKingInCheck => Key::IllegalLeavesInCheck,
        IllegalMove::FlyingGeneral => Key::IllegalFlyingGeneral,
        IllegalMove::TwoPawns => Key::IllegalTwoPawns,
        IllegalMove::DropPawnMate => Key::IllegalDropPawnMate,
        IllegalMove::DeadPiece => Key::IllegalDeadPiece,
        IllegalMove::CannotPromote => Key::IllegalCannotPromote,
        IllegalMove::MustPromote => Key::IllegalMustPromote,
        IllegalMove::NotInHand => Key::IllegalNotInHand,
        IllegalMove::CannotPass => Key::IllegalCannotPass,
        IllegalMove::ForbiddenRepetition => Key::IllegalRepetition,
        IllegalMove::BikjangAlreadyCalled => Key::IllegalBikjangCalled,
        IllegalMove::GameOver => Key::IllegalGameOver,
    }
}

/// The interface key of an end reason.
pub fn reason_key(reason: EndReason) -> Key {
    match reason {
        EndReason::Checkmate => Key::ReasonCheckmate,
        EndReason::Stalemate => Key::ReasonStalemate,
        EndReason::PerpetualCheck => Key::ReasonPerpetualCheck,
        EndReason::Repetition => Key::ReasonRepetition,
        EndReason::Bikjang => Key::ReasonBikjang,
        EndReason::MoveLimit => Key::ReasonMoveLimit,
        EndReason::InsufficientMaterial => Key::ReasonInsufficientMaterial,
        EndReason::Impasse => Key::ReasonImpasse,
        EndReason::DoublePass => Key::ReasonDoublePass,
        EndReason::Resignation => Key::ReasonResignation,
        EndReason::Foul => Key::ReasonFoul,
        EndReason::Timeout => Key::ReasonTimeout,
        EndReason::Agreement => Key::ReasonAgreement,
        EndReason::FirstCheck => Key::ReasonFirstCheck,
        EndReason::Material => Key::ReasonMaterial,
        EndReason::SecondPlayer => Key::ReasonSecondPlayer,
    }
}

/// The name of a side in a game: the interface word (Red, 초, Sente…).
pub fn side_key(game: GameKind, side: Side) -> Key {
    match (game, side) {
        (GameKind::Xiangqi, Side::First) => Key::SideRed,
        (GameKind::Xiangqi, Side::Second) => Key::SideBlack,
        (GameKind::Shogi, Side::First) => Key::SideSente,
        (GameKind::Shogi, Side::Second) => Key::SideGote,
        (GameKind::Janggi, Side::First) => Key::SideCho,
        (GameKind::Janggi, Side::Second) => Key::SideHan,
    }
}

/// The game's own written name of a side: 紅/黑, ▲先手/△後手, 楚/漢.
pub fn native_side_name(game: GameKind, side: Side) -> &'static str {
    match (game, side) {
        (GameKind::Xiangqi, Side::First) => "紅",
        (GameKind::Xiangqi, Side::Second) => "黑",
        (GameKind::Shogi, Side::First) => "▲先手",
        (GameKind::Shogi, Side::Second) => "△後手",
        (GameKind::Janggi, Side::First) => "楚",
        (GameKind::Janggi, Side::Second) => "漢",
    }
}

#[cfg(test)]
mod clock_tests;
#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod newplayer_tests;
#[cfg(test)]
mod opening_tests;
#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod variation_tests;
