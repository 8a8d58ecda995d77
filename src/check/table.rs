//! The check as text: the bounds, one table row per strategy, then the
//! properties and the shortest counterexample of each failure class.

use super::further::{self, FurtherResult};
use super::{Bounds, CheckReport, Counterexample, StrategyReport};
use crate::sim::Outcome;
use std::fmt::Write;

use super::count::num;

/// The result, with the search's own time beside its own bounds: after a
/// claim's bounds and before its tries one bound further (each with its
/// own figures), else at the end.
fn verdict(s: &StrategyReport, requested: &Bounds, own: &str) -> String {
    let lowered = further::lowered(s, requested);
    let said = match (s.claims_safe, s.broken(), s.vacuous()) {
        (_, _, true) => "VACUOUS: the bounds never produced a duplicate".to_string(),
        (true, false, _) => return further::claim_with(s, requested, own),
        (true, true, _) if s.outside.is_some() => {
            let below = if lowered.is_empty() {
                ": see below"
            } else {
                ""
            };
            format!("breaks outside its promise{lowered}{below}")
        }
        // Its bounds, as a claim that holds names them: the break is a
        // fact about these bounds (teacher trial 29).
        (true, true, _) => format!(
            "{} {}{lowered}{}",
            super::promise::BROKEN,
            further::within(s, requested),
            unfinishable_only(s, requested)
        ),
        (false, true, _) => format!("broken, as expected{lowered}"),
        (false, false, _) => format!("{}{lowered}", super::promise::NONE_HELD),
    };
    said + own
}

/// Where every failing schedule is one no handler can finish (a crash
/// ended each receive of a message the broker dead-lettered), what sets
/// the contradiction apart from a flaw of the design: the bounds let the
/// crashes use up the broker's receives (`--crashes 3` beside a
/// dead-letter queue after 3).
fn unfinishable_only(s: &super::StrategyReport, requested: &super::Bounds) -> String {
    let failing = s.failing();
    if failing == 0 || s.unfinishable != failing || s.invariants.iter().any(|i| !i.holds) {
        return String::new();
    }
    let receives = s.bounds.as_ref().unwrap_or(requested).max_receives;
    format!(
        ", but only where a crash ends each of the {receives} receives the broker allows ({} schedules), which no handler can finish: the dead-letter queue's own handling must settle them",
        super::count::num(failing)
    )
}

/// The widest line the text output prints when nothing says how wide the
/// reader's window is (a file, a pipe, a pasted report): a projector's
/// window reads it without a horizontal scroll. A terminal's own width
/// comes in through `render_at`.
pub const WIDTH: usize = 100;

/// What the `refused` column counts, in the check's legend and the
/// explorer's: one meaning in both.
pub const REFUSED: &str = "dead-lettered because the provider refused it";

/// The table's columns: short headings, each named in full in the legend
/// under the table (`None`: the heading says it all).
const COLUMNS: [(&str, Option<&str>); 11] = [
    // The explorer's word for a row (`--strategy` picks one).
    ("design", None),
    ("schedules", None),
    ("states", None),
    // Named, as the explorer's table leaves it out.
    ("depth", Some("the most moves from the start to any state")),
    ("correct", None),
    // Only the runs dead-lettered as meant, the charge refused: a failure
    // that ends dead-lettered counts under its failure (teacher trial:
    // `dlq: dead-lettered` read 0 beside runs that were).
    ("refused", Some(REFUSED)),
    ("twice", Some("charged twice or more")),
    ("lost", Some("charge lost")),
    ("disagree", Some("provider and database disagree")),
    ("gone", Some("message lost")),
    ("stale", Some("stale state")),
];

/// The table alone: one row of counts per strategy, the legend of its
/// short headings, then each strategy's result with its time (a column of
/// its own would make the table wider than a screen).
pub fn table(report: &CheckReport) -> String {
    table_at(report, WIDTH)
}

