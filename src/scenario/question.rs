//! Questions a scenario asks before an action runs, for predict mode. The
//! author names only the *subject* (a figure of the world); the right
//! answer is computed from the frames that follow (`timeline::asked`), so
//! a question cannot claim an answer the run does not show.

use std::collections::BTreeMap;

/// What a question asks about: one figure every frame has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The committed payments total, in dollars.
    PaymentsTotal,
    /// Committed rows in the payments table.
    PaymentsRows,
    /// Rows in the payments table, committed or not, as its panel lists
    /// them: what a rollback takes away.
    PaymentsRowsAny,
    /// Charges the provider has made, in all.
    ProviderCharges,
    /// Rows in processed_messages, committed or not: what a rollback
    /// takes away.
    ProcessedRowsAny,
    /// Committed rows in processed_messages.
    ProcessedRows,
    /// Whether the provider makes a charge during the action.
    ChargesAgain,
    /// What the provider answers the first call made during the action,
    /// or that no call is made.
    ProviderAnswer,
    /// The consumer holding the message's lease; "no one" while it waits,
    /// and once it is acked or dead-lettered.
    Holder(String),
    /// Where the message is: waiting, in flight, acked, dead-lettered.
    MessageState(String),
    /// How many times the broker has delivered the message.
    Deliveries(String),
}

/// The names a file writes after `about =`, with whether each needs `message`.
pub const SUBJECTS: [(&str, bool); 11] = [
    ("payments_total", false),
    ("payments_rows", false),
    ("payments_rows_any", false),
    ("provider_charges", false),
    ("processed_messages_rows", false),
    ("processed_messages_rows_any", false),
    ("charges_again", false),
    ("provider_answer", false),
    ("holder", true),
    ("message_state", true),
    ("deliveries", true),
];

/// The places a message can be, as a question's choices.
pub const MESSAGE_STATES: [&str; 4] = ["waiting", "in flight", "acked", "dead-lettered"];

/// What the provider can answer a call, as a question's choices.
pub const PROVIDER_ANSWERS: [&str; 5] = [
    "201, a new charge",
    "201, the stored result (a replay)",
    "409 Conflict: still processing",
    "another error (400, 402 or 422)",
    "no call is made",
];

/// How the learner answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number, typed; `money` shows it as dollars.
    Number { money: bool },
    /// One of these, by its number (1 is the first).
    Choice(Vec<String>),
}

impl Subject {
    /// The subject named `about`, with the message it asks about if it takes one.
    pub fn parse(about: &str, message: Option<&str>) -> Option<Subject> {
        let m = || message.map(str::to_string);
        Some(match about {
            "payments_total" => Subject::PaymentsTotal,
            "payments_rows" => Subject::PaymentsRows,
            "payments_rows_any" => Subject::PaymentsRowsAny,
            "provider_charges" => Subject::ProviderCharges,
            "processed_messages_rows" => Subject::ProcessedRows,
            "processed_messages_rows_any" => Subject::ProcessedRowsAny,
            "charges_again" => Subject::ChargesAgain,
            "provider_answer" => Subject::ProviderAnswer,
            "holder" => Subject::Holder(m()?),
            "message_state" => Subject::MessageState(m()?),
            "deliveries" => Subject::Deliveries(m()?),
            _ => return None,
        })
    }

