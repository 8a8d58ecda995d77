//! A claim that the consumer's own check covers what the broker's
//! guarantees miss names its bound in the same sentence: the check holds
//! only while the ID's row is kept (the retention scenario shows a late
//! duplicate charged once its ID was pruned). Teacher trial: dedup-window
//! ended on "the consumer's own check is what covers the rest", no bound.
//! Before the fix: 4 of 4 such sentences unbounded.

use idem::scenario::load::builtins;

/// Every text a scenario's actions say, for every design and step.
fn sayings(script: &idem::scenario::Script) -> Vec<String> {
    let mut all = Vec::new();
    for step in &script.steps {
        all.push(step.narration.clone());
        all.extend(step.narration_for.values().cloned());
        for saying in step.sayings.iter().flatten() {
            all.push(saying.text.clone());
            all.extend(saying.text_for.values().cloned());
            for at in saying.at.values() {
                all.extend(at.values().cloned());
            }
        }
    }
    all
}

#[test]
fn the_consumers_own_check_is_claimed_only_with_its_bound() {
    let (mut seen, mut bad) = (0, Vec::new());
    for script in builtins() {
        for text in sayings(&script) {
            for sentence in crate::common::sentences(&text) {
                if !(sentence.contains("own check") && sentence.contains("cover")) {
                    continue;
                }
                seen += 1;
                let bounded = ["while", "as long as", "so long as", "until"]
                    .iter()
                    .any(|b| sentence.contains(b));
                if !bounded {
                    bad.push(format!("{}: {sentence:?}", script.name));
                }
            }
        }
    }
    assert!(seen > 0, "no sentence claims the consumer's own check");
    assert!(
        bad.is_empty(),
        "{} of {seen} sentences claim it without a bound:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
