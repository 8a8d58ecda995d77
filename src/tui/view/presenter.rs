//! The presenter view (`p`): for a room or a screen share. The narration,
//! and the four figures the pattern is about in large type: messages in
//! the queue, rows in processed_messages, the payments total, the charges
//! the provider made, each with what this step did to it.

use super::story_line::NBSP;
use super::{header, keybar, marks, narration, presenter_evidence};
use crate::sim::Frame;
use crate::sim::change::Place;
use crate::sim::consumer::Mark;
use crate::sim::diff::{Pending, pending_processed, pending_total, processed_rows, queued};
use crate::sim::frame::MessagePhase;
use crate::tui::app::App;
use crate::tui::measure;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use tui_big_text::{BigText, PixelSize};

/// One of the four figures: its label, its value, its value before this
/// step if it moved, and whether a value above one is the failure to see.
struct Figure {
    label: &'static str,
    /// For a narrow box.
    short: &'static str,
    value: String,
    was: Option<String>,
    alarm: bool,
    /// Said in place of what the step did, where the figure is not used.
    note: Option<String>,
    /// The state behind the figure, said under what the step did to it
    /// (where the broker has each message), at every size, and whether
    /// this step moved it: a lease's end or a redelivery moves a message
    /// and leaves the count of them standing (trial 37 read `unchanged`
    /// over each of them).
    state: Option<String>,
    state_moved: bool,
    /// What only the observer knows of it (a lost ack), under the
    /// observer's mark: the broker never learns it.
    observed: Option<String>,
    /// A database figure: it counts committed rows only, and says so.
    committed: bool,
    /// What open transactions wrote and have not committed (`plus $40 not
    /// committed (B)`), and whether this step moved it: the figure is
    /// marked as moved then, though its committed count stood still.
    pending: Option<(String, bool)>,
    /// This step's insert of a row the table already holds was refused by
    /// its unique key: the step's news on a figure that stands still.
    refused: bool,
}

/// The uncommitted part of a figure, in words, and whether this step moved
/// it: `plus $40 not committed (B)`, in words, as `+` is the added mark
/// and the moved mark goes before it (`* + $40` read as two marks run
/// together); where the step took it all away, what it
/// was, unless the committed figure moved with it: a commit, whose `* was`
/// on the figure tells it (a rollback moves the uncommitted part alone).
fn pending<T: PartialEq + Default + Copy>(
    now: Pending<T>,
    was: Option<T>,
    committed_moved: bool,
    show: impl Fn(T) -> String,
) -> Option<(String, bool)> {
    let words =
        |part: T, by: &[String]| format!("plus {} not committed ({})", show(part), by.join(", "));
    match (now.part == T::default(), was) {
        (false, _) => Some((words(now.part, &now.by), was.is_some())),
        (true, Some(was)) if was != T::default() && !committed_moved => {
            Some((format!("was plus {} not committed", show(was)), true))
        }
        (true, _) => None,
    }
}

/// Where the broker has each message, in a few words (`m-7f3 leased to A
/// (delivery 2)`): the broker's side of a step that moves no figure, as a
/// lease running out or a redelivery.
fn whereabouts(f: &Frame) -> Option<String> {
    let shown: Vec<String> = f
        .queue
        .messages
        .iter()
        .filter(|m| matches!(m.phase, MessagePhase::Waiting | MessagePhase::InFlight))
        .map(|m| {
            let name = m.label(f.queue.broker_ids_lead);
            match (&m.phase, &m.holder) {
                (MessagePhase::InFlight, Some(holder)) if m.receives > 1 => {
                    // Kept whole where it wraps: `(delivery` ending a row
                    // over `2)` read as two things.
                    format!("{name} leased to {holder} (delivery{NBSP}{})", m.receives)
                }
                (MessagePhase::InFlight, Some(holder)) => format!("{name} leased to {holder}"),
                _ => format!("{name} waiting"),
            }
        })
        .collect();
    match shown.len() {
        0 => None,
        1..=2 => Some(shown.join(", ")),
        n => Some(format!("{}, and {} more", shown[..2].join(", "), n - 2)),
    }
}

