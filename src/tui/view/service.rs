//! The Payments service: each consumer with its handler program, a mark on
//! every step it has run, and the step it runs next.

use super::marks;
use super::watch::{Head, Watch};
use crate::sim::Frame;
use crate::sim::consumer::{Mark, Status};
use crate::sim::frame::{ConsumerView, StepView};
use crate::sim::step_name;
use crate::tui::theme::Theme;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// After a consumer's name while it holds a database transaction open
/// (its rows not committed yet): in full, and where the line is narrow.
pub(super) const TXN_OPEN: (&str, &str) = (" [txn open]", " [txn]");

/// The end of a provider call's label when the call carries an
/// Idempotency-Key (`Op::label`): kept whole when the label is cut.
pub(super) const KEY_TAG: &str = " (key)";

/// The panel's lines for `f`, `width` x `height`; `watch` says which
/// consumers keep their full list when not all of them fit.
pub fn lines(
    t: &Theme,
    f: &Frame,
    watch: &Watch,
    width: usize,
    height: usize,
) -> Vec<Line<'static>> {
    lines_noting(t, f, watch, width, height, &mut marks::Shortened::default())
}

/// As `lines`, the meanings of the marks its rows drew short added to
/// `short`, for the panel's border to name.
pub fn lines_noting(
    t: &Theme,
    f: &Frame,
    watch: &Watch,
    width: usize,
    height: usize,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let footer = skips(t, f, width);
    let rows = height.saturating_sub(footer.len());
    let mut out = programs(t, f, watch, (width, rows), short);
    let gap = height.saturating_sub(out.len() + footer.len());
    if !footer.is_empty() {
        out.extend(std::iter::repeat_n(Line::raw(""), gap));
    }
    out.extend(footer);
    out
}

/// The panel's last rows, once a handler has skipped anything: the
/// handlers' own count of the messages they skipped because the key was
/// already recorded (a consumer knows it, the broker does not), and,
/// under the observer's mark, how many of those were no duplicate at all
/// but a new payment whose key collided. A skip of a real duplicate adds
/// no observer row: nothing the handler believed was untrue.
fn skips(t: &Theme, f: &Frame, width: usize) -> Vec<Line<'static>> {
    let c = &f.counters;
    let skipped = c.duplicates_skipped;
    if skipped == 0 {
        return Vec::new();
    }
    let moved = |name: &str, now: u32| {
        f.changes
            .counter_was(name)
            .map(|was| format!(" ({}{})", t.g.added, now.saturating_sub(was)))
    };
    // The figure and its mark stay whole: the words give way.
    let fit = |words: &[String], figure: u32, mark: &Option<String>| {
        let mark_w = mark.as_ref().map_or(0, |m| m.chars().count());
        let figure_w = figure.to_string().len();
        words
            .iter()
            .find(|w| w.chars().count() + 1 + figure_w + mark_w <= width)
            .or(words.last())
            .cloned()
            .unwrap_or_default()
    };
    let own_mark = moved("duplicates_skipped", skipped);
    let own_words = fit(
        &[
            crate::sim::counter_words::SKIPPED_KEY_TAKEN.to_string(),
            "skipped".to_string(),
        ],
        skipped,
        &own_mark,
    );
    let mut own = vec![Span::styled(format!("{own_words} {skipped}"), t.dim())];
    if let Some(m) = own_mark {
        own.push(Span::styled(m, t.change()));
    }
    let new = c.skipped_not_duplicates;
    if new == 0 {
        return vec![Line::from(own)];
    }
    let observer = t.dim().add_modifier(Modifier::ITALIC);
    let o = t.g.observer;
    let new_mark = moved("skipped_not_duplicates", new);
    // `◇ 1 not a duplicate`: the figure after the mark, the words after
    // the figure, so the fitting keeps the figure and cuts the words.
    let tails: [&str; 3] = if new == 1 {
        [
            " of them not a duplicate",
            " not a duplicate",
            " not a dup.",
        ]
    } else {
        [" of them not duplicates", " not duplicates", " not dups"]
    };
    let width_of = |spans: &[Span]| spans.iter().map(|s| s.width()).sum::<usize>();
    let mark_w = new_mark.as_ref().map_or(0, |m| m.chars().count());
    let theirs = |room: usize| -> Vec<Span<'static>> {
        let head = format!("{o} {new}");
        let tail = tails
            .iter()
            .find(|w| head.chars().count() + w.chars().count() + mark_w <= room)
            .copied()
            .unwrap_or("");
        let mut spans = vec![Span::styled(format!("{head}{tail}"), observer)];
        if let Some(m) = &new_mark {
            spans.push(Span::styled(m.clone(), t.change()));
        }
        spans
    };
    // Beside the handler's count when both fit whole, else on the row below.
    let sep = " · ";
    let beside = theirs(width.saturating_sub(width_of(&own) + sep.len()));
    if beside[0].content.contains(tails[1].trim_start())
        && width_of(&own) + sep.len() + width_of(&beside) <= width
    {
        own.push(Span::styled(sep, t.dim()));
        own.extend(beside);
        return vec![Line::from(own)];
    }
    vec![Line::from(own), Line::from(theirs(width))]
}

fn programs(
    t: &Theme,
    f: &Frame,
    watch: &Watch,
    (width, height): (usize, usize),
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let none = vec![false; f.consumers.len()];
    let mut named = short.clone();
    let (lines, spilled) = programs_with(t, f, watch, (width, height), &mut named, &none);
    // The bottom border holds what the rows drew short in its strokes
    // (`mark_legend::on_border`: all but a corner and a stroke each side).
    let border = width.saturating_sub(2);
    if named.fits(border) || !spilled.contains(&true) {
        *short = named;
        return lines;
    }
    // The border cannot name every glyph a strip's row had no room for
    // (at 80x24, `◀ this step` beside race-rollback's `· later` or
    // in-progress's `⊘ not owner`): each such strip takes a row of its
    // own under it for those words, the other lists giving up a row,
    // where the panel still holds every head that way.
    let mut again = short.clone();
    let (rows, _) = programs_with(t, f, watch, (width, height), &mut again, &spilled);
    if rows.len() <= height && again.fits(border) {
        *short = again;
        return rows;
    }
    *short = named;
    lines
}

