//! `w` opens the verdict's why chain and gives the panels above another
//! height. A panel that relabels its figures at that key press reads as
//! a new figure (teacher trial), so sweeps compare each step's panel on
//! the main screen with the same panel under `w`.

use idem::scenario::load::builtins;
use idem::sim::Frame;
use idem::tui::app::Panel;
use idem::tui::{Action, App, update};
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;

/// One step of every built-in run at one size: `panel`'s rows on the
/// main screen and under `w`, each `None` where the panel is not drawn.
pub struct Pair<'a> {
    /// Scenario, design, size and step, for a failure's message.
    pub at: String,
    pub frame: &'a Frame,
    pub main: Option<Vec<String>>,
    pub why: Option<Vec<String>>,
}

/// `panel`'s rows inside its border as `app` draws it at `size`.
fn rows(app: &mut App, size: (u16, u16), panel: Panel) -> Option<Vec<String>> {
    super::resize(app, size.0, size.1);
    let area = Rect::new(0, 0, size.0, size.1);
    let mut buf = Buffer::empty(area);
    (&*app).render(area, &mut buf);
    let r = idem::tui::layout::on_screen(app, area)
        .rect(panel)
        .inner(Margin::new(1, 1));
    (r.height > 0).then(|| {
        (r.y..r.bottom())
            .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    })
}

/// Calls `visit` at each step of every built-in scenario under every
/// design it lists, at `size`, with `panel` as the main screen draws it
/// and as it reads after a press of `w` (the app's own `Action::Why`).
pub fn each_step(size: (u16, u16), panel: Panel, mut visit: impl FnMut(Pair<'_>)) {
    for script in builtins() {
        for design in script.strategies() {
            let mut app = super::app(&script.name, &design);
            for pos in 0..app.timeline.frames.len() {
                app.pos = pos;
                let main = rows(&mut app, size, panel);
                update(&mut app, Action::Why);
                assert!(app.zoom, "w opens the why chain");
                let why = rows(&mut app, size, panel);
                update(&mut app, Action::Why);
                assert!(!app.zoom, "w again closes it");
                visit(Pair {
                    at: format!("{} {design} {}x{} step {pos}", script.name, size.0, size.1),
                    frame: &app.timeline.frames[pos],
                    main,
                    why,
                });
            }
        }
    }
}
