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
    ACKED, ACKS_LOST, DELIVERED, DUPLICATE_DELIVERIES, REDELIVERED, SKIPPED_KEY_TAKEN,
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

/// A count and its noun, agreeing: `1 payment`, `2 payments`, `1,000
/// ticks`. Every count the report says with a noun goes through here.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", num(n), if n == 1 { one } else { many })
}

/// Holds a label and its figure together through `wrap`, which breaks
/// only at plain spaces; every public text turns it back into a space.
const NBSP: &str = "\u{a0}";

/// `slow consumer 3` as one unit for `wrap`.
fn glue(item: &str) -> String {
    item.replace(' ', NBSP)
}

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

    /// The whole report, one line per figure however long.
    pub fn text(&self) -> String {
        self.glued_text().replace(NBSP, " ")
    }

    /// The whole report with every line at most `width` columns, broken
    /// at word ends and indented after, as `idem check` wraps: a figure
    /// and its label (`slow consumer 3`) never split.
    pub fn text_at(&self, width: usize) -> String {
        crate::check::wrap(&self.glued_text(), width).replace(NBSP, " ")
    }

    fn glued_text(&self) -> String {
        let mut out = self.glued_books();
        let m = &self.measured;
        let _ = writeln!(out, "\n{MEASURED_HEADING}");
        for s in &m.designs {
            let _ = writeln!(
                out,
                "{}: {} in {:.2} s: {} a second",
                s.design,
                count(s.messages, "payment", "payments"),
                s.elapsed_ms as f64 / 1000.0,
                count(s.messages_per_second, "payment", "payments")
            );
        }
        let _ = writeln!(
            out,
            "all designs, side by side on {}: {:.2} s",
            count(m.designs.len() as u64, "thread", "threads"),
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
        self.glued_books().replace(NBSP, " ")
    }

    fn glued_books(&self) -> String {
        let c = &self.config;
        let mut out = String::new();
        let stopped = self.designs.iter().any(|d| d.stopped_early);
        let furthest = self.designs.iter().map(|d| d.published).max().unwrap_or(0);
        let alike = self.designs.iter().all(|d| d.published == furthest);
        // Stopped early, the header says how far the soak got, not what it
        // was to publish (teacher trial: "300,000 payments" headed a report
        // of a soak stopped at ~95k).
        let payments = if stopped && alike {
            format!(
                "{} of {} payments (stopped early)",
                num(furthest),
                num(c.messages)
            )
        } else if stopped {
            format!(
                "at most {} of {} payments (stopped early)",
                num(furthest),
                num(c.messages)
            )
        } else {
            count(c.messages, "payment", "payments")
        };
        let _ = writeln!(
            out,
            "idem soak · {payments} · {} per design · seed {}{}",
            count(c.consumers as u64, "consumer", "consumers"),
            c.seed,
            c.engine.map(|e| format!(" · on {e}")).unwrap_or_default()
        );
        if stopped && alike {
            let _ = writeln!(
                out,
                "  (every design stopped after the same first {} of the schedule, so the figures side by side cover the same payments and faults)",
                count(furthest, "payment", "payments")
            );
        } else if stopped {
            let each: Vec<String> = self
                .designs
                .iter()
                .map(|d| format!("{} {}", d.design, num(d.published)))
                .collect();
            let _ = writeln!(
                out,
                "  (the designs stopped at different points of the schedule, published: {}; their figures are not comparable side by side)",
                each.join(", ")
            );
        }
        let _ = writeln!(
            out,
            "faults (chance per payment): {}",
            c.fault_words
                .split(", ")
                .map(glue)
                .collect::<Vec<_>>()
                .join(", ")
        );
        // Teacher trial 18: "the same schedule" beside `expired lease 0`
        // for one design and 1 for another read as a broken promise.
        let _ = writeln!(
            out,
            "  (the same faults at the same ticks for every design; each acts on what it finds then, so the counts fired can differ: an expired lease needs a consumer holding a message)"
        );
        let _ = writeln!(out, "payments: {}", c.mix);
        let _ = writeln!(
            out,
            "lease {} · one handler step {} · a payment published every {} · retention {}",
            c.lease,
            c.step,
            count(c.gap, "tick", "ticks"),
            c.retention
                .as_deref()
                .unwrap_or("none (processed_messages keeps every ID)")
        );
        for d in &self.designs {
            out.push('\n');
            design(&mut out, d, c.retention.as_deref(), !alike);
        }
        out
    }
}

