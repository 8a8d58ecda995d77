//! Drawing: `impl Widget for &App`. One file per panel; each builds its
//! lines from the frame on screen and nothing else.

pub(crate) mod answer_box;
pub(crate) mod broker;
mod choices;
pub(crate) mod lower_titles;
pub use lower_titles::{events_title, sql_title, title_room};
mod compare;
mod compare_engines;
mod compare_follow;
mod compare_told;
pub(crate) mod database;
mod db_record;
pub(super) mod events;
mod events_fold;
mod explorer;
mod explorer_detail;
pub(crate) use explorer_detail::last_scroll;
mod faults;
mod hanging;
mod header;
mod help;
mod help_legend;
pub(crate) mod keybar;
mod level_bounds;
mod levels;
pub(crate) mod mark_legend;
pub(crate) mod marks;
mod motion;
mod narration;
pub(crate) mod newest;
pub(crate) mod one_run;
pub mod overflow;
mod parting;
mod picker;
mod predict;
mod presenter;
mod presenter_evidence;
pub(crate) mod provider;
mod provider_fold;
mod provider_heading;
mod ran;
mod reveal_fold;
mod reveal_mark;
pub(crate) mod run_form;
mod sentences;
mod service;
pub(super) mod sql;
mod statement_squeeze;
mod step_line;
mod story_fold;
mod story_gap;
mod story_line;
mod told;
mod too_small;
pub(crate) mod under_box;
mod unlike_tour;
pub(super) mod verdict;
mod verdict_cut;
mod watch;
mod wrap_words;

pub use broker::Form as BrokerForm;
pub use broker::evidence as broker_evidence;
pub use broker::lines as broker_lines;
pub use database::run_lines as database_lines;
pub use events::lines as events_lines;
pub use header::HeaderForm;
pub use help::most_scroll as help_most_scroll;
pub use help::page as help_page;
pub use provider::ProviderForm;
pub use service::lines as service_lines;
pub use sql::lines as sql_lines;
pub use verdict::RowForm;
pub use verdict::fitted as verdict_fitted;
pub use verdict::lines as verdict_lines;
pub use watch::Watch;

use super::animation::{self, Effect};
use super::app::{App, Overlay, Panel};
use super::layout;
use super::run_forms::{Chosen, ProviderKey, RunForms};
use super::theme::{Theme, ascii_cell};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if layout::too_small(area) {
            too_small::render(self, area, buf);
        } else {
            match (&self.overlay, &self.compare) {
                (Overlay::Explorer(sel), _) => explorer::render(self, *sel, area, buf),
                (Overlay::Levels, _) => levels::render(self, area, buf),
                (_, Some(c)) if c.sides == super::compare::Sides::Engines => {
                    compare_engines::render(self, c, area, buf)
                }
                (_, Some(c)) => compare::render(self, c, area, buf),
                (_, None) if self.presenter => presenter::render(self, area, buf),
                (_, None) => main_screen(self, area, buf),
            }
            match &self.overlay {
                Overlay::None | Overlay::Explorer(_) | Overlay::Levels => {}
                Overlay::Help => help::render(self, area, buf),
                Overlay::Picker { selected, .. } => picker::render(self, *selected, area, buf),
                Overlay::Faults { selected, .. } => faults::render(self, *selected, area, buf),
            }
        }
        plain_spaces(buf);
        if self.theme.ascii() {
            // A last guarantee for --ascii: text from scenario files may
            // carry characters no glyph set knows about.
            for cell in &mut buf.content {
                if !cell.symbol().is_ascii() {
                    let s = ascii_cell(cell.symbol());
                    cell.set_symbol(s);
                }
            }
        }
    }
}

/// The no-break spaces that held words together while they were wrapped
/// (`story_line::earlier_mark`) drawn as plain spaces: on screen, in a
/// copied text and in a saved picture they are spaces like any other.
fn plain_spaces(buf: &mut Buffer) {
    let nbsp = story_line::NBSP.to_string();
    for cell in &mut buf.content {
        if cell.symbol() == nbsp {
            cell.set_symbol(" ");
        }
    }
}

