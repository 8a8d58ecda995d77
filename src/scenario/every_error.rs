//! Reading a TOML document into a serde type with every error a reader
//! has to fix, not only the first: for a document that parses, each type
//! error (a wrong type, an unknown key, a missing key) found by taking the
//! part it is in out of the document and reading it again. A syntax error
//! is the exception: the parser's recovery after one is a guess (a `}`
//! left out takes in every later table), so only the first is kept and
//! the rest are counted.
//!
//! What is taken out is the smallest thing a reader thinks of as one
//! item: an unknown key itself, else the array element the error is in
//! (one action, one message), else the key it is under. Taking a key out can make its table incomplete;
//! that `missing field` is the reader's own doing, not the author's, so it
//! is never reported: the table is taken out in turn.

use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue, Deserializer, Error};

/// Type errors looked for in one document. Each costs a reading of the
/// whole document, and far fewer are ever shown.
pub const MAX_ROUNDS: usize = 100;

/// The errors of a document, in the order they appear in the file (never
/// none).
#[derive(Debug)]
pub struct TomlErrors {
    pub errors: Vec<Error>,
    /// The search for type errors stopped after [`MAX_ROUNDS`] with the
    /// document still wrong: there may be more.
    pub cut_short: bool,
    /// The keys taken out to read the rest, each as its dotted path
    /// (`setup.lease`, `steps[0].naration` for an unknown key in a step),
    /// when only keys were (no array element) and the rest then read: an
    /// unknown key or a wrong value in one table need not hide what is
    /// wrong elsewhere.
    pub keys_taken: Option<Vec<String>>,
    /// Everything taken out, in the order it was: a key as its dotted
    /// path, an array element as its array's path and index
    /// (`steps[0].actions[2]`, the index as it stood once the elements
    /// before it were gone).
    pub taken: Vec<Taken>,
    /// Syntax errors the parser reported after the first, which is the
    /// only one in `errors`: they may only follow from it.
    pub syntax_after: usize,
    /// The errors are the parser's (the document does not parse), not
    /// serde's.
    pub syntax: bool,
}

