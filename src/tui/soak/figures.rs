//! One design's column of figures on the soak dashboard: how far its run
//! has come, the money and the outcomes, the broker's counts, the table,
//! each line in the longest form its column has room for, and the notes
//! that make the outcomes add up (a payment counted under two outcomes, a
//! pair paid twice on purpose judged as one), as the report says them.

use super::Dashboard;
use crate::check::num;
use crate::sim::counter_words as words;
use crate::sim::{Outcome, format_duration};
use crate::soak::live::LiveDesign;
use crate::tui::explorer::Column;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The first of `forms` (longest first) that fits `width` columns, else
/// the last, which wraps.
fn fitting(forms: Vec<String>, width: usize) -> String {
    let last = forms.last().cloned().unwrap_or_default();
    forms
        .into_iter()
        .find(|f| Span::raw(f.as_str()).width() <= width)
        .unwrap_or(last)
}

/// The column's title: the design's name and its violations, in the
/// longest form that fits between the corners, and whether it holds the
/// name (where it does not, the figures begin with it instead).
pub(super) fn title(t: &Theme, d: &LiveDesign, width: u16) -> (Line<'static>, bool) {
    let room = usize::from(width).saturating_sub(2);
    let (long, short, style) = if d.violations == 0 {
        (" no violations ".to_string(), "✓".to_string(), t.good())
    } else {
        let n = num(d.violations);
        let noun = if d.violations == 1 {
            "violation"
        } else {
            "violations"
        };
        (format!(" {n} {noun} "), format!("✕ {n}"), t.bad())
    };
    let short = t.text(&short).into_owned();
    let name = format!(" {} ", d.design);
    let forms = [
        (Some(name.clone()), long.clone()),
        (Some(name), format!("{short} ")),
        (None, long),
        (None, format!(" {short} ")),
    ];
    let wide = |s: &str| Span::raw(s).width();
    let Some((name, verdict)) = forms
        .into_iter()
        .find(|(n, v)| n.as_deref().map_or(0, wide) + wide(v) <= room)
    else {
        return (Line::default(), false);
    };
    let named = name.is_some();
    let mut spans: Vec<Span<'static>> = name
        .map(|n| Span::styled(n, t.title()))
        .into_iter()
        .collect();
    spans.push(Span::styled(verdict, style));
    (Line::from(spans), named)
}

/// How many forms `progress` has, longest first.
const PROGRESS_FORMS: usize = 4;

/// How far a design's own run has come, in its `form`th form.
fn progress(dash: &Dashboard, d: &LiveDesign, form: usize) -> String {
    let state = if d.finished { "done" } else { "running" };
    let time = format_duration(d.virtual_ms / 1000 * 1000);
    let (settled, total) = (num(d.settled), num(dash.live.total));
    match form {
        0 => format!("{state} at {time} virtual · {settled} of {total} settled"),
        1 => format!("{state} at {time} · {settled} of {total} settled"),
        2 => format!("{state} at {time} · {settled}/{total} settled"),
        _ => format!("{state} {time} · {settled}/{total} settled"),
    }
}

