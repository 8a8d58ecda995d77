//! Did the customer pay what they owe? Expected effects come from the
//! distinct business facts (one charge per order); actual effects from the
//! committed payments table and the provider's ledger.

use super::cause::{Arrow, Cause, StepWords, chains_text_at, plain_step, times};
use serde::Serialize;

mod judge;

pub use judge::{
    FactState, KeyHolds, KeyedCharge, UnpaidRow, combine, judge, judge_fact, judge_status,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Correct,
    InProgress,
    DeadLettered,
    /// The message left the queue with no effect and no record of it.
    MessageLost,
    ChargeLost,
    /// An older status change overwrote a newer one.
    StaleState,
    Disagree,
    ChargedTwice,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Correct,
        Outcome::InProgress,
        Outcome::DeadLettered,
        Outcome::MessageLost,
        Outcome::ChargeLost,
        Outcome::StaleState,
        Outcome::Disagree,
        Outcome::ChargedTwice,
    ];

    /// The words scenario files and transcripts use.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::Correct => "correct",
            Outcome::InProgress => "in progress",
            Outcome::DeadLettered => "dead-lettered",
            Outcome::MessageLost => "message lost",
            Outcome::ChargeLost => "charge lost",
            Outcome::StaleState => "stale state",
            Outcome::Disagree => "provider and database disagree",
            Outcome::ChargedTwice => "charged twice",
        }
    }

    /// The fewest words that still name the outcome, for a headline with no
    /// room for its full words beside its figures (`disagree`): the figures
    /// beside it say which ledgers.
    pub fn short_text(self) -> &'static str {
        match self {
            Outcome::Disagree => "disagree",
            other => other.text(),
        }
    }

    /// The wrong effects, most severe first: the order tables show them in.
    pub const FAILURES: [Outcome; 5] = [
        Outcome::ChargedTwice,
        Outcome::ChargeLost,
        Outcome::Disagree,
        Outcome::MessageLost,
        Outcome::StaleState,
    ];

    /// The order counts of outcomes are listed in, as `idem check`'s table
    /// heads its columns (refused, twice, lost, disagree, gone, stale): the
    /// dead-lettered and the failures first, then what is still under way,
    /// correct last. The soak's report and dashboard list them so too
    /// (teacher trial: the soak read `correct · disagree · twice`, the
    /// check's table the other way round).
    pub const LISTED: [Outcome; 8] = [
        Outcome::DeadLettered,
        Outcome::ChargedTwice,
        Outcome::ChargeLost,
        Outcome::Disagree,
        Outcome::MessageLost,
        Outcome::StaleState,
        Outcome::InProgress,
        Outcome::Correct,
    ];

    /// The words for a count of payments with this outcome: `charged
    /// twice or more`, as `idem check`'s legend names its `twice` column,
    /// since a count of many payments takes in those charged three times
    /// too (one payment's own verdict says `charged 3 times`).
    pub fn count_text(self) -> &'static str {
        match self {
            Outcome::ChargedTwice => "charged twice or more",
            other => other.text(),
        }
    }

    /// From its words (`charged twice`) or its slug (`charged-twice`).
    pub fn parse(text: &str) -> Option<Outcome> {
        Self::ALL
            .into_iter()
            .find(|o| o.text() == text || o.slug() == text)
    }

    /// For file names: `charged-twice`.
    pub fn slug(self) -> String {
        self.text()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// One bit per outcome, for small sets of them.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// A wrong effect on the customer, as opposed to fine or not yet known.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Outcome::ChargeLost
                | Outcome::MessageLost
                | Outcome::StaleState
                | Outcome::Disagree
                | Outcome::ChargedTwice
        )
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// Which side recorded a charge, for the cause chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerKind {
    PaymentCommitted,
    ProviderCharged,
}

