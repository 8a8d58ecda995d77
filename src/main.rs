#![forbid(unsafe_code)]

mod cli;
mod pictures;
mod progress;
mod save;
mod soak_cli;

use clap::{CommandFactory, FromArgMatches};
use cli::{Cli, Command, Exit};
use std::process::ExitCode;

fn main() -> ExitCode {
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
            return match cli::write_stdout(text.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    cli::note(&format!("idem: {e:#}"));
                    ExitCode::from(2)
                }
            };
        }
        Err(e) => {
            cli::note(e.render().to_string().trim_end());
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Run {
            scenario,
            mode,
            design,
            seed,
            format,
            check,
            db,
            questions,
        }) => cli::run(
            &scenario,
            cli::DesignChoice {
                mode: mode.as_deref(),
                design: design.as_deref(),
            },
            seed,
            format,
            check,
            db,
            questions,
        ),
        Some(Command::Play {
            level: Some(level),
            no_animation,
            ascii,
            ..
        }) => cli::levels(
            Some(level),
            !(no_animation || cli.no_animation),
            ascii || cli.ascii,
        ),
        Some(Command::Play {
            scenario,
            mode,
            design,
            seed,
            step,
            chapter,
            no_animation,
            ascii,
            predict,
            level: None,
        }) => cli::play(
            scenario.as_deref().unwrap_or("tour-1"),
            cli::DesignChoice {
                mode: mode.as_deref(),
                design: design.as_deref(),
            },
            seed,
            cli::At { step, chapter },
            !(no_animation || cli.no_animation),
            ascii || cli.ascii,
            cli::Learner {
                resume: false,
                fresh: cli.fresh,
                predict: predict || cli.predict,
            },
        ),
        Some(Command::List) => cli::list(),
        Some(Command::Levels { list: true, .. }) => cli::list_levels(),
        Some(Command::Levels { ascii, .. }) => {
            cli::levels(None, !cli.no_animation, ascii || cli.ascii)
        }
        Some(Command::Validate { files }) => cli::validate(&files),
        Some(Command::Check(args)) => cli::check(&args),
        Some(Command::Soak(args)) => soak_cli::soak(&args, cli.ascii),
        Some(Command::Completions { shell }) => cli::completions(shell),
        Some(Command::Shot(args)) => pictures::shot(&args),
        Some(Command::Record(args)) => pictures::record(&args),
        Some(Command::Lesson(args)) => pictures::lesson(&args),
        Some(Command::Screenshots { dir, force }) => pictures::screenshots(&dir, force),
        Some(Command::Generate { messages }) => cli::generate(messages),
        Some(Command::Man) => cli::man(),
        // Where the learner left off; the first time, the tour, in the
        // design it is written for.
        None => cli::play(
            "tour-1",
            cli::DesignChoice::default(),
            0,
            cli::At::default(),
            !cli.no_animation,
            cli.ascii,
            cli::Learner {
                resume: !cli.fresh,
                fresh: cli.fresh,
                predict: cli.predict,
            },
        ),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // `{:#}`: the whole chain, so that the OS's own reason shows.
            cli::note(&format!("idem: {e:#}"));
            match e.downcast_ref::<Exit>() {
                Some(exit) => ExitCode::from(exit.code),
                None => ExitCode::FAILURE,
            }
        }
    }
}
