//! The explorer: opening it (which asks for the check), the check's
//! answer, its keys, and replaying a counterexample.

use super::open;
use crate::sim::Strategy;
use crate::tui::action::Action;
use crate::tui::app::{App, Effect, Overlay, opening_design};
use crate::tui::explorer::{self, Exploration, Explored, Selection};
use crate::tui::layout;
use std::sync::Arc;

pub(super) fn open_explorer(app: &mut App) {
    app.playing = false;
    app.transition = None;
    let row = app
        .exploration
        .report()
        .and_then(|r| {
            r.strategies
                .iter()
                .position(|s| s.strategy == app.strategy.name)
        })
        .unwrap_or(0);
    app.overlay = Overlay::Explorer(Selection {
        row,
        ..Selection::default()
    });
    if matches!(app.exploration, Exploration::Idle | Exploration::Failed(_)) {
        app.exploration = Exploration::Running {
            ms: 0,
            watch: Arc::new(crate::check::Watch::default()),
        };
        app.pending = Some(Effect::Explore);
    }
}

pub(super) fn explored(app: &mut App, result: Explored) {
    let result = Arc::try_unwrap(result.0).unwrap_or_else(|shared| (*shared).clone());
    match result {
        Ok(report) => {
            if let Overlay::Explorer(sel) = &mut app.overlay {
                let here = report
                    .strategies
                    .iter()
                    .position(|s| s.strategy == app.strategy.name);
                *sel = Selection {
                    row: here.unwrap_or(0),
                    cx: 0,
                    whole: sel.whole,
                    scroll: 0,
                };
            }
            app.exploration = Exploration::Done(Arc::new(report));
        }
        Err(e) => {
            app.status = Some(format!("the check stopped: {e}"));
            app.exploration = Exploration::Failed(e);
        }
    }
}

pub(super) fn explorer_key(app: &mut App, action: Action, sel: Selection) {
    let (designs, cxs) = match app.exploration.report() {
        Some(r) => (
            r.strategies.len(),
            r.strategies
                .get(sel.row)
                .map_or(0, |s| explorer::runs(s).len()),
        ),
        None => (0, 0),
    };
    let select = |app: &mut App, row: usize, cx: usize| {
        // The detail keeps the screen from design to design.
        app.overlay = Overlay::Explorer(Selection {
            row: row.min(designs.saturating_sub(1)),
            cx,
            whole: sel.whole,
            scroll: 0,
        });
    };
    match action {
        Action::Up | Action::ScrollUp => select(app, sel.row.saturating_sub(1), 0),
        Action::Down | Action::ScrollDown => select(app, sel.row + 1, 0),
        Action::Next | Action::FocusNext if cxs > 0 => select(app, sel.row, (sel.cx + 1) % cxs),
        Action::Prev | Action::FocusPrev if cxs > 0 => {
            select(app, sel.row, (sel.cx + cxs - 1) % cxs)
        }
        Action::First => select(app, 0, 0),
        Action::Last => select(app, designs.saturating_sub(1), 0),
        Action::Enter => open_counterexample(app, sel),
        Action::Digit(d) if d >= 1 => open_counterexample(
            app,
            Selection {
                cx: usize::from(d) - 1,
                ..sel
            },
        ),
        Action::Zoom => {
            app.overlay = Overlay::Explorer(Selection {
                whole: !sel.whole,
                scroll: 0,
                ..sel
            })
        }
        // PgDn and PgUp (chapters on the main screen) page the whole
        // detail: the arrows keep choosing the design and its run.
        // A page is the pane less its two notes (the rows above, the rows
        // below); the view stops at the last row, and the fold note is
        // gone there.
        Action::NextChapter | Action::PrevChapter if sel.whole => {
            let legend_h = explorer::table::legend_rows(
                &app.theme,
                app.exploration.report(),
                app.viewport.width,
            );
            let l = layout::explorer(app.viewport, designs, sel.row, cxs, sel.cx, legend_h)
                .whole(true, cxs, sel.cx);
            let l = explorer::summary::below(&app.theme, app.exploration.report(), sel, l);
            // The pane less its rule, its notes above and below.
            let page = usize::from(l.detail.height.saturating_sub(3)).max(1);
            // Stored no further than the last page (the view stops there),
            // so PgUp after any number of PgDn at the end moves at once.
            let last = super::explorer_page::last(app, sel, &l);
            let at = sel.scroll.min(last);
            let to = if matches!(action, Action::NextChapter) {
                (at + page).min(last)
            } else {
                at.saturating_sub(page)
            };
            app.overlay = Overlay::Explorer(Selection { scroll: to, ..sel });
        }
        Action::Back | Action::Explore => app.overlay = Overlay::None,
        // The bar may count keys it has no room for (`? +2`): `?` names
        // every one.
        Action::Help => {
            app.status = Some(crate::tui::key_list::keys_note(
                crate::tui::key_list::EXPLORER_KEYS,
            ))
        }
        Action::Click { x, y } => {
            let legend_h = explorer::table::legend_rows(
                &app.theme,
                app.exploration.report(),
                app.viewport.width,
            );
            let l = layout::explorer(app.viewport, designs, sel.row, cxs, sel.cx, legend_h)
                .whole(sel.whole, cxs, sel.cx);
            let l = explorer::summary::below(&app.theme, app.exploration.report(), sel, l);
            if let Some(row) = l.row_at(x, y).filter(|&r| r < designs) {
                select(app, row, 0);
            } else if let Some(cx) = l
                .counterexample_at(x, y)
                // Scrolled, the run list is off the top of the detail.
                .filter(|&c| c < cxs && sel.scroll == 0)
            {
                if cx == sel.cx {
                    open_counterexample(app, sel);
                } else {
                    select(app, sel.row, cx);
                }
            }
        }
        _ => {}
    }
}

