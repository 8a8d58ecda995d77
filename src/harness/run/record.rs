//! The record a replay shows: after each step, the queue, the provider's
//! charges and keys, the program's tables (read by query) and what the
//! program wrote to stderr. Kept only when the run is asked to record.

use super::Run;
use crate::harness::faults::Fault;
use crate::sim::Millis;
use crate::sim::broker::StoredMessage;
use crate::sim::db::program;
use crate::sim::provider::{Charge, KeyRecord};

/// What one step of a run looked like, for a replay: what happened, and
/// how the queue, the provider and the program's database looked after it.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// The point index, for a request idem answered.
    pub point: Option<usize>,
    pub lines: Vec<String>,
    pub fault: Option<Fault>,
    /// Which of `lines` tells the fault: what only the observer sees.
    pub fault_line: Option<usize>,
    /// Virtual time after the step.
    pub now: Millis,
    pub queue: Vec<StoredMessage>,
    pub charges: Vec<Charge>,
    pub keys: Vec<KeyRecord>,
    /// The program's tables, each with its whole row count (the rows kept
    /// may be fewer).
    pub tables: Vec<(program::TableDump, usize)>,
    /// What the program wrote to stderr since the step before, each line
    /// led by its instance.
    pub stderr: Vec<String>,
    /// Where this step's request is one a fault held: sent and held here,
    /// or reaching idem here after it was sent at an earlier step. Told
    /// from this, not from the lines' words: a held request answered
    /// later was told twice as sent, and read as a second charge.
    pub held: Option<HeldRequest>,
    /// The names of the recorded query's first two columns (the order and
    /// the amount), as read after the step: a table with both records
    /// payments, and a row of it can repeat one (`repeats`). Empty where
    /// the query reads no table yet.
    pub payment_columns: Vec<String>,
    /// Shorter forms of some of `lines` (by index), each saying the same
    /// in fewer words, its aside left out: for a screen where the whole
    /// line would take a row the verdict needs (80x24).
    pub short: Vec<(usize, String)>,
}

/// A request a fault held back (its lease ran out while its instance
/// waited for the answer, and idem answers it once the others can go no
/// further): one request, told at two steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldRequest {
    /// Sent in this step, and held by this step's fault.
    Held,
    /// The request sent and held at step `sent` (1 is the first),
    /// reaching idem in this step.
    Reaches { sent: usize },
}

impl Run<'_, '_> {
    /// Tells the fault that falls here, as the next of `lines`.
    pub(super) fn fault_said(&mut self, lines: &mut Vec<String>, what: String) {
        self.fault_line = Some(lines.len());
        lines.push(format!("✕ fault: {what}"));
    }

    pub(super) fn note_fault(&mut self, index: usize, fault: Option<Fault>, lines: Vec<String>) {
        self.note(Some(index), lines);
        if let Some(step) = self.steps.last_mut() {
            step.fault = fault;
        }
    }

    /// Records a step: what happened, and with `record`, how everything
    /// looks after it.
    pub(super) fn note(&mut self, point: Option<usize>, lines: Vec<String>) {
        let fault_line = self.fault_line.take();
        let held = self.held.take();
        let short = std::mem::take(&mut self.short);
        self.step_points.push(point);
        if !self.cfg.record {
            return;
        }
        let mut step = Step {
            point,
            lines,
            fault_line,
            held,
            short,
            ..Step::default()
        };
        step.queue = self.broker.messages().to_vec();
        step.charges = self.provider.charges().to_vec();
        step.keys = self.provider.keys().cloned().collect();
        step.now = self.now;
        self.unseen.get_or_insert(self.steps.len());
        self.steps.push(step);
    }

    /// Fills in the steps since the last look what only a quiet moment
    /// shows truly: the program's tables and what it wrote to stderr since
    /// the step before. Called once every instance has parked, so it never
    /// races a process. Steps told in between (an instance that blocked or
    /// ended while it worked) end at such a moment too, with nothing
    /// committed since: each gets the same tables; the stderr goes to the
    /// last, where the instances stopped.
    pub(super) fn look(&mut self) {
        if !self.cfg.record {
            return;
        }
        let Some(first) = self.unseen.take() else {
            return;
        };
        let tables = self.db.dump_tables(20).unwrap_or_default();
        let mut payment_columns = self
            .db
            .query_columns(&self.cfg.recorded_query)
            .unwrap_or_default();
        payment_columns.truncate(2);
        let mut stderr = std::mem::take(&mut self.stderr_carry);
        for i in 0..self.instances.len() {
            stderr.extend(self.stderr_since(i));
        }
        for step in &mut self.steps[first..] {
            step.tables = tables.clone();
            step.payment_columns = payment_columns.clone();
        }
        if let Some(step) = self.steps.last_mut() {
            step.stderr = stderr;
        }
    }

    /// What instance `i`'s process wrote to stderr since the last look.
    pub(super) fn stderr_since(&mut self, i: usize) -> Vec<String> {
        let inst = &mut self.instances[i];
        let label = inst.label();
        let mut out = Vec::new();
        if let Some(proc) = inst.proc.as_mut() {
            proc.drain_stderr();
            let (lines, dropped) = proc.stderr.since(self.stderr_seen[i]);
            if dropped > 0 {
                out.push(format!("{label}: … {dropped} lines not kept"));
            }
            out.extend(lines.iter().map(|l| format!("{label}: {l}")));
            self.stderr_seen[i] = proc.stderr.total();
        }
        out
    }
}
