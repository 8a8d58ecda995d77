//! How many steps of the tours the story panel shows whole (no "more
//! sentence" note on its border). A paragraph for each earlier step's
//! words cost a row apiece: at 120x40 the tours had 99 of 121 steps
//! whole. Earlier words now run on in one paragraph, each group after its
//! `at step N:` mark: 108 then. The README gives today's count, and the
//! tests hold it to the screens both ways: a claim that lagged behind
//! the screens, up or down, would be a false line for the teacher.

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

/// The number the README gives after `before` (`… show 108 of its`):
/// the README's claim, which the count below must match exactly, so
/// that the claim moves when the screens do, up or down.
fn readme_count(before: &str) -> usize {
    let readme = include_str!("../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let at = readme
        .find(before)
        .unwrap_or_else(|| panic!("README no longer says {before:?}"));
    readme[at + before.len()..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {before:?} in the README"))
}

#[test]
fn story_tours_whole_at_120x40_as_the_readme_says() {
    let (whole, all, folded) = whole_steps(120, 40);
    assert_eq!(all, 121, "the tours' steps in both designs");
    for claim in ["the panels of the tour show", "shown whole ("] {
        assert_eq!(
            whole,
            readme_count(claim),
            "{whole} of {all} steps whole at 120x40 (README: after {claim:?}); folded: {folded:?}"
        );
    }
    // Not fewer than when the earlier words ran on in one paragraph.
    assert!(whole >= 108, "only {whole} of {all} steps whole at 120x40");
}

#[test]
fn story_tours_whole_at_160x48_as_the_readme_says() {
    let (whole, all, folded) = whole_steps(160, 48);
    assert_eq!(
        whole,
        readme_count("(at 160x48,"),
        "{whole} of {all} steps whole at 160x48; folded: {folded:?}"
    );
}
