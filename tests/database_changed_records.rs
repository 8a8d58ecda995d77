//! The idempotency_records rows a step wrote are on screen, or counted
//! under their own table's name. Teacher trial, in-progress step 14 at
//! 80x24: B's statement took A's record over (`owner = 'B/rh-c037'`), and
//! the panel showed A's committed row unmarked while B's version was
//! folded under `payments $0 …1 other row`. Every step of every built-in
//! run at each of `SIZES`: each record a step wrote, committed or in an
//! open transaction, shows its owner, or the panel names
//! `idempotency_records` with a count.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::sim::change::Place;
use idem::sim::db::RecordRow;
use idem::tui::app::Panel;

/// The records `step` wrote: committed rows its changes mark, and rows of
/// an open transaction that differ from the step before's.
fn written(step: &Step) -> Vec<(Option<String>, RecordRow)> {
    let f = &step.frame;
    let before = step
        .app
        .pos
        .checked_sub(1)
        .map(|p| &step.app.timeline.frames[p]);
    let mut out: Vec<(Option<String>, RecordRow)> =
        f.db.records
            .iter()
            .filter(|r| f.changes.of(Place::Records, &r.message_id).is_some())
            .map(|r| (None, r.clone()))
            .collect();
    for u in &f.db.uncommitted {
        for r in &u.records {
            let was = before.is_some_and(|b| {
                b.db.uncommitted
                    .iter()
                    .any(|bu| bu.by == u.by && bu.records.contains(r))
            });
            if !was {
                out.push((Some(u.by.clone()), r.clone()));
            }
        }
    }
    out
}

fn changed_records_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step(size, |step| {
        let rows = step.rows_in(Panel::Database);
        for (by, r) in written(step) {
            seen += 1;
            // An open transaction's version of a committed row shows the
            // fields it changed, under whose it is.
            let version = by.is_some_and(|by| {
                rows.iter().any(|row| {
                    row.contains(&format!("uncommitted ({by})"))
                        || row.contains(&format!("in txn {by}"))
                })
            });
            let shown = version
                || rows
                    .iter()
                    .any(|row| row.contains(&format!("owner {}", r.owner)));
            let counted = rows
                .iter()
                .any(|row| row.starts_with("idempotency_records …"));
            if !shown && !counted {
                wrong.push(format!(
                    "{}: record {} (owner {}) off screen, uncounted by name\n{}",
                    step.at(),
                    r.message_id,
                    r.owner,
                    rows.join("\n")
                ));
            }
        }
    });
    eprintln!(
        "{} of {seen} written records hidden at {size:?}",
        wrong.len()
    );
    for w in &wrong {
        eprintln!("{w}");
    }
    (seen, wrong)
}

#[test]
fn a_record_a_step_wrote_is_on_screen_or_counted_by_name() {
    let all: Vec<_> = SIZES.map(|size| (size, changed_records_at(size))).into();
    for (size, (seen, wrong)) in all {
        none_wrong("written records", seen, 5, &wrong, size);
    }
}
