//! The question about the provider that predict mode asks where its
//! scenario asks none: at every action in which the provider charges the
//! card or replays a stored result (the call is the moment the pattern is
//! about, so it never passes unasked), and at every action in which a
//! handler drops that call because it found its message handled before or
//! held by another delivery. Asked only at calls, its presence said "a
//! charge comes now" (a teacher trial found it did, at the very redelivery
//! the idempotent design skips); asked at the skips too, it no longer tells
//! the one from the other. It is not asked where a handler merely receives,
//! commits or acks: that would make the class answer "no call" at every
//! step. Its answer is computed like any other (`asked::figure`); its
//! reason is read from the frames it happened in, so it says what this
//! run's provider saw, or why it saw nothing (`asked_no_call`).

use super::asked_no_call::skipped_call_why;
use crate::scenario::{Question, Subject};
use crate::sim::Frame;
use std::collections::BTreeMap;

/// Questions that already ask about the provider's part in an action.
fn about_the_provider(q: &Question) -> bool {
    matches!(
        q.subject,
        Subject::ChargesAgain | Subject::ProviderAnswer | Subject::ProviderCharges
    )
}

/// The question to add to an action whose own frames are `own`, asked
/// already `asked` under this design; `before` is the frame it starts from.
/// None where the provider neither charges nor replays in it and no handler
/// drops its call in it, or a question about the provider is asked there
/// already. `nothing_to_charge` tells a status change's message ID.
pub(super) fn provider_question(
    before: &Frame,
    own: &[&Frame],
    asked: &[&Question],
    nothing_to_charge: impl Fn(&str) -> bool,
) -> Option<Question> {
    if asked.iter().any(|q| about_the_provider(q)) {
        return None;
    }
    let charged_or_replayed = own.iter().any(|f| {
        f.provider
            .answered_now
            .as_ref()
            .is_some_and(|a| a.status == 201)
    });
    if !charged_or_replayed {
        return skipped_call_why(before, own, nothing_to_charge).map(question);
    }
    // The subject's answer is the first call's: so is the reason.
    let (at, first) = own
        .iter()
        .enumerate()
        .find_map(|(i, f)| Some((i, f.provider.answered_now.as_ref()?)))?;
    let frame = own[at];
    let earlier = if at == 0 { before } else { own[at - 1] };
    let why = if first.status == 201 && first.replayed {
        let key = frame
            .provider
            .keys
            .iter()
            .find(|k| k.replayed_now)
            .map_or("this message's key".to_string(), |k| {
                format!("key {}", k.key)
            });
        format!(
            "{} calls with {key}, which the provider has answered before: it returns that stored answer and charges nothing.",
            first.caller
        )
    } else if first.status == 201 {
        let charge = frame.provider.charges.last()?;
        // The same payment charged before: the same order and amount.
        let charged_before = earlier
            .provider
            .charges
            .iter()
            .any(|c| (c.order, c.amount) == (charge.order, charge.amount));
        let again = if charged_before { " again" } else { "" };
        match &charge.key {
            Some(k) => format!(
                "The provider holds no answer under key {k} yet, so {}'s call is a new request: it charges the card{again} ({}, ${}).",
                first.caller, charge.id, charge.amount
            ),
            // Only a repeat is charged because the key is missing: a first
            // call is a new payment, and a keyed one is charged just the same.
            None if charged_before => format!(
                "{}'s call carries no Idempotency-Key, so the provider cannot tell it from a new payment: it charges the card again ({}, ${}).",
                first.caller, charge.id, charge.amount
            ),
            None => format!(
                "{}'s call is a new payment to the provider: it charges the card ({}, ${}). The call carries no Idempotency-Key, so the provider will not recognise a retry of it.",
                first.caller, charge.id, charge.amount
            ),
        }
    } else if first.status == 409 {
        format!(
            "A request with {}'s key is still in progress at the provider, so it refuses this one with 409 and charges nothing.",
            first.caller
        )
    } else {
        format!(
            "The provider refuses {}'s call with {} and charges nothing.",
            first.caller, first.status
        )
    };
    Some(question(why))
}

fn question(why: String) -> Question {
    Question {
        subject: Subject::ProviderAnswer,
        text: None,
        why,
        why_for: BTreeMap::new(),
        designs: Vec::new(),
    }
}

impl super::Asked {
    /// The charge a question about the provider's answer is about, read
    /// from `frames` (the timeline's) at the action's first call: the charge
    /// that call made, or the one whose stored result it replayed. None for
    /// any other question, and where the provider refused or no call was
    /// made (no charge is the answer then).
    pub fn answered_charge(&self, frames: &[Frame]) -> Option<String> {
        if self.question.subject != Subject::ProviderAnswer {
            return None;
        }
        let end = self.answer_at.min(frames.len().checked_sub(1)?);
        let at = (self.ask_at + 1..=end).find(|&i| frames[i].provider.answered_now.is_some())?;
        let frame = &frames[at];
        let answer = frame.provider.answered_now.as_ref()?;
        if answer.status != 201 {
            return None;
        }
        if answer.replayed {
            let key = frame.provider.keys.iter().find(|k| k.replayed_now)?;
            return frame
                .provider
                .charges
                .iter()
                .find(|c| c.id == key.result)
                .map(|c| c.id.clone());
        }
        let before = &frames[at - 1].provider.charges;
        frame
            .provider
            .charges
            .iter()
            .find(|c| !before.iter().any(|b| b.id == c.id))
            .map(|c| c.id.clone())
    }
}
