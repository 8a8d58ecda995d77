//! Where everything goes, as functions of the screen size and the frame
//! shown, with no state of their own. Rendering and mouse hit-testing both
//! call these, so a click lands on what was drawn. One place reads the
//! views: at a predict reveal, `reveal_split` asks how the events would
//! read in a wider split (`view::under_box`) before it gives them the SQL
//! panel's spare columns, since only the view knows where a row folds.

mod reveal_split;
mod share;

use super::panel::Panel;
use crate::sim::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
pub use share::Lower;
use share::{beside_no_sql, short_sql_spares, split};

pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// The fewest rows the four panels above keep when the verdict takes rows
/// from them: at 80x24, seven inside their borders, where the broker's
/// counters and the service's steps around the one in hand still show.
const VERDICT_TOP_FLOOR: u16 = 9;

pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Main {
    pub header: Rect,
    pub keybar: Rect,
    pub panels: Vec<(Panel, Rect)>,
}

impl Main {
    pub fn rect(&self, panel: Panel) -> Rect {
        self.panels
            .iter()
            .find(|(p, _)| *p == panel)
            .map_or(Rect::default(), |(_, r)| *r)
    }

    /// The rects predict mode's box is placed by (`view::answer_box`).
    pub fn around_box(&self) -> super::view::answer_box::Around {
        super::view::answer_box::Around {
            header: self.header,
            story: self.rect(Panel::Narration),
            verdict: self.rect(Panel::Verdict),
            keybar: self.keybar,
            lower: self.rect(Panel::Sql),
        }
    }

    pub fn hit(&self, x: u16, y: u16) -> Option<Panel> {
        self.panels
            .iter()
            .find(|(_, r)| r.contains((x, y).into()))
            .map(|(p, _)| *p)
    }
}

/// How much text the step on screen puts in the panels that share a row,
/// so that the room goes where the text is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Need {
    pub sql: usize,
    pub events: usize,
    /// Every verdict the run declares or explains (headline, figures and
    /// cause chain), as the verdict panel words it, each once: the panel
    /// is sized for the one that wraps to the most rows at the screen's
    /// width.
    pub verdicts: Vec<Vec<Line<'static>>>,
    /// The same verdicts as `w` reads them, a link of the chain a row
    /// (`view::verdict::why_lines`): its panel is sized for the longest.
    pub why: Vec<Vec<Line<'static>>>,
    /// The narration that must be readable without a key: what this step
    /// said (or the end of the story), in columns.
    pub narration: usize,
    /// The provider panel's rows: its count, the charges and the key store.
    pub provider: usize,
    /// The most rows the database panel's lines take in any step: its
    /// heading and every table's lines, those only some designs use too
    /// (idempotency_records, order_status, the offset, the cache) with an
    /// open transaction's versions under their rows (`view::database::rows_needed`).
    pub database: usize,
    /// Of those, the lines that hold no row at the fullest step: the one
    /// that says processed_messages is not used
    /// (`view::database_evidence_rows`). It gives way for a verdict's
    /// chain to read whole, not for a row more of one still counted.
    pub database_notes: usize,
    /// The most rows the service panel's handlers take in the run: each
    /// one's head and steps, a row each, and a row between two; the panels
    /// above keep room for them.
    pub handler: usize,
    /// The most messages the broker's queue holds at once in the run:
    /// each entry takes rows of the broker panel.
    pub queued: usize,
    /// Every step's SQL and events, as their panels word them: the split
    /// between the two is chosen for the whole run.
    pub lower: Vec<Lower>,
    /// The run's last step number: the SQL and events panels' titles carry
    /// a step number, and neither panel is made too narrow for its title.
    pub last_step: usize,
    /// The SQL panel has nothing to show at this step: it is drawn narrow,
    /// and the events take its columns (`share::beside_no_sql`). The row
    /// has two splits a run, one for steps with SQL and one without.
    pub no_sql: bool,
    /// This step's SQL and events, where it has SQL: a step whose few
    /// short statements read whole in the narrow SQL panel gives the
    /// events its spare columns too, where they need them
    /// (`share::short_sql_spares`).
    pub here: Option<Lower>,
}

