//! `idem test -- PROGRAM...`: the user's own consumer against idem's
//! broker, provider and faults (src/harness/, docs/consumer-protocol.md).
//! Explore by default, `--soak N` for many payments, `--replay FILE` for
//! one saved schedule step by step. Also the hidden `idem supervise`,
//! which idem runs between itself and each process of the program.

use super::exit::{Exit, input_error};
use super::output::{emit, note};
use super::save;
use anyhow::Result;
use clap::Args;
use idem::harness::explore::{self, Bounds};
use idem::harness::faults::Schedule;
use idem::harness::process::Launch;
use idem::harness::run::{self, Config, DEFAULT_RECORDED_QUERY};
use idem::harness::schedule_file::{self, ScheduleFile};
use idem::harness::soak::{self, Drawn, Rates};
use idem::harness::{Diagnosis, Planned, faults, transcript};
use idem::sim::Arrow;
use idem::sim::verdict::{Outcome, Verdict};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

#[derive(Args)]
#[command(
    after_help = "The protocol, with adapters for Python, Rust, Go and Node: docs/consumer-protocol.md.
Exit status: 0 nothing went wrong, 1 a schedule broke the money, 2 bad input or a program that does not keep the protocol."
)]
pub struct TestArgs {
    /// Messages to publish when exploring (1 or 2).
    #[arg(long, default_value_t = 1, value_name = "N")]
    messages: usize,
    /// Instances of the program that run at once (1 or 2).
    #[arg(long, default_value_t = 2, value_name = "K")]
    instances: usize,
    /// The most faults in one explored schedule (0 to 2).
    #[arg(long, default_value_t = 2, value_name = "F")]
    faults: usize,
    /// Soak instead of exploring: publish N payments and draw faults at
    /// the rates of --rates.
    #[arg(long, value_name = "N")]
    soak: Option<u64>,
    /// Seeds the soak's payments and faults: same seed, same run.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The soak's fault rates per point (`kill-after-charge=1%,lose-ack=0.5%`),
    /// `none`, or `twice`: every message published twice.
    #[arg(long, default_value = soak::DEFAULT_RATES, value_parser = Rates::parse)]
    rates: Rates,
    /// The query that reads what the program recorded: one row per payment,
    /// its first two columns the order and the amount.
    #[arg(long, default_value = DEFAULT_RECORDED_QUERY, value_name = "SQL")]
    recorded_query: String,
    /// Write each failing schedule (the shortest per outcome) into DIR,
    /// for --replay.
    #[arg(long, value_name = "DIR", default_value = "idem-test-failures")]
    save: PathBuf,
    /// Do not write the failing schedules.
    #[arg(long)]
    no_save: bool,
    /// Step through a saved failing schedule: the queue, the program's
    /// tables, the provider's charges and keys and its stderr, after each step.
    #[arg(long, value_name = "FILE", conflicts_with = "soak")]
    replay: Option<PathBuf>,
    /// The longest idem waits for one request of the program (seconds).
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=600))]
    wait: u64,
    /// Silence this long, while another instance holds the database's
    /// write lock, means "blocked on the lock" (milliseconds).
    #[arg(long, default_value_t = 300, value_name = "MS", value_parser = clap::value_parser!(u64).range(20..=10_000))]
    quiet: u64,
    /// Schedules explored at once (each on its own database).
    #[arg(long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=16))]
    workers: u64,
    /// The program and its arguments, after `--`: `idem test -- python3 examples/idempotent.py`.
    #[arg(last = true, value_name = "PROGRAM")]
    program: Vec<String>,
}

#[derive(Args)]
pub struct SuperviseArgs {
    #[arg(last = true)]
    program: Vec<String>,
}

impl SuperviseArgs {
    pub fn run(&self) -> Result<ExitCode> {
        let code = idem::harness::supervise::supervise(&self.program);
        Ok(ExitCode::from(code.clamp(0, 255) as u8))
    }
}

