//! Keys on the main screen (and on compare, which shares its stepping):
//! stepping, chapters, playback, the design, and the ways into the overlays.

use super::compare::toggle_compare;
use super::explorer::open_explorer;
use super::{goto, open};
use crate::scenario::Script;
use crate::sim::Strategy;
use crate::timeline::Timeline;
use crate::tui::action::Action;
use crate::tui::app::{
    App, Effect, Overlay, Panel, SPEEDS, designs, opening_design, seconds_per_step,
};
use crate::tui::layout;

pub(super) fn main_key(app: &mut App, action: Action) {
    match action {
        Action::Next | Action::ScrollDown => goto(app, app.pos + 1),
        Action::Prev | Action::ScrollUp => goto(app, app.pos.saturating_sub(1)),
        Action::NextChapter => match app.chapter_starts().into_iter().find(|&s| s > app.pos) {
            Some(target) => goto(app, target),
            // The last chapter: its end first, where the verdict is.
            None if app.pos < app.last_pos() => goto(app, app.last_pos()),
            None => next_tour_scenario(app),
        },
        Action::PrevChapter if app.pos == 0 => prev_tour_scenario(app),
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
            app.overlay = Overlay::Picker {
                selected,
                typed: None,
            };
        }
        Action::Faults => {
            if app.compare.is_some() {
                app.status = Some("faults act on one run: press c to leave compare first".into());
            } else {
                app.playing = false;
                app.overlay = Overlay::Faults {
                    selected: 0,
                    typed: None,
                };
            }
        }
        Action::FirstViolation => first_violation(app),
        Action::Explore => open_explorer(app),
        Action::Help => {
            app.help_scroll = 0;
            app.overlay = Overlay::Help;
        }
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
        Action::Export => app.pending = Some(Effect::Export),
        Action::Levels => super::levels::open_levels(app),
        Action::Presenter => {
            let on = !app.presenter;
            if app.compare.is_some() {
                toggle_compare(app);
            }
            app.presenter = on;
        }
        Action::Back => {
            if app.presenter {
                app.presenter = false;
            } else if app.zoom {
                app.zoom = false;
            } else if app.compare.is_some() {
                toggle_compare(app);
            } else {
                app.status = Some("Esc closes menus and views; q quits".into());
            }
        }
        Action::Click { x, y } => {
            if app.compare.is_none() && !app.presenter {
                let zoom = app.zoom.then_some(app.focus);
                let need = layout::Need::of(app.frame(), &app.timeline.frames);
                if let Some(p) = layout::main_for(app.viewport, zoom, need).hit(x, y) {
                    app.focus = p;
                }
            }
        }
        Action::Up
        | Action::Predict
        | Action::Backspace
        | Action::Down
        | Action::Enter
        | Action::Digit(_)
        | Action::Proved(_)
        | Action::Remove
        | Action::MoveUp
        | Action::MoveDown
        | Action::Reset
        | Action::Quit
        | Action::QuitKey
        | Action::ExploreDone(_)
        | Action::Exported(_)
        | Action::Resize { .. }
        | Action::Tick { .. } => {}
    }
}

