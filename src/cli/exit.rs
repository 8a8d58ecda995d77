//! An error that has already been told to the user, and the exit code the
//! program ends with: 2 for bad usage or input, and output that cannot be
//! written.

/// An error that has already been explained to the user, with its exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

pub fn input_error(message: impl std::fmt::Display) -> anyhow::Error {
    Exit {
        code: 2,
        message: message.to_string(),
    }
    .into()
}
