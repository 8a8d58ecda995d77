//! The transition drawn on top of the new frame: a token travelling
//! between the panels it concerns, for a quarter of a second.

use crate::tui::animation::{Effect, Transition, effects};
use crate::tui::app::{App, Panel};
use crate::tui::layout::Main;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub fn render(app: &App, t: Transition, m: &Main, buf: &mut Buffer) {
    let frames = &app.timeline.frames;
    let (Some(from), Some(to)) = (frames.get(t.from), frames.get(t.to)) else {
        return;
    };
    let p = t.progress();
    let theme = &app.theme;
    for (row, e) in effects(from, to).iter().enumerate() {
        let (a, b, label) = match e {
            Effect::Deliver { message } => (Panel::Broker, Panel::Service, message.clone()),
            Effect::Ack => (Panel::Service, Panel::Broker, "ack".to_string()),
            Effect::Call => (Panel::Service, Panel::Provider, "POST /charges".to_string()),
            Effect::Flash(_) => continue,
        };
        let (ra, rb) = (m.rect(a), m.rect(b));
        if ra.is_empty() || rb.is_empty() {
            continue;
        }
        let text = format!("{} {label}", theme.g.token);
        let w = text.chars().count() as u16;
        let ax = f32::from(ra.x + ra.width / 2);
        let bx = f32::from(rb.x + rb.width / 2);
        let x = (ax + (bx - ax) * p) as u16;
        let y = ra.y + ra.height / 2 + row as u16;
        let area = buf.area;
        let x = x.min(area.right().saturating_sub(w));
        if y < area.bottom() {
            buf.set_string(x, y, text, theme.key().patch(theme.highlight()));
        }
        let _ = Rect::default();
    }
}
