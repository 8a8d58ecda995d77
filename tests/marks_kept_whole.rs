//! A mark is never the part that is cut. Every frame of every built-in
//! scenario, under every design it lists, at the sizes a class uses: each
//! mark a panel puts on a row (`* changed`, `◀ this step`, `≠ key taken`'s
//! word, `uncommitted (A)`) is on screen whole, its row giving way (with an
//! ellipsis) instead; a mark shortens to its sign (` *`, ` ◀`) only where
//! the row is already cut down to a recognisable start; and the row keeps
//! that start (never `≠ …  key taken`, the step's name gone).

use crate::common::{self, sweep};
use idem::tui::app::Panel;
use idem::tui::theme::Theme;
use idem::tui::view;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::text::{Line, Span};

use sweep::SIZES;

/// The fewest cells of a row's own text kept beside its marks (the views'
/// `marks::MIN_TEXT`), after a step's glyph (` ✓ `, three cells).
const MIN_TEXT: usize = 8;
const GLYPH: usize = 3;

/// The words a service step carries after its label: its mark's word and
/// the pointer to the next step.
const STEP_WORDS: [&str; 18] = [
    "failed",
    "409 in progress",
    "lost",
    "never received",
    // What a check that turned the delivery away found (`step_name::found`).
    "key taken",
    "ID found",
    "row has ID",
    "not newer",
    "skipped",
    "not owner",
    "blocked",
    "never ran",
    "◇ ignored",
    "awaits answer",
    "backed off",
    "next",
    "next: again",
    "again",
];

