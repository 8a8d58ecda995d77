//! At a predict reveal the SQL and events panels cover the whole action
//! the answer judges, not only its last step: an action such as "run A to
//! commit" takes several steps, and the statement or event that is the
//! answer (the second INSERT, the charge) may come before the last. Each
//! panel says which steps it covers, shows whole items of the span, the
//! newest kept, and counts the rest once (a teacher trial saw a count, one
//! cut event, and a second count).

use crate::common::{self, draw};
use crate::tui_predict::answer;
use idem::scenario::load::builtins;
use idem::tui::predict::Stage;
use idem::tui::{Action, App, update};

/// The sizes whose reveal has room for the SQL and events panels.
const SIZES: [(u16, u16); 2] = [(100, 30), (120, 40)];

/// The rows inside the panel whose title row holds `title` (its first
/// match), from under the title to the bottom border; `None` where no
/// such panel is on screen.
fn panel_rows(screen: &str, title: &str) -> Option<Vec<String>> {
    let lines: Vec<Vec<char>> = screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect())
        .collect();
    let (at, col) = lines.iter().enumerate().find_map(|(y, row)| {
        let text: String = row.iter().collect();
        let byte = text.find(title)?;
        // The `┌` (or a border corner) before the title's ` ` and text.
        let col = text[..byte].chars().count().checked_sub(2)?;
        Some((y, col))
    })?;
    let width = lines[at][col + 1..]
        .iter()
        .position(|c| *c == '┐')
        .unwrap_or(0);
    Some(
        lines[at + 1..]
            .iter()
            .take_while(|row| row.get(col).is_some_and(|c| *c != '└'))
            .map(|row| row.iter().skip(col + 1).take(width).collect())
            .collect(),
    )
}

/// The count a panel gives of the items it does not show (`↑ 3 more
/// events above`, on its top row or beside the newest), else 0.
fn above(rows: &[String]) -> usize {
    // Every number in the sign, up to the item it may lead: `↑ 3 events
    // told in the story, 1 more above` counts four.
    rows.iter()
        .find_map(|r| {
            let rest = r.split_once('↑')?.1;
            let sign = rest.split(" · ").next()?;
            let n: usize = sign
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse::<usize>().ok())
                .sum();
            Some(n)
        })
        .unwrap_or(0)
}

/// A row ending in the sign that rows below it are cut (`… ↓ 2 more`).
fn cut(rows: &[String]) -> bool {
    rows.iter().any(|r| {
        let r = r.trim_end();
        r.ends_with(" more") && !r.contains('↑')
    })
}

/// Every reveal of every built-in run that asks, answered rightly.
fn each_reveal(mut visit: impl FnMut(&mut App, (usize, usize))) -> usize {
    let mut seen = 0;
    for script in builtins() {
        for design in script.strategies() {
            let mut a = common::app(&script.name, &design);
            update(&mut a, Action::Predict);
            if a.predict.as_ref().is_none_or(|p| p.asked.is_empty()) {
                continue;
            }
            for _ in 0..600 {
                let p = a.predict.as_ref().unwrap();
                match p.stage.clone() {
                    Stage::Asking { at, .. } => {
                        let right = p.asked[at].answer;
                        answer(&mut a, right);
                    }
                    Stage::Revealed { from, .. } => {
                        let q = &p.asked[from];
                        let span = (q.ask_at + 1, q.answer_at);
                        visit(&mut a, span);
                        seen += 1;
                        update(&mut a, Action::Next);
                    }
                    Stage::Watching if a.pos >= a.last_pos() => break,
                    Stage::Watching => update(&mut a, Action::Next),
                }
            }
        }
    }
    seen
}

