use super::cause::{Cause, StepWords, plain_step};
use serde::Serialize;

/// Who did something in a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    Broker,
    Producer,
    Consumer(String),
    Provider,
    Fault,
    Clock,
    /// The retention job that prunes old processed IDs.
    Janitor,
    /// What happens on the wire, which no party sees: only the observer
    /// (you) knows a packet was dropped.
    Network,
    /// You, watching from outside: what no party in the world can know.
    Observer,
}

impl Actor {
    pub fn label(&self) -> String {
        match self {
            Actor::Broker => "broker".into(),
            Actor::Producer => "producer".into(),
            Actor::Consumer(name) => format!("consumer {name}"),
            Actor::Provider => "provider".into(),
            Actor::Fault => "fault".into(),
            Actor::Clock => "clock".into(),
            Actor::Janitor => "janitor".into(),
            Actor::Network => "network (only you see this)".into(),
            Actor::Observer => "observer".into(),
        }
    }
}

/// How an event should be read: a front end picks a glyph and a colour from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Info,
    Good,
    Bad,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    pub actor: Actor,
    pub kind: EventKind,
    pub text: String,
    /// The causes `text` tells, when it tells causes that name steps: a
    /// front end that counts steps its own way (compare) words them again
    /// from these, never from the text.
    #[serde(skip)]
    pub causes: Vec<Cause>,
    /// `text` without the details a whole line of the events panel shows
    /// (the order and amount of a call): the form the story's own line
    /// takes where the whole one would be cut, so that a cut never drops
    /// the words at its end (`with no Idempotency-Key`). `None` where the
    /// text has no shorter form.
    #[serde(skip)]
    pub brief: Option<String>,
}

impl Event {
    pub fn new(actor: Actor, kind: EventKind, text: String) -> Event {
        Event {
            actor,
            kind,
            text,
            causes: Vec::new(),
            brief: None,
        }
    }

    /// An event with a shorter form of its text (`brief`).
    pub fn with_brief(mut self, brief: String) -> Event {
        self.brief = Some(brief);
        self
    }

    /// The observer's word on what a party could not see (an ack lost on
    /// the wire behind a lease that ran out).
    pub fn unseen(causes: Vec<Cause>) -> Event {
        Event {
            actor: Actor::Observer,
            kind: EventKind::Info,
            text: unseen_words(&causes, &plain_step),
            causes,
            brief: None,
        }
    }

    /// [`Event::sentence`], with the steps its causes name in `step`'s words.
    pub fn sentence_at(&self, step: StepWords<'_>) -> String {
        if self.causes.is_empty() {
            return self.sentence();
        }
        Event {
            text: unseen_words(&self.causes, step),
            ..self.clone()
        }
        .sentence()
    }

    /// The event's text with the steps its causes name in `step`'s words,
    /// for a run that counts its steps its own way (a found schedule's
    /// moves); text that names no step is kept.
    pub fn reword_steps(&mut self, step: StepWords<'_>) {
        if !self.causes.is_empty() {
            self.text = unseen_words(&self.causes, step);
        }
    }

    /// [`Event::sentence`] in the event's shorter form, where it has one.
    pub fn brief_sentence(&self) -> String {
        match &self.brief {
            Some(brief) if self.causes.is_empty() => Event {
                text: brief.clone(),
                ..self.clone()
            }
            .sentence(),
            _ => self.sentence(),
        }
    }

    /// The event as a sentence of its own, its subject first: an event's
    /// text is written to follow its actor (`charges the card $40: ch_81`).
    pub fn sentence(&self) -> String {
        let subject = match &self.actor {
            Actor::Consumer(name) => name.clone(),
            Actor::Broker => "The broker".into(),
            Actor::Producer => "The producer".into(),
            Actor::Provider => "The provider".into(),
            Actor::Fault => "Fault".into(),
            Actor::Clock => "The clock".into(),
            Actor::Janitor => "The retention job".into(),
            Actor::Network => "The network".into(),
            Actor::Observer => "The observer (you)".into(),
        };
        let mut line = format!("{subject} {}", self.text);
        if self.actor == Actor::Network {
            line.push_str(" (only you see this)");
        }
        if !line.ends_with(['.', '!', '?']) {
            line.push('.');
        }
        line
    }
}

/// What one step did, every party's part in the order it happened: the
/// first words of a step's narration, true at that step and no other.
pub fn step_told(events: &[Event]) -> String {
    // Each event's text as it stands: worded with the run's own steps
    // (`Event::reword_steps`), where a found schedule counts moves.
    events
        .iter()
        .map(Event::sentence)
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`step_told`], each event in its shorter form where it has one: the
/// own line where the whole one does not fit.
pub fn step_told_brief(events: &[Event]) -> String {
    events
        .iter()
        .map(Event::brief_sentence)
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`step_told`], with the steps its causes name in `step`'s words.
pub fn step_told_at(events: &[Event], step: StepWords<'_>) -> String {
    events
        .iter()
        .map(|e| e.sentence_at(step))
        .collect::<Vec<_>>()
        .join(" ")
}

fn unseen_words(causes: &[Cause], step: StepWords<'_>) -> String {
    let words: Vec<String> = causes.iter().map(|c| c.at(step).to_string()).collect();
    format!("sees what the broker cannot: {}", words.join(", "))
}

/// One statement a consumer sent to SQLite, as a reader would type it, and
/// what SQLite answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SqlRecord {
    pub consumer: String,
    pub sql: String,
    pub result: String,
    #[serde(skip)]
    pub answer: SqlAnswer,
}

/// What a statement's answer means for the handler, as a front end shows
/// it: it did its work (or found what it looked for), or it met nothing:
/// zero rows, a conflict on a unique key, or SQLITE_BUSY.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SqlAnswer {
    #[default]
    Done,
    Nothing,
}

impl SqlAnswer {
    pub fn when(done: bool) -> SqlAnswer {
        if done {
            SqlAnswer::Done
        } else {
            SqlAnswer::Nothing
        }
    }
}