/// One effect that happened, with the chain of reasons behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    pub order: u32,
    pub amount: u32,
    pub kind: LedgerKind,
    pub step: usize,
    pub cause: Vec<Cause>,
    /// A committed row whose delivery got through only because retention
    /// had pruned its processed ID: what the retention cost. (Not in the
    /// JSON: the cause chain says it in words.)
    #[serde(skip)]
    pub let_through_by_retention: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactVerdict {
    pub order: u32,
    pub amount: u32,
    /// How many times the producer asked for this payment.
    pub expected: usize,
    /// For a status fact: the newest status the producer sent, and the
    /// status the committed row has.
    pub expected_status: Option<String>,
    pub actual_status: Option<String>,
    /// Committed rows in `payments` for this order.
    pub payments: usize,
    /// Charges the provider made for this order.
    pub charges: usize,
    /// The worst of `failures`; else correct, in progress or dead-lettered.
    pub outcome: Outcome,
    /// Every wrong effect that holds, worst first.
    pub failures: Vec<Outcome>,
    /// One chain per cause that contributed, each read effect first.
    pub causes: Vec<Vec<Cause>>,
    /// While the fact can still change: what is already wrong so far, in
    /// words that declare no outcome.
    pub at_risk: Option<String>,
    /// A charge the design makes safe to repeat, whose row is not
    /// committed yet: the provider keeps its key, so a retry gets the
    /// stored charge back. Not a risk, so not said as one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<String>,
    /// The step that did the harm, where one did: the first charge or row
    /// beyond what was owed. It can come before the outcome is declared.
    pub harm_step: Option<usize>,
    /// A correct fact: why each repeat did no harm (a delivery skipped as
    /// handled, a charge given back by the provider), each a chain read
    /// effect first. (Not in the JSON, which keeps its form.)
    #[serde(skip)]
    pub held: Vec<Vec<Cause>>,
    /// One of `causes` is an effect let through because retention had
    /// pruned the processed ID that would have stopped it. (Not in the
    /// JSON: the chain says it in words.)
    #[serde(skip)]
    pub let_through_by_retention: bool,
}

impl FactVerdict {
    /// Every outcome this fact ends with, worst first, as
    /// `Verdict::outcomes` counts them for a run.
    pub fn outcomes(&self) -> Vec<Outcome> {
        if self.failures.is_empty() {
            vec![self.outcome]
        } else {
            self.failures.clone()
        }
    }

    /// This fact's outcome in words that count (`charged 3 times`), and
    /// every other wrong effect that holds beside it.
    pub fn headline(&self) -> String {
        let counted = |o: Outcome| match o {
            Outcome::ChargedTwice => format!("charged {}", times(self.charges.max(self.payments))),
            other => other.text().to_string(),
        };
        let mut parts = vec![counted(self.outcome)];
        parts.extend(
            self.failures
                .iter()
                .filter(|o| **o != self.outcome)
                .map(|o| counted(*o)),
        );
        parts.join(", ")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub outcome: Outcome,
    /// Every wrong effect that holds over all facts, worst first.
    pub failures: Vec<Outcome>,
    pub facts: Vec<FactVerdict>,
    /// Every cause chain, those of the worst fact first.
    pub causes: Vec<Vec<Cause>>,
    pub at_risk: Vec<String>,
    /// What is under way and safe to repeat (see `FactVerdict::in_flight`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub in_flight: Vec<String>,
    /// More messages are still to be published in this run, so a verdict
    /// with nothing wrong yet is "so far": a later copy can still go wrong,
    /// and a verdict once declared is never taken back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// Set on the last frame of a run only, when it ends undecided: what
    /// is still open (`m-7f3 is still leased to A`). A verdict at the end
    /// says it ends unsettled and why, never just "in progress".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsettled: Vec<String>,
    /// A correct verdict's why: every correct fact's `held` chains.
    #[serde(skip)]
    pub held: Vec<Vec<Cause>>,
}

/// Said right after a correct verdict's word (`correct in this run`).
pub const IN_THIS_RUN: &str = " in this run";

/// How every report names a payment: by its order, and by its amount too
/// where the run has another payment of that order (`shared`), so two
/// lines about order 1042 never read as one payment's two stories.
pub fn payment_name(order: u32, amount: u32, shared: bool) -> String {
    if shared {
        format!("order {order} (${amount})")
    } else {
        format!("order {order}")
    }
}

impl Verdict {
    /// The name of `fact`'s payment, by [`payment_name`]'s rule: its
    /// amount too where another payment fact of this verdict has its
    /// order. A status fact is the order's own (one per order).
    pub fn fact_name(&self, fact: &FactVerdict) -> String {
        let payment = |f: &&FactVerdict| f.expected_status.is_none() && f.order == fact.order;
        let shared =
            fact.expected_status.is_none() && self.facts.iter().filter(payment).count() > 1;
        payment_name(fact.order, fact.amount, shared)
    }

