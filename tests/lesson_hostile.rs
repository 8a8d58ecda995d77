//! Issue 22, section 1: a scenario's text cannot put markup or script into
//! the lesson handout. The hostile file carries template placeholders, an
//! HTML comment opener, script tags and an attribute breakout in its title,
//! summary, narration, step titles, sayings and questions; the written page
//! must hold exactly its own two script elements, that text only as data,
//! and a Content-Security-Policy whose hash is that of its own script.

use base64::Engine;
use sha2::Digest;
use std::process::Command;

const HOSTILE: &str = "tests/hostile_lesson/injection.toml";
const DATA_OPEN: &str = r#"<script id="lesson-data" type="application/json">"#;

fn written_lesson() -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lesson.html");
    let run = Command::new(env!("CARGO_BIN_EXE_idem"))
        .args(["lesson", HOSTILE, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(&out).unwrap()
}

/// The page cut in three: before the data, the data, after it.
fn split(html: &str) -> (&str, &str, &str) {
    let open = html.find(DATA_OPEN).expect("the data element") + DATA_OPEN.len();
    let close = open + html[open..].find("</script>").expect("the data ends");
    (&html[..open], &html[open..close], &html[close..])
}

#[test]
fn hostile_text_stays_data_and_only_the_pages_script_runs() {
    let html = written_lesson();
    // Exactly two script elements: the data and the page's own.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert_eq!(html.matches("</script>").count(), 2);
    let (before, data, after) = split(&html);
    assert!(after.starts_with("</script>\n<script>\n"), "{after:.80}");

    // The data holds no `<`, so the parser never leaves it early nor
    // enters an HTML comment; `>` and `&` are escaped too.
    assert!(!data.contains(['<', '>', '&']), "markup in the data");
    let lessons: serde_json::Value = serde_json::from_str(data).unwrap();
    let script = idem::scenario::find(HOSTILE).unwrap();
    for design in lessons[0]["designs"].as_array().unwrap() {
        assert_eq!(design["title"], script.title.as_str());
    }
    assert_eq!(lessons[0]["summary"], script.summary.as_str());
    assert!(script.title.contains("{{DATA}}") && script.title.contains("<img"));

    // The title lands in <title> and <h1> as text, escaped, and nowhere
    // else; once it is taken out, no user text and no placeholder is left
    // outside the data.
    let title = format!("idem · {}", html_escape(&script.title));
    let in_title = format!("<title>{title}</title>");
    let in_h1 = format!(r#"<h1 id="heading">{title}</h1>"#);
    assert_eq!(before.matches(&in_title).count(), 1, "{before}");
    assert_eq!(before.matches(&in_h1).count(), 1, "{before}");
    let before = before.replace(&in_title, "").replace(&in_h1, "");
    // The lesson as text (for a page without its script) holds the same
    // words, escaped: past the renderer's own tags, no markup is left.
    let (open, close) = (
        r#"<section id="text" aria-label="the lesson as text">"#,
        "</section>",
    );
    let at = before.find(open).expect("the lesson as text") + open.len();
    let text = &before[at..at + before[at..].find(close).expect("its end")];
    assert!(text.contains(&html_escape(&script.summary)), "{text}");
    let mut bare = text.to_string();
    for tag in ["article", "h2", "h3", "p", "ol", "li", "strong", "em"] {
        bare = bare
            .replace(&format!("<{tag}>"), "")
            .replace(&format!("</{tag}>"), "");
    }
    let bare = bare.replace(r#"<ol start="0">"#, "");
    let bare: String = bare
        .split("<li value=\"")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                &part[part.find("\">").unwrap() + 2..]
            }
        })
        .collect();
    assert!(
        !bare.contains(['<', '>']),
        "markup from the scenario: {bare}"
    );
    let before = before.replace(text, "");
    for part in [before.as_str(), after] {
        for bad in ["<img", "onerror", "alert(", "{{", "<!--"] {
            assert!(!part.contains(bad), "`{bad}` outside the data: {part}");
        }
    }
}

#[test]
fn the_content_security_policy_names_the_pages_own_script() {
    let html = written_lesson();
    let (before, _, after) = split(&html);
    let meta = r#"<meta http-equiv="Content-Security-Policy" content=""#;
    let at = before.find(meta).expect("a CSP meta in the head") + meta.len();
    let policy = &before[at..at + before[at..].find('"').unwrap()];
    assert!(policy.starts_with("default-src 'none'; "), "{policy}");
    // The one script the policy allows is the page's own, by its hash.
    let own = &after["</script>\n<script>".len()..];
    let own = &own[..own.find("</script>").unwrap()];
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(own));
    assert!(
        policy.contains(&format!("script-src 'sha256-{hash}';")),
        "{policy} does not allow the page's script ({hash})"
    );
    assert_eq!(policy.matches("sha256-").count(), 1);
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
