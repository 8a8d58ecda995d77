//! `idem completions SHELL`: a shell completion script.

use super::output::write_stdout;
use anyhow::Result;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl CompletionsArgs {
    /// The completion script for the shell, on stdout as it is (it is ours, and
    /// a shell reads it byte for byte).
    pub fn run(&self, mut command: clap::Command) -> Result<ExitCode> {
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut command, "idem", &mut script);
        write_stdout(&script)?;
        Ok(ExitCode::SUCCESS)
    }
}