/// The value `text` holds; or its errors and, when taking things out let
/// the rest read, that rest, for the caller's own rules to check (whether
/// they can do without what was taken is the caller's to judge, from
/// `taken` and `keys_taken`).
///
/// `fill` sees the document first, once it parses: it puts a stand-in for
/// each key the file must have and lacks (see `missing_key`), so that
/// serde reads the rest and a missing key hides nothing else. It sees it
/// again after each thing taken out: a required key of a wrong type taken
/// out gets a stand-in too, and its message or step stays.
pub fn deserialize_most<T: DeserializeOwned>(
    text: &str,
    fill: &mut dyn FnMut(&mut DeTable<'_>),
) -> Result<T, (TomlErrors, Option<T>)> {
    let mut rest = None;
    match read(text, &mut rest, fill) {
        Ok(value) => Ok(value),
        Err(found) => Err((found, rest)),
    }
}

/// The value `text` holds, or its errors. A document with syntax errors
/// gets the first of them alone, with a count of the rest: its types are
/// not looked at, as a recovered tree would only yield errors that fixing
/// the syntax makes go away.
/// `fill` as in [`deserialize_most`]. The readers all take the rest now;
/// the tests here read as this did.
#[cfg(test)]
pub fn deserialize_all<T: DeserializeOwned>(
    text: &str,
    fill: &mut dyn FnMut(&mut DeTable<'_>),
) -> Result<T, TomlErrors> {
    read(text, &mut None, fill)
}

fn read<T: DeserializeOwned>(
    text: &str,
    rest: &mut Option<T>,
    fill: &mut dyn FnMut(&mut DeTable<'_>),
) -> Result<T, TomlErrors> {
    let (mut root, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        // Nothing in the parser's errors says which came of losing its
        // footing at an earlier one, and a wrong guess sends the reader to
        // fix lines that were never wrong: the rest are counted, not shown.
        let mut errors = without_echoes(text, in_file_order(syntax));
        let syntax_after = errors.len() - 1;
        errors.truncate(1);
        return Err(TomlErrors {
            errors,
            cut_short: false,
            keys_taken: None,
            taken: Vec::new(),
            syntax_after,
            syntax: true,
        });
    }
    fill(root.get_mut());
    let mut found = Vec::new();
    let mut taken: Vec<Taken> = Vec::new();
    let mut rounds = 0;
    let cut_short = loop {
        if rounds == MAX_ROUNDS {
            break true;
        }
        rounds += 1;
        let error = match T::deserialize(Deserializer::from(root.clone())) {
            Ok(value) if found.is_empty() => return Ok(value),
            Ok(value) => {
                *rest = Some(value);
                break false;
            }
            Err(error) => error,
        };
        // Nowhere to point, or nothing left to take out (the root): what
        // there was to read has been read.
        let Some(span) = error.span() else {
            if found.is_empty() {
                found.push(error);
            }
            break false;
        };
        // The same error again: taking out did not reach it.
        let again = found
            .iter()
            .any(|e: &Error| e.span() == error.span() && e.message() == error.message());
        if again {
            break false;
        }
        let unknown = error.message().starts_with("unknown field `");
        if !follows_from(&error, &span, &taken) {
            found.push(error);
        }
        // The root's span is empty, at the start of the file, where a key
        // or a table may also start: the root is not in them.
        if span == root.span() {
            break false;
        }
        let Some(path) = path_to(root.get_ref(), &span) else {
            break false;
        };
        let dotted = dotted(root.get_ref(), &path);
        match take_out(&mut root, &path) {
            Some((span, key)) => taken.push(Taken {
                span,
                key,
                dotted,
                unknown,
            }),
            None => break false,
        }
        // A required key taken out gets its stand-in, as a missing one did.
        fill(root.get_mut());
    };
    let keys_taken = taken
        .iter()
        .map(|t| t.key.as_ref().and(t.dotted.clone()))
        .collect::<Option<Vec<String>>>()
        .filter(|_| rest.is_some());
    Err(TomlErrors {
        errors: in_file_order(found),
        cut_short,
        keys_taken,
        taken,
        syntax_after: 0,
        syntax: false,
    })
}

/// Stable: errors at one place keep the order they were found in.
fn in_file_order(mut errors: Vec<Error>) -> Vec<Error> {
    errors.sort_by_key(|e| e.span().map_or(0, |s| s.start));
    errors
}

/// Syntax errors that only say the parser lost its footing after another
/// are left out: a second error on a line (`x = = 1` is an extra `=`, then
/// a stray value), and an error at the start of the line right after one
/// with the same words (an array left open takes in the lines after it,
/// each "missing a comma"; a table opened twice repeats each of its keys).
/// They are one mistake said again, and are not counted among the errors
/// after the first.
fn without_echoes(text: &str, errors: Vec<Error>) -> Vec<Error> {
    let mut kept = Vec::new();
    // The first error of the last line that had any, kept or not.
    let mut head: Option<(usize, String)> = None;
    for error in errors {
        let at = error.span().map_or(0, |s| s.start).min(text.len());
        let keep = match &head {
            None => true,
            Some((before, words)) => {
                let between = text.get(*before..at).unwrap_or_default();
                match between.matches('\n').count() {
                    0 => continue,
                    1 => words != error.message() || !starts_its_line(text, at),
                    _ => true,
                }
            }
        };
        head = Some((at, error.message().to_string()));
        if keep {
            kept.push(error);
        }
    }
    kept
}

fn starts_its_line(text: &str, at: usize) -> bool {
    let before = text.get(..at).unwrap_or_default();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    before[line_start..].trim().is_empty()
}

/// One step down from a table or an array: the key with this span, or the
/// element at this index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(Range<usize>),
    Item(usize),
}

/// What was taken out: from the container with this span, the key with
/// this name, or (`None`) an element of an array; and its dotted path,
/// where it could be followed.
#[derive(Clone, Debug)]
pub struct Taken {
    pub span: Range<usize>,
    pub key: Option<String>,
    pub dotted: Option<String>,
    /// Taken for being an unknown key (not for a wrong value).
    pub unknown: bool,
}

impl Taken {
    /// Whether this is a key of a wrong type inside an array element (a
    /// message's, a step's): the element stays, short of that key.
    pub fn wrong_in_element(&self) -> bool {
        !self.unknown && self.key.is_some() && self.dotted.as_ref().is_none_or(|d| d.contains('['))
    }
}

/// Whether `error` only reports what taking something out did to its
/// container: a key taken out now missing, or any complaint about an
/// array or table as a whole once something was taken out of it. A
/// `missing field` other than a key taken out was missing all along.
fn follows_from(error: &Error, span: &Range<usize>, taken: &[Taken]) -> bool {
    let mut here = taken.iter().filter(|t| t.span == *span).peekable();
    if here.peek().is_none() {
        return false;
    }
    let missing = error
        .message()
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'));
    match missing {
        None => true,
        Some(field) => here.any(|t| t.key.as_deref().is_none_or(|key| key == field)),
    }
}

fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// The steps from the root down to the deepest key or value whose span
/// holds `span`; `None` when only the root does. Every branch is searched:
/// a table written as `[header]` spans its header alone, not its keys.
fn path_to(root: &DeTable<'_>, span: &Range<usize>) -> Option<Vec<Step>> {
    let mut path = Vec::new();
    in_table(root, span, &mut path).then_some(path)
}

fn in_table(table: &DeTable<'_>, span: &Range<usize>, path: &mut Vec<Step>) -> bool {
    for (key, value) in table {
        path.push(Step::Key(key.span()));
        // An error at the key itself (an unknown key) is about the whole
        // entry, even when its value, an `[[array]]` table, starts there too.
        if holds(&key.span(), span) || in_value(value, span, path) {
            return true;
        }
        path.pop();
    }
    false
}

fn in_value(value: &Spanned<DeValue<'_>>, span: &Range<usize>, path: &mut Vec<Step>) -> bool {
    let deeper = match value.get_ref() {
        DeValue::Table(table) => in_table(table, span, path),
        DeValue::Array(items) => items.iter().enumerate().any(|(i, item)| {
            path.push(Step::Item(i));
            let found = in_value(item, span, path);
            if !found {
                path.pop();
            }
            found
        }),
        _ => false,
    };
    deeper || holds(&value.span(), span)
}

/// The keys on `path` joined with dots, an array element by its index
/// (`setup.lease`, `steps[0].naration`, `steps[0].actions[2]`); `None`
/// when it cannot be followed.
fn dotted(root: &DeTable<'_>, path: &[Step]) -> Option<String> {
    let mut names = String::new();
    let mut at: Option<&DeValue<'_>> = None;
    for step in path {
        match step {
            Step::Key(span) => {
                let table = match at {
                    None => root,
                    Some(DeValue::Table(table)) => table,
                    Some(_) => return None,
                };
                let (key, value) = table.iter().find(|(k, _)| k.span() == *span)?;
                if !names.is_empty() {
                    names.push('.');
                }
                names.push_str(key.get_ref());
                at = Some(value.get_ref());
            }
            Step::Item(i) => {
                let Some(DeValue::Array(items)) = at else {
                    return None;
                };
                names.push_str(&format!("[{i}]"));
                at = Some(items.get(*i)?.get_ref());
            }
        }
    }
    Some(names)
}

/// Takes out the last key on `path`, else (it ends at an element) that
/// array element: an unknown key or a wrong value leaves the message, the
/// step or the action it is in, for the rules to read. What it came out
/// of is returned: its span and the key's name (`None`: an element).
fn take_out(
    root: &mut Spanned<DeTable<'_>>,
    path: &[Step],
) -> Option<(Range<usize>, Option<String>)> {
    let key_last = matches!(path.last(), Some(Step::Key(_)));
    let item = path.iter().rposition(|s| matches!(s, Step::Item(_)));
    if let Some(at) = item.filter(|_| !key_last) {
        let Step::Item(index) = path[at] else {
            return None;
        };
        let array = value_at(root.get_mut(), &path[..at])?;
        let span = array.span();
        let DeValue::Array(items) = array.get_mut() else {
            return None;
        };
        let kept: DeArray<'_> = std::mem::replace(items, DeArray::new())
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| (i != index).then_some(item))
            .collect();
        *items = kept;
        return Some((span, None));
    }
    let (Step::Key(key), above) = path.split_last()? else {
        return None;
    };
    let (table, span) = if above.is_empty() {
        let span = root.span();
        (root.get_mut(), span)
    } else {
        let value = value_at(root.get_mut(), above)?;
        let span = value.span();
        match value.get_mut() {
            DeValue::Table(table) => (table, span),
            _ => return None,
        }
    };
    let name = table
        .iter()
        .find(|(k, _)| k.span() == *key)
        .map(|(k, _)| k.get_ref().to_string())?;
    table.remove(name.as_str());
    Some((span, Some(name)))
}

fn value_at<'a, 'i>(
    root: &'a mut DeTable<'i>,
    path: &[Step],
) -> Option<&'a mut Spanned<DeValue<'i>>> {
    let (Step::Key(first), rest) = path.split_first()? else {
        return None;
    };
    let mut at = root.iter_mut().find(|(k, _)| k.span() == *first)?.1;
    for step in rest {
        at = match (step, at.get_mut()) {
            (Step::Key(key), DeValue::Table(table)) => {
                table.iter_mut().find(|(k, _)| k.span() == *key)?.1
            }
            (Step::Item(i), DeValue::Array(items)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        title: String,
        setup: Setup,
        #[serde(default)]
        steps: Vec<Step>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Setup {
        #[serde(default)]
        lease: Option<String>,
        messages: Vec<Message>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Message {
        id: String,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Step {
        title: String,
        #[serde(default)]
        actions: Vec<String>,
    }

    /// Each error as `line:column message`, the column in characters.
    fn places(text: &str) -> Vec<String> {
        let found = deserialize_all::<Doc>(text, &mut |_| {}).expect_err("the document is wrong");
        found
            .errors
            .iter()
            .map(|e| {
                let at = e.span().map_or(0, |s| s.start);
                let line = text[..at].matches('\n').count() + 1;
                let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let column = text[start..at].chars().count() + 1;
                format!("{line}:{column} {}", e.message())
            })
            .collect()
    }

    /// Each search costs a round a wrong element (a message that is no
    /// table is taken out at once; a wrong key in one costs a round for
    /// the key, then one for the element it leaves short).
    #[test]
    fn a_search_that_ends_is_not_cut_short() {
        let bad = vec!["1"; MAX_ROUNDS - 1].join(", ");
        let text = format!("title = \"t\"\n[setup]\nmessages = [{bad}]\n");
        let found = deserialize_all::<Doc>(&text, &mut |_| {}).unwrap_err();
        assert_eq!(
            (found.errors.len(), found.cut_short),
            (MAX_ROUNDS - 1, false)
        );
        // Ended by a key missing all along, at the root.
        let found = deserialize_all::<Doc>("[setup]\nmessages = []\n", &mut |_| {}).unwrap_err();
        assert_eq!((found.errors.len(), found.cut_short), (1, false));
    }

    #[test]
    fn a_sound_document_reads() {
        let doc: Doc = deserialize_all(
            "title = \"t\"\n[setup]\nlease = \"5s\"\nmessages = [{ id = \"a\" }]\n[[steps]]\ntitle = \"go\"\nactions = [\"run A\"]\n",
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(doc.title, "t");
        assert_eq!(doc.setup.lease.as_deref(), Some("5s"));
        assert_eq!(doc.setup.messages[0].id, "a");
        assert_eq!(doc.steps[0].title, "go");
        assert_eq!(doc.steps[0].actions, ["run A"]);
    }

    /// How many syntax errors were counted after the first.
    fn after(text: &str) -> usize {
        deserialize_all::<Doc>(text, &mut |_| {})
            .unwrap_err()
            .syntax_after
    }

    /// The first syntax error alone, the others counted; the types are
    /// not looked at.
    #[test]
    fn the_first_syntax_error_is_reported_and_the_types_are_not_looked_at() {
        let text = "title = \"t\nsetup = 5\nx = = 1\n[steps\ny = 2\n";
        let found = places(text);
        let lines: Vec<&str> = found.iter().map(|f| f.split(':').next().unwrap()).collect();
        assert_eq!(lines, ["1"], "{found:#?}");
        assert_eq!(after(text), 2);
    }

    /// An array left open makes the parser complain at each line after
    /// it: those echoes are not even counted.
    #[test]
    fn an_array_left_open_is_one_error_not_one_a_line() {
        let text = "title = \"t\"\nx = [1\n[setup]\nlease = \"5s\"\ny = 2\nz = [3 4]\n";
        let found = places(text);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("3:1 missing comma"), "{found:#?}");
        assert_eq!(after(text), 0);
    }

    /// The same mistake on lines one after another: the first shown, the
    /// second counted (the parser cannot say it is not an echo).
    #[test]
    fn the_same_slip_on_two_lines_is_one_shown_and_one_counted() {
        let text = "title = \"t\"\nx = [1 2]\ny = [3 4]\n";
        assert_eq!(places(text).len(), 1);
        assert_eq!(after(text), 1);
    }

    #[test]
    fn a_table_opened_twice_is_one_error_not_one_a_key() {
        let text = "title = \"t\"\n[setup]\nlease = \"5s\"\nmessages = []\n[setup]\nlease = \"5s\"\nmessages = []\n";
        let found = places(text);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("5:2 duplicate key"), "{found:#?}");
        assert_eq!(after(text), 0);
    }

    #[test]
    fn a_wrong_element_of_an_array_is_taken_out_alone() {
        let text = "title = \"t\"\n[setup]\nmessages = [{ id = 1 }, { id = \"b\" }, { id = true }]\n\
                    [[steps]]\ntitle = \"a\"\nactions = [\"run A\", 3]\n\
                    [[steps]]\ntitle = 2\n";
        assert_eq!(
            places(text),
            [
                "3:20 invalid type: integer `1`, expected a string",
                "3:46 invalid type: boolean `true`, expected a string",
                "6:21 invalid type: integer `3`, expected a string",
                "8:9 invalid type: integer `2`, expected a string",
            ]
        );
    }

    #[test]
    fn an_unknown_key_and_a_wrong_type_in_other_tables() {
        let text = "title = \"t\"\n[setup]\nlese = \"5s\"\nmessages = []\n\
                    [[steps]]\ntitle = \"a\"\nactions = 5\n";
        let found = places(text);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(
            found[0].starts_with("3:1 unknown field `lese`"),
            "{found:#?}"
        );
        assert!(
            found[1].starts_with("7:11 invalid type: integer `5`"),
            "{found:#?}"
        );
    }

    /// `messages` taken out leaves `[setup]` without it: that is not the
    /// author's error, and `[setup]` goes in turn, then the search ends at
    /// the root, which cannot be taken out.
    #[test]
    fn an_unknown_array_of_tables_is_taken_out_whole() {
        let text = "[[colour]]\nid = 1\n";
        let errors = deserialize_all::<Doc>(text, &mut |_| {})
            .unwrap_err()
            .errors;
        let said: Vec<String> = errors.iter().map(|e| e.message().to_string()).collect();
        assert!(
            said.iter().any(|m| m.starts_with("unknown field `colour`")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|m| m.contains("missing field `title`")),
            "{said:?}"
        );
    }

    /// Keys alone taken out: the rest is read and handed back, with the
    /// keys' paths; an element taken out leaves `keys_taken` empty, for
    /// the caller to judge the rest by `taken`.
    #[test]
    fn the_rest_is_read_when_only_keys_were_taken_out() {
        let text = "title = \"t\"\n[setup]\nlese = \"5s\"\nmessages = [{ id = \"a\" }]\n";
        let (found, rest) = deserialize_most::<Doc>(text, &mut |_| {}).unwrap_err();
        assert_eq!(found.keys_taken, Some(vec!["setup.lese".to_string()]));
        assert_eq!(rest.unwrap().setup.messages[0].id, "a");
        let text = "title = \"t\"\n[setup]\nmessages = [{ id = 1 }, { id = \"b\" }]\n";
        let (found, rest) = deserialize_most::<Doc>(text, &mut |_| {}).unwrap_err();
        // The element went (the test's reader stands nothing in for its
        // `id`): no keys alone, though the rest read.
        assert_eq!((found.keys_taken, rest.is_some()), (None, true));
    }

    /// An unknown key in a message or a step is taken out alone: the
    /// element stays, and the rest reads.
    #[test]
    fn an_unknown_key_in_an_element_is_taken_out_alone() {
        let text = "title = \"t\"\n[setup]\nmessages = [{ id = \"a\", colour = 1 }]\n\
                    [[steps]]\ntitle = \"go\"\nnaration = \"x\"\n";
        let (found, rest) = deserialize_most::<Doc>(text, &mut |_| {}).unwrap_err();
        assert_eq!(
            found.keys_taken,
            Some(vec![
                "setup.messages[0].colour".to_string(),
                "steps[0].naration".to_string()
            ])
        );
        let rest = rest.unwrap();
        assert_eq!(
            (
                rest.setup.messages[0].id.as_str(),
                rest.steps[0].title.as_str()
            ),
            ("a", "go")
        );
    }

    #[test]
    fn a_key_taken_out_is_not_reported_missing() {
        let found = places("title = \"t\"\n[setup]\nmessages = 5\n");
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with("3:12 invalid type"), "{found:#?}");
    }

    /// A key missing before anything was taken out is the author's.
    #[test]
    fn a_key_missing_all_along_is_reported_beside_a_wrong_one() {
        let found = places("[setup]\nlease = 5\n");
        assert_eq!(found.len(), 3, "{found:#?}");
        // Both where their tables start: the root, and `[setup]` on line 1.
        assert!(
            found[0].starts_with("1:1 missing field `messages`"),
            "{found:#?}"
        );
        assert!(
            found[1].starts_with("1:1 missing field `title`"),
            "{found:#?}"
        );
        assert!(found[2].starts_with("2:9 invalid type"), "{found:#?}");
    }

    #[test]
    fn the_search_stops_after_its_rounds() {
        let bad = vec!["1"; MAX_ROUNDS + 20].join(", ");
        let text = format!("title = \"t\"\n[setup]\nmessages = [{bad}]\n");
        let found = deserialize_all::<Doc>(&text, &mut |_| {}).unwrap_err();
        assert!(found.cut_short);
        let errors = found.errors;
        assert_eq!(errors.len(), MAX_ROUNDS);
        let starts: Vec<usize> = errors.iter().map(|e| e.span().unwrap().start).collect();
        assert!(starts.is_sorted(), "not in file order: {starts:?}");
    }
}
