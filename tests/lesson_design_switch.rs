//! Issue 18 §9: the handout behaves as the terminal does. Its design key
//! (`d` on the page) lands on the same moment of the other design's run as
//! the terminal's `m`, worked out in Rust when the page is written: each
//! step carries the step of every design at its moment, and the page's
//! script only looks it up.

use crate::common;
use idem::export::lesson;
use idem::scenario;
use idem::tui::app::designs;
use idem::tui::{Action, update};

fn data(html: &str) -> serde_json::Value {
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// Where the terminal's `m` lands: the design after `design` in the
/// scenario's list, and the step it shows there.
fn tui_m(name: &str, design: &str, step: usize) -> (String, usize) {
    let mut app = common::app(name, design);
    for _ in 0..step {
        update(&mut app, Action::Next);
    }
    assert_eq!(app.pos, step, "{name} {design}: the run has step {step}");
    update(&mut app, Action::ToggleMode);
    (app.strategy.name.to_string(), app.pos)
}

/// Where the page's `d` lands, read from its data as its script reads it.
fn page_d(lessons: &serde_json::Value, design: usize, step: usize) -> (String, usize) {
    let designs = lessons[0]["designs"].as_array().unwrap();
    let to = (design + 1) % designs.len();
    let at = &designs[design]["steps"][step]["same_moment"][to];
    let at = at
        .as_u64()
        .unwrap_or_else(|| panic!("no same_moment[{to}]")) as usize;
    (designs[to]["name"].as_str().unwrap().to_string(), at)
}

#[test]
fn tour_1_naive_step_13_lands_where_the_terminals_m_lands() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let lessons = data(&html);
    let (design, step) = tui_m("tour-1", "naive", 13);
    assert_eq!(design, "idempotent");
    assert_eq!(page_d(&lessons, 0, 13), (design, step));
}

#[test]
fn every_step_of_every_tour_switches_as_the_terminal_does() {
    for name in [
        "tour-1",
        "tour-2",
        "tour-3",
        "tour-4",
        "crash-after-provider",
    ] {
        let script = scenario::find(name).unwrap();
        let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
        let lessons = data(&html);
        let all = designs(&script);
        for (i, d) in all.iter().enumerate() {
            let steps = lessons[0]["designs"][i]["steps"].as_array().unwrap();
            for (step, this) in steps.iter().enumerate() {
                let moments = this["same_moment"].as_array().unwrap();
                assert_eq!(moments.len(), all.len(), "{name} {} {step}", d.name);
                assert_eq!(moments[i], step, "{name}: its own design stays put");
                assert_eq!(
                    page_d(&lessons, i, step),
                    tui_m(name, &d.name, step),
                    "{name} {} step {step}",
                    d.name
                );
            }
        }
    }
}

/// A few lines of DOM, enough for the page's own script to run in Node:
/// elements by id keep their text, `hidden` and attributes; key presses
/// reach the page's handler through `#press=`, as in the browser test.
const DOM: &str = r##"
const elements = {};
function element(id) {
  return elements[id] || (elements[id] = {
    id, textContent: "", innerHTML: "", hidden: false, attributes: {}, children: [], listeners: {},
    setAttribute(k, v) { this.attributes[k] = v; },
    appendChild(c) { this.children.push(c); },
    append(...c) { this.children.push(...c); },
    replaceChildren(...c) { this.children = c; },
    addEventListener(type, f) { this.listeners[type] = f; },
  });
}
let created = 0;
const listeners = {};
globalThis.location = { hash: process.argv[3] };
globalThis.KeyboardEvent = class { constructor(type, init) { this.type = type; this.key = init.key; } };
globalThis.document = {
  title: "",
  body: element("body"),
  getElementById: (id) => element(id),
  createElement: () => element("created-" + created++),
  querySelectorAll: (q) => q === "#scenarios button" ? element("scenarios").children : [],
  querySelector: (q) => element(q),
  addEventListener: (type, f) => { listeners[type] = f; },
  dispatchEvent: (e) => listeners[e.type](e),
};
element("lesson-data").textContent = require("fs").readFileSync(process.argv[2], "utf8");
"##;

const REPORT: &str = r#"
console.log(JSON.stringify({ design: state.design, step: state.step, heading: element("heading").textContent,
  chapter: element("chapter").textContent, pick_hint_hidden: element("pick-hint").hidden, nav: element("scenarios").children.map((b) => b.textContent) }));
"#;

/// The page's script run in Node after these key presses: the state it
/// ends in. None (and a `skipped:` line) where Node is not installed.
pub fn run_page(html: &str, presses: &[&str]) -> Option<serde_json::Value> {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("skipped: no node on PATH to run the page's script");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    std::fs::write(dir.path().join("data.json"), &html[start..end]).unwrap();
    let script = lesson::page_script();
    // The page's markup gives its script the key it names for the switch.
    let kbd = r#"<kbd id="switch-key">"#;
    let at = html.find(kbd).expect("the page names its switch key") + kbd.len();
    let key = &html[at..at + html[at..].find("</kbd>").unwrap()];
    let program = format!(
        "{DOM}\nelement(\"switch-key\").textContent = {};\n{script}\n{REPORT}",
        serde_json::to_string(key).unwrap()
    );
    std::fs::write(dir.path().join("page.js"), program).unwrap();
    let out = std::process::Command::new("node")
        .arg(dir.path().join("page.js"))
        .arg(dir.path().join("data.json"))
        .arg(format!("#press={}", presses.join(",")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn the_pages_own_script_takes_d_to_the_terminals_step() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let mut presses = vec!["ArrowRight"; 13];
    presses.push("d");
    let Some(state) = run_page(&html, &presses) else {
        return;
    };
    let (_, step) = tui_m("tour-1", "naive", 13);
    assert_eq!(state["design"], 1, "{state}");
    assert_eq!(state["step"], step, "{state}");
    // And back: `d` again lands where the terminal's `m` does from there.
    presses.push("d");
    let state = run_page(&html, &presses).unwrap();
    let (_, back) = tui_m("tour-1", "idempotent", step);
    assert_eq!(
        (state["design"].clone(), state["step"].clone()),
        (0.into(), back.into())
    );
}