/// The table at most `width` columns wide where its cells allow: the
/// columns close up to one space between them before anything wraps.
pub fn table_at(report: &CheckReport, width: usize) -> String {
    let rows: Vec<Vec<String>> = report
        .strategies
        .iter()
        .map(|s| {
            vec![
                s.strategy.clone(),
                num(s.schedules),
                num(s.states),
                s.max_depth.to_string(),
                num(s.count(Outcome::Correct)),
                num(s.count(Outcome::DeadLettered)),
                num(s.count(Outcome::ChargedTwice)),
                num(s.count(Outcome::ChargeLost)),
                num(s.count(Outcome::Disagree)),
                num(s.count(Outcome::MessageLost)),
                num(s.count(Outcome::StaleState)),
            ]
        })
        .collect();
    // A column for stale status only when some design can produce it.
    let stale = COLUMNS
        .iter()
        .position(|&(c, _)| c == "stale")
        .expect("a column");
    let show_stale = report.counts_column(Outcome::StaleState);
    let hide = |row: &mut Vec<String>| {
        if !show_stale {
            row.remove(stale);
        }
    };
    let mut rows = rows;
    rows.iter_mut().for_each(hide);
    let mut header: Vec<String> = COLUMNS.iter().map(|(c, _)| c.to_string()).collect();
    hide(&mut header);
    let mut widths: Vec<usize> = header.iter().map(|c| c.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let cells: usize = widths.iter().sum();
    let gap = if cells + 2 * widths.len().saturating_sub(1) <= width {
        "  "
    } else {
        " "
    };
    let mut out = String::new();
    let line = |cells: &[String], out: &mut String| {
        let last = cells.len() - 1;
        for (i, cell) in cells.iter().enumerate() {
            // Names read left to right; counts line up right.
            let text = if i == 0 {
                format!("{cell:<w$}", w = widths[i])
            } else {
                format!("{cell:>w$}", w = widths[i])
            };
            out.push_str(&text);
            out.push_str(if i == last { "\n" } else { gap });
        }
    };
    line(&header, &mut out);
    for row in &rows {
        line(row, &mut out);
    }
    let legend: Vec<String> = COLUMNS
        .iter()
        .filter(|(c, _)| show_stale || *c != "stale")
        .filter_map(|(c, full)| full.map(|f| format!("{c}: {f}")))
        .collect();
    out.push_str(&wrap(&format!("({})", legend.join("; ")), width));
    out.push('\n');
    let name_w = widths[0];
    for s in &report.strategies {
        let own = format!(
            " ({:.2}s, {} states/s)",
            s.seconds,
            num(s.states_per_second().round() as u64)
        );
        let result = format!(
            "{:<name_w$}  {}",
            s.strategy,
            verdict(s, &report.bounds, &own)
        );
        out.push_str(&wrap(&result, width));
        out.push('\n');
    }
    out.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

/// Text with every line at most `width` columns: a longer line breaks at
/// spaces, its rest indented under its own start (and a word too long
/// for a line is split), so nothing is cut.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(8);
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let lead = line.chars().take_while(|c| *c == ' ').count();
        let indent = " ".repeat((lead + 4).min(width / 2));
        let mut rest: Vec<char> = line.chars().collect();
        // Breaks only where the line is too long: the spaces it keeps
        // (columns padded to line up) stay as they are.
        while rest.len() > width {
            let floor = rest.iter().take_while(|c| **c == ' ').count() + 1;
            let cut = (floor..=width).rev().find(|&i| rest[i] == ' ');
            let (head, tail) = match cut {
                Some(i) => (&rest[..i], &rest[i..]),
                // One word longer than the line: split it.
                None => (&rest[..width], &rest[width..]),
            };
            out.push(head.iter().collect::<String>().trim_end().to_string());
            let tail: String = tail.iter().collect();
            rest = format!("{indent}{}", tail.trim_start()).chars().collect();
        }
        out.push(rest.into_iter().collect());
    }
    out.join("\n")
}

/// A counterexample step by step, and how it ends.
fn told(out: &mut String, cx: &Counterexample) {
    let width = cx.steps.len().to_string().len();
    for (i, step) in cx.steps.iter().enumerate() {
        // Every event of the move: the first alone can tell half
        // the story ("A acks m-7f3", when the ack was then dropped).
        let said = if step.happened.is_empty() {
            cx.moves[i].written()
        } else {
            step.happened.join(" ")
        };
        let _ = writeln!(out, "   {:>width$}. {:<18} {}", i + 1, step.action, said);
    }
    let _ = writeln!(
        out,
        "   ends: total ${}, {} provider charge{}; {}",
        cx.total,
        cx.charges,
        if cx.charges == 1 { "" } else { "s" },
        cx.chain
    );
}

/// The whole text output of `idem check`, at the fixed width.
pub fn render(report: &CheckReport) -> String {
    render_at(report, WIDTH)
}

/// The column a property's status starts at, after its kind: the texts
/// padded to line the statuses up, as far as `width` has room beside the
/// longest status (`BROKEN after 11 moves`); a longer text wraps.
fn property_column(width: usize) -> usize {
    72.min(width.saturating_sub(PROPERTY_KIND + 1 + 24)).max(20)
}

/// Three spaces and the kind (`always`, `eventually`), padded.
const PROPERTY_KIND: usize = 3 + 12;

