//! What a design promises, against what the soak gives it. The soak's
//! queue is a plain queue (a redelivery comes back after newer payments,
//! and the producer may publish a payment twice) and its messages are
//! payments: a design built on an ordered log or on versioned status
//! changes is outside its promise here, and its violations say so instead
//! of counting as a broken claim.

use crate::sim::{Assumption, Strategy};

/// Why the soak is outside `strategy`'s promise, in words; `None` when the
/// design assumes nothing the soak does not give.
pub fn outside(strategy: &Strategy) -> Option<String> {
    let why: Vec<String> = strategy
        .assumptions()
        .into_iter()
        .filter_map(|a| {
            let soak = match a {
                Assumption::OrderedLog => {
                    "the soak's queue hands a redelivery out after newer payments, and its producer retries publish second records"
                }
                Assumption::StatusChanges => {
                    "the soak publishes payments, which carry no version"
                }
                // The soak's producer gives every payment an ID of its
                // own; a retry is the same payment under the same ID.
                Assumption::OnePaymentPerId => return None,
            };
            Some(format!("{} assumes {}; {soak}", strategy.name, a.text()))
        })
        .collect();
    (!why.is_empty()).then(|| why.join("; and "))
}
