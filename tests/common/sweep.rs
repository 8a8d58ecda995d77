//! The walk the whole-screen sweeps make: every built-in scenario under
//! every design it lists, at one size, each step in turn, with the main
//! screen's layout and watch for that step. One walk, so that a sweep says
//! only what it checks on each screen.

use idem::scenario::load::builtins;
use idem::sim::Frame;
use idem::tui::app::Panel;
use idem::tui::{App, layout, view};
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;
use std::sync::{Mutex, OnceLock};

/// The three sizes a class meets: a laptop's terminal, a projector, a
/// large screen.
pub const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// One step of the walk.
pub struct Step<'a> {
    /// The app at this step, already at the walk's size.
    pub app: &'a App,
    pub size: (u16, u16),
    pub frame: Frame,
    pub main: &'a layout::Main,
    pub watch: view::Watch,
    /// The main screen at this step, as drawn (`drawn`).
    pub buf: &'a Buffer,
}

impl Step<'_> {
    /// The inside of `panel`'s border on this screen, as (width, height).
    pub fn inner(&self, panel: Panel) -> (usize, usize) {
        let inner = self.main.rect(panel).inner(Margin::new(1, 1));
        (usize::from(inner.width), usize::from(inner.height))
    }

    /// What `panel` shows inside its border on this step's screen, its
    /// rows joined and its spaces squeezed: text as a reader reads it,
    /// whatever row a line wrapped at.
    pub fn words_in(&self, panel: Panel) -> String {
        self.rows_in(panel)
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What `panel` shows inside its border, a row of symbols a line.
    pub fn rows_in(&self, panel: Panel) -> Vec<String> {
        let inner = self.main.rect(panel).inner(Margin::new(1, 1));
        (inner.y..inner.bottom())
            .map(|y| {
                (inner.x..inner.right())
                    .map(|x| self.buf[(x, y)].symbol())
                    .collect()
            })
            .collect()
    }

    /// Whether the events panel shows every event of this step, each
    /// one's words whole: no event folded away under a count, none cut.
    pub fn events_whole(&self) -> bool {
        let shown = self.words_in(Panel::Events);
        let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        self.frame
            .events
            .iter()
            .all(|e| shown.contains(&squeeze(&self.app.theme.text(&e.text))))
    }

    /// Whether this is the run's last step, whose story ends on its
    /// closing words (`closing_words_at_the_end`): where they do not fit
    /// after the step's own line and the events panel shows every event
    /// whole, the own line and the words before the closing ones give way,
    /// counted above them (`↑`) on the story's border.
    pub fn ends_on_closing_words(&self) -> bool {
        let area = self.main.rect(Panel::Narration);
        if self.app.pos + 1 != self.app.timeline.frames.len() || area.height < 3 {
            return false;
        }
        let border: String = (area.x..area.right())
            .map(|x| self.buf[(x, area.bottom() - 1)].symbol())
            .collect();
        border.contains('↑') && border.contains(" more sentence")
    }

    /// The step's screen, a row of symbols a line (a wide symbol's
    /// covered cells drawn as spaces): cheaper than `screen` for a sweep
    /// that reads every row.
    pub fn rows(&self) -> Vec<String> {
        let area = self.buf.area;
        (area.top()..area.bottom())
            .map(|y| {
                (area.left()..area.right())
                    .map(|x| self.buf[(x, y)].symbol())
                    .collect()
            })
            .collect()
    }

    /// The step's screen as text, a quoted row a line, as a failure's
    /// message shows it (`common::Screen::text`).
    pub fn screen(&self) -> String {
        let mut screen = super::Screen::new(self.size.0, self.size.1);
        screen.show(Kept(self.buf));
        screen.text()
    }

    /// Whose run this step is of: scenario and design.
    pub fn run(&self) -> (String, String) {
        (
            self.app.timeline.scenario.clone(),
            self.app.timeline.strategy.clone(),
        )
    }

    /// The database panel's lines at this step, as the panel's own room
    /// lays them out (`view::database_lines`), in the snapshots' theme.
    pub fn database_lines(&self) -> Vec<String> {
        let t = idem::tui::theme::Theme::new(false, false);
        let (w, h) = self.inner(Panel::Database);
        view::database_lines(&t, &self.app.timeline.frames, &self.frame, w, h)
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    /// Where a report names this step: scenario, design, size and step.
    pub fn at(&self) -> String {
        format!(
            "{} {} {}x{} step {}",
            self.app.script.name, self.app.strategy.name, self.size.0, self.size.1, self.app.pos
        )
    }
}

/// A screen drawn before, drawn again as it was.
struct Kept<'a>(&'a Buffer);

