//! What the explorer's table says at a width: the columns that fit, the
//! result's words, the title and the rows of legend under the table. Pure
//! of the report, the theme and the width, as the layout is of the screen's
//! size: the view draws it, and a click finds the rows it drew from the
//! same answer (the legend's height moves the counterexamples down).

use super::{Column, Standing, num};
use crate::check::{Bounds, CheckReport, StrategyReport};
use crate::tui::theme::Theme;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// How many words the result column has room for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Words {
    Long,
    Short,
    Fewest,
}

/// A design's result in the table. A design that holds says within which
/// bounds, and what the try one bound further broke, read off the way
/// most of its schedules there end: never a bare "safe", and never a bound
/// dropped for room (the fewest words keep both).
pub(crate) fn result_words(s: &StrategyReport, requested: &Bounds, words: Words) -> String {
    let standing = Standing::of(s);
    if standing != Standing::Holds {
        return if words == Words::Long {
            standing.long()
        } else {
            standing.short()
        }
        .to_string();
    }
    // Every figure with what it counts (`within 2 faults`): a bare `2`
    // beside the table's counts of runs reads as a count of anything.
    let faults = crate::check::further::faults;
    let n = faults(s.bounds.as_ref().unwrap_or(requested).max_faults);
    let Some(f) = breaks_further(s) else {
        // The fewest words keep the bound and drop the verb, as the
        // legend's fewest do (`✓ within bounds`).
        return match words {
            Words::Fewest => format!("within {n}"),
            _ => format!("holds within {n}"),
        };
    };
    let at = faults(f.bounds.max_faults);
    let how = |short| {
        f.ways()
            .first()
            .map(|(_, cx)| crate::check::further::end_words(cx, short))
    };
    match (words, how(words != Words::Long)) {
        (Words::Long, Some(how)) => format!("holds within {n}; at {at}: {how}"),
        // Fewer words, each figure still counting faults: `within 2
        // faults, not 3` says the unit once for both.
        (Words::Short, Some(how)) => format!("within {n}, not {}: {how}", f.bounds.max_faults),
        // Broken only where no run ends (an always-property on the way).
        (Words::Long, None) => format!("holds within {n}, breaks at {at}"),
        _ => format!("within {n}, not {}", f.bounds.max_faults),
    }
}

/// The try one more fault further that broke a design which held within
/// its bounds, if it broke.
pub(crate) fn breaks_further(s: &StrategyReport) -> Option<&crate::check::further::Further> {
    s.further
        .iter()
        .find(|f| f.breaks() && f.widening == crate::check::further::Widening::Fault)
}

/// How the table is laid out in a given width.
pub(crate) struct Fit {
    /// The count columns shown, in screen order, with their widths.
    pub cols: Vec<(Column, usize)>,
    /// How many words the result column has.
    pub words: Words,
    /// Spaces between columns.
    pub gap: usize,
    /// Columns there was no room for, most important first: named under
    /// the table, never dropped without a word.
    pub hidden: Vec<Column>,
}

/// The columns that fit in `width`: the longest prefix of `keep_order`
/// (failures, schedules, correct ends, columns of zeros, states) that any
/// way of saying the table has room for; of ways that keep as much, the
/// one with the most words, and the most words that lose only the states.
/// The gaps and the result's words go before a column does.
fn columns(report: &CheckReport, name_w: usize, width: usize) -> Fit {
    let result_w = |words: Words| {
        report
            .strategies
            .iter()
            .map(|s| result_words(s, &report.bounds, words).chars().count())
            .max()
            .unwrap_or(6)
    };
    let order = crate::tui::explorer::keep_order(report);
    let col_w = |c: Column| {
        report
            .strategies
            .iter()
            .map(|s| num(c.value(s)).len())
            .chain([c.heading().len()])
            .max()
            .unwrap_or(0)
    };
    let tries = [
        (Words::Long, 2),
        (Words::Long, 1),
        (Words::Short, 1),
        (Words::Fewest, 1),
    ];
    let mut best: Option<Fit> = None;
    for (words, gap) in tries {
        // The marker and name, the columns, then the gap, the symbol and
        // the result's words.
        let mut used_w = 2 + name_w + gap + 2 + result_w(words);
        let mut cols = Vec::new();
        let mut hidden = Vec::new();
        for c in order.iter().copied() {
            let w = col_w(c);
            if hidden.is_empty() && used_w + gap + w <= width {
                used_w += gap + w;
                cols.push((c, w));
            } else {
                hidden.push(c);
            }
        }
        cols.sort_by_key(|(c, _)| Column::IN_ORDER.iter().position(|o| o == c));
        let fit = Fit {
            cols,
            words,
            gap,
            hidden,
        };
        // The states alone may go for the result's words: the way a
        // design breaks one bound further says more than the search's size.
        if fit.hidden.iter().all(|c| *c == Column::States) {
            return fit;
        }
        if best
            .as_ref()
            .is_none_or(|b| fit.hidden.len() < b.hidden.len())
        {
            best = Some(fit);
        }
    }
    best.expect("at least one try")
}

