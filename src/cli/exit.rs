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

/// The exit code of a verdict with a save asked for beside it (`--save`):
/// a broken design (1) is the news a script waits for, so a save that
/// failed beside it is told on stderr and the 1 stands; with nothing
/// broken, output idem could not write is the error (2).
pub fn verdict_then_save(
    broken: bool,
    saved: anyhow::Result<()>,
) -> anyhow::Result<std::process::ExitCode> {
    match saved {
        Ok(()) if broken => Ok(std::process::ExitCode::from(1)),
        Ok(()) => Ok(std::process::ExitCode::SUCCESS),
        Err(e) if broken => {
            super::output::note(&format!("idem: {e:#}"));
            Ok(std::process::ExitCode::from(1))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::ExitCode;

    fn code(r: anyhow::Result<ExitCode>) -> String {
        match r {
            Ok(c) => format!("{c:?}"),
            Err(e) => format!("error {}", e.downcast_ref::<Exit>().map_or(0, |x| x.code)),
        }
    }

    #[test]
    fn a_failed_save_never_hides_a_broken_design() {
        let failed = || Err(input_error("cannot write"));
        assert_eq!(
            code(verdict_then_save(true, failed())),
            code(Ok(ExitCode::from(1)))
        );
        assert_eq!(code(verdict_then_save(false, failed())), "error 2");
        assert_eq!(
            code(verdict_then_save(true, Ok(()))),
            code(Ok(ExitCode::from(1)))
        );
        assert_eq!(
            code(verdict_then_save(false, Ok(()))),
            code(Ok(ExitCode::SUCCESS))
        );
    }
}
