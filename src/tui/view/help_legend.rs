//! The signs the screens draw, as the help explains them. Each sign is
//! made here from the glyph or the text its panel draws it with, so the
//! legend cannot name a sign the screen no longer shows, nor show one in
//! a form the screen does not use (ASCII included).

use super::{broker, marks, newest, overflow, provider, service};
use crate::sim::change::Change;
use crate::tui::theme::Theme;

/// One sign and what it means (nothing where the sign's own word says
/// it, as in `+ new`).
pub struct Sign {
    pub sign: String,
    pub meaning: String,
}

/// A heading and its lines; each line holds one sign or a few short ones.
pub struct Section {
    pub heading: &'static str,
    pub lines: Vec<Vec<Sign>>,
}

fn sign(sign: impl Into<String>, meaning: impl Into<String>) -> Sign {
    Sign {
        sign: sign.into(),
        meaning: meaning.into(),
    }
}

/// Every section of the legend, in the order the help shows them.
pub fn sections(t: &Theme) -> Vec<Section> {
    vec![
        Section {
            heading: "Marks",
            lines: steps(t),
        },
        Section {
            heading: "Broker",
            lines: broker(t),
        },
        Section {
            heading: "Rows",
            lines: rows(t),
        },
        Section {
            heading: "Changes",
            lines: changes(t),
        },
        Section {
            heading: "Folds",
            lines: folds(t),
        },
        Section {
            heading: "Verdict",
            lines: verdict(t),
        },
    ]
}

/// The marks on a consumer's steps (`service::mark`), and the strip that
/// stands for a list with no room.
fn steps(t: &Theme) -> Vec<Vec<Sign>> {
    let g = &t.g;
    let strip = format!(
        "{d}{d}{d}{next}{todo}{todo}",
        d = g.done,
        next = g.upcoming,
        todo = g.todo
    );
    vec![
        vec![
            sign(g.done, "done"),
            sign(g.skipped, "skipped"),
            sign(g.upcoming, "the step it runs next"),
        ],
        // The step's own finding, not "duplicate": a genuine second
        // payment whose key collides is refused the same way.
        vec![sign(
            g.conflict,
            format!(
                "{}: what the step's check found; whether it was a duplicate only the observer ({}) can tell",
                crate::sim::step_name::FOUND.join(", "),
                g.observer
            ),
        )],
        vec![sign(
            format!("{} this step", g.ran),
            "the step that just ran (its name in reverse)",
        )],
        vec![sign(
            g.failed,
            "failed, or lost: no answer came back (the call may have worked)",
        )],
        vec![sign(
            g.superseded,
            "not owner: another delivery holds the message's record",
        )],
        vec![sign(g.waiting, "blocked, waiting for a lock")],
        vec![sign(
            g.awaiting,
            "awaits the provider's answer to another request with its key",
        )],
        vec![sign(
            g.refused,
            "refused with 409: a request with its key is still in progress",
        )],
        vec![sign(
            g.backed_off,
            "backed off: another delivery's record is live",
        )],
        vec![sign(
            g.crashed,
            "crashed: the step never ran, or its answer was never received",
        )],
        vec![sign(
            strip,
            format!(
                "a consumer's steps in one row (its step strip), one mark each, where its list has no room ({} not run yet); a row under it names the step that matters now",
                g.todo
            ),
        )],
    ]
}

/// A message's state in the broker panel, and its lease.
fn broker(t: &Theme) -> Vec<Vec<Sign>> {
    let g = &t.g;
    vec![
        vec![sign(
            format!("{} waiting", g.pending),
            "in the queue and visible: the next receive gets it (where the panel is narrow, a state is its sign alone)",
        )],
        vec![sign(
            format!("{} in flight {} A", g.next, g.arrow),
            format!(
                "leased to A ({} A leased, or {} A, where the panel is narrow): no other receive gets it until A acks or the lease runs out",
                g.arrow, g.arrow
            ),
        )],
        vec![sign(
            format!("{} acked by A, removed", g.done),
            "A's ack reached the broker, which removed the message",
        )],
        vec![sign(
            format!("{} dead-lettered", g.failed),
            "its receives ran out: moved to the dead-letter queue (in DLQ)",
        )],
        vec![sign(
            format!("{} 1", crate::sim::counter_words::REDELIVERED),
            format!(
                "the broker's own count: deliveries of a message whose lease ran out without an ack, handed out again; whether the work was already done it cannot tell ({} {})",
                g.observer,
                crate::sim::counter_words::DUPLICATE_DELIVERIES
            ),
        )],
        vec![sign(
            format!("lease {}{}{} 27s", g.bar_full, g.bar_full, g.bar_empty),
            "the time left on the lease; at 0 the broker offers the message again",
        )],
    ]
}