/// A folder for the runs' databases, removed when the command ends.
struct WorkDir(PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TestArgs {
    pub fn run(&self) -> Result<ExitCode> {
        let stop = Arc::new(AtomicBool::new(false));
        for signal in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            signal_hook::flag::register(signal, stop.clone())?;
        }
        let work = WorkDir(std::env::temp_dir().join(format!("idem-test-{}", std::process::id())));
        let replayed = match &self.replay {
            Some(path) => Some(ScheduleFile::read(path).map_err(input_error)?),
            None => None,
        };
        let program = match &replayed {
            Some(file) if self.program.is_empty() => file.program.clone(),
            _ => self.program.clone(),
        };
        if program.is_empty() {
            return Err(input_error(
                "idem test: name the program after `--`, as in `idem test -- python3 examples/idempotent.py`",
            ));
        }
        let (messages, instances) = match &replayed {
            Some(file) => (file.messages, file.instances),
            None => (self.messages, self.instances),
        };
        if self.soak.is_none() && !(1..=explore::MAX_MESSAGES).contains(&messages) {
            return Err(input_error(format!(
                "--messages {messages}: exploring covers 1 to {} messages (for more, --soak N)",
                explore::MAX_MESSAGES
            )));
        }
        if !(1..=explore::MAX_INSTANCES).contains(&instances) {
            return Err(input_error(format!(
                "--instances {instances}: idem runs 1 to {} instances of a program",
                explore::MAX_INSTANCES
            )));
        }
        if self.faults > explore::MAX_FAULTS {
            return Err(input_error(format!(
                "--faults {}: exploring covers up to {} faults per schedule",
                self.faults,
                explore::MAX_FAULTS
            )));
        }
        let supervisor = std::env::current_exe()
            .map_err(|e| input_error(format!("idem test: cannot find idem's own binary: {e}")))?;
        let cfg = Config {
            launch: Launch {
                supervisor,
                program: program.clone(),
                env: Vec::new(),
            },
            instances,
            messages: explore::messages(messages),
            lease_ms: 30_000,
            max_receives: 5,
            recorded_query: match &replayed {
                Some(file) => file.recorded_query.clone(),
                None => self.recorded_query.clone(),
            },
            wait: Duration::from_secs(self.wait),
            quiet: Duration::from_millis(self.quiet),
            restarts: 8,
            dir: work.0.clone(),
            record: false,
            stop: Some(stop),
        };
        if let Some(file) = replayed {
            return replay(&cfg, &file);
        }
        if let Some(n) = self.soak {
            return self.soak(cfg, n);
        }
        self.explore(
            &cfg,
            Bounds {
                messages,
                instances,
                faults: self.faults,
            },
        )
    }

    fn explore(&self, cfg: &Config, bounds: Bounds) -> Result<ExitCode> {
        let shown = AtomicUsize::new(0);
        let progress = |done: usize| {
            if done.is_multiple_of(50) && shown.fetch_max(done, Ordering::SeqCst) < done {
                note(&format!("idem test: {done} schedules run so far"));
            }
        };
        let explored = match explore::explore(cfg, bounds, self.workers as usize, &progress) {
            Ok(e) => e,
            Err(stopped) => {
                return Err(bad_program(&stopped.diagnosis, Some(&stopped.schedule)));
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "idem test: {}\nbounds: {} {}, {} {}, up to {} {} per schedule (each kill restarts the instance)",
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
            "outcomes: {} (a schedule with two wrong effects counts in both)",
            counts.join(", ")
        );
        let mut files = Vec::new();
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
        for found in &explored.failures {
            let name = format!("{}.json", found.outcome.slug());
            let _ = writeln!(
                out,
                "\n{}: shortest schedule (no. {}): {}\n  {}",
                found.outcome.text().to_uppercase(),
                found.number,
                faults::describe(&found.schedule),
                found.verdict.chain_with(Arrow::Drawn)
            );
            if !self.no_save {
                let _ = writeln!(
                    out,
                    "  replay: idem test --replay {}",
                    self.save.join(&name).display()
                );
            }
            files.push((
                name,
                ScheduleFile {
                    idem_test_schedule: schedule_file::FORMAT,
                    program: cfg.launch.program.clone(),
                    messages: bounds.messages,
                    instances: bounds.instances,
                    recorded_query: cfg.recorded_query.clone(),
                    faults: found.schedule.clone(),
                    outcome: found.outcome.text().to_string(),
                    verdict: found.verdict.chain_with(Arrow::Drawn),
                }
                .to_text(),
            ));
        }
        emit(&out)?;
        if !files.is_empty() && !self.no_save {
            save::save_all(&self.save, &files).map_err(|e| input_error(format!("{e:#}")))?;
        }
        Ok(if explored.failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }

    fn soak(&self, mut cfg: Config, n: u64) -> Result<ExitCode> {
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
                "processes that ended by themselves (each restarted): {}; the first: {first}",
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

fn replay(cfg: &Config, file: &ScheduleFile) -> Result<ExitCode> {
    let mut cfg = cfg.clone();
    cfg.record = true;
    let report = run::run(&cfg, &mut Schedule(&file.faults))
        .map_err(|d| bad_program(&d, Some(&file.faults)))?;
    let mut out = format!(
        "idem test --replay: {}\nschedule: {}\nsaved outcome: {}\n\n",
        file.program.join(" "),
        faults::describe(&file.faults),
        file.outcome
    );
    out.push_str(&transcript::render(&report));
    let _ = writeln!(
        out,
        "\nverdict: {}",
        report.verdict.chain_with(Arrow::Drawn)
    );
    let now: Vec<&str> = report.verdict.outcomes().iter().map(|o| o.text()).collect();
    if !now.contains(&file.outcome.as_str()) {
        let _ = writeln!(
            out,
            "note: the file says {}; this run ended in {} (the program changed since, or it is not deterministic)",
            file.outcome,
            now.join(", ")
        );
    }
    emit(&out)?;
    Ok(if report.verdict.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn bad_program(d: &Diagnosis, schedule: Option<&[Planned]>) -> anyhow::Error {
    let mut message = d.to_string();
    if let Some(s) = schedule
        && !s.is_empty()
    {
        let _ = write!(message, "\n  (in the schedule: {})", faults::describe(s));
    }
    Exit { code: 2, message }.into()
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
