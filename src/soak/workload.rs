//! What the producers publish: payments for orders, with a mix of amounts,
//! some orders paid in two parts, and some payments genuinely made twice
//! (two messages, two IDs, the same order and amount: both are owed).

use super::faults::{MILLION, parse_rate, percent};
use crate::sim::Message;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// The shape of the payments a soak publishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mix {
    /// Drawn uniformly for each payment, in whole dollars.
    pub amounts: Vec<u32>,
    /// Chance (ppm) that a payment is made twice on purpose.
    pub identical_ppm: u32,
    /// Chance (ppm) that a payment is a second part of the previous order.
    pub same_order_ppm: u32,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            amounts: vec![5, 12, 20, 40, 75, 120, 250],
            identical_ppm: 10_000,
            same_order_ppm: 20_000,
        }
    }
}

impl Mix {
    /// `--amounts 5,20,40`: at least one, each 1 to 1,000,000 dollars.
    pub fn parse_amounts(text: &str) -> Result<Vec<u32>, String> {
        let amounts: Vec<u32> = text
            .split(',')
            .map(|a| {
                let a = a.trim();
                a.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "--amounts: `{a}` is not a whole number of dollars from 1 to 1000000"
                        )
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(amounts)
    }

    pub fn parse_share(flag: &str, text: &str) -> Result<u32, String> {
        parse_rate(text).map_err(|e| format!("{flag}: {e}"))
    }

    pub fn describe(&self) -> String {
        let amounts: Vec<String> = self.amounts.iter().map(|a| format!("${a}")).collect();
        format!(
            "amounts {}; {} paid twice on purpose; {} a second part of an order",
            amounts.join(" "),
            percent(self.identical_ppm),
            percent(self.same_order_ppm)
        )
    }
}

/// Mints the producer's messages in order. Its draws come from the
/// schedule's generator, so every design sees the same payments.
#[derive(Clone, Debug)]
pub struct Producer {
    mix: Mix,
    /// Messages minted so far: the next ID.
    minted: u64,
    /// Orders opened so far.
    orders: u32,
    last: Option<(u32, u32)>,
}

/// The first order number, as on a real shop's invoices.
const FIRST_ORDER: u32 = 1000;

impl Producer {
    pub fn new(mix: Mix) -> Self {
        Producer {
            mix,
            minted: 0,
            orders: 0,
            last: None,
        }
    }

    pub fn minted(&self) -> u64 {
        self.minted
    }

    /// The next payment: one message, or two when it is made twice on
    /// purpose (never more than `room`, at least one).
    pub fn next(&mut self, rng: &mut ChaCha8Rng, room: u64) -> Vec<Message> {
        let amount = self.mix.amounts[rng.random_range(0..self.mix.amounts.len())];
        let second_part = rng.random_range(0..MILLION) < self.mix.same_order_ppm;
        let twice = rng.random_range(0..MILLION) < self.mix.identical_ppm;
        // A second part must differ in amount, or it would be the same
        // payment; an order has at most two parts, so no later payment can
        // repeat an earlier one by chance.
        let order = match self.last.take() {
            Some((order, first_amount)) if second_part && first_amount != amount => order,
            _ => {
                self.orders += 1;
                self.last = Some((FIRST_ORDER + self.orders, amount));
                FIRST_ORDER + self.orders
            }
        };
        let copies = if twice && room >= 2 { 2 } else { 1 };
        (0..copies)
            .map(|_| {
                self.minted += 1;
                Message::payment(&format!("m-{:x}", self.minted), order, amount)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_mix_has_every_kind_of_payment() {
        let mix = Mix {
            amounts: vec![5, 40],
            identical_ppm: 100_000,
            same_order_ppm: 200_000,
        };
        let mut producer = Producer::new(mix);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let batches: Vec<Vec<Message>> = (0..500).map(|_| producer.next(&mut rng, 10)).collect();
        let pairs = batches.iter().filter(|b| b.len() == 2).count();
        assert!((20..=80).contains(&pairs), "{pairs} pairs");
        assert!(
            batches
                .iter()
                .filter(|b| b.len() == 2)
                .all(|b| b[0].payment == b[1].payment && b[0].id != b[1].id)
        );
        let split = batches
            .windows(2)
            .filter(|w| w[0][0].payment.order == w[1][0].payment.order)
            .count();
        assert!(split > 10, "{split} orders paid in two parts");
        assert!(split < 150, "{split} orders paid in two parts");
        let ids: std::collections::BTreeSet<_> =
            batches.iter().flatten().map(|m| m.id.clone()).collect();
        assert_eq!(ids.len() as u64, producer.minted());
        assert!(
            batches
                .iter()
                .flatten()
                .all(|m| [5, 40].contains(&m.payment.amount))
        );
    }

    #[test]
    fn no_room_for_a_pair_makes_one_message() {
        let mix = Mix {
            identical_ppm: MILLION,
            ..Mix::default()
        };
        let mut producer = Producer::new(mix);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(producer.next(&mut rng, 1).len(), 1);
        assert_eq!(producer.next(&mut rng, 2).len(), 2);
    }

    #[test]
    fn bad_amounts_are_named() {
        assert_eq!(Mix::parse_amounts("5, 40").unwrap(), [5, 40]);
        let err = Mix::parse_amounts("5,0").unwrap_err();
        assert!(err.contains("`0`"), "{err}");
        assert!(Mix::parse_amounts("x").is_err());
    }
}
