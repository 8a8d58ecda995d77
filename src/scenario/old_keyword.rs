//! Keywords a file once wrote for a step and is still read with: the same
//! step, so that an author's file neither breaks nor changes meaning, and
//! a warning at each, so that the author writes the keyword of today.
//!
//! `charge` was the payment row's insert, which teachers read as the
//! card's charge (that is `provider`) and so stopped a run a step early.

use super::step_key::{parse_step_key, step_key};
use crate::sim::{Op, step_name};

/// Each old keyword, the step it still names, and what it was mistaken for.
const OLD: [(&str, Op, &str); 1] = [("charge", Op::ApplyCharge, "the card's charge is `provider`")];

/// The step an old keyword names; `None` for any other word.
pub fn renamed(word: &str) -> Option<Op> {
    OLD.iter()
        .find(|(old, ..)| *old == word)
        .map(|&(_, op, _)| op)
}

/// Every old keyword, for the lists of words a file may write.
pub fn words() -> impl Iterator<Item = &'static str> {
    OLD.iter().map(|&(old, ..)| old)
}

/// The warning for an old keyword: what it still means, what it is not,
/// and the word to write instead.
pub fn warning(word: &str) -> Option<String> {
    let &(old, op, not) = OLD.iter().find(|(old, ..)| *old == word)?;
    let now = op.keyword();
    Some(format!(
        "`{old}` is the old keyword for `{now}` ({}); {not}. Write `{now}`.",
        step_name::name(op)
    ))
}

/// Where an action's text (`run A to charge`) writes an old keyword for
/// its step, as which of its words (counted from 0; the caller turns it
/// into a byte range, as it does every word it points at), and the
/// warning for it.
pub fn in_action(text: &str) -> Option<(usize, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["run", _, "to", step] => Some((3, warning(step)?)),
        _ => None,
    }
}

/// A `say_at` key in today's keyword (`charge#2` is `payment#2`), and the
/// warning when it was written with an old one.
pub fn step_key_now(key: &str) -> (String, Option<String>) {
    match parse_step_key(key) {
        Some((word, n)) => match renamed(word) {
            Some(op) => (step_key(op.keyword(), n), warning(word)),
            None => (key.to_string(), None),
        },
        None => (key.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_keyword_is_no_keyword_of_today() {
        for old in words() {
            assert!(!Op::keywords().contains(&old), "{old}");
            assert!(step_name::op_named(old).is_none(), "{old}");
        }
    }

    #[test]
    fn an_old_keyword_is_found_in_an_action_and_a_say_at_key() {
        let (word, said) = in_action("run  A to charge").unwrap();
        assert_eq!(word, 3);
        assert!(said.starts_with("`charge` is the old keyword for `payment`"));
        assert!(in_action("run A to payment").is_none());
        assert!(in_action("run A to charge the card").is_none());
        assert_eq!(step_key_now("charge#2").0, "payment#2");
        assert_eq!(step_key_now("commit"), ("commit".to_string(), None));
    }
}
