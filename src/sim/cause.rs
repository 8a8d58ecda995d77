//! What can cause an outcome, as values. A verdict's chains are lists of
//! these, and text is made from them only where it is shown: nothing reads
//! a cause back out of its words.

use super::admission::Admission;
use super::provider::Reply;
use super::skip::Skip;
use super::{Millis, format_duration};
use serde::{Serialize, Serializer};
use std::fmt;

/// One link of a cause chain. A chain is a `Vec<Cause>` read effect first:
/// each link happened because of the one after it (`charged twice ←
/// m-7f3 redelivered ← lease expired ← ack lost at step 7`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    // What the verdict sees at the end: the effect a chain explains.
    /// The two ledgers' counts for a fact (`name`: `order 1042`, or with
    /// its amount where another payment shares the order).
    Counts {
        fact: String,
        charges: usize,
        payments: usize,
    },
    /// A copy of the order's message went to the dead-letter queue.
    DeadLettered {
        order: u32,
    },
    /// Dead-lettered where the provider refuses the request every time:
    /// where such a message belongs.
    DeadLetteredRefused {
        order: u32,
    },
    /// Dead-lettered before any attempt saved the work.
    ReceivesRanOut {
        order: u32,
    },
    /// The broker removed the message on an ack that came before the work.
    RemovedBeforeWork {
        order: u32,
    },
    /// The ID is recorded as handled, the payment is not.
    RecordedUnpaid {
        order: u32,
    },
    /// No copy is left to deliver, and the work was never saved.
    NothingLeft {
        order: u32,
    },
    /// A status change went to the dead-letter queue.
    StatusDeadLettered {
        order: u32,
    },
    /// The order ends at another status than the newest one sent.
    StaleStatus {
        order: u32,
        actual: Option<String>,
        expected: String,
    },

    // What happened during the run.
    /// A handler found the message handled before and did nothing.
    Skipped {
        id: String,
        step: usize,
        consumer: String,
        skip: Skip,
    },
    /// This delivery is a redelivery of the message.
    Redelivered {
        id: String,
    },
    /// A lease ran out without an ack.
    LeaseExpired,
    /// The lease of a message's `delivery`-th receive ran out while its
    /// holder was still working. The delivery tells this lease from the
    /// others a chain names: `A was still working` beside `A crashed at
    /// move 2` read as a contradiction where A had restarted and taken
    /// the message again (trial 38).
    StillWorking {
        consumer: String,
        delivery: u32,
    },
    Crashed {
        consumer: String,
        step: usize,
    },
    AckLost {
        step: usize,
    },
    /// The handler gave up on an error reply and left the lease to run out.
    GaveUp {
        consumer: String,
        reply: Reply,
        step: usize,
    },
    /// Another handler owned the work, so this one left without acking.
    BackedOff {
        consumer: String,
        key: String,
    },
    /// The message went to the dead-letter queue: its receives ran out.
    DeadLetterQueue {
        id: String,
        receives: u32,
    },
    /// A later copy the producer published again; `window` is the
    /// broker's deduplication window it came after (0: none).
    ProducerRetry {
        id: String,
        copy: u32,
        window: Millis,
    },
    /// The producer gave order `order` the ID of order `first`.
    ReusedId {
        id: String,
        first: u32,
        order: u32,
    },
    /// The duplicate check let a repeat through.
    Admitted(Admission),
    /// Acked before any payment was committed.
    AckedUnpaid {
        id: String,
        step: usize,
    },
    /// An older status change wrote over a newer one.
    WroteOver {
        id: String,
        version: u32,
        newer: String,
        newer_version: u32,
        step: usize,
    },
    /// A design that keeps no record of what it handled did a repeat's
    /// work again. `row`: it wrote another payment row; `charge`: it made
    /// another charge, `Some(with_key)`. The row's chain and the charge's
    /// chain of one delivery join into one link (`joined`).
    Repeated {
        consumer: String,
        id: String,
        row: bool,
        charge: Option<bool>,
    },
    /// The provider had seen the key before and gave back its stored
    /// charge instead of making another: why a repeated call did no harm.
    Replayed {
        key: String,
        charge: String,
        step: usize,
    },
    /// A call to the provider with no Idempotency-Key.
    NoKey {
        consumer: String,
    },
    /// A call to the provider after a lost response.
    CalledAgain {
        consumer: String,
        with_key: bool,
    },
    ResponseLost {
        step: usize,
    },
    /// The provider answered with an error.
    ProviderAnswered {
        reply: Reply,
        step: usize,
    },

    // What happened to a learner's own program under `idem test`. `who`
    // names the instance as the report does (`A (start 1)`); idem sees its
    // messages, never its steps, so these are what crossed the protocol.
    /// The provider charged for the program.
    ProgramCharged {
        charge: String,
        who: String,
        order: u32,
        amount: u32,
        key: Option<String>,
        /// The delivery number and message ID it held, if it held one.
        delivery: Option<(u32, String)>,
    },
    /// A payment row the program's own database holds.
    ProgramRow {
        row: usize,
        order: u32,
        amount: u32,
    },
    /// The instance's process ended by itself.
    ProgramEnded {
        who: String,
        status: String,
    },
    /// idem killed the instance at a fault point.
    ProgramKilled {
        who: String,
        point: KillPoint,
    },
    /// The answer to the instance's charge was lost: its call timed out.
    ProgramResponseLost {
        who: String,
    },
    /// The broker never got the instance's ack.
    ProgramAckLost {
        who: String,
    },
    /// The lease the instance held on `id` ran out while it worked.
    ProgramLeaseRanOut {
        who: String,
        id: String,
    },
    /// The producer published `id` again.
    ProgramDuplicate {
        id: String,
    },
    /// The broker removed `id` on the instance's ack of this delivery,
    /// which made no charge, with no payment row recorded: what idem saw
    /// of a delivery that skipped the work. `recorded`: the handled query
    /// listed `id` at that ack, so the delivery met the record and took
    /// the work as done (idem's inference: it sees the ack, not the code).
    ProgramAckedUnworked {
        who: String,
        id: String,
        delivery: u32,
        recorded: bool,
    },
    /// The handled query lists `id` on `records` rows at the end: the
    /// program recorded it again and nothing refused it, which a unique
    /// key on the ID would have (that no such key holds is inferred).
    /// Why a second delivery's row stands beside the first's.
    ProgramRecordedAgain {
        id: String,
        records: usize,
    },
}

