//! The logical state of a world, in a canonical form: two worlds with the
//! same fingerprint behave the same from here on, whatever path led to them.
//!
//! Left out on purpose: narration, cause chains, counters, step marks, the
//! receipt strings themselves (only whether a consumer's receipt is still
//! the current one matters), payment row ids, charge ids, and the clock
//! itself (only whether a deadline has passed matters: every lease taken
//! runs out at the next time jump, and provider keys outlive any schedule). Consumers are identical when
//! they run the same program, so with symmetry on the fingerprint is the
//! smallest over every renaming of the consumers.

use super::enabled::Used;
use super::packed::{Packed, Packer};
use crate::sim::broker::MessageState;
use crate::sim::consumer::Status;
use crate::sim::{Frame, World};

/// One consumer, without its name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct ConsumerState {
    status: u8,
    pc: usize,
    in_txn: bool,
    /// Broker sequence number of the copy it holds, and whether its receipt
    /// is still the one an ack must present.
    delivery: Option<(u32, bool)>,
    /// Status code of the provider response on its way back, and whether it
    /// was replayed from the key store.
    response: Option<(u16, bool)>,
    skipping: bool,
    backing_off: bool,
    /// Whether the provider's answer in this delivery carried a charge.
    last_charge: bool,
    lose_next_ack: bool,
    lose_next_response: bool,
    slow: bool,
    crashes_used: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct MessageState_ {
    seq: u32,
    id: String,
    phase: u8,
    /// Lease holder, as a position in the canonical consumer order.
    holder: Option<usize>,
    receives: u32,
    copy: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint {
    consumers: Vec<ConsumerState>,
    messages: Vec<MessageState_>,
    /// (order, amount, message ID, writer of an uncommitted row), sorted.
    payments: Vec<(u32, u32, String, Option<usize>)>,
    processed: Vec<(String, Option<usize>)>,
    /// Every committed table, as sorted JSON: new tables join the
    /// fingerprint without a change here. Row ids and timestamps are
    /// dropped, owner tokens become consumer positions and deadlines
    /// become "passed or not".
    tables: String,
    /// Keys in the cache outside the database.
    cache: Vec<String>,
    /// Provider ledger: (order, amount, Idempotency-Key), in charge order.
    charges: Vec<(u32, u32, Option<String>)>,
    /// Key store: (key, stored status code, first request still in flight).
    keys: Vec<(String, u16, bool)>,
    /// Per order, the status versions commits wrote, each with how many
    /// commits wrote it (1, or 2 for "more than once"): the status
    /// invariants are judged from it, so two states that differ in it
    /// must not merge.
    applied: Vec<(u32, Vec<(u32, u32)>)>,
    budget: [u32; 4],
}

impl Fingerprint {
    /// Every field, in order; see `packed.rs` for why the bytes are exact.
    /// The structs are taken apart whole, so that a field added to them
    /// cannot be left out here (two states would then look the same).
    pub fn pack(&self) -> Packed {
        let Fingerprint {
            consumers,
            messages,
            payments,
            processed,
            tables,
            cache,
            charges,
            keys,
            applied,
            budget,
        } = self;
        let mut p = Packer::default();
        p.list(consumers, |p, c| {
            let ConsumerState {
                status,
                pc,
                in_txn,
                delivery,
                response,
                skipping,
                backing_off,
                last_charge,
                lose_next_ack,
                lose_next_response,
                slow,
                crashes_used,
            } = c;
            p.number(u64::from(*status))
                .number(*pc as u64)
                .flag(*in_txn)
                .maybe(*delivery, |p, (seq, current)| {
                    p.number(u64::from(seq)).flag(current);
                })
                .maybe(*response, |p, (status, replayed)| {
                    p.number(u64::from(status)).flag(replayed);
                })
                .flag(*skipping)
                .flag(*backing_off)
                .flag(*last_charge)
                .flag(*lose_next_ack)
                .flag(*lose_next_response)
                .flag(*slow)
                .number(u64::from(*crashes_used));
        });
        p.list(messages, |p, m| {
            let MessageState_ {
                seq,
                id,
                phase,
                holder,
                receives,
                copy,
            } = m;
            p.number(u64::from(*seq))
                .text(id)
                .number(u64::from(*phase))
                .maybe(*holder, |p, h| {
                    p.number(h as u64);
                })
                .number(u64::from(*receives))
                .number(u64::from(*copy));
        });
        p.list(payments, |p, (order, amount, id, writer)| {
            p.number(u64::from(*order))
                .number(u64::from(*amount))
                .text(id)
                .maybe(*writer, |p, w| {
                    p.number(w as u64);
                });
        });
        p.list(processed, |p, (id, writer)| {
            p.text(id).maybe(*writer, |p, w| {
                p.number(w as u64);
            });
        });
        p.text(tables);
        p.list(cache, |p, key| {
            p.text(key);
        });
        p.list(charges, |p, (order, amount, key)| {
            p.number(u64::from(*order))
                .number(u64::from(*amount))
                .maybe(key.as_deref(), |p, k| {
                    p.text(k);
                });
        });
        p.list(keys, |p, (key, status, in_flight)| {
            p.text(key)
                .number(u64::from(*status))
                .number(u64::from(*in_flight));
        });
        p.list(applied, |p, (order, versions)| {
            p.number(u64::from(*order)).list(versions, |p, (v, n)| {
                p.number(u64::from(*v)).number(u64::from(*n));
            });
        });
        p.list(budget, |p, b| {
            p.number(u64::from(*b));
        });
        p.done()
    }
}

pub fn fingerprint(world: &World, frame: &Frame, used: &Used, symmetry: bool) -> Fingerprint {
    let n = world.consumers().len();
    let identity: Vec<usize> = (0..n).collect();
    let mut tables = TablesText::default();
    if !symmetry || n < 2 {
        return canonical(world, frame, used, &identity, &mut tables);
    }
    permutations(n)
        .iter()
        .map(|perm| canonical(world, frame, used, perm, &mut tables))
        .min()
        .expect("at least one permutation")
}

/// The committed tables as canonical text, by the positions their owner
/// tokens take under a renaming. Most states have no owner token at all, so
/// every renaming shares one text: written once, not once per renaming.
#[derive(Default)]
struct TablesText(Vec<(Vec<Option<usize>>, String)>);

impl TablesText {
    fn get(&mut self, positions: Vec<Option<usize>>, write: impl FnOnce() -> String) -> String {
        if let Some((_, text)) = self.0.iter().find(|(p, _)| *p == positions) {
            return text.clone();
        }
        let text = write();
        self.0.push((positions, text.clone()));
        text
    }
}

/// `perm[k]` is the consumer placed at position k.
fn canonical(
    world: &World,
    frame: &Frame,
    used: &Used,
    perm: &[usize],
    tables_text: &mut TablesText,
) -> Fingerprint {
    let consumers = world.consumers();
    let position = |name: &str| -> Option<usize> {
        let original = consumers.iter().position(|c| c.name == name)?;
        perm.iter().position(|&p| p == original)
    };
    let broker = world.broker();
    let states = perm
        .iter()
        .map(|&i| {
            let c = &consumers[i];
            if c.is_crashed() {
                // A dead process holds nothing: where it died shows only in
                // the database and the provider, and its restart resets the
                // rest. So every crash point of one attempt is one state.
                return ConsumerState {
                    status: 3,
                    crashes_used: used.crashes.get(i).copied().unwrap_or(0),
                    ..ConsumerState::default()
                };
            }
            ConsumerState {
                status: match c.status() {
                    Status::Idle => 0,
                    Status::Handling => 1,
                    Status::Blocked { .. } => 2,
                    Status::Crashed => 3,
                    Status::AwaitingKey { .. } => 4,
                },
                pc: c.pc,
                in_txn: c.in_txn(),
                delivery: c.delivery().map(|d| {
                    let current = broker
                        .messages()
                        .iter()
                        .find(|m| m.seq == d.seq)
                        .and_then(|m| m.last_receipt())
                        == Some(d.receipt.as_str());
                    (d.seq, current)
                }),
                response: c.pending_response().map(|r| (r.reply.status(), r.replayed)),
                skipping: c.skipping(),
                backing_off: c.backing_off(),
                last_charge: c.last_charge().is_some(),
                lose_next_ack: c.lose_next_ack,
                lose_next_response: c.lose_next_response,
                slow: c.slow_next_ms > 0,
                crashes_used: used.crashes.get(i).copied().unwrap_or(0),
            }
        })
        .collect();
    let messages = broker
        .messages()
        .iter()
        .map(|m| {
            let (phase, holder) = match &m.state {
                MessageState::Waiting => (0, None),
                MessageState::InFlight { consumer, .. } => (1, position(consumer)),
                MessageState::Acked { .. } => (2, None),
                MessageState::DeadLettered => (3, None),
            };
            MessageState_ {
                seq: m.seq,
                id: m.message.id.clone(),
                phase,
                holder,
                receives: m.receives,
                copy: m.copy,
            }
        })
        .collect();
    let mut payments: Vec<_> = frame
        .db
        .payments
        .iter()
        .map(|p| {
            (
                p.order,
                p.amount,
                p.message_id.clone(),
                p.uncommitted_by.as_deref().and_then(position),
            )
        })
        .collect();
    payments.sort();
    let mut processed: Vec<_> = frame
        .db
        .processed
        .iter()
        .map(|p| {
            (
                p.message_id.clone(),
                p.uncommitted_by.as_deref().and_then(position),
            )
        })
        .collect();
    processed.sort();
    // An owner token is `name/receipt`: it still means something only while
    // that consumer holds that delivery.
    let owner = |token: &str| -> Option<usize> {
        let original = consumers.iter().position(|c| {
            c.delivery()
                .is_some_and(|d| token == format!("{}/{}", c.name, d.receipt))
        })?;
        perm.iter().position(|&p| p == original)
    };
    // Owner tokens live only in the records table; the text depends on the
    // renaming through them alone.
    let positions = world
        .committed()
        .records
        .iter()
        .map(|r| owner(&r.owner))
        .collect();
    let tables = tables_text.get(positions, || {
        let mut tables = serde_json::to_value(world.committed()).unwrap_or_default();
        canonical_tables(&mut tables, &|token| owner(token), world.now());
        tables.to_string()
    });
    let provider = world.provider();
    Fingerprint {
        tables,
        cache: frame.cache.entries.iter().map(|e| e.key.clone()).collect(),
        consumers: states,
        messages,
        payments,
        processed,
        charges: provider
            .charges()
            .iter()
            .map(|c| (c.order, c.amount, c.key.clone()))
            .collect(),
        keys: provider
            .keys()
            .map(|k| (k.key.clone(), k.result.status(), k.in_flight))
            .collect(),
        applied: world
            .applied_versions()
            .iter()
            .map(|(order, versions)| {
                let versions = versions.iter().map(|(v, n)| (*v, (*n).min(2))).collect();
                (*order, versions)
            })
            .collect(),
        budget: [
            used.lost_acks,
            used.lost_responses,
            used.early_expiries,
            used.retries,
        ],
    }
}

/// Rewrites the committed tables in place so that equal logical contents
/// give equal text.
fn canonical_tables(
    value: &mut serde_json::Value,
    owner: &dyn Fn(&str) -> Option<usize>,
    now: u64,
) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            map.remove("id");
            map.remove("processed_at");
            if let Some(Value::String(token)) = map.get("owner") {
                let position = owner(token);
                map.insert("owner".into(), serde_json::json!(position));
            }
            if let Some(deadline) = map.get("deadline").and_then(Value::as_u64) {
                map.insert("deadline".into(), Value::Bool(deadline <= now));
            }
            if let Some(Value::String(_)) = map.get("result") {
                map.insert("result".into(), Value::Bool(true));
            }
            for v in map.values_mut() {
                canonical_tables(v, owner, now);
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                canonical_tables(v, owner, now);
            }
            items.sort_by_key(|v| v.to_string());
        }
        _ => {}
    }
}

/// Every ordering of 0..n, in lexicographic order. n is small (at most 4).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..n)
                    .filter(|i| !p.contains(i))
                    .map(|i| {
                        let mut q = p.clone();
                        q.push(i);
                        q
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_all_orderings() {
        assert_eq!(permutations(1), vec![vec![0]]);
        assert_eq!(permutations(2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(permutations(3).len(), 6);
    }
}
