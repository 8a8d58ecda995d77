//! The split of the row under the story between the SQL and the events:
//! one share for a whole run at one size, the one that loses the fewest
//! rows of text over all its steps.

use super::Need;
use crate::sim::Frame;
use crate::tui::measure;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use std::collections::BTreeMap;

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

    /// The rows the step's text takes in panels `sql` and `events`
    /// columns wide (inside their borders), whatever the height: measured
    /// once, then weighed against each height tried (`Measured::lost`).
    fn measured(&self, sql: u16, events: u16, squeeze: bool) -> Measured {
        let sql_rows = if squeeze {
            crate::tui::view::newest::least_rows(&self.sql, sql)
        } else {
            measure::rows(&self.sql, sql, false)
        };
        Measured {
            sql: sql_rows,
            values: squeeze.then(|| crate::tui::view::newest::values_rows(&self.sql, sql)),
            events: measure::rows(&self.events, events, false),
        }
    }
}

/// One step's text measured at two widths: the SQL's rows, the rows its
/// statements need to keep their values (where squeezed), the events'.
#[derive(Clone, Copy)]
struct Measured {
    sql: u16,
    values: Option<u16>,
    events: u16,
}

impl Measured {
    /// Rows of text the step's SQL and events lose in panels `h` rows
    /// tall, whether the SQL is whole, and whether each statement keeps its
    /// values: it is always wrapped (`view::sql_panel`), since a statement
    /// cut to a row hides the clause being taught (`ON CONFLICT DO
    /// NOTHING` at its end).
    ///
    /// With `squeeze`, a statement may lose its middle to fit
    /// (`view::newest`): the SQL reads whole where every answer and each
    /// statement's start and end do; it keeps its values where the end
    /// left is the last two thirds of its words (`VALUES ('m-7f3', …)`).
    fn lost(self, h: u16) -> Lost {
        let sql_lost = self.sql.saturating_sub(h);
        Lost {
            whole: sql_lost == 0,
            values: self.values.is_none_or(|v| v <= h),
            rows: u32::from(sql_lost) + u32::from(self.events.saturating_sub(h)),
        }
    }
}

/// What one step loses at one split (`Measured::lost`).
struct Lost {
    whole: bool,
    values: bool,
    rows: u32,
}

/// A share, whether it reads every step's SQL whole, and whether it
/// leaves the events their fair share.
type Weighed = (u16, bool, bool);

/// The run's steps weighed for the split, at any size: its text hashed
/// once (`Need::shares`), not once for each height the layout tries.
pub(super) struct Shares<'a> {
    need: &'a Need,
    run: u64,
}

impl Need {
    /// The weighing of this run's split, for the layout to ask at each
    /// height it tries.
    pub(super) fn shares(&self) -> Shares<'_> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&self.lower, self.sql, self.events, self.last_step).hash(&mut h);
        Shares {
            need: self,
            run: h.finish(),
        }
    }
}

impl Shares<'_> {
    /// The SQL panel's share of `lower` (the row it shares with the
    /// events), in percent: the share that leaves the fewest steps with
    /// SQL not read whole, then loses the fewest rows of text over all the
    /// run's steps; among equals, the one nearest the share by amount of
    /// text. One share for the whole run: the split stays put as the steps
    /// go by.
    pub(super) fn sql_share(&self, lower: Rect, squeeze: bool) -> u16 {
        self.weighed(lower, squeeze).0
    }

    /// Whether every step of the run reads its SQL whole in `lower`, split
    /// at `sql_share`; and whether the events keep their fair share there
    /// too (their long title, and 30% of the row).
    pub(super) fn sql_whole(&self, lower: Rect, squeeze: bool) -> (bool, bool) {
        let (_, whole, fair) = self.weighed(lower, squeeze);
        (whole, fair)
    }

    /// The share, whether it leaves every step's SQL whole, and whether it
    /// leaves the events their fair share.
    fn weighed(&self, lower: Rect, squeeze: bool) -> Weighed {
        // Drawing a step asks again for the same run at the same size: the
        // answer is kept, since weighing every share against every step is
        // the slow part of drawing. Kept for the process, not a thread:
        // whoever asks (the draw, a mouse click's hit test, a picture, a
        // test's sweep) gets the one answer weighed first. The weighing is
        // a pure function of its key, so keeping it changes no screen.
        static KEPT: std::sync::Mutex<BTreeMap<u64, Weighed>> =
            std::sync::Mutex::new(BTreeMap::new());
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (self.run, lower, squeeze).hash(&mut h);
            h.finish()
        };
        // A panic elsewhere while holding the lock leaves only answers that
        // were whole when kept.
        let kept = || {
            KEPT.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(&w) = kept().get(&key) {
            return w;
        }
        let pct = self.need.weigh_shares(lower, squeeze);
        let mut k = kept();
        // A bound on what a long session keeps: a few runs at a few sizes
        // each take a handful of entries.
        if k.len() >= KEPT_MOST {
            k.clear();
        }
        k.insert(key, pct);
        pct
    }
}

