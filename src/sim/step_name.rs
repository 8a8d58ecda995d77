//! How a step is named in words: a handler's step by the name the step
//! list shows it under, and a step of the run by its number. One file, so
//! that the status line, the step list, predict mode and the scenario
//! language all say `charge the card` for the same step, and so that a
//! cause and an admission can use it without importing each other.

use super::strategy::Op;

/// A step of the run in words. Alone a run says `step 7`; where two runs
/// are shown side by side, each counting its own steps, a step is named as
/// the moment both stand at (`naive step 7, idempotent 8`), so that the
/// same event reads the same on both sides.
pub type StepWords<'a> = &'a dyn Fn(usize) -> String;

/// `step 7`: a step of the one run on show.
pub fn plain_step(step: usize) -> String {
    format!("step {step}")
}

/// What the step list adds to a provider call that carries the message ID
/// as its Idempotency-Key: evidence about this design's call, not part of
/// the step's name, so a name reads the same under every design.
pub const KEY_MARK: &str = " (key)";

/// A handler step's name: what the step list shows (before a keyed call's
/// `KEY_MARK`), the status line's `run A to before …` and predict mode's
/// question say, and what a scenario file may write after `run A to`.
pub fn name(op: Op) -> &'static str {
    match op {
        Op::Receive => "receive",
        Op::Begin => "begin transaction",
        Op::ClaimId => "insert message ID",
        Op::CheckId => "look up message ID",
        Op::ApplyCharge => "insert payment row",
        Op::CallProvider { .. } => "charge the card",
        Op::AwaitResponse => "provider response",
        Op::Commit => "commit",
        Op::Ack => "acknowledge",
        Op::CacheClaim => "claim ID in cache",
        Op::CacheCheck => "look up ID in cache",
        Op::CacheSet => "write ID to cache",
        Op::ClaimInProgress => "record in progress",
        Op::MarkCompleted => "mark completed",
        Op::GuardRow => "update row if new message",
        Op::CheckOffset => "read last offset",
        Op::SaveOffset => "save offset",
        Op::ApplyIfNewer => "apply if newer version",
    }
}

/// A handler step's name where its row has no room for the whole of it,
/// nor for its first word beside the mark that tells what happened to
/// the call: the response step at 80x24 read `provi…  409 in progress`
/// and `provi…  never received`, a word broken (issue 18). `response` is
/// what the step waits for, a word of its name (and its keyword), so the
/// step reads as the same one at every size: `answer` at 80x24 beside
/// `provider response` at 100x30 read as two steps (teacher trial).
/// The call goes by `charge` the same way: its cut `charge… (key)` read
/// as a word cut off (`charges`? `charged`?) at 80x24 (teacher trial,
/// tour-4), and `charge (key)  again` is whole and one cell shorter.
/// Teacher trial at 80x24: a name cut after a whole word (`begin…`,
/// `insert payment…`, `mark…`) left a class unable to tell which step it
/// was; each such step goes by a short name of its own words, whole.
/// The payment step goes by its row, not by `payment` alone: charge-first
/// at 80x24 reads `† payment row  never ran` under a card already
/// charged, where `payment  never ran` would say the charge never ran.
/// Its `insert…  never ran` there was `insert message ID` cut, which a
/// class could as well read as the payment row: that step is `insert ID`.
/// None for a step whose cuts at its words' ends serve.
pub fn short_name(op: Op) -> Option<&'static str> {
    match op {
        Op::AwaitResponse => Some("response"),
        Op::CallProvider { .. } => Some("charge"),
        Op::Begin => Some("begin"),
        Op::ClaimId => Some("insert ID"),
        Op::ApplyCharge => Some("payment row"),
        Op::CacheSet => Some("write ID"),
        Op::ClaimInProgress => Some("record"),
        Op::MarkCompleted => Some("completed"),
        Op::GuardRow => Some("update if new"),
        _ => None,
    }
}

/// Where a handler's step acts: `payment` writes the payment row in the
/// database, `provider` charges the card at the provider. `idem validate`
/// says it beside each step a file names, so the two are not mistaken.
pub fn place(op: Op) -> &'static str {
    match op {
        Op::Receive | Op::Ack => "broker",
        Op::CallProvider { .. } | Op::AwaitResponse => "provider",
        Op::CacheClaim | Op::CacheCheck | Op::CacheSet => "cache",
        _ => "database",
    }
}

