//! A level file: TOML, its step lists in a design file's words, refused at
//! line and column like every other file idem reads.

use super::{Fault, Level};
use crate::scenario::ScenarioError;
use crate::scenario::runnable;
use crate::scenario::step_words::{op_of, step_words};
use crate::sim::{Op, Outcome};
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

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

/// A level from the text of `file`, named `NN-slug.toml`.
pub fn parse(file: &str, text: &str) -> Result<Level, ScenarioError> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    let stem = file.trim_end_matches(".toml");
    let (number, slug) = stem
        .split_once('-')
        .and_then(|(n, s)| Some((n.parse::<usize>().ok()?, s)))
        .ok_or_else(|| {
            err(
                None,
                "a level file is named NN-name.toml, like 01-naive.toml".into(),
            )
        })?;
    let raw: RawLevel =
        toml::from_str(text).map_err(|e| err(e.span(), e.message().trim().to_string()))?;
    let about = Outcome::parse(raw.about.get_ref())
        .filter(|o| o.is_failure())
        .ok_or_else(|| {
            err(
                Some(raw.about.span()),
                format!(
                    "`about` is the failure the level shows: one of {}",
                    Outcome::FAILURES.map(Outcome::text).join(", ")
                ),
            )
        })?;
    let faults = match &raw.faults {
        None => Fault::ALL.to_vec(),
        Some(list) => list
            .iter()
            .map(|w| {
                Fault::parse(w.get_ref()).ok_or_else(|| {
                    err(
                        Some(w.span()),
                        format!(
                            "unknown fault `{}`: the faults are {}",
                            w.get_ref(),
                            Fault::ALL.map(Fault::word).join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<Vec<Fault>, _>>()?,
    };
    let word = |w: &Spanned<String>| {
        op_of(w.get_ref()).ok_or_else(|| {
            err(
                Some(w.span()),
                format!(
                    "unknown step `{}`{}",
                    w.get_ref(),
                    crate::suggest::did_you_mean(w.get_ref(), step_words())
                ),
            )
        })
    };
    let forbid = raw
        .forbid
        .iter()
        .map(word)
        .collect::<Result<Vec<Op>, _>>()?;
    let palette = match &raw.palette {
        Some(list) => list.iter().map(word).collect::<Result<Vec<Op>, _>>()?,
        None => PALETTE.to_vec(),
    };
    let palette = palette
        .into_iter()
        .filter(|op| !forbid.contains(op))
        .collect();
    let steps = |list: &Spanned<Vec<Spanned<String>>>| {
        let words: Vec<&str> = list
            .get_ref()
            .iter()
            .map(|s| s.get_ref().as_str())
            .collect();
        runnable::program(&words).map_err(|e| {
            let span = match e.at {
                Some(i) => list.get_ref()[i].span(),
                None => list.span(),
            };
            err(Some(span), e.message)
        })
    };
    let start = steps(&raw.start)?;
    let solution = steps(&raw.solution)?;
    Ok(Level {
        number,
        slug: slug.to_string(),
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
    })
}
