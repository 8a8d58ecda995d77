//! The handler step a frame's step ran, named as the step list names it,
//! with its consumer: what a step line or a compare side says happened,
//! apart from the scripted action the step is part of.

use crate::sim::Frame;
use crate::sim::step_name::KEY_MARK;

/// `charge the card (A)`: the step the stepping consumer ran, or `None`
/// when no handler ran (a broker move, a fault, the setup).
pub fn step_ran(f: &Frame) -> Option<(String, String)> {
    let who = f.stepped.as_ref()?;
    let s = f.changes.steps.iter().find(|s| s.consumer == *who)?;
    let c = f.consumers.iter().find(|c| c.name == *who)?;
    let label = &c.steps.get(s.step)?.label;
    let name = label.strip_suffix(KEY_MARK).unwrap_or(label);
    Some((who.clone(), name.to_string()))
}

/// A one-step action (`step A`) named by the handler step it ran:
/// `charge the card (A)`. Naming it again as `step A` read as a second
/// meaning of "step" (`step 16 · step A`, trial 26). `None` for a longer
/// action, or where the step ran no handler step.
pub fn one_step(f: &Frame) -> Option<String> {
    let (who, name) = step_ran(f)?;
    (f.action == format!("step {who}")).then(|| format!("{name} ({who})"))
}
