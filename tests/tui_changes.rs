//! What a step changed, marked on screen: snapshots of the tour's key steps
//! in colour (change-coloured text shown between « »), under NO_COLOR and
//! in ASCII, and the marks coming back when stepping back.

use crate::common::{self, Screen};
use idem::sim::Frame;
use idem::sim::change::{Change, Place};
use idem::sim::consumer::Mark;
use idem::tui::{Action, App, Options, update};
use ratatui::style::Color;

fn app(name: &str, mode: &str, color: bool, ascii: bool) -> App {
    let options = Options {
        color,
        ascii,
        ..common::plain()
    };
    common::app_with(name, mode, options)
}

/// The app at the first frame that matches.
fn at(mut a: App, wanted: impl Fn(&Frame) -> bool) -> App {
    let i = a
        .timeline
        .frames
        .iter()
        .position(wanted)
        .expect("the step exists");
    for _ in 0..i {
        update(&mut a, Action::Next);
    }
    a
}

/// The screen as text; with `annotate`, text in the change colour between
/// « and », so a snapshot shows where the colour is.
fn draw(a: &mut App, w: u16, h: u16, annotate: bool) -> String {
    common::resize(a, w, h);
    let mut screen = Screen::new(w, h);
    let buf = screen.show(&*a);
    let mut out = String::new();
    for y in 0..h {
        let mut inside = false;
        for x in 0..w {
            let cell = &buf[(x, y)];
            let marked = annotate && cell.fg == Color::Magenta;
            if marked != inside {
                out.push(if marked { '«' } else { '»' });
                inside = marked;
            }
            out.push_str(cell.symbol());
        }
        if inside {
            out.push('»');
        }
        out.push('\n');
    }
    out
}

fn committed(f: &Frame) -> bool {
    f.changes.of(Place::Payments, "0") == Some(Change::Committed)
}

fn rolled_back(f: &Frame) -> bool {
    f.changes.gone(Place::Payments).next().is_some()
}

#[test]
fn a_commit_in_colour() {
    let mut a = at(app("tour-2", "idempotent", true, false), committed);
    let screen = draw(&mut a, 120, 40, true);
    assert!(screen.contains("«  * committed»"), "{screen}");
    assert!(screen.contains("«  * was $0»"), "{screen}");
    assert!(screen.contains("commit«  ◀ this step»"), "{screen}");
    insta::assert_snapshot!("changes_commit_color_120x40", screen);
}

#[test]
fn a_rollback_without_colour() {
    let mut a = at(app("tour-2", "idempotent", false, false), rolled_back);
    let screen = draw(&mut a, 120, 40, true);
    assert!(!screen.contains('«'), "no colour under NO_COLOR");
    assert!(screen.contains("1042 $40 m-7f3  - rolled back"), "{screen}");
    assert!(screen.contains("m-7f3  - rolled back"), "{screen}");
    insta::assert_snapshot!("changes_rollback_no_color_120x40", screen);
}

#[test]
fn the_second_charge_in_ascii() {
    let second = |f: &Frame| f.changes.of(Place::Charges, "ch_82").is_some();
    let mut a = at(app("tour-1", "naive", false, true), second);
    let screen = draw(&mut a, 80, 24, false);
    assert!(screen.is_ascii());
    // The count moved: at 80 columns, beside the empty key store folded
    // into the heading (`keys 0`, no count a class could take for a
    // charge), the old count stands before the new (`$80 *was 1` read as
    // "$80, was 1"), and the new charge's row says which one is new.
    assert!(screen.contains("charges 1->2 $80 keys 0"), "{screen}");
    assert!(screen.contains(" ch_82 #1042 $40 no key +"), "{screen}");
    insta::assert_snapshot!("changes_second_charge_ascii_80x24", screen);
    // The key letters stay keys: no step is marked `v` or `x`.
    for line in screen.lines().filter(|l| l.contains("receive")) {
        assert!(
            !line.contains(" v receive") && !line.contains(" x receive"),
            "{line}"
        );
    }
}

#[test]
fn stepping_back_shows_a_steps_marks_again() {
    let mut a = at(app("tour-2", "idempotent", false, false), committed);
    let first = draw(&mut a, 120, 40, false);
    update(&mut a, Action::Next);
    let after = draw(&mut a, 120, 40, false);
    assert!(!after.contains("* committed"), "marks last one step");
    update(&mut a, Action::Prev);
    assert_eq!(draw(&mut a, 120, 40, false), first);
}

