//! The only place that touches the real terminal and the clock: set up,
//! the event loop, and putting the terminal back however we leave (quit,
//! Ctrl-C, panic, SIGTERM/SIGHUP/SIGINT from outside).

use super::action::Action;
use super::app::{App, Effect};
use super::explorer::Explored;
use super::input;
use super::levels::Proved;
use super::update::update;
use crate::check::{self, Bounds};
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use std::io::{self, stdout};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// About 30 frames a second while something moves.
const FRAME: Duration = Duration::from_millis(33);

/// Writes the moment on screen into a folder (`e`) and returns the files it
/// wrote. The binary hands in the exporter, so that the terminal layer
/// draws no pictures of its own and imports no front end beside it.
pub type SaveMoment = fn(&App, &Path) -> Result<Vec<PathBuf>, String>;

/// Runs the simulator until the user quits. The terminal is restored on
/// every way out, including a panic.
pub fn run(mut app: App, save: SaveMoment) -> io::Result<()> {
    // Before the terminal changes, so that no moment is left in which a
    // signal would end the process with the terminal still raw.
    #[cfg(unix)]
    let _signals = super::signals::RestoreOnSignal::install(restore_and_clean_up)?;
    let mut terminal = ratatui::try_init()?;
    install_panic_hook();
    let result = (|| {
        execute!(stdout(), EnableMouseCapture)?;
        let size = terminal.size()?;
        update(
            &mut app,
            Action::Resize {
                width: size.width,
                height: size.height,
            },
        );
        event_loop(&mut terminal, &mut app, save)
    })();
    restore();
    // A failed save, told again where it stays in view: on standard error,
    // after the screen is back (whichever way the loop ended).
    if let Some(note) = super::keep::unsaved(&app) {
        use std::io::Write;
        let _ = writeln!(
            io::stderr().lock(),
            "{}",
            crate::terminal_text::escape(&note)
        );
    }
    result
}

/// On a signal: the terminal back, then the run's schemas on a PostgreSQL
/// server dropped (the process ends without running any destructor).
fn restore_and_clean_up() {
    restore();
    crate::sim::db::drop_live_schemas();
}

/// Mouse capture off, cursor shown, raw mode and the alternate screen left.
/// Errors are ignored: on the way out there is nobody left to tell, and a
/// failed write to stderr must not panic (ratatui::restore would print).
fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture, Show);
    let _ = ratatui::try_restore();
}

/// Chained after ratatui's own hook (which leaves raw mode and the
/// alternate screen): mouse capture is ours to undo, before the message.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // The checker's panics are caught and shown in the explorer; the
        // screen stays as it is.
        if std::thread::current().name() == Some(CHECKER) {
            return;
        }
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    save: SaveMoment,
) -> io::Result<()> {
    let mut last = Instant::now();
    let mut work = Work {
        save,
        explore: None,
        prove: None,
    };
    // Nothing saved yet: the first change is saved at once.
    let mut saved = None;
    loop {
        work.start(app);
        work.collect(app);
        keep_progress(app, &mut saved);
        terminal.draw(|f| f.render_widget(&*app, f.area()))?;
        if app.quit {
            return Ok(());
        }
        if app.busy() {
            // Something moves: wake every frame to move it on.
            if event::poll(FRAME)? {
                handle_pending(app)?;
            }
            let now = Instant::now();
            let ms = now.duration_since(last).as_millis() as u64;
            last = now;
            update(app, Action::Tick { ms });
        } else {
            // Idle: block until something happens, so nothing burns CPU.
            handle_pending(app)?;
            last = Instant::now();
        }
    }
}

/// Saves the learner's progress when it changed (`keep.rs`), told how
/// long ago the last save was.
fn keep_progress(app: &mut App, saved: &mut Option<Instant>) {
    if super::keep::keep_progress(app, saved.map(|at| at.elapsed())) {
        *saved = Some(Instant::now());
    }
}

/// The effects `update` asked for, done off the render loop.
struct Work {
    save: SaveMoment,
    explore: Option<Receiver<Result<check::CheckReport, String>>>,
    prove: Option<Receiver<Result<crate::levels::Attempt, String>>>,
}

