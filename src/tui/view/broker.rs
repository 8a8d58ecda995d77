//! The message broker as the broker knows it: each message with its lease
//! and delivery count, then its counters. What only the observer can know
//! (a dropped ack) is kept on its own marked line.

use super::{flow, marks};
use crate::sim::Frame;
use crate::sim::change::Place;
use crate::sim::counter_words as words;
use crate::sim::format_duration;
use crate::sim::frame::{MessagePhase, MessageView};
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

pub fn lines(t: &Theme, f: &Frame, form: &Form, width: usize, height: usize) -> Vec<Line<'static>> {
    lines_noting(t, f, form, width, height, &mut marks::Shortened::default())
}

/// As `lines`, the meanings of the marks its rows drew short added to
/// `short`, for the panel's border to name.
pub fn lines_noting(
    t: &Theme,
    f: &Frame,
    form: &Form,
    width: usize,
    height: usize,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    with_counters(t, f, form, width, height, queue(t, f, width, short))
}

/// The queue's entries, or a line that says it is empty.
fn queue(t: &Theme, f: &Frame, width: usize, short: &mut marks::Shortened) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for m in &f.queue.messages {
        out.extend(message(t, f, m, width, short));
    }
    if f.queue.messages.is_empty() {
        out.push(Line::styled("(queue empty)", t.dim()));
    }
    out
}

/// The names the observer's count of duplicate deliveries takes, fullest
/// first. Deliveries, not payments: "duplicates 1" beside a story that has
/// charged nobody twice reads as a second charge.
pub(super) const DUP_NAMES: [&str; 3] = [
    words::DUPLICATE_DELIVERIES,
    "dup. deliveries",
    "dup. deliv.",
];

/// The fewest rows the broker panel has where the observer's heading may
/// take a row of its own: 80x24 gives the panel 7 to 9, 100x30 9 to 12.
const HEADED_ROWS: usize = 10;

/// How the panel names its counters and lays out the observer's group,
/// chosen once for a whole run at one panel size (as the header chooses
/// its parts): a label that changed from step to step (`duplicate
/// deliveries 0`, then `dup. deliveries 1 (+1)`) read as a different count,
/// and a heading that came and went as a different thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// Which of `DUP_NAMES` the duplicate deliveries go by.
    dup: usize,
    group: Group,
}

/// The observer's group: its heading leads its counts on one line; or
/// the heading has a line of its own above them; or, short of rows, each
/// count's line is led by `◇` alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    OneLine,
    Headed,
    Marked,
}

impl Form {
    /// The form for the run `frames` at `width` x `height`, sized for the
    /// widest figure and change mark any of its steps shows, and for its
    /// longest queue; `f` (the frame drawn, which may be no step of
    /// `frames`, as a fork's) counts too. Bounded by the run's length.
    pub fn of(t: &Theme, frames: &[Frame], f: &Frame, width: usize, height: usize) -> Form {
        let run: Vec<&Frame> = frames.iter().chain(std::iter::once(f)).collect();
        // The fullest name whose widest count fits the panel, less a `◇ `
        // a folded line leads with. Widest of any run at this size, not
        // only this one's (teacher trial, issue 18: a class switching
        // scenarios read `duplicate deliveries` in one, `dup. deliveries`
        // in the next): a count of two digits moved by up to nine
        // (`99 (+9)`), wider than a built-in scenario comes near; a run
        // wider still counts too.
        let any_run = |i: usize| format!("{} 99 ({}9)", DUP_NAMES[i], t.g.added);
        let dup = super::run_form::widest(0..DUP_NAMES.len(), &run, |i, g| {
            let (text, _) = dup_counter(t, g, i);
            any_run(i).chars().count() + 2 <= width && text.chars().count() + 2 <= width
        })
        .unwrap_or(DUP_NAMES.len() - 1);
        let beside = width.saturating_sub(heading(t).chars().count() + 1);
        let group =
            super::run_form::widest(
                [Group::OneLine, Group::Headed],
                &run,
                |group, g| match group {
                    Group::OneLine => flow(t, &observed(t, g, dup), beside).len() == 1,
                    // A panel as short as 80x24 makes it leads each count
                    // with `◇` in every run: chosen by each run's own
                    // queue, the heading stood in three runs of 49 there
                    // and not in the rest, and a class switching tours
                    // read one fact in two forms (teacher trial).
                    _ if height < HEADED_ROWS => false,
                    _ => {
                        queue(t, g, width, &mut marks::Shortened::default()).len()
                            + flow(t, &counters(t, g), width).len()
                            + 1
                            + flow(t, &observed(t, g, dup), width).len()
                            <= height
                    }
                },
            )
            .unwrap_or(Group::Marked);
        Form { dup, group }
    }
}