/// The most weighed splits kept at once: every built-in run at the three
/// sizes a class meets, with room to spare (a few thousand entries of a
/// few bytes each).
const KEPT_MOST: usize = 16_384;

impl Need {
    fn weigh_shares(&self, lower: Rect, squeeze: bool) -> Weighed {
        let by_text = self.sql_percent();
        let h = lower.height.saturating_sub(2);
        // Steps whose SQL is not whole, steps whose statements lose their
        // values, and rows lost in all.
        // The layout tries several heights at one width: each step's text
        // is measured once per pair of widths, and each height only
        // compares (the measuring is the slow part).
        thread_local! {
            static MEASURED: std::cell::RefCell<Vec<(u64, std::rc::Rc<Vec<Measured>>)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let text = {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            self.lower.hash(&mut hasher);
            hasher.finish()
        };
        let measured = |sw: u16, ew: u16| -> std::rc::Rc<Vec<Measured>> {
            let key = {
                use std::hash::{Hash, Hasher};
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                (text, sw, ew, squeeze).hash(&mut hasher);
                hasher.finish()
            };
            let kept = MEASURED.with(|m| {
                m.borrow()
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.clone())
            });
            kept.unwrap_or_else(|| {
                let all = std::rc::Rc::new(
                    self.lower
                        .iter()
                        .map(|l| l.measured(sw, ew, squeeze))
                        .collect::<Vec<_>>(),
                );
                MEASURED.with(|m| {
                    let mut m = m.borrow_mut();
                    if m.len() >= 512 {
                        m.remove(0);
                    }
                    m.push((key, all.clone()));
                });
                all
            })
        };
        let lost = |pct: u16| -> (usize, usize, u32) {
            let [sql, events] = split(lower, pct);
            let (sw, ew) = (sql.width.saturating_sub(2), events.width.saturating_sub(2));
            measured(sw, ew)
                .iter()
                .map(|m| m.lost(h))
                .fold((0, 0, 0), |(cut, bare, rows), l| {
                    (
                        cut + usize::from(!l.whole),
                        bare + usize::from(!l.values),
                        rows + l.rows,
                    )
                })
        };
        if self.lower.is_empty() {
            return (by_text, true, true);
        }
        if h == 0 {
            return (by_text, false, false);
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
            usize::from(events.width.saturating_sub(2)) < word
        };
        // Up to four fifths for the SQL: the events beside it tell the
        // step's own line, which the story above tells first, so they can
        // give up the most; a statement is seen nowhere else. But neither
        // panel so narrow that its title is cut, and the events, where the
        // run has any, keep 30% of the row and their long title: squeezed
        // beside a wide panel that holds no SQL at this step, they read as
        // a column of words.
        // Where a statement would not read whole beside a fair share of
        // events (80x24), the events give up their long title and their
        // 30% first.
        let (whole, short) = self.floors(lower);
        let shares: Vec<u16> = match (20..=80).filter(|&pct| whole(pct)).collect::<Vec<_>>() {
            titled if titled.is_empty() => (20..=80).collect(),
            titled => titled,
        };
        let pct = shares
            .into_iter()
            .map(|pct| {
                let (cut, bare, rows) = lost(pct);
                // The SQL read whole first (a statement is seen nowhere
                // else; the story tells the step's events too), then no
                // word split over rows, then the events' fair share; then,
                // where statements lose their middle (80 columns), the
                // columns the events can spare go to the SQL until each
                // keeps its values, before the rows the events lose by it.
                let split = splits_word(pct);
                (
                    (cut, split, short(pct), bare, rows),
                    pct.abs_diff(by_text),
                    pct,
                )
            })
            .min()
            .map_or(by_text, |(_, _, pct)| pct);
        (pct, lost(pct).0 == 0, short(pct) == 0)
    }
}

