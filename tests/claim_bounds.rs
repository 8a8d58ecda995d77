//! Issue 18 §7: every "holds", "safe" and "level won" names its bounds in
//! the same line and is tried one bound further; a design's assumptions
//! bound its promise, and a result outside them says so.

use crate::common::check::at_default;
use idem::check::further::{FurtherResult, Widening};
use idem::check::{Bounds, CheckReport, check_strategy, render};
use idem::sim::{Assumption, Strategy};
use std::process::Command;

fn checked(name: &str, bounds: Bounds) -> CheckReport {
    let row = check_strategy(&Strategy::by_name(name).unwrap(), &bounds).unwrap();
    CheckReport {
        bounds,
        strategies: vec![row],
        seconds: 0.0,
    }
}

/// The report's words with its line breaks undone: the text output wraps
/// at 100 columns, anywhere a phrase may be.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The result of the one design in `report`, as the line under the table
/// says it (its wrapped rest joined back on).
fn row_line(report: &CheckReport) -> String {
    let text = render(report);
    let name = &report.strategies[0].strategy;
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .rposition(|l| l.starts_with(&format!("{name} ")))
        .unwrap();
    let mut line = lines[first].to_string();
    for more in lines[first + 1..]
        .iter()
        .take_while(|l| l.starts_with("    "))
    {
        line.push(' ');
        line.push_str(more.trim());
    }
    line
}

#[test]
fn in_progress_holds_within_2_faults_and_says_it_breaks_at_3() {
    let report = at_default("in-progress");
    let row = &report.strategies[0];
    assert!(!row.broken() && !row.contradicts_claim());
    let fault = row
        .further
        .iter()
        .find(|f| f.widening == Widening::Fault)
        .expect("tried one more fault");
    assert_eq!(fault.bounds.max_faults, 3);
    let FurtherResult::Breaks {
        shortest: Some(cx), ..
    } = &fault.result
    else {
        panic!("in-progress at 3 faults: {:?}", fault.result);
    };
    assert!(cx.class.is_failure());
    let line = row_line(report);
    assert!(
        line.contains(
            "holds within 2 consumers, 1 message and 2 faults, assuming one payment per message ID (0.00s, 0 states/s); breaks at 3 faults (still at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry): 75,054 schedules there end charged, then dead-lettered, with no payment row (provider and database disagree), the commonest way it fails; see the shortest run"
        ),
        "{line}"
    );
    let text = flat(&render(report));
    assert!(
        text.contains("one bound further, at 3 faults: shortest schedule to"),
        "{text}"
    );
    // A break one bound further is news, not a failed check.
    assert!(report.passed());
}

#[test]
fn idempotent_holds_within_2_faults_and_also_at_3_and_with_a_retry() {
    let report = at_default("idempotent");
    let line = row_line(report);
    assert!(
        line.contains("holds within 2 consumers, 1 message and 2 faults, assuming one payment per message ID (")
            && line.contains("; also holds at 3 faults (")
            && line.contains(" states; also holds with a producer retry ("),
        "{line}"
    );
}

#[test]
fn a_lowered_fault_bound_is_said_where_the_result_is() {
    let report = checked(
        "row-version",
        Bounds {
            max_faults: 2,
            ..Bounds::default()
        },
    );
    let line = row_line(&report);
    assert!(
        line.contains("broken, as expected (2 faults asked for, run at 1 fault: this design's own bounds, see below)"),
        "{line}"
    );
    let text = flat(&render(&report));
    assert!(
        text.contains("at most 1 fault per schedule, lowered from the 2 asked for"),
        "{text}"
    );
    // And a design that holds under its own bounds names them.
    let offset = row_line(at_default("offset"));
    assert!(
        offset.contains(
            "holds within 2 consumers, two payments for one order and 1 fault, on one ordered partition (2 faults asked for, run at 1 fault: this design's own bounds, see below; the count asked for is its try one bound further) ("
        ) && offset.contains("; also holds at 2 faults ("),
        "{offset}"
    );
}