/// The column's lines, for `width` columns inside its borders.
pub(super) fn lines(dash: &Dashboard, d: &LiveDesign, width: u16) -> Vec<Line<'static>> {
    let t = &dash.theme;
    let width = usize::from(width);
    let k = &d.counters;
    let m = &d.money;
    let money = |label: &str, n: u64, owed: u64| {
        let d = n as i64 - owed as i64;
        let mut spans = vec![Span::raw(format!("{label} ${} ", num(n)))];
        if d != 0 {
            let sign = if d < 0 { "-" } else { "+" };
            spans.push(Span::styled(
                format!("({sign}${} vs owed)", num(d.unsigned_abs())),
                t.bad(),
            ));
        } else {
            spans.push(Span::styled("(as owed)", t.good()));
        }
        Line::from(spans)
    };
    let mut lines = Vec::new();
    if !title(t, d, width as u16 + 2).1 {
        // No room for the name on the border: it heads the figures.
        lines.push(Line::styled(d.design.clone(), t.title()));
    }
    // Designs run side by side, each at its own pace: every column says
    // how far its own run has come, so figures of different moments are
    // never read as one. `virtual` gives way first (the gauge says it),
    // in every column alike, so side by side they read the same way.
    let form = (0..PROGRESS_FORMS)
        .find(|&i| {
            dash.live
                .designs
                .iter()
                .all(|e| Span::raw(progress(dash, e, i)).width() <= width)
        })
        .unwrap_or(PROGRESS_FORMS - 1);
    lines.push(Line::styled(progress(dash, d, form), t.info()));
    // The money and the outcomes are the soak's verdict: they come
    // before the broker's counts, so a short column keeps them and folds
    // the counts that explain them (trial 32: at 80x24 naive's `charged
    // twice` count was below the fold).
    lines.extend([
        Line::raw(format!("owed ${}", num(m.owed))),
        money("charged", m.charged, m.owed),
        money("recorded", m.recorded, m.owed),
    ]);
    lines.extend(outcomes(d, width).into_iter().map(Line::raw));
    lines.extend(
        adding_up(d, width)
            .into_iter()
            .map(|note| Line::styled(note, t.dim())),
    );
    // The broker's counts start on the same row in every column, so side
    // by side each reads beside its like.
    let verdict_rows = |e: &LiveDesign| outcomes(e, width).len() + adding_up(e, width).len();
    let most = dash
        .live
        .designs
        .iter()
        .map(verdict_rows)
        .max()
        .unwrap_or(0);
    lines.extend((verdict_rows(d)..most).map(|_| Line::default()));
    lines.push(Line::raw(format!(
        "{} {} · {} {}",
        words::DELIVERED,
        num(k.delivered.into()),
        words::REDELIVERED,
        num(k.redeliveries.into()),
    )));
    lines.push(Line::raw(format!(
        "{} {} · crashes {} · DLQ {}",
        words::ACKS_LOST,
        num(k.acks_lost.into()),
        num(k.crashes.into()),
        num(k.dead_lettered.into())
    )));
    // The handlers' skips as they know them (the key was recorded); how
    // many were no duplicate is the observer's, under its mark. Beside
    // the broker's duplicates when the row has room, else a row of their
    // own rather than a phrase wrapped in its middle.
    let dups = format!(
        "{} {}",
        words::DUPLICATE_DELIVERIES,
        num(k.duplicates_delivered.into())
    );
    let skips = format!(
        "{} {}{}",
        words::SKIPPED_KEY_TAKEN,
        num(k.duplicates_skipped.into()),
        match k.skipped_not_duplicates {
            0 => String::new(),
            1 => format!(" ({} 1 not a duplicate)", t.g.observer),
            n => format!(" ({} {} not duplicates)", t.g.observer, num(n.into())),
        }
    );
    let sep = " · ";
    if dups.chars().count() + sep.chars().count() + skips.chars().count() <= width {
        lines.push(Line::raw(format!("{dups}{sep}{skips}")));
    } else {
        lines.extend([Line::raw(dups), Line::raw(skips)]);
    }
    lines.push(Line::raw(format!(
        "processed_messages {} (pruned {})",
        num(d.processed_rows),
        num(d.pruned_rows)
    )));
    lines
}

/// What makes the outcomes line add up, each only where it is so: a
/// payment counted under two outcomes (the violations in the title count
/// it once), and the second message of a payment made twice on purpose,
/// settled with the first and judged as one with it.
fn adding_up(d: &LiveDesign, width: usize) -> Vec<String> {
    let mut notes = Vec::new();
    if d.overlapping > 0 {
        let n = num(d.overlapping);
        let (payments, counts) = if d.overlapping == 1 {
            ("payment counts", "counts")
        } else {
            ("payments count", "count")
        };
        notes.push(fitting(
            vec![
                format!("outcomes overlap: {n} {payments} under more than one"),
                format!("overlap: {n} {counts} under more than one"),
                format!("overlap: {n} under two"),
            ],
            width,
        ));
    }
    if d.made_twice > 0 {
        let n = num(d.made_twice);
        let (pair, pairs) = if d.made_twice == 1 {
            ("the pair", "pair")
        } else {
            ("each pair", "pairs")
        };
        notes.push(fitting(
            vec![
                format!("{n} paid twice on purpose: {pair} judged once"),
                format!("{n} paid twice on purpose, judged once"),
                format!("{n} {pairs} judged as one"),
            ],
            width,
        ));
    }
    notes
}

