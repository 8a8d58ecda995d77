//! The dashboard's event loop: the soak runs on its own threads (one per
//! design), this thread draws a fresh copy of their figures about thirty
//! times a second and works the controls. The terminal is put back on every
//! way out; Enter hands the terminal to the simulator on the chosen story
//! and takes it back when the user quits it.

use super::{DashAction, Dashboard, SPEEDS, update};
use crate::sim::Strategy;
use crate::soak::{self, Config, Live, SoakError, SoakReport};
use crate::tui::terminal::SaveMoment;
use crate::tui::{App, Options, theme::Theme};
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::execute;
use std::io::{self, stdout};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A frame every 33 ms: about thirty a second.
const FRAME: Duration = Duration::from_millis(33);

/// How the dashboard went: the soak's report (of what ran, if stopped
/// early) and how often the screen was drawn.
pub struct Watched {
    pub report: Result<SoakReport, SoakError>,
    pub frames: u64,
    pub seconds: f64,
}

fn restore() {
    let _ = execute!(stdout(), Show);
    let _ = ratatui::try_restore();
}

/// On a signal: the terminal back, then a soak's schemas on a PostgreSQL
/// server dropped (the process ends without running any destructor).
fn restore_and_clean_up() {
    restore();
    crate::sim::db::drop_live_schemas();
}

/// Runs the soak under the dashboard until it finishes and the user quits,
/// or the user stops it.
/// `save` writes a moment of a violation's story (`e` on its main screen).
pub fn dashboard(config: &Config, options: Options, save: SaveMoment) -> io::Result<Watched> {
    #[cfg(unix)]
    let _signals = crate::tui::signals::RestoreOnSignal::install(restore_and_clean_up)?;
    let names: Vec<&str> = config.designs.iter().map(|d| d.name.as_ref()).collect();
    let live = Live::new(config.messages, &names);
    // Before the first frame, so the progress line's words are chosen once.
    if let Ok(mut state) = live.state.lock() {
        state.planned_ms = config.planned_ms();
    }
    let progress = AtomicU64::new(0);
    let theme = Theme::new(options.color, options.ascii);
    let settings = super::settings(config);
    let started = Instant::now();
    let mut frames = 0u64;
    std::thread::scope(|s| {
        let engine = s.spawn(|| soak::run_live(config, &progress, Some(&live)));
        let mut dash = Dashboard::new(settings, live.snapshot(), theme);
        let drawn = watch(&live, &mut dash, &mut frames, options, save);
        // However the loop ended, the engine stops and the terminal is back.
        live.control.paused.store(false, Ordering::Relaxed);
        live.control.stop.store(true, Ordering::Relaxed);
        restore();
        let report = engine
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        drawn?;
        Ok(Watched {
            report,
            frames,
            seconds: started.elapsed().as_secs_f64(),
        })
    })
}

fn watch(
    live: &Live,
    dash: &mut Dashboard,
    frames: &mut u64,
    options: Options,
    save: SaveMoment,
) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    loop {
        update(dash, DashAction::Live(live.snapshot()));
        terminal.draw(|f| f.render_widget(&*dash, f.area()))?;
        *frames += 1;
        if dash.quit {
            return Ok(());
        }
        if event::poll(FRAME)?
            && let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
                return Ok(());
            }
            update(dash, DashAction::Key(key.code));
        }
        live.control.paused.store(dash.paused, Ordering::Relaxed);
        live.control
            .delay_us
            .store(SPEEDS[dash.speed].0, Ordering::Relaxed);
        if let Some(i) = dash.open.take() {
            let Some(v) = dash.live.violations.get(i).cloned() else {
                continue;
            };
            let (Some(script), Some(strategy)) = (v.story, Strategy::by_name(&v.design)) else {
                continue;
            };
            // The soak waits while the story is on the main screen.
            dash.paused = true;
            live.control.paused.store(true, Ordering::Relaxed);
            restore();
            let app = App::new((*script).clone(), strategy, soak::story::SEED, options)
                .map_err(io::Error::other)?;
            crate::tui::terminal::run(app, save)?;
            terminal = ratatui::try_init()?;
            terminal.clear()?;
        }
    }
}
