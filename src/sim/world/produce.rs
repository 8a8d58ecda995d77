//! The producer: it publishes a message (again, as a retry does), and
//! keeps publishing new payments while the run goes on, as in production,
//! instead of a fixed list published before the first step.

use super::World;
use crate::sim::event::{Actor, EventKind};
use crate::sim::format_duration;
use crate::sim::message::Message;

impl World {
    /// `Move::Produce`: the producer publishes a payment message the setup
    /// did not list. From then on it is part of the run like any listed
    /// message (judged by the verdict, republished by `Move::Publish`). A
    /// status change is published but not judged.
    pub(super) fn produce(&mut self, message: Message) {
        self.books
            .produced
            .entry(message.id.clone())
            .or_insert_with(|| message.clone());
        if message.status.is_none() {
            self.open_fact(&message);
            self.moment.touched_facts.push(message.payment.clone());
        }
        self.publish(message);
    }

    pub(super) fn publish(&mut self, message: Message) {
        let before = self.queue.broker.copies_of(&message.id);
        match self.queue.broker.publish(message.clone(), self.now) {
            Some(_) if before > 0 => self.say(
                Actor::Producer,
                EventKind::Warning,
                format!(
                    "publishes {} again (a retry): the queue now holds copy {}",
                    message.id,
                    before + 1
                ),
            ),
            Some(_) => self.say(
                Actor::Producer,
                EventKind::Info,
                format!("publishes {}", message.id),
            ),
            None => self.say_brief(
                Actor::Broker,
                EventKind::Good,
                format!(
                    "accepts the repeat of {} but drops it: inside the {} deduplication window",
                    message.id,
                    format_duration(self.setup.dedup_window_ms)
                ),
                format!(
                    "accepts and drops the repeat of {}: inside its {} window",
                    message.id,
                    format_duration(self.setup.dedup_window_ms)
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::message::Payment;
    use crate::sim::{Move, Setup, Strategy};

    #[test]
    fn a_produced_message_is_delivered_and_judged() {
        let mut world = World::new(Setup::default(), Strategy::idempotent(), 1).unwrap();
        world
            .apply(&Move::Produce {
                message: Message::payment("m-1", 7, 40),
            })
            .unwrap();
        let payment = Payment {
            order: 7,
            amount: 40,
        };
        assert_eq!(
            world.fact_verdict(&payment).unwrap().outcome,
            crate::sim::Outcome::InProgress
        );
        for _ in 0..world.strategy().program.len() {
            world
                .apply(&Move::Step {
                    consumer: "A".into(),
                })
                .unwrap();
        }
        let verdict = world.fact_verdict(&payment).unwrap();
        assert_eq!(verdict.outcome, crate::sim::Outcome::Correct);
        assert_eq!((verdict.payments, verdict.charges), (1, 1));
        // A republish finds it among the run's messages.
        world
            .apply(&Move::Publish {
                message: "m-1".into(),
            })
            .unwrap();
        assert_eq!(world.counters().delivered, 1);
        assert!(
            world
                .fact_verdict(&Payment {
                    order: 8,
                    amount: 40
                })
                .is_none()
        );
    }
}
