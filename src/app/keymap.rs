//! Keys to actions: one table for the screens, and the rules for popups
//! (the prompt takes text; questions take y/n).

use super::{Action, App, Overlay};
use crate::i18n::Key;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

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
    key(KeyCode::Char('v'), Action::ShowFen),
    key(KeyCode::Char('t'), Action::ToggleThinking),
    key(KeyCode::Char('H'), Action::Hint),
    key(KeyCode::Char('?'), Action::Help),
    key(KeyCode::F(1), Action::Help),
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
    ("f", Key::KeyFlip),
    ("F", Key::KeyFlipEveryTurn),
    ("N", Key::KeyNotation),
    ("s", Key::KeySave),
    ("v", Key::KeyShowFen),
    ("t", Key::KeyThinking),
    ("H", Key::KeyHint),
    ("R", Key::KeyResign),
    ("D", Key::KeyDraw),
    ("n", Key::KeyNewGame),
    ("?", Key::KeyHelp),
    ("q", Key::KeyQuit),
    ("Ctrl-C", Key::KeyForceQuit),
    ("mouse", Key::KeyMouse),
];

/// The action of a key press, given what is on screen; `None` for unbound keys.
pub fn action_for_key(app: &App, event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let control = event.modifiers.contains(KeyModifiers::CONTROL);
    if control && matches!(event.code, KeyCode::Char('c') | KeyCode::Char('C')) {
        return Some(Action::ForceQuit);
    }
    match &app.overlay {
        Some(Overlay::Prompt { .. }) | Some(Overlay::SaveAs { .. }) => {
            return match event.code {
                KeyCode::Enter => Some(Action::Select),
                KeyCode::Esc => Some(Action::Cancel),
                KeyCode::Backspace => Some(Action::PromptBackspace),
                KeyCode::Char(c) if !control => Some(Action::PromptChar(c)),
                _ => None,
            }
        }
        Some(Overlay::Confirm(_)) | Some(Overlay::Promotion { .. }) => match event.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => return Some(Action::Yes),
            KeyCode::Char('n') | KeyCode::Char('N') => return Some(Action::No),
            _ => {}
        },
        Some(Overlay::GameOver { .. }) => match event.code {
            KeyCode::Char('r') => return Some(Action::Redo),
            KeyCode::Char('n') => return Some(Action::NewGame),
            KeyCode::Char('s') => return Some(Action::Save),
            _ => {}
        },
        _ => {}
    }
    KEYMAP
        .iter()
        .find(|b| b.code == event.code && b.control == control)
        .map(|b| b.action.clone())
}
