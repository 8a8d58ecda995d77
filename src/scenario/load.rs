//! Loading: a built-in scenario by name or a file by path, parsed and
//! validated into a `Script` (see `script`), or every error it has, each
//! naming the file, line and column.

use super::builtin::{self, BUILTIN};
use super::error::{ScenarioError, ScenarioErrors};
use super::every_error::Taken;
use super::format::RawScenario;
pub use super::load_error::LoadError;
use super::missing_key::{Missing, fill_scenario};
use super::script::Script;
use super::toml_errors::toml_errors;
use super::validator::Validator;
use super::warning::{ScenarioWarning, Warned};
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::path::Path;

/// A built-in scenario by name, or a file by path; a file that does not
/// validate gets every error validation can tell apart.
pub fn find(name_or_path: &str) -> Result<Script, LoadError> {
    find_warned(name_or_path).map(|read| read.value)
}

/// As [`find`], with the warnings of a file that loads (a built-in has
/// none): for the commands that read a learner's file to print.
pub fn find_warned(name_or_path: &str) -> Result<Warned<Script>, LoadError> {
    if let Some(script) = parsed().iter().find(|s| s.name == name_or_path) {
        return Ok(Warned::new(script.clone(), Vec::new()));
    }
    let path = Path::new(name_or_path);
    if path.exists() || name_or_path.ends_with(".toml") {
        let text = super::file::read(path)?;
        return Ok(parse_all_warned(name_or_path, &text)?);
    }
    Err(LoadError::UnknownName {
        name: name_or_path.to_string(),
        known: builtin::names().into_iter().map(String::from).collect(),
    })
}

/// Every built-in scenario, parsed. They are tested, so this cannot fail in a
/// released binary; an error here is a bug and says which file.
pub fn builtins() -> Vec<Script> {
    parsed().to_vec()
}

/// The built-ins parsed once per process: the picker, each new app and
/// every step across scenarios asks for them, and parsing 25 files each
/// time was most of the cost of opening a run.
fn parsed() -> &'static [Script] {
    static PARSED: std::sync::OnceLock<Vec<Script>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        let mut scripts: Vec<Script> = BUILTIN
            .iter()
            .map(|(name, text)| parse(name, text).unwrap_or_else(|e| panic!("built-in {e}")))
            .collect();
        // Stable: ties keep the order of the built-in list.
        scripts.sort_by_key(|s| (s.group, s.order));
        scripts
    })
}

/// The script, or the first error in the file (the one [`parse_all`]
/// lists first).
pub fn parse(file: &str, text: &str) -> Result<Script, ScenarioError> {
    parse_all(file, text).map_err(ScenarioErrors::into_first)
}

/// The script, or its errors in file order. They come in kinds, each
/// looked for only once the one before it found nothing, since a later
/// kind would mostly repeat an earlier error: TOML syntax (the first
/// error, the rest counted); control
/// characters; types, unknown keys and missing keys, beside the scenario's
/// own rules when what was taken out leaves them nothing to trip over (see
/// `rules_can_do_without`), else only once they are gone. Errors in the
/// setup, messages, actions, expectations, narration and questions are
/// all collected in one pass; only a message lost (its ID wrong) holds
/// the steps back.
pub fn parse_all(file: &str, text: &str) -> Result<Script, ScenarioErrors> {
    parse_all_warned(file, text).map(|read| read.value)
}

