//! The only place that touches the real terminal and the clock: set up,
//! the event loop, and putting the terminal back however we leave (quit,
//! Ctrl-C, panic).

use super::action::{self, Action};
use super::app::{App, Effect};
use super::explorer::Explored;
use super::update::update;
use crate::check::{self, Bounds};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use std::io::{self, stdout};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// About 30 frames a second while something moves.
const FRAME: Duration = Duration::from_millis(33);

/// Runs the simulator until the user quits. The terminal is restored on
/// every way out, including a panic.
pub fn run(mut app: App) -> io::Result<()> {
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
        event_loop(&mut terminal, &mut app)
    })();
    restore();
    result
}

fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Chained after ratatui's own hook (which leaves raw mode and the
/// alternate screen): mouse capture is ours to undo, before the message.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> io::Result<()> {
    let mut last = Instant::now();
    let mut work = Work::default();
    loop {
        work.start(app);
        work.collect(app);
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

/// The effects `update` asked for, done off the render loop.
#[derive(Default)]
struct Work {
    explore: Option<Receiver<Result<check::CheckReport, String>>>,
}

impl Work {
    fn start(&mut self, app: &mut App) {
        match app.pending.take() {
            Some(Effect::Explore) if self.explore.is_none() => {
                // The check takes seconds: on its own thread, so the screen
                // keeps drawing (and the spinner turning) meanwhile.
                let (tx, rx) = mpsc::channel();
                std::thread::spawn(move || {
                    let result = check::run(&Bounds::default()).map_err(|e| e.to_string());
                    let _ = tx.send(result);
                });
                self.explore = Some(rx);
            }
            Some(Effect::Explore) | None => {}
        }
    }

    fn collect(&mut self, app: &mut App) {
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

/// One event (waiting for it), then whatever else queued up meanwhile (key
/// repeat, resize bursts) before the next draw.
fn handle_pending(app: &mut App) -> io::Result<()> {
    loop {
        if let Some(a) = action::from_event(&event::read()?) {
            update(app, a);
        }
        if app.quit || !event::poll(Duration::ZERO)? {
            return Ok(());
        }
    }
}
