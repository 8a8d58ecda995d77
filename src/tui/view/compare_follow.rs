//! Where compare's sides scroll when Tab has picked no section: to the
//! rows this step changed, and where the sides part, to the rows the
//! line above them names. At 80x24 the sides cannot hold every section,
//! and a side scrolled to the top hid the very row that told the lesson
//! (teacher trial: naive's second charge, `ch_82`, first under the fold;
//! at tour-4's parting, `order 1042 charges 2 vs 1` over two sides that
//! showed no charge at all). At the end of the run, and wherever the
//! verdicts differ, the charges and payment rows the verdicts rest on come
//! before the rest: at 80x24 both sides followed the last step's ack to
//! the queue, and `charges made 2 ($80)` against `1 ($40)` went off
//! screen under `✕ charged twice` (teacher trial).

use crate::sim::Frame;
use crate::sim::change::Place;
use crate::tui::compare::Compare;
use crate::tui::compare_section::Section;
use crate::tui::parting::{Apart, apart, outcome};
use ratatui::text::Line;

/// The rows to bring into view, in the sides' lined-up rows; and every
/// section's rows there were to show, for the signs to name those that
/// did not fit beside them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Follow {
    pub rows: Option<(usize, usize)>,
    pub wanted: Vec<Wanted>,
}

/// Something to show: on which side (0 left, 1 right), its section, the
/// rows it takes, and how much it matters (lower first).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Wanted {
    rank: u8,
    pub side: usize,
    pub section: Section,
    pub rows: (usize, usize),
}