fn main_screen(app: &App, area: Rect, buf: &mut Buffer) {
    let shown = app.shown_frame();
    let frame: &crate::sim::Frame = &shown;
    let m = layout::on_screen(app, area);
    let flashes: Vec<Panel> = match app.transition {
        Some(t) => {
            let frames = &app.timeline.frames;
            animation::effects(&frames[t.from], &frames[t.to])
                .into_iter()
                .filter_map(|e| match e {
                    Effect::Flash(p) => Some(p),
                    _ => None,
                })
                .collect()
        }
        None => Vec::new(),
    };
    header::render(app, m.header, buf);
    // The events panel the story may lean on: on screen, and not covered
    // by the end's score (predict mode draws it over the SQL and events).
    let covered = predict::score_shown(app);
    let events = (!covered)
        .then(|| m.rect(Panel::Events))
        .filter(|r| !r.is_empty());
    // The story first: the events panel's fold names the story for the
    // events its own line tells whole.
    let mut panels: Vec<&(Panel, Rect)> = m.panels.iter().collect();
    panels.sort_by_key(|(panel, _)| *panel != Panel::Narration);
    let mut told = 0;
    for (panel, rect) in panels {
        let whole = draw_panel(
            app,
            frame,
            *panel,
            *rect,
            flashes.contains(panel),
            events,
            told,
            buf,
        );
        // Under a question's box the story is not read: nothing is told.
        if *panel == Panel::Narration && !predict::story_covered(app) {
            told = whole;
        }
    }
    if let Some(t) = app.transition {
        motion::render(app, t, &m, buf);
    }
    keybar::render(app, m.keybar, buf);
    predict::render(app, &m, buf);
}

/// One panel of the main screen, with its border and title, in `rect`:
/// the main screen draws each in its place, and predict mode draws the
/// SQL and events again under a question box that takes their top rows.
/// `events` is the events panel on the same screen, where there is one:
/// the story may shorten the step's own line that it shows whole. `told`
/// is how many of the step's events, the oldest first, the story on the
/// same screen tells whole (0 where none is drawn): the events panel's
/// fold says so. Returns that count for the story panel, else 0.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_panel(
    app: &App,
    frame: &crate::sim::Frame,
    panel: Panel,
    rect: Rect,
    flash: bool,
    events: Option<Rect>,
    told: usize,
    buf: &mut Buffer,
) -> usize {
    let block = panel_block(app, panel, flash, rect.width);
    let inner = block.inner(rect);
    block.render(rect, buf);
    let t = &app.theme;
    // What the marks this panel drew short mean: its border names them.
    if let Some((lines, short)) = marked_lines(app, frame, panel, rect, buf.area) {
        clip(t, lines, inner, buf);
        mark_legend::on_border(t, &short, rect, buf);
        return 0;
    }
    match panel {
        Panel::Broker | Panel::Service | Panel::Database | Panel::Provider => {}
        Panel::Narration => {
            let events = events.map(|r| panel_block(app, Panel::Events, false, r.width).inner(r));
            return narration::render(app, frame, inner, events, buf);
        }
        Panel::Sql => {
            let span = super::reveal::action_steps(app).is_some();
            newest::show(
                t,
                sql::items(t, frame, span, app.script.origin.step()),
                newest::STATEMENTS,
                inner,
                buf,
            )
        }
        Panel::Events => events::draw(app, frame, told, inner, buf),
        // Under `w` a link of the chain a row, in the rows it was given.
        Panel::Verdict if app.zoom && app.focus == Panel::Verdict => {
            let check = one_run::bound(app, &frame.verdict);
            let unit = app.script.origin.step();
            let why = verdict::bounded_why_lines(t, frame, check.as_deref(), unit);
            clip(t, verdict::why_rows(&why, inner.width), inner, buf)
        }
        Panel::Verdict => {
            // The figures' words hold for the whole run on this screen.
            let lines = verdict::fitted(app, frame, inner.width, inner.height);
            // Cut short, it names the key that reads it whole, right
            // after its last word.
            overflow::show_after_words(t, lines, inner, buf, verdict_cut::signs);
        }
    }
    0
}

