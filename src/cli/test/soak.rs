//! `idem test --soak N`: many payments, faults drawn at rates from a seed,
//! the money judged at the end.

use super::{TestArgs, bad_program};
use crate::cli::exit::input_error;
use crate::cli::output::emit;
use anyhow::Result;
use idem::harness::run::{self, Config};
use idem::harness::soak::{self, Drawn};
use idem::sim::Arrow;
use idem::sim::verdict::{Outcome, Verdict};
use std::fmt::Write;
use std::process::ExitCode;
use std::time::Duration;

impl TestArgs {
    pub(super) fn soak(&self, mut cfg: Config, n: u64) -> Result<ExitCode> {
        if n == 0 || n > 1_000_000 {
            return Err(input_error(format!(
                "--soak {n}: a soak publishes 1 to 1,000,000 payments"
            )));
        }
        cfg.messages = soak::messages(n, self.seed);
        cfg.wait = cfg.wait.max(Duration::from_secs(1));
        cfg.restarts = u32::try_from(n).unwrap_or(u32::MAX).saturating_add(8);
        let mut drawn = Drawn::new(self.rates.clone(), self.seed);
        let report = run::run(&cfg, &mut drawn).map_err(|d| bad_program(&d, None))?;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "idem test --soak {n} --seed {}: {}\n{} payments, {} instances, {} process starts",
            self.seed,
            cfg.launch.program.join(" "),
            n,
            cfg.instances,
            report.starts
        );
        let laid: Vec<String> = drawn
            .laid
            .iter()
            .map(|(f, k)| format!("{} {k}", f.name()))
            .collect();
        let _ = writeln!(
            out,
            "faults laid: {}{}",
            if laid.is_empty() {
                "none".to_string()
            } else {
                laid.join(", ")
            },
            if self.rates.twice {
                " (every message published twice)"
            } else {
                ""
            }
        );
        if let Some(first) = report.self_ended.first() {
            let _ = writeln!(
                out,
                "processes that ended by themselves (each started again when needed): {}; the first: {first}",
                report.self_ended.len()
            );
        }
        let owed: u64 = cfg
            .messages
            .iter()
            .map(|m| u64::from(m.payment.amount))
            .sum();
        let recorded: u64 = report.recorded.iter().map(|r| u64::from(r.amount)).sum();
        let _ = writeln!(
            out,
            "money: owed ${owed}, the provider charged ${} ({} charges), the database records ${recorded} ({} rows)",
            report
                .verdict
                .facts
                .iter()
                .map(|f| u64::from(f.amount) * f.charges as u64)
                .sum::<u64>(),
            report.charges,
            report.recorded.len()
        );
        let _ = writeln!(out, "{}", verdict_lines(&report.verdict));
        emit(&out)?;
        Ok(if report.verdict.failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

fn verdict_lines(verdict: &Verdict) -> String {
    let mut per: std::collections::BTreeMap<Outcome, usize> = Default::default();
    for fact in &verdict.facts {
        for o in fact.outcomes() {
            *per.entry(o).or_default() += 1;
        }
    }
    let counts: Vec<String> = per.iter().rev().map(|(o, n)| format!("{o}: {n}")).collect();
    let mut text = format!("payments by outcome: {}", counts.join(", "));
    for o in Outcome::FAILURES {
        if let Some(fact) = verdict.facts.iter().find(|f| f.failures.contains(&o)) {
            let _ = write!(
                text,
                "\nfirst {}: {}",
                o.text(),
                fact.causes
                    .first()
                    .map(|c| Arrow::Drawn.join(c))
                    .unwrap_or_else(|| fact.headline())
            );
        }
    }
    text
}
