//! Keys to actions on screen: the popup rules (the prompt takes text; questions
//! take y/n) over the key table of [`crate::action`].

use super::{App, Overlay};
use crate::action::Action;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

pub use crate::action::{
    action_named, help_actions, help_keys, key_name, merged_keymap, parse_key, Binding,
    ACTION_NAMES, KEYMAP, KEY_HELP,
};

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
        Some(Overlay::OpenFile { .. }) => {
            return match event.code {
                KeyCode::Enter => Some(Action::Select),
                KeyCode::Esc => Some(Action::Cancel),
                KeyCode::Backspace => Some(Action::PromptBackspace),
                KeyCode::Up | KeyCode::BackTab => Some(Action::Up),
                KeyCode::Down | KeyCode::Tab => Some(Action::Down),
                KeyCode::Char(c) if !control => Some(Action::PromptChar(c)),
                _ => None,
            }
        }
        Some(Overlay::Confirm(_)) | Some(Overlay::Promotion { .. }) => match event.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => return Some(Action::Yes),
            KeyCode::Char('n') | KeyCode::Char('N') => return Some(Action::No),
            _ => {}
        },
        Some(Overlay::Settings { .. }) if event.code == KeyCode::Char('s') => {
            return Some(Action::SaveSettings)
        }
        Some(Overlay::GameOver { .. }) => match event.code {
            KeyCode::Char('r') => return Some(Action::Redo),
            KeyCode::Char('n') => return Some(Action::NewGame),
            KeyCode::Char('s') => return Some(Action::Save),
            _ => {}
        },
        _ => {}
    }
    app.keymap
        .iter()
        .find(|b| b.code == event.code && b.control == control)
        .map(|b| b.action.clone())
}
