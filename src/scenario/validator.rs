//! The scenario's own rules, checked on a file that TOML and serde have
//! read: from a `RawScenario` to a `Script`, every error at its file, line
//! and column. The setup (`validate_setup`) and the expectations
//! (`validate_expectation`) are checked in files of their own.

use super::action::Action;
use super::engine_key::{POSTGRES_KEY, key_design};
use super::error::ScenarioError;
use super::every_error::Taken;
use super::format::{RawAction, RawScenario};
use super::missing_key::MissingKey;
use super::script::{Group, Origin, Saying, Script, ScriptStep};
use super::warning::ScenarioWarning;
use crate::sim::{Setup, Strategy, parse_duration};
use crate::suggest::did_you_mean;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

pub(super) struct Validator<'a> {
    /// The file's text, to place a slip at the word of a value it is in.
    pub(super) text: &'a str,
    pub(super) err: &'a dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    /// Errors noted so far, while validation goes on to find the others.
    pub(super) found: RefCell<Vec<ScenarioError>>,
    /// Words that work but should be written otherwise (an old keyword):
    /// told beside the script, never in place of it.
    pub(super) warned: RefCell<Vec<ScenarioWarning>>,
    /// Keys the file lacks, each already an error in `found`: the
    /// stand-ins in their place are not judged again.
    pub(super) missing: Vec<MissingKey>,
    /// What was taken out of the document for a wrong type or an unknown
    /// key, each already an error: the rules judge nothing it leaves short
    /// (a message without its amount, an action table without its `say`,
    /// a design without its expectations).
    pub(super) taken: Vec<Taken>,
    /// The consumers could not be read as a list of sound names (told):
    /// no action naming one is judged.
    pub(super) consumers_unknown: Cell<bool>,
    /// The setup has no message (told): no action naming one is judged.
    pub(super) messages_gone: Cell<bool>,
}

/// Whether `path` (as `Taken::dotted` writes it) is the setup's
/// consumers or inside them: `setup.consumers`, `setup.consumers[1]`.
pub(super) fn under_consumers(path: &str) -> bool {
    path.strip_prefix("setup.consumers")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
}

