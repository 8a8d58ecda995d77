//! The step line under the story names the handler step that just ran
//! before the scripted action it is part of. Teacher trial: at tour-1 step
//! 4 (the charge) it said only `run A up to commit`, and at step 2 (BEGIN)
//! `run A up to charge the card`; students read that as what happened.

use crate::common::{self, draw};

fn step_row(screen: &str, step: usize) -> String {
    screen
        .lines()
        .find(|l| l.contains(&format!("▶ step {step}/")))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn step_line_names_the_step_that_ran_first() {
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
        for (step, ran) in [(2, "begin transaction (A)"), (4, "charge the card (A)")] {
            let mut app = common::app("tour-1", "naive");
            app.pos = step;
            let screen = draw(&mut app, w, h);
            let row = step_row(&screen, step);
            let after = row.split(&format!("▶ step {step}/16")).nth(1).unwrap_or("");
            // After the step number: the time where there is room, then
            // the step that ran.
            let after = after.trim_start().trim_start_matches("· ");
            let after = match after.strip_prefix("t=") {
                Some(rest) => rest.split_once(" · ").map_or("", |(_, r)| r),
                None => after,
            };
            assert!(
                after.starts_with(ran),
                "step {step} at {w}x{h} does not lead with {ran:?}: {row}"
            );
            if w >= 100 {
                // At 100x30 beside a fold note the action may be cut (`run A to…`).
                assert!(row.contains("part of: run A to"), "{w}x{h}: {row}");
            }
        }
    }
}

/// A one-step action (`step A`) is the step that ran: the line names it
/// once, not as "part of: step A" (trial 9 read "step" twice over).
#[test]
fn a_one_step_action_is_not_named_again() {
    let mut seen = 0;
    for name in ["tour-3", "tour-4"] {
        for design in ["naive", "idempotent"] {
            let mut app = common::app(name, design);
            for step in 0..app.timeline.frames.len() {
                app.pos = step;
                seen += usize::from(app.frame().action.starts_with("step "));
                let screen = draw(&mut app, 120, 40);
                let row = step_row(&screen, step);
                assert!(!row.contains("part of: step "), "{name} {design}: {row}");
            }
        }
    }
    assert!(seen > 0, "no one-step action in the tours");
}

/// The action a step is part of is cut only at a word end: `part of: run
/// A up to c…` (100x30) read as `charge` or `commit` alike (teacher trial
/// 17). Each tour, each design, each size: what is kept of the action is
/// whole words of it.
#[test]
fn the_action_a_step_is_part_of_is_cut_at_a_word_end() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for n in 1..=4 {
        let name = format!("tour-{n}");
        for design in ["naive", "idempotent"] {
            let mut app = common::app(&name, design);
            for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
                for step in 0..app.timeline.frames.len() {
                    app.pos = step;
                    let action = app.frame().action.clone();
                    let screen = draw(&mut app, w, h);
                    let row = step_row(&screen, step);
                    let Some((_, kept)) = row.split_once("part of: ") else {
                        continue;
                    };
                    seen += 1;
                    let Some((kept, _)) = kept.split_once('…') else {
                        continue;
                    };
                    let whole_words = action
                        .strip_prefix(kept)
                        .is_some_and(|rest| rest.starts_with(' '));
                    if !whole_words {
                        wrong.push(format!("{name} {design} {w}x{h} step {step}: {row}"));
                    }
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} step lines name an action");
    assert!(
        wrong.is_empty(),
        "{} cut mid-word:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A run's last step keeps its name beside the way on: the end's hint is
/// shortened to its first key (`end: ] next tour`) before the step that
/// ran gives way. Teacher trial 29: tour-3 naive at 100x30 read `t=55s
/// end of scenario: ] next tour / s scenarios`, the acknowledge unnamed.
#[test]
fn the_last_step_is_named_beside_the_end_hint() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for n in 1..=4 {
        let name = format!("tour-{n}");
        for design in ["naive", "idempotent"] {
            let mut app = common::app(&name, design);
            let last = app.timeline.frames.len() - 1;
            app.pos = last;
            for (w, h) in [(100u16, 30u16), (120, 40)] {
                let screen = draw(&mut app, w, h);
                let row = step_row(&screen, last);
                seen += 1;
                let named = row.split_once(" t=").is_some_and(|(_, rest)| {
                    rest.split_once(' ')
                        .is_some_and(|(_, r)| r.starts_with("· "))
                });
                if !named || !(row.contains("end") || row.contains("tour done")) {
                    wrong.push(format!("{name} {design} {w}x{h}: {row}"));
                }
            }
        }
    }
    assert!(seen >= 16, "{seen}");
    assert!(wrong.is_empty(), "{} of {seen}: {wrong:#?}", wrong.len());
}