/// `programs`, a strip whose `legend_row` is set naming on a row under
/// it the glyphs its own row has no room for. Returns the rows, and for
/// each consumer whether its strip left words to the border.
fn programs_with(
    t: &Theme,
    f: &Frame,
    watch: &Watch,
    (width, height): (usize, usize),
    short: &mut marks::Shortened,
    legend_row: &[bool],
) -> (Vec<Line<'static>>, Vec<bool>) {
    let ran = |c: &ConsumerView| f.changes.step_of(&c.name);
    let full_len = |c: &ConsumerView| 1 + c.steps.len() + 2 * c.armed.len();
    // A consumer that has run nothing folds to its head line alone: its
    // list of steps not run yet tells nothing.
    let blank = |c: &ConsumerView| c.next.is_none() && c.steps.iter().all(|s| s.mark == Mark::Todo);
    let compact_len = |i: usize| {
        let c = &f.consumers[i];
        let rows = if blank(c) {
            1
        } else {
            2 + usize::from(focus(c, ran(c)).is_some()) + usize::from(legend_row[i])
        };
        rows + 2 * c.armed.len()
    };
    let n = f.consumers.len();
    // Consumers give up their full step list one at a time until the panel
    // fits: first the ones the class is not watching (the step is not
    // about them and they do not act next), idle before busy, the last
    // before the first. A list that fits is never folded into a strip.
    let mut compact = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        let c = &f.consumers[i];
        (
            watch.rank(&c.name),
            c.status != Status::Idle,
            std::cmp::Reverse(i),
        )
    });
    let total = |compact: &[bool]| -> usize {
        f.consumers
            .iter()
            .zip(compact)
            .enumerate()
            .map(|(i, (c, &k))| if k { compact_len(i) } else { full_len(c) })
            .sum()
    };
    for i in order {
        if total(&compact) <= height {
            break;
        }
        compact[i] = true;
    }
    // A folded list the panel still has rows for shows a window of its
    // steps around the one that matters now, the rest counted, rather than
    // a strip beside empty rows. The watched consumer gets the rows first.
    let mut window: Vec<Option<usize>> = vec![None; n];
    let mut strip_only = vec![false; n];
    let mut spare = height.saturating_sub(total(&compact));
    let mut watched: Vec<usize> = (0..n).collect();
    watched.sort_by_key(|&i| (std::cmp::Reverse(watch.rank(&f.consumers[i].name)), i));
    for i in watched {
        let c = &f.consumers[i];
        if !compact[i] || blank(c) {
            continue;
        }
        let strip = compact_len(i) - 1 - 2 * c.armed.len();
        let mut rows = strip + spare;
        let mut taken = Vec::new();
        // An idle consumer the step is less about gives up the row that
        // names its step (its strip keeps the step's word) before this
        // one's list hides its evidence: the skips after a duplicate.
        for (j, o) in f.consumers.iter().enumerate() {
            if rows >= c.steps.len() {
                break;
            }
            if j != i
                && compact[j]
                && !strip_only[j]
                && window[j].is_none()
                && o.status == Status::Idle
                && watch.rank(&o.name) < watch.rank(&c.name)
                && !blank(o)
                && focus(o, ran(o)).is_some()
            {
                strip_only[j] = true;
                taken.push(j);
                rows += 1;
            }
        }
        if rows < 4 && rows < c.steps.len() {
            // Too few still for a window: the rows go back.
            for j in taken {
                strip_only[j] = false;
            }
            rows = strip + spare;
        }
        if rows >= c.steps.len() {
            compact[i] = false;
            spare = rows - c.steps.len();
        } else if rows >= 4 {
            window[i] = Some(rows);
            spare = 0;
        }
    }
    // Blank rows between consumers only where every row above is placed
    // and they still fit: a window counts its own rows, not its strip's.
    let used: usize = f
        .consumers
        .iter()
        .enumerate()
        .map(|(i, c)| match window[i] {
            Some(rows) => 1 + rows + 2 * c.armed.len(),
            None if compact[i] => compact_len(i) - usize::from(strip_only[i]),
            None => full_len(c),
        })
        .sum();
    let gaps = used + n.saturating_sub(1) <= height;
    let mut out = Vec::new();
    // A strip's words its row has no room for: the border names them
    // after every short mark's (a `◀` stands alone in a row; a strip's
    // `✓` sits among glyphs that read as progress).
    let mut strip_rest = marks::Shortened::default();
    let mut spilled = vec![false; n];
    for (i, c) in f.consumers.iter().enumerate() {
        if i > 0 && gaps {
            out.push(Line::raw(""));
        }
        out.push(head(t, c, watch, width));
        if compact[i] && blank(c) {
            // The head says "idle"; nothing else to show.
        } else if let Some(rows) = window[i] {
            out.extend(windowed_steps(t, c, ran(c), (rows, width), short));
        } else if compact[i] {
            let legend = legend_row[i];
            let (mut rows, spill) =
                compact_steps(t, c, ran(c), width, legend, (short, &mut strip_rest));
            spilled[i] = spill;
            rows.truncate(usize::from(legend) + if strip_only[i] { 1 } else { 2 });
            out.extend(rows);
        } else {
            for (k, s) in c.steps.iter().enumerate() {
                out.push(step(t, c, k, s, ran(c), width).noted(short));
            }
        }
        for a in &c.armed {
            out.extend(armed(t, a, width));
        }
    }
    short.extend(strip_rest.into_spans());
    (out, spilled)
}

/// A fault waiting to happen to this consumer, wrapped onto a second line
/// rather than cut: it is the one line that says what comes next. The
/// observer armed it and only the observer knows: the consumer cannot, so
/// the line carries the observer's mark.
fn armed(t: &Theme, what: &str, width: usize) -> Vec<Line<'static>> {
    let text = format!(" {} {} armed: {what}", t.g.observer, t.g.warning);
    if text.chars().count() <= width {
        return vec![Line::styled(text, t.warn())];
    }
    let cut = text
        .char_indices()
        .filter(|&(i, c)| c == ' ' && i <= width)
        .map(|(i, _)| i)
        .next_back()
        .unwrap_or(width.min(text.len()));
    let (first, rest) = text.split_at(cut);
    vec![
        Line::styled(first.to_string(), t.warn()),
        Line::styled(format!("   {}", rest.trim_start()), t.warn()),
    ]
}

/// A heading's state words and their style, as wide as `width` allows.
fn head_state(t: &Theme, msg: &str, status: &Status, width: usize) -> (String, Style) {
    match status {
        Status::Idle => ("idle".to_string(), t.dim()),
        Status::Handling => (format!("handling {msg}"), t.info()),
        Status::Blocked { by } if width >= 34 => {
            (format!("{msg}: waits for {by}'s lock"), t.warn())
        }
        Status::Blocked { by } => (format!("waits for {by}'s lock"), t.warn()),
        Status::AwaitingKey { by } if width >= 40 => {
            (format!("{msg}: 409, waits for {by}'s answer"), t.warn())
        }
        Status::AwaitingKey { by } => (format!("409: waits for {by}"), t.warn()),
        Status::Crashed => (format!("{} crashed", t.g.crashed), t.bad()),
    }
}

/// A heading's length in its full form (`consumer A handling m-7f3 [txn open]`).
fn full_head_len(t: &Theme, head: &Head, width: usize) -> usize {
    let msg = head.message.clone().unwrap_or_default();
    let (state, _) = head_state(t, &msg, &head.status, width);
    let txn = if head.in_txn { TXN_OPEN.0 } else { "" };
    format!("consumer {} {state}{txn}", head.name)
        .chars()
        .count()
}

/// The heading's form is chosen once for the run at this width: the full
/// one (`consumer A …`, ` [txn open]`) only if the longest heading the
/// run draws fits; else the short one (`A: …`, ` [txn]`) at every step.
/// A screen with no run behind it (`watch.heads` empty) sizes for its own.
fn head(t: &Theme, c: &ConsumerView, watch: &Watch, width: usize) -> Line<'static> {
    let msg = c.message.clone().unwrap_or_default();
    let (state, style) = head_state(t, &msg, &c.status, width);
    let own = Head {
        name: c.name.clone(),
        status: c.status.clone(),
        message: c.message.clone(),
        in_txn: c.in_txn,
    };
    let heads: Vec<&Head> = watch.heads.iter().chain(std::iter::once(&own)).collect();
    // The full form where every heading fits it; the short one always does.
    let wide = super::run_form::widest([true, false], &heads, |wide, h| {
        !wide || full_head_len(t, h, width) <= width
    })
    .unwrap_or(false);
    let who = if wide {
        format!("consumer {}", c.name)
    } else {
        format!("{}:", c.name)
    };
    let mut spans = vec![
        Span::styled(who, t.title()),
        Span::raw(" "),
        Span::styled(state, style),
    ];
    if c.in_txn {
        spans.push(Span::styled(
            if wide { TXN_OPEN.0 } else { TXN_OPEN.1 },
            t.warn(),
        ));
    }
    Line::from(spans)
}

