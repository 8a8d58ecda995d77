//! Why a scenario could not be loaded: every error of a file that does not
//! validate, an unknown name, or a path that is no readable scenario file.

use super::error::{ScenarioError, ScenarioErrors};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Every error the file's validation could tell apart.
    #[error("{0}")]
    Scenario(#[from] ScenarioErrors),
    #[error(
        "no scenario named `{name}`{}; the built-in ones are: {}",
        crate::suggest::did_you_mean(name, known.iter().map(String::as_str)),
        known.join(", ")
    )]
    UnknownName { name: String, known: Vec<String> },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {kind}, not a scenario file (a scenario is a regular .toml file)")]
    NotAFile { path: String, kind: &'static str },
    #[error(
        "{path}: too large for a scenario file: {bytes} bytes, over the limit of {} bytes",
        super::limits::MAX_FILE_BYTES
    )]
    TooLarge { path: String, bytes: u64 },
}

impl From<ScenarioError> for LoadError {
    fn from(error: ScenarioError) -> Self {
        LoadError::Scenario(error.into())
    }
}
