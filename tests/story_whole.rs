//! How many steps of the tours the story panel shows whole (no "more
//! sentence" note on its border). A paragraph for each earlier step's
//! words cost a row apiece: at 120x40 the tours had 99 of 121 steps
//! whole. Earlier words now run on in one paragraph, each group after its
//! `at step N:` mark: 108. (One bare `earlier:` mark for them all would
//! give 109 with today's words, told step by step; the 110 of the time of
//! that mark was counted before the words were.)

use crate::common;

const TOURS: [&str; 4] = ["tour-1", "tour-2", "tour-3", "tour-4"];

/// Over the tours in both designs at `w`x`h`: the steps whose story
/// panel folds nothing, the steps in all, and the folded ones by name.
fn whole_steps(w: u16, h: u16) -> (usize, usize, Vec<String>) {
    let (mut whole, mut all, mut folded) = (0, 0, Vec::new());
    for tour in TOURS {
        for design in ["naive", "idempotent"] {
            let mut app = common::app(tour, design);
            common::resize(&mut app, w, h);
            for pos in 0..app.timeline.frames.len() {
                app.pos = pos;
                let screen = common::render(&app);
                all += 1;
                if screen.contains(" more sentence") {
                    folded.push(format!("{tour} {design} step {pos}"));
                } else {
                    whole += 1;
                }
            }
        }
    }
    (whole, all, folded)
}

#[test]
fn story_tours_mostly_whole_at_120x40() {
    let (whole, all, folded) = whole_steps(120, 40);
    assert_eq!(all, 121, "the tours' steps in both designs");
    assert!(
        whole >= 108,
        "only {whole} of {all} steps whole at 120x40; folded: {folded:?}"
    );
}
