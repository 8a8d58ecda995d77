//! Every tour opens on the problem before the fix, in the terminal as in
//! the handout: naive first, unless a scenario's file names its design.
//! `--mode` still chooses.

use idem::export::lesson;
use idem::scenario::{self, Group};
use std::process::Command;

fn first_line(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_tour_opens_naive_in_the_terminal_and_the_handout() {
    let tours: Vec<_> = scenario::load::builtins()
        .into_iter()
        .filter(|s| s.group == Group::Tour)
        .collect();
    assert_eq!(tours.len(), 4);
    for tour in &tours {
        let opening = idem::tui::app::opening_design(tour).unwrap();
        assert_eq!(opening.name, "naive", "{}", tour.name);
        // `idem play` and `idem run` choose by the same rule.
        let head = first_line(&["run", &tour.name]);
        assert!(head.contains("design naive"), "{}: {head}", tour.name);
    }
    // The handout opens on that same design.
    let html = lesson::render(std::slice::from_ref(&tours[1]), (80, 24), "t").unwrap();
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(data[0]["designs"][0]["name"], "naive");
}

#[test]
fn mode_still_chooses_and_a_named_design_is_kept() {
    let head = first_line(&["run", "tour-3", "--mode", "idempotent"]);
    assert!(head.contains("design idempotent"), "{head}");
    // offset.toml is written for the offset design and says so.
    let offset = scenario::find("offset").unwrap();
    assert_eq!(offset.design(), "offset");
    assert!(first_line(&["run", "offset"]).contains("design offset"));
}
