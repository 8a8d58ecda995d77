//! The verdict's cause chain is the lesson's why (`← A called the provider
//! without an Idempotency-Key ← m-7f3 redelivered ← lease expired …`): once
//! a run declares its verdict, a class reads every cause of it on the main
//! screen, wrapped over the verdict's rows, at every size it meets. At
//! 80x24 the verdict had one row, and a 300-character chain stopped after
//! its figures behind a count (the teacher's trial, tour-3 naive step 13).
//! Where a chain cannot be given its rows (`COUNTED`), the verdict's rows
//! must count what they hide.

use crate::common::{self, sweep};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// Runs whose longest chain needs more rows at one size than the panels
/// above can give (`layout::VERDICT_TOP_FLOOR`, and never the rows that
/// show the database's rows and the provider's charges: the chain explains
/// that evidence, it must not hide it; none where the broker queues two
/// messages). Their verdict counts what it hides, on one row in short
/// words with the key that reads it (`← why: 4 more · w`, tests/why_key.rs). The
/// test fails once one reads whole, so the list cannot go stale.
const COUNTED: [(&str, &str, (u16, u16)); 25] = [
    ("ack-first", "ack-first", (80, 24)),
    ("broker-id", "idempotent", (80, 24)),
    ("broker-view", "naive", (80, 24)),
    ("cache-claim-first", "cache-claim-first", (80, 24)),
    ("cache-work-first", "cache-work-first", (80, 24)),
    ("charge-first", "charge-first", (80, 24)),
    ("content-hash", "idempotent", (80, 24)),
    ("crash-after-provider", "naive", (80, 24)),
    ("crash-after-provider", "no-provider-key", (80, 24)),
    ("dedup-window", "naive", (80, 24)),
    ("id-first", "id-first", (80, 24)),
    ("offset", "naive", (80, 24)),
    ("offset-on-a-queue", "offset", (80, 24)),
    ("ordering", "naive", (80, 24)),
    ("poison", "idempotent", (80, 24)),
    ("producer-retry", "naive", (80, 24)),
    ("provider-key-reuse", "idempotent", (80, 24)),
    ("retention", "idempotent", (80, 24)),
    ("reused-id", "idempotent", (80, 24)),
    ("row-version", "row-version", (80, 24)),
    ("tour-1", "naive", (80, 24)),
    ("tour-3", "naive", (80, 24)),
    ("tour-4", "naive", (80, 24)),
    ("dedup-window", "naive", (100, 30)),
    ("row-version", "row-version", (100, 30)),
];

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The verdict's rows under its title's rule, as one line of words: a
/// chain wrapped over rows reads as it is written.
fn verdict_words(buf: &Buffer, r: Rect) -> String {
    let rows: Vec<String> = (r.y + 1..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect();
    norm(&rows.join(" "))
}

fn chains_at(size: (u16, u16)) {
    let mut failures = Vec::new();
    let mut counted = std::collections::BTreeSet::new();
    let mut declared = 0;
    sweep::each_step(size, |step| {
        let v = &step.frame.verdict;
        if v.undecided() || v.causes.is_empty() {
            return;
        }
        declared += 1;
        let buf = step.buf;
        let r = step.main.rect(idem::tui::app::Panel::Verdict);
        let shown = verdict_words(buf, r);
        let run = (
            step.app.script.name.as_str(),
            step.app.strategy.name.as_ref(),
            size,
        );
        let missing: Vec<String> = v
            .causes
            .iter()
            .flatten()
            .map(|c| norm(&c.to_string()))
            .filter(|c| !shown.contains(c.as_str()))
            .collect();
        if missing.is_empty() {
            return;
        }
        let signed = shown.contains(" more");
        if COUNTED.contains(&run) && signed {
            counted.insert(run.0.to_string() + " " + run.1);
        } else {
            failures.push(format!(
                "{}: {:?} is not on screen{}:\n{shown}",
                step.at(),
                missing[0],
                if signed {
                    " (counted)"
                } else {
                    " and not counted"
                }
            ));
        }
    });
    assert!(declared > 100, "only {declared} declared verdicts");
    let stale: Vec<String> = COUNTED
        .iter()
        .filter(|(name, design, s)| *s == size && !counted.contains(&format!("{name} {design}")))
        .map(|(name, design, _)| format!("{name} {design}"))
        .collect();
    assert!(
        stale.is_empty(),
        "these read their whole chain now: take them off COUNTED: {stale:?}"
    );
    let runs: std::collections::BTreeSet<String> = failures
        .iter()
        .map(|f| {
            f.split(&format!(" {}x{}", size.0, size.1))
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} screens at {}x{} lose a cause of the verdict, in {runs:?}; the first:\n{}",
        failures.len(),
        size.0,
        size.1,
        failures.first().cloned().unwrap_or_default()
    );
}

#[test]
fn the_declared_verdict_s_chain_reads_whole_at_80x24() {
    chains_at(sweep::SIZES[0]);
}

#[test]
fn the_declared_verdict_s_chain_reads_whole_at_100x30() {
    chains_at(sweep::SIZES[1]);
}

#[test]
fn the_declared_verdict_s_chain_reads_whole_at_120x40() {
    chains_at(sweep::SIZES[2]);
}

/// On one row the verdict never cuts a figure: the trial read
/// `order 1042: 1 committed payment row, 2 provider        …2 more` as two
/// more providers. The outcome and every figure are whole, each naming
/// what it counts (`verdict_names_counts`), and the causes are counted
/// with the key that reads them.
#[test]
fn a_one_row_verdict_keeps_its_figures_whole_and_counts_its_causes() {
    let mut app = common::app("tour-1", "naive");
    app.pos = 13;
    let screen = common::draw(&mut app, 80, 24);
    let row = screen
        .lines()
        .find(|l| {
            l.contains("charged twice")
                && (l.contains("2 provider charges") || l.contains("2 charges"))
        })
        .unwrap_or_else(|| panic!("no verdict row:\n{screen}"));
    assert!(row.contains("1 committed payment, 2 charges"), "{row}");
    assert!(row.contains("← why: 4 more"), "{row}");
}

/// A run that ends unsettled keeps its figures on its one row: what is
/// left unsettled waits under `w`, counted (trial 33: tour-2's end at
/// 80x24 read `○ ends unsettled: m-7f3 is still leased to A, whose ack
/// was lost on …2 more · w`, no figure on the row).
#[test]
fn an_unsettled_end_keeps_its_figures_on_one_row() {
    let (mut seen, mut wrong) = (0, Vec::new());
    sweep::each_step(sweep::SIZES[0], |step| {
        let f = &step.frame;
        if f.verdict.unsettled_text().is_empty() {
            return;
        }
        let rows = step.rows();
        let Some(row) = rows.iter().find(|r| r.starts_with("○ ends unsettled")) else {
            return;
        };
        seen += 1;
        if !row.contains("committed payment") || !row.contains(" w") {
            wrong.push(format!("{}: {}", step.at(), row.trim_end()));
        }
    });
    assert!(seen >= 2, "{seen} unsettled ends on one row");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
