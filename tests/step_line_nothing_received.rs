//! A step line is true at the step it is shown: where the action's
//! consumer polled the queue and found nothing (it finished earlier, or
//! another holds the message), the line says so in words rather than
//! name a run. Issue 18: tour-3 naive step 16 on PostgreSQL read `run B
//! up to commit` while its only event said B found nothing to receive.
//! Read off the sweep's kept SQLite screens (120x40) and the shared
//! PostgreSQL runs' transcripts, plus that one PostgreSQL screen.

use crate::common::pg_runs::pg_runs;
use crate::common::server::server;
use crate::common::sweep::each_step;
use idem::sim::{Actor, Frame, Strategy};
use idem::tui::app::Panel;

/// The words the step line adds.
const SAYS: &str = "has nothing to receive";

/// The oracle, from the step's events rather than the frame's new field:
/// the consumer that stepped told only that its poll found nothing.
fn found_nothing(f: &Frame) -> bool {
    let Some(who) = f.stepped.as_ref() else {
        return false;
    };
    let own: Vec<_> = f
        .events
        .iter()
        .filter(|e| matches!(&e.actor, Actor::Consumer(c) if c == who))
        .collect();
    !own.is_empty()
        && own
            .iter()
            .all(|e| e.text == "polls the queue: nothing visible to receive")
}

/// The story panel's bottom border, where the step line is drawn.
fn step_line(buf: &ratatui::buffer::Buffer, area: ratatui::layout::Rect) -> String {
    (area.x..area.right())
        .map(|x| buf[(x, area.bottom() - 1)].symbol())
        .collect()
}

#[test]
fn a_step_whose_consumer_found_nothing_says_so_on_sqlite_screens() {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step((120, 40), |step| {
        if !found_nothing(&step.frame) {
            return;
        }
        seen += 1;
        let line = step_line(step.buf, step.main.rect(Panel::Narration));
        if !line.contains(SAYS) {
            wrong.push(format!("{}: {}", step.at(), line.trim()));
        }
    });
    assert!(
        seen >= 1,
        "no SQLite step found nothing: the sweep proves nothing"
    );
    assert!(
        wrong.is_empty(),
        "{} of {seen} SQLite steps whose consumer found nothing name a run:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_step_whose_consumer_found_nothing_says_so_in_postgresql_transcripts() {
    let Some(runs) = pg_runs() else { return };
    let (mut seen, mut wrong) = (0, Vec::new());
    for run in runs {
        let text = idem::report::transcript(&run.timeline, None);
        for f in run.timeline.frames.iter().filter(|f| found_nothing(f)) {
            seen += 1;
            let head = format!("[{}] ", f.index);
            let line = text.lines().find(|l| l.starts_with(&head)).unwrap_or("");
            if !line.contains(SAYS) {
                wrong.push(format!("{} {}: {line}", run.script.name, run.design));
            }
        }
    }
    assert!(seen >= 2, "only {seen} PostgreSQL steps found nothing");
    assert!(
        wrong.is_empty(),
        "{} of {seen} PostgreSQL steps whose consumer found nothing name a run:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The screen of the issue itself: tour-3 naive step 16 on PostgreSQL.
#[test]
fn tour_3_naive_step_16_on_postgresql_says_b_has_nothing_to_receive() {
    let Some(url) = server() else { return };
    let mut script = idem::scenario::find("tour-3").expect("built-in");
    script.setup.postgres = Some(url);
    let strategy = Strategy::by_name("naive").expect("design");
    let mut app =
        idem::tui::App::new(script, strategy, 0, crate::common::plain()).expect("the run builds");
    crate::common::resize(&mut app, 120, 40);
    app.pos = 16;
    assert!(
        found_nothing(app.frame()),
        "step 16 is no longer the idle poll"
    );
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    ratatui::widgets::Widget::render(&app, area, &mut buf);
    let main = idem::tui::layout::on_screen(&app, area);
    let line = step_line(&buf, main.rect(Panel::Narration));
    assert!(
        line.contains("run B to before commit: B has nothing to receive"),
        "{line}"
    );
}