/// A counter's text: its label and figure, and where it moved in this
/// step by how much, so the mark is a figure, not a colour; and whether
/// it moved.
fn counter(t: &Theme, f: &Frame, label: &str, name: &str, now: u32) -> (String, bool) {
    match f.changes.counter_was(name) {
        Some(was) if now > was => (format!("{label} {now} ({}{})", t.g.added, now - was), true),
        Some(_) => (format!("{label} {now} ({})", t.g.changed), true),
        None => (format!("{label} {now}"), false),
    }
}

/// What the broker itself can count: receives, redeliveries, acks it got.
fn counters(t: &Theme, f: &Frame) -> [(String, bool); 4] {
    let c = &f.counters;
    [
        counter(t, f, words::DELIVERED, "delivered", c.delivered),
        counter(t, f, words::REDELIVERED, "redeliveries", c.redeliveries),
        counter(t, f, words::ACKED, "acked", c.acked),
        counter(t, f, "DLQ", "dead_lettered", c.dead_lettered),
    ]
}

/// The duplicate deliveries by the name `DUP_NAMES[dup]`.
fn dup_counter(t: &Theme, f: &Frame, dup: usize) -> (String, bool) {
    let c = &f.counters;
    counter(
        t,
        f,
        DUP_NAMES[dup],
        "duplicates_delivered",
        c.duplicates_delivered,
    )
}

/// What only the observer knows (a dropped ack, a delivery of work
/// already done); a handler's own skips are counted in the service panel,
/// where they happen.
fn observed(t: &Theme, f: &Frame, dup: usize) -> [(String, bool); 2] {
    [
        counter(t, f, words::ACKS_LOST, "acks_lost", f.counters.acks_lost),
        dup_counter(t, f, dup),
    ]
}

/// The observer group's heading.
fn heading(t: &Theme) -> String {
    format!("{} only you see:", t.g.observer)
}

/// The first line of the queue entry for message `id`, which predict mode
/// marks when a question was about that message: the entries come first,
/// one after another, before the counters.
pub fn message_line(t: &Theme, f: &Frame, width: usize, id: &str) -> Option<usize> {
    let mut at = 0;
    for m in &f.queue.messages {
        if m.message_id == id || m.broker_id == id {
            return Some(at);
        }
        at += message(t, f, m, width, &mut marks::Shortened::default()).len();
    }
    None
}

/// What each of the panel's lines holds as evidence, line for line with
/// `lines`: a queue entry's first line, its ID, state and any body shown
/// (`entry`); None for every other line.
pub fn evidence(t: &Theme, f: &Frame, width: usize) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for m in &f.queue.messages {
        let n = message(t, f, m, width, &mut marks::Shortened::default()).len();
        out.push(Some(entry(t, f, m, width).essential.to_string()));
        out.extend(std::iter::repeat_n(None, n - 1));
    }
    out
}

