//! Checking a file's questions against what every frame of its designs
//! has: a subject the world knows, a message from the setup, a table the
//! design keeps. The answers themselves are computed later, from the run.

use super::engine_key::{POSTGRES_KEY, key_design};
use super::error::ScenarioError;
use super::format::RawAsk;
use super::question::{Question, SUBJECTS, Subject};
use crate::sim::{Op, Setup, Strategy};
use crate::suggest::did_you_mean;
use std::collections::BTreeSet;
use std::ops::Range;

type Err<'a> = &'a dyn Fn(Option<Range<usize>>, String) -> ScenarioError;

/// The question `raw` asks, or what is wrong with it.
pub(super) fn question(
    raw: &RawAsk,
    setup: &Setup,
    named: &BTreeSet<String>,
    err: Err,
) -> Result<Question, ScenarioError> {
    let (subject, why) = asked(raw, setup, err).map_err(|mut all| all.remove(0))?;
    let fail = |span: Range<usize>, message: String| Err(err(Some(span), message));
    let unknown = |name: &str| !named.contains(name);
    let designs = match &raw.designs {
        None => Vec::new(),
        Some(d) => {
            if d.get_ref().is_empty() {
                return fail(
                    d.span(),
                    "`designs` is empty: name at least one, or leave it out for every design"
                        .into(),
                );
            }
            if let Some(name) = d.get_ref().iter().find(|n| unknown(n)) {
                return fail(
                    d.span(),
                    format!("`designs` names `{name}`, which has no [expect.{name}] table"),
                );
            }
            d.get_ref().clone()
        }
    };
    for name in raw.why_for.keys() {
        // `DESIGN@postgres`: the why for that design's run on PostgreSQL,
        // as `say_for` takes it.
        let Some(design) = key_design(name.get_ref()) else {
            return fail(
                name.span(),
                format!(
                    "`why_for` names `{}`: after `@` only `{POSTGRES_KEY}` may follow a design, for a run on PostgreSQL",
                    name.get_ref()
                ),
            );
        };
        if unknown(design) {
            return fail(
                name.span(),
                format!("`why_for` names `{design}`, which has no [expect.{design}] table"),
            );
        }
    }
    if matches!(subject, Subject::ProcessedRows | Subject::ProcessedRowsAny) {
        let asked: Vec<&String> = named
            .iter()
            .filter(|n| designs.is_empty() || designs.contains(n))
            .collect();
        let without: Vec<&str> = asked
            .iter()
            .map(|n| n.as_str())
            .filter(|n| {
                Strategy::by_name(n).is_some_and(|s| !s.uses(Op::ClaimId) && !s.uses(Op::CheckId))
            })
            .collect();
        if !without.is_empty() {
            let span = raw
                .designs
                .as_ref()
                .map_or_else(|| raw.about.span(), |d| d.span());
            let keep: Vec<&str> = asked
                .iter()
                .map(|n| n.as_str())
                .filter(|n| !without.contains(n))
                .collect();
            let fix = if keep.is_empty() {
                "none of the designs asked has one, so ask about another subject".to_string()
            } else {
                let names: Vec<String> = keep.iter().map(|n| format!("\"{n}\"")).collect();
                format!("ask this only with `designs = [{}]`", names.join(", "))
            };
            let plural = without.len() > 1;
            return fail(
                span,
                format!(
                    "the {} design{} keep{} no processed_messages table, so its frames have no such rows: {fix}",
                    without.join(" and "),
                    if plural { "s" } else { "" },
                    if plural { "" } else { "s" },
                ),
            );
        }
    }
    Ok(Question {
        subject,
        text: raw.text.as_deref().map(|t| t.trim().to_string()),
        why: why.to_string(),
        why_for: raw
            .why_for
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), v.trim().to_string()))
            .collect(),
        designs,
    })
}

/// What a question asks and why, or what is wrong with it: the checks that
/// need only the setup, so that they are made with the actions' own, and
/// a file that has both kinds of error hears of both at once. A question
/// without its `why` is told so beside a wrong subject or message: the
/// one is no consequence of the other.
pub(super) fn asked<'r>(
    raw: &'r RawAsk,
    setup: &Setup,
    err: Err,
) -> Result<(Subject, &'r str), Vec<ScenarioError>> {
    let why = raw.why.as_deref().map(str::trim).filter(|w| !w.is_empty());
    let no_why = || {
        err(
            Some(raw.about.span()),
            format!(
                "the question about `{}` needs `why`: one sentence on why the answer is what it is",
                raw.about.get_ref()
            ),
        )
    };
    match (asked_what(raw, setup, err), why) {
        (Ok(subject), Some(why)) => Ok((subject, why)),
        (Ok(_), None) => Err(vec![no_why()]),
        (Err(e), Some(_)) => Err(vec![e]),
        (Err(e), None) => Err(vec![e, no_why()]),
    }
}

/// The subject a question asks about, its message checked against the
/// setup's, and its `text`.
fn asked_what(raw: &RawAsk, setup: &Setup, err: Err) -> Result<Subject, ScenarioError> {
    let about = raw.about.get_ref();
    let fail = |span: Range<usize>, message: String| Err(err(Some(span), message));
    let Some(&(_, needs_message)) = SUBJECTS.iter().find(|(name, _)| name == about) else {
        let names: Vec<&str> = SUBJECTS.iter().map(|(n, _)| *n).collect();
        return fail(
            raw.about.span(),
            format!(
                "no subject `{about}` for a question{}; ask about one of: {}",
                did_you_mean(about, names.iter().copied()),
                names.join(", ")
            ),
        );
    };
    let message = match (&raw.message, needs_message) {
        (None, true) => {
            return fail(
                raw.about.span(),
                format!("a question about `{about}` needs `message`, the ID it asks about"),
            );
        }
        (Some(m), false) => {
            return fail(
                m.span(),
                format!("a question about `{about}` takes no `message`"),
            );
        }
        (Some(m), true) => {
            let ids: Vec<&str> = setup.messages.iter().map(|x| x.id.as_str()).collect();
            if !ids.contains(&m.get_ref().as_str()) {
                return fail(
                    m.span(),
                    format!(
                        "no message `{}` in the setup{}; the messages are {}",
                        m.get_ref(),
                        did_you_mean(m.get_ref(), ids.iter().copied()),
                        ids.join(", ")
                    ),
                );
            }
            // The generated wording names the ID only, which would not
            // say which of several messages sharing it is meant.
            let sharing = ids.iter().filter(|id| **id == m.get_ref().as_str()).count();
            if sharing > 1 && raw.text.is_none() {
                return fail(
                    m.span(),
                    format!(
                        "{sharing} messages in the setup share the ID `{}`: give `text` that says which one the question means (the answer is about the copy in flight, else the one published last)",
                        m.get_ref()
                    ),
                );
            }
            Some(m.get_ref().as_str())
        }
        (None, false) => None,
    };
    let subject = Subject::parse(about, message).expect("name and message checked above");
    if raw.text.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return fail(
            raw.about.span(),
            "`text` is empty: leave it out for the generated wording".into(),
        );
    }
    Ok(subject)
}
