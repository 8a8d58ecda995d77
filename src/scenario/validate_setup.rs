//! A scenario's setup checked: the queue, consumers, durations, limits and
//! messages, each wrong value at its place. A wrong value is noted and its
//! default taken, so the steps after it are checked in the same pass.

use super::error::ScenarioError;
use super::format::RawScenario;
use super::missing_key::MissingKey;
use super::validator::Validator;
use crate::sim::message::StatusUpdate;
use crate::sim::world::IdSource;
use crate::sim::{Message, Payment, Setup};
use crate::suggest::did_you_mean;
use std::collections::BTreeSet;

impl Validator<'_> {
    pub(super) fn setup(&self, raw: &RawScenario) -> Result<Setup, ScenarioError> {
        let s = &raw.setup;
        let defaults = Setup::default();
        let mut setup = Setup {
            queue: s
                .queue
                .as_ref()
                .map_or(defaults.queue, |q| q.get_ref().clone()),
            lease_ms: self
                .keep(self.duration(&s.lease, defaults.lease_ms))
                .unwrap_or(defaults.lease_ms),
            step_ms: self
                .keep(self.duration(&s.step, defaults.step_ms))
                .unwrap_or(defaults.step_ms),
            key_lifetime_ms: self
                .keep(self.duration(&s.key_lifetime, defaults.key_lifetime_ms))
                .unwrap_or(defaults.key_lifetime_ms),
            dedup_window_ms: self.keep(self.duration(&s.dedup_window, 0)).unwrap_or(0),
            cache_ttl_ms: self
                .keep(self.duration(&s.cache_ttl, defaults.cache_ttl_ms))
                .unwrap_or(defaults.cache_ttl_ms),
            record_timeout_ms: self
                .keep(self.duration(&s.record_timeout, defaults.record_timeout_ms))
                .unwrap_or(defaults.record_timeout_ms),
            ordered: s.ordered.unwrap_or(false),
            first_charge: match &s.first_charge {
                Some(n) if *n.get_ref() > 1_000_000_000 => {
                    self.keep::<()>(self.fail(
                        n.span(),
                        format!(
                            "first_charge {} is too large: at most 1000000000",
                            n.get_ref()
                        ),
                    ));
                    defaults.first_charge
                }
                Some(n) => self
                    .keep(self.positive(n, "first_charge"))
                    .unwrap_or(defaults.first_charge),
                None => defaults.first_charge,
            },
            declines: s.declines.iter().copied().collect::<BTreeSet<_>>(),
            require_key: s.require_key,
            ..Setup::default()
        };
        if let Some(source) = &s.id_source {
            setup.id_source = match source.get_ref().as_str() {
                "producer" => IdSource::Producer,
                "broker" => IdSource::Broker,
                "content" => IdSource::Content,
                other => {
                    self.keep::<()>(self.fail(
                        source.span(),
                        format!(
                            "unknown id_source `{other}`{}: use producer, broker or content",
                            did_you_mean(other, ["producer", "broker", "content"])
                        ),
                    ));
                    setup.id_source
                }
            };
        }
        if setup.lease_ms == 0 {
            let span = s.lease.as_ref().map(|l| l.span()).unwrap_or_default();
            self.keep::<()>(self.fail(span, "the lease must be longer than 0s".into()));
            setup.lease_ms = defaults.lease_ms;
        }
        if let Some(max) = &s.max_receives
            && let Some(n) = self.keep(self.positive(max, "max_receives"))
        {
            setup.max_receives = n;
        }
        // A list of a wrong type, or with a name of one, was told and
        // taken out: what is left (the default, or the other names) is not
        // the list meant, so no action is judged against it.
        let taken = self.consumers_taken();
        if taken {
            self.consumers_unknown.set(true);
        }
        if let Some(consumers) = &s.consumers {
            // A wrong list is told and the actions checked without it: each
            // naming a consumer is then left unjudged, as any could be
            // wrong for want of the name meant. A name listed twice is
            // told and known once.
            if consumers.get_ref().is_empty() && !taken {
                self.keep::<()>(
                    self.fail(consumers.span(), "at least one consumer is needed".into()),
                );
                self.consumers_unknown.set(true);
            }
            let mut names = Vec::new();
            for c in consumers.get_ref() {
                let name = c.get_ref();
                if name.is_empty() || !name.chars().all(|ch| ch.is_ascii_alphanumeric()) {
                    self.keep::<()>(self.fail(
                        c.span(),
                        format!("consumer name `{name}` must be letters or digits, like A"),
                    ));
                    self.consumers_unknown.set(true);
                    continue;
                }
                if names.contains(name) {
                    self.keep::<()>(
                        self.fail(c.span(), format!("consumer `{name}` is listed twice")),
                    );
                    continue;
                }
                names.push(name.clone());
            }
            if !names.is_empty() {
                setup.consumers = names;
            }
        }
        if s.messages.get_ref().is_empty() && !self.messages_unknown() {
            self.keep::<()>(self.fail(s.messages.span(), "at least one message is needed".into()));
            self.messages_gone.set(true);
        }
        // Each message is checked on its own, so that every wrong one is
        // reported; the steps are checked only once every ID is sound.
        let mut bodies = std::collections::BTreeSet::new();
        for (index, m) in s.messages.get_ref().iter().enumerate() {
            let id = m.id.get_ref();
            // A message without its ID is left out as one with a wrong ID
            // is, already told.
            if self.lacks(MissingKey::MessageId(index)) {
                continue;
            }
            if id.is_empty() || id.chars().any(char::is_whitespace) {
                self.keep::<()>(self.fail(
                    m.id.span(),
                    format!("message ID `{id}` must be one word, like m-7f3"),
                ));
                continue;
            }
            // A wrong order, amount or version is noted and the message
            // kept with a stand-in, so that the actions naming its ID are
            // still checked; the script is never built from it.
            let found_before = self.found.borrow().len();
            // A key taken out of it (a value of a wrong type, an unknown
            // key) was told: what it leaves short is not judged, and the
            // message is known by its ID with a stand-in body.
            let short = self.taken_from_message(index);
            let order = match &m.order {
                Some(order) => self.keep(self.positive(order, "order")).unwrap_or(0),
                None => 0,
            };
            let (payment, status) = match (&m.amount, &m.status, &m.version) {
                (Some(amount), None, None) => {
                    let amount = self.keep(self.positive(amount, "amount")).unwrap_or(0);
                    (Payment { order, amount }, None)
                }
                (None, Some(status), Some(version)) => {
                    let version = self.keep(self.positive(version, "version")).unwrap_or(0);
                    (
                        Payment { order, amount: 0 },
                        Some(StatusUpdate {
                            status: status.get_ref().clone(),
                            version,
                        }),
                    )
                }
                _ if short => (Payment { order, amount: 0 }, None),
                _ => {
                    self.keep::<()>(self.fail(
                        m.id.span(),
                        format!(
                            "message `{id}` needs either `amount` (a payment) or `status` and `version` (a status change), not both"
                        ),
                    ));
                    (Payment { order, amount: 0 }, None)
                }
            };
            // A stand-in is no body: it cannot be a copy of another. A
            // message without its order has one (told as missing).
            if self.found.borrow().len() > found_before || m.order.is_none() || short {
                setup.messages.push(Message {
                    id: id.clone(),
                    payment,
                    status,
                });
                continue;
            }
            // The same ID with a different body is allowed: it is how a
            // scenario shows a producer that reuses IDs. The same ID with the
            // same body is a copy, which `publish` sends.
            let body = (
                id.clone(),
                payment.clone(),
                status.as_ref().map(|s| (s.status.clone(), s.version)),
            );
            if !bodies.insert(body) {
                self.keep::<()>(self.fail(
                    m.id.span(),
                    format!(
                        "message `{id}` appears twice with the same body; to send a copy, use the action `publish {id}`"
                    ),
                ));
                continue;
            }
            setup.messages.push(Message {
                id: id.clone(),
                payment,
                status,
            });
        }
        // A value above that was wrong is noted and its default used: the
        // steps can still be checked. A message left out (its ID wrong)
        // cannot: every action naming it would fail again.
        if setup.messages.len() < s.messages.get_ref().len() {
            self.stop_if_found()?;
        }
        Ok(setup)
    }
}