/// The queue's entries, then the broker's counters and the observer's,
/// named and grouped as `form` says.
fn with_counters(
    t: &Theme,
    f: &Frame,
    form: &Form,
    width: usize,
    height: usize,
    mut out: Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    let counters = flow(t, &counters(t, f), width);
    // What only the observer knows is kept apart and marked as such.
    let label = heading(t);
    let observed = observed(t, f, form.dup);
    let observer = t.dim().add_modifier(ratatui::style::Modifier::ITALIC);
    let apart: Vec<Line<'static>> = match form.group {
        Group::OneLine => {
            // The label leads its counts; the run chose this form only
            // where the counts fit beside it at every step.
            let mut seen = flow(
                t,
                &observed,
                width.saturating_sub(label.chars().count() + 1),
            );
            let mut line = seen.remove(0);
            line.spans.insert(0, Span::raw(format!("{label} ")));
            let mut apart = vec![line.style(observer)];
            apart.extend(seen.into_iter().map(|l| l.style(observer)));
            apart
        }
        Group::Headed => std::iter::once(Line::styled(label, observer))
            .chain(
                flow(t, &observed, width)
                    .into_iter()
                    .map(|l| l.style(observer)),
            )
            .collect(),
        // Short of rows at some step of the run: the label gives up its
        // own line at every step, and each line keeps its ◇.
        Group::Marked => flow(t, &observed, width.saturating_sub(2))
            .into_iter()
            .map(|mut l| {
                l.spans.insert(0, Span::raw(format!("{} ", t.g.observer)));
                l.style(observer)
            })
            .collect(),
    };
    let wanted = out.len() + counters.len() + apart.len();
    if wanted < height {
        // The counters sit at the bottom of the panel when there is room,
        // like a status line of the broker.
        out.extend(std::iter::repeat_n(Line::raw(""), height - wanted));
    } else if wanted > height {
        // Short of rows even so: the lines this step changed come first,
        // so the rows the panel cannot show are unchanged ones, counted.
        let moved = |l: &Line| l.spans.iter().any(|s| s.style == t.change());
        let (mut first, mut then): (Vec<_>, Vec<_>) = counters.into_iter().partition(moved);
        let (seen_moved, seen_not): (Vec<_>, Vec<_>) = apart.into_iter().partition(moved);
        first.extend(seen_moved);
        then.extend(seen_not);
        first.extend(then);
        out.extend(first);
        return fold_whole_lines(t, out, width, height);
    }
    out.extend(counters);
    out.extend(apart);
    out
}

/// `lines` kept to `height` rows by whole lines: where some do not fit,
/// the last row is the count of the lines left out and nothing else.
/// Drawn over the last line kept, the sign took its end, and a counter
/// read `◇ acks lost  …1 more`, its label without its figure (teacher
/// trial). `height` 0: the panel grows to fit (compare), nothing folds.
fn fold_whole_lines(
    t: &Theme,
    mut lines: Vec<Line<'static>>,
    width: usize,
    height: usize,
) -> Vec<Line<'static>> {
    if height == 0 || lines.len() <= height {
        return lines;
    }
    let keep = height - 1;
    let hidden = u16::try_from(lines.len() - keep).unwrap_or(u16::MAX);
    lines.truncate(keep);
    let (long, short) = super::overflow::signs(t, hidden);
    let sign = if long.chars().count() <= width {
        long
    } else {
        short
    };
    lines.push(Line::styled(sign.trim_start().to_string(), t.key()));
    lines
}

fn message(
    t: &Theme,
    f: &Frame,
    m: &MessageView,
    width: usize,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let parts = entry(t, f, m, width);
    let change = f.changes.of(Place::Queue, &m.broker_id);
    lines.push(marks::fit_parts(t, parts, Vec::new(), change, width).noted(short));
    let mut notes = Vec::new();
    if m.receives > 1 {
        // The count in words where the panel has room: `×2` alone is terse.
        // In words at every width: `×2 redelivered` would read as two
        // redeliveries.
        let count = format!("{} deliveries", m.receives);
        notes.push(Span::styled(count, t.warn()));
    }
    // A count of deliveries above one says the message was redelivered:
    // where the row has no room for both, the flag's word goes rather
    // than take a row of its own from the counters below.
    let both = "  N deliveries, redelivered".len() + m.receives.to_string().len() - 1;
    if m.redelivered && (m.receives <= 1 || both <= width) {
        notes.push(Span::styled("redelivered".to_string(), t.warn()));
    }
    if m.copy > 1 {
        // Folded to a shorter whole word where the row has no room (at
        // 80x24 the panel is 20 cells): never `(republish…`.
        let full = format!("copy {} (republished)", m.copy);
        let words = if full.len() + 2 <= width {
            full
        } else {
            format!("copy {} (repub.)", m.copy)
        };
        notes.push(Span::styled(words, t.warn()));
    }
    lines.extend(notes_lines(notes, width));
    if let Some(left) = m.lease_left_ms {
        lines.push(lease(t, left, f.queue.lease_ms, width));
    }
    lines
}