#[test]
fn every_statement_and_event_of_the_span_is_shown_or_counted() {
    let mut wrong = Vec::new();
    let seen = each_reveal(|a, (first, last)| {
        let frames = a.timeline.frames.clone();
        let span = &frames[first..=last];
        let statements: usize = span.iter().map(|f| f.sql.len()).sum();
        let events: usize = span.iter().map(|f| f.events.len()).sum();
        let several = last > first;
        for (w, h) in SIZES {
            let screen = draw(a, w, h);
            let at = format!(
                "{} {} {w}x{h} steps {first}-{last}",
                a.script.name, a.strategy.name
            );
            let (sql_title, events_title) = if several {
                (
                    format!("SQL in steps {first}-{last}"),
                    format!("Events in steps {first}-{last}"),
                )
            } else {
                (
                    format!("SQL in step {last}"),
                    format!("Events in step {last}"),
                )
            };
            // The short form, where the panel is too narrow for the long.
            let short = |word: &str| {
                if several {
                    format!("{word}, {first}-{last}")
                } else {
                    format!("{word}, step {last}")
                }
            };
            let sql =
                panel_rows(&screen, &sql_title).or_else(|| panel_rows(&screen, &short("SQL")));
            let ev = panel_rows(&screen, &events_title)
                .or_else(|| panel_rows(&screen, &short("Events")));
            // An answer too long for the story's place covers the row
            // under it whole (`view::predict`): nothing there to check.
            if !screen.contains("┌ SQL") && !screen.contains("┌ Events") {
                continue;
            }
            let (Some(sql), Some(ev)) = (sql, ev) else {
                wrong.push(format!(
                    "{at}: no panels titled {sql_title:?} and {events_title:?}\n{screen}"
                ));
                continue;
            };
            // A statement starts with its speaker (`A> `); an event with
            // its mark.
            let consumers: Vec<String> = span
                .iter()
                .flat_map(|f| f.sql.iter().map(|r| format!("{}> ", r.consumer)))
                .collect();
            // A statement is seen by its start (`A> INSERT …`), which
            // may follow the count on a one-row panel (`↑ 1 more
            // statement · A> …`). Its answer is never shown without it: a
            // result alone (`→ 1 row inserted`) says nothing of which
            // statement gave it (a teacher trial saw one under a count of
            // 1 while two statements were hidden).
            let is_start = |r: &String| {
                let r = r.rsplit_once(" · ").map_or(r.as_str(), |(_, rest)| rest);
                consumers.iter().any(|c| r.starts_with(c.as_str()))
            };
            let sql_shown = sql.iter().filter(|r| is_start(r)).count();
            let first_start = sql.iter().position(is_start);
            let first_answer = sql.iter().position(|r| r.contains("→ "));
            if first_answer.is_some_and(|a| first_start.is_none_or(|s| s > a)) {
                wrong.push(format!("{at}: a result without its statement\n{screen}"));
            }
            // With no SQL in the span, the panel says so of the span (in
            // the narrow panel of a span with no SQL, on two rows).
            let sql_words = sql
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if statements == 0 && several && !sql_words.contains("these steps") {
                wrong.push(format!("{at}: no SQL, not said of the steps\n{screen}"));
            }
            let ev_shown = ev
                .iter()
                .filter(|r| {
                    // A count that leads an event (`↑ 2 more events · ✓ …`,
                    // or `↑ 2 more events · observer …` for an event whose
                    // own mark is the dot) shows that event.
                    let led = r.starts_with("↑ ") && !r.contains("above");
                    led || ["✓ ", "✕ ", "· ", "! "].iter().any(|g| r.starts_with(g))
                })
                .count();
            // Counted true: every statement is shown or counted, once.
            if statements > 0 && sql_shown + above(&sql) != statements {
                wrong.push(format!(
                    "{at}: {sql_shown} statements shown, {} counted, of {statements}\n{screen}",
                    above(&sql)
                ));
            }
            if ev_shown + above(&ev) < events {
                wrong.push(format!(
                    "{at}: {ev_shown} events shown, {} counted, of {events}\n{screen}",
                    above(&ev)
                ));
            }
            // One count: an item cut at the bottom as well as a count on
            // top spends the rows on signs; whole items are kept instead.
            if above(&ev) > 0 && cut(&ev) {
                wrong.push(format!("{at}: the events are counted twice\n{screen}"));
            }
            // A count leading an event whose mark is the dot does not
            // double it (`events · · observer`).
            if ev.iter().any(|r| r.contains("· ·")) {
                wrong.push(format!("{at}: a doubled dot\n{screen}"));
            }
            if above(&sql) > 0 && cut(&sql) {
                wrong.push(format!("{at}: the statements are counted twice\n{screen}"));
            }
        }
    });
    assert!(seen > 10, "only {seen} reveals");
    assert!(
        wrong.is_empty(),
        "{} wrong: {:?}; the first:\n{}",
        wrong.len(),
        wrong
            .iter()
            .map(|w| w.lines().next().unwrap_or(""))
            .collect::<Vec<_>>(),
        wrong.first().cloned().unwrap_or_default()
    );
}

/// A count that leads an event whose own mark is the dot never doubles
/// it, at any size: at 80x24 the reveal's one-row events panel read `↑ 3
/// more events · · consum…` (teacher trial 11).
#[test]
fn no_count_doubles_an_events_dot_at_any_size() {
    let mut wrong = Vec::new();
    each_reveal(|a, (first, last)| {
        for (w, h) in crate::common::sweep::SIZES {
            let screen = draw(a, w, h);
            if screen.contains("· ·") {
                wrong.push(format!(
                    "{} {} {w}x{h} steps {first}-{last}\n{screen}",
                    a.script.name, a.strategy.name
                ));
            }
        }
    });
    assert!(
        wrong.is_empty(),
        "{} doubled; the first:\n{}",
        wrong.len(),
        wrong.first().cloned().unwrap_or_default()
    );
}
