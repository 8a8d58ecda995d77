//! The explorer opened from a PostgreSQL session says its table was found
//! on SQLite. Teacher trial: from `idem play tour-3 --db postgres://…`,
//! `x` showed `idem · Explorer  ✓ 3 hold within bounds · …` at every size,
//! the engine never named, though the README promises "its header says
//! so". The session's engine is a setting of its script: the explorer
//! never asks the server, so no server is needed here.

use crate::common::check::{explorer_showing, in_progress, report};
use crate::common::draw;
use idem::check::CheckReport;
use idem::tui::App;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

/// The explorer on `report`, opened from a session on a PostgreSQL server.
fn from_a_server(report: CheckReport) -> App {
    let mut a = explorer_showing(report);
    a.script.setup.postgres = Some(
        "postgres://root@127.0.0.1:5432/test"
            .parse()
            .expect("an address"),
    );
    a.server = a.script.setup.postgres.clone();
    a
}

/// At every size, with the tallies `x` shows (a design against its claim;
/// one broken one bound further, as at the default bounds), the header
/// names SQLite whole, beside the tally, kept whole too.
#[test]
fn the_explorer_from_a_server_session_says_it_ran_on_sqlite_at_every_size() {
    let plain = report().clone();
    let mut crowded = plain.clone();
    crowded
        .strategies
        .iter_mut()
        .find(|s| s.strategy == "naive")
        .expect("naive")
        .claims_safe = true;
    // As `x` finds it at the default bounds: in-progress holds there and
    // breaks one bound further, beside the others' rows (the longest
    // tally `x` shows; the trial's screen).
    let mut full = plain.clone();
    let further = in_progress().strategies[0].clone();
    for row in full.strategies.iter_mut() {
        if row.strategy == further.strategy {
            *row = further.clone();
        }
    }
    let (mut screens, mut wrong) = (0, Vec::new());
    for (name, report) in [
        ("plain", plain),
        ("crowded", crowded),
        ("full", full),
        ("in-progress", in_progress().clone()),
    ] {
        for (w, h) in SIZES {
            screens += 1;
            let mut a = from_a_server(report.clone());
            let screen = draw(&mut a, w, h);
            let header = screen.lines().next().expect("a header");
            if !header.contains("SQLite")
                || header.contains('…')
                || !header.contains("hold within bounds")
            {
                wrong.push(format!("{name} {w}x{h}: {header}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {screens} headers do not say SQLite whole:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
