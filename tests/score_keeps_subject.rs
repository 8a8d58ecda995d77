//! The score at the end of a predict run lists each wrong answer with what
//! the question asked about, in short where the row is short
//! (`ch 3 holder: no one`), never the chapter and the answer alone
//! (`ch 3: no one`), which says nothing of what is no one. Before: 97 of
//! 423 wrong answers (80x24, 100x30, 120x40) lost their subject.

use crate::common;
use idem::tui::predict::Given;
use idem::tui::{Action, update};

#[test]
fn score_keeps_subject() {
    let mut checked = 0;
    let mut lost = Vec::new();
    for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
        for script in idem::scenario::load::builtins() {
            for design in script.strategies() {
                let mut a = common::app(&script.name, &design);
                update(&mut a, Action::Predict);
                let p = a.predict.as_mut().expect("predict mode");
                for (i, q) in p.asked.iter().enumerate() {
                    let said = crate::tui_predict::wrong(q);
                    p.given.insert(i, Given { said, right: false });
                }
                update(&mut a, Action::Last);
                let screen = common::draw(&mut a, w, h);
                let flat = screen
                    .lines()
                    .map(|l| l.trim_matches('"'))
                    .collect::<Vec<_>>()
                    .join(" ");
                let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
                let p = a.predict.as_ref().expect("predict mode");
                let t = &a.theme;
                for q in &p.asked {
                    checked += 1;
                    let answer = t.text(&q.show(q.answer)).into_owned();
                    let s = &q.question.subject;
                    let named = [s.figure(), s.short()]
                        .iter()
                        .any(|name| flat.contains(&format!("{}: {answer}", t.text(name))));
                    if !named {
                        lost.push(format!(
                            "{} {design} {w}x{h}: chapter {} answer {answer:?} without {:?}\n{screen}",
                            script.name,
                            q.chapter,
                            s.short()
                        ));
                    }
                }
            }
        }
    }
    assert!(checked >= 100, "only {checked} answers checked");
    assert!(
        lost.is_empty(),
        "{} of {checked} wrong answers lose their subject; the first:\n{}",
        lost.len(),
        lost.first().cloned().unwrap_or_default()
    );
}
