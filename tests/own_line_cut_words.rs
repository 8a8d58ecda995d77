//! A step's own line cut mid-sentence drops the words that end it, and
//! those are often the ones that carry the step (teacher trial, tour-4
//! naive step 7 at 80x24: `… (order 1042, $40) with no …` cut away
//! exactly `Idempotency-Key`). Where the line does not fit, the story
//! panel tells it in its shorter form (without the order and amount the
//! events panel shows whole) before it cuts; a cut that is left ends a
//! sentence. Swept over every scenario and design at the sizes where the
//! own line is cut. Only where nothing else is left to show after the line
//! does it run past its last whole sentence, to fill the rows a cut there
//! would leave blank (`story_fold_no_blank_row`).

use crate::common::sweep;
use idem::tui::app::Panel;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn ends_sentence(s: &str) -> bool {
    s.trim_end()
        .trim_end_matches([')', '"', '\''])
        .ends_with(['.', '?', '!'])
}

#[test]
fn own_line_is_never_cut_mid_sentence() {
    let t = idem::tui::theme::Theme::new(false, false);
    let mut results = Vec::new();
    for size in [(80, 24), (100, 30)] {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let events = &step.frame.events;
            let own = squeeze(&t.text(&idem::sim::event::step_told(events)));
            if own.is_empty() {
                return;
            }
            seen += 1;
            // At the last step the own line gives way to the words the
            // step said and its conclusion, the events read whole below
            // (`closing_words_at_the_end`): its cut is theirs, not its.
            if step.ends_on_closing_words() && step.events_whole() {
                return;
            }
            let shown = step.words_in(Panel::Narration);
            let brief = squeeze(&t.text(&idem::sim::event::step_told_brief(events)));
            if shown.contains(&own) || shown.contains(&brief) {
                return;
            }
            let (kept, after) = shown.split_once('…').unwrap_or((shown.as_str(), ""));
            // Past its last whole sentence into the next where the line is
            // alone in the panel and fills it: a cut at that sentence's end
            // left a row blank, with nothing else to show there (trial:
            // ordering versioned step 19 at 80x24), and the words after it
            // are the ones the step is about.
            let fills_alone = after.trim().is_empty()
                && kept.contains(". ")
                && step
                    .rows_in(Panel::Narration)
                    .iter()
                    .all(|r| !r.trim().is_empty());
            if !ends_sentence(kept) && !fills_alone {
                wrong.push(format!(
                    "{}: the own line is cut mid-sentence: {:?}\n  whole: {own:?}",
                    step.at(),
                    kept.trim_end()
                ));
            }
        });
        eprintln!(
            "{}x{}: {} of {seen} own lines cut mid-sentence",
            size.0,
            size.1,
            wrong.len()
        );
        results.push((size, seen, wrong));
    }
    for (size, seen, wrong) in results {
        sweep::none_wrong("steps with an own line", seen, 100, &wrong, size);
    }
}
