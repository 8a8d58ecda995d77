//! The soak's report, as text or JSON. Everything but the `measured`
//! section comes from the simulated worlds and is the same for the same
//! seed, byte for byte; the measured figures (time, speed, memory) come
//! from this machine and are kept apart so that a test can compare the rest.

use super::Echo;
use super::driver::DesignRun;
use super::faults::FaultKind;
use crate::check::num;
use crate::sim::Outcome;
use crate::sim::counter_words::{
    ACKED, ACKS_LOST, DELIVERED, DUPLICATE_DELIVERIES, REDELIVERED, SKIPPED_BY_KEY,
};
use serde::Serialize;
use std::fmt::Write;
use std::time::Duration;

#[derive(Clone, Debug, Serialize)]
pub struct SoakReport {
    pub config: Echo,
    pub designs: Vec<DesignRun>,
    pub measured: Measured,
}

/// Figures of this machine, this time: never part of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    pub elapsed_ms: u64,
    pub designs: Vec<Speed>,
    /// The process's peak resident memory (VmHWM), where the OS tells it.
    pub peak_memory_kb: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Speed {
    pub design: String,
    pub messages: u64,
    pub elapsed_ms: u64,
    pub messages_per_second: u64,
}

impl Measured {
    pub fn new(times: Vec<(String, u64, Duration)>, elapsed: Duration) -> Self {
        Measured {
            elapsed_ms: elapsed.as_millis() as u64,
            designs: times
                .into_iter()
                .map(|(design, messages, took)| Speed {
                    design,
                    messages,
                    elapsed_ms: took.as_millis() as u64,
                    messages_per_second: (messages as f64 / took.as_secs_f64().max(1e-9)) as u64,
                })
                .collect(),
            peak_memory_kb: peak_memory_kb(),
        }
    }
}

/// VmHWM from /proc/self/status (Linux); `None` elsewhere.
pub fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The heading of the measured section: what a comparison leaves out.
pub const MEASURED_HEADING: &str = "== measured on this machine (varies from run to run) ==";

fn dollars(n: u64) -> String {
    format!("${}", num(n))
}

fn signed(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "+" };
    format!("{sign}${}", num(n.unsigned_abs()))
}

impl SoakReport {
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises") + "\n"
    }

    pub fn text(&self) -> String {
        let mut out = self.books();
        let m = &self.measured;
        let _ = writeln!(out, "\n{MEASURED_HEADING}");
        for s in &m.designs {
            let _ = writeln!(
                out,
                "{}: {} payments in {:.2} s: {} payments a second",
                s.design,
                num(s.messages),
                s.elapsed_ms as f64 / 1000.0,
                num(s.messages_per_second)
            );
        }
        let _ = writeln!(
            out,
            "all designs, side by side on {} threads: {:.2} s",
            m.designs.len(),
            m.elapsed_ms as f64 / 1000.0
        );
        if let Some(kb) = m.peak_memory_kb {
            let _ = writeln!(out, "peak memory (resident): {:.1} MB", kb as f64 / 1024.0);
        }
        // The one part that grows with the payments, on purpose: a memory
        // figure without it could not be compared across sizes.
        let pages: Vec<String> = self
            .designs
            .iter()
            .map(|d| match d.db_bytes {
                Some(bytes) => format!("{} {:.1} MB", d.design, bytes as f64 / 1_048_576.0),
                None => format!("{} unknown (a handler held the write lock)", d.design),
            })
            .collect();
        let _ = match self.config.engine {
            // The server's own memory is not idem's: its tables' size is
            // reported beside, not counted in, the resident figure.
            Some(engine) => writeln!(
                out,
                "the tables on the {engine} server (not in idem's memory): {}",
                pages.join(", ")
            ),
            None => writeln!(
                out,
                "of which the databases' pages: {} (an in-memory database may reserve up to twice its pages)",
                pages.join(", ")
            ),
        };
        out
    }

    /// Everything but the measured section: the same for the same seed.
    pub fn books(&self) -> String {
        let c = &self.config;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "idem soak · {} payments · {} consumers per design · seed {}{}",
            num(c.messages),
            c.consumers,
            c.seed,
            c.engine.map(|e| format!(" · on {e}")).unwrap_or_default()
        );
        let _ = writeln!(out, "faults (chance per payment): {}", c.faults);
        let _ = writeln!(out, "payments: {}", c.mix);
        let _ = writeln!(
            out,
            "lease {} · one handler step {} · a payment published every {} ticks · retention {}",
            c.lease,
            c.step,
            c.gap,
            c.retention
                .as_deref()
                .unwrap_or("none (processed_messages keeps every ID)")
        );
        for d in &self.designs {
            out.push('\n');
            design(&mut out, d, c.retention.as_deref());
        }
        out
    }
}

/// Why fewer facts are judged than payments published, each reason with
/// its number from the run: a payment made twice on purpose is two
/// messages judged as one fact (owed twice), and a payment still in
/// progress at the soak's bound is not judged. Whatever is left over is
/// said as such rather than left out.
fn not_judged(d: &DesignRun) -> String {
    let t = &d.tally;
    let mut why = Vec::new();
    if t.made_twice > 0 {
        why.push(format!(
            "{} made twice on purpose, each two messages judged once and owed twice",
            num(t.made_twice)
        ));
    }
    if d.unsettled > 0 {
        why.push(format!(
            "{} still in progress at the soak's bound, not judged",
            num(d.unsettled)
        ));
    }
    let told = t.facts + t.made_twice + d.unsettled;
    if d.published > told {
        why.push(format!(
            "{} not accounted for above",
            num(d.published - told)
        ));
    }
    if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join("; "))
    }
}

