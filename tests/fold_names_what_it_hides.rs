//! The detail's fold note names the key that shows what it hides. Teacher
//! trial at 80x24, in-progress selected: `↓ 72 more lines: Enter replays
//! this run in full`, where most of those lines were the claim, its
//! properties and the tries one bound further, which only `z` shows.
//! Where the fold hides more than the run, the note names `z`; where it
//! hides the run too, `Enter` as well; where it hides only the run,
//! `Enter` alone.

use crate::common::check::fold;
use crate::common::check::{explorer_showing, in_progress, report};
use crate::common::draw;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

#[test]
fn a_fold_over_the_properties_names_z_and_one_over_the_run_enter() {
    // The checker's report with in-progress as at the default bounds:
    // held, with a run one fault further after its properties.
    let mut r = report().clone();
    let mut held = in_progress().strategies[0].clone();
    held.bounds = Some(in_progress().bounds.clone());
    let at = r
        .strategies
        .iter()
        .position(|s| s.strategy == "in-progress")
        .expect("in-progress");
    r.strategies[at] = held;
    let (mut folded, mut wrong) = (0, Vec::new());
    for (w, h) in SIZES {
        let mut a = explorer_showing(r.clone());
        update(&mut a, Action::First);
        for _ in 0..at {
            update(&mut a, Action::Down);
        }
        let screen = draw(&mut a, w, h);
        let Some(note) = fold(&screen) else {
            continue;
        };
        folded += 1;
        // The last of its properties is the try with a producer retry,
        // which holds; the run's chain comes after every property.
        let flat = screen
            .lines()
            .map(|l| l.trim_matches('"'))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let properties_shown = flat.contains("holds too (7,168 states)") || flat.contains(" why: ");
        let z = note.contains("z shows the detail whole");
        let enter = note.contains("Enter replays");
        if !enter || z == properties_shown {
            wrong.push(format!(
                "{w}x{h}: properties {}, `{note}`",
                if properties_shown { "shown" } else { "hidden" }
            ));
        }
    }
    assert!(folded >= 2, "folded at {folded} sizes");
    assert!(
        wrong.is_empty(),
        "{} of {folded} notes:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
