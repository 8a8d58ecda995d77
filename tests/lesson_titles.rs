//! Issue 18 §9: a scenario whose title tells one design's outcome has a
//! title for the other (`title_for`); the handout shows the one for the
//! design on screen, in its heading, its scenario buttons and the line
//! above the first step, as the terminal's header does.

use crate::lesson_design_switch::run_page;
use idem::export::lesson;
use idem::scenario;
use std::process::Command;

const NAIVE: &str = "Redelivery charges again";
const IDEMPOTENT: &str = "Redelivery meets the unique key";

fn data(html: &str) -> serde_json::Value {
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn each_design_carries_its_own_title() {
    let script = scenario::find("tour-3").unwrap();
    assert_eq!(script.title_for("naive"), NAIVE);
    assert_eq!(script.title_for("idempotent"), IDEMPOTENT);
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let lessons = data(&html);
    let designs = lessons[0]["designs"].as_array().unwrap();
    assert_eq!(designs[0]["name"], "naive");
    assert_eq!(designs[0]["title"], NAIVE);
    assert_eq!(designs[0]["heading"], format!("idem · {NAIVE}"));
    assert_eq!(designs[1]["title"], IDEMPOTENT);
    assert_eq!(designs[1]["heading"], format!("idem · {IDEMPOTENT}"));
    assert!(
        lessons[0].get("title").is_none(),
        "no title that fits one design only"
    );
}

#[test]
fn the_written_page_opens_headed_with_its_first_designs_title() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tour-3.html");
    let run = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["lesson", "tour-3", "--size", "80x24", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&out).unwrap();
    // The page opens under naive, so its static heading (what a browser
    // without the script shows) is naive's.
    assert!(html.contains(&format!("<title>idem · {NAIVE}</title>")));
    assert!(html.contains(&format!(r#"<h1 id="heading">idem · {NAIVE}</h1>"#)));
    // Above the lesson as text, which heads each design with its own.
    let head = &html[..html.find(r#"<section id="text""#).unwrap()];
    assert!(!head.contains(IDEMPOTENT));
    let text = &html[head.len()..html.find("<script").unwrap()];
    assert!(
        text.contains(&format!("<h3>idempotent: {IDEMPOTENT}</h3>")),
        "{text}"
    );
}

#[test]
fn the_pages_script_heads_each_design_with_its_title() {
    let script = scenario::find("tour-3").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let Some(naive) = run_page(&html, &[]) else {
        return;
    };
    assert_eq!(naive["heading"], format!("idem · {NAIVE}"), "{naive}");
    assert_eq!(naive["chapter"], NAIVE, "{naive}");
    assert_eq!(naive["nav"][0], format!("1. {NAIVE}"), "{naive}");
    let idempotent = run_page(&html, &["d"]).unwrap();
    assert_eq!(idempotent["design"], 1);
    assert_eq!(idempotent["heading"], format!("idem · {IDEMPOTENT}"));
    assert_eq!(idempotent["chapter"], IDEMPOTENT);
    assert_eq!(idempotent["nav"][0], format!("1. {IDEMPOTENT}"));

    // The tour: the page keeps its own heading; each scenario's button
    // names it as told for the design it shows.
    let tour: Vec<_> = ["tour-1", "tour-2", "tour-3", "tour-4"]
        .iter()
        .map(|n| scenario::find(n).unwrap())
        .collect();
    let html = lesson::render(&tour, (80, 24), "the tour").unwrap();
    let state = run_page(&html, &["3", "d"]).unwrap();
    assert_eq!(state["heading"], "", "the script leaves a tour's heading");
    assert_eq!(state["nav"][2], format!("3. {IDEMPOTENT}"), "{state}");
    assert_eq!(
        state["nav"][1],
        format!("2. {}", tour[1].title_for("naive")),
        "{state}"
    );
}