/// How messages left the queue in this step (`m-7f3 acked by A`,
/// `m-8a1 dead-lettered`): where the queue's count fell, the figure alone
/// said only `* was 1` (trial 39).
fn departures(f: &Frame, before: Option<&Frame>) -> Vec<String> {
    let Some(before) = before else {
        return Vec::new();
    };
    f.queue
        .messages
        .iter()
        .filter_map(|m| {
            let was = before
                .queue
                .messages
                .iter()
                .find(|x| x.broker_id == m.broker_id);
            if was.is_some_and(|w| w.phase == m.phase) {
                return None;
            }
            let name = m.label(f.queue.broker_ids_lead);
            match (m.phase, &m.holder) {
                (MessagePhase::Acked, Some(by)) => Some(format!("{name} acked by {by}")),
                (MessagePhase::Acked, None) => Some(format!("{name} acked")),
                (MessagePhase::DeadLettered, _) => Some(format!("{name} dead-lettered")),
                _ => None,
            }
        })
        .collect()
}

/// The acks the broker turned away in this step: it knows it did, though
/// where the message is does not move.
fn ignored_acks(f: &Frame) -> impl Iterator<Item = String> + '_ {
    f.changes.steps.iter().filter_map(|ran| {
        let c = f.consumers.iter().find(|c| c.name == ran.consumer)?;
        (c.steps.get(ran.step)?.mark == Mark::Ignored)
            .then(|| format!("{}'s late ack ignored", c.name))
    })
}

/// Where the broker has each message and what left it in this step.
fn broker_line(f: &Frame, before: Option<&Frame>) -> Option<String> {
    let said: Vec<String> = whereabouts(f)
        .into_iter()
        .chain(departures(f, before))
        .chain(ignored_acks(f))
        .collect();
    (!said.is_empty()).then(|| said.join(", "))
}

/// The acks lost on the way to the broker, for the messages it still
/// holds (`A's ack lost`): the observer's fact, which the broker's own
/// figures cannot show.
fn acks_lost(f: &Frame) -> Option<String> {
    let lost: Vec<String> = f
        .queue
        .messages
        .iter()
        .filter(|m| m.ack_lost && matches!(m.phase, MessagePhase::Waiting | MessagePhase::InFlight))
        .map(|m| match &m.holder {
            Some(holder) => format!("{holder}'s ack lost"),
            None => format!("{}'s ack lost", m.label(f.queue.broker_ids_lead)),
        })
        .collect();
    (!lost.is_empty()).then(|| lost.join(", "))
}

/// The four figures of frame `f`; the first frame's moves are counted
/// from the empty world before it (the producer's publish takes the
/// queue from 0 to 1): it has no frame before it to learn its changes
/// from, and a class read `1 · unchanged` beside "producer publishes".
/// `before` is the frame before it, to tell what moved.
fn figures(f: &Frame, before: Option<&Frame>) -> [Figure; 4] {
    let first = before.is_none();
    let ch = &f.changes;
    let moved = |was: Option<usize>, now: usize| match was {
        None if first && now != 0 => Some(0),
        was => was,
    };
    [
        Figure {
            label: "in the queue",
            short: "queue",
            value: queued(f).to_string(),
            was: moved(ch.queue_was, queued(f)).map(|n| n.to_string()),
            alarm: false,
            note: None,
            state: broker_line(f, before),
            state_moved: before.is_some_and(|b| whereabouts(b) != whereabouts(f))
                || !departures(f, before).is_empty(),
            observed: acks_lost(f),
            committed: false,
            pending: None,
            refused: false,
        },
        dedup_figure(f, before, moved(ch.processed_was, processed_rows(f))),
        Figure {
            label: "payments total",
            short: "payments",
            value: format!("${}", f.db.payments_total),
            was: moved(
                ch.total_was.map(|n| n as usize),
                f.db.payments_total as usize,
            )
            .map(|n| format!("${n}")),
            // Red only when this figure itself is wrong: more rows than
            // the producer asked for.
            alarm: f
                .verdict
                .facts
                .iter()
                .any(|x| x.expected_status.is_none() && x.payments > x.expected),
            note: None,
            state: None,
            state_moved: false,
            observed: None,
            committed: true,
            pending: pending(
                pending_total(f),
                ch.pending_total_was,
                ch.total_was.is_some(),
                |n| format!("${n}"),
            ),
            refused: false,
        },
        Figure {
            label: "provider charges",
            short: "charges",
            value: f.provider.charges.len().to_string(),
            was: moved(ch.charges_was, f.provider.charges.len()).map(|n| n.to_string()),
            alarm: f
                .verdict
                .facts
                .iter()
                .any(|x| x.expected_status.is_none() && x.charges > x.expected),
            note: None,
            // The money the charges took, beside the payments total: a
            // bare count (`2` beside `$80`) was set against the total
            // (trial 34), where the lesson's line is "owed $40, paid $80".
            state: Some(format!(
                "${} charged",
                f.provider.charges.iter().map(|c| c.amount).sum::<u32>()
            )),
            state_moved: false,
            observed: None,
            committed: false,
            pending: None,
            refused: false,
        },
    ]
}

