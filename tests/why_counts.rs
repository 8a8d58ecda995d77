//! `w` shows every link the verdict panel counted as left out: a learner's
//! design's verdict names the command that tries every schedule on a row
//! of its own under `w`, and the panel `w` opens is sized with that row.
//! Teacher trial: tour-1 under examples/designs/ack-first-handler.toml at
//! 100x30 said `← why: 1 more · w`, and `w` showed the command cut,
//! `… ↓ 2 more`: the link it counted was not there.

use crate::common;
use idem::scenario::{design_file, load};
use idem::tui::{Action, App, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn app(file: &str) -> App {
    let path = format!("{}/examples/designs/{file}", env!("CARGO_MANIFEST_DIR"));
    let strategy = design_file::load(std::path::Path::new(&path)).expect("the example loads");
    let script = load::find("tour-1").expect("built in");
    let mut a = App::new(script, strategy, 0, common::plain()).expect("it runs");
    a.design_file = Some(path);
    a
}

/// The verdict panel's rows, below its title, down to the key bar.
fn verdict_rows(screen: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .rposition(|r| r.contains("Verdict"))
        .expect("a verdict panel");
    rows[at + 1..rows.len() - 1]
        .iter()
        .map(|r| r.trim_matches('"').to_string())
        .collect()
}

#[test]
fn w_shows_every_link_the_panel_counted() {
    let mut wrong = Vec::new();
    let mut counted = 0;
    for file in ["my-handler.toml", "ack-first-handler.toml"] {
        for (w, h) in SIZES {
            let mut a = app(file);
            for pos in 0..=a.last_pos() {
                a.pos = pos;
                a.zoom = false;
                let panel = verdict_rows(&common::draw(&mut a, w, h)).join("\n");
                if !panel.contains("more · w") {
                    continue;
                }
                counted += 1;
                update(&mut a, Action::Why);
                let why = verdict_rows(&common::draw(&mut a, w, h));
                update(&mut a, Action::Why);
                // Under `w` nothing of the verdict is folded away where
                // the screen has the rows for it.
                // And `w` has at least as many links as the panel counted.
                let n: usize = panel
                    .rsplit("why: ")
                    .next()
                    .and_then(|t| t.split_whitespace().next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let links = why
                    .iter()
                    .filter(|r| {
                        [
                            "  ✓ ",
                            "  ← ",
                            "  and ",
                            "  one run",
                            "  at risk",
                            "  in flight",
                        ]
                        .iter()
                        .any(|m| r.starts_with(m))
                    })
                    .count();
                if n > links || why.iter().any(|r| r.contains("more") && r.contains('↓')) {
                    wrong.push(format!(
                        "{file} {w}x{h} step {pos}: panel\n{panel}\nunder w\n{}",
                        why.join("\n")
                    ));
                }
            }
        }
    }
    assert!(counted > 5, "only {counted} panels counted links");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
