//! The clock's events read as plain sentences wherever an event is shown:
//! the TUI's events panel and `idem run` put the actor before the event
//! (`clock advances 30s`), the story and the handout tell it as a sentence
//! (`The clock advances 30s.`). They read `clock 30s pass` once.

use idem::scenario::load::builtins;
use idem::sim::event::Actor;
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;
use idem::tui::theme::Theme;
use idem::tui::view;

/// What is wrong with how `shown` tells a clock event, if anything: it
/// must say that the clock advances, and never that time "passes" after
/// the actor's name.
fn wrong(shown: &str, starts: &str) -> Option<String> {
    let words = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    (!words.starts_with(starts) || words.contains(" pass"))
        .then(|| format!("{words:?} does not start {starts:?}"))
}

fn panel_rows(f: &Frame) -> Vec<String> {
    let t = Theme::new(false, false);
    view::events_lines(&t, f)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

#[test]
fn the_clock_advances_in_every_place_an_event_is_shown() {
    let mut seen = 0;
    let mut failures = Vec::new();
    for script in builtins() {
        for design in script.strategies() {
            let strategy = Strategy::by_name(&design).unwrap();
            let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
            let place = |what: &str| format!("{} {design}: {what}", script.name);
            for f in &timeline.frames {
                for e in f.events.iter().filter(|e| e.actor == Actor::Clock) {
                    seen += 1;
                    failures.extend(wrong(&e.sentence(), "The clock advances ").map(|w| place(&w)));
                }
                for row in panel_rows(f).iter().filter(|r| r.contains(" clock ")) {
                    // After the event's glyph.
                    let row = row.split_once(' ').map_or(row.as_str(), |(_, r)| r);
                    failures.extend(wrong(row, "clock advances ").map(|w| place(&w)));
                }
            }
            let transcript = idem::report::transcript(&timeline, None);
            for line in transcript.lines() {
                if line.trim_start().starts_with("clock ") {
                    failures.extend(wrong(line.trim(), "clock advances ").map(|w| place(&w)));
                }
            }
        }
    }
    assert!(seen > 20, "only {seen} clock events");
    assert!(
        failures.is_empty(),
        "{} places; the first: {}",
        failures.len(),
        failures[0]
    );
}

/// Teacher trial 6: the SQL panel showed `VALUES ('m-7f3', 41000)` with
/// nothing to say 41000 is a time in milliseconds. The statement run
/// carries a comment beside the value (really executed, not added for
/// show), and the panel shows it at every size.
#[test]
fn processed_at_says_its_unit_in_the_sql_that_runs() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut app = crate::common::app("tour-1", "idempotent");
        app.pos = 3;
        let screen = crate::common::draw(&mut app, w, h);
        assert!(screen.contains("3000 /* ms */)"), "{w}x{h}:\n{screen}");
    }
}