pub(super) fn toggle_mode(app: &mut App) {
    let strategy = next_strategy(&app.script, &app.strategy);
    if strategy.name == app.strategy.name {
        app.status = Some(format!(
            "this scenario is written for one design, {}: s picks another scenario",
            strategy.name
        ));
        return;
    }
    // The user's moves go to the same moment of the other design's run,
    // not the same index: the programs have different lengths.
    let timeline = Timeline::build(&app.script, &strategy, app.seed, &[]).and_then(|written| {
        if app.forks.is_empty() {
            return Ok(written);
        }
        let forks = app.timeline.carry_forks(&app.forks, &written);
        let forked = Timeline::build(&app.script, &strategy, app.seed, &forks)?;
        app.forks = forks;
        Ok(forked)
    });
    let timeline = match timeline {
        Ok(t) => t,
        Err(e) => {
            app.status = Some(format!("cannot run {}: {e}", strategy.name));
            return;
        }
    };
    // The same moment of the story, not the same index: the programs have
    // different lengths. In compare, the moment of this design's side.
    let mine = match &app.compare {
        Some(c) => {
            let (l, r) = c.pairs[app.pos.min(c.pairs.len() - 1)];
            if c.left.strategy == app.strategy.name {
                l
            } else {
                r
            }
        }
        None => app.pos,
    };
    let moment = app.timeline.moment(mine);
    app.strategy = strategy;
    app.timeline = timeline;
    app.transition = None;
    app.pos = app.timeline.find(&moment);
    if app.compare.is_some() {
        app.compare = None;
        toggle_compare(app);
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

pub(super) fn first_violation(app: &mut App) {
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

/// `]` at the end of a tour scenario: the next one, in the same design
/// when it is written for it.
pub(super) fn next_tour_scenario(app: &mut App) {
    let Some(next) = app.next_in_tour().cloned() else {
        app.status = app.end_hint();
        return;
    };
    tour_step(app, next, false);
}

/// `[` at the first step of a tour scenario: the one before, at its end,
/// as if the tour were one long run.
fn prev_tour_scenario(app: &mut App) {
    match app.prev_in_tour().cloned() {
        Some(prev) => tour_step(app, prev, true),
        None if app.script.group == crate::scenario::Group::Tour => {
            app.status = Some("the first step of the tour".into());
        }
        None => {}
    }
}

fn tour_step(app: &mut App, next: Script, at_end: bool) {
    let strategy = if next.strategies().iter().any(|n| *n == app.strategy.name) {
        app.strategy.clone()
    } else {
        opening_design(&next).unwrap_or_else(|| app.strategy.clone())
    };
    let title = next.title.clone();
    if open(app, next, strategy) {
        if at_end {
            app.pos = app.last_pos();
        }
        if let Some((at, of)) = app.place_in_group() {
            app.status = Some(format!("Tour {at}/{of}: {title}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

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
    fn m_keeps_the_moment_on_every_tour_step() {
        for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
            for design in designs(&app(name, "idempotent").script) {
                let frames = app(name, &design.name).timeline.frames.len();
                for pos in 0..frames {
                    let mut a = app(name, &design.name);
                    goto(&mut a, pos);
                    let before = a.timeline.moment(pos);
                    let was = a.frame().clone();
                    update(&mut a, Action::ToggleMode);
                    let at = format!("{name} {} step {pos} -> {}", design.name, a.pos);
                    assert_ne!(a.strategy.name, design.name, "{at}");
                    let now = a.frame();
                    assert_eq!(now.chapter, was.chapter, "{at}");
                    let here = a.timeline.moment(a.pos);
                    let has_action =
                        a.timeline.frames.iter().any(|f| {
                            (f.chapter, f.action_index) == (was.chapter, was.action_index)
                        });
                    if has_action {
                        assert_eq!(now.action_index, was.action_index, "{at}");
                        assert_eq!(now.action, was.action, "{at}");
                    }
                    // The same handler step, where both programs have it.
                    if let (Some((c, k, _)), Some((c2, k2, _))) = (&before.step, &here.step)
                        && a.timeline.frames.iter().any(|f| {
                            f.chapter == was.chapter
                                && f.action_index == was.action_index
                                && f.changes.steps.iter().any(|s| {
                                    &s.consumer == c
                                        && f.consumers
                                            .iter()
                                            .any(|x| &x.name == c && x.steps[s.step].keyword == *k)
                                })
                        })
                    {
                        assert_eq!((c, k), (c2, k2), "{at}");
                    }
                }
            }
        }
        // The case from the issue: nine steps into tour 1, then m.
        let mut a = app("tour-1", "idempotent");
        for _ in 0..9 {
            update(&mut a, Action::Next);
        }
        let (chapter, action, time) = (
            a.frame().chapter,
            a.frame().action.clone(),
            a.frame().time_ms,
        );
        update(&mut a, Action::ToggleMode);
        assert_eq!(a.strategy.name, "naive");
        assert_eq!(
            (a.frame().chapter, a.frame().action.clone()),
            (chapter, action)
        );
        assert!(
            a.frame().time_ms <= time + 1000,
            "{} vs {time}",
            a.frame().time_ms
        );
    }

    #[test]
    fn m_goes_through_the_scenarios_own_designs_only() {
        // crash-after-provider lists three: idempotent first (it opens
        // there), then the others by name.
        let mut a = app("crash-after-provider", "idempotent");
        let mut seen = vec![a.strategy.name.clone()];
        for _ in 0..3 {
            update(&mut a, Action::ToggleMode);
            seen.push(a.strategy.name.clone());
        }
        assert_eq!(
            seen,
            ["idempotent", "naive", "no-provider-key", "idempotent"]
        );
        // Design scenarios open in the design they are about, then idempotent.
        let a = app("charge-first", "idempotent");
        let names: Vec<_> = designs(&a.script).iter().map(|s| s.name.clone()).collect();
        assert_eq!(names, ["charge-first", "idempotent"]);
        // One design: m stays, and says why.
        let mut a = app("retention", "idempotent");
        assert_eq!(a.script.strategies().len(), 1);
        update(&mut a, Action::ToggleMode);
        assert_eq!(a.strategy.name, "idempotent");
        assert!(a.status.as_deref().unwrap().contains("one design"));
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
    fn escape_only_closes_and_q_quits_only_from_the_main_screen() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Help);
        assert_eq!(a.overlay, Overlay::Help);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
        assert!(!a.quit);
        update(&mut a, Action::Back);
        assert!(!a.quit, "Esc on the main screen does not quit");
        assert!(a.status.as_deref().unwrap().contains("q quits"));
        update(&mut a, Action::Picker);
        update(&mut a, Action::QuitKey);
        assert_eq!(a.overlay, Overlay::None, "q closes the picker");
        assert!(!a.quit);
        update(&mut a, Action::QuitKey);
        assert!(a.quit);
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Faults);
        update(&mut a, Action::Quit);
        assert!(a.quit, "Ctrl-C quits from anywhere");
    }

    #[test]
    fn open_bracket_at_the_start_goes_back_a_tour_step() {
        let mut a = app("tour-2", "idempotent");
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.script.name, "tour-1");
        assert_eq!(a.pos, a.last_pos(), "at the end of the step before");
        update(&mut a, Action::First);
        update(&mut a, Action::PrevChapter);
        assert_eq!(a.script.name, "tour-1", "the tour starts here");
        assert!(a.status.is_some());
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