/// The glyph, the words and the style for a step's mark. Words go with every
/// mark but done and to-do, so nothing depends on colour or symbol alone.
pub fn mark(t: &Theme, m: Mark) -> (&'static str, &'static str, Style) {
    let g = &t.g;
    match m {
        Mark::Todo => (" ", "", t.dim()),
        Mark::Done => (g.done, "", t.good()),
        Mark::Failed => (g.failed, "failed", t.bad()),
        // The charge may well have gone through: what A knows is that no
        // answer came, and tour 4 exists to keep the two apart.
        Mark::Lost => (g.failed, "lost", t.bad()),
        // What the check found, not "duplicate": a genuine second
        // payment whose key collides is turned away the same way, and
        // only the observer can tell the two apart. A step says what its
        // own check found (`step_mark`); this is the unique key's word.
        Mark::Conflict => (g.conflict, step_name::FOUND_KEY, t.warn()),
        Mark::Skipped => (g.skipped, "skipped", t.dim()),
        Mark::Superseded => (g.superseded, "not owner", t.warn()),
        // A lock wait alone is `‖ blocked`; a wait for the provider's
        // answer and a back-off are not locks, and say so.
        Mark::Waiting => (g.waiting, "blocked", t.warn()),
        Mark::AwaitsAnswer => (g.awaiting, "awaits answer", t.warn()),
        // A 409 is the provider turning a concurrent repeat away, not a
        // failed payment: the handler waits and calls again.
        Mark::Refused => (g.refused, "409 in progress", t.warn()),
        Mark::BackedOff => (g.backed_off, "backed off", t.warn()),
        // The mark sits on the step the crash came before: the consumer
        // line says it crashed; the step itself never ran.
        Mark::Crashed => (g.crashed, "never ran", t.bad()),
        // The request was out when the process died; the provider answers
        // into a closed connection, so the step is the answer not received.
        Mark::CrashedAwaiting => (g.crashed, "never received", t.bad()),
        // The consumer was told OK: done from where it stands; the word
        // is what only the observer knows, under the observer's mark.
        Mark::Ignored => (
            g.done,
            if t.ascii() {
                "^ ignored"
            } else {
                "◇ ignored"
            },
            t.warn(),
        ),
        // A sent its ack: done from where it stands, the tick its own
        // view; that the network dropped it is the observer's fact, under
        // the observer's mark, at the step it happened.
        Mark::AckLost => (
            g.done,
            if t.ascii() {
                "^ never arrived"
            } else {
                "◇ never arrived"
            },
            t.warn(),
        ),
    }
}

/// A step's mark as `mark` gives it, the `≠` word being what this step's
/// own check found (`ID found` on a lookup, `not newer` on an offset).
fn step_mark(t: &Theme, s: &StepView) -> (&'static str, &'static str, Style) {
    let (glyph, word, style) = mark(t, s.mark);
    if s.mark == Mark::Conflict {
        (glyph, step_name::found(&s.keyword), style)
    } else {
        (glyph, word, style)
    }
}

/// The cells of a step's label kept beside its mark's word: its shortest
/// cut, which breaks no word (`insert…  key taken`, not `…  key taken`;
/// `acknowledge  ◇ lost`, not `acknow…  ◇ never arrived`).
fn word_keeps(t: &Theme, s: &StepView) -> usize {
    cuts(t, s)
        .last()
        .map_or(s.label.as_str(), String::as_str)
        .chars()
        .count()
}

/// Words of a step's name that lead into the next: a cut that ends on
/// one reads as a name broken off (teacher trial 21, `charge the…
/// (key)`), so no cut ends there.
const LEADING: [&str; 4] = ["the", "in", "to", "if"];

/// A step's label cut at its words' ends, longest first, never on a word
/// that leads into the next (`charge the…`). A step with a short name
/// goes by it where its name does not fit whole, `(key)` kept at the end
/// of a keyed call (`charge (key)`, not `charge… (key)`, read as a word
/// cut off; `response  lost`, not `provider… lost`, which reads as the
/// provider lost: teacher trial 21). Teacher
/// trial (issue 18): `charge the ca… (key)` broke a word. None for a
/// name of one word: it is cut by no rule of its own.
fn cuts(t: &Theme, s: &StepView) -> Vec<String> {
    let tag = if s.keyed { KEY_TAG } else { "" };
    if let Some(short) = s.short {
        return vec![format!("{short}{tag}")];
    }
    let words: Vec<&str> = s.name.split(' ').collect();
    (1..words.len())
        .rev()
        .filter(|&k| !LEADING.contains(&words[k - 1]))
        .map(|k| format!("{}{}{tag}", words[..k].join(" "), t.g.ellipsis))
        .collect()
}

/// One step of a program. The step that just ran is the emphasised one
/// (reversed, and pointed at with words); the next one is marked, quietly.
fn step(
    t: &Theme,
    c: &ConsumerView,
    k: usize,
    s: &StepView,
    ran: Option<usize>,
    width: usize,
) -> marks::Fitted {
    let (glyph, word, style) = step_mark(t, s);
    let is_next = c.next == Some(k);
    let just_ran = ran == Some(k);
    let glyph = if is_next && s.mark == Mark::Todo {
        t.g.upcoming
    } else {
        glyph
    };
    let label_style = if just_ran {
        t.title().patch(t.highlight())
    } else if s.mark == Mark::Todo {
        t.dim()
    } else {
        Style::new()
    };
    // A call whose answer was lost is made again: the step ran once
    // already, and its response is marked failed just below it.
    let again = is_next
        && c.steps
            .get(k + 1)
            .is_some_and(|n| matches!(n.mark, Mark::Failed | Mark::Lost | Mark::Refused));
    let pointer = if just_ran {
        Some(
            marks::Mark::new(
                Span::styled(format!("  {} this step", t.g.ran), t.change()),
                Span::styled(format!(" {}", t.g.ran), t.change()),
            )
            .meaning(Span::styled(format!("{} this step", t.g.ran), t.change())),
        )
    } else if again {
        Some(marks::Mark::new(
            Span::styled("  next: again", t.dim()),
            Span::styled("  again", t.dim()),
        ))
    } else if is_next {
        // The glyph `▷` says it too: the word goes first.
        Some(marks::Mark::new(
            Span::styled("  next", t.dim()),
            Span::raw(""),
        ))
    } else {
        None
    };
    // The step pointed at is the one a reader looks for: its name, whole,
    // is the evidence (`charge the card (key)`: the call carried the key),
    // so its pointer's word folds to a sign before the name is cut.
    // Where even the pointer's sign leaves no room for the whole name,
    // the row goes by its short name (`record  backed off  ◀ this step`
    // in in-progress at 100x30): a pointer whose sign needs the border
    // to say it (`◀`) folds for that, not for the whole name it could
    // not make room for. One that says itself short (`  again`) folds as
    // before: `charge (key)  again`, not `charge (key) next: again`.
    let pointer = pointer.map(|p| {
        let tag = if s.keyed { KEY_TAG } else { "" };
        let beside = if word.is_empty() {
            0
        } else {
            word.chars().count() + 2
        } + if s.retry > 0 {
            format!("  retry {}", s.retry).chars().count()
        } else {
            0
        };
        let name_fits = 3 + s.label.chars().count() + beside + p.short.width() <= width;
        let keeps = match s.short {
            Some(short) if !name_fits && p.means.is_some() => {
                format!("{short}{tag}").chars().count()
            }
            _ => s.label.chars().count(),
        };
        marks::Mark { keeps, ..p }
    });
    let text = Line::from(vec![
        Span::styled(format!(" {glyph} "), if is_next { t.info() } else { style }),
        Span::styled(s.label.clone(), label_style),
    ]);
    // The marks are fitted by the panels' one rule (`marks::fit_marked`):
    // the label gives way first, to a recognisable start, then the pointer
    // shortens to its sign; the word holds out longer, until the label is
    // down to its first word (`word_keeps`), and only then goes, the glyph
    // at the row's start still saying it: the step's name is never cut
    // away, nor a word of it broken.
    let mut kept = Vec::new();
    if !word.is_empty() {
        // A hit on the unique key names the pattern's key step (`insert
        // message ID`): its name stays whole and `key taken` folds first,
        // the `≠` at the row's start still saying it.
        // Every other word gives way to the name's shortest whole cut, or
        // its short name (`response  never received`), its glyph still
        // saying it.
        let keeps = match s.mark {
            Mark::Conflict => s.label.chars().count(),
            _ => word_keeps(t, s),
        };
        // A word that alone tells what happened (teacher trials 6 and 8:
        // `409 in progress`, where the glyph reads as a failure; the lost
        // ack's word, the only place the step tells it) folds to fewer
        // words short of room, never to none, and the step's name is not
        // broken for it (`provid…`). At 80x24 the panel holds `response
        // 409 in progress` with the word drawn tight (one space before it).
        let short = match s.mark {
            Mark::AckLost => Span::styled(format!("  {} lost", t.g.observer), style),
            Mark::Refused => Span::styled("  409", style),
            _ => Span::raw(""),
        };
        kept.push(marks::Mark {
            whole: Span::styled(format!("  {word}"), style),
            short,
            keeps,
            means: None,
        });
    }
    if s.retry > 0 {
        // The call was made again after its answer was lost (or refused
        // with 409): with the failed mark of the attempt before gone, only
        // this says the step is a retry, not a first call.
        kept.push(marks::Mark {
            whole: Span::styled(format!("  retry {}", s.retry), t.warn()),
            short: Span::styled(format!("  retry {}", s.retry), t.warn()),
            keeps: word_keeps(t, s),
            means: None,
        });
    }
    kept.extend(pointer);
    let n = kept.len();
    let fitted = marks::fit_marked_after(t, text, 3, kept, width);
    marks::Fitted {
        line: whole_words(t, fitted.line, n, s, label_style),
        ..fitted
    }
}

