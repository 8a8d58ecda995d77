//! `idem validate`: every error of each scenario or design file, in file
//! order.

use super::output::{emit, note};
use anyhow::Result;
use idem::scenario::{self, load::LoadError};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ValidateArgs {
    #[arg(required = true)]
    files: Vec<String>,
}

impl ValidateArgs {
    pub fn run(&self) -> Result<ExitCode> {
        validate(&self.files)
    }
}

fn validate(files: &[String]) -> Result<ExitCode> {
    let mut bad = 0;
    for file in files {
        let path = std::path::Path::new(file);
        // A file with a `name` and no `title` is a design, not a scenario.
        let read = if scenario::design_file::is_design_file(path) {
            scenario::design_file::load(path).map(|design| {
                format!(
                    "ok (design `{}`, {} steps)",
                    design.name,
                    design.program.len()
                )
            })
        } else {
            scenario::find(file).map(|script| {
                format!(
                    "ok ({} chapters, expectations for {})",
                    script.steps.len(),
                    script.strategies().join(", ")
                )
            })
        };
        match read {
            Ok(said) => emit(&format!("{file}: {said}\n"))?,
            Err(LoadError::Scenario(errors)) => {
                bad += 1;
                report_all(file, &errors);
            }
            Err(other) => {
                bad += 1;
                note(&other.to_string());
            }
        }
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Every error of a file, then how many there were when more than one.
fn report_all(file: &str, errors: &scenario::ScenarioErrors) {
    note(&errors.to_string());
    if errors.count() > 1 {
        let perhaps = if errors.is_cut_short() {
            " or more"
        } else {
            ""
        };
        note(&format!("{file}: {} errors{perhaps}", errors.count()));
    }
}
