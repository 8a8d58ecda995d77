//! Words an earlier step of the chapter said read as earlier in the story
//! panel. Teacher trial, tour-1 naive step 5 at 100x30: after the charge,
//! "Nothing is committed yet: a crash now would leave no trace" (said at
//! step 3) stood on its own row as if true now.

use crate::common::{self, draw};

/// Whether `row` starts with the mark of words told at an earlier step
/// (`at step 4: `).
fn marked(row: &str) -> bool {
    row.strip_prefix("At step ")
        .and_then(|rest| rest.split_once(": "))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn story_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains("What happens"))
        .skip(1)
        .take_while(|l| !l.contains("step 5/"))
        .map(|l| l.trim_matches('"').trim_matches('│').trim().to_string())
        .collect()
}

#[test]
fn story_earlier_words_are_marked_as_earlier() {
    for (w, h) in [(100u16, 30u16), (120, 40)] {
        let mut app = common::app("tour-1", "naive");
        app.pos = 5;
        let screen = draw(&mut app, w, h);
        let rows = story_rows(&screen);
        assert!(
            rows[0].starts_with("A gets 201 Created"),
            "the step's own words lead at {w}x{h}:\n{screen}"
        );
        assert!(
            marked(&rows[1]),
            "the words told at earlier steps start under a mark at {w}x{h}:\n{screen}"
        );
        assert!(
            !rows
                .iter()
                .any(|r| r.starts_with("Nothing is committed yet")),
            "a sentence of step 3 stands alone unmarked at {w}x{h}:\n{screen}"
        );
    }
}

#[test]
fn story_words_new_at_this_step_are_not_marked() {
    // Step 1 opens the chapter: its opening words are new, not earlier.
    let mut app = common::app("tour-1", "naive");
    app.pos = 1;
    let screen = draw(&mut app, 120, 40);
    assert!(!screen.contains("At step "), "{screen}");
}

/// What the step before `pos` had told of the same chapter, in the words
/// the screen uses, its spaces squeezed: the words that read as earlier
/// at `pos`. Empty where nothing was told before in this chapter.
fn earlier_words(app: &idem::tui::App, pos: usize) -> String {
    let frames = &app.timeline.frames;
    let Some(prev) = pos.checked_sub(1).map(|i| &frames[i]) else {
        return String::new();
    };
    let f = &frames[pos];
    let told = prev.narration.trim_end();
    if prev.chapter != f.chapter || told.is_empty() || !f.narration.starts_with(told) {
        return String::new();
    }
    squeeze(&app.theme.words(told))
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `row` starts a sentence of `earlier`.
fn starts_an_earlier_sentence(row: &str, earlier: &str) -> bool {
    row.chars().count() >= 12
        && earlier.contains(row)
        && (earlier.starts_with(row)
            || [". ", "? ", "! "]
                .iter()
                .any(|end| earlier.contains(&format!("{end}{row}"))))
}

/// Teacher trial: only the first earlier paragraph carried the `earlier:`
/// mark; the next one, on a row of its own, was only dim, and with no
/// colour (or on a projector) it read as news. In text alone, with no
/// style: a row that starts a paragraph of earlier words carries the mark.
/// A row starts a paragraph where the row above it had room for its first
/// word (a wrapped row breaks only where the word did not fit).
#[test]
fn every_earlier_paragraph_is_marked_in_words() {
    use crate::common::sweep;
    use idem::tui::app::Panel;
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let earlier = earlier_words(step.app, step.app.pos);
            if earlier.is_empty() {
                return;
            }
            let rows = story_panel_rows(step);
            let width = step.main.rect(Panel::Narration).width.saturating_sub(2);
            for (i, row) in rows.iter().enumerate() {
                if marked(row) {
                    seen += 1;
                    continue;
                }
                // The step's own line may say what an earlier step said
                // (a run with no story of its own tells its events).
                let own = squeeze(&idem::sim::event::step_told(&step.frame.events));
                if !starts_an_earlier_sentence(row, &earlier) || own.contains(row.as_str()) {
                    continue;
                }
                let above = if i == 0 { "" } else { rows[i - 1].as_str() };
                let first = row.split(' ').next().unwrap_or_default();
                let had_room =
                    above.chars().count() + 1 + first.chars().count() <= usize::from(width);
                if had_room {
                    wrong.push(format!(
                        "{}: row {i} {row:?} starts earlier words unmarked:\n{}",
                        step.at(),
                        rows.join("\n")
                    ));
                }
            }
        });
        sweep::none_wrong("earlier marks", seen, 20, &wrong, size);
    }
}

