//! A long run as text, written as it goes: per step what happened, the SQL,
//! and what the step changed (the copies the broker touched, the consumers
//! that moved, the rows committed, the charges made, the facts whose
//! verdict moved), never the whole world again. A run of any length reads
//! step by step and costs the same per step.

use super::state::{consumer_line, message_line};
use super::text::wrap;
use crate::scenario::Expectation;
use crate::sim::Arrow;
use crate::sim::cause::chains_text;
use crate::timeline::stream::{End, Step};
use std::fmt::Write;

const WIDTH: usize = 78;

/// The transcript's first line, and the note that the scenario's story is
/// left out when it is not written for this design.
pub fn header(
    scenario: &str,
    title: &str,
    strategy: &str,
    seed: u64,
    story_left_out: Option<&str>,
) -> String {
    let mut out = format!("idem · {scenario} · {title} · design {strategy} · seed {seed}\n");
    super::text::write_left_out(&mut out, story_left_out);
    out
}

/// One step, as text.
pub fn step(s: &Step) -> String {
    let mut out = String::with_capacity(1024);
    if let Some(opening) = &s.opening {
        let _ = writeln!(out);
        if s.chapter > 0 {
            super::text::write_chapter_heading(&mut out, s.chapter, &s.chapter_title);
        }
        for line in wrap(opening, WIDTH) {
            let _ = writeln!(out, "{line}");
        }
    }
    super::text::write_step_head(&mut out, s.index, s.time_ms, &s.action, s.said.as_deref());
    // The setup's publishes are one line per message: at the start of a
    // long run, their count says it.
    let many = s.index == 0 && s.events.len() > 12;
    for e in s.events.iter().take(if many { 3 } else { usize::MAX }) {
        let _ = writeln!(out, "  {:<11} {}", e.actor.label(), e.text);
    }
    if many {
        let _ = writeln!(out, "  {:<11} ... and {} more", "", s.events.len() - 3);
    }
    for q in &s.sql {
        let _ = writeln!(out, "  SQL {:<7} {}", q.consumer, q.sql);
        let _ = writeln!(out, "  {:<11} -> {}", "", q.result);
    }
    super::text::write_borrowed(&mut out, s.borrowed.as_ref(), s.opening.is_some());
    if s.index == 0 {
        let _ = writeln!(out, "  {} messages queued", s.events.len());
    } else {
        changes(&mut out, s);
    }
    out
}

fn changes(out: &mut String, s: &Step) {
    let _ = writeln!(out, "  changed:");
    for m in &s.messages {
        let _ = writeln!(out, "    queue     {}", message_line(m, s.broker_ids_lead));
    }
    for c in &s.consumers {
        let _ = writeln!(out, "    consumer  {}", consumer_line(c));
    }
    for p in &s.payments {
        let _ = writeln!(
            out,
            "    payments  + {} ${} {} committed · total recorded ${}",
            p.order, p.amount, p.message_id, s.total_recorded
        );
    }
    for c in &s.charges {
        let key = c
            .key
            .as_deref()
            .map_or("no Idempotency-Key".to_string(), |k| format!("key {k}"));
        let _ = writeln!(
            out,
            "    provider  + {} order {} ${} ({key}) · charges made {} (${})",
            c.id, c.order, c.amount, s.charges_made, s.provider_total
        );
    }
    for f in &s.facts {
        let _ = writeln!(out, "    verdict   {}", fact_line(f));
    }
    if let Some(headline) = &s.headline {
        let _ = writeln!(out, "    verdict   so far: {headline}");
    }
}

fn fact_line(f: &crate::sim::verdict::FactVerdict) -> String {
    let mut line = match &f.expected_status {
        Some(expected) => format!(
            "order {}: must end {expected}; it is {}: {}",
            f.order,
            f.actual_status.as_deref().unwrap_or("without a status"),
            super::fact_words(f.outcome.text(), f.outcome)
        ),
        None => format!(
            "order {} (${}): payments rows {}, provider charges {}: {}",
            f.order,
            f.amount,
            f.payments,
            f.charges,
            super::fact_words(&f.headline(), f.outcome)
        ),
    };
    line.push_str(&chains_text(&f.causes, Arrow::Ascii));
    if let Some(risk) = &f.at_risk {
        line.push_str(" · at risk: ");
        line.push_str(risk);
    }
    if let Some(flight) = &f.in_flight {
        line.push_str(" · in flight: ");
        line.push_str(flight);
    }
    line
}

/// The end: the verdict with every wrong fact (a correct one is counted,
/// not listed), the counters, and the expectation.
pub fn end(end: &End, strategy: &str, expect: Option<&Expectation>) -> String {
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "== verdict ({strategy}) ==");
    // One run, one schedule: a correct end says so (`correct in this
    // run`), as the whole run's transcript does.
    let _ = writeln!(out, "{}", end.verdict.chain_of_one_run());
    let facts = &end.verdict.facts;
    let correct = facts
        .iter()
        .filter(|f| f.outcome == crate::sim::Outcome::Correct)
        .count();
    let _ = writeln!(
        out,
        "  {} facts: {correct} correct, {} otherwise",
        facts.len(),
        facts.len() - correct
    );
    for f in facts
        .iter()
        .filter(|f| f.outcome != crate::sim::Outcome::Correct)
    {
        let _ = writeln!(out, "  {}", fact_line(f));
    }
    let _ = writeln!(
        out,
        "  total recorded ${} · provider charges {} · steps {}",
        end.payments_total, end.charges, end.steps
    );
    super::closing::write(
        &mut out,
        &end.counters,
        super::closing::WentWrong {
            first: end.went_wrong_at,
            declared: end.first_violation,
        },
        strategy,
        expect.map(|e| end.misses(e)),
    );
    out
}
