//! What the user (or the clock) asks for. Terminal events become actions
//! here; `update` gives them meaning.

use super::explorer::Explored;
use super::levels::Proved;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

#[derive(Clone, Debug)]
pub enum Action {
    Next,
    Prev,
    NextChapter,
    PrevChapter,
    First,
    Last,
    PlayPause,
    Faster,
    Slower,
    ToggleMode,
    Compare,
    Picker,
    Faults,
    FirstViolation,
    /// Open the explorer (the checker's table), or close it.
    Explore,
    /// The checker finished (from the terminal layer, or a test).
    ExploreDone(Explored),
    /// Save this moment: the screen as pictures, the run as a scenario.
    Export,
    /// The level screen ("build the handler yourself"), or back.
    Levels,
    /// The prover's answer about a level's handler.
    Proved(Proved),
    /// On the level screen: remove the selected step.
    Remove,
    /// On the level screen: move the selected step up / down.
    MoveUp,
    MoveDown,
    /// On the level screen: back to the level's starting handler.
    Reset,
    /// The files an export wrote, or why it could not.
    Exported(Result<Vec<String>, String>),
    Help,
    FocusNext,
    FocusPrev,
    Zoom,
    /// The presenter view, or back.
    Presenter,
    /// Predict mode on or off: questions before the actions that ask them.
    Predict,
    /// Backspace: a typed answer loses its last digit.
    Backspace,
    Up,
    Down,
    Enter,
    /// Esc: close what is open; it never quits.
    Back,
    /// A number key, for the menus.
    Digit(u8),
    /// Ctrl-C: quit from anywhere.
    Quit,
    /// `q`: quit from the main screen; over a menu it only closes the menu,
    /// so a `q` meant for the menu never ends the session.
    QuitKey,
    Click {
        x: u16,
        y: u16,
    },
    ScrollUp,
    ScrollDown,
    Resize {
        width: u16,
        height: u16,
    },
    /// Time passed while something moves.
    Tick {
        ms: u64,
    },
}

pub fn from_event(event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) => from_key(key),
        Event::Mouse(mouse) => from_mouse(mouse),
        Event::Resize(width, height) => Some(Action::Resize {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

pub fn from_key(key: &KeyEvent) -> Option<Action> {
    // Releases and repeats would step twice on terminals that report them.
    if key.kind != KeyEventKind::Press {
        return None;
    }
    // In raw mode Ctrl-C is an ordinary key: it must still quit.
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c' | 'C')).then_some(Action::Quit);
    }
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    Some(match key.code {
        KeyCode::Up if shift => Action::MoveUp,
        KeyCode::Down if shift => Action::MoveDown,
        KeyCode::Char('K') => Action::MoveUp,
        KeyCode::Char('J') => Action::MoveDown,
        KeyCode::Char('L') => Action::Levels,
        KeyCode::Char('d') | KeyCode::Delete => Action::Remove,
        KeyCode::Char('r') => Action::Reset,
        KeyCode::Right | KeyCode::Char('l') => Action::Next,
        KeyCode::Left | KeyCode::Char('h') => Action::Prev,
        KeyCode::Char(']') | KeyCode::PageDown => Action::NextChapter,
        KeyCode::Char('[') | KeyCode::PageUp => Action::PrevChapter,
        KeyCode::Home | KeyCode::Char('g') => Action::First,
        KeyCode::End | KeyCode::Char('G') => Action::Last,
        KeyCode::Char(' ') => Action::PlayPause,
        KeyCode::Char('+' | '=') => Action::Faster,
        KeyCode::Char('-' | '_') => Action::Slower,
        KeyCode::Char('m') => Action::ToggleMode,
        KeyCode::Char('c') => Action::Compare,
        KeyCode::Char('s') => Action::Picker,
        KeyCode::Char('f') => Action::Faults,
        KeyCode::Char('v') => Action::FirstViolation,
        KeyCode::Char('x') => Action::Explore,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('z') => Action::Zoom,
        KeyCode::Char('p') => Action::Presenter,
        KeyCode::Char('e') => Action::Export,
        KeyCode::Char('a') => Action::Predict,
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Tab => Action::FocusNext,
        KeyCode::BackTab => Action::FocusPrev,
        KeyCode::Up | KeyCode::Char('k') => Action::Up,
        KeyCode::Down | KeyCode::Char('j') => Action::Down,
        KeyCode::Enter => Action::Enter,
        KeyCode::Esc => Action::Back,
        KeyCode::Char('q') => Action::QuitKey,
        KeyCode::Char(d @ '0'..='9') => Action::Digit(d as u8 - b'0'),
        _ => return None,
    })
}

fn from_mouse(mouse: &MouseEvent) -> Option<Action> {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
            x: mouse.column,
            y: mouse.row,
        }),
        MouseEventKind::ScrollUp => Some(Action::ScrollUp),
        MouseEventKind::ScrollDown => Some(Action::ScrollDown),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn key(code: KeyCode, modifiers: KeyModifiers, kind: KeyEventKind) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind,
            state: KeyEventState::NONE,
        }
    }

    #[test]
    fn ctrl_c_quits_and_releases_are_ignored() {
        let press = KeyEventKind::Press;
        assert!(matches!(
            from_key(&key(KeyCode::Char('c'), KeyModifiers::CONTROL, press)),
            Some(Action::Quit)
        ));
        assert!(matches!(
            from_key(&key(KeyCode::Char('c'), KeyModifiers::NONE, press)),
            Some(Action::Compare)
        ));
        assert!(
            from_key(&key(
                KeyCode::Right,
                KeyModifiers::NONE,
                KeyEventKind::Release
            ))
            .is_none()
        );
        assert!(matches!(
            from_key(&key(KeyCode::Char('G'), KeyModifiers::SHIFT, press)),
            Some(Action::Last)
        ));
        assert!(matches!(
            from_key(&key(KeyCode::Char('x'), KeyModifiers::NONE, press)),
            Some(Action::Explore)
        ));
    }
}