/// The rows the provider panel's lines take (`view::provider`): the count,
/// one per charge, the key store's title (with "empty" beside it) and one
/// per key.
fn provider_rows(f: &Frame) -> usize {
    1 + f.provider.charges.len() + 1 + f.provider.keys.len()
}

/// The verdict panel's text, as the panel words it (the theme does not
/// change widths).
fn verdict_lines(f: &Frame) -> Vec<Line<'static>> {
    super::view::verdict::lines(&super::theme::Theme::new(false, false), f)
}

/// The verdict as `w` reads it, as the panel words it.
fn why_lines(f: &Frame) -> Vec<Line<'static>> {
    super::view::verdict::why_lines(&super::theme::Theme::new(false, false), f)
}

/// The narration a step must show without a key: what it did, and what
/// it said (or the end of the story), in columns.
fn narration_columns(f: &Frame) -> usize {
    crate::sim::event::step_told(&f.events).len()
        + f.said
            .as_ref()
            .map_or(f.narration.len().min(240), String::len)
}

/// Every verdict of the run that is declared or has a chain to tell, as
/// `words` words it, each once: "in progress" with nothing to explain
/// takes no rows from the panels above.
fn told_verdicts(
    f: &Frame,
    frames: &[Frame],
    words: impl Fn(&Frame) -> Vec<Line<'static>>,
) -> Vec<Vec<Line<'static>>> {
    let told = |v: &crate::sim::Verdict| !v.undecided() || !v.causes.is_empty();
    verdicts_where(f, frames, told, words)
}

/// Every verdict of the run that says more than its headline and its
/// figures, as `w` reads it: what is at risk or in flight, what a run
/// that ends undecided leaves unsettled, besides what [`told_verdicts`]
/// keeps. `w` is sized for them all: tour-2 naive ended unsettled, its
/// verdict cut on one row, and `w` gave the rows to the story instead.
fn why_verdicts(
    f: &Frame,
    frames: &[Frame],
    words: impl Fn(&Frame) -> Vec<Line<'static>>,
) -> Vec<Vec<Line<'static>>> {
    let says = |v: &crate::sim::Verdict| {
        !v.undecided()
            || !v.causes.is_empty()
            || !v.at_risk.is_empty()
            || !v.in_flight.is_empty()
            || v.ends_unsettled()
    };
    verdicts_where(f, frames, says, words)
}

/// The verdicts of `frames` and `f` that `keep`, as `words` words them,
/// each once.
fn verdicts_where(
    f: &Frame,
    frames: &[Frame],
    keep: impl Fn(&crate::sim::Verdict) -> bool,
    words: impl Fn(&Frame) -> Vec<Line<'static>>,
) -> Vec<Vec<Line<'static>>> {
    let mut all: Vec<Vec<Line<'static>>> = Vec::new();
    for v in frames
        .iter()
        .chain(std::iter::once(f))
        .filter(|f| keep(&f.verdict))
        .map(&words)
    {
        if !all.contains(&v) {
            all.push(v);
        }
    }
    all
}

