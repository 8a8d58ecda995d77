//! A story that folds its earlier words gives a row its sentences would
//! leave blank to the start of the newest sentence it folds, under an
//! ellipsis (`story_gap`). That start is cut where a clause ends (after
//! `,` `;` `:`, or before `and`, `but`, `so`, `which` ...), never inside
//! one: `A opens a …` reads as a slip, `The broker never got A's ack, …`
//! as a sentence that goes on. Before: 22 of 29 gaps at 100x30 fell
//! inside a clause.

use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::tui::app::Panel;

/// Words that open a clause: a cut just before one ends the clause
/// before it.
const OPENERS: [&str; 22] = [
    "and", "but", "so", "or", "while", "because", "until", "when", "where", "which", "who",
    "whose", "then", "since", "as", "if", "before", "after", "though", "unless", "nor", "yet",
];

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether the words `kept` (a sentence's start) end a clause in `text`.
fn at_clause(kept: &[&str], text: &str) -> bool {
    let Some(last) = kept.last() else {
        return true;
    };
    if last.ends_with([',', ';', ':', '—', ')']) {
        return true;
    }
    let words: Vec<&str> = text.split(' ').collect();
    let n = kept.len().min(3);
    let tail = &kept[kept.len() - n..];
    words
        .windows(n + 1)
        .filter(|w| &w[..n] == tail)
        .all(|w| OPENERS.contains(&w[n].trim_matches(|c: char| !c.is_alphanumeric())))
}

fn sweep(size: (u16, u16), seen: &mut usize, bad: &mut Vec<String>) {
    each_step(size, |step| {
        let shown = step.words_in(Panel::Narration);
        let t = &step.app.theme;
        let ellipsis = format!(" {} ", t.g.ellipsis);
        let narration = squeeze(&t.words(&step.frame.narration));
        for (at, _) in shown.match_indices(&ellipsis) {
            let after = shown[at + ellipsis.len()..].chars().next().unwrap_or(' ');
            // A count of what is folded, not words after a gap.
            if matches!(after, '↓' | '↑' | '(') {
                continue;
            }
            *seen += 1;
            let kept: Vec<&str> = shown[..at].split(' ').collect();
            if !at_clause(&kept, &narration) {
                let from = kept.len().saturating_sub(6);
                bad.push(format!(
                    "{}: cut mid-clause: …{} …\n{}",
                    step.at(),
                    kept[from..].join(" "),
                    step.screen()
                ));
            }
        }
    });
}

/// Every size a class meets, counted together.
#[test]
fn story_gap_clause() {
    let (mut seen, mut bad) = (0, Vec::new());
    for size in SIZES {
        sweep(size, &mut seen, &mut bad);
    }
    none_wrong("story gaps", seen, 10, &bad, SIZES[1]);
}
