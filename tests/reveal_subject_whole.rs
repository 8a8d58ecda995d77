//! After a predict reveal, the event the question asked about is whole on
//! screen, in the events panel under the answer's box. Trial, tour-1
//! naive question 3 at 100x30 ("does the provider make a charge?"): the
//! box left the events panel two rows, and the provider's charge was
//! folded under a count. The subject event is the last event of the party
//! that holds the question's figure (`tui::reveal_subject`): the
//! provider's for its charges and answers, the broker's for a message,
//! a consumer's for the rows it writes. A question whose party did
//! nothing in the action (no call reached the provider) has none: its
//! answer says so in the box.

use crate::common::reveals::each_reveal;
use idem::tui::app::Panel;
use idem::tui::reveal_subject;
use ratatui::layout::Rect;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words inside `r` on `screen` (a row a line, quoted), its rows
/// joined.
fn words_in(screen: &str, r: Rect) -> String {
    let rows: Vec<String> = screen
        .lines()
        .skip(usize::from(r.y) + 1)
        .take(usize::from(r.height.saturating_sub(2)))
        .map(|l| {
            let l = l.strip_prefix('"').unwrap_or(l);
            l.chars()
                .skip(usize::from(r.x) + 1)
                .take(usize::from(r.width.saturating_sub(2)))
                .collect()
        })
        .collect();
    squeeze(&rows.join(" "))
}

/// Reveals where the event asked about does not fit the rows the answer's
/// box leaves the events panel, even alone under its count and with the
/// SQL's spare columns (`layout::reveal_split`): one row at 80x24 for a
/// broker's line of 70 columns, or at 100x30 and 120x40 for the
/// provider's answer, 100 columns; or the columns the events would take
/// cost the SQL its newest statement whole (`A> COMMIT` under the count of
/// those before it). Left for a box that gives the events rows back.
/// Before the reveal's split, 23; five read whole with it (tour-2
/// idempotent question 4 at 100x30, the provider's answer in 36 columns
/// beside `A> COMMIT` in 60).
/// Scenario, design, size, question (1 is the first).
const TOO_LONG: [(&str, &str, (u16, u16), usize); 18] = [
    ("ack-first", "idempotent", (120, 40), 1),
    ("broker-id", "idempotent", (100, 30), 1),
    ("charge-first", "idempotent", (80, 24), 1),
    ("content-hash", "idempotent", (100, 30), 1),
    ("id-first", "idempotent", (120, 40), 1),
    ("offset", "offset", (100, 30), 1),
    ("offset-on-a-queue", "idempotent", (120, 40), 2),
    ("producer-retry", "idempotent", (100, 30), 1),
    ("retention", "idempotent", (100, 30), 3),
    ("reused-id", "idempotent", (100, 30), 1),
    ("row-version", "idempotent", (100, 30), 1),
    ("row-version", "idempotent", (100, 30), 2),
    ("row-version", "row-version", (100, 30), 1),
    ("row-version", "row-version", (100, 30), 2),
    ("row-version", "row-version", (100, 30), 3),
    ("tour-2", "idempotent", (80, 24), 3),
    ("tour-2", "naive", (80, 24), 2),
    ("tour-3", "idempotent", (100, 30), 1),
];

#[test]
fn the_event_a_reveal_is_about_is_whole_on_screen() {
    let (mut checked, mut covered, mut failures) = (0, 0, Vec::new());
    let mut fixed = Vec::new();
    each_reveal(&SIZES, |r| {
        // Where the answer's words need every row down to the verdict, the
        // box covers the SQL and events whole (`predict::clear_of_titles`):
        // the answer itself names what the question was about.
        if !r.with.contains("Events in") {
            covered += 1;
            return;
        }
        let f = r.app.shown_frame();
        let t = &r.app.theme;
        let p = r.app.predict.as_ref().expect("predict mode");
        let shown = words_in(r.with, r.main.rect(Panel::Events));
        for q in &p.asked[r.from..=r.to] {
            let Some(at) = reveal_subject::subject_event(&q.question.subject, &f) else {
                continue;
            };
            checked += 1;
            let e = &f.events[at];
            let whole = format!("{} {}", e.actor.label(), t.text(&e.text));
            let seen = shown.contains(&squeeze(&whole));
            let here = (r.scenario, r.design, r.size, r.from + 1);
            if TOO_LONG.contains(&here) {
                if seen {
                    fixed.push(format!("{here:?}"));
                }
                continue;
            }
            if !seen {
                failures.push(format!(
                    "{} {} {}x{} question {} ({}): {whole:?} not whole\n{}",
                    r.scenario,
                    r.design,
                    r.size.0,
                    r.size.1,
                    r.from + 1,
                    q.question.subject.about(),
                    r.with
                ));
            }
        }
    });
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for f in &failures {
            let full = std::env::var("IDEM_SHOW").is_ok_and(|s| f.starts_with(&s));
            eprintln!(
                "{}",
                if full {
                    f.as_str()
                } else {
                    f.lines().next().unwrap_or_default()
                }
            );
        }
    }
    eprintln!("{checked} subject events checked, {covered} reveals cover the events panel");
    assert!(checked >= 100, "only {checked} subject events checked");
    // A listed reveal that now shows its event whole leaves the list.
    assert!(fixed.is_empty(), "listed, and now whole: {fixed:?}");
    assert!(
        failures.is_empty(),
        "{} of {checked} reveals hide the event asked about; the first:\n{}",
        failures.len(),
        failures.first().cloned().unwrap_or_default()
    );
}