#[test]
fn an_ack_the_broker_ignored_says_so() {
    let ignored = |f: &Frame| {
        f.consumers
            .iter()
            .any(|c| c.steps.iter().any(|s| s.mark == Mark::Ignored))
    };
    let mut a = at(app("tour-3", "idempotent", false, false), ignored);
    let screen = draw(&mut a, 100, 30, false);
    // The consumer was told OK; that the broker ignored it is the
    // observer's knowledge, and marked as such.
    assert!(screen.contains("acknowledge  ◇ ignored"), "{screen}");
    assert!(!screen.contains("acknowledge  failed"), "{screen}");
    insta::assert_snapshot!("changes_ack_ignored_100x30", screen);
}

#[test]
fn the_presenter_view_marks_the_figures_that_moved() {
    let second = |f: &Frame| f.changes.of(Place::Charges, "ch_82").is_some();
    let mut a = at(app("tour-1", "naive", false, false), second);
    update(&mut a, Action::Presenter);
    let screen = draw(&mut a, 120, 40, false);
    assert!(screen.contains("provider charges"), "{screen}");
    assert!(screen.contains("* was 1"), "{screen}");
    assert!(
        screen.contains("not used here"),
        "naive keeps no processed_messages"
    );
    insta::assert_snapshot!("presenter_second_charge_120x40", screen);
    let mut a = at(app("tour-2", "idempotent", false, true), committed);
    update(&mut a, Action::Presenter);
    let screen = draw(&mut a, 80, 24, false);
    assert!(screen.is_ascii(), "{screen}");
    assert!(screen.contains("* was $0"), "{screen}");
    insta::assert_snapshot!("presenter_commit_ascii_80x24", screen);
    update(&mut a, Action::Back);
    assert!(!a.presenter, "Esc leaves the presenter view");
}

/// Each presenter figure says what this step did to it, the queue as the
/// other three: "unchanged" when the step did not move it (where the
/// broker has the message may follow, but never in its place).
#[test]
fn every_presenter_figure_says_what_the_step_did_to_it() {
    let mut a = app("tour-1", "idempotent", false, false);
    update(&mut a, Action::Presenter);
    for i in 1..a.timeline.frames.len() {
        a.pos = i;
        let screen = draw(&mut a, 120, 40, false);
        let ch = a.frame().changes.clone();
        // A refused insert is what the step did to processed_messages
        // (`≠ key taken: 0 rows inserted`), said in place of "unchanged".
        let refused = a.frame().db.processed.iter().any(|p| p.conflict);
        let unmoved = [
            ch.queue_was.is_none(),
            ch.processed_was.is_none() && !refused,
            ch.total_was.is_none(),
            ch.charges_was.is_none(),
        ];
        let expected = unmoved.iter().filter(|&&u| u).count();
        assert_eq!(
            screen.matches("unchanged").count(),
            expected,
            "step {i}\n{screen}"
        );
    }
}

/// Losing the in-progress record to another delivery is not a duplicate
/// skipped: the step says so in its own words, and the count of skips does
/// not move (issue 18's trial: step 21 read "duplicate" and "(+1)").
#[test]
fn losing_the_record_is_not_a_duplicate_skip() {
    let lost = |f: &Frame| f.events.iter().any(|e| e.text.contains("no longer owns"));
    let mut a = at(app("in-progress", "in-progress", false, false), lost);
    let screen = draw(&mut a, 120, 40, false);
    let row = screen
        .lines()
        .find(|l| l.contains("mark completed"))
        .expect("A's step on screen");
    assert!(row.contains("not owner"), "{row}\n{screen}");
    assert!(!row.contains("duplicate"), "{row}\n{screen}");
    assert!(!screen.contains("skipped: key taken 1 (+1)"), "{screen}");
}

/// A replay (the provider answering from its key store) changes nothing
/// stored: every key row replayed in its step, in every built-in run, is
/// marked as a replay and never as "changed".
#[test]
fn a_replay_is_not_a_change() {
    let mut seen = 0;
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            let t = idem::timeline::Timeline::build(
                &script,
                &idem::sim::Strategy::by_name(&design).unwrap(),
                0,
                &[],
            )
            .unwrap();
            for w in t.frames.windows(2) {
                for k in w[1].provider.keys.iter().filter(|k| k.replayed_now) {
                    let before = w[0].provider.keys.iter().find(|b| b.key == k.key);
                    if before.is_some_and(|b| b.result == k.result) {
                        seen += 1;
                        assert!(
                            w[1].changes.of(Place::Keys, &k.key).is_none(),
                            "{} {design} step {}: {} replayed, marked changed",
                            script.name,
                            w[1].index,
                            k.key
                        );
                    }
                }
            }
        }
    }
    assert!(seen > 0, "no replay in the built-in runs");
}
