//! At the end of a predict run the score has its place under the story,
//! over the SQL and events; the story's closing words (the lesson's
//! conclusion, `So: owed $40, paid $80.`) stay in it as without predict
//! mode. Trial, tour-1 naive at 80x24: with the events covered, the story
//! kept the step's own line whole (`A acks m-7f3. The broker removes …`)
//! and folded the conclusion above it, under `↑ 9 more sentences`.
//! Before: 27 of 47 ends lost a sentence the plain screen shows.

use crate::common;
use idem::tui::app::Panel;
use idem::tui::layout;
use idem::tui::predict::Given;
use idem::tui::{Action, update};
use ratatui::layout::Rect;

use crate::common::panel_words::{squeeze, words_in};

/// The sentences of `text`, each ending at `. `, `? ` or `! `.
fn sentences(text: &str) -> Vec<String> {
    let text = squeeze(text);
    let mut out = Vec::new();
    let mut from = 0;
    for (at, _) in text.match_indices(' ') {
        if text[..at].ends_with(['.', '?', '!']) {
            out.push(text[from..at].to_string());
            from = at + 1;
        }
    }
    out.push(text[from..].to_string());
    out.retain(|s| !s.is_empty());
    out
}

#[test]
fn predict_end_keeps_words() {
    let (w, h) = (80, 24);
    let (mut checked, mut lost) = (0, Vec::new());
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            let mut a = common::app(&script.name, &design);
            update(&mut a, Action::Predict);
            let p = a.predict.as_mut().expect("predict mode");
            if p.asked.is_empty() {
                continue;
            }
            // Every answer wrong: the score's list is at its longest.
            for (i, q) in p.asked.iter().enumerate() {
                let said = crate::tui_predict::wrong(q);
                p.given.insert(i, Given { said, right: false });
            }
            update(&mut a, Action::Last);
            let with = common::draw(&mut a, w, h);
            let kept = a.predict.take();
            let without = common::render(&a);
            a.predict = kept;
            let m = layout::on_screen(&a, Rect::new(0, 0, w, h));
            let story = m.rect(Panel::Narration);
            let (shown, plain) = (words_in(&with, story), words_in(&without, story));
            let f = a.frame();
            let Some(said) = f.said.as_deref() else {
                continue;
            };
            checked += 1;
            let t = &a.theme;
            for s in sentences(&t.words(said)) {
                if plain.contains(&s) && !shown.contains(&s) {
                    lost.push(format!(
                        "{} {design}: {s:?} folded under the score\n{with}",
                        script.name
                    ));
                    break;
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} ends checked");
    assert!(
        lost.is_empty(),
        "{} of {checked} ends lose their closing words; the first:\n{}",
        lost.len(),
        lost.first().cloned().unwrap_or_default()
    );
}