/// Why fewer payments are judged than published, each reason with its
/// number from the run, in plain words (teacher trial: "judged as 199 (1
/// made twice on purpose, each two messages judged once and owed twice)"
/// took three readings): a payment made twice on purpose is two messages
/// for one order, both owed, judged as one. A payment still under way when
/// the soak stopped is judged too, as it stood, so it is no reason; the
/// stop line says how many. Whatever is left over is said as such rather
/// than left out.
fn not_judged(d: &DesignRun) -> String {
    let t = &d.tally;
    let mut why = Vec::new();
    if t.made_twice > 0 {
        why.push(if t.made_twice == 1 {
            "1 was paid twice on purpose, as a second message for the same order (owed too), and the pair is judged once"
                .to_string()
        } else {
            format!(
                "{} were paid twice on purpose, as a second message for the same order (owed too), and each pair is judged once",
                num(t.made_twice)
            )
        });
    }
    let told = t.facts + t.made_twice;
    if d.published > told {
        why.push(format!(
            "{} not accounted for above",
            num(d.published - told)
        ));
    }
    if why.is_empty() {
        String::new()
    } else {
        format!(": {}", why.join("; "))
    }
}

/// How the soak stopped, when it did before settling all it was to
/// publish: told to (`q`), or at its bound. Each payment still under way
/// is counted once, in one place: as in progress, or under its violation
/// where it had already gone wrong.
/// `apart`: the designs stopped at different points, so this one's
/// figures are not comparable with the others'.
fn stop_line(out: &mut String, d: &DesignRun, apart: bool) {
    let when = if d.stopped_early {
        format!(
            "stopped early: {} of the {} published, {} never published",
            num(d.published),
            num(d.planned),
            num(d.planned.saturating_sub(d.published))
        ) + if apart {
            " (not where the other designs stopped: not comparable with them)"
        } else {
            ""
        }
    } else if d.unsettled > 0 {
        "stopped at the soak's bound".to_string()
    } else {
        return;
    };
    let under_way = match d.unsettled {
        0 => String::new(),
        n => {
            let wrong = d.tally.under_way_wrong;
            let counted = if wrong == 0 {
                "each counted as in progress below".to_string()
            } else {
                format!(
                    "{} counted as in progress below, {} under its violation (a wrong effect is never undone)",
                    num(n - wrong),
                    num(wrong)
                )
            };
            format!(
                "; {} {} still under way then, {counted}",
                count(n, "payment", "payments"),
                if n == 1 { "was" } else { "were" }
            )
        }
    };
    let _ = writeln!(out, "{when}{under_way}");
}

