//! A level file: TOML, its step lists in a design file's words, refused at
//! line and column like every other file idem reads, every error in one
//! pass.

use super::{Fault, Level};
use crate::scenario::load::LoadError;
use crate::scenario::missing_key::{MissingKey, fill_level};
use crate::scenario::step_words::{op_of, unknown_step};
use crate::scenario::{ScenarioError, ScenarioErrors, ScenarioWarning, Warned};
use crate::scenario::{read_document, runnable, value_place};
use crate::sim::{Op, Outcome};
use serde::Deserialize;
use std::ops::Range;
use std::path::Path;
use toml::Spanned;

/// A level file as TOML reads it. Its required keys are
/// `missing_key::LEVEL_KEYS`, stood in for when a file lacks one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLevel {
    title: String,
    goal: String,
    about: Spanned<String>,
    #[serde(default)]
    faults: Option<Vec<Spanned<String>>>,
    hint: String,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    forbid: Vec<Spanned<String>>,
    #[serde(default)]
    palette: Option<Vec<Spanned<String>>>,
    start: Spanned<Vec<Spanned<String>>>,
    solution: Spanned<Vec<Spanned<String>>>,
}

/// What a level offers to add when its file names no palette: the blocks
/// of the write-up's designs that keep their state in the database.
const PALETTE: [Op; 10] = [
    Op::Receive,
    Op::Begin,
    Op::ClaimId,
    Op::CheckId,
    Op::ApplyCharge,
    Op::CallProvider { with_key: true },
    Op::CallProvider { with_key: false },
    Op::AwaitResponse,
    Op::Commit,
    Op::Ack,
];

/// Whether the file at `path` is a level file: it has a level's `goal`,
/// `start` or `solution` and no scenario's `setup` or `steps`. A file
/// that cannot be read or parsed is left to the scenario reader's errors.
pub fn is_level_file(path: &Path) -> bool {
    let Ok(text) = crate::scenario::file::read(path) else {
        return false;
    };
    let (root, _) = toml::de::DeTable::parse_recoverable(&text);
    let root = root.get_ref();
    ["goal", "start", "solution"]
        .iter()
        .any(|k| root.contains_key(*k))
        && !["setup", "steps"].iter().any(|k| root.contains_key(*k))
}

/// A level file from a path, with its warnings, or every error it has:
/// what `idem validate` reads a level file with.
pub fn load_warned(path: &Path) -> Result<Warned<Level>, LoadError> {
    let text = crate::scenario::file::read(path)?;
    Ok(parse_warned(&path.display().to_string(), &text)?)
}

/// A level from the text of `file`, whose name is `NN-slug.toml`, or its
/// errors in file order.
pub fn parse(file: &str, text: &str) -> Result<Level, ScenarioErrors> {
    parse_warned(file, text).map(|read| read.value)
}

