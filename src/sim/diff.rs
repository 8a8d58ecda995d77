//! The changes of one step, found by diffing its frame against the one
//! before (see `change.rs` for what they mean).

use super::change::{Change, Changes, ItemChange, Place, StepRan};
use super::frame::{Frame, PaymentView, ProcessedView};

impl Changes {
    /// Everything `after` shows differently from `before`, apart from time
    /// running down (lease and cache countdowns move on every step).
    pub fn between(before: &Frame, after: &Frame) -> Changes {
        let mut items = Vec::new();
        payments(&before.db.payments, &after.db.payments, &mut items);
        processed(&before.db.processed, &after.db.processed, &mut items);
        keyed(
            Place::Queue,
            &before.queue.messages,
            &after.queue.messages,
            |m| m.broker_id.clone(),
            // What the broker knows: an ack lost on the wire changes none
            // of it (only the observer's view, marked there).
            |m| {
                (
                    m.phase,
                    m.holder.clone(),
                    m.receipt.clone(),
                    m.receives,
                    m.redelivered,
                )
            },
            |m| format!("{} {}", m.message_id, m.body),
            &mut items,
        );
        keyed(
            Place::Records,
            &before.db.records,
            &after.db.records,
            |r| r.message_id.clone(),
            |r| r.clone(),
            |r| format!("{} {}", r.message_id, r.status),
            &mut items,
        );
        keyed(
            Place::Statuses,
            &before.db.statuses,
            &after.db.statuses,
            |r| r.order.to_string(),
            |r| r.clone(),
            |r| format!("{} {} v{}", r.order, r.status, r.version),
            &mut items,
        );
        keyed(
            Place::Orders,
            &before.db.orders,
            &after.db.orders,
            |r| r.order.to_string(),
            |r| r.clone(),
            |r| format!("{} last {}", r.order, r.last_message_id),
            &mut items,
        );
        let offset = |f: &Frame| f.db.last_offset.into_iter().collect::<Vec<_>>();
        keyed(
            Place::Offset,
            &offset(before),
            &offset(after),
            |_| "offset".to_string(),
            |o| *o,
            |o| format!("offset {o}"),
            &mut items,
        );
        // A key set again gets its full time back: that is a change; the
        // countdown alone is not.
        keyed(
            Place::Cache,
            &before.cache.entries,
            &after.cache.entries,
            |e| e.key.clone(),
            |e| e.key.clone(),
            |e| e.key.clone(),
            &mut items,
        );
        for e in &after.cache.entries {
            let was = before.cache.entries.iter().find(|b| b.key == e.key);
            if was.is_some_and(|b| e.ttl_left_ms > b.ttl_left_ms) {
                items.push(item(Place::Cache, &e.key, Change::Changed, e.key.clone()));
            }
        }
        keyed(
            Place::Charges,
            &before.provider.charges,
            &after.provider.charges,
            |c| c.id.clone(),
            |c| c.clone(),
            |c| format!("{} order {} ${}", c.id, c.order, c.amount),
            &mut items,
        );
        keyed(
            Place::Keys,
            &before.provider.keys,
            &after.provider.keys,
            |k| k.key.clone(),
            // A replay answers from the stored result and changes nothing
            // stored: its own mark (↺ replayed now) says so, not "changed".
            |k| k.result.clone(),
            |k| format!("{} {}", k.key, k.result),
            &mut items,
        );
        let (b, a) = (&before.counters, &after.counters);
        let counters = [
            ("delivered", b.delivered, a.delivered),
            ("redeliveries", b.redeliveries, a.redeliveries),
            (
                "duplicates_delivered",
                b.duplicates_delivered,
                a.duplicates_delivered,
            ),
            (
                "duplicates_skipped",
                b.duplicates_skipped,
                a.duplicates_skipped,
            ),
            (
                "skipped_not_duplicates",
                b.skipped_not_duplicates,
                a.skipped_not_duplicates,
            ),
            ("acked", b.acked, a.acked),
            ("acks_lost", b.acks_lost, a.acks_lost),
            ("dead_lettered", b.dead_lettered, a.dead_lettered),
            ("crashes", b.crashes, a.crashes),
        ]
        .into_iter()
        .filter(|(_, was, now)| was != now)
        .map(|(name, was, _)| (name, was))
        .collect();
        Changes {
            items,
            total_was: (before.db.payments_total != after.db.payments_total)
                .then_some(before.db.payments_total),
            charges_was: (before.provider.charges.len() != after.provider.charges.len())
                .then_some(before.provider.charges.len()),
            queue_was: (queued(before) != queued(after)).then_some(queued(before)),
            processed_was: (processed_rows(before) != processed_rows(after))
                .then_some(processed_rows(before)),
            pending_processed_was: (pending_processed(before) != pending_processed(after))
                .then_some(pending_processed(before).part),
            pending_total_was: (pending_total(before) != pending_total(after))
                .then_some(pending_total(before).part),
            counters,
            steps: steps_ran(before, after),
        }
    }
}

