//! Scenario files (TOML) turned into validated scripts. The built-in ones
//! are embedded in the binary, so `idem` runs from any directory.

pub mod action;
mod ask;
mod budget;
pub mod builtin;
mod closer_hint;
mod control;
pub mod design_file;
pub mod engine_key;
pub mod error;
mod every_error;
pub mod expectation;
pub mod file;
mod format;
pub mod generate;
pub mod key_word;
pub mod limits;
pub mod load;
pub mod load_error;
pub mod missing_key;
pub mod old_keyword;
pub mod question;
pub mod read_document;
pub mod runnable;
pub mod script;
pub mod shapes;
pub mod step_key;
pub mod step_words;
mod toml_errors;
mod untold;
mod validate_expectation;
mod validate_setup;
mod validator;
pub mod value_place;
pub mod warning;
pub mod write;

pub use action::Action;
pub use error::{ScenarioError, ScenarioErrors};
pub use load::{find, find_warned, parse, parse_all, parse_all_warned};
pub use question::{Question, Subject};
pub use script::{Expectation, Group, Origin, Script, ScriptStep};
pub use warning::{ScenarioWarning, Warned};
