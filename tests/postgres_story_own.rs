//! On PostgreSQL, every built-in scenario tells the run in words of its
//! own: no frame carries words borrowed from SQLite, and none of the
//! run's own words (titles, chapters, what an action says, the intro, a
//! question and its answer's why) names what only SQLite does. Read off
//! the built-ins' PostgreSQL runs, each run once for the test binary
//! (`common::pg_runs`); one line and a pass where no server answers.

use crate::common::pg_runs::pg_runs;
use idem::sim::frame::WrittenFor;

/// What only SQLite has: on a PostgreSQL run, words naming these tell
/// another engine's story.
const SQLITE_ONLY: [&str; 3] = ["sqlite", "begin immediate", "write lock"];

fn names_sqlite(text: &str) -> Option<&'static str> {
    let text = text.to_lowercase();
    SQLITE_ONLY.into_iter().find(|w| text.contains(w))
}

#[test]
fn every_builtin_on_postgresql_tells_its_own_story_with_no_sqlite_words() {
    let Some(runs) = pg_runs() else { return };
    let mut own = Vec::new();
    let mut borrowed = Vec::new();
    let mut frames = 0;
    for run in runs {
        let t = &run.timeline;
        let what = format!("{} under {}", run.script.name, run.design);
        if let Some(w) = names_sqlite(run.script.intro_for(&run.design)) {
            own.push(format!("{what}, intro: {w:?}"));
        }
        for f in &t.frames {
            frames += 1;
            let words = [
                f.chapter_title.as_str(),
                f.narration.as_str(),
                f.said.as_deref().unwrap_or(""),
            ]
            .join(" ");
            if let Some(w) = names_sqlite(&words) {
                own.push(format!("{what}, frame {}: {w:?} in {words:?}", f.index));
            }
            if let Some(b) = &f.borrowed
                && matches!(
                    b.written_for,
                    WrittenFor::Sqlite | WrittenFor::DesignOnSqlite(_)
                )
            {
                borrowed.push(format!("{what}, frame {}", f.index));
            }
        }
        for a in t.asked(&run.script) {
            let words = format!(
                "{} {}",
                a.question.wording(),
                a.question.why(&run.design, true)
            );
            if let Some(w) = names_sqlite(&words) {
                own.push(format!(
                    "{what}, question at frame {}: {w:?} in {words:?}",
                    a.ask_at
                ));
            }
        }
    }
    assert!(frames > 500, "only {frames} frames: the runs went missing");
    assert!(
        own.is_empty() && borrowed.is_empty(),
        "of {frames} PostgreSQL frames, {} name SQLite-only things in their own words:\n{}\n\
         and {} carry words written for SQLite:\n{}",
        own.len(),
        own.join("\n"),
        borrowed.len(),
        borrowed.join("\n")
    );
}