/// Messages the broker still holds: waiting, or in flight to a consumer.
pub fn queued(f: &Frame) -> usize {
    use super::frame::MessagePhase;
    f.queue
        .messages
        .iter()
        .filter(|m| matches!(m.phase, MessagePhase::Waiting | MessagePhase::InFlight))
        .count()
}

/// Committed rows of processed_messages: what another consumer would see.
pub fn processed_rows(f: &Frame) -> usize {
    f.db.processed
        .iter()
        .filter(|p| p.uncommitted_by.is_none())
        .count()
}

/// What open transactions have written and not committed: a count or an
/// amount, and who holds it (each holder once, in name order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pending<T> {
    pub part: T,
    pub by: Vec<String>,
}

impl<T> Pending<T> {
    fn of<'a>(rows: impl Iterator<Item = (T, &'a str)>) -> Pending<T>
    where
        T: std::iter::Sum<T>,
    {
        let mut by = Vec::new();
        let part = rows
            .map(|(n, holder)| {
                by.push(holder.to_string());
                n
            })
            .sum();
        by.sort();
        by.dedup();
        Pending { part, by }
    }
}

/// Uncommitted rows of processed_messages: a consumer's claim on an ID
/// that no other consumer sees until its commit.
pub fn pending_processed(f: &Frame) -> Pending<usize> {
    Pending::of(
        f.db.processed
            .iter()
            .filter_map(|p| p.uncommitted_by.as_deref().map(|by| (1, by))),
    )
}

/// Uncommitted payment rows' amount, in dollars: not in the committed
/// total until its transaction commits, and gone if it rolls back.
pub fn pending_total(f: &Frame) -> Pending<u64> {
    Pending::of(f.db.payments.iter().filter_map(|p| {
        p.uncommitted_by
            .as_deref()
            .map(|by| (u64::from(p.amount), by))
    }))
}

fn item(place: Place, key: &str, change: Change, was: String) -> ItemChange {
    ItemChange {
        place,
        key: key.to_string(),
        change,
        was,
    }
}

/// Items with an identity: added, removed, or changed in what `state` sees.
fn keyed<T, S: PartialEq>(
    place: Place,
    before: &[T],
    after: &[T],
    key: impl Fn(&T) -> String,
    state: impl Fn(&T) -> S,
    text: impl Fn(&T) -> String,
    out: &mut Vec<ItemChange>,
) {
    for a in after {
        let k = key(a);
        match before.iter().find(|b| key(b) == k) {
            None => out.push(item(place, &k, Change::Added, String::new())),
            Some(b) if state(b) != state(a) => out.push(item(place, &k, Change::Changed, text(b))),
            Some(_) => {}
        }
    }
    for b in before {
        let k = key(b);
        if !after.iter().any(|a| key(a) == k) {
            out.push(item(place, &k, Change::Removed, text(b)));
        }
    }
}

/// Payment rows by position: committed rows come first in the order they
/// were written, then the open transaction's own rows, and rows are never
/// deleted, only rolled back.
fn payments(before: &[PaymentView], after: &[PaymentView], out: &mut Vec<ItemChange>) {
    let text = |p: &PaymentView| format!("{} ${} {}", p.order, p.amount, p.message_id);
    for i in 0..before.len().max(after.len()) {
        let key = i.to_string();
        match (before.get(i), after.get(i)) {
            (None, Some(_)) => out.push(item(Place::Payments, &key, Change::Added, String::new())),
            (Some(b), None) => {
                let change = if b.uncommitted_by.is_some() {
                    Change::RolledBack
                } else {
                    Change::Removed
                };
                out.push(item(Place::Payments, &key, change, text(b)));
            }
            (Some(b), Some(a)) if text(b) != text(a) => {
                out.push(item(Place::Payments, &key, Change::Changed, text(b)));
            }
            (Some(b), Some(a)) if b.uncommitted_by.is_some() && a.uncommitted_by.is_none() => {
                out.push(item(Place::Payments, &key, Change::Committed, text(b)));
            }
            _ => {}
        }
    }
}

fn processed(before: &[ProcessedView], after: &[ProcessedView], out: &mut Vec<ItemChange>) {
    for a in after {
        match before.iter().find(|b| b.message_id == a.message_id) {
            None => out.push(item(
                Place::Processed,
                &a.message_id,
                Change::Added,
                String::new(),
            )),
            Some(b) if b.uncommitted_by.is_some() && a.uncommitted_by.is_none() => out.push(item(
                Place::Processed,
                &a.message_id,
                Change::Committed,
                String::new(),
            )),
            Some(_) => {}
        }
    }
    for b in before {
        if !after.iter().any(|a| a.message_id == b.message_id) {
            let change = if b.uncommitted_by.is_some() {
                Change::RolledBack
            } else {
                Change::Removed
            };
            out.push(item(
                Place::Processed,
                &b.message_id,
                change,
                b.message_id.clone(),
            ));
        }
    }
}

