//! Everything that can happen in the client (`Action`) and the key table that
//! names actions. It sits below both `config` (which reads key bindings) and `app`
//! (which acts on them), so neither has to import the other.

use crate::engine::report::SearchReport;
use crate::i18n::Key;
use crate::record::games::ReadProgress;
use crate::record::library::OpenedFile;
use crate::rules::{Move, Side};
use crossterm::event::KeyCode;
use std::sync::Arc;

/// A key binding: a key code (with Ctrl when `control` is true) and its action.
#[derive(Clone, Debug)]
pub struct Binding {
    /// The key.
    pub code: KeyCode,
    /// True when Ctrl must be held.
    pub control: bool,
    /// What it does.
    pub action: Action,
}

const fn key(code: KeyCode, action: Action) -> Binding {
    Binding {
        code,
        control: false,
        action,
    }
}

/// The key table of the board and start screens.
pub const KEYMAP: &[Binding] = &[
    key(KeyCode::Up, Action::Up),
    key(KeyCode::Down, Action::Down),
    key(KeyCode::Left, Action::Left),
    key(KeyCode::Right, Action::Right),
    key(KeyCode::Char('k'), Action::Up),
    key(KeyCode::Char('j'), Action::Down),
    key(KeyCode::Char('h'), Action::Left),
    key(KeyCode::Char('l'), Action::Right),
    key(KeyCode::Enter, Action::Select),
    key(KeyCode::Char(' '), Action::Select),
    key(KeyCode::Esc, Action::Cancel),
    key(KeyCode::Tab, Action::ToggleHand),
    key(KeyCode::BackTab, Action::ToggleHand),
    key(KeyCode::Char(':'), Action::OpenPrompt),
    key(KeyCode::Char('p'), Action::Pass),
    key(KeyCode::Char('P'), Action::Pause),
    key(KeyCode::Char('u'), Action::Undo),
    key(KeyCode::Backspace, Action::Undo),
    key(KeyCode::Char('r'), Action::Redo),
    key(KeyCode::Char('f'), Action::Flip),
    key(KeyCode::Char('F'), Action::FlipEveryTurn),
    key(KeyCode::Char('N'), Action::CycleNotation),
    key(KeyCode::Char('s'), Action::Save),
    key(KeyCode::Char('L'), Action::OpenFile),
    key(KeyCode::Char('v'), Action::ShowFen),
    key(KeyCode::Char('b'), Action::Variations),
    key(KeyCode::Char('+'), Action::PromoteVariation),
    key(KeyCode::Char('x'), Action::DeleteVariation),
    key(KeyCode::Delete, Action::DeleteVariation),
    key(KeyCode::Char('t'), Action::ToggleThinking),
    key(KeyCode::Char('H'), Action::Hint),
    key(KeyCode::Char('a'), Action::ToggleLiveAnalysis),
    key(KeyCode::Char('<'), Action::FewerLines),
    key(KeyCode::Char('>'), Action::MoreLines),
    key(KeyCode::Char('?'), Action::Help),
    key(KeyCode::F(1), Action::Help),
    key(KeyCode::Char('o'), Action::Settings),
    key(KeyCode::Char('q'), Action::Quit),
    key(KeyCode::Char('['), Action::HistoryBack),
    key(KeyCode::Char(']'), Action::HistoryForward),
    key(KeyCode::PageUp, Action::HistoryBack),
    key(KeyCode::PageDown, Action::HistoryForward),
    key(KeyCode::Home, Action::HistoryStart),
    key(KeyCode::End, Action::HistoryEnd),
    key(KeyCode::Char('R'), Action::Resign),
    key(KeyCode::Char('D'), Action::OfferDraw),
    key(KeyCode::Char('n'), Action::NewGame),
    key(KeyCode::Char('y'), Action::Yes),
    key(KeyCode::Char('A'), Action::AnalyseGame),
    key(KeyCode::Char('{'), Action::PreviousMistake),
    key(KeyCode::Char('}'), Action::NextMistake),
    key(KeyCode::Char('('), Action::PreviousMistakeOfSide),
    key(KeyCode::Char(')'), Action::NextMistakeOfSide),
    key(KeyCode::Char('M'), Action::Learn),
    Binding {
        code: KeyCode::Char('c'),
        control: true,
        action: Action::ForceQuit,
    },
];