impl Need {
    /// What `f` needs, with the splits that must not move from step to
    /// step (SQL beside events, the database over the provider, the rows
    /// of the story and of the verdict) sized for the most any step of
    /// `frames` needs.
    pub fn of(f: &Frame, frames: &[Frame]) -> Need {
        let most = |n: fn(&Frame) -> usize| frames.iter().map(n).max().unwrap_or(0).max(n(f));
        // The database's rows and its evidence rows in one pass: laying out
        // a step's tables is most of the time a layout takes, and every
        // draw and every resize lays out each step of the run.
        let (database, evidence) =
            frames
                .iter()
                .chain(std::iter::once(f))
                .fold((0, 0), |(rows, evidence), f| {
                    let n = super::view::database::rows_needed(f);
                    let e = super::view::database::evidence_rows(f, n);
                    (rows.max(n), evidence.max(e))
                });
        Need {
            sql: most(|f| f.sql.iter().map(|r| r.sql.len() + r.result.len() + 8).sum()),
            events: most(|f| f.events.iter().map(|e| e.text.len() + 12).sum()),
            // Every step's, like the narration's: the rows between the
            // panels stay put as the steps go by.
            verdicts: told_verdicts(f, frames, verdict_lines),
            why: why_verdicts(f, frames, why_lines),
            narration: most(narration_columns),
            provider: most(provider_rows),
            database,
            database_notes: database - evidence,
            handler: most(|f| {
                let n = f.consumers.len();
                f.consumers.iter().map(|c| 1 + c.steps.len()).sum::<usize>() + n.saturating_sub(1)
            }),
            last_step: most(|f| f.index),
            no_sql: f.sql.is_empty(),
            here: (!f.sql.is_empty()).then(|| Lower::of(f)),
            queued: most(|f| f.queue.messages.len()),
            // The steps the SQL/events split is weighed for: those with SQL.
            // A step with none has a split of its own (`share::beside_no_sql`),
            // so its events do not pull the SQL's share their way.
            lower: {
                let with_sql: Vec<Lower> = frames
                    .iter()
                    .filter(|f| !f.sql.is_empty())
                    .map(Lower::of)
                    .collect();
                if with_sql.is_empty() {
                    vec![Lower::of(f)]
                } else {
                    with_sql
                }
            },
        }
    }

    /// The rows the run's longest verdict wraps to in `width` columns, as
    /// the panel draws it (`view::overflow`).
    fn verdict_rows(&self, width: u16) -> u16 {
        self.verdicts
            .iter()
            .map(|v| super::measure::rows(v, width, false))
            .max()
            .unwrap_or(0)
    }

    /// The rows the run's longest verdict takes as `w` reads it.
    fn why_rows(&self, width: u16) -> u16 {
        self.why
            .iter()
            .map(|v| super::view::verdict::why_rows(v, width).len())
            .max()
            .map_or(0, |n| u16::try_from(n).unwrap_or(u16::MAX))
    }

    /// The fewest rows the panels above keep for the verdict: a broker
    /// with more than one message in its queue has no idle rows (its
    /// entries and the counters a step moved fill them).
    ///
    /// Nor do they give the rows that show the run's evidence: the
    /// database's rows and the provider's charges are stacked in one column
    /// (each panel with its two borders), and every one of them stays on
    /// screen. The chain explains that evidence; it must not hide it.
    fn verdict_top_floor(&self) -> u16 {
        self.top_floor_keeping(self.database)
    }

    /// `verdict_top_floor` with the database's notes folded (they hold no
    /// row: uncounted).
    fn verdict_top_floor_without_notes(&self) -> u16 {
        self.top_floor_keeping(self.database - self.database_notes)
    }

    /// The fewest rows the panels above keep for `database` lines of the
    /// database's and the provider's rows.
    fn top_floor_keeping(&self, database: usize) -> u16 {
        let evidence = u16::try_from(database + self.provider + 4).unwrap_or(u16::MAX);
        if self.queued > 1 {
            11.max(evidence)
        } else {
            VERDICT_TOP_FLOOR.max(evidence)
        }
    }

    /// The SQL panel's share of the row, in percent: by the most text each
    /// holds in any step, so the split stays put as the steps go by; the
    /// events, which say what every party did, keep the larger part.
    fn sql_percent(&self) -> u16 {
        let total = self.sql + self.events;
        if total == 0 {
            return 45;
        }
        ((self.sql * 100 / total) as u16).clamp(25, 45)
    }
}

/// The main screen with the default split, for a frame with no text.
pub fn main(area: Rect, zoom: Option<Panel>) -> Main {
    main_for(area, zoom, Need::default())
}

/// The main screen as `app` draws it in `area` (the terminal's, or a
/// picture's): the one layout the drawing, the mouse and every picture
/// share. Laid out for the step's own frame, so the rows do not move when
/// an answer is put away; a reveal that spans an action's steps shows the
/// statements of them all, so it keeps the split of steps with SQL.
pub fn on_screen(app: &super::app::App, area: Rect) -> Main {
    laid_out(app, area, app.zoom.then_some(app.focus))
}

/// The main screen as `app` draws it in `area` with no panel zoomed: the
/// screen `w` returns to, whose panels' forms the view under `w` keeps
/// where they fit.
pub fn unzoomed(app: &super::app::App, area: Rect) -> Main {
    laid_out(app, area, None)
}

