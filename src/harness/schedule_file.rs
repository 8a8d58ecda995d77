//! A failing schedule saved as a file (JSON), to replay with
//! `idem test --replay FILE`: the program, the bounds, the faults and
//! the outcome they led to.

use super::explore;
use super::faults::Planned;
use super::process::Launch;
use super::run::Config;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format's version: a file of another version is refused by name.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleFile {
    pub idem_test_schedule: u32,
    /// The program and its arguments, as given to `idem test`.
    pub program: Vec<String>,
    pub messages: usize,
    pub instances: usize,
    pub recorded_query: String,
    /// `--handled-query`, when the run was given one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handled_query: Option<String>,
    pub faults: Vec<Planned>,
    /// The PostgreSQL server the program's schema was on (its address
    /// without a password), when not a SQLite file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// What the run ended in when it was saved, in words.
    pub outcome: String,
    pub verdict: String,
}

impl ScheduleFile {
    /// The run that replays this schedule, recorded step by step: its
    /// program under `supervisor` (idem itself), its databases in `dir`.
    pub fn replay_config(&self, supervisor: PathBuf, dir: PathBuf) -> Config {
        let launch = Launch {
            supervisor,
            program: self.program.clone(),
            env: Vec::new(),
        };
        let mut cfg = Config::new(
            launch,
            self.instances,
            explore::messages(self.messages),
            dir,
        );
        cfg.recorded_query = self.recorded_query.clone();
        cfg.handled_query = self.handled_query.clone();
        cfg.record = true;
        cfg
    }

    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a schedule serializes");
        text.push('\n');
        text
    }

    /// Reads a schedule file; an error names the file, line and column.
    pub fn read(path: &Path) -> Result<ScheduleFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
        let file: ScheduleFile = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: {}",
                path.display(),
                e.line(),
                e.column(),
                e.to_string()
                    .rsplit_once(" at line ")
                    .map_or(e.to_string(), |(what, _)| what.to_string())
            )
        })?;
        if file.idem_test_schedule != FORMAT {
            return Err(format!(
                "{}: a schedule of format {}; this idem reads format {FORMAT}",
                path.display(),
                file.idem_test_schedule
            ));
        }
        if file.program.is_empty() {
            return Err(format!("{}: \"program\" names no program", path.display()));
        }
        if file.messages == 0 || file.instances == 0 {
            return Err(format!(
                "{}: \"messages\" and \"instances\" must be at least 1",
                path.display()
            ));
        }
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_file_names_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(
            &path,
            "{\n  \"idem_test_schedule\": 1,\n  \"programm\": []\n}\n",
        )
        .unwrap();
        let e = ScheduleFile::read(&path).unwrap_err();
        assert!(e.contains("s.json:3:"), "{e}");
        assert!(e.contains("programm"), "{e}");
    }
}
