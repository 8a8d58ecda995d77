//! `idem generate`: a long scenario, to measure idem at scale.

use super::output::write_stdout;
use anyhow::Result;
use idem::scenario;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct GenerateArgs {
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=idem::scenario::limits::MAX_MESSAGES as i64))]
    messages: u32,
}

impl GenerateArgs {
    /// A generated scenario on stdout (see `scenario::generate`).
    pub fn run(&self) -> Result<ExitCode> {
        write_stdout(scenario::generate::many_payments(self.messages as usize).as_bytes())?;
        Ok(ExitCode::SUCCESS)
    }
}
