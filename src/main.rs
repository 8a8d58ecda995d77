#![forbid(unsafe_code)]
//! The `idem` command: all of it is in cli/.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