/// The step list's label: the name, and for a keyed call its `KEY_MARK`.
pub fn label(op: Op) -> &'static str {
    match op {
        Op::CallProvider { with_key: true } => "charge the card (key)",
        other => name(other),
    }
}

/// The step a scenario's word stands for: its keyword (`provider`) or its
/// name (`charge the card`), spaces between words as the name has them.
/// The provider call is one step to a scenario, key or none: the design
/// run decides which.
pub fn op_named(word: &str) -> Option<Op> {
    Op::ALL
        .into_iter()
        .find(|&op| op.keyword() == word || name(op) == word)
}

/// What a check step found when it turned a delivery away (the step's
/// `≠` mark), in the words of what the check itself can know: the key
/// was taken, the ID was found, the offset or version was not newer.
/// Whether the message was a duplicate it cannot tell (content-hash and
/// reused-id turn a genuine second payment away at the same step): that
/// is the observer's knowledge, said under the observer's mark.
pub fn found(keyword: &str) -> &'static str {
    match op_named(keyword) {
        Some(Op::CheckId | Op::CacheCheck) => FOUND[1],
        Some(Op::GuardRow) => FOUND[2],
        Some(Op::CheckOffset | Op::ApplyIfNewer) => FOUND[3],
        // The unique key, the cache's SET NX, the in-progress record.
        _ => FOUND_KEY,
    }
}

/// Every word [`found`] gives, for the help's legend to list them all.
pub const FOUND: [&str; 4] = [FOUND_KEY, "ID found", "row has ID", "not newer"];

/// The `≠` mark's word where no step is named (the help's legend): a
/// claim on a key that another record already holds.
pub const FOUND_KEY: &str = "key taken";

/// The name of the step a scenario's word stands for; the word itself when
/// it names none.
pub fn name_of(word: &str) -> &str {
    match op_named(word) {
        Some(op) => name(op),
        None => word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_its_name_with_at_most_the_key_mark() {
        for op in Op::ALL {
            let rest = label(op)
                .strip_prefix(name(op))
                .expect("starts with the name");
            assert!(rest.is_empty() || rest == KEY_MARK, "{op:?}: {rest}");
        }
    }

    #[test]
    fn names_are_unique_and_never_another_steps_keyword() {
        let names: Vec<&str> = Op::keywords()
            .into_iter()
            .map(|k| name(op_named(k).unwrap()))
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(n), "{n} twice");
            let keyword = op_named(n).unwrap().keyword();
            assert!(
                Op::keywords().iter().all(|k| k != n || *k == keyword),
                "{n} is another step's keyword"
            );
        }
    }

    #[test]
    fn a_keyword_and_a_name_find_the_same_step() {
        assert_eq!(op_named("provider"), op_named("charge the card"));
        assert_eq!(op_named("payment"), op_named("insert payment row"));
        // The old keyword is the scenario layer's to read (`old_keyword`).
        assert_eq!(op_named("charge"), None);
        assert_eq!(name_of("ack"), "acknowledge");
        assert_eq!(name_of("lunch"), "lunch");
    }

    /// A short name is words of the name itself, in the name's order: a
    /// step called `answer` at 80x24 and `provider response` at 100x30
    /// read as two steps (teacher trial). `update if new` is `update row
    /// if new message` with words left out, none changed. No two steps
    /// share one, or two rows would read as the same step.
    #[test]
    fn a_short_name_is_words_of_the_name() {
        // Each short name and the name it stands for.
        let mut shorts = std::collections::BTreeMap::new();
        for op in Op::ALL {
            let Some(short) = short_name(op) else {
                continue;
            };
            let mut words = name(op).split(' ');
            assert!(
                short.split(' ').all(|w| words.any(|n| n == w)),
                "{op:?}: {short:?} is not words of {:?}",
                name(op)
            );
            assert!(short.len() < name(op).len(), "{op:?}: {short:?}");
            // The provider call is in `ALL` twice, keyed and not: one name.
            if let Some(other) = shorts.insert(short, name(op)) {
                assert_eq!(other, name(op), "{short:?} names two steps");
            }
        }
        assert!(shorts.len() > 1);
    }

    #[test]
    fn the_payment_row_and_the_card_are_told_apart_by_place() {
        assert_eq!(place(op_named("payment").unwrap()), "database");
        assert_eq!(place(op_named("provider").unwrap()), "provider");
    }
}