/// The words `f`'s timeline told before it, in its chapter: the step
/// before it in `frames`, as `earlier_words` takes them.
fn earlier_of(app: &idem::tui::App, frames: &[idem::sim::Frame], f: &idem::sim::Frame) -> String {
    let Some(prev) = f.index.checked_sub(1).and_then(|i| frames.get(i)) else {
        return String::new();
    };
    let told = prev.narration.trim_end();
    if prev.chapter != f.chapter || told.is_empty() || !f.narration.starts_with(told) {
        return String::new();
    }
    squeeze(&app.theme.words(told))
}

/// Compare tells each side's story as the single view does: words a side
/// told at an earlier step come after a mark naming that step
/// (`at step 4:`), never before it as if new. Teacher trial: compare
/// showed them plain.
#[test]
fn compare_marks_each_sides_earlier_words() {
    let mut seen = 0;
    crate::common::sweep::each_compare_side(&["tour-1", "tour-2"], |s| {
        let earlier = earlier_of(s.app, s.frames, s.frame);
        // The first words of the earlier story on screen, if any.
        let first = earlier.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if earlier.is_empty() || !s.story.contains(&first) {
            return;
        }
        seen += 1;
        let mark = s.story.find("At step ");
        assert!(
            mark.is_some_and(|m| m < s.story.find(&first).unwrap()),
            "{}: the {} side shows earlier words unmarked:\n{}",
            s.at,
            s.side,
            s.screen
        );
    });
    assert!(seen > 10, "only {seen} sides showed earlier words");
}

/// The story panel's fold note counts what a reader counts, sentences, as
/// the other panels count their own items (`↑ 1 more event above`), not
/// the wrapped rows left out: a count of rows changes with the width of
/// the screen, a count of sentences does not.
#[test]
fn story_fold_note_counts_sentences() {
    use crate::common::sweep;
    for size in sweep::SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        sweep::each_step(size, |step| {
            let buf = step.buf.clone();
            let rect = step.main.rect(idem::tui::app::Panel::Narration);
            let border: String = (rect.x..rect.right())
                .map(|x| buf[(x, rect.bottom() - 1)].symbol())
                .collect();
            let Some(at) = border.find(" more") else {
                return;
            };
            seen += 1;
            // Each arrow's count (`↑ 7 ↓ 1 more sentences`: seven above,
            // one below), summed.
            let words: Vec<&str> = border[..at].split(' ').collect();
            let n: usize = words
                .windows(2)
                .filter(|w| w[0].ends_with(['↑', '↓']))
                .filter_map(|w| w[1].parse::<usize>().ok())
                .sum();
            let f = &step.frame;
            let story = format!("{} {}", idem::sim::event::step_told(&f.events), f.narration);
            let sentences = story.matches(". ").count() + 1;
            let unit = if n == 1 {
                " more sentence "
            } else {
                " more sentences "
            };
            if n == 0 || n > sentences || !border[at..].starts_with(unit) {
                wrong.push(format!(
                    "{}: {border:?} ({sentences} sentences in all)",
                    step.at()
                ));
            }
        });
        sweep::none_wrong("story fold notes", seen, 5, &wrong, size);
    }
}

/// The words `frames[step]` told new: its story less what the step before
/// it in the same chapter had told, in the words the screen uses.
fn new_at(app: &idem::tui::App, frames: &[idem::sim::Frame], step: usize) -> String {
    let f = &frames[step];
    let old = earlier_of(app, frames, f);
    let all = squeeze(&app.theme.words(f.narration.trim()));
    all.strip_prefix(old.as_str()).unwrap_or(&all).to_string()
}

/// Teacher trial, tour-4 naive step 5: beside the charge ch_81 made at
/// this very step, `earlier: A's transaction is open; the card has not
/// been charged.` read as now. Earlier words carry the step they were told
/// at, as history.
#[test]
fn story_earlier_words_name_the_step_they_were_told_at() {
    for (w, h) in [(100u16, 30u16), (120, 40)] {
        let mut app = common::app("tour-4", "naive");
        app.pos = 5;
        let screen = draw(&mut app, w, h);
        let rows = story_rows(&screen);
        assert!(
            !rows.iter().any(|r| r.starts_with("earlier:")),
            "an earlier sentence stands without its step at {w}x{h}:\n{screen}"
        );
        assert!(
            rows.iter()
                .any(|r| r.starts_with("At step 4: A's transaction is open")),
            "the chapter's opening words name step 4 at {w}x{h}:\n{screen}"
        );
    }
}