impl Validator<'_> {
    /// Whether the consumers, or one of them, were taken out for a wrong
    /// type (told): the list left is not the one the file meant.
    pub(super) fn consumers_taken(&self) -> bool {
        self.taken
            .iter()
            .any(|t| t.dotted.as_deref().is_some_and(under_consumers))
    }

    /// Notes an error and lets validation go on: `None` for the caller to
    /// skip what it was building.
    pub(super) fn keep<T>(&self, result: Result<T, ScenarioError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.found.borrow_mut().push(e);
                None
            }
        }
    }

    /// Whether the file lacks this key (its stand-in is not to be judged).
    pub(super) fn lacks(&self, key: MissingKey) -> bool {
        self.missing.contains(&key)
    }

    /// Whether the setup's messages are unknown, the file lacking them:
    /// an action or a question naming one cannot be judged.
    pub(super) fn messages_unknown(&self) -> bool {
        self.messages_gone.get() || self.missing.iter().any(|k| k.hides_messages())
    }

    /// Whether something was taken out of the table or array at `span`.
    pub(super) fn taken_from(&self, span: &Range<usize>) -> bool {
        self.taken.iter().any(|t| t.span == *span)
    }

    /// Whether a key was taken out of the `index`th message.
    pub(super) fn taken_from_message(&self, index: usize) -> bool {
        let head = format!("setup.messages[{index}].");
        self.taken
            .iter()
            .any(|t| t.dotted.as_deref().is_some_and(|d| d.starts_with(&head)))
    }

    /// Every design the file writes expectations for, read or not: a
    /// design whose table was taken out (`naive = "charged twice"`) is
    /// still named, so nothing told for it is wrong for want of one.
    pub(super) fn designs_named(&self, raw: &RawScenario) -> std::collections::BTreeSet<String> {
        let taken = self.taken.iter().filter_map(|t| {
            let path = t.dotted.as_deref()?.strip_prefix("expect.")?;
            (t.key.is_some() && !path.contains(['.', '['])).then(|| path.to_string())
        });
        raw.expect
            .keys()
            .map(|k| k.get_ref().clone())
            .chain(taken)
            .collect()
    }

    /// Notes a warning at this place of the file.
    fn warn(&self, span: Range<usize>, message: String) {
        let place = (self.err)(Some(span), message);
        self.warned
            .borrow_mut()
            .push(ScenarioWarning::placed(place));
    }

    /// Stops at the first noted error, once going on would only cascade.
    pub(super) fn stop_if_found(&self) -> Result<(), ScenarioError> {
        match self.found.borrow().first() {
            Some(first) => Err(first.clone()),
            None => Ok(()),
        }
    }

    pub(super) fn fail<T>(&self, span: Range<usize>, message: String) -> Result<T, ScenarioError> {
        Err((self.err)(Some(span), message))
    }

    pub(super) fn duration(
        &self,
        value: &Option<Spanned<String>>,
        default: u64,
    ) -> Result<u64, ScenarioError> {
        let Some(value) = value else {
            return Ok(default);
        };
        parse_duration(value.get_ref()).map_or_else(
            || {
                self.fail(
                    value.span(),
                    format!(
                        "`{}` is not a duration (write 500ms, 30s, 5m, 24h; at most 366d)",
                        value.get_ref()
                    ),
                )
            },
            Ok,
        )
    }

    pub(super) fn positive(&self, value: &Spanned<i64>, what: &str) -> Result<u32, ScenarioError> {
        let n = *value.get_ref();
        if n <= 0 || n > u32::MAX as i64 {
            return self.fail(
                value.span(),
                format!("{what} must be a positive whole number, not {n}"),
            );
        }
        Ok(n as u32)
    }

    pub(super) fn count(&self, value: &Spanned<i64>, what: &str) -> Result<u32, ScenarioError> {
        let n = *value.get_ref();
        if n < 0 || n > u32::MAX as i64 {
            return self.fail(value.span(), format!("{what} cannot be negative: {n}"));
        }
        Ok(n as u32)
    }

    pub(super) fn script(&self, file: &str, raw: RawScenario) -> Result<Script, ScenarioError> {
        super::limits::check(&raw, self.err)?;
        super::budget::check(&raw, self.err)?;
        // A wrong group or origin is noted and the default taken: nothing
        // else in the file depends on it.
        let group = match &raw.group {
            None => Group::Failure,
            Some(g) => self
                .keep(Group::parse(g.get_ref()).map_or_else(
                    || {
                        self.fail(
                            g.span(),
                            format!(
                                "unknown group `{}`{}: use tour, failure or design",
                                g.get_ref(),
                                did_you_mean(g.get_ref(), ["tour", "failure", "design"])
                            ),
                        )
                    },
                    Ok,
                ))
                .unwrap_or(Group::Failure),
        };
        let origin = match &raw.origin {
            None => Origin::Scenario,
            Some(o) => self.keep(Origin::parse(o.get_ref()).map_or_else(
                || {
                    self.fail(
                        o.span(),
                        format!(
                            "unknown origin `{}`: the only ones are soak, which `idem soak --save` writes, and check, which `idem check --save` writes",
                            o.get_ref()
                        ),
                    )
                },
                Ok,
            ))
            .unwrap_or(Origin::Scenario),
        };
        let setup = self.setup(&raw)?;
        let ids: std::collections::BTreeSet<&str> =
            setup.messages.iter().map(|m| m.id.as_str()).collect();
        // The designs the file runs, whose steps an unknown step is told with.
        let named = self.designs_named(&raw);
        let designs: Vec<Strategy> = named.iter().filter_map(|k| Strategy::by_name(k)).collect();
        // Each question that passed the checks needing only the setup, by
        // where its `about` is: only those are checked against the designs.
        let mut asked_well = std::collections::BTreeSet::new();
        let mut steps = Vec::new();
        for (index, step) in raw.steps.iter().enumerate() {
            let mut actions = Vec::new();
            // Actions taken out for a wrong type were told.
            if step.actions.get_ref().is_empty()
                && !self.lacks(MissingKey::StepActions(index))
                && !self.taken_from(&step.actions.span())
            {
                self.keep::<()>(self.fail(
                    step.actions.span(),
                    format!("step `{}` has no actions", step.title.get_ref()),
                ));
            }
            let mut sayings = Vec::new();
            for raw in step.actions.get_ref() {
                // A question's own slips are found with the actions', so a
                // file with both hears of both, in file order.
                for ask in raw
                    .get_ref()
                    .asks
                    .iter()
                    .filter(|_| !self.messages_unknown())
                {
                    match super::ask::asked(ask, &setup, self.err) {
                        Ok(_) => {
                            asked_well.insert(ask.about.span().start);
                        }
                        Err(all) => self.found.borrow_mut().extend(all),
                    }
                }
                self.check_told_table(raw);
                let text = &raw.get_ref().text;
                let parsed = Action::parse_for(text, &designs)
                    .or_else(|slip| self.fail(self.in_action(raw, slip.at), slip.message));
                let Some(action) = self.keep(parsed) else {
                    continue;
                };
                if let Some((word, message)) = super::old_keyword::in_action(text)
                    && let Some(at) = super::action::words_from(text, word)
                {
                    self.warn(self.in_action(raw, Some(at)), message);
                }
                // A consumer or a message is the action's second word.
                let named = self.in_action(raw, super::action::words_from(text, 1));
                if self
                    .keep(self.check_refs(&action, &setup, &ids, named))
                    .is_none()
                {
                    continue;
                }
                // Keys the action's words name: placed at the action.
                let told = raw.get_ref();
                let said = told.say.iter().chain(told.say_for.values());
                let said_at = told.say_at.values().flat_map(|steps| steps.values());
                if let Some(Err(message)) = said
                    .chain(said_at)
                    .map(|t| super::key_word::check(t))
                    .find(Result::is_err)
                {
                    self.keep::<()>(self.fail(raw.span(), message));
                }
                actions.push(action);
                sayings.push(raw.get_ref().say.as_ref().map(|say| {
                    Saying {
                        text: say.trim().to_string(),
                        text_for: raw
                            .get_ref()
                            .say_for
                            .iter()
                            .map(|(k, v)| (k.get_ref().clone(), v.trim().to_string()))
                            .collect(),
                        at: raw
                            .get_ref()
                            .say_at
                            .iter()
                            .map(|(design, steps)| {
                                // An old keyword's words told at today's.
                                let steps = steps
                                    .iter()
                                    .map(|(k, v)| {
                                        let (key, _) =
                                            super::old_keyword::step_key_now(k.get_ref());
                                        (key, v.trim().to_string())
                                    })
                                    .collect();
                                (design.get_ref().clone(), steps)
                            })
                            .collect(),
                    }
                }));
            }
            steps.push(ScriptStep {
                title: step.title.get_ref().clone(),
                title_for: step
                    .title_for
                    .iter()
                    .map(|(k, v)| (k.get_ref().clone(), v.clone()))
                    .collect(),
                sayings,
                asks: Vec::new(),
                narration: step.narration.get_ref().trim().to_string(),
                narration_for: step
                    .narration_for
                    .iter()
                    .map(|(k, v)| (k.get_ref().clone(), v.trim().to_string()))
                    .collect(),
                actions,
            });
        }
        // The expectations and the steps they name are checked whatever
        // the actions' slips: they are on other lines, and an author fixes
        // them all from one run of `idem validate`.
        if steps.is_empty() {
            return Err((self.err)(None, "the scenario has no [[steps]]".into()));
        }
        let mut expect = BTreeMap::new();
        for (name, raw_expect) in &raw.expect {
            let Some(strategy) = Strategy::by_name(name.get_ref()) else {
                self.keep::<()>(self.fail(
                    name.span(),
                    format!(
                        "expectations for unknown design `{}`{}; the designs are {}",
                        name.get_ref(),
                        did_you_mean(name.get_ref(), Strategy::names()),
                        Strategy::names().join(", ")
                    ),
                ));
                continue;
            };
            self.keep(self.check_program(&strategy, &raw));
            if let Some(expectation) = self.keep(self.expectation(raw_expect)) {
                expect.insert(name.get_ref().clone(), expectation);
            }
        }
        self.check_told(&raw, &named);
        // What follows is judged against the designs the file names, not
        // the expectations that read well: a wrong outcome for a design
        // makes nothing told for it wrong.
        if named.is_empty() {
            self.keep::<()>(Err((self.err)(
                None,
                "the scenario has no [expect.<design>] table: say what each design should end with"
                    .into(),
            )));
        }
        let words_for_sqlite = match &raw.engine {
            None => false,
            Some(e) if e.get_ref() == "sqlite" => true,
            Some(e) => {
                self.keep::<()>(self.fail(
                    e.span(),
                    format!(
                        "`engine = \"{}\"`: the words can be told for \"sqlite\" only; PostgreSQL's own go in `say_for` and `narration_for` under DESIGN@postgres",
                        e.get_ref()
                    ),
                ));
                false
            }
        };
        let narrated_for = match &raw.design {
            Some(d) if named.contains(d.get_ref()) => Some(d.get_ref().clone()),
            Some(d) => {
                self.keep::<()>(self.fail(
                    d.span(),
                    format!(
                        "the narration's design `{}` has no [expect.{}] table",
                        d.get_ref(),
                        d.get_ref()
                    ),
                ));
                None
            }
            None => None,
        };
        for step in &raw.steps {
            // Keys the words name: placed at the narration they are in.
            let narrations = std::iter::once((step.narration.span(), step.narration.get_ref()))
                .chain(step.narration_for.iter().map(|(k, v)| (k.span(), v)));
            for (span, text) in narrations {
                if let Err(message) = super::key_word::check(text) {
                    self.keep::<()>(self.fail(span, message));
                }
            }
            for name in step.narration_for.keys().chain(step.title_for.keys()) {
                let design = key_design(name.get_ref()).unwrap_or(name.get_ref());
                if !named.contains(design) {
                    self.keep::<()>(self.fail(
                        name.span(),
                        format!(
                            "narration or title for `{}`, which has no [expect.{}] table{}",
                            name.get_ref(),
                            name.get_ref(),
                            did_you_mean(design, named.iter().map(String::as_str))
                        ),
                    ));
                }
            }
        }
        // A question whose own checks failed was told; the others are
        // checked against the designs whatever else is wrong. The steps
        // are those whose actions all read: a slip left one short.
        for (step, raw_step) in steps.iter_mut().zip(&raw.steps) {
            for raw_action in raw_step.actions.get_ref() {
                let asks = raw_action
                    .get_ref()
                    .asks
                    .iter()
                    .filter(|a| asked_well.contains(&a.about.span().start))
                    .filter_map(|a| self.keep(super::ask::question(a, &setup, &named, self.err)))
                    .collect();
                step.asks.push(asks);
            }
            while step.asks.last().is_some_and(Vec::is_empty) {
                step.asks.pop();
            }
        }
        for name in raw.intro_for.keys().chain(raw.title_for.keys()) {
            if !named.contains(name.get_ref()) {
                self.keep::<()>(self.fail(
                    name.span(),
                    format!(
                        "intro or title for `{}`, which has no [expect.{}] table{}",
                        name.get_ref(),
                        name.get_ref(),
                        did_you_mean(name.get_ref(), named.iter().map(String::as_str))
                    ),
                ));
            }
        }
        if let Some(Err(message)) = raw.intro.as_deref().map(super::key_word::check) {
            self.keep::<()>(Err((self.err)(None, format!("the intro: {message}"))));
        }
        for (name, text) in &raw.intro_for {
            if let Err(message) = super::key_word::check(text) {
                self.keep::<()>(self.fail(name.span(), message));
            }
        }
        self.stop_if_found()?;
        let per_design = |map: &BTreeMap<Spanned<String>, String>| {
            map.iter()
                .map(|(k, v)| (k.get_ref().clone(), v.trim().to_string()))
                .collect()
        };
        Ok(Script {
            name: file.to_string(),
            origin,
            title: raw.title.clone(),
            open_at: raw.open_at,
            title_for: per_design(&raw.title_for),
            intro_for: per_design(&raw.intro_for),
            summary: raw.summary.clone(),
            intro: raw
                .intro
                .clone()
                .unwrap_or_else(|| raw.summary.clone())
                .trim()
                .to_string(),
            group,
            order: raw.order.unwrap_or(0),
            narrated_for,
            tells_every_design: false,
            words_for_sqlite,
            setup,
            steps,
            expect,
        })
    }

    /// The designs an action's words are told for (`say_for`, `say_at`)
    /// and its steps, checked against the expectations the file writes,
    /// whatever is wrong with those: each slip at its action.
    fn check_told(&self, raw: &RawScenario, named: &std::collections::BTreeSet<String>) {
        let written: std::collections::BTreeSet<&str> = named.iter().map(String::as_str).collect();
        for step in &raw.steps {
            for raw_action in step.actions.get_ref() {
                let told = raw_action.get_ref();
                let named = told
                    .say_for
                    .keys()
                    .map(|k| ("say_for", k))
                    .chain(told.say_at.keys().map(|k| ("say_at", k)));
                // The first wrong name of an action only: a file may name
                // thousands. Each is pointed at where it is written.
                for (field, key) in named {
                    let Some(name) = key_design(key.get_ref()) else {
                        let name = key.get_ref();
                        self.keep::<()>(self.fail(
                            key.span(),
                            format!("`{field}` names `{name}`: after `@` only `{POSTGRES_KEY}` may follow a design, for a run on PostgreSQL"),
                        ));
                        break;
                    };
                    if !written.contains(name) {
                        self.keep::<()>(self.fail(
                            key.span(),
                            format!(
                                "`{field}` names `{name}`, which has no [expect.{name}] table{}",
                                did_you_mean(name, written.iter().copied())
                            ),
                        ));
                        break;
                    }
                }
                let steps_words = crate::sim::Op::keywords();
                let mut keywords = steps_words.clone();
                keywords.push(super::script::RESTART_KEY);
                keywords.extend(super::old_keyword::words());
                for (design, steps) in &told.say_at {
                    let design = design.get_ref();
                    for k in steps.keys() {
                        if let (_, Some(message)) = super::old_keyword::step_key_now(k.get_ref()) {
                            self.warn(k.span(), message);
                        }
                    }
                    if let Some(k) = steps
                        .keys()
                        .find(|k| super::step_key::parse_step_key(k.get_ref()).is_none())
                    {
                        self.keep::<()>(self.fail(
                            k.span(),
                            format!(
                                "`say_at` for `{design}` names `{}`: after `#` comes which step with that keyword the action runs, from 2 to {} (the first is the keyword alone)",
                                k.get_ref(),
                                crate::scenario::limits::RUN_FRAMES
                            ),
                        ));
                        break;
                    }
                    let keyword = |k: &Spanned<String>| {
                        super::step_key::parse_step_key(k.get_ref())
                            .map_or(String::new(), |(w, _)| w.to_string())
                    };
                    if let Some((k, word)) = steps
                        .keys()
                        .map(|k| (k, keyword(k)))
                        .find(|(_, w)| !keywords.contains(&w.as_str()))
                    {
                        self.keep::<()>(self.fail(
                            k.span(),
                            format!(
                                "`say_at` for `{design}` names `{word}`, which is no step of a handler{}; the steps are {}, and `{}` names a crashed consumer's restart",
                                crate::suggest::did_you_mean(&word, keywords.iter().copied()),
                                steps_words.join(", "),
                                super::script::RESTART_KEY
                            ),
                        ));
                        break;
                    }
                }
            }
        }
    }

    /// An action written as a table says something: `say`, or a question
    /// (`ask`); `say_for` and `say_at` only beside `say`. A table a key was
    /// taken out of (`sai = "..."`, `say = 5`) is not judged: the key may
    /// have been the one.
    fn check_told_table(&self, raw: &Spanned<RawAction>) {
        let told = raw.get_ref();
        if !told.table || told.say.is_some() || self.taken_from(&raw.span()) {
            return;
        }
        let text = &told.text;
        let message = if told.asks.is_empty() {
            format!(
                "the action table for `{text}` needs `say`, what it shows once it has happened, or `ask`, a question asked before it runs; without either, write the action alone: \"{text}\""
            )
        } else if !(told.say_for.is_empty() && told.say_at.is_empty()) {
            format!(
                "the action table for `{text}` has `say_for` or `say_at` without `say`: write `say`, the words for the scenario's own design"
            )
        } else {
            return;
        };
        self.keep::<()>(self.fail(raw.span(), message));
    }

    /// Where in the file a part of an action's text is (`None`: the whole
    /// text), as a range of the file: the caret goes under the word.
    fn in_action(&self, raw: &Spanned<RawAction>, part: Option<Range<usize>>) -> Range<usize> {
        let action = raw.get_ref();
        let literal = action.text_at.clone().unwrap_or_else(|| raw.span());
        super::value_place::inside(self.text, literal, &action.text, part)
    }

    pub(super) fn check_refs(
        &self,
        action: &Action,
        setup: &Setup,
        ids: &std::collections::BTreeSet<&str>,
        span: Range<usize>,
    ) -> Result<(), ScenarioError> {
        if let Some(c) = action.consumer()
            && !setup.consumers.iter().any(|x| x == c)
            && !self.consumers_unknown.get()
        {
            return self.fail(
                span,
                format!(
                    "no consumer `{c}` in the setup{}; the consumers are {}",
                    did_you_mean(c, setup.consumers.iter().map(String::as_str)),
                    setup.consumers.join(", ")
                ),
            );
        }
        if let Some(m) = action.message()
            && !ids.contains(m)
            && !self.messages_unknown()
        {
            let ids: Vec<&str> = setup.messages.iter().map(|x| x.id.as_str()).collect();
            // A long list helps nobody: the first few, and how many more.
            let shown = ids.len().min(12);
            let more = match ids.len() - shown {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            return self.fail(
                span,
                format!(
                    "no message `{m}` in the setup{}; the messages are {}{more}",
                    did_you_mean(m, ids.iter().copied()),
                    ids[..shown].join(", ")
                ),
            );
        }
        Ok(())
    }

    /// `run A to <step>` must name a step the strategy's program has.
    pub(super) fn check_program(
        &self,
        strategy: &Strategy,
        raw: &RawScenario,
    ) -> Result<(), ScenarioError> {
        // Each action read again from its text: a step whose action had a
        // slip holds fewer actions than its file lines.
        for raw_step in &raw.steps {
            for raw_action in raw_step.actions.get_ref() {
                if let Ok(Action::Run { to: Some(to), .. }) =
                    Action::parse(&raw_action.get_ref().text)
                    && strategy.position(&to).is_none()
                {
                    let program: Vec<&str> =
                        strategy.program.iter().map(|op| op.keyword()).collect();
                    let step = super::action::words_from(&raw_action.get_ref().text, 3);
                    return self.fail(
                        self.in_action(raw_action, step),
                        format!(
                            "step `{to}` is not in the {} program ({}), and this scenario has expectations for {}",
                            strategy.name,
                            program.join(", "),
                            strategy.name
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