/// The keys as the help shows them: the keys and what they do.
pub const KEY_HELP: &[(&str, Key)] = &[
    ("←↓↑→ hjkl", Key::KeyMoveCursor),
    ("Enter Space", Key::KeySelect),
    ("Esc", Key::KeyCancel),
    ("Tab", Key::KeyHand),
    (":", Key::KeyPrompt),
    ("p", Key::KeyPass),
    ("P", Key::KeyPause),
    ("u", Key::KeyUndo),
    ("r", Key::KeyRedo),
    ("[ ]", Key::KeyHistory),
    ("Home End", Key::KeyHistoryEnds),
    ("b", Key::KeyVariations),
    ("A", Key::KeyAnalyse),
    ("{ }", Key::KeyMistakes),
    ("( )", Key::KeyMistakesOfSide),
    ("M", Key::KeyLearn),
    ("f", Key::KeyFlip),
    ("F", Key::KeyFlipEveryTurn),
    ("N", Key::KeyNotation),
    ("s", Key::KeySave),
    ("L", Key::KeyOpen),
    ("v", Key::KeyShowFen),
    ("t", Key::KeyThinking),
    ("H", Key::KeyHint),
    ("a < >", Key::KeyLiveAnalysis),
    ("R", Key::KeyResign),
    ("D", Key::KeyDraw),
    ("n", Key::KeyNewGame),
    ("?", Key::KeyHelp),
    ("o", Key::KeySettings),
    ("q", Key::KeyQuit),
    ("Ctrl-C", Key::KeyForceQuit),
    ("mouse", Key::KeyMouse),
];

/// The actions a user may bind in the config's `[keys]` table, by their config name.
pub const ACTION_NAMES: &[(&str, Action)] = &[
    ("up", Action::Up),
    ("down", Action::Down),
    ("left", Action::Left),
    ("right", Action::Right),
    ("select", Action::Select),
    ("cancel", Action::Cancel),
    ("toggle_hand", Action::ToggleHand),
    ("prompt", Action::OpenPrompt),
    ("pass", Action::Pass),
    ("undo", Action::Undo),
    ("redo", Action::Redo),
    ("flip", Action::Flip),
    ("flip_every_turn", Action::FlipEveryTurn),
    ("notation", Action::CycleNotation),
    ("help", Action::Help),
    ("settings", Action::Settings),
    ("open", Action::OpenFile),
    ("quit", Action::Quit),
    ("history_back", Action::HistoryBack),
    ("history_forward", Action::HistoryForward),
    ("history_start", Action::HistoryStart),
    ("history_end", Action::HistoryEnd),
    ("variations", Action::Variations),
    ("promote_variation", Action::PromoteVariation),
    ("delete_variation", Action::DeleteVariation),
    ("live_analysis", Action::ToggleLiveAnalysis),
    ("fewer_lines", Action::FewerLines),
    ("more_lines", Action::MoreLines),
    ("resign", Action::Resign),
    ("offer_draw", Action::OfferDraw),
    ("new_game", Action::NewGame),
    ("analyse", Action::AnalyseGame),
    ("previous_mistake", Action::PreviousMistake),
    ("next_mistake", Action::NextMistake),
    ("previous_mistake_of_side", Action::PreviousMistakeOfSide),
    ("next_mistake_of_side", Action::NextMistakeOfSide),
    ("learn", Action::Learn),
];

/// The action a config name stands for (`undo`, `history_back`, …).
pub fn action_named(name: &str) -> Option<Action> {
    ACTION_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, action)| action.clone())
}

