//! One moment of the simulator, drawn exactly as the TUI would draw it, into
//! a Buffer the exporters write out.

use crate::check::{self, Bounds};
use crate::scenario::Script;
use crate::sim::{SimError, Strategy};
use crate::tui::explorer::Explored;
use crate::tui::{Action, App, Options, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// Which screen to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Main,
    Compare,
    /// The design on SQLite and on the PostgreSQL server side by side
    /// (`E`); needs a run on a server.
    Engines,
    Presenter,
    Explorer,
    Help,
    Faults,
    Picker,
}

impl View {
    pub const NAMES: [&'static str; 7] = [
        "main", "compare", "engines", "explorer", "help", "faults", "picker",
    ];

    pub fn parse(name: &str) -> Option<View> {
        Some(match name {
            "main" => View::Main,
            "compare" => View::Compare,
            "engines" => View::Engines,
            "presenter" => View::Presenter,
            "explorer" => View::Explorer,
            "help" => View::Help,
            "faults" => View::Faults,
            "picker" => View::Picker,
            _ => return None,
        })
    }
}

/// Why a moment could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ShotError {
    #[error(transparent)]
    Sim(#[from] SimError),
    /// A step or chapter the run does not have, in `idem play`'s words.
    #[error("{0}")]
    NoSuchMoment(String),
    /// A view this run cannot show, in the words the TUI says it with.
    #[error("{0}")]
    NoSuchView(String),
}

/// Where in the run to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Moment {
    #[default]
    Start,
    /// After this many steps; past the last one is an error, as in `play`.
    Step(usize),
    /// The first step of this chapter (1-based); one the scenario does not
    /// have is an error, as in `play`.
    Chapter(usize),
    /// The first step whose verdict is a failure, else the last step.
    Verdict,
    End,
}

pub struct Shot {
    pub script: Script,
    pub strategy: Strategy,
    pub seed: u64,
    pub moment: Moment,
    pub view: View,
    pub width: u16,
    pub height: u16,
    pub ascii: bool,
    pub color: bool,
}

impl Shot {
    /// The app at the moment and view asked for.
    pub fn app(&self) -> Result<App, ShotError> {
        // The design asked for, never another one in its place: a design
        // the scenario is not written for is drawn without its story.
        let mut app = App::as_asked(
            self.script.clone(),
            self.strategy.clone(),
            self.seed,
            Options {
                animation: false,
                color: self.color,
                ascii: self.ascii,
            },
        )?;
        update(
            &mut app,
            Action::Resize {
                width: self.width,
                height: self.height,
            },
        );
        match self.moment {
            Moment::Start => {}
            // The same checks as `idem play --step/--chapter`: a number
            // out of range is refused, never clamped or stepped towards.
            Moment::Step(n) => app.open_at_step(n).map_err(ShotError::NoSuchMoment)?,
            Moment::Chapter(n) => app.open_at_chapter(n).map_err(ShotError::NoSuchMoment)?,
            Moment::Verdict => {
                update(&mut app, Action::FirstViolation);
                if app.pos == 0 {
                    update(&mut app, Action::Last);
                }
            }
            Moment::End => update(&mut app, Action::Last),
        }
        match self.view {
            View::Main => {}
            View::Compare => update(&mut app, Action::Compare),
            View::Engines => {
                if self.script.setup.postgres.is_none() {
                    return Err(ShotError::NoSuchView(
                        "--view engines puts SQLite beside PostgreSQL: add --db postgres://USER@HOST:PORT/DB".into(),
                    ));
                }
                update(&mut app, Action::CompareEngines);
                if app.compare.is_none() {
                    return Err(ShotError::NoSuchView(app.status.take().unwrap_or_default()));
                }
            }
            View::Presenter => update(&mut app, Action::Presenter),
            View::Help => update(&mut app, Action::Help),
            View::Faults => update(&mut app, Action::Faults),
            View::Picker => update(&mut app, Action::Picker),
            View::Explorer => {
                update(&mut app, Action::Explore);
                // The TUI runs the checker on a thread; a picture waits for it.
                app.pending = None;
                let report = check::run(&Bounds::default()).map_err(|e| e.to_string());
                update(&mut app, Action::ExploreDone(Explored::new(report)));
            }
        }
        Ok(app)
    }

    pub fn buffer(&self) -> Result<Buffer, ShotError> {
        Ok(self.draw(&self.app()?))
    }

    /// `app` drawn on a terminal of this shot's size.
    pub fn draw(&self, app: &App) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(self.width, self.height))
            .expect("a test backend never fails");
        terminal
            .draw(|f| f.render_widget(app, f.area()))
            .expect("a test backend never fails");
        terminal.backend().buffer().clone()
    }

    /// The words a picture is titled with.
    pub fn title(&self) -> String {
        format!("idem · {} · {}", self.script.name, self.strategy.name)
    }
}