fn design(out: &mut String, d: &DesignRun, retention: Option<&str>, apart: bool) {
    let t = &d.tally;
    let k = &d.counters;
    let _ = writeln!(out, "== {} ==", d.design);
    let _ = writeln!(
        out,
        "published {} over {} of virtual time, {}",
        count(d.published, "payment", "payments"),
        crate::sim::format_duration(d.virtual_ms / 1000 * 1000),
        count(d.ticks, "tick", "ticks")
    );
    stop_line(out, d, apart);
    let _ = writeln!(
        out,
        "judged as {}{}",
        count(t.facts, "payment", "payments"),
        not_judged(d)
    );
    let faults: Vec<String> = FaultKind::ALL
        .iter()
        .map(|f| {
            glue(&format!(
                "{} {}",
                f.words(),
                num(d.faults.get(f).copied().unwrap_or(0))
            ))
        })
        .collect();
    let _ = writeln!(out, "faults fired: {}", faults.join(" · "));
    let armed = |f: FaultKind| d.faults.get(&f).copied().unwrap_or(0);
    if armed(FaultKind::LoseAck) != u64::from(k.acks_lost) {
        // Otherwise the two counts look like a bug in the books.
        let _ = writeln!(
            out,
            "  (a lost ack is armed against a consumer and drops its next ack: one armed again before that ack, cleared by a crash, or still armed at the end loses none)"
        );
    }
    let counters = [
        glue(&format!("{DELIVERED} {}", num(k.delivered.into()))),
        glue(&format!("{REDELIVERED} {}", num(k.redeliveries.into()))),
        glue(&format!(
            "{DUPLICATE_DELIVERIES} {}",
            num(k.duplicates_delivered.into())
        )),
        glue(&format!(
            "{SKIPPED_KEY_TAKEN} {}",
            num(k.duplicates_skipped.into())
        )) + &crate::report::not_duplicates(k.skipped_not_duplicates),
        glue(&format!("{ACKED} {}", num(k.acked.into()))),
        glue(&format!("{ACKS_LOST} {}", num(k.acks_lost.into()))),
        glue(&format!("crashes {}", num(k.crashes.into()))),
        glue(&format!("dead-lettered {}", num(k.dead_lettered.into()))),
    ];
    let _ = writeln!(out, "{}", counters.join(" · "));
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
    let outcomes: Vec<String> = Outcome::LISTED
        .iter()
        .filter_map(|o| {
            t.outcomes
                .get(o)
                .map(|n| glue(&format!("{} {}", o.count_text(), num(*n))))
        })
        .collect();
    let _ = writeln!(out, "outcomes: {}", outcomes.join(" · "));
    // As `idem check` counts a run: under every outcome it ends with, and
    // said where that makes the counts add up to more than were judged.
    if t.overlapping > 0 {
        let _ = writeln!(
            out,
            "  (outcomes overlap: {} under more than one)",
            if t.overlapping == 1 {
                "1 payment counts".to_string()
            } else {
                format!("{} payments count", num(t.overlapping))
            }
        );
    }
    if t.violations() == 0 {
        let _ = writeln!(out, "violations: none");
    } else {
        let once = if t.overlapping > 0 {
            " (each payment once)"
        } else {
            ""
        };
        let _ = writeln!(out, "violations: {}{once}", num(t.violations()));
    }
    if let Some(why) = &d.outside {
        let _ = writeln!(
            out,
            "  outside its promise: {why}; so its violations here do not break it"
        );
    }
    for o in Outcome::FAILURES {
        let Some(drift) = t.drift.get(&o) else {
            continue;
        };
        let _ = writeln!(
            out,
            "  {}: {} · charged {} · recorded {} against what was owed",
            o.count_text(),
            count(drift.facts, "payment", "payments"),
            signed(drift.charged),
            signed(drift.recorded)
        );
        if let Some(e) = t.examples.get(&o) {
            example(out, t, o, e);
        }
    }
    if let Some(age) = retention.filter(|_| d.uses_processed) {
        let _ = writeln!(
            out,
            "retention {age}: {} let through (their ID was pruned before the copy came)",
            count(
                t.let_through_by_retention,
                "late duplicate",
                "late duplicates"
            )
        );
    }
}

/// The example of outcome `o`, with its story. One payment can be the first
/// of two outcomes (charged twice, and its provider and database disagree):
/// its chain and story are told under the first of them, naming both, and
/// the later one points back to it rather than tell them again.
fn example(out: &mut String, t: &super::tally::Tally, o: Outcome, e: &super::tally::Example) {
    let shows: Vec<Outcome> = Outcome::FAILURES
        .into_iter()
        .filter(|x| t.drift.contains_key(x) && t.examples.get(x) == Some(e))
        .collect();
    if let Some(first) = shows.first().filter(|first| **first != o) {
        let _ = writeln!(
            out,
            "    e.g. the same payment as under {}: {}",
            first.count_text(),
            e.fact
        );
        return;
    }
    let _ = writeln!(
        out,
        "    e.g. {} ({}): {}",
        e.fact,
        e.messages.join(", "),
        e.chain
    );
    let of = if shows.len() > 1 {
        let names: Vec<&str> = shows.iter().map(|x| x.text()).collect();
        format!(", showing {}", and_list(&names))
    } else {
        String::new()
    };
    match (&e.story, &e.no_story) {
        (Some(file), _) => {
            let _ = writeln!(out, "    its story{of}: {file} (with --save DIR)");
        }
        (None, Some(why)) => {
            let _ = writeln!(out, "    no story file{of}: {why}");
        }
        (None, None) => {}
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
