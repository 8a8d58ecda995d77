//! A handler design written as data: a name, a one-line summary and the
//! handler's steps in order, by the keywords scenario files use.
//!
//! ```toml
//! name = "mine"
//! summary = "the ID and the payment in one transaction"
//! steps = ["receive", "begin", "claim", "payment", "provider with key",
//!          "response", "commit", "ack"]
//! ```
//!
//! A list the engine could not run as a handler at all (see `runnable`) is
//! refused here, each reason at its line and column; a list it can run is accepted
//! even when it is wrong, for the prover to break.

use super::error::{ScenarioError, ScenarioErrors};
use super::load::LoadError;
use super::missing_key::{MissingKey, fill_design};
use super::runnable::{MAX_STEPS, program_all};
use super::step_words::{op_of, step_word, unknown_step};
use super::warning::{ScenarioWarning, Warned};
use crate::sim::Strategy;
use serde::Deserialize;
use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use toml::Spanned;

/// Characters in a design's name and in its summary.
pub const MAX_NAME: usize = 40;
pub const MAX_SUMMARY: usize = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDesign {
    name: Spanned<String>,
    summary: Spanned<String>,
    /// The learner's claim; the prover holds the design to it.
    #[serde(default = "yes")]
    claims_safe: bool,
    steps: Spanned<Vec<Spanned<String>>>,
}

fn yes() -> bool {
    true
}

/// Whether the file at `path` is a design file rather than a scenario:
/// it names a design (`name`) and has no scenario `title`. A file that
/// cannot be read or parsed is left to the scenario reader's errors.
pub fn is_design_file(path: &Path) -> bool {
    let Ok(text) = super::file::read(path) else {
        return false;
    };
    let (root, _) = toml::de::DeTable::parse_recoverable(&text);
    let root = root.get_ref();
    root.contains_key("name") && !root.contains_key("title")
}

/// Reads a design file from a path; one that does not validate gets every
/// error that can be told apart.
pub fn load(path: &Path) -> Result<Strategy, LoadError> {
    load_warned(path).map(|read| read.value)
}

/// As [`load`], with the warnings of a file that loads (an old keyword):
/// for the commands that read a learner's design to print.
pub fn load_warned(path: &Path) -> Result<Warned<Strategy>, LoadError> {
    let text = super::file::read(path)?;
    Ok(parse_all_warned(&path.display().to_string(), &text)?)
}

/// A design from the text of a file called `file`, or the first error in
/// the file.
pub fn parse(file: &str, text: &str) -> Result<Strategy, ScenarioError> {
    parse_all(file, text).map_err(ScenarioErrors::into_first)
}

/// A design from the text of a file called `file`, or its errors in file
/// order: control characters, else TOML syntax, else types and keys, else
/// whatever is wrong with the name, the summary and the steps, each on its
/// own.
pub fn parse_all(file: &str, text: &str) -> Result<Strategy, ScenarioErrors> {
    parse_all_warned(file, text).map(|read| read.value)
}

/// As [`parse_all`], with the warnings of a design that reads.
pub fn parse_all_warned(file: &str, text: &str) -> Result<Warned<Strategy>, ScenarioErrors> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    let super::read_document::Read {
        value: raw,
        missing,
        already,
    } = super::read_document::read::<RawDesign>(file, text, fill_design)?;
    let warnings = old_keywords(&raw, text, &err);
    let found = match rules(raw, &err, &missing) {
        Ok(design) if already.is_none() => return Ok(Warned::new(design, warnings)),
        Ok(_) => None,
        Err(found) => (!found.is_empty()).then(|| ScenarioErrors::new(found)),
    };
    let all = ScenarioErrors::join(found, already).expect("some");
    // The warnings of a design with errors are told among them.
    let warnings = warnings.into_iter().map(ScenarioWarning::into_place);
    Err(all.with_warnings(warnings.collect()))
}

