//! A long run forgets a payment once nothing can change it any more, so
//! that its memory follows the payments in flight, not the payments ever
//! made. What the world forgets is what only an observer keeps: the fact's
//! verdict and cause chain, the rows read back from the database, the
//! provider's list of charges. The database keeps its rows (that is its
//! job), the provider keeps its idempotency keys until they expire, and the
//! running totals (`processed_rows`, `recorded_total`, `charged_total`)
//! still count every payment.

use super::{SimError, World};
use crate::sim::message::Payment;

impl World {
    /// Forgets a settled payment: nobody handles it, no copy of it waits
    /// or is leased, and the caller knows the producer will not publish it
    /// again (the soak books its verdict first and retires it after). From
    /// then on it is not in the verdict, the tally or the tables read back.
    /// Returns false, forgetting nothing, while the payment is still live.
    pub fn retire(&mut self, payment: &Payment) -> bool {
        if self.queue.broker.payment_pending(payment) || self.held_payments().contains(payment) {
            return false;
        }
        let Some(ids) = self.retire_fact(payment) else {
            return false;
        };
        self.books.notes.remove(payment);
        self.books.replays.remove(payment);
        self.books.ledger_by.remove(payment);
        self.books.acked_before_work.remove(payment);
        self.books.refused.remove(payment);
        self.books.row_written.remove(payment);
        self.provider.forget_payment(payment);
        self.store.index.paid.remove(payment);
        self.store
            .committed
            .payments
            .retain(|r| !(r.order == payment.order && r.amount == payment.amount));
        if !self.fact_open_for_order(payment.order)
            && let Ok(i) = self
                .store
                .committed
                .orders
                .binary_search_by_key(&payment.order, |r| r.order)
        {
            self.store.committed.orders.remove(i);
        }
        for id in &ids {
            self.books.produced.remove(id);
            self.books.seen.remove(id);
            self.books.worked.remove(&(id.clone(), payment.clone()));
            self.store.pruned.remove(id);
            self.queue.broker.forget_id(id, payment);
            self.store.drop_processed_copy(id);
            if let Ok(i) = self
                .store
                .committed
                .records
                .binary_search_by(|r| r.message_id.as_str().cmp(id))
            {
                self.store.committed.records.remove(i);
            }
        }
        true
    }

    /// The database's own processed_messages rows and payments total, read
    /// in SQL: the soak's end holds the running totals to them. While no
    /// write transaction is open.
    pub fn database_totals(&self) -> Result<(u64, u64), SimError> {
        Ok(self.store.db.totals()?)
    }

    /// The database's own size (see `Database::bytes`): the part of a long
    /// run's memory that grows with the payments, by design.
    pub fn database_bytes(&self) -> Result<u64, SimError> {
        Ok(self.store.db.bytes()?)
    }

    /// How many entries the world keeps per payment or per ID, summed over
    /// everything `retire` forgets: a long run holds it flat.
    #[doc(hidden)]
    pub fn footprint(&self) -> usize {
        self.books.notes.len()
            + self.books.ledger_by.len()
            + self.books.seen.len()
            + self.books.worked.len()
            + self.store.pruned.len()
            + self.books.acked_before_work.len()
            + self.books.refused.len()
            + self.books.row_written.len()
            + self.books.produced.len()
            + self.store.index.paid.len()
            + self.store.index.processed.len()
            + self.store.committed.payments.len()
            + self.store.committed.processed.len()
            + self.store.committed.records.len()
            + self.store.committed.orders.len()
            + self.provider.charges().len()
            + self.queue.broker.footprint()
            + self.fact_slots()
    }

    /// processed_messages rows in the database now, retired payments'
    /// included.
    pub fn processed_rows(&self) -> u64 {
        self.store.index.processed_rows
    }

    /// The dollars of every payment row committed, retired ones included.
    pub fn recorded_total(&self) -> u64 {
        self.store.index.recorded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Message, Move, Outcome, Setup, Strategy};

    /// Runs consumer A until the payment is settled: steps while it can,
    /// and lets a lease run out when a lost ack left the message leased.
    fn settle(world: &mut World) {
        for _ in 0..200 {
            let a = &world.consumers()[0];
            if a.is_idle() && !world.broker().has_pending() {
                return;
            }
            let mv = if a.is_idle() && !world.broker().can_receive() {
                Move::Wait {
                    ms: world.setup().lease_ms,
                }
            } else {
                Move::Step {
                    consumer: "A".into(),
                }
            };
            world.apply(&mv).unwrap();
        }
        panic!("did not settle");
    }

