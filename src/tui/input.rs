//! Terminal events become actions here: keys through the key table
//! (`keys`), the mouse and a resize directly.

use super::action::Action;
use super::keys;
use ratatui::crossterm::event::{Event, MouseButton, MouseEvent, MouseEventKind};

pub fn from_event(event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) => keys::from_key(key),
        Event::Mouse(mouse) => from_mouse(mouse),
        Event::Resize(width, height) => Some(Action::Resize {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
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
