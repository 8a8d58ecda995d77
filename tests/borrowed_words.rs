//! Words a scenario wrote for another design (or for SQLite, shown on
//! PostgreSQL) never pass for the story of the run shown: a step opens on
//! its own events, and the borrowed paragraph comes below them, under a
//! mark that names whom it was written for. In every medium.

use idem::scenario::Script;
use idem::sim::Strategy;
use idem::timeline::Timeline;

/// A scenario told for naive, with no words of its own for idempotent,
/// as a teacher may write one: under idempotent, its chapters are borrowed.
const TOLD_FOR_NAIVE: &str = r#"
title = "Told for naive"
summary = "A file whose chapters are written for the naive design only."
group = "design"
design = "naive"
intro = "One payment, handled once."

[setup]
consumers = ["A"]
messages = [{ id = "m-7f3", order = 1042, amount = 40 }]

[[steps]]
title = "A handles m-7f3"
narration = "Naive writes its payment row with nothing that remembers the message."
actions = [{ do = "run A to commit", say = "A has charged the card." }]

[[steps]]
title = "A finishes"
narration = "Nothing in the naive handler could tell a second copy from the first."
actions = ["run A"]

[expect.naive]
total = 40
charges = 1
outcome = "correct"

[expect.idempotent]
total = 40
charges = 1
outcome = "correct"
"#;

fn told_for_naive() -> Script {
    idem::scenario::load::parse("told-for-naive.toml", TOLD_FOR_NAIVE).unwrap()
}

/// The file's chapters, all borrowed under idempotent: (chapter, words).
fn borrowed_chapters(script: &Script) -> Vec<(usize, String)> {
    script
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1, s.narration.trim().to_string()))
        .collect()
}

