//! A run handed on step by step instead of kept: each step says what it
//! changed (the copies the broker touched, the rows committed, the charges
//! made, the facts whose verdict moved), and nothing of it is kept once it
//! is handed on. A step costs the same early and late in the run, and
//! memory follows what is still in flight, not the length of the run:
//! `idem run` on a long scenario uses this.

use super::expand::{At, Run, Sink};
use crate::scenario::{Expectation, Script};
use crate::sim::db::PaymentRow;
use crate::sim::frame::Borrowed;
use crate::sim::frame::{ConsumerView, MessageView};
use crate::sim::provider::Charge;
use crate::sim::verdict::FactVerdict;
use crate::sim::world::Counters;
use crate::sim::{Event, Millis, SimError, SqlRecord, Strategy, Verdict, World};

/// What one step changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub index: usize,
    pub time_ms: Millis,
    pub chapter: usize,
    pub chapter_title: String,
    /// On a chapter's first step: the chapter's opening words.
    pub opening: Option<String>,
    pub action: String,
    /// What the action said it did, at the step where it ended.
    pub said: Option<String>,
    /// Words written for another design or engine: on a chapter's first
    /// step its opening ones, and at a step an action's, as `said`.
    pub borrowed: Option<Borrowed>,
    pub events: Vec<Event>,
    pub sql: Vec<SqlRecord>,
    /// The broker's copies this step changed.
    pub messages: Vec<MessageView>,
    pub broker_ids_lead: bool,
    /// The consumers whose state changed.
    pub consumers: Vec<ConsumerView>,
    /// Payment rows committed in this step, and the committed total after it.
    pub payments: Vec<PaymentRow>,
    pub total_recorded: u64,
    /// Charges the provider made in this step, and its totals after it.
    pub charges: Vec<Charge>,
    pub charges_made: usize,
    pub provider_total: u64,
    /// Facts whose verdict changed in this step.
    pub facts: Vec<FactVerdict>,
    /// The whole verdict's headline, when it changed.
    pub headline: Option<String>,
}

/// How the run ended.
#[derive(Clone, Debug)]
pub struct End {
    pub steps: usize,
    pub verdict: Verdict,
    pub counters: Counters,
    /// Committed payments, in dollars, and the provider's charges.
    pub payments_total: u64,
    pub charges: usize,
    /// The first step whose verdict declared a failure, and the step that
    /// did the harm when the verdict can point at one (as
    /// `Timeline::went_wrong_at`).
    pub first_violation: Option<usize>,
    pub went_wrong_at: Option<usize>,
}

impl End {
    /// How the end of the run differs from what the scenario expects.
    pub fn misses(&self, expect: &Expectation) -> Vec<String> {
        super::misses(
            self.payments_total,
            self.charges,
            &self.verdict.outcomes(),
            expect,
        )
    }
}

struct Pass<F: FnMut(Step)> {
    out: F,
    /// Steps made but not handed on: an action's words may still land on them.
    held: Vec<Step>,
    consumers: Vec<ConsumerView>,
    payments: usize,
    total: u64,
    charges: usize,
    provider_total: u64,
    headline: String,
    chapter: usize,
    first_violation: Option<usize>,
    went_wrong_at: Option<usize>,
}

