//! The options that come before any command (`idem --ascii play ...`):
//! how the screen is drawn, and what the simulator does with the learner.

#[derive(clap::Args)]
pub struct Global {
    /// Step without the short animations between steps.
    #[arg(long)]
    pub no_animation: bool,
    /// Draw with ASCII characters only (no box drawing, no symbols).
    #[arg(long)]
    pub ascii: bool,
    /// Predict mode: answer each question before its step runs, then see.
    #[arg(long)]
    pub predict: bool,
    /// Start over: forget where you left off, the scenarios finished, the
    /// levels won and the scores (the old progress file is kept as a backup).
    #[arg(long)]
    pub fresh: bool,
}
