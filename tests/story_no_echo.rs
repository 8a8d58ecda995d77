//! An authored sentence earns its row of the story panel by saying what the
//! step's own line cannot: why the step matters for the pattern. A sentence
//! that only repeats the step's generated line ("B opens its transaction."
//! under "B opens a transaction") is an echo, and no builtin scenario says
//! one, on SQLite or on PostgreSQL.

use crate::common::sentences;
use idem::scenario::load::builtins;
use idem::sim::event::step_told;
use idem::sim::{Frame, Strategy};
use idem::timeline::Timeline;

/// Words that carry no content of their own.
const STOP: &[&str] = &[
    "a", "an", "the", "its", "it", "own", "is", "are", "of", "to", "in", "into", "on", "at", "and",
    "with", "for", "from", "by", "this", "that", "now", "then",
];

/// Words a sentence may use for what the generated line says otherwise:
/// `(authored, generated)`.
const SAME: &[(&str, &str)] = &[("claim", "record"), ("empty", "nothing")];

/// A sentence with more content words than this says something more.
const MOST: usize = 6;

/// A word without its ending, so `opens`, `open` and `opened` are one word.
/// (One word of `SAME` stands for the other.)
fn stem(word: &str) -> String {
    let w = stem_plain(word);
    SAME.iter()
        .find(|(said, _)| stem_plain(said) == w)
        .map_or(w.clone(), |(_, generated)| stem_plain(generated))
}

fn stem_plain(word: &str) -> String {
    let mut w = word.to_lowercase();
    for end in ["ing", "ed", "es", "s"] {
        if w.len() > end.len() + 2 && w.ends_with(end) {
            w.truncate(w.len() - end.len());
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// The words of a text, lower-cased, without the punctuation around them
/// (`m-7f3` and `processed_messages` stay whole).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ';' | '(' | ')' | '"'))
        .map(|t| {
            t.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// Whether `sentence` only repeats `generated`: after dropping stop words
/// and consumer names it has 1..=MOST words, each of them (by stem) in
/// the generated text.
fn echoes(sentence: &str, generated: &str, consumers: &[String]) -> bool {
    let have: Vec<String> = words(generated).iter().map(|w| stem(w)).collect();
    let content: Vec<String> = words(sentence)
        .into_iter()
        .filter(|w| !STOP.contains(&w.as_str()))
        .filter(|w| !consumers.iter().any(|c| c.to_lowercase() == *w))
        .collect();
    !content.is_empty() && content.len() <= MOST && content.iter().all(|w| have.contains(&stem(w)))
}

/// Whether `sentence` retells an event of `generated` in other words: it
/// opens on the same subject and verb up to the event's colon, and says
/// after it two or more of the event's own words (`A commits: the ID and
/// the payment are saved in one transaction.` over `A commits: everything
/// in the transaction is saved together.`): a paraphrase, which `echoes`
/// misses for its new words (`ID`, `payment`, `one`). What the commit
/// saved (`A commits: one payment row, for $40.`) shares none.
fn retells(sentence: &str, generated: &str) -> bool {
    let content = |text: &str| -> Vec<String> {
        words(text)
            .into_iter()
            .filter(|w| !STOP.contains(&w.as_str()))
            .map(|w| stem(&w))
            .collect()
    };
    sentences(generated).iter().any(|event| {
        let Some((head, said)) = event.split_once(": ") else {
            return false;
        };
        let Some(rest) = sentence.strip_prefix(&format!("{head}: ")) else {
            return false;
        };
        let theirs = content(said);
        let mut shared = content(rest);
        shared.retain(|w| theirs.contains(w));
        shared.dedup();
        shared.len() >= 2
    })
}

/// The sentences new at a step of `t` that echo the step's own line.
fn echoes_in(name: &str, design: &str, t: &Timeline) -> Vec<String> {
    let mut found = Vec::new();
    for f in &t.frames[1..] {
        let Some(said) = f.said.as_deref() else {
            continue;
        };
        let generated = generated(f);
        let consumers: Vec<String> = f.consumers.iter().map(|c| c.name.clone()).collect();
        for sentence in sentences(said) {
            if echoes(&sentence, &generated, &consumers) || retells(&sentence, &generated) {
                found.push(format!(
                    "{name} {design} step {}: {sentence:?} beside {generated:?}",
                    f.index
                ));
            }
        }
    }
    found
}

/// What the step's own line says: its events, as the story panel tells them.
fn generated(f: &Frame) -> String {
    step_told(&f.events)
}

#[test]
fn an_echo_is_read_as_defined() {
    let ab = ["A".to_string(), "B".to_string()];
    assert!(echoes(
        "B opens its transaction.",
        "B opens a transaction",
        &ab
    ));
    assert!(echoes(
        "B commits the empty transaction.",
        "B commits: the transaction wrote nothing",
        &ab
    ));
    assert!(echoes(
        "A claims m-7f3 in processed_messages.",
        "A records m-7f3 in processed_messages: first time this ID is seen",
        &ab
    ));
    assert!(!echoes(
        "B's transaction cannot see A's uncommitted work.",
        "B opens a transaction",
        &ab
    ));
    assert!(!echoes(
        "Nothing was written, so the commit changes nothing.",
        "B commits: the transaction wrote nothing",
        &ab
    ));
    assert!(retells(
        "A commits: the ID and the payment are saved in one transaction.",
        "A commits: everything in the transaction is saved together."
    ));
    assert!(!retells(
        "The ID and the payment become visible together, or not at all.",
        "A commits: everything in the transaction is saved together."
    ));
    assert!(!retells(
        "A commits: one payment row, for $40.",
        "A commits: everything in the transaction is saved together."
    ));
    assert!(!echoes(
        "A receives m-7f3 on a 30-second lease.",
        "A receives m-7f3 (order 1042, $40), lease 30s, receipt rh-3b6c",
        &ab
    ));
}

#[test]
fn no_authored_sentence_echoes_its_step() {
    let mut found = Vec::new();
    let mut runs = 0;
    for script in builtins() {
        for design in script.strategies() {
            let t = Timeline::build(&script, &Strategy::by_name(&design).unwrap(), 0, &[]).unwrap();
            found.extend(echoes_in(&script.name, &design, &t));
            runs += 1;
        }
    }
    assert!(runs > 40, "only {runs} runs");
    assert!(
        found.is_empty(),
        "{} echoes:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The same on the PostgreSQL server, whose `@postgres` words are told
/// step by step too; one line and a pass where no server answers.
#[test]
fn on_postgresql_no_authored_sentence_echoes_its_step() {
    let Some(url) = crate::common::server::server() else {
        return;
    };
    let mut found = Vec::new();
    for mut script in builtins() {
        script.setup.postgres = Some(url.clone());
        for design in script.strategies() {
            let t = Timeline::build(&script, &Strategy::by_name(&design).unwrap(), 0, &[]).unwrap();
            found.extend(echoes_in(
                &script.name,
                &format!("{design} on PostgreSQL"),
                &t,
            ));
        }
    }
    assert!(
        found.is_empty(),
        "{} echoes:\n{}",
        found.len(),
        found.join("\n")
    );
}