/// Where `idem test` kills a learner's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillPoint {
    BeforeCharge,
    AfterCharge,
    AfterAck,
}

impl fmt::Display for KillPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KillPoint::BeforeCharge => "killed before its charge reached the provider",
            KillPoint::AfterCharge => "killed after its charge, before the answer",
            KillPoint::AfterAck => "killed right after the broker took its ack",
        })
    }
}

pub use super::step_name::{StepWords, plain_step};

/// A cause in words, its steps named by `step`.
pub struct At<'a> {
    cause: &'a Cause,
    step: StepWords<'a>,
}

impl Cause {
    /// The cause's sentence with its steps named by `step`.
    pub fn at<'a>(&'a self, step: StepWords<'a>) -> At<'a> {
        At { cause: self, step }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.at(&plain_step).fmt(f)
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |step: &usize| (self.step)(*step);
        match self.cause {
            Cause::Counts {
                fact,
                charges,
                payments,
            } => write!(
                f,
                "{fact}: the provider charged {}, the database has {}",
                times(*charges),
                rows(*payments)
            ),
            Cause::DeadLettered { order } => {
                write!(f, "order {order} moved to the dead-letter queue")
            }
            Cause::DeadLetteredRefused { order } => write!(
                f,
                "order {order} moved to the dead-letter queue: the provider refuses it every time"
            ),
            Cause::ReceivesRanOut { order } => write!(
                f,
                "order {order} moved to the dead-letter queue: its receives ran out before any attempt saved the work"
            ),
            Cause::RemovedBeforeWork { order } => write!(
                f,
                "the broker removed the message for order {order} before its work was saved"
            ),
            Cause::RecordedUnpaid { order } => {
                write!(f, "order {order} is recorded as handled, with no payment")
            }
            Cause::NothingLeft { order } => {
                write!(f, "nothing left to redeliver for order {order}")
            }
            Cause::StatusDeadLettered { order } => {
                write!(f, "a status change for order {order} was dead-lettered")
            }
            Cause::StaleStatus {
                order,
                actual,
                expected,
            } => write!(
                f,
                "order {order} ends {}, its newest status is {expected}",
                actual.as_deref().unwrap_or("without a status")
            ),
            Cause::Skipped {
                id,
                step,
                consumer,
                skip,
            } => write!(f, "{id} skipped at {}: {}", at(step), skip.reason(consumer)),
            Cause::Redelivered { id } => write!(f, "{id} redelivered"),
            Cause::Replayed { key, charge, step } => write!(
                f,
                "the provider replayed {charge} for key {key} at {}: no new charge",
                at(step)
            ),
            Cause::LeaseExpired => f.write_str("lease expired"),
            Cause::StillWorking { consumer, delivery } => {
                write!(f, "{consumer} was still working on delivery {delivery}")
            }
            Cause::Crashed { consumer, step } => write!(f, "{consumer} crashed at {}", at(step)),
            Cause::AckLost { step } => write!(f, "ack lost at {}", at(step)),
            Cause::GaveUp {
                consumer,
                reply,
                step,
            } => write!(
                f,
                "{consumer} gave up after {} at {}",
                reply.describe(),
                at(step)
            ),
            Cause::BackedOff { consumer, key } => {
                write!(f, "{consumer} backed off: {key} in progress elsewhere")
            }
            Cause::DeadLetterQueue { id, receives } => write!(
                f,
                "{id} moved to the dead-letter queue after {receives} receives"
            ),
            Cause::ProducerRetry { id, copy, window } => {
                write!(f, "copy {copy} of {id} published by a producer retry")?;
                if *window > 0 {
                    write!(
                        f,
                        " after the broker's {} deduplication window",
                        format_duration(*window)
                    )?;
                }
                Ok(())
            }
            Cause::ReusedId { id, first, order } => write!(
                f,
                "the producer reused the ID {id} of order {first} for order {order}"
            ),
            Cause::Admitted(admission) => admission.fmt_at(f, self.step),
            Cause::AckedUnpaid { id, step } => {
                write!(f, "{id} acked at {} with no payment committed", at(step))
            }
            Cause::WroteOver {
                id,
                version,
                newer,
                newer_version,
                step,
            } => write!(
                f,
                "{id} (version {version}) wrote over {newer} (version {newer_version}) in its transaction at {}",
                at(step)
            ),
            Cause::Repeated {
                consumer,
                id,
                row,
                charge,
            } => {
                write!(f, "{consumer} did {id}'s work again, with no record of it")?;
                let mut effects = Vec::new();
                if *row {
                    effects.push("another row");
                }
                match charge {
                    Some(false) => effects.push("another charge with no Idempotency-Key"),
                    Some(true) => effects.push("another charge"),
                    None => {}
                }
                if !effects.is_empty() {
                    write!(f, ": {}", effects.join(", "))?;
                }
                Ok(())
            }
            Cause::NoKey { consumer } => write!(
                f,
                "{consumer} called the provider without an Idempotency-Key"
            ),
            Cause::CalledAgain { consumer, with_key } => {
                write!(f, "{consumer} called the provider again")?;
                if !with_key {
                    f.write_str(" without an Idempotency-Key")?;
                }
                Ok(())
            }
            Cause::ResponseLost { step } => write!(f, "response lost at {}", at(step)),
            Cause::ProviderAnswered { reply, step } => write!(
                f,
                "the provider answered {} at {}",
                reply.describe(),
                at(step)
            ),
            Cause::ProgramCharged {
                charge,
                who,
                order,
                amount,
                key,
                delivery,
            } => {
                write!(f, "{charge}: {who} charged order {order} ${amount} ")?;
                match key {
                    Some(k) => write!(f, "with Idempotency-Key {k}")?,
                    None => f.write_str("with no Idempotency-Key")?,
                }
                match delivery {
                    Some((n, id)) => write!(f, ", on delivery {n} of {id}"),
                    None => f.write_str(", for no message it held"),
                }
            }
            Cause::ProgramRow { row, order, amount } => write!(
                f,
                "row {row} of order {order} ${amount} in the program's database"
            ),
            Cause::ProgramEnded { who, status } => write!(f, "{who} ended by itself ({status})"),
            Cause::ProgramKilled { who, point } => write!(f, "{who} was {point}"),
            Cause::ProgramResponseLost { who } => {
                write!(f, "{who}'s charge response was lost (the call timed out)")
            }
            Cause::ProgramAckLost { who } => write!(f, "{who}'s ack was lost"),
            Cause::ProgramLeaseRanOut { who, id } => {
                write!(f, "the lease {who} held on {id} ran out")
            }
            Cause::ProgramDuplicate { id } => write!(f, "the producer published {id} again"),
            Cause::ProgramAckedUnworked {
                who,
                id,
                delivery,
                recorded,
            } => {
                write!(
                    f,
                    "{who} acked delivery {delivery} of {id} without a charge or a payment row"
                )?;
                if *recorded {
                    write!(
                        f,
                        " while {id} was recorded as handled: it skipped the work (inferred)"
                    )?;
                }
                Ok(())
            }
            Cause::ProgramRecordedAgain { id, records } => write!(
                f,
                "{id} is recorded as handled {}: nothing refused the {} record (inferred: no unique key holds on the ID)",
                times(*records),
                if *records == 2 { "second" } else { "later" }
            ),
        }
    }
}

