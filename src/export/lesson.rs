//! A lesson to hand out: one self-contained HTML file that steps through
//! scenarios with ←/→ or buttons, every design they are written for, the
//! real screen of each step beside its narration. No network, no external
//! script: it opens on any laptop, without Rust.

use super::lesson_data::{BorrowedWords, Design, EarlierWords, KeylessWords, Lesson, Step};
use super::shot::{Moment, Shot, ShotError, View};
use super::svg;
use crate::scenario::Script;
use crate::scenario::key_word::{KeyWord, Medium, told};
use crate::sim::Frame;
use crate::timeline::Timeline;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The heading of a page of one scenario, shown under `design`.
pub fn heading(script: &Script, design: &str) -> String {
    format!("idem · {}", script.title_for(design))
}

/// A step's heading on the page: its chapter, or its move of a found
/// schedule, counted, and the title when it has one.
fn part(script: &Script, frame: &Frame) -> String {
    let at = match script.origin {
        crate::scenario::Origin::FoundSchedule => {
            format!("Move {}/{}", frame.chapter, script.steps.len())
        }
        _ => format!("Chapter {}", frame.chapter),
    };
    if frame.chapter_title.is_empty() {
        at
    } else {
        format!("{at}: {}", frame.chapter_title)
    }
}

/// What a step did, in the engine's words: the terminal's first line.
fn did(frame: &Frame) -> String {
    crate::sim::event::step_told(&frame.events)
}

/// The chapter's words before `frame`'s own (`Frame::opening`), as the
/// page tells them: each group an earlier step told, under a mark naming
/// that step, then the words no earlier step told.
fn opening(frames: &[Frame], frame: &Frame, medium: Medium) -> (Vec<EarlierWords>, String) {
    let opening = frame.opening().trim_end();
    let mut earlier = Vec::new();
    let mut from = 0;
    for group in crate::sim::frame::told_before(frames, frame) {
        let end = group.range.end.min(opening.len());
        if group.range.start >= end {
            continue;
        }
        earlier.push(EarlierWords {
            step: group.step,
            text: told(opening[group.range.start..end].trim(), medium).into_owned(),
        });
        from = end;
    }
    let rest = told(opening[from..].trim_start(), medium).into_owned();
    (earlier, rest)
}

/// The step's own words, unless they only repeat what it did: the
/// terminal says them once.
fn said(frame: &Frame, medium: Medium) -> Option<String> {
    let did = did(frame);
    frame
        .said
        .as_deref()
        .filter(|s| s.trim() != did.trim())
        .map(|s| told(s, medium).into_owned())
}

/// The words the page's text version reads in place of the page's own:
/// the same words with no key named. No key works in that text ("Press d
/// to see …" under a printed step, teacher trial 27); the other design's
/// steps follow in their own section.
fn keyless(frames: &[Frame], frame: &Frame) -> KeylessWords {
    let (_, opening) = opening(frames, frame, Medium::Transcript);
    KeylessWords {
        opening,
        said: said(frame, Medium::Transcript),
        borrowed: frame
            .borrowed
            .as_ref()
            .map(|b| told(&b.text, Medium::Transcript).into_owned()),
    }
}

/// Every step of the run under `strategy`, as the page shows it: the
/// terminal's main screen without the terminal's keys. The page has keys
/// of its own and names them beside the screen; the key bar's row is cut
/// off, and the header leaves out its `(m)`.
pub fn screens(
    script: &Script,
    strategy: &crate::sim::Strategy,
    size: (u16, u16),
    color: bool,
) -> Result<Vec<Buffer>, ShotError> {
    let shot = |moment| Shot {
        script: script.clone(),
        strategy: strategy.clone(),
        seed: 0,
        moment,
        view: View::Main,
        width: size.0,
        height: size.1,
        ascii: false,
        color,
    };
    let last = shot(Moment::Start).app()?.last_pos();
    (0..=last)
        .map(|step| {
            let shot = shot(Moment::Step(step));
            let mut app = shot.app()?;
            app.theme.medium = Medium::Page;
            Ok(without_last_row(&shot.draw(&app)))
        })
        .collect()
}

/// The buffer less its bottom row: the main screen's key bar
/// (`tui::layout::main_for`), blank once the keys are not shown.
fn without_last_row(full: &Buffer) -> Buffer {
    let area = full.area;
    let mut out = Buffer::empty(Rect::new(0, 0, area.width, area.height.saturating_sub(1)));
    for y in 0..out.area.height {
        for x in 0..area.width {
            out[(x, y)] = full[(x, y)].clone();
        }
    }
    out
}

/// The step of each design's run that shows the moment `step` of run
/// `from` shows: the same lookup as the terminal's `m`
/// (`tui::update::design`).
fn same_moment(all: &[Timeline], from: usize, step: usize) -> Vec<usize> {
    let moment = all[from].moment(step);
    all.iter()
        .enumerate()
        .map(|(i, to)| if i == from { step } else { to.find(&moment) })
        .collect()
}

