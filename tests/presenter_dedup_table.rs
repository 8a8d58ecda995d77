//! The presenter's second box shows the table the design keeps its
//! duplicate check in. Teacher trial, in-progress step 14 at 120x40 (and
//! step 21 at 80x24): the box read `processed_messages` over a dash and
//! "not used here" while B took A's in-progress record over, and A lost
//! it, in idempotency_records. Every built-in run whose design keeps its
//! check in idempotency_records, every step, at 80x24, 100x30 and 120x40:
//! the box names that table, never says "not used here", and at a step
//! that wrote a record (committed, or in an open transaction) it carries
//! the moved mark.

use crate::common;
use idem::scenario::load::builtins;
use idem::sim::Frame;
use idem::sim::change::Place;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// Whether the step `f` wrote a record, `before` the step before it.
fn wrote_record(f: &Frame, before: Option<&Frame>) -> bool {
    let pending = |g: &Frame| -> Vec<_> {
        g.db.uncommitted
            .iter()
            .flat_map(|u| u.records.iter().map(move |r| (u.by.clone(), r.clone())))
            .collect()
    };
    f.db.records
        .iter()
        .any(|r| f.changes.of(Place::Records, &r.message_id).is_some())
        || before.is_some_and(|b| pending(b) != pending(f) || b.db.records != f.db.records)
}

#[test]
fn the_presenter_shows_the_designs_own_dedup_table() {
    let (mut seen, mut wrong) = (0, Vec::new());
    let mut per_size = vec![0; SIZES.len()];
    for script in builtins() {
        for design in script.strategies() {
            let mut app = common::app(&script.name, &design);
            let frames = app.timeline.frames.clone();
            if !frames
                .iter()
                .any(|f| f.db.uses_records && !f.db.uses_processed)
            {
                continue;
            }
            update(&mut app, Action::Presenter);
            for (i, (w, h)) in SIZES.into_iter().enumerate() {
                for pos in 0..frames.len() {
                    app.pos = pos;
                    let f = &frames[pos];
                    if !f.db.uses_records || f.db.uses_processed {
                        continue;
                    }
                    seen += 1;
                    let screen = common::draw(&mut app, w, h);
                    let text = common::figure_text(&screen, w, 1);
                    let before = pos.checked_sub(1).map(|p| &frames[p]);
                    let named = text.contains("records");
                    let unused = text.contains("not used");
                    // The count, the record's line or its open
                    // transaction's version carries the moved mark.
                    let unmarked = wrote_record(f, before) && !text.contains("* ");
                    // Each committed record's owner is read, or the box
                    // counts the rows it has no room for (trial 47 at
                    // 80x24: `m-7f3 in_progress,` cut at the border).
                    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let cut = f.db.records.iter().any(|r| {
                        !squeezed.contains(&format!("owner {}", r.owner))
                            && !squeezed.contains(" more")
                    });
                    if !named || unused || unmarked || cut {
                        per_size[i] += 1;
                        wrong.push(format!(
                            "{} {design} step {pos} at {w}x{h}: {text:?}",
                            script.name
                        ));
                    }
                }
            }
        }
    }
    eprintln!("wrong by size {SIZES:?}: {per_size:?} of {seen}");
    assert!(seen > 20, "only {seen} screens");
    assert!(
        wrong.is_empty(),
        "{} of {seen} presenter screens; the first:\n{}",
        wrong.len(),
        wrong.first().cloned().unwrap_or_default()
    );
}
