//! What a scenario expects a run under one design to end with.

use crate::sim::Outcome;

/// What a run under one strategy must end with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectation {
    pub total: Option<u32>,
    pub charges: Option<u32>,
    /// Every outcome the run ends with, worst first (`Verdict::outcomes`):
    /// met when the run's set is exactly this one.
    pub outcomes: Option<Vec<Outcome>>,
}
