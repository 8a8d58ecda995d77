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
        }) => cli::run(&scenario, &mode, seed, format, check, db),
        Some(Command::List) => Ok(cli::list()),
        Some(Command::Validate { files }) => Ok(cli::validate(&files)),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(ExitCode::from(2))
        }
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
