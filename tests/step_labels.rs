//! The step that matters now keeps its name. Every frame of every built-in
//! scenario, under every design it lists, at 80x24, 100x30 and 120x40: in
//! the service panel, the row of the step a consumer just ran (`◀`) and of
//! the one it runs next (`▷`) names the step whole, its pointer's word
//! (`this step`, `next`) folding first; where the row still cannot hold
//! the name, the cut shows (an ellipsis) and a call's `(key)`, whether it
//! carried the Idempotency-Key, is kept beside a start of the name (the
//! teacher's `✓ charge the card (…` at 100x30 in tour-4).

use crate::common::sweep;
use idem::sim::consumer::Mark;
use idem::tui::app::Panel;
use idem::tui::theme::Theme;
use idem::tui::view;

/// What is wrong with the row of step `label`, if anything; `short` is
/// the step's short name (`response`), a whole name of its own.
fn judge(row: &str, label: &str, short: Option<&str>) -> Option<&'static str> {
    // After the step's glyph, ` ✓ `: three cells.
    let named: String = row.chars().skip(3).collect();
    let named = named.as_str();
    if named.starts_with(label) {
        return None;
    }
    // A keyed call's short name keeps its tag: `charge (key)`. The name
    // ends at the marks after it (two spaces), or at the pointer's sign,
    // one space before it (`update if new ◀`).
    let first = named.split("  ").next().unwrap_or_default();
    let first = first.strip_suffix(" ◀").unwrap_or(first);
    if short.is_some_and(|s| first == s || first.strip_suffix(" (key)") == Some(s)) {
        return None;
    }
    if !named.contains('…') {
        return Some("the name is cut without a sign");
    }
    if row.contains("this step") || row.contains("next") {
        return Some("the name is cut while the pointer keeps its word");
    }
    // A hit on the unique key: `≠` at the row's start says it, so the
    // word folds before the pattern's key step (`insert message ID`) is cut.
    let found = ["  key taken", "  ID found", "  row has ID", "  not newer"];
    if found.iter().any(|w| row.contains(w)) {
        return Some("the name is cut while the check's finding keeps its word");
    }
    // Kept where the row has room for a start of the name beside it
    // (`cha… (key)`): at 27 columns `charge…  awaits answer ◀` has not.
    let name_cells = named.split("  ").next().unwrap_or_default().chars().count();
    if label.ends_with("(key)") && !named.contains("(key)") && name_cells >= 10 {
        return Some("the call's (key) is cut");
    }
    None
}

fn labels_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let t = Theme::new(false, false);
    let mut seen = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| {
        let f = &step.frame;
        let (w, h) = step.inner(Panel::Service);
        let lines: Vec<String> = view::service_lines(&t, f, &step.watch, w, h)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let head = |l: &str| {
            f.consumers.iter().position(|c| {
                l.starts_with(&format!("consumer {} ", c.name))
                    || l.starts_with(&format!("{}: ", c.name))
            })
        };
        let mut who = None;
        for l in &lines {
            if let Some(c) = head(l) {
                who = Some(c);
                continue;
            }
            let Some(c) = who.map(|c| &f.consumers[c]) else {
                continue;
            };
            let ran = f.changes.step_of(&c.name).filter(|_| l.contains(t.g.ran));
            let next = c
                .next
                .filter(|_| l.starts_with(&format!(" {} ", t.g.upcoming)));
            // The duplicate's row, pointed at or not (a finished list
            // still shows where the duplicate was stopped).
            let duplicate = c
                .steps
                .iter()
                .position(|s| s.mark == Mark::Conflict)
                .filter(|_| l.starts_with(&format!(" {} ", t.g.conflict)));
            let Some(k) = ran.or(next).or(duplicate).filter(|&k| k < c.steps.len()) else {
                continue;
            };
            seen += 1;
            if let Some(e) = judge(l, &c.steps[k].label, c.steps[k].short) {
                wrong.push(format!(
                    "{} ({w} wide), consumer {}: {l:?}: {e}\n{}",
                    step.at(),
                    c.name,
                    lines.join("\n")
                ));
            }
        }
    });
    (seen, wrong)
}

fn labels_whole_at(size: (u16, u16)) {
    let (seen, wrong) = labels_at(size);
    sweep::none_wrong("pointed steps", seen, 500, &wrong, size);
}

#[test]
fn the_pointed_step_keeps_its_name_at_80x24() {
    labels_whole_at(sweep::SIZES[0]);
}

#[test]
fn the_pointed_step_keeps_its_name_at_100x30() {
    labels_whole_at(sweep::SIZES[1]);
}

#[test]
fn the_pointed_step_keeps_its_name_at_120x40() {
    labels_whole_at(sweep::SIZES[2]);
}