/// The second box: the table the design keeps its duplicate check in.
/// processed_messages for the designs that use it; idempotency_records
/// for the in-progress design, whose record B takes over and A loses (a
/// teacher trial read `processed_messages`, a dash and "not used here"
/// over those steps). `processed_was`: the processed count before this
/// step, where it moved.
fn dedup_figure(f: &Frame, before: Option<&Frame>, processed_was: Option<usize>) -> Figure {
    let ch = &f.changes;
    if f.db.uses_records && !f.db.uses_processed {
        return records_figure(f, before);
    }
    Figure {
        label: "processed_messages",
        short: "processed",
        value: if f.db.uses_processed {
            processed_rows(f).to_string()
        } else {
            "-".into()
        },
        was: processed_was.map(|n| n.to_string()),
        alarm: false,
        note: (!f.db.uses_processed).then(|| "not used here".to_string()),
        state: None,
        state_moved: false,
        observed: None,
        committed: f.db.uses_processed,
        pending: pending(
            pending_processed(f),
            ch.pending_processed_was,
            ch.processed_was.is_some(),
            |n| n.to_string(),
        ),
        refused: f.db.processed.iter().any(|p| p.conflict),
    }
}

/// A record in a few words: whose it is and, while it binds, until when
/// (`m-7f3 in_progress, owner A/rh-3b6c until 33s`).
fn record_words(r: &crate::sim::db::RecordRow) -> String {
    let mut out = format!("{} {}, owner {}", r.message_id, r.status, r.owner);
    if r.status == "in_progress" {
        out.push_str(&format!(
            " until {}",
            crate::sim::format_duration(r.deadline)
        ));
    }
    if let Some(kept) = &r.result {
        out.push_str(&format!(", result {kept}"));
    }
    out
}

