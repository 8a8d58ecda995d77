//! The soak dashboard's list of violations as they were found, the chosen
//! one's cause chain under it. Where the list is longer than its rows, its
//! borders count those above and below (as the scenario picker does), and
//! a chain longer than its rows counts the lines left out.

use super::Dashboard;
use crate::check::num;
use crate::sim::format_duration;
use crate::tui::view::overflow;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Borders, List, ListItem, ListState, Paragraph, StatefulWidget, Widget,
};

/// Rows the chosen violation's cause chain takes under the list.
pub(super) const CHAIN_ROWS: u16 = 3;

/// The fewest rows the panel keeps when the figures above need more:
/// its borders, one violation and its chain.
pub(super) const LEAST_ROWS: u16 = 2 + 1 + CHAIN_ROWS;

impl Dashboard {
    pub(super) fn violations(&self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme;
        let listed = self.live.violations.len();
        let total: u64 = self.live.designs.iter().map(|d| d.violations).sum();
        let title = if total as usize > listed {
            format!(
                " Violations as found: {} listed of {} ",
                num(listed as u64),
                num(total)
            )
        } else {
            format!(" Violations as found: {} ", num(listed as u64))
        };
        let mut block = Block::default()
            .borders(Borders::ALL)
            .border_style(t.border(true))
            .title(Span::styled(t.text(&title).into_owned(), t.title()));
        let inner = block.inner(area);
        if listed == 0 {
            block.render(area, buf);
            Paragraph::new(Span::styled(
                t.text("none so far: each payment is judged when it settles")
                    .into_owned(),
                t.good(),
            ))
            .render(inner, buf);
            return;
        }
        let [list, chain] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(CHAIN_ROWS)]).areas(inner);
        // The longest design's name and a space: the mark never touches it.
        let name = 1 + self
            .live
            .designs
            .iter()
            .map(|d| d.design.chars().count())
            .max()
            .unwrap_or(0);
        // Each row names its outcome as its chain does (`charged 3 times`,
        // `charged twice + disagree`), all in one column.
        let heads: Vec<String> = self
            .live
            .violations
            .iter()
            .map(|v| v.verdict.headline_short())
            .collect();
        let head = heads.iter().map(|h| h.chars().count()).max().unwrap_or(0);
        let items: Vec<ListItem> = self
            .live
            .violations
            .iter()
            .zip(&heads)
            .map(|(v, lead)| {
                let story = if v.story.is_some() { "" } else { " (no story)" };
                ListItem::new(self.ascii_line(Line::from(vec![
                    Span::styled(format!("{:<name$}", v.design), t.dim()),
                    Span::styled(format!("✕ {lead:<head$} "), t.bad()),
                    Span::raw(format!(
                        "{} at {}{story}",
                        v.fact,
                        format_duration(v.at_ms / 1000 * 1000)
                    )),
                ])))
            })
            .collect();
        // The window the list shows: the chosen one on its last row once
        // it is past the first screenful, as the list itself scrolls.
        let rows = usize::from(list.height);
        let offset = (self.selected + 1).saturating_sub(rows);
        let mut state = ListState::default()
            .with_selected(Some(self.selected))
            .with_offset(offset);
        let above = offset;
        let below = listed.saturating_sub(offset + rows);
        if above > 0 {
            block =
                block.title_top(Line::styled(more(self, above, "above"), t.key()).right_aligned());
        }
        if below > 0 {
            block = block
                .title_bottom(Line::styled(more(self, below, "below"), t.key()).right_aligned());
        }
        block.render(area, buf);
        StatefulWidget::render(
            List::new(items)
                .highlight_style(t.highlight())
                .highlight_symbol(t.text("▶ ").into_owned()),
            list,
            buf,
            &mut state,
        );
        if let Some(v) = self.live.violations.get(self.selected) {
            // The simulator's arrow, where the terminal has it.
            // Its steps by the soak's count, which its story (counting its
            // own moves) does not share.
            let told = v
                .verdict
                .chain_at(t.arrow(), &crate::soak::tally::soak_step);
            overflow::show_signed(
                t,
                vec![Line::raw(t.text(&told).into_owned())],
                true,
                chain,
                buf,
                overflow::row_signs,
            );
        }
    }
}

/// ` ↑ 3 more above `, ` ↓ 35 more below ` (no arrow in ASCII).
fn more(dash: &Dashboard, n: usize, side: &str) -> String {
    let arrow = match (dash.theme.ascii(), side) {
        (true, _) => "",
        (false, "above") => "↑ ",
        (false, _) => "↓ ",
    };
    format!(" {arrow}{} more {side} ", num(n as u64))
}