fn rows(buf: &Buffer, r: Rect) -> Vec<String> {
    (r.y..r.bottom())
        .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn text(spans: &[Span]) -> String {
    spans.iter().map(|s| s.content.as_ref()).collect()
}

/// Is this span one of the row's marks?
fn is_mark(panel: Panel, s: &Span) -> bool {
    let c = s.content.trim();
    if c.is_empty() || s.width() < 2 {
        // A folded list's strip is one glyph a step, by design.
        return false;
    }
    s.style.fg == Some(Color::Magenta)
        || c.starts_with("uncommitted")
        || c.starts_with("in txn ")
        || (panel == Panel::Service && STEP_WORDS.contains(&c))
}

/// A mark reduced to its sign: no word, no figure left.
fn is_short(s: &Span) -> bool {
    !s.content.chars().any(char::is_alphanumeric)
}

/// The narrowest whole form of a mark drawn as its sign alone (` *` is
/// `  * changed` whole), or None for a mark drawn whole.
fn whole_width(panel: Panel, s: &Span) -> Option<usize> {
    if !is_short(s) || s.style.fg != Some(Color::Magenta) {
        return None;
    }
    let words = match s.content.trim() {
        "+" => "new",
        "◀" => "this step",
        // A payments row's `*` is its commit: `* committed`.
        "*" if panel == Panel::Database => "committed",
        // And its `-` a rollback: `- rolled back`.
        "-" if panel == Panel::Database => "rolled back",
        // `* changed`, `- removed`: the shorter of each sign's words.
        _ => "changed",
    };
    Some(s.width() + 2 + words.chars().count())
}

/// The cells of a row that are facts never cut for a mark, where the view
/// does not say (`evidence`): a payment's order and amount (`$4…` reads as
/// another sum); a provider row to its end, the key its charge carried
/// (the provider's marks give way first).
fn essential(panel: Panel, before: &str) -> usize {
    match panel {
        Panel::Provider => before.chars().count(),
        // A repeat's `✕ again` is its evidence with the rest of the row.
        Panel::Database if before.contains(" again") => before.trim_end().chars().count(),
        // A record's line after its first (its deadline and result), or
        // one drawn in its heading's place (`record m-7f3`): its fields are
        // the evidence, whole (`extra_tables_whole`); the mark gives way.
        Panel::Database if before.starts_with("    ") || before.starts_with("record ") => {
            before.trim_end().chars().count()
        }
        // A payments row's order, amount and message ID: the ID is what
        // shows two rows are one message (`1042 $40 m-7f3 ✕ again`).
        Panel::Database => before
            .find(" $")
            .map(|i| {
                let after_amount = before[i + 2..]
                    .find(' ')
                    .map_or(before.len(), |j| i + 2 + j);
                let id = before[after_amount..].trim_start();
                let end = if id.is_empty() {
                    after_amount
                } else {
                    let start = before.len() - id.len();
                    id.find(' ').map_or(before.len(), |j| start + j)
                };
                before[..end].chars().count()
            })
            .unwrap_or(0),
        _ => 0,
    }
}

/// What is wrong with one row's marks as the view fitted them, if anything.
/// `evidence` is the row's essential part where its view says which it is
/// (a queue entry's ID, state and any body shown): never cut while a mark
/// shows its word, and kept whole before a mark folds to its sign.
fn judge(panel: Panel, line: &Line, width: usize, evidence: Option<&str>) -> Option<String> {
    let first = line.spans.iter().position(|s| is_mark(panel, s))?;
    let before = text(&line.spans[..first]);
    let lead = if panel == Panel::Service && before.starts_with(' ') {
        GLYPH
    } else {
        0
    };
    let whole = text(&line.spans);
    let cut = before.trim_end().ends_with('…');
    // The row keeps a start a reader can tell it by.
    if cut {
        let kept: String = before.chars().skip(lead).collect();
        let kept = kept.trim_end().trim_end_matches('…').trim();
        if kept.chars().count() < 3 {
            return Some(format!("{whole:?}: the row's own text is cut away"));
        }
    }
    // A mark shortened while its row could still give way to its whole
    // form: the row kept more than its start (`MIN_TEXT` cells after its
    // glyph, or all of it when shorter) beside the whole mark.
    // An uncommitted payment keeps its message ID too: which message an
    // open transaction paid for is the evidence (`in txn A`, the short
    // form, says it is uncommitted and by whom).
    let open = panel == Panel::Database
        && before.starts_with(' ')
        && before.contains(" $")
        && line.spans[first..].iter().any(|s| {
            let c = s.content.trim();
            c.starts_with("uncommitted") || c.starts_with("in txn ")
        });
    // The step a pointer is on keeps its name whole before the pointer
    // folds (`step_labels` holds it to that): the name as drawn.
    let pointed = panel == Panel::Service
        && line.spans[first..].iter().any(|s| {
            let c = s.content.trim();
            c.starts_with('◀') || c.starts_with("next") || c == "again"
        });
    let essential = match evidence {
        Some(e) => e.chars().count(),
        None if open || pointed => before.trim_end().chars().count(),
        None => essential(panel, &before),
    };
    if let Some(e) = evidence {
        let worded = line.spans[first..]
            .iter()
            .find(|s| is_mark(panel, s) && !is_short(s));
        if let Some(m) = worded.filter(|_| !before.starts_with(e)) {
            return Some(format!(
                "{whole:?}: the mark {:?} keeps its word while the row's evidence \
                 {e:?} is cut",
                m.content
            ));
        }
    }
    let keep = (lead + MIN_TEXT).max(essential);
    let keep = if cut {
        keep
    } else {
        before.chars().count().min(keep)
    };
    let drawn: usize = line.spans[first..].iter().map(Span::width).sum();
    for s in &line.spans[first..] {
        let Some(whole_w) = whole_width(panel, s) else {
            continue;
        };
        if keep + drawn - s.width() + whole_w <= width {
            return Some(format!(
                "{whole:?}: the mark {:?} is cut to its sign while the row \
                 {before:?} could give way",
                s.content
            ));
        }
    }
    None
}

/// The row that shows `line`, whole or with its marks (the row may be cut).
fn on_screen(line: &Line, rows: &[String]) -> bool {
    let whole = text(&line.spans);
    rows.iter().any(|r| r.trim_end() == whole.trim_end())
}

fn marks_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let colour = Theme::new(true, false);
    let mut marked = 0;
    let mut wrong = Vec::new();
    sweep::each_step(size, |step| {
        let buf = step.buf.clone();
        let f = &step.frame;
        for panel in [
            Panel::Broker,
            Panel::Service,
            Panel::Database,
            Panel::Provider,
        ] {
            let inner = step
                .main
                .rect(panel)
                .inner(ratatui::layout::Margin::new(1, 1));
            let shown = rows(&buf, inner);
            let (w, h) = step.inner(panel);
            let evidence = match panel {
                Panel::Broker => view::broker_evidence(&colour, f, w),
                _ => Vec::new(),
            };
            let lines = match panel {
                Panel::Broker => {
                    let frames = &step.app.timeline.frames;
                    let form = view::BrokerForm::of(&colour, frames, f, w, h);
                    view::broker_lines(&colour, f, &form, w, h)
                }
                Panel::Service => view::service_lines(&colour, f, &step.watch, w, h),
                Panel::Database => {
                    view::database_lines(&colour, &step.app.timeline.frames, f, w, h)
                }
                _ => view::provider_lines(step.app, &colour, f, step.buf.area, (w, h)),
            };
            let place = || format!("{}: {panel:?}", step.at());
            // A broker row never ends in a word cut short (`2 deliveries,
            // redeliver…`, an entry's `▶ b-1 (m-7f3) → A l…`): its notes
            // fold to whole words, or wrap, and an entry's state and ID
            // fold to their fewer forms, or its sign alone.
            if panel == Panel::Broker {
                // A cut word's `…` may be followed by a mark's sign
                // (`wai… +`): a word cut short anywhere on the row counts.
                for row in &shown {
                    let chars: Vec<char> = row.chars().collect();
                    let cut = chars
                        .windows(2)
                        .any(|w| w[0].is_alphanumeric() && w[1] == '…');
                    if cut {
                        wrong.push(format!(
                            "{}: {:?} ends in a word cut\n{}",
                            place(),
                            row.trim_end(),
                            shown.join("\n")
                        ));
                    }
                }
            }
            // Rows past the panel's last are hidden and counted
            // (`no_silent_cuts`); the last row carries that count.
            let visible = h.saturating_sub(1);
            for (k, line) in lines.iter().enumerate() {
                if !line.spans.iter().any(|s| is_mark(panel, s)) {
                    continue;
                }
                marked += 1;
                let said = evidence.get(k).cloned().flatten();
                if let Some(e) = judge(panel, line, w, said.as_deref()) {
                    wrong.push(format!("{}: {e}\n{}", place(), shown.join("\n")));
                } else if k < visible && lines.len() <= h && !on_screen(line, &shown) {
                    wrong.push(format!(
                        "{}: {:?} is not on screen as fitted\n{}",
                        place(),
                        text(&line.spans),
                        shown.join("\n")
                    ));
                }
            }
        }
    });
    (marked, wrong)
}

