//! An action's authored words (`say`, `say_for`, `say_at`) name their
//! subject: shown at a later step they follow an `At step 2: ` mark, and a
//! pronoun there has nothing before it to stand for. A teacher trial read
//! `At step 2: Its transaction holds SQLite's write lock…` in tour-3's
//! first chapter at 120x40. No built-in scenario's say opens with a
//! pronoun.

use idem::scenario::load::builtins;

/// The words a sentence may not open with: pronouns that need a noun
/// before them. `This time` and the like are no pronoun.
const PRONOUNS: [&str; 10] = [
    "It", "Its", "It's", "This", "They", "Their", "He", "She", "These", "Those",
];

fn opens_with_a_pronoun(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or_default();
    let first = first.trim_end_matches([',', ':', ';', '.']);
    if !PRONOUNS.contains(&first) {
        return false;
    }
    // `This time …`, `This step …`: a determiner before its noun.
    let second = text.split_whitespace().nth(1).unwrap_or_default();
    !(matches!(first, "This" | "These" | "Those")
        && second.starts_with(|c: char| c.is_lowercase())
        && !["is", "was", "means", "leaves", "makes", "holds", "keeps"].contains(&second))
}

#[test]
fn no_say_opens_with_a_pronoun() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for script in builtins() {
        for (c, step) in script.steps.iter().enumerate() {
            for (a, saying) in step.sayings.iter().enumerate() {
                let Some(saying) = saying else { continue };
                let texts = std::iter::once(("say", &saying.text))
                    .chain(saying.text_for.values().map(|t| ("say_for", t)))
                    .chain(
                        saying
                            .at
                            .values()
                            .flat_map(|m| m.values().map(|t| ("say_at", t))),
                    );
                for (kind, text) in texts {
                    seen += 1;
                    if opens_with_a_pronoun(text) {
                        let first: String = text.chars().take(60).collect();
                        wrong.push(format!(
                            "{} chapter {} action {} {kind}: {first}",
                            script.name,
                            c + 1,
                            a + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(seen > 150, "only {seen} says");
    assert!(
        wrong.is_empty(),
        "{} of {seen} says open with a pronoun:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
