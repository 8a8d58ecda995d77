//! What the run asks a PostgreSQL server about the program's backends:
//! whether a quiet instance waits for a lock that another instance's open
//! transaction holds (blocked, not busy), and whether an ended instance's
//! backends are gone (its open transaction rolled back). Each instance's
//! backends are found by their application name (`database.rs`).

use super::Run;
use crate::harness::diagnosis::{Diagnosis, Trouble};
use crate::harness::instance::State;
use std::time::{Duration, Instant};

/// How often a quiet instance's backends are looked at on the server.
pub(super) const PROBE_EVERY: Duration = Duration::from_millis(10);

impl Run<'_, '_> {
    /// Instance `i` is quiet: when the server shows one of its backends
    /// waiting for a lock held only by instances that wait for idem (parked,
    /// or blocked themselves), it is blocked, and stays so until idem moves
    /// one of them. A lock held by an instance at work is let be: that
    /// instance will ask or block in its turn. True when `i` is blocked now.
    pub(super) fn blocked_on_server(&mut self, i: usize) -> Result<bool, Diagnosis> {
        let inst = &self.instances[i];
        if inst.since.elapsed() < PROBE_EVERY
            || inst.probed.is_some_and(|p| p.elapsed() < PROBE_EVERY)
        {
            return Ok(false);
        }
        let name = inst.name.clone();
        self.instances[i].probed = Some(Instant::now());
        let wait = self
            .db
            .lock_wait(&name)
            .map_err(|e| self.server_trouble(e))?;
        if !wait.waits || wait.holders.is_empty() || wait.outside > 0 {
            return Ok(false);
        }
        let holders: Option<Vec<String>> = wait
            .holders
            .iter()
            .map(|h| {
                self.instances
                    .iter()
                    .find(|x| &x.name == h && x.name != name)
                    .filter(|x| matches!(x.state, State::Parked(_) | State::Blocked))
                    .map(|x| x.label())
            })
            .collect();
        let Some(holders) = holders else {
            return Ok(false);
        };
        self.instances[i].state = State::Blocked;
        let label = self.instances[i].label();
        self.note(
            None,
            vec![format!(
                "{label} waits for the database lock: the server shows its statement waiting for {}'s open transaction",
                holders.join(" and ")
            )],
        );
        Ok(true)
    }

    /// What the server says of a backend of instance `i` that waits for a
    /// lock held outside this run, for the diagnosis of its silence.
    pub(super) fn waits_outside(&self, i: usize) -> Option<String> {
        let wait = self.db.lock_wait(&self.instances[i].name).ok()?;
        (wait.outside > 0).then(|| {
            "; the server shows its backend waiting for a lock held by a connection outside this run"
                .to_string()
        })
    }

    /// After instance `i`'s process ended: on a server, idem goes on only
    /// once its backends are gone.
    pub(super) fn backends_gone(&mut self, i: usize) {
        let name = self.instances[i].name.clone();
        if let Err(e) = self.db.ended(&name, self.cfg.wait) {
            self.trouble.get_or_insert(e.to_string());
        }
    }

    pub(super) fn server_trouble(&self, e: impl std::fmt::Display) -> Diagnosis {
        Diagnosis {
            trouble: Trouble::Setup,
            instance: String::new(),
            what: e.to_string(),
            stderr: Vec::new(),
        }
    }
}
