//! What covers the main screen, if anything: help, the picker, the fault
//! menu, the checker's table, a level. A leaf of its own (the app
//! re-exports it), so that the kept forms can say which overlay they
//! were filled under without importing the app (issue 17).

use super::explorer::Selection;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    /// `selected` indexes `App::scripts`; `typed` is the first digit of a
    /// two-digit number, waiting for the second (there are more than nine).
    Picker {
        selected: usize,
        typed: Option<u8>,
    },
    /// `selected` indexes the fault menu built from the current frame;
    /// `typed` is the first digit of a two-digit choice, in a long menu.
    Faults {
        selected: usize,
        typed: Option<u8>,
    },
    /// The checker's table, full screen.
    Explorer(Selection),
    /// "Build the handler yourself": a level, its handler and the prover's
    /// verdict, full screen (the state is `App::levels`).
    Levels,
}
