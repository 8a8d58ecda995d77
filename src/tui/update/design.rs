//! `m`: the next of the scenario's designs, at the same moment of the
//! story (and in compare, of this design's side).

use super::compare_engines::reopen_compare;
use crate::scenario::Script;
use crate::sim::Strategy;
use crate::timeline::Timeline;
use crate::tui::app::{App, designs};
use crate::tui::design_trail::DesignTrail;

pub(super) fn toggle_mode(app: &mut App) {
    // The learner's design, not one of the scenario's, is kept for the
    // way back.
    if Strategy::by_name(&app.strategy.name).is_none() {
        app.own_design = Some(app.strategy.clone());
    }
    let strategy = next_of(&app.script, &app.strategy, app.own_design.as_ref());
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
        Some(c) => c.own_frame(app.pos, &app.strategy.name),
        None => app.pos,
    };
    let moment = app.timeline.moment(mine);
    // Only a run without forks or compare comes home: a fork carried to
    // the other design changes its run, and compare has its own position.
    let plain = app.forks.is_empty() && app.compare.is_none();
    let home = if plain {
        app.design_trail
            .leave(&app.strategy.name, app.pos, &strategy.name)
    } else {
        app.design_trail = DesignTrail::default();
        None
    };
    app.strategy = strategy;
    app.timeline = timeline;
    app.transition = None;
    app.pos = match home {
        Some(pos) => pos.min(app.timeline.frames.len().saturating_sub(1)),
        None => app.timeline.find(&moment),
    };
    if plain {
        app.design_trail.arrive(&app.strategy.name, app.pos);
    }
    if let Some(c) = app.compare.take() {
        reopen_compare(app, c.sides);
    }
}

/// The next of the scenario's designs (see `app::designs`); from a design
/// it does not list, its first.
pub fn next_strategy(script: &Script, current: &Strategy) -> Strategy {
    next_of(script, current, None)
}

/// As `next_strategy`, with the learner's own design last in the round.
fn next_of(script: &Script, current: &Strategy, own: Option<&Strategy>) -> Strategy {
    let mut all = designs(script);
    all.extend(
        own.filter(|o| all.iter().all(|s| s.name != o.name))
            .cloned(),
    );
    let i = all.iter().position(|s| s.name == current.name);
    all.get(i.map_or(0, |i| (i + 1) % all.len()))
        .cloned()
        .unwrap_or_else(|| current.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::action::Action;
    use crate::tui::app::tests::app;
    use crate::tui::update::goto;
    use crate::tui::update::update;

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
    fn m_round_the_designs_comes_home_to_the_step_it_left() {
        // Teacher trial 18: naive 13 -> idempotent 13 -> naive 12, which
        // took the second charge off the screen.
        let mut homeless = 0;
        for name in [
            "tour-1",
            "tour-2",
            "tour-3",
            "tour-4",
            "in-progress",
            "charge-first",
        ] {
            let designs = designs(&app(name, "idempotent").script);
            for design in &designs {
                let frames = app(name, &design.name).timeline.frames.len();
                for pos in 0..frames {
                    let mut a = app(name, &design.name);
                    goto(&mut a, pos);
                    // One step round every design and one further, to be
                    // sure the trail still holds for a second round.
                    for round in 1..=designs.len() * 2 {
                        update(&mut a, Action::ToggleMode);
                        if round % designs.len() == 0
                            && (a.strategy.name != design.name || a.pos != pos)
                        {
                            homeless += 1;
                            eprintln!("{name} {} {pos}: round {round} at {}", design.name, a.pos);
                        }
                    }
                }
            }
        }
        assert_eq!(homeless, 0, "m round the designs lost the step");
        // A move in between starts a new trail: the moment decides again.
        let mut a = app("tour-1", "naive");
        goto(&mut a, 13);
        update(&mut a, Action::ToggleMode);
        update(&mut a, Action::Next);
        let there = a.pos;
        update(&mut a, Action::ToggleMode);
        let moment = crate::timeline::Timeline::build(&a.script, &a.strategy, a.seed, &[])
            .unwrap()
            .find(&app("tour-1", "idempotent").timeline.moment(there));
        assert_eq!(a.pos, moment, "after a move, m maps the moment afresh");
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
        // crash-after-provider lists three: naive first (it opens there,
        // the problem before the fix), then the others by name.
        let mut a = app("crash-after-provider", "naive");
        let mut seen = vec![a.strategy.name.clone()];
        for _ in 0..3 {
            update(&mut a, Action::ToggleMode);
            seen.push(a.strategy.name.clone());
        }
        assert_eq!(seen, ["naive", "idempotent", "no-provider-key", "naive"]);
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
}
