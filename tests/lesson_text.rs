//! The handout reads without its script (teacher trial 23: a browser
//! without JavaScript, a printout or a text browser showed only the
//! controls). Every step's words are in the page as text, in order,
//! outside the script's data and the screens' SVG.

use idem::export::lesson;
use idem::scenario::{self, Script};

/// `html` without every `open`…`close` element.
fn without(html: &str, open: &str, close: &str) -> String {
    let mut kept = String::new();
    let mut rest = html;
    while let Some(at) = rest.find(open) {
        kept.push_str(&rest[..at]);
        let end = at + rest[at..].find(close).expect("closed") + close.len();
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// What a reader without the script gets: the page less its scripts,
/// styles and screens, its tags dropped, its entities read, its
/// whitespace squeezed.
fn text_only(html: &str) -> String {
    let mut page = without(html, "<script", "</script>");
    for (open, close) in [("<style", "</style>"), ("<svg", "</svg>")] {
        page = without(&page, open, close);
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in page.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    squeeze(&text)
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every step of every design whose words (`did`, from the page's own
/// data) are missing from the text a reader without the script gets, in
/// the order the steps run; and how many steps there are.
fn missing(scripts: &[Script]) -> (Vec<String>, usize) {
    let html = lesson::render(scripts, (100, 30), "t").unwrap();
    let text = text_only(&html);
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let data = &html[html.find(open).unwrap() + open.len()..];
    let data = &data[..data.find("</script>").unwrap()];
    let lessons: serde_json::Value = serde_json::from_str(data).unwrap();
    let (mut lost, mut seen, mut from) = (Vec::new(), 0, 0);
    for lesson in lessons.as_array().unwrap() {
        for design in lesson["designs"].as_array().unwrap() {
            for (i, step) in design["steps"].as_array().unwrap().iter().enumerate() {
                seen += 1;
                let did = squeeze(step["did"].as_str().unwrap());
                // In order: each step's words after the step before's.
                match text[from..].find(&did) {
                    Some(at) => from += at + did.len(),
                    None => lost.push(format!(
                        "{} {} step {i}: {did}",
                        lesson["name"], design["name"]
                    )),
                }
            }
        }
    }
    (lost, seen)
}

#[test]
fn every_step_reads_without_the_script_in_one_scenario() {
    let (lost, seen) = missing(&[scenario::find("tour-1").unwrap()]);
    assert!(lost.is_empty(), "{} of {seen} steps: {lost:#?}", lost.len());
}

#[test]
fn every_step_reads_without_the_script_in_the_tour() {
    let tour: Vec<Script> = ["tour-1", "tour-2", "tour-3", "tour-4"]
        .iter()
        .map(|n| scenario::find(n).unwrap())
        .collect();
    let (lost, seen) = missing(&tour);
    assert!(lost.is_empty(), "{} of {seen} steps: {lost:#?}", lost.len());
}

/// The hint names the keys that pick a scenario only where there is
/// another to pick, and as many as there are.
#[test]
fn the_hint_names_scenario_keys_only_for_several() {
    let one = lesson::render(&[scenario::find("tour-1").unwrap()], (80, 24), "t").unwrap();
    assert!(!one.contains("picks a scenario"));
    let two: Vec<Script> = ["tour-1", "tour-2"]
        .iter()
        .map(|n| scenario::find(n).unwrap())
        .collect();
    let two = lesson::render(&two, (80, 24), "t").unwrap();
    assert!(two.contains("1&ndash;2 picks a scenario"), "the hint");
}

/// The text version names no key, since none works there ("Press d to
/// see …" under a printed step), and every design's steps end with the
/// verdict at the end: naive's verdict, settled at its double charge,
/// had been left out of its last step as a repeat (teacher trial 27).
#[test]
fn the_text_names_no_key_and_ends_each_design_with_its_verdict() {
    let html = lesson::render(&[scenario::find("tour-1").unwrap()], (100, 30), "t").unwrap();
    let open = r#"<section id="text""#;
    let section = &html[html.find(open).expect("the text version")..];
    let section = &section[..section.find("</section>").expect("closed")];
    let text = text_only(section);
    for key in ["Press d", "Press m", "press d", "press m"] {
        assert!(!text.contains(key), "{key}: {text}");
    }
    // One heading per design, each design's last step with its verdict.
    let designs = section.matches("<h3>").count();
    assert_eq!(designs, 2, "{section}");
    for part in section.split("<h3>").skip(1) {
        let last = part.rfind("<li ").expect("a step");
        assert!(
            text_only(&part[last..]).contains("Verdict at the end:"),
            "{}",
            text_only(part)
        );
    }
}

/// Every step the text version cites (`ack lost at step 8`) is a step the
/// text names: its extract, without the list's numbers, had none (teacher
/// trial 28), so "at step 8" pointed nowhere.
#[test]
fn every_step_the_text_cites_is_named_in_it() {
    let html = lesson::render(&[scenario::find("tour-1").unwrap()], (100, 30), "t").unwrap();
    let open = r#"<section id="text""#;
    let section = &html[html.find(open).expect("the text version")..];
    let section = &section[..section.find("</section>").expect("closed")];
    let mut cited = 0;
    for part in section.split("<h3>").skip(1) {
        let text = text_only(part);
        let steps = part.matches("<li ").count();
        for n in 0..steps {
            assert!(text.contains(&format!("Step {n} ")), "step {n}: {text}");
        }
        for (at, _) in text.match_indices("at step ") {
            let n: String = text[at + 8..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            assert!(text.contains(&format!("Step {n} ")), "step {n}: {text}");
            cited += 1;
        }
    }
    assert!(cited > 0, "tour-1 cites the lost ack's step: {section}");
}