/// The rows of a panel whose rows carry marks (the broker, the service,
/// the database, the provider) in `rect` on a screen `area`, as the main
/// screen draws them, and what the marks they drew short mean: the
/// panel's border names those, and a reveal's answer mark that takes that
/// border names them again beside it (`reveal_mark`). `None` for a panel
/// without marks.
pub(super) fn marked_lines(
    app: &App,
    frame: &crate::sim::Frame,
    panel: Panel,
    rect: Rect,
    area: Rect,
) -> Option<(Vec<Line<'static>>, marks::Shortened)> {
    let inner = panel_block(app, panel, false, rect.width).inner(rect);
    let t = &app.theme;
    let w = inner.width as usize;
    let h = inner.height as usize;
    let mut short = marks::Shortened::default();
    let lines = match panel {
        Panel::Broker => {
            // Under `w` the observer's counts keep the main screen's
            // layout where it fits: chosen for the shorter of the two
            // heights, it fits both.
            let rows = why_main_rows(app, panel, area, h).map_or(h, |main| main.min(h));
            let form = broker::Form::of(t, &app.timeline.frames, frame, w, rows);
            broker::lines_noting(t, frame, &form, w, h, &mut short)
        }
        Panel::Service => {
            let watch = Watch::of(&app.timeline.frames, app.frame_at());
            service::lines_noting(t, frame, &watch, w, h, &mut short)
        }
        Panel::Database => {
            let frames = &app.timeline.frames;
            database::run_lines_noting(t, frames, frame, (w, h), &mut short)
        }
        Panel::Provider => {
            // Under `w` the panels above are given another height: the
            // heading keeps the main screen's form where it fits (a key
            // press that relabels the figures reads as a new figure).
            let main = why_main_rows(app, panel, area, h);
            provider_run_lines(app, t, frame, area, (w, h), main, &mut short)
        }
        _ => return None,
    };
    Some((lines, short))
}

/// Under `w`, where it gives `panel` another height than its `h` rows:
/// the rows the main screen (no panel zoomed) gives it, so that the
/// panel can keep the main screen's form (a key press that relabels the
/// figures reads as a new figure).
fn why_main_rows(app: &App, panel: Panel, area: Rect, h: usize) -> Option<usize> {
    let why = app.zoom && app.focus == Panel::Verdict;
    why.then(|| {
        let r = layout::unzoomed(app, area).rect(panel);
        usize::from(panel_block(app, panel, false, r.width).inner(r).height)
    })
    .filter(|&main| main != h)
}

fn short_title(panel: Panel) -> &'static str {
    match panel {
        Panel::Broker => "Broker",
        Panel::Service => "Service",
        Panel::Database => "Database",
        Panel::Provider => "Provider",
        other => title(other),
    }
}

pub fn title(panel: Panel) -> &'static str {
    match panel {
        Panel::Broker => "Message broker",
        Panel::Service => "Payments service",
        Panel::Database => "Payments database",
        Panel::Provider => "Payment provider",
        Panel::Narration => "What happens",
        Panel::Sql => "SQL in this step",
        Panel::Events => "Events",
        Panel::Verdict => "Verdict so far",
    }
}

/// The verdict panel's title: "so far" only while there are steps to come.
/// The handout heads each step's verdict with the same words.
pub fn verdict_title(at_end: bool) -> &'static str {
    if at_end {
        "Verdict at the end"
    } else {
        title(Panel::Verdict)
    }
}

/// The provider panel's lines at `f` in a panel `size` (inner width,
/// height) on a screen `area`, as the main screen draws them: its heading
/// chosen over the run on screen and over every design's run `m` reaches
/// (`App::other_runs`), each at the height its own screen gives the
/// panel, so that `m` keeps it; `also`, the main screen's height under
/// `w` (`provider::run_lines_beside`).
fn provider_run_lines(
    app: &App,
    t: &Theme,
    f: &crate::sim::Frame,
    area: Rect,
    (w, h): (usize, usize),
    also: Option<usize>,
    short: &mut marks::Shortened,
) -> Vec<Line<'static>> {
    let others = app.other_runs();
    let heights = other_heights(app, area, &others);
    let frames = &app.timeline.frames;
    // A step of the run on screen, drawn as the app draws it: its form is
    // the one `update` keeps (`RunForms`). Any other step (a reveal's
    // span told as one, a caller's own frame) is chosen for here.
    let kept = (*t == app.theme && std::ptr::eq(f, app.frame()))
        .then(|| {
            let key = ProviderKey {
                width: w,
                height: h,
                also,
                others: heights.clone(),
            };
            app.run_forms.provider(&app.forms_now(), &key)
        })
        .flatten();
    let form = kept.unwrap_or_else(|| {
        let steps = frames.iter().any(|g| std::ptr::eq(g, f));
        let theirs = others_at(&others, &heights);
        provider::run_form(t, frames, &theirs, (!steps).then_some(f), w, h, also)
    });
    provider::lines_in(t, f, &form, (w, h), short)
}

