//! The replay's event loop: nothing moves by itself, so it waits for a key
//! and draws. The terminal is put back on every way out: q, Ctrl-C, a
//! signal from outside.

use super::{Replay, update};
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::execute;
use std::io::{self, stdout};

fn restore() {
    let _ = execute!(stdout(), Show);
    let _ = ratatui::try_restore();
}

/// Shows the replay until the user quits.
pub fn run(replay: &mut Replay) -> io::Result<()> {
    #[cfg(unix)]
    let _signals = crate::tui::signals::RestoreOnSignal::install(restore)?;
    let mut terminal = ratatui::try_init()?;
    let result = (|| loop {
        terminal.draw(|f| f.render_widget(&*replay, f.area()))?;
        if replay.quit {
            return Ok(());
        }
        if let Event::Key(key) = event::read()?
            && key.kind == KeyEventKind::Press
        {
            if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
                return Ok(());
            }
            update(replay, key.code);
        }
    })();
    restore();
    result
}
