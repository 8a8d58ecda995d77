//! After `e`, the status line shows the whole command that reopens the
//! moment (teacher trial: at 100x30 it read "idem play
//! idem-tour-4-idempotent-step11…", so the command could not be typed).
//! The command comes first; what else was saved gives way to it, whole
//! words at a time. Every built-in scenario and design, at its last step,
//! at 100x30 and at 80x24, with the four files `e` writes.

use crate::common::{self, draw};
use idem::scenario::load::builtins;
use idem::tui::{Action, update};

#[test]
fn the_command_to_reopen_a_saved_moment_is_whole_on_the_status_line() {
    let (mut read, mut wrong) = (0, Vec::new());
    for script in builtins() {
        for design in script.strategies() {
            for (w, h) in [(100u16, 30u16), (80, 24)] {
                let mut a = common::app(&script.name, &design);
                common::resize(&mut a, w, h);
                update(&mut a, Action::Last);
                // As the export names them (`export::moment::save`).
                let base = format!("idem-{}-{design}-step{}", script.name, a.pos);
                let files = ["svg", "png", "txt", "toml"].map(|e| format!("{base}.{e}"));
                update(&mut a, Action::Exported(Ok(files.to_vec())));
                let screen = draw(&mut a, w, h);
                let bottom = screen.lines().last().unwrap_or_default().to_string();
                read += 1;
                let command = format!("idem play {base}.toml");
                // Whole, and nothing after it cut mid-word.
                let cut = bottom.trim_end().trim_end_matches('"').ends_with('…');
                if !bottom.contains(&command) || cut {
                    wrong.push(format!("{} {design} {w}x{h}: {bottom}", script.name));
                }
            }
        }
    }
    assert!(read > 0);
    assert!(
        wrong.is_empty(),
        "{} of {read} status lines cut the command:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(6)].join("\n")
    );
}