impl Widget for Kept<'_> {
    fn render(self, _area: Rect, buf: &mut Buffer) {
        buf.merge(self.0);
    }
}

/// Every built-in scenario under every design it lists, in the walk's
/// order: the apps a walk steps through, at their first step.
fn runs() -> impl Iterator<Item = App> {
    builtins().into_iter().flat_map(|script| {
        script
            .strategies()
            .into_iter()
            .map(move |design| super::app(&script.name, &design))
    })
}

/// One step's main screen: its layout and what it draws.
struct Drawn {
    main: layout::Main,
    buf: Buffer,
}

/// `app`'s step drawn into `area`, and its layout there.
fn drawn(app: &App, area: Rect) -> Drawn {
    let mut buf = Buffer::empty(area);
    app.render(area, &mut buf);
    Drawn {
        main: layout::on_screen(app, area),
        buf,
    }
}

/// One run of the walk at one size: the app, already at that size, and
/// each of its steps as drawn. The app is built and sized once for the
/// test binary (building one runs the simulation of every design `m`
/// reaches, and sizing it measures every form its header may take): a
/// sweep borrows it and moves only its step. The lock lets two sweeps
/// walk the same size at once, one run apart. Each run keeps its app
/// beside its own steps, so a kept screen is never another step's.
struct Walked {
    app: Mutex<App>,
    steps: Vec<Drawn>,
}

/// Every step of the walk at `SIZES[i]`, laid out and drawn once for the
/// whole test binary: about twenty sweeps read the same screens, and
/// drawing them is most of a sweep's time. Drawing is a pure function of
/// the app, so a kept screen is the screen a sweep would draw itself.
fn walked(i: usize) -> &'static [Walked] {
    static WALKED: [OnceLock<Vec<Walked>>; SIZES.len()] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    WALKED[i].get_or_init(|| {
        let (w, h) = SIZES[i];
        let area = Rect::new(0, 0, w, h);
        runs()
            .map(|mut app| {
                super::resize(&mut app, w, h);
                let steps = (0..app.timeline.frames.len())
                    .map(|pos| {
                        app.pos = pos;
                        drawn(&app, area)
                    })
                    .collect();
                Walked {
                    app: Mutex::new(app),
                    steps,
                }
            })
            .collect()
    })
}

/// Calls `visit` at each step of every built-in scenario under every
/// design it lists, at `size`, with the main screen as drawn with the
/// snapshots' options (`common::plain`). At `SIZES` the apps and their
/// screens are kept for the test binary (`walked`); at another size they
/// are built and drawn as the walk goes, and not kept.
pub fn each_step(size: (u16, u16), mut visit: impl FnMut(&Step)) {
    let Some(i) = SIZES.iter().position(|&s| s == size) else {
        let area = Rect::new(0, 0, size.0, size.1);
        for mut app in runs() {
            super::resize(&mut app, size.0, size.1);
            for pos in 0..app.timeline.frames.len() {
                app.pos = pos;
                let d = drawn(&app, area);
                visit_step(&app, size, &d.main, &d.buf, &mut visit);
            }
        }
        return;
    };
    for run in walked(i) {
        // A sweep that failed while it held the app left it whole: only
        // its step moved, and every visit sets that first.
        let mut app = run.app.lock().unwrap_or_else(|e| e.into_inner());
        for (pos, d) in run.steps.iter().enumerate() {
            app.pos = pos;
            visit_step(&app, size, &d.main, &d.buf, &mut visit);
        }
    }
}

/// Calls `visit` with the timeline of every built-in scenario under every
/// design it lists: the runs the walk at the first size keeps.
pub fn each_timeline(mut visit: impl FnMut(&idem::timeline::Timeline)) {
    for run in walked(0) {
        let app = run.app.lock().unwrap_or_else(|e| e.into_inner());
        visit(&app.timeline);
    }
}

/// Visits `app`'s step, drawn as `main` and `buf`.
fn visit_step(
    app: &App,
    size: (u16, u16),
    main: &layout::Main,
    buf: &Buffer,
    visit: &mut impl FnMut(&Step),
) {
    visit(&Step {
        app,
        size,
        frame: app.frame().clone(),
        main,
        watch: view::Watch::of(&app.timeline.frames, app.frame_at()),
        buf,
    });
}

