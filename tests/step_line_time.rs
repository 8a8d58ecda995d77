//! The story panel's step line keeps the clock (`t=3s`) wherever the
//! handler step that ran fits beside it: the time is what tells a lease's
//! expiry from the step before it, and dropping it while keeping words
//! that fit anyway lost it silently. Teacher trial 12: tour-1 at 100x30
//! showed `t=2s` at step 2 and none at steps 3 to 5.

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
                    if !line.contains("t=") {
                        wrong.push(format!("{name} {mode} {w}x{h} step {pos}: {line}"));
                    }
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} step lines seen");
    assert!(
        wrong.is_empty(),
        "{} of {seen} step lines lost the time; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