/// The signs inside a panel's rows.
fn rows(t: &Theme) -> Vec<Vec<Sign>> {
    let g = &t.g;
    let (open, short) = service::TXN_OPEN;
    vec![
        vec![sign(
            format!("{} again", g.failed),
            "a payment row the customer does not owe (more rows for its order and amount than were asked for): the duplicate",
        )],
        vec![sign(
            "uncommitted (A) or in txn A",
            "a payment row A's open transaction wrote: it may still commit or roll back",
        )],
        vec![sign(
            service::KEY_TAG.trim(),
            "the provider call sends an Idempotency-Key",
        )],
        vec![sign(
            format!("{} or {}", short.trim(), open.trim()),
            "the consumer has a database transaction open; its rows are not committed yet",
        )],
        vec![sign(
            provider::order_tag(1042),
            "order 1042, where the row has no room for the word",
        )],
        vec![sign(
            "until 1m12s no result",
            "an in-progress record (idempotency_records): it binds until its deadline (the clock's t=1m12s), then another delivery may take the work over; no result is kept for a repeat yet (once completed: result ch_81)",
        )],
        vec![sign(
            format!("{} {}1", g.replay, g.times),
            format!(
                "the provider answered a repeat of this key from its store, once ({}2: twice), and charged nothing again; {} replayed {}1 now: in this step",
                g.times, g.replay, g.times
            ),
        )],
        vec![sign(
            g.observer,
            // The count by each of the names the broker panel gives it.
            format!(
                "what the party whose panel shows it cannot know, only you, the observer: acks lost, {} ({}): deliveries of a message whose work another delivery had already done (a payment committed, a charge made), so a redelivery after a crash before any work is none, and a duplicate is a delivery, not a second payment; on a consumer's step, an ack the broker ignored (the broker knows; the consumer cannot tell)",
                broker::DUP_NAMES[0],
                broker::DUP_NAMES[1..].join(", ")
            ),
        )],
        vec![sign(
            g.warning,
            "at risk, nothing wrong yet: a fault armed or happening; in the explorer, a design that holds only within the bounds (it breaks one bound further)",
        )],
        vec![sign(
            g.vacuous,
            "in the explorer: a pass that proves nothing",
        )],
    ]
}

/// What the step on screen changed (`marks`): a symbol and a word.
fn changes(t: &Theme) -> Vec<Vec<Sign>> {
    let g = &t.g;
    let mark = |c: Change| format!("{} {}", marks::symbol(t, c), marks::word(c));
    vec![
        vec![
            sign(mark(Change::Added), ""),
            sign(mark(Change::Changed), ""),
            sign(mark(Change::Committed), ""),
            sign(mark(Change::Removed), ""),
            sign(
                mark(Change::RolledBack),
                "what the step on screen did to a row",
            ),
        ],
        vec![
            sign(format!("({}1)", g.added), "a counter moved, by one"),
            sign(format!("{} was $40", g.changed), "a figure moved, from $40"),
        ],
    ]
}

/// The counts of what a panel has no room for.
fn folds(t: &Theme) -> Vec<Vec<Sign>> {
    let (long, short) = overflow::signs(t, 2);
    let (heading_long, heading_short) = overflow::heading_signs(t, 2);
    vec![
        vec![sign(
            format!("{} or {}", short.trim(), long.trim()),
            "2 rows the panel has no room for (never a change of the figure beside it); z zooms the panel",
        )],
        vec![sign(
            format!("{} or {}", heading_short.trim(), heading_long.trim()),
            "the same, after a heading that ends in a count (charges 2), so it never reads as one more",
        )],
        vec![sign(
            format!("{} 2 more sentences", if t.ascii() { "^" } else { "↑" }),
            "the story's sentences its panel has no room for, on its border (or below); z reads all",
        )],
        vec![sign(
            newest::above(t, 2, newest::EVENTS).to_string(),
            "older events (or statements) above the newest, scrolled past",
        )],
        vec![sign(
            if t.ascii() {
                "3 steps below".to_string()
            } else {
                "↓ 3 steps below".to_string()
            },
            "a consumer's steps its list has no room for (or above)",
        )],
        vec![sign(
            marks::symbol(t, Change::RolledBack),
            "a change mark alone, where its row has no room for its word",
        )],
    ]
}

/// The verdict's outcome marks.
fn verdict(t: &Theme) -> Vec<Vec<Sign>> {
    let g = &t.g;
    vec![
        vec![
            sign(g.done, "correct"),
            sign(g.pending, "in progress"),
            sign(g.failed, "something went wrong"),
            sign(g.dead_letter, "dead-lettered"),
        ],
        vec![sign(
            format!("{} why: 4 more {} w", g.back_arrow, g.dot),
            "the causes a one-row verdict has no room for; w reads them all",
        )],
    ]
}
