//! Keys a file must have, looked for in the document before serde reads
//! it. Serde stops at the first missing key of the top level and reads
//! nothing further, so a file without its `title` heard of nothing else;
//! here each missing key is noted at its table (the file itself for the
//! top level) and a stand-in is put in its place, so that serde and the
//! rules read the rest and the file's other errors come out of the same
//! run. The rules are told which keys were stood in for, and so judge no
//! stand-in (an empty `actions` is not "a step with no actions").

use std::borrow::Cow;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

/// A key a file must have and lacks: a message or a step by its place in
/// its array, as serde reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissingKey {
    Title,
    Summary,
    Setup,
    Messages,
    MessageId(usize),
    MessageOrder(usize),
    StepTitle(usize),
    StepActions(usize),
    DesignName,
    DesignSummary,
    DesignSteps,
    /// A level file's key, by its name (`goal`, `start`, ...).
    Level(&'static str),
}

/// A missing key and where it is told: its table's place, or `None` for
/// the top level, told at the file's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub key: MissingKey,
    pub at: Option<Range<usize>>,
    /// The table has a near miss of it (`titel`), whose unknown key's
    /// error already says `did you mean `title`?`: not told again.
    pub misspelt: bool,
    /// The key was in the file with a value of the wrong type, taken out
    /// so that the rest could be read: its own error is told, not this.
    pub taken: bool,
}

/// Keys stood in for after one of a wrong type was taken out: noted for
/// the rules, which judge no stand-in, and never told as missing.
pub fn taken(missing: Vec<Missing>) -> impl Iterator<Item = Missing> {
    missing.into_iter().map(|m| Missing { taken: true, ..m })
}

/// The errors to tell for these missing keys, each at its place: one a
/// table, naming every key it lacks (`missing keys `title` and `actions`
/// in this [[steps]] table`), a misspelt one left to its own error.
pub fn told(missing: &[Missing]) -> Vec<(Option<Range<usize>>, String)> {
    // Each table's place, its first missing key (whose words say what the
    // table needs) and the names of all it lacks.
    type Table = (Option<Range<usize>>, MissingKey, Vec<&'static str>);
    let mut told: Vec<Table> = Vec::new();
    for m in missing.iter().filter(|m| !m.misspelt && !m.taken) {
        match told.last_mut() {
            Some((at, _, keys)) if *at == m.at => keys.push(m.key.key()),
            _ => told.push((m.at.clone(), m.key, vec![m.key.key()])),
        }
    }
    told.into_iter()
        .map(|(at, first, keys)| {
            let named: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            let (last, rest) = named.split_last().expect("one key at least");
            let head = match rest {
                [] => format!("missing key {last}"),
                _ => format!("missing keys {} and {last}", rest.join(", ")),
            };
            (at, format!("{head}{}", first.table_words()))
        })
        .collect()
}

impl MissingKey {
    /// The key as the file would write it.
    pub fn key(self) -> &'static str {
        use MissingKey::*;
        match self {
            Title | StepTitle(_) => "title",
            Summary | DesignSummary => "summary",
            Setup => "setup",
            Messages => "messages",
            MessageId(_) => "id",
            MessageOrder(_) => "order",
            StepActions(_) => "actions",
            DesignName => "name",
            DesignSteps => "steps",
            Level(name) => name,
        }
    }

    /// Whether the setup's messages are unknown: no action naming one can
    /// be judged.
    pub fn hides_messages(self) -> bool {
        matches!(self, MissingKey::Setup | MissingKey::Messages)
    }
}

impl MissingKey {
    /// What follows the keys' names in the error: the table that lacks
    /// them, and what it needs.
    fn table_words(self) -> &'static str {
        use MissingKey::*;
        match self {
            Title | Summary | Setup => {
                ": a scenario file needs a `title`, a `summary` and a [setup] table with its messages"
            }
            Messages => {
                " in [setup]: the messages to publish, like messages = [{ id = \"m-7f3\", order = 1042, amount = 40 }]"
            }
            MessageId(_) | MessageOrder(_) => {
                " in this message: a message needs an `id` and an `order`"
            }
            StepTitle(_) | StepActions(_) => {
                " in this [[steps]] table: a step needs a `title` and its `actions`"
            }
            DesignName | DesignSummary | DesignSteps => {
                ": a design file needs a `name`, a `summary` and its `steps`"
            }
            Level(_) => {
                ": a level file needs a `title`, a `goal`, an `about`, a `hint`, a `start` and a `solution`"
            }
        }
    }
}