/// As [`parse_all`], with the warnings of a file that validates.
pub fn parse_all_warned(file: &str, text: &str) -> Result<Warned<Script>, ScenarioErrors> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    // Control characters are reported beside everything else: every
    // message is escaped when it is shown, so an echoed value is harmless.
    // A document that does not parse is left to the parser.
    let control = super::control::check(file, text).err();
    let mut missing: Option<Vec<Missing>> = None;
    // The first filling finds what the file lacks; a later one, a key of
    // a wrong type taken out (told as such, not as missing).
    let mut fill = |root: &mut toml::de::DeTable<'_>| match &mut missing {
        None => missing = Some(fill_scenario(root)),
        Some(all) => all.extend(super::missing_key::taken(fill_scenario(root))),
    };
    let read = super::every_error::deserialize_most(text, &mut fill);
    let missing = missing.unwrap_or_default();
    // Each key the file lacks is told at its table, beside every other
    // error: a stand-in took its place, so nothing else waits on it.
    let told = super::missing_key::told(&missing);
    let lacking = (!told.is_empty()).then(|| ScenarioErrors::at(file, text, told));
    let raw: RawScenario = match read {
        Ok(raw) => raw,
        Err((mut all, rest)) => {
            // Keys whose loss the rules would trip over (every action
            // naming a consumer once the list is gone, every word told for
            // a design once its expectations are) keep them waiting.
            let rules_can_run = control.is_none() && all.taken.iter().all(rules_can_do_without);
            let taken = std::mem::take(&mut all.taken);
            let found = toml_errors(file, text, all).beside(control.as_ref());
            let found = match rest.filter(|_| rules_can_run) {
                // The rules tell the missing keys themselves.
                Some(rest) => {
                    ScenarioErrors::join(found, rules(file, text, &err, rest, missing, taken).err())
                }
                None => ScenarioErrors::join(found, lacking),
            };
            return Err(ScenarioErrors::join(control, found).expect("some"));
        }
    };
    // A value that holds a control character would only fail the checks
    // below again (no consumer `A\u{7}`): they wait until it is gone.
    if let Some(control) = control {
        return Err(ScenarioErrors::join(Some(control), lacking).expect("some"));
    }
    rules(file, text, &err, raw, missing, Vec::new())
}

/// Whether the scenario's rules, run without what was taken out, find
/// only what they would with it (told what was taken, see `Validator`):
/// not so for the setup, the messages or the steps as a whole, all the
/// expectations, or an element of any array but a step's actions and the
/// consumers (a message gone, every action naming it would be wrong). A
/// design's expectations taken out (`naive = "..."`) leave the design
/// named; a wrong value in a message leaves the message; the consumers
/// taken out, whole or one of them, leave every action naming one
/// unjudged (`Validator::consumers_unknown`), so the rest is still
/// checked (`consumers = 3` hid every other error of the file).
fn rules_can_do_without(taken: &Taken) -> bool {
    let Some(path) = taken.dotted.as_deref() else {
        return false;
    };
    if taken.key.is_none() {
        // `steps[0].actions[2]`, or an element inside that action; or
        // `setup.consumers[1]`.
        let action = path.starts_with("steps[")
            && path
                .split_once("].actions[")
                .is_some_and(|(step, _)| !step.contains('.'));
        return action || super::validator::under_consumers(path);
    }
    let whole = ["setup", "setup.messages", "steps", "expect"];
    !whole.contains(&path)
}

/// The scenario's own rules over a file TOML and serde have read.
fn rules(
    file: &str,
    text: &str,
    err: &dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    raw: RawScenario,
    missing: Vec<Missing>,
    taken: Vec<Taken>,
) -> Result<Warned<Script>, ScenarioErrors> {
    // Each missing key is an error from the start: the rules stop where
    // they would for any other, having judged no stand-in.
    let told = super::missing_key::told(&missing).into_iter();
    let lacking = told.map(|(at, message)| err(at, message));
    let validator = Validator {
        text,
        err,
        found: RefCell::new(lacking.collect()),
        warned: RefCell::new(Vec::new()),
        missing: missing.iter().map(|m| m.key).collect(),
        taken,
        consumers_unknown: Cell::new(false),
        messages_gone: Cell::new(false),
    };
    match validator.script(file, raw) {
        Ok(script) => Ok(Warned::new(script, validator.warned.into_inner())),
        Err(last) => {
            let mut all = validator.found.into_inner();
            if !all.contains(&last) {
                all.push(last);
            }
            // The warnings of a file with errors are told among them.
            let warnings = validator.warned.into_inner();
            let warnings = warnings.into_iter().map(ScenarioWarning::into_place);
            Err(ScenarioErrors::new(all).with_warnings(warnings.collect()))
        }
    }
}
