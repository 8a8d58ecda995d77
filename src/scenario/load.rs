//! Validation: from a raw file to a `Script` the timeline can run, or an
//! error that names the file, line and column.

use super::action::Action;
use super::builtin::{self, BUILTIN};
use super::error::{ScenarioError, ScenarioErrors};
pub use super::expectation::Expectation;
use super::format::{RawExpectation, RawScenario};
pub use super::load_error::LoadError;
use crate::sim::message::StatusUpdate;
use crate::sim::world::IdSource;
use crate::sim::{Message, Outcome, Payment, Setup, Strategy, parse_duration};
use crate::suggest::did_you_mean;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;
use toml::Spanned;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Tour,
    Failure,
    Design,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Tour => "The tour",
            Group::Failure => "Failure modes",
            Group::Design => "Designs compared",
        }
    }

    fn parse(text: &str) -> Option<Group> {
        match text {
            "tour" => Some(Group::Tour),
            "failure" => Some(Group::Failure),
            "design" => Some(Group::Design),
            _ => None,
        }
    }
}

/// What an action says once it has happened, for the scenario's design
/// and, where it goes differently, for others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saying {
    pub text: String,
    /// By design name; an empty text says nothing for that design.
    pub text_for: BTreeMap<String, String>,
}

impl Saying {
    /// The words for a run under `design`, if it has any.
    pub fn for_design(&self, design: &str) -> Option<&str> {
        self.for_run(design, false)
    }

    /// The words for a run under `design`, on PostgreSQL or not: a file may
    /// tell the PostgreSQL run apart (`say_for = { "naive@postgres" = … }`),
    /// where the server's lock point makes the story differ.
    pub fn for_run(&self, design: &str, on_postgres: bool) -> Option<&str> {
        let on_server = on_postgres
            .then(|| self.text_for.get(&on_engine(design)))
            .flatten();
        let text = on_server
            .or_else(|| self.text_for.get(design))
            .unwrap_or(&self.text);
        (!text.is_empty()).then_some(text.as_str())
    }
}

/// The key of a design's words for a run on PostgreSQL.
pub fn on_engine(design: &str) -> String {
    format!("{design}@{POSTGRES_KEY}")
}

/// What follows `@` in such a key.
pub const POSTGRES_KEY: &str = "postgres";

