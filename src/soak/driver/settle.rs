//! When a soak's fact settles: nothing can change it any more, so the
//! world's verdict books it, and the first violation of each outcome keeps
//! its story, replayed on its own as a scenario file.

use super::Driver;
use crate::sim::verdict::FactVerdict;
use crate::sim::{Payment, SimError};
use crate::soak::live::{self, LiveViolation};
use crate::soak::story::{self, Replay, Story};
use crate::soak::tally::{self, Example};

impl Driver<'_> {
    /// Whether nothing can change this fact any more: no copy queued or
    /// leased, no handler on it, no publish retry still to come.
    fn settled(&self, payment: &Payment, story: &Story) -> bool {
        !story
            .messages
            .iter()
            .any(|m| self.schedule.retry_due(&m.id))
            && !self
                .world
                .consumers()
                .iter()
                .any(|c| c.delivery().is_some_and(|d| d.message.payment == *payment))
            && !self.world.broker().payment_pending(payment)
    }

    pub(super) fn try_settle(&mut self, payment: &Payment) -> Result<(), SimError> {
        match self.live.get(payment) {
            Some(story) if self.settled(payment, story) => self.settle(payment),
            _ => Ok(()),
        }
    }

    pub(super) fn sweep(&mut self) -> Result<(), SimError> {
        let done: Vec<Payment> = self
            .live
            .iter()
            .filter(|(p, s)| self.settled(p, s))
            .map(|(p, _)| p.clone())
            .collect();
        for payment in done {
            self.settle(&payment)?;
        }
        Ok(())
    }

    /// Judges a fact with the world's verdict and books it; the first
    /// violation of each outcome keeps its story, replayed on its own.
    pub(super) fn settle(&mut self, payment: &Payment) -> Result<(), SimError> {
        self.judge(payment, false)
    }

    /// Judges a fact the soak stopped with still under way, as it stands.
    pub(super) fn settle_in_progress(&mut self, payment: &Payment) -> Result<(), SimError> {
        self.judge(payment, true)
    }

    fn judge(&mut self, payment: &Payment, under_way: bool) -> Result<(), SimError> {
        let Some(story) = self.live.remove(payment) else {
            return Ok(());
        };
        for m in &story.messages {
            self.by_id.remove(&m.id);
        }
        let Some(fact) = self.world.fact_verdict(payment).cloned() else {
            return Ok(());
        };
        let wanted = if under_way {
            self.tally.book_in_progress(&fact)
        } else {
            self.tally.book(&fact)
        };
        if !wanted.is_empty() {
            // One story, the example of each outcome it is the first of.
            let example = self.example(&story, &fact)?;
            for o in wanted {
                self.tally.examples.insert(o, example.clone());
            }
        }
        // Booked: nothing can change it now, and the world may forget it.
        self.world.retire(payment);
        if self.watch.is_some() {
            self.figures.money = self.tally.money.clone();
            self.figures
                .settled_at(self.world.now(), fact.expected as u64);
            if fact.outcome.is_failure() {
                self.tell(&story, &fact)?;
            }
        }
        Ok(())
    }

    /// A violation for the dashboard's list, with its story to open. Each
    /// design lists its first `MAX_LISTED`, and the list is kept in order
    /// of virtual time (then of the designs): the same list for the same
    /// seed, however the designs' threads ran. A share of the limit per
    /// design would also be the same, but left a broken design's list cut
    /// at half beside a design that found nothing (trial 32).
    fn tell(&self, story: &Story, fact: &FactVerdict) -> Result<(), SimError> {
        let Some((live, mine)) = self.watch else {
            return Ok(());
        };
        let name = self.strategy.name.as_ref();
        let listed = |state: &live::LiveState| {
            state.violations.iter().filter(|v| v.design == name).count() >= live::MAX_LISTED
        };
        if live.state.lock().map(|s| listed(&s)).unwrap_or(true) {
            return Ok(());
        }
        let verdict = std::sync::Arc::new(tally::verdict(fact));
        let story = self
            .story_script(story, fact)?
            .ok()
            .map(std::sync::Arc::new);
        let at_ms = self.world.now();
        if let Ok(mut state) = live.state.lock() {
            let rank = |design: &str| state.designs.iter().position(|d| d.design == design);
            let place = state
                .violations
                .partition_point(|v| (v.at_ms, rank(&v.design)) <= (at_ms, Some(mine)));
            state.violations.insert(
                place,
                LiveViolation {
                    design: name.to_string(),
                    outcome: fact.outcome,
                    fact: format!("order {} (${})", fact.order, fact.amount),
                    verdict,
                    at_ms,
                    story,
                },
            );
        }
        Ok(())
    }

    fn example(&self, story: &Story, fact: &FactVerdict) -> Result<Example, SimError> {
        let chain = tally::chain(fact);
        let mut example = Example {
            fact: format!("order {} (${})", fact.order, fact.amount),
            messages: story.messages.iter().map(|m| m.id.clone()).collect(),
            chain: chain.clone(),
            story: None,
            no_story: None,
            story_text: None,
        };
        match self.story_script(story, fact)? {
            Ok(script) => {
                example.story = Some(format!("{}.toml", script.name));
                example.story_text = Some(crate::scenario::write::to_toml(
                    &script,
                    &format!(
                        "Written by `idem soak --save`. Replay: idem run <this file> --mode {} --check",
                        self.strategy.name
                    ),
                ));
            }
            Err(why) => example.no_story = Some(why),
        }
        Ok(example)
    }

    /// The fact's story as a scenario, or why there is none: too long for
    /// a file, or it ends otherwise on its own.
    fn story_script(
        &self,
        story: &Story,
        fact: &FactVerdict,
    ) -> Result<Result<crate::scenario::Script, String>, SimError> {
        // Named after every outcome it shows, counted as its chain counts
        // them: `charged-3-times`, `charged-twice-disagree`.
        let shows: String = tally::verdict(fact)
            .headline_short()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let name = format!("soak-{}-{shows}-order-{}", self.strategy.name, fact.order);
        Ok(match story.replay(self.world.setup(), &self.strategy)? {
            None => Err(format!(
                "its story has more than {} moves, too many for a scenario file",
                story::MAX_MOVES
            )),
            Some(replay) if same_end(&replay, fact) => {
                Ok(replay.script(story, &name, &self.strategy))
            }
            Some(replay) => Err(format!(
                "on its own its story ends {} (payments {}, charges {}), not as in the soak: it depended on other messages",
                replay.verdict.outcome.text(),
                replay.verdict.payments,
                replay.verdict.charges
            )),
        })
    }
}

fn same_end(replay: &Replay, fact: &FactVerdict) -> bool {
    replay.verdict.outcome == fact.outcome
        && replay.verdict.payments == fact.payments
        && replay.verdict.charges == fact.charges
}
