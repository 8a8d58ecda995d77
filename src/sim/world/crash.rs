//! A consumer's process dies (its connection, and with it any open
//! transaction, goes; the broker sees nothing) and later starts again with
//! no memory of the message it held.

use super::{SimError, World};
use crate::sim::broker::MessageState;
use crate::sim::cause::Cause;
use crate::sim::consumer::Mark;
use crate::sim::db::Engine;
use crate::sim::event::{Actor, EventKind};
use crate::sim::strategy::Op;

impl World {
    pub(super) fn crash(&mut self, i: usize) -> Result<(), SimError> {
        let step = self.step;
        let c = &mut self.consumers[i];
        let name = c.name.clone();
        if c.is_crashed() {
            self.say(
                Actor::Consumer(name),
                EventKind::Info,
                "is already down".into(),
            );
            return Ok(());
        }
        self.counters.crashes += 1;
        // Dropping the connection is what a dying process does: SQLite
        // rolls back the open transaction.
        let had_txn = c.in_txn();
        if c.pc < c.marks.len() && !c.is_idle() {
            // Waiting on the provider, the request is already out: the step
            // ran as far as sending, and what the process missed is the answer.
            let awaiting = self.strategy.program.get(c.pc) == Some(&Op::AwaitResponse);
            c.marks[c.pc] = if awaiting {
                Mark::CrashedAwaiting
            } else {
                Mark::Crashed
            };
        }
        let in_flight = c.awaiting_key().map(str::to_string);
        if self.replaying
            && let Some(session) = c.session.take()
        {
            session.recycle();
        }
        let delivery = c.die();
        self.say(
            Actor::Consumer(name.clone()),
            EventKind::Bad,
            "crashes: the process is gone".into(),
        );
        // The provider finishes a request whatever became of its caller.
        self.provider_answers(
            i,
            in_flight,
            &format!("{name}'s request into a closed connection"),
        );
        if had_txn {
            self.say(
                Actor::Consumer(name.clone()),
                EventKind::Warning,
                match self.store.db.engine() {
                    Engine::Sqlite => "loses its open transaction: SQLite rolls it back".into(),
                    Engine::Postgres => "loses its open transaction: its connection closed, and the PostgreSQL server rolls it back".into(),
                },
            );
            self.release_waiters();
        }
        if let Some(d) = &delivery {
            self.crashed_after_early_ack(&d.message, &name, step);
        }
        if let Some(d) = delivery {
            self.queue.broker.note_lost_lease(
                &d.receipt,
                Cause::Crashed {
                    consumer: name.clone(),
                    step,
                },
            );
            let id = &d.message.id;
            let forgotten = self.queue.broker.forgot(d.seq);
            let text = match self.queue.broker.get(d.seq).map(|m| &m.state) {
                Some(MessageState::InFlight { receipt, .. }) if *receipt == d.receipt => format!(
                    "still counts {id} as leased to {name}: nobody tells it about the crash"
                ),
                Some(MessageState::InFlight { consumer, .. }) => {
                    format!("sees nothing of the crash: {id} is leased to {consumer} now")
                }
                None if forgotten => format!(
                    "sees nothing of the crash: {id} was acked and deleted, nothing will deliver it again"
                ),
                Some(MessageState::Acked { .. }) => format!(
                    "sees nothing of the crash: {id} was acked and deleted, nothing will deliver it again"
                ),
                _ => format!("sees nothing of the crash: {id} is no longer leased to {name}"),
            };
            self.say(Actor::Broker, EventKind::Info, text);
        }
        Ok(())
    }

    /// A crash of a handler that acked before its work was saved is what
    /// loses that work: its chain names the crash before the early ack
    /// (`message lost ← … ← A crashed at move 3 ← m-7f3 acked at move 2
    /// with no payment committed`). The chain named the ack alone, so the
    /// fault that the early ack left nothing to recover from went
    /// unnamed (teacher trial 44).
    fn crashed_after_early_ack(&mut self, message: &crate::sim::Message, name: &str, step: usize) {
        if !self.books.acked_before_work.contains(&message.payment) {
            return;
        }
        let Some(last) = self
            .books
            .notes
            .get_mut(&message.payment)
            .and_then(|notes| notes.last_mut())
        else {
            return;
        };
        if matches!(last.first(), Some(Cause::AckedUnpaid { id, .. }) if *id == message.id) {
            last.insert(
                0,
                Cause::Crashed {
                    consumer: name.to_string(),
                    step,
                },
            );
            self.moment.touched_facts.push(message.payment.clone());
        }
    }

    pub(super) fn restart(&mut self, i: usize) -> Result<(), SimError> {
        let session = self.store.db.connect()?;
        let steps = self.strategy.program.len();
        let c = &mut self.consumers[i];
        c.session = Some(session);
        c.finish();
        c.marks = vec![Mark::Todo; steps];
        c.calls = 0;
        let name = c.name.clone();
        self.say(
            Actor::Consumer(name),
            EventKind::Info,
            "restarts with a fresh connection and no memory of its last message".into(),
        );
        Ok(())
    }
}
