//! `idem validate`: every error of each scenario, design or level file, its
//! warnings among them, in file order (of syntax errors, the first, with a
//! count of the rest).

use super::choose::warned;
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
        // A file with a `name` and no `title` is a design, not a scenario;
        // one with a `goal`, a `start` or a `solution` is a level.
        let read = if idem::levels::is_level_file(path) {
            idem::levels::load_warned(path).map(|read| {
                let level = warned(read);
                format!(
                    "ok (level {} `{}`, a start of {} steps, a solution of {})",
                    level.number,
                    idem::terminal_text::escape(&level.title),
                    level.start.len(),
                    level.solution.len()
                )
            })
        } else if scenario::design_file::is_design_file(path) {
            scenario::design_file::load_warned(path).map(|read| {
                let design = warned(read);
                format!(
                    "ok (design `{}`, {} steps)",
                    design.name,
                    design.program.len()
                )
            })
        } else {
            scenario::find_warned(file).map(|read| {
                let script = warned(read);
                let chapters = script.steps.len();
                format!(
                    "ok ({chapters} chapter{}, expectations for {}){}",
                    if chapters == 1 { "" } else { "s" },
                    script.strategies().join(", "),
                    steps_named(&script)
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

/// Every error of a file, its warnings among them, then how many of each
/// there were when more than one problem was told.
fn report_all(file: &str, errors: &scenario::ScenarioErrors) {
    note(&errors.to_string());
    let (count, warnings) = (errors.count(), errors.warnings());
    if count + warnings > 1 {
        let perhaps = if errors.is_cut_short() {
            " or more"
        } else {
            ""
        };
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let warned = match warnings {
            0 => String::new(),
            n => format!(" and {n} warning{}", plural(n)),
        };
        note(&format!(
            "{file}: {count} error{}{perhaps}{warned}",
            plural(count)
        ));
    }
}

/// Each handler step the file's `run A to <step>` actions stop before,
/// once, with what it does and where: `payment` (insert payment row, in the
/// database) beside `provider` (charge the card, at the provider), so an
/// author who meant the card sees it before a learner does.
fn steps_named(script: &scenario::Script) -> String {
    use idem::sim::step_name;
    let mut named: Vec<&str> = Vec::new();
    for step in &script.steps {
        for action in &step.actions {
            if let scenario::Action::Run { to: Some(to), .. } = action
                && !named.contains(&to.as_str())
            {
                named.push(to);
            }
        }
    }
    named
        .iter()
        .map(|word| match step_name::op_named(word) {
            Some(op) => {
                let place = step_name::place(op);
                let at = if matches!(place, "database" | "cache") {
                    "in"
                } else {
                    "at"
                };
                format!(
                    "\n  stops before `{word}`: {}, {at} the {place}",
                    step_name::name(op)
                )
            }
            None => format!("\n  stops before `{word}`"),
        })
        .collect()
}