    /// Nothing is wrong, but more messages are still to come: the outcome
    /// is not declared yet.
    pub fn undecided(&self) -> bool {
        !self.outcome.is_failure() && (self.open || self.outcome == Outcome::InProgress)
    }

    /// Whether it reads as correct: the claim one run on one schedule
    /// cannot make for every schedule, so every medium bounds it (`correct
    /// in this run`).
    pub fn claims_correct(&self) -> bool {
        !self.undecided() && self.outcome == Outcome::Correct
    }

    /// [`Verdict::chain`] with a correct verdict bounded to its run:
    /// `correct in this run; held: …`. A wrong end needs no bound: one run
    /// that breaks is proof enough.
    pub fn chain_of_one_run(&self) -> String {
        self.chain_of_one_run_with(Arrow::Ascii)
    }

    /// [`Verdict::chain_of_one_run`] with the arrow of the medium it is
    /// shown in (the lesson handout draws `←`).
    pub fn chain_of_one_run_with(&self, arrow: Arrow) -> String {
        let chain = self.chain_with(arrow);
        if !self.claims_correct() {
            return chain;
        }
        let head = self.headline();
        match chain.strip_prefix(&head) {
            Some(rest) => format!("{head}{IN_THIS_RUN}{rest}"),
            None => chain,
        }
    }

    /// Every outcome the run ends with, worst first: each wrong effect
    /// that holds, or else the one outcome that stands (correct,
    /// dead-lettered, in progress). What an expectation is held to.
    pub fn outcomes(&self) -> Vec<Outcome> {
        if self.failures.is_empty() {
            vec![self.outcome]
        } else {
            self.failures.clone()
        }
    }

    /// The earliest step that did harm behind a failure, if any fact tells.
    pub fn harm_step(&self) -> Option<usize> {
        self.facts
            .iter()
            .filter(|f| f.outcome.is_failure())
            .filter_map(|f| f.harm_step)
            .min()
    }

    /// The outcome in words that count: `charged 3 times`, and every other
    /// wrong effect that holds beside it.
    pub fn headline(&self) -> String {
        if self.ends_unsettled() {
            return ENDS_UNSETTLED.to_string();
        }
        let mut parts = vec![self.counted(self.outcome)];
        parts.extend(
            self.failures
                .iter()
                .filter(|o| **o != self.outcome)
                .map(|o| self.counted(*o)),
        );
        let mut line = parts.join(", ");
        if self.open && matches!(self.outcome, Outcome::Correct | Outcome::DeadLettered) {
            line.push_str(SO_FAR);
        }
        line
    }

    /// The headline in its fewest words: the worst outcome counted, and
    /// each further wrong effect after a `+` in its short words (`charged
    /// twice + disagree`). A row with no room for the whole headline beside
    /// its figures shortens these words rather than cut a figure.
    pub fn headline_short(&self) -> String {
        if self.headline_more() == 0 {
            return self.headline();
        }
        let mut line = self.counted(self.outcome);
        for o in self.failures.iter().filter(|o| **o != self.outcome) {
            line.push_str(" + ");
            line.push_str(o.short_text());
        }
        line
    }