fn design(out: &mut String, d: &DesignRun, retention: Option<&str>) {
    let t = &d.tally;
    let k = &d.counters;
    let _ = writeln!(out, "== {} ==", d.design);
    let _ = writeln!(
        out,
        "published {} payments, judged as {}{} over {} of virtual time, {} ticks",
        num(d.published),
        num(t.facts),
        not_judged(d),
        crate::sim::format_duration(d.virtual_ms / 1000 * 1000),
        num(d.ticks)
    );
    let faults: Vec<String> = FaultKind::ALL
        .iter()
        .map(|f| format!("{f} {}", num(d.faults.get(f).copied().unwrap_or(0))))
        .collect();
    let _ = writeln!(out, "faults fired: {}", faults.join(" · "));
    let armed = |f: FaultKind| d.faults.get(&f).copied().unwrap_or(0);
    if armed(FaultKind::LoseAck) != u64::from(k.acks_lost) {
        // Otherwise the two counts look like a bug in the books.
        let _ = writeln!(
            out,
            "  (a lose-ack is armed against a consumer and drops its next ack: one armed again before that ack, cleared by a crash, or still armed at the end loses none)"
        );
    }
    let _ = writeln!(
        out,
        "{DELIVERED} {} · {REDELIVERED} {} · {DUPLICATE_DELIVERIES} {} · {SKIPPED_BY_KEY} {}{} · {ACKED} {} · {ACKS_LOST} {} · crashes {} · dead-lettered {}",
        num(k.delivered.into()),
        num(k.redeliveries.into()),
        num(k.duplicates_delivered.into()),
        num(k.duplicates_skipped.into()),
        crate::report::not_duplicates(k.skipped_not_duplicates),
        num(k.acked.into()),
        num(k.acks_lost.into()),
        num(k.crashes.into()),
        num(k.dead_lettered.into())
    );
    let rows = match (d.uses_processed, retention) {
        (false, _) => "processed_messages: not used by this design".to_string(),
        (true, Some(_)) => format!(
            "processed_messages rows {} (the retention job deleted {})",
            num(d.processed_rows),
            num(d.pruned_rows)
        ),
        (true, None) => format!(
            "processed_messages rows {} (no retention: every ID is kept)",
            num(d.processed_rows)
        ),
    };
    let _ = writeln!(out, "{rows}");
    let _ = writeln!(
        out,
        "money: owed {} · charged {} · recorded {}",
        dollars(t.money.owed),
        dollars(t.money.charged),
        dollars(t.money.recorded)
    );
    let books = d.db_recorded == t.money.recorded && d.provider_charged == t.money.charged;
    // Each total is held to its own figure above: side by side, a bare
    // "both match" read as the database and the provider agreeing, which
    // under a broken design they do not.
    let _ = writeln!(
        out,
        "  {}",
        if books {
            format!(
                "the database's own total {} is the recorded figure, the provider's own {} the charged one",
                dollars(d.db_recorded),
                dollars(d.provider_charged)
            )
        } else {
            format!(
                "the database's own total {} and the provider's {} do NOT match the figures above: a bug in idem, please report it",
                dollars(d.db_recorded),
                dollars(d.provider_charged)
            )
        }
    );
    let outcomes: Vec<String> = Outcome::ALL
        .iter()
        .filter_map(|o| {
            t.outcomes
                .get(o)
                .map(|n| format!("{} {}", o.text(), num(*n)))
        })
        .collect();
    let _ = writeln!(out, "outcomes: {}", outcomes.join(" · "));
    if d.unsettled > 0 {
        let _ = writeln!(
            out,
            "stopped at the soak's bound with {} payments still in progress",
            num(d.unsettled)
        );
    }
    if t.violations() == 0 {
        let _ = writeln!(out, "violations: none");
    } else {
        let _ = writeln!(out, "violations: {}", num(t.violations()));
    }
    if let Some(why) = &d.outside {
        let _ = writeln!(
            out,
            "  outside its promise: {why}; so its violations here are no broken claim"
        );
    }
    for o in Outcome::FAILURES {
        let Some(drift) = t.drift.get(&o) else {
            continue;
        };
        let _ = writeln!(
            out,
            "  {}: {} payments · charged {} · recorded {} against what was owed",
            o.text(),
            num(drift.facts),
            signed(drift.charged),
            signed(drift.recorded)
        );
        if let Some(e) = t.examples.get(&o) {
            let _ = writeln!(
                out,
                "    e.g. {} ({}): {}",
                e.fact,
                e.messages.join(", "),
                e.chain
            );
            match (&e.story, &e.no_story) {
                (Some(file), _) => {
                    let _ = writeln!(out, "    its story: {file} (with --save DIR)");
                }
                (None, Some(why)) => {
                    let _ = writeln!(out, "    no story file: {why}");
                }
                (None, None) => {}
            }
        }
    }
    if let Some(age) = retention.filter(|_| d.uses_processed) {
        let _ = writeln!(
            out,
            "retention {age}: {} late duplicates let through (their ID was pruned before the copy came)",
            num(t.let_through_by_retention)
        );
    }
}
