//! The moment on screen, saved: the screen as SVG, PNG and text, and the
//! run so far (forks included) as a scenario file that `idem play` opens at
//! the same step. What the `e` key writes.

use super::{Kind, render};
use crate::scenario::action::Action as ScriptAction;
use crate::scenario::script::{Expectation, Saying, Script, ScriptStep};
use crate::timeline::Timeline;
use crate::tui::App;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The action that made a frame, as a scenario file writes it: the move
/// the world applied (a `run` frame is one step of that consumer).
fn action_of(frame: &crate::sim::Frame) -> Result<ScriptAction, String> {
    frame
        .made_by
        .clone()
        .map(ScriptAction::Move)
        .ok_or_else(|| format!("step {} was made by no move", frame.index))
}

/// The run on screen as a script of single moves, chapter by chapter, told
/// for its design, expecting the end it reached, opening at `at`.
pub fn run_as_script(script: &Script, timeline: &Timeline, at: usize) -> Result<Script, String> {
    let design = timeline.strategy.as_str();
    // Past the user's first move the scenario's words describe a run that
    // no longer happens: they are left out, and the events tell the rest.
    let forked = timeline.forks.first().map_or(usize::MAX, |f| f.at);
    // The user's move is made as the step after the fork: named by it, as
    // the simulator names it.
    let changed = format!(
        "You changed this run at step {}; from there on, the events tell what happens.",
        forked.saturating_add(1)
    );
    let mut steps: Vec<ScriptStep> = Vec::new();
    let mut current: Option<usize> = None;
    for frame in timeline.frames.iter().skip(1) {
        // Moves made before the first chapter go into it.
        let chapter = frame.chapter.max(1);
        if current != Some(chapter) {
            let told = script.steps.get(chapter - 1);
            steps.push(ScriptStep {
                title: frame.chapter_title.clone(),
                title_for: BTreeMap::new(),
                narration: if frame.index > forked {
                    changed.clone()
                } else {
                    // Only this run's own words: the saved file is told
                    // for its design alone, and words written for another
                    // would pass for its own (its events tell the step).
                    told.map(|s| script.chapter_words(s, design, script.setup.postgres.is_some()))
                        .filter(|w| w.written_for.is_none() && script.tells(design))
                        .map_or_else(String::new, |w| w.text)
                },
                narration_for: BTreeMap::new(),
                actions: Vec::new(),
                sayings: Vec::new(),
                asks: Vec::new(),
            });
            current = Some(chapter);
        }
        let step = steps.last_mut().expect("pushed above");
        step.actions.push(action_of(frame)?);
        step.sayings.push(
            frame
                .said
                .as_ref()
                .filter(|_| frame.index <= forked)
                .map(|text| Saying {
                    text: text.clone(),
                    text_for: BTreeMap::new(),
                    at: BTreeMap::new(),
                }),
        );
    }
    let end = timeline.last();
    Ok(Script {
        name: script.name.clone(),
        // The user's own scenario, whoever wrote the one it was saved from.
        origin: crate::scenario::Origin::Scenario,
        title: script.title_for(design).to_string(),
        summary: script.summary.clone(),
        intro: script.intro_for(design).to_string(),
        title_for: BTreeMap::new(),
        intro_for: BTreeMap::new(),
        // A saved moment is the user's own failure run, not a step of the
        // tour nor a design compared: the defaults of a file of one's own.
        group: crate::scenario::Group::Failure,
        order: 0,
        narrated_for: Some(design.to_string()),
        words_for_sqlite: false,
        tells_every_design: false,
        open_at: Some(at),
        setup: script.setup.clone(),
        steps,
        expect: BTreeMap::from([(
            design.to_string(),
            Expectation {
                total: u32::try_from(end.db.payments_total).ok(),
                charges: u32::try_from(end.provider.charges.len()).ok(),
                outcomes: Some(end.verdict.outcomes()),
            },
        )]),
    })
}

/// A base name that none of the four names takes yet: nothing at all is
/// there under any of them, not even a dangling link.
fn free_name(dir: &Path, base: &str, extensions: &[&str]) -> String {
    let taken = |name: &str| {
        extensions.iter().any(|e| {
            let path = dir.join(format!("{name}.{e}"));
            crate::output_file::check(&path, false).is_err()
        })
    };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !taken(name))
        .expect("some number is free")
}

