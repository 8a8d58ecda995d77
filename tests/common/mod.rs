//! The one harness the screen tests share: an `App` on a built-in scenario
//! with animation off (so a screen is the same on every machine), and a
//! TestBackend it is drawn into. Keys are fed with `idem::tui::update`, as
//! the terminal layer feeds them.

pub mod check;
pub mod cli;
pub mod own_line;
pub mod panel_words;
pub mod pg_runs;
pub mod replays;
pub mod reveals;
pub mod server;
pub mod sweep;
pub mod trial_soak;
pub mod under_w;

use idem::scenario;
use idem::sim::Strategy;
use idem::tui::{Action, App, Options, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::widgets::Widget;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// No animation, no colour, Unicode marks: the screen a snapshot keeps.
pub fn plain() -> Options {
    Options {
        animation: false,
        color: false,
        ascii: false,
    }
}

/// As `plain`, in ASCII only.
pub fn ascii() -> Options {
    Options {
        ascii: true,
        ..plain()
    }
}

/// The built-in scenario `name` under the design `mode`, at its first step.
pub fn app(name: &str, mode: &str) -> App {
    app_with(name, mode, plain())
}

/// As `app`, with `options`. Each app is built once for the test binary
/// and copied after that: building one runs the simulation of every
/// design `m` reaches, and a copy is the app a build would give (the same
/// scenario, design and seed make the same runs; a copy keeps no file).
pub fn app_with(name: &str, mode: &str, options: Options) -> App {
    type Built = BTreeMap<(String, String, bool, bool, bool), App>;
    static BUILT: Mutex<Built> = Mutex::new(BTreeMap::new());
    let key = (
        name.to_string(),
        mode.to_string(),
        options.animation,
        options.color,
        options.ascii,
    );
    if let Some(app) = BUILT.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return app.clone();
    }
    // Built outside the lock, so that other tests' builds go on beside
    // this one; two tests building the same app keep the same app.
    let script = scenario::find(name).expect("built-in scenario");
    let strategy = Strategy::by_name(mode).expect("design");
    let app = App::new(script, strategy, 0, options).expect("the timeline builds");
    BUILT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert_with(|| app.clone());
    app
}

/// A terminal of a fixed size that screens are drawn into.
pub struct Screen {
    terminal: Terminal<TestBackend>,
}

impl Screen {
    pub fn new(width: u16, height: u16) -> Screen {
        Screen {
            terminal: Terminal::new(TestBackend::new(width, height)).unwrap(),
        }
    }

    /// Draws `widget` over the whole terminal and gives back what it drew.
    pub fn show(&mut self, widget: impl Widget) -> &Buffer {
        self.terminal
            .draw(|f| f.render_widget(widget, f.area()))
            .unwrap();
        self.terminal.backend().buffer()
    }

    /// The last screen drawn, as text: one quoted row a line.
    pub fn text(&self) -> String {
        self.terminal.backend().to_string()
    }
}

/// The app told the terminal is `width` x `height` (as a resize tells
/// it), then drawn: the screen as text.
pub fn draw(app: &mut App, width: u16, height: u16) -> String {
    resize(app, width, height);
    render(app)
}

/// The app drawn at the size it last heard of, without telling it one.
pub fn render(app: &App) -> String {
    let mut screen = Screen::new(app.viewport.width, app.viewport.height);
    screen.show(app);
    screen.text()
}

pub fn resize(app: &mut App, width: u16, height: u16) {
    update(app, Action::Resize { width, height });
}

/// One snapshot at each of the two sizes the snapshots keep, 80x24 and
/// 120x40, each from a fresh `$setup`.
macro_rules! both_sizes {
    ($name:literal, $setup:expr) => {{
        for (w, h) in [(80u16, 24u16), (120, 40)] {
            let mut a = $setup;
            let screen = $crate::common::draw(&mut a, w, h);
            insta::assert_snapshot!(format!("{}_{w}x{h}", $name), screen);
        }
    }};
}
pub(crate) use both_sizes;

/// A compare screen's two sides, each its column of rows joined with its
/// spaces squeezed: what a reader of that side reads, in order. `top` and
/// `bottom` rows (titles, key bar) are left out.
pub fn sides(screen: &str, top: usize, bottom: usize) -> (String, String) {
    let rows: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect())
        .collect();
    let half = rows.first().map_or(0, |r| r.len() / 2);
    let side = |from: usize, to: usize| {
        let text: Vec<String> = rows[top.min(rows.len())..rows.len().saturating_sub(bottom)]
            .iter()
            .map(|r| r[from.min(r.len())..to.min(r.len())].iter().collect())
            .collect();
        text.join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    (side(1, half - 1), side(half + 1, rows[0].len() - 1))
}

/// Words split into sentences at `.`, `?` and `!`, their spaces squeezed:
/// as the story tests read a step's authored words.
pub fn sentences(text: &str) -> Vec<String> {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split_inclusive(['.', '?', '!'])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The text inside the `n`th of the presenter's four figure boxes, its
/// rows joined with spaces: a phrase wrapped over two rows reads as one.
pub fn figure_text(screen: &str, width: u16, n: usize) -> String {
    let quarter = usize::from(width) / 4;
    screen
        .lines()
        .skip(1)
        .map(|l| l.trim_matches('"'))
        .take_while(|l| !l.starts_with('┌') || l.contains("in the queue"))
        .map(|l| {
            let row: String = l.chars().skip(n * quarter).take(quarter).collect();
            row.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_string()
        })
        .filter(|r| !r.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