/// A label cut by `fit_marked_after` (which keeps what it can of a name,
/// `charge the ca…`), cut again where a word ends in the cells it took,
/// `(key)` at its end: `charge… (key)`. Where not even the first word
/// fits, as the row allows (`keeps_key`). `marks` is how many marks end
/// the line.
fn whole_words(
    t: &Theme,
    mut line: Line<'static>,
    marks: usize,
    s: &StepView,
    style: Style,
) -> Line<'static> {
    let end = line.spans.len() - marks;
    if end < 2 {
        return line;
    }
    let drawn: String = line.spans[1..end]
        .iter()
        .map(|s| s.content.as_ref())
        .collect();
    if drawn == s.label {
        return line;
    }
    let cells = drawn.chars().count();
    match cuts(t, s).into_iter().find(|c| c.chars().count() <= cells) {
        Some(cut) => {
            line.spans.splice(1..end, [Span::styled(cut, style)]);
            line
        }
        None => keeps_key(t, line, marks, s, style),
    }
}

/// A call's label cut by `fit_marked_after`, cut again in its middle so
/// its end, `(key)` (whether the call carried the Idempotency-Key), stays:
/// `charge… (key)`, not `charge the card (…`, where a start of the name
/// still fits beside it. `marks` is how many marks end the line.
fn keeps_key(
    t: &Theme,
    mut line: Line<'static>,
    marks: usize,
    s: &StepView,
    style: Style,
) -> Line<'static> {
    const KEY: &str = KEY_TAG;
    let end = line.spans.len() - marks;
    if !s.keyed || end < 2 {
        return line;
    }
    let drawn: String = line.spans[1..end]
        .iter()
        .map(|s| s.content.as_ref())
        .collect();
    let cells = drawn.chars().count();
    let ell = t.g.ellipsis.chars().count();
    // A start of three cells at least, or the name is gone for its end.
    if drawn == s.label || drawn.ends_with(KEY) || cells < 3 + ell + KEY.len() {
        return line;
    }
    let head: String = s.name.chars().take(cells - KEY.len() - ell).collect();
    let head = head.trim_end();
    let cut = Span::styled(format!("{head}{}{KEY}", t.g.ellipsis), style);
    line.spans.splice(1..end, [cut]);
    line
}

/// The step a folded consumer names under its strip: the one it ran, or
/// runs next; for a finished consumer, the step that tells its story (the
/// key taken, the failure, the crash, the ack the broker ignored)
/// before a mere skip. None when every step simply went well.
fn focus(c: &ConsumerView, ran: Option<usize>) -> Option<usize> {
    let marked = |wanted: &[Mark]| c.steps.iter().rposition(|s| wanted.contains(&s.mark));
    ran.or(c.next)
        .filter(|&k| k < c.steps.len())
        .or_else(|| {
            marked(&[
                Mark::Conflict,
                Mark::Superseded,
                Mark::Failed,
                Mark::Lost,
                Mark::Crashed,
                Mark::CrashedAwaiting,
                Mark::Ignored,
                Mark::AckLost,
            ])
        })
        .or_else(|| {
            marked(&[
                Mark::Skipped,
                Mark::Waiting,
                Mark::AwaitsAnswer,
                Mark::Refused,
                Mark::BackedOff,
            ])
        })
}

/// `rows` rows of a list too long for them: the steps around the one that
/// matters now (one before it for context), and a row saying how many
/// steps each side hides.
fn windowed_steps(
    t: &Theme,
    c: &ConsumerView,
    ran: Option<usize>,
    (rows, width): (usize, usize),
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let total = c.steps.len();
    let at = focus(c, ran).unwrap_or(0);
    let place = |shown: usize| {
        let start = at.saturating_sub(1).min(total - shown);
        (start, start + shown)
    };
    let (mut start, mut end) = place(rows - 1);
    if start > 0 && end < total {
        (start, end) = place(rows - 2);
    }
    // The steps a duplicate made the handler skip are its evidence: where
    // the window cannot hold them and the step before, the step before
    // goes (it is counted above).
    // The commit a skip path runs first, where the skipped steps lie past
    // it (a design with two transactions), is counted among them: else
    // the window stops at it and hides the skip.
    let skips = c.steps[at + 1..]
        .iter()
        .enumerate()
        .take_while(|(k, s)| s.mark == Mark::Skipped || c.next == Some(at + 1 + k))
        .count();
    let skips = if c.steps[at + 1..at + 1 + skips]
        .iter()
        .any(|s| s.mark == Mark::Skipped)
    {
        skips
    } else {
        0
    };
    if start > 0 && start < at && end < at + 1 + skips && end < total {
        let shown = end - start;
        start = at;
        end = (at + shown).min(total);
    }
    // A skip reads as one only beside the refusal it followed (`≠ insert
    // message ID  key taken`): where the window shows a skipped step and
    // counts that step away above it, the runs of skipped steps fold to a
    // row each so the refusal fits (teacher trial, tour-3 at 80x24: B's
    // `↷ charge (key)`, `↷ response` under `↑ 4 steps above`, the refused
    // insert among the four).
    let refused = c.steps[..at].iter().rposition(|s| refusal(s.mark));
    let skip_shown = c.steps[start..end].iter().any(|s| s.mark == Mark::Skipped);
    if let Some(r) = refused.filter(|&r| r < start && skip_shown)
        && let Some(out) = folded_window(t, c, (ran, at, r), (rows, width), short)
    {
        return out;
    }
    let sign = |n: usize, arrow: &str, side: &str| window_sign(t, n, arrow, side);
    let mut out = Vec::new();
    if start > 0 {
        out.push(sign(start, "↑", "above"));
    }
    for k in start..end {
        out.push(step(t, c, k, &c.steps[k], ran, width).noted(short));
    }
    if end < total {
        out.push(sign(total - end, "↓", "below"));
    }
    out
}

/// A step's mark that turns the delivery away and sends the handler down
/// its skip path (the steps after it turn skipped at once).
fn refusal(m: Mark) -> bool {
    matches!(m, Mark::Conflict | Mark::Superseded | Mark::BackedOff)
}

/// The sign row counting steps a window hides (`  ↑ 4 steps above`).
fn window_sign(t: &Theme, n: usize, arrow: &str, side: &str) -> Line<'static> {
    let steps = if n == 1 { "step" } else { "steps" };
    let arrow = if t.ascii() {
        String::new()
    } else {
        format!("{arrow} ")
    };
    Line::styled(format!("  {arrow}{n} {steps} {side}"), t.key())
}

