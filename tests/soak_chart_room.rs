//! A design's column uses the rows its figures leave: a smaller chart
//! where the full one has no room, rather than blank rows under a border
//! saying "charts: a taller terminal shows them"; and a chart's title is
//! one that fits, never cut mid-thought. Teacher trial at 100x30: two
//! blank rows in each column under that border, and "payments settled per
//! virtual minute, the whole…".

use crate::common::Screen;
use idem::tui::soak::{Dashboard, settings};
use idem::tui::theme::Theme;

#[test]
fn columns_use_their_rows_and_chart_titles_fit() {
    let (config, state) = crate::common::trial_soak::trial_soak();
    let mut blank = Vec::new();
    let mut cut = Vec::new();
    let mut columns = 0;
    for ascii in [false, true] {
        let dash = Dashboard::new(settings(config), state.clone(), Theme::new(false, ascii));
        for (w, h) in [(80u16, 24u16), (100, 30), (120, 40)] {
            let mut screen = Screen::new(w, h);
            screen.show(&dash);
            let lines: Vec<Vec<char>> =
                screen.text().lines().map(|l| l.chars().collect()).collect();
            for (y, line) in lines.iter().enumerate() {
                let text: String = line.iter().collect();
                // A chart title cut short.
                for title in ["settled per", "charged beyond"] {
                    if let Some(i) = text.find(title) {
                        let rest = &text[i..];
                        let end = rest
                            .find('│')
                            .or_else(|| rest.find('|'))
                            .unwrap_or(rest.len());
                        let shown = rest[..end].trim_end();
                        if shown.ends_with('…') || shown.ends_with("...") {
                            cut.push(format!("{w}x{h}: {shown}"));
                        }
                    }
                }
                // A border that says a chart had no room: the blank rows
                // right above it in that column.
                let corner = |c: char| matches!(c, '└' | '┘' | '+');
                for (at, _) in text.match_indices("chart") {
                    let note = text[..at].chars().count();
                    let Some(left) = (0..note).rev().find(|&x| corner(line[x])) else {
                        continue;
                    };
                    let Some(right) = (note..line.len()).find(|&x| corner(line[x])) else {
                        continue;
                    };
                    columns += 1;
                    let empty = (1..=y)
                        .map(|up| &lines[y - up])
                        .take_while(|l| l[left + 1..right].iter().all(|c| *c == ' '))
                        .count();
                    if empty > 0 {
                        blank.push(format!("{w}x{h}: {empty} blank rows above {text}"));
                    }
                }
            }
        }
    }
    assert!(
        blank.is_empty() && cut.is_empty(),
        "{} of {columns} columns keep blank rows under 'no room':\n{}\n{} chart titles cut:\n{}",
        blank.len(),
        blank.join("\n"),
        cut.len(),
        cut.join("\n")
    );
}