impl Need {
    /// Whether a share leaves each panel its title whole, in its short form
    /// at least (the longest the run can give it: the last step's, or a
    /// reveal's span of steps); and how far it falls short of the fair
    /// share: the events' long title, and 30% of the row where the run has
    /// events (0 where it has both).
    fn floors(&self, lower: Rect) -> (impl Fn(u16) -> bool, impl Fn(u16) -> u8) {
        use crate::tui::view::lower_titles::{events_title, sql_title, title_room};
        let n = self.last_step;
        let has_events = self.lower.iter().any(|l| !l.events.is_empty());
        let events_room = |short: bool| {
            (0..=n)
                .map(|first| title_room(&events_title("step", first, n, short)))
                .max()
                .unwrap_or(0)
        };
        let sql_floor = title_room(&sql_title("step", n, n, false));
        let (events_floor, events_title_fair) = if has_events {
            (events_room(true), events_room(false))
        } else {
            (0, 0)
        };
        let events_fair = if has_events {
            (u32::from(lower.width) * 30).div_ceil(100) as u16
        } else {
            0
        };
        let whole = move |pct: u16| {
            let [sql, events] = split(lower, pct);
            sql.width >= sql_floor && events.width >= events_floor
        };
        let short = move |pct: u16| {
            let [_, events] = split(lower, pct);
            u8::from(events.width < events_title_fair) + u8::from(events.width < events_fair)
        };
        (whole, short)
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

/// The row under the story at a step without SQL, from the run's split
/// `row`: the SQL panel only as wide as its title (the run's last step's)
/// and its one line (`view::sql::NONE`) need, the events every column
/// left. Fixed for the run too: a class sees the split move only between
/// a step with SQL and one without.
pub(super) fn beside_no_sql([sql, events]: [Rect; 2], last_step: usize) -> [Rect; 2] {
    use crate::tui::view::lower_titles::{sql_title, title_room};
    let line = crate::tui::view::sql::NONE.chars().count() as u16 + 2;
    let least = line.max(title_room(&sql_title("step", last_step, last_step, false)));
    if sql.width <= least {
        return [sql, events];
    }
    let spare = sql.width - least;
    [
        Rect::new(sql.x, sql.y, least, sql.height),
        Rect::new(
            events.x - spare,
            events.y,
            events.width + spare,
            events.height,
        ),
    ]
}

/// Whether a step with SQL takes the split of a step without
/// (`beside_no_sql`): its statements and answers take no more rows in
/// that narrow panel than in the run's, and fit it (`A> COMMIT`,
/// `→ committed`), while its events lose rows at the run's split and
/// fewer with the columns the SQL leaves empty. Teacher trial, tour-2
/// idempotent step 14 at 80x24: the events cut `…1 more row` beside a
/// SQL panel half empty. The row keeps two positions a run, as before.
pub(super) fn short_sql_spares(here: &Lower, row: [Rect; 2], last_step: usize) -> bool {
    let narrow = beside_no_sql(row, last_step);
    if narrow == row {
        return false;
    }
    let inside = |r: Rect| r.width.saturating_sub(2);
    let h = row[0].height.saturating_sub(2);
    let sql_rows = |r: Rect| measure::rows(&here.sql, inside(r), false);
    let event_rows = |r: Rect| measure::rows(&here.events, inside(r), false);
    let sql_fits = sql_rows(narrow[0]) <= sql_rows(row[0]) && sql_rows(narrow[0]) <= h;
    sql_fits && event_rows(row[1]) > h && event_rows(narrow[1]) < event_rows(row[1])
}
