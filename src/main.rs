#![forbid(unsafe_code)]

mod cli;

use clap::Parser;
use cli::{Cli, Command, Exit};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Run {
            scenario,
            mode,
            seed,
            format,
            check,
            db,
        }) => cli::run(&scenario, mode.as_deref(), seed, format, check, db),
        Some(Command::Play {
            scenario,
            mode,
            seed,
            step,
            chapter,
            no_animation,
            ascii,
        }) => cli::play(
            &scenario,
            mode.as_deref(),
            seed,
            cli::At { step, chapter },
            !(no_animation || cli.no_animation),
            ascii || cli.ascii,
        ),
        Some(Command::List) => Ok(cli::list()),
        Some(Command::Validate { files }) => Ok(cli::validate(&files)),
        Some(Command::Check(args)) => cli::check(&args),
        // The tour opens like any scenario: in the design it is written for.
        None => cli::play(
            "tour-1",
            None,
            0,
            cli::At::default(),
            !cli.no_animation,
            cli.ascii,
        ),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("idem: {e}");
            match e.downcast_ref::<Exit>() {
                Some(exit) => ExitCode::from(exit.code),
                None => ExitCode::FAILURE,
            }
        }
    }
}