/// What to follow at `pos`: `sides` are each side's sections as drawn,
/// `heights` each section's rows once the sides are lined up, and `room`
/// the most rows the sides can show together under their signs; `ran`
/// the mark of the step a side ran (`◀`).
pub(super) fn follow(
    c: &Compare,
    pos: usize,
    sides: [&[Vec<Line<'static>>]; 2],
    heights: &[usize],
    room: usize,
    ran: &str,
) -> Follow {
    let starts: Vec<usize> = heights
        .iter()
        .scan(0, |at, h| {
            let start = *at;
            *at += h;
            Some(start)
        })
        .collect();
    // The rows of `section` on `side` that name any of `keys`: from the
    // section's heading down to the last of them, or those rows alone
    // where that is taller than the room; the whole section where no row
    // names one.
    let rows_of = |side: usize, section: Section, keys: &[String]| -> (usize, usize) {
        let i = section.index();
        let lines = &sides[side][i];
        let named: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| names_any(l, keys))
            .map(|(j, _)| j)
            .collect();
        let start = starts[i];
        match (named.first(), named.last()) {
            (Some(_), Some(&b)) if b < room => (start, start + b + 1),
            (Some(&a), Some(&b)) => (start + a, start + b + 1),
            _ => (start, start + heights[i]),
        }
    };
    // Whether any row of `section` on `side` names one of `keys`.
    let names = |side: usize, section: Section, keys: &[String]| {
        sides[side][section.index()]
            .iter()
            .any(|l| names_any(l, keys))
    };
    let mut wanted: Vec<Wanted> = Vec::new();
    // Where they part, what the line above the sides names, on both.
    if c.diverge == Some(pos) {
        let (l, r) = c.frames(pos);
        let named = match apart(l, r) {
            Some(Apart::Charges { order, .. }) => {
                Some((Section::Provider, format!("order {order}")))
            }
            Some(Apart::Payments { message, .. }) => Some((Section::Database, message)),
            Some(Apart::Broker { message, .. }) => Some((Section::Queue, message)),
            _ => None,
        };
        if let Some((section, key)) = named {
            for side in 0..2 {
                wanted.push(Wanted {
                    rank: 0,
                    side,
                    section,
                    rows: rows_of(side, section, std::slice::from_ref(&key)),
                });
            }
        }
    }
    // At the end, and wherever the verdicts differ, what they rest on:
    // every charge at the provider and every committed payment row, on
    // both sides (a row in an open transaction is no part of a verdict,
    // whose own row says `no payment row committed`).
    let (lf, rf) = c.frames(pos);
    if pos + 1 == c.pairs.len() || outcome(lf, rf).is_some() {
        let orders = |of: &dyn Fn(&Frame) -> Vec<u32>| {
            let mut all: Vec<u32> = of(lf).into_iter().chain(of(rf)).collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        // A charge's row names its order (`ch_82 order 1042 $40`), which
        // no key's row does; a payment row starts with its order.
        let charged: Vec<String> =
            orders(&|f| f.provider.charges.iter().map(|c| c.order).collect())
                .into_iter()
                .map(|o| format!("order {o}"))
                .collect();
        let paid: Vec<String> = orders(&|f| {
            f.db.payments
                .iter()
                .filter(|p| p.uncommitted_by.is_none())
                .map(|p| p.order)
                .collect()
        })
        .into_iter()
        .map(|o| format!(" {o} "))
        .collect();
        // No committed row on either side: no rows to show (a section
        // with none named would be wanted whole).
        let paid = (!paid.is_empty()).then_some((Section::Database, &paid));
        for (section, keys) in [(Section::Provider, &charged)].into_iter().chain(paid) {
            for side in 0..2 {
                wanted.push(Wanted {
                    rank: 0,
                    side,
                    section,
                    rows: rows_of(side, section, keys),
                });
            }
        }
    }
    // What a side's step changed; a side that holds changed nothing here
    // (its frame's changes were shown at its own step).
    let (now, before) = (c.pairs[pos], pos.checked_sub(1).map(|p| c.pairs[p]));
    for (side, f, moved) in [
        (0, lf, before.is_none_or(|b| b.0 != now.0)),
        (1, rf, before.is_none_or(|b| b.1 != now.1)),
    ] {
        if !moved {
            continue;
        }
        for item in &f.changes.items {
            let (rank, section) = match item.place {
                Place::Charges => (1, Section::Provider),
                Place::Keys => (3, Section::Provider),
                Place::Queue => (4, Section::Queue),
                Place::Offset => (4, Section::Database),
                _ => (2, Section::Database),
            };
            wanted.push(Wanted {
                rank,
                side,
                section,
                rows: rows_of(side, section, std::slice::from_ref(&item.key)),
            });
        }
        // A key the provider replayed at this step (`m-7f3 → ch_81 ↺
        // replayed ×1 now`): no item changed, yet its row is the step's
        // evidence (trial at 80x24, tour-4: folded under a sign that
        // named only `service`).
        for k in f.provider.keys.iter().filter(|k| k.replayed_now) {
            wanted.push(Wanted {
                rank: 3,
                side,
                section: Section::Provider,
                rows: rows_of(side, Section::Provider, std::slice::from_ref(&k.key)),
            });
        }
        // A counter the step moved (`acks lost 1 (+1)`), the broker's or
        // the observer's: the only row a lost ack changes (trial 41, at
        // 80x24 it was folded unnamed under the rows the step left alone).
        // Only where a row shows the move: a counter the side does not
        // draw gave the whole queue's name to a fold over nothing changed
        // (trial 42, idempotent step 13).
        let moved = ["(+".to_string(), "(*)".to_string()];
        if !f.changes.counters.is_empty() && names(side, Section::Queue, &moved) {
            wanted.push(Wanted {
                rank: 5,
                side,
                section: Section::Queue,
                rows: rows_of(side, Section::Queue, &moved),
            });
        }
        // The handler step the side ran, marked `◀` in its service rows:
        // a step that changed no table (`begin transaction`, a provider
        // response, an armed fault) had its only evidence there, folded
        // and unnamed (trial 42).
        let this_step = [ran.to_string()];
        if names(side, Section::Service, &this_step) {
            wanted.push(Wanted {
                rank: 6,
                side,
                section: Section::Service,
                rows: rows_of(side, Section::Service, &this_step),
            });
        }
    }
    // The most that matters first; the rest where they fit beside it.
    wanted.sort_by_key(|w| w.rank);
    let mut out = Follow::default();
    for w in wanted {
        let joined = match out.rows {
            None => w.rows,
            Some((a, b)) => (a.min(w.rows.0), b.max(w.rows.1)),
        };
        if out.rows.is_none() || joined.1 - joined.0 <= room {
            out.rows = Some(joined);
        }
        out.wanted.push(w);
    }
    out
}

/// Whether the line's text holds any of `keys`.
fn names_any(line: &Line<'static>, keys: &[String]) -> bool {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    keys.iter().any(|k| text.contains(k.as_str()))
}
