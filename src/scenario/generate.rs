//! Scenario files written by a program: a long run to measure idem at
//! scale (`idem generate`, the `scale` bench), far too long to keep in the
//! repository and the same every time it is written.

use std::fmt::Write;

/// A scenario of `messages` payments handled by consumers A and B, one
/// `run` each, with a lost ack every tenth message and a crash before the
/// commit every fiftieth, so that redeliveries, duplicates and provider
/// replays happen all along the run. Under the idempotent design every
/// order is charged once: the file says so in its expectation.
pub fn many_payments(messages: usize) -> String {
    let messages = messages.max(1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "title = \"{messages} payments\"\n\
         summary = \"A long run: {messages} payments, lost acks and crashes along the way.\"\n\
         design = \"idempotent\"\n\
         intro = \"Written by idem generate, to measure a long run.\"\n\n\
         [setup]\nconsumers = [\"A\", \"B\"]\nlease = \"30s\"\nstep = \"1s\"\nmessages = ["
    );
    let mut total: u64 = 0;
    for i in 1..=messages {
        let amount = 10 + (i % 90) as u64;
        total += amount;
        let _ = writeln!(
            out,
            "  {{ id = \"m-{i:05}\", order = {}, amount = {amount} }},",
            100_000 + i
        );
    }
    out.push_str("]\n");
    // Chapters of a hundred messages each.
    let chapter = 100;
    let mut faults = 0;
    for start in (1..=messages).step_by(chapter) {
        let _ = writeln!(
            out,
            "\n[[steps]]\ntitle = \"Messages {start} to {}\"\nnarration = \"A and B take turns.\"\nactions = [",
            (start + chapter - 1).min(messages)
        );
        for i in start..(start + chapter).min(messages + 1) {
            let who = if i % 2 == 0 { "B" } else { "A" };
            if i % 50 == 0 {
                let _ = writeln!(out, "  \"run {who} to commit\", \"crash {who}\",");
                faults += 1;
            } else if i % 10 == 0 {
                let _ = writeln!(out, "  \"lose-ack {who}\", \"run {who}\",");
                faults += 1;
            } else {
                let _ = writeln!(out, "  \"run {who}\",");
            }
        }
        out.push_str("]\n");
    }
    // Whatever is still leased comes back once its lease runs out: a run
    // for each redelivery, and one more each to find the queue empty.
    let _ = writeln!(
        out,
        "\n[[steps]]\ntitle = \"The redeliveries\"\nnarration = \"Leases run out; the last copies come back.\"\nactions = [\"wait 30s\","
    );
    for i in 0..faults + 2 {
        let who = if i % 2 == 0 { "A" } else { "B" };
        let _ = writeln!(out, "  \"run {who}\",");
    }
    out.push_str("]\n");
    let _ = writeln!(
        out,
        "\n[expect.idempotent]\ntotal = {total}\ncharges = {messages}\noutcome = \"correct\""
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_scenario_is_valid_and_holds_its_expectation() {
        let text = many_payments(120);
        let script = crate::scenario::parse("many.toml", &text).unwrap();
        assert_eq!(script.setup.messages.len(), 120);
        let strategy = crate::sim::Strategy::by_name("idempotent").unwrap();
        let timeline = crate::timeline::Timeline::build(&script, &strategy, 0, &[]).unwrap();
        let misses = timeline.misses(&script.expect["idempotent"]);
        assert!(misses.is_empty(), "{misses:?}");
        let end = &timeline.last().counters;
        assert!(end.duplicates_skipped >= 10, "{end:?}");
    }

    #[test]
    fn the_largest_generated_scenario_is_within_the_limits() {
        let text = many_payments(crate::scenario::limits::MAX_MESSAGES);
        assert!(text.len() as u64 <= crate::scenario::limits::MAX_FILE_BYTES);
        crate::scenario::parse("many.toml", &text).unwrap();
    }
}