/// The design a `say_for` or `narration_for` key names, and whether it is
/// a PostgreSQL run's; `None` for an engine other than PostgreSQL.
fn key_design(key: &str) -> Option<&str> {
    match key.split_once('@') {
        None => Some(key),
        Some((design, POSTGRES_KEY)) => Some(design),
        Some(_) => None,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptStep {
    pub title: String,
    /// The title for other designs, by design name.
    pub title_for: BTreeMap<String, String>,
    /// Written for the scenario's `design`.
    pub narration: String,
    /// The chapter told for other designs, by design name.
    pub narration_for: BTreeMap<String, String>,
    pub actions: Vec<Action>,
    /// Beside each action: what it says once it has happened.
    pub sayings: Vec<Option<Saying>>,
    /// Beside each action: the questions asked before it runs (predict
    /// mode). Shorter than `actions` when the last ones ask nothing.
    pub asks: Vec<Vec<super::Question>>,
}

impl ScriptStep {
    /// The chapter's title for a run under `design`.
    pub fn title(&self, design: &str) -> &str {
        self.title_for.get(design).unwrap_or(&self.title)
    }

    /// The chapter's title for a run under `design`, on PostgreSQL or not.
    pub fn title_on(&self, design: &str, on_postgres: bool) -> &str {
        on_postgres
            .then(|| self.title_for.get(&on_engine(design)))
            .flatten()
            .map_or_else(|| self.title(design), String::as_str)
    }

    /// The narration for a run under `design`: its own version when the
    /// file has one, else the main text, marked when the file says it was
    /// written for another design, so that it never passes for a
    /// description of this run.
    pub fn narration(&self, design: &str, written_for: Option<&str>) -> String {
        self.narration_on(design, written_for, false)
    }

    /// [`ScriptStep::narration`], for a run on PostgreSQL or not (see
    /// [`Saying::for_run`]).
    pub fn narration_on(
        &self,
        design: &str,
        written_for: Option<&str>,
        on_postgres: bool,
    ) -> String {
        if on_postgres && let Some(text) = self.narration_for.get(&on_engine(design)) {
            return text.clone();
        }
        if let Some(text) = self.narration_for.get(design) {
            return text.clone();
        }
        let Some(written_for) = written_for.filter(|w| *w != design) else {
            return self.narration.clone();
        };
        format!(
            "[Told for the {written_for} design; the events show what {design} does.] {}",
            self.narration
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The built-in name, or the file path it came from.
    pub name: String,
    pub title: String,
    pub summary: String,
    pub intro: String,
    /// The step `idem play` opens at, when the file names one.
    pub open_at: Option<usize>,
    /// The title and intro for other designs, by design name.
    pub title_for: BTreeMap<String, String>,
    pub intro_for: BTreeMap<String, String>,
    pub group: Group,
    pub order: u32,
    /// The design the narration is written for, when the file names one;
    /// without it the narration reads true for every design it lists.
    pub narrated_for: Option<String>,
    pub setup: Setup,
    pub steps: Vec<ScriptStep>,
    /// By strategy name, in name order.
    pub expect: BTreeMap<String, Expectation>,
}

impl Script {
    /// The scenario's title as told for `design`.
    pub fn title_for(&self, design: &str) -> &str {
        self.title_for.get(design).unwrap_or(&self.title)
    }

    /// The words before the first step, as told for `design`.
    pub fn intro_for(&self, design: &str) -> &str {
        self.intro_for.get(design).unwrap_or(&self.intro)
    }

    /// The strategies this scenario is meant for: those it has expectations for.
    pub fn strategies(&self) -> Vec<String> {
        self.expect.keys().cloned().collect()
    }

    /// The design to open the scenario in: the one its narration is written
    /// for, else idempotent, else the first it lists.
    pub fn design(&self) -> String {
        self.narrated_for
            .clone()
            .or_else(|| {
                self.expect
                    .contains_key("idempotent")
                    .then(|| "idempotent".into())
            })
            .or_else(|| self.expect.keys().next().cloned())
            .unwrap_or_default()
    }
}

/// A built-in scenario by name, or a file by path; a file that does not
/// validate gets every error validation can tell apart.
pub fn find(name_or_path: &str) -> Result<Script, LoadError> {
    if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
        return Ok(parse_all(name, text)?);
    }
    let path = Path::new(name_or_path);
    if path.exists() || name_or_path.ends_with(".toml") {
        let text = super::file::read(path)?;
        return Ok(parse_all(name_or_path, &text)?);
    }
    Err(LoadError::UnknownName {
        name: name_or_path.to_string(),
        known: builtin::names().into_iter().map(String::from).collect(),
    })
}

/// Every built-in scenario, parsed. They are tested, so this cannot fail in a
/// released binary; an error here is a bug and says which file.
pub fn builtins() -> Vec<Script> {
    let mut scripts: Vec<Script> = BUILTIN
        .iter()
        .map(|(name, text)| parse(name, text).unwrap_or_else(|e| panic!("built-in {e}")))
        .collect();
    // Stable: ties keep the order of the built-in list.
    scripts.sort_by_key(|s| (s.group, s.order));
    scripts
}

/// The script, or the first error in the file (the one [`parse_all`]
/// lists first).
pub fn parse(file: &str, text: &str) -> Result<Script, ScenarioError> {
    parse_all(file, text).map_err(ScenarioErrors::into_first)
}

/// The script, or its errors in file order. They come in kinds, each
/// looked for only once the one before it found nothing, since a later
/// kind would mostly repeat an earlier error: TOML syntax; control
/// characters; types, unknown keys and missing keys; then the scenario's
/// own rules. Errors in messages, actions, expectations and narration are all
/// collected, each group before the next is checked; a wrong setup value
/// other than a message stops at that one.
pub fn parse_all(file: &str, text: &str) -> Result<Script, ScenarioErrors> {
    let err =
        |span: Option<Range<usize>>, message: String| ScenarioError::at(file, text, span, message);
    // Control characters are reported beside everything else: every
    // message is escaped when it is shown, so an echoed value is harmless.
    // A document that does not parse is left to the parser.
    let control = super::control::check(file, text).err();
    let raw: RawScenario = match super::every_error::deserialize_all(text) {
        Ok(raw) => raw,
        Err(all) => {
            let found = toml_errors(file, text, all).beside(control.as_ref());
            return Err(ScenarioErrors::join(control, found).expect("some"));
        }
    };
    // A value that holds a control character would only fail the checks
    // below again (no consumer `A\u{7}`): they wait until it is gone.
    if let Some(control) = control {
        return Err(control);
    }
    let validator = Validator {
        err: &err,
        found: RefCell::new(Vec::new()),
    };
    let found = match validator.script(file, raw) {
        Ok(script) => return Ok(script),
        Err(last) => {
            let mut all = validator.found.into_inner();
            if !all.contains(&last) {
                all.push(last);
            }
            ScenarioErrors::new(all)
        }
    };
    Err(found)
}

/// The TOML reader's errors, each at its place and in a scenario file's
/// words.
pub(super) fn toml_errors(
    file: &str,
    text: &str,
    found: super::every_error::TomlErrors,
) -> ScenarioErrors {
    let placed = found
        .errors
        .into_iter()
        .map(|e| {
            let span = e.span();
            let at = span.clone().and_then(|s| text.get(s));
            let message = match span.as_ref().and_then(|s| duration_key(text, s.start)) {
                Some(key) if e.message().contains("expected a string") => {
                    format!("`{key}` is a duration in quotes, like \"30s\", \"1m30s\" or \"250ms\"")
                }
                _ => toml_message(e.message(), at),
            };
            (span, message)
        })
        .collect();
    ScenarioErrors::at(file, text, placed).cut_short(found.cut_short)
}

/// The setup's keys that hold a duration.
const DURATION_KEYS: [&str; 6] = [
    "lease",
    "step",
    "key_lifetime",
    "dedup_window",
    "cache_ttl",
    "record_timeout",
];

/// The duration key whose value starts at `at`, if the line reads
/// `key = value` (how a wrong number of seconds is written).
fn duration_key(text: &str, at: usize) -> Option<&'static str> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text.get(line_start..at)?.split_once('=')?;
    let key = key.trim();
    DURATION_KEYS.into_iter().find(|k| *k == key)
}

/// The TOML reader's message in the words of a scenario file: TOML's
/// tables and arrays, not serde's maps and sequences or Rust's types; a
/// duplicate key named.
fn toml_message(message: &str, at: Option<&str>) -> String {
    let message = message.trim();
    if message == "duplicate key"
        && let Some(key) = at.filter(|k| !k.is_empty() && !k.contains('\n'))
    {
        return format!("duplicate key `{key}`: a key may be set once in a table");
    }
    // `unknown field `lese`, expected one of `queue`, `lease`, ...`: the
    // key that was probably meant goes first.
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((key, known)) = rest.split_once("`, expected ")
    {
        let names: Vec<&str> = known
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| !n.is_empty())
            .collect();
        return format!(
            "unknown key `{key}`{}: the keys here are {}",
            did_you_mean(key, names.iter().copied()),
            names.join(", ")
        );
    }
    let mut plain = message.to_string();
    // TOML's date-times reach serde as a table of their own.
    if at.is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit())) {
        plain = plain.replace("map, expected", "date-time, expected");
    }
    for (from, to) in [
        (" as i128", ""),
        ("expected i64", "expected a whole number"),
        ("expected u32", "expected a positive whole number"),
        ("map, expected", "table, expected"),
        ("expected a map", "expected a table"),
        ("sequence, expected", "array, expected"),
        ("expected a sequence", "expected an array"),
    ] {
        plain = plain.replace(from, to);
    }
    plain
}