fn every_mark_whole_at(size: (u16, u16)) {
    let (marked, wrong) = marks_at(size);
    assert!(marked > 500, "only {marked} marked rows at {size:?}");
    if std::env::var_os("IDEM_ALL_CUTS").is_some() {
        for w in &wrong {
            eprintln!("{w}\n");
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {marked} marked rows at {}x{} cut a mark or their own name; the first:\n{}",
        wrong.len(),
        size.0,
        size.1,
        wrong.first().cloned().unwrap_or_default()
    );
}

#[test]
fn every_mark_is_whole_at_80x24() {
    every_mark_whole_at(SIZES[0]);
}

#[test]
fn every_mark_is_whole_at_100x30() {
    every_mark_whole_at(SIZES[1]);
}

#[test]
fn every_mark_is_whole_at_120x40() {
    every_mark_whole_at(SIZES[2]);
}

/// The teacher's cases in tour-1 under naive: the step where the lease
/// ran out (the entry `waiting` again) and the end (`removed`). The
/// entry's state is the evidence: at every size it is on the row whole,
/// and the mark beside it is there, if only as its sign.
#[test]
fn the_broker_entry_keeps_its_state_and_its_mark_in_tour_1() {
    for (w, h) in SIZES {
        let mut app = common::app("tour-1", "naive");
        let last = app.timeline.frames.len() - 1;
        for (pos, state) in [(9, "waiting"), (last, "removed")] {
            app.pos = pos;
            let text = common::draw(&mut app, w, h);
            let row = text
                .lines()
                .find(|l| l.contains("m-7f3"))
                .unwrap_or_else(|| panic!("{w}x{h}: no broker entry\n{text}"));
            let entry = row.split('│').nth(1).unwrap_or_default();
            assert!(
                entry.contains(&format!(" {state} *")) || entry.contains(&format!(" {state}  *")),
                "{w}x{h} step {pos}: {entry:?}\n{text}"
            );
        }
    }
}
