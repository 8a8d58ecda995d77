//! What a file that validates is still told: a word that works but should
//! be written otherwise (an old keyword), at its file, line and column.
//! Unlike a `ScenarioError` it refuses nothing: the file loads, and the
//! warnings go beside what was read (`Warned`) for the command to print.

use super::error::ScenarioError;
use std::fmt;
use std::ops::Range;

/// A warning at a place in a file: shown as an error is, caret and all,
/// with `warning:` before its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioWarning(ScenarioError);

impl ScenarioWarning {
    pub fn at(file: &str, text: &str, span: Option<Range<usize>>, message: String) -> Self {
        ScenarioWarning(ScenarioError::at(file, text, span, message))
    }

    /// A warning at the place an error would be told (`Validator::err`).
    pub(super) fn placed(place: ScenarioError) -> Self {
        ScenarioWarning(place)
    }

    /// Its place and words, to be told among a file's errors
    /// (`ScenarioErrors::with_warnings`).
    pub fn into_place(self) -> ScenarioError {
        self.0
    }

    pub fn line(&self) -> usize {
        self.0.line
    }

    pub fn column(&self) -> usize {
        self.0.column
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for ScenarioWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, "warning: ")
    }
}

/// What a file was read into, and the warnings it got, in file order.
#[derive(Clone, Debug)]
pub struct Warned<T> {
    pub value: T,
    pub warnings: Vec<ScenarioWarning>,
}

impl<T> Warned<T> {
    pub fn new(value: T, mut warnings: Vec<ScenarioWarning>) -> Self {
        warnings.sort_by_key(|w| (w.line(), w.column()));
        Warned { value, warnings }
    }
}