/// [`on_screen`] with `zoom` open.
fn laid_out(app: &super::app::App, area: Rect, zoom: Option<Panel>) -> Main {
    let mut need = Need::of(app.frame(), &app.timeline.frames);
    // A learner's design's correct verdict names, under `w`, the command
    // that tries every schedule, on rows of its own: the panel `w` opens
    // is sized with them, or the links the verdict panel counted as left
    // out would be folded away again under the key that shows them.
    if super::view::one_run::check_command(app).is_some() {
        let t = super::theme::Theme::new(false, false);
        need.why = why_verdicts(app.frame(), &app.timeline.frames, |f| {
            let bound = super::view::one_run::bound(app, &f.verdict);
            let unit = app.script.origin.step();
            super::view::verdict::bounded_why_lines(&t, f, bound.as_deref(), unit)
        });
    }
    // A reveal spanning steps keeps the split of steps with SQL where any
    // of them sent a statement; where none did, its events take the
    // columns as the step's own would (a provider's answer kept whole
    // beside an empty SQL panel three times its width had folded).
    if super::reveal::action_steps(app).is_some() {
        need.no_sql = app.shown_frame().sql.is_empty();
        need.here = None;
    }
    let last_step = need.last_step;
    let m = main_for(area, zoom, need);
    // At a reveal the answer's box takes the row's top rows: the events
    // may take the SQL's spare columns to read the event asked about.
    if zoom.is_some() {
        return m;
    }
    reveal_split::widened(app, m, last_step)
}

