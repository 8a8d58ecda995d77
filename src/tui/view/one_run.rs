//! The bound of a verdict on the learner's own design. `idem play --design
//! FILE` shows one run, on the schedule the scenario plays: "correct" there
//! says nothing of the crashes and interleavings it did not meet. Where it
//! says "correct", it says "in this run" and names the command that tries
//! every schedule within its bounds. A failure needs no bound: one broken
//! run is proof enough.

use crate::sim::Verdict;
use crate::tui::app::App;

/// Said right after the correct mark's word (`✓ correct in this run`).
pub use crate::sim::verdict::IN_THIS_RUN;

/// The command that checks the design, when the app shows a design of the
/// learner's own: its file as they named it, or `FILE` where the app was
/// not opened from one (a test, a picture).
pub fn check_command(app: &App) -> Option<String> {
    check_command_for(app, &app.strategy)
}

/// As `check_command`, for `design`'s run, on screen or not (the header
/// fits its form over every design's).
pub fn check_command_for(app: &App, design: &crate::sim::Strategy) -> Option<String> {
    crate::sim::Strategy::by_name(&design.name)
        .is_none()
        .then(|| {
            let file = app.design_file.as_deref().unwrap_or("FILE");
            format!("idem check --design {}", crate::terminal_text::escape(file))
        })
}

/// Whether `v` reads as correct, the claim the bound belongs to.
pub fn claims_correct(v: &Verdict) -> bool {
    v.claims_correct()
}

/// The bound a verdict line carries, or `None`: for a correct verdict on
/// the learner's own design.
pub fn bound(app: &App, v: &Verdict) -> Option<String> {
    bound_for(app, &app.strategy, v)
}

/// As `bound`, for `design`'s run.
pub fn bound_for(app: &App, design: &crate::sim::Strategy, v: &Verdict) -> Option<String> {
    check_command_for(app, design).filter(|_| claims_correct(v))
}

/// The link that ends the verdict's line (`· check: idem check --design
/// my.toml`), counted with its other links where the line is cut.
pub fn link(check: &str) -> String {
    format!("  · check every schedule: {check}")
}
