//! Issue 18 §7: a design for status changes is judged by properties of
//! status changes. The versioned design's run charges nothing, so the
//! payment invariants would hold there without saying anything: the
//! checker lists, for a run of status changes, that the order's status
//! never goes back to an older version, that no version is applied twice,
//! and that the order ends at its newest status; and it catches a handler
//! that breaks them.

use idem::check::further::{FurtherResult, Widening};
use idem::check::{
    Bounds, CheckReport, Eventually, Invariant, Kind, StrategyReport, check_strategy, render,
};
use idem::sim::{Move, Op, Strategy};
use std::borrow::Cow;

/// The versioned design with its guard taken out: it sets the status
/// whatever version the row holds (`SET status = ...`, as a handler that
/// trusts a naturally idempotent write does).
fn naive_status() -> Strategy {
    let versioned = Strategy::by_name("versioned").unwrap();
    Strategy {
        name: Cow::Borrowed("naive-status"),
        summary: Cow::Borrowed("sets the status whatever version the row holds"),
        claims_safe: true,
        program: versioned
            .program
            .iter()
            .map(|op| match op {
                Op::ApplyIfNewer => Op::ApplyCharge,
                op => *op,
            })
            .collect(),
    }
}

/// Two status changes of one order, one fault: the versioned design's
/// own bounds.
fn status_bounds() -> Bounds {
    Bounds {
        messages: 2,
        status_changes: true,
        max_faults: 1,
        ..Bounds::default()
    }
}

fn report(row: StrategyReport, bounds: Bounds) -> CheckReport {
    CheckReport {
        bounds,
        strategies: vec![row],
        seconds: 0.0,
    }
}

fn listed(row: &StrategyReport) -> Vec<Invariant> {
    row.invariants.iter().map(|i| i.invariant).collect()
}

#[test]
fn a_handler_that_writes_an_older_version_over_a_newer_one_is_caught() {
    let row = check_strategy(&naive_status(), &status_bounds()).unwrap();
    let older = row
        .invariants
        .iter()
        .find(|i| i.invariant == Invariant::StatusNeverOlder)
        .expect("the status invariants are listed for status changes");
    let moves = older
        .shortest
        .as_ref()
        .expect("version 1 committed after version 2 is caught");
    // No fault needed: A takes version 1, B version 2, B commits first.
    assert!(
        moves.iter().all(|m| matches!(m, Move::Step { .. })),
        "a race alone does it: {moves:?}"
    );
    let twice = row
        .invariants
        .iter()
        .find(|i| i.invariant == Invariant::StatusVersionOnce)
        .unwrap();
    assert!(
        !twice.holds,
        "a redelivered version is applied by a second commit"
    );
    assert!(row.contradicts_claim());
    let text = render(&report(row, status_bounds()));
    // The report wraps to its width: read it as one run of words.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("an order's status never goes back to a version older than one committed"),
        "{text}"
    );
}

#[test]
fn versioned_holds_by_the_status_properties_and_lists_no_payment_ones() {
    let row = crate::common::check::at_default("versioned").strategies[0].clone();
    assert_eq!(row.kind, Kind::StatusChanges);
    assert_eq!(
        listed(&row),
        [Invariant::StatusNeverOlder, Invariant::StatusVersionOnce]
    );
    assert!(row.invariants.iter().all(|i| i.holds));
    assert_eq!(row.eventually.property, Eventually::NewestStatus);
    assert!(row.eventually.holds);
    let report = report(row, Bounds::default());
    let text = render(&report);
    for payment in [
        "payment row per business fact",
        "provider charge per business fact",
        "implies its payment",
        "charged exactly once",
    ] {
        assert!(!text.contains(payment), "{payment} listed:\n{text}");
    }
    let json = report.to_json();
    assert!(json.contains("\"status_never_older\""), "{json}");
    assert!(!json.contains("\"one_payment\""), "{json}");
    assert!(json.contains("\"newest_status\""), "{json}");
}

#[test]
fn a_payment_design_lists_only_the_payment_properties() {
    let idempotent = Strategy::by_name("idempotent").unwrap();
    let row = check_strategy(
        &idempotent,
        &Bounds {
            max_faults: 1,
            ..Bounds::default()
        },
    )
    .unwrap();
    assert_eq!(row.kind, Kind::Payments);
    assert_eq!(
        listed(&row),
        [
            Invariant::OnePayment,
            Invariant::OneCharge,
            Invariant::ProcessedImpliesPayment
        ]
    );
    assert_eq!(row.eventually.property, Eventually::ChargedOnce);
}

#[test]
fn versioned_is_tried_one_fault_further_and_with_a_retry() {
    let row = crate::common::check::at_default("versioned").strategies[0].clone();
    let fault = row
        .further
        .iter()
        .find(|f| f.widening == Widening::Fault)
        .unwrap();
    assert_eq!(fault.bounds.max_faults, 2);
    assert!(
        matches!(fault.result, FurtherResult::Holds { .. }),
        "{:?}",
        fault.result
    );
    let retry = row
        .further
        .iter()
        .find(|f| f.widening == Widening::Retry)
        .unwrap();
    assert!(
        matches!(retry.result, FurtherResult::Holds { .. }),
        "{:?}",
        retry.result
    );
}
