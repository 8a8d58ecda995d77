//! Compare keeps a side's own new words before its earlier ones, and its
//! count covers every sentence it does not show. Teacher trial at 80x24:
//! tour-1 naive step 13 read `↑ 4 more sentences told earlier …` and the
//! `…` hid this step's own words (`The provider charges the card a second
//! time…`), which the count left out.

use crate::common::sweep;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text`'s sentences, as the story panels tell them apart: a stop, a
/// space and a capital letter start the next.
fn sentences(text: &str) -> Vec<String> {
    let text = squeeze(text);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut starts = vec![0];
    for w in chars.windows(3) {
        if matches!(w[0].1, '.' | '?' | '!') && w[1].1 == ' ' && w[2].1.is_uppercase() {
            starts.push(w[2].0);
        }
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&from, to)| text[from..to].trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The sum of the counts a fold shows: each number after an arrow.
fn counted(story: &str) -> usize {
    let words: Vec<&str> = story.split(' ').collect();
    words
        .windows(2)
        .filter(|w| w[0] == "↑" || w[0] == "↓")
        .filter_map(|w| w[1].parse::<usize>().ok())
        .sum()
}

#[test]
fn compare_counts_every_story_sentence_it_does_not_show() {
    let t = idem::tui::theme::Theme::new(false, false);
    let (mut folded, mut wrong) = (0, Vec::new());
    let tours = ["tour-1", "tour-2", "tour-3", "tour-4"];
    sweep::each_compare_side(&tours, |s| {
        // The story ends where the database's section starts.
        let story = s.story.split("payments · ").next().unwrap_or_default();
        let f = s.frame;
        let told = idem::sim::frame::told_before(s.frames, f);
        let cut = told.last().map_or(0, |g| g.range.end);
        // As compare tells them: a sentence naming a key is left out there,
        // both designs being on screen.
        let in_compare = |text: &str| {
            let text =
                idem::scenario::key_word::told(text, idem::scenario::key_word::Medium::Compare);
            sentences(&t.words(&text))
        };
        let mut all: Vec<String> = told
            .iter()
            .flat_map(|g| in_compare(&f.narration[g.range.clone()]))
            .collect();
        let new = in_compare(&f.narration[cut..]);
        if all.is_empty() && new.len() <= 1 && f.borrowed.is_none() {
            return;
        }
        all.extend(new.iter().cloned());
        if let Some(b) = &f.borrowed {
            all.extend(sentences(&t.words(&b.text)));
        }
        let shown = squeeze(story);
        let hidden: Vec<&String> = all.iter().filter(|x| !shown.contains(x.as_str())).collect();
        if hidden.is_empty() && counted(story) == 0 {
            return;
        }
        folded += 1;
        // The step's own words are whole where earlier ones are shown.
        let earlier_shown = story.contains("At step ");
        let own_cut = new.iter().any(|x| !shown.contains(x.as_str()));
        if counted(story) != hidden.len() || (earlier_shown && own_cut) {
            wrong.push(format!(
                "{}, {}: counts {} of {} hidden sentences{}:\n{story}\nhidden: {hidden:?}",
                s.at,
                s.side,
                counted(story),
                hidden.len(),
                if earlier_shown && own_cut {
                    ", its own words cut under earlier ones"
                } else {
                    ""
                }
            ));
        }
    });
    assert!(folded > 5, "only {folded} sides folded their story");
    assert!(
        wrong.is_empty(),
        "{} wrong, the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
