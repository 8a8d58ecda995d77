//! The presenter's big figures count committed rows, and say so: a row an
//! open transaction wrote is shown beside the figure, with its holder, and
//! the figure is marked as moved when that part moves (the teacher trial:
//! tour-4 step 3 read "0 unchanged" over an uncommitted claim, tour-1
//! naive step 13 "$40 unchanged" over A's uncommitted second payment,
//! written at step 12).

use crate::common::{self, Screen};
use idem::tui::{Action, App, Options, update};
use ratatui::style::Color;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn presenter_at(name: &str, mode: &str, step: usize, color: bool) -> App {
    let options = Options {
        color,
        ..common::plain()
    };
    let mut a = common::app_with(name, mode, options);
    update(&mut a, Action::Presenter);
    a.pos = step;
    assert_eq!(a.frame().index, step, "{name} {mode}");
    a
}

#[test]
fn an_uncommitted_row_is_shown_beside_the_committed_figure() {
    // (scenario, design, step, figure box, what it must say)
    let cases = [
        ("tour-4", "idempotent", 3, 1, "plus 1 not committed (A)"),
        ("tour-1", "naive", 13, 2, "plus $40 not committed (A)"),
        // The step that wrote it, marked as it moved: one mark, then words.
        ("tour-1", "naive", 12, 2, "* plus $40 not committed (A)"),
    ];
    for (name, mode, step, n, said) in cases {
        for (w, h) in SIZES {
            let mut a = presenter_at(name, mode, step, false);
            let screen = common::draw(&mut a, w, h);
            let text = crate::common::figure_text(&screen, w, n);
            assert!(
                text.contains(said),
                "{name} {mode} step {step} at {w}x{h}: {text:?}\n{screen}"
            );
            assert!(
                text.contains("committed"),
                "{name} {mode} step {step} at {w}x{h}: the figure is not labelled committed: {text:?}"
            );
        }
    }
}

/// The box's border takes the change colour when the uncommitted part
/// moved, though the committed figure did not.
#[test]
fn a_figure_whose_uncommitted_part_moved_is_marked() {
    for (name, mode, step, n) in [("tour-4", "idempotent", 3, 1), ("tour-1", "naive", 12, 2)] {
        let mut a = presenter_at(name, mode, step, true);
        common::resize(&mut a, 120, 40);
        let mut screen = Screen::new(120, 40);
        let buf = screen.show(&a);
        let corner = &buf[(n as u16 * 30, 1)];
        assert_eq!(corner.symbol(), "┌", "{name}: box {n}");
        assert_eq!(corner.fg, Color::Magenta, "{name} {mode} step {step}");
    }
}

/// A figure's words never put two marks side by side (teacher trial: at
/// 80x24 tour-1 naive step 12 read `* + $40 not committed (A)`, the
/// changed mark against the added one): a mark is followed by words.
#[test]
fn no_figure_runs_two_marks_together() {
    let t = idem::tui::theme::Theme::new(false, false);
    let marks = [t.g.added, t.g.changed, t.g.removed];
    let mut seen = 0;
    for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            let last = common::app(name, mode).timeline.frames.len();
            for step in 0..last {
                for (w, h) in SIZES {
                    let mut a = presenter_at(name, mode, step, false);
                    let screen = common::draw(&mut a, w, h);
                    for n in 0..4 {
                        let text = crate::common::figure_text(&screen, w, n);
                        let words: Vec<&str> = text.split(' ').collect();
                        seen += 1;
                        let twice = words
                            .windows(2)
                            .any(|p| marks.contains(&p[0]) && marks.contains(&p[1]));
                        assert!(
                            !twice,
                            "{name} {mode} step {step} at {w}x{h}, figure {n}: two marks \
                             together in {text:?}\n{screen}"
                        );
                    }
                }
            }
        }
    }
    assert!(seen > 500, "only {seen} figures read");
}

/// Step 0, where the producer publishes: the queue figure is marked as
/// moved from the empty world before it, as any later step's move is.
/// Teacher trial 30: tour-1's step 0 read `1` and `unchanged` under "in
/// the queue", beside the event "producer publishes m-7f3".
#[test]
fn the_first_publish_moves_the_queue_figure() {
    let mut wrong = Vec::new();
    for name in ["tour-1", "tour-3", "tour-4"] {
        for mode in ["naive", "idempotent"] {
            for (w, h) in SIZES {
                let mut a = presenter_at(name, mode, 0, false);
                let screen = common::draw(&mut a, w, h);
                let text = crate::common::figure_text(&screen, w, 0);
                if text.contains("unchanged") || !text.contains("was 0") {
                    wrong.push(format!("{name} {mode} {w}x{h}: {text:?}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
