//! The `idem` binary: parses the command line, hands each command to its
//! own file, and turns the outcome into an exit code: 0 fine, 1 a run
//! missed its expectation (with --check) or validation found errors, 2
//! usage or input errors, and output that cannot be written.

mod check;
mod check_progress;
mod choose;
mod command;
mod completions;
mod db_arg;
mod exit;
mod generate;
mod global;
mod learner;
mod lesson;
mod levels;
mod list;
mod man;
mod output;
mod picture;
mod play;
mod progress_line;
mod record;
mod run;
mod save;
mod screenshots;
mod shot;
mod soak;
mod test;
mod validate;
mod width;

use clap::{CommandFactory, FromArgMatches};
use command::{Cli, Command};
use exit::Exit;
use output::{note, write_stdout};
use std::process::ExitCode;

pub fn main() -> ExitCode {
    // The version names the SQLite it runs on: the simulator's claims are
    // about that engine. Built once, so leaking it costs one small string.
    let version: &'static str = Box::leak(
        format!(
            "{} (SQLite {}, bundled)",
            env!("CARGO_PKG_VERSION"),
            idem::sim::db::sqlite_version()
        )
        .into_boxed_str(),
    );
    let parsed = Cli::command()
        .version(version)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        // Help and version are ours, written like any output (a failed
        // write is reported); a usage error echoes the argument, so it is
        // printed plain and escaped, never with raw control bytes.
        Err(e) if !e.use_stderr() => {
            use std::io::IsTerminal;
            let text = if std::io::stdout().is_terminal() {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            return match write_stdout(text.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    note(&format!("idem: {e:#}"));
                    ExitCode::from(2)
                }
            };
        }
        Err(e) => {
            note(e.render().to_string().trim_end());
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Run(args)) => args.run(),
        Some(Command::Play(args)) => args.run(&cli.global),
        Some(Command::List) => list::run(),
        Some(Command::Levels(args)) => args.run(&cli.global),
        Some(Command::Validate(args)) => args.run(),
        Some(Command::Check(args)) => args.run(),
        Some(Command::Soak(args)) => args.run(cli.global.ascii),
        Some(Command::Completions(args)) => args.run(Cli::command()),
        Some(Command::Shot(args)) => args.run(),
        Some(Command::Record(args)) => args.run(),
        Some(Command::Lesson(args)) => args.run(),
        Some(Command::Screenshots(args)) => args.run(),
        Some(Command::Generate(args)) => args.run(),
        Some(Command::Test(args)) => args.run(cli.global.ascii),
        Some(Command::Supervise(args)) => args.run(),
        Some(Command::Man) => man::run(Cli::command()),
        None => play::resume(&cli.global),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // `{:#}`: the whole chain, so that the OS's own reason shows.
            note(&format!("idem: {e:#}"));
            match e.downcast_ref::<Exit>() {
                Some(exit) => ExitCode::from(exit.code),
                None => ExitCode::FAILURE,
            }
        }
    }
}
