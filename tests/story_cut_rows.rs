//! The story panel never cuts a sentence silently, and what it keeps is
//! the step's own words first. Teacher trial: tour-4 idempotent at 80x24,
//! step 7 ended `…but the answer never` with no ellipsis; tour-1 naive in
//! compare at 100x30, step 14, kept the oldest earlier words and dropped
//! the newest with only `…`, where the single view keeps the newest and
//! counts the rest.

use crate::common::sweep;
use idem::tui::app::Panel;
use ratatui::layout::Margin;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a row's words end a sentence (a closing bracket or quote
/// after its stop still ends it) or end with an ellipsis, alone or saying
/// where the rest is read (`… rest in Events`).
fn ends_whole(row: &str) -> bool {
    let row = row.trim_end();
    let row = row.strip_suffix(" rest in Events").unwrap_or(row);
    let row = row.trim_end_matches([')', '"', '\'', '”', '’']);
    row.ends_with(['.', '?', '!', '…']) || row.ends_with("...")
}

/// Rule 1: the last row of a full story panel ends a sentence or ends
/// with an ellipsis; a cut is never silent.
#[test]
fn story_last_row_ends_a_sentence_or_an_ellipsis() {
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let buf = step.buf.clone();
            let inner = step.main.rect(Panel::Narration).inner(Margin::new(1, 1));
            if inner.height == 0 {
                return;
            }
            let row = |y: u16| -> String {
                (inner.x..inner.right())
                    .map(|x| buf[(x, y)].symbol())
                    .collect()
            };
            let last = row(inner.bottom() - 1);
            if last.trim().is_empty() {
                return;
            }
            seen += 1;
            if !ends_whole(&last) {
                let rows: Vec<String> = (inner.y..inner.bottom()).map(row).collect();
                wrong.push(format!(
                    "{}: the last row {:?} ends mid-sentence with no ellipsis:\n{}",
                    step.at(),
                    last.trim_end(),
                    rows.join("\n")
                ));
            }
        });
        sweep::none_wrong("full story panels", seen, 20, &wrong, size);
    }
}

/// Where in `text` the first mark of words told at an earlier step
/// (`at step 4: `) starts.
fn first_mark(text: &str) -> Option<usize> {
    text.match_indices("At step ")
        .map(|(at, _)| at)
        .find(|&at| {
            let rest = &text[at + "At step ".len()..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && rest[digits..].starts_with(": ")
        })
}

/// `text` without its `at step N: ` marks: the earlier words alone.
fn unmarked(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = first_mark(rest) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        rest = &after[after.find(": ").map_or(after.len(), |i| i + 2)..];
    }
    out.push_str(rest);
    out
}

/// Rule 2: the step's own line gives way only after the earlier words:
/// wherever an `at step N:` mark is on screen, the line is there whole.
/// (Where it is cut to one row above the step's authored words, beside an
/// events panel that shows its facts whole, `story_own_line`, the earlier
/// words have given way first: no mark is shown.)
#[test]
fn story_own_line_is_whole_where_earlier_words_are_shown() {
    let t = idem::tui::theme::Theme::new(false, false);
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let shown = step.words_in(Panel::Narration);
            if first_mark(&shown).is_none() {
                return;
            }
            let own = squeeze(&t.text(&idem::sim::event::step_told(&step.frame.events)));
            if own.is_empty() {
                return;
            }
            seen += 1;
            // At the end the closing words, told at an earlier step and
            // marked so, may take the own line's rows (`story_own_line`).
            if step.ends_on_closing_words() && step.events_whole() {
                return;
            }
            if !shown.contains(&own) {
                wrong.push(format!(
                    "{}: earlier words shown, the step's own line {own:?} cut:\n{shown}",
                    step.at()
                ));
            }
        });
        sweep::none_wrong("panels with earlier words", seen, 20, &wrong, size);
    }
}

/// The last sentence of `text`, its spaces squeezed, as the story
/// panel tells sentences apart.
fn last_sentence(text: &str) -> String {
    let text = squeeze(text);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = chars
        .windows(3)
        .rev()
        .filter(|w| matches!(w[0].1, '.' | '?' | '!') && w[1].1 == ' ' && w[2].1.is_uppercase())
        .map(|w| w[2].0)
        .next()
        .unwrap_or(0);
    text[at..].to_string()
}

/// How many sentences `text` has, as the story panel counts them: a
/// stop, a space and a capital letter start the next.
fn sentence_count(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    1 + chars
        .windows(3)
        .filter(|w| matches!(w[0], '.' | '?' | '!') && w[1] == ' ' && w[2].is_uppercase())
        .count()
}

/// Rule 3: compare keeps a side's newest earlier words, as the single
/// view does, and counts the sentences it leaves out.
#[test]
fn compare_keeps_the_newest_earlier_words_and_counts_the_rest() {
    let t = idem::tui::theme::Theme::new(false, false);
    let (mut seen, mut wrong) = (0, Vec::new());
    let tours = ["tour-1", "tour-2", "tour-3", "tour-4"];
    sweep::each_compare_side(&tours, |s| {
        let story = s.story;
        // The earlier words start at their first mark, or at the count
        // of those left out before it.
        let Some(earlier_at) = [story.find("↑ "), first_mark(story)]
            .into_iter()
            .flatten()
            .min()
        else {
            return;
        };
        let tail = unmarked(&story[earlier_at..]);
        let Some(prev) = s.frame.index.checked_sub(1).map(|i| &s.frames[i]) else {
            return;
        };
        let earlier = squeeze(&t.words(prev.narration.trim_end()));
        if squeeze(&tail).contains(&earlier) {
            return;
        }
        seen += 1;
        // Each step's words are a paragraph of their own: a sentence ends
        // where the next step's words begin.
        let groups: Vec<String> = idem::sim::frame::told_before(s.frames, s.frame)
            .into_iter()
            .map(|g| squeeze(&t.words(&s.frame.narration[g.range])))
            .collect();
        let count: usize = groups.iter().map(|g| sentence_count(g)).sum();
        // The newest earlier sentence starts on screen, and the ones left
        // out are counted. Its first three words: the mark naming its
        // step (`at step 5: `) takes the room of a fourth on a narrow
        // side.
        let newest: String = last_sentence(groups.last().map_or("", String::as_str))
            .split(' ')
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        // Where not even its first words fit, the count of them all stands
        // alone (`↑ 4 more sentences`); where the step's new words are cut
        // too, in one count with theirs after them (`↑ 4 ↓ 1 more
        // sentences`), as the story panel counts a fold.
        let what = if count == 1 { "sentence" } else { "sentences" };
        let all = format!("↑ {count} more {what}");
        let with_cut = format!("↑ {count} ↓ ");
        // (One sentence alone has nothing before it to count.)
        let kept =
            squeeze(&tail).contains(&newest) && (count == 1 || tail.contains(" more sentence"));
        if !kept && !tail.starts_with(&all) && !tail.starts_with(&with_cut) {
            wrong.push(format!(
                "{}, {}: {newest:?} not kept, or the rest not counted:\n{story}",
                s.at, s.side
            ));
        }
    });
    assert!(seen > 5, "only {seen} sides cut earlier words");
    assert!(
        wrong.is_empty(),
        "{} wrong, the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
