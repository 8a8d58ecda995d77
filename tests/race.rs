//! The race of tour 3, checked statement by statement: two consumers on two
//! real SQLite connections, the second blocked by the first's write lock.

use idem::scenario::find;
use idem::sim::consumer::Status;
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;

fn frames(strategy: Strategy) -> Vec<Frame> {
    let script = find("tour-3").unwrap();
    Timeline::build(&script, &strategy, 0, &[]).unwrap().frames
}

#[test]
fn b_waits_for_a_then_skips_the_duplicate() {
    let frames = frames(Strategy::idempotent());
    let blocked = frames
        .iter()
        .position(|f| {
            f.sql
                .iter()
                .any(|s| s.result == "SQLITE_BUSY: waiting for A's transaction")
        })
        .expect("B must be blocked by A's transaction");
    let b = &frames[blocked].consumers[1];
    assert_eq!(b.status, Status::Blocked { by: "A".into() });
    assert!(frames[blocked].consumers[0].in_txn);

    let a_commit = frames
        .iter()
        .position(|f| f.sql.iter().any(|s| s.consumer == "A" && s.sql == "COMMIT"))
        .unwrap();
    let conflict = frames
        .iter()
        .position(|f| {
            f.sql.iter().any(|s| {
                s.consumer == "B" && s.result == "0 rows: conflict, message_id already handled"
            })
        })
        .expect("B's claim must hit the unique key");
    assert!(blocked < a_commit && a_commit < conflict);
    assert!(frames[conflict].db.processed[0].conflict);

    let end = frames.last().unwrap();
    assert_eq!(end.db.payments_total, 40);
    assert_eq!(end.counters.duplicates_skipped, 1);
    assert!(end.events.iter().any(|e| e.text == "acks m-7f3"));
}

#[test]
fn a_naive_b_charges_again_after_the_wait() {
    let frames = frames(Strategy::naive());
    assert!(
        frames
            .iter()
            .any(|f| f.sql.iter().any(|s| s.result.starts_with("SQLITE_BUSY")))
    );
    let end = frames.last().unwrap();
    assert_eq!(end.db.payments.len(), 2);
    assert!(end.db.payments[1].repeat);
}