impl Cause {
    /// The one link that tells both `self` and `other`, where they are the
    /// row and the charge of one repeated delivery: the verdict then says
    /// once what that delivery did again, not twice in two chains.
    pub fn joined(&self, other: &Cause) -> Option<Cause> {
        match (self, other) {
            (
                Cause::Repeated {
                    consumer,
                    id,
                    row,
                    charge,
                },
                Cause::Repeated {
                    consumer: c2,
                    id: i2,
                    row: r2,
                    charge: ch2,
                },
            ) if consumer == c2 && id == i2 => Some(Cause::Repeated {
                consumer: consumer.clone(),
                id: id.clone(),
                row: *row || *r2,
                charge: charge.or(*ch2),
            }),
            _ => None,
        }
    }
}

/// In JSON a cause is its sentence, as the transcript shows it.
impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

pub(crate) fn times(n: usize) -> String {
    match n {
        0 => "not at all".into(),
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// Committed rows (an open transaction's row may still roll back), in
/// the verdict's figures' words: `no committed payment`, `1 committed
/// payment`, `2 committed payments`.
pub(crate) fn rows(n: usize) -> String {
    let (one, many) = super::counter_words::COMMITTED_PAYMENTS;
    match n {
        0 => format!("no {one}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// The arrow between the links of a chain: one per medium, never mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// `←`, on a screen or a page that draws it.
    Drawn,
    /// `<-`, in plain text and under `--ascii`.
    Ascii,
}

impl Arrow {
    pub fn as_str(self) -> &'static str {
        match self {
            Arrow::Drawn => "←",
            Arrow::Ascii => "<-",
        }
    }

    /// One chain's links joined by this arrow: `a ← b ← c`.
    pub fn join(self, chain: &[Cause]) -> String {
        self.join_at(chain, &plain_step)
    }

    /// [`Arrow::join`], with the steps its links name in `step`'s words.
    pub fn join_at(self, chain: &[Cause], step: StepWords<'_>) -> String {
        let links: Vec<String> = chain.iter().map(|c| c.at(step).to_string()).collect();
        links.join(&format!(" {self} "))
    }
}

impl fmt::Display for Arrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The chains after an effect: ` ← a ← b; and ← c`, one arrow throughout.
pub fn chains_text(chains: &[Vec<Cause>], arrow: Arrow) -> String {
    chains_text_at(chains, arrow, &plain_step)
}

/// [`chains_text`], with the steps its causes name in `step`'s words.
pub fn chains_text_at(chains: &[Vec<Cause>], arrow: Arrow, step: StepWords<'_>) -> String {
    let mut out = String::new();
    for (i, chain) in chains.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { "; and " });
        out.push_str(&format!("{arrow} {}", arrow.join_at(chain, step)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_reads_effect_first_with_one_arrow() {
        let chains = vec![
            vec![
                Cause::Redelivered { id: "m-7f3".into() },
                Cause::LeaseExpired,
                Cause::AckLost { step: 7 },
            ],
            vec![Cause::NoKey {
                consumer: "A".into(),
            }],
        ];
        assert_eq!(
            chains_text(&chains, Arrow::Ascii),
            " <- m-7f3 redelivered <- lease expired <- ack lost at step 7; and <- A called the provider without an Idempotency-Key"
        );
        let drawn = chains_text(&chains, Arrow::Drawn);
        assert!(!drawn.contains("<-"), "{drawn}");
        assert_eq!(drawn.matches('←').count(), 4);
    }

    #[test]
    fn a_call_again_with_a_key_says_no_more() {
        let again = |with_key| Cause::CalledAgain {
            consumer: "A".into(),
            with_key,
        };
        assert_eq!(again(true).to_string(), "A called the provider again");
        assert_eq!(
            again(false).to_string(),
            "A called the provider again without an Idempotency-Key"
        );
    }
}
