//! `idem list`: the built-in scenarios, grouped, with their summaries.

use super::output::emit;
use anyhow::Result;
use idem::scenario;
use std::process::ExitCode;

pub fn run() -> Result<ExitCode> {
    use std::fmt::Write;
    let scripts = scenario::load::builtins();
    let width = scripts.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut groups: Vec<_> = scripts.iter().map(|s| s.group).collect();
    groups.dedup();
    let mut text = String::new();
    for group in groups {
        let _ = writeln!(text, "{}:", group.title());
        for s in scripts.iter().filter(|s| s.group == group) {
            let _ = writeln!(
                text,
                "  {:<width$}  {} (designs: {})",
                s.name,
                s.summary,
                s.strategies().join(", ")
            );
        }
    }
    // One scenario a line for a file or a pipe (grep finds it whole); in
    // a terminal, wrapped to its width, so the terminal does not cut words.
    let text = match super::width::text_width(usize::MAX) {
        usize::MAX => text,
        columns => idem::check::wrap(&text, columns),
    };
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