/// Notes each key a scenario file lacks and puts a stand-in in its place.
/// A table of the wrong type is left to serde's own error. A message's
/// `order` gets no stand-in: it is read as optional, and the rules treat
/// a message without one as they do one with a wrong one.
pub fn fill_scenario(root: &mut DeTable<'_>) -> Vec<Missing> {
    let mut missing = Vec::new();
    for (name, key) in [
        ("title", MissingKey::Title),
        ("summary", MissingKey::Summary),
    ] {
        if lacks(root, name, key, None, &mut missing) {
            put(root, name, 0..0, DeValue::String(Cow::Borrowed("")));
        }
    }
    if lacks(root, "setup", MissingKey::Setup, None, &mut missing) {
        let mut setup = DeTable::new();
        put(&mut setup, "messages", 0..0, DeValue::Array(DeArray::new()));
        put(root, "setup", 0..0, DeValue::Table(setup));
    } else if let Some(setup) = root.get_mut("setup") {
        let at = setup.span();
        if let DeValue::Table(setup) = setup.get_mut() {
            messages(setup, at, &mut missing);
        }
    }
    if let Some(steps) = root.get_mut("steps")
        && let DeValue::Array(steps) = steps.get_mut()
    {
        for (index, step) in steps.iter_mut().enumerate() {
            let at = step.span();
            let DeValue::Table(step) = step.get_mut() else {
                continue;
            };
            let key = MissingKey::StepTitle(index);
            if lacks(step, "title", key, Some(at.clone()), &mut missing) {
                put(
                    step,
                    "title",
                    at.clone(),
                    DeValue::String(Cow::Borrowed("")),
                );
            }
            let key = MissingKey::StepActions(index);
            if lacks(step, "actions", key, Some(at.clone()), &mut missing) {
                put(step, "actions", at, DeValue::Array(DeArray::new()));
            }
        }
    }
    missing
}

/// `[setup]`'s messages, and each message's `id` and `order`.
fn messages(setup: &mut DeTable<'_>, at: Range<usize>, missing: &mut Vec<Missing>) {
    if lacks(
        setup,
        "messages",
        MissingKey::Messages,
        Some(at.clone()),
        missing,
    ) {
        put(setup, "messages", at, DeValue::Array(DeArray::new()));
        return;
    }
    let Some(messages) = setup.get_mut("messages") else {
        return;
    };
    let DeValue::Array(messages) = messages.get_mut() else {
        return;
    };
    for (index, message) in messages.iter_mut().enumerate() {
        let at = message.span();
        let DeValue::Table(message) = message.get_mut() else {
            continue;
        };
        let key = MissingKey::MessageId(index);
        if lacks(message, "id", key, Some(at.clone()), missing) {
            put(
                message,
                "id",
                at.clone(),
                DeValue::String(Cow::Borrowed("")),
            );
        }
        lacks(
            message,
            "order",
            MissingKey::MessageOrder(index),
            Some(at),
            missing,
        );
    }
}

/// Notes each key a design file lacks and puts a stand-in in its place.
pub fn fill_design(root: &mut DeTable<'_>) -> Vec<Missing> {
    let mut missing = Vec::new();
    for (name, key, stand_in) in [
        (
            "name",
            MissingKey::DesignName,
            DeValue::String(Cow::Borrowed("")),
        ),
        (
            "summary",
            MissingKey::DesignSummary,
            DeValue::String(Cow::Borrowed("")),
        ),
        (
            "steps",
            MissingKey::DesignSteps,
            DeValue::Array(DeArray::new()),
        ),
    ] {
        if lacks(root, name, key, None, &mut missing) {
            put(root, name, 0..0, stand_in);
        }
    }
    missing
}