/// A queue entry's notes (`2 deliveries, redelivered`) under it, each
/// note whole: where the row is too narrow for them all, they wrap at a
/// note's end onto a row of their own, never cut mid-word (`redeliver…`
/// hid what the broker says). A comma ends a row that more notes follow
/// even when narrow: "2 deliveries redelivered" would read as one phrase.
fn notes_lines(notes: Vec<Span<'static>>, width: usize) -> Vec<Line<'static>> {
    const INDENT: &str = "  ";
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    let count = notes.len();
    for (i, note) in notes.into_iter().enumerate() {
        let comma = if i + 1 < count { "," } else { "" };
        let need = note.width() + comma.len();
        if !row.is_empty() && used + 1 + need > width {
            out.push(Line::from(std::mem::take(&mut row)));
        }
        if row.is_empty() {
            row.push(Span::raw(INDENT));
            used = INDENT.len();
        } else {
            row.push(Span::raw(" "));
            used += 1;
        }
        used += need;
        row.push(note);
        if !comma.is_empty() {
            row.push(Span::raw(comma));
        }
    }
    if !row.is_empty() {
        out.push(Line::from(row));
    }
    out
}

/// The first line of a queue entry in its parts. Which message it is and
/// what happened to it (its glyph, ID and state), and its body's figures
/// where the panel shows them, are the evidence: a mark folds to its sign
/// before they are cut.
pub fn entry(t: &Theme, f: &Frame, m: &MessageView, width: usize) -> marks::Parts {
    let holder = m.holder.as_deref().unwrap_or("?");
    let (glyph, states, style) = state_forms(t, m.phase, holder, width);
    let marked = f.changes.of(Place::Queue, &m.broker_id).is_some();
    let (label, state) = fitted_entry(m, f.queue.broker_ids_lead, glyph, &states, width, marked);
    let mut essential = Line::from(vec![
        Span::styled(format!("{glyph} "), style),
        Span::styled(label, t.title()),
    ]);
    if !state.is_empty() {
        essential.spans.push(Span::raw(" "));
        essential.spans.push(Span::styled(state, style));
    }
    if width >= 34 {
        // The body is figures (`$40`, `PAID v1`): where it is shown, it is
        // kept as they are, before a mark's word.
        essential
            .spans
            .push(Span::styled(format!("  {}", m.body), t.dim()));
    }
    marks::Parts {
        essential,
        rest: Line::default(),
    }
}

/// A message's state in its forms, fullest words first, with its glyph
/// and colour, for a row `width` wide: the fullest that fits beside the
/// ID and a mark's sign (` *`) is drawn, so a mark never costs the state
/// its words, and a state is never cut mid-word (`→ A l…`): past its
/// fewest words it is its glyph alone, which the legend names (`?`).
/// Shared with `idem test --replay`, whose broker panel gives the state a
/// row of its own.
pub(crate) fn state_forms(
    t: &Theme,
    phase: MessagePhase,
    holder: &str,
    width: usize,
) -> (&'static str, Vec<String>, ratatui::style::Style) {
    let g = &t.g;
    match phase {
        MessagePhase::Waiting => (g.pending, vec!["waiting".to_string()], t.info()),
        MessagePhase::InFlight if width < 26 => (
            g.next,
            vec![
                format!("{} {holder} leased", g.arrow),
                format!("{} {holder}", g.arrow),
            ],
            t.warn(),
        ),
        MessagePhase::InFlight => (
            g.next,
            vec![
                format!("in flight {} {holder}", g.arrow),
                format!("{} {holder} leased", g.arrow),
                format!("{} {holder}", g.arrow),
            ],
            t.warn(),
        ),
        MessagePhase::Acked if width >= 28 => (
            g.done,
            // Who acked gives way before the ack does: `removed` alone
            // does not say the broker got one.
            vec![
                format!("acked by {holder}, removed"),
                "acked, removed".to_string(),
                "removed".to_string(),
            ],
            t.good(),
        ),
        // The counters say an ack arrived; the entry says it is gone.
        MessagePhase::Acked => (
            g.done,
            vec!["acked, removed".to_string(), "removed".to_string()],
            t.good(),
        ),
        MessagePhase::DeadLettered => (
            g.failed,
            vec!["dead-lettered".to_string(), "in DLQ".to_string()],
            t.bad(),
        ),
    }
}

/// The ID and state a queue entry's first row shows within `width`, with
/// room kept for a mark's sign (` *`) where the step `marked` it: the fullest that fits whole, from
/// the whole ID (`b-1 (m-7f3)`) with each of the state's forms, then the
/// glyph alone for the state, then the broker's own ID alone (true: it is
/// the ID the broker stored the message under). Which message it is comes
/// before the words for a state its glyph already shows; nothing is cut.
fn fitted_entry(
    m: &MessageView,
    broker_ids_lead: bool,
    glyph: &str,
    states: &[String],
    width: usize,
    marked: bool,
) -> (String, String) {
    let sign = if marked { 2 } else { 0 };
    let mut labels = vec![m.label(broker_ids_lead)];
    if broker_ids_lead {
        labels.push(m.broker_id.clone());
    }
    let lead = glyph.chars().count() + 1;
    let forms = labels.iter().flat_map(|label| {
        states
            .iter()
            .map(String::as_str)
            .chain([""])
            .map(move |state| (label, state))
    });
    let wide = |(label, state): &(&String, &str)| {
        let state_w = match state.chars().count() {
            0 => 0,
            n => n + 1,
        };
        lead + label.chars().count() + state_w + sign
    };
    let mut last = None;
    for form in forms {
        if wide(&form) <= width {
            return (form.0.clone(), form.1.to_string());
        }
        last = Some(form);
    }
    // Nothing fits whole: the fewest form, which the row cuts after a
    // whole word (an ID is a figure: `fit_parts` never cuts into it).
    let (label, state) = last.expect("at least one form");
    (label.clone(), state.to_string())
}

/// The lease as a bar that empties as time runs out.
fn lease(t: &Theme, left: u64, total: u64, width: usize) -> Line<'static> {
    let text = format_duration(left);
    let bar_w = width.saturating_sub(10 + text.len()).clamp(3, 12);
    let full = if total == 0 {
        0
    } else {
        ((left.min(total) * bar_w as u64).div_ceil(total)) as usize
    };
    let style = if left * 4 <= total { t.bad() } else { t.warn() };
    Line::from(vec![
        Span::styled("  lease ", t.dim()),
        Span::styled(t.g.bar_full.repeat(full), style),
        Span::styled(t.g.bar_empty.repeat(bar_w - full), t.dim()),
        Span::raw(format!(" {text}")),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the panel may give the duplicate deliveries (at 80x24 a
    /// whole run reads `dup. deliv.`) is named in the help's legend, so a
    /// class can look up the short one.
    #[test]
    fn each_name_of_the_duplicate_count_is_in_the_legend() {
        let t = Theme::new(false, false);
        let legend: String = super::super::help_legend::sections(&t)
            .iter()
            .flat_map(|s| &s.lines)
            .flatten()
            .map(|s| format!("{} {}\n", s.sign, s.meaning))
            .collect();
        for name in DUP_NAMES {
            assert!(legend.contains(name), "{name:?} not in the legend");
        }
    }

    /// Predict mode marks the line the panel says a message's entry starts
    /// on: that line names the message, at every step of every run, and a
    /// message not in the queue has no line.
    #[test]
    fn a_messages_line_is_where_its_entry_starts() {
        let t = Theme::new(false, false);
        super::super::each_builtin_frame(|at_step, f| {
            let form = Form::of(&t, &[], f, 40, 12);
            let lines: Vec<String> = lines(&t, f, &form, 40, 12)
                .iter()
                .map(|l| l.to_string())
                .collect();
            for m in &f.queue.messages {
                let at = message_line(&t, f, 40, &m.message_id).unwrap();
                // Two copies may share an ID: the line is the first one's.
                let shown = f
                    .queue
                    .messages
                    .iter()
                    .find(|o| o.message_id == m.message_id || o.broker_id == m.message_id)
                    .unwrap();
                assert!(
                    lines[at].contains(&shown.message_id) || lines[at].contains(&shown.broker_id),
                    "{at_step}: line {at} is {:?}",
                    lines[at]
                );
            }
            assert_eq!(message_line(&t, f, 40, "no-such-message"), None);
        });
    }
}
