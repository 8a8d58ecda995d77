//! A dollar figure in a scenario's words is the simulated world's figure at
//! that step. Authors write "$105 recorded for $65 of orders" or "So: owed
//! $40, paid $80" into `say`, `say_for` and `say_at`; nothing else ties
//! those figures to the run, so a change to a scenario's setup could leave
//! a false line on screen. Every builtin, every design it runs: each
//! sentence new at a step is read for the figures it states in a few clear
//! patterns, and each is held to the frame.

use idem::scenario::{self, load::builtins};
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;

/// Which of the world's figures a stated sum stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Figure {
    /// The committed payments total, as the database panel shows it.
    Recorded,
    /// What the provider has charged in all.
    Charged,
    /// What the observer's books say the customer owes.
    Owed,
}

/// Words right before "$N" that say which figure it is.
const BEFORE: &[(&str, Figure)] = &[
    ("books say", Figure::Recorded),
    ("books now say", Figure::Recorded),
    ("recorded", Figure::Recorded),
    ("total stays at", Figure::Recorded),
    ("charged", Figure::Charged),
    ("paid", Figure::Charged),
    ("owed", Figure::Owed),
];

/// Words right after "$N" that say which figure it is.
const AFTER: &[(&str, Figure)] = &[("recorded", Figure::Recorded), ("charged", Figure::Charged)];

fn world(f: &Frame, figure: Figure) -> u64 {
    match figure {
        Figure::Recorded => f.db.payments_total,
        Figure::Charged => f.provider.total_charged,
        Figure::Owed => f
            .verdict
            .facts
            .iter()
            .filter(|v| v.expected_status.is_none())
            .map(|v| u64::from(v.amount) * v.expected as u64)
            .sum(),
    }
}

fn sentences(text: &str) -> Vec<String> {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split_inclusive(['.', '?', '!', ';'])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `text` ends with the words `pat`, not with a longer word ending in them.
fn ends_with_words(text: &str, pat: &str) -> bool {
    text.strip_suffix(pat)
        .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric()))
}

/// `text` starts with the words `pat`, not with a longer word.
fn starts_with_words(text: &str, pat: &str) -> bool {
    text.strip_prefix(pat)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
}

/// Every figure the sentence states in one of the patterns: the figure it
/// stands for, the sum, and the words that tie them.
fn stated(sentence: &str) -> Vec<(Figure, u64, String)> {
    let low = sentence.to_lowercase();
    let mut out = Vec::new();
    for (at, _) in low.match_indices('$') {
        let digits: String = low[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let Ok(sum) = digits.parse::<u64>() else {
            continue;
        };
        let before = low[..at].trim_end();
        let after = low[at + 1 + digits.len()..].trim_start();
        let by_before = BEFORE
            .iter()
            .filter(|(pat, _)| ends_with_words(before, pat))
            .map(|(pat, fig)| (*fig, format!("{pat} ${sum}")));
        let by_after = AFTER
            .iter()
            .filter(|(pat, _)| starts_with_words(after, pat))
            .map(|(pat, fig)| (*fig, format!("${sum} {pat}")));
        if let Some((fig, words)) = by_before.chain(by_after).next() {
            out.push((fig, sum, words));
        }
    }
    out
}

#[test]
fn the_patterns_read_what_they_should() {
    let read = |s: &str| {
        stated(s)
            .into_iter()
            .map(|(f, n, _)| (f, n))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        read("So: owed $40, paid $80."),
        [(Figure::Owed, 40), (Figure::Charged, 80)]
    );
    assert_eq!(
        read("$105 recorded for $65 of orders."),
        [(Figure::Recorded, 105)]
    );
    assert_eq!(
        read("A commits nothing: $55 recorded, $55 charged."),
        [(Figure::Recorded, 55), (Figure::Charged, 55)]
    );
    assert_eq!(read("The books now say $80 too."), [(Figure::Recorded, 80)]);
    assert_eq!(read("$80 for a $40 order, unpaid $40."), []);
}

#[test]
fn every_figure_in_the_words_is_the_worlds_at_that_step() {
    let mut wrong = Vec::new();
    let mut checked = Vec::new();
    for script in builtins() {
        for design in script.strategies() {
            let s = scenario::find(&script.name).unwrap();
            let t = Timeline::build(&s, &Strategy::by_name(&design).unwrap(), 0, &[]).unwrap();
            for f in &t.frames {
                let Some(said) = f.said.as_deref() else {
                    continue;
                };
                for sentence in sentences(said) {
                    for (figure, sum, words) in stated(&sentence) {
                        checked.push(figure);
                        let is = world(f, figure);
                        if is != sum {
                            wrong.push(format!(
                                "{} {design} step {}: {words:?} but the world's {figure:?} figure is ${is}: {sentence:?}",
                                script.name, f.index
                            ));
                        }
                    }
                }
            }
        }
    }
    for figure in [Figure::Recorded, Figure::Charged, Figure::Owed] {
        assert!(
            checked.contains(&figure),
            "no sentence states a {figure:?} figure: the pattern reads nothing"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