/// The note that the outcome columns overlap (one run can end charged
/// twice and with the provider and the database disagreeing, and counts
/// under both), longest words first. The fewest are what the table's title
/// says where the line under the table has no room for the note (80
/// columns with a column hidden).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Overlap {
    Long,
    Short,
    Fewest,
}

impl Overlap {
    const ALL: [Overlap; 3] = [Overlap::Long, Overlap::Short, Overlap::Fewest];

    fn words(self) -> &'static str {
        match self {
            Overlap::Long => "a run counts under each outcome it ends with",
            Overlap::Short => "runs count under each outcome",
            Overlap::Fewest => "outcomes overlap",
        }
    }

    /// Its words after others on a line: ` · outcomes overlap`.
    fn after(self, t: &Theme) -> String {
        format!(" {} {}", t.g.dot, self.words())
    }
}

/// The columns whose heading is a short word that the title names in
/// full (`twice=charged twice`): the same words `idem check` heads with.
fn explained(fit: &Fit) -> Vec<Column> {
    fit.cols
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| c.heading() != c.meaning())
        .collect()
}

/// A column's entry in the title's legend: `twice=charged twice`.
fn entry(c: Column) -> String {
    format!("{}={}", c.heading(), c.meaning())
}

/// The table's title, with what it says: its text is made here and never
/// read back.
pub(crate) struct Title {
    pub text: String,
    /// The columns whose meaning it says whole; none where it was cut
    /// (the row under the table then says them again).
    said: Vec<Column>,
    /// Whether it ends in an ellipsis, cut for room.
    cut: bool,
    /// Whether it says that the outcomes overlap, uncut.
    noted: bool,
}

/// The table's title: what it shows, or the legend of its headings that
/// are short words; with `overlap`, the note that the outcome columns
/// overlap, where the title has room for it.
fn table_title(t: &Theme, fit: &Fit, width: usize, overlap: bool) -> Title {
    let room = width.saturating_sub(2);
    let note = Overlap::Fewest.after(t);
    let mut title = format!(" Designs {} ", t.g.dot);
    let legend = explained(fit);
    let entries: Vec<String> = legend.iter().map(|c| entry(*c)).collect();
    if entries.is_empty() {
        title.push_str("how every schedule ends, and whether the design kept its promise");
    } else {
        let full = format!("{title}{} ", entries.join(", "));
        // Every heading explained on the narrowest screen too: the legend
        // alone, spaced, where the title's first words do not fit.
        if full.chars().count() + 4 <= width {
            title.push_str(&entries.join(", "));
        } else {
            title = format!(" {}", entries.join(" "));
        }
    }
    // The note where it fits beside every heading's entry.
    let noted = overlap && title.chars().count() + note.chars().count() < room;
    if noted {
        title.push_str(&note);
    }
    title.push(' ');
    // Never cut without a sign.
    let cut = title.chars().count() > room;
    if cut {
        let keep = room.saturating_sub(t.g.ellipsis.chars().count() + 1);
        title = format!(
            "{}{} ",
            title.chars().take(keep).collect::<String>(),
            t.g.ellipsis
        );
    }
    Title {
        text: title,
        said: if cut { Vec::new() } else { legend },
        cut,
        noted: noted && !cut,
    }
}