struct Validator<'a> {
    err: &'a dyn Fn(Option<Range<usize>>, String) -> ScenarioError,
    /// Errors noted so far, while validation goes on to find the others.
    found: RefCell<Vec<ScenarioError>>,
}

impl Validator<'_> {
    /// Notes an error and lets validation go on: `None` for the caller to
    /// skip what it was building.
    fn keep<T>(&self, result: Result<T, ScenarioError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.found.borrow_mut().push(e);
                None
            }
        }
    }

    /// Stops at the first noted error, once going on would only cascade.
    fn stop_if_found(&self) -> Result<(), ScenarioError> {
        match self.found.borrow().first() {
            Some(first) => Err(first.clone()),
            None => Ok(()),
        }
    }

    fn fail<T>(&self, span: Range<usize>, message: String) -> Result<T, ScenarioError> {
        Err((self.err)(Some(span), message))
    }

    fn duration(
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

    fn positive(&self, value: &Spanned<i64>, what: &str) -> Result<u32, ScenarioError> {
        let n = *value.get_ref();
        if n <= 0 || n > u32::MAX as i64 {
            return self.fail(
                value.span(),
                format!("{what} must be a positive whole number, not {n}"),
            );
        }
        Ok(n as u32)
    }

    fn count(&self, value: &Spanned<i64>, what: &str) -> Result<u32, ScenarioError> {
        let n = *value.get_ref();
        if n < 0 || n > u32::MAX as i64 {
            return self.fail(value.span(), format!("{what} cannot be negative: {n}"));
        }
        Ok(n as u32)
    }

    fn script(&self, file: &str, raw: RawScenario) -> Result<Script, ScenarioError> {
        super::limits::check(&raw, self.err)?;
        super::budget::check(&raw, self.err)?;
        let group = match &raw.group {
            None => Group::Failure,
            Some(g) => Group::parse(g.get_ref()).map_or_else(
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
            )?,
        };
        let setup = self.setup(&raw)?;
        let ids: std::collections::BTreeSet<&str> =
            setup.messages.iter().map(|m| m.id.as_str()).collect();
        let mut steps = Vec::new();
        for step in &raw.steps {
            let mut actions = Vec::new();
            if step.actions.get_ref().is_empty() {
                return self.fail(
                    step.actions.span(),
                    format!("step `{}` has no actions", step.title.get_ref()),
                );
            }
            let mut sayings = Vec::new();
            for raw in step.actions.get_ref() {
                let text = &raw.get_ref().text;
                let parsed = Action::parse(text).or_else(|m| self.fail(raw.span(), m));
                let Some(action) = self.keep(parsed) else {
                    continue;
                };
                if self
                    .keep(self.check_refs(&action, &setup, &ids, raw.span()))
                    .is_none()
                {
                    continue;
                }
                actions.push(action);
                sayings.push(raw.get_ref().say.as_ref().map(|say| {
                    Saying {
                        text: say.trim().to_string(),
                        text_for: raw
                            .get_ref()
                            .say_for
                            .iter()
                            .map(|(k, v)| (k.clone(), v.trim().to_string()))
                            .collect(),
                    }
                }));
            }
            steps.push(super::ScriptStep {
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
        // Later checks pair actions with their text: not with one missing.
        self.stop_if_found()?;
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
            self.keep(self.check_program(&steps, &strategy, &raw));
            if let Some(expectation) = self.keep(self.expectation(raw_expect)) {
                expect.insert(name.get_ref().clone(), expectation);
            }
        }
        self.stop_if_found()?;
        if expect.is_empty() {
            return Err((self.err)(
                None,
                "the scenario has no [expect.<design>] table: say what each design should end with"
                    .into(),
            ));
        }
        let narrated_for = match &raw.design {
            Some(d) if expect.contains_key(d.get_ref()) => Some(d.get_ref().clone()),
            Some(d) => {
                return self.fail(
                    d.span(),
                    format!(
                        "the narration's design `{}` has no [expect.{}] table",
                        d.get_ref(),
                        d.get_ref()
                    ),
                );
            }
            None => None,
        };
        for step in &raw.steps {
            for raw_action in step.actions.get_ref() {
                for name in raw_action.get_ref().say_for.keys() {
                    let Some(name) = key_design(name) else {
                        return self.fail(
                            raw_action.span(),
                            format!("`say_for` names `{name}`: after `@` only `{POSTGRES_KEY}` may follow a design, for a run on PostgreSQL"),
                        );
                    };
                    if !expect.contains_key(name) {
                        return self.fail(
                            raw_action.span(),
                            format!("`say_for` names `{name}`, which has no [expect.{name}] table"),
                        );
                    }
                }
            }
            for name in step.narration_for.keys().chain(step.title_for.keys()) {
                let design = key_design(name.get_ref()).unwrap_or(name.get_ref());
                if !expect.contains_key(design) {
                    self.keep::<()>(self.fail(
                        name.span(),
                        format!(
                            "narration or title for `{}`, which has no [expect.{}] table",
                            name.get_ref(),
                            name.get_ref()
                        ),
                    ));
                }
            }
        }
        self.stop_if_found()?;
        for (step, raw_step) in steps.iter_mut().zip(&raw.steps) {
            for raw_action in raw_step.actions.get_ref() {
                let asks = raw_action
                    .get_ref()
                    .asks
                    .iter()
                    .filter_map(|a| self.keep(super::ask::question(a, &setup, &expect, self.err)))
                    .collect();
                step.asks.push(asks);
            }
            while step.asks.last().is_some_and(Vec::is_empty) {
                step.asks.pop();
            }
        }
        self.stop_if_found()?;
        for name in raw.intro_for.keys().chain(raw.title_for.keys()) {
            if !expect.contains_key(name.get_ref()) {
                return self.fail(
                    name.span(),
                    format!(
                        "intro or title for `{}`, which has no [expect.{}] table",
                        name.get_ref(),
                        name.get_ref()
                    ),
                );
            }
        }
        let per_design = |map: &BTreeMap<Spanned<String>, String>| {
            map.iter()
                .map(|(k, v)| (k.get_ref().clone(), v.trim().to_string()))
                .collect()
        };
        Ok(Script {
            name: file.to_string(),
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
            setup,
            steps,
            expect,
        })
    }

    fn setup(&self, raw: &RawScenario) -> Result<Setup, ScenarioError> {
        let s = &raw.setup;
        let defaults = Setup::default();
        let mut setup = Setup {
            queue: s
                .queue
                .as_ref()
                .map_or(defaults.queue, |q| q.get_ref().clone()),
            lease_ms: self.duration(&s.lease, defaults.lease_ms)?,
            step_ms: self.duration(&s.step, defaults.step_ms)?,
            key_lifetime_ms: self.duration(&s.key_lifetime, defaults.key_lifetime_ms)?,
            dedup_window_ms: self.duration(&s.dedup_window, 0)?,
            cache_ttl_ms: self.duration(&s.cache_ttl, defaults.cache_ttl_ms)?,
            record_timeout_ms: self.duration(&s.record_timeout, defaults.record_timeout_ms)?,
            ordered: s.ordered.unwrap_or(false),
            first_charge: match &s.first_charge {
                Some(n) if *n.get_ref() > 1_000_000_000 => {
                    return self.fail(
                        n.span(),
                        format!(
                            "first_charge {} is too large: at most 1000000000",
                            n.get_ref()
                        ),
                    );
                }
                Some(n) => self.positive(n, "first_charge")?,
                None => defaults.first_charge,
            },
            declines: s.declines.iter().copied().collect::<BTreeSet<_>>(),
            require_key: s.require_key,
            ..Setup::default()
        };
        if let Some(source) = &s.id_source {
            setup.id_source = match source.get_ref().as_str() {
                "producer" => IdSource::Producer,
                "broker" => IdSource::Broker,
                "content" => IdSource::Content,
                other => {
                    return self.fail(
                        source.span(),
                        format!(
                            "unknown id_source `{other}`{}: use producer, broker or content",
                            did_you_mean(other, ["producer", "broker", "content"])
                        ),
                    );
                }
            };
        }
        if setup.lease_ms == 0 {
            let span = s.lease.as_ref().map(|l| l.span()).unwrap_or_default();
            return self.fail(span, "the lease must be longer than 0s".into());
        }
        if let Some(max) = &s.max_receives {
            setup.max_receives = self.positive(max, "max_receives")?;
        }
        if let Some(consumers) = &s.consumers {
            if consumers.get_ref().is_empty() {
                return self.fail(consumers.span(), "at least one consumer is needed".into());
            }
            let mut names = Vec::new();
            for c in consumers.get_ref() {
                let name = c.get_ref();
                if name.is_empty() || !name.chars().all(|ch| ch.is_ascii_alphanumeric()) {
                    return self.fail(
                        c.span(),
                        format!("consumer name `{name}` must be letters or digits, like A"),
                    );
                }
                if names.contains(name) {
                    return self.fail(c.span(), format!("consumer `{name}` is listed twice"));
                }
                names.push(name.clone());
            }
            setup.consumers = names;
        }
        if s.messages.get_ref().is_empty() {
            return self.fail(s.messages.span(), "at least one message is needed".into());
        }
        // Each message is checked on its own, so that every wrong one is
        // reported; the steps are checked only once all are sound.
        let mut bodies = std::collections::BTreeSet::new();
        for m in s.messages.get_ref() {
            let id = m.id.get_ref();
            if id.is_empty() || id.chars().any(char::is_whitespace) {
                self.keep::<()>(self.fail(
                    m.id.span(),
                    format!("message ID `{id}` must be one word, like m-7f3"),
                ));
                continue;
            }
            let Some(order) = self.keep(self.positive(&m.order, "order")) else {
                continue;
            };
            let (payment, status) = match (&m.amount, &m.status, &m.version) {
                (Some(amount), None, None) => {
                    let Some(amount) = self.keep(self.positive(amount, "amount")) else {
                        continue;
                    };
                    (Payment { order, amount }, None)
                }
                (None, Some(status), Some(version)) => {
                    let Some(version) = self.keep(self.positive(version, "version")) else {
                        continue;
                    };
                    (
                        Payment { order, amount: 0 },
                        Some(StatusUpdate {
                            status: status.get_ref().clone(),
                            version,
                        }),
                    )
                }
                _ => {
                    self.keep::<()>(self.fail(
                        m.id.span(),
                        format!(
                            "message `{id}` needs either `amount` (a payment) or `status` and `version` (a status change), not both"
                        ),
                    ));
                    continue;
                }
            };
            // The same ID with a different body is allowed: it is how a
            // scenario shows a producer that reuses IDs. The same ID with the
            // same body is a copy, which `publish` sends.
            let body = (
                id.clone(),
                payment.clone(),
                status.as_ref().map(|s| (s.status.clone(), s.version)),
            );
            if !bodies.insert(body) {
                self.keep::<()>(self.fail(
                    m.id.span(),
                    format!(
                        "message `{id}` appears twice with the same body; to send a copy, use the action `publish {id}`"
                    ),
                ));
                continue;
            }
            setup.messages.push(Message {
                id: id.clone(),
                payment,
                status,
            });
        }
        self.stop_if_found()?;
        Ok(setup)
    }

    fn check_refs(
        &self,
        action: &Action,
        setup: &Setup,
        ids: &std::collections::BTreeSet<&str>,
        span: Range<usize>,
    ) -> Result<(), ScenarioError> {
        if let Some(c) = action.consumer()
            && !setup.consumers.iter().any(|x| x == c)
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
    fn check_program(
        &self,
        steps: &[super::ScriptStep],
        strategy: &Strategy,
        raw: &RawScenario,
    ) -> Result<(), ScenarioError> {
        for (step, raw_step) in steps.iter().zip(&raw.steps) {
            for (action, raw_action) in step.actions.iter().zip(raw_step.actions.get_ref()) {
                if let Action::Run { to: Some(to), .. } = action
                    && strategy.position(to).is_none()
                {
                    let program: Vec<&str> =
                        strategy.program.iter().map(|op| op.keyword()).collect();
                    return self.fail(
                        raw_action.span(),
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

    /// One outcome, or a set of them: every entry known, none twice, and
    /// no right end (correct, dead-lettered) beside a wrong effect, since a
    /// run that went wrong is not also correct. Worst first.
    fn outcomes(
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

    fn expectation(&self, raw: &RawExpectation) -> Result<Expectation, ScenarioError> {
        Ok(Expectation {
            total: raw
                .total
                .as_ref()
                .map(|t| self.count(t, "total"))
                .transpose()?,
            charges: raw
                .charges
                .as_ref()
                .map(|c| self.count(c, "charges"))
                .transpose()?,
            outcomes: match &raw.outcome {
                None => None,
                Some(o) => Some(self.outcomes(o)?),
            },
        })
    }
}