/// idempotency_records as the presenter's second box: the count of
/// committed records, each record's owner beneath it (moved where the step
/// changed it), and what an open transaction wrote to them (`B's version
/// not committed: owner B/rh-c037, until 1m12s`: the fields it changes),
/// marked where this step wrote it.
fn records_figure(f: &Frame, before: Option<&Frame>) -> Figure {
    let records = &f.db.records;
    let n = records.len();
    let was = match before {
        Some(b) if b.db.records.len() != n => Some(b.db.records.len()),
        None if n != 0 => Some(0),
        _ => None,
    };
    let state = (!records.is_empty()).then(|| {
        records
            .iter()
            .map(record_words)
            .collect::<Vec<_>>()
            .join("; ")
    });
    let state_moved = before.is_none_or(|b| b.db.records != *records)
        || records
            .iter()
            .any(|r| f.changes.of(Place::Records, &r.message_id).is_some());
    let pending_of = |g: &Frame| -> Vec<(String, crate::sim::db::RecordRow)> {
        g.db.uncommitted
            .iter()
            .flat_map(|u| u.records.iter().map(move |r| (u.by.clone(), r.clone())))
            .collect()
    };
    let now = pending_of(f);
    let pending = if now.is_empty() {
        // A step that took it all away without a commit: a rollback.
        before
            .filter(|b| !pending_of(b).is_empty() && b.db.records == *records)
            .map(|_| ("was a record not committed".to_string(), true))
    } else {
        let words: Vec<String> = now
            .iter()
            .map(
                |(by, r)| match records.iter().find(|c| c.message_id == r.message_id) {
                    // The fields the version changes, as the database panel
                    // names them: never one it left as it was.
                    Some(was) => {
                        let (head, tail) = super::db_record::differing(was, r);
                        let fields = [head, tail].concat();
                        if fields.is_empty() {
                            format!("{by}'s version not committed")
                        } else {
                            format!("{by}'s version not committed: {}", fields.join(", "))
                        }
                    }
                    None => format!("plus {} not committed ({by})", r.message_id),
                },
            )
            .collect();
        let moved = before.is_none_or(|b| pending_of(b) != now);
        Some((words.join("; "), moved))
    };
    Figure {
        label: "idempotency_records",
        short: "records",
        value: n.to_string(),
        was: was.map(|n| n.to_string()),
        alarm: false,
        note: None,
        state,
        state_moved,
        observed: None,
        committed: true,
        pending,
        refused: false,
    }
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let f = app.frame();
    let frames = &app.timeline.frames;
    let band = presenter_evidence::Band::of(t, frames, area.width);
    let (figures_rows, band_rows) = share(area.height, band.rows);
    let [head, figures_area, evidence, story, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(figures_rows),
        Constraint::Length(band_rows),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    header::render(app, head, buf);
    let boxes = Layout::horizontal([Constraint::Ratio(1, 4); 4]).split(figures_area);
    // Every step's figures: the type and the rows kept for notes are
    // chosen for the whole run, so they stand still as the class steps
    // (trial 37: at 100x30 the numbers shrank at the commit, where `$40`
    // needed more room than `$0`).
    let run: Vec<[Figure; 4]> = frames
        .iter()
        .enumerate()
        .map(|(i, fr)| figures(fr, i.checked_sub(1).map(|b| &frames[b])))
        .collect();
    // The four figures stand on one line: each box keeps under its figure
    // the rows the wordiest box needs for its notes.
    let note_rows = run
        .iter()
        .flat_map(|figs| figs.iter().zip(boxes.iter()))
        .map(|(fig, rect)| {
            let w = rect.width.saturating_sub(2);
            measure::rows(&notes(t, fig, w), w, true)
        })
        .max()
        .unwrap_or(1)
        .max(1);
    let size = shared_size(t, &run, &boxes, note_rows);
    let figures = &run[app.frame_at()];
    for (fig, rect) in figures.iter().zip(boxes.iter()) {
        figure(t, fig, *rect, note_rows, size, buf);
    }
    presenter_evidence::render(
        t,
        f,
        (frames, app.script.origin.step()),
        app.pos >= app.last_pos(),
        band,
        evidence,
        buf,
    );
    // A story left out has no chapter titles: the chapter's number stands in.
    let part = app.script.origin.part();
    let heading = match (f.chapter_title.is_empty(), app.chapter()) {
        (true, (chapter, of)) if (1..=of).contains(&chapter) => format!("{part} {chapter}/{of}"),
        _ => f.chapter_title.clone(),
    };
    let block = Block::bordered()
        .border_set(t.g.border)
        .border_style(t.border(false))
        .title(Span::styled(format!(" {} ", t.text(&heading)), t.title()));
    let inner = block.inner(story);
    block.render(story, buf);
    narration::render(app, f, inner, None, buf);
    keybar::render(app, keys, buf);
}

/// The story's fewest rows (its borders and four rows of words), and the
/// figures' (a border, a figure in plain type, its note).
const STORY_MIN: u16 = 6;
const FIGURES_MIN: u16 = 5;

/// The rows of the figures and of the evidence band (its rule and its
/// `band` rows) out of a screen `height` rows tall: the figures take 45% of
/// the room between the header and the key bar where the band and the
/// story's fewest rows leave it, the band all it needs where the figures
/// and the story keep their fewest; the story takes the rest.
fn share(height: u16, band: u16) -> (u16, u16) {
    let room = height.saturating_sub(2);
    let band = (band + 1).min(room.saturating_sub(STORY_MIN + FIGURES_MIN));
    let figures = (room * 45)
        .div_ceil(100)
        .min(room.saturating_sub(band + STORY_MIN));
    (figures, band)
}

/// What the step did to the figure, in words: a database figure says it
/// counts committed rows (`committed · unchanged`, `committed  * was $0`).
fn did(t: &Theme, fig: &Figure, width: u16) -> Line<'static> {
    let committed = || Span::styled("committed", t.dim());
    match (&fig.was, &fig.note) {
        // One space before the mark, not the usual two: at 80 columns
        // `committed * was $0` just fits a row.
        (Some(was), _) if fig.committed => {
            let mut mark = marks::was(t, was.clone());
            // The mark and its old value stay together where the line
            // wraps: `committed * was` over `$40` read as two things
            // (trial 39, 80x24).
            let whole = mark.content.trim_start().replace(' ', &NBSP.to_string());
            mark.content = format!(" {whole}").into();
            Line::from(vec![committed(), mark])
        }
        (Some(was), _) => Line::from(marks::was(t, was.clone())),
        (None, Some(note)) => Line::styled(t.text(note).into_owned(), t.dim()),
        // The figure stands still because the table refused the insert:
        // that refusal is what the step did, as the database panel says.
        (None, None) if fig.refused => {
            // In the main screen's words (`≠ key taken: 0 rows inserted`),
            // as many as one row holds: `refused` meant a charge the
            // provider refused, in the explorer (trial 35).
            let said = [
                "key taken: 0 rows inserted",
                "key taken: 0 rows",
                "key taken",
            ]
            .into_iter()
            .map(|w| format!("{} {w}", t.g.conflict))
            .find(|w| w.chars().count() <= usize::from(width))
            .unwrap_or_else(|| format!("{} key taken", t.g.conflict));
            Line::styled(said, t.bad())
        }
        (None, None) if fig.committed => {
            Line::styled(format!("committed {} unchanged", t.g.dot), t.dim())
        }
        (None, None) => Line::styled("unchanged", t.dim()),
    }
    .centered()
}