/// Writes the screen (SVG, PNG, TXT) and the run (TOML) into `dir`; never
/// over an existing file. Returns the files written.
pub fn save(app: &App, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let extensions = ["svg", "png", "txt", "toml"];
    let stem: String = Path::new(&app.script.name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("run")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let base = free_name(
        dir,
        &format!("idem-{stem}-{}-step{}", app.strategy.name, app.pos),
        &extensions,
    );
    let area = app.viewport;
    let mut terminal =
        Terminal::new(TestBackend::new(area.width, area.height)).map_err(|e| e.to_string())?;
    terminal
        .draw(|f| f.render_widget(app, f.area()))
        .map_err(|e| e.to_string())?;
    let buffer = terminal.backend().buffer().clone();
    let title = format!(
        "idem · {} · {} · step {}",
        app.script.name, app.strategy.name, app.pos
    );
    let script = run_as_script(&app.script, &app.timeline, app.pos)?;
    let toml = crate::scenario::write::to_toml(
        &script,
        &format!(
            "Saved from idem at step {} of {} under {}.\nOpen it there: idem play <this file>",
            app.pos, app.script.name, app.strategy.name
        ),
    );
    // Everything is made before anything is written, and a name taken in
    // the meantime takes back what this save wrote: all four or none.
    let mut files = Vec::new();
    for (ext, kind) in [("svg", Kind::Svg), ("png", Kind::Png), ("txt", Kind::Txt)] {
        let bytes = render(&buffer, kind, &title).map_err(|e| e.to_string())?;
        files.push((dir.join(format!("{base}.{ext}")), bytes));
    }
    files.push((dir.join(format!("{base}.toml")), toml.into_bytes()));
    write_all_new(&files)
}

/// Creates every file, never over anything; on a failure removes the ones
/// it made, so that a set is never left half written.
fn write_all_new(files: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>, String> {
    for (path, _) in files {
        crate::output_file::check(path, false).map_err(|e| e.to_string())?;
    }
    let mut written: Vec<PathBuf> = Vec::new();
    for (path, bytes) in files {
        if let Err(e) = crate::output_file::write(path, bytes, false) {
            for done in &written {
                let _ = std::fs::remove_file(done);
            }
            return Err(e.to_string());
        }
        written.push(path.clone());
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::{Move, Strategy};
    use crate::timeline::Fork;

    #[test]
    fn a_forked_run_saved_as_a_scenario_replays_frame_for_frame() {
        let script = scenario::find("tour-1").unwrap();
        let strategy = Strategy::idempotent();
        let forks = [Fork {
            at: 3,
            mv: Move::Crash {
                consumer: "A".into(),
            },
        }];
        let run = Timeline::build(&script, &strategy, 0, &forks).unwrap();
        let saved = run_as_script(&script, &run, 5).unwrap();
        let text = scenario::write::to_toml(&saved, "test");
        let again = scenario::parse("saved.toml", &text).unwrap();
        assert_eq!(again.open_at, Some(5));
        let replay = Timeline::build(&again, &strategy, 0, &[]).unwrap();
        assert_eq!(replay.frames.len(), run.frames.len());
        for (a, b) in replay.frames.iter().zip(&run.frames) {
            assert_eq!(a.db, b.db, "step {}", a.index);
            assert_eq!(a.verdict, b.verdict, "step {}", a.index);
            assert_eq!(a.queue, b.queue, "step {}", a.index);
        }
        assert!(replay.misses(&again.expect["idempotent"]).is_empty());
    }

    #[test]
    fn e_writes_four_files_and_never_over_an_earlier_save() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = crate::tui::app::tests::app("tour-1", "naive");
        crate::tui::update(&mut app, crate::tui::Action::Export);
        assert_eq!(app.pending, Some(crate::tui::Effect::Export));
        let first = save(&app, dir.path()).unwrap();
        let names: Vec<String> = first
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "idem-tour-1-naive-step0.svg",
                "idem-tour-1-naive-step0.png",
                "idem-tour-1-naive-step0.txt",
                "idem-tour-1-naive-step0.toml"
            ]
        );
        let again = save(&app, dir.path()).unwrap();
        assert!(again[0].ends_with("idem-tour-1-naive-step0-2.svg"));
        let text = std::fs::read_to_string(&first[2]).unwrap();
        assert!(text.contains("Why duplicates arrive"), "{text}");
        // The saved run is the user's own file: it claims no place among
        // the built-in tour or the designs compared.
        let toml = std::fs::read_to_string(&first[3]).unwrap();
        assert!(!toml.contains("\ngroup ="), "{toml}");
        assert!(!toml.contains("\norder ="), "{toml}");
    }

    #[cfg(unix)]
    #[test]
    fn e_counts_a_dangling_link_as_taken_and_writes_a_whole_set() {
        let dir = tempfile::tempdir().unwrap();
        let app = crate::tui::app::tests::app("tour-1", "naive");
        let link = dir.path().join("idem-tour-1-naive-step0.toml");
        std::os::unix::fs::symlink(dir.path().join("elsewhere.toml"), &link).unwrap();
        let written = save(&app, dir.path()).unwrap();
        assert_eq!(written.len(), 4);
        assert!(written[0].ends_with("idem-tour-1-naive-step0-2.svg"));
        assert!(!dir.path().join("idem-tour-1-naive-step0.svg").exists());
        assert!(
            !dir.path().join("elsewhere.toml").exists(),
            "written through the link"
        );
    }

    #[test]
    fn a_set_with_one_name_taken_is_not_written_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = |n: &str| dir.path().join(n);
        std::fs::write(path("c.txt"), b"someone's").unwrap();
        let files = ["a.svg", "b.png", "c.txt", "d.toml"].map(|n| (path(n), b"new".to_vec()));
        assert!(write_all_new(&files).is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the file that was there: {left:?}");
        assert_eq!(std::fs::read(path("c.txt")).unwrap(), b"someone's");
    }
}
