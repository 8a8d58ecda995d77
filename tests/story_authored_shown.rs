//! The words a scenario wrote for a step start on screen in the story
//! panel at 100x30: the step's generated line gives way first. Teacher
//! trial, tour-3 naive step 5 (the lease runs out while A works): the
//! generated line filled the panel and ended mid-sentence, and the
//! scenario's own words ("Forty seconds pass before the call reaches the provider…") were not shown.
//! Trial 11 turned the priority round: the step's own line is kept whole
//! (it carries the key event), so where that line alone fills the panel
//! the authored words give way, counted on the border
//! (`tests/story_own_line.rs`).

use crate::common::sweep;
use idem::tui::app::Panel;

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn story_authored_words_start_on_screen_or_are_counted_in_the_tours_at_100x30() {
    let size = (100, 30);
    let t = idem::tui::theme::Theme::new(false, false);
    let (mut seen, mut wrong) = (0, Vec::new());
    sweep::each_step(size, |step| {
        if !step.app.script.name.starts_with("tour-") {
            return;
        }
        let f = &step.frame;
        let Some(said) = f.said.as_deref() else {
            return;
        };
        let told = idem::sim::event::step_told(&f.events);
        if norm(said) == norm(&told) {
            return;
        }
        let words: Vec<String> = norm(&t.words(said))
            .split(' ')
            .take(4)
            .map(str::to_string)
            .collect();
        let start = words.join(" ");
        let buf = step.buf.clone();
        let shown = step.words_in(Panel::Narration);
        seen += 1;
        // The own line (whole, or its start where it alone overflows)
        // fills every row: the authored words are counted on the border
        // instead.
        let rect = step.main.rect(Panel::Narration);
        let border: String = (rect.x..rect.right())
            .map(|x| buf[(x, rect.bottom() - 1)].symbol())
            .collect();
        let own = norm(&t.text(&told));
        let kept = shown.trim_end_matches('…').trim_end();
        let gave_way =
            !kept.is_empty() && own.starts_with(kept) && border.contains(" more sentence");
        if !shown.contains(&start) && !gave_way {
            wrong.push(format!("{}: {start:?} is not shown:\n{shown}", step.at()));
        }
    });
    sweep::none_wrong("steps with authored words", seen, 20, &wrong, size);
}
