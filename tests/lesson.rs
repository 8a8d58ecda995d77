//! A lesson is one self-contained page: every step of every design of its
//! scenarios, with nothing fetched from anywhere.

use idem::export::lesson;
use idem::scenario;
use idem::timeline::Timeline;

#[test]
fn a_lesson_holds_every_step_of_every_design_and_needs_no_network() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let start = html
        .find(r#"<script id="lesson-data" type="application/json">"#)
        .unwrap();
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    let lessons: serde_json::Value = serde_json::from_str(data).unwrap();
    let designs = lessons[0]["designs"].as_array().unwrap();
    assert_eq!(designs.len(), script.strategies().len());
    assert_eq!(designs[0]["name"], "naive", "the problem before the fix");
    for d in designs {
        for step in d["steps"].as_array().unwrap().iter().skip(1) {
            assert!(
                !step["did"].as_str().unwrap().is_empty(),
                "every step says what it did"
            );
            assert!(
                !step["verdict"].as_str().unwrap().contains("<-"),
                "one arrow: ←"
            );
        }
    }
    for d in designs {
        let strategy = idem::sim::Strategy::by_name(d["name"].as_str().unwrap()).unwrap();
        let frames = Timeline::build(&script, &strategy, 0, &[])
            .unwrap()
            .frames
            .len();
        assert_eq!(d["steps"].as_array().unwrap().len(), frames);
    }
    // The only URL is the SVG namespace: no script, style or font is fetched.
    // (`http-equiv` names the page's Content-Security-Policy, not a URL.)
    for (i, _) in html
        .match_indices("http")
        .filter(|(i, _)| !html[*i..].starts_with("http-equiv"))
    {
        assert!(
            html[i..].starts_with("http://www.w3.org/2000/svg"),
            "{}",
            &html[i..i + 60]
        );
    }
    assert!(!html.contains("<script src"));
}