/// What the table has no room for, longest words first: each hidden
/// column by name, and a column of zeros with its zero (`refused=0`), so that
/// "nothing was refused and dead-lettered" is still read.
fn hidden_words(report: &CheckReport, hidden: &[Column]) -> [String; 2] {
    let zero = |c: &Column| report.strategies.iter().all(|s| c.value(s) == 0);
    let name = |c: &Column, long: bool| match (zero(c), long) {
        (true, true) => format!("{} (0 in every design)", c.meaning()),
        (true, false) => format!("{}=0", c.heading()),
        (false, true) => c.meaning().to_string(),
        (false, false) => c.heading().to_string(),
    };
    let names = |long: bool| {
        hidden
            .iter()
            .map(|c| name(c, long))
            .collect::<Vec<_>>()
            .join(", ")
    };
    [
        format!("hidden: {} (widen)", names(true)),
        format!("hidden: {}", names(false)),
    ]
}

/// The design column's width: the longest name, or its heading.
pub(crate) fn name_width(report: &CheckReport) -> usize {
    report
        .strategies
        .iter()
        .map(|s| s.strategy.len())
        .chain(["design".len()])
        .max()
        .unwrap_or(6)
}

/// What the table says at a width: its columns, its title, and the rows
/// of legend under it, as made (the view cuts each to the width with a
/// sign, as every line it draws).
pub(crate) struct Table {
    pub fit: Fit,
    pub title: String,
    pub legend: Vec<Line<'static>>,
}

/// The table's columns, its title, and the legend under it: the marks,
/// then, where the title has no room for every column's meaning and the
/// note that outcomes overlap, a row with the rest of them (the trial: at
/// 80 columns `disagree` had no meaning on screen).
pub(crate) fn titled(t: &Theme, report: &CheckReport, width: u16) -> Table {
    let fit = columns(report, name_width(report), usize::from(width));
    let (marks, told, noted) = legend(t, report, &fit.hidden, width);
    let overlap = told.is_none();
    // The marks' row had no room for the hidden columns' names whole: they
    // go on the row under it, never cut (trial 23: `hidden: correct,
    // dlq=0, sta…` at 80 columns, where `!` took its words).
    let moved = !noted;
    let title = table_title(t, &fit, usize::from(width), overlap);
    let explained = explained(&fit);
    let whole = !title.cut && explained.iter().all(|c| title.said.contains(c));
    if whole && (!overlap || title.noted) && !moved {
        return Table {
            fit,
            title: title.text,
            legend: vec![marks],
        };
    }
    // The title keeps the entries that fit whole, spaced, the first
    // ones first; the rest and the note go on the row under the marks.
    let room = usize::from(width).saturating_sub(2);
    let mut kept = Vec::new();
    let mut rest = Vec::new();
    for e in explained.into_iter().map(entry) {
        let line = format!(" {} {e} ", kept.join(" "));
        if line.chars().count() <= room {
            kept.push(e);
        } else {
            rest.push(e);
        }
    }
    let title = if kept.is_empty() {
        format!(" Designs {} ", t.g.dot)
    } else {
        format!(" {} ", kept.join(" "))
    };
    let mut spans = vec![Span::styled(format!(" {}", rest.join(" ")), t.dim())];
    let said = rest.join(" ").chars().count() + 1;
    // After the entries, with a dot between; alone, the row's own
    // first space before it.
    let words = |o: Overlap| {
        if rest.is_empty() {
            o.words().to_string()
        } else {
            o.after(t)
        }
    };
    // The hidden columns' names after whatever goes before them, in
    // their long words or their short ones.
    let notes = hidden_words(report, &fit.hidden);
    let named = |n: &String, first: bool| {
        if first {
            n.clone()
        } else {
            format!(" {} {n}", t.g.dot)
        }
    };
    let overlaps: Vec<Option<Overlap>> = if overlap {
        Overlap::ALL.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    let hidden: Vec<Option<&String>> = if moved {
        notes.iter().map(Some).collect()
    } else {
        vec![None]
    };
    // The overlap note in its most words that leave room for the names,
    // whole; the fewest of both where nothing fits.
    let mut tries: Vec<(Option<String>, Option<String>)> = Vec::new();
    for o in &overlaps {
        for n in &hidden {
            let o = o.map(words);
            let first = rest.is_empty() && o.is_none();
            tries.push((o, n.map(|n| named(n, first))));
        }
    }
    let long = |(o, n): &(Option<String>, Option<String>)| {
        said + o.as_ref().map_or(0, |o| o.chars().count())
            + n.as_ref().map_or(0, |n| n.chars().count())
    };
    let (o, n) = tries
        .iter()
        .find(|try_| long(try_) <= usize::from(width))
        .or(tries.last())
        .cloned()
        .unwrap_or_default();
    spans.extend(o.map(|o| Span::styled(o, t.dim())));
    spans.extend(n.map(|n| Span::styled(n, t.warn())));
    Table {
        fit,
        title,
        legend: vec![marks, Line::from(spans)],
    }
}

/// How many rows the legend under the table takes at `width`: one, or
/// two where the title has no room for every column's meaning. The view
/// draws that many, and a click counts them to find the rows below.
pub fn legend_rows(t: &Theme, report: Option<&CheckReport>, width: u16) -> u16 {
    report.map_or(1, |r| titled(t, r, width).legend.len() as u16)
}

/// What a row's result mark says: one meaning each, the same as on every
/// other screen (`!` is a risk, nothing wrong yet; `✕` is broken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    Holds,
    /// Holds, but only within the bounds: one bound further breaks it.
    OnlyWithin,
    Broken,
    Vacuous,
    NoFailure,
}

