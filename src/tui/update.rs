//! `update(&mut App, Action)`: every change of state happens here. Pure: no
//! terminal, no clock (ticks carry the time that passed), no printing.

use super::action::Action;
use super::animation::Transition;
use super::app::{
    App, Effect, Overlay, Panel, PickerRow, SPEEDS, designs, opening_design, seconds_per_step,
};
use super::compare::Compare;
use super::explorer::{self, Exploration, Explored, Selection};
use super::faults;
use super::layout;
use crate::scenario::Script;
use crate::sim::{Move, Strategy};
use crate::timeline::{Fork, Timeline};
use ratatui::layout::Rect;
use std::sync::Arc;

pub fn update(app: &mut App, action: Action) {
    match action {
        Action::Tick { ms } => return tick(app, ms),
        Action::Quit => {
            app.quit = true;
            return;
        }
        Action::Resize { width, height } => {
            app.viewport = Rect::new(0, 0, width, height);
            return;
        }
        // The answer to an `Effect::Explore`: it arrives whatever is open.
        Action::ExploreDone(result) => return explored(app, result),
        _ => {}
    }
    // A note answers one key press; the next one clears it.
    app.status = None;
    if layout::too_small(app.viewport) && matches!(action, Action::Click { .. }) {
        return;
    }
    match app.overlay.clone() {
        Overlay::None => main_key(app, action),
        Overlay::Help => help_key(app, action),
        Overlay::Picker { selected } => picker_key(app, action, selected),
        Overlay::Faults { selected } => faults_key(app, action, selected),
        Overlay::Explorer(sel) => explorer_key(app, action, sel),
    }
}