/// An outcome in a word or two, as the violations list says it.
pub(super) fn short(o: Outcome) -> &'static str {
    match o {
        Outcome::Disagree => "disagree",
        other => other.text(),
    }
}

/// A count's outcome in a word or two: `disagree` as the list says it,
/// and `twice or more` (a count takes in payments charged three times;
/// the list's `charged twice` names one payment's outcome).
fn count_short(o: Outcome) -> &'static str {
    match o {
        Outcome::ChargedTwice => "twice or more",
        other => short(other),
    }
}

/// The outcomes line: a payment counts under each outcome it ends with,
/// as in the report and in its order (`idem check`'s columns, correct
/// last). In full words where they fit the column, else with `disagree`
/// short, else `twice or more` too, else in the words `idem check`
/// heads its columns with (`twice`, `disagree`), so a third count does
/// not push the line onto a row the charts need. Where even those do not
/// fit, each outcome and its count go whole onto the next row: a figure
/// never parts from its label (teacher trial: `· twice` at a row's end,
/// its 106 wrapped out of sight).
fn outcomes(d: &LiveDesign, width: usize) -> Vec<String> {
    let parts = |word: fn(Outcome) -> &'static str| -> Vec<String> {
        Outcome::LISTED
            .iter()
            .filter_map(|o| {
                d.outcomes
                    .get(o)
                    .map(|n| format!("{} {}", word(*o), num(*n)))
            })
            .collect()
    };
    if d.outcomes.is_empty() {
        return vec!["nothing settled yet".into()];
    }
    let forms = [
        parts(Outcome::count_text),
        parts(|o| match o {
            Outcome::Disagree => short(o),
            other => other.count_text(),
        }),
        parts(count_short),
        parts(|o| Column::Outcome(o).heading()),
    ];
    let sep = " · ";
    let wide = |s: &str| Span::raw(s).width();
    if let Some(one) = forms
        .iter()
        .map(|f| f.join(sep))
        .find(|line| wide(line) <= width)
    {
        return vec![one];
    }
    let mut rows: Vec<String> = Vec::new();
    for part in &forms[3] {
        match rows.last_mut() {
            Some(row) if wide(row) + wide(sep) + wide(part) <= width => {
                row.push_str(sep);
                row.push_str(part);
            }
            _ => rows.push(part.clone()),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(overlapping: u64, made_twice: u64) -> LiveDesign {
        LiveDesign {
            design: "naive".into(),
            overlapping,
            made_twice,
            ..LiveDesign::default()
        }
    }

    #[test]
    fn the_notes_say_what_makes_the_outcomes_add_up_only_where_it_is_so() {
        assert!(adding_up(&design(0, 0), 60).is_empty());
        assert_eq!(
            adding_up(&design(12, 14), 60),
            [
                "outcomes overlap: 12 payments count under more than one",
                "14 paid twice on purpose: each pair judged once"
            ]
        );
        assert_eq!(
            adding_up(&design(1, 1), 38),
            [
                "overlap: 1 counts under more than one",
                "1 paid twice on purpose, judged once"
            ]
        );
    }

    /// The title keeps the name and the count of violations where it can,
    /// then the count alone (the figures then begin with the name).
    #[test]
    fn a_title_gives_up_words_before_the_name_and_the_name_before_the_count() {
        let t = Theme::new(false, false);
        let mut d = design(0, 0);
        d.design = "cache-claim-first".into();
        d.violations = 3;
        let shown = |d: &LiveDesign, w| {
            let (line, named) = title(&t, d, w);
            let words: String = line.spans.iter().map(|s| s.content.to_string()).collect();
            (words, named)
        };
        assert_eq!(
            shown(&d, 40),
            (" cache-claim-first  3 violations ".into(), true)
        );
        assert_eq!(shown(&d, 25), (" cache-claim-first ✕ 3 ".into(), true));
        assert_eq!(shown(&d, 20), (" 3 violations ".into(), false));
        assert_eq!(shown(&d, 10), (" ✕ 3 ".into(), false));
        d.violations = 1;
        assert!(shown(&d, 40).0.contains(" 1 violation "));
    }
}