/// A warning at each step written with an old keyword, its caret under
/// the word.
fn old_keywords(
    raw: &RawDesign,
    text: &str,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
) -> Vec<ScenarioWarning> {
    raw.steps
        .get_ref()
        .iter()
        .filter_map(|step| {
            let word = step.get_ref();
            let message = super::old_keyword::warning(word)?;
            let at = super::value_place::inside(text, step.span(), word, Some(0..word.len()));
            Some(ScenarioWarning::placed(err(Some(at), message)))
        })
        .collect()
}

/// What is wrong with the name, the summary and the steps of a design that
/// reads as TOML, each at its place; an empty list when the only trouble is
/// a key the file lacks (told by the caller). A stand-in is not judged: it
/// is no name, and no steps are no list of steps to judge.
fn rules(
    raw: RawDesign,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    missing: &[MissingKey],
) -> Result<Strategy, Vec<ScenarioError>> {
    let mut errors = Vec::new();
    let name = raw.name.get_ref();
    let judged = !missing.contains(&MissingKey::DesignName);
    if judged
        && (name.is_empty()
            || name.chars().count() > MAX_NAME
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
    {
        errors.push(err(
            Some(raw.name.span()),
            format!("a design's name is 1 to {MAX_NAME} of a-z, 0-9 and `-`, like `my-handler`"),
        ));
    } else if judged && Strategy::by_name(name).is_some() {
        errors.push(err(
            Some(raw.name.span()),
            format!("`{name}` is a built-in design's name: give yours another"),
        ));
    }
    let summary = raw.summary.get_ref();
    if summary.contains('\n') || summary.chars().count() > MAX_SUMMARY {
        errors.push(err(
            Some(raw.summary.span()),
            format!("the summary is one line of at most {MAX_SUMMARY} characters"),
        ));
    }
    let words: Vec<&str> = raw
        .steps
        .get_ref()
        .iter()
        .map(|s| s.get_ref().as_str())
        .collect();
    // Every word that is no step, each at its place: the order rules can
    // only be judged once all are known.
    let spans = raw.steps.get_ref();
    let unknown: Vec<ScenarioError> = words
        .iter()
        .zip(spans)
        .filter(|(word, _)| op_of(word).is_none())
        .map(|(word, at)| err(Some(at.span()), unknown_step(word)))
        .collect();
    if !unknown.is_empty() && words.len() <= MAX_STEPS {
        errors.extend(unknown);
        return Err(errors);
    }
    if missing.contains(&MissingKey::DesignSteps) {
        return Err(errors);
    }
    let program = program_all(&words).map_err(|all| {
        all.into_iter()
            .map(|e| {
                let span = match e.at {
                    Some(i) => raw.steps.get_ref()[i].span(),
                    None => raw.steps.span(),
                };
                err(Some(span), e.message)
            })
            .collect::<Vec<_>>()
    });
    match program {
        Ok(program) if errors.is_empty() && missing.is_empty() => Ok(Strategy {
            name: Cow::Owned(name.clone()),
            summary: Cow::Owned(summary.clone()),
            claims_safe: raw.claims_safe,
            program,
        }),
        Ok(_) => Err(errors),
        Err(all) => {
            errors.extend(all);
            Err(errors)
        }
    }
}

/// A design as a file `parse` reads back: how the level screen and the
/// levels' tests write one down.
pub fn to_toml(strategy: &Strategy) -> String {
    let steps: Vec<String> = strategy
        .program
        .iter()
        .map(|&op| format!("    {:?},", step_word(op)))
        .collect();
    format!(
        "name = {:?}\nsummary = {:?}\nsteps = [\n{}\n]\n",
        strategy.name.as_ref(),
        strategy.summary.as_ref(),
        steps.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::runnable::program;

    #[test]
    fn every_builtin_design_is_a_valid_program_and_round_trips() {
        for s in Strategy::all() {
            let words: Vec<&str> = s.program.iter().map(|&op| step_word(op)).collect();
            assert_eq!(program(&words).as_ref(), Ok(&s.program), "{}", s.name);
            let mine = Strategy {
                name: Cow::Owned(format!("my-{}", s.name)),
                ..s.clone()
            };
            let back = parse("d.toml", &to_toml(&mine)).unwrap();
            assert_eq!(
                back,
                Strategy {
                    claims_safe: true,
                    ..mine
                }
            );
        }
    }
}