    /// The name a file writes after `about =`.
    pub fn about(&self) -> &'static str {
        match self {
            Subject::PaymentsTotal => "payments_total",
            Subject::PaymentsRows => "payments_rows",
            Subject::PaymentsRowsAny => "payments_rows_any",
            Subject::ProviderCharges => "provider_charges",
            Subject::ProcessedRows => "processed_messages_rows",
            Subject::ProcessedRowsAny => "processed_messages_rows_any",
            Subject::ChargesAgain => "charges_again",
            Subject::ProviderAnswer => "provider_answer",
            Subject::Holder(_) => "holder",
            Subject::MessageState(_) => "message_state",
            Subject::Deliveries(_) => "deliveries",
        }
    }

    pub fn message(&self) -> Option<&str> {
        match self {
            Subject::Holder(m) | Subject::MessageState(m) | Subject::Deliveries(m) => Some(m),
            _ => None,
        }
    }

    /// How it is answered; `consumers` are the setup's, for `holder`.
    pub fn kind(&self, consumers: &[String]) -> Kind {
        match self {
            Subject::PaymentsTotal => Kind::Number { money: true },
            Subject::PaymentsRows
            | Subject::PaymentsRowsAny
            | Subject::ProviderCharges
            | Subject::ProcessedRows
            | Subject::ProcessedRowsAny
            | Subject::Deliveries(_) => Kind::Number { money: false },
            Subject::ChargesAgain => Kind::Choice(vec!["yes".into(), "no".into()]),
            Subject::ProviderAnswer => {
                Kind::Choice(PROVIDER_ANSWERS.iter().map(|s| s.to_string()).collect())
            }
            Subject::Holder(_) => Kind::Choice(
                consumers
                    .iter()
                    .cloned()
                    .chain(std::iter::once(NO_ONE.to_string()))
                    .collect(),
            ),
            Subject::MessageState(_) => {
                Kind::Choice(MESSAGE_STATES.iter().map(|s| s.to_string()).collect())
            }
        }
    }

    /// The figure's short name, beside its value in a reveal.
    pub fn figure(&self) -> String {
        match self {
            Subject::PaymentsTotal => "payments total".into(),
            Subject::PaymentsRows => "payments rows".into(),
            Subject::PaymentsRowsAny => "payments rows, committed or not".into(),
            Subject::ProviderCharges => "provider charges".into(),
            Subject::ProcessedRows => "processed_messages rows".into(),
            Subject::ProcessedRowsAny => "processed_messages rows, committed or not".into(),
            Subject::ChargesAgain => "the provider charged in this action".into(),
            // Its answer may be that no request came: "answered: no call
            // is made" would contradict itself.
            Subject::ProviderAnswer => "at the provider".into(),
            Subject::Holder(m) => format!("the lease on {m} is held by"),
            Subject::MessageState(m) => format!("{m} is"),
            Subject::Deliveries(m) => format!("deliveries of {m}"),
        }
    }

    /// The figure in a word or two, where a short row (the score's list at
    /// 80x24) has no room for `figure` but must still say what a question
    /// asked about.
    pub fn short(&self) -> String {
        match self {
            Subject::PaymentsTotal => "total".into(),
            Subject::PaymentsRows | Subject::PaymentsRowsAny => "payments".into(),
            Subject::ProviderCharges => "charges".into(),
            Subject::ProcessedRows | Subject::ProcessedRowsAny => "processed".into(),
            Subject::ChargesAgain => "charged".into(),
            Subject::ProviderAnswer => "provider".into(),
            Subject::Holder(m) => format!("{m} lease"),
            Subject::MessageState(m) => m.clone(),
            Subject::Deliveries(m) => format!("{m} deliveries"),
        }
    }

    /// The question in plain words, when the author gives none.
    pub fn wording(&self) -> String {
        match self {
            Subject::PaymentsTotal => {
                "When this action has run, what is the payments total (committed)?".into()
            }
            Subject::PaymentsRowsAny => {
                "When this action has run, how many rows does payments hold, committed or not?"
                    .into()
            }
            Subject::PaymentsRows => {
                "When this action has run, how many committed rows are in payments?".into()
            }
            Subject::ProviderCharges => {
                "When this action has run, how many charges has the provider made in all?".into()
            }
            Subject::ProcessedRows => {
                "When this action has run, how many committed rows are in processed_messages?"
                    .into()
            }
            Subject::ProcessedRowsAny => {
                "When this action has run, how many rows does processed_messages hold, committed or not?"
                    .into()
            }
            Subject::ChargesAgain => "Does the provider make a charge during this action?".into(),
            Subject::ProviderAnswer => {
                // Asked where no call comes as well, so it must not take
                // one for granted: `no call is made` is among its answers.
                "Does the provider get a request in this action, and if so, what does it answer?"
                    .into()
            }
            Subject::Holder(m) => {
                format!("When this action has run, which consumer holds the lease on {m}?")
            }
            Subject::MessageState(m) => {
                format!("When this action has run, where is {m} in the broker?")
            }
            Subject::Deliveries(m) => {
                format!("When this action has run, how many times has the broker delivered {m}?")
            }
        }
    }
}

/// The choice for a message nobody holds.
pub const NO_ONE: &str = "no one";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub subject: Subject,
    /// The author's wording, if the generated one does not fit the moment.
    pub text: Option<String>,
    /// One sentence on why the answer is what it is.
    pub why: String,
    /// The sentence for another design, where the main one is untrue; a
    /// key `DESIGN@postgres` is for that design's run on PostgreSQL.
    pub why_for: BTreeMap<String, String>,
    /// The designs that ask it; empty for every design the scenario lists.
    pub designs: Vec<String>,
}

impl Question {
    /// The question as the learner reads it.
    pub fn wording(&self) -> String {
        self.text.clone().unwrap_or_else(|| self.subject.wording())
    }

    /// Why the answer is what it is, for a run under `design`, on
    /// PostgreSQL or not: the file's `DESIGN@postgres` sentence first on
    /// the server, where the engines' locks make the reason differ.
    pub fn why(&self, design: &str, on_postgres: bool) -> &str {
        on_postgres
            .then(|| self.why_for.get(&super::engine_key::on_engine(design)))
            .flatten()
            .or_else(|| self.why_for.get(design))
            .unwrap_or(&self.why)
    }

    pub fn asked_under(&self, design: &str) -> bool {
        self.designs.is_empty() || self.designs.iter().any(|d| d == design)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subject_name_parses_back_to_itself() {
        for (about, needs_message) in SUBJECTS {
            let message = needs_message.then_some("m-7f3");
            let subject = Subject::parse(about, message).expect(about);
            assert_eq!(subject.about(), about);
            assert_eq!(subject.message(), message);
            if needs_message {
                assert!(
                    Subject::parse(about, None).is_none(),
                    "{about} needs a message"
                );
            }
        }
        assert!(Subject::parse("payment_total", None).is_none());
    }

    #[test]
    fn the_holder_can_be_any_consumer_or_no_one() {
        let kind = Subject::Holder("m-7f3".into()).kind(&["A".into(), "B".into()]);
        assert_eq!(
            kind,
            Kind::Choice(vec!["A".into(), "B".into(), "no one".into()])
        );
    }
}
