//! `idem test --replay FILE`: one saved failing schedule, run again with
//! a record of every step, shown in panels on a terminal (`tui::replay`),
//! as text otherwise or with `--text`, or drawn into a picture with
//! `--shot FILE`.

use super::{TestArgs, bad_program};
use crate::cli::exit::input_error;
use crate::cli::output::{emit, note};
use anyhow::{Context, Result};
use idem::export::{self, Kind};
use idem::harness::faults::{self, Schedule};
use idem::harness::run::{self, Config, RunReport};
use idem::harness::schedule_file::ScheduleFile;
use idem::harness::transcript;
use idem::sim::Arrow;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;
use std::fmt::Write;
use std::io::IsTerminal;
use std::process::ExitCode;

pub(super) fn replay(
    args: &TestArgs,
    cfg: &Config,
    file: &ScheduleFile,
    ascii: bool,
) -> Result<ExitCode> {
    // A picture's name is checked before the program runs.
    if let Some(shot) = &args.shot {
        if Kind::from_path(shot).is_none_or(|k| k == Kind::Html) {
            return Err(input_error(format!(
                "{}: the file name must end in .png, .svg or .txt",
                shot.display()
            )));
        }
        idem::output_file::check(shot, args.force).map_err(input_error)?;
    }
    let report = run::run(cfg, &mut Schedule(&file.faults))
        .map_err(|d| bad_program(&d, Some(&file.faults)))?;
    // The run's database is no longer needed while the replay is on
    // screen, where a signal ends idem without its destructors.
    let _ = std::fs::remove_dir_all(&cfg.dir);
    let changed = changed_since_saved(file, &report);
    let code = if report.verdict.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    let color = Theme::color_from_env(std::env::var_os("NO_COLOR"));
    if let Some(shot) = &args.shot {
        let mut replay = Replay::of(file, report, Theme::new(color, ascii));
        if let Some(n) = args.step {
            replay.open_at(n).map_err(input_error)?;
        }
        let kind = Kind::from_path(shot).context("extension checked")?;
        let (w, h) = args.size;
        let title = format!("idem test --replay {}", args.replay_name());
        let bytes =
            export::render(&replay.buffer(w, h), kind, &title).map_err(|e| anyhow::anyhow!(e))?;
        idem::output_file::write(shot, &bytes, args.force).map_err(input_error)?;
        note(&format!("idem: wrote {}", shot.display()));
    } else if !args.text && std::io::stdout().is_terminal() {
        let mut replay = Replay::of(file, report, Theme::new(color, ascii));
        idem::tui::replay::run::run(&mut replay)?;
    } else {
        // The schedule and the steps below name points, as the report
        // did: what one is, said first; each fault beside the step below
        // it falls in.
        let steps = idem::harness::explore::point_steps(&report);
        // So are the names of its world (`A (start 1)`, `r-1`).
        let mut out = format!(
            "idem test --replay: {}\n{}\n{}\nschedule: {}\nsaved outcome: {}\n\n",
            file.program.join(" "),
            faults::POINT_MEANS,
            idem::harness::names::Names::of(&report.steps).line(),
            faults::describe_with_steps(&file.faults, "step", |p| steps.get(&p).copied()),
            file.outcome
        );
        out.push_str(&transcript::render_in(&report, ascii));
        // Its chains with the arrow `--ascii` asks for, as the screen's.
        let arrow = if ascii { Arrow::Ascii } else { Arrow::Drawn };
        let _ = writeln!(out, "\nverdict: {}", report.verdict.chain_with(arrow));
        emit(&out)?;
    }
    if let Some(changed) = changed {
        note(&changed);
    }
    Ok(code)
}

/// Says so when the run no longer ends as the file says it did.
fn changed_since_saved(file: &ScheduleFile, report: &RunReport) -> Option<String> {
    let now: Vec<&str> = report.verdict.outcomes().iter().map(|o| o.text()).collect();
    (!now.contains(&file.outcome.as_str())).then(|| {
        format!(
            "note: the file says {}; this run ended in {} (the program changed since, or it is not deterministic)",
            file.outcome,
            now.join(", ")
        )
    })
}

impl TestArgs {
    fn replay_name(&self) -> String {
        self.replay
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    }
}