#[test]
fn each_designs_properties_name_only_what_it_has() {
    let texts = |name: &str| -> Vec<String> {
        at_default(name).strategies[0]
            .invariants
            .iter()
            .map(|i| i.text.clone())
            .collect()
    };
    let offset = texts("offset");
    assert!(
        offset.iter().all(|t| !t.contains("processed message")),
        "{offset:?}"
    );
    let idempotent = texts("idempotent");
    assert!(
        idempotent.iter().any(|t| t.contains("processed message")),
        "{idempotent:?}"
    );
}

#[test]
fn designs_carry_their_assumptions() {
    let assumed = |name: &str| Strategy::by_name(name).unwrap().assumptions();
    assert_eq!(assumed("offset"), [Assumption::OrderedLog]);
    assert_eq!(assumed("versioned"), [Assumption::StatusChanges]);
    // Each tells a duplicate by its message ID: one ID, one payment.
    assert_eq!(assumed("idempotent"), [Assumption::OnePaymentPerId]);
    assert_eq!(assumed("in-progress"), [Assumption::OnePaymentPerId]);
}

#[test]
fn a_producer_retry_is_outside_the_offsets_promise_and_is_said_so() {
    let report = checked(
        "offset",
        Bounds {
            retries: 1,
            ..Bounds::default()
        },
    );
    let row = &report.strategies[0];
    assert!(row.broken());
    assert!(!row.contradicts_claim(), "outside its assumptions");
    assert!(
        row.outside
            .as_deref()
            .unwrap()
            .contains("one ordered partition")
    );
    assert!(row_line(&report).contains("breaks outside its promise"));
    // What it shows: a payment recorded twice, charged once.
    let cx = &row.counterexamples[0];
    assert_eq!((cx.total, cx.charges), (105, 2));
    assert!(
        cx.chain
            .contains("the provider charged once, the database has 2 committed payments")
    );
    // And the README says that, not "losing payments".
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(readme.contains("shows `offset` recording a payment\ntwice"));
    assert!(!readme.contains("losing payments once the producer may retry"));
    // No further try with a retry for a design that assumes none.
    let plain = at_default("offset");
    assert!(
        plain.strategies[0]
            .further
            .iter()
            .all(|f| f.widening != Widening::Retry)
    );
}

