//! The broker side of the world: the queue with its leases and copies, and
//! the receipt handles it gives out with each delivery.

use crate::sim::broker::Broker;
use crate::sim::receipts::Receipts;

#[derive(Clone)]
pub(in crate::sim) struct Queue {
    pub(in crate::sim) broker: Broker,
    /// Mints the broker's receipt handles, seeded.
    pub(in crate::sim) receipts: Receipts,
}