impl<F: FnMut(Step)> Sink for Pass<F> {
    fn push(&mut self, world: &mut World, index: usize, at: At<'_>) -> Result<(), SimError> {
        let mut changed = Vec::new();
        for i in 0..world.consumers().len() {
            let shown = self.consumers.get(i);
            if shown.is_some_and(|view| world.consumer_shown(i, view)) {
                continue;
            }
            let view = world.consumer_view_of(i).expect("a consumer of the world");
            match self.consumers.get_mut(i) {
                Some(old) => *old = view.clone(),
                None => self.consumers.push(view.clone()),
            }
            changed.push(view);
        }
        let committed = &world.committed().payments;
        let payments = committed[self.payments.min(committed.len())..].to_vec();
        self.payments = committed.len();
        self.total += payments.iter().map(|p| u64::from(p.amount)).sum::<u64>();
        let all_charges = world.provider().charges();
        let charges = all_charges[self.charges.min(all_charges.len())..].to_vec();
        self.charges = all_charges.len();
        self.provider_total += charges.iter().map(|c| u64::from(c.amount)).sum::<u64>();
        let tally = world.tally();
        let headline = tally.headline(at.open);
        let moved = headline != self.headline;
        self.headline = headline.clone();
        if self.first_violation.is_none() && tally.outcome().is_failure() {
            // Once, at the declaring step: the whole verdict, for the step
            // that did the harm.
            let harm = world.verdict().harm_step();
            self.first_violation = Some(index);
            self.went_wrong_at = Some(harm.map_or(index, |h| h.min(index)));
        }
        let starts = index == 0 || at.chapter != self.chapter;
        let opening = starts.then(|| at.narration.to_string());
        let borrowed = at.borrowed.filter(|_| starts).cloned();
        self.chapter = at.chapter;
        let (events, sql) = world.take_output();
        self.held.push(Step {
            index,
            time_ms: world.now(),
            chapter: at.chapter,
            chapter_title: at.title.to_string(),
            opening,
            // Told as a kept run's step line tells it (`Frame::action_told`).
            action: crate::sim::frame::action_told::told(&at.action, world.found_nothing()),
            said: None,
            borrowed,
            events,
            sql,
            messages: world.touched_views(),
            broker_ids_lead: world.setup().id_source == crate::sim::world::IdSource::Broker,
            consumers: changed,
            payments,
            total_recorded: self.total,
            charges,
            charges_made: self.charges,
            provider_total: self.provider_total,
            facts: world.changed_facts().cloned().collect(),
            headline: (moved || index == 0).then_some(headline),
        });
        Ok(())
    }

    fn tell(&mut self, from: usize, _to: usize, _narration: &str, said: &str) {
        if let Some(step) = self.held.iter_mut().find(|s| s.index == from) {
            // As the timeline's frames: a step told already keeps its words first.
            step.said = Some(match step.said.take() {
                Some(before) => format!("{before} {said}"),
                None => said.to_string(),
            });
        }
    }

    fn tell_borrowed(&mut self, from: usize, _to: usize, borrowed: &Borrowed, said: &str) {
        if let Some(step) = self.held.iter_mut().find(|s| s.index == from) {
            let before = step.borrowed.take().and_then(|b| b.said);
            step.borrowed = Some(Borrowed {
                said: Some(match before {
                    Some(before) => format!("{before} {said}"),
                    None => said.to_string(),
                }),
                ..borrowed.clone()
            });
        }
    }

    fn settle(&mut self, frame: usize) {
        let keep = self.held.iter().position(|s| s.index >= frame);
        let done: Vec<Step> = self.held.drain(..keep.unwrap_or(self.held.len())).collect();
        done.into_iter().for_each(&mut self.out);
    }
}

/// Runs `script` under `strategy`, handing each step to `out` as it is
/// made; returns how the run ended. Acked copies are forgotten as the run
/// goes, so memory stays flat however many messages pass.
pub fn stream(
    script: &Script,
    strategy: &Strategy,
    seed: u64,
    out: impl FnMut(Step),
) -> Result<End, SimError> {
    // As in a kept timeline: no words written for other designs.
    let script = &*script.told_for(&strategy.name);
    let mut world = super::world_for(script, strategy, seed)?;
    world.set_forget_acked(true);
    let pass = Pass {
        out,
        held: Vec::new(),
        consumers: Vec::new(),
        payments: 0,
        total: 0,
        charges: 0,
        provider_total: 0,
        headline: String::new(),
        chapter: 0,
        first_violation: None,
        went_wrong_at: None,
    };
    let mut run = Run::new(script, strategy, world, pass, &[])?;
    for (chapter, step) in script.steps.iter().enumerate() {
        run.chapter(chapter + 1, step)?;
    }
    let (mut pass, _, world) = run.finish();
    pass.settle(usize::MAX);
    let mut verdict = world.verdict();
    verdict.unsettled = world.frame()?.unsettled();
    Ok(End {
        steps: world.step_index() + 1,
        counters: world.counters().clone(),
        payments_total: pass.total,
        charges: pass.charges,
        first_violation: pass.first_violation,
        went_wrong_at: pass.went_wrong_at,
        verdict,
    })
}