/// One property and its status: the text padded to `col`, then the
/// status, on one line where `width` has room. Where it has not, the
/// text is never split from itself for it (teacher trial: "per business"
/// on one line, "fact BROKEN after 7 moves" on the next, under the kind):
/// a text that fits a line keeps it, and a text longer than a line breaks
/// at word ends, each part under its first word. The status stands in
/// its column, `col`, after the text's last line where that ends short of
/// it, else on a line of its own under the text (teacher trial 23: a text
/// as long as the column pushed its `holds` out of line with the rest);
/// only a status too long for its column follows the text's last word.
/// Every line is at most `width`, so `wrap` leaves them be.
fn property(out: &mut String, kind: &str, text: &str, status: &str, col: usize, width: usize) {
    let room = width.saturating_sub(PROPERTY_KIND).max(20);
    let len = |s: &str| s.chars().count();
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("a line");
        if !line.is_empty() && len(line) + 1 + len(word) > room {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    let status = status.replace(' ', NBSP);
    // The column starts a space after `col`: a text `col` long still has
    // one before its status.
    let at = col + 1;
    let in_column = at + len(&status) <= room;
    let last = lines.last_mut().expect("a line");
    if in_column && len(last) < at {
        let pad = NBSP.repeat(at - len(last));
        last.push_str(&pad);
        last.push_str(&status);
    } else if in_column {
        lines.push(format!("{}{status}", NBSP.repeat(at)));
    } else if len(last) + 1 + len(&status) <= room {
        last.push_str(NBSP);
        last.push_str(&status);
    } else {
        lines.push(status);
    }
    let indent = " ".repeat(PROPERTY_KIND);
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(out, "   {kind:<12}{line}");
        } else {
            let _ = writeln!(out, "{indent}{line}");
        }
    }
}

/// Holds a status's words together through `wrap`, which breaks only at
/// plain spaces; turned back into spaces when the text is done.
const NBSP: &str = "\u{a0}";

