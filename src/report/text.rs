use super::state::{consumer_line, message_line};
// A report is read beside the terminal: the keys its words name are the terminal's.
use crate::scenario::key_word::{Medium, told};
use crate::scenario::{Expectation, Origin};
use crate::sim::Frame;
use crate::sim::format_duration;
use crate::sim::frame::Borrowed;
use crate::timeline::Timeline;
use std::fmt::Write;

const WIDTH: usize = 78;

/// The run as text: per frame the narration (when a chapter starts), what
/// happened, the SQL, and the state; then the verdict.
pub fn transcript(timeline: &Timeline, expect: Option<&Expectation>) -> String {
    let mut out = String::new();
    // SQLite goes unnamed, as it always has; a server run says so.
    let engine = match timeline.frames.first().map(|f| f.engine) {
        Some(engine) if !engine.is_sqlite() => format!(" · on {}", engine.name()),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "idem · {} · {} · design {} · seed {}{engine}",
        timeline.scenario, timeline.title, timeline.strategy, timeline.seed
    );
    write_left_out(&mut out, timeline.story_left_out.as_deref());
    let mut chapter = usize::MAX;
    // The chapter whose borrowed opening words have been written.
    let mut shown_borrowed = usize::MAX;
    for frame in &timeline.frames {
        if frame.chapter != chapter {
            chapter = frame.chapter;
            let _ = writeln!(out);
            if chapter > 0 {
                match timeline.origin {
                    // A found schedule's step is one move of it, counted.
                    Origin::FoundSchedule => write_move_heading(
                        &mut out,
                        chapter,
                        timeline.chapters.len().saturating_sub(1),
                        &frame.chapter_title,
                    ),
                    _ => write_chapter_heading(&mut out, chapter, &frame.chapter_title),
                }
            }
            // The chapter's opening words; what its actions say follows
            // at the frame where each happened.
            let opening = match &frame.said {
                Some(_) => frame.opening().trim_end(),
                None => &frame.narration,
            };
            // A story left out leaves no opening, and no blank line for it.
            if !opening.is_empty() {
                for line in wrap(&told(opening, Medium::Transcript), WIDTH) {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        write_frame(&mut out, frame, frame.chapter != shown_borrowed);
        shown_borrowed = frame.chapter;
    }
    write_verdict(&mut out, timeline, expect);
    out
}

/// Under the first line, once: why no words of the scenario follow.
pub(super) fn write_left_out(out: &mut String, story_left_out: Option<&str>) {
    if let Some(note) = story_left_out {
        for (i, line) in wrap(note, WIDTH - 2).iter().enumerate() {
            let lead = if i == 0 { "! " } else { "  " };
            let _ = writeln!(out, "{lead}{line}");
        }
    }
}

/// A chapter's heading: its number, and its title when it has one (a
/// story left out has none).
pub(super) fn write_chapter_heading(out: &mut String, chapter: usize, title: &str) {
    if title.is_empty() {
        let _ = writeln!(out, "== {chapter} ==");
    } else {
        let _ = writeln!(out, "== {chapter}. {title} ==");
    }
}

/// A found schedule's step: one move of it, counted, with its title.
fn write_move_heading(out: &mut String, at: usize, of: usize, title: &str) {
    if title.is_empty() {
        let _ = writeln!(out, "== move {at}/{of} ==");
    } else {
        let _ = writeln!(out, "== move {at}/{of}: {title} ==");
    }
}

/// A step's first lines, the same in a kept and a streamed transcript: its
/// number, time and action, then what the scenario says of it.
pub(super) fn write_step_head(
    out: &mut String,
    index: usize,
    time_ms: crate::sim::Millis,
    action: &str,
    said: Option<&str>,
) {
    let _ = writeln!(out);
    let _ = writeln!(out, "[{index}] {} · {action}", format_duration(time_ms));
    if let Some(said) = said {
        for (i, line) in wrap(&told(said, Medium::Transcript), WIDTH - 4)
            .iter()
            .enumerate()
        {
            let lead = if i == 0 { "  » " } else { "    " };
            let _ = writeln!(out, "{lead}{line}");
        }
    }
}

fn write_frame(out: &mut String, f: &Frame, starts: bool) {
    write_step_head(out, f.index, f.time_ms, &f.action_told(), f.said.as_deref());
    for e in &f.events {
        let _ = writeln!(out, "  {:<11} {}", e.actor.label(), e.text);
    }
    for s in &f.sql {
        let _ = writeln!(out, "  SQL {:<7} {}", s.consumer, s.sql);
        let _ = writeln!(out, "  {:<11} -> {}", "", s.result);
    }
    write_borrowed(out, f.borrowed.as_ref(), starts);
    let _ = writeln!(out, "  state:");
    for m in &f.queue.messages {
        let _ = writeln!(
            out,
            "    queue     {}",
            message_line(m, f.queue.broker_ids_lead)
        );
    }
    for c in &f.consumers {
        let _ = writeln!(out, "    consumer  {}", consumer_line(c));
    }
    write_tables(out, f);
    let keys = f.provider.keys.iter().map(|k| {
        let replays = if k.replays > 0 {
            format!(" (replayed {}x)", k.replays)
        } else {
            String::new()
        };
        format!("{} -> {}{replays}", k.key, k.result)
    });
    let _ = writeln!(
        out,
        "    provider  charges made {} (${}) · keys: {}",
        f.provider.charges.len(),
        f.provider.total_charged,
        listed(keys, "none")
    );
    // The last step's verdict is the run's: bounded to it like the end's.
    let _ = writeln!(out, "    verdict   {}", f.verdict.chain_of_one_run());
}

/// The database tables (those the design uses) and the cache.
fn write_tables(out: &mut String, f: &Frame) {
    let db = &f.db;
    let by = |owner: &Option<String>| {
        owner
            .as_ref()
            .map(|o| format!(" (uncommitted, {o})"))
            .unwrap_or_default()
    };
    let payments = db.payments.iter().map(|p| {
        format!(
            "{} ${} {}{}",
            p.order,
            p.amount,
            p.message_id,
            by(&p.uncommitted_by)
        )
    });
    let _ = writeln!(
        out,
        "    payments  {} · total recorded ${}",
        listed(payments, "no rows"),
        db.payments_total
    );
    if db.uses_processed {
        let rows = db.processed.iter().map(|p| {
            let conflict = if p.conflict { " (key taken)" } else { "" };
            format!("{}{}{conflict}", p.message_id, by(&p.uncommitted_by))
        });
        let _ = writeln!(out, "    processed_messages  {}", listed(rows, "no rows"));
    }
    let pending = &db.uncommitted;
    let mark = |by: &str| format!(" (uncommitted, {by})");
    if db.uses_statuses {
        let status = |s: &crate::sim::db::StatusRow| {
            format!("{} {} (version {})", s.order, s.status, s.version)
        };
        let rows = db.statuses.iter().map(status).chain(
            pending
                .iter()
                .flat_map(|u| u.statuses.iter().map(move |s| status(s) + &mark(&u.by))),
        );
        let _ = writeln!(out, "    order_status  {}", listed(rows, "no rows"));
    }
    if db.uses_offsets {
        let rows = db
            .last_offset
            .map(|o| format!("partition 0 last_offset {o}"))
            .into_iter()
            .chain(pending.iter().filter_map(|u| {
                u.last_offset
                    .map(|o| format!("partition 0 last_offset {o}{}", mark(&u.by)))
            }));
        let _ = writeln!(out, "    consumer_offsets  {}", listed(rows, "no rows"));
    }
    if db.uses_orders {
        let order = |o: &crate::sim::db::OrderRow| {
            format!("{} last message {}", o.order, o.last_message_id)
        };
        let rows = db.orders.iter().map(order).chain(
            pending
                .iter()
                .flat_map(|u| u.orders.iter().map(move |o| order(o) + &mark(&u.by))),
        );
        let _ = writeln!(out, "    orders    {}", listed(rows, "no rows"));
    }
    if db.uses_records {
        let record = |r: &crate::sim::db::RecordRow| {
            let result = r
                .result
                .as_ref()
                .map(|x| format!(" -> {x}"))
                .unwrap_or_default();
            format!(
                "{} {} by {} until {}{result}",
                r.message_id,
                r.status,
                r.owner,
                format_duration(r.deadline)
            )
        };
        let rows = db.records.iter().map(record).chain(
            pending
                .iter()
                .flat_map(|u| u.records.iter().map(move |r| record(r) + &mark(&u.by))),
        );
        let _ = writeln!(out, "    idempotency_records  {}", listed(rows, "no rows"));
    }
    if f.cache.used {
        let keys = f
            .cache
            .entries
            .iter()
            .map(|e| format!("{} (expires in {})", e.key, format_duration(e.ttl_left_ms)));
        let _ = writeln!(out, "    cache     {}", listed(keys, "empty"));
    }
}

/// Items joined with `; `, or `empty` when there are none.
fn listed(items: impl IntoIterator<Item = String>, empty: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    if items.is_empty() {
        empty.to_string()
    } else {
        items.join("; ")
    }
}

fn write_verdict(out: &mut String, timeline: &Timeline, expect: Option<&Expectation>) {
    let end = timeline.last();
    let _ = writeln!(out);
    let _ = writeln!(out, "== verdict ({}) ==", timeline.strategy);
    // One run, one schedule: a correct end says so (`correct in this
    // run`), as the simulator's verdict does.
    let _ = writeln!(out, "{}", end.verdict.chain_of_one_run());
    for fact in &end.verdict.facts {
        if let Some(expected) = &fact.expected_status {
            let _ = writeln!(
                out,
                "  order {}: must end {expected}; it is {}: {}",
                fact.order,
                fact.actual_status.as_deref().unwrap_or("without a status"),
                super::fact_words(fact.outcome.text(), fact.outcome)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "  order {} (${}): owes it {}; payments rows {}, provider charges {}: {}",
            fact.order,
            fact.amount,
            match fact.expected {
                1 => "once".to_string(),
                n => format!("{n} times"),
            },
            fact.payments,
            fact.charges,
            super::fact_words(&fact.headline(), fact.outcome)
        );
    }
    super::closing::write(
        out,
        &end.counters,
        super::closing::WentWrong {
            first: timeline.went_wrong_at(),
            declared: timeline.first_violation(),
        },
        &timeline.strategy,
        expect.map(|e| timeline.misses(e)),
    );
}

/// Words written for another design or engine, after the step's own lines
/// and under their mark: on a chapter's first step its borrowed opening,
/// at any step what its action added to them.
pub(super) fn write_borrowed(out: &mut String, b: Option<&Borrowed>, starts: bool) {
    let Some(b) = b else {
        return;
    };
    let new = match (starts, &b.said) {
        (true, _) => b.text.as_str(),
        (false, Some(said)) => said.as_str(),
        (false, None) => return,
    };
    if new.trim().is_empty() {
        return;
    }
    let _ = writeln!(out, "  {}", b.written_for.mark());
    for line in wrap(&told(new, Medium::Transcript), WIDTH - 4) {
        let _ = writeln!(out, "    {line}");
    }
}

/// Greedy word wrap; the narration is prose, so this is all it needs.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split("\n\n") {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines.push(String::new());
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}
