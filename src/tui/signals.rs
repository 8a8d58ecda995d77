//! SIGTERM, SIGHUP, SIGINT and SIGQUIT from outside (`kill`, a closed terminal
//! window, a supervisor) must not leave the user's terminal in raw mode,
//! on the alternate screen, with the mouse captured and the cursor hidden.
//! In raw mode Ctrl-C and Ctrl-\ are keys, so any of these comes from
//! elsewhere (SIGQUIT's default would also dump core and leave the terminal
//! as it was). A thread waits for them, puts the terminal back and exits
//! 128 + n, as a shell reports a process ended by signal n.

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// While it lives, those signals restore the terminal and end the process.
/// Afterwards they act as they would have without it: signal-hook cannot
/// put the default action back, so the waiting thread does it.
pub struct RestoreOnSignal {
    active: Arc<AtomicBool>,
}

impl RestoreOnSignal {
    pub fn install(restore: fn()) -> io::Result<Self> {
        let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
        let active = Arc::new(AtomicBool::new(true));
        let watching = Arc::clone(&active);
        std::thread::Builder::new()
            .name("idem-signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if watching.load(Ordering::SeqCst) {
                        // Held to the end, so that no frame is drawn after
                        // the terminal is put back.
                        let _out = io::stdout().lock();
                        restore();
                        std::process::exit(exit_code(signal));
                    }
                    // The terminal is already back: end as the signal's
                    // default action would.
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                }
            })?;
        Ok(RestoreOnSignal { active })
    }
}

impl Drop for RestoreOnSignal {
    fn drop(&mut self) {
        self.active.store(false, Ordering::SeqCst);
    }
}

/// The exit status of a process ended by `signal`.
pub fn exit_code(signal: i32) -> i32 {
    128 + signal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell_convention() {
        assert_eq!(exit_code(SIGHUP), 129);
        assert_eq!(exit_code(SIGINT), 130);
        assert_eq!(exit_code(SIGTERM), 143);
        assert_eq!(exit_code(SIGQUIT), 131);
    }
}