/// The uncommitted part, in the change colour with its mark where this
/// step moved it.
fn pending_line(t: &Theme, fig: &Figure) -> Option<Line<'static>> {
    let (words, moved) = fig.pending.as_ref()?;
    let line = if *moved {
        Line::styled(format!("{} {words}", t.g.changed), t.change())
    } else {
        Line::raw(words.clone())
    };
    Some(line.centered())
}

/// The lines under a figure: what the step did to it, the uncommitted
/// part, then the state behind it (where the broker has each message).
/// All are always read: the type shrinks to leave them their rows. The
/// broker's line is where the message is, the thread a class follows:
/// at 80x24 it was the one dropped for want of a row.
fn notes(t: &Theme, fig: &Figure, width: u16) -> Vec<Line<'static>> {
    std::iter::once(did(t, fig, width))
        .chain(pending_line(t, fig))
        .chain(fig.state.as_ref().map(|state| {
            let state = t.text(state).into_owned();
            if fig.state_moved {
                Line::styled(format!("{} {state}", t.g.changed), t.change())
            } else {
                Line::styled(state, t.dim())
            }
            .centered()
        }))
        .chain(fig.observed.as_ref().map(|seen| {
            Line::styled(format!("{} {}", t.g.observer, t.text(seen)), t.dim()).centered()
        }))
        .collect()
}