    /// Payments two to an order, every seventh ack lost (a redelivery, a
    /// duplicate), a retention job every ten payments. `twin` gets the same
    /// moves and never retires: every payment must be judged alike in both
    /// until it retires, whatever the design.
    fn long_run(strategy: Strategy, payments: u32, twin: bool) -> (World, Option<World>) {
        let setup = Setup {
            consumers: vec!["A".into()],
            ..Setup::default()
        };
        // As the soak runs it: the broker drops acked copies.
        let mut world = World::new(setup.clone(), strategy.clone(), 3).unwrap();
        world.set_forget_acked(true);
        let mut other = twin.then(|| World::new(setup, strategy, 3).unwrap());
        for i in 0..payments {
            let message = Message::payment(&format!("m-{i}"), 1000 + i / 2, 5 + i % 2);
            let payment = message.payment.clone();
            let mut moves = Vec::new();
            if i % 7 == 3 {
                moves.push(Move::LoseAck {
                    consumer: "A".into(),
                });
            }
            if i % 10 == 9 {
                moves.push(Move::Wait { ms: 3_600_000 });
                moves.push(Move::Prune { age_ms: 1_800_000 });
            }
            for w in std::iter::once(&mut world).chain(other.as_mut()) {
                w.apply(&Move::Produce {
                    message: message.clone(),
                })
                .unwrap();
                for mv in &moves {
                    w.apply(mv).unwrap();
                }
                settle(w);
            }
            if let Some(other) = &other {
                assert_eq!(
                    world.fact_verdict(&payment),
                    other.fact_verdict(&payment),
                    "{} payment {i}",
                    world.strategy().name
                );
            }
            assert!(world.retire(&payment));
            let (rows, recorded) = world.database_totals().unwrap();
            assert_eq!(
                (rows, recorded),
                (world.processed_rows(), world.recorded_total())
            );
        }
        (world, other)
    }

    #[test]
    fn retiring_changes_no_verdict_in_any_design() {
        for strategy in Strategy::all() {
            long_run(strategy, 60, true);
        }
    }

    #[test]
    fn what_the_world_keeps_does_not_grow_with_the_run() {
        for strategy in Strategy::all() {
            let short = long_run(strategy.clone(), 100, false).0.footprint();
            let long = long_run(strategy.clone(), 400, false).0.footprint();
            // The broker drops acked copies in batches of 64 or more, so the
            // two may differ by a batch; 300 payments more must not show.
            assert!(long <= short + 70, "{}: {short} then {long}", strategy.name);
            assert!(long < 150, "{}: {long}", strategy.name);
        }
    }

    fn step(world: &mut World, times: usize) {
        for _ in 0..times {
            world
                .apply(&Move::Step {
                    consumer: "A".into(),
                })
                .unwrap();
        }
    }

    #[test]
    fn a_settled_payment_is_forgotten_and_the_totals_keep_it() {
        let mut world = World::new(Setup::default(), Strategy::idempotent(), 1).unwrap();
        let first = Payment {
            order: 7,
            amount: 40,
        };
        world
            .apply(&Move::Produce {
                message: Message::payment("m-1", 7, 40),
            })
            .unwrap();
        // In progress: nothing is forgotten.
        assert!(!world.retire(&first));
        let steps = world.strategy().program.len();
        step(&mut world, steps);
        assert_eq!(
            world.fact_verdict(&first).unwrap().outcome,
            Outcome::Correct
        );
        assert!(world.retire(&first));
        assert!(world.fact_verdict(&first).is_none());
        assert!(world.committed().payments.is_empty());
        assert!(world.committed().processed.is_empty());
        assert!(world.provider().charges().is_empty());
        assert_eq!(world.tally().settled(), 0);
        assert_eq!(
            (
                world.processed_rows(),
                world.recorded_total(),
                world.provider().charged_total()
            ),
            (1, 40, 40)
        );
        assert_eq!(world.verdict().facts.len(), 0);
        // A republish of a retired ID is refused: the caller promised none.
        assert!(matches!(
            world.apply(&Move::Publish {
                message: "m-1".into()
            }),
            Err(SimError::UnknownMessage(_))
        ));
        // The next payment takes the retired slot and is judged on its own.
        world
            .apply(&Move::Produce {
                message: Message::payment("m-2", 8, 25),
            })
            .unwrap();
        step(&mut world, steps);
        let second = world
            .fact_verdict(&Payment {
                order: 8,
                amount: 25,
            })
            .unwrap();
        assert_eq!((second.outcome, second.payments), (Outcome::Correct, 1));
        assert_eq!(world.verdict().facts.len(), 1);
        assert_eq!(world.recorded_total(), 65);
        assert_eq!(world.processed_rows(), 2);
        assert_eq!(world.database_totals().unwrap(), (2, 65));
    }
}
