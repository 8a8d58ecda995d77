//! The story panel leads with the step's own words, then the newest words
//! of its chapter; the chapter's opening may only take the rows they leave
//! free. Teacher trial at 80x24: on steps with no words of their own
//! (tour-1 naive step 5, A taking the provider's answer), the row under the
//! step's line started the chapter over (`One message, m-7f3, in the
//! payments queue…`) while the words that explain where the step stands
//! (`A asks the provider to charge the card…`) were folded below.

use crate::common::sweep;
use idem::sim::Frame;
use idem::tui::app::Panel;

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `n` words of `text`, or `None` where they carry a key word
/// the screen tells in its own way (`{key:...}`).
fn first_words(text: &str, n: usize) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().take(n).collect();
    (words.len() == n && !words.iter().any(|w| w.contains('{'))).then(|| words.join(" "))
}

/// The newest words of the frame's chapter: its own, else those the last
/// step of the chapter that said something added, while still in the
/// story.
fn newest<'a>(frames: &'a [Frame], f: &'a Frame) -> Option<&'a str> {
    if let Some(said) = f.said.as_deref() {
        return Some(said);
    }
    frames[..f.index]
        .iter()
        .rev()
        .take_while(|g| g.chapter == f.chapter)
        .find_map(|g| {
            let said = g.said.as_deref()?;
            f.narration
                .get(g.said_from..)
                .filter(|rest| rest.trim_start().starts_with(said.trim()))
        })
}

fn leads_with_the_newest(size: (u16, u16)) {
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| {
        let frames = &step.app.timeline.frames;
        let f = &step.frame;
        let Some(newest) = newest(frames, f) else {
            return;
        };
        let (Some(new_start), Some(opening_start)) =
            (first_words(newest, 5), first_words(&f.narration, 5))
        else {
            return;
        };
        if norm(&f.narration).starts_with(&norm(newest)) || new_start == opening_start {
            return;
        }
        let shown = step.words_in(Panel::Narration);
        seen += 1;
        if shown.contains(&opening_start) && !shown.contains(&new_start) {
            wrong.push(format!(
                "{}: the chapter starts over ({opening_start:?}) while {new_start:?} is folded:\n{shown}",
                step.at()
            ));
        }
    });
    sweep::none_wrong("stories with older words", seen, 100, &wrong, size);
}

#[test]
fn the_story_leads_with_the_newest_words_at_80x24() {
    leads_with_the_newest(sweep::SIZES[0]);
}

#[test]
fn the_story_leads_with_the_newest_words_at_100x30() {
    leads_with_the_newest(sweep::SIZES[1]);
}

#[test]
fn the_story_leads_with_the_newest_words_at_120x40() {
    leads_with_the_newest(sweep::SIZES[2]);
}
