#![forbid(unsafe_code)]

mod cli;
mod shot;

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
        Some(Command::Play {
            scenario,
            mode,
            seed,
            no_animation,
            ascii,
        }) => cli::play(
            &scenario,
            mode.as_deref(),
            seed,
            !(no_animation || cli.no_animation),
            ascii || cli.ascii,
        ),
        Some(Command::List) => Ok(cli::list()),
        Some(Command::Validate { files }) => Ok(cli::validate(&files)),
        Some(Command::Check(args)) => cli::check(&args),
        Some(Command::Shot(args)) => shot::shot(&args),
        Some(Command::Screenshots { dir }) => shot::screenshots(&dir),
        // The tour opens on the naive handler: its first lesson is the
        // double charge itself, and `m` then shows the fix on the same step.
        None => cli::play("tour-1", Some("naive"), 0, !cli.no_animation, cli.ascii),
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