    /// How many wrong effects the headline names after its first: a line
    /// with no room for them all (the header on a narrow screen) names the
    /// first and signs the rest, which the verdict's panel names in full.
    pub fn headline_more(&self) -> usize {
        if self.ends_unsettled() {
            return 0;
        }
        self.failures.iter().filter(|o| **o != self.outcome).count()
    }

    /// The headline's first part: the worst outcome, counted.
    pub fn headline_lead(&self) -> String {
        if self.headline_more() == 0 {
            return self.headline();
        }
        self.counted(self.outcome)
    }

    /// The run is over and nothing is declared: what is open is told
    /// (`unsettled`) instead of "in progress".
    pub fn ends_unsettled(&self) -> bool {
        self.undecided() && !self.unsettled.is_empty()
    }

    /// What is still open at the end, after the headline: `: m-7f3 is
    /// still leased to A; …`, or nothing.
    pub fn unsettled_text(&self) -> String {
        if self.ends_unsettled() {
            format!(": {}", self.unsettled.join("; "))
        } else {
            String::new()
        }
    }

    fn counted(&self, outcome: Outcome) -> String {
        if outcome != Outcome::ChargedTwice {
            return outcome.text().to_string();
        }
        let most = self
            .facts
            .iter()
            .filter(|f| f.failures.contains(&Outcome::ChargedTwice))
            .map(|f| f.charges.max(f.payments))
            .max()
            .unwrap_or(2);
        format!("charged {}", times(most))
    }

    /// One line: `charged twice <- m-7f3 redelivered <- lease expired <- ack
    /// lost at step 7`, every further chain after `; and`, and what is at risk
    /// while the run is still in progress.
    pub fn chain(&self) -> String {
        self.chain_with(Arrow::Ascii)
    }

    /// `chain` with the arrow of the medium it is shown in (`←` where the
    /// medium draws it): one arrow a line.
    pub fn chain_with(&self, arrow: Arrow) -> String {
        self.chain_at(arrow, &plain_step)
    }

    /// [`Verdict::chain_with`], with the steps its causes name in `step`'s
    /// words: a found schedule's are moves (`ack lost at move 7`).
    pub fn chain_at(&self, arrow: Arrow, step: StepWords<'_>) -> String {
        let mut line = self.headline();
        line.push_str(&self.unsettled_text());
        line.push_str(&chains_text_at(&self.causes, arrow, step));
        line.push_str(&self.held_text_at(arrow, step));
        for risk in &self.at_risk {
            line.push_str(" · at risk: ");
            line.push_str(risk);
        }
        for flight in &self.in_flight {
            line.push_str(" · in flight: ");
            line.push_str(flight);
        }
        line
    }
}

impl Verdict {
    /// Why nothing went wrong, where a repeat came and did no harm:
    /// `; held: m-7f3 skipped at step 13: … <- m-7f3 redelivered <- …`,
    /// each repeat after `; and`. A correct verdict that only said
    /// "correct" would leave the reader to guess which protection worked;
    /// the terminal's verdict panel says it, and so does every medium.
    pub fn held_text(&self, arrow: Arrow) -> String {
        self.held_text_at(arrow, &plain_step)
    }

