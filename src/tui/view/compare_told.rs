//! What a compare side's step did, kept above the rows the side scrolls
//! to. A side scrolls to what its step changed (`compare_follow`), and
//! its story scrolled away with it: at 80x24 the lease running out read
//! `step 9/16: time passes (30s)` over `… ↑ 11 more rows above`, and that
//! the broker made m-7f3 visible again was only counted (teacher trial).
//! The story's own line (its first words on the main screen too) stays
//! instead, in as few rows as it takes (three at most), cut under an
//! ellipsis.

use super::wrap_words::words;
use crate::sim::Frame;
use crate::sim::cause::StepWords;
use crate::tui::theme::Theme;
use ratatui::text::Line;

/// The most rows the kept line takes, with the row that counts what of
/// the story it leaves out: the rows under it are what the side scrolled
/// to show.
pub(super) const MOST_ROWS: usize = 4;

/// The step's own line in at most `rows` rows of `w` columns: whole where
/// it fits, else in its shorter form (each event without the details the
/// events section gives, `Event::brief`), its last row cut under an
/// ellipsis where even that is longer: at a sentence's end where the row
/// has one, else at a word's. What of the story it leaves out (the rest
/// of the line, the earlier words, the new ones) is counted on a last
/// row, as the story itself counts a fold (`↓ 1 more sentence`): teacher
/// trial at 80x24, the step's new words went with no count. Nothing for
/// a side that holds (its step was told when it took it; its holding row
/// says why it stands still), or a step with no events.
pub(super) fn kept(
    t: &Theme,
    (f, frames): (&Frame, &[Frame]),
    step: StepWords<'_>,
    holds: bool,
    (w, rows): (usize, usize),
) -> Vec<Line<'static>> {
    if holds || rows == 0 || w == 0 {
        return Vec::new();
    }
    let whole = crate::sim::event::step_told_at(&f.events, step);
    let brief = f
        .events
        .iter()
        .map(|e| match (&e.brief, e.causes.is_empty()) {
            (Some(_), true) => e.brief_sentence(),
            _ => e.sentence_at(step),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let (above, new, borrowed) = rest(t, f, frames, &whole);
    let after = new.len() + borrowed;
    // The line in `rows` rows, and how many of its sentences are cut.
    let line_in = |text: &str, rows: usize| -> (Vec<String>, usize) {
        let mut lines = words(text, w);
        if lines.len() <= rows {
            return (lines, 0);
        }
        lines.truncate(rows);
        if let Some(last) = lines.last_mut() {
            // At the last sentence's end in the row, where one is: a
            // sentence's first word alone before the ellipsis (`The …`)
            // says nothing.
            let at = super::sentences::sentence_starts(last)
                .last()
                .copied()
                .filter(|&at| at > 0);
            *last = match at {
                Some(at) => format!("{} {}", last[..at].trim_end(), t.g.ellipsis),
                None => cut(last, w, t.g.ellipsis),
            };
        }
        let shown = lines
            .iter()
            .map(|l| l.trim_end_matches(t.g.ellipsis).trim())
            .collect::<Vec<_>>()
            .join(" ");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let past = super::sentences::sentences_past_byte(&flat, shown.len());
        (lines, past)
    };
    let fits = |text: &str, rows: usize| words(text, w).len() <= rows;
    let pick = |rows: usize| if fits(&whole, rows) { &whole } else { &brief };
    let mut lines;
    // Rows of the step's new words under the line, then the count.
    let mut said: Vec<String> = Vec::new();
    if above + after == 0 && fits(pick(rows), rows) {
        lines = words(pick(rows), w);
    } else {
        // The count on a row of its own under the line; where one row is
        // all there is, after as much of the line as leaves it room.
        let text_rows = rows.saturating_sub(1).max(1);
        let (kept, past) = line_in(pick(text_rows), text_rows);
        lines = kept;
        // Rows left under a whole line take the new words' sentences
        // that fit whole, rather than stand blank under the count (trial:
        // `The clock advances 30s.` then `↓ 2 more sentences` over two
        // blank rows, beside a side whose line took four).
        let mut told_new = 0;
        if past == 0 {
            for sentence in &new {
                let add = words(sentence, w);
                let room = rows.saturating_sub(lines.len() + said.len() + 1);
                if add.len() > room {
                    // Its start in the rows left, cut under an ellipsis;
                    // the count still counts it.
                    let mut start: Vec<String> = add.into_iter().take(room).collect();
                    if let Some(last) = start.last_mut() {
                        *last = cut(last, w, t.g.ellipsis);
                    }
                    said.extend(start);
                    break;
                }
                said.extend(add);
                told_new += 1;
            }
        }
        let count = super::story_fold::count(t, above, past + after - told_new);
        if rows == 1 {
            let room = w.saturating_sub(count.chars().count() + 1);
            let first = lines.first().cloned().unwrap_or_default();
            let head = first.trim_end_matches(t.g.ellipsis).trim_end();
            let row = if head.chars().count() + 2 + count.chars().count() <= w {
                format!("{head}  {count}")
            } else {
                let short = cut(head, room, t.g.ellipsis);
                format!("{short} {count}")
            };
            lines = vec![row];
        } else if past + after - told_new + above == 0 {
            // Every sentence shown: nothing to count.
        } else {
            said.push(count);
        }
    }
    let mut out: Vec<Line<'static>> = lines
        .into_iter()
        .map(|l| Line::styled(l, t.info()))
        .collect();
    // The new words as the story shows them; the count dim, as its fold.
    let last = said.len().saturating_sub(1);
    let counted = said.last().is_some_and(|l| l.contains(" more sentence"));
    out.extend(said.into_iter().enumerate().map(|(i, l)| {
        let style = if i == last && counted {
            t.dim()
        } else {
            ratatui::style::Style::default()
        };
        Line::styled(l, style)
    }));
    out
}

/// What of the side's story follows its step's own line (`whole`): how
/// many sentences its earlier steps told, the sentences of its new
/// words, and how many of words borrowed from another design, as
/// `story_lines` tells and counts them.
fn rest(t: &Theme, f: &Frame, frames: &[Frame], whole: &str) -> (usize, Vec<String>, usize) {
    let t = Theme {
        medium: crate::scenario::key_word::Medium::Compare,
        ..*t
    };
    let sentences = |text: &str| {
        if text.trim().is_empty() {
            0
        } else {
            super::sentences::sentence_starts(text.trim()).len()
        }
    };
    let borrowed = f
        .borrowed
        .as_ref()
        .map_or(0, |b| sentences(&t.words(&b.text)));
    if f.narration.trim() == whole.trim() {
        return (0, Vec::new(), borrowed);
    }
    let told = crate::sim::frame::told_before(frames, f);
    let earlier: usize = told
        .iter()
        .map(|g| sentences(&t.words(f.narration[g.range.clone()].trim())))
        .sum();
    let cut = told.last().map_or(0, |g| g.range.end);
    let new = t.words(f.narration[cut..].trim());
    let new = new.trim();
    let starts = super::sentences::sentence_starts(new);
    let ends = starts.iter().skip(1).copied().chain([new.len()]);
    let new: Vec<String> = if new.is_empty() {
        Vec::new()
    } else {
        starts
            .iter()
            .zip(ends)
            .map(|(&a, b)| new[a..b].trim().to_string())
            .collect()
    };
    (earlier, new, borrowed)
}

/// `row` with an ellipsis after it, words dropped from its end until both
/// fit in `w` columns: never half a word.
fn cut(row: &str, w: usize, ellipsis: &str) -> String {
    let mut kept: Vec<&str> = row.split(' ').collect();
    let width = |k: &[&str]| k.join(" ").chars().count() + 1 + ellipsis.chars().count();
    while kept.len() > 1 && width(&kept) > w {
        kept.pop();
    }
    let text = kept.join(" ");
    let text = text.trim_end_matches([',', ':', ';']);
    format!("{text} {ellipsis}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_row_ends_at_a_word_under_an_ellipsis() {
        assert_eq!(cut("The broker makes m-7f3", 20, "…"), "The broker makes …");
        assert_eq!(cut("visible again: the", 17, "…"), "visible again …");
        assert_eq!(cut("short", 20, "…"), "short …");
    }
}
