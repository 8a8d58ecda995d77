//! The words for a handler's building blocks, one for each of `Op::ALL`
//! (the provider call has one with its key and one without): what design
//! files, level files and the level screen write a handler in.

use crate::sim::Op;
use crate::suggest::did_you_mean;

/// The words a design file uses for each building block, in `Op::ALL`'s
/// order. The provider call is the one step with a parameter, so it has a
/// word for each value.
pub fn step_words() -> Vec<&'static str> {
    Op::ALL.into_iter().map(step_word).collect()
}

/// The word a design file uses for `op`.
pub fn step_word(op: Op) -> &'static str {
    match op {
        Op::CallProvider { with_key: true } => "provider with key",
        Op::CallProvider { with_key: false } => "provider without key",
        other => other.keyword(),
    }
}

/// The building block a word names, if any: an old keyword (`charge`)
/// still names its step, and the design file's reader warns of it.
pub fn op_of(word: &str) -> Option<Op> {
    match word {
        "provider with key" => Some(Op::CallProvider { with_key: true }),
        "provider without key" => Some(Op::CallProvider { with_key: false }),
        "provider" => None,
        other => Op::ALL
            .into_iter()
            .find(|op| op.keyword() == other)
            .or_else(|| super::old_keyword::renamed(other)),
    }
}

/// Why a word is not a step, with the word that was probably meant.
pub fn unknown_step(word: &str) -> String {
    if word == "provider" {
        "say `provider with key` (the message ID as Idempotency-Key) or `provider without key`"
            .to_string()
    } else {
        format!(
            "unknown step `{word}`{}; the steps are {}",
            did_you_mean(word, step_words()),
            step_words().join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_names_its_own_step() {
        let words = step_words();
        for (word, op) in words.iter().zip(Op::ALL) {
            assert_eq!(op_of(word), Some(op), "{word}");
        }
        for (i, word) in words.iter().enumerate() {
            assert!(!words[i + 1..].contains(word), "{word} names two steps");
        }
    }
}
