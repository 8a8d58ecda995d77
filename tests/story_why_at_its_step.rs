//! The words a scenario wrote for a step (why it matters) start on screen
//! in the story panel at that step. Teacher trial (issue 18): at 80x24 the
//! story panel has two rows of words, the step's generated line filled
//! them, and the authored sentence was folded away; the class read it only
//! at the next step, under `at step N:` (tour-1 naive steps 8, 9, 10, 13).
//! Before the fix, 244 of 545 such steps at 80x24 hid it (16 at 100x30,
//! 7 at 120x40); 142 of them (11, 7) beside an events panel that showed
//! the step's events whole.
//!
//! The generated line says what the events panel below says, one event a
//! line: where that panel shows all of the step's events whole, the line
//! takes one row and the why the rows after it. Where the events panel
//! folds an event, the line is the only place its facts are whole and it
//! keeps its rows (`story_own_line`): the why is then counted on the
//! border, and `z` reads it.
//!
//! That fold is allowed at 80x24 only (a laptop's terminal, as good as it
//! can be). At 100x30 and 120x40 every step shows its why's start, even
//! where the events panel folds (5 steps at 100x30 did not: tour-3's
//! `Forty seconds pass before the call…` beside four folded events).

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
    for size in sweep::SIZES {
        let (mut shown_n, mut counted_n, mut wrong) = (0, 0, Vec::new());
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
            let Some(sentence) = crate::common::sentences(&t.words(said)).into_iter().next() else {
                return;
            };
            let start = sentence
                .split(' ')
                .take(WORDS)
                .collect::<Vec<_>>()
                .join(" ");
            let shown = step.words_in(Panel::Narration);
            if shown.contains(&start) {
                shown_n += 1;
                return;
            }
            let rect = step.main.rect(Panel::Narration);
            let border: String = (rect.x..rect.right())
                .map(|x| step.buf[(x, rect.bottom() - 1)].symbol())
                .collect();
            let laptop = size == sweep::SIZES[0];
            // At the end the closing words show, the why's start counted
            // above them (`closing_words_at_the_end`).
            if step.ends_on_closing_words() {
                counted_n += 1;
                return;
            }
            if laptop && !step.events_whole() && border.contains(" more sentence") {
                counted_n += 1;
                return;
            }
            wrong.push(format!(
                "{}: {start:?} is not on screen (at 80x24: though the events panel \
                 shows the step's events whole, or the why is not counted):\n{shown}\n{border}",
                step.at()
            ));
        });
        let seen = shown_n + counted_n + wrong.len();
        report.push(format!(
            "{}x{}: of {seen} steps with authored words, {shown_n} show the why's start, \
             {counted_n} count it beside folded events, {} are wrong",
            size.0,
            size.1,
            wrong.len()
        ));
        assert!(
            seen > 20,
            "only {seen} steps with authored words at {size:?}"
        );
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            for w in &wrong {
                eprintln!("{}", w.lines().next().unwrap_or_default());
            }
        }
        if first.is_none() {
            first = wrong.into_iter().next();
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        first.is_none(),
        "{}\nthe first:\n{}",
        report.join("\n"),
        first.unwrap_or_default()
    );
}