/// Reads a key name as the config writes it: one character (`u`, `?`), a named key
/// (`Up`, `Enter`, `Space`, `Esc`, `Tab`, `Backspace`, `Home`, `End`, `PageUp`,
/// `PageDown`, `Delete`, `Insert`, `F1`…`F12`), optionally after `Ctrl-`.
/// Returns the key code and whether Ctrl is held.
pub fn parse_key(text: &str) -> Option<(KeyCode, bool)> {
    let (control, name) = match text.strip_prefix("Ctrl-").or(text.strip_prefix("ctrl-")) {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some((KeyCode::Char(c), control));
    }
    let code = match name.to_ascii_lowercase().as_str() {
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "enter" | "return" => KeyCode::Enter,
        "space" => KeyCode::Char(' '),
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "backspace" => KeyCode::Backspace,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        "delete" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        other => {
            let number: u8 = other.strip_prefix('f')?.parse().ok()?;
            if !(1..=12).contains(&number) {
                return None;
            }
            KeyCode::F(number)
        }
    };
    Some((code, control))
}

/// The key table with the user's bindings merged in: for each action the user lists,
/// those keys replace the action's default keys, and a key the user binds is taken from
/// any other action that had it.
pub fn merged_keymap(user: &[(Action, Vec<(KeyCode, bool)>)]) -> Vec<Binding> {
    let mut table: Vec<Binding> = KEYMAP
        .iter()
        .filter(|binding| {
            let rebound_action = user.iter().any(|(action, _)| *action == binding.action);
            let key_taken = user.iter().any(|(_, keys)| {
                keys.iter()
                    .any(|&(code, control)| code == binding.code && control == binding.control)
            });
            !rebound_action && !key_taken
        })
        .cloned()
        .collect();
    for (action, keys) in user {
        for &(code, control) in keys {
            table.push(Binding {
                code,
                control,
                action: action.clone(),
            });
        }
    }
    table
}

/// The actions a help row describes (rows without one, like the mouse, are empty).
pub fn help_actions(key: Key) -> &'static [Action] {
    match key {
        Key::KeyMoveCursor => &[Action::Left, Action::Down, Action::Up, Action::Right],
        Key::KeySelect => &[Action::Select],
        Key::KeyCancel => &[Action::Cancel],
        Key::KeyHand => &[Action::ToggleHand],
        Key::KeyPrompt => &[Action::OpenPrompt],
        Key::KeyPass => &[Action::Pass],
        Key::KeyUndo => &[Action::Undo],
        Key::KeyRedo => &[Action::Redo],
        Key::KeyHistory => &[Action::HistoryBack, Action::HistoryForward],
        Key::KeyHistoryEnds => &[Action::HistoryStart, Action::HistoryEnd],
        Key::KeyVariations => &[Action::Variations],
        Key::KeyAnalyse => &[Action::AnalyseGame],
        Key::KeyMistakes => &[Action::PreviousMistake, Action::NextMistake],
        Key::KeyMistakesOfSide => &[Action::PreviousMistakeOfSide, Action::NextMistakeOfSide],
        Key::KeyLearn => &[Action::Learn],
        Key::KeyLiveAnalysis => &[
            Action::ToggleLiveAnalysis,
            Action::FewerLines,
            Action::MoreLines,
        ],
        Key::KeyFlip => &[Action::Flip],
        Key::KeyFlipEveryTurn => &[Action::FlipEveryTurn],
        Key::KeyNotation => &[Action::CycleNotation],
        Key::KeyResign => &[Action::Resign],
        Key::KeyDraw => &[Action::OfferDraw],
        Key::KeyNewGame => &[Action::NewGame],
        Key::KeyHelp => &[Action::Help],
        Key::KeySettings => &[Action::Settings],
        Key::KeyOpen => &[Action::OpenFile],
        Key::KeyQuit => &[Action::Quit],
        _ => &[],
    }
}

/// A key as the help writes it: `u`, `Space`, `Ctrl-z`, `F2`.
pub fn key_name(code: KeyCode, control: bool) -> String {
    let name = match code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::Up => "↑".to_string(),
        KeyCode::Down => "↓".to_string(),
        KeyCode::Left => "←".to_string(),
        KeyCode::Right => "→".to_string(),
        KeyCode::PageUp => "PgUp".to_string(),
        KeyCode::PageDown => "PgDn".to_string(),
        other => format!("{other:?}"),
    };
    if control {
        format!("Ctrl-{name}")
    } else {
        name
    }
}

