//! The moves the checker may take from a state. With `World::apply` this is
//! the whole step function of the exploration: `enabled` says what can happen
//! next, the world says what it does.

use super::Bounds;
use crate::sim::broker::MessageState;
use crate::sim::consumer::Status;
use crate::sim::{Move, Op, World};

/// What a move takes from the fault budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// Progress: a handler step, or the lease of a holder that is gone
    /// (crashed, ack lost, gave up) running out, which is time passing.
    Free,
    Crash(usize),
    LostAck,
    LostResponse,
    EarlyExpiry,
    Retry,
}

/// The fault budget a path has spent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Used {
    /// Per consumer, in setup order.
    pub crashes: Vec<u32>,
    pub lost_acks: u32,
    pub lost_responses: u32,
    pub early_expiries: u32,
    pub retries: u32,
}

impl Used {
    pub fn total(&self) -> u32 {
        self.crashes.iter().sum::<u32>()
            + self.lost_acks
            + self.lost_responses
            + self.early_expiries
            + self.retries
    }

    pub fn new(consumers: usize) -> Self {
        Used {
            crashes: vec![0; consumers],
            ..Used::default()
        }
    }

    pub fn spend(&self, cost: Cost) -> Used {
        let mut next = self.clone();
        match cost {
            Cost::Free => {}
            Cost::Crash(i) => next.crashes[i] += 1,
            Cost::LostAck => next.lost_acks += 1,
            Cost::LostResponse => next.lost_responses += 1,
            Cost::EarlyExpiry => next.early_expiries += 1,
            Cost::Retry => next.retries += 1,
        }
        next
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    pub cost: Cost,
}

/// Every move worth taking from this state, in a fixed order (consumers in
/// setup order, then leases, then producer retries), so that the search and
/// its shortest counterexamples are the same on every run.
///
/// Pruned on purpose: a crash only while the consumer holds a message (a
/// crash with nothing in hand is a restart that changes nothing); a lost ack
/// or response is armed only right before the ack or the response (an armed
/// fault waits for exactly that step anyway, and a crash disarms it); a
/// consumer waiting for another's write lock is not enabled at all, instead
/// of retrying `BEGIN` and getting `SQLITE_BUSY` again.
pub fn enabled(world: &World, bounds: &Bounds, used: &Used) -> Vec<Choice> {
    let mut out = moves(world, bounds, used);
    if used.total() >= bounds.max_faults {
        out.retain(|c| c.cost == Cost::Free);
    }
    out
}

/// Whether `consumer` still works on the delivery leased under `receipt`:
/// its lease running out is then an early expiry, a fault the bounds count;
/// else (the holder crashed, gave up or acked) it is time passing.
fn works_on(world: &World, consumer: &str, receipt: &str) -> bool {
    world
        .consumers()
        .iter()
        .any(|c| c.name == consumer && c.delivery().is_some_and(|d| d.receipt == receipt))
}

/// Whether the lease on `message` running out now would be an early
/// expiry (a fault), not a free one: for a found run's words.
pub fn early_expiry(world: &World, message: &str) -> bool {
    world.broker().messages().iter().any(|m| match &m.state {
        MessageState::InFlight {
            consumer, receipt, ..
        } => m.message.id == message && works_on(world, consumer, receipt),
        _ => false,
    })
}

fn moves(world: &World, bounds: &Bounds, used: &Used) -> Vec<Choice> {
    if let Some(local) = local_step(world, bounds, used) {
        return local;
    }
    let program = &world.strategy().program;
    let lock = world.lock_holder();
    let waiting = world
        .broker()
        .messages()
        .iter()
        .any(|m| m.state == MessageState::Waiting);
    let mut out = Vec::new();
    for (i, c) in world.consumers().iter().enumerate() {
        let consumer = || c.name.clone();
        let next = program.get(c.pc).copied();
        let step = match c.status() {
            Status::Crashed => true,
            _ => match next {
                Some(Op::Receive) => waiting,
                // Both wait for another connection's write lock.
                Some(Op::Begin | Op::CheckId) => lock.is_none_or(|holder| holder == c.name),
                Some(_) => true,
                None => false,
            },
        };
        if step {
            out.push(Choice {
                mv: Move::Step {
                    consumer: consumer(),
                },
                cost: Cost::Free,
            });
        }
        if c.is_crashed() || c.delivery().is_none() {
            continue;
        }
        if used.crashes.get(i).copied().unwrap_or(0) < bounds.crashes {
            out.push(Choice {
                mv: Move::Crash {
                    consumer: consumer(),
                },
                cost: Cost::Crash(i),
            });
        }
        if next == Some(Op::Ack) && !c.lose_next_ack && used.lost_acks < bounds.lost_acks {
            out.push(Choice {
                mv: Move::LoseAck {
                    consumer: consumer(),
                },
                cost: Cost::LostAck,
            });
        }
        if next == Some(Op::AwaitResponse)
            && !c.lose_next_response
            && used.lost_responses < bounds.lost_responses
        {
            out.push(Choice {
                mv: Move::LoseResponse {
                    consumer: consumer(),
                },
                cost: Cost::LostResponse,
            });
        }
    }
    let mut expired: Vec<&str> = Vec::new();
    for m in world.broker().messages() {
        let MessageState::InFlight {
            consumer, receipt, ..
        } = &m.state
        else {
            continue;
        };
        if expired.contains(&m.message.id.as_str()) {
            continue;
        }
        expired.push(&m.message.id);
        let cost = if works_on(world, consumer, receipt) {
            if used.early_expiries >= bounds.early_expiries {
                continue;
            }
            Cost::EarlyExpiry
        } else {
            Cost::Free
        };
        out.push(Choice {
            mv: Move::ExpireLease {
                message: m.message.id.clone(),
            },
            cost,
        });
    }
    // The other way a slow holder loses its lease: time jumps a whole lease
    // length, so every lease and every in-progress deadline runs out at once.
    let in_flight = world
        .broker()
        .messages()
        .iter()
        .any(|m| matches!(m.state, MessageState::InFlight { .. }));
    if in_flight && used.early_expiries < bounds.early_expiries {
        let setup = world.setup();
        out.push(Choice {
            mv: Move::Wait {
                ms: setup.lease_ms.max(setup.record_timeout_ms),
            },
            cost: Cost::EarlyExpiry,
        });
    }
    if used.retries < bounds.retries {
        for m in &world.setup().messages {
            out.push(Choice {
                mv: Move::Publish {
                    message: m.id.clone(),
                },
                cost: Cost::Retry,
            });
        }
    }
    out
}

/// A step that found the write lock taken, or the provider still on another
/// request with the same key: the consumer is waiting, which the search
/// treats as "not enabled" rather than as a move.
pub fn was_blocked(world: &World, mv: &Move) -> bool {
    let Move::Step { consumer } = mv else {
        return false;
    };
    world.consumers().iter().any(|c| {
        c.name == *consumer
            && matches!(
                c.status(),
                Status::Blocked { .. } | Status::AwaitingKey { .. }
            )
    })
}

/// Every keyed provider call of the program runs inside a transaction.
fn keyed_calls_hold_the_lock(program: &[Op]) -> bool {
    let mut open = false;
    for op in program {
        match op {
            Op::Begin => open = true,
            Op::Commit => open = false,
            Op::CallProvider { with_key: true } if !open => return false,
            _ => {}
        }
    }
    true
}

/// Partial-order reduction. A step that only touches its own consumer (and
/// rows under its own write lock, which nobody else can see or touch before
/// the commit) commutes with every other move, and is invisible to every
/// property. Taking it first, alone, loses no outcome: any other move can
/// still happen right after it, and a crash right before it ends in the
/// same state as a crash right after it (the open transaction rolls back
/// either way, and a dead process keeps nothing else). Which steps qualify:
/// restarting after a crash; inserting the payment row, the message ID or
/// the completion mark inside the consumer's own transaction; taking a
/// successful provider response (where losing the response instead is kept
/// as the other choice). Taking the response also lets the provider answer
/// a keyed request it held in flight, which decides whether another
/// consumer's call with that key gets 409 or the stored result: that is
/// local only when no other call with the key can come first, as when
/// every keyed call runs inside a transaction and this consumer holds
/// SQLite's one write lock.
fn local_step(world: &World, bounds: &Bounds, used: &Used) -> Option<Vec<Choice>> {
    let program = &world.strategy().program;
    for c in world.consumers() {
        let step = Choice {
            mv: Move::Step {
                consumer: c.name.clone(),
            },
            cost: Cost::Free,
        };
        if c.is_crashed() {
            return Some(vec![step]);
        }
        if !c.is_running() {
            continue;
        }
        match program.get(c.pc) {
            Some(Op::ApplyCharge) if c.in_txn() => return Some(vec![step]),
            // On SQLite the transaction holds the one write lock, so no
            // other writer can meet these rows. On PostgreSQL another
            // consumer's insert of the same key waits on them: not local.
            Some(Op::ClaimId | Op::MarkCompleted) if c.in_txn() && world.one_writer_at_a_time() => {
                return Some(vec![step]);
            }
            Some(Op::AwaitResponse)
                if c.pending_response()
                    .is_some_and(|r| r.reply.status() == 201)
                    && (c.awaiting_key().is_none()
                        || (c.in_txn() && keyed_calls_hold_the_lock(program))) =>
            {
                let mut out = vec![step];
                if !c.lose_next_response && used.lost_responses < bounds.lost_responses {
                    out.push(Choice {
                        mv: Move::LoseResponse {
                            consumer: c.name.clone(),
                        },
                        cost: Cost::LostResponse,
                    });
                }
                return Some(out);
            }
            _ => {}
        }
    }
    None
}