/// The whole text output of `idem check`, every line at most `width`
/// columns (a word longer than that is split).
pub fn render_at(report: &CheckReport, width: usize) -> String {
    let col = property_column(width);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "idem check: every schedule within the bounds, on the real engine and {}",
        match &report.bounds.postgres {
            None => "real SQLite".to_string(),
            Some(_) => "a real PostgreSQL server".to_string(),
        }
    );
    // The header states the bounds the run used: a design checked under
    // bounds of its own (more messages, fewer faults) has them here, not
    // the ones asked for, which are said after.
    let own: Vec<&Bounds> = report
        .strategies
        .iter()
        .filter_map(|s| s.bounds.as_ref())
        .collect();
    let names = |own_only: bool| {
        report
            .strategies
            .iter()
            .filter(|s| !own_only || s.bounds.is_some())
            .map(|s| s.strategy.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let asked = format!(
        "at most {} per schedule, {}",
        super::further::faults(report.bounds.max_faults),
        report.bounds.setup_line()
    );
    if !own.is_empty()
        && own.len() == report.strategies.len()
        && own.windows(2).all(|w| w[0] == w[1])
    {
        let _ = writeln!(out, "{}", own[0]);
        let _ = writeln!(
            out,
            "(the bounds {} is checked under, its own; asked for: {asked}; see below)",
            names(false)
        );
    } else {
        let _ = writeln!(out, "{}", report.bounds);
        if !own.is_empty() {
            // `offset checked under bounds of its own`, `offset, versioned
            // checked under bounds of their own`.
            let whose = if own.len() == 1 { "its" } else { "their" };
            let _ = writeln!(
                out,
                "(as asked; {} checked under bounds of {whose} own, given below)",
                names(true)
            );
        }
    }
    let _ = writeln!(out);
    out.push_str(&table_at(report, width));
    let _ = writeln!(
        out,
        "(schedules: complete runs, start to quiet, through the state graph with identical consumers counted once; a run counts under every outcome it ends with, so one charged twice whose provider and database disagree counts in both columns)"
    );
    for s in &report.strategies {
        let _ = writeln!(out);
        let promise = super::promise::said(s.claims_safe);
        let _ = writeln!(out, "== {} ({promise}): {} ==", s.strategy, s.summary);
        let _ = writeln!(out, "   messages: {}", s.messages.join(", "));
        if let Some(b) = &s.bounds {
            let assumes: Vec<String> = s
                .assumptions
                .iter()
                .map(|a| format!("{}, as it assumes; ", a.short()))
                .collect();
            let lowered = if b.max_faults != report.bounds.max_faults {
                format!(
                    ", lowered from the {} asked for: the second message makes the space larger, and one fault is all its known failures need",
                    report.bounds.max_faults
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "   checked under its own bounds ({}two messages for one order, since it remembers only the latest): at most {} per schedule{lowered}",
                assumes.concat(),
                further::faults(b.max_faults),
            );
        }
        if let Some(why) = &s.outside {
            let _ = writeln!(
                out,
                "   outside its promise: {why}; its failures here do not break it"
            );
        }
        let _ = writeln!(
            out,
            "   {} states, {} transitions, {} replays on a fresh database{}",
            num(s.states),
            num(s.transitions),
            num(s.replays),
            if s.truncated > 0 {
                format!(", {} states cut off at the depth limit", num(s.truncated))
            } else {
                String::new()
            }
        );
        for inv in &s.invariants {
            let status = match &inv.shortest {
                None => "holds".to_string(),
                Some(moves) => format!("BROKEN after {} moves", moves.len()),
            };
            property(&mut out, "always", &inv.text, &status, col, width);
        }
        let status = if s.eventually.holds {
            "holds".to_string()
        } else {
            format!("BROKEN in {} schedules", num(s.eventually.failing))
        };
        property(
            &mut out,
            "eventually",
            &s.eventually.text,
            &status,
            col,
            width,
        );
        for w in &s.witnesses {
            let status = match (w.seen, w.required, w.depth) {
                (true, _, Some(d)) => format!("seen (after {d} moves)"),
                (true, _, None) => "seen".to_string(),
                (false, true, _) => "NEVER SEEN: the pass is vacuous".to_string(),
                (false, false, _) => "not possible within these bounds".to_string(),
            };
            property(&mut out, "sometimes", &w.text, &status, col, width);
        }
        for f in &s.further {
            let status = match &f.result {
                FurtherResult::Holds { states } => format!("holds ({} states)", num(*states)),
                FurtherResult::Breaks {
                    unfinishable: Some(n),
                    ..
                } => format!(
                    "fails only where a crash ends every receive ({} schedules): no handler can finish those",
                    num(*n)
                ),
                FurtherResult::Breaks { .. } => "BREAKS".to_string(),
                FurtherResult::TooLarge { .. } => format!(
                    "not finished: a further try stops at {} states",
                    num(further::MAX_STATES)
                ),
            };
            // With the caps per kind it kept: "3 faults" alone reads as any 3.
            let caps = f.caps().map(|c| format!(" ({c})")).unwrap_or_default();
            let text = format!("one bound further: {}{caps}", f.bound());
            property(&mut out, "further", &text, &status, col, width);
        }
        for cx in &s.counterexamples {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "   shortest schedule to \"{}\" ({} moves):",
                cx.class,
                cx.moves.len()
            );
            told(&mut out, cx);
        }
        for f in &s.further {
            // Each way it breaks there, as the explorer lists them.
            for (_, cx) in f.ways() {
                let _ = writeln!(out);
                let _ = writeln!(
                    out,
                    "   one bound further, {}: shortest schedule to \"{}\" ({} moves):",
                    f.place(),
                    cx.class,
                    cx.moves.len()
                );
                told(&mut out, cx);
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "checked in {:.2}s", report.seconds);
    wrap(&out, width).replace(NBSP, " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A property's line at `width`, as `render_at` prints it.
    fn shown(kind: &str, text: &str, status: &str, width: usize) -> String {
        let mut out = String::new();
        property(&mut out, kind, text, status, property_column(width), width);
        wrap(&out, width).replace(NBSP, " ")
    }

    /// Teacher trial at 80 columns: "at most one provider charge per
    /// business" on one line and "fact BROKEN after 7 moves" on the next,
    /// under the kind, while the line above it was whole. A property's
    /// text that fits a line stays on one; a longer one goes on under its
    /// own first word, so that it reads as one item; and its status is
    /// never alone on a line.
    #[test]
    fn a_property_is_never_split_from_itself() {
        let charge = "at most one provider charge per business fact";
        for status in ["BROKEN after 7 moves", "holds", "BROKEN after 13 moves"] {
            for width in [80, 70, 100] {
                let out = shown("always", charge, status, width);
                assert!(out.lines().any(|l| l.contains(charge)), "{width}:\n{out}");
                assert!(out.contains(status), "{width}:\n{out}");
                for l in out.lines() {
                    assert!(l.chars().count() <= width, "{width}:\n{out}");
                }
            }
        }
        let long = "a processed message ID implies its payment (once the fact is settled)";
        let out = shown("always", long, "BROKEN after 11 moves", 80);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        for l in &lines[1..] {
            assert!(
                l.starts_with(&" ".repeat(PROPERTY_KIND)),
                "under its text:\n{out}"
            );
            assert!(
                l.trim() != "BROKEN after 11 moves",
                "the status alone:\n{out}"
            );
        }
    }

    #[test]
    fn a_long_line_wraps_under_its_own_start_and_keeps_every_word() {
        let line = format!("   {}", "word ".repeat(40));
        let out = wrap(&line, 30);
        for l in out.lines() {
            assert!(l.chars().count() <= 30, "{l}");
        }
        assert_eq!(out.split_whitespace().count(), 40);
        assert!(out.lines().nth(1).unwrap().starts_with("       word"));
        let long = "x".repeat(75);
        let out = wrap(&long, 30);
        assert_eq!(out.replace(['\n', ' '], ""), long);
        assert_eq!(wrap("short\n\nlines", 30), "short\n\nlines");
    }
}