/// The end of a sweep: it saw more than `least` of `what` (a sweep that
/// sees nothing proves nothing), and none was wrong; else how many were,
/// and the first. `IDEM_ALL_CUTS=1` prints the first line of every one.
pub fn none_wrong(what: &str, seen: usize, least: usize, wrong: &[String], size: (u16, u16)) {
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for w in wrong {
            eprintln!("{}\n", w.lines().next().unwrap_or_default());
        }
    }
    assert!(seen > least, "only {seen} {what} at {size:?}");
    assert!(
        wrong.is_empty(),
        "{} of {seen} {what} at {}x{} are wrong; the first:\n{}",
        wrong.len(),
        size.0,
        size.1,
        wrong.first().cloned().unwrap_or_default()
    );
}

/// One side of the compare view at one position of the walk
/// (`each_compare_side`).
pub struct CompareSide<'a> {
    /// The app, compare open, at this position and size.
    pub app: &'a App,
    /// Where it is, for a failure's message: `tour-1 at 80x24 step 4`.
    pub at: String,
    /// `left` or `right`.
    pub side: &'static str,
    /// The whole screen, for a failure's message.
    pub screen: &'a str,
    /// The side's words after its `what happens` heading.
    pub story: &'a str,
    /// The side's own timeline and its frame here.
    pub frames: &'a [Frame],
    pub frame: &'a Frame,
}

/// Each of these tours compared from naive, at each size, every position,
/// each side whose story is on screen.
pub fn each_compare_side(names: &[&str], mut visit: impl FnMut(CompareSide<'_>)) {
    use idem::tui::{Action, update};
    for name in names {
        for (w, h) in SIZES {
            let mut a = crate::common::app(name, "naive");
            update(&mut a, Action::Compare);
            let last = a.compare.as_ref().map_or(0, |c| c.pairs.len());
            for pos in 0..last {
                a.pos = pos;
                let screen = crate::common::draw(&mut a, w, h);
                let (left, right) = crate::common::sides(&screen, 3, 2);
                let c = a.compare.as_ref().expect("compare stays open");
                let (lf, rf) = c.frames(pos);
                for (side, text, frames, frame) in [
                    ("left", &left, &c.left.frames, lf),
                    ("right", &right, &c.right.frames, rf),
                ] {
                    let Some(story) = text.split("what happens").nth(1) else {
                        continue;
                    };
                    // Where the sides scroll under the story, its sign
                    // ends the story (`… ↑ 5 more rows above`).
                    let story = match story.find(" more rows above") {
                        Some(i) => story[..i].rfind('…').map_or(story, |j| &story[..j]),
                        None => story,
                    };
                    visit(CompareSide {
                        app: &a,
                        at: format!("{name} at {w}x{h} step {pos}"),
                        side,
                        screen: &screen,
                        story,
                        frames,
                        frame,
                    });
                }
            }
        }
    }
}

/// One form of each kind at one size, in a run or across a scenario's
/// designs: the first form of each kind the walk sees there, and every
/// step that reads another. The walk visits a run's steps in order and a
/// scenario's designs one after another.
#[derive(Default)]
pub struct Across {
    first: std::collections::BTreeMap<(String, String, usize), (String, String)>,
    /// Whether each run keeps its own forms (`each_run`), rather than one
    /// form per scenario whichever design `m` shows.
    per_run: bool,
    pub wrong: Vec<String>,
}

impl Across {
    /// One form per run: a run whose form changes from one step to the
    /// next relabels one figure.
    pub fn each_run() -> Self {
        Across {
            per_run: true,
            ..Across::default()
        }
    }

    /// Notes the form `now` of kind `kind` at `step` (`None`: this step
    /// takes no form of that kind); `row` is what it read, for a message.
    pub fn note(&mut self, step: &Step, kind: usize, now: Option<String>, row: &str) {
        let Some(now) = now else { return };
        let (scenario, design) = step.run();
        let key = (
            scenario,
            if self.per_run { design } else { String::new() },
            kind,
        );
        match self.first.get(&key) {
            None => {
                self.first.insert(key, (now, step.at()));
            }
            Some((was, at)) if *was != now => self.wrong.push(format!(
                "{}: {row:?} reads {now:?}; {at} read {was:?}",
                step.at()
            )),
            Some(_) => {}
        }
    }
}

/// Where in frame `f`'s events the provider answers a consumer's request,
/// and that consumer: `(3, Consumer("A"))` for `answers A's request …`.
pub fn provider_answer(f: &idem::sim::Frame) -> Option<(usize, idem::sim::Actor)> {
    use idem::sim::Actor;
    let at = f
        .events
        .iter()
        .position(|e| e.actor == Actor::Provider && e.text.starts_with("answers "))?;
    let whom = f.events[at].text["answers ".len()..]
        .split("'s request")
        .next()
        .unwrap_or_default()
        .to_string();
    Some((at, Actor::Consumer(whom)))
}