/// As [`parse`], with the warnings of a level that reads (an old keyword
/// among its steps). Every error is told in one pass, each at its line
/// and column: a key the file lacks beside a wrong `about`, each unknown
/// fault and step word, and every slip of the start's and the solution's
/// order; a key the file lacks is stood in for and not judged.
pub fn parse_warned(file: &str, text: &str) -> Result<Warned<Level>, ScenarioErrors> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    // The number and the slug come from the file's own name, wherever it is.
    let name = Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file);
    let named = name
        .trim_end_matches(".toml")
        .split_once('-')
        .and_then(|(n, s)| Some((n.parse::<usize>().ok()?, s.to_string())));
    let name_error = || {
        err(
            None,
            "a level file is named NN-name.toml, like 01-naive.toml".into(),
        )
    };
    // An unknown key, or an optional one of the wrong type, is taken out
    // and told, and the rest still judged.
    let read = match read_document::read::<RawLevel>(file, text, fill_level) {
        Ok(read) => read,
        Err(found) => {
            let name = named.is_none().then(|| ScenarioErrors::from(name_error()));
            return Err(ScenarioErrors::join(name, Some(found)).expect("some"));
        }
    };
    let raw = read.value;
    let missing = read.missing;
    let warnings = old_keywords(&raw, file, text);
    let mut errors: Vec<ScenarioError> = Vec::new();
    if named.is_none() {
        errors.push(name_error());
    }
    let judged = |key: &'static str| !missing.contains(&MissingKey::Level(key));
    let about = Outcome::parse(raw.about.get_ref()).filter(|o| o.is_failure());
    if about.is_none() && judged("about") {
        errors.push(err(
            Some(raw.about.span()),
            format!(
                "`about` is the failure the level shows: one of {}",
                Outcome::FAILURES.map(Outcome::text).join(", ")
            ),
        ));
    }
    let faults = match &raw.faults {
        None => Fault::ALL.to_vec(),
        Some(list) => list
            .iter()
            .filter_map(|w| {
                let fault = Fault::parse(w.get_ref());
                if fault.is_none() {
                    let words = Fault::ALL.map(Fault::word);
                    errors.push(err(
                        Some(w.span()),
                        format!(
                            "unknown fault `{}`{}: the faults are {}",
                            w.get_ref(),
                            crate::suggest::did_you_mean(w.get_ref(), words),
                            words.join(", ")
                        ),
                    ));
                }
                fault
            })
            .collect(),
    };
    // A list with an unknown word was told at that word, and the level
    // fails: what the rest of it would have been matters no more.
    let forbid = ops_of(&raw.forbid, &err, &mut errors).unwrap_or_default();
    let palette = match &raw.palette {
        Some(list) => ops_of(list, &err, &mut errors).unwrap_or_default(),
        None => PALETTE.to_vec(),
    };
    let palette = palette
        .into_iter()
        .filter(|op| !forbid.contains(op))
        .collect();
    let start = steps(&raw.start, &err, &mut errors, judged("start"));
    let solution = steps(&raw.solution, &err, &mut errors, judged("solution"));
    let all = ScenarioErrors::join(
        (!errors.is_empty()).then(|| ScenarioErrors::new(errors)),
        read.already,
    );
    if let Some(all) = all {
        // The warnings of a level with errors are told among them.
        let warnings = warnings.into_iter().map(ScenarioWarning::into_place);
        return Err(all.with_warnings(warnings.collect()));
    }
    let (Some((number, slug)), Some(about), Some(start), Some(solution)) =
        (named, about, start, solution)
    else {
        unreachable!("each of them, missing, was told as an error");
    };
    Ok(Warned::new(
        Level {
            number,
            slug,
            title: raw.title,
            goal: raw.goal,
            about,
            faults,
            hint: raw.hint,
            rule: raw.rule,
            forbid,
            palette,
            start,
            solution,
        },
        warnings,
    ))
}

/// The handler a list of step words makes: every word that is no step,
/// each at its place, else every slip in their order; `None` when there
/// is an error, or when the list is a stand-in (`judged` false), which
/// was told as a missing key.
fn steps(
    list: &Spanned<Vec<Spanned<String>>>,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    errors: &mut Vec<ScenarioError>,
    judged: bool,
) -> Option<Vec<Op>> {
    if !judged {
        return None;
    }
    ops_of(list.get_ref(), err, errors)?;
    let words: Vec<&str> = list
        .get_ref()
        .iter()
        .map(|s| s.get_ref().as_str())
        .collect();
    match runnable::program_all(&words) {
        Ok(program) => Some(program),
        Err(all) => {
            errors.extend(all.into_iter().map(|e| {
                let span = match e.at {
                    Some(i) => list.get_ref()[i].span(),
                    None => list.span(),
                };
                err(Some(span), e.message)
            }));
            None
        }
    }
}

/// The step each word of `list` names, when every one names a step; each
/// word that names none is told at its place, one error apiece.
fn ops_of(
    list: &[Spanned<String>],
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    errors: &mut Vec<ScenarioError>,
) -> Option<Vec<Op>> {
    let ops: Vec<Op> = list
        .iter()
        .filter_map(|w| {
            let op = op_of(w.get_ref());
            if op.is_none() {
                errors.push(err(Some(w.span()), unknown_step(w.get_ref())));
            }
            op
        })
        .collect();
    (ops.len() == list.len()).then_some(ops)
}

/// A warning at each step word written with an old keyword (`charge`),
/// its caret under the word.
fn old_keywords(raw: &RawLevel, file: &str, text: &str) -> Vec<ScenarioWarning> {
    let lists = [&raw.forbid[..], raw.start.get_ref(), raw.solution.get_ref()];
    let palette = raw.palette.as_deref().unwrap_or_default();
    lists
        .into_iter()
        .chain([palette])
        .flatten()
        .filter_map(|step| {
            let word = step.get_ref();
            let message = crate::scenario::old_keyword::warning(word)?;
            let at = value_place::inside(text, step.span(), word, Some(0..word.len()));
            Some(ScenarioWarning::at(file, text, Some(at), message))
        })
        .collect()
}