/// Opens a counterexample in the player, at the first step where it goes
/// wrong (or its end, for a failure no single frame shows).
pub(super) fn open_counterexample(app: &mut App, sel: Selection) {
    let Some(report) = app.exploration.report() else {
        return;
    };
    let Some(run) = explorer::selected(report, sel) else {
        if report.strategies.get(sel.row).is_some() && sel.cx == 0 {
            app.status = Some("no schedule breaks this design within the bounds".into());
        }
        return;
    };
    let cx = run.cx;
    // The counterexample's own design: the one it breaks.
    let Some(strategy) = opening_design(&cx.script).or_else(|| Strategy::by_name(&cx.strategy))
    else {
        app.status = Some(format!("no design named {} any more", cx.strategy));
        return;
    };
    // A run from a try one bound further says so: the design held within
    // the bounds asked for. The checker searches on SQLite: a replay
    // opened from a server's run says it left the server.
    let note = crate::tui::replay_note::forms(&crate::tui::replay_note::Replayed {
        outcome: cx.class,
        design: &cx.strategy,
        moves: cx.moves.len(),
        further: run.further.map(|f| f.bound()),
        from_server: app.server.is_some(),
    });
    let cx = cx.clone();
    replay(app, &cx, strategy, note);
    if app.script.name == cx.script.name {
        app.from_explorer = Some((cx.script.name.clone(), Selection { scroll: 0, ..sel }));
    }
}

/// Esc in a replay opened from the explorer: back to its table, the same
/// design and run selected. False where the screen is no such replay.
pub(super) fn back_to_explorer(app: &mut App) -> bool {
    match app.explorer_to_return_to() {
        Some(sel) if app.exploration.report().is_some() => {
            app.playing = false;
            app.transition = None;
            app.overlay = Overlay::Explorer(sel);
            true
        }
        _ => false,
    }
}

