use serde::Serialize;

/// The business fact a message carries: charge this order this amount.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Payment {
    pub order: u32,
    /// Whole dollars; the scenarios never need cents.
    pub amount: u32,
}

/// A message as the producer publishes it: its own stable ID and a body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    pub id: String,
    pub payment: Payment,
}
