//! `idem lesson`: a self-contained HTML lesson to hand out.

use super::choose::load_to_show;
use super::exit::input_error;
use super::picture::{OutputArgs, size};
use anyhow::Result;
use idem::scenario::Script;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct LessonArgs {
    /// A scenario (built-in name or .toml path), or `tour` for the whole tour.
    scenario: String,
    /// The terminal size of each screen, columns x rows.
    #[arg(long, default_value = "120x40", value_parser = size)]
    size: (u16, u16),
    /// Run on a PostgreSQL server, postgres://USER@HOST:PORT/DB (in
    /// schemas of the run's own, dropped at the end).
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// An .html file.
    #[command(flatten)]
    output: OutputArgs,
}

impl LessonArgs {
    pub fn run(&self) -> Result<ExitCode> {
        lesson(self)
    }
}

fn lesson(args: &LessonArgs) -> Result<ExitCode> {
    args.output.check(&["html"])?;
    let (scripts, title): (Vec<Script>, String) = if args.scenario == "tour" {
        let tour = idem::scenario::load::builtins()
            .into_iter()
            .filter(|s| s.group == idem::scenario::Group::Tour)
            .collect();
        (tour, "idem · the tour of the Idempotent Consumer".into())
    } else {
        let script = load_to_show(&args.scenario)?;
        // The page opens in the scenario's own design: its title for it.
        let title = idem::export::lesson::heading(&script, &script.design());
        (vec![script], title)
    };
    let postgres = super::db_arg::postgres_only(args.db.as_deref())?;
    let scripts: Vec<Script> = scripts
        .into_iter()
        .map(|mut s| {
            s.setup.postgres = postgres.clone();
            s
        })
        .collect();
    let html = idem::export::lesson::render(&scripts, args.size, &title).map_err(input_error)?;
    args.output
        .write(html.as_bytes(), " (open it in any browser)")?;
    Ok(ExitCode::SUCCESS)
}
