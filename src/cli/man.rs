//! `idem man`: the manual page.

use super::exit::input_error;
use super::output::write_stdout;
use anyhow::Result;
use std::process::ExitCode;

/// The manual page, made from the same definitions as `--help`.
pub fn run(command: clap::Command) -> Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| input_error(format!("cannot render the manual page: {e}")))?;
    write_stdout(&page)?;
    Ok(ExitCode::SUCCESS)
}
