//! Scenario files (TOML) turned into validated scripts. The built-in ones
//! are embedded in the binary, so `idem` runs from any directory.

pub mod action;
pub mod builtin;
mod control;
pub mod error;
mod file;
mod format;
pub mod generate;
pub mod limits;
pub mod load;
pub mod write;

pub use action::Action;
pub use error::ScenarioError;
pub use load::{Expectation, Group, Script, ScriptStep, find, find_all, parse, parse_all};