impl Mark {
    const ALL: [Mark; 5] = [
        Mark::Holds,
        Mark::OnlyWithin,
        Mark::Broken,
        Mark::Vacuous,
        Mark::NoFailure,
    ];

    pub(crate) fn of(s: &StrategyReport) -> Mark {
        match Standing::of(s) {
            Standing::Holds if breaks_further(s).is_some() => Mark::OnlyWithin,
            Standing::Holds => Mark::Holds,
            // Against its claim or as expected, it is broken: the words
            // say which, the colour that one matters more.
            Standing::BrokenAsExpected | Standing::Contradiction => Mark::Broken,
            Standing::Vacuous => Mark::Vacuous,
            Standing::NoFailureFound => Mark::NoFailure,
        }
    }

    /// Its meaning in the legend: long, short, and fewest (beside the
    /// columns the table hides, on a narrow screen).
    /// `contradicts`: some row contradicts its design's claim, and the
    /// broken mark names that too, in `idem check`'s words.
    fn words(self, contradicts: bool) -> (&'static str, &'static str, &'static str) {
        match self {
            Mark::Broken if contradicts => (
                "a schedule breaks it (as expected, or it contradicts its promise)",
                "broken or contradicts its promise",
                "broken",
            ),
            // Bounded in every form, as its rows are (`holds within 1`):
            // a bare "holds" reads as safe for good. Fewest, the verb goes
            // and the bound stays, so the hidden columns keep their names.
            Mark::Holds => (
                "holds within the bounds",
                "holds within bounds",
                "within bounds",
            ),
            Mark::OnlyWithin => (
                "holds within the bounds, broken one bound further",
                "broken one bound further",
                // Its difference from a ✓ even at its fewest (trial 22:
                // `! only within` at 80 columns said nothing a ✓ does not).
                "breaks further",
            ),
            Mark::Broken => ("a schedule breaks it", "broken", "broken"),
            Mark::Vacuous => ("proves nothing: no duplicate", "proves nothing", "vacuous"),
            Mark::NoFailure => ("no failure found", "no failure", "no failure"),
        }
    }
}

pub(crate) fn mark(t: &Theme, m: Mark) -> (&'static str, Style) {
    match m {
        Mark::Holds => (t.g.done, t.good()),
        Mark::OnlyWithin => (t.g.warning, t.warn()),
        Mark::Broken => (t.g.failed, t.bad()),
        Mark::Vacuous => (t.g.vacuous, t.bad()),
        Mark::NoFailure => (t.g.pending, t.dim()),
    }
}

