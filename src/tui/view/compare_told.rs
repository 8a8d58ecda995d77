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

/// The most rows the kept line takes: the rows under it are what the
/// side scrolled to show.
pub(super) const MOST_ROWS: usize = 3;

/// The step's own line in at most `rows` rows of `w` columns: whole where
/// it fits, else in its shorter form (each event without the details the
/// events section gives, `Event::brief`), its last row cut under an
/// ellipsis where even that is longer: at a sentence's end where the row
/// has one, else at a word's. Nothing for a side
/// that holds (its step was told when it took it; its holding row says
/// why it stands still), or a step with no events.
pub(super) fn kept(
    t: &Theme,
    f: &Frame,
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
    let fits = |text: &str| words(text, w).len() <= rows;
    let text = if fits(&whole) { whole } else { brief };
    let mut lines = words(&text, w);
    if lines.len() > rows {
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
    }
    lines
        .into_iter()
        .map(|l| Line::styled(l, t.info()))
        .collect()
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
