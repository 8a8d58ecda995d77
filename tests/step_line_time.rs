//! The story panel's step line keeps the clock (`t=3s`) unless the action
//! the step is part of takes its room: the time is what tells a lease's
//! expiry from the step before it. Teacher trial 12: tour-1 at 100x30
//! ended on `step 16/16 · acknowledge (A)  end of scenario: …` with no
//! time, where the hint's short words left room for it.

use crate::common;

#[test]
fn the_step_line_keeps_the_time_where_the_step_that_ran_fits() {
    let mut wrong = Vec::new();
    let mut seen = 0;
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            let mut app = common::app(name, mode);
            for (w, h) in [(100, 30), (120, 40)] {
                common::resize(&mut app, w, h);
                for pos in 1..app.timeline.frames.len() {
                    app.pos = pos;
                    let screen = common::render(&app);
                    let Some(line) = screen
                        .lines()
                        .find(|l| l.contains(&format!("step {pos}/")) && l.contains('└'))
                    else {
                        continue;
                    };
                    seen += 1;
                    if !line.contains("t=") && !line.contains("part of: ") {
                        wrong.push(format!("{name} {mode} {w}x{h} step {pos}: {line}"));
                    }
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} step lines seen");
    assert!(
        wrong.is_empty(),
        "{} of {seen} step lines lost the time to nothing; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
