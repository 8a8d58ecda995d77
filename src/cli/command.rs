//! The command line: every command, and the options before them.

use super::check::CheckArgs;
use super::completions::CompletionsArgs;
use super::generate::GenerateArgs;
use super::global::Global;
use super::lesson::LessonArgs;
use super::levels::LevelsArgs;
use super::play::PlayArgs;
use super::record::RecordArgs;
use super::run::RunArgs;
use super::screenshots::ScreenshotsArgs;
use super::shot::ShotArgs;
use super::soak::SoakArgs;
use super::test::{SuperviseArgs, TestArgs};
use super::validate::ValidateArgs;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "idem",
    version,
    about = "The Idempotent Consumer pattern, simulated for real: a broker with leases, consumers on SQLite, a payment provider.",
    after_help = "With no command, idem opens the interactive simulator where you left off (the first step of the tour the first time; --fresh starts over)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub global: Global,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario headless and print the whole run.
    Run(RunArgs),
    /// Open a scenario in the interactive simulator.
    Play(PlayArgs),
    /// List the built-in scenarios.
    List,
    /// The levels of "build the handler yourself": fix a broken handler
    /// until the prover cannot break it. Opens the level screen.
    Levels(LevelsArgs),
    /// Check scenario files for errors without running them.
    Validate(ValidateArgs),
    /// Explore every schedule within bounds for each strategy and show the
    /// shortest one that breaks each weaker design.
    Check(CheckArgs),
    /// Soak the designs at production scale: many payments, several
    /// consumers, faults at given rates, the same schedule for every design;
    /// then a report of the money and every violation found.
    Soak(SoakArgs),
    /// Test your own consumer program, in any language: idem's broker,
    /// payment provider and faults against it, the money checked in its
    /// own database (docs/consumer-protocol.md).
    Test(TestArgs),
    /// Run a program under idem's supervision (idem test runs each process
    /// of a tested program so; it dies when idem dies).
    #[command(hide = true)]
    Supervise(SuperviseArgs),
    /// Print a shell completion script (for example:
    /// `idem completions bash > ~/.local/share/bash-completion/completions/idem`).
    Completions(CompletionsArgs),
    /// Draw one moment of the simulator as a picture: SVG, PNG, text or HTML.
    Shot(ShotArgs),
    /// Record a whole run, one frame per step: animated SVG, GIF or asciicast.
    Record(RecordArgs),
    /// Write a lesson to hand out: one self-contained HTML file that steps
    /// through a scenario (or `tour`), every design, with the narration.
    Lesson(LessonArgs),
    /// Redraw the README's pictures (screenshots/) from the program itself.
    Screenshots(ScreenshotsArgs),
    /// Print the manual page (roff): `idem man > idem.1; man ./idem.1`.
    #[command(hide = true)]
    Man,
    /// Print a long generated scenario, to measure idem at scale:
    /// `idem generate --messages 10000 > big.toml; idem run big.toml`.
    #[command(hide = true)]
    Generate(GenerateArgs),
}