/// The main screen: header, the four parts of the system left to right,
/// then what happens in this step, and the key hints.
pub fn main_for(area: Rect, zoom: Option<Panel>, need: Need) -> Main {
    let [header, body, keybar] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    if zoom == Some(Panel::Verdict) {
        return why(area, header, body, keybar, &need);
    }
    if let Some(panel) = zoom {
        return Main {
            header,
            keybar,
            panels: vec![(panel, body)],
        };
    }
    let h = body.height;
    let mut top_h = if h >= 34 {
        h * 55 / 100
    } else {
        11.max(h.saturating_sub(11))
    };
    // The step's own words first: the four panels above give up rows when
    // the narration needs them, down to 11 (a handler's steps) and never
    // more than a sixth of their height: the story is sized for the run's
    // longest step, and the panels above hold the evidence at every step.
    let inner_w = usize::from(area.width.saturating_sub(2).max(1));
    let needed = (need.narration.div_ceil(inner_w) + 1 + 2) as u16;
    let below = h.saturating_sub(top_h);
    let wanted = needed + 3 + 4;
    if wanted > below {
        let floor = 11.max(top_h * 5 / 6).min(top_h);
        top_h = top_h.saturating_sub(wanted - below).max(floor);
    }
    // The verdict's cause chain is the lesson's why: it gets the rows the
    // run's longest verdict wraps to (under its title's rule). The rows
    // the row under the story cannot spare come from the panels above,
    // down to VERDICT_TOP_FLOOR: they fold what they hide with a count.
    // Sized once for the run, so the panels do not move as steps go by.
    let verdict_rows = need.verdict_rows(area.width);
    let rest = h.saturating_sub(top_h);
    let base = if rest >= 14 {
        (verdict_rows + 1).clamp(3, 4)
    } else {
        2
    };
    // The line saying processed_messages is not used holds no row: it
    // folds (counted) where that reads the chain whole (100x30,
    // offset-on-a-queue: `← lease …1 more` had kept it), not for a row
    // more of a chain still counted.
    let want = (verdict_rows + 1).saturating_sub(base);
    let give = [
        need.verdict_top_floor(),
        need.verdict_top_floor_without_notes(),
    ]
    .into_iter()
    .map(|floor| top_h.saturating_sub(floor))
    .find(|&spare| spare >= want)
    .map_or(top_h.saturating_sub(need.verdict_top_floor()), |_| want);
    let top_h = top_h - give;
    let verdict_h = base + give;
    let (rest, lower_min) = (rest + give, if rest >= 14 { 4 } else { 3 });
    // The step's own words are read in full: the narration takes the rows
    // they need (text, a row for wrapping at word ends, borders) before SQL
    // and events, which keep one line each at least.
    // SQL and events keep two lines where the screen has the rows: the
    // story is sized for the run's longest step and scrolls to this one's.
    let room = rest.saturating_sub(verdict_h + lower_min).max(5);
    let narration_h = needed
        .max(((rest.saturating_sub(verdict_h)) / 2 + 1).clamp(5, 8))
        .min(room);
    // The step's SQL is read whole: the statement being taught ends in its
    // clause (`ON CONFLICT DO NOTHING`). Where the run's statements do not
    // fit, the row under the story takes rows the panels above leave empty
    // (down to the handlers' steps, a row each, with the footer and the
    // borders), then the story's beyond two rows (`z` reads it all).
    // Where the handlers' steps do not fit the panels above even at the
    // height they have (two handlers of a long design), the service folds
    // them under a count at any height: the panels above give rows down
    // to the evidence the verdict keeps (`verdict_top_floor`), before the
    // story its rows (in-progress at 120x40 read the story in two rows
    // beside a row of SQL and events nine rows tall).
    // Only for a height that then reads the SQL whole: where none does,
    // the panels above keep their rows, and the story its floor.
    let handlers = need.handler as u16 + 3;
    let steps_floor = top_h.min(11.max(handlers));
    let top_floor = if handlers > top_h {
        top_h.min(11.max(need.verdict_top_floor()))
    } else {
        steps_floor
    };
    // The story keeps three rows of words where the screen has the rows
    // (100x30 and up): the step's own line and the first words of why it
    // matters (`story_why_at_its_step`); two at 80x24.
    // The statements read whole come first, though: where only two rows
    // of story read them, it gives its third.
    let two = narration_h.min(4);
    let narration_floor = narration_h.min(if h >= 28 { 5 } else { 4 });
    let lower_at = |top_h: u16, narration_h: u16| {
        let height = h.saturating_sub(top_h + narration_h + verdict_h);
        Rect::new(body.x, body.y, body.width, height)
    };
    // The heights it may take, fewest rows borrowed first; the first that
    // reads the SQL whole beside a fair share of events (their long title,
    // 30% of the row), else the first that reads the SQL whole: rows are
    // not borrowed for the events where even the floors cannot give them
    // their share.
    let mut heights = vec![(top_h, narration_h)];
    let (mut t, mut n) = (top_h, narration_h);
    while t > top_floor || n > two {
        if t > top_floor {
            t -= 1;
        } else {
            n -= 1;
        }
        heights.push((t, n));
    }
    // Statements read whole first, beside events with their fair share;
    // where no height gives both, a statement may lose its middle
    // (`view::newest`) before the events are squeezed to a column of
    // words (80x24): its answer and its clause stay.
    let shares = need.shares();
    let settled = |want_fair: bool, squeeze: bool, least: u16| {
        heights.iter().copied().find(|&(t, n)| {
            let (whole, fair) = shares.sql_whole(lower_at(t, n), squeeze);
            n >= least && whole && (fair || !want_fair)
        })
    };
    // In each pass, a story of three rows first, then of two.
    let pass = |want_fair: bool, squeeze: bool| {
        settled(want_fair, squeeze, narration_floor)
            .or_else(|| settled(want_fair, squeeze, two))
            .map(|h| (h, squeeze))
    };
    let ((top_h, narration_h), squeeze) = pass(true, false)
        .or_else(|| pass(true, true))
        .or_else(|| pass(false, false))
        .unwrap_or_else(|| {
            // No height reads the SQL whole: the row under the story keeps
            // the rows it has at the floors of the panels above and a story
            // of two rows, and the story's third row comes from the panels
            // above where they can give it.
            // Where the panels above are short of the evidence at the
            // run's fullest step even at their floor (its rows fold there,
            // counted, whatever the story does), they give the story its
            // third row too: the others fold no more than the line that
            // says a table is not used (100x30, in-progress: its records'
            // two lines each had taken that row, and two steps hid their
            // why).
            let short = handlers > top_h && need.verdict_top_floor() > top_floor;
            let story_top_floor = if short {
                top_floor
                    .saturating_sub(narration_floor - two)
                    .max(11.min(top_floor))
            } else {
                top_floor
            };
            let t = (steps_floor + two)
                .saturating_sub(narration_floor)
                .max(story_top_floor);
            ((t, (steps_floor + two).saturating_sub(t)), false)
        });
    let [top, narration, lower, verdict] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Length(narration_h),
        Constraint::Min(3),
        Constraint::Length(verdict_h),
    ])
    .areas(body);
    let mut panels = top_panels(top, &need);
    // One split for the steps with SQL, chosen for the run; the steps
    // without take the SQL's spare columns for the events.
    let mut row = split(lower, shares.sql_share(lower, squeeze));
    let spares = need
        .here
        .as_ref()
        .is_some_and(|here| short_sql_spares(here, row, need.last_step));
    if need.no_sql || spares {
        row = beside_no_sql(row, need.last_step);
    }
    let [sql, events] = row;
    panels.extend([
        (Panel::Narration, narration),
        (Panel::Sql, sql),
        (Panel::Events, events),
        (Panel::Verdict, verdict),
    ]);
    Main {
        header,
        keybar,
        panels,
    }
}

