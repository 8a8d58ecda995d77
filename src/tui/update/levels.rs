//! The level screen's keys: edit the handler (add from the palette, remove,
//! move), ask the prover, take its answer, and replay the run that breaks
//! the handler on the main screen.

use super::explorer::replay;
use crate::scenario::runnable::MAX_STEPS;
use crate::tui::action::Action;
use crate::tui::app::{App, Effect, Overlay};
use crate::tui::levels::{Proved, Proving};
use std::sync::Arc;

pub(super) fn open_levels(app: &mut App) {
    app.playing = false;
    app.transition = None;
    app.overlay = Overlay::Levels;
}

pub(super) fn levels_key(app: &mut App, action: Action) {
    let play = &mut app.levels;
    // The goal and the prover's words whole (`w`) cover the handler: `w` or `Esc` goes
    // back, and any other key goes back and does what it does, so that no
    // edit is made out of sight.
    if play.whole {
        play.whole = false;
        if matches!(action, Action::Why | Action::Back) {
            return;
        }
    } else if matches!(action, Action::Why) {
        play.whole = true;
        return;
    }
    let last = play.program.len().saturating_sub(1);
    let running = matches!(play.proving, Proving::Running { .. });
    match action {
        Action::Up | Action::ScrollUp => play.selected = play.selected.saturating_sub(1),
        Action::Down | Action::ScrollDown => play.selected = (play.selected + 1).min(last),
        Action::First => play.selected = 0,
        Action::Last => play.selected = last,
        // The building blocks are numbered 1 to 9, then 0 for the tenth.
        Action::Digit(d) if !running => {
            let i = if d == 0 { 9 } else { usize::from(d) - 1 };
            let Some(&op) = play.level().palette.get(i) else {
                app.status = Some(format!(
                    "the building blocks are numbered 1 to {}",
                    play.level().palette.len().min(10) % 10
                ));
                return;
            };
            if play.program.len() >= MAX_STEPS {
                app.status = Some(format!(
                    "a handler has at most {MAX_STEPS} steps: d removes one"
                ));
                return;
            }
            let at = if play.program.is_empty() {
                0
            } else {
                play.selected + 1
            };
            play.program.insert(at, op);
            play.selected = at;
            play.edited();
        }
        Action::Remove | Action::Backspace if !running && !play.program.is_empty() => {
            play.program.remove(play.selected);
            // The step before is selected, so that a number pressed next
            // puts its block where the removed one was: d then 6 replaces.
            play.selected = play.selected.saturating_sub(1);
            play.edited();
        }
        Action::MoveUp if !running && play.selected > 0 => {
            play.program.swap(play.selected, play.selected - 1);
            play.selected -= 1;
            play.edited();
        }
        Action::MoveDown if !running && play.selected < last => {
            play.program.swap(play.selected, play.selected + 1);
            play.selected += 1;
            play.edited();
        }
        Action::Reset if !running => {
            let current = play.current;
            play.go_to(current);
            app.status = Some("back to the level's starting handler".into());
        }
        Action::Remove | Action::MoveUp | Action::MoveDown | Action::Reset | Action::Digit(_) => {
            app.status = Some("the prover is still running: wait for its verdict".into());
        }
        Action::NextChapter | Action::PrevChapter if !running => {
            let n = play.levels.len();
            let to = if matches!(action, Action::NextChapter) {
                (play.current + 1).min(n - 1)
            } else {
                play.current.saturating_sub(1)
            };
            play.go_to(to);
        }
        Action::Help => play.hint = !play.hint,
        // The hint first, as Esc closes a menu or a view elsewhere.
        Action::Back if play.hint => play.hint = false,
        Action::Enter => prove(app),
        Action::FirstViolation => watch(app),
        Action::Back | Action::Levels => app.overlay = Overlay::None,
        _ => {}
    }
}

/// Asks for the prover, if the handler can run at all.
fn prove(app: &mut App) {
    let play = &mut app.levels;
    if matches!(play.proving, Proving::Running { .. }) {
        return;
    }
    if let Some(e) = play.invalid() {
        app.status = Some(match e.at {
            Some(i) => format!("cannot run yet: step {}: {}", i + 1, e.message),
            None => format!("cannot run yet: {}", e.message),
        });
        return;
    }
    play.proving = Proving::Running { ms: 0 };
    app.pending = Some(Effect::Prove);
}

/// The prover's answer. One for a handler that has changed since (an
/// answer cannot arrive for another one while it runs, since edits wait,
/// but a level change can) is dropped.
pub(super) fn proved(app: &mut App, result: Proved) {
    let play = &mut app.levels;
    let result = Arc::try_unwrap(result.0).unwrap_or_else(|shared| (*shared).clone());
    match result {
        Ok(attempt) if attempt.level == play.level().number && attempt.program == play.program => {
            if attempt.won() {
                use crate::learner::Further;
                play.won.insert(attempt.level);
                play.further_unknown.remove(&attempt.level);
                let further =
                    if crate::tui::explorer::table::breaks_further(&attempt.report).is_some() {
                        play.only_within.insert(attempt.level);
                        Further::Breaks
                    } else {
                        play.only_within.remove(&attempt.level);
                        Further::Holds
                    };
                // Kept in the learner's progress file, by the level's
                // stable name rather than its place in the list, with how
                // it fared further, so the next session marks it the same.
                app.progress.mark_level_won(&play.level().slug, further);
            }
            play.proving = Proving::Done(Arc::new(attempt));
        }
        Ok(_) => play.proving = Proving::Idle,
        Err(e) => {
            app.status = Some(format!("the prover stopped: {e}"));
            play.proving = Proving::Failed(e);
        }
    }
}

