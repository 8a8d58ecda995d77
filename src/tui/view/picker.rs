//! Choose a scenario: grouped as the tour, failure modes and designs
//! compared, each with its one-line summary.

use crate::tui::app::{App, PickerRow};
use crate::tui::layout;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

pub fn render(app: &App, selected: usize, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let rows = app.picker_rows();
    let selected_row = rows
        .iter()
        .position(|r| *r == PickerRow::Script(selected))
        .unwrap_or(0);
    let (popup, list, offset) = layout::picker_list(area, rows.len(), selected_row);
    Clear.render(popup, buf);
    let (above, below) = hidden_scenarios(&rows, offset, usize::from(list.height));
    let mut block = Block::bordered()
        .border_set(t.g.border)
        .border_style(t.border(true))
        .title(Span::styled(" Scenarios ", t.title()));
    // A list cut by the popup's height says how many scenarios each side
    // hides: a teacher looking for offset must know to scroll.
    if above > 0 {
        block = block.title_top(Line::styled(more(t, above, "above"), t.key()).right_aligned());
    }
    if below > 0 {
        block = block.title_bottom(Line::styled(more(t, below, "below"), t.key()).right_aligned());
    }
    block.render(popup, buf);
    let mut number = 0;
    for (i, row) in rows.iter().enumerate() {
        if let PickerRow::Script(_) = row {
            number += 1;
        }
        if i < offset || i - offset >= list.height as usize {
            continue;
        }
        let y = list.y + (i - offset) as u16;
        let line_area = Rect::new(list.x, y, list.width, 1);
        let line = match row {
            PickerRow::Group(g) => {
                let mut spans = vec![Span::styled(g.title().to_string(), t.info())];
                if *g == crate::scenario::Group::Tour {
                    let tour: Vec<&str> = app
                        .scripts
                        .iter()
                        .filter(|s| s.group == *g)
                        .map(|s| s.name.as_str())
                        .collect();
                    let done = tour.iter().filter(|n| app.progress.is_finished(n)).count();
                    spans.push(Span::styled(
                        format!("  {} {done} of {} seen to the end", t.g.dot, tour.len()),
                        t.dim(),
                    ));
                }
                Line::from(spans)
            }
            PickerRow::Script(k) => {
                let s = &app.scripts[*k];
                let here = *k == selected;
                let current = s.name == app.script.name;
                let mut spans = vec![
                    Span::styled(
                        format!(" {} {number:>2}. ", if here { t.g.next } else { " " }),
                        t.key(),
                    ),
                    Span::styled(t.text(shown_title(app, s)).into_owned(), t.title()),
                    Span::styled(format!("  {}", s.name), t.dim()),
                ];
                if app.progress.is_finished(&s.name) {
                    spans.push(Span::styled(format!("  {} seen", t.g.done), t.good()));
                }
                // One best is kept per scenario, whichever design it was
                // made in: the score says which. Where the row is narrow
                // its words go before the design does ("best 3/4 (naive)").
                let score = app.progress.best_score(&s.name).map(|best| {
                    let figures = format!("{}/{} ({})", best.right, best.asked, best.design);
                    [
                        format!("  predict best {figures}"),
                        format!("  best {figures}"),
                        format!("  {figures}"),
                    ]
                });
                let open = if current {
                    ["  (open now)", "  (open)"]
                } else {
                    ["", ""]
                };
                let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
                let forms: Vec<(Option<&String>, &str)> = match &score {
                    Some(words) => words
                        .iter()
                        .flat_map(|w| open.iter().map(move |o| (Some(w), *o)))
                        .collect(),
                    None => open.iter().map(|o| (None, *o)).collect(),
                };
                let width = |(w, o): &(Option<&String>, &str)| {
                    used + w.map_or(0, |w| w.chars().count()) + o.chars().count()
                };
                let (words, open) = forms
                    .iter()
                    .find(|f| width(f) <= usize::from(list.width))
                    .or(forms.last())
                    .copied()
                    .expect("at least one form");
                if let Some(words) = words {
                    spans.push(Span::styled(words.clone(), t.info()));
                }
                if !open.is_empty() {
                    spans.push(Span::styled(open, t.warn()));
                }
                let mut line = Line::from(spans);
                if here {
                    line = line.style(t.highlight());
                }
                line
            }
        };
        line.render(line_area, buf);
    }
    // The selected scenario's summary in full, and what it runs under.
    let foot = Rect::new(list.x, list.bottom() + 1, list.width, 3);
    if let Some(s) = app.scripts.get(selected) {
        let text = format!(
            "{}  (designs: {})",
            t.text(&s.summary),
            s.strategies().join(", ")
        );
        ratatui::widgets::Paragraph::new(text)
            .style(t.info())
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(foot, buf);
    }
}

/// A scenario's title as told for the design it is shown under: the
/// design on screen for the one open now, else the one it opens in (see
/// `update::picker::load`). A title that tells one design's outcome
/// (`title_for`) is never listed for a run of the other.
fn shown_title<'a>(app: &App, s: &'a crate::scenario::Script) -> &'a str {
    if s.name == app.script.name {
        s.title_for(&app.strategy.name)
    } else {
        s.title_for(&s.design())
    }
}

/// How many scenarios (not group titles) the list hides above and below
/// the rows it shows.
fn hidden_scenarios(rows: &[PickerRow], offset: usize, visible: usize) -> (usize, usize) {
    let scripts = |rows: &[PickerRow]| {
        rows.iter()
            .filter(|r| matches!(r, PickerRow::Script(_)))
            .count()
    };
    let shown_end = (offset + visible).min(rows.len());
    (
        scripts(&rows[..offset.min(rows.len())]),
        scripts(&rows[shown_end..]),
    )
}

fn more(t: &crate::tui::theme::Theme, n: usize, side: &str) -> String {
    let arrow = match (t.ascii(), side) {
        (true, _) => "",
        (false, "above") => "↑ ",
        (false, _) => "↓ ",
    };
    format!(" {arrow}{n} more {side} ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_scenarios_on_each_side_of_the_window() {
        use crate::scenario::Group;
        let rows = vec![
            PickerRow::Group(Group::Tour),
            PickerRow::Script(0),
            PickerRow::Script(1),
            PickerRow::Group(Group::Tour),
            PickerRow::Script(2),
            PickerRow::Script(3),
        ];
        assert_eq!(hidden_scenarios(&rows, 0, 6), (0, 0));
        assert_eq!(hidden_scenarios(&rows, 0, 3), (0, 2));
        assert_eq!(hidden_scenarios(&rows, 2, 2), (1, 2));
        assert_eq!(hidden_scenarios(&rows, 4, 10), (2, 0));
    }
}