/// `windowed_steps` with each run of two or more skipped steps (not the
/// one in focus) on one row of its own (`↷ charge, response  skipped`, or
/// `↷ 3 steps skipped`), so that the window holds the refusal at `refused`
/// as well as the step at `at`: every step still shown or counted, the
/// glyph true of each step its row stands for. None where even folded the
/// two do not fit in `rows`.
fn folded_window(
    t: &Theme,
    c: &ConsumerView,
    (ran, at, refused): (Option<usize>, usize, usize),
    (rows, width): (usize, usize),
    short: &mut marks::Shortened,
) -> Option<Vec<Line<'static>>> {
    let total = c.steps.len();
    let lone = |k: usize| c.steps[k].mark != Mark::Skipped || k == at || ran == Some(k);
    // The rows the list has once folded: each a range of steps.
    let mut items: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < total {
        let mut e = k + 1;
        if !lone(k) {
            while e < total && !lone(e) {
                e += 1;
            }
        }
        items.push((k, e));
        k = e;
    }
    let item_of = |k: usize| items.iter().position(|&(a, b)| a <= k && k < b);
    let (from, to) = (item_of(refused)?, item_of(at)?);
    let need = |items: &[(usize, usize)], s: usize, e: usize| {
        (e - s) + usize::from(items[s].0 > 0) + usize::from(items[e - 1].1 < total)
    };
    let (mut s, mut e) = (from, to + 1);
    if need(&items, s, e) > rows {
        return None;
    }
    // The steps after the one in focus first (what comes next, or the
    // skips it leads to), then those before the refusal.
    loop {
        if e < items.len() && need(&items, s, e + 1) <= rows {
            e += 1;
        } else if s > 0 && need(&items, s - 1, e) <= rows {
            s -= 1;
        } else {
            break;
        }
    }
    // Rows still spare once the window holds all it can: a folded run
    // gives back its steps one at a time, from its first, rather than
    // leave the rows empty under it.
    while need(&items, s, e) < rows {
        let Some(i) = (s..e).find(|&i| items[i].1 - items[i].0 > 1) else {
            break;
        };
        let (a, b) = items[i];
        items[i] = (a + 1, b);
        items.insert(i, (a, a + 1));
        e += 1;
    }
    let mut out = Vec::new();
    if items[s].0 > 0 {
        out.push(window_sign(t, items[s].0, "↑", "above"));
    }
    for &(a, b) in &items[s..e] {
        if b - a == 1 {
            out.push(step(t, c, a, &c.steps[a], ran, width).noted(short));
        } else {
            out.push(skipped_run(t, &c.steps[a..b], width));
        }
    }
    let end = items[e - 1].1;
    if end < total {
        out.push(window_sign(t, total - end, "↓", "below"));
    }
    Some(out)
}

/// One row for a run of skipped steps: their short names where the row
/// holds them (`↷ charge (key), response  skipped`), else their count.
fn skipped_run(t: &Theme, steps: &[StepView], width: usize) -> Line<'static> {
    let (glyph, word, style) = mark(t, Mark::Skipped);
    let names: Vec<String> = steps
        .iter()
        .map(|s| match s.short {
            Some(short) => format!("{short}{}", if s.keyed { KEY_TAG } else { "" }),
            None => s.label.clone(),
        })
        .collect();
    let named = format!(" {glyph} {}  {word}", names.join(", "));
    let text = if named.chars().count() <= width {
        named
    } else {
        format!(" {glyph} {} steps {word}", steps.len())
    };
    Line::styled(text, style)
}

/// Two lines when the full list does not fit: every step as one glyph
/// (with the word for the step that matters now), then that step by name.
fn compact_steps(
    t: &Theme,
    c: &ConsumerView,
    ran: Option<usize>,
    width: usize,
    legend_row: bool,
    (short, strip_rest): (&mut marks::Shortened, &mut marks::Shortened),
) -> (Vec<Line<'static>>, bool) {
    // Where the strip has a row of its own for what its row cannot name,
    // those words go there, and only what that row cannot hold either
    // goes to the border.
    let mut under = marks::Shortened::default();
    let mut unnamed = |under: marks::Shortened| -> Option<Line<'static>> {
        if under.is_empty() {
            None
        } else if legend_row {
            Some(words_row(under, (width, c.steps.len() + 3), strip_rest))
        } else {
            strip_rest.extend(under.into_spans());
            None
        }
    };
    let mut glyphs = vec![Span::raw(" ")];
    let mut means = marks::Shortened::default();
    for (k, s) in c.steps.iter().enumerate() {
        let (g, word, style) = strip_mark(t, c, k, s);
        means.extend([Span::styled(format!("{g} {word}"), style)]);
        if ran == Some(k) {
            glyphs.push(Span::styled(g, style.patch(t.highlight())));
        } else {
            glyphs.push(Span::styled(g, style));
        }
    }
    let Some((k, s)) = focus(c, ran).and_then(|k| c.steps.get(k).map(|s| (k, s))) else {
        let mut glyphs = Line::from(glyphs);
        name_glyphs(&mut glyphs, c.steps.len(), means, width, &mut under);
        let spill = !under.is_empty();
        let mut rows = vec![glyphs];
        rows.extend(unnamed(under));
        return (rows, spill);
    };
    let (g, word, style) = step_mark(t, s);
    // A word of the observer's (`◇ ignored`) stays on the step's own row,
    // as the whole list has it (`✓ acknowledge  ◇ ignored`): the strip
    // draws `◇` for the step, not the row's `✓`, and names it among its
    // other glyphs.
    let word = if strip_mark(t, c, k, s).0 == g {
        word
    } else {
        ""
    };
    if !word.is_empty() {
        // The step's word with its glyph (`  ‖ blocked`): the legend's
        // entry for it, and the word for the step in hand.
        let said = format!("{g} {word}");
        glyphs.push(Span::styled(format!("  {said}"), style));
        means = marks::Shortened::from_spans(
            means.into_spans().into_iter().filter(|m| m.content != said),
        );
    }
    let mut glyphs = Line::from(glyphs);
    name_glyphs(&mut glyphs, c.steps.len(), means, width, &mut under);
    let spill = !under.is_empty();
    let mut rows = vec![glyphs];
    rows.extend(unnamed(under));
    // Wider by the word only where the word moves to the glyph row.
    let moved = if word.is_empty() {
        0
    } else {
        word.chars().count() + 2
    };
    let mut line = step(t, c, k, s, ran, width + moved).noted(short);
    // The word is on the glyph row already; keep the label whole.
    if !word.is_empty() {
        let on_strip = format!("  {word}");
        line.spans.retain(|span| span.content != on_strip.as_str());
    }
    rows.push(line);
    (rows, spill)
}

/// The row under a strip that names the glyphs its own row had no room
/// for (`  ⊘ not owner ↷ skipped`): from column `under`, where the words
/// on the strip's row start, which it goes on from; else flush right.
/// Indented always, so that no glyph stands where a step's mark would (`
/// ✓ receive`). What even this row cannot hold goes to `short`, for the
/// panel's border.
fn words_row(
    means: marks::Shortened,
    (width, under): (usize, usize),
    short: &mut marks::Shortened,
) -> Line<'static> {
    const INDENT: usize = 2;
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = INDENT;
    let mut rest = Vec::new();
    for m in means.into_spans() {
        let gap = usize::from(!spans.is_empty());
        if used + gap + m.width() <= width {
            if gap > 0 {
                spans.push(Span::raw(" "));
            }
            used += gap + m.width();
            spans.push(m);
        } else {
            rest.push(m);
        }
    }
    short.extend(rest);
    let pad = (INDENT + width - used).min(under.max(INDENT));
    spans.insert(0, Span::raw(" ".repeat(pad)));
    Line::from(spans)
}

/// A strip's cell for step `k`: its glyph, the word a legend gives it
/// (`✓ done`, `▷ next`, `· later`) and its style. A step the consumer
/// holds as done but whose ack only the observer knows went nowhere (the
/// broker ignored it, the network lost it) is the observer's `◇` here:
/// one glyph a step has no room for the consumer's `✓` beside it, and a
/// strip of ticks beside the words `◇ ignored` named a sign it did not
/// draw, and lost the ack's story once its row was folded away (teacher
/// trial, tour-3 at 80x24).
fn strip_mark(
    t: &Theme,
    c: &ConsumerView,
    k: usize,
    s: &StepView,
) -> (&'static str, &'static str, Style) {
    match s.mark {
        Mark::Todo if c.next == Some(k) => (t.g.upcoming, "next", t.info()),
        Mark::Todo => (t.g.todo, "later", t.dim()),
        Mark::Done => (t.g.done, "done", t.good()),
        Mark::Ignored | Mark::AckLost => {
            let (_, word, style) = mark(t, s.mark);
            // The word after the observer's glyph, which `mark` leads with.
            let word = word.split_once(' ').map_or(word, |(_, w)| w);
            (t.g.observer, word, style)
        }
        _ => step_mark(t, s),
    }
}

