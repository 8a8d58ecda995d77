//! A statement squeezed into the SQL panel at a reveal keeps its head,
//! what it does and to which table (`INSERT INTO processed_messages …`):
//! a statement read from its middle names neither. Before, at 80x24 and
//! 100x30: `B> INSERT INTO … ms */) ON CONFLICT DO NOTHING` (tour-3,
//! cache-work-first and row-version idempotent) and, in a panel one row
//! tall, `↑ 1 more statement · A> INSERT INTO payme…` (tour-1 naive,
//! cache-work-first): the table lost.

use crate::common::reveals::each_reveal;
use idem::tui::app::Panel;

const SIZES: [(u16, u16); 2] = [(80, 24), (100, 30)];

use crate::common::panel_words::words_in;

#[test]
fn reveal_sql_head() {
    let (mut checked, mut headless) = (0, Vec::new());
    each_reveal(&SIZES, |r| {
        let f = r.app.shown_frame();
        let r_sql = r.main.rect(Panel::Sql);
        if r_sql.height < 3 || !r.with.contains("SQL in") {
            return;
        }
        let shown = words_in(r.with, r_sql);
        if std::env::var_os("IDEM_SHOW_SQL").is_some() {
            eprintln!("{} {} {:?}: {shown}", r.scenario, r.design, r.size);
        }
        let consumers: std::collections::BTreeSet<String> =
            f.sql.iter().map(|s| s.consumer.clone()).collect();
        for c in consumers {
            let lead = format!("{c}> ");
            for (at, _) in shown.match_indices(&lead) {
                checked += 1;
                let after = &shown[at + lead.len()..];
                let heads: Vec<String> = f
                    .sql
                    .iter()
                    .filter(|s| s.consumer.clone() == c)
                    .map(|s| {
                        let words: Vec<&str> = s.sql.split_whitespace().collect();
                        words[..words.len().min(3)].join(" ")
                    })
                    .collect();
                if !heads.iter().any(|h| after.starts_with(h.as_str())) {
                    headless.push(format!(
                        "{} {} {}x{} question {}: {:?} keeps no head\n{}",
                        r.scenario,
                        r.design,
                        r.size.0,
                        r.size.1,
                        r.from + 1,
                        after.chars().take(60).collect::<String>(),
                        r.with
                    ));
                }
            }
        }
    });
    assert!(checked >= 40, "only {checked} statements checked");
    assert!(
        headless.is_empty(),
        "{} of {checked} statements lose their head; the first:\n{}",
        headless.len(),
        headless.first().cloned().unwrap_or_default()
    );
}
