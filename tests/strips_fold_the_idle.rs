//! When the service panel cannot show every consumer's steps, it folds
//! one into a strip of one glyph a step. The class watches the consumer
//! that acts: that one keeps its list, and the idle one folds. Every frame
//! of every built-in scenario, under every design it lists, at the three
//! sizes a class uses.

use crate::common::{self, Screen};
use idem::scenario::{self, load::builtins};
use idem::sim::{Frame, Strategy};
use idem::tui::app::Panel;
use idem::tui::{App, layout};
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// The row that heads consumer `name`'s part of the service panel.
fn head_of(name: &str, rows: &[String]) -> Option<usize> {
    rows.iter().position(|r| {
        r.starts_with(&format!("consumer {name} ")) || r.starts_with(&format!("{name}: "))
    })
}

/// A consumer is shown whole when the row under its head is the first
/// step of its program by name (` ✓ receive`), not a strip (` ✓✓▷···`).
fn whole(f: &Frame, name: &str, rows: &[String]) -> bool {
    let c = f.consumers.iter().find(|c| c.name == name).unwrap();
    let Some(at) = head_of(name, rows) else {
        return false;
    };
    let first = &c.steps[0].label;
    rows.get(at + 1)
        .and_then(|r| {
            r.chars()
                .skip(3)
                .collect::<String>()
                .strip_prefix(first.as_str())
                .map(|_| ())
        })
        .is_some()
}

/// The consumers the step is about: each ran a step of its program, or an
/// event of the step is its own, or a mark on one of its steps changed.
fn acted(f: &Frame, before: &Frame) -> Vec<String> {
    f.consumers
        .iter()
        .filter(|c| {
            let marks = |f: &Frame| {
                f.consumers
                    .iter()
                    .find(|o| o.name == c.name)
                    .map(|o| o.steps.iter().map(|s| s.mark).collect::<Vec<_>>())
            };
            f.changes.step_of(&c.name).is_some()
                || f.events
                    .iter()
                    .any(|e| e.actor.label() == format!("consumer {}", c.name))
                || marks(f) != marks(before)
        })
        .map(|c| c.name.clone())
        .collect()
}

#[test]
fn the_consumer_that_acted_is_never_the_one_folded() {
    let mut failures = Vec::new();
    // Steps where the panel had to choose: one consumer whole, another folded.
    let mut choices = 0;
    for (w, h) in SIZES {
        for script in builtins() {
            for design in script.strategies() {
                let script = scenario::find(&script.name).unwrap();
                let strategy = Strategy::by_name(&design).unwrap();
                let mut app = App::new(script, strategy, 0, common::plain()).unwrap();
                common::resize(&mut app, w, h);
                let mut screen = Screen::new(w, h);
                for i in 1..app.timeline.frames.len() {
                    app.pos = i;
                    let buf = screen.show(&app);
                    let f = app.frame().clone();
                    let before = &app.timeline.frames[i - 1];
                    let m = layout::main_for(
                        Rect::new(0, 0, w, h),
                        None,
                        layout::Need::of(&f, &app.timeline.frames),
                    );
                    let inner = m.rect(Panel::Service).inner(Margin::new(1, 1));
                    let shown = rows(buf, inner);
                    let acted = acted(&f, before);
                    let is_whole: Vec<bool> = f
                        .consumers
                        .iter()
                        .map(|c| whole(&f, &c.name, &shown))
                        .collect();
                    if is_whole.contains(&true) && is_whole.contains(&false) {
                        choices += 1;
                    }
                    let idle_whole = f
                        .consumers
                        .iter()
                        .find(|c| !acted.contains(&c.name) && whole(&f, &c.name, &shown));
                    for name in &acted {
                        if whole(&f, name, &shown) {
                            continue;
                        }
                        if let Some(idle) = idle_whole {
                            failures.push(format!(
                                "{} {design} step {i} at {w}x{h}: {name} acted and is folded, \
                                 idle {} is whole\n{}",
                                app.script.name,
                                idle.name,
                                shown.join("\n")
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        choices > 100,
        "only {choices} steps folded one consumer of several"
    );
    assert!(
        failures.is_empty(),
        "{} folds of a consumer that acted:\n{}",
        failures.len(),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