/// Puts a counterexample on the main screen under `strategy` (the design
/// it breaks), at the first step where it goes wrong (or its end, for a
/// failure no single frame shows), with `note` on the status line: its
/// forms, longest first (`App::status_forms`).
pub(super) fn replay(
    app: &mut App,
    cx: &crate::check::Counterexample,
    strategy: Strategy,
    note: Vec<String>,
) {
    let script = cx.script.clone();
    app.compare = None;
    // A replay from elsewhere (the level screen) has its own way back.
    app.from_explorer = None;
    if !open(app, script.clone(), strategy) {
        return;
    }
    if !app.found_by_check.contains(&script.name) {
        app.found_by_check.push(script.name.clone());
    }
    if !app.scripts.iter().any(|s| s.name == script.name) {
        app.scripts.push(script);
        app.scripts.sort_by_key(|s| (s.group, s.order));
    }
    app.pos = app
        .timeline
        .first_violation()
        .unwrap_or(app.timeline.frames.len() - 1);
    app.status = note.first().cloned();
    app.status_forms = note;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::tests::app;
    use crate::tui::update::update;

    /// The legend's rows the screen draws: the layout the clicks hit.
    fn legend_h(a: &App) -> u16 {
        explorer::table::legend_rows(&a.theme, a.exploration.report(), a.viewport.width)
    }

    /// The checker on id-first alone, one fault per schedule: quick in
    /// debug, and two runs to list (its shortest to "charge lost" and to
    /// "provider and database disagree" are not the same schedule, where
    /// naive's are, and are listed once).
    fn two_runs_report() -> crate::check::CheckReport {
        crate::check::run(&crate::check::Bounds {
            max_faults: 1,
            strategy: Some("id-first".into()),
            ..crate::check::Bounds::default()
        })
        .expect("the check runs")
    }

    #[test]
    fn enter_on_a_counterexample_opens_it_at_its_first_bad_step() {
        let mut a = app("tour-2", "idempotent");
        update(&mut a, Action::Explore);
        assert!(matches!(a.overlay, Overlay::Explorer(_)));
        assert_eq!(a.pending.take(), Some(Effect::Explore));
        assert!(a.busy(), "the loop keeps ticking while the check runs");
        let report = two_runs_report();
        let cx = report.strategies[0].counterexamples[1].clone();
        update(&mut a, Action::ExploreDone(Explored::new(Ok(report))));
        assert!(!a.busy());
        update(&mut a, Action::Next);
        assert_eq!(
            a.overlay,
            Overlay::Explorer(Selection {
                row: 0,
                cx: 1,
                ..Selection::default()
            })
        );
        update(&mut a, Action::Enter);
        assert_eq!(a.overlay, Overlay::None);
        assert_eq!(a.script.name, cx.script.name);
        assert_eq!(a.strategy.name, "id-first");
        assert_eq!(a.timeline.strategy, "id-first");
        assert_eq!(Some(a.pos), a.timeline.first_violation());
        assert!(a.frame().verdict.outcome.is_failure());
        assert!(a.is_counterexample());
        // Its clock runs, and a lease bar empties as it does.
        assert!(a.timeline.last().time_ms > 0, "time moves in a replay");
        assert!(a.timeline.frames.iter().any(|f| {
            f.queue
                .messages
                .iter()
                .any(|m| m.lease_left_ms.is_some_and(|left| left < f.queue.lease_ms))
        }));
        assert!(a.scripts.iter().any(|s| s.name == cx.script.name));
        // Back in the explorer the report is still there: no second check.
        update(&mut a, Action::Explore);
        assert_eq!(a.pending, None);
        update(&mut a, Action::Back);
        assert_eq!(a.overlay, Overlay::None);
        assert!(!a.quit);
    }

    /// From a run on a server, the replay (on SQLite, where the checker
    /// searched) says it left the server.
    /// tour-2 opened on a server, a run from the explorer replayed.
    fn replayed_from_a_server() -> App {
        let mut a = app("tour-2", "idempotent");
        a.script.setup.postgres = Some("postgres://root@127.0.0.1:5432/test".parse().unwrap());
        a.server = a.script.setup.postgres.clone();
        update(&mut a, Action::Explore);
        update(
            &mut a,
            Action::ExploreDone(Explored::new(Ok(two_runs_report()))),
        );
        update(&mut a, Action::Enter);
        a
    }

    #[test]
    fn a_replay_opened_from_a_server_run_says_it_runs_on_sqlite() {
        let a = replayed_from_a_server();
        assert_eq!(a.overlay, Overlay::None);
        assert!(a.script.setup.postgres.is_none());
        let status = a.status.clone().unwrap_or_default();
        assert!(status.contains("on SQLite"), "{status}");
    }

    /// After a replay on SQLite, the session is still the server's: the
    /// next scenario opened goes back to it (it was dropped for good).
    #[test]
    fn a_scenario_opened_after_a_replay_runs_on_the_sessions_server() {
        let a = replayed_from_a_server();
        assert!(a.script.setup.postgres.is_none(), "the replay is SQLite's");
        let next = super::super::on_this_engine(&a, a.scripts[0].clone());
        assert_eq!(next.setup.postgres, a.server);
    }

    #[test]
    fn a_long_counterexample_list_scrolls_to_the_selection() {
        let mut a = app("tour-1", "naive");
        update(
            &mut a,
            Action::Resize {
                width: 80,
                height: 24,
            },
        );
        update(&mut a, Action::Explore);
        // More counterexamples than any panel has rows for.
        let mut report = two_runs_report();
        // Copies that are other schedules (one move fewer each): the same
        // schedule twice is listed once.
        let some = report.strategies[0].counterexamples.clone();
        for k in 1..=8 {
            report.strategies[0]
                .counterexamples
                .extend(some.iter().cloned().map(|mut cx| {
                    cx.moves.truncate(cx.moves.len() - k);
                    cx
                }));
        }
        update(&mut a, Action::ExploreDone(Explored::new(Ok(report))));
        let n = a.exploration.report().unwrap().strategies[0]
            .counterexamples
            .len();
        let l = layout::explorer(a.viewport, 1, 0, n, 0, legend_h(&a));
        let visible = usize::from(l.list.height);
        assert!(n > visible, "{n} counterexamples, {visible} rows");
        for _ in 1..n {
            update(&mut a, Action::Next);
        }
        let Overlay::Explorer(sel) = a.overlay.clone() else {
            panic!("still in the explorer");
        };
        assert_eq!(sel.cx, n - 1, "the last one, by stepping");
        let l = layout::explorer(a.viewport, 1, 0, n, sel.cx, legend_h(&a));
        assert_eq!(l.cx_offset + visible, n, "scrolled to keep it in view");
        // A click on the last visible row picks the last one.
        let last_row = l.list.bottom() - 1;
        assert_eq!(l.counterexample_at(3, last_row), Some(n - 1));
    }

    /// Update never depends on the view: a click finds the rows the screen
    /// drew from the table's own answer (`explorer::table`), as the view
    /// does, never from the view's code.
    #[test]
    fn the_explorers_keys_and_clicks_never_call_the_view() {
        let source = include_str!("explorer.rs");
        let view = concat!("tui::", "view");
        assert!(!source.contains(view), "update/explorer.rs calls the view");
    }

    #[test]
    fn clicks_in_the_explorer_select_then_open() {
        let mut a = app("tour-1", "naive");
        update(
            &mut a,
            Action::Resize {
                width: 120,
                height: 40,
            },
        );
        update(&mut a, Action::Explore);
        update(
            &mut a,
            Action::ExploreDone(Explored::new(Ok(two_runs_report()))),
        );
        let n = a.exploration.report().unwrap().strategies[0]
            .counterexamples
            .len();
        let l = layout::explorer(a.viewport, 1, 0, n, 0, legend_h(&a));
        update(
            &mut a,
            Action::Click {
                x: 3,
                y: l.list.y + 1,
            },
        );
        assert_eq!(
            a.overlay,
            Overlay::Explorer(Selection {
                row: 0,
                cx: 1,
                ..Selection::default()
            })
        );
        update(&mut a, Action::Click { x: 3, y: l.rows.y });
        assert_eq!(
            a.overlay,
            Overlay::Explorer(Selection {
                row: 0,
                cx: 0,
                ..Selection::default()
            })
        );
        update(&mut a, Action::Click { x: 3, y: l.list.y });
        assert_eq!(a.overlay, Overlay::None, "a second click opens it");
        assert!(a.frame().verdict.outcome.is_failure());
    }
}
