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
    /// `events` columns wide (inside their borders) and `h` rows tall.
    /// The SQL, when it does not fit wrapped, is drawn one row a line, each
    /// cut (`view::sql_panel`): all but those rows' starts is lost.
    fn lost(&self, sql: u16, events: u16, h: u16) -> u32 {
        let sql_rows = measure::rows(&self.sql, sql, false);
        let sql_lost = if sql_rows <= h {
            0
        } else {
            sql_rows - (self.sql.len() as u16).min(h)
        };
        let events_lost = measure::rows(&self.events, events, false).saturating_sub(h);
        u32::from(sql_lost) + u32::from(events_lost)
    }
}

impl Need {
    /// The SQL panel's share of `lower` (the row it shares with the
    /// events), in percent: the share that loses the fewest rows of text
    /// over all the run's steps, so that a step's statements are read
    /// whole wherever the events beside them leave the room; among equals,
    /// the one nearest the share by amount of text. One share for the
    /// whole run: the split stays put as the steps go by.
    pub(super) fn sql_share(&self, lower: Rect) -> u16 {
        // Drawing a step asks again for the same run at the same size: the
        // answer is kept, since weighing every share against every step is
        // the slow part of drawing.
        thread_local! {
            static KEPT: std::cell::RefCell<Vec<(u64, u16)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&self.lower, self.sql, self.events, lower).hash(&mut h);
            h.finish()
        };
        if let Some(pct) = KEPT.with(|k| k.borrow().iter().find(|(k, _)| *k == key).map(|e| e.1)) {
            return pct;
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

    fn weigh_shares(&self, lower: Rect) -> u16 {
        let by_text = self.sql_percent();
        let h = lower.height.saturating_sub(2);
        let lost = |pct: u16| -> u32 {
            let [sql, events] = split(lower, pct);
            let (sw, ew) = (sql.width.saturating_sub(2), events.width.saturating_sub(2));
            self.lower.iter().map(|l| l.lost(sw, ew, h)).sum()
        };
        if self.lower.is_empty() || h == 0 {
            return by_text;
        }
        (20..=60)
            .map(|pct| (lost(pct), pct.abs_diff(by_text), pct))
            .min()
            .map_or(by_text, |(_, _, pct)| pct)
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