/// The four parts of the system in `top`, left to right as in the
/// pattern's diagram: broker, service, and the two places a payment lands,
/// the database over the provider.
fn top_panels(top: Rect, need: &Need) -> Vec<(Panel, Rect)> {
    let [broker, service, right] = Layout::horizontal([
        Constraint::Percentage(28),
        Constraint::Percentage(36),
        Constraint::Percentage(36),
    ])
    .areas(top);
    // The provider's charges are the evidence of a double charge: the
    // provider gets the rows it needs, up to half the column, where the
    // 42 % it had would cut them.
    let provider_h = if top.height >= 16 {
        top.height * 42 / 100
    } else {
        4
    }
    .max((need.provider as u16 + 2).min(top.height / 2));
    let [database, provider] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(provider_h)]).areas(right);
    vec![
        (Panel::Broker, broker),
        (Panel::Service, service),
        (Panel::Database, database),
        (Panel::Provider, provider),
    ]
}

/// The main screen under `w`: the verdict whole, a link of its chain a
/// row, in the rows it needs at the bottom; the parts of the system above
/// it, where the evidence the chain explains is (the database's rows, the
/// provider's charges), at the height they have without `w` where the
/// screen has the rows, and what this step said in the rows left between.
/// The SQL and the events give way: the verdict is about the whole run.
fn why(area: Rect, header: Rect, body: Rect, keybar: Rect, need: &Need) -> Main {
    // Sized for the run's longest, as the panel is elsewhere: stepping
    // under `w` does not move the panels.
    let wanted = need.why_rows(body.width).max(1) + 1;
    let mut verdict_h = wanted.min(body.height);
    // A part of the system in fewer rows than its borders and a few lines
    // shows nothing: the verdict takes them all.
    if body.height - verdict_h < 6 {
        verdict_h = body.height;
    }
    let rest = body.height - verdict_h;
    // The story needs its borders, a row for its title's step and two of
    // words to be worth its place.
    let usual = main_for(area, None, need.clone())
        .rect(Panel::Broker)
        .height;
    let (top_h, story_h) = if rest >= usual + 5 {
        (usual, rest - usual)
    } else {
        (rest, 0)
    };
    let [top, story, verdict] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Length(story_h),
        Constraint::Length(verdict_h),
    ])
    .areas(body);
    let mut panels = if top.height > 0 {
        top_panels(top, need)
    } else {
        Vec::new()
    };
    if story.height > 0 {
        panels.push((Panel::Narration, story));
    }
    panels.push((Panel::Verdict, verdict));
    Main {
        header,
        keybar,
        panels,
    }
}

