//! `idem test` exploring: every schedule of faults within the bounds, the
//! shortest failing one per outcome saved for `--replay`.

use super::progress::Progress;
use super::{TestArgs, bad_program, plural, saved_names};
use crate::cli::output::emit;
use crate::cli::save;
use anyhow::Result;
use idem::harness::explore::{self, Bounds, Found};
use idem::harness::faults;
use idem::harness::run::Config;
use idem::harness::schedule_file::{self, ScheduleFile};
use idem::sim::verdict::Outcome;
use idem::sim::{Arrow, Cause};
use std::fmt::Write;
use std::process::ExitCode;

impl TestArgs {
    pub(super) fn explore(&self, cfg: &Config, bounds: Bounds) -> Result<ExitCode> {
        let shown = Progress::on_stderr();
        let progress = |done: usize| shown.ran(done);
        let explored = explore::explore(cfg, bounds, self.workers as usize, &progress);
        shown.clear();
        let explored = match explored {
            Ok(e) => e,
            Err(stopped) => {
                return Err(bad_program(&stopped.diagnosis, Some(&stopped.schedule)));
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "idem test: {}\nbounds: {} {}, {} {}, up to {} {} per schedule (a killed instance starts again when a message waits for it)",
            cfg.launch.program.join(" "),
            bounds.messages,
            plural(bounds.messages, "message", "messages"),
            bounds.instances,
            plural(bounds.instances, "instance", "instances"),
            bounds.faults,
            plural(bounds.faults, "fault", "faults"),
        );
        let _ = writeln!(
            out,
            "explored {} schedules, fewest faults first; {} process starts",
            explored.schedules, explored.starts
        );
        let counts: Vec<String> = explored
            .counts
            .iter()
            .rev()
            .map(|(o, n)| format!("{o}: {n}"))
            .collect();
        let _ = writeln!(
            out,
            "outcomes: {}{}",
            counts.join(", "),
            match explored.several {
                0 => String::new(),
                1 => " (1 schedule went wrong in more than one way and counts under each)".into(),
                n =>
                    format!(" ({n} schedules went wrong in more than one way and count under each)"),
            }
        );
        if explored.failures.is_empty() {
            let further = if bounds.messages < explore::MAX_MESSAGES {
                format!("--messages {}", bounds.messages + 1)
            } else if bounds.faults < explore::MAX_FAULTS {
                format!("--faults {}", bounds.faults + 1)
            } else {
                "a soak (--soak 10000)".to_string()
            };
            let _ = writeln!(
                out,
                "\nthe money was right in every schedule: never charged twice, never lost, the provider and the database agree.\nWithin these bounds only; try one bound further: {further}."
            );
        }
        // Saved before the report is printed, so that a `replay:` line
        // only ever names a file this run wrote (or found already holding
        // the same schedule).
        let saved = if self.no_save || explored.failures.is_empty() {
            None
        } else {
            Some(self.save_schedules(cfg, bounds, &explored.failures))
        };
        // Each heading names its faults' points: what one is, said once
        // before the first.
        if !explored.failures.is_empty() {
            let _ = writeln!(out, "\n{}", faults::POINT_MEANS);
        }
        for (k, found) in explored.failures.iter().enumerate() {
            let _ = writeln!(
                out,
                "\n{}: shortest schedule (no. {}): {}\n  {}",
                found.outcome.text().to_uppercase(),
                found.number,
                found.describe(),
                outcome_chain(found)
            );
            // One run that went wrong in two ways is the shortest schedule
            // of both: said, so that two headings over one schedule are
            // not read as two findings.
            if let Some(earlier) = explored.failures[..k]
                .iter()
                .find(|f| f.number == found.number)
            {
                let _ = writeln!(
                    out,
                    "  the same run as {} above: it went wrong both ways",
                    earlier.outcome.text().to_uppercase()
                );
            }
            match &saved {
                Some(Ok(names)) => {
                    let _ = writeln!(
                        out,
                        "  replay: idem test --replay {}",
                        self.save.join(&names[k]).display()
                    );
                }
                Some(Err(_)) => {
                    let _ = writeln!(out, "  not saved (stderr says why)");
                }
                None => {}
            }
        }
        emit(&out)?;
        // The program is broken whether or not its schedules were written.
        let saved = match saved {
            Some(Err(e)) => Err(e),
            _ => Ok(()),
        };
        save::verdict_then_save(!explored.failures.is_empty(), saved)
    }

    /// Writes each failure's schedule into `--save`'s folder under a name
    /// of its program (`saved_names`); the names, in the failures' order.
    fn save_schedules(
        &self,
        cfg: &Config,
        bounds: Bounds,
        failures: &[Found],
    ) -> Result<Vec<String>> {
        let program = &cfg.launch.program;
        let files: Vec<(String, String)> = failures
            .iter()
            .map(|found| {
                let text = ScheduleFile {
                    idem_test_schedule: schedule_file::FORMAT,
                    program: program.clone(),
                    messages: bounds.messages,
                    instances: bounds.instances,
                    recorded_query: cfg.recorded_query.clone(),
                    handled_query: cfg.handled_query.clone(),
                    faults: found.schedule.clone(),
                    database: cfg.server.as_ref().map(|u| u.to_string()),
                    outcome: found.outcome.text().to_string(),
                    verdict: outcome_chain(found),
                }
                .to_text();
                let name = saved_names::choose(&self.save, program, &found.outcome.slug(), &text);
                (name, text)
            })
            .collect();
        save::save_replacing(&self.save, &files, &|old| {
            saved_names::same_program(old, program)
        })?;
        Ok(files.into_iter().map(|(name, _)| name).collect())
    }
}

/// The chain a found outcome is told with: the verdict's own, headed by
/// the run's worst outcome. A disagreement found beside a worse outcome
/// (a double charge, whose chain tells where the extra charge came from)
/// is told by its own chain alone: its figures, the provider's charges
/// against the committed rows of each payment whose ledgers differ (the
/// chain the verdict tells it by after the double charge's).
fn outcome_chain(found: &Found) -> String {
    let verdict = &found.verdict;
    if found.outcome != Outcome::Disagree || verdict.outcome == Outcome::Disagree {
        return verdict.chain_with(Arrow::Drawn);
    }
    let counts: Vec<String> = verdict
        .facts
        .iter()
        .filter(|f| f.failures.contains(&Outcome::Disagree))
        .map(|f| {
            Cause::Counts {
                fact: verdict.fact_name(f),
                charges: f.charges,
                payments: f.payments,
            }
            .to_string()
        })
        .collect();
    format!(
        "{} {} {}",
        Outcome::Disagree.text(),
        Arrow::Drawn.as_str(),
        counts.join("; ")
    )
}