/// A level file's keys it must have, each with the stand-in put in its
/// place when it lacks one: a text, or a list of step words.
pub const LEVEL_KEYS: [(&str, bool); 6] = [
    ("title", false),
    ("goal", false),
    ("about", false),
    ("hint", false),
    ("start", true),
    ("solution", true),
];

/// Notes each key a level file lacks and puts a stand-in in its place.
pub fn fill_level(root: &mut DeTable<'_>) -> Vec<Missing> {
    let mut missing = Vec::new();
    for (name, list) in LEVEL_KEYS {
        if lacks(root, name, MissingKey::Level(name), None, &mut missing) {
            let stand_in = if list {
                DeValue::Array(DeArray::new())
            } else {
                DeValue::String(Cow::Borrowed(""))
            };
            put(root, name, 0..0, stand_in);
        }
    }
    missing
}

/// Whether `table` lacks the key `name`; if so it is noted as `key`, told
/// at `at`.
fn lacks(
    table: &DeTable<'_>,
    name: &str,
    key: MissingKey,
    at: Option<Range<usize>>,
    missing: &mut Vec<Missing>,
) -> bool {
    if table.contains_key(name) {
        return false;
    }
    missing.push(Missing {
        key,
        at,
        misspelt: misspelt(table, name),
        taken: false,
    });
    true
}

/// Whether `table` has a key that is a near miss of `name` (`titel`).
fn misspelt(table: &DeTable<'_>, name: &str) -> bool {
    table
        .keys()
        .any(|k| crate::suggest::closest(k.get_ref(), [name]).is_some())
}

/// A stand-in at `at`: where serde would point, were it to find fault.
fn put<'i>(table: &mut DeTable<'i>, name: &'static str, at: Range<usize>, value: DeValue<'i>) {
    table.insert(
        Spanned::new(at.clone(), Cow::Borrowed(name)),
        Spanned::new(at, value),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(MissingKey, Option<Range<usize>>)> {
        let mut root = DeTable::parse(text).unwrap();
        fill_scenario(root.get_mut())
            .into_iter()
            .map(|m| (m.key, m.at))
            .collect()
    }

    #[test]
    fn each_missing_key_is_found_at_its_table_and_stood_in_for() {
        use MissingKey::*;
        assert_eq!(found(""), [(Title, None), (Summary, None), (Setup, None)]);
        let text = "title = \"t\"\nsummary = \"s\"\n[setup]\nconsumers = [\"A\"]\n";
        let setup = text.find("[setup]").unwrap();
        assert_eq!(found(text), [(Messages, Some(setup..setup + 7))]);
        let text = "title = \"t\"\nsummary = \"s\"\n[setup]\nmessages = [{ amount = 1 }]\n[[steps]]\ntitle = \"go\"\n";
        let brace = text.find('{').unwrap();
        let steps = text.find("[[steps]]").unwrap();
        let got = found(text);
        assert_eq!(got[0].0, MessageId(0));
        assert_eq!(got[1].0, MessageOrder(0));
        assert_eq!(got[0].1.as_ref().unwrap().start, brace);
        assert_eq!(got[2].0, StepActions(0));
        assert_eq!(got[2].1.as_ref().unwrap().start, steps);
        // A near miss is noted, for the rules, and not told: the unknown
        // key's error names the key meant.
        let mut root = DeTable::parse("titel = \"t\"\n[[steps]]\n").unwrap();
        let missing = fill_scenario(root.get_mut());
        assert!(missing[0].misspelt && missing[0].key == Title);
        let told: Vec<String> = told(&missing).into_iter().map(|(_, m)| m).collect();
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(
            told[0].starts_with("missing keys `summary` and `setup`: "),
            "{told:?}"
        );
        assert!(
            told[1].starts_with("missing keys `title` and `actions` in this [[steps]] table"),
            "{told:?}"
        );
        // A table of the wrong type is serde's to report.
        assert_eq!(
            found("title = \"t\"\nsummary = \"s\"\nsetup = 5\nsteps = 3\n"),
            []
        );
    }
}
