//! The payment provider: an external HTTP API (`POST /charges`) with
//! Idempotency-Key semantics in the style of Stripe's v1 API.

use super::Millis;
use super::message::Payment;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What `POST /charges` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    /// 201: a new charge was made.
    Charged { charge_id: String },
    /// 402: the card was declined. Stored like a success: a retry with the
    /// same key gets the same error.
    Declined,
    /// 422: the key was used before with a different request body.
    KeyReused,
    /// 400: this provider requires an Idempotency-Key and none was sent.
    MissingKey,
    /// 409: a request with this key arrived before and has not been
    /// answered yet. Not stored: once the first is answered, a repeat gets
    /// its result.
    StillProcessing,
}

impl Reply {
    pub fn status(&self) -> u16 {
        match self {
            Reply::Charged { .. } => 201,
            Reply::Declined => 402,
            Reply::KeyReused => 422,
            Reply::MissingKey => 400,
            Reply::StillProcessing => 409,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Reply::Charged { charge_id } => format!("201 Created {charge_id}"),
            Reply::Declined => "402 card declined".into(),
            Reply::KeyReused => {
                "422 Unprocessable: key already used for a different request".into()
            }
            Reply::MissingKey => "400 Bad Request: an Idempotency-Key is required".into(),
            Reply::StillProcessing => {
                "409 Conflict: a request with this key is still being processed".into()
            }
        }
    }
}

