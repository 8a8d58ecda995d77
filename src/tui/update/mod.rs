//! `update(&mut App, Action)`: every change of state happens here. Pure: no
//! terminal, no clock (ticks carry the time that passed), no printing.

mod compare;
mod compare_engines;
mod design;
mod explorer;
mod explorer_page;
mod faults;
mod help;
mod kept;
mod levels;
mod main_screen;
mod picker;
mod predict;
mod remember;
mod saved_note;
mod tour;
mod typed_number;
mod why;

pub use design::next_strategy;
pub use faults::inject;
pub use kept::{sync_kept, sync_run_forms};

use super::action::Action;
use super::animation::Transition;
use super::app::{App, Overlay, SPEEDS};
use super::explorer::Exploration;
use super::layout;
use crate::scenario::Script;
use crate::sim::Strategy;
use crate::timeline::Timeline;
use ratatui::layout::Rect;

pub fn update(app: &mut App, action: Action) {
    act(app, action);
    // However the verdict `w` enlarged was left, the screen it found.
    why::left(app);
    // After every action, whichever part handled it: an answer in predict
    // mode runs its action to the end of the run too, and what it earned
    // (the end, the score, the step) is the learner's (teacher trial: a
    // predict run's progress was never saved).
    remember::remember(app);
    // The header fits its form over every design's run: kept current here,
    // so the view never builds one (a run already kept costs a lookup).
    app.sync_design_runs();
    // And the forms chosen over them, once per size and set of runs.
    kept::sync_run_forms(app);
}

fn act(app: &mut App, action: Action) {
    match action {
        Action::Tick { ms } => return tick(app, ms),
        Action::Quit => {
            app.quit = true;
            return;
        }
        Action::QuitKey => {
            if app.overlay == Overlay::None {
                app.quit = true;
            } else {
                app.overlay = Overlay::None;
            }
            return;
        }
        Action::Resize { width, height } => {
            app.viewport = Rect::new(0, 0, width, height);
            return;
        }
        // The answer to an `Effect::Explore`: it arrives whatever is open.
        Action::ExploreDone(result) => return explorer::explored(app, result),
        Action::Proved(result) => return levels::proved(app, result),
        Action::Exported(result) => {
            app.status = Some(match result {
                Ok(files) => saved_note::saved_note(
                    &files,
                    &app.strategy.name,
                    crate::sim::Strategy::by_name(&app.strategy.name).is_some(),
                    usize::from(app.viewport.width),
                ),
                Err(why) => format!("could not save this moment: {why}"),
            });
            return;
        }
        _ => {}
    }
    // A note answers one key press; the next one clears it.
    app.status = None;
    if layout::too_small(app.viewport) && matches!(action, Action::Click { .. }) {
        return;
    }
    let before = app.pos;
    if predict::key(app, &action) {
        return;
    }
    match app.overlay.clone() {
        Overlay::None if matches!(action, Action::Predict) => predict::toggle(app),
        Overlay::None => main_screen::main_key(app, action),
        Overlay::Help => help::help_key(app, action),
        Overlay::Picker { selected, typed } => picker::picker_key(app, action, selected, typed),
        Overlay::Faults { selected, typed } => faults::faults_key(app, action, selected, typed),
        Overlay::Explorer(sel) => explorer::explorer_key(app, action, sel),
        Overlay::Levels => levels::levels_key(app, action),
    }
    predict::guard(app, before);
}

fn tick(app: &mut App, ms: u64) {
    if let Exploration::Running { ms: running, .. } = &mut app.exploration {
        *running += ms;
    }
    if let crate::tui::levels::Proving::Running { ms: running } = &mut app.levels.proving {
        *running += ms;
    }
    if let Some(t) = &mut app.transition {
        t.elapsed_ms += ms;
        if t.finished() {
            app.transition = None;
        }
    }
    let before = app.pos;
    if app.playing {
        app.play_ms += ms;
        if app.play_ms >= SPEEDS[app.speed] {
            app.play_ms = 0;
            if app.pos >= app.last_pos() {
                app.playing = false;
                app.status = app.end_hint();
            } else {
                goto(app, app.pos + 1);
            }
        }
    }
    predict::guard(app, before);
}

/// Moves to a position, clamped; one step forward animates.
pub fn goto(app: &mut App, target: usize) {
    let target = target.min(app.last_pos());
    if target == app.pos {
        return;
    }
    app.transition = (app.animation && app.compare.is_none() && target == app.pos + 1)
        .then(|| Transition::new(app.pos, target));
    app.pos = target;
}

/// The selection in a menu of `n` items after moving up or down, if the
/// action is a move.
pub(super) fn moved(action: &Action, selected: usize, n: usize) -> Option<usize> {
    match action {
        Action::Up | Action::ScrollUp | Action::Prev => Some(selected.saturating_sub(1)),
        Action::Down | Action::ScrollDown | Action::Next => {
            Some((selected + 1).min(n.saturating_sub(1)))
        }
        _ => None,
    }
}

/// A scenario the user moves to (the picker, the tour) runs on the
/// session's engine: `play --db postgres://…` stays on its server, even
/// after a replay from the explorer ran on SQLite.
pub(super) fn on_this_engine(app: &App, mut script: Script) -> Script {
    script.setup.postgres = app.server.clone();
    script
}

/// Puts a script on screen under a design, from its first frame, with
/// nothing open over it: the one way in for the picker and the explorer.
pub(super) fn open(app: &mut App, script: Script, strategy: Strategy) -> bool {
    match Timeline::build(&script, &strategy, app.seed, &[]) {
        Ok(timeline) => {
            app.strategy = strategy;
            app.script = script;
            app.timeline = timeline;
            app.forks.clear();
            app.pos = 0;
            // A trail of another scenario's steps leads nowhere here.
            app.design_trail = Default::default();
            app.overlay = Overlay::None;
            app.playing = false;
            app.transition = None;
            app.zoom = false;
            if let Some(c) = app.compare.take() {
                compare_engines::reopen_compare(app, c.sides);
            }
            true
        }
        Err(e) => {
            app.status = Some(format!("cannot run {}: {e}", script.name));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    #[test]
    fn stepping_clamps_at_both_ends() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Prev);
        assert_eq!(a.pos, 0);
        update(&mut a, Action::Last);
        let last = a.timeline.frames.len() - 1;
        assert_eq!(a.pos, last);
        update(&mut a, Action::Next);
        assert_eq!(a.pos, last);
        update(&mut a, Action::First);
        update(&mut a, Action::Next);
        assert_eq!(a.pos, 1);
    }

    #[test]
    fn ticks_drive_autoplay_and_animation() {
        let mut a = app("tour-1", "naive");
        a.animation = true;
        update(&mut a, Action::Next);
        assert!(a.is_animating());
        update(&mut a, Action::Tick { ms: 300 });
        assert!(!a.is_animating());
        update(&mut a, Action::PlayPause);
        let ms = SPEEDS[a.speed];
        update(&mut a, Action::Tick { ms });
        assert_eq!(a.pos, 2);
        update(&mut a, Action::Last);
        let ms = SPEEDS[a.speed];
        update(&mut a, Action::Tick { ms });
        assert!(!a.playing, "playback stops at the end");
    }
}
