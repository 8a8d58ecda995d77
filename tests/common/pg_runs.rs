//! Every built-in scenario under every design it expects, run once on the
//! PostgreSQL server for the whole test binary: the tests that read the
//! PostgreSQL runs of the built-ins share them rather than each running
//! the lot again.

use super::server::server;
use idem::scenario::Script;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::timeline::Timeline;
use std::sync::OnceLock;

/// One built-in run on PostgreSQL: the scenario as run (its setup names
/// the server), the design, and the timeline.
pub struct PgRun {
    pub script: Script,
    pub design: String,
    pub timeline: Timeline,
}

/// The runs, or `None` where no server answers (after one `skipped:` line).
pub fn pg_runs() -> Option<&'static [PgRun]> {
    static RUNS: OnceLock<Option<Vec<PgRun>>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let url = server()?;
        let mut runs = Vec::new();
        for script in builtins() {
            let mut on_server = script.clone();
            on_server.setup.postgres = Some(url.clone());
            for design in script.expect.keys() {
                let strategy = Strategy::by_name(design).unwrap();
                let timeline = Timeline::build(&on_server, &strategy, 0, &[]).unwrap_or_else(|e| {
                    panic!("{} under {design} on PostgreSQL: {e}", script.name)
                });
                runs.push(PgRun {
                    script: on_server.clone(),
                    design: design.clone(),
                    timeline,
                });
            }
        }
        Some(runs)
    })
    .as_deref()
}
