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
}

impl Event {
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
    events
        .iter()
        .map(Event::sentence)
        .collect::<Vec<_>>()
        .join(" ")
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