/// A size of type: its pixels, the cells a character takes across and
/// down, and the rows its ink takes (the last row of an 8x8 glyph is blank
/// under every figure's characters: digits, `$`, `-`, so the words may take
/// it at full size).
type Size = (PixelSize, u16, u16, u16);

/// The largest type in which every one of the four figures fits its box
/// at every step of the run, with `note_rows` rows under it: 8x8 pixels in
/// half-height cells, then in quadrants, then plain text (`None`). One
/// size for all four: a box that picked its own drew `$80` smaller than
/// the `2` beside it, and a smaller figure reads as a lesser one.
fn shared_size(t: &Theme, run: &[[Figure; 4]], boxes: &[Rect], note_rows: u16) -> Option<Size> {
    // In ASCII every cell becomes `#`: only full-size pixels stay legible.
    let sizes: &[Size] = if t.ascii() {
        &[(PixelSize::Full, 8, 8, 7)]
    } else {
        &[
            (PixelSize::Full, 8, 8, 7),
            (PixelSize::HalfHeight, 8, 4, 4),
            (PixelSize::HalfWidth, 4, 8, 7),
            (PixelSize::Quadrant, 4, 4, 4),
        ]
    };
    sizes.iter().copied().find(|&(_, w, _, ink)| {
        run.iter()
            .flatten()
            .zip(boxes.iter().cycle())
            .all(|(fig, rect)| {
                let chars = fig.value.chars().count() as u16;
                // Inside the box's border.
                let (width, height) = (rect.width.saturating_sub(2), rect.height.saturating_sub(2));
                chars * w <= width && ink + note_rows <= height
            })
    })
}

/// One figure's box, with `note_rows` rows kept under the figure, drawn in
/// `size` (plain text where `None`).
fn figure(
    t: &Theme,
    fig: &Figure,
    area: Rect,
    note_rows: u16,
    size: Option<Size>,
    buf: &mut Buffer,
) {
    let moved = fig.was.is_some() || fig.pending.as_ref().is_some_and(|(_, moved)| *moved);
    let border = if moved { t.change() } else { t.border(false) };
    let block = Block::bordered()
        .border_set(t.g.border)
        .border_style(border)
        .title(Span::styled(
            if usize::from(area.width) >= fig.label.len() + 4 {
                format!(" {} ", fig.label)
            } else {
                format!(" {} ", fig.short)
            },
            t.title(),
        ));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 {
        return;
    }
    let style = if fig.alarm { t.bad() } else { t.title() };
    let note = notes(t, fig, inner.width);
    let chars = fig.value.chars().count() as u16;
    // The figure and its note, in the middle of the box.
    let text_h = size.map_or(1, |(_, _, _, ink)| ink);
    let top = inner.y + inner.height.saturating_sub(text_h + note_rows) / 2;
    let inner = Rect::new(inner.x, top, inner.width, inner.bottom() - top);
    let text_h = match size {
        Some((pixel_size, w, h, ink)) => {
            let x = inner.x + inner.width.saturating_sub(chars * w) / 2;
            let big = BigText::builder()
                .pixel_size(pixel_size)
                .style(style)
                .lines(vec![Line::raw(fig.value.clone())])
                .build();
            big.render(Rect::new(x, inner.y, chars * w, h.min(inner.height)), buf);
            ink
        }
        None => {
            Line::styled(fig.value.clone(), style)
                .centered()
                .render(Rect::new(inner.x, inner.y, inner.width, 1), buf);
            1
        }
    };
    let y = inner.y + text_h.min(inner.height - 1);
    // Rows the box has no room for are counted, never cut at its border
    // (teacher trial 47, in-progress at 80x24: the committed record's row
    // ended `m-7f3 in_progress,`, its owner and deadline gone).
    super::overflow::show_after_words(
        t,
        note,
        Rect::new(inner.x, y, inner.width, inner.bottom() - y),
        buf,
        super::overflow::signs,
    );
}