/// A response on its way back, and whether it came from the key store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Response {
    pub reply: Reply,
    pub replayed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Charge {
    pub id: String,
    pub order: u32,
    pub amount: u32,
    pub key: Option<String>,
    pub at: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyRecord {
    pub key: String,
    /// What the first request asked for; a repeat must ask for the same.
    pub fingerprint: String,
    /// The first result, returned to every repeat once it is answered.
    pub result: Reply,
    /// The first request was received and its work done, but it is not
    /// answered yet: a repeat now gets 409, not the result. The provider
    /// answers when its caller takes the response in (or the caller dies
    /// and the connection closes), so the window is the call's own length.
    pub in_flight: bool,
    pub created_at: Millis,
    pub replays: u32,
}

#[derive(Clone, Debug)]
pub struct Provider {
    pub key_lifetime_ms: Millis,
    /// Refuse `POST /charges` without an Idempotency-Key (400).
    pub require_key: bool,
    charges: Vec<Charge>,
    keys: BTreeMap<String, KeyRecord>,
    /// (created at, key) of every stored key, oldest first: expiry looks
    /// only at the keys that are due, however many are stored.
    ages: BTreeSet<(Millis, String)>,
    /// Charges made per payment, so a verdict needs no scan of them all.
    charged: BTreeMap<Payment, usize>,
    /// Every charge ever made, in dollars, retired payments' included.
    charged_total: u64,
    declines: BTreeSet<u32>,
    next_charge: u32,
}

impl Provider {
    pub fn new(key_lifetime_ms: Millis, first_charge: u32, declines: BTreeSet<u32>) -> Self {
        Provider {
            key_lifetime_ms,
            require_key: false,
            charges: Vec::new(),
            keys: BTreeMap::new(),
            ages: BTreeSet::new(),
            charged: BTreeMap::new(),
            charged_total: 0,
            declines,
            next_charge: first_charge,
        }
    }

    pub fn charges(&self) -> &[Charge] {
        &self.charges
    }

    pub fn keys(&self) -> impl Iterator<Item = &KeyRecord> {
        self.keys.values()
    }

    /// Whether the key store holds `key`: looked up, not scanned, since a
    /// long run keeps a day of keys and every verdict asks.
    pub fn holds_key(&self, key: &str) -> bool {
        self.keys.contains_key(key)
    }

    /// What the key store keeps under `key`, looked up (see `holds_key`).
    pub fn key_record(&self, key: &str) -> Option<&KeyRecord> {
        self.keys.get(key)
    }

    /// Dollars charged over the whole run, forgotten payments included.
    pub fn charged_total(&self) -> u64 {
        self.charged_total
    }

    /// Forgets a payment's charges, which a long run no longer needs to
    /// list: they stay in `charged_total`. The keys stay until they expire,
    /// as a real provider keeps them.
    pub fn forget_payment(&mut self, payment: &Payment) {
        if self.charged.remove(payment).is_some() {
            self.charges
                .retain(|c| !(c.order == payment.order && c.amount == payment.amount));
        }
    }

    pub fn charges_for_payment(&self, payment: &Payment) -> usize {
        self.charged.get(payment).copied().unwrap_or(0)
    }

    pub fn charges_for(&self, order: u32) -> usize {
        self.charges.iter().filter(|c| c.order == order).count()
    }

    /// Handles one `POST /charges` completely: the charge is applied (or the
    /// stored result looked up) before the response leaves.
    pub fn post_charge(&mut self, key: Option<&str>, payment: &Payment, now: Millis) -> Response {
        self.forget_expired(now);
        let Some(key) = key else {
            if self.require_key {
                return Response {
                    reply: Reply::MissingKey,
                    replayed: false,
                };
            }
            return Response {
                reply: self.charge(None, payment, now),
                replayed: false,
            };
        };
        let fingerprint = fingerprint(payment);
        if let Some(record) = self.keys.get_mut(key) {
            if record.fingerprint != fingerprint {
                return Response {
                    reply: Reply::KeyReused,
                    replayed: false,
                };
            }
            if record.in_flight {
                return Response {
                    reply: Reply::StillProcessing,
                    replayed: false,
                };
            }
            record.replays += 1;
            return Response {
                reply: record.result.clone(),
                replayed: true,
            };
        }
        let reply = self.charge(Some(key), payment, now);
        self.ages.insert((now, key.to_string()));
        self.keys.insert(
            key.to_string(),
            KeyRecord {
                key: key.to_string(),
                fingerprint,
                result: reply.clone(),
                in_flight: true,
                created_at: now,
                replays: 0,
            },
        );
        Response {
            reply,
            replayed: false,
        }
    }

    /// The provider finishes the request made with `key` and answers it:
    /// from now on a repeat gets the stored result. False when no request
    /// with that key was waiting for its answer.
    pub fn answer(&mut self, key: &str) -> bool {
        match self.keys.get_mut(key) {
            Some(record) if record.in_flight => {
                record.in_flight = false;
                true
            }
            _ => false,
        }
    }

    /// A request with this key is received and not answered yet.
    pub fn in_flight(&self, key: &str) -> bool {
        self.keys.get(key).is_some_and(|r| r.in_flight)
    }

    fn charge(&mut self, key: Option<&str>, payment: &Payment, now: Millis) -> Reply {
        if self.declines.contains(&payment.order) {
            return Reply::Declined;
        }
        let id = format!("ch_{}", self.next_charge);
        self.next_charge += 1;
        *self.charged.entry(payment.clone()).or_default() += 1;
        self.charged_total += u64::from(payment.amount);
        self.charges.push(Charge {
            id: id.clone(),
            order: payment.order,
            amount: payment.amount,
            key: key.map(str::to_string),
            at: now,
        });
        Reply::Charged { charge_id: id }
    }

    /// Drops keys older than their lifetime; a repeat after that is new work.
    pub fn forget_expired(&mut self, now: Millis) -> Vec<String> {
        let lifetime = self.key_lifetime_ms;
        let mut expired = Vec::new();
        while let Some((created_at, _)) = self.ages.first()
            && created_at.saturating_add(lifetime) <= now
        {
            let (_, key) = self.ages.pop_first().expect("just looked");
            self.keys.remove(&key);
            expired.push(key);
        }
        // In key order, as the key store lists them.
        expired.sort();
        expired
    }
}

fn fingerprint(payment: &Payment) -> String {
    format!("order={}&amount={}", payment.order, payment.amount)
}

/// The provider's answer to one `POST /charges`, as the caller receives it
/// (whether or not it arrives).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CallAnswer {
    pub caller: String,
    pub status: u16,
    /// The stored result of an earlier request with the same key.
    pub replayed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Payment = Payment {
        order: 1042,
        amount: 40,
    };

    fn provider() -> Provider {
        Provider::new(86_400_000, 81, BTreeSet::new())
    }

    #[test]
    fn a_repeat_with_the_key_returns_the_first_charge() {
        let mut p = provider();
        let first = p.post_charge(Some("m-7f3"), &P, 0);
        p.answer("m-7f3");
        let again = p.post_charge(Some("m-7f3"), &P, 5);
        assert_eq!(
            first.reply,
            Reply::Charged {
                charge_id: "ch_81".into()
            }
        );
        assert_eq!(again.reply, first.reply);
        assert!(again.replayed);
        assert_eq!(p.charges().len(), 1);
    }

    #[test]
    fn a_repeat_before_the_first_is_answered_gets_409_and_after_it_the_result() {
        let mut p = provider();
        p.post_charge(Some("k"), &P, 0);
        assert!(p.in_flight("k"));
        let early = p.post_charge(Some("k"), &P, 0);
        assert_eq!(early.reply, Reply::StillProcessing);
        assert_eq!(early.reply.status(), 409);
        assert!(!early.replayed);
        assert!(p.answer("k"));
        assert!(!p.answer("k"), "answered once");
        let late = p.post_charge(Some("k"), &P, 0);
        assert!(late.replayed);
        assert_eq!(late.reply.status(), 201);
        assert_eq!(p.charges().len(), 1, "neither repeat charged");
        assert_eq!(
            p.keys().next().map(|k| k.replays),
            Some(1),
            "the 409 is no replay"
        );
    }

    #[test]
    fn a_different_body_is_422_even_while_the_first_is_processed() {
        let mut p = provider();
        p.post_charge(Some("k"), &P, 0);
        let other = Payment {
            order: 1042,
            amount: 41,
        };
        assert_eq!(p.post_charge(Some("k"), &other, 0).reply.status(), 422);
    }

    #[test]
    fn a_provider_that_requires_keys_refuses_a_call_without_one() {
        let mut p = provider();
        p.require_key = true;
        assert_eq!(p.post_charge(None, &P, 0).reply.status(), 400);
        assert!(p.charges().is_empty());
        assert_eq!(p.post_charge(Some("k"), &P, 0).reply.status(), 201);
    }

    #[test]
    fn without_a_key_every_call_charges() {
        let mut p = provider();
        p.post_charge(None, &P, 0);
        p.post_charge(None, &P, 0);
        assert_eq!(p.charges_for(1042), 2);
    }

    #[test]
    fn a_reused_key_with_another_body_is_422() {
        let mut p = provider();
        p.post_charge(Some("k"), &P, 0);
        let other = Payment {
            order: 1042,
            amount: 41,
        };
        assert_eq!(p.post_charge(Some("k"), &other, 0).reply.status(), 422);
    }

    #[test]
    fn a_stored_error_is_replayed() {
        let mut p = Provider::new(1_000, 81, BTreeSet::from([1042]));
        assert_eq!(p.post_charge(Some("k"), &P, 0).reply, Reply::Declined);
        p.answer("k");
        let again = p.post_charge(Some("k"), &P, 10);
        assert_eq!(again.reply, Reply::Declined);
        assert!(again.replayed);
    }

    #[test]
    fn keys_expire_after_their_lifetime() {
        let mut p = Provider::new(1_000, 81, BTreeSet::new());
        p.post_charge(Some("k"), &P, 0);
        let later = p.post_charge(Some("k"), &P, 1_000);
        assert!(!later.replayed);
        assert_eq!(p.charges().len(), 2);
    }
}