fn tick(app: &mut App, ms: u64) {
    if let Exploration::Running { ms: running } = &mut app.exploration {
        *running += ms;
    }
    if let Some(t) = &mut app.transition {
        t.elapsed_ms += ms;
        if t.finished() {
            app.transition = None;
        }
    }
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

fn main_key(app: &mut App, action: Action) {
    match action {
        Action::Next | Action::ScrollDown => goto(app, app.pos + 1),
        Action::Prev | Action::ScrollUp => goto(app, app.pos.saturating_sub(1)),
        Action::NextChapter => match app.chapter_starts().into_iter().find(|&s| s > app.pos) {
            Some(target) => goto(app, target),
            // The last chapter: its end first, where the verdict is.
            None if app.pos < app.last_pos() => goto(app, app.last_pos()),
            None => next_tour_scenario(app),
        },
        Action::PrevChapter => {
            let target = app
                .chapter_starts()
                .into_iter()
                .rfind(|&s| s < app.pos)
                .unwrap_or(0);
            goto(app, target);
        }
        Action::First => goto(app, 0),
        Action::Last => goto(app, app.last_pos()),
        Action::PlayPause => {
            if app.playing {
                app.playing = false;
            } else {
                if app.pos >= app.last_pos() {
                    app.pos = 0;
                    app.transition = None;
                }
                app.playing = true;
                app.play_ms = 0;
            }
        }
        Action::Faster | Action::Slower => {
            app.speed = if matches!(action, Action::Faster) {
                (app.speed + 1).min(SPEEDS.len() - 1)
            } else {
                app.speed.saturating_sub(1)
            };
            app.status = Some(format!(
                "playback: one step every {}",
                seconds_per_step(app.speed)
            ));
        }
        Action::ToggleMode => toggle_mode(app),
        Action::Compare => toggle_compare(app),
        Action::Picker => {
            let selected = app
                .scripts
                .iter()
                .position(|s| s.name == app.script.name)
                .unwrap_or(0);
            app.playing = false;
            app.overlay = Overlay::Picker { selected };
        }
        Action::Faults => {
            if app.compare.is_some() {
                app.status = Some("faults act on one run: press c to leave compare first".into());
            } else {
                app.playing = false;
                app.overlay = Overlay::Faults { selected: 0 };
            }
        }
        Action::FirstViolation => first_violation(app),
        Action::Explore => open_explorer(app),
        Action::Help => app.overlay = Overlay::Help,
        Action::FocusNext | Action::FocusPrev => {
            let all = Panel::ALL;
            let i = all.iter().position(|p| *p == app.focus).unwrap_or(0);
            let n = all.len();
            let j = if matches!(action, Action::FocusNext) {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            app.focus = all[j];
        }
        Action::Zoom => app.zoom = !app.zoom && app.compare.is_none(),
        Action::Back => {
            if app.zoom {
                app.zoom = false;
            } else if app.compare.is_some() {
                toggle_compare(app);
            } else {
                app.quit = true;
            }
        }
        Action::Click { x, y } => {
            if app.compare.is_none() {
                let zoom = app.zoom.then_some(app.focus);
                if let Some(p) = layout::main(app.viewport, zoom).hit(x, y) {
                    app.focus = p;
                }
            }
        }
        Action::Up
        | Action::Down
        | Action::Enter
        | Action::Digit(_)
        | Action::Quit
        | Action::ExploreDone(_)
        | Action::Resize { .. }
        | Action::Tick { .. } => {}
    }
}

fn help_key(app: &mut App, action: Action) {
    if matches!(
        action,
        Action::Back | Action::Help | Action::Enter | Action::Click { .. }
    ) {
        app.overlay = Overlay::None;
    }
}

/// The selection in a menu of `n` items after moving up or down, if the
/// action is a move.
fn moved(action: &Action, selected: usize, n: usize) -> Option<usize> {
    match action {
        Action::Up | Action::ScrollUp | Action::Prev => Some(selected.saturating_sub(1)),
        Action::Down | Action::ScrollDown | Action::Next => {
            Some((selected + 1).min(n.saturating_sub(1)))
        }
        _ => None,
    }
}

fn picker_key(app: &mut App, action: Action, selected: usize) {
    let n = app.scripts.len();
    if let Some(selected) = moved(&action, selected, n) {
        app.overlay = Overlay::Picker { selected };
        return;
    }
    match action {
        Action::Enter => load(app, selected),
        Action::Digit(d) if usize::from(d) <= n => load(app, usize::from(d) - 1),
        Action::Back | Action::Picker => app.overlay = Overlay::None,
        Action::Click { x, y } => {
            let rows = app.picker_rows();
            let selected_row = rows
                .iter()
                .position(|r| *r == PickerRow::Script(selected))
                .unwrap_or(0);
            let (popup, list, offset) = layout::picker_list(app.viewport, rows.len(), selected_row);
            if !popup.contains((x, y).into()) {
                app.overlay = Overlay::None;
            } else if list.contains((x, y).into()) {
                let row = offset + usize::from(y - list.y);
                if let Some(PickerRow::Script(i)) = rows.get(row) {
                    load(app, *i);
                }
            }
        }
        _ => {}
    }
}

fn faults_key(app: &mut App, action: Action, selected: usize) {
    let items = faults::menu(app.frame());
    let n = items.len();
    if let Some(selected) = moved(&action, selected, n) {
        app.overlay = Overlay::Faults { selected };
        return;
    }
    match action {
        Action::Enter => {
            if let Some(item) = items.get(selected) {
                inject(app, item.mv.clone());
            }
        }
        Action::Digit(d) => {
            if let Some(item) = items.get(usize::from(d) - 1) {
                inject(app, item.mv.clone());
            }
        }
        Action::Back | Action::Faults => app.overlay = Overlay::None,
        Action::Click { x, y } => {
            let popup = layout::faults(app.viewport, n);
            if !popup.contains((x, y).into()) {
                app.overlay = Overlay::None;
            } else if y > popup.y && usize::from(y - popup.y - 1) < n {
                let item = &items[usize::from(y - popup.y - 1)];
                inject(app, item.mv.clone());
            }
        }
        _ => {}
    }
}

/// Acting at step k forks the run: later forks go, the new move happens
/// right after frame k, and the script carries on from there.
pub fn inject(app: &mut App, mv: Move) {
    app.overlay = Overlay::None;
    let k = app.pos;
    let mut forks = app.forks.clone();
    forks.retain(|f| f.at < k);
    forks.push(Fork { at: k, mv });
    match Timeline::build(&app.script, &app.strategy, app.seed, &forks) {
        Ok(timeline) => {
            app.timeline = timeline;
            app.forks = forks;
            goto(app, k + 1);
            app.status = Some(format!(
                "forked at step {k}: the run follows your move; s reloads it as written"
            ));
        }
        Err(e) => app.status = Some(format!("cannot do that here: {e}")),
    }
}

/// The next of the scenario's designs (see `app::designs`); from a design
/// it does not list, its first.
pub fn next_strategy(script: &Script, current: &Strategy) -> Strategy {
    let all = designs(script);
    let i = all.iter().position(|s| s.name == current.name);
    all.get(i.map_or(0, |i| (i + 1) % all.len()))
        .cloned()
        .unwrap_or_else(|| current.clone())
}

fn toggle_mode(app: &mut App) {
    let strategy = next_strategy(&app.script, &app.strategy);
    if strategy.name == app.strategy.name {
        app.status = Some(format!(
            "this scenario is written for one design, {}: s picks another scenario",
            strategy.name
        ));
        return;
    }
    let timeline = match Timeline::build(&app.script, &strategy, app.seed, &app.forks) {
        Ok(t) => t,
        Err(_) if !app.forks.is_empty() => {
            match Timeline::build(&app.script, &strategy, app.seed, &[]) {
                Ok(t) => {
                    app.forks.clear();
                    app.status = Some(format!(
                        "your faults do not apply to {}: showing the scenario as written",
                        strategy.name
                    ));
                    t
                }
                Err(e) => {
                    app.status = Some(format!("cannot run {}: {e}", strategy.name));
                    return;
                }
            }
        }
        Err(e) => {
            app.status = Some(format!("cannot run {}: {e}", strategy.name));
            return;
        }
    };
    app.strategy = strategy;
    app.timeline = timeline;
    app.transition = None;
    if app.compare.is_some() {
        app.compare = None;
        toggle_compare(app);
    } else {
        app.pos = app.pos.min(app.last_pos());
    }
}

fn toggle_compare(app: &mut App) {
    app.transition = None;
    app.zoom = false;
    if let Some(c) = app.compare.take() {
        let (l, r) = c.pairs[app.pos.min(c.pairs.len() - 1)];
        let frame = if c.left.strategy == app.strategy.name {
            l
        } else {
            r
        };
        app.pos = frame.min(app.last_pos());
        return;
    }
    match Compare::build(&app.script, &app.strategy, app.seed) {
        Ok(c) => {
            let mine = app.pos;
            let left_is_mine = c.left.strategy == app.strategy.name;
            app.pos = c
                .pairs
                .iter()
                .position(|&(l, r)| if left_is_mine { l >= mine } else { r >= mine })
                .unwrap_or(c.pairs.len() - 1);
            if !app.forks.is_empty() {
                app.status =
                    Some("compare shows the scenario as written, without your faults".into());
            }
            app.compare = Some(c);
        }
        Err(e) => app.status = Some(format!("cannot compare: {e}")),
    }
}

fn first_violation(app: &mut App) {
    let found = match &app.compare {
        Some(c) => c.diverge,
        None => app.timeline.first_violation(),
    };
    match found {
        Some(i) => {
            app.playing = false;
            app.transition = None;
            app.pos = i;
        }
        None if app.compare.is_some() => {
            app.status = Some("the two designs never part ways in this scenario".into());
        }
        None => {
            app.status = Some(format!(
                "nothing goes wrong in this run under {}",
                app.strategy.name
            ));
        }
    }
}

fn load(app: &mut App, index: usize) {
    let Some(script) = app.scripts.get(index).cloned() else {
        return;
    };
    // A scenario opens in the design it is written for.
    let strategy = opening_design(&script).unwrap_or_else(|| app.strategy.clone());
    let switched = strategy.name != app.strategy.name;
    let name = strategy.name;
    if open(app, script, strategy) && switched {
        app.status = Some(format!(
            "design {name}: the one this scenario is written for (m: next design)"
        ));
    }
}

/// `]` at the end of a tour scenario: the next one, in the same design
/// when it is written for it.
fn next_tour_scenario(app: &mut App) {
    let Some(next) = app.next_in_tour().cloned() else {
        app.status = app.end_hint();
        return;
    };
    let strategy = if next.strategies().iter().any(|n| n == app.strategy.name) {
        app.strategy.clone()
    } else {
        opening_design(&next).unwrap_or_else(|| app.strategy.clone())
    };
    let title = next.title.clone();
    if open(app, next, strategy) {
        let (at, of) = app.place_in_group();
        app.status = Some(format!("Tour {at}/{of}: {title}"));
    }
}

/// Puts a script on screen under a design, from its first frame, with
/// nothing open over it: the one way in for the picker and the explorer.
fn open(app: &mut App, script: Script, strategy: Strategy) -> bool {
    match Timeline::build(&script, &strategy, app.seed, &[]) {
        Ok(timeline) => {
            app.strategy = strategy;
            app.script = script;
            app.timeline = timeline;
            app.forks.clear();
            app.pos = 0;
            app.overlay = Overlay::None;
            app.playing = false;
            app.transition = None;
            app.zoom = false;
            if app.compare.take().is_some() {
                toggle_compare(app);
            }
            true
        }
        Err(e) => {
            app.status = Some(format!("cannot run {}: {e}", script.name));
            false
        }
    }
}

fn open_explorer(app: &mut App) {
    app.playing = false;
    app.transition = None;
    let row = app
        .exploration
        .report()
        .and_then(|r| {
            r.strategies
                .iter()
                .position(|s| s.strategy == app.strategy.name)
        })
        .unwrap_or(0);
    app.overlay = Overlay::Explorer(Selection { row, cx: 0 });
    if matches!(app.exploration, Exploration::Idle | Exploration::Failed(_)) {
        app.exploration = Exploration::Running { ms: 0 };
        app.pending = Some(Effect::Explore);
    }
}

fn explored(app: &mut App, result: Explored) {
    let result = Arc::try_unwrap(result.0).unwrap_or_else(|shared| (*shared).clone());
    match result {
        Ok(report) => {
            if let Overlay::Explorer(sel) = &mut app.overlay {
                let here = report
                    .strategies
                    .iter()
                    .position(|s| s.strategy == app.strategy.name);
                *sel = Selection {
                    row: here.unwrap_or(0),
                    cx: 0,
                };
            }
            app.exploration = Exploration::Done(Arc::new(report));
        }
        Err(e) => {
            app.status = Some(format!("the check stopped: {e}"));
            app.exploration = Exploration::Failed(e);
        }
    }
}

fn explorer_key(app: &mut App, action: Action, sel: Selection) {
    let (designs, cxs) = match app.exploration.report() {
        Some(r) => (
            r.strategies.len(),
            r.strategies
                .get(sel.row)
                .map_or(0, |s| s.counterexamples.len()),
        ),
        None => (0, 0),
    };
    let select = |app: &mut App, row: usize, cx: usize| {
        app.overlay = Overlay::Explorer(Selection {
            row: row.min(designs.saturating_sub(1)),
            cx,
        });
    };
    match action {
        Action::Up | Action::ScrollUp => select(app, sel.row.saturating_sub(1), 0),
        Action::Down | Action::ScrollDown => select(app, sel.row + 1, 0),
        Action::Next | Action::FocusNext if cxs > 0 => select(app, sel.row, (sel.cx + 1) % cxs),
        Action::Prev | Action::FocusPrev if cxs > 0 => {
            select(app, sel.row, (sel.cx + cxs - 1) % cxs)
        }
        Action::First => select(app, 0, 0),
        Action::Last => select(app, designs.saturating_sub(1), 0),
        Action::Enter => open_counterexample(app, sel),
        Action::Digit(d) => open_counterexample(
            app,
            Selection {
                cx: usize::from(d) - 1,
                ..sel
            },
        ),
        Action::Back | Action::Explore => app.overlay = Overlay::None,
        Action::Click { x, y } => {
            let l = layout::explorer(app.viewport, designs, sel.row, cxs);
            if let Some(row) = l.row_at(x, y).filter(|&r| r < designs) {
                select(app, row, 0);
            } else if let Some(cx) = l.counterexample_at(x, y).filter(|&c| c < cxs) {
                if cx == sel.cx {
                    open_counterexample(app, sel);
                } else {
                    select(app, sel.row, cx);
                }
            }
        }
        _ => {}
    }
}

/// Opens a counterexample in the player, at the first step where it goes
/// wrong (or its end, for a failure no single frame shows).
fn open_counterexample(app: &mut App, sel: Selection) {
    let Some(report) = app.exploration.report() else {
        return;
    };
    let Some(cx) = explorer::selected(report, sel) else {
        if report.strategies.get(sel.row).is_some() && sel.cx == 0 {
            app.status = Some("no schedule breaks this design within the bounds".into());
        }
        return;
    };
    // The counterexample's own design: the one it breaks.
    let Some(strategy) = opening_design(&cx.script).or_else(|| Strategy::by_name(&cx.strategy))
    else {
        app.status = Some(format!("no design named {} any more", cx.strategy));
        return;
    };
    let script = cx.script.clone();
    let note = format!(
        "from idem check: {} under {} in {} moves; here it goes wrong",
        cx.class,
        cx.strategy,
        cx.moves.len()
    );
    app.compare = None;
    if !open(app, script.clone(), strategy) {
        return;
    }
    if !app.found_by_check.contains(&script.name) {
        app.found_by_check.push(script.name.clone());
    }
    if !app.scripts.iter().any(|s| s.name == script.name) {
        app.scripts.push(script);
        app.scripts.sort_by_key(|s| (s.group, s.order));
    }
    app.pos = app
        .timeline
        .first_violation()
        .unwrap_or(app.timeline.frames.len() - 1);
    app.status = Some(note);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;

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
    fn chapters_jump_to_their_first_frame() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.timeline.chapters[1]);
        assert_eq!(a.frame().chapter, 1);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.timeline.chapters[2]);
        update(&mut a, Action::Next);
        update(&mut a, Action::PrevChapter);
        assert_eq!(
            a.pos, a.timeline.chapters[2],
            "back to this chapter's start"
        );
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.pos, a.timeline.chapters[1]);
    }

    #[test]
    fn mode_toggle_keeps_the_position_and_clamps() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Next);
        update(&mut a, Action::Next);
        update(&mut a, Action::ToggleMode);
        assert_eq!(a.strategy.name, "idempotent");
        assert_eq!(a.pos, 2);
        assert_eq!(a.timeline.strategy, a.strategy.name);
        // From the end of the longer run, the shorter one clamps.
        let mut a = app("tour-1", "idempotent");
        update(&mut a, Action::Last);
        for _ in 0..a.script.strategies().len() {
            update(&mut a, Action::ToggleMode);
            assert!(a.pos < a.timeline.frames.len());
        }
        assert_eq!(a.strategy.name, "idempotent", "the cycle comes back round");
    }

    #[test]
    fn m_goes_through_the_scenarios_own_designs_only() {
        // crash-after-provider lists three: idempotent first (it opens
        // there), then the others by name.
        let mut a = app("crash-after-provider", "idempotent");
        let mut seen = vec![a.strategy.name];
        for _ in 0..3 {
            update(&mut a, Action::ToggleMode);
            seen.push(a.strategy.name);
        }
        assert_eq!(
            seen,
            ["idempotent", "naive", "no-provider-key", "idempotent"]
        );
        // Design scenarios open in the design they are about, then idempotent.
        let a = app("charge-first", "idempotent");
        let names: Vec<_> = designs(&a.script).iter().map(|s| s.name).collect();
        assert_eq!(names, ["charge-first", "idempotent"]);
        // One design: m stays, and says why.
        let mut a = app("retention", "idempotent");
        assert_eq!(a.script.strategies().len(), 1);
        update(&mut a, Action::ToggleMode);
        assert_eq!(a.strategy.name, "idempotent");
        assert!(a.status.as_deref().unwrap().contains("one design"));
    }

    #[test]
    fn scenarios_open_in_their_own_design() {
        // A design the scenario lacks gives way to its own.
        let a = app("charge-first", "naive");
        assert_eq!(a.strategy.name, "charge-first");
        assert!(a.status.is_some());
        // The picker opens each scenario in `script.design()`.
        let mut a = app("tour-1", "naive");
        for i in 0..a.scripts.len() {
            update(&mut a, Action::Picker);
            update(&mut a, Action::Back);
            load(&mut a, i);
            assert_eq!(a.strategy.name, a.scripts[i].design(), "{}", a.script.name);
            assert_eq!(a.timeline.strategy, a.strategy.name);
        }
    }

    #[test]
    fn the_end_of_a_tour_step_leads_to_the_next() {
        let mut a = app("tour-1", "naive");
        assert_eq!(a.end_hint(), None);
        update(&mut a, Action::Last);
        assert!(a.end_hint().unwrap().contains("] next tour step"));
        // ] from the last chapter goes to its end first, then on.
        let mut a = app("tour-1", "naive");
        let last_chapter = *a.timeline.chapters.last().unwrap();
        goto(&mut a, last_chapter);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.pos, a.last_pos());
        assert_eq!(a.script.name, "tour-1");
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "tour-2");
        assert_eq!(a.strategy.name, "naive", "the same design");
        assert_eq!(a.pos, 0);
        // The last tour step says the tour is over and goes nowhere.
        let mut a = app("tour-4", "idempotent");
        update(&mut a, Action::Last);
        assert!(a.end_hint().unwrap().contains("end of the tour"));
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "tour-4");
        // Outside the tour, ] at the end stays put.
        let mut a = app("charge-first", "charge-first");
        update(&mut a, Action::Last);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.script.name, "charge-first");
        assert!(a.status.as_deref().unwrap().starts_with("end of scenario"));
    }

    #[test]
    fn a_fault_forks_and_drops_later_forks() {
        let mut a = app("tour-1", "idempotent");
        goto(&mut a, 3);
        inject(
            &mut a,
            Move::LoseAck {
                consumer: "A".into(),
            },
        );
        assert_eq!(a.pos, 4);
        assert_eq!(a.frame().action, "you: lose-ack A");
        goto(&mut a, 6);
        inject(
            &mut a,
            Move::Crash {
                consumer: "A".into(),
            },
        );
        assert_eq!(a.forks.len(), 2);
        // Acting in the past again discards the later fork.
        goto(&mut a, 2);
        inject(
            &mut a,
            Move::Publish {
                message: "m-7f3".into(),
            },
        );
        assert_eq!(a.forks.len(), 1);
        assert_eq!(a.forks[0].at, 2);
        assert_eq!(a.pos, 3);
        assert!(a.status.as_deref().unwrap().contains("forked at step 2"));
        assert_eq!(a.timeline.forks, a.forks);
    }

    #[test]
    fn escape_closes_an_overlay_before_it_quits() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Help);
        assert_eq!(a.overlay, Overlay::Help);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
        assert!(!a.quit);
        update(&mut a, Action::Back);
        assert!(a.quit);
    }

    #[test]
    fn picker_loads_a_scenario_at_its_start() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Last);
        update(&mut a, Action::Picker);
        update(&mut a, Action::Down);
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.script.name, "tour-2");
        assert_eq!(a.pos, 0);
        assert_eq!(a.strategy.name, "idempotent", "its own design");
    }

    #[test]
    fn first_violation_jumps_or_explains() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::FirstViolation);
        assert_eq!(Some(a.pos), a.timeline.first_violation());
        assert!(a.frame().verdict.outcome.is_failure());
        let mut a = app("tour-1", "idempotent");
        update(&mut a, Action::FirstViolation);
        assert_eq!(a.pos, 0);
        assert!(a.status.is_some());
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

    #[test]
    fn compare_steps_in_lockstep_and_returns_to_the_same_frame() {
        let mut a = app("tour-1", "idempotent");
        goto(&mut a, 5);
        update(&mut a, Action::Compare);
        let c = a.compare.as_ref().unwrap();
        assert_eq!(c.pairs[a.pos].1, 5);
        update(&mut a, Action::FirstViolation);
        assert_eq!(Some(a.pos), a.compare.as_ref().unwrap().diverge);
        update(&mut a, Action::Compare);
        assert!(a.compare.is_none());
        assert!(a.pos < a.timeline.frames.len());
    }

    /// The checker on naive alone, one fault per schedule: quick in debug.
    fn naive_report() -> crate::check::CheckReport {
        crate::check::run(&crate::check::Bounds {
            max_faults: 1,
            strategy: Some("naive".into()),
            ..crate::check::Bounds::default()
        })
        .expect("the check runs")
    }

    #[test]
    fn enter_on_a_counterexample_opens_it_at_its_first_bad_step() {
        let mut a = app("tour-2", "idempotent");
        update(&mut a, Action::Explore);
        assert!(matches!(a.overlay, Overlay::Explorer(_)));
        assert_eq!(a.pending.take(), Some(Effect::Explore));
        assert!(a.busy(), "the loop keeps ticking while the check runs");
        let report = naive_report();
        let cx = report.strategies[0].counterexamples[1].clone();
        update(&mut a, Action::ExploreDone(Explored::new(Ok(report))));
        assert!(!a.busy());
        update(&mut a, Action::Next);
        assert_eq!(a.overlay, Overlay::Explorer(Selection { row: 0, cx: 1 }));
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.script.name, cx.script.name);
        assert_eq!(a.strategy.name, "naive");
        assert_eq!(a.timeline.strategy, "naive");
        assert_eq!(Some(a.pos), a.timeline.first_violation());
        assert!(a.frame().verdict.outcome.is_failure());
        assert!(a.is_counterexample());
        assert!(a.scripts.iter().any(|s| s.name == cx.script.name));
        // Back in the explorer the report is still there: no second check.
        update(&mut a, Action::Explore);
        assert_eq!(a.pending, None);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
        assert!(!a.quit);
    }

    #[test]
    fn clicks_in_the_explorer_select_then_open() {
        let mut a = app("tour-1", "naive");
        update(
            &mut a,
            Action::Resize {
                width: 120,
                height: 40,
            },
        );
        update(&mut a, Action::Explore);
        update(
            &mut a,
            Action::ExploreDone(Explored::new(Ok(naive_report()))),
        );
        let n = a.exploration.report().unwrap().strategies[0]
            .counterexamples
            .len();
        let l = layout::explorer(a.viewport, 1, 0, n);
        update(
            &mut a,
            Action::Click {
                x: 3,
                y: l.list.y + 1,
            },
        );
        assert_eq!(a.overlay, Overlay::Explorer(Selection { row: 0, cx: 1 }));
        update(&mut a, Action::Click { x: 3, y: l.rows.y });
        assert_eq!(a.overlay, Overlay::Explorer(Selection { row: 0, cx: 0 }));
        update(&mut a, Action::Click { x: 3, y: l.list.y });
        assert_eq!(a.overlay, Overlay::None, "a second click opens it");
        assert!(a.frame().verdict.outcome.is_failure());
    }

    #[test]
    fn clicks_focus_the_panel_under_the_pointer() {
        let mut a = app("tour-1", "naive");
        update(
            &mut a,
            Action::Resize {
                width: 120,
                height: 40,
            },
        );
        let m = layout::main(a.viewport, None);
        let r = m.rect(Panel::Provider);
        update(
            &mut a,
            Action::Click {
                x: r.x + 1,
                y: r.y + 1,
            },
        );
        assert_eq!(a.focus, Panel::Provider);
    }
}