/// The first words of a paragraph, whitespace collapsed.
fn start_of(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(5).collect();
    words.join(" ")
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn run_text_tells_borrowed_words_below_the_steps_own_lines_and_marked() {
    let script = told_for_naive();
    let design = "idempotent";
    let mut checked = 0;
    {
        let paragraphs = borrowed_chapters(&script);
        let t = Timeline::build(&script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap();
        let text = collapse(&idem::report::transcript(&t, None));
        for (chapter, paragraph) in paragraphs {
            let heading = format!("== {chapter}. ");
            let Some(from) = text.find(&heading) else {
                continue;
            };
            let start = start_of(&paragraph);
            let at = text[from..]
                .find(&start)
                .map(|i| from + i)
                .unwrap_or_else(|| {
                    panic!(
                        "{} {design}: chapter {chapter}'s words are lost",
                        script.name
                    )
                });
            let before = &text[from..at];
            assert!(
                before.contains("[") && before.contains(" · "),
                "{} {design} chapter {chapter}: the borrowed words come before the step's own lines: {before:?}",
                script.name
            );
            let mark = &text[at.saturating_sub(80)..at];
            assert!(
                mark.contains(&format!("written for the {} design", script.design())),
                "{} {design} chapter {chapter}: no mark before the borrowed words: {mark:?}",
                script.name
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2, "both borrowed chapters are told");
}

#[test]
fn the_handout_keeps_borrowed_words_apart_under_their_mark() {
    let script = told_for_naive();
    let html = idem::export::lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let start = html
        .find(r#"<script id="lesson-data" type="application/json">"#)
        .unwrap();
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    let lessons: serde_json::Value = serde_json::from_str(data).unwrap();
    let paragraph = start_of(&script.steps[1].narration);
    assert!(paragraph.starts_with("Nothing in the naive"));
    let mut marked = 0;
    for d in lessons[0]["designs"].as_array().unwrap() {
        if d["name"] == "naive" {
            continue;
        }
        for step in d["steps"].as_array().unwrap() {
            for field in ["narration", "said", "did"] {
                let text = collapse(step[field].as_str().unwrap_or_default());
                assert!(
                    !text.contains(&paragraph),
                    "{}: `{field}` of step {} tells naive's words as its own: {text:?}",
                    d["name"],
                    step["chapter"]
                );
            }
            if let Some(b) = step.get("borrowed").filter(|b| !b.is_null()) {
                assert!(b["mark"].as_str().unwrap().contains("naive"), "{b}");
                marked += usize::from(collapse(b["text"].as_str().unwrap()).contains(&paragraph));
            }
        }
    }
    assert!(marked > 0, "the borrowed words are shown nowhere");
}

/// The story panel, on the screen `idem shot` prints: the step's events
/// first, and the borrowed paragraph below a line that says whom it was
/// written for.
#[test]
fn the_story_panel_opens_on_the_steps_events_and_marks_borrowed_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("told-for-naive.toml");
    std::fs::write(&file, TOLD_FOR_NAIVE).unwrap();
    let script = told_for_naive();
    let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
    for size in ["80x24", "120x40"] {
        for f in &t.frames[1..] {
            let out = dir.path().join(format!("shot-{size}-{}.txt", f.index));
            let (code, _, err) = crate::common::cli::idem(&[
                "shot",
                file.to_str().unwrap(),
                "--mode",
                "idempotent",
                "--step",
                &f.index.to_string(),
                "--size",
                size,
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            let screen = std::fs::read_to_string(&out).unwrap();
            let rows: Vec<&str> = screen.lines().collect();
            let top = rows
                .iter()
                .position(|r| r.contains("What happens"))
                .expect("a story panel");
            let first = collapse(rows[top + 1].trim_matches('│'));
            let told = collapse(&idem::sim::event::step_told(&f.events));
            let lead: String = first.chars().take(20).collect();
            assert!(
                told.starts_with(&lead),
                "{size} step {}: the story opens on {first:?}, not on the step's events {told:?}",
                f.index
            );
            let story = collapse(&rows[top + 1..].join(" "));
            let chapter = &script.steps[f.chapter - 1].narration;
            if let Some(at) = story.find(&start_of(chapter)) {
                assert!(
                    story[..at].contains("written for the naive design"),
                    "{size} step {}: naive's words with no mark: {story:?}",
                    f.index
                );
            }
        }
    }
}

/// Where words are borrowed, the frame says so in its type, with whom
/// they were written for; a run told in its own words carries none.
#[test]
fn a_borrowed_step_carries_its_origin_in_the_frame() {
    use idem::sim::frame::WrittenFor;
    let script = told_for_naive();
    let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
    for f in &t.frames[1..] {
        let b = f.borrowed.as_ref().expect("a borrowed chapter");
        assert_eq!(b.written_for, WrittenFor::Design("naive".into()));
        assert!(!f.narration.contains("Naive writes"), "{}", f.narration);
    }
    let own = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    assert!(own.frames.iter().all(|f| f.borrowed.is_none()));
    assert!(own.frames[1].narration.contains("Naive writes"));
}

/// A file about SQLite's write lock (`engine = "sqlite"`), on PostgreSQL:
/// its words are typed as written for SQLite, never this run's own; one
/// line and a pass where no server answers.
#[test]
fn words_told_for_sqlite_are_typed_as_such_on_postgresql() {
    use idem::sim::frame::WrittenFor;
    let url: idem::sim::db::PgUrl = std::env::var("IDEM_TEST_PG")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
        .parse()
        .expect("IDEM_TEST_PG is a postgres:// address");
    if let Err(e) = idem::sim::db::Database::postgres(&url) {
        eprintln!("skipped: no PostgreSQL server to test against ({e})");
        return;
    }
    // A user's file may still say so; the built-ins tell PostgreSQL's own
    // story instead (`postgres_story_own`).
    let file = TOLD_FOR_NAIVE.replacen(
        "group = \"design\"",
        "group = \"design\"\nengine = \"sqlite\"",
        1,
    );
    let mut script = idem::scenario::load::parse("told-for-sqlite.toml", &file).unwrap();
    assert!(script.words_for_sqlite);
    script.setup.postgres = Some(url);
    let t = Timeline::build(&script, &Strategy::naive(), 0, &[]).unwrap();
    let borrowed: Vec<_> = t
        .frames
        .iter()
        .filter_map(|f| f.borrowed.as_ref())
        .collect();
    assert!(!borrowed.is_empty(), "the file's words are SQLite's");
    assert!(borrowed.iter().all(|b| b.written_for == WrittenFor::Sqlite));
    for f in &t.frames[1..] {
        assert!(
            !f.narration.contains("Naive writes")
                && !f.said.as_deref().unwrap_or("").contains("Naive writes"),
            "step {}: SQLite's words as this run's own: {:?}",
            f.index,
            f.narration
        );
    }
    let text = idem::report::transcript(&t, None);
    assert!(text.contains("written for SQLite, not this PostgreSQL run:"));
    assert!(!text.contains("[Told for"));
}

/// A long run's streamed text keeps borrowed words apart and marked too.
#[test]
fn a_streamed_run_marks_borrowed_words_after_the_steps_own_lines() {
    let script = told_for_naive();
    let mut text = String::new();
    idem::timeline::stream::stream(&script, &Strategy::idempotent(), 0, |s| {
        text.push_str(&idem::report::stream::step(&s));
    })
    .unwrap();
    let text = collapse(&text);
    for (_, paragraph) in borrowed_chapters(&script) {
        let at = text
            .find(&start_of(&paragraph))
            .expect("the words are kept");
        assert!(
            text[at.saturating_sub(60)..at].contains("written for the naive design"),
            "{text}"
        );
    }
    assert!(!text.contains("[Told for"));
}
