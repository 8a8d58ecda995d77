//! The runs of every design a scenario can be shown with, which the
//! header fits its form over, so that `m` changes the design's name and
//! the verdict but not the header around them. A run is the same for the
//! same scenario, design and seed: each is built once and kept.

use crate::scenario::Script;
use crate::sim::{Frame, Strategy};
use crate::tui::app::{App, designs};
use std::cell::RefCell;
use std::rc::Rc;

/// One design's run: its design and its frames.
pub type Run = (Strategy, Rc<Vec<Frame>>);

/// The run of each design `m` reaches from the one on screen (the
/// scenario's, and the learner's own once `m` has left it), as `m` would
/// open it. A design whose run cannot be built is left out.
pub fn others(app: &App) -> Vec<Run> {
    let mut all: Vec<Run> = Vec::new();
    let others = designs(&app.script)
        .into_iter()
        .chain(app.own_design.clone())
        .filter(|d| d.name != app.strategy.name);
    for design in others {
        if all.iter().any(|(d, _)| d.name == design.name) {
            continue;
        }
        if let Some(frames) = kept(&app.script, &design, app.seed) {
            all.push((design, frames));
        }
    }
    all
}

/// The run of `design`, built once and kept.
fn kept(script: &Script, design: &Strategy, seed: u64) -> Option<Rc<Vec<Frame>>> {
    /// A run kept: whose it is, and its frames (none where it failed to
    /// build, so it is not tried at every draw).
    type Kept = ((Script, Strategy, u64), Option<Rc<Vec<Frame>>>);
    thread_local! {
        static KEPT: RefCell<Vec<Kept>> =
            const { RefCell::new(Vec::new()) };
    }
    let found = KEPT.with(|k| {
        k.borrow()
            .iter()
            .find(|((s, d, n), _)| s == script && d == design && *n == seed)
            .map(|(_, frames)| frames.clone())
    });
    if let Some(frames) = found {
        return frames;
    }
    // Run in memory: a database file the learner named (`--db FILE`)
    // holds the run they opened, not one the header measured.
    let mut memory = script.clone();
    memory.setup.db_file = None;
    let frames = crate::timeline::Timeline::build(&memory, design, seed, &[])
        .ok()
        .map(|t| Rc::new(t.frames));
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        // Every built-in's designs, with room to spare: a bound on what a
        // long session keeps.
        if k.len() >= 256 {
            k.remove(0);
        }
        k.push(((script.clone(), design.clone(), seed), frames.clone()));
    });
    frames
}
