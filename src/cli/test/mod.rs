//! `idem test -- PROGRAM...`: the user's own consumer against idem's
//! broker, provider and faults (src/harness/, docs/consumer-protocol.md).
//! Explore by default, `--soak N` for many payments, `--replay FILE` for
//! one saved schedule step by step. Also the hidden `idem supervise`,
//! which idem runs between itself and each process of the program.

mod explore;
mod faults_bound;
mod progress;
mod replay;
mod saved_names;
mod soak;

use super::db_arg::{DbArg, db_arg};
use super::exit::{Exit, input_error};
use anyhow::Result;
use clap::Args;
use idem::harness::explore::{self as exploring, Bounds};
use idem::harness::process::Launch;
use idem::harness::run::{Config, DEFAULT_RECORDED_QUERY};
use idem::harness::schedule_file::ScheduleFile;
use idem::harness::soak::{self as soaking, Rates};
use idem::harness::{Diagnosis, Planned, Trouble, faults};
use idem::sim::db::PgUrl;
use idem::sim::db::program_pg::ProgramSchema;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

#[derive(Args)]
#[command(
    after_help = "The protocol, with adapters for Python, Rust, Go and Node: docs/consumer-protocol.md.
Exit status: 0 nothing went wrong, 1 a schedule broke the money (even when its schedule could not be saved: stderr says why), 2 bad input or a program that does not keep the protocol, 128 + the signal's number when SIGINT (130), SIGTERM (143) or SIGHUP (129) stopped it."
)]
pub struct TestArgs {
    /// Messages to publish when exploring (1 or 2).
    #[arg(long, default_value_t = 1, value_name = "N")]
    messages: usize,
    /// Instances of the program that run at once (1 or 2).
    #[arg(long, default_value_t = 2, value_name = "K")]
    instances: usize,
    /// The most faults in one explored schedule (0 to 2). Fault kinds
    /// and their rates are for a soak: --soak N --rates KIND=RATE.
    #[arg(long, default_value_t = 2, value_name = "F", value_parser = faults_bound::parse)]
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
    #[arg(long, default_value = soaking::DEFAULT_RATES, value_parser = Rates::parse)]
    rates: Rates,
    /// The query that reads what the program recorded: one row per payment,
    /// its first two columns the order and the amount.
    #[arg(long, default_value = DEFAULT_RECORDED_QUERY, value_name = "SQL")]
    recorded_query: String,
    /// The query that reads which message IDs the program records as
    /// handled (its first column). A message removed on an ack with no
    /// work saved is a lost charge when its ID is recorded so (every
    /// redelivery meets the record), else a lost message; an ID on two
    /// rows was recorded twice, unrefused. Without it,
    /// `SELECT message_id FROM processed_messages`, and a program that
    /// keeps no such table records none.
    #[arg(long, value_name = "SQL")]
    handled_query: Option<String>,
    /// Write each failing schedule (the shortest per outcome) into DIR,
    /// for --replay, as PROGRAM-OUTCOME.json (PROGRAM: the script's name);
    /// an older one of the same program is replaced, any other file kept.
    #[arg(long, value_name = "DIR", default_value = "idem-test-failures")]
    save: PathBuf,
    /// Do not write the failing schedules.
    #[arg(long)]
    no_save: bool,
    /// Step through a saved failing schedule: the queue, the program's
    /// tables, the provider's charges and keys and its stderr, after each step.
    #[arg(long, value_name = "FILE", conflicts_with = "soak")]
    replay: Option<PathBuf>,
    /// With --replay: print the steps as text even on a terminal (where
    /// the replay otherwise opens in panels).
    #[arg(long, requires = "replay")]
    text: bool,
    /// With --replay: draw one step of the replay's screen into FILE (.png,
    /// .svg or .txt) instead of showing it; the step where the first fault
    /// falls, unless --step says another.
    #[arg(
        long,
        value_name = "FILE",
        requires = "replay",
        conflicts_with = "text"
    )]
    shot: Option<PathBuf>,
    /// With --shot: the step to draw (1 is the first).
    #[arg(long, value_name = "N", requires = "shot")]
    step: Option<usize>,
    /// With --shot: the screen's size, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = crate::cli::picture::size, requires = "shot")]
    size: (u16, u16),
    /// With --shot: replace FILE if it exists.
    #[arg(long, requires = "shot")]
    force: bool,
    /// The longest idem waits for one request of the program (seconds).
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=600))]
    wait: u64,
    /// SQLite: silence this long, while another instance holds the
    /// database's write lock, means "blocked on the lock" (milliseconds).
    /// On PostgreSQL the server says whether an instance waits for a lock.
    #[arg(long, default_value_t = 300, value_name = "MS", value_parser = clap::value_parser!(u64).range(20..=10_000))]
    quiet: u64,
    /// Give the program a fresh schema on this PostgreSQL server per
    /// schedule, postgres://USER@HOST:PORT/DB (its address in IDEM_DB_URL;
    /// dropped at the end), instead of a fresh SQLite file (IDEM_DB).
    #[arg(long, value_name = "URL")]
    db: Option<String>,
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
    pub fn run(&self, ascii: bool) -> Result<ExitCode> {
        let stop = Arc::new(AtomicBool::new(false));
        for signal in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            // Which signal, for the exit status (the last, where several
            // come); set before the flag the run reads, since a handler's
            // actions run in order.
            signal_hook::flag::register_usize(signal, STOPPED_BY.clone(), signal as usize)?;
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
        if self.soak.is_none() && !(1..=exploring::MAX_MESSAGES).contains(&messages) {
            return Err(input_error(format!(
                "--messages {messages}: exploring covers 1 to {} messages (for more, --soak N)",
                exploring::MAX_MESSAGES
            )));
        }
        if !(1..=exploring::MAX_INSTANCES).contains(&instances) {
            return Err(input_error(format!(
                "--instances {instances}: idem runs 1 to {} instances of a program",
                exploring::MAX_INSTANCES
            )));
        }
        let server = self.server(replayed.as_ref())?;
        let supervisor = std::env::current_exe()
            .map_err(|e| input_error(format!("idem test: cannot find idem's own binary: {e}")))?;
        let mut cfg = match &replayed {
            Some(file) => file.replay_config(supervisor, work.0.clone()),
            None => {
                let mut cfg = Config::new(
                    Launch {
                        supervisor,
                        program: Vec::new(),
                        env: Vec::new(),
                    },
                    instances,
                    exploring::messages(messages),
                    work.0.clone(),
                );
                cfg.recorded_query = self.recorded_query.clone();
                cfg
            }
        };
        if self.handled_query.is_some() {
            cfg.handled_query = self.handled_query.clone();
        }
        // A program after `--` runs in place of the one a replayed file names.
        cfg.launch.program = program;
        cfg.wait = Duration::from_secs(self.wait);
        cfg.quiet = Duration::from_millis(self.quiet);
        cfg.stop = Some(stop);
        cfg.server = server;
        let ended = if let Some(file) = replayed {
            replay::replay(self, &cfg, &file, ascii)
        } else if let Some(n) = self.soak {
            self.soak(cfg, n)
        } else {
            self.explore(
                &cfg,
                Bounds {
                    messages,
                    instances,
                    faults: self.faults,
                },
            )
        };
        match ended {
            // Stopped during a run: told as such already.
            Err(e) if e.downcast_ref::<Exit>().is_some_and(|x| x.code > 128) => Err(e),
            ended => stopped_at_the_end().map_or(ended, Err),
        }
    }
}