/// Each other design's run with the height its screen gives the provider
/// panel (`other_heights`).
fn others_at<'a>(
    others: &'a [crate::tui::design_runs::Run],
    heights: &[usize],
) -> Vec<(&'a [crate::sim::Frame], usize)> {
    others
        .iter()
        .zip(heights)
        .map(|((_, run), &h)| (run.frames.as_slice(), h))
        .collect()
}

/// The provider panel's inner height on each other design's screen in
/// `area`, at the step `m` would land on there: the same moment of the
/// story, not the same step number. Kept by `update` (`RunForms`).
fn other_heights(app: &App, area: Rect, others: &[crate::tui::design_runs::Run]) -> Vec<usize> {
    let landings: Vec<usize> = others
        .iter()
        .map(|(_, run)| {
            run.find(&app.timeline.moment(app.pos))
                .min(run.frames.len().saturating_sub(1))
        })
        .collect();
    let key = (area, landings);
    if let Some(kept) = app.run_forms.heights(&app.forms_now(), &key) {
        return kept;
    }
    others
        .iter()
        .zip(&key.1)
        .map(|((_, run), &at)| {
            let need = layout::Need::of(&run.frames[at], &run.frames);
            let r = layout::main_for(area, None, need).rect(Panel::Provider);
            let inner = panel_block(app, Panel::Provider, false, r.width).inner(r);
            usize::from(inner.height)
        })
        .collect()
}

/// The forms the screen in `area` draws that are chosen over every design's
/// run and that `kept` does not hold yet: `update` keeps them
/// (`update::sync_run_forms`), so that a draw walks no run. The screen's own
/// sizes, as `render` lays it out; a form it asks for under any other is
/// chosen at the draw.
pub(crate) fn forms_to_keep(app: &App, area: Rect, kept: &RunForms) -> Chosen {
    let mut chosen = Chosen::default();
    if layout::too_small(area) {
        return chosen;
    }
    let main_screen =
        app.compare.is_none() && !matches!(app.overlay, Overlay::Explorer(_) | Overlay::Levels);
    if main_screen && !kept.has_header(area.width) {
        chosen.header = Some((area.width, header::form(app, area.width)));
    }
    if !main_screen || app.presenter {
        return chosen;
    }
    let m = layout::on_screen(app, area);
    let why = app.zoom && app.focus == Panel::Verdict;
    if let Some(&(_, r)) = m.panels.iter().find(|(p, _)| *p == Panel::Verdict && !why) {
        let inner = panel_block(app, Panel::Verdict, false, r.width).inner(r);
        let size = (inner.width, inner.height);
        if !kept.has_row_form(size) {
            chosen.row_form = Some((size, verdict::app_row_form(app, size.0, size.1)));
        }
    }
    if let Some(&(_, r)) = m.panels.iter().find(|(p, _)| *p == Panel::Provider) {
        let inner = panel_block(app, Panel::Provider, false, r.width).inner(r);
        let (w, h) = (usize::from(inner.width), usize::from(inner.height));
        let also = why_main_rows(app, Panel::Provider, area, h);
        let others = app.other_runs();
        let heights = other_heights(app, area, &others);
        let landings = others
            .iter()
            .map(|(_, run)| {
                run.find(&app.timeline.moment(app.pos))
                    .min(run.frames.len().saturating_sub(1))
            })
            .collect();
        let at = (area, landings);
        if !kept.has_heights(&at) {
            chosen.heights = Some((at, heights.clone()));
        }
        let key = ProviderKey {
            width: w,
            height: h,
            also,
            others: heights,
        };
        if !kept.has_provider(&key) {
            let theirs = others_at(&others, &key.others);
            let form =
                provider::run_form(&app.theme, &app.timeline.frames, &theirs, None, w, h, also);
            chosen.provider = Some((key, form));
        }
    }
    chosen
}

/// The provider panel's lines at `f` in a panel `size` (inner width,
/// height) of the main screen `area` with no panel zoomed, as it draws
/// them (`provider_run_lines`).
pub fn provider_lines(
    app: &App,
    t: &Theme,
    f: &crate::sim::Frame,
    area: Rect,
    size: (usize, usize),
) -> Vec<Line<'static>> {
    provider_run_lines(
        app,
        t,
        f,
        area,
        size,
        None,
        &mut marks::Shortened::default(),
    )
}

