//! What compare points at is on screen, and its header is true at the
//! moment it is shown. A teacher trial at 80x24 found two things:
//! - the step that made naive's second charge left its `ch_82` row below
//!   the side's fold (`… ↓ 22 more rows below`), and at tour-4's parting
//!   the header named `order 1042 charges 2 vs 1` over two sides that
//!   showed no charge at all;
//! - the header said `then naive ✕ charged twice  here` a step before the
//!   second charge, over a side still `○ in progress`.
//!
//! No walk of its own: `compare_holding` draws every position of the
//! tours' compare at each size and hands each screen to `check`.

use idem::sim::Frame;
use idem::sim::change::Place;
use idem::tui::App;
use idem::tui::parting::{Apart, apart, outcome};

/// What `check` saw and found wrong over a walk.
#[derive(Default)]
pub struct Seen {
    /// Rows a step changed, or the header named, looked for.
    pub rows: usize,
    /// Headers that tell a side going wrong.
    pub headers: usize,
    /// How many of `wrong` are headers.
    pub headers_wrong: usize,
    pub wrong: Vec<String>,
}

/// Each side's rows as the screen shows them, trimmed, between its
/// borders: left side, then right.
fn side_rows(screen: &str) -> [Vec<String>; 2] {
    let rows: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect::<Vec<char>>())
        .filter(|r| matches!(r.first(), Some('│' | '▶')))
        .collect();
    let w = rows.first().map_or(0, Vec::len);
    let half = w / 2;
    let side = |from: usize, to: usize| -> Vec<String> {
        rows.iter()
            .map(|r| {
                r[from.min(r.len())..to.min(r.len())]
                    .iter()
                    .collect::<String>()
            })
            .map(|s| s.trim().to_string())
            .collect()
    };
    [side(1, half - 1), side(half + 1, w.saturating_sub(1))]
}

/// The rows over the sides (the parting line), joined, spaces squeezed.
fn header(screen: &str) -> String {
    screen
        .lines()
        .map(|l| l.trim_matches('"'))
        .skip(1)
        .take_while(|l| !l.starts_with('┌'))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a changed item looks like on a side: its own row where it has
/// one that names it (a charge), else its table's heading; and the name
/// of its section, as a sign that hides it names it.
fn looked_for(place: Place, key: &str) -> Option<(String, &'static str)> {
    match place {
        Place::Charges => Some((format!("{key} order"), "provider")),
        Place::Payments => Some(("payments".into(), "database")),
        Place::Processed => Some(("processed_messages".into(), "database")),
        Place::Queue => Some(("queue".into(), "queue")),
        Place::Keys => Some(("Idempotency-Key".into(), "provider")),
        _ => None,
    }
}

/// Whether a sign on the side that counts hidden rows names `section`
/// (`… ↓ 28 more rows below: queue · Tab`).
fn sign_names(rows: &[String], section: &str) -> bool {
    rows.iter().any(|r| {
        r.contains(" more rows ")
            && r.split_once(": ")
                .is_some_and(|(_, names)| names.split([',', ' ']).any(|n| n == section))
    })
}

/// The row the header's parting names, on both sides, and its section.
fn named(a: &Apart) -> Option<(String, &'static str)> {
    match a {
        Apart::Charges { .. } => Some(("charges".into(), "provider")),
        Apart::Payments { .. } => Some(("payments".into(), "database")),
        Apart::Broker { .. } => Some(("queue".into(), "queue")),
        Apart::Outcome { .. } => None,
    }
}

/// One compare screen at `pos`: each side that moved here shows the rows
/// its step changed, or a sign that hides them names their section; at
/// the parting both show what the header names (or name it so); and the
/// header tells a side going wrong at the step it does.
pub fn check(app: &App, pos: usize, screen: &str, at: &str, seen: &mut Seen) {
    let c = app.compare.as_ref().expect("compare is open");
    let sides = side_rows(screen);
    let shows = |side: usize, start: &str| sides[side].iter().any(|r| r.starts_with(start));
    let (lf, rf) = c.frames(pos);
    let moved = |side: fn(&(usize, usize)) -> usize| {
        pos == 0 || side(&c.pairs[pos]) != side(&c.pairs[pos - 1])
    };
    for (i, f, moved) in [(0, lf, moved(|p| p.0)), (1, rf, moved(|p| p.1))] {
        if !moved {
            continue;
        }
        for item in &f.changes.items {
            let Some((row, section)) = looked_for(item.place, &item.key) else {
                continue;
            };
            seen.rows += 1;
            if !shows(i, &row) && !sign_names(&sides[i], section) {
                seen.wrong.push(format!(
                    "{at}: side {i}'s step changed {:?} {}, and no row starts {row:?}\n{screen}",
                    item.place, item.key
                ));
            }
        }
    }
    if c.diverge == Some(pos)
        && let Some((row, section)) = apart(lf, rf).as_ref().and_then(named)
    {
        for (i, rows) in sides.iter().enumerate() {
            seen.rows += 1;
            if !shows(i, &row) && !sign_names(rows, section) {
                seen.wrong.push(format!(
                    "{at}: the header names {row} where they part, and side {i} shows none\n{screen}"
                ));
            }
        }
    }
    header_true(app, pos, screen, at, seen);
}

/// The header's `then naive ✕ charged twice` names the step it happens
/// at, and says `here` only at that step.
fn header_true(app: &App, pos: usize, screen: &str, at: &str, seen: &mut Seen) {
    let c = app.compare.as_ref().expect("compare is open");
    let Some(d) = c.diverge else { return };
    let Some(p) = (d..c.pairs.len()).find(|&p| {
        let (a, b) = c.frames(p);
        outcome(a, b).is_some()
    }) else {
        return;
    };
    if p == d {
        // They part at the wrong step itself: `they part at …` names it.
        return;
    }
    let (a, b) = c.frames(p);
    let (who, f): (&str, &Frame) = if a.verdict.outcome.is_failure() {
        (&c.left.strategy, a)
    } else {
        (&c.right.strategy, b)
    };
    let head = header(screen);
    // The clause from the side's name on: where the line wraps between
    // clauses, the row break stands for their dot.
    let Some(from) = head.rfind(&format!("{who} ✕")) else {
        return;
    };
    let clause = &head[from..];
    seen.headers += 1;
    let unit = if idem::tui::compare::is_schedule(&app.script) {
        "move"
    } else {
        "step"
    };
    let step = format!("at {unit} {}", f.index);
    let here = clause
        .split_whitespace()
        .any(|w| w.trim_matches(',') == "here");
    if !clause.contains(&step) || here != (pos == p) {
        seen.headers_wrong += 1;
        seen.wrong.push(format!(
            "{at}: the header says {clause:?}; it goes wrong {step}, \
             here: {}\n{screen}",
            pos == p
        ));
    }
}