/// A box of at most `width` x `height` in the middle of `area`.
pub fn popup(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Rows under the picker's list: a rule and the selected scenario's
/// summary (three lines). Its keys are on the key bar below the box.
const PICKER_FOOT: u16 = 4;

/// The picker's box; its list starts one row inside the border.
/// It stops above the bottom row: the key bar under it stays in sight
/// (at 80x24 the box's border stood where the keys are).
pub fn picker(area: Rect, rows: usize) -> Rect {
    let above_keys = Rect {
        height: area.height.saturating_sub(1),
        ..area
    };
    popup(above_keys, 110, rows as u16 + 2 + PICKER_FOOT)
}

/// The picker's list and its foot inside the box, and the first row shown:
/// the list scrolls to keep the selected row in view.
pub fn picker_list(area: Rect, rows: usize, selected_row: usize) -> (Rect, Rect, usize) {
    let popup = picker(area, rows);
    let list = Rect::new(
        popup.x + 1,
        popup.y + 1,
        popup.width.saturating_sub(2),
        popup.height.saturating_sub(2 + PICKER_FOOT),
    );
    let visible = usize::from(list.height).max(1);
    let offset = (selected_row + 1).saturating_sub(visible);
    (popup, list, offset)
}

pub fn faults(area: Rect, items: usize) -> Rect {
    popup(area, 64, items as u16 + 4)
}

pub fn help(area: Rect, rows: usize) -> Rect {
    popup(area, 84, rows as u16 + 2)
}

/// The compare view: a header row, two columns, the key bar.
pub fn compare(area: Rect) -> (Rect, Rect, Rect, Rect) {
    compare_under(area, 2)
}

/// Compare's areas under a header of `header_rows` rows: the line where
/// the designs part wraps rather than lose its end.
pub fn compare_under(area: Rect, header_rows: u16) -> (Rect, Rect, Rect, Rect) {
    let [header, body, keybar] = Layout::vertical([
        Constraint::Length(header_rows),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body);
    (header, left, right, keybar)
}

/// The explorer, full screen: a header, the bounds, the checker's table
/// (a rule with its title, the column headings, one row per design), the
/// selected design's counterexamples, the key bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explorer {
    pub header: Rect,
    pub bounds: Rect,
    pub table: Rect,
    /// The design rows inside `table` (under its rule and headings).
    pub rows: Rect,
    /// The first design shown: the table scrolls to keep the selection.
    pub offset: usize,
    /// One line under the table: what each result mark means.
    pub legend: Rect,
    pub detail: Rect,
    /// The counterexample list inside `detail`, one line each.
    pub list: Rect,
    /// The first counterexample shown: the list scrolls to keep the
    /// selected one in view, and leaves room for its story below.
    pub cx_offset: usize,
    pub keybar: Rect,
}

/// Lines the counterexample panel keeps at least, under its rule: its
/// list, a line of its chain and the count of the rest (Enter replays it
/// in full). One line less than it could have, so the bounds every claim
/// rests on are whole at 80x24.
const DETAIL_MIN: u16 = 5;

pub fn explorer(
    area: Rect,
    designs: usize,
    selected: usize,
    counterexamples: usize,
    cx_selected: usize,
    legend_h: u16,
) -> Explorer {
    // Two rows from 24 up: the faults, the setup and the designs under
    // bounds of their own do not fit one line of 80 or 100 columns.
    let bounds_h = match area.height {
        34.. => 3,
        24.. => 2,
        _ => 1,
    };
    let [header, bounds, body, keybar] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(bounds_h),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let want = designs as u16 + 2;
    // The legend's lines (one, or two where the title has no room for
    // every column's meaning) come out of the detail's share, not the
    // table's: at 80x24 every design stays in view, and the detail, a line
    // or two shorter, says how many lines follow where it has the room.
    let table_h = want.min(body.height.saturating_sub(DETAIL_MIN + 1)).max(3);
    let [table, legend, detail] = Layout::vertical([
        Constraint::Length(table_h),
        Constraint::Length(legend_h),
        Constraint::Min(0),
    ])
    .areas(body);
    let rows = Rect::new(
        table.x,
        table.y + 2,
        table.width,
        table.height.saturating_sub(2),
    );
    let visible = usize::from(rows.height).max(1);
    let offset = (selected + 1).saturating_sub(visible);
    let (list, cx_offset) = run_list(detail, counterexamples, cx_selected);
    Explorer {
        header,
        bounds,
        table,
        rows,
        offset,
        legend,
        detail,
        list,
        cx_offset,
        keybar,
    }
}

/// The detail's list of runs, and the first run it shows.
fn run_list(detail: Rect, counterexamples: usize, cx_selected: usize) -> (Rect, usize) {
    // Half the panel at most: the selected counterexample's chain and
    // steps need the rest.
    let room = detail.height.saturating_sub(1);
    let list_h = (counterexamples as u16).min((room / 2).max(3)).min(room);
    let list = Rect::new(detail.x, detail.y + 1, detail.width, list_h);
    let cx_offset = (cx_selected + 1).saturating_sub(usize::from(list_h).max(1));
    (list, cx_offset)
}

impl Explorer {
    /// With `whole` (`z`), the detail takes the table's rows and the
    /// legend's too: every line of a held design's detail in view, where
    /// the table left it a few rows and no run to replay.
    pub fn whole(self, whole: bool, counterexamples: usize, cx_selected: usize) -> Explorer {
        if !whole {
            return self;
        }
        let detail = self.table.union(self.legend).union(self.detail);
        let none = |r: Rect| Rect { height: 0, ..r };
        let (list, cx_offset) = run_list(detail, counterexamples, cx_selected);
        Explorer {
            table: none(self.table),
            rows: none(self.rows),
            legend: none(self.legend),
            detail,
            list,
            cx_offset,
            ..self
        }
    }

    /// With the whole detail's summary on `rows` rows of its own above
    /// the list of runs, the list starts that much lower, so that a click
    /// still picks the run it is on.
    pub fn list_below(self, rows: u16) -> Explorer {
        let y = self.list.y.saturating_add(rows).min(self.detail.bottom());
        let height = self.list.height.min(self.detail.bottom() - y);
        Explorer {
            list: Rect {
                y,
                height,
                ..self.list
            },
            ..self
        }
    }

    /// The design row under the pointer, as an index into the report.
    pub fn row_at(&self, x: u16, y: u16) -> Option<usize> {
        self.rows
            .contains((x, y).into())
            .then(|| self.offset + usize::from(y - self.rows.y))
    }

    /// The counterexample under the pointer.
    pub fn counterexample_at(&self, x: u16, y: u16) -> Option<usize> {
        self.list
            .contains((x, y).into())
            .then(|| self.cx_offset + usize::from(y - self.list.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_tile_the_body_without_overlap() {
        for (w, h) in [(80, 24), (120, 40), (200, 60), (81, 33)] {
            let area = Rect::new(0, 0, w, h);
            assert_eq!(main(area, None).panels.len(), Panel::ALL.len());
            // Under `w` too: the verdict and the panels kept above it.
            for m in [main(area, None), main(area, Some(Panel::Verdict))] {
                let cells: u32 = m.panels.iter().map(|(_, r)| r.area()).sum();
                assert_eq!(cells, u32::from(w) * u32::from(h - 2), "{w}x{h}");
                for (i, (_, a)) in m.panels.iter().enumerate() {
                    for (_, b) in &m.panels[i + 1..] {
                        assert!(!a.intersects(*b), "{w}x{h}: {a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn hits_find_the_panel_drawn_there() {
        let m = main(Rect::new(0, 0, 120, 40), None);
        for (p, r) in &m.panels {
            assert_eq!(m.hit(r.x + r.width / 2, r.y + r.height / 2), Some(*p));
        }
        assert_eq!(m.hit(5, 0), None, "the header is not a panel");
    }

    #[test]
    fn explorer_keeps_the_selected_design_in_view() {
        for (w, h) in [(80, 24), (120, 40)] {
            let e = explorer(Rect::new(0, 0, w, h), 30, 29, 2, 0, 1);
            assert!(e.detail.height >= DETAIL_MIN, "{w}x{h}");
            let shown = e.offset + usize::from(e.rows.height);
            assert!(e.offset <= 29 && 29 < shown, "{w}x{h}: {e:?}");
            let y = e.rows.y + (29 - e.offset) as u16;
            assert_eq!(e.row_at(3, y), Some(29));
            assert_eq!(e.counterexample_at(3, e.list.y + 1), Some(1));
            assert_eq!(e.counterexample_at(3, e.list.y + 2), None);
        }
    }
}
