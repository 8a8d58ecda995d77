//! How a cause or an admission names a step of the run: its own file, so
//! that both can use it without importing each other.

/// A step of the run in words. Alone a run says `step 7`; where two runs
/// are shown side by side, each counting its own steps, a step is named as
/// the moment both stand at (`naive step 7, idempotent 8`), so that the
/// same event reads the same on both sides.
pub type StepWords<'a> = &'a dyn Fn(usize) -> String;

/// `step 7`: a step of the one run on show.
pub fn plain_step(step: usize) -> String {
    format!("step {step}")
}