/// The step each consumer ran: the first step whose mark moved to anything
/// but "to do". A duplicate found marks the steps after it skipped in the
/// same move; the step that ran is still the check. A consumer that takes a
/// new message resets its marks, and its receive, done before and after,
/// is then the step that ran.
fn steps_ran(before: &Frame, after: &Frame) -> Vec<StepRan> {
    use super::consumer::Mark;
    let mut out = Vec::new();
    for a in after
        .consumers
        .iter()
        .filter(|a| after.stepped.as_deref() == Some(a.name.as_str()))
    {
        let b = before.consumers.iter().find(|b| b.name == a.name);
        let was = |k: usize| b.and_then(|b| b.steps.get(k)).map(|s| s.mark);
        let moved = a
            .steps
            .iter()
            .enumerate()
            .position(|(k, s)| s.mark != Mark::Todo && was(k).is_none_or(|m| m != s.mark));
        let reset = a
            .steps
            .iter()
            .enumerate()
            .any(|(k, s)| s.mark == Mark::Todo && was(k).is_some_and(|m| m != Mark::Todo));
        let received = reset && a.steps.first().is_some_and(|s| s.mark != Mark::Todo);
        if let Some(step) = moved.or(received.then_some(0)) {
            out.push(StepRan {
                consumer: a.name.clone(),
                step,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    fn timeline(name: &str, design: &str) -> Timeline {
        let script = scenario::find(name).unwrap();
        Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
    }

    #[test]
    fn a_commit_marks_both_rows_and_the_total() {
        let t = timeline("tour-2", "idempotent");
        let commit = t
            .frames
            .iter()
            .find(|f| f.changes.of(Place::Payments, "0") == Some(Change::Committed))
            .expect("the payment commits");
        assert_eq!(
            commit.changes.of(Place::Processed, "m-7f3"),
            Some(Change::Committed)
        );
        assert_eq!(commit.changes.total_was, Some(0));
        assert_eq!(commit.db.payments_total, 40);
    }

    /// The uncommitted part moves when a row is written, and again when
    /// it commits or rolls back, while the committed figures stand still.
    #[test]
    fn the_uncommitted_part_moves_with_the_open_transaction() {
        let t = timeline("tour-2", "idempotent");
        let written = t
            .frames
            .iter()
            .find(|f| f.changes.pending_total_was.is_some())
            .expect("a payment row is written");
        assert_eq!(written.changes.pending_total_was, Some(0));
        assert_eq!(written.changes.total_was, None);
        let p = pending_total(written);
        assert_eq!((p.part, p.by), (40, vec!["A".to_string()]));
        let claimed = t
            .frames
            .iter()
            .find(|f| f.changes.pending_processed_was.is_some())
            .expect("an ID is claimed");
        assert_eq!(claimed.changes.processed_was, None);
        assert_eq!(pending_processed(claimed).part, 1);
        let crash = t
            .frames
            .iter()
            .find(|f| f.changes.gone(Place::Payments).count() > 0)
            .expect("tour 2 crashes before the commit");
        assert_eq!(crash.changes.pending_total_was, Some(40));
        assert_eq!(pending_total(crash), Pending::default());
    }

    #[test]
    fn a_crash_rolls_back_the_open_rows() {
        let t = timeline("tour-2", "idempotent");
        let crash = t
            .frames
            .iter()
            .find(|f| f.changes.gone(Place::Payments).count() > 0)
            .expect("tour 2 crashes before the commit");
        let gone: Vec<_> = crash.changes.gone(Place::Payments).collect();
        assert_eq!(gone[0].change, Change::RolledBack);
        assert!(gone[0].was.contains("m-7f3"), "{}", gone[0].was);
        assert_eq!(
            crash.changes.of(Place::Processed, "m-7f3"),
            Some(Change::RolledBack)
        );
    }

    #[test]
    fn each_step_names_the_handler_step_it_ran() {
        let t = timeline("tour-1", "naive");
        assert!(t.frames[0].changes.is_empty());
        let first = &t.frames[1];
        assert_eq!(first.changes.step_of("A"), Some(0), "receive");
        assert!(first.changes.counter_was("delivered") == Some(0));
        let charge = t
            .frames
            .iter()
            .find(|f| f.changes.charges_was.is_some())
            .unwrap();
        assert_eq!(charge.changes.charges_was, Some(0));
        assert_eq!(charge.provider.charges.len(), 1);
        assert!(charge.changes.of(Place::Charges, "ch_81").is_some());
        // A frame in which nothing moved has no marks.
        for pair in t.frames.windows(2) {
            if pair[0].db == pair[1].db && pair[0].provider == pair[1].provider {
                assert!(
                    pair[1]
                        .changes
                        .items
                        .iter()
                        .all(|i| i.place == Place::Queue || i.place == Place::Cache)
                );
            }
        }
    }
}
