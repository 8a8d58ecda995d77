//! Why a delivery's duplicate check let it through when it was in fact a
//! repeat. Kept typed so the soak can count what retention cost without
//! reading it back out of a cause sentence.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// The ID was in processed_messages once, but retention deleted it
    /// (at that step) before this copy came.
    Pruned { id: String, step: usize },
    /// The order row keeps one message ID only, and it was another's.
    RowForgot {
        order: u32,
        previous: String,
        key: String,
    },
}

impl Admission {
    /// Retention's doing: the ID would have stopped this copy had it been
    /// kept.
    pub fn by_retention(&self) -> bool {
        matches!(self, Admission::Pruned { .. })
    }
}

impl fmt::Display for Admission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_at(f, &super::step_name::plain_step)
    }
}

impl Admission {
    /// Its sentence, its step named by `step` (see `cause::StepWords`).
    pub fn fmt_at(
        &self,
        f: &mut fmt::Formatter<'_>,
        step: super::step_name::StepWords<'_>,
    ) -> fmt::Result {
        match self {
            Admission::Pruned { id, step: at } => {
                write!(f, "{id}'s processed ID was pruned at {}", step(*at))
            }
            Admission::RowForgot {
                order,
                previous,
                key,
            } => write!(
                f,
                "order {order}'s row remembered only its last message, {previous}, not {key}"
            ),
        }
    }
}
