//! A predict reveal's "why" (the sentences after the learner's answer
//! that say why the answer is what it is) is read whole in the answer's
//! box: never cut under the box's bottom border. Trial, 80x24: 91 of 140
//! reveals lost the end of their why (tour-1 naive question 1 kept
//! `… it charges the card (ch_81, $40). The call carries no` and no more),
//! as the action's own words above the answer took the box's rows.

use crate::common::reveals::each_reveal;
use idem::tui::app::Panel;

const SIZES: [(u16, u16); 2] = [(80, 24), (100, 30)];

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of the box: the rows from the story's top down to the
/// verdict, inside the borders, joined as a reader reads them.
fn box_words(screen: &str, top: u16, bottom: u16) -> String {
    let rows: Vec<String> = screen
        .lines()
        .skip(usize::from(top))
        .take(usize::from(bottom.saturating_sub(top)))
        .map(|l| {
            let l = l.strip_prefix('"').unwrap_or(l);
            let l = l.strip_suffix('"').unwrap_or(l);
            let mut c: Vec<char> = l.chars().collect();
            c.pop();
            c.into_iter().skip(1).collect()
        })
        .collect();
    squeeze(&rows.join(" "))
}

#[test]
fn reveal_why_whole() {
    let (mut checked, mut cut) = (0, Vec::new());
    each_reveal(&SIZES, |r| {
        let p = r.app.predict.as_ref().expect("predict mode");
        let t = &r.app.theme;
        let on_postgres = !r.app.frame().engine.is_sqlite();
        let top = r.main.rect(Panel::Narration).y;
        let verdict = r.main.rect(Panel::Verdict);
        let bottom = if verdict.height > 0 {
            verdict.y
        } else {
            r.main.keybar.y
        };
        let shown = box_words(r.with, top, bottom);
        for (i, q) in p.asked[r.from..=r.to].iter().enumerate() {
            checked += 1;
            let why = squeeze(&t.text(q.question.why(r.design, on_postgres)));
            if !shown.contains(&why) {
                cut.push(format!(
                    "{} {} {}x{} question {}: {why:?} not whole\n{}",
                    r.scenario,
                    r.design,
                    r.size.0,
                    r.size.1,
                    r.from + i + 1,
                    r.with
                ));
            }
        }
    });
    assert!(checked >= 200, "only {checked} reveals checked");
    assert!(
        cut.is_empty(),
        "{} of {checked} whys cut; the first:\n{}",
        cut.len(),
        cut.first().cloned().unwrap_or_default()
    );
}