    /// [`Verdict::held_text`], with the steps it names in `step`'s words.
    pub fn held_text_at(&self, arrow: Arrow, step: StepWords<'_>) -> String {
        if self.outcome.is_failure() || self.held.is_empty() {
            return String::new();
        }
        let told: Vec<String> = self
            .held
            .iter()
            .map(|chain| arrow.join_at(chain, step))
            .collect();
        format!("; held: {}", told.join("; and "))
    }
}

/// A set of outcomes in words: `charged twice`, or `charged twice and
/// provider and database disagree`.
pub fn outcome_set(outcomes: &[Outcome]) -> String {
    let words: Vec<&str> = outcomes.iter().map(|o| o.text()).collect();
    match words.split_last() {
        None => "nothing".to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What an undeclared outcome adds to its words while more messages are
/// still to come.
pub const SO_FAR: &str = " so far";

/// The headline of a run that ended with something still open.
pub const ENDS_UNSETTLED: &str = "ends unsettled";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::message::Payment;

    /// Order 1042, owed $40 once, judged with these counts and flags.
    fn judged(
        payments: usize,
        charges: usize,
        edit: impl FnOnce(&mut FactState<'_>),
    ) -> FactVerdict {
        let payment = Payment {
            order: 1042,
            amount: 40,
        };
        let mut state = FactState {
            payment: &payment,
            name: "order 1042".into(),
            expected: 1,
            payments,
            charges,
            pending: false,
            to_come: false,
            writing: false,
            doomed: false,
            recorded_unpaid: false,
            record_lasts: false,
            all_skipping: false,
            keyed_charge: None,
            row: Default::default(),
            acked_before_work: false,
            dead_lettered: false,
            poison: false,
            ledger: Vec::new(),
            notes: &[],
            replays: &[],
        };
        edit(&mut state);
        judge_fact(&state)
    }

    fn redelivered() -> Cause {
        Cause::Redelivered { id: "m-1".into() }
    }

    fn fact(payments: usize, charges: usize, pending: bool) -> FactVerdict {
        judged(payments, charges, |s| s.pending = pending)
    }

    /// Order 1042 paid twice: its second row let through by retention or
    /// not, and a charge per row whose chain the row's chain contains.
    fn paid_twice(second_by_retention: bool) -> FactVerdict {
        let payment = Payment {
            order: 1042,
            amount: 40,
        };
        let entry = |kind, step, cause: &[Cause], retention| LedgerEntry {
            order: 1042,
            amount: 40,
            kind,
            step,
            cause: cause.to_vec(),
            let_through_by_retention: retention,
        };
        let ledger = [
            entry(LedgerKind::ProviderCharged, 3, &[], false),
            entry(LedgerKind::PaymentCommitted, 4, &[], false),
            entry(LedgerKind::ProviderCharged, 9, &[redelivered()], false),
            // The cause in front is not what counts: only the typed flag is.
            entry(
                LedgerKind::PaymentCommitted,
                10,
                &[Cause::LeaseExpired, redelivered()],
                second_by_retention,
            ),
        ];
        judge_fact(&FactState {
            payment: &payment,
            name: "order 1042".into(),
            expected: 1,
            payments: 2,
            charges: 2,
            pending: false,
            to_come: false,
            doomed: false,
            recorded_unpaid: false,
            record_lasts: false,
            all_skipping: false,
            keyed_charge: None,
            row: Default::default(),
            acked_before_work: false,
            dead_lettered: false,
            poison: false,
            writing: false,
            ledger: ledger.iter().collect(),
            notes: &[],
            replays: &[],
        })
    }

    #[test]
    fn a_let_through_by_retention_reaches_the_verdict_typed() {
        let by_retention = paid_twice(true);
        assert_eq!(by_retention.outcome, Outcome::ChargedTwice);
        assert!(by_retention.let_through_by_retention);
        // The longer chain (the row's) took the charge's place.
        assert_eq!(by_retention.causes, [[Cause::LeaseExpired, redelivered()]]);
        assert!(!paid_twice(false).let_through_by_retention);
        // Nothing is let through where nothing went wrong.
        assert!(!fact(1, 1, false).let_through_by_retention);
    }

    #[test]
    fn outcomes_follow_the_counts() {
        assert_eq!(fact(1, 1, false).outcome, Outcome::Correct);
        assert_eq!(fact(1, 1, true).outcome, Outcome::InProgress);
        assert_eq!(fact(2, 2, false).outcome, Outcome::ChargedTwice);
        // Two charges for one order: charged twice, and the two sides disagree.
        assert_eq!(fact(1, 2, false).outcome, Outcome::ChargedTwice);
        assert_eq!(
            fact(1, 2, false).failures,
            [Outcome::ChargedTwice, Outcome::Disagree]
        );
        assert_eq!(fact(1, 2, true).outcome, Outcome::ChargedTwice);
        assert_eq!(fact(2, 1, false).outcome, Outcome::Disagree);
        assert_eq!(fact(0, 0, true).outcome, Outcome::InProgress);
        assert_eq!(fact(0, 0, false).outcome, Outcome::ChargeLost);
        assert_eq!(fact(0, 1, false).outcome, Outcome::Disagree);
        assert_eq!(fact(0, 1, true).outcome, Outcome::InProgress);
    }

    fn dead_lettered(payments: usize, charges: usize, poison: bool) -> FactVerdict {
        judged(payments, charges, |s| {
            s.dead_lettered = true;
            s.poison = poison;
        })
    }

    #[test]
    fn the_dead_letter_queue_is_a_right_end_only_for_a_refused_message() {
        assert_eq!(dead_lettered(0, 0, true).outcome, Outcome::DeadLettered);
        assert_eq!(dead_lettered(0, 0, false).outcome, Outcome::ChargeLost);
        // Charged, then dead-lettered with no row: the two sides disagree.
        assert_eq!(dead_lettered(0, 1, false).outcome, Outcome::Disagree);
        assert_eq!(dead_lettered(0, 1, true).outcome, Outcome::Disagree);
    }

    #[test]
    fn a_double_charge_is_declared_at_once_and_everything_else_waits() {
        let twice_so_far = fact(2, 2, true);
        assert_eq!(twice_so_far.outcome, Outcome::ChargedTwice);
        let half_done = fact(0, 1, true);
        assert_eq!(half_done.outcome, Outcome::InProgress);
        assert!(half_done.at_risk.is_some());
        let three = fact(2, 3, false);
        assert_eq!(three.failures, [Outcome::ChargedTwice, Outcome::Disagree]);
        let v = combine(vec![three]);
        assert_eq!(
            v.headline(),
            "charged 3 times, provider and database disagree"
        );
    }

    #[test]
    fn a_wrong_effect_a_copy_to_come_could_undo_is_only_so_far() {
        // Two rows, one charge, nothing pending: declared, unless a copy of
        // the payment is still to be published (it may set it right).
        assert_eq!(judged(2, 1, |_| {}).outcome, Outcome::Disagree);
        let waiting = judged(2, 1, |s| s.to_come = true);
        assert_eq!(waiting.outcome, Outcome::InProgress);
        assert!(waiting.failures.is_empty());
        assert!(waiting.at_risk.is_some_and(|r| r.contains("so far")));
        // No charge yet: a lost charge is not declared either.
        assert_eq!(
            judged(0, 0, |s| s.to_come = true).outcome,
            Outcome::InProgress
        );
        // A double charge cannot be undone: declared at once all the same.
        assert_eq!(
            judged(2, 2, |s| s.to_come = true).outcome,
            Outcome::ChargedTwice
        );
        // Right so far stays right (the headline adds "so far").
        assert_eq!(judged(1, 1, |s| s.to_come = true).outcome, Outcome::Correct);
    }

    #[test]
    fn outcome_words_round_trip() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::parse(o.text()), Some(o));
            assert_eq!(Outcome::parse(&o.slug()), Some(o));
        }
        assert_eq!(Outcome::Disagree.slug(), "provider-and-database-disagree");
    }

    #[test]
    fn failures_are_exactly_the_wrong_effects() {
        let mut failures: Vec<Outcome> = Outcome::ALL
            .into_iter()
            .filter(|o| o.is_failure())
            .collect();
        let mut listed = Outcome::FAILURES.to_vec();
        failures.sort();
        listed.sort();
        assert_eq!(failures, listed);
    }
}
