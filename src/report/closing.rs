//! The lines both transcripts end with (the whole run's and the streamed
//! one's): the broker's counters, where the run first went wrong, and how
//! it compares with the scenario's expectation. Written once, so the two
//! transcripts cannot word them apart.

use crate::sim::counter_words::{
    ACKED, ACKS_LOST, DELIVERED, DUPLICATE_DELIVERIES, REDELIVERED, SKIPPED_KEY_TAKEN,
};
use crate::sim::world::Counters;
use std::fmt::Write;

/// Where the run first went wrong, as `Timeline::went_wrong_at` and
/// `Timeline::first_violation` tell it.
pub(super) struct WentWrong {
    pub first: Option<usize>,
    pub declared: Option<usize>,
}

/// The counters line, the went-wrong line and the expectation's lines;
/// `misses` is `None` when the scenario expects nothing of this design.
pub(super) fn write(
    out: &mut String,
    c: &Counters,
    went_wrong: WentWrong,
    strategy: &str,
    misses: Option<Vec<String>>,
) {
    let _ = writeln!(
        out,
        "  {DELIVERED} {} · {REDELIVERED} {} · {DUPLICATE_DELIVERIES} {} · {SKIPPED_KEY_TAKEN} {}{} · {ACKED} {} · {ACKS_LOST} {} · dead-lettered {} · crashes {}",
        c.delivered,
        c.redeliveries,
        c.duplicates_delivered,
        c.duplicates_skipped,
        not_duplicates(c.skipped_not_duplicates),
        c.acked,
        c.acks_lost,
        c.dead_lettered,
        c.crashes
    );
    if let Some(line) = two_counts(c) {
        let _ = writeln!(out, "  {line}");
    }
    if let (Some(first), Some(declared)) = (went_wrong.first, went_wrong.declared) {
        if first < declared {
            let _ = writeln!(
                out,
                "  first went wrong at step {first}; the verdict could say so for sure at step {declared}"
            );
        } else {
            let _ = writeln!(out, "  first went wrong at step {first}");
        }
    }
    if let Some(misses) = misses {
        if misses.is_empty() {
            let _ = writeln!(out, "expectation for {strategy}: met");
        } else {
            let _ = writeln!(out, "expectation for {strategy}: MISSED");
            for miss in misses {
                let _ = writeln!(out, "  {miss}");
            }
        }
    }
}

/// Where the broker's count of redeliveries and the observer's count of
/// duplicate deliveries differ, what each counts: side by side they read
/// as one figure twice, and a class asks which is wrong (teacher trial
/// 25, race-rollback: `redelivered 1 · duplicate deliveries 0`).
fn two_counts(c: &Counters) -> Option<String> {
    (c.redeliveries != c.duplicates_delivered).then(|| {
        format!(
            "({REDELIVERED}: what the broker handed out again after a lease ran out; \
             {DUPLICATE_DELIVERIES}: deliveries of a message whose work another delivery did)"
        )
    })
}

/// After the handlers' count of skips (they found the key recorded, which
/// is all they know): how many of them were no duplicate but a new
/// message whose key collided, in the observer's words; nothing when every
/// skip was of a real duplicate.
pub(crate) fn not_duplicates(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => " (observer: 1 not a duplicate)".to_string(),
        n => format!(" (observer: {n} not duplicates)"),
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::load::builtins;
    use crate::sim::Strategy;
    use crate::sim::world::Counters;
    use crate::timeline::Timeline;
    use crate::timeline::stream::stream;

    /// The two counts that differ are told apart under the counters; where
    /// they agree, nothing is added.
    #[test]
    fn differing_redeliveries_and_duplicates_say_what_each_counts() {
        let c = Counters {
            redeliveries: 1,
            ..Counters::default()
        };
        let line = super::two_counts(&c).expect("they differ");
        assert!(line.contains("redelivered: what the broker handed out again"));
        assert!(line.contains("duplicate deliveries: deliveries of a message whose work another"));
        let same = Counters {
            redeliveries: 1,
            duplicates_delivered: 1,
            ..Counters::default()
        };
        assert_eq!(super::two_counts(&same), None);
    }

    /// From the counters line on, both transcripts end alike: a run that
    /// went wrong (with its expectation) and one that did not.
    #[test]
    fn both_transcripts_end_with_the_same_lines() {
        let mut endings = 0;
        for script in builtins().into_iter().filter(|s| s.name == "tour-1") {
            for name in ["naive", "idempotent"] {
                let strategy = Strategy::by_name(name).unwrap();
                let expect = script.expect.get(name);
                let timeline = Timeline::build(&script, &strategy, 0, &[]).unwrap();
                let whole = super::super::text::transcript(&timeline, expect);
                let end = stream(&script, &strategy, 0, |_| {}).unwrap();
                let streamed = super::super::stream::end(&end, name, expect);
                let tail = |t: &str| t[t.find("\n  delivered ").expect(name)..].to_string();
                let c = &end.counters;
                assert!(
                    tail(&whole).starts_with(&format!(
                        "\n  delivered {} · redelivered {}",
                        c.delivered, c.redeliveries
                    )),
                    "{name}"
                );
                assert_eq!(tail(&whole), tail(&streamed), "{name}");
                endings += 1;
            }
        }
        assert_eq!(endings, 2);
    }
}
