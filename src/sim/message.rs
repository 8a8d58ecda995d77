use serde::Serialize;

/// The business fact a message carries: charge this order this amount.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Payment {
    pub order: u32,
    /// Whole dollars; the scenarios never need cents.
    pub amount: u32,
}

/// A status change for an order, numbered so that a newer one can be told
/// from an older one (`SET status = 'SHIPPED'`, version 2).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct StatusUpdate {
    pub status: String,
    pub version: u32,
}

/// A message as the producer publishes it: its own stable ID and a body.
/// With `status` set it is a status change for `payment.order` and charges
/// nothing (its amount is 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    pub id: String,
    pub payment: Payment,
    pub status: Option<StatusUpdate>,
}

impl Message {
    pub fn payment(id: &str, order: u32, amount: u32) -> Self {
        Message {
            id: id.to_string(),
            payment: Payment { order, amount },
            status: None,
        }
    }
}
