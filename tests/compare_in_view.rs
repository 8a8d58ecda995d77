//! What compare points at is on screen, and its header is true at the
//! moment it is shown. A teacher trial at 80x24 found two things:
//! - the step that made naive's second charge left its `ch_82` row below
//!   the side's fold (`… ↓ 22 more rows below`), and at tour-4's parting
//!   the header named `order 1042 charges 2 vs 1` over two sides that
//!   showed no charge at all;
//! - the header said `then naive ✕ charged twice  here` a step before the
//!   second charge, over a side still `○ in progress`;
//! - at the last step both sides followed the ack to the queue, and the
//!   charges the verdict rests on (`charges made 2 ($80)` against `1
//!   ($40)`, `ch_81`, `ch_82`) were scrolled off both sides.
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
    /// Screens where the verdicts differ or the run ends, whose sides
    /// must show the charges and payment rows the verdict rests on.
    pub evidence: usize,
    /// How many of `wrong` are such screens.
    pub evidence_wrong: usize,
    /// Signs a side's border names (`* changed`), looked for on the side.
    pub legends: usize,
    /// How many of `wrong` are such signs.
    pub legends_wrong: usize,
    pub wrong: Vec<String>,
}

/// Each side's rows as the screen shows them, trimmed, between its
/// borders: left side, then right.
pub fn side_rows(screen: &str) -> [Vec<String>; 2] {
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
    evidence_shown(app, pos, screen, at, seen);
    legends_drawn(screen, at, seen);
    header_true(app, pos, screen, at, seen);
}

/// Each sign a side's bottom border names (`└─ * changed ───┘`) is drawn
/// on that side: a side whose changed queue row was scrolled under the
/// sign that counts the rows below still named `* changed`.
fn legends_drawn(screen: &str, at: &str, seen: &mut Seen) {
    let sides = side_rows(screen);
    let Some(bottom) = screen
        .lines()
        .map(|l| l.trim_matches('"'))
        .find(|l| l.starts_with('└'))
    else {
        return;
    };
    let chars: Vec<char> = bottom.chars().collect();
    let half = chars.len() / 2;
    for (i, border) in [&chars[..half], &chars[half..]].into_iter().enumerate() {
        let border: String = border.iter().collect();
        let words = border.trim_matches(|c| "└┘─ ".contains(c));
        for entry in words.split(", ").filter(|e| !e.is_empty()) {
            let Some(sign) = entry.split(' ').next() else {
                continue;
            };
            seen.legends += 1;
            if !sides[i].iter().any(|r| r.contains(sign)) {
                seen.legends_wrong += 1;
                seen.wrong.push(format!(
                    "{at}: side {i}'s border names {entry:?}, and the side draws no {sign}\n{screen}"
                ));
            }
        }
    }
}

/// At the last step, and wherever the verdicts differ, each side shows
/// what its verdict rests on: the provider's charges (the heading that
/// counts them and each charge's row) and every committed payment row (the table's
/// heading may give way to the story above them where the side is short).
/// No sign that names the section will do: a verdict read beside no
/// evidence is a claim, not a lesson.
fn evidence_shown(app: &App, pos: usize, screen: &str, at: &str, seen: &mut Seen) {
    let c = app.compare.as_ref().expect("compare is open");
    let (lf, rf) = c.frames(pos);
    if pos + 1 != c.pairs.len() && outcome(lf, rf).is_none() {
        return;
    }
    seen.evidence += 1;
    let sides = side_rows(screen);
    let mut missing = Vec::new();
    for (i, f) in [lf, rf].into_iter().enumerate() {
        let rows = &sides[i];
        let starts = |s: &str| rows.iter().filter(|r| r.starts_with(s)).count();
        if starts("charges") == 0 {
            missing.push(format!("side {i}: the charges' heading"));
        }
        for ch in &f.provider.charges {
            if starts(&format!("{} ", ch.id)) == 0 {
                missing.push(format!("side {i}: charge {}", ch.id));
            }
        }
        // Committed rows: those the verdict counts (`no payment row
        // committed` over a row in A's open transaction says it).
        let committed = || f.db.payments.iter().filter(|p| p.uncommitted_by.is_none());
        let mut orders: Vec<u32> = committed().map(|p| p.order).collect();
        orders.sort_unstable();
        orders.dedup();
        for o in orders {
            let want = committed().filter(|p| p.order == o).count();
            if starts(&format!("{o} ")) < want {
                missing.push(format!("side {i}: {want} payment rows of order {o}"));
            }
        }
    }
    if !missing.is_empty() {
        seen.evidence_wrong += 1;
        seen.wrong.push(format!(
            "{at}: the verdict's evidence is not in view: {}\n{screen}",
            missing.join(", ")
        ));
    }
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