/// The help's key column for a row: the built-in text, or, when the user has bound
/// any of the row's actions, the keys the table now has for them.
pub fn help_keys(
    table: &[Binding],
    user: &[(Action, Vec<(KeyCode, bool)>)],
    row: (&'static str, Key),
) -> String {
    let actions = help_actions(row.1);
    let rebound = user.iter().any(|(action, _)| actions.contains(action))
        || KEYMAP.iter().any(|b| {
            actions.contains(&b.action)
                && !table
                    .iter()
                    .any(|t| t.code == b.code && t.control == b.control && t.action == b.action)
        });
    if !rebound {
        return row.0.to_string();
    }
    let mut names: Vec<String> = Vec::new();
    for action in actions {
        for binding in table.iter().filter(|b| b.action == *action) {
            let name = key_name(binding.code, binding.control);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names.join(" ")
}

/// A value a worker thread hands to the app inside an [`Action`]. Actions compare
/// (tests match key sequences), but what a worker read is only equal to itself: two
/// deliveries are equal when they are the same one.
#[derive(Debug)]
pub struct Delivery<T>(Arc<T>);

impl<T> Delivery<T> {
    /// Wraps a value for delivery.
    pub fn new(value: T) -> Delivery<T> {
        Delivery(Arc::new(value))
    }

    /// The value delivered (a copy only when the action was cloned on the way).
    pub fn take(self) -> T
    where
        T: Clone,
    {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The value, borrowed.
    pub fn value(&self) -> &T {
        &self.0
    }
}

impl<T> Clone for Delivery<T> {
    fn clone(&self) -> Self {
        Delivery(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Delivery<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Delivery<T> {}

/// Everything that can happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Cursor up on the screen.
    Up,
    /// Cursor down on the screen.
    Down,
    /// Cursor left on the screen.
    Left,
    /// Cursor right on the screen.
    Right,
    /// Enter/Space: pick, move, confirm.
    Select,
    /// Esc: drop the selection or close the popup.
    Cancel,
    /// Move the cursor between the board and the hand (shogi).
    ToggleHand,
    /// Open the typed-move prompt.
    OpenPrompt,
    /// A character typed into the prompt.
    PromptChar(char),
    /// Backspace in the prompt.
    PromptBackspace,
    /// Save the game to a file (asks for the name).
    Save,
    /// Open a record file (the open prompt).
    OpenFile,
    /// Show the position's FEN (SFEN for shogi) in the status line.
    ShowFen,
    /// Pass (janggi).
    Pass,
    /// Take back a move.
    Undo,
    /// Replay a taken-back move.
    Redo,
    /// Turn the board round.
    Flip,
    /// Hotseat: turn the board after every move (toggle).
    FlipEveryTurn,
    /// Write the move list in the game's next notation.
    CycleNotation,
    /// Open or close the help.
    Help,
    /// Open the settings screen.
    Settings,
    /// Save the settings to the config file (`s` on the settings screen).
    SaveSettings,
    /// Quit, asking first when a game is in progress.
    Quit,
    /// Quit at once (Ctrl-C).
    ForceQuit,
    /// One position back in the history.
    HistoryBack,
    /// One position forward in the history.
    HistoryForward,
    /// The start position.
    HistoryStart,
    /// Back to the present.
    HistoryEnd,
    /// The player to move resigns (asks first).
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Back to the start screen for a new game.
    NewGame,
    /// Yes to a question (`y`).
    Yes,
    /// No to a question (`n`).
    No,
    /// A mouse click on a board square.
    ClickSquare(u8),
    /// A mouse click on a piece in a hand: side and index in [`crate::rules::any::AnyPosition::hand`].
    ClickHand(Side, usize),
    /// A mouse click on a start-screen row.
    ClickStartRow(usize),
    /// The clock tick: keeps the screen live and checks the game clocks for a flag fall.
    Tick,
    /// Pause or resume both clocks (against the CPU its search stops until resumed).
    Pause,
    /// The terminal was resized.
    Resize,
    /// The CPU search with this id finished with this move.
    ComputerMove {
        /// The search id from the app's `Effect::StartSearch`.
        search: u64,
        /// The move, `None` when there was none.
        mv: Option<Move>,
    },
    /// A search reports progress (a completed depth).
    SearchProgress {
        /// The search id from the app's `Effect::StartSearch`.
        search: u64,
        /// Depth, score, speed and principal variation.
        report: Box<SearchReport>,
    },
    /// Show or hide the thinking line (remembered for the session).
    ToggleThinking,
    /// The external engine of this search resigned.
    EngineResigns {
        /// The search id.
        search: u64,
    },
    /// The external engine of this search declared a win (shogi's entering-king rule).
    EngineDeclaresWin {
        /// The search id.
        search: u64,
    },
    /// The external engine of this search failed: it is missing, crashed, silent or
    /// played an illegal move. Its side is handed to the human.
    EngineFailed {
        /// The search id.
        search: u64,
        /// What went wrong, in the interface language.
        message: String,
    },
    /// Search the best move for the human to move and show it.
    Hint,
    /// List the variations at the shown position (a popup to switch, promote, delete).
    Variations,
    /// In the variation list: make the highlighted variation the main line.
    PromoteVariation,
    /// In the variation list: delete the highlighted variation (`u` there undoes it).
    DeleteVariation,
    /// The worker reading the record of this opening reports how far it has come.
    RecordProgress {
        /// The opening's id (from the app's `Effect::OpenRecord`).
        opening: u64,
        /// Bytes read, or games found.
        progress: ReadProgress,
    },
    /// The worker reading the record of this opening has finished.
    RecordRead {
        /// The opening's id (from the app's `Effect::OpenRecord`).
        opening: u64,
        /// What was read.
        file: Delivery<OpenedFile>,
    },
    /// Analyse the current line of the game on a worker (Esc cancels while it runs).
    AnalyseGame,
    /// Show the position after the previous marked move (`?!`, `?`, `??`) of either side.
    PreviousMistake,
    /// Show the position after the next marked move of either side.
    NextMistake,
    /// The previous marked move of one side (the human's, or the shown move's mover).
    PreviousMistakeOfSide,
    /// The next marked move of that side.
    NextMistakeOfSide,
    /// Learn from your mistakes: retry the human side's marked moves (and leave again).
    Learn,
    /// The whole-game analysis with this id has searched `done` of `total` positions.
    AnalysisProgress {
        /// The analysis id the client gave the job.
        analysis: u64,
        /// Positions searched.
        done: usize,
        /// Positions to search.
        total: usize,
    },
    /// The whole-game analysis with this id ended: its result or why it failed.
    AnalysisFinished {
        /// The analysis id.
        analysis: u64,
        /// What it found.
        answer: Box<AnalysisAnswer>,
    },
    /// Start or stop live analysis: an endless search of the shown position whose best
    /// lines the analysis panel shows, following the player through the game.
    ToggleLiveAnalysis,
    /// Live analysis: show one line fewer (at least one).
    FewerLines,
    /// Live analysis: show one line more (at most five).
    MoreLines,
    /// Progress of the live analysis search with this id: one of its best lines.
    LiveProgress {
        /// The search id from the app's `StartLiveAnalysis` effect.
        search: u64,
        /// Which line: 1 for the best, 2 for the second best, …
        line: u32,
        /// Depth, score, speed and the line's moves.
        report: Box<SearchReport>,
    },
    /// The live analysis search with this id ended by itself (a mate seen to the end, its
    /// depth or node limit): its final lines, best first.
    LiveFinished {
        /// The search id.
        search: u64,
        /// The lines of its last completed depth.
        lines: Vec<SearchReport>,
    },
    /// The external engine of the live analysis search with this id failed.
    LiveFailed {
        /// The search id.
        search: u64,
        /// What went wrong, in the interface language.
        message: String,
    },
}

/// The end of a whole-game analysis as the worker hands it over: the analysis, or the
/// reason it failed in the interface language.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisAnswer(pub Result<crate::analysis::GameAnalysis, String>);

// The analysis holds percentage losses, which are never NaN: equality is total.
impl Eq for AnalysisAnswer {}
