//! The first half of reading a design file or a level file: the TOML
//! document into its serde type, with every control character, syntax or
//! type error and missing key told in one pass, before the file's own
//! rules judge what was read. (A scenario has a richer first half of its
//! own: see `load`.)

use super::error::ScenarioErrors;
use super::missing_key::{Missing, MissingKey, told};
use serde::de::DeserializeOwned;
use toml::de::DeTable;

/// A document that read: its value, the keys it lacked (each stood in
/// for, so the rules judge none of them), and the errors already found,
/// told beside whatever the rules find: those keys', and those of any key
/// taken out so that the rest could be read (an unknown key, an optional
/// key of the wrong type).
pub struct Read<T> {
    pub value: T,
    pub missing: Vec<MissingKey>,
    pub already: Option<ScenarioErrors>,
}

/// `text`, the file `file`, read as a `T`; `fill` notes each key the file
/// must have and lacks and puts a stand-in in its place. A document that
/// does not read even with keys taken out gets every error that can be
/// told apart; one with a control character gets those and its missing
/// keys alone, as the rules would only trip over the character again.
/// The keys of a design or a level that may be taken out are all
/// optional, and their defaults make the rules find nothing they would not
/// have found with them (unlike a scenario's consumers or messages).
pub fn read<T: DeserializeOwned>(
    file: &str,
    text: &str,
    fill: fn(&mut DeTable<'_>) -> Vec<Missing>,
) -> Result<Read<T>, ScenarioErrors> {
    let control = super::control::check(file, text).err();
    let mut missing: Option<Vec<Missing>> = None;
    // The first filling finds what the file lacks; a later one, a key of
    // a wrong type taken out (told as such, not as missing).
    let mut fill = |root: &mut DeTable<'_>| match &mut missing {
        None => missing = Some(fill(root)),
        Some(all) => all.extend(super::missing_key::taken(fill(root))),
    };
    let read = super::every_error::deserialize_most(text, &mut fill);
    let missing = missing.unwrap_or_default();
    // Each key the file lacks is told beside every other error: a
    // stand-in took its place.
    let told = told(&missing);
    let lacking = (!told.is_empty()).then(|| ScenarioErrors::at(file, text, told));
    let (value, already): (T, _) = match read {
        Ok(value) => (value, lacking),
        Err((all, rest)) => {
            // An element taken out of an array, or a wrong value out of
            // one, leaves the rules short: the keys a design or a level
            // may lose otherwise are all optional, with harmless defaults.
            let keys_only =
                all.keys_taken.is_some() && !all.taken.iter().any(|t| t.wrong_in_element());
            let found = super::toml_errors::toml_errors(file, text, all).beside(control.as_ref());
            let found = ScenarioErrors::join(found, lacking);
            match rest.filter(|_| control.is_none() && keys_only) {
                Some(rest) => (rest, found),
                None => return Err(ScenarioErrors::join(control, found).expect("some")),
            }
        }
    };
    if let Some(control) = control {
        return Err(ScenarioErrors::join(Some(control), already).expect("some"));
    }
    Ok(Read {
        value,
        missing: missing.iter().map(|m| m.key).collect(),
        already,
    })
}
