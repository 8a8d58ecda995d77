//! What a scenario expects of each design checked: the outcomes (one or a
//! set), the figures, every entry known and none contradicting another.

use super::error::ScenarioError;
use super::expectation::Expectation;
use super::format::RawExpectation;
use super::validator::Validator;
use crate::sim::Outcome;
use crate::suggest::did_you_mean;

impl Validator<'_> {
    /// One outcome, or a set of them: every entry known, none twice, and
    /// no right end (correct, dead-lettered) beside a wrong effect, since a
    /// run that went wrong is not also correct. Worst first.
    pub(super) fn outcomes(
        &self,
        raw: &toml::Spanned<super::format::RawOutcomes>,
    ) -> Result<Vec<Outcome>, ScenarioError> {
        use super::format::RawOutcomes;
        let entries: Vec<(&str, std::ops::Range<usize>)> = match raw.get_ref() {
            RawOutcomes::One(text) => vec![(text.as_str(), raw.span())],
            RawOutcomes::Set(all) => all
                .iter()
                .map(|o| (o.get_ref().as_str(), o.span()))
                .collect(),
        };
        if entries.is_empty() {
            return self.fail(
                raw.span(),
                "an empty list of outcomes: name the outcome the run ends with, or every one of them".to_string(),
            );
        }
        let mut outcomes: Vec<Outcome> = Vec::new();
        for (text, span) in entries {
            let Some(outcome) = Outcome::parse(text) else {
                let known: Vec<&str> = Outcome::ALL.iter().map(|o| o.text()).collect();
                return self.fail(
                    span,
                    format!(
                        "unknown outcome `{text}`{}; use one of: {}",
                        did_you_mean(text, known.iter().copied()),
                        known.join(", ")
                    ),
                );
            };
            if outcomes.contains(&outcome) {
                return self.fail(span, format!("the outcome `{text}` is listed twice"));
            }
            let mixed =
                outcomes.iter().chain([&outcome]).any(|o| !o.is_failure()) && !outcomes.is_empty();
            if mixed {
                return self.fail(
                    span,
                    format!(
                        "`{text}` cannot be listed beside {}: a run ends either with one of correct, in progress, dead-lettered, or with every wrong effect that holds",
                        outcomes.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ")
                    ),
                );
            }
            outcomes.push(outcome);
        }
        outcomes.sort_by(|a, b| b.cmp(a));
        Ok(outcomes)
    }

    /// Each figure checked on its own, so that a wrong total and a wrong
    /// outcome in one table are both reported.
    pub(super) fn expectation(&self, raw: &RawExpectation) -> Result<Expectation, ScenarioError> {
        let total = raw.total.as_ref().map(|t| self.count(t, "total"));
        let charges = raw.charges.as_ref().map(|c| self.count(c, "charges"));
        let outcomes = raw.outcome.as_ref().map(|o| self.outcomes(o));
        let mut first = None;
        let mut note = |e: ScenarioError| match first {
            None => first = Some(e),
            Some(_) => {
                self.keep::<()>(Err(e));
            }
        };
        let total = total.transpose().unwrap_or_else(|e| {
            note(e);
            None
        });
        let charges = charges.transpose().unwrap_or_else(|e| {
            note(e);
            None
        });
        let outcomes = outcomes.transpose().unwrap_or_else(|e| {
            note(e);
            None
        });
        match first {
            Some(e) => Err(e),
            None => Ok(Expectation {
                total,
                charges,
                outcomes,
            }),
        }
    }
}