/// Over every scenario and design: each group of earlier words on the
/// story panel starts with `at step N:`, N before the step shown, and
/// its first words are among the words step N told new. The groups run on
/// in one paragraph, so every mark is read, not only one leading a row.
#[test]
fn every_earlier_group_names_a_step_that_told_it() {
    use crate::common::sweep;
    let size = (120, 40);
    let (mut seen, mut wrong) = (0, Vec::new());
    sweep::each_step(size, |step| {
        let rows = story_panel_rows(step);
        let frames = &step.app.timeline.frames;
        for row in &rows {
            if row.starts_with("earlier:") {
                seen += 1;
                wrong.push(format!("{}: unnamed {row:?}", step.at()));
            }
        }
        // Earlier words run on in one paragraph: a mark may stand in the
        // middle of a row, and its words may wrap to the next.
        let story = rows.join(" ");
        for (at, _) in story.match_indices("At step ") {
            let rest = &story[at + "At step ".len()..];
            let Some((n, words)) = rest.split_once(": ") else {
                continue;
            };
            let Ok(n) = n.parse::<usize>() else {
                continue;
            };
            seen += 1;
            // Its first words, up to the next mark or the end of its
            // first sentence (the words new at this step follow it).
            let mut first = Vec::new();
            for word in words.split(' ').take(3) {
                first.push(word);
                if word.ends_with(['.', '?', '!']) {
                    break;
                }
            }
            let first = first.join(" ");
            let first = first.split(" At step ").next().unwrap_or_default();
            let first = first.trim_end_matches('…').trim_end();
            let fine = n < step.frame.index
                && frames[n].chapter == step.frame.chapter
                && new_at(step.app, frames, n).contains(first);
            if !fine {
                wrong.push(format!(
                    "{}: step {n} did not tell {first:?}:\n{}",
                    step.at(),
                    rows.join("\n")
                ));
            }
        }
    });
    sweep::none_wrong("earlier groups", seen, 20, &wrong, size);
}

/// Compare as the single view: each side's groups of earlier words name
/// a step of that side's run before the one shown, that told them.
#[test]
fn compare_earlier_groups_name_a_step_that_told_them() {
    let (mut seen, mut wrong) = (0, Vec::new());
    let tours = ["tour-1", "tour-2", "tour-3", "tour-4"];
    crate::common::sweep::each_compare_side(&tours, |s| {
        let story = squeeze(s.story);
        assert!(!story.contains("earlier:"), "{}: {story}", s.at);
        for (at, _) in story.match_indices("At step ") {
            let rest = &story[at + "At step ".len()..];
            let Some((n, words)) = rest.split_once(": ") else {
                continue;
            };
            let Ok(n) = n.parse::<usize>() else {
                continue;
            };
            seen += 1;
            let first: String = words.split(' ').take(3).collect::<Vec<_>>().join(" ");
            let first = first.trim_end_matches('…').trim_end();
            let fine = n < s.frame.index && new_at(s.app, s.frames, n).contains(first);
            if !fine {
                wrong.push(format!(
                    "{}, {}: step {n} did not tell {first:?}",
                    s.at, s.side
                ));
            }
        }
    });
    assert!(seen > 20, "only {seen} marks in compare");
    assert!(
        wrong.is_empty(),
        "{} wrong, the first: {}",
        wrong.len(),
        wrong[0]
    );
}

/// The story panel's rows inside its border, as a step's screen shows
/// them, each row's spaces squeezed.
fn story_panel_rows(step: &crate::common::sweep::Step) -> Vec<String> {
    let inner = step
        .main
        .rect(idem::tui::app::Panel::Narration)
        .inner(ratatui::layout::Margin::new(1, 1));
    (inner.y..inner.bottom())
        .map(|y| {
            let row: String = (inner.x..inner.right())
                .map(|x| step.buf[(x, y)].symbol())
                .collect();
            squeeze(&row)
        })
        .collect()
}