fn panel_block(app: &App, panel: Panel, flash: bool, width: u16) -> Block<'static> {
    let t = &app.theme;
    let focused = app.focus == panel;
    let mut name = if width >= 30 {
        title(panel)
    } else {
        short_title(panel)
    }
    .to_string();
    if panel == Panel::Broker {
        name = format!("{name} {} {}", t.g.dot, app.frame().queue.name);
    }
    // The step's number on every panel about the step, so the SQL, the
    // events and the marked step in the service panel read as one step.
    if matches!(panel, Panel::Sql | Panel::Events) {
        let step = app.frame().index;
        // At a reveal, the statements and events of the whole action the
        // answer judges.
        let (first, last) = super::reveal::action_steps(app).unwrap_or((step, step));
        let titled = |short: bool| match panel {
            Panel::Sql => sql_title(app.script.origin.step(), first, last, short),
            _ => events_title(app.script.origin.step(), first, last, short),
        };
        name = titled(false);
        if width < title_room(&name) {
            name = titled(true);
        }
    }
    if panel == Panel::Narration {
        let (chapter, of) = app.chapter();
        // A found schedule's steps are moves, a story's are chapters.
        let part = app.script.origin.part();
        let f = app.frame();
        // Frame 0 and the user's own run are outside the script's chapters.
        // A story left out has neither the scenario's title nor its
        // chapters' (`story_left_out`): the title says so at every step,
        // long after the status line that said it first has gone.
        let left_out = app.script.story_left_out(&app.strategy.name).is_some();
        name = if left_out {
            let at = if chapter == 0 || chapter > of {
                String::new()
            } else {
                format!("{part} {chapter}/{of} {} ", t.g.dot)
            };
            let whole = format!(
                "{name} {} {at}story left out: not written for {}",
                t.g.dot, app.strategy.name
            );
            if width >= title_room(&whole) {
                whole
            } else {
                format!("{name} {} {at}story left out", t.g.dot)
            }
        } else if chapter == 0 || chapter > of {
            format!("{name} {} {}", t.g.dot, f.chapter_title)
        } else if f.chapter_title.is_empty() {
            // A story left out has no chapter titles (`story_left_out`).
            format!("{name} {} {part} {chapter}/{of}", t.g.dot)
        } else {
            chapter_title(app, &name, width)
        };
    }
    let border = if flash { t.flash() } else { t.border(focused) };
    let mut block = Block::bordered()
        .border_set(t.g.border)
        .border_style(border)
        .title(Span::styled(
            format!(" {} ", t.text(&name)),
            if focused {
                t.title().patch(t.highlight())
            } else {
                t.title()
            },
        ));
    if panel == Panel::Verdict {
        block = Block::new()
            .borders(ratatui::widgets::Borders::TOP)
            .border_set(t.g.border)
            .border_style(border)
            .title(Span::styled(
                format!(" {} ", verdict_title(app.pos >= app.last_pos())),
                t.title(),
            ));
    }
    block
}

/// The story panel's title at a chapter: `What happens · chapter 2/4:
/// The retry`, or where that does not fit, a shorter form that keeps the
/// chapter's name whole (`What happens · 2/4: …`, `2/4: …`), chosen once
/// for every chapter of the run (`run_form`); where none holds them all,
/// the shortest, cut at a word's end under an ellipsis: a block's title
/// is otherwise cut with no sign.
fn chapter_title(app: &App, name: &str, width: u16) -> String {
    let t = &app.theme;
    let part = app.script.origin.part();
    let of = app.script.steps.len();
    let dot = t.g.dot;
    let form = |i: usize, chapter: usize, title: &str| match i {
        0 => format!("{name} {dot} {part} {chapter}/{of}: {title}"),
        1 => format!("{name} {dot} {chapter}/{of}: {title}"),
        _ => format!("{chapter}/{of}: {title}"),
    };
    let fits = |s: &str| title_room(&t.text(s)) <= width;
    let chapters: Vec<(usize, &str)> = app
        .timeline
        .frames
        .iter()
        .filter(|f| (1..=of).contains(&f.chapter) && !f.chapter_title.is_empty())
        .map(|f| (f.chapter, f.chapter_title.as_str()))
        .collect();
    let chosen = run_form::widest(0..3, &chapters, |i, &(c, title)| fits(&form(i, c, title)));
    let f = app.frame();
    let whole = form(chosen.unwrap_or(2), f.chapter, &f.chapter_title);
    if fits(&whole) {
        return whole;
    }
    // Cut at a word's end, the sign inside the room: the text as drawn
    // (`...` and `->` under `--ascii` are wider than `…` and `→`).
    let room = usize::from(width.saturating_sub(4));
    // Where not even the sign fits, the sign: the border cuts it, but a
    // title never goes without one.
    crate::cut_at_word::cut_at_word(&t.text(&whole), room, t.g.ellipsis)
        .unwrap_or_else(|| t.g.ellipsis.to_string())
}