/// Replays the shortest run that breaks the handler on the main screen.
fn watch(app: &mut App) {
    let Some(attempt) = app.levels.attempt() else {
        app.status = Some("press Enter first: the prover finds the run to watch".into());
        return;
    };
    let Some(cx) = attempt.counterexample().cloned() else {
        app.status = Some("no run breaks this handler: nothing to watch".into());
        return;
    };
    let level = app.levels.level();
    let strategy = level.design(&attempt.program);
    // A won level's run is one bound further: said on the replay's own
    // line, or a learner who just won reads "your handler fails" as a
    // loss (teacher trial 31).
    let further = attempt
        .won()
        .then(|| {
            attempt.report.further.iter().find(|f| {
                f.ways()
                    .iter()
                    .any(|(_, way)| way.moves == cx.moves && way.class == cx.class)
            })
        })
        .flatten();
    let whose = match further {
        Some(f) => format!("level {}, one bound further ({}):", level.number, f.bound()),
        None => format!("level {}: your handler", level.number),
    };
    let note = format!(
        "{whose} fails in {} moves · ends: {} · here it goes wrong · L back to level {}",
        cx.moves.len(),
        cx.class.text(),
        level.number
    );
    replay(app, &cx, strategy, vec![note]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::Attempt;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    /// What the terminal layer does for `Effect::Prove`, on this thread.
    pub(crate) fn run_prover(a: &mut crate::tui::app::App) {
        assert_eq!(a.pending.take(), Some(Effect::Prove));
        let play = &a.levels;
        let result = Attempt::check(play.level(), &play.program).map_err(|e| e.to_string());
        update(a, Action::Proved(Proved(Arc::new(result))));
    }

    #[test]
    fn the_first_level_is_lost_then_fixed_then_won() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Levels);
        assert_eq!(a.overlay, Overlay::Levels);
        update(&mut a, Action::Enter);
        run_prover(&mut a);
        assert!(!a.levels.won(1));
        let cx = a.levels.attempt().unwrap().counterexample().unwrap().class;
        assert_eq!(cx, a.levels.level().about);
        // Watch it break, then come back with the handler as it was.
        update(&mut a, Action::FirstViolation);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.strategy.name, "level-1");
        assert!(a.timeline.first_violation().is_some());
        update(&mut a, Action::Levels);
        assert_eq!(a.overlay, Overlay::Levels);
        // receive, begin, charge, provider without key, ...: add `claim`
        // after begin (block 3), and swap the unkeyed call for a keyed one.
        update(&mut a, Action::Down);
        update(&mut a, Action::Digit(3));
        assert_eq!(a.levels.program[2], crate::sim::Op::ClaimId);
        update(&mut a, Action::Down);
        update(&mut a, Action::Down);
        update(&mut a, Action::Remove); // d then 6: replaces the step
        update(&mut a, Action::Digit(6));
        assert_eq!(a.levels.program, a.levels.level().solution);
        update(&mut a, Action::Enter);
        run_prover(&mut a);
        assert!(a.levels.won(1), "{:?}", a.levels.proving);
        // The win is kept in the learner's progress, and read back.
        let slug = a.levels.level().slug.clone();
        assert!(a.progress.level_won(&slug));
        let mut again = crate::tui::levels::LevelPlay::default();
        assert!(!again.won(1));
        again.recall(&a.progress);
        assert!(again.won(1));
    }

    #[test]
    fn a_handler_that_cannot_run_is_not_sent_to_the_prover() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Levels);
        update(&mut a, Action::Down);
        update(&mut a, Action::Remove); // begin: the charge is now outside a transaction
        update(&mut a, Action::Enter);
        assert_eq!(a.pending, None);
        assert!(
            a.status.as_deref().unwrap().contains("step 2"),
            "{:?}",
            a.status
        );
        update(&mut a, Action::Reset);
        assert_eq!(a.levels.program, a.levels.level().start);
        // Adding is bounded like a design file.
        for _ in 0..40 {
            update(&mut a, Action::Digit(0));
        }
        assert_eq!(a.levels.program.len(), MAX_STEPS);
        assert!(a.status.as_deref().unwrap().contains("at most"));
    }

    #[test]
    fn moving_steps_and_changing_level() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Levels);
        update(&mut a, Action::Down);
        update(&mut a, Action::MoveDown);
        assert_eq!(a.levels.selected, 2);
        assert_eq!(a.levels.program[2], crate::sim::Op::Begin);
        update(&mut a, Action::MoveUp);
        assert_eq!(a.levels.program, a.levels.level().start);
        update(&mut a, Action::NextChapter);
        assert_eq!(a.levels.level().number, 2);
        assert_eq!(a.levels.program, a.levels.level().start);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
    }

    /// Esc closes the hint `?` opened before it leaves the level, as it
    /// closes a menu or a view elsewhere. Teacher trial 26: Esc after `?`
    /// left for tour 1's main screen with the hint still set.
    #[test]
    fn esc_closes_the_hint_before_it_leaves() {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Levels);
        update(&mut a, Action::Help);
        assert!(a.levels.hint);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::Levels);
        assert!(!a.levels.hint);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
    }
}
