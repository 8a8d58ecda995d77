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