/// The words for a strip's glyphs (`✓ done ▷ next · later`) after it on
/// its own row, the glyphs' own order, each once: a strip never stands
/// bare (teacher trial: `✓✓✓✓✓▷··` and no word in sight). The ones its
/// row has no room for go to `short`, for the panel's border to name.
fn name_glyphs(
    row: &mut Line<'static>,
    steps: usize,
    means: marks::Shortened,
    width: usize,
    short: &mut marks::Shortened,
) {
    let mut used = row.width();
    let mut rest = Vec::new();
    // Two spaces after the glyphs, one after a word: a glyph parts them.
    let mut gap = if row.spans.len() > steps + 1 {
        " "
    } else {
        "  "
    };
    for m in means.into_spans() {
        // A meaning too wide for what is left of the row goes to the
        // border; a narrower one after it may still fit here.
        if used + gap.len() + m.width() <= width {
            row.spans.push(Span::raw(gap));
            used += gap.len() + m.width();
            gap = " ";
            row.spans.push(m);
        } else {
            rest.push(m);
        }
    }
    short.extend(rest);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    /// The service panel's sizes at 80x24, 100x30 and 120x40 (inside its
    /// borders), and narrower and shorter ones.
    const PANELS: [(usize, usize); 5] = [(27, 9), (34, 11), (41, 17), (24, 6), (30, 7)];

    /// Every consumer's strip (one glyph a step, when its list is folded)
    /// is whole and true at the step shown: one glyph per step of its
    /// program, each its step's mark (a step not run yet: `·`, or `▷` for
    /// the next one); the step under it is the one that ran (or runs next);
    /// and a step is pointed at as "this step" (`◀`) only for a consumer an
    /// event of this step is about, and only the step it ran.
    #[test]
    fn every_strip_is_whole_and_its_marks_true_at_the_step_shown() {
        let t = Theme::new(false, false);
        let mut strips = 0;
        // Words beside a strip that name a glyph it does not draw (`◇
        // ignored` beside `✓✓✓✓✓✓✓`), and an ack the broker ignored whose
        // `◇` a consumer's rows lost: counted over the whole walk.
        let (mut legends, mut unnamed) = (0, Vec::new());
        crate::tui::view::each_builtin_frame(|at_step, f| {
            for (w, h) in PANELS {
                let drawn = lines(&t, f, &Watch::default(), w, h);
                let text: Vec<String> = drawn.iter().map(|l| l.to_string()).collect();
                // More lines than rows would push the last ones (the
                // skipped count among them) off the panel unannounced, at
                // the sizes a class sees (the smaller ones may overflow
                // into the panel's own "more" count).
                assert!(
                    drawn.len() <= h || !PANELS[..3].contains(&(w, h)),
                    "{at_step} at {w}x{h}: {} lines\n{text:#?}",
                    drawn.len()
                );
                for c in &f.consumers {
                    let Some(at) = text.iter().position(|l| {
                        l.starts_with(&format!("consumer {} ", c.name))
                            || l.starts_with(&format!("{}: ", c.name))
                    }) else {
                        panic!("{at_step} at {w}x{h}: no line for {}\n{text:#?}", c.name);
                    };
                    let ran = f.changes.step_of(&c.name);
                    let acted = f
                        .events
                        .iter()
                        .any(|e| e.actor.label() == format!("consumer {}", c.name));
                    let own: Vec<&String> = text[at + 1..]
                        .iter()
                        .take_while(|l| {
                            !f.consumers.iter().any(|o| {
                                l.starts_with(&format!("consumer {} ", o.name))
                                    || l.starts_with(&format!("{}: ", o.name))
                            })
                        })
                        .collect();
                    let place = format!("{at_step} at {w}x{h}, consumer {}", c.name);
                    let observed = c
                        .steps
                        .iter()
                        .any(|s| matches!(s.mark, Mark::Ignored | Mark::AckLost));
                    let counted = own
                        .iter()
                        .any(|l| l.contains(" above") || l.contains(" below"));
                    if observed && !counted && !own.iter().any(|l| l.contains(t.g.observer)) {
                        unnamed.push(format!("{place}: the observer's mark is lost\n{text:#?}"));
                    }
                    if own.iter().any(|l| l.contains(t.g.ran)) {
                        assert!(
                            ran.is_some() && acted,
                            "{place}: marked, but it did nothing\n{text:#?}"
                        );
                    }
                    // A strip: a space, then one one-cell span a step.
                    let Some(strip) = drawn.get(at + 1).filter(|l| {
                        l.spans.len() > c.steps.len()
                            && l.spans[0].content == " "
                            && l.spans[1..=c.steps.len()].iter().all(|s| s.width() == 1)
                    }) else {
                        continue;
                    };
                    strips += 1;
                    let glyphs: Vec<&str> = strip.spans[1..=c.steps.len()]
                        .iter()
                        .map(|s| s.content.as_ref())
                        .collect();
                    for (k, (g, s)) in glyphs.iter().zip(&c.steps).enumerate() {
                        let want = match s.mark {
                            Mark::Todo if c.next == Some(k) => t.g.upcoming,
                            Mark::Todo => t.g.todo,
                            Mark::Ignored | Mark::AckLost => t.g.observer,
                            m => mark(&t, m).0,
                        };
                        assert_eq!(*g, want, "{place}: step {k} ({}) {:?}", s.label, s.mark);
                        let lit = strip.spans[1 + k]
                            .style
                            .add_modifier
                            .contains(ratatui::style::Modifier::REVERSED);
                        assert_eq!(lit, ran == Some(k), "{place}: step {k} lit {lit}");
                    }
                    // The words on the strip's row, and on the row of words
                    // under it where it has one: each that starts with a
                    // glyph names one the strip draws.
                    let mut said: Vec<String> = strip.spans[1 + c.steps.len()..]
                        .iter()
                        .map(|s| s.content.trim().to_string())
                        .collect();
                    if let Some(row) = drawn.get(at + 2).filter(|l| {
                        l.spans.first().is_some_and(|s| s.content.starts_with("  "))
                            && l.to_string()
                                .trim_start()
                                .chars()
                                .next()
                                .is_some_and(|g| !g.is_alphanumeric() && !"↑↓".contains(g))
                    }) {
                        said.extend(row.spans.iter().map(|s| s.content.trim().to_string()));
                    }
                    for word in said.iter().filter(|w| w.contains(' ')) {
                        let Some(g) = word.split(' ').next() else {
                            continue;
                        };
                        if g.chars().all(char::is_alphanumeric) {
                            continue;
                        }
                        legends += 1;
                        if !glyphs.contains(&g) {
                            unnamed.push(format!(
                                "{place}: {word:?} beside a strip of {}\n{text:#?}",
                                glyphs.concat()
                            ));
                        }
                    }
                    if let Some(k) = ran.or(c.next) {
                        // Past the row of words for the strip's glyphs,
                        // where it has one (`words_row`).
                        let words = text[at + 2]
                            .strip_prefix("  ")
                            .and_then(|r| r.trim_start().chars().next())
                            .is_some_and(|g| !g.is_alphanumeric() && !"↑↓".contains(g));
                        let under = text[at + 2 + usize::from(words)].trim_start();
                        let label = &c.steps[k].label;
                        // Or by its short name (`charge (key)`).
                        let short = c.steps[k].short.map(|s| {
                            let tag = if c.steps[k].keyed { KEY_TAG } else { "" };
                            format!("{s}{tag}")
                        });
                        let named = under.split_once(' ').is_some_and(|(_, rest)| {
                            rest.starts_with(label.as_str())
                                || short.as_ref().is_some_and(|s| rest.starts_with(s.as_str()))
                                || rest.split(t.g.ellipsis).next().is_some_and(|cut| {
                                    cut.chars().count() >= 3 && label.starts_with(cut)
                                })
                        });
                        assert!(named, "{place}: {under:?} is not step {k} ({label})");
                    }
                }
            }
        });
        assert!(strips > 100, "only {strips} strips drawn");
        assert!(legends > 100, "only {legends} words beside strips");
        assert!(
            unnamed.is_empty(),
            "{} of {legends} words beside strips name no glyph drawn, or lose `◇`; the first:\n{}",
            unnamed.len(),
            unnamed[0]
        );
    }

    /// `‖` is a lock wait and nothing else: a step marked with it belongs
    /// to a consumer blocked on a lock, at every step of every built-in run.
    /// A wait for the provider's answer after a 409 and a back-off from a
    /// live in-progress record have marks and words of their own, in
    /// Unicode and ASCII, and both are seen somewhere.
    #[test]
    fn the_lock_mark_is_for_a_lock_wait_only() {
        let mut seen = std::collections::BTreeSet::new();
        crate::tui::view::each_builtin_frame(|at_step, f| {
            for c in &f.consumers {
                for s in &c.steps {
                    if s.mark == Mark::Waiting {
                        assert!(
                            matches!(c.status, Status::Blocked { .. }),
                            "{at_step}: {} {:?} marked as waiting for a lock: {:?}",
                            c.name,
                            s.label,
                            c.status
                        );
                    }
                    seen.insert(format!("{:?}", s.mark));
                }
            }
        });
        for m in ["Waiting", "AwaitsAnswer", "BackedOff"] {
            assert!(
                seen.contains(m),
                "no {m} mark in any built-in run: {seen:?}"
            );
        }
        let mut glyphs = std::collections::BTreeSet::new();
        for ascii in [false, true] {
            let t = Theme::new(false, ascii);
            for (m, word) in [
                (Mark::Waiting, "blocked"),
                (Mark::AwaitsAnswer, "awaits answer"),
                (Mark::BackedOff, "backed off"),
            ] {
                let (g, w, _) = mark(&t, m);
                assert_eq!(w, word);
                assert!(!ascii || g.is_ascii(), "{g}");
                assert!(glyphs.insert(g), "{g} is used twice");
            }
        }
    }

    /// id-first's losing skip, the step that finds the unique key taken, at every
    /// width from a cramped panel up, in Unicode and ASCII: the row fits;
    /// the step keeps a recognisable start of its name (never `≠ …  key
    /// taken`); the word (`key taken`: what the key told the handler, never
    /// `duplicate`, which it cannot know) stays wherever the whole name fits
    /// beside it, and folds (the `≠` saying it) before the name is cut;
    /// `◀ this step` keeps its words only beside the whole name (the step
    /// pointed at is named whole first).
    #[test]
    fn the_losing_skip_keeps_its_name_and_its_word() {
        let script = scenario::find("id-first").unwrap();
        let mut skips = 0;
        for design in script.strategies() {
            let tl =
                Timeline::build(&script, &Strategy::by_name(&design).unwrap(), 0, &[]).unwrap();
            let skip = tl.frames.iter().enumerate().find_map(|(at, f)| {
                f.consumers.iter().find_map(|c| {
                    let k = c.steps.iter().position(|s| s.mark == Mark::Conflict)?;
                    Some((at, c, k))
                })
            });
            // The idempotent design, shown for contrast, never skips here.
            let Some((at, c, k)) = skip else { continue };
            skips += 1;
            for ascii in [false, true] {
                let t = Theme::new(false, ascii);
                let ell = t.g.ellipsis;
                for width in 14..=48 {
                    let line = step(&t, c, k, &c.steps[k], Some(k), width).line;
                    let text = line.to_string();
                    let place = format!("{design} step {at} ascii {ascii} at {width}: {text:?}");
                    assert!(line.width() <= width, "{place}: too wide");
                    let rest: String = text.chars().skip(3).collect();
                    // The name ends where the mark's word begins, two spaces
                    // after it or, where two do not fit, one.
                    let found = step_name::found(&c.steps[k].keyword);
                    let name = rest.split(ell).next().unwrap();
                    let name = name.split(found).next().unwrap().trim_end();
                    // The pointer folded to its sign: ` ◀` after the name.
                    let name = name.trim_end_matches(t.g.ran).trim_end();
                    // A start of the name, or the step's short name whole
                    // (`insert ID ◀` where `insert message ID` has no room).
                    let short = c.steps[k].short == Some(name);
                    assert!(
                        short
                            || name.chars().count() >= 3
                                && c.steps[k].label.starts_with(name.trim_end()),
                        "{place}: the step's name is cut away"
                    );
                    assert!(
                        !text.contains("duplicate"),
                        "{place}: not the handler's word"
                    );
                    let word = format!("  {}", step_name::found(&c.steps[k].keyword));
                    assert_eq!(word, "  key taken", "{place}: the unique key's word");
                    let label = c.steps[k].label.chars().count();
                    if width >= 3 + label + word.len() + 2 {
                        assert!(text.contains(&word), "{place}: no word");
                    }
                    if text.contains(&word) {
                        assert!(text.contains(&c.steps[k].label), "{place}: name cut");
                    }
                    if width >= 3 + label + word.len() + "  < this step".len() {
                        assert!(text.contains("this step"), "{place}: pointer cut");
                    }
                }
            }
        }
        assert!(skips > 0, "no skip on the unique key in id-first");
    }

    #[test]
    fn a_folded_consumer_names_the_ack_the_broker_ignored() {
        // The end of tour-3 at 120x40: A folded, B whole. What only the
        // observer knows about A (the broker ignored its ack) stays said.
        let script = scenario::find("tour-3").unwrap();
        let tl = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let at = tl.frames.len() - 1;
        let t = Theme::new(false, false);
        let text: Vec<String> = lines(&t, &tl.frames[at], &Watch::of(&tl.frames, at), 41, 17)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert!(text[0].starts_with("consumer A"), "{text:#?}");
        let a = text.iter().take_while(|l| !l.is_empty());
        assert!(
            a.clone()
                .any(|l| l.contains("acknowledge") && l.ends_with("◇ ignored")),
            "{text:#?}"
        );
        // Short of its whole list, A shows the steps it has rows for, and
        // counts the rest.
        assert!(a.clone().any(|l| l.contains("3 steps above")), "{text:#?}");
        assert!(
            text.iter().any(|l| l.contains("insert message ID")),
            "B whole: {text:#?}"
        );
    }

    /// A window that folds a run of skipped steps into one row keeps
    /// every step shown or counted: its signs' counts, its steps' rows and
    /// the steps each folded row stands for add up to the whole list, at
    /// every step of every built-in run; and tour-3's end at 80x24 shows
    /// the refused insert B's skips followed (teacher trial).
    #[test]
    fn a_folded_run_of_skips_hides_no_step_uncounted() {
        let t = Theme::new(false, false);
        let mut folded = 0;
        for script in crate::scenario::load::builtins() {
            for design in script.strategies() {
                let s = Strategy::by_name(&design).unwrap();
                let tl = Timeline::build(&script, &s, 0, &[]).unwrap();
                for (at, f) in tl.frames.iter().enumerate() {
                    let watch = Watch::of(&tl.frames, at);
                    for (w, h) in PANELS {
                        let text: Vec<String> = lines(&t, f, &watch, w, h)
                            .iter()
                            .map(|l| l.to_string())
                            .collect();
                        if !text
                            .iter()
                            .any(|l| l.contains(" skipped") && !l.contains(':'))
                        {
                            continue;
                        }
                        let head = |l: &str| {
                            f.consumers.iter().position(|c| {
                                l.starts_with(&format!("{}: ", c.name))
                                    || l.starts_with(&format!("consumer {} ", c.name))
                            })
                        };
                        let mut i = 0;
                        while i < text.len() {
                            let Some(ci) = head(&text[i]) else {
                                i += 1;
                                continue;
                            };
                            let c = &f.consumers[ci];
                            let own: Vec<&String> = text[i + 1..]
                                .iter()
                                .take_while(|l| head(l).is_none() && !l.trim().is_empty())
                                // Steps and signs start with a space; the
                                // panel's counts of skips do not.
                                .filter(|l| l.starts_with(' '))
                                .collect();
                            i += 1;
                            let runs: Vec<&&String> = own
                                .iter()
                                .filter(|l| {
                                    l.starts_with(" ↷ ")
                                        && (l.contains(", ") || l.contains(" steps skipped"))
                                })
                                .collect();
                            if runs.is_empty() {
                                continue;
                            }
                            folded += 1;
                            let mut counted = 0;
                            for l in &own {
                                let n = |l: &str| -> usize {
                                    l.split_whitespace()
                                        .find_map(|w| w.parse().ok())
                                        .unwrap_or(0)
                                };
                                if l.contains(" above")
                                    || l.contains(" below")
                                    || l.contains(" steps skipped")
                                {
                                    counted += n(l);
                                } else if runs.contains(&l) {
                                    counted += l.split(", ").count();
                                } else {
                                    counted += 1;
                                }
                            }
                            assert_eq!(
                                counted,
                                c.steps.len(),
                                "{} {design} step {at} at {w}x{h}\n{text:#?}",
                                script.name
                            );
                        }
                    }
                }
            }
        }
        assert!(folded > 0, "no run of skips folded");
        let script = scenario::find("tour-3").unwrap();
        let tl = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let at = tl.frames.len() - 1;
        let text: Vec<String> = lines(&t, &tl.frames[at], &Watch::of(&tl.frames, at), 27, 9)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let b = text.iter().position(|l| l.starts_with("B: ")).unwrap();
        assert!(text[b + 1].contains("2 steps above"), "{text:#?}");
        assert!(text[b + 2].starts_with(" ≠ insert message ID"), "{text:#?}");
        assert!(text[b + 3].starts_with(" ↷ "), "{text:#?}");
        assert!(text[b + 5].contains("acknowledge"), "{text:#?}");
    }

    /// One consumer whose list is one row too long for the panel shows a
    /// window of it, not a strip above empty rows: tour-1's refused insert
    /// at 80x24 (it was `✓✓≠↷↷↷▷·` over six empty rows).
    /// The help names `(key)` from the same constant this panel keeps
    /// whole: it must be the end the provider call's label has.
    /// The panel cuts a step's bare name and keeps the tag from the
    /// view's own fields: they must say what its label says, for every
    /// step of every design.
    #[test]
    fn a_step_views_name_and_key_are_its_label() {
        let script = scenario::find("tour-2").unwrap();
        let mut seen = 0;
        for strategy in Strategy::all() {
            let tl = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            for c in &tl.frames[0].consumers {
                for s in &c.steps {
                    let tag = if s.keyed { KEY_TAG } else { "" };
                    assert_eq!(format!("{}{tag}", s.name), s.label);
                    let short = step_name::op_named(s.name).and_then(step_name::short_name);
                    assert_eq!(s.short, short, "{}", s.label);
                    seen += usize::from(s.keyed);
                }
            }
        }
        assert!(seen > 0, "a keyed call among the designs");
    }

    #[test]
    fn the_key_tag_is_the_end_of_the_keyed_calls_label() {
        use crate::sim::step_name::label;
        use crate::sim::strategy::Op;
        assert!(label(Op::CallProvider { with_key: true }).ends_with(KEY_TAG));
        assert!(!label(Op::CallProvider { with_key: false }).ends_with(KEY_TAG));
    }

    #[test]
    fn a_list_a_little_too_long_shows_a_window_not_a_strip() {
        let script = scenario::find("tour-1").unwrap();
        let tl = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let t = Theme::new(false, false);
        let mut windows = 0;
        for at in 0..tl.frames.len() {
            let text: Vec<String> = lines(&t, &tl.frames[at], &Watch::of(&tl.frames, at), 27, 9)
                .iter()
                .map(|l| l.to_string())
                .collect();
            let blank = text.iter().filter(|l| l.trim().is_empty()).count();
            assert!(blank <= 1, "step {}: {blank} empty rows: {text:#?}", at + 1);
            windows += usize::from(
                text.iter()
                    .any(|l| l.contains("step") && (l.contains("above") || l.contains("below"))),
            );
        }
        assert!(windows > 0, "no window drawn");
    }

    #[test]
    fn a_strip_with_nothing_to_name_takes_two_rows_so_the_other_list_fits() {
        // tour-3 as B starts on m-7f3, with A's ack a plain done (no
        // broker to ignore it): A folds to its head and its strip, and the
        // rows left are exactly B's list.
        let script = scenario::find("tour-3").unwrap();
        let tl = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
        let mut f = tl
            .frames
            .iter()
            .find(|f| f.changes.step_of("B") == Some(0))
            .expect("B receives")
            .clone();
        f.consumers[0].status = Status::Idle;
        f.consumers[0].next = None;
        f.consumers[0].in_txn = false;
        for s in &mut f.consumers[0].steps {
            s.mark = Mark::Done;
        }
        let b = &f.consumers[1];
        assert!(b.next.is_some() && b.armed.is_empty(), "{b:?}");
        let h = 2 + 1 + b.steps.len();
        let t = Theme::new(false, false);
        let text: Vec<String> = lines(&t, &f, &Watch::default(), 40, h)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(text.len(), h, "{text:#?}");
        assert!(
            text[3].contains(b.steps[0].label.as_str()),
            "B folded: {text:#?}"
        );
    }

    #[test]
    fn an_idle_consumer_folds_first_so_the_busy_one_keeps_its_list() {
        let script = scenario::find("tour-3").unwrap();
        let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let at = t
            .frames
            .iter()
            .position(|f| f.consumers[0].next == Some(3) && f.consumers[1].next.is_none())
            .expect("A mid-program while B has not started");
        let f = &t.frames[at];
        let theme = Theme::new(false, false);
        let watch = Watch::of(&t.frames, at);
        let lines: Vec<String> = lines(&theme, f, &watch, 27, 11)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let steps = f.consumers[0].steps.len();
        // A in full, a blank line between, B as its head line alone.
        assert_eq!(lines.len(), 1 + steps + 2, "{lines:#?}");
        assert!(lines.last().unwrap().contains("idle"), "{lines:#?}");
        assert!(lines[1].contains("receive"), "A's list in full: {lines:#?}");
    }

    /// After a lost response the handler calls the provider again. Once
    /// that call has run, the failed mark of the attempt before is gone:
    /// the step list and the events still say the call was a retry.
    #[test]
    fn a_call_made_again_after_a_lost_response_says_it_is_a_retry() {
        let script = scenario::find("tour-4").unwrap();
        let tl = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let lost = tl
            .frames
            .iter()
            .position(|f| {
                f.consumers[0]
                    .steps
                    .iter()
                    .any(|s| s.keyword == "response" && s.mark == Mark::Lost)
            })
            .expect("tour 4 loses a response");
        let (at, f) = tl
            .frames
            .iter()
            .enumerate()
            .skip(lost + 1)
            .find(|(_, f)| {
                let a = &f.consumers[0];
                f.changes
                    .step_of("A")
                    .is_some_and(|k| a.steps[k].keyword == "provider")
            })
            .expect("A calls again");
        let t = Theme::new(false, false);
        let text: Vec<String> = lines(&t, f, &Watch::of(&tl.frames, at), 41, 17)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let call = text
            .iter()
            .find(|l| l.contains("charge the card"))
            .expect("the call's row");
        assert!(call.contains("retry 1"), "{text:#?}");
        let told = crate::sim::event::step_told(&f.events);
        assert!(
            told.contains("calls POST /charges again, retry 1"),
            "{told}"
        );
    }
}
