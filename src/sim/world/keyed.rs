//! Whether a fact's charge is safe to repeat: the verdict must not call a
//! charge without its row a risk where a retry can only get the same
//! charge back.

use super::World;
use super::setup::IdSource;
use crate::sim::message::Payment;
use crate::sim::strategy::Op;
use crate::sim::verdict::{KeyHolds, KeyedCharge};

impl World {
    /// The Idempotency-Key every charge of this payment carries, when the
    /// design sends a key, the provider still stores it (answered or not:
    /// a repeat gets the stored charge or a 409, never a new charge), and
    /// every copy that may still be handled would send that same key: the
    /// fact's messages carry one ID and the key is made from it (a broker's
    /// own ID differs from copy to copy). `ids` are the fact's message IDs.
    /// With it, what the store holds now: the verdict may promise the
    /// charge back only once the first request is answered.
    pub(super) fn keyed_charge(&self, payment: &Payment, ids: &[&str]) -> Option<KeyedCharge> {
        let sends_key = self
            .strategy
            .program
            .contains(&Op::CallProvider { with_key: true });
        let distinct: std::collections::BTreeSet<&str> = ids.iter().copied().collect();
        if !sends_key || self.setup.id_source == IdSource::Broker || distinct.len() != 1 {
            return None;
        }
        let mut keys = self
            .provider
            .charges()
            .iter()
            .filter(|c| c.order == payment.order && c.amount == payment.amount)
            .map(|c| c.key.as_deref());
        let first = keys.next()??;
        let record = self.provider.key_record(first)?;
        keys.all(|k| k == Some(first)).then(|| KeyedCharge {
            key: first.to_string(),
            holds: if record.in_flight {
                KeyHolds::Processing
            } else {
                KeyHolds::Charge
            },
        })
    }
}