/// The legend of the result marks the table shows, in one line, and after
/// it the columns the table had no room for: the long words where they
/// fit, fewer where not; the hidden columns are named in every try. With
/// the words it says that the outcomes overlap in, if it has room for
/// them (where it does not, the table's title does), and whether it names
/// the hidden columns (where it has no room for them whole, the row under
/// it does: [`titled`]).
fn legend(
    t: &Theme,
    report: &CheckReport,
    hidden: &[Column],
    width: u16,
) -> (Line<'static>, Option<Overlap>, bool) {
    let shown: Vec<Mark> = Mark::ALL
        .into_iter()
        .filter(|m| report.strategies.iter().any(|s| Mark::of(s) == *m))
        .collect();
    let notes = hidden_words(report, hidden);
    let contradicts = report
        .strategies
        .iter()
        .any(|s| Standing::of(s) == Standing::Contradiction);
    // 0: long words, 1: short, 2: fewest, 3: fewest but `holds`.
    // The outcome columns overlap, so a row's outcomes can add up to more
    // than its runs (as `idem check` says under its table): said where
    // the row has room for it.
    let line = |words: u8, note: Option<&String>, overlap: Option<Overlap>| {
        let mut spans = vec![Span::styled(" marks:", t.dim())];
        for m in &shown {
            let (symbol, style) = mark(t, *m);
            let (l, s, f) = m.words(contradicts);
            spans.push(Span::raw(if words == 0 { "  " } else { " " }));
            spans.push(Span::styled(symbol, style));
            // 3: the fewest words but for `holds within bounds`, whose
            // verb says what a ✓ claims.
            let form = match words {
                3 if *m == Mark::Holds => 1,
                w => usize::from(w.min(2)),
            };
            spans.push(Span::styled(format!(" {}", [l, s, f][form]), t.dim()));
        }
        if let Some(note) = note {
            spans.push(Span::styled(format!(" {} {note}", t.g.dot), t.warn()));
        }
        if let Some(overlap) = overlap {
            spans.push(Span::styled(overlap.after(t), t.dim()));
        }
        Line::from(spans)
    };
    let room = usize::from(width);
    let note = |i: usize| (!hidden.is_empty()).then(|| &notes[i]);
    let (long, short) = (Some(Overlap::Long), Some(Overlap::Short));
    // The shortest, as the table's title says it: the bounded `holds`
    // leaves no room for the longer ones at 80 columns.
    let fewest = Some(Overlap::Fewest);
    let tries = [
        (0, note(0), long),
        (1, note(0), long),
        (1, note(0), short),
        (1, note(1), short),
        (1, note(0), fewest),
        (1, note(1), fewest),
        (0, note(0), None),
        (1, note(0), None),
        (1, note(1), None),
        (3, note(1), None),
        (2, note(1), None),
        // The marks alone: the names go on the row under them, whole.
        (1, None, None),
        (3, None, None),
        (2, None, None),
    ];
    let lines: Vec<Line<'static>> = tries.iter().map(|(w, n, o)| line(*w, *n, *o)).collect();
    let chosen = lines
        .iter()
        .position(|l| l.width() <= room)
        .unwrap_or(lines.len() - 1);
    let noted = hidden.is_empty() || tries[chosen].1.is_some();
    (lines[chosen].clone(), tries[chosen].2, noted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row under the marks says the overlap note with one space
    /// before it wherever it stands alone, at every width: the note's own
    /// ` · ` goes whole, never by a count of bytes.
    #[test]
    fn the_overlap_note_alone_on_its_row_starts_with_one_space() {
        let t = Theme::new(false, false);
        let mut wrong = Vec::new();
        for strategy in ["id-first", "naive"] {
            let report = crate::check::run(&Bounds {
                max_faults: 1,
                strategy: Some(strategy.into()),
                ..Bounds::default()
            })
            .expect("the check runs");
            for width in 20..=200u16 {
                let rows = titled(&t, &report, width).legend;
                for row in rows.iter().skip(1) {
                    let text: String = row.spans.iter().map(|s| s.content.as_ref()).collect();
                    if text.starts_with("  ") {
                        wrong.push(format!("{strategy} at {width}: {text:?}"));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} rows: {wrong:#?}", wrong.len());
    }
}
