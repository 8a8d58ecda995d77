//! `w` opens the verdict's why chain and gives the panels above another
//! height. A panel that relabels its figures at that key press reads as
//! a new figure (teacher trial), so sweeps compare each step's panel on
//! the main screen with the same panel under `w`.

use super::sweep::SIZES;
use idem::scenario::load::builtins;
use idem::sim::Frame;
use idem::tui::app::Panel;
use idem::tui::{Action, App, update};
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;
use std::sync::OnceLock;

/// One step of every built-in run at one size: `panel`'s rows on the
/// main screen and under `w`, each `None` where the panel is not drawn.
pub struct Pair<'a> {
    /// Scenario, design, size and step, for a failure's message.
    pub at: String,
    pub frame: &'a Frame,
    pub main: Option<Vec<String>>,
    pub why: Option<Vec<String>>,
}

/// Every panel's rows inside its border as `app` draws it at `size`,
/// in `Panel::ALL`'s order, each `None` where that panel is not drawn:
/// one drawing serves every panel a sweep asks about.
type Panels = [Option<Vec<String>>; Panel::ALL.len()];

fn panels(app: &mut App, size: (u16, u16)) -> Panels {
    super::resize(app, size.0, size.1);
    let area = Rect::new(0, 0, size.0, size.1);
    let mut buf = Buffer::empty(area);
    (&*app).render(area, &mut buf);
    let main = idem::tui::layout::on_screen(app, area);
    Panel::ALL.map(|panel| {
        let r = main.rect(panel).inner(Margin::new(1, 1));
        (r.height > 0).then(|| {
            (r.y..r.bottom())
                .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
                .collect()
        })
    })
}

/// A walk: each run's frames, and every step of every run in turn.
type Walk = (Vec<Vec<Frame>>, Vec<Drawn>);

/// One step of the walk: whose step it is, and every panel on the main
/// screen and under `w`.
struct Drawn {
    at: String,
    run: usize,
    pos: usize,
    main: Panels,
    why: Panels,
}

/// The walk at `size`: each step of every built-in scenario under every
/// design it lists, drawn on the main screen and after a press of `w`
/// (the app's own `Action::Why`), then `w` again to close it, as a
/// learner would; and each run's frames, for the steps to name.
fn walk(size: (u16, u16)) -> Walk {
    let mut runs = Vec::new();
    let mut steps = Vec::new();
    for script in builtins() {
        for design in script.strategies() {
            let mut app = super::app(&script.name, &design);
            for pos in 0..app.timeline.frames.len() {
                app.pos = pos;
                let main = panels(&mut app, size);
                update(&mut app, Action::Why);
                assert!(app.zoom, "w opens the why chain");
                let why = panels(&mut app, size);
                update(&mut app, Action::Why);
                assert!(!app.zoom, "w again closes it");
                steps.push(Drawn {
                    at: format!("{} {design} {}x{} step {pos}", script.name, size.0, size.1),
                    run: runs.len(),
                    pos,
                    main,
                    why,
                });
            }
            runs.push(app.timeline.frames);
        }
    }
    (runs, steps)
}

/// The walk at `SIZES[i]`, made once for the whole test binary: the
/// sweeps of several panels read the same screens (about three a size),
/// and drawing them twice a step is most of a sweep's time. Drawing is a
/// pure function of the app, so kept rows are the rows a sweep would draw.
fn kept(i: usize) -> &'static Walk {
    static KEPT: [OnceLock<Walk>; SIZES.len()] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    KEPT[i].get_or_init(|| walk(SIZES[i]))
}

/// Calls `visit` at each step of every built-in scenario under every
/// design it lists, at `size`, with `panel` as the main screen draws it
/// and as it reads after a press of `w` (the app's own `Action::Why`).
/// At `SIZES` the walk is kept for the test binary (`kept`); at another
/// size it is made for this call alone.
pub fn each_step(size: (u16, u16), panel: Panel, mut visit: impl FnMut(Pair<'_>)) {
    let fresh;
    let (runs, steps) = match SIZES.iter().position(|&s| s == size) {
        Some(i) => kept(i),
        None => {
            fresh = walk(size);
            &fresh
        }
    };
    let p = Panel::ALL
        .iter()
        .position(|&p| p == panel)
        .expect("a panel of Panel::ALL");
    for step in steps {
        visit(Pair {
            at: step.at.clone(),
            frame: &runs[step.run][step.pos],
            main: step.main[p].clone(),
            why: step.why[p].clone(),
        });
    }
}