/// A signal that came after the last run, while idem reported or saved:
/// the runs never saw it, but a script that sent it must still read the
/// exit status a stop gives (README), not the verdict's.
fn stopped_at_the_end() -> Option<anyhow::Error> {
    (STOPPED_BY.load(Ordering::SeqCst) != 0).then(|| {
        Exit {
            code: exit_code(Trouble::Interrupted),
            message: "idem test was stopped as it ended: every process it started had ended".into(),
        }
        .into()
    })
}

impl TestArgs {
    /// The server of `--db`, else the one a replayed file names; checked
    /// (it answers, this user may create a schema) and swept of the
    /// schemas killed runs left, before any program runs.
    fn server(&self, replayed: Option<&ScheduleFile>) -> Result<Option<PgUrl>> {
        let given = match (&self.db, replayed.and_then(|f| f.database.as_ref())) {
            (Some(text), _) | (None, Some(text)) => text,
            (None, None) => return Ok(None),
        };
        let url = match db_arg(given.as_ref())? {
            DbArg::Postgres(url) => *url,
            DbArg::File(path) => {
                return Err(input_error(format!(
                    "--db {}: idem test gives every schedule a fresh SQLite file of its own; --db here names a PostgreSQL server (postgres://USER@HOST:PORT/DB)",
                    path.display()
                )));
            }
        };
        ProgramSchema::prepare_server(&url).map_err(input_error)?;
        Ok(Some(url))
    }
}

/// The signal that stopped `idem test`, or 0 while none has.
static STOPPED_BY: LazyLock<Arc<AtomicUsize>> = LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// The diagnosis, with the schedule it came in: a schedule names its
/// faults by point, so the same line says what a point is, as the report
/// does before its first heading (this message may be all a reader sees).
fn bad_program(d: &Diagnosis, schedule: Option<&[Planned]>) -> anyhow::Error {
    let mut message = d.to_string();
    if let Some(s) = schedule
        && !s.is_empty()
    {
        let _ = write!(
            message,
            "\n  (in the schedule: {}; {})",
            faults::describe(s),
            faults::POINT_MEANS
        );
    }
    Exit {
        code: exit_code(d.trouble),
        message,
    }
    .into()
}

/// 2 for a program that does not keep the protocol (or idem's own
/// trouble); stopped from outside, 128 + the signal's number, as the
/// simulator ends: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
fn exit_code(trouble: Trouble) -> u8 {
    if trouble != Trouble::Interrupted {
        return 2;
    }
    match STOPPED_BY.load(Ordering::SeqCst) {
        signal @ 1..=127 => 128 + signal as u8,
        // Stopped by a signal whose number was not kept: SIGINT's.
        _ => 128 + signal_hook::consts::SIGINT as u8,
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