#[test]
fn the_soak_says_why_an_offset_or_versioned_violation_is_outside_its_promise() {
    for design in ["offset", "versioned"] {
        let out = Command::new(env!("CARGO_BIN_EXE_idem"))
            .args(["soak", "--mode", design, "--messages", "300", "--headless"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("violations: "), "{text}");
        assert!(
            text.contains(&format!("  outside its promise: {design} assumes")),
            "{design}: {text}"
        );
        assert_eq!(out.status.code(), Some(0), "{design}: {text}");
    }
}

#[test]
fn a_won_level_names_its_bounds_and_the_try_one_further() {
    let level = idem::levels::get(8).unwrap();
    let won = idem::levels::Attempt::check(&level, &level.solution).unwrap();
    assert!(won.won());
    let fault = won
        .report
        .further
        .iter()
        .find(|f| f.widening == Widening::Fault)
        .expect("level 8's solution tried at one more fault");
    assert_eq!(fault.bounds.max_faults, 2);
    assert!(matches!(fault.result, FurtherResult::Holds { .. }));
    // A handler that wins within the bounds but breaks one fault further
    // (the in-progress design, on the last level) keeps that run for `v`.
    let last = idem::levels::all().pop().unwrap();
    let program = Strategy::by_name("in-progress").unwrap().program;
    let attempt = idem::levels::Attempt::check(&last, &program).unwrap();
    if attempt.won() {
        assert!(attempt.counterexample().is_some());
    }
}

/// The caps of each kind the default bounds keep at 3 faults, in the
/// words a try one fault further states them with.
const CAPS: &str =
    "still at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry";

/// Teacher trial: the explorer and `idem check` said idempotent "also
/// holds at 3 faults" while level 2 (crashes only) said the textbook
/// handler "breaks at 3 faults": two tries at 3 faults, one still capped
/// at 1 crash per consumer, the other not, and neither said so. Every
/// result one fault further names the caps that still held (or that none
/// did), in `idem check`, the explorer and the level screen.
#[test]
fn every_try_one_fault_further_names_the_caps_that_still_held() {
    let mut wrong = Vec::new();
    let mut places = 0;
    for name in ["idempotent", "in-progress"] {
        let report = at_default(name);
        let row = row_line(report);
        places += 1;
        if !row.contains(&format!("at 3 faults ({CAPS}")) {
            wrong.push(format!("idem check row of {name}: {row}"));
        }
        let text = flat(&render(report));
        places += 1;
        if !text.contains(&format!("one bound further: 3 faults ({CAPS})")) {
            wrong.push(format!("idem check further line of {name}"));
        }
        let mut a = crate::common::check::explorer_showing(report.clone());
        // The claim wraps where its words fall: read the rows' words
        // whole, each row's edge and quote dropped.
        let screen = crate::common::draw(&mut a, 120, 60)
            .split(|c: char| c.is_whitespace() || c == '"')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        places += 1;
        if !screen.contains(CAPS) {
            wrong.push(format!("explorer detail of {name}: {screen}"));
        }
    }
    // Level 2 throws crashes only, as many as faults are allowed: its try
    // at 3 faults is another kind of try, and says which.
    let level = idem::levels::get(2).expect("level 2");
    let attempt = idem::levels::Attempt::check(&level, &level.solution).unwrap();
    assert!(attempt.won());
    let fault = attempt
        .report
        .further
        .iter()
        .find(|f| f.widening == Widening::Fault)
        .expect("tried one more fault");
    places += 1;
    let said = fault.words();
    if !said.contains("at 3 faults (crashes only, no cap per kind)") {
        wrong.push(format!("level 2: {said}"));
    }
    assert!(
        wrong.is_empty(),
        "{} of {places} statements one fault further name no caps:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The check table's dead-letter column counts only the runs dead-lettered
/// because the provider refused the charge (the failures that end
/// dead-lettered count under their failure); its heading and legend say
/// so, in `idem check` and the explorer alike.
#[test]
fn the_dead_letter_column_says_what_it_counts() {
    let mut wrong = Vec::new();
    let mut places = 0;
    for report in [crate::common::check::report(), at_default("in-progress")] {
        let text = flat(&render(report));
        places += 1;
        if text.contains("dlq")
            || !text.contains("refused: dead-lettered because the provider refused it")
        {
            wrong.push("idem check legend".to_string());
        }
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let mut a = crate::common::check::explorer_showing(report.clone());
            let screen = crate::common::draw(&mut a, w, h);
            places += 1;
            if screen.contains("dlq") {
                wrong.push(format!("explorer {w}x{h}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {places} places still say dlq or no refusal:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `idem check --strategy idempotent --faults 3 --crashes 3 …` (a level's
/// kind of bounds): every failing schedule dead-letters a message each of
/// whose 3 receives a crash ended. The contradiction says that no handler
/// can finish those, beside its bounds; with lost acks allowed too, where
/// a run a handler could finish fails as well, it does not.
#[test]
fn a_contradiction_only_crashes_through_every_receive_says_so() {
    let crashes_only = Bounds {
        max_faults: 3,
        crashes: 3,
        lost_acks: 0,
        lost_responses: 0,
        early_expiries: 0,
        ..Bounds::default()
    };
    let line = flat(&row_line(&checked("idempotent", crashes_only)));
    assert!(
        line.contains("CONTRADICTS ITS PROMISE within 2 consumers, 1 message and 3 faults")
            && line.contains(
                "but only where a crash ends each of the 3 receives the broker allows (81 schedules), which no handler can finish"
            ),
        "{line}"
    );
    // A design that a run a handler could finish breaks too (in-progress
    // at 3 faults: a healthy message backs off until it is dead-lettered):
    // no such word.
    let backs_off = flat(&row_line(&checked(
        "in-progress",
        Bounds {
            max_faults: 3,
            ..Bounds::default()
        },
    )));
    assert!(
        backs_off.contains("CONTRADICTS ITS PROMISE")
            && !backs_off.contains("no handler can finish"),
        "{backs_off}"
    );
}
