//! The words a scenario wrote for a step (why it matters) start on screen
//! in the story panel at that step, at every size a class meets. Teacher
//! trial (issue 18): at 80x24 the story panel has two rows of text, the
//! step's generated line filled them, and the authored sentence was folded
//! away; the class read it only at the next step, under `at step N:`
//! (tour-1 naive steps 8, 9, 10, 13; tour-3 idempotent at 100x30).

use crate::common::sweep;
use idem::tui::app::Panel;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first words of a step's first authored sentence: enough to know
/// it is there, few enough that a narrow panel's row holds them.
const WORDS: usize = 4;

#[test]
fn story_authored_why_starts_on_screen_at_its_step() {
    let t = idem::tui::theme::Theme::new(false, false);
    let mut report = Vec::new();
    let mut first = None;
    let mut failed = false;
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let f = &step.frame;
            let Some(said) = f.said.as_deref() else {
                return;
            };
            let told = idem::sim::event::step_told(&f.events);
            // Words that only repeat the step's own line (a saved run's
            // engine words) are not said twice: nothing authored to show.
            if squeeze(said) == squeeze(&told) {
                return;
            }
            let Some(sentence) = crate::common::sentences(&t.words(said)).into_iter().next()
            else {
                return;
            };
            let start = sentence
                .split(' ')
                .take(WORDS)
                .collect::<Vec<_>>()
                .join(" ");
            seen += 1;
            let shown = step.words_in(Panel::Narration);
            if !shown.contains(&start) {
                wrong.push(format!(
                    "{}: {start:?} is not on screen:\n{shown}",
                    step.at()
                ));
            }
        });
        report.push(format!(
            "{}x{}: {} of {seen} steps with authored words hide their start",
            size.0,
            size.1,
            wrong.len()
        ));
        assert!(seen > 20, "only {seen} steps with authored words at {size:?}");
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            for w in &wrong {
                eprintln!("{}", w.lines().next().unwrap_or_default());
            }
        }
        failed |= !wrong.is_empty();
        if first.is_none() {
            first = wrong.into_iter().next();
        }
    }
    assert!(
        !failed,
        "{}\nthe first:\n{}",
        report.join("\n"),
        first.unwrap_or_default()
    );
}
