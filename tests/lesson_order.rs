//! The handout tells each step as the terminal's story panel does: what
//! the step did, then what the chapter said before it, then the step's
//! own new words; and it heads the verdict with the terminal's words at
//! that step ("Verdict so far", "Verdict at the end" at the last).

use idem::export::lesson;
use idem::scenario;
use idem::sim::Strategy;
use idem::timeline::Timeline;

fn data(html: &str) -> serde_json::Value {
    let open = r#"<script id="lesson-data" type="application/json">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn the_page_shows_what_the_step_did_then_the_chapter_then_the_new_words() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let at = |id: &str| {
        html.find(&format!(r#"<div id="{id}">"#))
            .unwrap_or_else(|| panic!("no #{id}"))
    };
    let order = ["did", "narration", "said", "borrowed", "verdict"];
    for pair in order.windows(2) {
        assert!(
            at(pair[0]) < at(pair[1]),
            "#{} comes before #{}, as in the terminal's story panel",
            pair[0],
            pair[1]
        );
    }
    // The chapter's text is what came before the step's words, never
    // the words again; the two together are the terminal's story.
    let lessons = data(&html);
    let mut with_words = 0;
    for d in lessons[0]["designs"].as_array().unwrap() {
        let strategy = Strategy::by_name(d["name"].as_str().unwrap()).unwrap();
        let frames = Timeline::build(&script, &strategy, 0, &[]).unwrap().frames;
        for (step, frame) in d["steps"].as_array().unwrap().iter().zip(&frames) {
            // The earlier groups (each under its step's mark), then the
            // words no earlier step told: together the chapter's text.
            let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut told: Vec<&str> = step["earlier"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["text"].as_str().unwrap())
                .collect();
            told.push(step["opening"].as_str().unwrap());
            assert_eq!(
                squeeze(&told.join(" ")),
                squeeze(frame.opening()),
                "step {}",
                frame.index
            );
            if let Some(said) = step["said"].as_str() {
                with_words += 1;
                assert!(
                    !step["opening"].as_str().unwrap().ends_with(said.trim()),
                    "step {}: the new words are told once",
                    frame.index
                );
            }
        }
    }
    assert!(with_words > 0, "tour-1 has steps with words of their own");
}

#[test]
fn every_steps_verdict_is_headed_with_the_terminals_words() {
    let script = scenario::find("tour-1").unwrap();
    // At 120x40 the terminal shows its verdict panel, so each step's
    // picture (the terminal's own screen) holds the heading it drew.
    let html = lesson::render(std::slice::from_ref(&script), (120, 40), "t").unwrap();
    assert!(!html.contains("verdict so far"), "the terminal's capitals");
    let lessons = data(&html);
    for d in lessons[0]["designs"].as_array().unwrap() {
        let steps = d["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            let title = step["verdict_title"].as_str().unwrap();
            let want = if i + 1 == steps.len() {
                "Verdict at the end"
            } else {
                "Verdict so far"
            };
            assert_eq!(title, want, "{} step {i}", d["name"]);
            let svg = step["svg"].as_str().unwrap();
            assert!(
                svg.contains(title),
                "{} step {i}: the screen beside it says {title:?} too",
                d["name"]
            );
        }
    }
    assert!(html.contains(r#"step.verdict_title + ": ""#));
}

/// Teacher trial, tour-4 naive step 5: the handout, as the terminal, told
/// "the card has not been charged" (step 4's words) beside the charge
/// ch_81 with nothing to say it was history. Each group of earlier words
/// carries the step it was told at, as a word; the page's own text for
/// the chapter keeps only the words new at the step.
#[test]
fn the_page_names_the_step_earlier_words_were_told_at() {
    let script = scenario::find("tour-4").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (80, 24), "t").unwrap();
    let lessons = data(&html);
    let naive = lessons[0]["designs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "naive")
        .unwrap();
    let step = &naive["steps"][5];
    let earlier = step["earlier"].as_array().expect("earlier words, grouped");
    assert_eq!(earlier[0]["step"], 4);
    assert!(
        earlier[0]["text"]
            .as_str()
            .unwrap()
            .contains("the card has not been charged"),
        "{step}"
    );
    assert!(
        !step["opening"]
            .as_str()
            .unwrap()
            .contains("the card has not been charged"),
        "step 4's words are not told again as if new: {step}"
    );
}
