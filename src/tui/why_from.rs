//! What the screen showed before `w` enlarged the verdict: app state,
//! kept on the `App` so that leaving the verdict (`w`, `z`, Esc) puts it
//! back. Here, beside the app, not in `update`: the app holds it, and
//! `update` only fills and reads it.

use crate::tui::compare_section::Section;
use crate::tui::panel::Panel;

/// The panel `z` enlarges, whether the presenter view was on, and
/// compare's picked section (none: the sides follow the step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WhyFrom {
    pub(crate) focus: Panel,
    pub(crate) presenter: bool,
    pub(crate) section: Option<Section>,
}