impl Work {
    fn start(&mut self, app: &mut App) {
        match app.pending.take() {
            Some(Effect::Explore) if self.explore.is_none() => {
                // The check takes seconds: on its own thread, so the screen
                // keeps drawing (and the spinner turning) meanwhile.
                let (tx, rx) = mpsc::channel();
                // The explorer's own counter, so its wait shows the designs
                // done as they finish.
                let watch = match &app.exploration {
                    super::explorer::Exploration::Running { watch, .. } => watch.clone(),
                    _ => Arc::new(check::Watch::default()),
                };
                let spawned = std::thread::Builder::new()
                    .name(CHECKER.into())
                    .spawn(move || {
                        let _ = tx.send(explore(&watch));
                    });
                match spawned {
                    Ok(_) => self.explore = Some(rx),
                    Err(e) => update(
                        app,
                        Action::ExploreDone(Explored::new(Err(format!(
                            "could not start the checker: {e}"
                        )))),
                    ),
                }
            }
            Some(Effect::Export) => {
                let result = std::env::current_dir()
                    .map_err(|e| format!("no current folder: {e}"))
                    .and_then(|dir| (self.save)(app, &dir))
                    .map(|files| {
                        files
                            .iter()
                            .map(|f| {
                                f.file_name().map_or_else(
                                    || f.display().to_string(),
                                    |n| n.to_string_lossy().into_owned(),
                                )
                            })
                            .collect()
                    });
                update(app, Action::Exported(result));
            }
            Some(Effect::Prove) if self.prove.is_none() => {
                // Up to about a second for the largest handlers: off the
                // render loop, like the explorer's check.
                let level = app.levels.level().clone();
                let program = app.levels.program.clone();
                let (tx, rx) = mpsc::channel();
                let spawned = std::thread::Builder::new()
                    .name(CHECKER.into())
                    .spawn(move || {
                        let _ = tx.send(unpanicked(|| {
                            crate::levels::Attempt::check(&level, &program)
                        }));
                    });
                match spawned {
                    Ok(_) => self.prove = Some(rx),
                    Err(e) => update(
                        app,
                        Action::Proved(Proved(Arc::new(Err(format!(
                            "could not start the prover: {e}"
                        ))))),
                    ),
                }
            }
            Some(Effect::Explore | Effect::Prove) | None => {}
        }
    }

    fn collect(&mut self, app: &mut App) {
        if let Some(rx) = &self.prove {
            let result = match rx.try_recv() {
                Ok(result) => Some(result),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => {
                    Some(Err("the prover stopped unexpectedly".into()))
                }
            };
            if let Some(result) = result {
                self.prove = None;
                update(app, Action::Proved(Proved(Arc::new(result))));
            }
        }
        let Some(rx) = &self.explore else {
            return;
        };
        let result = match rx.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the checker stopped unexpectedly".into()),
        };
        self.explore = None;
        update(app, Action::ExploreDone(Explored::new(result)));
    }
}

/// The checker's thread: a panic there is the explorer's error, not the
/// app's, so the panic hook leaves the terminal alone for it.
const CHECKER: &str = "idem-check";

/// Runs the checker, turning a panic into an error message.
fn explore(watch: &check::Watch) -> Result<check::CheckReport, String> {
    unpanicked(|| check::run_watched(&Bounds::default(), watch))
}

/// Runs a check, turning its error or a panic into an error message.
fn unpanicked<T, E: std::fmt::Display>(work: impl FnOnce() -> Result<T, E>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => result.map_err(|e| e.to_string()),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(format!("the checker failed (a bug in idem): {why}"))
        }
    }
}

/// One event (waiting for it), then whatever else queued up meanwhile (key
/// repeat, resize bursts) before the next draw.
fn handle_pending(app: &mut App) -> io::Result<()> {
    loop {
        if let Some(a) = input::from_event(&event::read()?) {
            update(app, a);
        }
        if app.quit || !event::poll(Duration::ZERO)? {
            return Ok(());
        }
    }
}
