//! The split of the row under the story between the SQL and the events:
//! one share for a whole run at one size, the one that loses the fewest
//! rows of text over all its steps.

use super::Need;
use crate::sim::Frame;
use crate::tui::measure;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;

/// One step's lines in the SQL panel and in the events panel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lower {
    pub sql: Vec<Line<'static>>,
    pub events: Vec<Line<'static>>,
}

impl Lower {
    pub(super) fn of(f: &Frame) -> Lower {
        let t = crate::tui::theme::Theme::new(false, false);
        Lower {
            sql: crate::tui::view::sql::lines(&t, f),
            events: crate::tui::view::events::lines(&t, f),
        }
    }

    /// Rows of text a step's SQL and events lose in panels `sql` and
    /// `events` columns wide (inside their borders) and `h` rows tall, and
    /// whether the SQL is whole: it is always wrapped (`view::sql_panel`),
    /// since a statement cut to a row hides the clause being taught
    /// (`ON CONFLICT DO NOTHING` at its end).
    fn lost(&self, sql: u16, events: u16, h: u16) -> (bool, u32) {
        let sql_lost = measure::rows(&self.sql, sql, false).saturating_sub(h);
        let events_lost = measure::rows(&self.events, events, false).saturating_sub(h);
        (sql_lost == 0, u32::from(sql_lost) + u32::from(events_lost))
    }
}

impl Need {
    /// The SQL panel's share of `lower` (the row it shares with the
    /// events), in percent: the share that leaves the fewest steps with
    /// SQL not read whole, then loses the fewest rows of text over all the
    /// run's steps; among equals, the one nearest the share by amount of
    /// text. One share for the whole run: the split stays put as the steps
    /// go by.
    pub(super) fn sql_share(&self, lower: Rect) -> u16 {
        self.weighed(lower).0
    }

    /// Whether every step of the run reads its SQL whole in `lower`, split
    /// at `sql_share`.
    pub(super) fn sql_whole(&self, lower: Rect) -> bool {
        self.weighed(lower).1
    }

    /// The share and whether it leaves every step's SQL whole.
    fn weighed(&self, lower: Rect) -> (u16, bool) {
        // Drawing a step asks again for the same run at the same size: the
        // answer is kept, since weighing every share against every step is
        // the slow part of drawing.
        thread_local! {
            static KEPT: std::cell::RefCell<Vec<(u64, (u16, bool))>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&self.lower, self.sql, self.events, lower).hash(&mut h);
            h.finish()
        };
        if let Some(kept) = KEPT.with(|k| k.borrow().iter().find(|(k, _)| *k == key).map(|e| e.1)) {
            return kept;
        }
        let pct = self.weigh_shares(lower);
        KEPT.with(|k| {
            let mut k = k.borrow_mut();
            if k.len() >= 64 {
                k.remove(0);
            }
            k.push((key, pct));
        });
        pct
    }

    fn weigh_shares(&self, lower: Rect) -> (u16, bool) {
        let by_text = self.sql_percent();
        let h = lower.height.saturating_sub(2);
        // Steps whose SQL is not whole, and rows lost in all.
        let lost = |pct: u16| -> (usize, u32) {
            let [sql, events] = split(lower, pct);
            let (sw, ew) = (sql.width.saturating_sub(2), events.width.saturating_sub(2));
            self.lower
                .iter()
                .map(|l| l.lost(sw, ew, h))
                .fold((0, 0), |(cut, rows), (whole, lost)| {
                    (cut + usize::from(!whole), rows + lost)
                })
        };
        if self.lower.is_empty() {
            return (by_text, true);
        }
        if h == 0 {
            return (by_text, false);
        }
        // The events keep room for their longest word where the SQL loses
        // nothing by it: a word split over rows reads as two
        // (`Idempotent-Replayed:`).
        let word = self
            .lower
            .iter()
            .flat_map(|l| &l.events)
            .flat_map(|l| &l.spans)
            .flat_map(|s| s.content.split_whitespace())
            .map(|w| w.chars().count())
            .max()
            .unwrap_or(0);
        let splits_word = |pct: u16| {
            let [_, events] = split(lower, pct);
            pct > 60 && usize::from(events.width.saturating_sub(2)) < word
        };
        // Up to four fifths for the SQL: the events beside it tell the
        // step's own line, which the story above tells first, so they can
        // give up the most; a statement is seen nowhere else.
        let pct = (20..=80)
            .map(|pct| {
                let (cut, rows) = lost(pct);
                // A split word costs as much as one more step cut.
                let split = usize::from(splits_word(pct));
                ((cut + split, rows), pct.abs_diff(by_text), pct)
            })
            .min()
            .map_or(by_text, |(_, _, pct)| pct);
        (pct, lost(pct).0 == 0)
    }
}

/// The row under the story: the SQL on the left, `sql_pct` percent of
/// it, the events on the right.
pub(super) fn split(lower: Rect, sql_pct: u16) -> [Rect; 2] {
    Layout::horizontal([
        Constraint::Percentage(sql_pct),
        Constraint::Percentage(100 - sql_pct),
    ])
    .areas(lower)
}