/// A rule across the top of an area with its title in it: the explorer's
/// parts, one above the other.
pub(super) fn rule<'a>(t: &Theme, title: String) -> Block<'a> {
    Block::new()
        .borders(ratatui::widgets::Borders::TOP)
        .border_set(t.g.border)
        .border_style(t.dim())
        .title(Span::styled(title, t.title()))
}

/// Lines that must not wrap (tables, step lists): cut at the edge, with a
/// sign wherever something was cut.
fn clip(t: &Theme, lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    overflow::show(t, lines, false, area, buf);
}

/// Prose: wrapped at word boundaries, with a sign if it runs out of rows.
fn wrap(t: &Theme, lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    overflow::show(t, lines, true, area, buf);
}

/// Items joined with a separator, flowing onto as many lines as the width
/// needs; an item marked `true` stands out in the change style.
pub fn flow(theme: &Theme, items: &[(String, bool)], width: usize) -> Vec<Line<'static>> {
    let sep = format!(" {} ", theme.g.dot);
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    // An item without its change mark is measured as if it had one (` (+1)`),
    // so the lines break at the same places whether or not this step moved
    // a counter: the eye finds each one where it was.
    const MARK_ROOM: usize = 5;
    for (item, marked) in items {
        let w = item.chars().count();
        let room = if *marked { w } else { w + MARK_ROOM };
        if !current.is_empty() && used + sep.chars().count() + room > width {
            lines.push(Line::from(std::mem::take(&mut current)));
            used = 0;
        }
        if !current.is_empty() {
            current.push(Span::styled(sep.clone(), theme.dim()));
            used += sep.chars().count();
        }
        let style = if *marked { theme.change() } else { theme.dim() };
        current.push(Span::styled(item.clone(), style));
        used += room;
    }
    if !current.is_empty() {
        lines.push(Line::from(current));
    }
    lines
}

/// A line cut to `width` columns, ending in an ellipsis when something was
/// cut, so a reader knows there is more.
pub fn fit(theme: &Theme, line: Line<'static>, width: usize) -> Line<'static> {
    if line.width() <= width {
        return line;
    }
    let ellipsis = theme.g.ellipsis;
    let room = width.saturating_sub(ellipsis.chars().count());
    let mut used = 0;
    let mut spans = Vec::new();
    let mut last_style = ratatui::style::Style::new();
    for span in line.spans {
        last_style = span.style;
        let w = span.width();
        if used + w <= room {
            used += w;
            spans.push(span);
            continue;
        }
        let cut: String = span
            .content
            .chars()
            .scan(used, |u, c| {
                *u += Span::raw(c.to_string()).width();
                (*u <= room).then_some(c)
            })
            .collect();
        spans.push(Span::styled(cut, span.style));
        break;
    }
    spans.push(Span::styled(ellipsis, last_style));
    Line::from(spans)
}

/// Every frame of every built-in scenario under each design it is written
/// for, with where it is (scenario, design, step) for an assertion's
/// message: what the panel tests walk.
#[cfg(test)]
pub(crate) fn each_builtin_frame(mut check: impl FnMut(&str, &crate::sim::Frame)) {
    for script in crate::scenario::load::builtins() {
        for design in script.strategies() {
            let s = crate::sim::Strategy::by_name(&design).unwrap();
            let tl = crate::timeline::Timeline::build(&script, &s, 0, &[]).unwrap();
            for f in &tl.frames {
                check(&format!("{} {design} step {}", script.name, f.index), f);
            }
        }
    }
}