pub fn render(scripts: &[Script], size: (u16, u16), title: &str) -> Result<String, ShotError> {
    let mut lessons = Vec::new();
    for script in scripts {
        let strategies = crate::tui::app::designs(script);
        let timelines = strategies
            .iter()
            .map(|strategy| Timeline::build(script, strategy, 0, &[]))
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Vec::new();
        for (i, (strategy, timeline)) in strategies.iter().zip(&timelines).enumerate() {
            let buffers = screens(script, strategy, size, true)?;
            let last = timeline.frames.len() - 1;
            let steps = buffers
                .iter()
                .zip(&timeline.frames)
                .map(|(buffer, frame)| {
                    let (earlier, opening) = opening(&timeline.frames, frame, Medium::Page);
                    Step {
                        svg: svg::render(
                            buffer,
                            &format!("{} · {} · step {}", script.name, strategy.name, frame.index),
                        ),
                        chapter: frame.chapter,
                        chapter_title: frame.chapter_title.clone(),
                        part: part(script, frame),
                        earlier,
                        opening,
                        did: did(frame),
                        said: said(frame, Medium::Page),
                        keyless: keyless(&timeline.frames, frame),
                        borrowed: frame.borrowed.as_ref().map(|b| BorrowedWords {
                            mark: b.written_for.mark(),
                            text: told(&b.text, Medium::Page).into_owned(),
                        }),
                        action: frame.action.clone(),
                        verdict_title: crate::tui::view::verdict_title(frame.index >= last),
                        // One run on one schedule, as the terminal says it
                        // (`correct in this run`).
                        verdict: frame
                            .verdict
                            .chain_of_one_run_with(crate::sim::Arrow::Drawn),
                        same_moment: same_moment(&timelines, i, frame.index),
                    }
                })
                .collect();
            out.push(Design {
                name: strategy.name.to_string(),
                title: script.title_for(&strategy.name).to_string(),
                heading: heading(script, &strategy.name),
                steps,
            });
        }
        lessons.push(Lesson {
            name: script.name.clone(),
            summary: script.summary.clone(),
            designs: out,
        });
    }
    let data = serde_json::to_string(&lessons).expect("plain data serialises");
    Ok(fill(
        PAGE,
        &[
            ("CSP", &content_security_policy()),
            ("TITLE", &svg::escape(title)),
            // The page's key for what the story calls {key:switch-design}:
            // the one its words name is the one its script binds.
            ("SWITCH_KEY", Medium::Page.key(KeyWord::SwitchDesign)),
            ("DATA", &script_safe_json(&data)),
            ("TEXT", &super::lesson_text::render(&lessons)),
            // Another scenario to pick only where the page holds several.
            ("PICK_HINT", &pick_hint(lessons.len())),
        ],
    ))
}

const PAGE: &str = include_str!("lesson.html");

/// The hint's words for the keys that pick a scenario, as many as the
/// page holds (the script binds 1 to 9); none on a page of one.
fn pick_hint(lessons: usize) -> String {
    match lessons {
        0 | 1 => String::new(),
        n => format!(", 1&ndash;{} picks a scenario", n.min(9)),
    }
}

/// JSON that can sit inside a `<script>` element whatever its strings
/// hold: with no `<` the HTML parser never meets `</script>` or `<!--`
/// (which would switch it into a state that swallows the page's own
/// script), and with no `>` or `&` nothing else reads as markup. The
/// `\u003c` forms mean the same characters to `JSON.parse`. Outside
/// strings JSON has none of the three, so every one replaced is in a string.
pub fn script_safe_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}

/// Fills `{{NAME}}` placeholders in one pass over the template: a value is
/// never searched again, so text that itself reads `{{DATA}}` stays text.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let known = after.find("}}").and_then(|close| {
            let name = &after[..close];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (close, *v))
        });
        match known {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The page's own script, exactly as the browser hashes it: the text
/// between the last `<script>` tag and its `</script>`.
pub fn page_script() -> &'static str {
    let start = PAGE.rfind("<script>").expect("the page has its script") + "<script>".len();
    let end = start + PAGE[start..].find("</script>").expect("the script ends");
    &PAGE[start..end]
}

/// A policy that runs the page's own script and nothing else: no script
/// from the data, no inline handler (`onerror=`), nothing fetched. The
/// page's own `<style>` stays allowed.
fn content_security_policy() -> String {
    use base64::Engine;
    use sha2::Digest;
    let hash = sha2::Sha256::digest(page_script().as_bytes());
    let hash = base64::engine::general_purpose::STANDARD.encode(hash);
    format!(
        "default-src 'none'; script-src 'sha256-{hash}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_never_filled_again() {
        let page = fill(
            "<title>{{TITLE}}</title>{{DATA}}{{OTHER}}",
            &[("TITLE", "{{DATA}}"), ("DATA", "x")],
        );
        assert_eq!(page, "<title>{{DATA}}</title>x{{OTHER}}");
    }

    #[test]
    fn the_json_holds_no_markup_and_means_the_same() {
        let json = serde_json::to_string(&"</script><!-- a & b >").unwrap();
        let safe = script_safe_json(&json);
        assert!(!safe.contains(['<', '>', '&']), "{safe}");
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><!-- a & b >");
    }

    #[test]
    fn the_policy_names_the_pages_own_script() {
        let script = page_script();
        assert!(script.contains("JSON.parse"), "{script}");
        assert!(content_security_policy().contains("script-src 'sha256-"));
    }
}
